"""``python -m agon``: the same application as the ``agon`` command."""

from agon.cli.app import main

if __name__ == "__main__":
    main()

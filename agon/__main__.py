"""``python -m agon``: the same application as the ``agon`` command."""

import sys

try:
    from agon.cli.app import main
except ModuleNotFoundError as e:
    # 'python3 -m agon' in a checkout, with a Python that agon is not installed for: the folder agon/ is found, the
    # rest of the program (agon.cli, its libraries) is not. One line saying so, not a traceback.
    if not (e.name or "").startswith("agon"):
        raise
    sys.exit(f"error: agon is not installed for this Python ({sys.executable}); install it with"
             " `python3 -m venv .venv && .venv/bin/pip install -e .`, then run `.venv/bin/agon`")

if __name__ == "__main__":
    main()

"""The ``agon`` command line: thin Typer modules that parse, call the service and render with rich."""

"""The ``agon`` application: the global ``--db`` option and the command modules joined together."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from agon.cli import (
    analyse_cmds,
    file_cmds,
    history_cmds,
    note_cmds,
    play_cmds,
    plot_cmds,
    serve_cmds,
    setup_cmds,
    summary_cmds,
    tree_cmds,
)
from agon.cli.common import error_line, examples, set_db


class AgonGroup(TyperGroup):
    """The top command: with ``--json`` anywhere on the line, a usage error (a missing argument, a bad number) is
    ``{"error": ...}`` on stderr like every other error, with Click's exit status (2).

    It is also the last guard: an exception no command expected becomes one line saying an internal error happened
    and how to report it, with exit status 2; with ``AGON_DEBUG=1`` the traceback is shown instead."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        try:
            return self._main(argv, prog_name, complete_var, standalone_mode, **extra)
        except Exception as e:
            if os.environ.get("AGON_DEBUG") == "1" or not standalone_mode:
                raise
            error_line(f"internal error ({type(e).__name__}): agon did not expect this, and it is a bug. What was"
                       " recorded before it stays recorded. Run the same command with AGON_DEBUG=1 to see the"
                       " traceback, and report it with the command you ran", as_json="--json" in argv)
            sys.exit(2)

    def _main(self, argv: list[str], prog_name: str | None, complete_var: str | None, standalone_mode: bool,
              **extra: Any) -> Any:
        args = argv
        if not standalone_mode or "--json" not in argv:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(argv, prog_name, complete_var, False, **extra)
        except typer.Abort:
            error_line("aborted", as_json=True)
            sys.exit(1)
        except Exception as e:
            # Click's usage errors (Typer vendors Click in recent versions, so no import names them portably)
            if not hasattr(e, "format_message") or not isinstance(getattr(e, "exit_code", None), int):
                raise
            error_line(e.format_message(), as_json=True)
            sys.exit(e.exit_code)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name="agon",
    cls=AgonGroup,
    help="Record, replay, branch and plot tabletop games. Every decision and every chance outcome is an event.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    epilog=examples("agon demo", "agon --db demo.db games"),
)


def _version(value: bool) -> None:
    if value:
        from agon import __version__
        from agon.events.store import SCHEMA_VERSION

        typer.echo(f"agon {__version__} (store layout {SCHEMA_VERSION})")
        raise typer.Exit()


@app.callback()
def _root(
    db: Annotated[str | None, typer.Option("--db", envvar="AGON_DB", help="Store: a SQLAlchemy URL or a SQLite"
                                           " file path (default: agon.db in your data directory).")] = None,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print agon's version and its store layout version, then exit.")]
    = False,
) -> None:
    set_db(db)


for module in (setup_cmds, play_cmds, history_cmds, tree_cmds, note_cmds, file_cmds, plot_cmds, analyse_cmds,
               serve_cmds, summary_cmds):
    app.add_typer(module.app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()

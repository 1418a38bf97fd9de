"""The ``agon`` application: the global ``--db`` option and the command modules joined together."""

from __future__ import annotations

from typing import Annotated

import typer

from agon.cli import file_cmds, history_cmds, play_cmds, plot_cmds, setup_cmds, tree_cmds
from agon.cli.common import set_db

app = typer.Typer(
    name="agon",
    help="Record, replay, branch and plot tabletop games. Every decision and every chance outcome is an event.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
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


for module in (setup_cmds, play_cmds, history_cmds, tree_cmds, file_cmds, plot_cmds):
    app.add_typer(module.app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()

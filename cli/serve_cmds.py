"""agon serve: the game service over HTTP for players in different places (issue 16)."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from agon.cli.common import Fail, console, db_url, examples, friendly, service, set_db

app = typer.Typer()


@app.command(epilog=examples("agon serve --db club.db", "agon serve --db postgresql+psycopg://agon@db/agon"
                             " --host 0.0.0.0 --workers 2"))
@friendly
def serve(
    db: Annotated[str | None, typer.Option("--db", help="The store (as agon --db; default: AGON_DB, else agon.db"
                                           " in your data directory).")] = None,
    host: Annotated[str, typer.Option(help="The address to listen on (0.0.0.0: every network).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(help="Worker processes (several need PostgreSQL to share the work"
                                         " well; SQLite serialises writers).")] = 1,
    max_body: Annotated[int, typer.Option("--max-body", help="The largest request body, in bytes.")] = 4 * 1024 * 1024,
) -> None:
    """Serve the games over HTTP: a JSON API (/openapi.json), seat links that only their players can open, and
    live event streams. Creating a game answers one secret link per person's seat and one for the host."""
    import uvicorn

    if db is not None:
        set_db(db)
    if workers < 1 or not 0 < port < 65536:
        raise Fail("--workers must be at least 1 and --port between 1 and 65535")
    url = db_url()
    service()  # opens (and if needed creates) the store once, before any worker starts
    os.environ["AGON_DB"] = url
    os.environ["AGON_MAX_BODY"] = str(max_body)
    shown = url.split("@")[-1] if "@" in url else url
    console.print(f"agon serves {shown} on http://{host}:{port}/ ({workers} worker{'s' * (workers > 1)});"
                  " the API is described at /openapi.json. Ctrl-C stops it.")
    uvicorn.run("agon.server.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                log_level="warning", timeout_graceful_shutdown=3)

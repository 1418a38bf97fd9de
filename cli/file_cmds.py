"""Commands for files and integrity: export, import, verify."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from agon.cli.common import BranchOpt, Fail, GameArg, JsonOpt, console, examples, friendly, print_json, service

app = typer.Typer()


@app.command(epilog=examples("agon export 3f2a -o game.jsonl", "agon export 3f2a -b whatif > whatif.jsonl"))
@friendly
def export(
    game: GameArg,
    branch: BranchOpt = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="File to write (default: stdout).")] = None,
) -> None:
    """Write a line as JSON Lines: one event per line with its envelope (id, parent, tag, version, actor)."""
    data = service().export(game, branch)
    if output is None:
        typer.echo(data.decode(), nl=False)
        return
    output.write_bytes(data)
    lines = data.count(b"\n")
    console.print(f"Wrote {lines} events to {output}")


@app.command("import", epilog=examples("agon import game.jsonl", "agon --db other.db import game.jsonl --json"))
@friendly
def import_(
    file: Annotated[Path, typer.Argument(help="A file written by 'agon export'.")],
    as_json: JsonOpt = False,
) -> None:
    """Import a game from JSON Lines as a new game; a file that does not replay cleanly is refused whole."""
    if not file.is_file():
        raise Fail(f"{file} does not exist")
    svc = service()
    game_id = svc.import_(file.read_bytes())
    line = svc.load(game_id)
    if as_json:
        print_json({"id": game_id, "ruleset": line.ruleset.name, "events": len(line.events),
                    "status": line.status()})
        return
    console.print(game_id)
    console.print(f"Imported {len(line.events)} events of {line.ruleset.title}: {line.status()}")


@app.command(epilog=examples("agon verify 3f2a", "agon verify 3f2a --json"))
@friendly
def verify(game: GameArg,
           as_json: JsonOpt = False) -> None:
    """Recompute the hash chain of every event and replay every branch; report tampering or non-determinism."""
    svc = service()
    problems = svc.verify(game)
    g = svc.load(game).game
    n = svc.store.event_count(g.id)
    b = len(svc.store.branches(g.id))
    if as_json:
        print_json({"game": g.id, "events": n, "branches": b, "ok": not problems, "problems": problems})
    elif problems:
        for p in problems:
            console.print(f"[red]problem:[/] {p}")
    else:
        console.print(f"OK: {n} events, {b} branch(es); every hash matches and every line replays the same.")
    if problems:
        raise typer.Exit(1)

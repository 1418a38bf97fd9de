"""Commands that move along the game tree: undo, redo, branch, branches, switch."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from agon.cli.common import AtOpt, BranchOpt, GameArg, JsonOpt, console, examples, friendly, print_json, service
from agon.cli.render import scores_text
from agon.core.engine import Over
from agon.core.service import Line

app = typer.Typer()

def _where(line: Line) -> str:
    return f"branch {line.branch.name} is at event #{line.head.depth}: {line.status()}"


@app.command(epilog=examples("agon undo 3f2a", "agon undo 3f2a --steps 3 -b whatif"))
@friendly
def undo(game: GameArg, steps: Annotated[int, typer.Option("--steps", "-n", help="How many decisions.")] = 1,
         branch: BranchOpt = None, as_json: JsonOpt = False) -> None:
    """Move the branch head back before the last decision(s); nothing is deleted ('agon redo' comes back).

    In a game with people, a step is a person's decision: the bots' replies and the chance that followed it are
    undone with it."""
    svc = service()
    moved, n = svc.undo(game, steps, branch)
    line = svc.load(game, moved.name)
    if as_json:
        print_json({"undone": n, "branch": line.branch.name, "event": line.head.depth, "status": line.status()})
        return
    console.print(f"Undid {n} event(s); {_where(line)}")
    console.print(f"Bring them back with: agon redo {line.game.id}")


@app.command(epilog=examples("agon redo 3f2a", "agon redo 3f2a -b whatif --json"))
@friendly
def redo(game: GameArg, branch: BranchOpt = None, as_json: JsonOpt = False) -> None:
    """Move the branch head forward again, to where the last undo took it from."""
    svc = service()
    moved, n = svc.redo(game, branch)
    line = svc.load(game, moved.name)
    if as_json:
        print_json({"redone": n, "branch": line.branch.name, "event": line.head.depth, "status": line.status()})
        return
    console.print(f"Redid {n} event(s); {_where(line)}")


@app.command(epilog=examples("agon branch 3f2a whatif --at 40", "agon branch 3f2a luckier --at 40 -b whatif --reseed"))
@friendly
def branch(
    game: GameArg,
    name: Annotated[str, typer.Argument(help="The new branch's name.")],
    at: Annotated[int | None, typer.Option("--at", help="Start after event N (default: the head).")] = None,
    from_branch: Annotated[str | None, typer.Option(
        "--branch", "-b", help="The line to start from (default: the game's current one).")] = None,
    from_old: Annotated[str | None, typer.Option("--from", hidden=True)] = None,
    reseed: Annotated[bool, typer.Option("--reseed", help="Fresh luck instead of the same luck.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Start a what-if line at any position and switch to it. It keeps the original luck unless --reseed."""
    from_branch = from_branch or from_old
    svc = service()
    line = svc.load(game, svc.branch(game, name, at, from_branch, reseed).name)
    if as_json:
        print_json({"branch": name, "from": line.branch.parent_branch, "at": line.head.depth,
                    "luck": "fresh" if reseed else "same", "status": line.status()})
        return
    console.print(f"Branch {name} starts after event #{line.head.depth} of {line.branch.parent_branch}"
                  f" with {'fresh' if reseed else 'the same'} luck; now on {name}: {line.status()}")
    console.print(f"Play on with: agon options {line.game.id}   (back: agon switch {line.game.id} "
                  f"{line.branch.parent_branch})")


def _branch_rows(lines: list[Line]) -> list[dict[str, Any]]:
    by_name = {ln.branch.name: ln for ln in lines}
    rows = []
    for ln in lines:
        fork = None
        parent = by_name.get(ln.branch.parent_branch or "")
        if parent is not None:
            # the last event the two lines share
            common = 0
            for a, b in zip(ln.envelopes, parent.envelopes):
                if a.id != b.id:
                    break
                common = a.depth
            fork = common
        pending = ln.pending
        rows.append({
            "name": ln.branch.name, "parent": ln.branch.parent_branch, "fork_at": fork,
            "head": ln.head.depth, "luck": "same" if ln.branch.luck == 0 or parent is None
            or ln.branch.luck == parent.branch.luck else "fresh",
            "status": ln.status(), "over": isinstance(pending, Over),
            "winners": list(pending.outcome.winners) if isinstance(pending, Over) else None,
            "scores": ln.ruleset.scores(ln.state), "current": ln.branch.name == ln.game.current_branch,
        })
    return rows


@app.command(epilog=examples("agon branches 3f2a", "agon branches 3f2a --json"))
@friendly
def branches(game: GameArg, as_json: JsonOpt = False) -> None:
    """The tree of lines: where each forks from its parent, where its head is, and how it ends."""
    lines = service().lines(game)
    rows = _branch_rows(lines)
    if as_json:
        print_json(rows)
        return
    console.print(f"{lines[0].ruleset.title} game {lines[0].game.id}", markup=False)
    children: dict[str | None, list[dict[str, Any]]] = {}
    names = {r["name"] for r in rows}
    for r in rows:
        children.setdefault(r["parent"] if r["parent"] in names else None, []).append(r)

    def show(parent: str | None, indent: str) -> None:
        kids = children.get(parent, [])
        for i, r in enumerate(kids):
            last = i == len(kids) - 1
            mark = " (current)" if r["current"] else ""
            fork = f"forks after #{r['fork_at']} of {r['parent']}, " if r["parent"] else ""
            console.print(f"{indent}{'└── ' if last else '├── '}{r['name']}{mark}: {fork}head #{r['head']},"
                          f" {r['luck']} luck — {r['status']} ({scores_text(r['scores'])})", markup=False)
            show(r["name"], indent + ("    " if last else "│   "))

    show(None, "")


@app.command(epilog=examples("agon switch 3f2a whatif", "agon switch 3f2a main"))
@friendly
def switch(game: GameArg, name: Annotated[str, typer.Argument(help="The branch to make current.")],
           as_json: JsonOpt = False) -> None:
    """Make another branch the game's current one."""
    line = service().switch(game, name)
    if as_json:
        print_json({"branch": name, "event": line.head.depth, "status": line.status()})
        return
    console.print(f"Now on {_where(line)}")

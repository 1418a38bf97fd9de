"""Commands that move along the game tree: undo, redo, branch, branches, switch."""

import shlex
from typing import Annotated, Any

import typer

from agon.cli.common import (
    EVENT,
    BranchOpt,
    GameArg,
    JsonOpt,
    UsageFail,
    agon_line,
    branch_flag,
    branch_name,
    cited,
    console,
    examples,
    expect_option,
    friendly,
    print_json,
    service,
    whole,
)
from agon.cli.play_cmds import print_recorded
from agon.cli.render import scores_text
from agon.core.service import INT_MAX, Line
from agon.core.summary import score_unit
from agon.core.words import counted

app = typer.Typer()

def _where(line: Line) -> str:
    return f"branch {line.branch.name} is at event #{line.head.depth}: {line.status()}"


@app.command(epilog=examples("agon undo 3f2a --steps 3 -b whatif",
                             "agon undo 3f2a --to 40 --expect 41.a1b2c3d4   # unless the line moved"))
@friendly
def undo(game: GameArg,
         steps: Annotated[int | None, typer.Option("--steps", "-n", help="How many steps (see above; default: 1).",
                                                   parser=whole(1, INT_MAX))] = None,
         to: Annotated[int | None, typer.Option("--to", help="Back to just after event N.", parser=EVENT)] = None,
         branch: BranchOpt = None, expect: Annotated[str | None, expect_option("undo")] = None,
         as_json: JsonOpt = False) -> None:
    """Move the branch head back; nothing is deleted (`agon redo` comes back). Says what it took back.

    In a game played at a table (--table), a step is any event a person entered: a decision or a typed chance
    outcome. In a seeded game with people, a step is a person's decision: the bots' replies and the chance that
    followed it are undone with it. --to N goes back to just after event N in any game."""
    if to is not None and steps is not None:
        raise UsageFail("give either --to N (back to just after event N) or --steps N (back N steps), not both")
    svc = service()
    # the line after the undo (from its nearest snapshot) and the undone events alone: nothing else is read
    line, taken = svc.undo_told(game, steps or 1, branch, to, expect=expect)
    n = len(taken)
    if as_json:
        print_json({"undone": n, "branch": line.branch.name, "event": line.head.depth, "status": line.status(),
                    "took_back": [{"n": r.n, "actor": r.actor, "text": r.sentence} for r in taken]})
        return
    console.print(f"Undid {counted(n, 'event')}:")
    print_recorded(taken)
    console.print(f"Now {_where(line)}")
    console.print(f"Bring them back with: {agon_line(f'redo {line.game.id}{branch_flag(line)}')}", markup=False)


@app.command(epilog=examples("agon redo 3f2a", "agon redo 3f2a -b whatif --json"))
@friendly
def redo(game: GameArg, branch: BranchOpt = None, expect: Annotated[str | None, expect_option("redo")] = None,
         as_json: JsonOpt = False) -> None:
    """Move the branch head forward again, to where the last undo took it from."""
    svc = service()
    moved, n = svc.redo(game, branch, expect=expect)
    now = svc.head_summary(svc.store.game(game).id, moved.name)  # where the undo left from: known, not replayed
    if as_json:
        print_json({"redone": n, "branch": moved.name, "event": now.events - 1, "status": now.status})
        return
    console.print(f"Redid {counted(n, 'event')}; branch {moved.name} is at event #{now.events - 1}: {now.status}")


@app.command(epilog=examples("agon branch 3f2a whatif --at 40", "agon branch 3f2a luckier --at 40 -b whatif --reseed"))
@friendly
def branch(
    game: GameArg,
    name: Annotated[str, typer.Argument(help="The new branch's name.")],
    at: Annotated[int | None, typer.Option("--at", help="Start after event N (default: the head).", parser=EVENT)]
    = None,
    from_branch: Annotated[str | None, typer.Option(
        "--branch", "-b", help="The line to start from (default: the game's current one).", parser=branch_name)] = None,
    from_old: Annotated[str | None, typer.Option("--from", hidden=True, parser=branch_name)] = None,
    reseed: Annotated[bool, typer.Option("--reseed", help="Fresh luck instead of the same luck.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Start a what-if line at any position and switch to it. It keeps the original luck unless --reseed."""
    from_branch = from_branch or from_old
    svc = service()
    made = svc.branch(game, name, at, from_branch, reseed)
    game_id = svc.store.game(game).id
    now = svc.head_summary(game_id, made.name)  # at a head: the source's summary, copied; nothing replayed
    # a chance outcome due where it starts was drawn with it (Service.branch): the fork is before the draw
    last = now.events - 1
    fork = last if made.head_id == made.fork_id else svc.depth_of(game_id, made.fork_id)
    drawn = last - fork
    luck = "fresh" if reseed else "same"
    if as_json:
        print_json({"branch": name, "from": made.parent_branch, "at": fork, "event": last, "drawn": drawn,
                    "luck": luck, "status": now.status})
        return
    luck = "fresh" if reseed else "the same"
    told = "" if not drawn else (f"; agon drew the chance due there"
                                 f" ({f'event #{last}' if drawn == 1 else f'events #{fork + 1} to #{last}'})")
    console.print(f"Branch {name} starts after event #{fork} of {made.parent_branch}"
                  f" with {luck} luck{told}; now on {name}: {now.status}", markup=False)
    back = cited(f"switch {game_id} {shlex.quote(made.parent_branch or '')}")
    if now.over:  # a branch at the end of a finished line has nothing to play on
        console.print(f"Nothing to play here: the game is over at this position; branch from an earlier one with"
                      f" {cited(f'branch {game_id} NAME --at N')} to play on (back: {back})", markup=False)
        return
    console.print(f"Play on with: {cited(f'options {game_id}')}   (back: {back})", markup=False)


@app.command(epilog=examples("agon branches 3f2a", "agon branches 3f2a --json"))
@friendly
def branches(game: GameArg, as_json: JsonOpt = False) -> None:
    """The tree of lines: where each forks from its parent, where its head is, how it ends, what a redo brings back."""
    from dataclasses import asdict

    from agon.core import registry
    from agon.core.summary import scores_shown, shared

    g, branch_rows = service().tree(game)
    rows = [asdict(r) for r in branch_rows]
    for r in rows:  # an undo not yet redone: how many events, and the command that brings them back
        # where the players win or lose together (an Adamastor crew), their one score (else null)
        r["shared_score"] = shared(g.ruleset, r["scores"])
        flag = "" if r["name"] == g.current_branch else f" -b {shlex.quote(r['name'])}"
        undone = r.pop("undone")
        r["redo"] = None if r["redo"] is None else {"events": r["redo"], "undone": undone,
                                                    "command": agon_line(f"redo {g.id}{flag}")}
    if as_json:
        print_json(rows)
        return
    rs = registry.get(g.ruleset)
    unit = score_unit(rs)  # an Adamastor branch's score is its voyage's progress
    console.print(f"{rs.title} game {g.id}", markup=False)
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
            # a head on its parent's line (a branch just made, or an undone line entered again on the parent)
            none = f" (no events of its own: its head is on {r['parent']}'s line)" if (
                r["parent"] and r["fork_at"] == r["head"]) else ""
            redo = r["redo"]  # an undo not yet redone, with the command that brings back what it took
            if redo and redo["undone"] == redo["events"]:
                them = "it" if redo["events"] == 1 else "them"
                none += f" ({counted(redo['undone'], 'event')} undone: `{redo['command']}` brings {them} back)"
            elif redo:  # several undos: each redo brings back one
                none += (f" ({counted(redo['undone'], 'event')} undone: `{redo['command']}` brings back the last"
                         f" undo's {redo['events']}, run again for the rest)")
            below = indent + ("    " if last else "│   ")  # where its lines continue, folded
            scores = scores_text(scores_shown(g.ruleset, r["scores"]), unit)  # a crew's one score once
            console.print(f"{indent}{'└── ' if last else '├── '}{r['name']}{mark}: {fork}head #{r['head']}{none},"
                          f" {r['luck']} luck — {r['status']} ({scores})", markup=False,
                          hang=below + ("│   " if children.get(r["name"]) else "    ") + "  ")
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
    console.print(f"Now on branch {line.branch.name}, at event #{line.head.depth}: {line.status()}", markup=False)

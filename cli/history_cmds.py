"""Commands that look back: state, log, replay."""

from collections.abc import Iterator
from typing import Annotated

import typer

from agon.cli import keyread
from agon.cli.common import (
    EVENT,
    AsOpt,
    AtOpt,
    BranchOpt,
    Fail,
    GameArg,
    JsonOpt,
    PublicOpt,
    UsageFail,
    console,
    examples,
    fit_width,
    friendly,
    print_json,
    print_lines,
    service,
    viewer_of,
)
from agon.cli.render import said, scores_line, view_text
from agon.core.engine import PUBLIC, narrate_as
from agon.core.service import describe_pending
from agon.core.summary import score_unit

app = typer.Typer()

def _seen(viewer: str | None) -> str:
    """How a title says whose view it shows: '' for everything."""
    return "" if viewer is None else " as every player sees it" if viewer == PUBLIC else f" as {viewer} sees it"


@app.command(epilog=examples("agon state 3f2a --at 10", "agon state 3f2a -b whatif --as Ana --json"))
@friendly
def state(
    game: GameArg,
    at: AtOpt = None,
    branch: BranchOpt = None,
    as_player: AsOpt = None,
    public: PublicOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """The state at any position of a line: in full, as one player sees it, or as every player sees it."""
    line = service().load(game, branch)
    viewer = viewer_of(line, as_player, public)
    last = line.head.depth
    if at is not None and not 0 <= at <= last:
        raise Fail(f"--at {at} is outside this line, which has events 0 to {last}")
    n = last if at is None else at
    s = line.state if n == last else line.state_at(n)
    rs = line.ruleset
    view = rs.view(s, viewer)
    pending = rs.pending(s)
    status = describe_pending(pending)
    if as_json:
        print_json({"game": line.game.id, "branch": line.branch.name, "event": n, "status": status,
                    "round": rs.round(s), "scores": rs.scores(s), "score_unit": score_unit(rs), "as": viewer or None,
                    "public": viewer == PUBLIC, "view": view})
        return
    console.print(view_text(f"{rs.title} game {line.game.id}, branch {line.branch.name}, after event "
                            f"#{n}{_seen(viewer)}", view, fit_width()))
    console.print(f"Now: {status}")
    if (scores := scores_line(pending, rs.scores(s), score_unit(rs), rs.name)) is not None:  # unless the status told
        console.print(scores)


@app.command(epilog=examples("agon log 3f2a", "agon log 3f2a -b whatif --json"))
@friendly
def log(
    game: GameArg,
    branch: BranchOpt = None,
    as_player: Annotated[str | None, typer.Option(
        "--as", help="One player's own record: also what only this player saw (their cards by name).")] = None,
    full: Annotated[bool, typer.Option(
        "--full", help="Everything, hidden cards and all (for analysis after the game, not for a player).")] = False,
    public: Annotated[bool, typer.Option("--public", help="What every player sees: the default here,"
                                         " taken as `agon state`, `replay` and `view` take it.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """The events of a line, numbered, each told in an English sentence.

    Public by default (--public says so): only what every player sees (no hand, no face-down card), in the text
    and in --json, where a hidden part of an event reads "hidden". --as PLAYER adds what that player saw; --full
    shows everything."""
    given = [name for name, on in (("--as PLAYER", as_player is not None), ("--public", public), ("--full", full))
             if on]
    if len(given) > 1:
        raise UsageFail(f"give one of --as PLAYER (one player's record), --public (what every player sees) or --full"
                        f" (everything), not {'both' if len(given) == 2 else 'all of'} {' and '.join(given)}")
    svc = service()
    line = svc.load(game, branch)
    viewer = None if full else viewer_of(line, as_player, public=as_player is None)
    rows = svc.log(line, viewer)
    from agon.core.notes import on_line

    notes = on_line(svc, line)
    if as_json:
        print_json([{"n": r.n, "actor": r.actor, "type": line.codec.tag_of(r.event), "text": r.sentence,
                     "event": r.shown, **({"note": {"text": notes[r.n].text, "glyph": notes[r.n].glyph}}
                                          if r.n in notes else {})} for r in rows])
        return
    def lines() -> Iterator[tuple[str, str | None]]:
        for r in rows:
            note = notes.get(r.n)
            glyph = f" {note.glyph}" if note and note.glyph else ""
            yield f"{r.n:>5}. {said(r.actor, r.sentence)}{glyph}", "dim" if r.actor == "chance" else None
            if note and note.text:
                first, *more = note.text.split("\n")
                yield f"{'':>7}» {first}", "italic"
                for later in more:  # under the first, not at the margin where the events are numbered
                    yield f"{'':>9}{later}" if later else "", "italic"

    print_lines(lines())
    if full:
        console.print("Shown: everything, hidden cards included.")
    elif viewer != PUBLIC:
        console.print(f"Shown: {viewer}'s own record (what {viewer} saw).", markup=False)
    else:
        console.print("Shown: what every player sees (--as PLAYER adds a player's own cards; --full shows all).")
    console.print(f"Now: {line.status()}")


@app.command(epilog=examples("agon replay 3f2a --from 10 --to 20", "agon replay 3f2a --as Ana --pause"))
@friendly
def replay(
    game: GameArg,
    branch: BranchOpt = None,
    as_player: AsOpt = None,
    public: PublicOpt = False,
    start: Annotated[int, typer.Option("--from", help="First event to show (an event number).", parser=EVENT)] = 0,
    stop: Annotated[int | None, typer.Option("--to", help="Last event to show (an event number; default: the"
                                             " last).", parser=EVENT)] = None,
    pause: Annotated[bool, typer.Option("--pause", help="Wait for Enter after each step.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Step through a line: each event, then the state it leads to (in full, as one player sees it, or as every
    player sees it)."""
    svc = service()
    line = svc.load(game, branch)
    viewer = viewer_of(line, as_player, public)
    # as 'state --at' does: a range the line does not have is refused, not shown as nothing
    last = line.head.depth
    for name, n in (("--from", start), ("--to", stop)):
        if n is not None and n > last:
            raise Fail(f"{name} {n} is outside this line, which has events 0 to {last}")
    if stop is not None and start > stop:
        raise Fail(f"--from {start} is after --to {stop}; give the first event first (this line has events 0 to"
                   f" {last})")
    rs = line.ruleset
    out = []
    for st in line.steps(start, stop):  # from the nearest state snapshot before --from
        if st.index < start or (stop is not None and st.index > stop):
            continue
        sentence = narrate_as(rs, st.before if st.before is not None else st.after, st.event, viewer)
        view = rs.view(st.after, viewer)
        if as_json:
            out.append({"n": st.index, "actor": st.actor, "text": sentence, "scores": rs.scores(st.after),
                        "view": view})
            continue
        console.rule(f"#{st.index}")
        console.print(sentence, markup=False)
        title = f"after #{st.index}" + (f",{_seen(viewer)}" if viewer is not None else "")
        console.print(view_text(title, view, fit_width()))
        if pause:
            try:
                answer = keyread.line("Enter for the next step (q to stop)")
            except EOFError:  # Ctrl-C goes on: the command ends as any command Ctrl-C stops (status 130)
                console.print()  # the input ended (Ctrl-D) on the prompt's line: end that line, as Enter would
                return
            if answer.strip().lower() == "q":
                return
    if as_json:
        print_json(out)

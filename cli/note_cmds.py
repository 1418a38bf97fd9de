"""Commands for notes: note (write one on an event), notes (list a game's notes)."""

from typing import TYPE_CHECKING, Annotated

import typer

from agon.cli.common import (
    EVENT,
    BranchOpt,
    GameArg,
    JsonOpt,
    agon_line,
    console,
    examples,
    friendly,
    print_json,
    read_only,
    service,
)
from agon.core.names import GLYPHS
from agon.core.words import counted, listed

if TYPE_CHECKING:
    from agon.core.notes import ShownNote

app = typer.Typer()


@app.command(epilog=examples('agon note 3f2a 12 "the turning point" --glyph !!', 'agon note 3f2a 7 "why?" -b whatif'))
@friendly
def note(
    game: GameArg,
    n: Annotated[int, typer.Argument(help="The event, as numbered by `agon log`.", parser=EVENT)],
    text: Annotated[str, typer.Argument(help="The note.")] = "",
    glyph: Annotated[str | None, typer.Option(
        "--glyph", help=f"A mark: {' '.join(GLYPHS)} (good, mistake, brilliant, blunder, interesting, dubious).")]
    = None,
    branch: BranchOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Attach a note (and a glyph) to an event of a line. Notes are not game events: they never change an event,
    a line's hash chain or the state. A later note on the same event is shown instead of the earlier one; both
    are kept. A glyph alone keeps the earlier note's text in view."""
    from agon.core.notes import add

    line, shown = add(service(), game, n, text, glyph, branch)
    if as_json:
        print_json({"game": line.game.id, "branch": line.branch.name, "n": n, "event": shown.event_id,
                    "text": shown.text, "glyph": shown.glyph, "replaces": shown.earlier})
        return
    kept = "which is kept" if shown.earlier == 1 else "which are kept"
    replaced = f" (replacing {counted(shown.earlier, 'earlier note')}, {kept})" if shown.earlier else ""
    console.print(f"Noted event #{n} of branch {line.branch.name}: {shown.label()}{replaced}", markup=False)


@app.command(epilog=examples("agon notes 3f2a", "agon notes 3f2a --json"))
@friendly
def notes(game: GameArg, as_json: JsonOpt = False) -> None:
    """The notes of a game, by line and event (the latest note of each event)."""
    from agon.core.notes import all_notes

    lines, rows = all_notes(service(), game)
    if as_json:
        print_json([{"branch": b or None, "also_on": list(nt.also), "n": nt.n, "event": nt.event_id,
                     "text": nt.text, "glyph": nt.glyph, "at": nt.at, "replaces": nt.earlier} for b, nt in rows])
        return
    if not rows:
        gid = lines[0].game.id
        if read_only():  # none can be written here
            console.print(f"Game {gid} has no notes.", markup=False)
            return
        write = agon_line(f'note {gid} N "text"')
        console.print(f"Game {gid} has no notes yet; write one with: {write}", markup=False)
        return
    wheres = [_where(b, nt) for b, nt in rows]
    width = max(14, *(len(w) for w in wheres))
    for where, (_, nt) in zip(wheres, rows, strict=True):
        # a note's later lines stand under its first, not at the margin where they would read as other notes
        first, *more = nt.label().split("\n")
        text = "\n".join([f"{where:>{width}}  {first}", *(f"{'':>{width + 2}}{ln}" if ln else "" for ln in more)])
        console.print(text, markup=False, hang=width + 2)


def _where(branch: str, nt: "ShownNote") -> str:
    """Where a listed note is: 'main #7', 'main #7 (also on whatif)' for an event that lines share (a note is on
    the event, so a note written from whatif is this one), 'undone event #9'."""
    if not branch:
        return f"undone event #{nt.n}"
    if not nt.also:
        return f"{branch} #{nt.n}"
    others = list(nt.also) if len(nt.also) <= 3 else [*nt.also[:2], f"{counted(len(nt.also) - 2, 'more line')}"]
    return f"{branch} #{nt.n} (also on {listed(others)})"

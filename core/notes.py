"""Notes: comments (and the usual glyphs) on the events of a game, like the annotations of a chess study.

A note names an event node, not a position in a line: the same event seen from two lines that share it shows the
same note. Notes are not game events: they are kept in a table of their own, append-only, outside the hash chain,
so a note never changes an event's id, a line's hash chain or a fold. A later note on an event replaces the
earlier one for display; both are kept (and exported). A note of a glyph alone marks the move without unsaying
it: the latest text written before it stays in view beside the new glyph (``shown``).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, replace

from agon.core.names import GLYPHS, note_problem
from agon.core.service import Line, Service, ServiceError
from agon.core.words import listed
from agon.events.hints import again
from agon.events.store import NoteInfo, StoreError, now


@dataclass(frozen=True)
class ShownNote:
    """The note shown on event #``n`` of a line (the latest one written on that event)."""

    n: int
    event_id: str
    text: str
    glyph: str
    at: str
    earlier: int
    """How many earlier notes on the same event it replaces (kept, not shown)."""
    also: tuple[str, ...] = ()
    """The other lines that hold the event (a note is on the event, so it shows on each), in branch order; set
    where a game's notes are listed once each (``all_notes``)."""

    def label(self) -> str:
        return " ".join(p for p in (self.glyph, self.text) if p)


def add(svc: Service, game_ref: str, n: int, text: str, glyph: str | None = None,
        branch: str | None = None) -> tuple[Line, ShownNote]:
    """Attach a note to event #``n`` of a line (default: the game's current one)."""
    svc.writable(game_ref)
    text = text.strip()
    glyph = (glyph or "").strip()
    if glyph and glyph not in GLYPHS:
        raise ServiceError(f"{glyph!r} is not a glyph; use one of {' '.join(GLYPHS)}")
    if not text and not glyph:
        raise ServiceError("a note needs a text or a --glyph")
    problem = note_problem(text)
    if problem:
        raise ServiceError(problem)
    line = svc.load(game_ref, branch)
    if not 0 <= n <= line.head.depth:
        flag = "" if line.branch.name == line.game.current_branch else f" -b {shlex.quote(line.branch.name)}"
        said = (f"event #{n} is not on branch {line.branch.name}, which has events 0 to {line.head.depth}"
                f"{_elsewhere(svc, line, n, text, glyph) or f' (`agon log {line.game.id}{flag}` numbers them)'}")
        ahead = svc.redo_target(line.game.id, line.branch.name, line.head.id)
        undone = svc.store.event(line.game.id, ahead) if ahead is not None else None
        if undone is not None and n <= undone.depth:  # taken back by an undo: a redo brings it back to note it
            said = (f"event #{n} was undone on branch {line.branch.name}, which now has events 0 to"
                    f" {line.head.depth}; `agon redo {line.game.id}{flag}` brings it back to note it")
        raise ServiceError(said)
    try:
        svc.store.add_note(line.game.id, NoteInfo(line.envelopes[n].id, text, glyph, now()))
    except StoreError as e:
        raise again(e, ServiceError) from None
    shown = on_line(svc, line)
    return line, shown[n]


MOST_NAMED = 3
"""The most branches a refusal names that hold an event the line lacks; past that, `agon branches` lists them."""


def _elsewhere(svc: Service, line: Line, n: int, text: str, glyph: str) -> str:
    """Where an event #``n`` that ``line`` lacks is, to note it there: '; branch main has an event #9: `agon note
    G 9 x -b main` notes it there' (the note as typed, where it fits a command of one line), or '' where no other
    branch reaches that far (an event on main alone, as a line branched before it lacks, was refused naming only
    the line's events, with no word of ``-b main``)."""
    depth = {i: d for i, (_, d) in svc.store.nodes(line.game.id).items()}
    holders = [b.name for b in svc.store.branches(line.game.id)
               if b.name != line.branch.name and depth.get(b.head_id, -1) >= n]
    if not holders:
        return ""
    gid, first = line.game.id, holders[0]
    typed = text if text and not set(text) & set("\n`'") and len(text) <= 40 else "TEXT" if text else ""
    words = [str(n), *([typed] if typed else []), *(["--glyph", glyph] if glyph else []), "-b", first]
    command = f"`agon note {gid} {shlex.join(words)}`"
    if len(holders) == 1:
        return f"; branch {first} has an event #{n}: {command} notes it there"
    if len(holders) <= MOST_NAMED:
        return f"; branches {listed(holders)} have an event #{n}: {command} notes it on {first}"
    return (f"; {len(holders)} other branches have an event #{n} (`agon branches {gid}` lists them): {command} notes"
            f" it on {first}")


def on_line(svc: Service, line: Line) -> dict[int, ShownNote]:
    """The notes shown on a line's events, by event number."""
    return shown(svc.store.notes(line.game.id), {e.id: e.depth for e in line.envelopes})


def shown(notes: list[NoteInfo], positions: dict[str, int]) -> dict[int, ShownNote]:
    """The latest note of each event in ``positions`` (event id -> number), by number. A note that is a glyph
    alone (``agon note G 7 --glyph !!``) shows with the text of the latest note before it on that event: marking
    a move does not take its comment out of view; a note with a text replaces both."""
    out: dict[int, ShownNote] = {}
    count: dict[str, int] = {}
    for note in notes:
        n = positions.get(note.event_id)
        if n is None:
            continue
        earlier = count.get(note.event_id, 0)
        count[note.event_id] = earlier + 1
        text = note.text or (out[n].text if earlier and n in out else "")
        out[n] = ShownNote(n, note.event_id, text, note.glyph, note.at.isoformat(timespec="seconds"), earlier)
    return out


def all_notes(svc: Service, game_ref: str) -> tuple[list[Line], list[tuple[str, ShownNote]]]:
    """Every note shown anywhere in a game, once each, with the first line (in branch order) that holds its
    event: (branch name, note), ordered by branch then event number; the note's ``also`` names the other lines
    that hold the same event (a note written from one of them is listed under the first, and says it is on them
    too). Notes on events no branch reaches now (an undone event) are listed with the branch ''."""
    lines = svc.lines(game_ref)
    notes = svc.store.notes(lines[0].game.id)
    noted = {nt.event_id for nt in notes}
    holders: dict[str, list[str]] = {}
    for line in lines:
        for e in line.envelopes:
            if e.id in noted:
                holders.setdefault(e.id, []).append(line.branch.name)
    seen: set[str] = set()
    out: list[tuple[str, ShownNote]] = []
    for line in lines:
        for _, note in sorted(shown(notes, {e.id: e.depth for e in line.envelopes}).items()):
            if note.event_id not in seen:
                seen.add(note.event_id)
                out.append((line.branch.name, replace(note, also=tuple(holders[note.event_id][1:]))))
    rest = {nt.event_id for nt in notes} - seen
    if rest:
        depth = {e.id: e.depth for e in svc.store.all_events(lines[0].game.id) if e.id in rest}
        for i in sorted(depth, key=lambda i: (depth[i], i)):
            out.extend(("", note) for note in shown(notes, {i: depth[i]}).values())
    return lines, out

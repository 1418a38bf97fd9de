"""A whole game as a document: the file format written by ``agon export GAME`` and read by ``agon import``.

The file is JSON Lines, one object per line, each with a ``kind``, in this order:

1. ``header``: the format's name (``agon-game``) and version, and the game (id, ruleset, title, players, when it
   was created, its current branch).
1a. ``cards`` (version 2): the card set the game's first event names by its hash (``GameCreated.card_set``), as
   the exact JSON bytes hashed; none when the first event embeds its set (every game of version 1 files).
2. ``event``: every event node of the game's tree, ordered by depth, then id. Each carries its envelope (number,
   id, parent, tag, schema version, actor, time) and its payload as the exact JSON bytes that were hashed, so every
   id can be recomputed from the file.
3. ``branch``: every branch in the order it was made, with its head, the branch it came from, its fork point and
   its luck.
4. ``move``: the head history, in order (create, act, reenter, undo, redo, branch, switch, import).
5. ``note``: the notes, in order (append-only; a later note on an event replaces an earlier one for display).
6. ``end``: the trailer: how many events, moves and notes come before it, every branch's head, and the sha256 of
   every byte before it. A truncated file has no trailer (or a wrong count) and is refused.

Reading checks everything that can be checked without the rules: the order of the sections and of the events,
every parent link and hash, every card set's hash, that every branch, move and note names events that are in the
file, the trailer's counts and digest. (The service then replays every line against the rules.) Any problem raises
``DocumentError`` with one sentence naming the line.

To extend the format (a signature, say): add a ``kind`` and its Struct, give it a place in ``ORDER``, and bump
``VERSION`` if an older reader must refuse it. ``digest`` is what a signature would sign.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Union

import msgspec

from agon.core.names import GLYPHS
from agon.events.envelope import Envelope
from agon.events.hints import Hinted

FORMAT = "agon-game"
VERSION = 2
"""1: the first format. 2: ``cards`` lines (a game's card set, stored once by hash). Version 1 files are read."""


class DocumentError(ValueError):
    """A file that is not a complete, unbroken agon game document."""


class SeveralExports(Hinted, DocumentError):
    """A file of several exports written one after another (`agon export` in a loop into one file): each face says
    how its games are imported instead (``Words.several``)."""


class _Line(msgspec.Struct, tag_field="kind", forbid_unknown_fields=True):
    pass


class GameHead(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    ruleset: str
    title: str
    players: list[str]
    created_at: datetime
    current_branch: str


class Header(_Line, tag="header"):
    format: str
    version: int
    game: GameHead


class CardSetLine(_Line, tag="cards"):
    hash: str  # sha256 of body's bytes, as the game's first event names it
    body: msgspec.Raw


class EventLine(_Line, tag="event"):
    n: int
    id: str
    parent: str | None
    tag: str
    version: int
    actor: str
    recorded_at: datetime
    payload: msgspec.Raw


class BranchLine(_Line, tag="branch"):
    name: str
    head: str
    luck: int
    parent: str | None
    fork: str | None
    created_at: datetime


class MoveLine(_Line, tag="move"):
    branch: str
    to: str
    reason: str
    at: datetime
    from_: str | None = msgspec.field(name="from", default=None)


class NoteLine(_Line, tag="note"):
    event: str
    text: str
    glyph: str
    at: datetime


class Trailer(_Line, tag="end"):
    events: int
    moves: int
    notes: int
    heads: dict[str, str]
    sha256: str


ORDER: tuple[type[_Line], ...] = (Header, CardSetLine, EventLine, BranchLine, MoveLine, NoteLine, Trailer)
"""The sections, in the order they must appear."""

AnyLine = Union[Header, CardSetLine, EventLine, BranchLine, MoveLine, NoteLine, Trailer]  # noqa: UP007 - a runtime union

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(AnyLine)


@dataclass(frozen=True)
class Note:
    """A comment on an event node, outside the hash chain. ``glyph`` is one of ``GLYPHS`` or ''."""

    event: str
    text: str
    glyph: str
    at: datetime


@dataclass(frozen=True)
class Branch:
    name: str
    head: str
    luck: int
    parent: str | None
    fork: str | None
    created_at: datetime


@dataclass(frozen=True)
class Move:
    branch: str
    from_id: str | None
    to_id: str
    reason: str
    at: datetime


@dataclass
class Document:
    """A whole game: what the file holds, as plain values (the store's records, not its row ids)."""

    game: GameHead
    events: list[Envelope]
    branches: list[Branch]
    moves: list[Move]
    notes: list[Note] = field(default_factory=list)
    card_sets: dict[str, bytes] = field(default_factory=dict)
    """The card sets the game's first event names, hash -> the exact bytes hashed (none when it embeds its own)."""
    digest: str = ""
    """The sha256 of the bytes before the trailer (set by ``read`` and ``write``)."""

    @property
    def root(self) -> Envelope:
        return self.events[0]

    def heads(self) -> dict[str, str]:
        return {b.name: b.head for b in self.branches}


def _utc(t: datetime) -> datetime:
    return t.astimezone(UTC) if t.tzinfo else t.replace(tzinfo=UTC)


def canonical(events: list[Envelope]) -> list[Envelope]:
    """Events in the file's order: by depth, then by id (so every parent comes before its children)."""
    return sorted(events, key=lambda e: (e.depth, e.id))


def write(doc: Document) -> bytes:
    """The document as JSON Lines, trailer included; sets ``doc.digest``."""
    out = bytearray()

    def put(item: _Line) -> None:
        out.extend(_encoder.encode(item))
        out.extend(b"\n")

    g = doc.game
    put(Header(FORMAT, VERSION, GameHead(g.id, g.ruleset, g.title, list(g.players), _utc(g.created_at),
                                         g.current_branch)))
    for h, body in sorted(doc.card_sets.items()):
        put(CardSetLine(h, msgspec.Raw(body)))
    for e in canonical(doc.events):
        put(EventLine(e.depth, e.id, e.parent, e.tag, e.version, e.actor, _utc(e.recorded_at),
                      msgspec.Raw(e.payload)))
    for b in doc.branches:
        put(BranchLine(b.name, b.head, b.luck, b.parent, b.fork, _utc(b.created_at)))
    for m in doc.moves:
        put(MoveLine(m.branch, m.to_id, m.reason, _utc(m.at), m.from_id))
    for n in doc.notes:
        put(NoteLine(n.event, n.text, n.glyph, _utc(n.at)))
    doc.digest = hashlib.sha256(out).hexdigest()
    put(Trailer(len(doc.events), len(doc.moves), len(doc.notes), doc.heads(), doc.digest))
    return bytes(out)


def is_document(data: bytes) -> bool:
    """Whether ``data`` is meant as a game document (its first line has a ``kind``), else a single exported line
    (whose lines have none, but for the card sets it may start with)."""
    try:
        first = msgspec.json.decode(data.lstrip().split(b"\n", 1)[0])
    except (msgspec.DecodeError, RecursionError):  # a line nested past any depth a document has
        return False
    return isinstance(first, dict) and "kind" in first and first["kind"] != "cards"  # a line file's card set


def _another_header(raw: bytes) -> bool:
    """Whether ``raw`` is an export's header line (one more game's file begins there)."""
    try:
        return isinstance(_decoder.decode(raw), Header)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return False


def read(data: bytes) -> Document:
    """Parse and check a document (see the module's docstring for what is checked). Raises DocumentError."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        raise DocumentError("the file is empty")
    header: Header | None = None
    trailer: Trailer | None = None
    events: list[Envelope] = []
    by_id: dict[str, Envelope] = {}
    branches: list[Branch] = []
    moves: list[Move] = []
    notes: list[Note] = []
    card_sets: dict[str, bytes] = {}
    section = 0
    digest = hashlib.sha256()
    for lineno, raw in enumerate(lines, start=1):
        where = f"line {lineno}"
        if trailer is not None:
            if raw.startswith(b'{"kind":"header"') and _another_header(raw):
                # exports written one after another into one file (`for g in ...; do agon export $g; done > f`)
                raise SeveralExports(f"{where} begins another game's export after the end of the first: the file"
                                     " holds several exports one after another", "{several}")
            raise DocumentError(f"{where} follows the end of the game (the trailer): the file was edited")
        try:
            item = _decoder.decode(raw)
        except RecursionError:
            raise DocumentError(f"{where} is nested too deeply to be a line of an agon game") from None
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            if lineno == 1:
                raise DocumentError(f"{where} is not an agon game header ({e})") from None
            raise DocumentError(f"{where} is not a line of an agon game ({e}); the file may be truncated") from None
        kind = ORDER.index(type(item))
        if kind < section or (lineno == 1) != (kind == 0):
            raise DocumentError(f"{where} ({item.__struct_config__.tag}) is out of place: the file's lines are"
                                " reordered")
        section = kind
        if isinstance(item, Header):
            if item.format != FORMAT:
                raise DocumentError(f"the file's format is {item.format!r}, not {FORMAT!r}")
            if item.version > VERSION:
                raise DocumentError(f"the file is format version {item.version}, newer than this agon reads"
                                    f" ({VERSION}); upgrade agon to import it")
            header = item
        elif isinstance(item, CardSetLine):
            body = bytes(item.body)
            if hashlib.sha256(body).hexdigest() != item.hash:
                raise DocumentError(f"{where}: card set {item.hash[:12]} does not match its hash: the file was edited")
            card_sets[item.hash] = body
        elif isinstance(item, EventLine):
            env = _event(item, where, events, by_id)
            events.append(env)
            by_id[env.id] = env
        elif isinstance(item, BranchLine):
            names = {b.name for b in branches}
            if item.name in names:
                raise DocumentError(f"{where}: branch {item.name!r} is listed twice")
            if item.parent is not None and item.parent not in names:
                raise DocumentError(f"{where}: branch {item.name!r} comes from {item.parent!r}, which is not"
                                    " listed before it")
            _known(by_id, where, item.head, item.fork)
            branches.append(Branch(item.name, item.head, item.luck, item.parent, item.fork, item.created_at))
        elif isinstance(item, MoveLine):
            if item.branch not in {b.name for b in branches}:
                raise DocumentError(f"{where}: a head move of branch {item.branch!r}, which is not listed")
            _known(by_id, where, item.from_, item.to)
            moves.append(Move(item.branch, item.from_, item.to, item.reason, item.at))
        elif isinstance(item, NoteLine):
            _known(by_id, where, item.event)
            if item.glyph and item.glyph not in GLYPHS:
                raise DocumentError(f"{where}: {item.glyph!r} is not a glyph (one of {' '.join(GLYPHS)})")
            notes.append(Note(item.event, item.text, item.glyph, item.at))
        else:
            trailer = item
        if trailer is None:
            digest.update(raw)
            digest.update(b"\n")
    assert header is not None  # the first line is a header or the loop raised
    if trailer is None:
        raise DocumentError("the file ends before its trailer (the 'end' line): it is truncated")
    if not events:
        raise DocumentError("the file holds no events")
    if not branches:
        raise DocumentError("the file names no branch")
    counts = (len(events), len(moves), len(notes))
    if (trailer.events, trailer.moves, trailer.notes) != counts:
        raise DocumentError(f"the trailer counts {trailer.events} events, {trailer.moves} head moves and"
                            f" {trailer.notes} notes, the file holds {counts[0]}, {counts[1]} and {counts[2]}:"
                            " lines are missing or were added")
    heads = {b.name: b.head for b in branches}
    _check_moves(moves, heads)
    if trailer.heads != heads:
        raise DocumentError("the trailer's branch heads differ from the branches listed: the file was edited")
    if trailer.sha256 != digest.hexdigest():
        raise DocumentError("the file's digest does not match its trailer: it was edited after it was written")
    if header.game.current_branch not in heads:
        raise DocumentError(f"the current branch {header.game.current_branch!r} is not listed")
    return Document(header.game, events, branches, moves, notes, card_sets, digest.hexdigest())


def _event(item: EventLine, where: str, events: list[Envelope], by_id: dict[str, Envelope]) -> Envelope:
    if item.id in by_id:
        raise DocumentError(f"{where}: event {item.id[:12]} is listed twice")
    if not events:
        if item.parent is not None or item.n != 0:
            raise DocumentError(f"{where}: the first event must be the game's first (#0, no parent)")
    else:
        parent = by_id.get(item.parent) if item.parent is not None else None
        if parent is None:
            raise DocumentError(f"{where} (event #{item.n}) follows no earlier event in the file: events are"
                                " missing or out of order")
        if item.n != parent.depth + 1:
            raise DocumentError(f"{where} is numbered #{item.n} but follows event #{parent.depth}")
        prev = events[-1]
        if (item.n, item.id) <= (prev.depth, prev.id):
            raise DocumentError(f"{where} (event #{item.n}) is out of order: events are listed by number, then id")
    env = Envelope(item.id, item.parent, item.n, item.tag, item.version, item.actor, bytes(item.payload),
                   _utc(item.recorded_at))
    if env.expected_id() != env.id:
        raise DocumentError(f"{where} (event #{item.n}) does not match its hash: the file was edited")
    return env


def _check_moves(moves: list[Move], heads: dict[str, str]) -> None:
    """Each branch's head moves form a chain (each starts where the one before it ended) ending at its head."""
    at: dict[str, str | None] = {}
    for i, m in enumerate(moves, start=1):
        if m.from_id != at.get(m.branch):
            raise DocumentError(f"head move #{i} (branch {m.branch}) does not start where the branch's head was:"
                                " the head history is reordered or edited")
        at[m.branch] = m.to_id
    for name, head in heads.items():
        if at.get(name) != head:
            raise DocumentError(f"branch {name}'s head is not where its head moves lead: the file was edited")


def _known(by_id: dict[str, Envelope], where: str, *ids: str | None) -> None:
    for i in ids:
        if i is not None and i not in by_id:
            raise DocumentError(f"{where} names event {i[:12]}, which is not in the file")


def json_schema() -> dict[str, Any]:
    """The JSON Schema of one line of the file (any of the kinds), with the format's name and version."""
    schema = msgspec.json.schema(AnyLine)
    schema["title"] = f"{FORMAT} version {VERSION}: one line of a game document (JSON Lines)"
    schema["description"] = (
        "The lines come in this order: one header, the events (by number, then id), the branches, the head moves,"
        " the notes, and one 'end' trailer whose sha256 is the digest of every byte before it."
    )
    return schema

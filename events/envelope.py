"""The envelope around a stored event, its chain hash, and the JSON Lines form used by export and import.

An event node's id is its chain hash: sha256 over the parent's id, the tag, the schema version, the actor and the
payload bytes. So any edit to a stored event (or to anything before it) is detectable, the same decision at the
same position is the same node (acting again after an undo walks the old line instead of copying it), and ids are
known before insertion, which lets a whole batch be written in one statement.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import msgspec


def chain_hash(parent: str | None, tag: str, version: int, actor: str, payload: bytes) -> str:
    """sha256 over the parent's id, the tag, the schema version, the actor and the payload, each after a NUL."""
    h = hashlib.sha256(f"{parent or ''}\x00{tag}\x00{version}\x00{actor}\x00".encode())  # one encode, not four
    h.update(payload)
    return h.hexdigest()


class Envelope(msgspec.Struct, frozen=True, gc=False):
    """One stored event with its place in the tree.

    Not tracked by the garbage collector (``gc=False``): its fields are strings, numbers, bytes and a time, so it
    cannot be part of a cycle, and reading a long line makes tens of thousands of them, each of which would
    otherwise count towards the next collection."""

    id: str
    parent: str | None
    depth: int
    tag: str
    version: int
    actor: str
    payload: bytes
    recorded_at: datetime

    def expected_id(self) -> str:
        return chain_hash(self.parent, self.tag, self.version, self.actor, self.payload)


def stored_payload(stored: object) -> bytes:
    """An event's payload as a store hands it back: bytes, unless it was edited behind agon's back with a tool that
    stored it as text (SQLite's ``replace()`` on the column gives text): its bytes then, whose hash tells the edit
    in one line (the line is damaged), never a crash."""
    if isinstance(stored, bytes | bytearray | memoryview):
        return bytes(stored)
    return str(stored).encode()


def seal(parent: Envelope | None, tag: str, version: int, actor: str, payload: bytes, at: datetime) -> Envelope:
    """A new envelope following ``parent`` (None for a game's first event)."""
    pid = parent.id if parent else None
    depth = parent.depth + 1 if parent else 0
    return Envelope(chain_hash(pid, tag, version, actor, payload), pid, depth, tag, version, actor, payload, at)


class ExportLine(msgspec.Struct, frozen=True, omit_defaults=False):
    """One line of an exported game. ``payload`` is kept as raw JSON so its bytes, and so its hash, survive."""

    n: int
    id: str
    parent: str | None
    tag: str
    version: int
    actor: str
    recorded_at: datetime
    payload: msgspec.Raw


_line_encoder = msgspec.json.Encoder()
_line_decoder = msgspec.json.Decoder(ExportLine)


class LineTrailer(msgspec.Struct, frozen=True, tag_field="kind", tag="end", forbid_unknown_fields=True):
    """The last line of a one-line export: how many events come before it, the line's head, the lucks its chance
    was drawn with (the branch's and those it came from) and the sha256 of every byte before it. A file cut at a
    line boundary has no trailer, or one that does not match. ``luck`` is the exported branch's own (None in files
    written before it was added): a line imported into a game that lacks its last events becomes a branch that
    draws its next chance as the exported one would."""

    events: int
    head: str
    lucks: list[int]
    sha256: str
    luck: int | None = None


_trailer_decoder = msgspec.json.Decoder(LineTrailer)


class CardSetLine(msgspec.Struct, frozen=True, tag_field="kind", tag="cards", forbid_unknown_fields=True):
    """A card set the line's first event names by its hash (``GameCreated.card_set``), before the events: the
    sha256 of ``body``'s exact bytes must be ``hash``. A line whose first event embeds its set has none."""

    hash: str
    body: msgspec.Raw


_cards_decoder = msgspec.json.Decoder(CardSetLine)


def to_jsonl(line: list[Envelope], lucks: list[int] | None = None,
             card_sets: dict[str, bytes] | None = None, luck: int | None = None) -> bytes:
    out = bytearray()
    for h, body in sorted((card_sets or {}).items()):
        out += _line_encoder.encode(CardSetLine(h, msgspec.Raw(body)))
        out += b"\n"
    for env in line:
        out += _line_encoder.encode(
            ExportLine(
                env.depth, env.id, env.parent, env.tag, env.version, env.actor, env.recorded_at,
                msgspec.Raw(env.payload),
            )
        )
        out += b"\n"
    digest = hashlib.sha256(out).hexdigest()
    out += _line_encoder.encode(LineTrailer(len(line), line[-1].id if line else "", sorted(set(lucks or [0])), digest,
                                            luck))
    out += b"\n"
    return bytes(out)


class ImportError_(ValueError):
    """A file that is not a well-formed, unbroken agon event line."""


def from_jsonl(data: bytes) -> list[Envelope]:
    """Parse an exported line, checking numbering, parent links, every hash and the trailer. Raises ImportError_."""
    return read_jsonl(data)[0]


def read_jsonl(data: bytes) -> tuple[list[Envelope], LineTrailer]:
    """``from_jsonl``, also returning the file's trailer."""
    envs, trailer, _ = read_line_file(data)
    return envs, trailer


def _an_agon_line(raw: bytes) -> bool:
    """Whether ``raw`` reads as a line an export starts with: an event, or a card set before the events."""
    for decoder in (_line_decoder, _cards_decoder):
        try:
            decoder.decode(raw)
            return True
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            pass
    return False


def lf_endings(data: bytes) -> bytes:
    """``data`` with every line ending LF, as agon writes it: a file saved again on Windows, whose every line ends in
    CRLF, is read as the LF file it was (a CR in agon's JSON lines can only be a line's end: JSON escapes it in a
    string), so the trailer's digest and a signature, which are over the exported bytes, still check; the events'
    chain hashes are over their fields and payload bytes, which a line's ending is no part of. A file whose lines
    end in different ways (some CRLF, some LF, or a CR alone) was edited in part, and one whose lines end in CR
    alone is not read as lines: each is refused (ImportError_) in one line that says so and what to do. Lines are
    split at LF only, never at the other line breaks of Unicode (U+2028, U+0085) that ``str.splitlines`` takes."""
    if b"\r" not in data:  # the file as agon writes it (a search for one byte: nothing else is done)
        return data
    if b"\n" not in data:
        raise ImportError_("the file's lines end in CR alone (as classic Mac OS saved text), which agon does not read"
                           " as lines; save it again with LF (or Windows' CRLF) line endings, or export the game"
                           " again")
    lines = data.split(b"\n")
    last = lines.pop()  # what follows the last LF: nothing, or a last line without an ending

    def ending(line: bytes) -> str:
        crlf = line.endswith(b"\r")
        return "a CR alone" if b"\r" in (line[:-1] if crlf else line) else "CRLF" if crlf else "LF"

    endings = [ending(line) for line in lines] + (["a CR alone"] if b"\r" in last else [])
    if all(e == "CRLF" for e in endings):
        return data.replace(b"\r\n", b"\n")
    other = next((n for n, e in enumerate(endings, start=1) if e != endings[0]), None)
    said = (f"line 1 ends in {endings[0]}, line {other} in {endings[other - 1]}" if other else
            "lines end in a CR alone and in LF")
    raise ImportError_(f"the file's line endings are mixed ({said}): it was edited in part; save it again with one"
                       " line ending throughout (LF, or Windows' CRLF), or export the game again")


def read_line_file(data: bytes) -> tuple[list[Envelope], LineTrailer, dict[str, bytes]]:
    """``read_jsonl``, also returning the card sets the file carries (hash -> bytes, each checked). Lines are read
    as ``lf_endings`` reads them (a file saved with CRLF endings is read; one of mixed endings is refused)."""
    envs: list[Envelope] = []
    card_sets: dict[str, bytes] = {}
    lines = [raw for raw in lf_endings(data).split(b"\n") if raw.strip()]
    if not lines:
        raise ImportError_("the file holds no events")
    try:
        trailer = _trailer_decoder.decode(lines[-1])
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        if not _an_agon_line(lines[0]):  # no line of it is agon's: some other file, not one cut short
            # (the export is not named as a command: a hint would name this store's --db, and the file comes from
            # another store, or none)
            raise ImportError_("it is not a game file that agon exported (its first line is neither an agon event"
                               " nor a card set); give the file the export wrote") from None
        raise ImportError_("the file does not end with its trailer (the 'end' line with the count of events): it"
                           " is cut short, or was written by an agon older than the trailer") from None
    digest = hashlib.sha256()
    for lineno, raw in enumerate(lines[:-1], start=1):
        digest.update(raw + b"\n")
        if not envs and raw.lstrip().startswith(b'{"kind"'):
            try:
                cards = _cards_decoder.decode(raw)
            except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as e:
                raise ImportError_(f"line {lineno} is not a card set ({e})") from None
            body = bytes(cards.body)
            if hashlib.sha256(body).hexdigest() != cards.hash:
                raise ImportError_(f"line {lineno}: card set {cards.hash[:12]} does not match its hash: the file was"
                                   " edited")
            card_sets[cards.hash] = body
            continue
        try:
            item = _line_decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            raise ImportError_(f"line {lineno} is not an agon event ({e}); the file may be truncated") from None
        except RecursionError:
            raise ImportError_(f"line {lineno} is nested too deeply to be an agon event") from None
        payload = bytes(item.payload)
        expected_parent = envs[-1].id if envs else None
        if item.n != len(envs):
            raise ImportError_(
                f"line {lineno} is event #{item.n}, expected #{len(envs)}: lines are missing or out of order"
            )
        if item.parent != expected_parent:
            raise ImportError_(
                f"line {lineno} (event #{item.n}) does not follow the event before it: lines are out of order"
            )
        at = item.recorded_at if item.recorded_at.tzinfo else item.recorded_at.replace(tzinfo=UTC)
        env = Envelope(item.id, item.parent, item.n, item.tag, item.version, item.actor, payload, at)
        if env.expected_id() != env.id:
            raise ImportError_(f"line {lineno} (event #{item.n}) does not match its hash: the file was edited")
        envs.append(env)
    if not envs:
        raise ImportError_("the file holds no events")
    if trailer.events != len(envs) or trailer.head != envs[-1].id:
        raise ImportError_(f"the trailer counts {trailer.events} events ending at {trailer.head[:12]}, the file holds"
                           f" {len(envs)} ending at {envs[-1].id[:12]}: lines are missing or were added")
    if trailer.sha256 != digest.hexdigest():
        raise ImportError_("the file's digest does not match its trailer: it was edited after it was written")
    return envs, trailer, card_sets

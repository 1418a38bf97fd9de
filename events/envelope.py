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
    h = hashlib.sha256()
    h.update((parent or "").encode())
    h.update(b"\x00")
    h.update(tag.encode())
    h.update(b"\x00")
    h.update(str(version).encode())
    h.update(b"\x00")
    h.update(actor.encode())
    h.update(b"\x00")
    h.update(payload)
    return h.hexdigest()


class Envelope(msgspec.Struct, frozen=True):
    """One stored event with its place in the tree."""

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


def to_jsonl(line: list[Envelope]) -> bytes:
    out = bytearray()
    for env in line:
        out += _line_encoder.encode(
            ExportLine(
                env.depth, env.id, env.parent, env.tag, env.version, env.actor, env.recorded_at,
                msgspec.Raw(env.payload),
            )
        )
        out += b"\n"
    return bytes(out)


class ImportError_(ValueError):
    """A file that is not a well-formed, unbroken agon event line."""


def from_jsonl(data: bytes) -> list[Envelope]:
    """Parse an exported line, checking numbering, parent links and every hash. Raises ImportError_."""
    envs: list[Envelope] = []
    for lineno, raw in enumerate(data.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            item = _line_decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError) as e:
            raise ImportError_(f"line {lineno} is not an agon event ({e}); the file may be truncated") from None
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
    return envs

"""A state as the snapshot cache stores it (events/snapshots.py): encoded exactly, without what it shares with the
game's first state.

Every ruleset's state is a frozen msgspec Struct. ``apply`` builds each state from the one before with
``msgspec.structs.replace``, so a field the play never changes (the compiled card set, the board data) is the very
object the first state holds. ``encode`` leaves such fields out and ``decode`` takes them from the first state
(which a line computes anyway from its first event); every other field is MessagePack, decoded with the field's
own type, so tuples stay tuples and nested Structs come back as themselves.

``encode`` checks its own work: it returns None (no snapshot is kept) unless decoding gives a state equal to the
one encoded, so a state that does not round-trip exactly (a field typed ``Any``, a value msgspec cannot encode)
is never cached, it is only folded.
"""

from __future__ import annotations

from typing import Any

import msgspec

from agon.core.engine import State

_types: dict[type, tuple[type, msgspec.msgpack.Decoder, tuple[str, ...]]] = {}
_enc = msgspec.msgpack.Encoder()


def _partial(cls: type) -> tuple[type, msgspec.msgpack.Decoder, tuple[str, ...]]:
    """A Struct with every field of ``cls`` made optional (absent: shared with the first state), its decoder and
    the field names."""
    got = _types.get(cls)
    if got is None:
        fields = msgspec.structs.fields(cls)
        partial = msgspec.defstruct(f"{cls.__name__}Snapshot", [
            (f.name, f.type | msgspec.UnsetType, msgspec.UNSET) for f in fields], omit_defaults=True, array_like=False)
        got = _types[cls] = (partial, msgspec.msgpack.Decoder(partial), tuple(f.name for f in fields))
    return got


def encode(state: State, first: State) -> bytes | None:
    """``state`` as bytes, its fields shared with ``first`` (the line's first state) left out; None when it cannot
    be cached exactly."""
    cls = type(state)
    if not isinstance(state, msgspec.Struct) or type(first) is not cls:
        return None
    try:
        partial, _, names = _partial(cls)
        own = {n: getattr(state, n) for n in names if getattr(state, n) is not getattr(first, n)}
        data = _enc.encode(partial(**own))
        back = decode(data, first)
    except (TypeError, ValueError, msgspec.MsgspecError):
        return None
    return data if back == state else None


def decode(data: bytes, first: State) -> State:
    """The state ``encode`` gave ``data`` for (``first``: the same line's first state). Raises
    ``msgspec.MsgspecError`` (or ``TypeError``/``ValueError``) on bytes it did not write."""
    cls = type(first)
    _, decoder, names = _partial(cls)
    got = decoder.decode(data)
    values: dict[str, Any] = {}
    for n in names:
        v = getattr(got, n)
        values[n] = getattr(first, n) if v is msgspec.UNSET else v
    return cls(**values)

"""Encoding events to JSON bytes and back, with versioned upcasters.

A stored payload carries its tag and the schema version it was written with. Decoding an old payload first runs
the upcasters registered for its tag, from its version up to the current one, then converts the result to the
current type. A field's type never changes in place: an incompatible change is a new version plus an upcaster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Union

import msgspec

from agon.events.base import Event

Upcaster = Callable[[dict[str, Any]], dict[str, Any]]


class DecodeError(ValueError):
    """A payload that cannot be read as an event of this ruleset."""


class Codec:
    """Encodes and decodes the events of one ruleset (its own types plus the lifecycle events)."""

    def __init__(
        self,
        types: Iterable[type[Event]],
        upcasters: Mapping[tuple[str, int], Upcaster] | None = None,
    ) -> None:
        self.types: tuple[type[Event], ...] = tuple(types)
        self.by_tag: dict[str, type[Event]] = {}
        for t in self.types:
            tag = t.__struct_config__.tag
            if not isinstance(tag, str):
                raise TypeError(f"{t.__name__} needs an explicit string tag")
            if tag in self.by_tag:
                raise TypeError(f"tag {tag!r} is used by both {self.by_tag[tag].__name__} and {t.__name__}")
            self.by_tag[tag] = t
        self.upcasters = dict(upcasters or {})
        union = Union[self.types]  # noqa: UP007 - a runtime union of a tuple of types
        self._decoder = msgspec.json.Decoder(union)
        self._encoder = msgspec.json.Encoder()

    @staticmethod
    def tag_of(event: Event) -> str:
        return type(event).__struct_config__.tag  # type: ignore[return-value]

    def version_of(self, tag: str) -> int:
        return self.by_tag[tag].version

    def encode(self, event: Event) -> bytes:
        return self._encoder.encode(event)

    def decode(self, payload: bytes | str, version: int | None = None, tag: str | None = None) -> Event:
        """Decode one payload written at ``version`` (the current version when None)."""
        try:
            if version is not None:
                raw = msgspec.json.decode(payload)
                if not isinstance(raw, dict) or "type" not in raw:
                    raise DecodeError("an event payload must be a JSON object with a 'type' field")
                tag = raw["type"]
                if tag not in self.by_tag:
                    raise DecodeError(f"unknown event type {tag!r}")
                current = self.by_tag[tag].version
                if version > current:
                    raise DecodeError(
                        f"{tag} payload has schema version {version}, newer than this agon knows ({current});"
                        " upgrade agon to read it"
                    )
                if version < current:
                    for v in range(version, current):
                        step = self.upcasters.get((tag, v))
                        if step is None:
                            raise DecodeError(f"no upcaster for {tag} from version {v} to {v + 1}")
                        raw = step(raw)
                    return msgspec.convert(raw, self.by_tag[tag])
            return self._decoder.decode(payload)
        except msgspec.ValidationError as e:
            raise DecodeError(str(e)) from None
        except msgspec.DecodeError as e:
            raise DecodeError(f"malformed JSON: {e}") from None
        except RecursionError:
            raise DecodeError("the payload is nested too deeply to be an event") from None

    def from_obj(self, obj: Any) -> Event:
        """Convert a JSON-like object (e.g. typed by a person) to the current event type; a ``DecodeError`` says
        in words what does not fit (a type this ruleset has not, a field missing or of the wrong kind)."""
        if not isinstance(obj, dict):
            raise DecodeError(f"an event is a JSON object with a 'type', not {_KINDS.get(type(obj).__name__, 'that')}")
        kind = obj.get("type")
        if not isinstance(kind, str):
            raise DecodeError("it has no 'type'" if kind is None else "its 'type' is not text")
        if kind not in self.by_tag:
            import difflib

            tags = sorted(self.by_tag)
            meant = [t for t in tags if kind.replace("-", "_") == t.rpartition(".")[2]]
            if len(meant) == 1:
                raise DecodeError(f"it has no event type {kind[:60]!r}; write it as {meant[0]!r}")
            near = difflib.get_close_matches(kind[:100], tags, n=1)
            raise DecodeError(f"it has no event type {kind[:60]!r}" + (f"; did you mean {near[0]!r}?" if near else ""))
        if lone_surrogate(obj):  # no event holds such text, and no store or JSON encoder takes it
            raise DecodeError("it holds a lone surrogate (an escape from \\ud800 to \\udfff without its pair), which"
                              " is not text")
        try:
            event = msgspec.convert(obj, Union[self.types])  # noqa: UP007
        except msgspec.ValidationError as e:
            raise DecodeError(_in_words(str(e))) from None
        stray = _stray_field(obj, event)
        if stray is not None:  # read without it, the event would be another than the one typed ('gran' for 'grain')
            raise DecodeError(stray)
        return event

    def to_obj(self, event: Event) -> Any:
        return msgspec.to_builtins(event)

    def json_schema(self) -> dict[str, Any]:
        return msgspec.json.schema(Union[self.types])  # noqa: UP007


def lone_surrogate(obj: Any) -> bool:
    """Whether ``obj`` (JSON as ``json.loads`` reads it) holds text with a lone surrogate: JSON may escape one
    (``"\\ud800"``), Python reads it as a string, and encoding it as UTF-8 (to compare it with a literal, to store
    it) fails."""
    if isinstance(obj, str):
        return not obj.isascii() and any("\ud800" <= c <= "\udfff" for c in obj)
    if isinstance(obj, dict):
        return any(lone_surrogate(k) or lone_surrogate(v) for k, v in obj.items())
    if isinstance(obj, list):
        return any(lone_surrogate(v) for v in obj)
    return False


def _stray_field(obj: Any, value: Any, at: str = "") -> str | None:
    """Why ``obj`` (an event as a person typed it) holds a key that ``value`` (what it was read as) has no field
    for, naming the first such key and the fields there; None when every key was read."""
    if isinstance(value, msgspec.Struct) and isinstance(obj, dict):
        config = value.__struct_config__
        fields = dict(zip(value.__struct_encode_fields__, value.__struct_fields__))
        for key, part in obj.items():
            if key == config.tag_field:
                continue
            if key not in fields:
                return f"{at + str(key)[:60]!r} is not one of its fields (there: {', '.join(fields) or 'none'})"
            found = _stray_field(part, getattr(value, fields[key]), f"{at}{key}.")
            if found is not None:
                return found
    elif isinstance(value, (tuple, list)) and isinstance(obj, list):
        for i, (part, read) in enumerate(zip(obj, value)):
            found = _stray_field(part, read, f"{at}{i}.")
            if found is not None:
                return found
    elif isinstance(value, dict) and isinstance(obj, dict):
        for key, part in obj.items():
            if key in value:
                found = _stray_field(part, value[key], f"{at}{key}.")
                if found is not None:
                    return found
    return None


_KINDS = {"int": "a whole number", "float": "a number", "str": "text", "bool": "true or false", "NoneType": "null",
          "list": "a list", "array": "a list", "dict": "an object", "object": "an object", "null": "null"}
"""A JSON value's kind in words, by the name Python or msgspec gives it."""


def _in_words(said: str) -> str:
    """msgspec's validation message ("Expected `str`, got `int` - at `$.player`") in words: "'player' must be text,
    not a whole number"."""
    import re

    where = ""
    m = re.fullmatch(r"(.*) - at `\$(.*)`", said)
    if m:
        said, where = m.group(1), m.group(2).lstrip(".")
    m = re.fullmatch(r"Object missing required field `(.*)`", said)
    if m:
        return f"field {(where + '.' if where else '') + m.group(1)!r} is missing"
    m = re.fullmatch(r"Expected `(.*)`, got `(.*)`", said)
    if m:
        want = " or ".join(_KINDS.get(k.strip(), k.strip()) for k in m.group(1).split("|"))
        return f"{where or 'the value'!r} must be {want}, not {_KINDS.get(m.group(2), m.group(2))}"
    return f"{said} (at {where})" if where else said

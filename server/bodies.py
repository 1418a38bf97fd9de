"""A request's JSON body held to the schema /openapi.json declares for it (server/schemas.py), before a route reads it.

The document is the contract: a body the document refuses is refused here, with one sentence naming the field and
what to send instead, and a body it allows gets through (its values may still be refused later for what they say:
an unknown ruleset, a branch name in use). So a field the document does not name, a number sent as a string
("seed": "7"), a bot given as a [name, kind] pair, true given as "yes", or null where the field is to be left out
are refused here, not read one way by one route and another way by the next.

Only the JSON Schema keywords the request schemas use are known (``KNOWN``); tests/test_server_contract.py checks
that they use no other, and fuzzes every route's body against both the document and the server.
"""

from __future__ import annotations

import re
from typing import Any

from agon.core.words import listed
from agon.server.schemas import under

KNOWN = frozenset({"type", "properties", "required", "additionalProperties", "items", "minimum", "maximum",
                   "minLength", "anyOf", "description"})
"""The keywords ``check`` understands: every request schema is made of these alone."""

_WORDS = {"string": "a string", "integer": "a whole number", "number": "a number", "boolean": "true or false",
          "object": "an object", "array": "a list", "null": "null"}


class BadBody(ValueError):
    """A body the declared schema refuses; its message is the one sentence the client is told."""


def check(schema: dict[str, Any], body: Any, hints: dict[str, str] | None = None, root: str = "") -> Any:
    """``body`` as the route reads it, if ``schema`` allows it (a whole number sent as ``2.0`` read as 2, as JSON
    Schema counts it); else ``BadBody``. ``hints``: for a top-level field the schema does not name, what to do
    instead (its refusal then says so). ``root``: the path the server is served under, before each route a
    refusal names (a needed field's description: 'a name from GET /api/rulesets')."""
    try:
        return _value(schema, body, [], hints or {})
    except Needed as e:
        raise BadBody(e.said(root)) from None


class Needed(BadBody):
    """A field the schema requires that the body left out: its place and the schema's description of it."""

    def __init__(self, where: str, about: str | None) -> None:
        self.where, self.about = where, about
        super().__init__(self.said(""))

    def said(self, root: str) -> str:
        """The refusal, each route the description names under ``root`` (``schemas.under``)."""
        return f"{self.where} is needed" + (f": {under(self.about, root)}" if self.about else "")


def _value(schema: dict[str, Any], v: Any, path: list[str | int], hints: dict[str, str]) -> Any:
    if "anyOf" in schema:
        # the option of the value's type says what is wrong with it (a number below its minimum); none: its type
        fits = [o for o in schema["anyOf"] if any(_is(k, v) for k in _kinds(o))]
        if fits:
            return _value(fits[0], v, path, hints)
        hint = ": leave the field out for its default" if v is None else ""
        raise BadBody(f"{_where(path)} must be {_what(schema)}, not {_was(v)}{hint}")
    kinds = _kinds(schema)
    if kinds:
        if not any(_is(kind, v) for kind in kinds):
            raise BadBody(f"{_where(path)} must be {_what(schema)}, not {_was(v)}{_instead(schema, v)}")
        if isinstance(v, float) and "number" not in kinds:  # a whole number written 2.0: JSON Schema's integer
            v = int(v)
    if isinstance(v, int | float) and not isinstance(v, bool):
        _within(schema, v, path)
    if "minLength" in schema and isinstance(v, str) and len(v) < schema["minLength"]:
        raise BadBody(f"{_where(path)} must not be empty")
    if isinstance(v, list) and "items" in schema:
        return [_value(schema["items"], x, [*path, i], {}) for i, x in enumerate(v)]
    if isinstance(v, dict) and ("properties" in schema or "additionalProperties" in schema):
        return _object(schema, v, path, hints)
    return v


def _within(schema: dict[str, Any], v: int | float, path: list[str | int]) -> None:
    """Refuse ``v`` below the schema's ``minimum`` or past its ``maximum``: with both, the sentence names the range
    ('at' must be a whole number from 0 to 2147483647), so a client sent 2**31 learns what it takes, not a bound."""
    low, high = schema.get("minimum"), schema.get("maximum")
    if (low is None or v >= low) and (high is None or v <= high):
        return
    digits = str(abs(int(v))) if isinstance(v, int) else ""
    shown = f"a number of {len(digits):,} digits" if len(digits) > 40 else str(v)
    if low is not None and high is not None:
        what = "a whole number" if "integer" in _kinds(schema) else "a number"
        raise BadBody(f"{_where(path)} must be {what} from {low} to {high}, not {shown}")
    if low is not None:
        raise BadBody(f"{_where(path)} must be at least {low}, not {shown}")
    raise BadBody(f"{_where(path)} must be at most {high}, not {shown}")


def _object(schema: dict[str, Any], v: dict[str, Any], path: list[str | int], hints: dict[str, str]) -> dict:
    props = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for key in schema.get("required", []):
        if key not in v:
            about = props.get(key, {}).get("description")
            raise Needed(_where([*path, key]), about)
    out = {}
    for key, x in v.items():
        if key in props:
            out[key] = _value(props[key], x, [*path, key], {})
        elif extra is False:
            if not path and key in hints:
                raise BadBody(f"the body has no field {key!r}: {hints[key]}")
            takes = listed([repr(k) for k in props]) if props else "no field"
            raise BadBody(f"{'the body' if not path else _where(path)} has no field {key!r}; it takes {takes}")
        elif isinstance(extra, dict):
            out[key] = _value(extra, x, [*path, key], {})
        else:
            out[key] = x
    return out


def _kinds(schema: dict[str, Any]) -> list[str]:
    kinds = schema.get("type", [])
    return [kinds] if isinstance(kinds, str) else list(kinds)


def _is(kind: str, v: Any) -> bool:
    if kind == "integer":
        return (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
    if kind == "number":
        return isinstance(v, int | float) and not isinstance(v, bool)
    return isinstance(v, {"string": str, "boolean": bool, "object": dict, "array": list,
                          "null": type(None)}[kind])


def _what(schema: dict[str, Any]) -> str:
    """What a value of ``schema`` is, in words ('a list of strings', 'a list of objects with 'name' and 'kind'')."""
    if "anyOf" in schema:
        return listed([_what(s) for s in schema["anyOf"]], "or")
    kinds = _kinds(schema)
    words = []
    for kind in kinds:
        if kind == "array" and isinstance(schema.get("items", {}).get("type"), str):
            items = schema["items"]
            words.append("a list of " + _PLURAL[items["type"]] + _with(items))
        else:
            word = "a boolean" if kind == "boolean" and len(kinds) > 1 else _WORDS[kind]  # not '... or true or false'
            words.append(word + (_with(schema) if kind == "object" else ""))
    return listed(words, "or")


_PLURAL = {"string": "strings", "integer": "whole numbers", "number": "numbers", "boolean": "true or false values",
           "object": "objects", "array": "lists"}


def _with(schema: dict[str, Any]) -> str:
    """The fields an object of ``schema`` must have, in words (' with 'name' and 'kind''), or nothing."""
    required = schema.get("required") if schema.get("type") == "object" else None
    return f" with {listed([repr(k) for k in required])}" if required else ""


_NUMBER = re.compile(r"\s*-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?\s*")


def _instead(schema: dict[str, Any], v: Any) -> str:
    """What to send instead, where the value is nearly right: a number in quotes, a pair for an object."""
    kinds = _kinds(schema)
    if isinstance(v, str) and {"integer", "number"} & set(kinds) and _NUMBER.fullmatch(v):
        if "number" in kinds or float(v).is_integer():
            return f": send it without quotes, as a JSON number ({v.strip()})"
    if isinstance(v, str) and "boolean" in kinds and v.strip().lower() in ("true", "false"):
        return f": send {v.strip().lower()} without quotes"
    if isinstance(v, list) and "object" in kinds and schema.get("required"):
        return f": send {{{', '.join(f'{k!r}: ...' for k in schema['required'])}}}".replace("'", '"')
    if v is None:
        return ": leave the field out for its default"
    return ""


def _where(path: list[str | int]) -> str:
    if not path:
        return "the body"
    text = str(path[0])
    for part in path[1:]:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return repr(text)


def _was(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return f"the number {v!r}"[:60]
    if isinstance(v, str):
        return f"the string {v[:40]!r}" + ("..." if len(v) > 40 else "")
    return "a list" if isinstance(v, list) else "an object"

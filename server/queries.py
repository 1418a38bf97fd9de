"""A GET request's query held to the parameters /openapi.json declares for its route, before the route reads it.

As a POST body is held to its schema (server/bodies.py), a query is held to its route's ``Param`` list (the route
table, server/app.py): a parameter the route does not declare (``?limt=5``), one given twice, or a value outside
its declared type or range (a ``limit`` that is not a whole number, a negative ``from``, a ``wait`` of ``nan``, a
``status`` not in its list) is refused with one sentence naming the parameter and what it takes, so no parameter
is silently ignored and none is read one way here and another there. ``token`` is taken by every route: it names
the caller's seat (the document's ``seatQuery``). The pages (server/pages.py) are held here too, to no parameter
at all, not even ``token``.

Only the schema keywords the query parameters use are known (``KNOWN``); tests/test_server_contract.py checks that
they use no other, and tries every route's parameters with values inside and outside their schemas.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable
from typing import Any

from agon.core.words import listed

KNOWN = frozenset({"type", "minimum", "maximum", "enum"})
"""The keywords ``check`` understands: every query parameter's schema is made of these alone."""

TOKEN = "token"
"""The parameter every route takes: the caller's seat's token."""

_WHOLE = re.compile(r"-?[0-9]{1,19}")
"""A whole number: ASCII digits only (``str.isdigit`` also takes '²', which ``int`` refuses) and one sign; every
integer parameter declares a ``minimum`` and a ``maximum`` of fewer digits (the core's ranges: ``schemas.EVENT_NUMBER``,
``schemas.QUERY_LIMIT``), so a longer one is outside its range, and is refused saying so, before ``int`` reads it."""
_NUMBER = re.compile(r"-?[0-9]{1,19}(\.[0-9]+)?")
"""A number: digits with at most one decimal point (no 'nan', 'inf', exponent or '_', which ``float`` reads)."""


class BadQuery(ValueError):
    """A query the declared parameters refuse; its message is the one sentence the client is told."""


def check(route: str, params: Iterable[Any], items: Iterable[tuple[str, str]], *, token: bool = True,
          hints: dict[str, str] | None = None) -> dict[str, Any]:
    """The query ``items`` (name, value pairs, as sent) of ``route`` ('GET /api/games'), held to ``params`` (each
    with a ``name`` and a ``schema``): each value as its route reads it (a whole number an ``int``, a number a
    ``float``, else the text); ``token`` passes as it is, unless ``token`` is false (a page, which never takes a
    token in its query). ``hints``: for a parameter not taken, what to do instead (its refusal then says so).
    Else ``BadQuery``."""
    declared = {p.name: p.schema for p in params}
    out: dict[str, Any] = {}
    for name, value in items:
        if name in out:
            raise BadQuery(f"the query gives {_name(name)} more than once; give it once")
        if name == TOKEN and token:
            out[name] = value
        elif name in declared:
            out[name] = _value(name, declared[name], value)
        elif hints and name in hints:
            raise BadQuery(f"{route} has no parameter {_name(name)}: {hints[name]}")
        else:
            raise BadQuery(_unknown(route, name, list(declared), token))
    return out


def _unknown(route: str, name: str, declared: list[str], token: bool = True) -> str:
    near = difflib.get_close_matches(name, declared, n=1, cutoff=0.6)
    slip = f" (did you mean {near[0]!r}?)" if near else ""
    taken = [*declared, TOKEN] if token else declared
    takes = (f"it takes {listed([repr(k) for k in taken])}" if len(taken) > 1 else
             f"it takes only {taken[0]!r}" if taken else "it takes none; leave the query out")
    return f"{route} has no parameter {_name(name)}{slip}; {takes}"


def _value(name: str, schema: dict[str, Any], text: str) -> Any:
    kind = schema.get("type", "string")
    value: Any = text
    if kind == "integer":
        if not _WHOLE.fullmatch(text):
            how = "" if re.fullmatch(r"-?[0-9]+", text) else " in plain digits"
            raise BadQuery(f"{_name(name)} must be a whole number{_range(schema)}{how}, not {_was(text)}")
        value = int(text)
    elif kind == "number":
        if not _NUMBER.fullmatch(text) or not math.isfinite(float(text)):
            raise BadQuery(f"{_name(name)} must be a number{_range(schema)} in plain digits (such as 2.5), not"
                           f" {_was(text)}")
        value = float(text)
    if "enum" in schema and value not in schema["enum"]:
        raise BadQuery(f"{name} {_was(text)} is not one of: {', '.join(map(str, schema['enum']))}")
    low, high = schema.get("minimum"), schema.get("maximum")
    if (low is not None and value < low) or (high is not None and value > high):
        noun = "a whole number" if kind == "integer" else "a number"
        raise BadQuery(f"{_name(name)} must be {noun}{_range(schema)}, not {_was(text)}")
    return value


def _range(schema: dict[str, Any]) -> str:
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        return f" from {low:,} to {high:,}"
    if low is not None:
        return f", {low:,} or more"
    if high is not None:
        return f", at most {high:,}"
    return ""


def _name(name: str) -> str:
    return repr(name[:40] + ("..." if len(name) > 40 else ""))


def _was(text: str) -> str:
    return repr(text[:40]) + ("..." if len(text) > 40 else "")

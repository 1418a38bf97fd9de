"""Hypothesis strategies for hostile input: events built from a ruleset's event schema (the msgspec types of its
events, each field sometimes of the wrong type), free text, and damaged export files. Used by tests/test_fuzz.py and
by scripts/reliability.py, which counts what they found."""

from __future__ import annotations

import json
import re
import typing

import msgspec
from hypothesis import strategies as st

from tests.tamper import rewrite

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                      st.text(max_size=12))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                             st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                          max_leaves=12)
odd_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["²", "٣", "1e9", "-1", "0", "007", "9" * 5000, "{", "}", "[]", "null", "seed", "bot", "{}",
                     '{"type":null}', "\x00", "1\n2", " " * 3, "[/x]", "\udcff", '{"type":"\\ud800"}']),
    st.integers().map(str),
)


def _of(t: msgspec.inspect.Type) -> st.SearchStrategy:
    i = msgspec.inspect
    if isinstance(t, i.IntType):
        return st.one_of(st.integers(-3, 12), st.integers())
    if isinstance(t, i.StrType):
        # a lone surrogate: what JSON's "\ud800" reads as, and what Python makes of an argument's bytes not UTF-8
        return st.one_of(st.text(max_size=12), st.sampled_from(["Ana", "Bo", "Cy", "chance", "", "[/x]", "\ud800"]))
    if isinstance(t, i.BoolType):
        return st.booleans()
    if isinstance(t, i.FloatType):
        return st.floats(allow_nan=False, allow_infinity=False)
    if isinstance(t, i.NoneType):
        return st.none()
    if isinstance(t, i.LiteralType):
        return st.sampled_from(list(t.values))
    if isinstance(t, i.TupleType):
        return st.tuples(*[_field(x) for x in t.item_types]).map(list)
    if isinstance(t, (i.VarTupleType, i.ListType, i.SetType, i.FrozenSetType)):
        return st.lists(_field(t.item_type), max_size=6)
    if isinstance(t, i.DictType):
        return st.dictionaries(st.text(max_size=8), _field(t.value_type), max_size=4)
    if isinstance(t, i.UnionType):
        return st.one_of([_of(x) for x in t.types])
    if isinstance(t, i.StructType):
        fields = {f.encode_name: _field(f.type) for f in t.fields}
        base = st.fixed_dictionaries(fields)
        if t.tag_field:
            base = base.map(lambda d, t=t: {t.tag_field: t.tag, **d})
        return base
    return json_value


def _field(t: msgspec.inspect.Type) -> st.SearchStrategy:
    """A value of type ``t``, now and then one of any JSON type (a wrong type is input too)."""
    return st.one_of(_of(t), _of(t), _of(t), json_value)


def events_of(types: tuple[type, ...]) -> st.SearchStrategy:
    """JSON objects shaped like the events of ``types`` (a ruleset's events), fields sometimes wrong or missing."""
    info = msgspec.inspect.type_info(typing.Union[types])  # noqa: UP007 - a runtime union
    structs = info.types if isinstance(info, msgspec.inspect.UnionType) else (info,)
    shaped = st.one_of([_of(s) for s in structs])
    dropped = st.tuples(shaped, st.integers(0, 8)).map(
        lambda p: {k: v for n, (k, v) in enumerate(p[0].items()) if n != p[1] or k == "type"})
    return st.one_of(shaped, shaped, dropped)


def choices_of(types: tuple[type, ...]) -> st.SearchStrategy:
    """What a person might type as a choice: an event as JSON, odd text, or JSON nested deeply."""
    deep = st.integers(100, 6000).map(lambda n: '{"type":' + "[" * n + "]" * n + "}")
    return st.one_of(events_of(types).map(lambda d: json.dumps(d, ensure_ascii=False)), odd_text, deep)


def lone_surrogate_choices(tag: str) -> list[str]:
    """Choices holding a lone surrogate, as a face hands one to 'act': an argument's byte that is not UTF-8 (what
    Python makes of $'\\xff' on the command line), a surrogate itself, JSON's escape of one (typed, or sent over
    HTTP), and an event of ``tag`` whose field or key holds one, as text and as an escape. The strategies draw them
    rarely (a value among many): the tests give these as explicit examples, checked on every run."""
    return ["\udcff", "\ud800", '{"type":"\\ud800"}', '"\\udfff"',
            json.dumps({"type": tag, "player": "\ud800"}, ensure_ascii=False),
            json.dumps({"type": tag, "player": "\ud800"}),
            '{"type":"' + tag + '","\\udfff":1}']


def lone_surrogate_files(good: bytes) -> list[bytes]:
    """``good`` (an export) holding a lone surrogate, as a file can (UTF-8 has none: JSON escapes one, or bytes
    encode one as no UTF-8 may): an event's payload field escaping one, every hash recomputed; an actor escaping one,
    hashes left as they were; the bytes of one where a name stands. Given to 'import' on every run."""

    def payload(events):  # the first text field of an event's payload (the ruleset's name, say); else a payload
        for ev in events:
            fields = ev["payload"] if isinstance(ev["payload"], dict) else {}
            key = next((k for k, v in fields.items() if isinstance(v, str) and k != "type"), None)
            if key is not None:
                fields[key] = "\ud800"
                return
        events[-1]["payload"] = "\ud800"

    lines = good.splitlines(keepends=True)
    actor = next(i for i, ln in enumerate(lines) if b'"actor":"' in ln)
    escaped = lines[:actor] + [re.sub(rb'"actor":"[^"]*"', rb'"actor":"\\ud800"', lines[actor], count=1)]
    return [rewrite(good, payload), b"".join(escaped + lines[actor + 1:]),
            good.replace(b'"ann"', b'"\xed\xa0\x80"', 1)]


@st.composite
def damaged_files(draw, good: bytes) -> bytes:
    """``good`` (an export) damaged in one of many ways: lines dropped, repeated or swapped, bytes changed, cut,
    or an event's payload replaced by arbitrary JSON with every hash recomputed."""
    lines = good.splitlines(keepends=True)
    n = len(lines)
    how = draw(st.sampled_from(["drop", "repeat", "swap", "byte", "cut", "payload", "field", "rehash-cut"]))
    if how == "drop":
        k = draw(st.integers(0, n - 1))
        return b"".join(lines[:k] + lines[k + 1:])
    if how == "repeat":
        k = draw(st.integers(0, n - 1))
        return b"".join(lines[:k + 1] + lines[k:])
    if how == "swap":
        a, b = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        lines[a], lines[b] = lines[b], lines[a]
        return b"".join(lines)
    if how == "byte":
        k = draw(st.integers(0, len(good) - 1))
        return good[:k] + bytes([draw(st.integers(0, 255))]) + good[k + 1:]
    if how == "cut":
        return good[:draw(st.integers(0, len(good)))]
    if how == "field":  # one field of one line replaced by any JSON, hashes left as they were
        k = draw(st.integers(0, n - 1))
        obj = json.loads(lines[k])
        key = draw(st.sampled_from(sorted(obj)))
        obj[key] = draw(json_value)
        lines[k] = json.dumps(obj).encode() + b"\n"
        return b"".join(lines)
    value = draw(json_value)

    def change(events):
        if how == "rehash-cut":
            del events[draw(st.integers(1, max(1, len(events) - 1))):]
            return
        ev = events[draw(st.integers(0, len(events) - 1))]
        target = draw(st.sampled_from(["payload", "field", "tag", "actor"]))
        if target == "payload":
            ev["payload"] = value
        elif target == "field" and isinstance(ev["payload"], dict) and ev["payload"]:
            ev["payload"][draw(st.sampled_from(sorted(ev["payload"])))] = value
        elif target == "tag":
            ev["tag"] = draw(st.text(max_size=20))
        else:
            ev["actor"] = draw(st.text(max_size=12))

    return rewrite(good, change)

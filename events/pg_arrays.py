"""A run of events' columns as PostgreSQL arrays in binary, each built in one pass (PostgreSQL only).

psycopg builds a binary array element by element through its generic machinery, about 60 us for a ~80-event
column: the eight columns of a new bot game cost more than the server took to insert them. The wire format is
simple (``array_recv`` in PostgreSQL's ``arrayfuncs.c``): a header (dimensions, a has-nulls flag, the element
type's OID, then each dimension's length and lower bound) and each element as a 4-byte length (-1 for NULL)
followed by its bytes. Built here once per column, it goes to the driver as a value whose dumper passes it through
(``register``), typed by the OID its class names.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import cache

_HEAD = struct.Struct(">iiiii")
_INT4 = struct.Struct(">ii")  # an int4 element: its length (4) and its value
_INT8 = struct.Struct(">iq")  # a timestamp element: its length (8) and microseconds since 2000-01-01
_NULL = b"\xff\xff\xff\xff"
_EPOCH = datetime(2000, 1, 1)
_MICRO = timedelta(microseconds=1)


class Array(bytes):
    """A whole array in PostgreSQL's binary form; each subclass names its type's OID."""

    oid = 0


class VarcharArray(Array):
    oid = 1015


class IntArray(Array):
    oid = 1007


class ByteaArray(Array):
    oid = 1001


class TimestampArray(Array):
    oid = 1115


_ELEMENT = {VarcharArray: 1043, IntArray: 23, ByteaArray: 17, TimestampArray: 1114}


def _array(kind: type[Array], count: int, body: bytes, nulls: bool) -> Array:
    return kind(_HEAD.pack(1, 1 if nulls else 0, _ELEMENT[kind], count, 1) + body)


def varchars(values: Sequence[str | None], encoding: str = "utf-8") -> VarcharArray:
    """``values`` (None for NULL) as varchar[], each encoded as the connection's ``encoding`` says."""
    parts = []
    for v in values:
        if v is None:
            parts.append(_NULL)
        else:
            b = v.encode(encoding)
            parts.append(len(b).to_bytes(4, "big") + b)
    return _array(VarcharArray, len(values), b"".join(parts), None in values)  # type: ignore[return-value]


def byteas(values: Sequence[bytes]) -> ByteaArray:
    return _array(ByteaArray, len(values), b"".join(len(b).to_bytes(4, "big") + b for b in values),
                  False)  # type: ignore[return-value]


def ints(values: Sequence[int]) -> IntArray:
    return _array(IntArray, len(values), b"".join(_INT4.pack(4, v) for v in values), False)  # type: ignore[return-value]


def timestamps(values: Sequence[datetime]) -> TimestampArray:
    """Naive UTC times as timestamp[] (microseconds since 2000-01-01; a run of equal times is converted once)."""
    packed = {t: _INT8.pack(8, (t - _EPOCH) // _MICRO) for t in set(values)}
    return _array(TimestampArray, len(values), b"".join(packed[t] for t in values),
                  False)  # type: ignore[return-value]


def register(conn) -> None:
    """Teach a psycopg connection to send an ``Array`` as it is (binary, typed by its class's OID)."""
    for kind, dumper in _dumpers():
        conn.adapters.register_dumper(kind, dumper)


@cache
def _dumpers() -> list[tuple[type[Array], type]]:
    from psycopg.adapt import Dumper  # imported when PostgreSQL is first used: the CLI starts without it
    from psycopg.pq import Format

    def dump(self, obj: Array) -> bytes:
        return obj

    return [(kind, type(f"{kind.__name__}Dumper", (Dumper,), {"format": Format.BINARY, "oid": kind.oid,
                                                              "dump": dump})) for kind in _ELEMENT]

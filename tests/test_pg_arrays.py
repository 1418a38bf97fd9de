"""Events' columns go to PostgreSQL as binary arrays built by events/pg_arrays.py: what the server reads back is
exactly what was sent, for every kind of value a column holds."""

from __future__ import annotations

from datetime import datetime

import pytest

from agon.events import pg_arrays
from agon.events.envelope import seal
from agon.events.store import Store

TEXTS = ["ann", None, "Zoë \u2603 \U0001f3b2", 'quote " comma , braces {} backslash \\', "", "NULL", "x" * 5000]
BYTES = [b"", b"\x00\xff\x00", b'{"type":"x"}', bytes(range(256)) * 40]
INTS = [0, 1, -1, 2**31 - 1, -(2**31)]
TIMES = [datetime(2026, 11, 26, 9, 1, 2, 345678), datetime(1999, 12, 31, 23, 59, 59, 999999),
         datetime(2000, 1, 1), datetime(2026, 11, 26, 9, 1, 2, 345678), datetime(2300, 6, 1, 0, 0, 0, 1)]


@pytest.fixture
def pg(pg_base):
    import psycopg

    with psycopg.connect(pg_base.replace("postgresql+psycopg://", "postgresql://"), autocommit=True,
                         client_encoding="UTF8") as conn:
        pg_arrays.register(conn)
        yield conn


@pytest.mark.postgres
@pytest.mark.parametrize(("build", "values", "cast"), [
    (pg_arrays.varchars, TEXTS, "varchar"), (pg_arrays.byteas, BYTES, "bytea"), (pg_arrays.ints, INTS, "int"),
    (pg_arrays.timestamps, TIMES, "timestamp"), (pg_arrays.varchars, ["only"], "varchar"),
])
def test_the_server_reads_back_every_value_as_sent(pg, build, values, cast):
    (got,) = pg.execute(f"SELECT %b::{cast}[]", [build(values)]).fetchone()
    assert got == values
    rows = pg.execute(f"SELECT x, ord FROM unnest(%b::{cast}[]) WITH ORDINALITY AS u(x, ord)",
                      [build(values)]).fetchall()
    assert [x for x, _ in rows] == values and [n for _, n in rows] == list(range(1, len(values) + 1))


def test_a_stored_line_reads_back_byte_for_byte(store_url):
    """Through the store (on both backends): names and payloads outside ASCII, a NULL parent, one shared time."""
    store = Store(store_url)
    try:
        at = datetime.fromisoformat("2026-11-26T09:00:00.123456+00:00")
        root = seal(None, "game.created", 1, "setup", '{"type":"game.created","title":"Zoë \\"☃\\""}'.encode(), at)
        line = [root]
        for i, actor in enumerate(["Zoë", 'Ann "the bold"', "chance", "Ωmega, {x}"]):
            line.append(seal(line[-1], "toy.move", 1, actor, f'{{"type":"toy.move","n":{i}}}'.encode(), at))
        store.create_game("g1", "toy", "", ["Zoë", 'Ann "the bold"'], root, line[1:])
        assert store.line("g1", line[-1].id) == line
    finally:
        store.close()

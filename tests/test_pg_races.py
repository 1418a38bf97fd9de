"""Races on PostgreSQL: two writers append the same events after the same head at the same moment, many times.
One wins, the other gets a clear conflict, and psycopg logs nothing (it printed 'error ignored terminating
<psycopg.Pipeline [INERROR]>' to stderr when a batched insert lost such a race).

The free-running races hit the losing interleaving only some of the time (the loser must look for the events
before the winner commits them, and insert them after); the last test forces it, so it fails every time on the
insert psycopg ran as a pipeline (executemany) and passes on the multi-row insert."""

from __future__ import annotations

import logging
import select

import pytest
import sqlalchemy as sa

from agon.events.store import Conflict, Store
from tests.races import race_same_events
from tests.test_store import chain, new_game

RACES = 20


@pytest.mark.postgres
def test_same_event_races_on_postgres_log_nothing(pg_base):
    from tests.conftest import _pg_schema_url

    gen = _pg_schema_url(pg_base)
    try:
        report = race_same_events(next(gen), RACES, 40)
    finally:
        gen.close()
    assert report.wrong == 0 and all(o in (["conflict", "ok"], ["ok", "ok"]) for o in report.outcomes), report
    assert report.logged == []


@pytest.mark.postgres
def test_the_losing_interleaving_is_a_clean_conflict_with_nothing_logged(pg_base, caplog):
    """The winner has inserted the events and moved the head, not yet committed; the loser looks for the events
    (its snapshot does not see them); the winner commits; the loser inserts them and fails on the duplicate key.
    That must be a Conflict and nothing else: no log line from psycopg.

    An insert sent as a batch of statements (psycopg runs executemany in a pipeline) logged 'error ignored
    terminating <psycopg.Pipeline [INERROR]>' when the server's refusal of the first row reached psycopg while it
    was still sending the others: the batch here waits, after its first row, until the server has refused it."""
    from tests.conftest import _pg_schema_url

    gen = _pg_schema_url(pg_base)
    url = next(gen)
    winner, loser = Store(url), Store(url, create=False)
    try:
        root = new_game(winner, "g")
        envs = chain(40, root, "same")
        conn = winner.engine.connect()
        won = conn.begin()
        winner._insert(conn, "g", envs)
        winner._cas(conn, "g", "main", root.id, envs[-1].id, "act")

        @sa.event.listens_for(loser.engine, "before_cursor_execute", retval=True)
        def commit_the_winner_first(connection, _cursor, statement, parameters, _context, executemany):
            if not statement.startswith("INSERT INTO event") or not won.is_active:
                return statement, parameters
            won.commit()
            if not executemany:
                return statement, parameters
            server = connection.connection.dbapi_connection.pgconn.socket

            def rows_after_the_refusal():
                yield parameters[0]
                select.select([server], [], [], 10)  # the server has answered the first row (refused it)
                yield from parameters[1:]

            return statement, rows_after_the_refusal()

        with caplog.at_level(logging.WARNING, logger="psycopg"):
            with pytest.raises(Conflict, match="moved while this command ran"):
                loser.append("g", "main", root.id, envs)
        conn.close()
        assert not won.is_active  # the loser did look before the winner committed, and inserted after
        assert winner.branch("g", "main").head_id == envs[-1].id and winner.event_count("g") == 41
        assert [r.getMessage() for r in caplog.records if r.name.startswith("psycopg")] == []
    finally:
        winner.close()
        loser.close()
        gen.close()

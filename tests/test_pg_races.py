"""Races on PostgreSQL: two writers append the same events after the same head at the same moment, many times.
One wins, the other gets a clear conflict, and psycopg logs nothing (it printed 'error ignored terminating
<psycopg.Pipeline [INERROR]>' to stderr when a batched insert lost such a race).

The free-running races hit the losing interleaving only some of the time (the loser's write must wait for the
winner's); the last test forces it."""

from __future__ import annotations

import logging
import threading
import time

import pytest

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
    """The winner has inserted the events and moved the head, not yet committed. The loser's append (one
    statement on PostgreSQL: the head's compare-and-swap, then the events, the head move and the summary, each
    selecting from it) waits on the branch row the winner holds; the winner commits; the loser's compare-and-swap
    finds the head moved, so it writes nothing at all, not even the events it would have shared: a Conflict and
    nothing else, and no log line from psycopg (a batch sent as a pipeline once logged 'error ignored terminating
    <psycopg.Pipeline [INERROR]>' when it lost this race)."""
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
        outcome: list[BaseException | None] = []

        def lose() -> None:
            try:
                loser.append("g", "main", root.id, envs)
                outcome.append(None)
            except BaseException as e:  # noqa: BLE001 - handed to the test's thread
                outcome.append(e)

        with caplog.at_level(logging.WARNING, logger="psycopg"):
            thread = threading.Thread(target=lose)
            thread.start()
            waiting = 0
            with winner._auto.connect() as watch:
                for _ in range(1000):  # until the loser's statement waits for the winner's lock (at most 10 s)
                    waiting = watch.exec_driver_sql(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        " AND query LIKE 'WITH cas AS (UPDATE branch%%'").scalar()
                    if waiting or not thread.is_alive():
                        break
                    time.sleep(0.01)
            won.commit()
            thread.join(10)
        conn.close()
        assert waiting == 1  # the loser did wait for the winner, and read the head after it committed
        assert len(outcome) == 1 and isinstance(outcome[0], Conflict), outcome
        assert "moved while this command ran" in str(outcome[0])
        assert winner.branch("g", "main").head_id == envs[-1].id and winner.event_count("g") == 41
        assert [m.reason for m in winner.head_moves("g", "main")] == ["create", "act"]
        assert [r.getMessage() for r in caplog.records if r.name.startswith("psycopg")] == []
    finally:
        winner.close()
        loser.close()
        gen.close()

"""Races on PostgreSQL: two writers append the same events after the same head at the same moment, many times.
One wins, the other gets a clear conflict, and psycopg logs nothing (it printed 'error ignored terminating
<psycopg.Pipeline [INERROR]>' to stderr when a batched insert lost such a race)."""

from __future__ import annotations

import logging
import threading

import pytest

from agon.events.store import Conflict, Store
from tests.test_store import chain, new_game

RACES = 20


@pytest.mark.postgres
def test_same_event_races_on_postgres_log_nothing(pg_base, caplog):
    from tests.conftest import _pg_schema_url

    gen = _pg_schema_url(pg_base)
    url = next(gen)
    try:
        stores = [Store(url), Store(url, create=False), Store(url, create=False)]
        outcomes = []
        with caplog.at_level(logging.WARNING, logger="psycopg"):
            for k in range(RACES):
                gid = f"g{k}"
                root = new_game(stores[0], gid)
                barrier = threading.Barrier(2)
                results: list[str] = []

                def racer(store: Store) -> None:
                    envs = chain(40, root, "same")
                    barrier.wait()
                    try:
                        store.append(gid, "main", root.id, envs)
                        results.append("ok")
                    except Conflict:
                        results.append("conflict")

                threads = [threading.Thread(target=racer, args=(s,)) for s in stores[1:]]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                outcomes.append(sorted(results))
                assert stores[0].event_count(gid) == 41
        assert all(o in (["conflict", "ok"], ["ok", "ok"]) for o in outcomes), outcomes
        assert [r.getMessage() for r in caplog.records if r.name.startswith("psycopg") and r.levelno >= logging.WARNING] == []
    finally:
        for s in stores:
            s.close()
        gen.close()

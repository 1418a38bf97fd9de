"""The games of a ruleset newest first ('agon stats', events/summary.py ``main_facts``) read in the order of an index
of each game's ruleset, creation time and id, not sorted: a new store has it, a store made before it gains it as
it is opened where it may be written (without a new layout), and one that may only be read is read without it."""

from __future__ import annotations

import sqlite3

import sqlalchemy as sa

from agon.core.service import NewGame, Service
from agon.events import summary
from agon.events.store import SCHEMA_VERSION, Store


def indexes(store: Store) -> set[str]:
    return {ix["name"] for ix in sa.inspect(store.engine).get_indexes("game")}


def test_a_store_has_the_index_and_one_made_before_it_gains_it_where_it_may_be_written(store_url):
    store = Store(store_url)
    assert "ix_game_listing" in indexes(store)
    with store._write() as c:
        c.exec_driver_sql("DROP INDEX ix_game_listing")  # as a store made before it
    store.close()
    again = Store(store_url)
    assert "ix_game_listing" in indexes(again)
    with again._read() as c:
        assert c.exec_driver_sql("SELECT max(version) FROM agon_schema").scalar() == SCHEMA_VERSION
    again.close()


def test_the_newest_first_order_needs_no_sort_and_a_read_only_store_is_read_without_the_index(tmp_path):
    path = tmp_path / "games.db"
    svc = Service(Store(f"sqlite:///{path}"))
    made = [svc.new_game(NewGame("toy", bots=[("ann", "random"), ("bob", "random")], seed=k)) for k in range(3)]
    for limited in (False, True):
        sql, names, params = summary._main_lines_sql(svc.store.engine.dialect, limited, facts=True)
        values = {**params, "ruleset": "toy", "limit": 2}
        with svc.store._read() as c:
            plan = " | ".join(r[-1] for r in c.exec_driver_sql(
                f"EXPLAIN QUERY PLAN {sql}", tuple(values[k] for k in names)).all())
        assert "ix_game_listing" in plan and "TEMP B-TREE" not in plan, plan
    with svc.store._write() as c:
        c.exec_driver_sql("DROP INDEX ix_game_listing")
    svc.store.close()
    read_only = Service(Store(f"sqlite:///{path}?mode=ro"))
    assert read_only.main_summaries("toy", facts=True).read == len(made)
    read_only.store.close()
    db = sqlite3.connect(path)
    assert not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'ix_game_listing'").fetchall()  # nothing written
    db.close()

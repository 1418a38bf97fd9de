"""The analysis cache table: a derived store table beside the events, on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa

from agon.events import analysis_cache as cache
from agon.events.store import Store

K = cache.Key("n1", "1", "random", 100, 7)


def test_results_are_kept_by_their_whole_key_and_replaced_when_recomputed(store):
    cache.put(store, {K: {"rollouts": 100, "wins": {"Ana": 40}}, cache.Key("n1", "1", "random", 100, 7, 100): {"x": 1}})
    assert cache.get(store, [K]) == {K: {"rollouts": 100, "wins": {"Ana": 40}}}
    # Any other setting, or another ruleset version, is another figure: not found.
    others = [cache.Key("n1", "2", "random", 100, 7), cache.Key("n1", "1", "greedy", 100, 7),
              cache.Key("n1", "1", "random", 50, 7), cache.Key("n1", "1", "random", 100, 8), cache.Key("n2", "1",
              "random", 100, 7)]
    assert cache.get(store, others) == {}
    cache.put(store, {K: {"rollouts": 100, "wins": {"Ana": 41}}})
    assert cache.get(store, [K])[K]["wins"] == {"Ana": 41}
    assert cache.count(store) == 2


def test_a_store_made_before_the_cache_existed_gains_the_table_when_opened(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    Store(url).close()
    eng = sa.create_engine(url)
    with eng.begin() as c:
        c.exec_driver_sql("DROP TABLE analysis_result")
    eng.dispose()
    s = Store(url)
    cache.put(s, {K: {"rollouts": 1}})
    assert cache.get(s, [K]) == {K: {"rollouts": 1}}
    s.close()

"""'agon stats' reads the main lines' summaries in one query (Service.main_summaries): the same summaries, newest
first, as the listing of main lines, stale rows recomputed first; and counting Summary objects as they are gives
what counting their plain-data form gives."""

from __future__ import annotations

from agon.analysis.stats import aggregate, from_summary
from agon.core.service import NewGame


def test_main_summaries_are_the_listings_and_count_the_same(svc):
    games = [svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=k)) for k in range(5)]
    for g in games:
        svc.act(g, "1")
    svc.undo(games[1])  # its main line's row is now stale
    svc.branch(games[2], "side")
    svc.act(games[2], "1", branch="side")
    got = svc.main_summaries("toy")
    listed = [g.summary for g in svc.listing("main", ruleset="toy", order="newest")]
    assert got == listed and len(got) == 5
    assert svc.main_summaries("toy", limit=2) == listed[:2]
    assert aggregate(got) == aggregate(from_summary(s) for s in got)
    for g in games[:3]:
        svc.act(g, "2")
    assert svc.main_summaries("toy") == [g.summary for g in svc.listing("main", ruleset="toy", order="newest")]

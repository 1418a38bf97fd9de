"""The game summary (core/summary.py, events/summary.py): what 'agon games' and 'agon stats' read instead of folding
every line. Whatever is done to a game, a summary the store holds for a branch's head equals a fresh fold of that
branch, before and after 'agon rebuild'."""

from __future__ import annotations

import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.core.service import NewGame, ServiceError
from agon.core.transfer import import_data
from agon.events import summary as summary_table
from agon.events.summary import FACTS, from_row

OPS = st.lists(st.sampled_from(["roll", "hold", "undo", "redo", "branch", "branch-back", "switch-main", "import"]),
               max_size=14)


def stored_rows(svc) -> dict[tuple[str, str], summary_table.Summary]:
    with svc.store.engine.connect() as c:
        return {(r.game_id, r.branch): from_row(r) for r in c.execute(sa.select(*FACTS))}


def check_fresh_rows_equal_a_fold(svc) -> int:
    """Every stored row that is current for its branch's head equals a fresh fold; returns how many were checked."""
    rows = stored_rows(svc)
    checked = 0
    for game_id, branch, _, head in svc.store.all_branches():
        row = rows.get((game_id, branch))
        if row is None or row.head_id != head:
            continue  # stale or missing: recomputed before any listing reads it
        fresh = svc.load(game_id, branch)  # a new Line: folded from the first event
        assert row == fresh.summary, (game_id, branch)
        checked += 1
    return checked


def play(svc, elsewhere, ops: list[str], seed: int) -> str:
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=seed))
    for i, op in enumerate(ops):
        try:
            if op == "roll":
                svc.act(gid, "1")
            elif op == "hold":
                svc.act(gid, "2")
            elif op == "undo":
                svc.undo(gid)
            elif op == "redo":
                svc.redo(gid)
            elif op == "branch":
                svc.branch(gid, f"b{i}")
            elif op == "branch-back":
                svc.branch(gid, f"back{i}", at=max(0, svc.load(gid).head.depth - 3))
            elif op == "switch-main":
                svc.switch(gid, "main")
            elif op == "import":  # the line taken to another store, played on there, and brought back
                there = import_data(elsewhere, svc.export(gid)).game_id
                elsewhere.act(there, "1")
                import_data(svc, elsewhere.export(there))
        except ServiceError:
            pass  # over, nothing to undo or redo: the summary must still hold
    return gid


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS, seed=st.integers(0, 50))
def test_a_stored_summary_equals_a_fresh_fold_after_any_sequence(svc, elsewhere, ops, seed):
    play(svc, elsewhere, ops, seed)
    check_fresh_rows_equal_a_fold(svc)
    # a listing brings every game's current branch and main line up to date, then reads only rows
    for which in ("current", "main"):
        listed = svc.listing(which)
        assert len(listed) == len(svc.games())
        for g in listed:
            assert g.summary == svc.load(g.id, g.summary.branch).summary
            assert g.branches == len(svc.store.branches(g.id))
    svc.rebuild()
    assert len(stored_rows(svc)) == len(svc.store.all_branches())
    assert check_fresh_rows_equal_a_fold(svc) == len(svc.store.all_branches())


def test_acting_writes_the_summary_with_the_events(svc):
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=2))
    row = stored_rows(svc)[(gid, "main")]
    assert row.head_id == svc.load(gid).head.id and row.seats == (("ann", ""), ("bob", "random"))
    svc.act(gid, "1")
    line = svc.load(gid)
    assert stored_rows(svc)[(gid, "main")] == line.summary
    assert line.summary.events == len(line.events) and line.summary.status == line.status()


def test_an_undo_makes_the_row_stale_and_a_listing_recomputes_it(svc):
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=2))
    svc.act(gid, "1")
    svc.undo(gid)
    assert summary_table.stale(svc.store, {"toy": "1"}) == [(gid, "main", "toy", svc.load(gid).head.id)]
    calls = []
    listed = svc.listing(progress=lambda n: calls.append(n) or (lambda: calls.append("step")))
    assert calls == [1, "step"]
    assert listed[0].summary == svc.load(gid).summary
    assert summary_table.stale(svc.store, {"toy": "1"}) == []


def test_a_new_ruleset_version_makes_every_row_of_it_stale(svc):
    gid = svc.new_game(NewGame("toy", bots=[("ann", "random"), ("bob", "random")], seed=2))
    assert summary_table.stale(svc.store, {"toy": "1"}) == []
    assert [s[0] for s in summary_table.stale(svc.store, {"toy": "2"})] == [gid]


def test_a_row_of_an_older_layout_is_recomputed_with_todays_wording(svc):
    """A row written by an earlier agon (layout 2, its status in the old "card(s)" wording) is stale: the next
    listing shows the status a fold gives today, and stores it, without `agon rebuild`."""
    gid = svc.new_game(NewGame("toy", bots=[("ann", "random"), ("bob", "random")], seed=2))
    fresh = svc.load(gid).summary
    with svc.store.engine.begin() as c:
        c.execute(summary_table.SUMMARY.update().values(layout=2, status="old wording: 3 card(s)"))
    assert [s[0] for s in summary_table.stale(svc.store, {"toy": "1"})] == [gid]
    listed = svc.listing()
    assert listed[0].summary == fresh and "(s)" not in listed[0].summary.status
    assert stored_rows(svc)[(gid, "main")] == fresh
    assert summary_table.stale(svc.store, {"toy": "1"}) == []


def test_filters_order_and_limit_are_applied_in_the_query(svc):
    over = [svc.new_game(NewGame("toy", bots=[("ann", "random"), ("bob", "random")], seed=s)) for s in (1, 2)]
    playing = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=3))
    assert [g.id for g in svc.listing(over=True)] == over
    assert [g.id for g in svc.listing(over=False)] == [playing]
    assert [g.id for g in svc.listing(order="newest", limit=2)] == [playing, over[1]]
    longest = svc.listing(order="longest")
    assert [g.summary.events for g in longest] == sorted((g.summary.events for g in longest), reverse=True)


def test_sides_in_the_summary_are_those_the_analysis_reads(svc):
    from agon.analysis.games import sides_of

    for ruleset in ("peloponnes", "pergamemnon"):
        gid = svc.new_game(NewGame(ruleset, bots=[("Ana", "random"), ("Bruno", "random")], seed=3))
        line = svc.load(gid)
        row = stored_rows(svc)[(gid, "main")]
        assert row == line.summary  # written with the game, without a second setup
        label, sides = sides_of(ruleset, line)
        assert (row.side_label, dict(row.sides)) == (label, sides) and set(sides) == {"Ana", "Bruno"}

"""'agon branches' from one scan of a game's nodes and the branches' summaries: the same rows as replaying every
line, without reading or replaying a line whose summary is up to date."""

from __future__ import annotations

from agon.core.engine import Over
from agon.core.service import NewGame, Service


def folded_rows(svc, gid):
    """The rows as they were computed before: every line loaded and replayed."""
    lines = svc.lines(gid)
    by_name = {ln.branch.name: ln for ln in lines}
    rows = []
    for ln in lines:
        parent = by_name.get(ln.branch.parent_branch or "")
        fork = None
        if parent is not None:
            fork = 0
            for a, b in zip(ln.envelopes, parent.envelopes):
                if a.id != b.id:
                    break
                fork = a.depth
        pending = ln.pending
        ahead = svc.redo_target(gid, ln.branch.name, ln.head.id)  # the head moves read one branch at a time
        tip = svc.undone_tip(gid, ln.branch.name) if ahead else None
        end = tip if tip and {e.id for e in svc.store.line(gid, tip)} >= {ln.head.id, ahead} else ahead
        rows.append({
            "name": ln.branch.name, "parent": ln.branch.parent_branch, "fork_at": fork, "head": ln.head.depth,
            "luck": "same" if ln.branch.luck == 0 or parent is None or ln.branch.luck == parent.branch.luck
            else "fresh", "status": ln.status(), "over": isinstance(pending, Over),
            "winners": list(pending.outcome.winners) if isinstance(pending, Over) else None,
            "scores": ln.ruleset.scores(ln.state), "current": ln.branch.name == ln.game.current_branch,
            "redo": svc.store.event(gid, ahead).depth - ln.head.depth if ahead else None,
            "undone": svc.store.event(gid, end).depth - ln.head.depth if ahead else None,
        })
    return rows


def act(svc, gid, choice):
    """``choice``, after drawing a chance outcome from the seed if one is due (a branch may start before one)."""
    from agon.core.engine import Chance

    if isinstance(svc.load(gid).pending, Chance):
        svc.act(gid, "seed")
    svc.act(gid, choice)


def a_tree(svc):
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=7))
    for _ in range(3):
        act(svc, gid, "1")
    svc.branch(gid, "early", at=2)
    act(svc, gid, "2")
    svc.switch(gid, "main")
    svc.undo(gid)
    act(svc, gid, "2")  # keeps the undone line as main-undone-1
    svc.branch(gid, "lucky", reseed=True)
    act(svc, gid, "1")
    svc.branch(gid, "from-lucky", at=1, from_branch="lucky")
    svc.undo(gid, branch="lucky")  # two undos not yet redone, and a switch after them
    svc.undo(gid, branch="lucky")
    svc.switch(gid, "main")
    return gid


def test_the_tree_equals_replaying_every_line(svc):
    gid = a_tree(svc)
    _, rows = svc.tree(gid)
    assert [r.__dict__ for r in rows] == folded_rows(svc, gid)
    assert {r.name for r in rows} >= {"main", "early", "main-undone-1", "lucky", "from-lucky"}
    assert [(r.name, r.redo is not None) for r in rows if r.redo or r.undone] == [("lucky", True)]


def test_the_tree_reads_no_line_when_the_summaries_are_up_to_date(svc, monkeypatch):
    gid = a_tree(svc)
    svc.tree(gid)  # brings the summaries of the branches made by branch and undo up to date
    loads = []
    real = Service.load
    monkeypatch.setattr(Service, "load", lambda self, *a, **k: loads.append(a) or real(self, *a, **k))
    svc.tree(gid)
    assert loads == []
    act(svc, gid, "2")  # writes its branch's summary with the events
    loads.clear()
    _, rows = svc.tree(gid)
    assert loads == []
    assert [r.__dict__ for r in rows] == folded_rows(svc, gid)


def test_redo_and_a_branch_at_the_head_say_where_they_stand_without_replaying(svc, monkeypatch):
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=7))
    for _ in range(3):
        svc.act(gid, "1")
    svc.undo(gid)
    svc.redo(gid)
    loads = []
    real = Service.load
    monkeypatch.setattr(Service, "load", lambda self, *a, **k: loads.append(a) or real(self, *a, **k))
    after_redo = svc.head_summary(gid, "main")
    svc.branch(gid, "here")
    at_branch = svc.head_summary(gid, "here")
    assert loads == []
    monkeypatch.setattr(Service, "load", real)
    assert after_redo == svc.load(gid, "main").summary
    assert at_branch == svc.load(gid, "here").summary
    svc.undo(gid)  # a head with no summary yet: recomputed once, then current
    assert svc.head_summary(gid, "main") == svc.load(gid, "main").summary

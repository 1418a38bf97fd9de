"""A person's decision and everything that follows it by itself (chance, bots) is one write: one transaction, one
compare-and-swap, one move in the head history; the line the service hands back is the one stored."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from agon.core.autoplay import CHANCE_ACTOR, play_out
from agon.core.engine import Over
from agon.core.service import NewGame, ServiceError
from agon.events import summary as summary_mod
from agon.events.store import HEAD_MOVE


def test_a_bot_game_is_stored_with_one_head_move(svc):
    gid = svc.new_game(NewGame("toy", bots=[("ann", "random"), ("bob", "random")], seed=4))
    line = svc.load(gid)
    assert isinstance(line.pending, Over)
    moves = svc.store.head_moves(gid)
    assert [(m.reason, m.from_id, m.to_id) for m in moves] == [("create", None, line.head.id)]
    # the same events as playing the game in memory
    events, actors, _ = play_out(line.ruleset, line.created)
    assert line.events == events and [e.actor for e in line.envelopes] == actors


def test_a_decision_and_the_bots_replies_are_one_head_move(svc):
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random"), ("cy", "random")], seed=5))
    before = svc.load(gid)
    recorded, after = svc.record(gid, "2")  # ann holds: bob and cy play their turns until ann must act
    assert {r.actor for r in recorded} >= {"ann", "bob"}
    moves = svc.store.head_moves(gid)
    assert [(m.reason, m.from_id, m.to_id) for m in moves[-1:]] == [("act", before.head.id, after.head.id)]
    assert len(moves) == 2
    stored = svc.load(gid)
    assert stored.head.id == after.head.id and stored.events == after.events
    assert after.chance_count == sum(1 for e in stored.envelopes if e.actor == CHANCE_ACTOR)
    assert after.state == stored.state


def test_a_refused_bot_event_records_nothing_of_the_run(svc, monkeypatch):
    from agon.core import service as service_mod
    from tests.toygame.rules import Held

    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=5))
    line = svc.load(gid)
    assert line.pending.player == "ann"
    before = (line.head.id, svc.store.event_count(gid), len(svc.store.head_moves(gid)))
    real = service_mod.next_auto

    def cheating(rs, created, state, **kw):  # bob's bot banks points he does not have
        auto = real(rs, created, state, **kw)
        return type(auto)(Held(banked=99), "bob") if auto is not None and auto.actor == "bob" else auto

    monkeypatch.setattr(service_mod, "next_auto", cheating)
    with pytest.raises(ServiceError, match="refused: hold"):
        svc.act(gid, "2")  # ann holds; bob's reply is refused, and so ann's hold is not recorded either
    assert (svc.load(gid).head.id, svc.store.event_count(gid), len(svc.store.head_moves(gid))) == before


def test_undo_takes_back_the_decision_with_the_run_that_followed(svc):
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=5))
    before = svc.load(gid).head.id
    svc.act(gid, "2")
    svc.undo(gid)
    assert svc.load(gid).head.id == before
    svc.redo(gid)
    with svc.store.engine.connect() as c:
        reasons = [r for (r,) in c.execute(sa.select(HEAD_MOVE.c.reason).order_by(HEAD_MOVE.c.id))]
    assert reasons == ["create", "act", "undo", "redo"]


def test_a_new_game_whose_random_id_is_taken_gets_another(svc, monkeypatch):
    """Game ids are 8 random hex digits: when one meets a stored game's id, the new game takes another and the
    stored game is left exactly as it was (on PostgreSQL the whole new game is one statement, refused whole)."""
    import agon.core.service as service_mod

    first = svc.new_game(NewGame("toy", bots=[("ann", "random"), ("bob", "random")], seed=4))
    before = svc.load(first)
    ids = iter([first, first, "0badc0de"])
    monkeypatch.setattr(service_mod.secrets, "token_hex", lambda n: next(ids))
    second = svc.new_game(NewGame("toy", bots=[("ann", "random"), ("bob", "random")], seed=9))
    assert second == "0badc0de"
    after = svc.load(first)
    assert after.head.id == before.head.id and after.events == before.events
    assert {g.id for g in svc.store.games()} == {first, second}
    line = svc.load(second)
    assert line.created.seed == 9
    assert [m.reason for m in svc.store.head_moves(second)] == ["create"]
    # the summary written with it names the id the game got, and the first game's is untouched
    rows = summary_mod.of_game(svc.store, second)
    assert rows["main"].game_id == second and rows["main"].head_id == line.head.id
    assert summary_mod.of_game(svc.store, first)["main"].head_id == before.head.id

"""The service on the test game: recording, refusing, chance, undo/redo, branches, files and verification."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from agon.core.engine import Over
from agon.core.service import NewGame, ServiceError
from agon.core.transfer import import_data
from agon.events.envelope import seal
from agon.events.store import now
from tests.toygame.rules import Held


def bots_game(svc, seed=1, **kw):
    return svc.new_game(NewGame("toy", bots=[("ann", "random"), ("bob", "random")], seed=seed, **kw))


def person_game(svc, seed=3, **kw):
    return svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=seed, **kw))


def snapshot(svc, gid):
    line = svc.load(gid)
    return line.head.id, svc.store.event_count(gid), len(svc.store.head_moves(gid))


def test_a_game_of_bots_is_recorded_to_its_end(svc):
    gid = bots_game(svc)
    line = svc.load(gid)
    assert isinstance(line.pending, Over)
    assert line.envelopes[1].actor == "chance"
    assert svc.verify(gid) == []


def test_a_decision_is_recorded_with_the_chance_it_triggers_and_bots_follow(svc):
    gid = person_game(svc)
    recorded = svc.act(gid, "1")  # ann rolls
    assert recorded[0].actor == "ann" and recorded[0].sentence == "ann rolls."
    assert recorded[1].actor == "chance"


@pytest.mark.parametrize(
    ("choice", "message"),
    [
        ("7", "choice 7 is out of range"),
        ("{oops", "not valid JSON"),
        ('{"type": "toy.nope"}', "not an event of toy"),
        ('{"type": "toy.held", "banked": 50}', "refused: hold: you bank exactly your running 0 points"),
        # a key the event has no field for is refused, not left out: the event read would not be the one typed
        ('{"type": "toy.roll_chosen", "times": 2}', "not an event of toy: 'times' is not one of its fields"),
        ("hello", "give a choice number"),
    ],
)
def test_bad_input_is_refused_and_the_log_is_unchanged(svc, choice, message):
    gid = person_game(svc)
    before = snapshot(svc, gid)
    with pytest.raises(ServiceError, match=message):
        svc.act(gid, choice)
    assert snapshot(svc, gid) == before


def test_acting_out_of_turn_names_the_turn_order(svc):
    gid = svc.new_game(NewGame("toy", players=["ann", "bob"], seed=3))
    line = svc.load(gid)
    other = next(p for p in ("ann", "bob") if p != line.pending.player)
    before = snapshot(svc, gid)
    with pytest.raises(ServiceError, match=f"turn order: {line.pending.player} must act now"):
        svc.act(gid, "1", as_player=other)
    with pytest.raises(ServiceError, match="no player 'zed'"):
        svc.act(gid, "1", as_player="zed")
    assert snapshot(svc, gid) == before


def test_unknown_ruleset_bot_or_bad_seat_count_is_refused(svc):
    with pytest.raises(ServiceError, match="unknown ruleset 'chess'"):
        svc.new_game(NewGame("chess", players=["a", "b"]))
    with pytest.raises(ServiceError, match="unknown bot kind 'genius'"):
        svc.new_game(NewGame("toy", players=["a"], bots=[("b", "genius")]))
    with pytest.raises(ServiceError, match="played by 2 to 4 players, not 1"):
        svc.new_game(NewGame("toy", players=["a"]))
    with pytest.raises(ServiceError, match="same name"):
        svc.new_game(NewGame("toy", players=["a", "a"]))
    with pytest.raises(ServiceError, match="no option 'colour'"):
        svc.new_game(NewGame("toy", players=["a", "b"], options={"colour": "red"}))
    assert svc.games() == []


def test_a_table_game_waits_for_the_chance_outcome_a_person_enters(svc):
    gid = svc.new_game(NewGame("toy", players=["ann", "bob"], seed=3, table=True))
    line = svc.load(gid)
    assert "chance needed: seat order" in line.status()
    with pytest.raises(ServiceError, match="give every one of the 2 items once"):
        svc.act(gid, "ann")
    svc.act(gid, "bob ann")
    svc.act(gid, "1")  # bob rolls
    before = snapshot(svc, gid)
    with pytest.raises(ServiceError, match="a die shows 1 to 6, not 7"):
        svc.act(gid, "7")
    with pytest.raises(ServiceError, match="no player acts now"):
        svc.act(gid, "3", as_player="bob")
    assert snapshot(svc, gid) == before
    rec = svc.act(gid, "5")
    assert rec[0].sentence == "bob rolls a 5."
    svc.act(gid, "1")
    rec = svc.act(gid, "seed")  # let agon draw it from the seed
    assert rec[0].actor == "chance"


def test_undo_and_redo_move_the_head_and_delete_nothing(svc):
    gid = person_game(svc)
    svc.act(gid, "1")
    svc.act(gid, "1")
    full = svc.load(gid)
    count = svc.store.event_count(gid)
    _, n = svc.undo(gid)
    assert n >= 2 and svc.load(gid).head.depth == full.head.depth - n
    assert svc.store.event_count(gid) == count
    svc.redo(gid)
    assert svc.load(gid).head.id == full.head.id
    with pytest.raises(ServiceError, match="nothing to redo"):
        svc.redo(gid)
    with pytest.raises(ServiceError, match="cannot undo 9 step"):
        svc.undo(gid, 9)


def test_acting_after_an_undo_keeps_the_undone_line_as_a_branch(svc):
    gid = person_game(svc)
    svc.act(gid, "1")
    svc.act(gid, "1")
    tip = svc.load(gid).head.id
    svc.undo(gid)
    svc.act(gid, "2")  # hold instead: a new line beside the old one
    branches = {b.name: b for b in svc.store.branches(gid)}
    assert branches["main-undone-1"].head_id == tip
    with pytest.raises(ServiceError, match="nothing to redo"):
        svc.redo(gid)


def _rolls_after(svc, gid, acts: int) -> list[int]:
    rolls: list[int] = []
    for _ in range(acts):
        rolls += [r.event.value for r in svc.act(gid, "1") if r.actor == "chance"]
    return rolls


def test_a_branch_keeps_the_same_luck_unless_reseeded(svc):
    gid = person_game(svc, seed=11, options={"target": 1000})  # no one can win within the test's acts
    start = svc.load(gid).head.depth  # ann's first decision
    main_rolls = _rolls_after(svc, gid, 10)
    main = svc.load(gid)
    svc.branch(gid, "same", at=start)
    assert _rolls_after(svc, gid, 10) == main_rolls
    assert [e.id for e in svc.load(gid).envelopes] == [e.id for e in main.envelopes]
    svc.branch(gid, "fresh", at=start, from_branch="main", reseed=True)
    fresh_rolls = _rolls_after(svc, gid, 10)
    n = min(len(fresh_rolls), len(main_rolls))
    assert n >= 10 and fresh_rolls[:n] != main_rolls[:n]  # 10+ equal dice by chance: odds below 1 in 60 million
    with pytest.raises(ServiceError, match="already has a branch 'same'"):
        svc.branch(gid, "same")
    with pytest.raises(ServiceError, match="event 999 is outside"):
        svc.branch(gid, "far", at=999)


def test_switch_changes_the_current_line(svc):
    gid = person_game(svc)
    svc.act(gid, "1")
    svc.branch(gid, "alt", at=1)
    assert svc.load(gid).branch.name == "alt"
    svc.switch(gid, "main")
    assert svc.load(gid).branch.name == "main"
    with pytest.raises(ServiceError, match="no branch 'ghost'"):
        svc.switch(gid, "ghost")


def test_export_then_import_gives_the_same_game(svc, elsewhere):
    gid = bots_game(svc, seed=4)
    data = svc.export(gid)
    new = import_data(elsewhere, data).game_id
    a, b = svc.load(gid), elsewhere.load(new)
    assert [e.id for e in a.envelopes] == [e.id for e in b.envelopes]
    assert a.state == b.state
    assert elsewhere.verify(new) == []
    assert import_data(svc, data).game_id == gid and len(svc.games()) == 1  # the store that has it keeps one


def _lines(svc):
    return svc.export(bots_game(svc, seed=4)).splitlines(keepends=True)


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda ls: ls[:5] + [ls[5][: len(ls[5]) // 2]], "cut short"),
        (lambda ls: ls[:3] + [ls[4], ls[3]] + ls[5:], "missing or out of order"),
        (lambda ls: ls[:3] + [ls[3].replace(b'"actor":"', b'"actor":"x')] + ls[4:], "does not match its hash"),
        (lambda ls: [ls[0].replace(b'"ruleset":"toy"', b'"ruleset":"chess"')] + ls[1:], "does not match its hash"),
        (lambda ls: [], "holds no events"),
    ],
    ids=["truncated", "reordered", "tampered", "other-ruleset", "empty"],
)
def test_an_import_that_does_not_replay_cleanly_imports_nothing(svc, mangle, message):
    lines = _lines(svc)
    games = len(svc.games())
    with pytest.raises(ServiceError, match=message):
        import_data(svc, b"".join(mangle(lines)))
    assert len(svc.games()) == games


def test_an_import_with_valid_hashes_but_an_illegal_event_is_refused(svc):
    gid = person_game(svc)
    line = svc.load(gid)
    bad = seal(line.head, "toy.held", 2, "ann", b'{"type":"toy.held","banked":99}', now())
    from agon.events.envelope import to_jsonl

    games = len(svc.games())
    with pytest.raises(ServiceError, match="breaks a rule: hold: you bank exactly"):
        import_data(svc, to_jsonl([*line.envelopes, bad]))
    assert len(svc.games()) == games


def test_verify_reports_an_event_changed_in_the_database(svc):
    gid = bots_game(svc)
    ev = svc.store.all_events(gid)[3]
    with svc.store.engine.begin() as c:
        c.execute(sa.text("UPDATE event SET payload = :p WHERE game_id = :g AND id = :i"),
                  {"p": ev.payload.replace(b"}", b',"x":1}'), "g": gid, "i": ev.id})
    problems = svc.verify(gid)
    assert any("does not match its hash" in p for p in problems)


def test_an_old_version_payload_is_read_through_its_upcaster(svc):
    gid = svc.new_game(NewGame("toy", players=["ann", "bob"], seed=3))
    line = svc.load(gid)
    old = seal(line.head, "toy.held", 1, line.pending.player, json.dumps({"type": "toy.held", "points": 0}).encode(),
               now())
    svc.store.append(gid, "main", line.head.id, [old])
    again = svc.load(gid)
    assert again.events[-1] == Held(banked=0)
    assert svc.verify(gid) == []


def test_a_chance_with_one_possible_outcome_is_recorded_without_asking():
    from agon.core.autoplay import next_auto
    from agon.core.engine import Chance
    from agon.events.base import GameCreated, PlayerSeat
    from tests.toygame.rules import SeatsShuffled

    build = lambda out: SeatsShuffled(order=tuple(out))  # noqa: E731
    assert Chance("draw", "known cards", build, count=0, items=("a", "b")).forced
    assert Chance("shuffle", "one seat", build, items=("a",)).forced
    assert not Chance("draw", "a card", build, count=1, items=("a", "b")).forced
    assert not Chance("dice", "a die", build).forced
    # items all alike but face down, which kinds are left hidden (Peloponnes' coin deck): still asked for
    assert Chance("draw", "coins", build, count=2, items=("wood",) * 3).forced
    assert not Chance("draw", "coins", build, count=2, items=("wood",) * 3, unseen=("wood", "stone")).forced
    assert Chance("draw", "no coins left", build, count=0, items=(), unseen=("wood", "stone")).forced

    class OneSeatLeft:
        bots: dict = {}

        def pending(self, state):
            return Chance("shuffle", "seat order", build, items=("ann",))

    created = GameCreated(ruleset="toy", ruleset_version="1", players=(PlayerSeat("ann"),), seed=1, table=True)
    auto = next_auto(OneSeatLeft(), created, None, depth=1, chance_ordinal=0, luck=0, draw_chance=False)
    assert auto is not None and auto.event == SeatsShuffled(order=("ann",)) and auto.actor == "chance"


def test_an_option_typed_several_ways_is_stored_one_way(tmp_path):
    """'less_luck=0', '=false' and '=off' are one setup: stored alike, so stats group their games together."""
    from agon.core.service import NewGame, Service
    from agon.events.store import Store

    svc = Service(Store(f"sqlite:///{tmp_path / 'g.db'}"))
    stored = set()
    for value in (0, "0", False, "false", "off", "no"):
        gid = svc.new_game(NewGame("adamastor", bots=[("A", "greedy")], seed=3, options={"less_luck": value}))
        stored.add(repr(svc.load(gid).created.options))
    assert stored == {repr({"less_luck": False})}
    svc.store.close()


def test_a_seeded_line_waiting_for_chance_asks_for_seed_not_for_what_a_table_types(tmp_path):
    from agon.core.service import NewGame, Service, ServiceError
    from agon.events.store import Store

    svc = Service(Store(f"sqlite:///{tmp_path / 'g.db'}"))
    gid = svc.new_game(NewGame("peloponnes", players=["Ana"], bots=[("B", "greedy")], seed=4))
    svc.undo(gid, to=0)  # taken back to the start (a new branch there draws it): the first shuffle is due
    for typed in ("4 6", "c12", "x"):
        with pytest.raises(ServiceError) as e:
            svc.act(gid, typed)
        assert "type 'seed'" in str(e.value) and "possible:" not in str(e.value)
    svc.act(gid, "seed")
    svc.store.close()



def test_no_undone_line_is_kept_twice_nor_beside_a_line_that_holds_it(svc):
    """After a walk back to the start and a redo, acting keeps no line (nothing was left behind); a line walked
    onto again (main entering main-undone-1's moves once more) then holds the same moves as that branch, which is
    kept (a branch is never removed), and acting after undoing it keeps it under no second name: only the line main
    left, which no branch held, gets one."""
    gid = svc.new_game(NewGame("toy", players=["Ana", "Bo"], seed=3, salt="kept"))
    svc.act(gid, "1")
    tip = svc.load(gid).head.id
    start = svc.undo(gid)[0].head_id
    svc.undo(gid, to=0)  # the whole line walked back, then brought back
    svc.redo(gid)
    svc.redo(gid)
    assert svc.load(gid).head.id == tip
    svc.act(gid, "1")
    assert [b.name for b in svc.store.branches(gid)] == ["main"]  # nothing was left behind
    svc.undo(gid, to=svc.store.event(gid, start).depth)
    svc.act(gid, "2")  # a new line: the one undone is kept, once
    heads = {b.name: b.head_id for b in svc.store.branches(gid)}
    kept = heads["main-undone-1"]
    svc.act(gid, "1")
    left = svc.load(gid).head.id
    svc.undo(gid, to=svc.store.event(gid, start).depth)
    svc.act(gid, "1")  # main enters main-undone-1's moves again: what it leaves is kept, nothing twice
    svc.act(gid, "1")
    heads = {b.name: b.head_id for b in svc.store.branches(gid)}
    assert heads == {"main": kept, "main-undone-1": kept, "main-undone-2": left}, heads
    svc.undo(gid, to=svc.store.event(gid, start).depth)
    svc.act(gid, "2")  # what main leaves now is main-undone-1's line: no main-undone-3 for it
    heads = {b.name: b.head_id for b in svc.store.branches(gid)}
    assert set(heads) == {"main", "main-undone-1", "main-undone-2"} and heads["main-undone-1"] == kept

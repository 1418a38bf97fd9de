"""Taking things back: at a table every entered event (a typed chance outcome included) is one step; --to N on
every game; a seeded game keeps its rule (a person's decision with the bots' replies) and says what it took back."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from agon.core import seats
from agon.core.service import NewGame, ServiceError


def test_at_a_table_undo_takes_back_a_typed_chance_outcome_alone(sqlite_svc):
    svc = sqlite_svc
    game = svc.new_game(NewGame("adamastor", players=("Ana",), seed=3, table=True))
    svc.act(game, "r3")  # map card 1: a typed chance outcome
    svc.act(game, "1")  # Ana places the fleet
    svc.act(game, "c1 c2 c3 c4 c5 c6")
    assert svc.load(game).head.depth == 3
    _, n = svc.undo(game)
    assert n == 1 and svc.load(game).head.depth == 2  # only the cards typed last
    _, n = svc.undo(game, 2)
    assert n == 2 and svc.load(game).head.depth == 0
    with pytest.raises(ServiceError, match="cannot undo: branch .main. has no entered events yet"):
        svc.undo(game)
    svc.redo(game)
    assert svc.load(game).head.depth == 2


def test_undo_to_an_event_works_on_every_game_and_refuses_a_position_outside_the_line(sqlite_svc):
    svc = sqlite_svc
    game = svc.new_game(NewGame("peloponnes", players=("Ana",), bots=(("Bob", "greedy"), ("Cy", "greedy")), seed=4))
    for _ in range(3):
        svc.act(game, "1")
    last = svc.load(game).head.depth
    _, n = svc.undo(game, to=5)
    assert n == last - 5 and svc.load(game).head.depth == 5
    with pytest.raises(ServiceError, match="--to 5 is outside what can be undone: this line has events 0 to 5"):
        svc.undo(game, to=5)


def test_a_seeded_game_undoes_a_persons_decision_with_the_bots_replies_and_says_what_it_took_back(agon):
    out = agon("new", "peloponnes", "--player", "Ana", "--bot", "Bob:greedy", "--bot", "Cy:greedy", "--seed", "4",
               "--json").stdout
    game = json.loads(out)["id"]
    agon("act", game, "1")
    log = json.loads(agon("log", game, "--json").stdout)
    ana = max(r["n"] for r in log if r["actor"] == "Ana")
    undone = json.loads(agon("undo", game, "--json").stdout)
    assert undone["event"] == ana - 1 and undone["undone"] == len(log) - ana
    assert [r["n"] for r in undone["took_back"]] == list(range(ana, len(log)))
    agon("redo", game)
    text = agon("undo", game).stdout
    n = len(log) - ana
    assert f"Undid {n} {'event' if n == 1 else 'events'}:" in text and f"agon redo {game}" in text
    assert f"  #{ana:<4} Ana " in text and "Ana: Ana" not in text  # the sentence names who decided: not said twice


def table_game(svc) -> tuple[str, list[str]]:
    """An Adamastor table game with three entries (a typed map card, the fleet, six cards): its id and heads."""
    game = svc.new_game(NewGame("adamastor", players=("Ana",), seed=3, table=True))
    heads = []
    for entry in ENTRIES:
        svc.act(game, entry)
        heads.append(svc.load(game).head.id)
    return game, heads


ENTRIES = ("r3", "1", "c1 c2 c3 c4 c5 c6")


def test_entering_undone_moves_again_as_they_were_leaves_no_empty_line(svc):
    game, heads = table_game(svc)
    svc.undo(game, 3)
    for entry in ENTRIES:
        svc.act(game, entry)
    assert [b.name for b in svc.store.branches(game)] == ["main"]
    assert svc.load(game).head.id == heads[-1]
    with pytest.raises(ServiceError, match="nothing to redo"):
        svc.redo(game)


def test_after_entering_part_of_an_undone_line_again_redo_goes_on_to_its_end(svc):
    game, heads = table_game(svc)
    svc.undo(game, 3)
    svc.act(game, ENTRIES[0])
    _, n = svc.redo(game)
    assert n == 2 and svc.load(game).head.id == heads[-1]
    assert [b.name for b in svc.store.branches(game)] == ["main"]


def test_a_different_entry_after_entering_part_again_keeps_the_undone_line(svc):
    game, heads = table_game(svc)
    svc.undo(game, 3)
    svc.act(game, ENTRIES[0])  # as before
    svc.act(game, "2")  # the fleet placed elsewhere: the old line from here on must keep a name
    branches = {b.name: b.head_id for b in svc.store.branches(game)}
    assert branches == {"main": svc.load(game).head.id, "main-undone-1": heads[-1]}
    with pytest.raises(ServiceError, match="nothing to redo"):
        svc.redo(game)


def test_undo_after_entering_a_move_again_takes_back_that_entry_alone(svc):
    game, heads = table_game(svc)
    svc.undo(game, 2)
    svc.act(game, ENTRIES[1])
    _, n = svc.undo(game)
    assert n == 1 and svc.load(game).head.id == heads[0]
    _, n = svc.redo(game)  # redo takes back the last undo, then the one before
    assert n == 1 and svc.load(game).head.id == heads[1]
    _, n = svc.redo(game)
    assert n == 1 and svc.load(game).head.id == heads[-1]
    assert [b.name for b in svc.store.branches(game)] == ["main"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(st.sampled_from(["1", "2", "undo", "undo2", "redo", "1", "2", "fork", "kept", "main"]),
                    min_size=1, max_size=25),
       seed=st.integers(0, 30))
@example(ops=["1", "1", "undo2", "1", "1"], seed=1)  # two undone moves entered again one at a time
@example(ops=["1", "1", "1", "undo", "undo", "undo", "1", "redo"], seed=1)  # redo after entering one again
@example(ops=["1", "undo", "2", "undo", "1"], seed=0)  # onto a line kept under a name before
@example(ops=["1", "undo", "2", "undo", "1", "kept", "1", "main", "2"], seed=0)  # a kept line played on, then main
def test_after_any_acts_undos_and_redos_every_event_is_reached_by_a_head_or_by_redo(sqlite_svc, ops, seed):
    """No line is ever hidden: each stored event is on a branch's line, or on the line that 'agon redo', repeated,
    brings back. Entering undone moves again as they were ('reenter') makes no branch, so redo must still reach
    the rest of the undone line; a line is named only when no branch holds it already. ``fork`` makes a branch at
    the head and plays on there, ``kept`` plays on the undone line named last, ``main`` switches back."""
    svc = sqlite_svc
    game = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=seed))
    forks = 0
    for op in ops:
        before = {b.name: b.head_id for b in svc.store.branches(game)}
        stored, history = {e.id for e in svc.store.all_events(game)}, svc.store.head_moves(game)
        try:
            if op == "fork":
                forks += 1
                svc.branch(game, f"fork-{forks}")
            elif op == "main":
                svc.switch(game, "main")
            elif op == "kept":
                named = [b for b in svc.store.branches(game) if "-undone-" in b.name]
                if named:
                    svc.switch(game, max(named, key=lambda b: b.created_at).name)
            elif op == "undo":
                svc.undo(game)
            elif op == "undo2":
                svc.undo(game, 2)
            elif op == "redo":
                svc.redo(game)
            else:
                svc.act(game, op)
        except ServiceError:
            pass  # over, nothing to undo or redo
        kept = [b for b in svc.store.branches(game) if b.name not in before and op != "fork"]  # named just now
        for b in kept:  # named because the act left it: the new head is not on its way (no mere re-entry), nor is
            # it on a line a branch held already
            assert svc.load(game).head.id not in {e.id for e in svc.load(game, b.name).envelopes}, b.name
            for name, head in before.items():
                assert b.head_id not in {e.id for e in svc.store.line(game, head)}, (b.name, name)
        # the host's page offers a redo (seats.may_redo, from the line as read) exactly where redo would go on
        line = svc.load(game)
        assert seats.may_redo(svc, line, seats.HOST) == (
            svc.redo_target(game, line.branch.name, line.head.id) is not None), (op, ops)
        assert not seats.may_redo(svc, line, "ann") and not seats.may_redo(svc, line, None)  # the host's alone
        now = svc.store.head_moves(game)
        assert now[:len(history)] == history  # the head history only grows
        for m in now[len(history):]:  # an act stores a new head; a re-entry walks events stored before
            if m.reason in ("act", "reenter"):
                assert (m.to_id in stored) == (m.reason == "reenter"), (op, m.reason)
    events = {e.id: e for e in svc.store.all_events(game)}
    tips = []
    for b in svc.store.branches(game):
        tips.append(b.head_id)
        while True:  # every head redo reaches from here, through the service itself
            try:
                svc.redo(game, b.name)
            except ServiceError:
                break
            tips.append(svc.store.branch(game, b.name).head_id)
    reached: set[str] = set()
    for tip in tips:
        node = events.get(tip)
        while node is not None and node.id not in reached:
            reached.add(node.id)
            node = events.get(node.parent) if node.parent else None
    assert set(events) <= reached


def moves_of(svc, game: str) -> list[tuple[str, str | None, str, str]]:
    return [(m.branch, m.from_id, m.to_id, m.reason) for m in svc.store.head_moves(game)]


def test_entering_a_move_of_a_line_kept_before_walks_it_as_a_reentry(svc):
    """Undo, a different entry (the old line is kept as main-undone-1), undo that, then the first move again: the
    stored events are walked, recorded in the head history as 'reenter' (not as a new 'act'); the entry left now is
    kept as main-undone-2, and the head history only grows."""
    game, heads = table_game(svc)
    svc.undo(game, 2)
    svc.act(game, "2")  # the fleet placed elsewhere
    elsewhere = svc.load(game).head.id
    svc.undo(game)
    before = moves_of(svc, game)
    svc.act(game, ENTRIES[1])  # as it was first entered
    after = moves_of(svc, game)
    assert after[:len(before)] == before
    assert ("main", heads[0], heads[1], "reenter") in after[len(before):]
    assert {b.name: b.head_id for b in svc.store.branches(game)} == {
        "main": heads[1], "main-undone-1": heads[-1], "main-undone-2": elsewhere}
    with pytest.raises(ServiceError, match="the line goes on as branch 'main-undone-1'"):
        svc.redo(game)
    svc.act(game, ENTRIES[2])  # the cards as they were typed first: still the same events
    assert moves_of(svc, game)[-1] == ("main", heads[1], heads[2], "reenter")
    assert len(svc.store.all_events(game)) == 5  # the start, three entries and the other fleet: nothing copied
    _, n = svc.undo(game)  # the re-entry is one entry: taken back alone
    assert n == 1 and svc.load(game).head.id == heads[1]
    assert svc.verify(game) == []


def test_a_kept_line_played_on_since_gets_no_second_name(svc):
    """The entry left behind by walking onto a kept line is named main-undone-2; once that branch is played on, its
    old head is inside its line, and acting on main again must not name that old head a third time."""
    game, heads = table_game(svc)
    svc.undo(game, 2)
    svc.act(game, "2")
    svc.undo(game)
    svc.act(game, ENTRIES[1])  # walks onto main-undone-1; the "2" entry is kept as main-undone-2
    svc.act(game, "c1 c2 c3 c4 c5 c6", branch="main-undone-2")
    svc.act(game, "c7 c8 c9 c10 c11 c12")  # on main: a new entry after the walk
    names = sorted(b.name for b in svc.store.branches(game))
    assert names == ["main", "main-undone-1", "main-undone-2"]
    assert moves_of(svc, game)[-1][3] == "act"
    assert svc.verify(game) == []


def test_undo_refusals_say_how_far_undo_can_go(svc):
    game = svc.new_game(NewGame("adamastor", players=("Ana",), seed=3, table=True))
    with pytest.raises(ServiceError, match="^cannot undo: branch 'main' has no entered events yet, so there is"
                                           " nothing to take back$"):
        svc.undo(game)
    with pytest.raises(ServiceError, match="nothing to redo: nothing was undone on branch 'main'"):
        svc.redo(game)
    svc.act(game, ENTRIES[0])
    svc.act(game, ENTRIES[1])
    with pytest.raises(ServiceError, match="^cannot undo 3 steps: branch 'main' has only 2 entered events, so at most"
                                           " 2 can be undone; nothing was undone$"):
        svc.undo(game, 3)
    assert svc.load(game).head.depth == 2
    svc.undo(game)
    svc.redo(game)
    with pytest.raises(ServiceError, match="nothing to redo: what was undone on branch 'main' has been brought back"):
        svc.redo(game)
    svc.undo(game)
    svc.act(game, "2")  # a different entry: the undone one is kept
    with pytest.raises(ServiceError, match=r"^nothing to redo: nothing was undone on branch 'main' since its last"
                                           r" recorded event \(the entry made after the last undo kept what it took"
                                           r" back as branch 'main-undone-1'\)$"):
        svc.redo(game)


def test_a_branch_entering_the_moves_of_its_parent_walks_them_as_a_reentry(svc):
    """A branch made at an earlier position, where the same move is entered as on main: the stored events are
    walked ('reenter', nothing copied); a different move is a new 'act'."""
    game, heads = table_game(svc)
    svc.branch(game, "again", at=1)
    svc.act(game, ENTRIES[1], branch="again")
    assert moves_of(svc, game)[-1] == ("again", heads[0], heads[1], "reenter")
    svc.act(game, "c7 c8 c9 c10 c11 c12", branch="again")
    assert moves_of(svc, game)[-1][3] == "act" and len(svc.store.all_events(game)) == 5
    assert svc.verify(game) == []


def test_redo_on_another_branch_than_the_undo_says_which_branch_has_it(svc):
    """Undo on main, branch off elsewhere (which switches to it), then redo: this branch has nothing to redo, and
    the refusal says that main has; main's redo still brings the undone moves back after the switches."""
    game, heads = table_game(svc)
    svc.undo(game)
    svc.branch(game, "side")  # at main's head, where the undo left it
    with pytest.raises(ServiceError, match="^nothing to redo: nothing was undone on branch 'side' since its last"
                                           " recorded event; branch 'main' has an undo to redo"):
        svc.redo(game)
    svc.switch(game, "main")
    _, n = svc.redo(game)
    assert n == 1 and svc.load(game).head.id == heads[-1]


def test_the_host_is_offered_undo_exactly_when_an_undo_would_take_something_back(svc):
    """The host's page shows undo by ``seats.may_undo`` (``Service.undoable``): not merely when the line has
    events, but when something on it was entered: a seeded game the bots and the draws opened, and a new branch
    made before any person decided, have events and nothing to take back (the button was there, and refused)."""
    def offered_and_done(game: str, branch: str | None = None) -> tuple[bool, bool]:
        offered = seats.may_undo(svc, svc.load(game, branch), seats.HOST)
        try:
            svc.undo(game, branch=branch)
        except ServiceError:
            return offered, False
        svc.redo(game, branch)
        return offered, True

    game = svc.new_game(NewGame("pergamemnon", players=("Ana",), bots=(("Bo", "random"),), seed=1))
    opened = svc.load(game).head.depth
    assert opened > 0 and svc.load(game).pending.player == "Ana"
    assert offered_and_done(game) == (False, False)
    svc.act(game, "1")
    assert offered_and_done(game) == (True, True)
    svc.branch(game, "before", opened - 1, "main")  # before Ana's decision: nothing entered on that line
    assert svc.load(game, "before").head.depth > 0 and offered_and_done(game, "before") == (False, False)
    svc.branch(game, "after", opened + 1, "main")  # Ana's decision is on it: taken back from the new branch
    assert offered_and_done(game, "after") == (True, True)

    table, _ = table_game(svc)  # at a table: a typed chance outcome is an entry, a new game has none
    assert offered_and_done(table) == (True, True)
    svc.undo(table, 3)
    assert offered_and_done(table) == (False, False)

"""At a table, dice or cards typed again in another order after an undo, where the rules read no order (each side's
pair of Perikles battle dice, a hand drawn, a display of face-up tiles): the same event, so the undone line is walked
back onto and no branch is made. Where the order means something (attacker's pair before defender's, nations dealt in
seat order) another order is another event. Outcomes drawn from the seed keep the order they were drawn in."""

from __future__ import annotations

import json

import pytest

from agon.core import chance as chance_mod
from agon.core.engine import Chance, Decision, Over
from agon.core.service import NewGame, Service
from agon.events.store import Store
from tests.conftest import shipped_rulesets


def branches(agon, gid: str) -> list[str]:
    return [b["name"] for b in json.loads(agon("branches", gid, "--json").stdout)]


def reasons(store: Store, gid: str) -> list[str]:
    return [m.reason for m in store.head_moves(gid)]


@pytest.fixture
def battle(agon, tmp_path):
    """A Perikles game at a table with four bots' seats, up to its first battle roll (the luck before it drawn from
    the seed, the first option taken at every decision), in the store the command line records in (AGON_DB)."""
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    svc = Service(store)
    gid = svc.new_game(NewGame("perikles", bots=(("Ann", "greedy"), ("Bob", "greedy"), ("Cy", "greedy"),
                                                 ("Dee", "greedy")), seed=9, table=True))
    for _ in range(2000):
        pending = svc.load(gid).pending
        if isinstance(pending, Chance) and pending.kind == "dice":
            break
        svc.act(gid, "seed" if isinstance(pending, Chance) else "1")
    else:
        raise AssertionError("no battle came")
    yield gid, store
    store.close()


def test_battle_dice_typed_again_with_each_pair_the_other_way_round_walk_back_onto_the_undone_line(agon, battle):
    gid, store = battle
    out = agon("act", gid, "6512").stdout
    assert "attacker rolls 5+6=11" in out and "defender rolls 1+2=3" in out
    head = store.branch(gid, "main").head_id
    assert "Undid 1 event:" in agon("undo", gid).stdout
    agon("act", gid, "5621")  # the same two dice each: the same roll
    assert branches(agon, gid) == ["main"]
    assert store.branch(gid, "main").head_id == head
    assert reasons(store, gid)[-2:] == ["undo", "reenter"]
    assert len(store.all_events(gid)) == store.event(gid, head).depth + 1  # nothing recorded twice
    # the attacker's dice and the defender's swapped are another roll: the old line is kept
    agon("undo", gid)
    assert "attacker rolls 1+2=3" in agon("act", gid, "1265").stdout
    assert branches(agon, gid) == ["main", "main-undone-1"]
    assert store.branch(gid, "main-undone-1").head_id == head
    assert agon("verify", gid).stdout.startswith("OK:")


def test_seat_order_deals_typed_in_another_order_are_another_deal_and_a_hand_is_not(agon):
    """Pergamemnon: nations are dealt in seat order (another order is another deal); the creatures turned face up
    are a set (the same creatures in another order are the same event)."""
    gid = json.loads(agon("new", "pergamemnon", "--player", "Ann", "--player", "Bob", "--seed", "3", "--table",
                          "--json").stdout)["id"]
    agon("act", gid, "greece rome")
    agon("undo", gid)
    agon("act", gid, "rome greece")
    assert branches(agon, gid) == ["main", "main-undone-1"]
    pending = json.loads(agon("options", gid, "--json").stdout)["pending"]
    assert "creatures revealed" in pending["label"]
    four = ["creature.pegasus", "creature.minotaur", "creature.hydra", "creature.centaur"]
    assert "Creatures are revealed: Centaur, Hydra, Minotaur, Pegasus." in agon("act", gid, " ".join(four)).stdout
    agon("undo", gid)
    agon("act", gid, " ".join(reversed(four)))
    assert branches(agon, gid) == ["main", "main-undone-1"]  # walked back: no main-undone-2


def regroup(c: Chance, outcome: tuple) -> tuple:
    """``outcome`` with each group the rules read in no order reversed: what a person might type instead."""
    out, at = [], 0
    for size in c.unordered:
        out += reversed(outcome[at:at + size])
        at += size
    return (*out, *outcome[at:])


PLAYERS = {"perikles": 3, "pergamemnon": 2, "peloponnes": 2, "adamastor": 2}
UNORDERED = {  # the events of each ruleset whose outcome has groups the rules read in no order
    "perikles": {"perikles.battle_dice_rolled", "perikles.influence_displayed"},
    "pergamemnon": {"pergamemnon.creatures_revealed", "pergamemnon.cards_drawn"},
    "peloponnes": {"peloponnes.coins_drawn"},
    "adamastor": {"adamastor.player_cards_dealt"},
}


@pytest.mark.parametrize("ruleset", shipped_rulesets())
def test_every_unordered_chance_typed_again_in_another_order_is_the_same_event(sqlite_svc, ruleset):
    """Every shipped ruleset at a table: each chance whose outcome has groups the rules read in no order is typed,
    undone and typed again with those groups reversed; the head is back where it was and no branch is made."""
    svc = sqlite_svc
    game = svc.new_game(NewGame(ruleset, players=[f"p{i}" for i in range(PLAYERS[ruleset])], seed=5, table=True))
    reordered: set[str] = set()
    for n in range(600):
        line = svc.load(game)
        pending = line.pending
        if isinstance(pending, Over):
            break
        if not isinstance(pending, Chance) or not pending.unordered:
            commit = isinstance(pending, Decision) and "commit forces" in pending.prompt
            svc.act(game, "seed" if isinstance(pending, Chance) else "2" if commit else "1")  # Perikles: to battle
            continue
        outcome = chance_mod.draw(pending, chance_mod.rng_for(n, 0, 0))
        other = regroup(pending, outcome)
        svc.act(game, " ".join(map(str, outcome)))
        head = svc.load(game).head.id
        svc.undo(game)
        svc.act(game, " ".join(map(str, other)))
        assert svc.load(game).head.id == head, (pending.label, outcome, other)
        if other != outcome:
            reordered.add(line.codec.tag_of(pending.build(outcome)))
    assert [b.name for b in svc.store.branches(game)] == ["main"]
    assert reordered == UNORDERED[ruleset]
    assert "reenter" in [m.reason for m in svc.store.head_moves(game)]


def test_outcomes_drawn_from_the_seed_keep_the_order_they_were_drawn_in(sqlite_svc):
    """A Perikles game drawn from its seed: every battle roll is exactly what the seed draws, pairs high die first
    as often as not (nothing is put in order), and the game verifies."""
    svc = sqlite_svc
    game = svc.new_game(NewGame("perikles", bots=(("Ann", "greedy"), ("Bob", "greedy"), ("Cy", "greedy")), seed=9))
    svc.advance(svc.load(game))
    line = svc.load(game)
    rolls = [e for e in line.events if type(e).__name__ == "BattleDiceRolled"]
    assert rolls and any(e.attacker[0] > e.attacker[1] or e.defender[0] > e.defender[1] for e in rolls)
    state, drawn = line.first_state, 0
    for e in line.events[1:]:
        pending = line.ruleset.pending(state)
        if isinstance(pending, Chance):
            rng = chance_mod.rng_for(line.created.seed, line.branch.luck, drawn)
            assert e == pending.build(chance_mod.draw(pending, rng))
            drawn += 1
        state = line.ruleset.apply(state, e)
    assert svc.verify(game) == []

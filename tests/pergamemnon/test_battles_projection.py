"""The battles projection, the strike-by-strike narration and seeded bot games."""

from __future__ import annotations

import pytest

from agon.core.autoplay import play_out
from agon.core.engine import Over, Step, fold, steps
from agon.events.base import GameCreated, PlayerSeat
from agon.events.pergamemnon import Attacked, CapturesPlaced, DefenceCommitted, HandDiscarded, Reinforced, Yielded
from tests.pergamemnon.helpers import play, rs
from tests.pergamemnon.test_battle_examples import start

EXAMPLE_2 = (
    Attacked(player="Alice", defender="Bob", weapon="spear", card="rome.legionary"),
    DefenceCommitted(player="Bob", card="carthage.hoplite"),
    Reinforced(player="Bob", card="carthage.archer"),
    Reinforced(player="Alice", card="rome.gladiator"),
    Yielded(player="Bob"),
    CapturesPlaced(player="Alice", under_city=("carthage.hoplite",)),
    HandDiscarded(player="Bob"),
)


def line(state, events):
    """Steps over ``events`` from ``state`` (the projection only reads events and the states around them)."""
    out = []
    for i, e in enumerate(events, start=1):
        after = play(state, e)
        out.append(Step(i, e, state, after, e.player))
        state = after
    return out


def test_the_battles_projection_lists_every_strike_and_repel():
    rows = rs.projections["battles"](line(start(), EXAMPLE_2))
    picked = [
        (r["striker"], r["struck"], r["weapon"], r["value"], r["defence"], r["reinforcement"], r["total"], r["result"])
        for r in rows
    ]
    assert picked == [
        ("Alice", "Bob", "spear", 5, 3, "Archer", 8, "reinforced"),
        ("Bob", "Alice", "bow", 5, 3, "Gladiator", 7, "reinforced"),
        ("Alice", "Bob", "sword", 9, 7, None, 7, "yielded"),
    ]
    assert {(r["battle"], r["attacker"], r["defender"], r["battle_result"], r["index"]) for r in rows} == {
        (1, "Alice", "Bob", "attacker", 5)
    }


def test_the_log_narrates_a_battle_strike_by_strike():
    s = start()
    sentences = []
    for e in EXAMPLE_2[:5]:
        sentences.append(rs.narrate(s, e))
        s = play(s, e)
    assert sentences[2] == (
        "Bob reinforces with the Archer: Alice's Legionary strikes with spear 5 against Bob's Hoplite (armour 3, "
        "reinforced by the Archer: 3 + 5 = 8), repelled with the reinforcement; Bob's Archer strikes with bow 5 "
        "against Alice's Legionary (shield 3), Alice must reinforce or yield."
    )
    assert sentences[4].endswith("sword 9 against Bob's Archer (helmet 7), Bob yields: Alice wins the battle.")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_seeded_greedy_games_end_scored_and_replay(n):
    players = tuple(PlayerSeat(f"P{i + 1}", "greedy") for i in range(n))
    created = GameCreated(
        ruleset="pergamemnon", ruleset_version=rs.version, players=players, seed=7, cards=rs.default_cards()
    )
    events, actors, final = play_out(rs, created)
    assert isinstance(rs.pending(final), Over)
    assert fold(rs, events) == final
    assert 8 <= final.turn <= 150
    rows = rs.projections["battles"](list(steps(rs, events, actors)))
    assert rows and len({r["battle"] for r in rows}) == final.battles
    for battle in {r["battle"] for r in rows}:
        chain = [r for r in rows if r["battle"] == battle]
        assert chain[0]["striker"] == chain[0]["attacker"]
        assert all(r["result"] for r in chain)
    again, _, _ = play_out(rs, created)
    assert again == events

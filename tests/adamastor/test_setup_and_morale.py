"""Setup (rulebook 3), morale as the deck (rulebook 4), sunrise and weather (5.1), draw and swap (5.2 A, B)."""

from __future__ import annotations

from dataclasses import replace as dc_replace

import pytest
from msgspec.structs import replace

from agon.core.engine import Chance, Decision, Over
from agon.core.games.adamastor.state import gain_morale, weather_of
from agon.events.adamastor import (
    ActionsEnded,
    CaptainChosen,
    CardsDrawn,
    CardSwapped,
    DrawChosen,
    FleetPlaced,
    MapCardRevealed,
    MoraleLost,
    PlayerCardsDealt,
    SunriseCardDrawn,
)
from tests.adamastor.support import RS, act, created, find, refused, started


@pytest.mark.parametrize(("difficulty", "regular"), [("easy", 2), ("regular", 3), ("hard", 4)])
def test_setup_lays_regular_maps_by_difficulty_and_a_final_one_on_the_right(difficulty, regular):
    s = RS.initial_state(created(1, {"difficulty": difficulty}))
    assert s.maps == ("",) * (regular + 1)
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.kind == "draw"
    assert set(p.items) == {f"R{i}" for i in range(1, 8)}
    # The leftmost card is a regular one: a final card there is refused.
    assert "face-down" in refused(s, MapCardRevealed(position=0, card="F1"))


def test_fleet_is_placed_on_a_leftmost_half_space_by_decision():
    s = act(RS.initial_state(created()), MapCardRevealed(position=0, card="R1"))
    assert isinstance(RS.pending(s), Decision)
    assert {e.space for e in RS.legal(s)} == {"0a", "0b", "0c"}
    assert "leftmost half space" in refused(s, FleetPlaced(space="1b"))
    s = act(s, FleetPlaced(space="0c"))
    assert s.fleet == "0c" and s.phase == "deal"


def test_deal_sorts_the_strip_highest_left_and_leaves_34_cards_in_the_deck():
    s = started(strip=("c9", "c32", "c19"), hand=("c1", "c2", "c3"))
    assert s.strip == ("c32", "c19", "c9")
    assert s.hands == (("c1", "c2", "c3"),)
    assert s.morale == 34 and s.round == 1
    assert s.phase == "actions" and s.cubes >= 1


def test_deal_refuses_a_card_dealt_twice():
    s = act(RS.initial_state(created()), MapCardRevealed(position=0, card="R1"))
    s = act(s, FleetPlaced(space="0b"))
    assert "different player card" in refused(
        s, PlayerCardsDealt(strip=("c1", "c2", "c3"), hands=(("c1", "c5", "c6"),))
    )


def test_the_deal_asked_at_a_table_says_which_cards_typed_go_to_the_strip_and_which_to_each_hand():
    """Typed at a table the cards go, in order, to the strip and then to each hand: the prompt read only 'the
    adventure strip and hands', so a person could not know which three become the strip."""
    for players, options in ((1, {}), (2, {"less_luck": True})):
        s = RS.initial_state(created(players, options))
        while not isinstance(p := RS.pending(s), Chance) or p.count == 1:  # the captain, the maps, the fleet
            s = act(s, p.build((p.items[0],)) if isinstance(p, Chance) else RS.legal(s)[0])
        names = [f"3 for P{i + 1}'s hand" for i in range(players)]
        said = ", then ".join(["3 for the adventure strip", *names, *(["the card shown"] if options else [])])
        assert p.describe().startswith(said + ": draw ")
        dealt = p.build(tuple(f"c{i}" for i in range(1, p.count + 1)))
        assert dealt.strip == ("c1", "c2", "c3") and dealt.hands[0] == ("c4", "c5", "c6")


def test_losing_morale_discards_from_the_top_of_the_deck():
    s = replace(started(), phase="morale_loss", need=3, loss_removes=False, event_step=5)
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 3
    s2 = act(s, MoraleLost(cards=("c10", "c11", "c12")))
    assert s2.morale == 31 and s2.discard[:3] == ("c10", "c11", "c12")
    assert "cannot be the 3 card" in refused(s, MoraleLost(cards=("c10", "c11", "c1")))


def test_gaining_morale_returns_the_discard_piles_top_cards_under_the_deck():
    s = replace(started(), discard=("c20", "c21", "c22"))
    s2 = gain_morale(s, 2)
    assert s2.morale == s.morale + 2
    assert s2.discard == ("c20",) and s2.bottom == ("c22", "c21")


def test_cards_under_the_deck_are_drawn_after_the_unknown_ones_in_their_order():
    s = started()
    s = replace(s, deck=("c10",), bottom=("c22", "c21"), phase="draw", cubes=1)
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 1 and p.items == ("c10",)
    assert p.build(("c10",)) == CardsDrawn(cards=("c10",))
    s = replace(s, deck=())
    p = RS.pending(s)
    assert p.count == 0 and p.build(()) == CardsDrawn(cards=("c22",))


def test_morale_zero_loses_the_game():
    s = replace(started(), phase="morale_loss", need=3, deck=("c10", "c11"), bottom=(), event_step=5)
    s = act(s, MoraleLost(cards=("c10", "c11")))
    assert s.result == "lost_morale"
    o = RS.pending(s)
    assert isinstance(o, Over) and o.outcome.winners == ()


def test_drawing_the_last_card_empties_morale_and_loses():
    s = replace(started(), deck=("c10",), bottom=())
    s = act(s, DrawChosen())
    s = act(s, CardsDrawn(cards=("c10",)))
    assert s.result == "lost_morale"


def test_no_sunrise_card_in_round_one_then_one_each_round_sorted():
    s = started(strip=("c40", "c39", "c38"))
    assert len(s.strip) == 3  # round 1: nothing added
    s = act(s, ActionsEnded())
    # sunset removed the lowest card; round 2's sunrise adds the deck's top card
    while s.phase != "sunrise":
        s = act(s, RS.legal(s)[0])
    assert s.round == 2 and len(s.strip) == 2
    s2 = act(s, SunriseCardDrawn(card="c20"))
    assert s2.strip == (*s.strip, "c20") and s2.morale == s.morale - 1
    assert "top card" in refused(s, SunriseCardDrawn(card=s.hands[0][0]))


def _weather(s, strip, clouds=0):
    s = replace(s, strip=strip)
    spaces = tuple(dc_replace(x, clouds=clouds) if x.id == s.fleet else x for x in s.board.spaces)
    s = replace(s, board=dc_replace(s.board, spaces=spaces))
    return weather_of(s)


def test_weather_from_icons_black_clouds_darken_clouds_never_suns():
    s = started()
    sun = find(s, lambda c: c.weather == "sun")
    cloud = find(s, lambda c: c.weather == "cloud")
    storm = find(s, lambda c: c.weather == "storm")
    # A single black cloud has no consequence.
    assert _weather(s, (cloud[0], cloud[1], storm[0]))[2] == 0
    # Two black clouds: storm, sailing costs 1 more per space.
    name, actions, extra, black, _ = _weather(s, (cloud[0], storm[0], storm[1]))
    assert (name, extra, black) == ("storm", 1, 2)
    # A black cloud on the fleet's space turns both normal clouds black (3 + itself), the sun stays a sun.
    name, actions, extra, black, suns = _weather(s, (cloud[0], cloud[1], sun[0]), clouds=1)
    assert (black, suns, name, extra) == (3, 1, "tempest", 1)
    name, actions, extra, black, suns = _weather(s, (sun[0], sun[1], sun[2]), clouds=1)
    assert (black, suns, name) == (1, 3, "fair")
    assert actions == 4


def test_draw_action_takes_the_top_card_into_the_hand_and_spends_a_cube():
    s = started()
    cubes = s.cubes
    s = act(s, DrawChosen())
    s = act(s, CardsDrawn(cards=("c20",)))
    assert s.hands[0][-1] == "c20" and s.cubes == cubes - 1 and s.morale == 33


def test_swap_exchanges_a_hand_card_with_a_strip_card_and_resorts():
    s = started(strip=("c40", "c39", "c38"), hand=("c1", "c2", "c3"))
    s = act(s, CardSwapped(hand_card="c2", strip_card="c39"))
    assert s.strip == ("c40", "c38", "c2") and "c39" in s.hands[0]


def test_swapping_a_card_not_in_hand_is_refused():
    s = started(hand=("c1", "c2", "c3"))
    assert "not in P1's hand" in refused(s, CardSwapped(hand_card="c20", strip_card="c40"))
    assert "not in the adventure strip" in refused(s, CardSwapped(hand_card="c1", strip_card="c20"))


def test_an_action_after_the_cubes_are_spent_is_refused():
    s = started()
    s = act(s, ActionsEnded())
    assert s.phase not in ("actions",)
    assert "cubes are spent" in refused(s, DrawChosen())
    s = replace(s, phase="learn")
    assert "cubes are spent" in refused(s, DrawChosen())


def test_check_setup_rejects_bad_setups():
    cards = RS.default_cards()
    with pytest.raises(ValueError, match="1 player or 2"):
        RS.check_setup(["a", "b", "c"], {}, cards)
    with pytest.raises(ValueError, match="difficulty"):
        RS.check_setup(["a"], {"difficulty": "brutal"}, cards)
    with pytest.raises(ValueError, match="unknown option"):
        RS.check_setup(["a"], {"colour": "red"}, cards)
    broken = dict(cards, player_cards=cards["player_cards"][:5])
    with pytest.raises(ValueError, match="too few"):
        RS.check_setup(["a"], {}, broken)
    RS.check_setup(["a", "b"], {"scenario": "historical", "less_luck": "true"}, cards)


def test_typed_chance_outcomes_that_cannot_happen_are_refused():
    s = RS.initial_state(created(2))
    assert "not at the table" in refused(s, CaptainChosen(player="Zé"))
    assert "does not belong here" in refused(s, MapCardRevealed(position=0, card="R1"))
    s = act(s, CaptainChosen(player="P1"))
    assert "position 0" in refused(s, MapCardRevealed(position=1, card="R1"))
    s = act(act(s, MapCardRevealed(position=0, card="R1")), FleetPlaced(space="0a"))
    assert "3 to each hand" in refused(s, PlayerCardsDealt(strip=("c1", "c2", "c3"), hands=(("c4", "c5", "c6"),)))
    s = act(s, PlayerCardsDealt(strip=("c1", "c2", "c3"), hands=(("c4", "c5", "c6"), ("c7", "c8", "c9"))))
    s = act(s, DrawChosen())
    assert "cannot be the 1 card" in refused(s, CardsDrawn(cards=("c4",)))
    assert "cannot be the 1 card" in refused(s, CardsDrawn(cards=("c10", "c11")))
    assert RS.validate(s, CardsDrawn(cards=("c10",))) is None

"""The five catastrophes, protection, and the end-of-game recovery (rulebook, 'Catástrofes', 'Final do Jogo')."""

from __future__ import annotations

from agon.core.games.peloponnes import catastrophe, flow
from agon.core.games.peloponnes.state import Slot, inhabitants
from agon.events.peloponnes import CatastropheFaced
from tests.peloponnes.helpers import at, bare, coins, dealt, play, refused, replace, rs, slots


def facing(cat: str, **seat):
    s = bare(dealt(), "Alice", "plain", **seat)
    return at(s, "catastrophe", ((f"face:{cat}", "Alice"),))


def faced(cat, cards, coins_):
    return CatastropheFaced(player="Alice", catastrophe=cat, cards=tuple(cards), coins=tuple(coins_))


def test_plague_covers_the_civilization_with_a_coin_card_or_removes_it():
    s = play(facing("plague", hand=coins(grain=1)), faced("plague", ["plain"], ["grain"]))
    alice = s.seat("Alice")
    assert alice.civ == Slot("plain", cover="grain", cause="plague")
    assert inhabitants(s.cat, alice) == 0 and alice.hand.total() == 0
    s = play(facing("plague"), faced("plague", ["plain"], [""]))
    assert s.seat("Alice").civ is None
    assert "holds 0 wood" in refused(facing("plague"), faced("plague", ["plain"], ["wood"]))


def test_earthquake_hits_a_third_of_the_buildings_rounded_up_chosen_by_the_player():
    s = facing("earthquake", buildings=slots("T_B1", "T_B2", "T_B3", "T_B4"), hand=coins(wood=1))
    assert "hits 2 cards;" in refused(s, faced("earthquake", ["T_B1"], ["wood"]))
    assert "may hit" in refused(s, faced("earthquake", ["T_B1", "T_L1"], ["wood", ""]))
    s = play(s, faced("earthquake", ["T_B1", "T_B2"], ["wood", ""]))
    assert [b.card for b in s.seat("Alice").buildings] == ["T_B1", "T_B3", "T_B4"]
    assert s.seat("Alice").buildings[0].cover == "wood"


def test_earthquake_may_hit_a_building_under_construction():
    s = facing("earthquake", buildings=(Slot("T_B4", under="wood"),))
    s = play(s, faced("earthquake", ["T_B4"], [""]))
    assert s.seat("Alice").buildings == ()
    assert s.discard.wood == 1


def test_tempest_hits_a_third_of_the_lands():
    s = facing("tempest", lands=slots("T_VILLAGE", "T_L4"), hand=coins(people=1))
    assert catastrophe.candidates(s, s.seat("Alice"), "tempest")[1] == 1
    s = play(s, faced("tempest", ["T_L4"], ["people"]))
    assert s.seat("Alice").lands[1].cover == "people"


def test_drought_hits_the_power_card_with_the_most_grain_not_the_civilization():
    s = facing("drought", lands=slots("T_L1", "T_L4", "T_FIELD"), hand=coins(grain=1))
    assert "may hit are Big Field" in refused(s, faced("drought", ["T_L1"], ["grain"]))
    s = play(s, faced("drought", ["T_FIELD"], ["grain"]))
    assert s.seat("Alice").lands[2].cover == "grain"
    assert s.seat("Alice").civ.cover == ""


def test_drought_lets_the_player_choose_among_equal_grain_cards():
    s = facing("drought", lands=slots("T_L2", "T_L4", "T_L1"))
    cands, n = catastrophe.candidates(s, s.seat("Alice"), "drought")
    assert set(cands) == {"T_L2"} and n == 1
    s2 = facing("drought", lands=(Slot("T_L2"), Slot("T_L3")))
    assert len(rs.legal(s2)) >= 2
    assert rs.validate(s2, faced("drought", ["T_L3"], [""])) is None


def test_decline_loses_all_luxury_and_caps_it_at_3_or_removes_the_luxury_card():
    s = play(facing("decline", luxury=9, hand=coins(stone=1)), faced("decline", ["luxury"], ["stone"]))
    alice = s.seat("Alice")
    assert alice.luxury == 0 and alice.luxury_card == "declined"
    s = play(facing("decline", luxury=9), faced("decline", ["luxury"], [""]))
    assert s.seat("Alice").luxury_card == "removed"
    assert "lost first" in refused(facing("decline", luxury=9), faced("decline", ["luxury"], ["luxury"]))


def test_a_protecting_building_or_three_symbols_spare_a_player():
    s = flow.advance(facing("plague", buildings=slots("T_WELL")))
    assert s.phase != "catastrophe" and s.seat("Alice").civ.cover == ""
    assert not catastrophe.needs_decision(facing("tempest", lands=slots("T_L1", "T_L2", "T_L3")), "Alice", "tempest")
    assert catastrophe.needs_decision(facing("tempest", lands=slots("T_L1", "T_L2")), "Alice", "tempest")


def test_luxury_goods_may_cover_a_card_as_a_coin_card():
    s = play(facing("plague", luxury=2), faced("plague", ["plain"], ["luxury"]))
    assert s.seat("Alice").luxury == 1 and s.seat("Alice").civ.cover == "luxury"


def test_catastrophe_options_are_canonical_and_validate():
    s = facing("earthquake", buildings=slots("T_B1", "T_B2", "T_B3", "T_B4", "T_MILL"), hand=coins(wood=2, stone=1))
    options = rs.legal(s)
    assert 1 < len(options) <= 40
    assert all(rs.validate(s, o) is None for o in options)


def test_recovery_at_the_end_uncovers_cards_protected_after_the_catastrophe():
    s = bare(
        dealt(),
        "Alice",
        "plain",
        buildings=slots("T_WELL", "T_STOA"),
        luxury_card="declined",
        luxury_cover="wood",
    )
    s = s.with_seat(replace(s.seat("Alice"), civ=Slot("plain", cover="grain", cause="plague")))
    s = catastrophe.recover(s)
    alice = s.seat("Alice")
    assert alice.civ == Slot("plain")
    assert alice.luxury_card == "intact"
    assert s.discard.grain == 1 and s.discard.wood == 1

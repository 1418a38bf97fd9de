"""Gaining power cards, paying for buildings, luxury goods and income (rulebook, '5. Ganhar Cartas de Poder',
'Pagando recursos para cartas de edifícios', 'Bens de Luxo', '6. Receita')."""

from __future__ import annotations

from agon.core.games.peloponnes import flow
from agon.core.games.peloponnes.state import Slot, gain_luxury
from agon.events.peloponnes import BuildingBuilt, BuildingLost, ConstructionStarted
from tests.peloponnes.helpers import at, bare, coins, dealt, play, refused, replace, rs, slots


def building_due(civ_id: str, card: str, **seat) -> object:
    s = bare(dealt(), "Alice", civ_id, gained=card, **seat)
    return at(s, "build", (("build", "Alice"),))


def test_luxury_example_leonidas_pays_3_stone_and_gains_2_luxury_for_excess_wood():
    # "Leonidas produz 1 pedra e 2 madeiras. Seu edifício recém construído custa 4 pedras para construir. Ele paga
    # as 3 pedras restantes de sua mão e ganha 2 bens de luxo pelo excesso de madeira."
    s = building_due("leonidas1", "T_STONE4", hand=coins(stone=3))
    s = play(s, BuildingBuilt(player="Alice", card="T_STONE4", stone=3))
    leonidas = s.seat("Alice")
    assert leonidas.luxury == 2
    assert leonidas.hand.stone == 0
    assert [b.card for b in leonidas.buildings] == ["T_STONE4"]


def test_luxury_example_leonidas_uses_luxury_for_missing_wood_and_gains_none_for_excess_stone():
    # "Leonidas produz 2 pedras e 4 madeiras. Seu edifício recém construído custa 5 madeiras para construir. Ele usa
    # bens de luxo para pagar pela madeira faltante. Ele não obtém 2 bens de luxo pelo excesso de pedra."
    s = building_due("leonidas2", "T_WOOD5", luxury=1)
    s = play(s, BuildingBuilt(player="Alice", card="T_WOOD5", luxury=1))
    assert s.seat("Alice").luxury == 0
    assert [b.card for b in s.seat("Alice").buildings] == ["T_WOOD5"]
    # Paid with a wood coin card instead, the excess stone does give 2 luxury goods.
    s = building_due("leonidas2", "T_WOOD5", hand=coins(wood=1), luxury=1)
    s = play(s, BuildingBuilt(player="Alice", card="T_WOOD5", wood=1))
    assert s.seat("Alice").luxury == 3


def test_building_payment_must_cover_exactly_the_missing_resources_with_held_coins():
    s = building_due("leonidas1", "T_STONE4", hand=coins(stone=2, wood=3))
    assert "3 stone are missing" in refused(s, BuildingBuilt(player="Alice", card="T_STONE4", stone=2))
    assert "holds 3 wood and 2 stone" in refused(s, BuildingBuilt(player="Alice", card="T_STONE4", stone=3))
    assert "missing" in refused(s, BuildingBuilt(player="Alice", card="T_STONE4", stone=2, wood=1))
    assert "Pagando recursos" in refused(s, BuildingBuilt(player="Alice", card="T_STONE4", stone=2, wood=1))
    assert "now, not Wooden Hall" in refused(s, BuildingBuilt(player="Alice", card="T_WOOD5"))


def test_the_new_building_does_not_pay_for_itself():
    s = building_due("plain", "T_MILL", hand=coins(wood=1))  # the Mill produces 1 wood and costs 1 wood
    assert "1 wood and 0 stone are missing" in refused(s, BuildingBuilt(player="Alice", card="T_MILL"))
    s = play(s, BuildingBuilt(player="Alice", card="T_MILL", wood=1))
    assert s.seat("Alice").buildings == (Slot("T_MILL"),)


def test_a_building_paid_by_production_alone_is_built_without_a_decision_when_nothing_could_go_under_it():
    s = building_due("leonidas1", "T_MILL")
    s = flow.advance(s)
    assert s.seat("Alice").buildings == (Slot("T_MILL"),)
    assert s.seat("Alice").luxury == 2  # 2 wood and 1 stone produced, 1 wood needed


def test_a_building_production_can_pay_may_still_go_under_construction_by_choice():
    # "Quando você puder (e quiser), você imediatamente paga ... Se você não puder (ou simplesmente não quiser),
    # então, ao invés, pegue uma carta de moeda de sua mão e a coloque parcialmente abaixo da carta de edifício".
    s = flow.advance(building_due("leonidas1", "T_MILL", hand=coins(grain=1)))
    assert rs.pending(s).player == "Alice"
    assert rs.legal(s) == [
        BuildingBuilt(player="Alice", card="T_MILL"),
        ConstructionStarted(player="Alice", card="T_MILL", coin="grain"),
    ]
    chosen = play(s, ConstructionStarted(player="Alice", card="T_MILL", coin="grain"))
    assert chosen.seat("Alice").buildings == (Slot("T_MILL", under="grain"),)
    assert chosen.seat("Alice").luxury == 0
    built = play(s, BuildingBuilt(player="Alice", card="T_MILL"))
    assert built.seat("Alice").buildings == (Slot("T_MILL"),) and built.seat("Alice").luxury == 2


def test_under_construction_with_one_coin_card_and_usable_at_once():
    s = building_due("plain", "T_MARKET", hand=coins(grain=1))
    s = replace(s, cat=replace(s.cat, power={**s.cat.power, "T_MARKET": replace(s.cat.power["T_MARKET"], cost_wood=2)}))
    assert ConstructionStarted(player="Alice", card="T_MARKET", coin="grain") in rs.legal(s)
    assert "no wood coin card" in refused(s, ConstructionStarted(player="Alice", card="T_MARKET", coin="wood"))
    s = play(s, ConstructionStarted(player="Alice", card="T_MARKET", coin="grain"))
    alice = s.seat("Alice")
    assert alice.buildings == (Slot("T_MARKET", under="grain"),)
    assert alice.hand.total() == 0
    from agon.core.games.peloponnes.state import bid_bonus

    assert bid_bonus(s.cat, alice) == 0.5  # fully usable while under construction


def test_a_building_is_lost_only_without_resources_and_without_a_coin_card():
    s = building_due("plain", "T_STONE4", hand=coins(grain=1))
    assert "lost only" in refused(s, BuildingLost(player="Alice", card="T_STONE4"))
    s = building_due("plain", "T_STONE4")
    assert rs.legal(s) == [BuildingLost(player="Alice", card="T_STONE4")]
    s = play(s, BuildingLost(player="Alice", card="T_STONE4"))
    assert s.seat("Alice").buildings == ()


def test_luxury_goods_never_exceed_17_or_3_after_decline():
    s = dealt()
    alice = replace(s.seat("Alice"), luxury=16)
    assert gain_luxury(alice, 5).luxury == 17
    assert gain_luxury(replace(alice, luxury=1, luxury_card="declined"), 5).luxury == 3
    assert gain_luxury(replace(alice, luxury=0, luxury_card="removed"), 5).luxury == 0


def test_income_one_time_income_of_the_new_card_plus_population_table():
    s = bare(dealt(), "Alice", "plain", lands=slots("T_VILLAGE", "T_RICH"), gained="T_RICH")
    s = replace(s, phase="build", todo=())
    s = flow.advance(s)
    # 1 (civ) + 4 inhabitants = 5: the table gives 2; the Rich Land's one-time income is 2 coin cards and 1 luxury.
    alice_draw = next(d for d in s.draws if d.player == "Alice")
    assert alice_draw.count == 4
    assert s.seat("Alice").luxury == 1
    assert s.seat("Alice").gained == ""


def test_income_11_or_more_inhabitants_produce_luxury_goods_directly():
    s = bare(dealt(), "Alice", "plain", lands=slots("T_VILLAGE", "T_VILLAGE", "T_C3", "T_L4"))
    s = replace(s, phase="build", todo=())  # 1 + 4 + 4 + 2 + 2 = 13 inhabitants
    s = flow.advance(s)
    assert s.seat("Alice").luxury == 1
    assert next(d for d in s.draws if d.player == "Alice").count == 3


def test_income_example_immediate_income_of_3_coin_cards():
    # The figure in '6. Receita': "Receita imediata 3 cartas de moeda". The newly gained card's one-time income
    # ("canto superior direito da carta") is drawn with the income by population (summary card).
    s = bare(dealt(), "Alice", "plain", lands=slots("T_RICH"), gained="T_RICH")
    rich = replace(s.cat.power["T_RICH"], income_coins=3, income_luxury=0)
    s = replace(s, cat=replace(s.cat, power={**s.cat.power, "T_RICH": rich}), phase="build", todo=())
    s = flow.advance(s)
    # 1 inhabitant (the civilization): the test income table gives 1 coin card; plus the 3 of the new card.
    assert next(d for d in s.draws if d.player == "Alice").count == 1 + 3
    assert s.seat("Alice").luxury == 0 and s.seat("Alice").gained == ""
    # Only in the round it is gained: the next income is the population's alone.
    s = replace(bare(s, "Alice", "plain", lands=slots("T_RICH")), draws=(), phase="build", todo=())
    assert next(d for d in flow.advance(s).draws if d.player == "Alice").count == 1

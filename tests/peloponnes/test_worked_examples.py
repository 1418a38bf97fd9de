"""The rule text's numbers, examples and exceptions not played out elsewhere in tests/peloponnes/, in the text's
order (../shared/rules/peloponnes-card-game-rulebook.pt.txt): setup's figure for other numbers of players, the
catastrophe markers, the supply symbol, the new turn order, luxury goods as coin cards, buildings under
construction, paying for a building, supply, protection, the special buildings, the end and scoring.

Each test sets up the position and plays it through the ruleset's own functions (apply after the service's check,
pending, legal, view, outcome); ``flow.advance`` only where a state is put together at a step directly."""

from __future__ import annotations

import pytest

from agon.core.engine import Chance, Decision, Over
from agon.core.games.peloponnes import catastrophe, flow
from agon.core.games.peloponnes.cards import CATASTROPHES
from agon.core.games.peloponnes.state import Slot
from agon.events.peloponnes import (
    BidPlaced,
    BidWithdrawn,
    BuildingBuilt,
    CatastropheFaced,
    ConstructionPaid,
    ConstructionStarted,
    Passed,
    PopulationFed,
)
from tests.peloponnes.helpers import (
    at,
    auction_round,
    bare,
    coins,
    dealt,
    play,
    refused,
    replace,
    reveal,
    rs,
    seat,
    slots,
)

ERA_A = ("A01", "A02", "A03", "A04", "A05", "A06")
CIVS = ("argos", "corinth", "sparta", "mycenae", "messene")
HANDS = {"Alice": "www", "Bob": "ssss", "Carol": "gggg", "Dimitrios": "wwwss", "Helena": "sssgg"}


def marker(s, name: str) -> int:
    return s.markers[CATASTROPHES.index(name)]


def draw_all(s):
    """Every coin draw due now, typed from the backs left in the deck."""
    while isinstance(rs.pending(s), Chance):
        p = rs.pending(s)
        s = play(s, p.build(tuple(p.items[: p.count])))
    return s


# --- '1. Revele Cartas de Poder' ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_reveal_puts_one_card_a_player_in_the_middle_and_the_rest_of_six_in_the_conquest_row(n):
    # "Compre e revele cartas de poder do baralho na quantidade dos jogadores ... Então, compre a quantidade de
    # cartas de poder necessária para revelar um total de 6 cartas de poder" (the figure shows 3 players).
    s = reveal(dealt(CIVS[:n], hands=HANDS), *ERA_A)
    seen = rs.view(s, "Alice")
    assert [c["id"] for c in seen["auction_row"]] == list(ERA_A[:n])
    assert [c["id"] for c in seen["conquest_row"]] == list(ERA_A[n:])
    assert isinstance(rs.pending(s), Decision) and rs.pending(s).prompt == "bid on a power card or pass"


def test_the_same_symbol_on_both_first_cards_moves_its_marker_two_spaces_and_a_third_card_none():
    # "Os símbolos de catástrofe nas duas primeiras cartas de poder compradas determinam quais catástrofes irão mover
    # um espaço": each of the two symbols moves its marker a space (RULES.md); A01, A09 and A13 all show drought.
    s = reveal(dealt(), "A01", "A09", "A13", "A02", "A03", "A04")
    assert marker(s, "drought") == 2
    assert sum(s.markers) == 2  # the third card's drought and the later symbols move nothing
    assert rs.view(s, None)["catastrophes"]["drought"] == {"marker": 2, "strikes_at": 3, "struck": False}


# --- '2. Catástrofe / Suprimento' --------------------------------------------------------------------------------


def test_a_supply_symbol_in_the_conquest_row_triggers_supply_after_a_catastrophe_struck_that_round():
    # "Se uma das cartas de poder comprada mostrar um símbolo de suprimento" (any of the six, here the last, in the
    # conquest row); the supply comes "após as 6 cartas de poder serem viradas", a catastrophe "imediatamente".
    s = dealt()
    s = seat(s, "Bob", lands=slots("T_L4"))
    steps = s.cat.catastrophe_steps
    s = replace(s, power_left=s.cat.era_cards("B"), markers=(0, 0, steps - 1, 0, 0))
    s = reveal(s, "B10", "B12", "B11", "B13", "B14", "B09")  # B10 tempest first; B09 (supply) sixth
    assert s.conquest[-1] == "B09" and s.supply_due and s.struck == ("tempest",)
    p = rs.pending(s)
    assert isinstance(p, Decision) and p.player == "Bob" and p.prompt.startswith("face the Tempest")
    s = play(s, CatastropheFaced(player="Bob", catastrophe="tempest", cards=("T_L4",), coins=("",)))
    assert s.phase == "supply" and "(supply)" in rs.pending(s).prompt


def test_a_land_with_the_supply_symbol_on_a_tableau_triggers_nothing():
    # "Terrenos com simbolo de suprimento desencadeiam a fase de suprimento mas nenhum outro efeito quando eles estão
    # em seu tableau" ('Edifícios Especiais'): only a revealed one does.
    s = seat(dealt(), "Alice", lands=slots("B09", "C09"))
    s = reveal(s, *ERA_A)
    assert not s.supply_due and s.phase == "auction"


# --- '3. Leilão', '4. Ordem do Turno' ----------------------------------------------------------------------------


def test_two_passes_keep_their_relative_order_behind_the_bid():
    # "Se dois ou mais jogadores tiveram a mesma aposta, então sua posição relativa na ordem não muda. Passar conta
    # como aposta de 0."
    s = draw_all(play(auction_round(), Passed(player="Alice")))
    s = draw_all(play(s, BidPlaced(player="Bob", card="T_V2A", coins=coins(wood=2)), Passed(player="Carol")))
    assert rs.view(s, None)["turn_order"] == ["Bob", "Alice", "Carol"]
    assert s.last_bids == (("Bob", 2), ("Alice", 0), ("Carol", 0))


def test_luxury_goods_make_up_a_bid_as_coin_cards_and_come_back_as_luxury_goods():
    # "Você também pode trocar bens de luxo por cartas de moeda quando você precisar para dar um lance" ('Bens de
    # Luxo'); taken back, the bid returns "todas as moedas" (RULES.md: its luxury goods as luxury goods).
    s = auction_round(hands={"Alice": coins(wood=1)})
    s = seat(s, "Alice", luxury=2)
    with_luxury = BidPlaced(player="Alice", card="T_V3", coins=coins(wood=1), luxury=2)
    assert with_luxury in rs.legal(s)
    s = play(s, with_luxury)
    assert s.seat("Alice").luxury == 0 and s.seat("Alice").hand.total() == 0
    assert rs.view(s, "Bob")["auction_row"][2]["bid"]["coin_cards"] == 3  # value 3 met by 1 card + 2 goods
    s = play(s, BidPlaced(player="Bob", card="T_V3", coins=coins(wood=4)), BidWithdrawn(player="Alice"))
    alice = s.seat("Alice")
    assert alice.luxury == 2 and alice.hand == coins(wood=1)
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.count == 3 and "Alice" in p.label  # "juntamente com três cartas de moedas"


def test_market_and_agora_together_count_one_more_than_the_cards():
    # "Se você tiver ambos edifícios em seu tableau, então seus lances contam 1 a mais do que as cartas de moeda
    # utilizadas para apostar" ('Mercado + Ágora'): 2 cards with both (3) beat 2 with a Market (2.5), and a plain
    # 3 does not beat them.
    s = seat(auction_round(), "Alice", buildings=slots("T_MARKET"))
    s = seat(s, "Bob", buildings=slots("T_MARKET", "T_AGORA"))
    s = play(s, BidPlaced(player="Alice", card="T_V2A", coins=coins(wood=2)))
    s = play(s, BidPlaced(player="Bob", card="T_V2A", coins=coins(wood=2)))
    assert s.loose is not None and s.loose.player == "Alice"
    s = play(s, BidWithdrawn(player="Alice"))
    s = draw_all(s)
    assert "Bob bids 3 on Field A; a bid there must be higher, 3 is not" in refused(
        s, BidPlaced(player="Carol", card="T_V2A", coins=coins(wood=3))
    )
    s = play(s, BidPlaced(player="Carol", card="T_V2A", coins=coins(wood=4)))
    assert s.loose.player == "Bob"


# --- '5. Ganhar Cartas de Poder', 'Pagando recursos', 'Bens de Luxo' ---------------------------------------------


def test_a_building_under_construction_pays_its_income_and_its_special_function_works():
    # "... que agora está „em construção“ mas totalmente utilizável. Você ganhará receita dela e também poderá tirar
    # vantagens de qualquer função especial que ela tiver." The Harbour gives one coin card and protects against the
    # Decline ('Edifícios Especiais').
    s = bare(dealt(), "Alice", "plain", gained="A05", hand=coins(grain=1))  # no wood or stone: 1 + 1 missing
    s = at(s, "build", (("build", "Alice"),))
    assert rs.legal(s) == [ConstructionStarted(player="Alice", card="A05", coin="grain")]
    s = play(s, ConstructionStarted(player="Alice", card="A05", coin="grain"))
    assert s.seat("Alice").buildings == (Slot("A05", under="grain"),)
    alice_draw = next(d for d in s.draws if d.player == "Alice")
    assert alice_draw.count == 1 + 1  # the income table's 1 for 1 inhabitant, and the Harbour's coin card
    assert not catastrophe.needs_decision(s, "Alice", "decline")


def test_income_counts_the_inhabitants_of_the_power_cards_and_civilization_not_the_luxury_cards():
    # "Receita para cada rodada é calculada somando todos os habitantes de suas cartas – cartas de poder bem como sua
    # carta de civilização" ('6. Receita'; RULES.md). Plain polis 1 + Land 4 2 = 3 inhabitants: 1 coin card on the
    # test table; the luxury card at 6 shows 2 more, which would make 5 and 2 coin cards.
    s = bare(dealt(), "Alice", "plain", lands=slots("T_L4"), luxury=6)
    assert rs.view(s, "Alice")["players"]["Alice"]["population_points"] == 1 + 2 + 2
    s = flow.advance(replace(s, phase="build", todo=()))
    assert next(d for d in s.draws if d.player == "Alice").count == 1


def test_coin_cards_cannot_buy_luxury_goods_when_paying_for_a_building():
    # "Você não pode pagar com cartas na sua mão para obter bens de luxo extra" ('Bens de Luxo'): Leonidas (1 stone,
    # 2 wood) misses 3 stone for the 4-stone building; a fourth stone or a wood coin card is refused.
    s = bare(dealt(), "Alice", "leonidas1", gained="T_STONE4", hand=coins(wood=1, stone=4))
    s = at(s, "build", (("build", "Alice"),))
    assert "3 stone are missing after production; pay exactly that" in refused(
        s, BuildingBuilt(player="Alice", card="T_STONE4", stone=4)
    )
    assert "pay exactly" in refused(s, BuildingBuilt(player="Alice", card="T_STONE4", wood=1, stone=3))
    assert play(s, BuildingBuilt(player="Alice", card="T_STONE4", stone=3)).seat("Alice").luxury == 2


# --- 'Suprimento' ------------------------------------------------------------------------------------------------


def test_the_civilization_card_may_be_removed_to_feed_the_population():
    # "removendo cartas (cartas de poder e/ou sua carta de civilização) de sua mesa". Plain polis: 1 inhabitant,
    # 1 grain; Village 4 inhabitants: 4 hungry, and still 4 without the civilization (its grain goes with it).
    s = bare(dealt(), "Alice", "plain", lands=slots("T_VILLAGE"), hand=coins(grain=4))
    s = at(s, "supply", (("feed", "Alice"), ("construct", "Alice")))
    assert "4 inhabitants are not fed" in refused(s, PopulationFed(player="Alice", grain=3, removed=("plain",)))
    s = play(s, PopulationFed(player="Alice", grain=4, removed=("plain",)))
    assert s.seat("Alice").civ is None and rs.view(s, "Alice")["players"]["Alice"]["civilization"] is None


# --- 'Catástrofes' -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("buildings", "hit"), [(1, 1), (2, 1), (3, 1), (4, 2), (6, 2), (7, 3)])
def test_earthquake_hits_a_third_of_the_buildings_rounded_up(buildings, hit):
    # "Um terço de seus edifícios (arredondado para cima) são danificados."
    s = bare(dealt(), "Alice", "plain", buildings=slots(*("T_B1", "T_B2", "T_B3", "T_B4", "T_MILL", "T_WELL",
                                                          "T_STOA")[:buildings]))
    s = at(s, "catastrophe", (("face:earthquake", "Alice"),))
    assert {len(e.cards) for e in rs.legal(s)} == {hit}


@pytest.mark.parametrize("covered", [False, True])
def test_three_symbols_counting_the_civilizations_protect_even_when_it_is_covered(covered):
    # "Você também estará protegido de uma catástrofe se você tiver ao menos 3 símbolos de catástrofe ... nas cartas
    # de poder/civilização em sua mesa." Bob's Corinth shows a tempest symbol, Land 1 and Land 2 one each; a
    # civilization covered by the Plague keeps its symbol visible ("somente o símbolo de catástrofe ... visível").
    s = dealt()
    civ = Slot("corinth", cover="grain", cause="plague") if covered else Slot("corinth")
    s = seat(s, "Bob", civ=civ, lands=slots("T_L1", "T_L2"))
    s = seat(s, "Alice", lands=slots("T_L4"))
    steps = s.cat.catastrophe_steps
    s = replace(s, markers=(0, 0, steps - 1, 0, 0))
    s = reveal(s, "A03", "A07", "A08", "A10", "A12", "A15")  # the Market (first) shows the tempest
    assert rs.pending(s).player == "Alice"
    s = play(s, CatastropheFaced(player="Alice", catastrophe="tempest", cards=("T_L4",), coins=("",)))
    assert s.phase == "auction"  # Bob is spared, Carol has no land
    assert [x.cover for x in s.seat("Bob").lands] == ["", ""]


def test_the_special_buildings_of_the_bundled_set_do_what_the_text_says():
    # 'Edifícios Especiais', name by name.
    cards = {c["name"]: c for c in rs.default_cards()["power"]}
    protects = {
        "Harbour": "decline",
        "Temple of Apollo": "drought",
        "Lion Gate": "drought",
        "Cyclopean Wall": "earthquake",
        "Treasury of Atreus": "earthquake",
        "Well": "plague",
        "Aqueduct": "plague",
        "Acrocorinth": "tempest",
        "Workshop of Phidias": "tempest",
        "Stoa": "decline",
    }
    for name, catastrophe_ in protects.items():
        assert cards[name]["kind"] == "building" and cards[name]["protects"] == catastrophe_, name
    assert cards["Harbour"]["income"][0] == 1 and cards["Temple of Apollo"]["income"][0] == 1
    for name in ("Market", "Agora", "Barracks", "Palisade"):
        assert cards[name]["kind"] == "building" and cards[name]["special"] == name.lower()
    assert [c["kind"] for c in cards.values() if c["supply"]] == ["land", "land"]


# --- 'Final do Jogo', 'Pontuação' --------------------------------------------------------------------------------


def last_round(s):
    """Round 8 after its auction: the last income drawn, then the final supply (and the end, when nobody has to
    decide in it)."""
    return draw_all(flow.advance(replace(s, round=8, phase="build", todo=())))


def test_the_final_supply_asks_to_finish_buildings_under_construction_and_a_building_given_up_is_lost():
    # "Uma fase de suprimento final ... exigindo que os jogadores alimentem sua população e terminem qualquer
    # edifício em construção"; unpaid, "o edifício é perdido ... Adicione a carta de moeda ... para a pilha de
    # descarte". House 4 costs 1 wood and 1 stone; the Plain polis produces neither and Alice holds nothing.
    s = bare(bare(bare(dealt(), "Bob"), "Carol"), "Alice", "plain", buildings=(Slot("T_B4", under="grain"),))
    s = last_round(s)
    p = rs.pending(s)
    assert isinstance(p, Decision) and p.player == "Alice" and "under construction" in p.prompt
    assert rs.legal(s) == [ConstructionPaid(player="Alice", finished=())]
    discard = s.discard.grain
    s = play(s, ConstructionPaid(player="Alice", finished=()))
    assert isinstance(rs.pending(s), Over)
    assert s.seat("Alice").buildings == () and s.discard.grain == discard + 1


def test_a_card_covered_before_protection_was_gained_scores_again_at_the_end():
    # "Ganhar proteção contra uma catástrofe depois que esta catástrofe ocorreu permite que você, no final do jogo,
    # remova a carta de moeda da carta afetada ... Isto permite que suas cartas ... sejam ativadas novamente durante
    # a pontuação." House 3 (3 power points) was covered by the Earthquake; the Cyclopean Wall came later.
    s = bare(bare(dealt(), "Bob"), "Carol")
    s = bare(s, "Alice", "plain", buildings=(Slot("T_B3", cover="stone", cause="earthquake"), Slot("B04")),
             hand=coins(people=9))
    s = last_round(s)
    assert isinstance(rs.pending(s), Over)
    alice = s.seat("Alice")
    assert alice.buildings[0] == Slot("T_B3")
    power = 1 + 3 + s.cat.power["B04"].power  # Plain polis, House 3, Cyclopean Wall; 9 people cards are population
    assert rs.view(s, "Bob")["players"]["Alice"]["power_points"] == power
    assert rs.outcome(s).scores["Alice"] == min(power, 1 + 9)


@pytest.mark.parametrize(("card", "points"), [("intact", (1 + 1, 1 + 1)), ("declined", (1, 1)), ("removed", (1, 1))])
def test_the_luxury_card_scores_unless_the_decline_covered_or_removed_it(card, points):
    # Population and power: "aqueles em sua carta de luxo, desde que ela não tenha sido afetada pelo declínio ou
    # removida de jogo" ('Pontuação'). The test luxury card at 3 shows 1 inhabitant and 1 power point.
    s = bare(bare(dealt(), "Bob"), "Carol")
    s = bare(s, "Alice", "plain", luxury=3 if card != "removed" else 0, luxury_card=card)
    s = replace(s, phase="over")
    mine = rs.view(s, "Alice")["players"]["Alice"]
    assert (mine["population_points"], mine["power_points"]) == points
    assert rs.outcome(s).scores["Alice"] == min(points)

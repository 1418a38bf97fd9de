"""The worked examples, numbers and exceptions of the Adamastor rulebook that no other test played out yet, one
test each, in the rulebook's order (setup, morale, each phase of a round, the end of the game, skills, variants).

The rulebook is ../shared/rules/adamastor-rulebook.pt.txt; sections are cited by its own numbers. Each test sets
up the text's position and reads the outcome through the ruleset (apply, pending, legal, view, outcome). Where the
text is loose, the reading tested is the one core/games/adamastor/RULES.md records, and the docstring says so. The
examples tested elsewhere are Imagem 4's costs (test_sailing), Imagem 5's events and Imagem 6's sunset
(test_events_and_skills).
"""

from __future__ import annotations

import copy

import pytest
from msgspec.structs import replace

from agon.core.engine import Chance, Decision, Over
from agon.core.games.adamastor.board import build_board
from agon.core.games.adamastor.data import compile_cards
from agon.events.adamastor import (
    ActionsEnded,
    CardsDrawn,
    CardSwapped,
    DrawChosen,
    FleetMoved,
    FleetPlaced,
    LandCardKept,
    LandCardsDrawn,
    MapCardRevealed,
    PlayerCardsDealt,
    SailEnded,
    SailStarted,
    SkillDeclined,
    SkillLearned,
    StripRefilled,
    SunriseCardDrawn,
)
from tests.adamastor.support import RS, act, created, example_cards, label, on_example_map, refused, started
from tests.adamastor.test_events_and_skills import cards_with, game

# -- 2 Componentes, 3 Preparação -----------------------------------------------------------------------------------


def test_components_40_player_cards_and_13_map_cards_3_of_them_historical():
    """Rulebook 2 'Componentes': "40 Cartas Jogador", "13 Cartas Mapa"; 3.1: "deixa as 3 cartas Mapa Histórico na
    caixa", then 1 final card and up to 4 regular ones are drawn; Imagem 6: card 9 holds a trauma."""
    cards = compile_cards(RS.default_cards())
    assert sorted(c.number for c in cards.player.values()) == list(range(1, 41))
    assert len(cards.maps) == 13
    assert cards.maps_of("historical") == ("H1", "H2", "H3")
    assert len(cards.maps_of("regular")) >= 4 and cards.maps_of("final")
    assert cards.player["c9"].trauma


def test_setup_only_the_leftmost_card_is_face_up_and_the_final_card_lies_rightmost():
    """Rulebook 3.1: the regular cards and 1 final card lie face down in a row, "com a carta Mapa Final mais à
    direita"; 3.2: "Revela a carta Mapa mais à esquerda" and the fleet goes on one of its leftmost half spaces (the
    player chooses). RULES.md 'Setup': each face-down card is drawn when it is turned over, from its kind."""
    s = RS.initial_state(created(1, {"difficulty": "easy"}))
    s = act(s, MapCardRevealed(position=0, card="R3"))
    assert RS.view(s, "P1")["maps"] == ["regular map card R3", "face down", "face down"]
    assert isinstance(RS.pending(s), Decision)
    assert {e.space for e in RS.legal(s)} == {"0a", "0b", "0c"}
    s = act(s, FleetPlaced(space="0a"))
    # The middle position is a regular card not yet used; the rightmost one is a final card.
    middle = RS.pending(replace(s, phase="reveal", reveal_pos=1))
    assert isinstance(middle, Chance) and set(middle.items) == {f"R{i}" for i in range(1, 8)} - {"R3"}
    last = replace(s, phase="reveal", reveal_pos=2)
    rightmost = RS.pending(last)
    assert isinstance(rightmost, Chance) and set(rightmost.items) == {"F1", "F2", "F3"}
    assert "face-down" in refused(last, MapCardRevealed(position=2, card="R1"))


# -- 4 Moral ------------------------------------------------------------------------------------------------------


def test_morale_gained_beyond_the_discard_pile_returns_only_what_the_pile_holds():
    """Rulebook 4: gaining morale puts "esse número de cartas do topo da pilha de descarte" back under the deck.
    RULES.md 'Morale': with fewer cards in the pile, only those come back. Here a land card's 'morale 1' bonus
    (5.2 C) is taken with an empty discard pile, then with a pile of one card."""
    base = _sailing(on_example_map(started(cards=example_cards()), "C"), ("c3",))
    base = act(base, FleetMoved(to=label(base.board, "D")))  # island III
    drawn = ("c6", "c10", "c11")  # c6's bonus: morale 1
    for pile in ((), ("c20",)):
        s = act(replace(base, discard=pile), LandCardsDrawn(cards=drawn))
        after = act(s, LandCardKept(card="c6", player="P1", bonus=1))
        assert after.morale == s.morale + 2 + len(pile)  # the 2 cards not kept, and what the pile held
        assert after.discard == () and after.bottom == ("c10", "c11", *pile)


# -- 5.1 Nascer-do-sol, 5.2 Fase acção ------------------------------------------------------------------------------


def _sailing(s, cards: tuple[str, ...]):
    """The fleet's weather surcharge off, P1 holding ``cards`` and sailing with them."""
    s = replace(s, extra_cost=0, hands=(cards,), deck=tuple(c for c in s.deck if c not in cards))
    return act(s, SailStarted(cards=cards))


def test_the_weather_holds_for_the_round_though_the_strip_and_the_fleets_space_change():
    """Rulebook 5.2: "As condições do Tempo mantêm-se inalteradas tal como determinado no Nascer-do-sol mesmo se
    durante a Fase de Acção as cartas na faixa de aventura mudarem"; 5.1: the next sunrise works it out again from
    the strip and the black clouds of the space the fleet is on then."""
    # R1's 0a has no black cloud; three suns make a fair sky (provisional table: 4 actions, no surcharge).
    s = started(strip=("c39", "c37", "c36"), hand=("c2", "c3", "c1"), place="0a")
    assert RS.view(s, "P1")["weather"] == {"name": "fair", "black_clouds": 0, "suns": 3, "extra_cost": 0}
    s = act(s, CardSwapped(hand_card="c2", strip_card="c39"))  # a black cloud (c2) replaces a sun
    s = act(act(s, SailStarted(cards=("c3",))), FleetMoved(to="0b"))  # onto a space with a black cloud
    s = act(s, SailEnded())
    weather = RS.view(s, "P1")["weather"]
    assert weather == {"name": "fair", "black_clouds": 0, "suns": 3, "extra_cost": 0} and s.cubes == 2
    s = act(act(s, ActionsEnded()), SkillDeclined())  # 3 motivation icons: c39's skill could be learned
    # sunset took c2 (holding a skill, it is discarded)
    assert s.phase == "sunrise" and s.strip == ("c37", "c36")
    s = act(s, SunriseCardDrawn(card="c40"))  # a normal cloud, made black by 0b's black cloud
    assert RS.view(s, "P1")["weather"] == {"name": "storm", "black_clouds": 2, "suns": 2, "extra_cost": 1}


def test_an_action_may_be_repeated_and_the_cubes_left_may_be_given_up():
    """Rulebook 5.2: "Podes repetir o mesmo tipo de acção mais do que uma vez"; "Se ainda tiveres cubos
    disponíveis, mas não quiseres fazer mais acções, podes sempre decidir descartar os restantes e avançar
    directamente para a Fase de Eventos"."""
    s = started(strip=("c39", "c37", "c36"), place="0a")  # fair: 4 actions
    assert s.cubes == 4
    for card in ("c10", "c11"):
        s = act(act(s, DrawChosen()), CardsDrawn(cards=(card,)))
    assert s.hands == (("c1", "c2", "c3", "c10", "c11"),) and s.cubes == 2
    assert RS.pending(s) == Decision("P1", "choose an action (2 left)")
    s = act(s, ActionsEnded())
    assert s.cubes == 0 and s.phase == "learn"  # the events phase: 3 motivation icons pay for c10's skill
    assert "cubes are spent" in refused(s, DrawChosen())
    s = act(s, SkillDeclined())
    assert s.phase == "trim"  # then sunset: 5 cards held, 2 to discard


# -- 5.2 C Navegar: edges and land discovery --------------------------------------------------------------------


def test_half_an_island_on_the_next_card_is_discovered_on_entering_the_joined_half_spaces():
    """Rulebook 5.2 C 'Bónus descoberta terra': "Quando entras num espaço marítimo com uma ilha (ou metade de uma
    ilha)"; 'Espaços no limite das cartas': reaching a right half space reveals the next card, and "a combinação de
    ambos os 'meios' espaços das duas cartas cria um espaço completo". RULES.md: the joined space takes the larger
    numeral, so half an island on the card just revealed counts at once."""
    cards = copy.deepcopy(RS.default_cards())
    r2 = next(m for m in cards["maps"] if m["id"] == "R2")
    next(sp for sp in r2["spaces"] if sp["at"] == "0b")["island"] = 2
    s = replace(started(cards=cards), fleet="3c")
    s = act(_sailing(s, ("c3",)), FleetMoved(to="4c"))  # R1's right edge, row c: R2's 0c, no island
    s = act(s, MapCardRevealed(position=1, card="R2"))
    assert s.phase == "sail"
    s = act(_sailing(replace(s, phase="actions", cubes=1), ("c2",)), FleetMoved(to="4b"))  # R1 4b + R2 0b
    assert s.board["4b"].island == 2
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 2 and "land" in p.label


def test_a_land_discovery_draws_no_more_cards_than_the_deck_holds_and_the_others_go_back():
    """Rulebook 5.2 C: draw as many cards as the space's numeral and keep one; "Coloca as restantes cartas ... no
    fundo do baralho"; the bonus may be declined "se existirem poucas cartas no baralho". RULES.md 'Morale': the
    draw is capped by the deck, and the cards not kept go back before the deck is checked for morale 0."""
    s = _sailing(on_example_map(started(cards=example_cards()), "C"), ("c3",))
    s = replace(s, deck=("c10", "c11"), bottom=())
    s = act(s, FleetMoved(to=label(s.board, "D")))  # numeral III, 2 cards left
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 2
    s = act(s, LandCardsDrawn(cards=("c10", "c11")))
    assert s.morale == 0 and not s.result  # the card not kept is still to go back
    assert LandCardKept(card="c11", player="P1", bonus=0) in RS.legal(s)
    s = act(s, LandCardKept(card="c11", player="P1", bonus=0))
    assert s.morale == 1 and s.bottom == ("c10",) and "c11" in s.hands[0] and not s.result


def test_a_land_discovery_that_takes_the_last_card_loses_unless_its_morale_bonus_refills_the_deck():
    """Rulebook 6: the game is lost when morale falls to 0 ("perdes automaticamente o jogo se tiveres de comprar
    uma carta do baralho mas o baralho não tiver mais cartas"); 5.2 C: the kept card's bonus is gained (RULES.md
    'Morale': before the deck is checked). R2's 1b is an island of numeral I; one card is left in the deck."""
    s = started()
    maps = ("R1", "R2", "", "")
    base = replace(s, maps=maps, board=build_board(s.cards, maps), fleet="4b", discard=("c20",))
    base = _sailing(base, ("c3",))
    for card, kind, lost in (("c5", "navigation", True), ("c6", "morale", False)):
        s = act(replace(base, deck=(card,), bottom=()), FleetMoved(to="5b"))
        s = act(s, LandCardsDrawn(cards=(card,)))
        assert s.card(card).bonus_kind == kind and s.morale == 0
        after = act(s, LandCardKept(card=card, player="P1", bonus=1))
        assert (after.result == "lost_morale") is lost
        if lost:
            o = RS.pending(after)
            assert isinstance(o, Over) and o.outcome.winners == () and "morale falls to 0" in o.outcome.summary
        else:
            # the top of the discard pile is the card the sail discarded
            assert after.morale == 1 and after.bottom == ("c3",) and after.discard == ("c20",)


# -- 5.3 Eventos, 7 Referência eventos -------------------------------------------------------------------------------


def test_learn_a_skill_needs_2_icons_for_a_2_skill_and_3_for_a_3_skill():
    """Rulebook 7 'Aprende habilidade': "Se esta requer 3 ícones Motivação ... têm de estar pelo menos 3 ícones
    Motivação em jogo. Se esta requer apenas 2, têm de estar pelo menos 2". c10's skill costs 2, c14's 3."""
    two = ("c40", "c37", "c38")  # motivation 1 + 1 + 0
    three = ("c40", "c37", "c36")  # motivation 1 + 1 + 1
    s = act(started(strip=two, hand=("c10", "c14", "c1")), ActionsEnded())
    assert s.phase == "learn" and RS.legal(s) == [SkillLearned(card="c10"), SkillDeclined()]
    assert "needs 3 motivation icons in play, 2 are" in refused(s, SkillLearned(card="c14"))
    assert act(started(strip=two, hand=("c14", "c1", "c5")), ActionsEnded()).phase != "learn"
    s = act(started(strip=three, hand=("c10", "c14", "c1")), ActionsEnded())
    assert RS.legal(s) == [SkillLearned(card="c10"), SkillLearned(card="c14"), SkillDeclined()]
    s = act(s, SkillLearned(card="c14"))
    assert s.skills == ("c14",) and s.hands == (("c10", "c1"),)


def test_a_revolt_discards_a_lowest_card_that_holds_a_skill_and_refills_the_strip():
    """Rulebook 7 'Revolta entre a tripulação': with 5 revolt icons, the lowest card is gained as a trauma "ou
    descarta-a (se tiver uma habilidade)"; then the deck's top card joins the strip, which is sorted again."""
    cards = cards_with(c40={"threats": {"revolt": 2}}, c39={"threats": {"revolt": 2}}, c38={"threats": {"revolt": 1}})
    s = game(cards)
    assert s.card("c38").skill
    morale = s.morale
    s = act(s, ActionsEnded())
    assert s.phase == "refill" and s.discard == ("c38",) and s.traumas == () and s.strip == ("c40", "c39")
    s = act(s, StripRefilled(card="c30"))
    # c30 joined the strip and sorted below c39; sunset then took it, c30 holding a fatigue trauma.
    assert s.morale == morale - 1 and s.traumas == ("c30",) and s.strip == ("c40", "c39")


def test_disease_spreads_with_no_disease_trauma_costs_no_morale():
    """Rulebook 7 'Doença espalha-se': 5 disease icons fire it, and it costs "1 moral por cada trauma de doença
    que tenhas": with none, nothing is lost."""
    cards = cards_with(c40={"threats": {"disease": 2}}, c39={"threats": {"disease": 2}},
                       c38={"threats": {"disease": 1}}, c21={"trauma": "fatigue"})
    s = game(cards, traumas=("c21",))
    morale = s.morale
    text = RS.narrate(s, ActionsEnded())
    s = act(s, ActionsEnded())
    assert "'disease spreads' fires (5 disease icons): 0 morale lost for good" in text
    assert s.morale == morale and s.removed == () and s.phase == "sunrise"


def test_each_event_is_checked_on_the_icons_in_play_when_its_turn_comes():
    """Rulebook 5.3: each event is checked in the reference card's order, "até que os 5 eventos tenham sido
    controlados"; 7: a revolt changes the strip before 'Tumulto' is checked. 5 revolt, 3 disease and 3 fatigue
    icons would make a tumult, but the revolt takes the lowest card (3 of those icons) first."""
    cards = cards_with(c40={"threats": {"revolt": 2, "disease": 1, "fatigue": 1}},
                       c39={"threats": {"revolt": 2, "disease": 1, "fatigue": 1}},
                       c38={"threats": {"revolt": 1, "disease": 1, "fatigue": 1}})
    s = act(game(cards), ActionsEnded())
    assert s.phase == "refill" and s.discard == ("c38",)
    s = act(s, StripRefilled(card="c10"))  # 1 fatigue: revolt 4, disease 2, fatigue 3
    assert not s.result and s.phase == "sunrise"
    # The same strip with the revolt's card held back is a tumult.
    tumult = cards_with(c40={"threats": {"revolt": 2, "disease": 1, "fatigue": 1}},
                        c39={"threats": {"revolt": 2, "disease": 1, "fatigue": 1}},
                        c38={"threats": {"disease": 1, "fatigue": 1}})
    assert act(game(tumult), ActionsEnded()).result == "lost_tumult"


# -- 6 Ganhando ou perdendo o jogo ----------------------------------------------------------------------------------


@pytest.mark.parametrize("final", ["F1", "F2", "F3"])
def test_every_space_next_to_the_final_destination_wins_at_once_imagem_7(final):
    """Rulebook 6, Imagem 7: "se durante a acção navegar chegasses aos espaços I, J ou K, ganhavas imediatamente o
    jogo porque esses 3 espaços estão conectados com terra que tem o símbolo de destino final": each such space
    wins the moment the fleet enters it, points left or not, with no events phase after."""
    s = started(options={"difficulty": "easy"})
    maps = ("R1", "R2", final)
    s = replace(s, maps=maps, board=build_board(s.cards, maps))
    goals = [sp for sp in s.board.spaces if sp.destination]
    assert len(goals) >= 2
    for goal in goals:
        before = next(n for n in goal.links if not s.board[n].destination)
        won = act(_sailing(replace(s, fleet=before), ("c1", "c2", "c3")), FleetMoved(to=goal.id))
        o = RS.pending(won)
        assert won.result == "won" and won.sail_points > 0 and won.phase == "over"
        assert isinstance(o, Over) and o.outcome.winners == ("P1",) and "final destination" in o.outcome.summary
        assert RS.legal(won) == [] and "the game is over" in refused(won, SailEnded())


# -- 8 Referência habilidades -----------------------------------------------------------------------------------


def test_land_bonus_plus_one_card_draws_one_more_but_keeps_only_one():
    """Rulebook 8 'Bônus terra: +1 carta': "compra 1 carta extra. Esta habilidade não te permite ganhar 2 cartas,
    apenas comprar 1 carta a mais"; 5.2 C: the others go to the bottom of the deck."""
    s = on_example_map(game(example_cards(), skills=("c7",)), "C")  # c7: 'Bônus terra: +1 carta'
    s = act(_sailing(s, ("c3",)), FleetMoved(to=label(s.board, "D")))  # numeral III
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 4
    drawn = ("c10", "c11", "c12", "c13")
    s = act(s, LandCardsDrawn(cards=drawn))
    assert {e.card for e in RS.legal(s)} == set(drawn)
    s = act(s, LandCardKept(card="c12", player="P1", bonus=0))
    assert s.hands == (("c12",),) and s.bottom == ("c10", "c11", "c13") and s.drawn == ()


def test_ignore_one_black_cloud_on_the_fleets_space_leaves_the_normal_clouds_normal():
    """Rulebook 8 'Ignora 1 nuvem preta': "Trata 1 nuvem preta em jogo (na faixa aventura ou no espaço marítimo
    onde te encontrares) como se fosse uma nuvem normal"; 5.1: only black clouds on the fleet's space turn normal
    clouds black. R1's 0b holds one black cloud; the strip shows 2 clouds and a sun at the second sunrise."""
    def second_sunrise(skills: tuple[str, ...]) -> dict:
        # sunset takes c38 (a skill, discarded): c40 (cloud) and c39 (sun) stay
        s = act(game(cards_with(), skills=skills), ActionsEnded())
        return RS.view(act(s, SunriseCardDrawn(card="c13")), "P1")["weather"]  # c13: a cloud

    assert second_sunrise(()) == {"name": "tempest", "black_clouds": 3, "suns": 1, "extra_cost": 1}
    assert second_sunrise(("c35",)) == {"name": "overcast", "black_clouds": 0, "suns": 1, "extra_cost": 0}


# -- 9.2 Menos sorte -----------------------------------------------------------------------------------------------


def test_less_luck_a_revolt_refills_the_strip_from_the_deck_not_the_shown_card():
    """Rulebook 9.2 swaps the card added "a cada Nascer-do-sol" only; 7 'Revolta' adds "a carta do topo do
    baralho". RULES.md 'Events': the refill draws from the deck and the shown card stays beside it."""
    cards = cards_with(c40={"threats": {"revolt": 2}}, c39={"threats": {"revolt": 2}}, c38={"threats": {"revolt": 1}})
    s = act(started(cards=cards, options={"less_luck": "true"}), ActionsEnded())
    assert s.phase == "refill" and s.shown == "c37"
    p = RS.pending(s)
    assert isinstance(p, Chance) and "c37" not in p.items
    assert "cannot be the deck's top card" in refused(s, StripRefilled(card="c37"))
    s = act(s, StripRefilled(card="c30"))
    assert s.shown == "c37" and "c37" not in s.strip


def test_less_luck_deals_a_fourth_strip_card_face_up_beside_the_deck():
    """Rulebook 9.2: "depois de comprar as 3 cartas que formam a faixa aventura, compra 1 carta extra e coloca-a ao
    lado do baralho face para cima": the deck keeps 33 cards, and round 1 adds nothing (5.1)."""
    s = act(RS.initial_state(created(1, {"less_luck": "true"})), MapCardRevealed(position=0, card="R1"))
    s = act(s, FleetPlaced(space="0a"))
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 7
    s = act(s, PlayerCardsDealt(strip=("c40", "c39", "c38"), hands=(("c1", "c2", "c3"),), shown="c20"))
    assert s.morale == 33 and s.strip == ("c40", "c39", "c38") and RS.view(s, "P1")["shown"][0]["card"] == "c20"

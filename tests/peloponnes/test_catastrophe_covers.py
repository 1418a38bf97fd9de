"""What may cover a card a catastrophe hits (rulebook, 'Catástrofes'): any coin card of the hand, whatever its back
("Cubra-os com cartas de moeda de sua mão", 'Tempestade'), a luxury good used as one ('Bens de Luxo': "Você também
pode usá-los para pagar por moedas exigidas por uma catástrofe"), or nothing, the card then removed. The decisions
offered used to hold only the back the hand held most of: at a Tempest, Ana holding wood, grain and people was
refused 'hill grain' ("possible: none, wood")."""

from __future__ import annotations

import copy

import pytest

from agon.core import steps
from agon.core.entry import EntryError
from agon.core.games.peloponnes import RULESET as PELOPONNES
from agon.core.games.peloponnes import catastrophe
from agon.core.service import NewGame, Service, ServiceError
from agon.events.peloponnes import CatastropheFaced, Coins
from agon.events.store import Store
from tests.peloponnes.helpers import at, bare, coins, dealt, rs, slots


@pytest.fixture
def tempest(tmp_path):
    """A three-player table game whose catastrophes strike at the first symbol: round 1 reveals Well (Drought) and
    Palisade (Earthquake) first, which hit nobody, and Ana wins Hill Farm with her 3 wood; her income is 2 wood, a
    grain and a people coin card; round 2 reveals Market first, and the Tempest strikes Ana's one land."""
    cards = copy.deepcopy(PELOPONNES.default_cards())
    cards["tables"]["catastrophe_steps"] = 1
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = svc.new_game(NewGame("peloponnes", players=("Ana", "Bruno", "Chloe"), seed=4, table=True, cards=cards))
    for typed in ("argos corinth sparta", "w w w", "seed", "seed", "well pal hill fish carp forest", "hill 3w",
                  "pass", "seed", "pass", "seed", "w w g p", "seed", "seed", "market quarry harbour soh stone wheat"):
        svc.act(gid, typed)
    s = svc.load(gid).state
    assert s.todo[0] == ("face:tempest", "Ana") and s.seat("Ana").hand == Coins(wood=2, grain=1, people=1)
    return svc, gid


@pytest.mark.parametrize(("typed", "back"), [("hill grain", "grain"), ("grain", "grain"), ("hill people", "people"),
                                             ("pe", "people"), ("hill wood", "wood")])
def test_any_back_the_hand_holds_covers_the_card_a_tempest_hits(tempest, typed, back):
    svc, gid = tempest
    told = svc.act(gid, typed)
    assert told[0].sentence.startswith(f"Ana faces the Tempest and covers Hill Farm with a {back} coin card")
    ana = svc.load(gid).state.seat("Ana")
    assert ana.lands[0].cover == back and ana.hand.get(back) == (2 if back == "wood" else 1) - 1


def test_the_options_offer_every_back_held_and_the_removal(tempest):
    svc, gid = tempest
    line = svc.load(gid)
    texts = [PELOPONNES.option_text(line.state, e) for e in PELOPONNES.legal(line.state)]
    assert texts == ["Ana faces the Tempest and loses A15 Hill Farm.",
                     "Ana faces the Tempest and covers A15 Hill Farm with a wood coin card.",
                     "Ana faces the Tempest and covers A15 Hill Farm with a grain coin card.",
                     "Ana faces the Tempest and covers A15 Hill Farm with a people coin card."]


def test_a_back_the_hand_does_not_hold_is_refused_and_nothing_is_recorded(tempest):
    svc, gid = tempest
    depth = svc.load(gid).head.depth
    with pytest.raises(ServiceError) as held:
        svc.act(gid, "hill stone")
    assert "'stone' is none of the answers; possible: grain, none, people, wood" in str(held.value)
    assert svc.load(gid).head.depth == depth


def test_each_card_hit_may_take_its_own_back_or_a_luxury_good():
    s = bare(dealt(), "Alice", "plain", lands=slots("T_L1", "T_L2", "T_L3", "T_L4", "T_VILLAGE"),
             hand=coins(wood=1, grain=1), luxury=1)
    s = at(s, "catastrophe", (("face:tempest", "Alice"),))
    assert catastrophe.candidates(s, s.seat("Alice"), "tempest")[1] == 2
    ways = {e.coins for e in rs.legal(s)}
    assert ways == {(a, b) for a in ("wood", "grain", "luxury", "") for b in ("wood", "grain", "luxury", "")
                    if a != b or a == ""}
    for e in rs.legal(s):
        assert rs.validate(s, e) is None
    assert rs.validate(s, CatastropheFaced(player="Alice", catastrophe="tempest", cards=("T_L1", "T_L2"),
                                           coins=("grain", "grain"))) is not None


def test_two_cards_hit_are_covered_one_by_one_in_the_order_the_step_names_them():
    """Each card hit takes its own cover, asked card by card ('what covers Land 2', then 'Land 1'): the two covers
    typed apart read in that order (``grain wood`` and ``wood grain`` are two decisions), and ``none`` removes one."""
    s = bare(dealt(), "Alice", "plain", lands=slots("T_L1", "T_L2", "T_L3", "T_L4", "T_VILLAGE"),
             hand=coins(wood=2, grain=1))
    s = at(s, "catastrophe", (("face:tempest", "Alice"),))
    first = steps.ask(rs, s, (("cards", "T_L2+T_L1"),))
    assert first.prompt.startswith("what covers Land 2") and first.values == ["wood", "grain", "none"]
    assert steps.build(rs, s, "grain wood").coins == ("grain", "wood")
    assert steps.build(rs, s, "wood grain").coins == ("wood", "grain")
    assert steps.build(rs, s, "wood none").coins == ("wood", "")
    with pytest.raises(EntryError) as held:
        steps.build(rs, s, "gr gr")  # one grain coin card only
    assert "what covers Land 1" in str(held.value) and "possible: none, wood" in str(held.value)


def test_any_cards_the_catastrophe_may_hit_may_be_chosen_where_the_list_offers_one_choice():
    """"Você pode escolher quais terrenos cobrir" ('Tempestade'): with five lands the Tempest hits two of ten
    choices; the list offers the least valuable, and any other typed as one word (``land-3+village``) is taken, its
    covers going to the cards in the order typed."""
    s = bare(dealt(), "Alice", "plain", lands=slots("T_L1", "T_L2", "T_L3", "T_L4", "T_VILLAGE"),
             hand=coins(wood=2, grain=1))
    s = at(s, "catastrophe", (("face:tempest", "Alice"),))
    assert {e.cards for e in rs.legal(s)} == {("T_L2", "T_L1")}
    e = steps.build(rs, s, "land-3+village grain none")
    assert (e.cards, e.coins) == (("T_L3", "T_VILLAGE"), ("grain", ""))
    assert rs.narrate(s, e) == "Alice faces the Tempest and covers Land 3 with a coin card, loses Village."
    with pytest.raises(EntryError) as held:
        steps.build(rs, s, "vil+vil w w")
    assert "the catastrophe hits 2 cards, each named once" in str(held.value)

"""The events phase (rulebook 5.3, 7 'Referência eventos'), sunset (5.4) and every skill (8 'Referência
habilidades')."""

from __future__ import annotations

import copy

from msgspec.structs import replace

from agon.core.engine import Chance, Over
from agon.core.games.adamastor.state import icons, weather_of
from agon.events.adamastor import (
    ActionsEnded,
    CardsDrawn,
    DrawChosen,
    DrawnCardKept,
    FleetMoved,
    HandTrimmed,
    IconIgnored,
    MoraleLost,
    SailStarted,
    SkillDeclined,
    SkillLearned,
    StripRefilled,
)
from tests.adamastor.support import RS, act, example_cards, label, on_example_map, refused, started


def cards_with(**changes: dict) -> dict:
    """The bundled card set with some cards' fields replaced (keyed ``c<number>``)."""
    cards = copy.deepcopy(RS.default_cards())
    for raw in cards["player_cards"]:
        new = changes.get(f"c{raw['number']}")
        if new:
            if "skill" in new:
                raw.pop("trauma", None)
            if "trauma" in new:
                raw.pop("skill", None)
                raw.pop("skill_cost", None)
            raw.update(new)
    return cards


def game(cards: dict, strip=("c40", "c39", "c38"), hand=("c1", "c2", "c3"), traumas=(), skills=()):
    s = started(strip=strip, hand=hand, cards=cards)
    out = set(traumas) | set(skills)
    return replace(s, traumas=tuple(traumas), skills=tuple(skills), deck=tuple(c for c in s.deck if c not in out))


PLAIN = {"threats": {}, "motivation": 0}


def test_events_example_imagem_5():
    # Strip: 3 disease and 3 fatigue icons, 2 motivation icons; traumas: 1 revolt, 1 disease, 2 fatigue.
    cards = cards_with(
        c40={"threats": {"disease": 1, "fatigue": 1}, "motivation": 1},
        c39={"threats": {"disease": 1, "fatigue": 1}, "motivation": 1},
        c38={"threats": {"disease": 1, "fatigue": 1}, "motivation": 0, "trauma": "fatigue"},
        c21={"trauma": "revolt"},
        c22={"trauma": "disease"},
        c23={"trauma": "fatigue"},
        c24={"trauma": "fatigue"},
        c1={"skill": "extra_action", "skill_cost": 2},
    )
    s = game(cards, traumas=("c21", "c22", "c23", "c24"))
    assert icons(s) == {"revolt": 1, "disease": 4, "fatigue": 5, "motivation": 2}
    s = act(s, ActionsEnded())
    # 1st event: learn a skill fires (at least 2 motivation icons): the hand's 2-motivation skill can be learned.
    assert s.phase == "learn" and SkillLearned(card="c1") in RS.legal(s)
    s = act(s, SkillDeclined())
    # Revolt (1 icon) and disease (4 icons) do not fire; tired crew (5 fatigue) does: lose 3 morale.
    assert s.phase == "morale_loss" and s.need == 3 and not s.loss_removes
    morale = s.morale
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 3
    s = act(s, MoraleLost(cards=p.items[:3]))
    # 'perdes 3 moral, ou seja, descartas 3 cartas do topo do baralho': they go to the discard pile.
    assert s.morale == morale - 3 and set(p.items[:3]) <= set(s.discard)
    # Tumult needs 3 revolt icons too: only 1, so the game goes on to sunset.
    assert not s.result and s.phase == "sunrise"


def test_events_example_narration_names_the_events_that_fire():
    cards = cards_with(
        c40={"threats": {"disease": 1, "fatigue": 1}, "motivation": 1},
        c39={"threats": {"disease": 1, "fatigue": 1}, "motivation": 1},
        c38={"threats": {"disease": 1, "fatigue": 1}, "motivation": 0, "trauma": "fatigue"},
        c21={"trauma": "revolt"},
        c22={"trauma": "disease"},
        c23={"trauma": "fatigue"},
        c24={"trauma": "fatigue"},
        c1={"skill": "extra_action", "skill_cost": 2},
    )
    s = act(game(cards, traumas=("c21", "c22", "c23", "c24")), ActionsEnded())
    text = RS.narrate(s, SkillDeclined())
    assert "'tired crew' fires (5 fatigue icons): 3 morale lost" in text


def test_revolt_with_5_icons_turns_the_lowest_card_into_a_trauma_and_refills_the_strip():
    cards = cards_with(
        c40={"threats": {"revolt": 2}},
        c39={"threats": {"revolt": 2}},
        c38={"threats": {"revolt": 1}, "trauma": "disease"},
    )
    s = act(game(cards), ActionsEnded())
    assert s.phase == "refill" and s.traumas == ("c38",) and s.strip == ("c40", "c39")
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 1
    s = act(s, StripRefilled(card="c10"))
    # c10 joined the strip as its lowest card, so the sunset then took it.
    assert s.strip == ("c40", "c39") and "c10" in (*s.traumas, *s.discard)


def test_revolt_with_4_icons_does_not_fire():
    cards = cards_with(c40={"threats": {"revolt": 2}}, c39={"threats": {"revolt": 2}}, c38=PLAIN)
    s = game(cards)
    assert "revolt" not in RS.narrate(s, ActionsEnded())
    s = act(s, ActionsEnded())
    assert s.phase == "sunrise" and s.strip == ("c40", "c39")


def test_disease_spreads_costs_one_morale_per_disease_trauma_removed_from_the_game():
    cards = cards_with(
        c40={"threats": {"disease": 2}},
        c39={"threats": {"disease": 1}},
        c38=PLAIN,
        c21={"trauma": "disease"},
        c22={"trauma": "disease"},
    )
    s = act(game(cards, traumas=("c21", "c22")), ActionsEnded())
    assert s.phase == "morale_loss" and s.need == 2 and s.loss_removes
    p = RS.pending(s)
    s = act(s, MoraleLost(cards=p.items[:2]))
    assert s.removed == p.items[:2] and not set(p.items[:2]) & set(s.discard)


def test_tumult_with_3_revolt_disease_and_fatigue_loses_at_once():
    cards = cards_with(
        c40={"threats": {"revolt": 2, "disease": 1}},
        c39={"threats": {"fatigue": 2, "disease": 1}},
        c38={"threats": {"revolt": 1, "fatigue": 1, "disease": 1}},
    )
    s = act(game(cards), ActionsEnded())
    assert s.result == "lost_tumult"
    o = RS.pending(s)
    assert isinstance(o, Over) and o.outcome.winners == () and "tumult" in o.outcome.summary


def test_sunset_example_cards_32_19_and_9():
    s = started(strip=("c32", "c19", "c9"))
    assert s.strip == ("c32", "c19", "c9")
    s = act(s, ActionsEnded())
    assert s.traumas == ("c9",) and s.strip == ("c32", "c19")
    assert s.card("c9").trauma


def test_sunset_discards_a_skill_card_and_trims_hands_to_3():
    cards = cards_with(c38={"skill": "extra_action", "skill_cost": 2, **PLAIN}, c40=PLAIN, c39=PLAIN)
    s = game(cards)
    s = replace(s, hands=(("c1", "c2", "c3", "c4", "c5"),), deck=tuple(c for c in s.deck if c not in ("c4", "c5")))
    s = act(s, ActionsEnded())
    assert s.discard == ("c38",) and s.phase == "trim"
    assert "discard 2 cards" in refused(s, HandTrimmed(player="P1", cards=("c1",)))
    s = act(s, HandTrimmed(player="P1", cards=("c1", "c2")))
    assert s.hands == (("c3", "c4", "c5"),) and s.phase == "sunrise" and s.round == 2


def test_only_one_skill_is_learned_per_round():
    cards = cards_with(
        c40={"threats": {"fatigue": 2}, "motivation": 1},
        c39={"threats": {"fatigue": 2}, "motivation": 1},
        c38={"threats": {"fatigue": 1}, "motivation": 0},
        c1={"skill": "extra_action", "skill_cost": 2},
        c2={"skill": "navigation_plus_one", "skill_cost": 2},
    )
    s = act(game(cards), ActionsEnded())
    assert s.phase == "learn"
    s2 = act(s, SkillLearned(card="c1"))
    assert s2.skills == ("c1",) and "c1" not in s2.hands[0]
    assert s2.phase == "morale_loss"  # still this round's events phase (tired crew)
    reason = refused(s2, SkillLearned(card="c2"))
    assert "only 1 skill can be learned per round" in reason


def test_a_3_motivation_skill_needs_3_icons_and_cheaper_skills_lower_it():
    cards = cards_with(
        c40={"threats": {}, "motivation": 1},
        c39={"threats": {}, "motivation": 1},
        c38=PLAIN,
        c1={"skill": "extra_action", "skill_cost": 3},
        c2={"skill": "cheaper_skills", "skill_cost": 3},
        c3={"trauma": "revolt"},
    )
    s = act(game(cards), ActionsEnded())
    assert s.phase != "learn"  # 2 icons cannot pay for a 3-icon skill
    s = act(game(cards, skills=("c2",)), ActionsEnded())
    assert s.phase == "learn" and SkillLearned(card="c1") in RS.legal(s)


def test_ignore_icons_skill_is_chosen_at_the_start_of_the_events_phase():
    cards = cards_with(
        c40={"threats": {"fatigue": 2}},
        c39={"threats": {"fatigue": 2}},
        c38={"threats": {"fatigue": 1}, "trauma": "revolt"},
        c5={"skill": "ignore_fatigue", "skill_cost": 2},
    )
    s = act(game(cards, skills=("c5",)), ActionsEnded())
    assert s.phase == "ignore"
    assert {e.card for e in RS.legal(s)} == {"c40", "c39", "c38"}
    assert "no fatigue icon" in refused(s, IconIgnored(card="c1", icon="fatigue"))
    assert RS.narrate(s, IconIgnored(card="c40", icon="fatigue")).startswith(
        "P1 ignores a fatigue icon on Capitão-mor (40)")
    s = act(s, IconIgnored(card="c40", icon="fatigue"))
    assert s.phase != "morale_loss"  # 4 fatigue icons: the tired crew event does not fire


def _revolt_takes_the_card_with_the_ignored_icon(version: str | None = None):
    """A revolt (5 revolt icons) takes c38, on which the events phase's 'ignore a fatigue icon' fell. c38 holds a
    revolt trauma, so in the traumas it shows one revolt icon and no fatigue icon."""
    cards = cards_with(
        c40={"threats": {"revolt": 2, "fatigue": 2}, "motivation": 0},
        c39={"threats": {"revolt": 2}, "motivation": 0},
        c38={"threats": {"revolt": 1, "fatigue": 1}, "motivation": 0, "trauma": "revolt"},
        c5={"skill": "ignore_fatigue", "skill_cost": 2},
        c21={"trauma": "fatigue"},
        c22={"trauma": "fatigue"},
        c10={"threats": {"fatigue": 1}, "motivation": 0},
    )
    s = game(cards, skills=("c5",), traumas=("c21", "c22"))
    if version is not None:
        s = replace(s, version=int(version))
    s = act(act(s, ActionsEnded()), IconIgnored(card="c38", icon="fatigue"))
    assert s.phase == "refill" and "c38" in s.traumas
    return s


def test_an_ignored_icon_goes_with_its_card_when_a_revolt_takes_it():
    # Rulebook 8 'Ignora ícones em jogo': the icon is ignored on the card chosen ('em que carta esse ícone é
    # ignorado'); rulebook 7 'Revolta': the lowest card leaves the strip and is tucked among the traumas, where only
    # its trauma icon shows (5.4). RULES.md: the choice 'is lost if the card leaves play (e.g. in a revolt)'.
    s = _revolt_takes_the_card_with_the_ignored_icon()
    # Fatigue in play: c40's 2 on the strip and the 2 fatigue traumas; c38 now shows none to ignore.
    assert icons(s)["fatigue"] == 4
    s = act(s, StripRefilled(card="c10"))  # 1 more fatigue icon: 5, so the crew is tired (rulebook 7)
    assert s.phase == "morale_loss" and s.need == 3


def test_a_version_2_game_keeps_the_ignored_icon_after_the_revolt():
    # Games recorded under ruleset version 2 replay as they were played: the ignore still counted there.
    s = _revolt_takes_the_card_with_the_ignored_icon(version="2")
    assert icons(s)["fatigue"] == 3
    s = act(s, StripRefilled(card="c10"))
    assert s.phase == "sunrise"


def test_extra_action_skill_adds_an_action_each_round():
    base = started()
    cards = cards_with(c5={"skill": "extra_action", "skill_cost": 2})
    s = game(cards, skills=("c5",))
    assert weather_of(s)[1] == weather_of(base)[1] + 1


def test_navigation_skill_adds_1_to_each_sail_twice_adds_2():
    cards = cards_with(c5={"skill": "navigation_plus_one", "skill_cost": 2}, c6={"skill": "navigation_plus_one"})
    s = game(cards, skills=("c5", "c6"))
    s2 = act(s, SailStarted(cards=("c1",)))
    assert s2.sail_points == s.card("c1").navigation + 2


def test_draw_two_keep_one_skill_puts_the_other_card_at_the_bottom():
    cards = cards_with(c5={"skill": "draw_two_keep_one", "skill_cost": 2})
    s = game(cards, skills=("c5",))
    morale = s.morale
    s = act(s, DrawChosen())
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 2
    s = act(s, CardsDrawn(cards=("c10", "c11")))
    assert s.phase == "draw_keep"
    assert RS.narrate(s, DrawnCardKept(card="c11")).startswith(
        "P1 keeps Escrivão (11) and puts the other card under the deck")
    s = act(s, DrawnCardKept(card="c11"))
    assert "c11" in s.hands[0] and s.bottom == ("c10",) and s.morale == morale - 1


def test_land_bonus_plus_one_card_skill_draws_one_more():
    cards = cards_with(c5={"skill": "land_plus_one", "skill_cost": 2})
    ex = example_cards()
    ex["player_cards"] = cards["player_cards"]
    s = on_example_map(game(ex, skills=("c5",)), "C")
    s = replace(s, extra_cost=0, hands=(("c1", "c2", "c3"),))
    s = replace(act(s, SailStarted(cards=("c1",))), sail_points=3)
    s = act(s, FleetMoved(to=label(s.board, "D")))
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 4  # numeral III plus 1


def test_ignore_black_cloud_skill_treats_one_black_cloud_as_a_normal_one():
    cards = cards_with(
        c40={"weather": "storm"},
        c39={"weather": "storm"},
        c38={"weather": "sun"},
        c5={"skill": "ignore_black_cloud", "skill_cost": 2},
    )
    s = game(cards)
    s = replace(s, board=_clear_clouds(s.board, s.fleet))
    assert weather_of(s)[0] == "storm"
    s = replace(s, skills=("c5",))
    assert weather_of(s)[0] != "storm" and weather_of(s)[3] == 1


def _clear_clouds(board, sid):
    from dataclasses import replace as dc_replace

    return dc_replace(board, spaces=tuple(dc_replace(x, clouds=0) if x.id == sid else x for x in board.spaces))

"""Setup (rulebook, 'Preparação'; errata: the charisma card shows 1): nations, decks, hands, creatures, starter."""

from __future__ import annotations

import copy

import pytest

from agon.core.engine import Chance, Decision
from agon.core.games.pergamemnon.state import player
from agon.events.pergamemnon import CardsDrawn, CreaturesRevealed, NationsDealt, StarterDrawn
from tests.pergamemnon.helpers import created, draw_first, play, refused, rs, setup


def test_nation_cards_are_dealt_by_chance_then_the_creatures_then_the_hands():
    s = rs.initial_state(created(4))
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.count == 4 and set(p.items) == {"rome", "egypt", "greece", "carthage", "persia"}
    assert p.label == "nation cards dealt, one per player in seat order"  # a table types them so: it must be told
    assert "must be one of" in refused(s, NationsDealt(nations=("rome", "rome", "egypt", "greece")))
    assert "are drawn, not 3" in refused(s, NationsDealt(nations=("rome", "egypt", "greece")))
    s = play(s, NationsDealt(nations=("rome", "egypt", "greece", "persia")))
    for p_ in s.players:
        assert len(p_.deck) == 11 and p_.hand == () and p_.active
    assert [p_.charisma for p_ in s.players] == [5, 1, 1, 1]
    assert s.supply == 21 - 8
    # The creature deck holds 4 x players creatures, of which 2 x players are turned face up.
    assert s.creature_deck == 16
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.count == 8 and len(p.items) == 24
    s = draw_first(s)
    assert len(s.creatures) == 8 and s.creature_deck == 8
    # Each player draws 3 cards (Persia 4) from its own shuffled army.
    for name, size in (("Alice", 3), ("Bob", 3), ("Carol", 3), ("Dave", 4)):
        p = rs.pending(s)
        assert isinstance(p, Chance) and p.label == f"{name} draws" and p.count == size
        assert set(p.items) == set(player(s, name).deck)
        s = draw_first(s)
    assert isinstance(rs.pending(s), Decision)


def test_a_creature_not_in_the_pool_cannot_be_revealed():
    s = play(rs.initial_state(created(2)), NationsDealt(nations=("rome", "egypt")))
    assert "must be one of" in refused(s, CreaturesRevealed(cards=("creature.centaur",) * 4))
    assert "must be one of" in refused(
        s, CreaturesRevealed(cards=("rome.caesar", "creature.centaur", "creature.dryad", "creature.orthos"))
    )


def test_the_most_charismatic_player_starts():
    # Alice (Rome): Bowman 2 + Bowman 2 + Ballista 1 = 5; Bob (Egypt): Nefertiti 7 + Mummy 1 + Bowman 2 = 10.
    s = setup(
        ["rome", "egypt"],
        {
            "Alice": ("rome.bowman.1", "rome.bowman.2", "rome.ballista.1"),
            "Bob": ("egypt.nefertiti", "egypt.mummy.1", "egypt.bowman"),
        },
    )
    assert rs.pending(s) == Decision("Bob", "recruit a creature or attack")
    assert s.turn == 1


def test_a_charisma_tie_goes_to_the_best_single_card():
    # Both hands sum to 6; Alice's best card is Caesar's 4, Bob's best is 3.
    s = setup(
        ["rome", "egypt"],
        {
            "Alice": ("rome.caesar", "rome.ballista.1", "rome.ballista.2"),
            "Bob": ("egypt.camel-rider", "egypt.mummy.1", "egypt.bowman"),
        },
    )
    assert rs.pending(s).player == "Alice"


def test_a_remaining_tie_is_settled_by_lots():
    g = created(3)
    s = rs.initial_state(g)
    s = play(s, NationsDealt(nations=("rome", "egypt", "greece")))
    s = draw_first(s)
    s = play(s, CardsDrawn(player="Alice", cards=("rome.spearman.1", "rome.spearman.2", "rome.horseman.1")))
    s = play(s, CardsDrawn(player="Bob", cards=("egypt.swordsman.1", "egypt.swordsman.2", "egypt.chariot.1")))
    s = play(s, CardsDrawn(player="Carol", cards=("greece.chariot.1", "greece.chariot.2", "greece.chariot.3")))
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.label == "lots for the starting player" and p.items == ("Alice", "Bob")
    assert "must be one of Alice, Bob" in refused(s, StarterDrawn(player="Carol"))
    s = play(s, StarterDrawn(player="Bob"))
    assert rs.pending(s).player == "Bob"


def test_a_draw_for_the_wrong_player_or_out_of_turn_is_refused():
    s = play(rs.initial_state(created(2)), NationsDealt(nations=("rome", "egypt")))
    s = draw_first(s)
    assert "Alice draws now" in refused(
        s, CardsDrawn(player="Bob", cards=("egypt.guard", "egypt.bowman", "egypt.mummy.1"))
    )
    assert "must be one of" in refused(
        s, CardsDrawn(player="Alice", cards=("egypt.guard", "egypt.bowman", "egypt.mummy.1"))
    )


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["A"], "2 to 5 players, not 1"),
        (["A", "B", "C", "D", "E", "F"], "2 to 5 players, not 6"),
        (["A", "A"], "different name"),
    ],
)
def test_unplayable_player_counts_are_refused(players, message):
    with pytest.raises(ValueError, match=message):
        rs.check_setup(players, {}, rs.default_cards())


def test_options_and_malformed_card_sets_are_refused():
    with pytest.raises(ValueError, match="no options"):
        rs.check_setup(["A", "B"], {"x": 1}, rs.default_cards())
    bad = copy.deepcopy(rs.default_cards())
    bad["nations"]["rome"]["army"][0]["weapon"] = "club"
    with pytest.raises(ValueError, match="Caesar needs a weapon"):
        rs.check_setup(["A", "B"], {}, bad)
    bad = copy.deepcopy(rs.default_cards())
    bad["nations"]["rome"]["army"][0]["leader"] = False
    with pytest.raises(ValueError, match="exactly one leader"):
        rs.check_setup(["A", "B"], {}, bad)
    bad = copy.deepcopy(rs.default_cards())
    bad["nations"]["egypt"]["captured"] = {"fly": True}
    with pytest.raises(ValueError, match="may only use"):
        rs.check_setup(["A", "B"], {}, bad)
    with pytest.raises(ValueError, match="creatures"):
        rs.check_setup(["A", "B"], {}, {"nations": rs.default_cards()["nations"]})

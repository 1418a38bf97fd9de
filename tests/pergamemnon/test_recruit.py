"""Recruiting a creature (rulebook, 'Recrutar uma criatura'; errata: captured cards under the city pay too)."""

from __future__ import annotations

from agon.core.engine import Chance, Decision, Over
from agon.core.games.pergamemnon.state import player
from agon.events.pergamemnon import CardsDrawn, CreatureRecruited, CreaturesRevealed
from tests.pergamemnon.helpers import hand, play, refused, replace, rs, setup, with_state_player

CREATURES = ("creature.centaur", "creature.minotaur", "creature.dryad", "creature.orthos")
GREEK_HAND = ("greece.agamemnon", "greece.hercules", "greece.guard")


def greek_game(charisma: int = 2, n: int = 2):
    nations = ["greece", "rome", "egypt", "persia", "carthage"][:n]
    creatures = CREATURES + ("creature.sphinx", "creature.cyclops", "creature.satyr", "creature.harpy")[: 2 * n - 4]
    s = setup(nations, {"Alice": GREEK_HAND}, creatures=creatures, starter="Alice")
    return with_state_player(s, "Alice", charisma=charisma)


def test_example_agamemnon_5_plus_one_charisma_card_recruits_the_centaur():
    # The hand card (Agamemnon, charisma 5) plus one of the 2 charisma cards under the city pays the Centaur (6).
    s = greek_game(charisma=2)
    supply = s.supply
    s = play(
        s,
        CreatureRecruited(player="Alice", creature="creature.centaur", hand_card="greece.agamemnon", charisma_cards=1),
    )
    alice = player(s, "Alice")
    # The Centaur and every hand card go face up to the discard pile; the charisma card goes back to the supply.
    assert set(alice.discard) == {"creature.centaur", *GREEK_HAND}
    assert alice.hand == () and alice.charisma == 1 and s.supply == supply + 1
    assert "creature.centaur" not in s.creatures
    # A new creature is revealed at once, then the player draws 3 new cards.
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.label == "creatures revealed" and p.count == 1
    s = play(s, CreaturesRevealed(cards=("creature.typhon",)))
    assert "creature.typhon" in s.creatures and len(s.creatures) == 4
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.count == 3 and set(p.items) == set(alice.deck)
    s = play(s, CardsDrawn(player="Alice", cards=p.items[:3]))
    assert len(hand(s, "Alice")) == 3
    assert rs.pending(s) == Decision("Bob", "recruit a creature or attack")


def test_recruit_without_enough_charisma_is_refused():
    s = greek_game(charisma=2)
    e = CreatureRecruited(player="Alice", creature="creature.minotaur", hand_card="greece.agamemnon", charisma_cards=1)
    rule = refused(s, e)
    assert "Recrutar uma criatura" in rule and "make 6, the Minotaur costs 7" in rule


def test_paying_more_than_the_cost_is_allowed_and_no_change_is_given():
    s = greek_game(charisma=3)
    s = play(
        s, CreatureRecruited(player="Alice", creature="creature.dryad", hand_card="greece.agamemnon", charisma_cards=2)
    )
    assert player(s, "Alice").charisma == 1


def test_recruit_needs_at_least_one_card_from_under_the_city():
    s = greek_game(charisma=2)
    e = CreatureRecruited(player="Alice", creature="creature.dryad", hand_card="greece.agamemnon", charisma_cards=0)
    assert "at least one charisma card from under your city must be added" in refused(s, e)
    # A game recorded before version 4 took a captured card instead (its own refusal says so).
    assert "at least one charisma card or captured card" in refused(replace(s, version=3), e)
    empty = with_state_player(s, "Alice", charisma=0)
    assert not [e for e in rs.legal(empty) if isinstance(e, CreatureRecruited)]


def test_recruit_must_play_the_highest_charisma_hand_card():
    s = greek_game(charisma=9)
    e = CreatureRecruited(player="Alice", creature="creature.dryad", hand_card="greece.hercules", charisma_cards=2)
    assert "highest charisma (Agamemnon, 5)" in refused(s, e)


def test_recruit_with_a_card_not_in_hand_or_a_creature_not_face_up_is_refused():
    s = greek_game(charisma=2)
    e = CreatureRecruited(player="Alice", creature="creature.dryad", hand_card="greece.chariot.1", charisma_cards=1)
    assert "not in your hand" in refused(s, e)
    e = CreatureRecruited(player="Alice", creature="creature.typhon", hand_card="greece.agamemnon", charisma_cards=1)
    assert "not among the face-up creatures" in refused(s, e)
    e = CreatureRecruited(player="Bob", creature="creature.dryad", hand_card="greece.agamemnon", charisma_cards=1)
    assert "Alice's turn" in refused(s, e)


def test_captured_card_payment_removes_it_from_the_game():
    s = greek_game(charisma=1)
    s = with_state_player(s, "Alice", under=("rome.centurion",))
    e = CreatureRecruited(
        player="Alice",
        creature="creature.minotaur",
        hand_card="greece.agamemnon",
        charisma_cards=1,
        captured=("rome.centurion",),
    )
    assert e in rs.legal(s)
    s = play(s, e)
    assert player(s, "Alice").under == () and "rome.centurion" in s.box and player(s, "Alice").charisma == 0


def test_a_recruit_needs_a_charisma_card_even_when_captured_cards_would_pay():
    # Rulebook, 'Recrutar uma criatura' (lines 208-212): the player "adiciona pelo menos uma Carta de Carisma que
    # esteja parcialmente coberta pela sua Carta de Cidade", and "Se o jogador não tiver Cartas de Carisma debaixo
    # da sua Carta de Cidade, não lhe é possível recrutar uma criatura"; player aid: "Y ajouter au min 1 carte
    # charisme sous la cité". The same section tells the captured cards apart ("As cartas capturadas usadas...");
    # they add to the payment (errata: both can be used) but do not stand in for the charisma card.
    s = greek_game(charisma=0)
    s = with_state_player(s, "Alice", under=("rome.centurion",))  # Agamemnon 5 + Centurion 3 would reach 7
    alone = CreatureRecruited(
        player="Alice", creature="creature.minotaur", hand_card="greece.agamemnon", captured=("rome.centurion",)
    )
    rule = refused(s, alone)
    assert "Recrutar uma criatura" in rule and "at least one charisma card" in rule
    assert not [e for e in rs.legal(s) if isinstance(e, CreatureRecruited)]
    # With a charisma card under the city the captured card may be added to it, but still not pay alone.
    s = with_state_player(s, "Alice", charisma=1)
    assert "at least one charisma card" in refused(s, alone)
    both = replace(alone, charisma_cards=1)
    recruits = [e for e in rs.legal(s) if isinstance(e, CreatureRecruited)]
    assert both in recruits and all(e.charisma_cards >= 1 for e in recruits)
    play(s, both)
    # When the one charisma card pays the rest, no payment spending a captured card for nothing is listed.
    centaur = [e for e in recruits if e.creature == "creature.centaur"]
    assert centaur == [replace(alone, creature="creature.centaur", charisma_cards=1, captured=())]


def test_a_game_recorded_before_version_4_keeps_paying_with_captured_cards_alone():
    # RULES.md, 'Ruleset versions': games recorded under versions 1 to 3 replay as they were played.
    s = replace(greek_game(charisma=0), version=3)
    s = with_state_player(s, "Alice", under=("rome.centurion",))
    e = CreatureRecruited(
        player="Alice", creature="creature.centaur", hand_card="greece.agamemnon", captured=("rome.centurion",)
    )
    assert e in rs.legal(s)
    s = play(s, e)
    assert "rome.centurion" in s.box and "creature.centaur" in player(s, "Alice").discard


def test_carthage_needs_one_charisma_less():
    s = setup(
        ["carthage", "rome"],
        {"Alice": ("carthage.hannibal", "carthage.slinger.1", "carthage.slinger.2")},
        creatures=CREATURES,
        starter="Alice",
    )
    # Hannibal 4 + 1 charisma card + 1 (Carthage) = 6 = the Centaur's cost.
    s = play(
        s,
        CreatureRecruited(player="Alice", creature="creature.centaur", hand_card="carthage.hannibal", charisma_cards=1),
    )
    assert "creature.centaur" in player(s, "Alice").discard


def test_greeks_need_one_charisma_more_once_agamemnon_is_captured():
    s = greek_game(charisma=5)
    s = with_state_player(
        s, "Alice", hand=("greece.hercules", "greece.guard", "greece.chariot.1"), leader_captured=True
    )
    e = CreatureRecruited(player="Alice", creature="creature.centaur", hand_card="greece.hercules", charisma_cards=5)
    assert "make 5 (-1 from Athens), the Centaur costs 6" in refused(s, e)
    s = with_state_player(s, "Alice", charisma=6)
    play(s, replace(e, charisma_cards=6))


def _recruit_dryad_and_draw(s):
    s = play(
        s, CreatureRecruited(player="Alice", creature="creature.dryad", hand_card="greece.agamemnon", charisma_cards=1)
    )
    while not isinstance(rs.pending(s), Decision):
        p = rs.pending(s)
        s = play(s, p.build(p.items[: p.count]))
    return s


def test_after_a_recruit_the_nation_card_turns_inactive_and_the_next_active_player_acts():
    s = greek_game(charisma=2, n=4)
    s = with_state_player(s, "Bob", active=False)
    s = _recruit_dryad_and_draw(s)
    assert [p.active for p in s.players] == [False, False, True, True]
    # Bob's card is inactive, so Carol, the next active player clockwise, acts.
    assert rs.pending(s).player == "Carol"


def test_when_only_one_nation_card_is_left_active_all_flip_back():
    s = greek_game(charisma=2, n=3)
    s = with_state_player(s, "Bob", active=False)
    s = _recruit_dryad_and_draw(s)
    # Only Carol's card would be active: every nation card flips back to active, and Bob is next clockwise.
    assert all(p.active for p in s.players)
    assert rs.pending(s).player == "Bob"


def _best(s, name):
    return max(hand(s, name), key=lambda c: s.table.cards[c].charisma)


def test_the_game_ends_when_fewer_creatures_lie_face_up_than_players():
    s = greek_game(charisma=9)
    s = replace(s, creature_deck=0, creature_pool=())  # the creature deck is used up: no new creature comes
    s = play(
        s, CreatureRecruited(player="Alice", creature="creature.dryad", hand_card="greece.agamemnon", charisma_cards=1)
    )
    s = play(s, CardsDrawn(player="Alice", cards=rs.pending(s).items[:3]))
    s = play(
        s, CreatureRecruited(player="Bob", creature="creature.orthos", hand_card=_best(s, "Bob"), charisma_cards=5)
    )
    s = play(s, CardsDrawn(player="Bob", cards=rs.pending(s).items[:3]))
    assert len(s.creatures) == 2 and rs.pending(s) == Decision("Alice", "recruit a creature or attack")
    s = play(
        s, CreatureRecruited(player="Alice", creature="creature.centaur", hand_card=_best(s, "Alice"), charisma_cards=5)
    )
    # One creature face up for two players: the game ends at once, before anyone draws.
    p = rs.pending(s)
    assert isinstance(p, Over) and "only 1 creature lies face up for 2 players" in p.outcome.summary
    assert rs.legal(s) == []
    assert "game is over" in refused(s, CardsDrawn(player="Alice", cards=()))

"""Captured leaders: the city card flips for good and each nation's disadvantage applies
(rulebook, 'Líderes Capturados' and 'Nações')."""

from __future__ import annotations

from agon.core.engine import Chance
from agon.core.games.pergamemnon.state import effects, hand_size, player
from agon.events.pergamemnon import Attacked, CapturesPlaced, DefenceCommitted, HandDiscarded, Yielded
from tests.pergamemnon.helpers import battle_game, play, refill_all, rs, with_state_player


def capture_bobs_leader(nations, bob_hand=("leader", "weakling", "runner")):
    """Alice attacks Bob with her Champion; Bob lays his leader and yields; Alice keeps it in her discard pile."""
    s = battle_game(nations=nations, hands={"Bob": bob_hand})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card=f"{nations[0]}.champion"))
    s = play(s, DefenceCommitted(player="Bob", card=f"{nations[1]}.leader"))
    s = play(s, Yielded(player="Bob"))
    if s.phase == "place":
        s = play(s, CapturesPlaced(player="Alice"))
    return refill_all(play(s, HandDiscarded(player="Bob")))


def next_battle(s, attacker_card, defender_card, attacker="Alice", defender="Bob"):
    weapon = s.table.cards[attacker_card].weapon
    s = play(s, Attacked(player=attacker, defender=defender, weapon=weapon, card=attacker_card))
    return play(s, DefenceCommitted(player=defender, card=defender_card))


def test_caesar_captured_takes_1_from_every_roman_defence_and_rome_keeps_its_charisma():
    s = capture_bobs_leader(("carthage", "rome"))
    bob = player(s, "Bob")
    assert bob.leader_captured and bob.charisma == 5
    s = with_state_player(s, "Bob", hand=("rome.champion", "rome.weakling", "rome.runner"))
    s = next_battle(s, "carthage.weakling", "rome.champion")
    assert s.battle.strikes[0].defence == 8  # helmet 9 - 1


def test_hannibal_captured_loses_the_charisma_advantage_and_takes_1_from_every_attack():
    s = battle_game(nations=("carthage", "rome"))
    assert effects(s, player(s, "Alice")).recruit == 1
    s = capture_bobs_leader(("rome", "carthage"))
    bob = player(s, "Bob")
    assert bob.leader_captured and effects(s, bob).recruit == 0
    s = with_state_player(s, "Alice", hand=("rome.weakling", "rome.runner", "rome.veteran"))
    s = with_state_player(s, "Bob", hand=("carthage.champion", "carthage.weakling", "carthage.runner"))
    # Alice's sword 1 is repelled; Bob's counter-strike with the Champion's sword 9 is worth only 8.
    s = next_battle(s, "rome.weakling", "carthage.champion")
    assert s.battle.strikes[1].striker == "Bob" and s.battle.strikes[1].value == 8


def test_xerxes_captured_brings_persia_back_to_3_hand_cards_and_every_persian_army_flees():
    s = battle_game(nations=("rome", "persia"))
    assert len(player(s, "Bob").hand) == 4 and hand_size(s, player(s, "Bob")) == 4
    s = capture_bobs_leader(("rome", "persia"), bob_hand=("leader", "weakling", "runner", "champion"))
    bob = player(s, "Bob")
    assert bob.leader_captured and hand_size(s, bob) == 3 and len(bob.hand) == 3
    # The attacker plays again; the Persian Weakling (no Flee icon) now flees when defeated.
    s = with_state_player(s, "Alice", hand=("rome.champion", "rome.weakling", "rome.veteran"))
    s = with_state_player(s, "Bob", hand=("persia.weakling", "persia.veteran", "persia.recruit.1"))
    s = next_battle(s, "rome.champion", "persia.weakling")
    s = play(s, Yielded(player="Bob"))
    assert s.battle.result == "attacker"
    assert "persia.weakling" in s.box and s.aftermath.captured == ()


def test_xerxes_captured_a_secured_persian_card_still_goes_under_babylon():
    # Flee after Xerxes' capture is "vantajoso para os Persas"; Secured cards "não podem ser capturadas".
    s = capture_bobs_leader(("egypt", "persia"), bob_hand=("leader", "weakling", "runner", "champion"))
    assert player(s, "Bob").leader_captured
    s = with_state_player(s, "Alice", hand=("egypt.champion", "egypt.weakling", "egypt.runner"))
    s = with_state_player(s, "Bob", hand=("persia.veteran", "persia.weakling", "persia.recruit.1"))
    s = next_battle(s, "egypt.champion", "persia.veteran")
    s = play(s, Yielded(player="Bob"))
    assert s.battle.result == "attacker"
    # Egypt captures fleeing cards, but a Secured card neither flees nor is captured: it goes under Babylon.
    assert player(s, "Bob").secured == ("persia.veteran",)
    assert "persia.veteran" not in s.box + player(s, "Alice").discard and s.aftermath.captured == ()


def test_nefertiti_captured_removes_every_egyptian_flee_card_from_the_game():
    s = capture_bobs_leader(("rome", "egypt"), bob_hand=("leader", "runner", "weakling"))
    bob = player(s, "Bob")
    assert bob.leader_captured
    assert "egypt.runner" in s.box
    assert all(not s.table.cards[c].flee for c in bob.hand + bob.deck + bob.discard)


def test_a_recaptured_leader_does_not_restore_the_advantage():
    s = capture_bobs_leader(("carthage", "rome"))
    assert "rome.leader" in player(s, "Alice").discard
    s = with_state_player(s, "Alice", hand=("rome.leader", "carthage.weakling", "carthage.runner"))
    s = with_state_player(s, "Bob", hand=("rome.champion", "rome.weakling", "rome.runner"))
    s = next_battle(s, "rome.leader", "rome.champion")
    s = play(s, Yielded(player="Alice"))
    s = play(s, CapturesPlaced(player="Bob"))
    assert "rome.leader" in player(s, "Bob").discard
    assert player(s, "Bob").leader_captured
    assert isinstance(rs.pending(s), Chance) or s.phase == "discard"

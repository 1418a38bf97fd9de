"""The end of the game and the final score (rulebook, 'Final do Jogo', 'Vencedor', 'Nações': Gregos, Persas)."""

from __future__ import annotations

from agon.core.engine import Decision, Over
from agon.core.games.pergamemnon import scoring
from agon.core.games.pergamemnon.state import player
from agon.events.pergamemnon import Attacked, CapturesPlaced, DefenceCommitted, Yielded
from tests.pergamemnon.helpers import battle_game, play, replace, rs, setup, with_state_player


def test_the_score_counts_hand_deck_discard_secured_and_creatures_under_the_city_but_not_captured_armies():
    s = setup(["rome", "egypt"], starter="Alice")
    s = with_state_player(
        s,
        "Alice",
        hand=("rome.caesar",),  # 3
        deck=("rome.centurion",),  # 2
        discard=("creature.centaur", "egypt.guard"),  # 3 + 1
        secured=("rome.praetorian",),  # 2
        under=("creature.minotaur", "egypt.nefertiti"),  # the creature counts (4), the captured army does not
    )
    assert rs.scores(s)["Alice"] == 3 + 2 + 3 + 1 + 2 + 4


def test_greeks_score_half_a_point_more_per_point_card_while_agamemnon_is_free():
    s = setup(["greece", "rome"], starter="Alice")
    # 7 cards with points give 3.5 more (the rulebook's example); the Bowman has no points.
    cards = (
        "greece.agamemnon",
        "greece.hercules",
        "greece.guard",
        "greece.chariot.1",
        "greece.chariot.2",
        "greece.spearman.1",
        "greece.horseman",
        "greece.bowman.1",
    )
    s = with_state_player(s, "Alice", hand=(), deck=cards, discard=())
    printed = 3 + 3 + 1 + 1 + 1 + 1 + 1
    assert rs.scores(s)["Alice"] == printed + 3.5
    s = with_state_player(s, "Alice", deck=cards[1:], leader_captured=True)
    assert rs.scores(s)["Alice"] == printed - 3


def test_a_tie_goes_to_the_most_powerful_creature():
    s = setup(["rome", "egypt"], starter="Alice")
    s = with_state_player(s, "Alice", hand=(), deck=("creature.cyclops",), discard=())  # 5 points
    s = with_state_player(
        s, "Bob", hand=(), deck=("creature.dryad", "creature.orthos", "creature.harpy"), discard=()
    )  # 1+2+2
    s = replace(s, creatures=s.creatures[:1])
    p = rs.pending(s)
    assert isinstance(p, Over)
    assert p.outcome.scores == {"Alice": 5.0, "Bob": 5.0}
    assert p.outcome.winners == ("Alice",) and "most powerful creature" in p.outcome.summary


def test_an_unbroken_tie_is_a_shared_win():
    s = setup(["rome", "egypt"], starter="Alice")
    s = with_state_player(s, "Alice", hand=(), deck=("rome.caesar",), discard=())
    s = with_state_player(s, "Bob", hand=(), deck=("egypt.nefertiti",), discard=())
    s = replace(s, creatures=s.creatures[:1])
    assert rs.pending(s).outcome.winners == ("Alice", "Bob")


def test_the_game_ends_when_a_nation_has_fewer_cards_than_its_hand_size():
    s = setup(["rome", "persia"], starter="Alice")
    bob = player(s, "Bob")
    s = with_state_player(s, "Bob", deck=bob.deck[:0], discard=())
    assert len(player(s, "Bob").hand) == 4 and not isinstance(rs.pending(s), Over)
    s = with_state_player(s, "Bob", hand=bob.hand[:3])
    p = rs.pending(s)
    assert (
        isinstance(p, Over) and "Bob has only 3 cards left to fight with, fewer than a hand of 4" in p.outcome.summary
    )


def test_the_end_is_checked_after_the_winner_has_placed_the_captures():
    s = battle_game(nations=("rome", "carthage"), hands={"Bob": ("weakling", "leader", "runner")})
    s = with_state_player(s, "Bob", deck=(), discard=())
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.weakling"))
    s = play(s, Yielded(player="Bob"))
    # Bob has 2 cards left, but the game ends only once Alice has chosen where his Weakling goes.
    assert rs.pending(s) == Decision("Alice", "place the captured cards (discard pile or under the city)")
    s = play(s, CapturesPlaced(player="Alice", under_city=("carthage.weakling",)))
    # Then it is over, before Bob's discard (from version 5: tests/pergamemnon/test_end_and_undo.py).
    assert isinstance(rs.pending(s), Over) and rs.legal(s) == []
    assert scoring.game_over(s).startswith("Bob has only 2 cards")

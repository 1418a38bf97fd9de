"""Battle rules beyond the worked examples: results, captures, Flee, Secured points, refusals
(rulebook, 'A Batalha', 'O que acontece depois de uma batalha?', 'Habilidades Especiais')."""

from __future__ import annotations

from agon.core.engine import Chance, Decision
from agon.core.games.pergamemnon.state import player
from agon.events.pergamemnon import (
    Attacked,
    CapturesPlaced,
    CardsDrawn,
    DefenceCommitted,
    HandDiscarded,
    Reinforced,
    Yielded,
)
from tests.pergamemnon.helpers import (
    battle_game as game,
)
from tests.pergamemnon.helpers import (
    play,
    refill_all,
    refused,
    rs,
    with_state_player,
)


def test_attacker_wins_captures_and_plays_again():
    s = game(hands={"Bob": ("weakling", "leader", "runner")})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.weakling"))
    # Helmet 1 against sword 9; no hand card can reach 9: Bob can only yield.
    assert rs.legal(s) == [Yielded(player="Bob")]
    s = play(s, Yielded(player="Bob"))
    assert s.battle.result == "attacker"
    assert not player(s, "Bob").active and player(s, "Alice").active and player(s, "Carol").active
    assert "rome.champion" in player(s, "Alice").discard
    assert rs.pending(s) == Decision("Alice", "place the captured cards (discard pile or under the city)")
    s = play(s, CapturesPlaced(player="Alice", under_city=("carthage.weakling",)))
    assert player(s, "Alice").under == ("carthage.weakling",)
    # The defender may discard any number of hand cards, then both draw back to 3.
    s = play(s, HandDiscarded(player="Bob", cards=("carthage.runner",)))
    assert "carthage.runner" in player(s, "Bob").discard
    assert rs.pending(s).label == "Alice draws"
    s = refill_all(s)
    assert len(player(s, "Alice").hand) == 3 and len(player(s, "Bob").hand) == 3
    assert rs.pending(s).player == "Alice"
    # No charisma card for anyone on an attacker's win.
    assert player(s, "Alice").charisma == 5 and player(s, "Bob").charisma == 1


def test_tie_flips_the_attacker_gives_the_defender_charisma_and_the_turn():
    s = game()
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.champion"))
    assert s.battle.result == "tie"
    assert not player(s, "Alice").active and player(s, "Bob").active
    assert "rome.champion" in player(s, "Alice").discard and "carthage.champion" in player(s, "Bob").discard
    assert player(s, "Bob").charisma == 2
    s = refill_all(s)
    assert rs.pending(s).player == "Bob"


def test_defender_wins_captures_gets_charisma_and_becomes_the_attacker():
    s = game(hands={"Alice": ("weakling", "leader", "runner")})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.weakling"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.champion"))
    assert rs.pending(s).player == "Alice"  # the counter-strike, sword 9 against helmet 1
    s = play(s, Yielded(player="Alice"))
    assert s.battle.result == "defender"
    assert not player(s, "Alice").active
    assert player(s, "Bob").charisma == 2
    s = play(s, CapturesPlaced(player="Bob"))
    assert "rome.weakling" in player(s, "Bob").discard
    assert rs.pending(s).player == "Alice"  # the loser may discard
    s = refill_all(play(s, HandDiscarded(player="Alice")))
    assert rs.pending(s) == Decision("Bob", "recruit a creature or attack")


def test_an_inactive_nation_cannot_be_attacked():
    s = with_state_player(game(), "Bob", active=False)
    rule = refused(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    assert "Bob's nation card is inactive" in rule and "Atacar outro jogador" in rule
    assert all(e.defender != "Bob" for e in rs.legal(s) if isinstance(e, Attacked))


def test_two_players_do_not_use_nation_cards():
    s = game(nations=("rome", "carthage"))
    s = with_state_player(s, "Bob", active=False)  # ignored with 2 players
    play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))


def test_cards_not_in_hand_and_wrong_weapons_are_refused():
    s = game()
    assert "not in your hand" in refused(
        s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.veteran")
    )
    assert "strikes with a sword" in refused(
        s, Attacked(player="Alice", defender="Bob", weapon="bow", card="rome.champion")
    )
    assert "another player" in refused(
        s, Attacked(player="Alice", defender="Alice", weapon="sword", card="rome.champion")
    )
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.weakling"))
    assert "not in Bob's hand" in refused(s, DefenceCommitted(player="Bob", card="carthage.veteran"))
    assert "the defender" in refused(s, DefenceCommitted(player="Carol", card="greece.weakling"))
    assert "first lay a defending card" in refused(s, Yielded(player="Bob"))


def test_a_reinforcement_is_refused_when_the_last_card_already_suffices():
    s = game(hands={"Alice": ("weakling", "leader", "champion")})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.weakling"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.champion"))
    # Bob's helmet 9 repelled sword 1 on its own; he may not add a card to that defence.
    rule = refused(s, Reinforced(player="Bob", card="carthage.weakling"))
    assert "already repelled sword 1" in rule and "only be added when the last card" in rule
    assert "not in Alice's hand" in refused(s, Reinforced(player="Alice", card="rome.veteran"))


def test_a_reinforcement_that_falls_short_loses_the_battle():
    s = game(hands={"Bob": ("weakling", "leader", "runner")})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.weakling"))
    s = play(s, Reinforced(player="Bob", card="carthage.runner"))
    assert s.battle.strikes[-1].result == "broken" and s.battle.result == "attacker"
    # Both defending cards were used: the runner flees (leaves the game), the weakling is captured.
    assert "carthage.runner" in s.box and s.aftermath.captured == ("carthage.weakling",)


def test_a_side_with_an_empty_hand_cannot_repel():
    s = game(nations=("rome", "carthage"))
    s = with_state_player(s, "Bob", hand=("carthage.weakling",))
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.weakling"))
    assert s.battle.result == "attacker" and s.battle.strikes[-1].result == "broken"


def test_flee_cards_leave_the_game_and_secured_cards_go_under_their_own_city():
    s = game(hands={"Bob": ("runner", "veteran", "leader")})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.runner"))
    s = play(s, Reinforced(player="Bob", card="carthage.veteran"))
    assert s.battle.result == "attacker"
    assert "carthage.runner" in s.box
    assert player(s, "Bob").secured == ("carthage.veteran",)
    assert s.aftermath.captured == ()
    # Nothing to place: the loser's discard decision comes next.
    assert rs.pending(s).player == "Bob"


def test_egypt_captures_flee_cards_into_its_discard_pile():
    s = game(nations=("egypt", "carthage", "greece"), hands={"Bob": ("runner", "weakling", "leader")})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="egypt.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.runner"))
    s = play(s, Yielded(player="Bob"))
    assert "carthage.runner" in player(s, "Alice").discard and "carthage.runner" not in s.box


def test_a_captured_card_without_charisma_cannot_go_under_the_city():
    s = game(hands={"Bob": ("shieldbearer", "weakling", "leader")})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.weakling"))
    s = play(s, Reinforced(player="Bob", card="carthage.shieldbearer"))
    assert s.aftermath.captured == ("carthage.weakling", "carthage.shieldbearer")
    rule = refused(s, CapturesPlaced(player="Alice", under_city=("carthage.shieldbearer",)))
    assert "no charisma value" in rule
    assert "Alice won the battle" in refused(s, CapturesPlaced(player="Bob"))


def test_captures_with_no_charisma_go_to_the_discard_pile_without_a_decision():
    s = game(hands={"Bob": ("shieldbearer", "weakling", "leader")})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.shieldbearer"))
    s = play(s, Yielded(player="Bob"))
    assert "carthage.shieldbearer" in player(s, "Alice").discard
    assert rs.pending(s).player == "Bob" and s.phase == "discard"


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out():
    s = game(nations=("rome", "carthage"))
    s = with_state_player(s, "Alice", deck=("rome.veteran",), discard=("rome.recruit.1", "rome.recruit.2"))
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.champion"))
    assert s.battle.result == "tie"
    # Alice needs 1 card: her deck still has one.
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.items == ("rome.veteran",) and p.count == 1
    s = play(s, p.build(p.items))
    s = refill_all(s)
    # Next battle: Alice needs a card again, her deck is empty, the discard pile becomes the new deck.
    s = play(s, Attacked(player="Bob", defender="Alice", weapon="sword", card=player(s, "Bob").hand[0]))
    s = play(s, DefenceCommitted(player="Alice", card="rome.veteran"))
    while s.phase == "battle":
        s = play(s, rs.legal(s)[-1])
    while not (isinstance(rs.pending(s), Chance) and rs.pending(s).label.startswith("Alice")):
        p = rs.pending(s)
        s = play(s, p.build(p.items[: p.count]) if isinstance(p, Chance) else rs.legal(s)[0])
    p = rs.pending(s)
    alice = player(s, "Alice")
    assert p.label == "Alice draws from the reshuffled discard pile" and alice.deck == ()
    assert set(p.items) == set(alice.discard)
    wrong = CardsDrawn(player="Alice", cards=p.items[: p.count], reshuffled=False)
    assert "deck is empty, so the discard pile is reshuffled" in refused(s, wrong)
    s = play(s, p.build(p.items[: p.count]))
    alice = player(s, "Alice")
    assert alice.discard == () and len(alice.hand) == 3


def test_an_impossible_draw_is_refused():
    s = game()
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.champion"))
    p = rs.pending(s)
    assert "must be one of" in refused(s, CardsDrawn(player="Alice", cards=("carthage.leader",)))
    assert "Alice draws now" in refused(s, CardsDrawn(player="Bob", cards=p.items[:1]))
    assert "1 card is drawn, not 2" in refused(s, CardsDrawn(player="Alice", cards=p.items[:2]))


def test_a_defender_repelling_a_later_strike_alone_counter_strikes_with_its_last_card():
    s = game(hands={"Alice": ("weakling", "champion", "leader")})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.weakling"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.champion"))
    s = play(s, Reinforced(player="Alice", card="rome.champion"))
    chain = [(st.striker, st.card, st.defence_card, st.result) for st in s.battle.strikes]
    assert chain == [
        ("Alice", "rome.weakling", "carthage.champion", "repelled"),
        ("Bob", "carthage.champion", "rome.weakling", "reinforced"),
        # The attacker's reinforcement strikes; the defender's last card repels it alone...
        ("Alice", "rome.champion", "carthage.champion", "repelled"),
        # ...so the defender counter-strikes again with that card, and the attacker's last card repels it alone.
        ("Bob", "carthage.champion", "rome.champion", "repelled"),
    ]
    assert s.battle.result == "tie"

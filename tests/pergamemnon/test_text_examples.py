"""Worked examples and stated consequences of the rule texts that were not yet tests, each played through the rules
(../shared/rules/pergamemnon-rulebook.pt.txt; the line numbers cite that file)."""

from __future__ import annotations

from agon.core.engine import Decision, Over
from agon.core.games.pergamemnon.state import player
from agon.events.pergamemnon import (
    Attacked,
    CapturesPlaced,
    CreatureRecruited,
    DefenceCommitted,
    HandDiscarded,
    Reinforced,
    Yielded,
)
from tests.pergamemnon.helpers import battle_game, play, refill_all, replace, rs, setup, with_state_player
from tests.pergamemnon.test_battle_examples import ALICE, BOB, example_cards

FOUR_CREATURES = ("creature.dryad", "creature.satyr", "creature.harpy", "creature.siren")


def four_player_game(creatures):
    s = setup(["greece", "rome", "egypt", "carthage"], {"Alice": ("greece.agamemnon", "greece.hercules",
                                                                 "greece.guard")}, starter="Alice")
    return replace(with_state_player(s, "Alice", charisma=9), creatures=creatures, creature_deck=0, creature_pool=())


def test_example_four_players_four_creatures_one_recruited_ends_the_game():
    # 'Final do Jogo' (lines 507-508): "num jogo de 4 jogadores quando só existem 4 criaturas e uma delas é
    # recrutada" the game ends at once.
    s = four_player_game(FOUR_CREATURES)
    assert isinstance(rs.pending(s), Decision)
    s = play(s, CreatureRecruited(player="Alice", creature="creature.dryad", hand_card="greece.agamemnon",
                                  charisma_cards=1))
    p = rs.pending(s)
    assert isinstance(p, Over) and "only 3 creatures lie face up for 4 players" in p.outcome.summary


def test_five_creatures_for_four_players_one_recruited_plays_on():
    s = four_player_game((*FOUR_CREATURES, "creature.pegasus"))
    s = play(s, CreatureRecruited(player="Alice", creature="creature.dryad", hand_card="greece.agamemnon",
                                  charisma_cards=1))
    s = refill_all(s)
    assert len(s.creatures) == 4 and rs.pending(s) == Decision("Bob", "recruit a creature or attack")


def three_player_example():
    return setup(["rome", "carthage", "greece"], {"Alice": ALICE, "Bob": BOB}, cards=example_cards(), starter="Alice")


def test_example_tie_with_nation_cards_the_attacker_flips_and_the_defender_plays():
    # First battle example (lines 326-392): spear 5 against armour 5, bow 5 against shield 6: a tie; "o atacante
    # vira a sua Carta de Nação para o lado inativo, o defensor recebe 1 Carta de Carisma e joga o seu turno".
    s = three_player_example()
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="spear", card="rome.spearman"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.archer"))
    assert s.battle.result == "tie"
    assert [p.active for p in s.players] == [False, True, True]
    assert player(s, "Bob").charisma == 2
    s = refill_all(s)
    assert rs.pending(s) == Decision("Bob", "recruit a creature or attack")
    # Alice's nation card is inactive: she cannot be attacked.
    assert {e.defender for e in rs.legal(s) if isinstance(e, Attacked)} == {"Carol"}


def test_example_attacker_wins_with_nation_cards_the_defender_flips_and_the_attacker_plays_again():
    # Second battle example (lines 422-485): "o defensor vira a sua Carta de Nação. O atacante joga um novo turno."
    s = three_player_example()
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="spear", card="rome.legionary"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.hoplite"))
    s = play(s, Reinforced(player="Bob", card="carthage.archer"))
    s = play(s, Reinforced(player="Alice", card="rome.gladiator"))
    s = play(s, Yielded(player="Bob"))
    assert s.battle.result == "attacker"
    assert [p.active for p in s.players] == [True, False, True]
    s = refill_all(play(play(s, CapturesPlaced(player="Alice")), HandDiscarded(player="Bob")))
    assert rs.pending(s) == Decision("Alice", "recruit a creature or attack")
    assert {e.defender for e in rs.legal(s) if isinstance(e, Attacked)} == {"Carol"}


def test_nefertiti_captured_can_end_the_game_when_egypt_keeps_fewer_than_3_cards():
    # 'Nações', Egípcios (lines 547-549): the Flee cards leave the game, "Isto pode fazer com que o jogo termine se
    # o Egipto tiver menos de 3 cartas disponíveis."
    s = battle_game(nations=("rome", "egypt"), hands={"Bob": ("leader", "runner", "weakling")})
    s = with_state_player(s, "Bob", deck=(), discard=("egypt.recruit.1",))
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="egypt.leader"))
    s = play(s, Yielded(player="Bob"))
    s = play(s, CapturesPlaced(player="Alice"))  # ended: Bob is not asked to discard ('Final do Jogo')
    bob = player(s, "Bob")
    assert bob.leader_captured and "egypt.runner" in s.box
    p = rs.pending(s)
    assert isinstance(p, Over) and "Bob has only 2 cards left to fight with" in p.outcome.summary

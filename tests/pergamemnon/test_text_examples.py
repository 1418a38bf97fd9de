"""Worked examples and stated consequences of the rule texts that were not yet tests, each played through the rules
(../shared/rules/pergamemnon-rulebook.pt.txt; the line numbers cite that file)."""

from __future__ import annotations

from agon.core.engine import Decision, Over
from agon.core.games.pergamemnon.state import card, player
from agon.events.pergamemnon import (
    Attacked,
    CapturesPlaced,
    CreatureRecruited,
    DefenceCommitted,
    HandDiscarded,
    NationsDealt,
    Reinforced,
    Yielded,
)
from tests.pergamemnon.helpers import (
    battle_game,
    created,
    draw_first,
    play,
    refill_all,
    replace,
    rs,
    setup,
    with_state_player,
)
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


def test_example_four_players_sixteen_creatures_eight_face_up():
    # 'Preparação' (lines 166-172): "contam-se 4 vezes mais cartas do que o número de jogadores (exemplo: 16 num jogo
    # de 4 jogadores)"; "tiram-se cartas em quantidade igual ao dobro do número de jogadores, as quais se colocam de
    # face para cima (exemplo: 8 num jogo de 4 jogadores)"; the other 8 "são removidas de jogo sem serem vistas".
    s = play(rs.initial_state(created(4)), NationsDealt(nations=("greece", "rome", "egypt", "carthage")))
    s = draw_first(s)
    assert len(s.creatures) == 8 and s.creature_deck == 8  # 16 in the creature deck, 8 of them face up
    assert len(s.creature_pool) == 24 - 8  # drawn from the unseen ones: the same luck as counting 16 out first


def test_example_seven_cards_with_points_give_the_greeks_3_5_points_more():
    # 'Nações', Gregos (lines 555-557): "Se Agamemnon sobreviver até final do jogo, cada carta que valha pontos vale
    # mais meio ponto (exemplo: 7 cartas com pontos dão ao jogador mais 3,5 pontos)". Alice's recruit leaves one
    # creature face up for two players, which ends the game ('Final do Jogo') with 7 of her cards worth points.
    s = setup(["greece", "rome"], {"Alice": ("greece.agamemnon", "greece.bowman.1", "greece.hercules")},
              creatures=FOUR_CREATURES, starter="Alice")
    s = replace(s, creatures=FOUR_CREATURES[:2], creature_deck=0, creature_pool=())
    deck = ("greece.guard", "greece.chariot.1", "greece.chariot.2", "greece.spearman.1", "greece.bowman.2")
    s = with_state_player(s, "Alice", deck=deck, discard=())
    s = play(s, CreatureRecruited(player="Alice", creature="creature.dryad", hand_card="greece.agamemnon",
                                  charisma_cards=1))
    p = rs.pending(s)
    assert isinstance(p, Over)
    alice = player(s, "Alice")
    cards = [card(s, c) for c in alice.hand + alice.deck + alice.discard]
    assert sum(c.points > 0 for c in cards) == 7  # the Bowmen are worth no points
    printed = sum(c.points for c in cards)
    assert p.outcome.scores["Alice"] == printed + 3.5

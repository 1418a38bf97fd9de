"""Exceptions and edge cases of the rule texts that a real table meets, each played through the public functions
(initial_state / apply / legal / pending / view / outcome) from a given position. Line numbers cite
../shared/rules/pergamemnon-rulebook.pt.txt; the player aid is pergamemnon-player-aid.fr.txt, the errata
pergamemnon-errata-facts.md."""

from __future__ import annotations

from agon.core.engine import Chance, Decision, Over
from agon.core.games.pergamemnon.state import player
from agon.events.pergamemnon import (
    Attacked,
    CapturesPlaced,
    CardsDrawn,
    CreatureRecruited,
    CreaturesRevealed,
    DefenceCommitted,
    HandDiscarded,
    Reinforced,
    Yielded,
)
from tests.pergamemnon.helpers import (
    battle_game,
    card_set,
    draw_first,
    filler,
    play,
    refill_all,
    replace,
    rs,
    setup,
    unit,
    with_state_player,
)


def attackable(s):
    return {e.defender for e in rs.legal(s) if isinstance(e, Attacked)}


# ---------------------------------------------------------------------------------------------------------------
# Nation cards ('O que acontece depois de uma batalha?', lines 328-342; player aid, 'Chacun retourne sa carte')


def test_an_attackers_win_that_leaves_only_its_nation_card_active_turns_every_card_active():
    """Rulebook lines 336-342: "No instante em que apenas uma Carta de Nação está ativa, todas as outras Cartas de
    Nação são viradas imediatamente para o lado ativo"; player aid: "Après une bataille, seule la carte nation de
    l'attaquant est active". Carol's card is already inactive; Alice beats Bob: all three turn active, and Alice,
    who plays a new turn, may attack Bob again as well as Carol."""
    s = with_state_player(battle_game(hands={"Bob": ("weakling", "leader", "runner")}), "Carol", active=False)
    assert attackable(s) == {"Bob"}
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.weakling"), Yielded(player="Bob"))
    assert s.battle.result == "attacker"
    assert [p.active for p in s.players] == [True, True, True]
    s = refill_all(play(s, CapturesPlaced(player="Alice"), HandDiscarded(player="Bob")))
    assert rs.pending(s) == Decision("Alice", "recruit a creature or attack")
    assert attackable(s) == {"Bob", "Carol"}
    assert rs.view(s, "Carol")["players"][2]["nation_card"] == "active"


def test_a_tie_that_leaves_only_the_defenders_nation_card_active_turns_every_card_active():
    """Rulebook lines 311-313 and 336-342: on a tie the attacker's card turns inactive and the defender plays; with
    Carol's card already inactive only Bob's would be left, so all turn active and Bob may attack Alice."""
    s = with_state_player(battle_game(), "Carol", active=False)
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.champion"))
    assert s.battle.result == "tie"
    assert [p.active for p in s.players] == [True, True, True]
    s = refill_all(s)
    assert rs.pending(s) == Decision("Bob", "recruit a creature or attack")
    assert attackable(s) == {"Alice", "Carol"}


# ---------------------------------------------------------------------------------------------------------------
# Hands drawn back after a recruit and a battle (line 298, lines 319-325; errata: "Draw back up to 3 hand cards
# (4 for Persia while Xerxes is free) after every battle and after every recruit")


def test_persia_draws_4_new_cards_after_a_recruit():
    s = setup(["persia", "rome"], {"Alice": ("persia.xerxes", "persia.guard", "persia.bowman.1", "persia.bowman.2")},
              creatures=("creature.dryad", "creature.satyr", "creature.harpy", "creature.siren"), starter="Alice")
    s = play(s, CreatureRecruited(player="Alice", creature="creature.dryad", hand_card="persia.xerxes",
                                  charisma_cards=1))
    s = play(s, CreaturesRevealed(cards=("creature.pegasus",)))
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.label == "Alice draws" and p.count == 4
    s = draw_first(s)
    assert len(player(s, "Alice").hand) == 4


def test_persia_draws_back_to_4_after_a_battle_and_to_3_once_xerxes_is_captured():
    s = battle_game(nations=("persia", "rome"))
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="persia.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="rome.champion"))  # sword 9 against helmet 9, and back: a tie
    assert s.battle.result == "tie"
    p = rs.pending(s)
    assert p.label == "Alice draws" and p.count == 1  # 3 left of 4
    s = refill_all(s)
    assert len(player(s, "Alice").hand) == 4 and len(player(s, "Bob").hand) == 3
    # The same battle once Xerxes is captured: Persia draws back to 3 only.
    s = battle_game(nations=("persia", "rome"))
    alice = player(s, "Alice")
    s = with_state_player(s, "Alice", leader_captured=True, hand=alice.hand[:3], deck=alice.deck + alice.hand[3:])
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="persia.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="rome.champion"))
    assert s.battle.result == "tie"
    p = rs.pending(s)
    assert p.label == "Alice draws" and p.count == 1  # 2 left of 3
    s = refill_all(s)
    assert len(player(s, "Alice").hand) == 3


def test_a_recruit_draws_what_the_deck_holds_then_the_rest_from_the_reshuffled_discard_pile():
    """Line 298: "O jogador tira 3 novas cartas do seu baralho para a sua mão. Se o seu baralho se esgotar, a sua
    Pilha de Descarte é baralhada, tornando-se então no novo baralho." The recruited creature and the discarded hand
    are in the discard pile by then, so they can come back at once."""
    hand = ("greece.agamemnon", "greece.hercules", "greece.guard")
    s = setup(["greece", "rome"], {"Alice": hand},
              creatures=("creature.centaur", "creature.dryad", "creature.satyr", "creature.harpy"), starter="Alice")
    s = with_state_player(s, "Alice", deck=("greece.chariot.1",), discard=("greece.bowman.1",))
    s = play(s, CreatureRecruited(player="Alice", creature="creature.centaur", hand_card="greece.agamemnon",
                                  charisma_cards=1))
    s = play(s, CreaturesRevealed(cards=("creature.siren",)))
    p = rs.pending(s)
    assert p.label == "Alice draws" and p.items == ("greece.chariot.1",) and p.count == 1
    s = play(s, p.build(p.items))
    p = rs.pending(s)
    assert p.label == "Alice draws from the reshuffled discard pile" and p.count == 2
    assert set(p.items) == {"greece.bowman.1", "creature.centaur", *hand}
    s = play(s, CardsDrawn(player="Alice", cards=("creature.centaur", "greece.hercules"), reshuffled=True))
    alice = player(s, "Alice")
    assert set(alice.hand) == {"greece.chariot.1", "creature.centaur", "greece.hercules"}
    assert set(alice.deck) == {"greece.bowman.1", "greece.agamemnon", "greece.guard"} and alice.discard == ()
    assert rs.pending(s) == Decision("Bob", "recruit a creature or attack")


# ---------------------------------------------------------------------------------------------------------------
# The creature deck ('Preparação', lines 166-172; 'Recrutar uma criatura', lines 296-297; 'Final do Jogo')


def test_after_4_x_players_creatures_no_new_creature_comes_and_the_game_ends_below_the_player_count():
    """Lines 166-169: the creature deck holds 4 x players creatures, the rest leave the game unseen; lines 296-297:
    a new creature is turned up after a recruit "se disponível"; line 507: the game ends at once when fewer
    creatures lie face up than there are players. With 2 players: 8 creatures, 4 face up."""
    s = setup(["rome", "egypt"], starter="Alice")
    assert len(s.creatures) == 4
    for name in ("Alice", "Bob"):
        s = with_state_player(s, name, charisma=20)
    seen = set(s.creatures)
    face_up = []
    while isinstance(rs.pending(s), Decision):
        s = play(s, next(e for e in rs.legal(s) if isinstance(e, CreatureRecruited)))
        while isinstance(p := rs.pending(s), Chance):
            s = draw_first(s)
            if p.label == "creatures revealed":
                seen |= set(s.creatures)
        face_up.append(len(s.creatures))
    # Recruits 1 to 4 are each followed by a new creature; the deck is then spent: 3, 2, then 1 face up ends it.
    assert face_up == [4, 4, 4, 4, 3, 2, 1]
    assert len(seen) == 8 and len(s.creature_pool) == 16
    p = rs.pending(s)
    assert isinstance(p, Over) and "only 1 creature lies face up for 2 players" in p.outcome.summary


# ---------------------------------------------------------------------------------------------------------------
# The battle ('A Batalha', lines 347-498)


def test_a_reinforcement_is_optional_even_when_one_would_hold():
    """'Nota' (lines 496-498): "jogar uma Carta de Reforço é opcional, nunca obrigatório!" Bob's Champion would
    hold the sword 9 (helmet 1 + 9), but Bob may yield instead, and then loses the battle."""
    s = battle_game(hands={"Bob": ("weakling", "champion", "leader")})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.weakling"))
    assert rs.legal(s) == [Reinforced(player="Bob", card="carthage.champion"), Yielded(player="Bob")]
    s = play(s, Yielded(player="Bob"))
    assert s.battle.result == "attacker" and s.aftermath.captured == ("carthage.weakling",)
    assert "carthage.champion" in player(s, "Bob").hand


def chain_cards():
    rome = [
        unit("Caesar", "sword", 2, 2, 2, 2, leader=True, charisma=0),
        unit("Scout", "sword", 3, 1, 1, 1),
        unit("Soldier", "sword", 3, 2, 2, 2, count=2),
        *filler(7),
    ]
    carthage = [
        unit("Hannibal", "sword", 2, 2, 2, 2, leader=True, charisma=0),
        unit("Soldier", "sword", 3, 2, 2, 2, count=3),
        *filler(7),
    ]
    return card_set({"rome": rome, "carthage": carthage})


def test_strikes_go_on_until_a_side_has_no_hand_card_left():
    """Lines 486-495: "a defesa de contra-ataques segue as mesmas regras do ataque inicial"; "Ataques e
    contra-ataques podem continuar desta forma até que os jogadores não tenham mais cartas de mão para jogar,
    apesar de uma carta de reforço só apoiar a última carta jogada (na defesa podem ser adicionadas 2 cartas no
    máximo)". Read per strike (RULES.md, 'The battle chain'): each side reinforces twice here, every defence being
    2 cards, until the defender's hand is empty and its last card falls short."""
    alice = ("rome.scout", "rome.soldier.1", "rome.soldier.2")
    bob = ("carthage.soldier.1", "carthage.soldier.2", "carthage.soldier.3")
    s = setup(["rome", "carthage"], {"Alice": alice, "Bob": bob}, cards=chain_cards(), starter="Alice")
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.scout"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.soldier.1"))
    s = play(s, Reinforced(player="Bob", card="carthage.soldier.2"))
    s = play(s, Reinforced(player="Alice", card="rome.soldier.1"))
    s = play(s, Reinforced(player="Bob", card="carthage.soldier.3"))
    s = play(s, Reinforced(player="Alice", card="rome.soldier.2"))
    b = s.battle
    rows = [(st.striker, st.card, st.defence_card, st.reinforcement, st.total, st.result) for st in b.strikes]
    assert rows == [
        ("Alice", "rome.scout", "carthage.soldier.1", "carthage.soldier.2", 4, "reinforced"),
        ("Bob", "carthage.soldier.2", "rome.scout", "rome.soldier.1", 3, "reinforced"),
        ("Alice", "rome.soldier.1", "carthage.soldier.2", "carthage.soldier.3", 4, "reinforced"),
        ("Bob", "carthage.soldier.3", "rome.soldier.1", "rome.soldier.2", 4, "reinforced"),
        ("Alice", "rome.soldier.2", "carthage.soldier.3", "", 2, "broken"),
    ]
    assert b.result == "attacker" and player(s, "Bob").hand == ()
    assert set(s.aftermath.captured) == set(bob)


def test_a_flee_card_that_is_not_defeated_stays_with_its_player():
    """'Habilidades Especiais' (lines 519-520): Flee cards leave the game "quando são derrotadas". On a tie every
    card goes to its owner's discard pile (lines 311-312), and the winner's own cards too (line 499)."""
    s = battle_game(hands={"Alice": ("runner", "champion", "leader")})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.runner"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.weakling"))  # sword 1 against helmet 1, and back
    assert s.battle.result == "tie"
    assert "rome.runner" in player(s, "Alice").discard and "rome.runner" not in s.box
    s = battle_game(hands={"Alice": ("runner", "champion", "leader"), "Bob": ("shieldbearer", "weakling", "leader")})
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.runner"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.shieldbearer"))  # helmet 1 holds sword 1
    s = play(s, Reinforced(player="Alice", card="rome.champion"))  # shield 1 + 9 holds bow 3
    s = play(s, Yielded(player="Bob"))  # sword 9 against helmet 1
    assert s.battle.result == "attacker"
    assert {"rome.runner", "rome.champion"} <= set(player(s, "Alice").discard) and "rome.runner" not in s.box


def test_the_defender_gets_no_charisma_card_when_none_is_left():
    """Lines 312-315: the defender "recebe uma Carta de Carisma" on a tie or a win; with the 21 spent there is none
    to give (RULES.md, 'After a battle')."""
    s = replace(battle_game(), supply=0)
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.champion"))
    assert s.battle.result == "tie" and player(s, "Bob").charisma == 1 and s.supply == 0


# ---------------------------------------------------------------------------------------------------------------
# Leaders and nations ('Líderes Capturados', lines 524-528; 'Nações', lines 529-587)


def test_egypt_no_longer_captures_flee_cards_once_nefertiti_is_captured():
    """Lines 525-528: a captured leader flips the city card, "o jogador não recupera as suas vantagens"; Egypt's
    advantage (lines 543-545) is gone, so a defeated Flee card leaves the game as for anyone (lines 519-520)."""
    hands = {"Bob": ("runner", "weakling", "leader")}
    s = battle_game(nations=("egypt", "carthage"), hands=hands)
    s = with_state_player(s, "Alice", leader_captured=True)
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="egypt.champion"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.runner"), Yielded(player="Bob"))
    assert s.battle.result == "attacker"
    assert "carthage.runner" in s.box and "carthage.runner" not in player(s, "Alice").discard


def test_once_xerxes_is_captured_persia_plays_on_with_3_cards_and_the_game_ends_below_3():
    """Lines 580-585: Persia plays with 4 hand cards and the game may end when it has fewer than 4; once Xerxes is
    captured it plays "apenas com 3 Cartas de Mão, tal como os outros jogadores", so the end comes below 3
    (lines 509-510)."""
    s = setup(["rome", "persia"], starter="Alice")
    bob = player(s, "Bob")
    s = with_state_player(s, "Bob", hand=bob.hand[:3], deck=(), discard=(), leader_captured=True)
    assert rs.pending(s) == Decision("Alice", "recruit a creature or attack")
    s = with_state_player(s, "Bob", hand=bob.hand[:2])
    p = rs.pending(s)
    assert isinstance(p, Over)
    assert "Bob has only 2 cards left to fight with, fewer than a hand of 3" in p.outcome.summary


# ---------------------------------------------------------------------------------------------------------------
# The winner ('Vencedor', lines 511-517; player aid: "Egal : le joueur avec la créature avec le plus de points")


def test_a_tie_on_points_goes_to_the_tied_player_who_holds_a_creature():
    s = setup(["rome", "egypt", "greece"], starter="Alice")
    s = with_state_player(s, "Alice", hand=(), deck=("rome.caesar", "rome.centurion"), discard=())  # 3 + 2
    s = with_state_player(s, "Bob", hand=(), deck=("creature.orthos", "egypt.nefertiti"), discard=())  # 2 + 3
    s = with_state_player(s, "Carol", hand=(), deck=(), discard=())
    s = replace(s, creatures=s.creatures[:2])
    p = rs.pending(s)
    assert isinstance(p, Over) and p.outcome.scores["Alice"] == p.outcome.scores["Bob"] == 5.0
    assert p.outcome.winners == ("Bob",) and "most powerful creature" in p.outcome.summary

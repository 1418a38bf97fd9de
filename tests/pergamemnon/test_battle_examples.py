"""The rulebook's two worked battle examples ('A Batalha'), played through the rules as written in RULES.md."""

from __future__ import annotations

from agon.core.engine import Decision
from agon.core.games.pergamemnon.state import card, player
from agon.events.pergamemnon import (
    Attacked,
    CapturesPlaced,
    DefenceCommitted,
    HandDiscarded,
    Reinforced,
    Yielded,
)
from tests.pergamemnon.helpers import (
    card_set,
    filler,
    play,
    refill_all,
    refused,
    replace,
    rs,
    setup,
    unit,
    with_state_player,
)


def example_cards():
    rome = [
        unit("Caesar", "sword", 7, 5, 5, 5, leader=True, charisma=0),
        unit("Spearman", "spear", 5, 2, 4, 6),  # example 1: spear 5, shield 6
        unit("Legionary", "spear", 5, 2, 4, 3),  # example 2: spear 5, shield 3
        unit("Gladiator", "sword", 9, 3, 3, 4),  # example 2: the reinforcement, shield 4 (3 + 4 = 7; RULES.md), sword 9
        *filler(4),
    ]
    carthage = [
        unit("Hannibal", "spear", 7, 5, 5, 3, leader=True, charisma=0),
        unit("Archer", "bow", 5, 7, 5, 4),  # armour 5, bow 5, helmet 7
        unit("Hoplite", "spear", 4, 3, 3, 3),  # example 2: armour 3
        unit("Peltast", "sword", 2, 1, 1, 1),
        *filler(4),
    ]
    return card_set({"rome": rome, "carthage": carthage})


ALICE = ("rome.spearman", "rome.legionary", "rome.gladiator")
BOB = ("carthage.archer", "carthage.hoplite", "carthage.peltast")


def start():
    return setup(["rome", "carthage"], {"Alice": ALICE, "Bob": BOB}, cards=example_cards(), starter="Alice")


def test_example_spear_5_against_armour_5_ends_in_a_tie():
    # The attacker plays the spear 5; the defender the armour 5 and repels; the defender counter-strikes with the
    # bow 5 of its first card; the attacker's first card has shield 6 and repels: the battle ends in a tie.
    s = start()
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="spear", card="rome.spearman"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.archer"))
    b = s.battle
    assert b.result == "tie"
    assert [(st.striker, st.weapon, st.value, st.defence, st.reinforcement, st.result) for st in b.strikes] == [
        ("Alice", "spear", 5, 5, "", "repelled"),
        ("Bob", "bow", 5, 6, "", "repelled"),
    ]
    # Tie: every card used goes to its owner's discard pile, the defender gets a charisma card and acts next.
    alice, bob = player(s, "Alice"), player(s, "Bob")
    assert "rome.spearman" in alice.discard and "carthage.archer" in bob.discard
    assert bob.charisma == 2 and alice.charisma == 5
    s = refill_all(s)
    assert rs.pending(s) == Decision("Bob", "recruit a creature or attack")


def test_after_a_tie_a_reinforcement_is_refused_by_the_tie_rule():
    # "a batalha termina num empate (neste caso não é permitido ao atacante jogar uma carta de reforço)"
    s = start()
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="spear", card="rome.spearman"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.archer"))
    assert s.battle.result == "tie" and s.phase == "refill"  # the draws after the battle are due
    rule = refused(s, Reinforced(player="Alice", card="rome.legionary"))
    assert "ended in a tie" in rule and "'A Batalha'" in rule and "não é permitido" in rule
    assert "battle 1 is over (a tie)" in refused(s, Yielded(player="Alice"))


def test_example_armour_3_reinforced_to_8_then_sword_9_wins_for_the_attacker():
    s = start()
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="spear", card="rome.legionary"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.hoplite"))
    # Armour 3 is not enough against spear 5: the defender may reinforce (armour 5: total 8) or yield.
    assert rs.pending(s).player == "Bob"
    assert Reinforced(player="Bob", card="carthage.archer") in rs.legal(s)
    s = play(s, Reinforced(player="Bob", card="carthage.archer"))
    # The counter-strike comes from the reinforcement's bow 5; the attacker's first card has only shield 3.
    assert rs.pending(s).player == "Alice"
    s = play(s, Reinforced(player="Alice", card="rome.gladiator"))
    # Shield 3 + 4 = 7 repels; now the attacker's second card strikes with sword 9 against the defender's last
    # card, helmet 7. The defender has no reinforcement that reaches 9.
    assert rs.legal(s) == [Yielded(player="Bob")]
    s = play(s, Yielded(player="Bob"))
    b = s.battle
    assert b.result == "attacker"
    rows = [
        (st.striker, st.weapon, st.value, st.defence, st.reinforcement_defence, st.total, st.result) for st in b.strikes
    ]
    assert rows == [
        ("Alice", "spear", 5, 3, 5, 8, "reinforced"),
        ("Bob", "bow", 5, 3, 4, 7, "reinforced"),
        ("Alice", "sword", 9, 7, 0, 7, "yielded"),
    ]
    # The attacker wins every card the defender used and places each in the discard pile or under the city.
    assert s.aftermath.captured == ("carthage.hoplite", "carthage.archer")
    s = play(s, CapturesPlaced(player="Alice", under_city=("carthage.hoplite",)))
    alice = player(s, "Alice")
    assert alice.under == ("carthage.hoplite",)
    assert {"carthage.archer", "rome.legionary", "rome.gladiator"} <= set(alice.discard)
    # The defender may discard hand cards, both draw back to 3, and the attacker plays a new turn.
    s = play(s, HandDiscarded(player="Bob", cards=()))
    s = refill_all(s)
    assert len(player(s, "Alice").hand) == 3 and len(player(s, "Bob").hand) == 3
    assert rs.pending(s) == Decision("Alice", "recruit a creature or attack")


# The examples' figures name the defender's card: the Sphinx (rulebook lines 345, 386 and 439), whose numbers stand
# beside it: bow 5, helmet 7, armour 5, shield 6. The text gives the same card armour 5 and bow 5 in the first
# example ("a carta com a armadura 5", "o contra-ataque com o arco 5 da sua primeira carta") and, as the second's
# reinforcement, armour 5, bow 5 and helmet 7 ("capacete 7 do defensor"). The bundled Sphinx is that card, so both
# examples play as written with it.

SPHINX = "creature.sphinx"


def with_the_bundled_sphinx(bob: tuple[str, ...]):
    """The examples' table, Bob holding the bundled Sphinx (a creature recruited earlier) beside ``bob``."""
    s = setup(["rome", "carthage"], {"Alice": ALICE, "Bob": BOB}, cards=example_cards(),
              creatures=("creature.centaur", "creature.minotaur", "creature.dryad", "creature.orthos"), starter="Alice")
    s = replace(s, creature_pool=tuple(c for c in s.creature_pool if c != SPHINX))
    return with_state_player(s, "Bob", hand=(SPHINX, *bob), deck=(*player(s, "Bob").deck, "carthage.archer"))


def test_the_bundled_sphinx_has_the_numbers_the_examples_give_it():
    sphinx = card(start(), SPHINX)
    assert (sphinx.weapon, sphinx.attack, sphinx.helmet, sphinx.armour, sphinx.shield) == ("bow", 5, 7, 5, 6)


def test_example_spear_5_against_the_sphinx_s_armour_5_ends_in_a_tie():
    s = with_the_bundled_sphinx(("carthage.hoplite", "carthage.peltast"))
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="spear", card="rome.spearman"))
    s = play(s, DefenceCommitted(player="Bob", card=SPHINX))
    assert [(st.striker, st.weapon, st.value, st.defence, st.result) for st in s.battle.strikes] == [
        ("Alice", "spear", 5, 5, "repelled"),  # armour 5 "defende"
        ("Bob", "bow", 5, 6, "repelled"),  # "o contra-ataque com o arco 5"; "escudo 6 na sua primeira carta"
    ]
    assert s.battle.result == "tie"  # "A batalha termina imediatamente com um empate"
    assert SPHINX in player(s, "Bob").discard and player(s, "Bob").charisma == 2
    assert rs.pending(refill_all(s)) == Decision("Bob", "recruit a creature or attack")


def test_example_armour_3_reinforced_by_the_sphinx_to_8_then_sword_9_against_its_helmet_7_wins_for_the_attacker():
    s = with_the_bundled_sphinx(("carthage.hoplite", "carthage.peltast"))
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="spear", card="rome.legionary"))
    s = play(s, DefenceCommitted(player="Bob", card="carthage.hoplite"))
    s = play(s, Reinforced(player="Bob", card=SPHINX))  # "uma Carta de Reforço com armadura 5 ... total ... 8"
    s = play(s, Reinforced(player="Alice", card="rome.gladiator"))  # "o seu total de defesa é 7"
    assert rs.legal(s) == [Yielded(player="Bob")]  # "O defensor não tem mais Cartas de Reforço para jogar"
    s = play(s, Yielded(player="Bob"))
    assert [(st.striker, st.weapon, st.value, st.total, st.result) for st in s.battle.strikes] == [
        ("Alice", "spear", 5, 8, "reinforced"),
        ("Bob", "bow", 5, 7, "reinforced"),  # "Com esta Carta de Reforço o contra-ataque é iniciado: arco 5"
        ("Alice", "sword", 9, 7, "yielded"),  # "espada 9 contra o capacete 7 do defensor"
    ]
    assert s.battle.result == "attacker" and s.aftermath.captured == ("carthage.hoplite", SPHINX)
    s = play(s, CapturesPlaced(player="Alice", under_city=(SPHINX,)))  # "ou parcialmente debaixo da sua ... Cidade"
    assert player(s, "Alice").under == (SPHINX,)
    s = refill_all(play(s, HandDiscarded(player="Bob")))
    assert rs.pending(s) == Decision("Alice", "recruit a creature or attack")  # "O atacante joga um novo turno"

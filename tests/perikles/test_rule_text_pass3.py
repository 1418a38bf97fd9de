"""Third audit pass: points of the rule texts the earlier passes left without a test, each one a test.

Paragraphs of ../shared/rules/perikles-game-help.pt.txt are counted from its first ("Nós começamos...") as 1;
"facts" is ../shared/rules/perikles-data-facts.md.
"""

from __future__ import annotations

from agon.core.games.perikles import RULESET as RS
from agon.core.games.perikles.state import BATTLE, Commit, replace
from agon.events.perikles import BattleTileKept, BattleTilePlayed, ForcesCommitted, SlaveRevoltPlayed, SlaveRevoltStruck
from tests.perikles.helpers import at_battle, at_commit, keep_tiles, play, refused

# P1 leads Athens, P2 Sparta, P3 Corinth, P4 Megara; P4 holds the Slave Revolt.
LEADERS = {"athens": 0, "sparta": 1, "corinth": 2, "megara": 3}


def revolt_at_unattacked_pylos(version: int):
    """Sparta's leader defends Pylos as main with one hoplite and nobody attacks it; P4, the last to commit, plays
    the Slave Revolt there and the hoplite is struck. Then P4 spends the last tile and the battles begin."""
    s = at_commit(leaders=LEADERS, locations=("Pylos",), actor=3,
                  hands=((), (), (), ("any",)),
                  commits=(Commit("sparta-h2-1", 1, "Pylos", "defender", "main"),),
                  specials=("perikles", "plague", "alkibiades", "slave-revolt"))
    s = replace(s, version=version, used=(True, True, True, False))
    s = play(s, SlaveRevoltPlayed(player="P4", place="Pylos"), SlaveRevoltStruck(counter="sparta-h2-1"))
    before = s.cubes[s.data.city_index("sparta")][1]
    s = play(s, ForcesCommitted(player="P4", tile="any"))
    assert s.phase != BATTLE or s.battle.loc > 0  # the battle phase has passed Pylos
    return s, s.cubes[s.data.city_index("sparta")][1] - before


def test_an_unattacked_location_whose_defenders_the_slave_revolt_removed_gives_no_cubes():
    # Help, 15th paragraph: the main defender of a location that "tem defensores mas não é atacado" places 2
    # cubes in its city. With its one defending hoplite struck by the Slave Revolt, Pylos has no defender left.
    s, gained = revolt_at_unattacked_pylos(6)
    assert gained == 0 and s.held == ()


def test_a_game_recorded_before_version_6_keeps_the_2_cubes_of_a_defender_left_with_no_counter():
    s, gained = revolt_at_unattacked_pylos(5)
    assert gained == 2 and s.held[0].player == 1 and s.held[0].cubes == 2


def thessalians_after_a_revolt(version: int):
    """Sparta's leader (P2, holding Thessalian Allies) attacks Plataea as main with one hoplite beside Corinth's
    hoplite; the Slave Revolt struck the Spartan hoplite. The hoplite battle at Plataea is about to be rolled."""
    commits = (Commit("sparta-h2-1", 1, "Plataea", "attacker", "main"),
               Commit("corinth-h2-1", 2, "Plataea", "attacker", "ally"),
               Commit("athens-h1-1", 0, "Plataea", "defender", "main"))
    s = at_commit(leaders=LEADERS, locations=("Plataea",), commits=commits,
                  specials=("perikles", "thessalian-allies", "alkibiades", "slave-revolt"))
    s = replace(s, version=version, revolted=("sparta-h2-1",), used=(False, False, False, True))
    return keep_tiles(at_battle(s), until="P2")


def test_thessalian_allies_need_a_counter_of_the_holder_the_slave_revolt_has_not_struck():
    # Facts, 'Special tiles': the Slave Revolt removes the Spartan hoplite, and Thessalian Allies start the battle
    # with the token on the holder's side, for a holder who has counters there (RULES.md, 'Special tiles'); with
    # its one hoplite struck, Sparta's leader has none at Plataea and may only keep the tile.
    s = thessalians_after_a_revolt(6)
    assert RS.pending(s).player == "P2"
    assert "cannot serve" in refused(s, BattleTilePlayed(player="P2", tile="thessalian-allies"))
    assert [type(e) for e in RS.legal(s)] == [BattleTileKept]


def test_a_game_recorded_before_version_6_keeps_the_thessalians_of_a_holder_left_with_struck_counters():
    s = play(thessalians_after_a_revolt(5), BattleTilePlayed(player="P2", tile="thessalian-allies"))
    assert s.battle.token == 1 and s.used[1]

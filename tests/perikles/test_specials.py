"""The eight special tiles, each used once at the moment its text allows (data facts 'Special tiles')."""

from __future__ import annotations

import dataclasses

from agon.core.engine import Chance, Decision, describe_pending, option_text
from agon.core.games.perikles import RULESET as RS
from agon.core.games.perikles.battle import strengths
from agon.core.games.perikles.state import INFLUENCE, NOMINATE, Commit, replace
from agon.events.perikles import (
    AlkibiadesPlayed,
    BattleDiceRolled,
    BattleTileKept,
    BattleTilePlayed,
    CubeMove,
    ForcesCommitted,
    PeriklesPlayed,
    PlaguePlayed,
    SlaveRevoltPlayed,
    SlaveRevoltStruck,
)
from tests.perikles.helpers import at_battle, at_commit, fresh, keep_tiles, play, refused

LEADERS = {"athens": 0, "sparta": 1, "corinth": 2, "megara": 3}


def influence_turn(special: str):
    s = fresh(4)
    return replace(s, phase=INFLUENCE, turn=1, actor=0, specials=(special, "plague", "brasidas", "phormio"),
                   display=("athens-2",) * 10, deck=("sparta-2",) * 5)


def test_perikles_places_two_cubes_in_athens_once():
    s = influence_turn("perikles")
    s = play(s, PeriklesPlayed(player="P1"))
    assert s.cubes[0][0] == 4 and s.used[0]
    assert "no unused Perikles tile" in refused(s, PeriklesPlayed(player="P1"))
    assert RS.pending(s).player == "P1"


def test_influence_specials_are_played_only_in_the_influence_phase():
    s = replace(influence_turn("perikles"), phase=NOMINATE)
    assert "playing the Perikles tile belongs to the influence phase, not to the nominations" in refused(
        s, PeriklesPlayed(player="P1"))


def test_alkibiades_moves_any_two_cubes_to_other_cities():
    s = influence_turn("alkibiades")
    moves = (CubeMove(owner="P2", source="athens", target="sparta"), CubeMove(owner="P1", source="argos",
                                                                               target="megara"))
    s2 = play(s, AlkibiadesPlayed(player="P1", moves=moves))
    assert s2.cubes[0][1] == 1 and s2.cubes[1][1] == 3 and s2.cubes[2][0] == 1 and s2.cubes[5][0] == 3
    same = (moves[0], CubeMove(owner="P1", source="argos", target="argos"))
    assert "to another city" in refused(s, AlkibiadesPlayed(player="P1", moves=same))
    three = (CubeMove(owner="P2", source="athens", target="sparta"),) * 3
    assert "exactly 2" in refused(s, AlkibiadesPlayed(player="P1", moves=three))
    empty = replace(s, cubes=((2, 0, 2, 2),) + s.cubes[1:])
    assert "no cube left in athens" in refused(empty, AlkibiadesPlayed(player="P1", moves=moves))


def test_plague_halves_every_players_cubes_in_a_city_rounded_down():
    s = replace(influence_turn("plague"), cubes=((5, 3, 2, 1),) + fresh(4).cubes[1:])
    s = play(s, PlaguePlayed(player="P1", city="athens"))
    assert s.cubes[0] == (3, 2, 1, 1)


def revolt_position():
    commits = (Commit("sparta-h4-1", 1, "Plataea", "attacker", "main"),
               Commit("sparta-h4-2", 1, "Plataea", "attacker", "main"))
    return at_commit(leaders=LEADERS, commits=commits, actor=0,
                     specials=("slave-revolt", "plague", "alkibiades", "perikles"), locations=("Plataea", "Pylos"))


def test_slave_revolt_removes_a_spartan_hoplite_drawn_blind_on_ones_own_commitment_turn():
    s = revolt_position()
    assert "no Spartan counter stands" in refused(s, SlaveRevoltPlayed(player="P1", place="Pylos"))
    s = play(s, SlaveRevoltPlayed(player="P1", place="Plataea"))
    pending = RS.pending(s)
    assert isinstance(pending, Chance) and set(pending.items) == {"sparta-h4-1", "sparta-h4-2"}
    # the status every seat reads (listings, the server's game head) does not count the face-down hoplites there
    assert describe_pending(pending).endswith("at Plataea: draw 1 blind")
    # nor, at a table, does a lone hoplite get struck by itself: the recorder enters it as any draw
    assert not dataclasses.replace(pending, items=("sparta-h4-1",)).forced
    assert "not a Spartan hoplite" in refused(s, SlaveRevoltStruck(counter="athens-h1-1"))
    s = play(s, SlaveRevoltStruck(counter="sparta-h4-2"))
    assert s.revolted == ("sparta-h4-2",) and RS.pending(s).player == "P1"
    assert "no unused Slave Revolt tile" in refused(s, SlaveRevoltPlayed(player="P1", place="Plataea"))
    assert strengths(s, "Plataea", "H") == (4, 1)
    s = play(s, ForcesCommitted(player="P1", tile="any"))
    assert RS.pending(s).player == "P2"


def test_slave_revolt_is_only_for_the_commitment_turn_of_its_holder():
    s = replace(revolt_position(), actor=1)
    assert "Commitments (game help, 7th paragraph" in refused(s, SlaveRevoltPlayed(player="P1", place="Plataea"))


def spartan_attack(special_holder_tile: str, holder: int = 3):
    specials = ["perikles", "plague", "alkibiades", "slave-revolt"]
    specials[holder] = special_holder_tile
    commits = (Commit("sparta-h3-1", 1, "Mantinea", "attacker", "main"),
               Commit("megara-h2-1", 3, "Mantinea", "attacker", "ally"),
               Commit("athens-h3-1", 0, "Mantinea", "defender", "main"))
    s = at_commit(leaders=LEADERS, commits=commits, specials=tuple(specials), locations=("Mantinea",))
    return at_battle(s)


def test_brasidas_doubles_spartan_hoplite_strength_in_one_battle():
    s = keep_tiles(spartan_attack("brasidas"), until="P4")  # P1-P3 are asked first (their tiles cannot serve)
    pending = RS.pending(s)
    assert isinstance(pending, Decision) and pending.player == "P4"
    assert strengths(s, "Mantinea", "H") == (5, 3)
    assert "holds the Brasidas tile, not the Phormio tile" in refused(s, BattleTilePlayed(player="P4", tile="phormio"))
    s = play(s, BattleTilePlayed(player="P4", tile="brasidas"))
    assert strengths(s, "Mantinea", "H", s.battle.played) == (8, 3)
    assert isinstance(RS.pending(s), Chance) and s.used[3]


def test_a_battle_tile_may_be_kept_for_later():
    s = play(keep_tiles(spartan_attack("brasidas"), until="P4"), BattleTileKept(player="P4"))
    assert isinstance(RS.pending(s), Chance) and not s.used[3]


def test_phormio_doubles_athenian_trireme_strength_in_one_battle():
    commits = (Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
               Commit("sparta-t3-1", 1, "Pylos", "defender", "main"))
    s = at_battle(at_commit(leaders=LEADERS, commits=commits, locations=("Pylos",),
                            specials=("phormio", "plague", "alkibiades", "perikles")))
    s = play(s, BattleTilePlayed(player="P1", tile="phormio"))
    assert strengths(s, "Pylos", "T", s.battle.played) == (8, 3)


def test_thessalian_allies_start_a_hoplite_battle_with_the_token_on_the_players_side():
    s = spartan_attack("thessalian-allies", holder=0)
    s = play(s, BattleTilePlayed(player="P1", tile="thessalian-allies"))
    assert s.battle.token == -1
    s = play(keep_tiles(s), BattleDiceRolled(attacker=(1, 1), defender=(6, 6)))
    assert s.fought[0].winner == "defender" and s.fought[0].start == -1


def test_persian_fleet_starts_a_trireme_battle_with_the_token_and_only_for_a_player_in_it():
    commits = (Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
               Commit("sparta-t3-1", 1, "Pylos", "defender", "main"))
    s = at_battle(at_commit(leaders=LEADERS, commits=commits, locations=("Pylos",),
                            specials=("persian-fleet", "plague", "alkibiades", "perikles")))
    s = play(s, BattleTilePlayed(player="P1", tile="persian-fleet"))
    assert s.battle.token == 1
    outsider = at_battle(at_commit(leaders=LEADERS, commits=commits, locations=("Pylos",),
                                   specials=("perikles", "plague", "alkibiades", "persian-fleet")))
    outsider = keep_tiles(outsider, until="P4")
    assert RS.legal(outsider) == [BattleTileKept(player="P4")]  # asked (version 4), but it cannot serve here
    assert "cannot serve" in refused(outsider, BattleTilePlayed(player="P4", tile="persian-fleet"))
    assert isinstance(RS.pending(play(outsider, BattleTileKept(player="P4"))), Chance)


def test_a_battle_tile_is_not_offered_in_a_battle_of_the_other_kind():
    commits = (Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
               Commit("sparta-t3-1", 1, "Pylos", "defender", "main"))
    s = at_battle(at_commit(leaders=LEADERS, commits=commits, locations=("Pylos",),
                            specials=("thessalian-allies", "brasidas", "alkibiades", "perikles")))
    for p in ("P1", "P2", "P3", "P4"):  # every holder is asked (version 4); none may play here
        assert RS.legal(s) == [BattleTileKept(player=p)]
        s = play(s, BattleTileKept(player=p))
    assert isinstance(RS.pending(s), Chance)


def test_thessalian_allies_in_a_locations_second_battle_start_it_with_the_token_on_the_holders_side():
    # "Start a hoplite battle with 1 battle token" (data facts): also where the first battle's winner would start
    # with it. Amphipolis: a trireme battle, then a hoplite battle; Athens (P1, defending) holds the tile.
    commits = (Commit("sparta-t3-1", 1, "Amphipolis", "attacker", "main"),
               Commit("sparta-h4-1", 1, "Amphipolis", "attacker", "main"),
               Commit("athens-t3-1", 0, "Amphipolis", "defender", "main"),
               Commit("athens-h3-1", 0, "Amphipolis", "defender", "main"))
    s = at_battle(at_commit(leaders=LEADERS, commits=commits, locations=("Amphipolis",),
                            specials=("thessalian-allies", "plague", "alkibiades", "perikles")))
    s = play(keep_tiles(s), BattleDiceRolled(attacker=(6, 6), defender=(1, 1)),
             BattleDiceRolled(attacker=(6, 6), defender=(1, 1)))
    assert s.fought[0].winner == "attacker" and s.battle.index == 1 and s.battle.token == 1
    s = play(s, BattleTilePlayed(player="P1", tile="thessalian-allies"))
    assert s.battle.token == -1 and s.battle.start == -1
    s = play(keep_tiles(s), BattleDiceRolled(attacker=(1, 1), defender=(6, 6)))
    assert s.fought[1].winner == "defender" and s.fought[1].start == -1


def test_the_slave_revolt_may_name_any_place_with_spartan_counters_since_their_kinds_are_face_down():
    """Offering only the places where hoplites stand told the player which face-down Spartan counters were
    hoplites (RULES.md, 'Slave Revolt', version 3): a place with Spartan triremes alone may be named, and the revolt
    then removes nothing."""
    commits = (Commit("sparta-t2-1", 1, "Pylos", "attacker", "main"),
               Commit("sparta-h4-1", 1, "Plataea", "attacker", "main"))
    s = at_commit(leaders=LEADERS, commits=commits, actor=0,
                  specials=("slave-revolt", "plague", "alkibiades", "perikles"), locations=("Plataea", "Pylos"))
    offered = {e.place for e in RS.legal(s) if isinstance(e, SlaveRevoltPlayed)}
    assert {"Plataea", "Pylos"} <= offered
    after = play(s, SlaveRevoltPlayed(player="P1", place="Pylos"))
    assert after.revolted == () and after.used[0] and RS.pending(after).player == "P1"
    told = RS.narrate(s, SlaveRevoltPlayed(player="P1", place="Pylos"))
    assert "removes nothing" in told
    option = option_text(RS, s, SlaveRevoltPlayed(player="P1", place="Pylos"))
    assert "removes nothing" not in option  # read before it is chosen: it tells nothing of the counters' kinds

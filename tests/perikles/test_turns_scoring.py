"""End of turn, end of game, scoring and tie-breaks (perikles-game-help.pt.txt last paragraphs; data facts
'Statue points')."""

from __future__ import annotations

import json

from agon.core.engine import Over
from agon.core.games.perikles import RULESET as RS
from agon.core.games.perikles.battle import end_turn
from agon.core.games.perikles.scoring import breakdown
from agon.core.games.perikles.state import BATTLE, DEAL_LOCATIONS, NOBODY, OVER, Commit, replace
from agon.events.perikles import BattleDiceRolled
from tests.perikles.helpers import at_battle, at_commit, fresh, keep_tiles, play

LEADERS = {"athens": 2, "sparta": 1, "corinth": 2, "megara": 3}


def test_leaders_become_statues_units_go_home_tiles_are_discarded_and_athens_leader_starts_next_turn():
    commits = (Commit("athens-t4-1", 2, "Pylos", "attacker", "main"),
               Commit("persia-t3-1", 0, "Pylos", "attacker", "ally"),
               Commit("sparta-t1-1", 1, "Pylos", "defender", "main"))
    s = keep_tiles(at_battle(at_commit(leaders=LEADERS, commits=commits, locations=("Pylos",))))
    s = play(s, BattleDiceRolled(attacker=(1, 1), defender=(6, 6)), BattleDiceRolled(attacker=(1, 1),
                                                                                        defender=(6, 6)))
    assert s.phase == DEAL_LOCATIONS
    assert s.statues[2][0] == 1 and s.statues[2][3] == 1 and s.statues[1][1] == 1 and s.statues[3][5] == 1
    assert s.leaders == (NOBODY,) * 6 and s.commits == () and all(h == () for h in s.hands)
    assert s.first == 2 and RS.round(s) == 1
    # The lost Athenian trireme is gone for good; nothing Persian stays lost.
    assert "athens-t1-1" not in s.lost and all(not x.startswith("persia") for x in s.lost)


def test_a_lost_counter_stays_lost_but_lost_persians_come_back():
    s = replace(at_commit(leaders=LEADERS), phase=BATTLE, lost=("athens-t1-1", "persia-h2-1"))
    s = end_turn(s)
    assert s.lost == ("athens-t1-1",)


def test_the_game_ends_after_the_third_turn():
    s = replace(at_commit(leaders=LEADERS), turn=3, phase=BATTLE)
    s = end_turn(s)
    assert s.phase == OVER and isinstance(RS.pending(s), Over)


def test_the_game_ends_when_athens_suffers_its_fourth_defeat():
    s = at_commit(leaders=LEADERS, locations=("Plataea",),
                  commits=(Commit("sparta-h4-1", 1, "Plataea", "attacker", "main"),))
    s = replace(s, defeats=(3, 0, 0, 0, 0, 0))
    s = keep_tiles(at_battle(s))
    s = play(s, BattleDiceRolled(attacker=(6, 6), defender=(1, 1)), BattleDiceRolled(attacker=(6, 6),
                                                                                        defender=(1, 1)))
    assert s.defeats[0] == 4 and s.turn == 1 and s.phase == OVER


def test_scoring_counts_cubes_location_tiles_and_statues_at_their_uncovered_value():
    s = fresh(3)
    s = replace(s, won=(("Sicily", "Melos"), (), ()), statues=((1, 0, 1, 2, 0, 0), (0,) * 6, (0,) * 6),
                defeats=(2, 0, 3, 1, 0, 0))
    b = breakdown(s, 0)
    assert b["cubes"] == 12 and b["locations"] == 10
    # Athens with 2 defeats: 3; Argos with 3 defeats (beyond its list): 0; Corinth with 1 defeat: 7 each.
    assert b["statues"] == 3 + 0 + 14 and b["total"] == 12 + 10 + 17
    assert RS.scores(s)["P1"] == 39.0


def test_ties_are_broken_by_location_points_then_by_statues():
    s = replace(fresh(3), phase=OVER, won=(("Melos",), (), ()), statues=((0,) * 6, (0, 0, 0, 0, 0, 1), (0,) * 6),
                cubes=tuple((2, 2, 2) for _ in range(6)))
    # P1: 12 cubes + 3 (Melos) = 15; P2: 9 cubes + 6 (a Megara statue) = 15.
    s = replace(s, cubes=((2, 0, 2), (2, 1, 2)) + s.cubes[2:])
    assert RS.scores(s)["P1"] == RS.scores(s)["P2"] == 15.0
    out = RS.pending(s).outcome
    assert out.winners == ("P1",) and "tie broken" in out.summary
    # Equal points and equal location points: the player with more statues wins.
    s2 = replace(s, won=((), (), ()), statues=((0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 1, 1), (0,) * 6),
                 defeats=(0, 0, 0, 0, 7, 0), cubes=((3, 2, 2), (2, 3, 2)) + s.cubes[2:])
    scores = RS.scores(s2)  # P1: 13 cubes + 6 (Megara); P2: 13 cubes + 0 (Thebes beaten) + 6 (Megara)
    assert scores["P1"] == 19.0 and scores["P2"] == 19.0
    assert RS.pending(s2).outcome.winners == ("P2",)


def test_the_outcome_tells_each_players_points_as_the_final_scoring_counts_them():
    """The end screen read only "Scores: Ana 70, Bruno 46, Chloe 44": it now says how each total was made (game
    help, 'pontuação final': cubes, location tiles, statues), the winner first."""
    s = fresh(3)
    s = replace(s, phase=OVER, won=(("Sicily", "Melos"), (), ()),
                statues=((1, 0, 1, 2, 0, 0), (0,) * 6, (0,) * 6), defeats=(2, 0, 3, 1, 0, 0))
    out = RS.pending(s).outcome
    assert out.summary == ("P1 wins with 39 points: P1 39 (12 cubes, 10 for 2 location tiles, 17 for 4 statues);"
                           " P2 12 (12 cubes, 0 for 0 location tiles, 0 for 0 statues);"
                           " P3 12 (12 cubes, 0 for 0 location tiles, 0 for 0 statues)")
    # a game recorded before version 5 keeps the status it ended with (tests/test_old_versions.py, replays/)
    assert RS.pending(replace(s, version=4)).outcome.summary == "P1 wins with 39 points"


def test_state_and_log_at_the_end_of_a_game_say_how_each_score_was_made(agon):
    gid = json.loads(agon("demo", "perikles", "--seed", "4", "--json").stdout)["id"]
    for shown in (agon("state", gid).stdout, agon("log", gid).stdout):
        now = next(line for line in shown.splitlines() if line.startswith("Now: over: "))
        assert now.startswith("Now: over: Chloe wins with 76 points: Chloe 76 (8 cubes, 36 for 9 location tiles, 32"
                              " for 6 statues); Ana 74 (5 cubes, 20 for 5 location tiles, 49 for 9 statues); Bruno 63"
                              " (16 cubes, 29 for 6 location tiles, 18 for 3 statues)"), now

"""A Perikles game over from version 5 tells each player's total in its status, with how it was made (scoring.py,
``SCORES_TOLD``); the end screens then printed the totals a second time ("Scores: Ana 74, Bruno 63, Chloe 76"),
which read as two results. They are shown once: the status alone where it names every total, the "Scores:" line
where it does not (a game recorded before version 5, a game going on)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agon.cli.render import scores_line
from agon.core.engine import Decision, Outcome, Over

PERIKLES_4P = Path(__file__).resolve().parent.parent / "replays" / "perikles-4p.jsonl"
TOLD = "Chloe wins with 76 points: Chloe 76 (8 cubes, 36 for 9 location tiles, 32 for 6 statues)"


def _scores_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("Scores:")]


def test_the_end_screens_of_a_version_5_game_show_each_total_once(agon):
    made = agon("demo", "perikles", "--seed", "4").stdout
    assert f"Result: over: {TOLD}" in made and _scores_lines(made) == [], made
    gid = json.loads(agon("games", "--json").stdout)[0]["id"]
    for shown in (agon("state", gid).stdout, agon("options", gid).stdout, agon("play", gid).stdout):
        assert TOLD in shown and _scores_lines(shown) == [], shown
        assert shown.count("Chloe 76") == 1, shown
    played = agon("play", gid).stdout
    assert f"The game is over: {TOLD}" in played and f"agon undo {gid}" in played  # the way back stays


def test_a_game_over_before_version_5_keeps_its_scores_line(agon):
    gid = agon("import", str(PERIKLES_4P)).stdout.split()[0]
    for shown in (agon("state", gid).stdout, agon("options", gid).stdout, agon("play", gid).stdout):
        assert _scores_lines(shown) == ["Scores: Ana 54, Bruno 53, Chloe 53, Dario 30"], shown
    played = agon("play", gid).stdout
    assert "The game is over: Ana wins with 54 points\nScores: Ana 54, Bruno 53, Chloe 53, Dario 30\n" in played


def test_a_game_going_on_shows_its_scores_line(agon):
    gid = json.loads(agon("new", "perikles", "--player", "Ana", "--bot", "Bo:random", "--bot", "Cy:random",
                          "--seed", "3", "--json").stdout)["id"]
    assert len(_scores_lines(agon("state", gid).stdout)) == 1


OTHERS = {  # the end screens of the other rulesets, as they were before the outcome carried its flag
    "peloponnes": ("Ana wins with 11: Ana 11 (population 11, power 12); Chloe 9 (population 14, power 9); Bruno 4"
                   " (population 4, power 6)", []),  # its summary names every final score: no second list
    "pergamemnon": ("Chloe wins with 41 points; the game ended because Bruno has only 2 cards left to fight with,"
                    " fewer than a hand of 3", ["Scores: Ana 9, Bruno 4, Chloe 41"]),
    # a crew's score is no points either (rulebook 9.3 keeps 6's win or loss): it says what it is, as a solo one's
    "adamastor": ("Ana and Bruno reach the final destination in round 8",
                  ["Scores: the crew 100% of the voyage sailed"]),  # told once (tests/test_crew_scores_once.py)
}


@pytest.mark.parametrize("ruleset", sorted(OTHERS))
def test_the_other_rulesets_end_screens_print_as_before(agon, ruleset):
    summary, scores = OTHERS[ruleset]
    made = agon("demo", ruleset, "--seed", "4").stdout
    assert f"Result: over: {summary}" in made and _scores_lines(made) == scores, made
    gid = json.loads(agon("games", "--json").stdout)[0]["id"]
    for shown in (agon("state", gid).stdout, agon("options", gid).stdout, agon("play", gid).stdout):
        assert summary in shown and _scores_lines(shown) == scores, shown


def test_whether_the_totals_are_told_is_the_outcomes_flag_not_a_reading_of_its_words():
    """The "Scores:" line was left out where the status's text named every player with their total ('Ana 57'): a
    summary that names them so by chance (a player named after a number, 'Bo 3' in a sentence) lost the line, and
    one that tells the totals in other words kept it. The outcome says whether its summary tells them."""
    scores = {"Ana": 57.0, "Bo 3": 3.0}
    by_chance = Over(Outcome(("Ana",), scores, "Ana 57 ahead of Bo 3 and his 3 points"))
    assert scores_line(by_chance, scores) == "Scores: Ana 57, Bo 3 3"
    told = Over(Outcome(("Ana",), scores, "Ana wins: fifty-seven points to three", totals_told=True))
    assert scores_line(told, scores) is None
    going_on = Decision("Ana", "bid")
    assert scores_line(going_on, scores) == "Scores: Ana 57, Bo 3 3"


def test_a_finished_solo_voyage_says_its_score_is_the_share_of_the_voyage_sailed(agon):
    """A solo Adamastor game has no points: its score is the percentage of the voyage sailed (`agon state`'s
    'progress'), but its end screens said 'Scores: Ana 53.3' as if it were points. They say what the figure is."""
    made = agon("demo", "adamastor", "--players", "1", "--seed", "5").stdout
    summary = "Ana loses in round 10: a tumult breaks out on board"
    said = ["Scores: Ana 53.3% of the voyage sailed"]
    assert f"Result: over: {summary}" in made and _scores_lines(made) == said, made
    gid = json.loads(agon("games", "--json").stdout)[0]["id"]
    assert "  progress: 53.3% of the voyage sailed\n" in agon("state", gid).stdout
    for shown in (agon("state", gid).stdout, agon("options", gid).stdout, agon("play", gid).stdout):
        assert summary in shown and _scores_lines(shown) == said, shown
    assert f"The game is over: {summary}\nScores: Ana 53.3% of the voyage sailed\n" in agon("play", gid).stdout


def test_a_solo_voyage_going_on_and_other_outcomes_keep_their_plain_scores_line():
    """With no unit given, the unit is the outcome's: a line not over, and an outcome naming none, print the numbers
    alone (the commands give a ruleset's own unit: tests/adamastor/test_score_unit.py)."""
    assert scores_line(Decision("Ana", "sail"), {"Ana": 20.0}) == "Scores: Ana 20"
    assert scores_line(Over(Outcome((), {"Ana": 46.7}, "Ana loses")), {"Ana": 46.7}) == "Scores: Ana 46.7"
    unit = Over(Outcome((), {"Ana": 46.7}, "Ana loses", score_unit="% of the voyage sailed"))
    assert scores_line(unit, {"Ana": 46.7}) == "Scores: Ana 46.7% of the voyage sailed"

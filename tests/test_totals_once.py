"""A Perikles game over from version 5 tells each player's total in its status, with how it was made (scoring.py,
``SCORES_TOLD``); the end screens then printed the totals a second time ("Scores: Ana 74, Bruno 63, Chloe 76"),
which read as two results. They are shown once: the status alone where it names every total, the "Scores:" line
where it does not (a game recorded before version 5, a game going on)."""

from __future__ import annotations

import json
from pathlib import Path

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

"""``agon compare`` of a line still being played with one played to its end: the scores are set side by side after
the last event both lines reach, never one line's score in the middle of the game against the other's final score
(which would read as what the other move changed: "Bruno 3 instead of 10")."""

from __future__ import annotations

import json


def test_an_unfinished_what_if_is_compared_at_the_same_event_not_against_the_final_scores(agon):
    gid = agon("new", "peloponnes", "--player", "Ana", "--bot", "Bruno:greedy", "--bot", "Chloe:random",
               "--seed", "4").stdout.split()[0]
    while agon("act", gid, "1", ok=False).exit_code == 0:  # Ana always takes the first option, to the end
        pass
    assert "Bruno wins with 17" in agon("state", gid).stdout
    agon("branch", gid, "five", "--at", "8")
    agon("act", gid, "4")  # Ana bids 5 on the Sanctuary of Hera; the line stops at #14, Ana to act
    assert agon("state", gid, "-b", "main", "--at", "14").stdout.splitlines()[-1] == "Scores: Ana 3, Bruno 3, Chloe 4"
    out = agon("compare", gid, "main", "five").stdout
    words = " ".join(out.split())
    assert "Scores after #14, the last event both lines reach" in out
    assert "main #14" in out and "five #14" in out
    assert ("Scores after #14 on five, the last event both lines reach: Ana 3 as before, Bruno 3 as before, Chloe 4"
            " as before; the outcome is not known yet, since one line is not over.") in words
    assert "instead of 10" not in words
    data = json.loads(agon("compare", gid, "main", "five", "--json").stdout)
    assert data["scored_at"] == 14
    assert [(r["player"], r["a"], r["b"], r["diff"]) for r in data["players"]] == [
        ("Ana", 3.0, 3.0, 0.0), ("Bruno", 3.0, 3.0, 0.0), ("Chloe", 4.0, 4.0, 0.0)]
    # two lines played to their ends are compared by their final scores, as before
    agon("switch", gid, "main")
    agon("branch", gid, "again", "--at", "8")
    agon("act", gid, "4")
    while agon("act", gid, "1", ok=False).exit_code == 0:
        pass
    data = json.loads(agon("compare", gid, "main", "again", "--json").stdout)
    assert data["scored_at"] is None and data["a"]["over"] and data["b"]["over"]
    assert {r["player"]: r["a"] for r in data["players"]} == {"Ana": 8.0, "Bruno": 17.0, "Chloe": 3.0}
    assert "Scores after" not in agon("compare", gid, "main", "again").stdout


def test_a_line_that_holds_the_other_is_compared_by_its_head(agon):
    gid = agon("new", "peloponnes", "--player", "Ana", "--bot", "Bruno:greedy", "--bot", "Chloe:random",
               "--seed", "4").stdout.split()[0]
    agon("branch", gid, "five")  # at the head, #8: main holds nothing five has not
    agon("act", gid, "4")
    out = agon("compare", gid, "main", "five").stdout
    assert "Scores after" not in out and "five #" not in out
    data = json.loads(agon("compare", gid, "main", "five", "--json").stdout)
    assert data["scored_at"] is None and data["b"]["last"] == 14
    assert data["what_if"] == "five and main do not part: one line holds all of the other."

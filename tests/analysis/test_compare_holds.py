"""``agon compare`` of a game played to its end with a branch that has no moves of its own (``agon branch G x --at 40
--reseed``): main holds all of x, so after every event both reach their scores are the same. Setting x's scores at
#40 against main's final ones as a difference ("x − main: -20") read as what x's line changed, the very comparison
the README rules out (one line's score mid-game against the other's final one): each line's scores are shown at
its last event, with no difference column."""

from __future__ import annotations

import json


def test_a_branch_with_no_moves_of_its_own_shows_no_difference_against_the_final_scores(agon):
    game = json.loads(agon("demo", "peloponnes", "--seed", "3", "--json").stdout)["id"]
    agon("branch", game, "x", "--at", "40", "--reseed")
    agon("switch", game, "main")
    data = json.loads(agon("compare", game, "main", "x", "--json").stdout)
    assert data["a"]["over"] and not data["b"]["over"] and data["b"]["last"] == 40
    assert data["holds"] is True and data["scored_at"] is None
    assert any(r["a"] != r["b"] for r in data["players"])  # the heads' scores differ: the check could fail
    assert [r["diff"] for r in data["players"]] == [None] * len(data["players"])
    out = agon("compare", game, "main", "x").stdout
    assert "x − main" not in out
    assert "Scores at each line's last event (one line holds all of the other: no difference to tell)" in (
        " ".join(out.split()))
    assert data["what_if"] == "x and main do not part: one line holds all of the other."


def test_two_lines_that_part_keep_their_difference(agon):
    game = json.loads(agon("demo", "peloponnes", "--seed", "3", "--json").stdout)["id"]
    agon("branch", game, "y", "--at", "40", "--reseed")
    agon("act", game, "bot", "--branch", "y")
    agon("switch", game, "main")
    data = json.loads(agon("compare", game, "main", "y", "--json").stdout)
    assert data["holds"] is False and all(r["diff"] is not None for r in data["players"])
    assert "y − main" in agon("compare", game, "main", "y").stdout

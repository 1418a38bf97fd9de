"""`agon compare`'s what-if tells a co-operative game's outcome in its words: an Adamastor voyage is won or lost by
the whole crew, never one that 'nobody wins' on both lines."""

from __future__ import annotations

import json


def test_two_lost_voyages_are_told_as_lost_on_both_lines(agon):
    gid = json.loads(agon("demo", "adamastor", "--players", "2", "--seed", "8", "--json").stdout)["id"]
    assert "lose in round" in agon("games").stdout
    agon("branch", gid, "later", "--at", "60")
    agon("act", gid, "11", "--branch", "later")  # Bruno ends the action phase, where main sets sail: the bots play on
    assert "lose in round 9" in agon("games").stdout
    out = agon("compare", gid, "main", "later").stdout
    what_if = " ".join(out.split("What if:", 1)[1].split())
    assert "nobody wins" not in what_if and "the voyage is lost on both lines" in what_if
    assert json.loads(agon("compare", gid, "main", "later", "--json").stdout)["together"] == [
        "the voyage is won", "the voyage is lost"]


def test_a_voyage_won_on_one_line_and_lost_on_the_other():
    from agon.analysis.compare import what_if

    side = {"over": True, "winners": [], "branch": "main"}
    c = {"a": side, "b": {**side, "branch": "luckier", "winners": ["Ana", "Bruno"]}, "players": [],
         "parting": {"n": 44, "a": "A tempest.", "b": "A calm.", "luck": True}, "score_unit": "",
         "together": ["the voyage is won", "the voyage is lost"]}
    assert what_if(c).endswith(" the voyage is won on luckier; on main, the voyage is lost.")


def test_a_crews_final_score_is_told_once_as_the_crews():
    """A crew shares one score: the what-if tells it once, as 'agon games' and 'agon state' do, not per player."""
    from agon.analysis.compare import what_if

    side = {"over": True, "winners": [], "branch": "main"}
    players = [{"player": p, "a": 40.0, "b": 66.7, "diff": 26.7} for p in ("Ana", "Bruno")]
    c = {"a": side, "b": {**side, "branch": "luckier"}, "players": players,
         "parting": {"n": 44, "a": "A tempest.", "b": "A calm.", "luck": True}, "score_unit": "% sailed",
         "together": ["the voyage is won", "the voyage is lost"], "shared_by": "crew"}
    assert what_if(c).endswith("final scores on luckier: the crew 66.7% sailed instead of 40.")
    solo = {**c, "players": players[:1]}  # a solo voyage keeps its player's name
    assert what_if(solo).endswith("final scores on luckier: Ana 66.7% sailed instead of 40.")
    assert "the crew" not in what_if({**c, "shared_by": None})  # a competitive game names every player

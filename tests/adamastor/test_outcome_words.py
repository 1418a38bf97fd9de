"""A voyage is won or lost by the whole crew (rulebook 6 'Ganhando ou perdendo o jogo'; 9.3 keeps those conditions
for 2 players), and its score is the voyage's progress in percent. The state view read 'progress: 66.7', a bare
number where every other face says '66.7% of the voyage sailed'; `agon stats adamastor` counted lost voyages as
'Games that nobody won', as if a player might have won them."""

from __future__ import annotations

import json

UNIT = "% of the voyage sailed"


def test_the_state_tells_the_voyages_progress_in_the_scores_words(agon):
    crew = json.loads(agon("demo", "adamastor", "--players", "2", "--seed", "3", "--json").stdout)["id"]
    out = agon("state", crew).stdout
    assert f"  progress: 66.7{UNIT}\n" in out and f"Scores: the crew 66.7{UNIT}" in out  # told once
    assert json.loads(agon("state", crew, "--json").stdout)["view"]["progress"] == f"66.7{UNIT}"


def test_stats_counts_lost_voyages_as_lost_not_as_games_nobody_won(agon):
    agon("demo", "adamastor", "--players", "2", "--seed", "3")  # the crew loses: 66.7% of the voyage sailed
    agon("demo", "adamastor", "--seed", "5")
    data = json.loads(agon("stats", "adamastor", "--json").stdout)
    assert data["no_winner"] >= 1
    out = agon("stats", "adamastor").stdout
    assert f"Voyages lost (the crew wins or loses together): {data['no_winner']}\n" in out
    assert "nobody won" not in out

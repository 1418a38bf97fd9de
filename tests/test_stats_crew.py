"""A co-operative game's result told once, as the crew's: an Adamastor crew wins or loses together and shares one
score, so `agon stats` gave each seat the crew's win rate again ('seat 1 67%, seat 2 67%') and `agon games` and
`agon branches` listed the one score once for each player ('Ana 66.7% of the voyage sailed, Bruno 66.7% of the
voyage sailed')."""

from __future__ import annotations

import json

from agon.analysis.stats_plot import stats_figure


def _crews(agon) -> None:
    agon("demo", "adamastor", "--players", "2", "--games", "3", "--seed", "3")
    agon("demo", "adamastor", "--players", "1", "--games", "2", "--seed", "3")  # solo voyages: another setup


def test_stats_of_crews_tell_the_crews_result_once_not_each_seats(agon):
    _crews(agon)
    data = json.loads(agon("stats", "adamastor", "--json").stdout)
    assert data["together"] is True and data["by_seat"] == []
    crew = data["crew"]
    assert crew["played"] == data["finished"] == 5 and crew["wins"] == 5 - data["no_winner"]
    assert crew["ci_low"] <= crew["win_rate"] == crew["wins"] / 5 <= crew["ci_high"]
    rows = data["by_setup"]
    assert len(rows) == 2 and sum(r["played"] for r in rows) == 5 and sum(r["wins"] for r in rows) == crew["wins"]
    assert abs(crew["avg_score"] - sum(r["avg_score"] * r["played"] for r in rows) / 5) < 1e-9
    out = agon("stats", "adamastor").stdout
    assert "By seat" not in out and "seat " not in out
    (total,) = [ln for ln in out.splitlines() if ln.strip().startswith("all setups")]
    cells = [c.strip() for c in total.split("│")]
    assert cells[1:4] == ["5", str(crew["wins"]), f"{crew['win_rate']:.0%}"], total
    plotted = json.loads(agon("plot", "stats", "adamastor", "--json").stdout)
    assert plotted["crew"] == crew and plotted["by_seat"] == []
    fig = stats_figure(plotted, "t")
    assert not [a for a in fig.layout.annotations if "seat" in a.text.lower()]
    bars = [t for t in fig.data if t.type == "bar"]
    assert len(bars) == 1 and list(bars[0].y) == [r["setup"] for r in rows] + ["all setups"]
    assert list(bars[0].x)[-1] == 100 * crew["win_rate"]


def test_stats_of_one_crew_setup_have_its_row_alone(agon):
    agon("demo", "adamastor", "--players", "2", "--games", "2", "--seed", "3")
    out = agon("stats", "adamastor").stdout
    assert "all setups" not in out and "By seat" not in out
    data = json.loads(agon("stats", "adamastor", "--json").stdout)
    (row,) = data["by_setup"]
    assert {k: data["crew"][k] for k in ("played", "wins", "win_rate")} == {k: row[k] for k in
                                                                           ("played", "wins", "win_rate")}


def test_a_competitive_rulesets_stats_keep_their_seats_and_have_no_crew(agon):
    agon("demo", "toy", "--games", "2", "--seed", "1")
    data = json.loads(agon("stats", "toy", "--json").stdout)
    assert data["crew"] is None and [r["seat"] for r in data["by_seat"]] == [1, 2, 3]
    assert "By seat" in agon("stats", "toy").stdout


def test_games_and_branches_list_a_crews_one_score_once(agon):
    gid = json.loads(agon("demo", "adamastor", "--players", "2", "--seed", "3", "--json").stdout)["id"]
    (game,) = json.loads(agon("games", "--json").stdout)
    score = game["scores"]["Ana"]
    assert game["scores"] == {"Ana": score, "Bruno": score} and game["shared_score"] == score
    said = f"the crew {score:g}% of the voyage sailed"
    for out in (agon("games").stdout, agon("branches", gid).stdout):
        assert said in out and "Bruno 6" not in out and f"Ana {score:g}%" not in out, out
    (branch,) = json.loads(agon("branches", gid, "--json").stdout)
    assert branch["scores"] == game["scores"] and branch["shared_score"] == score


def test_a_solo_voyage_and_a_competitive_game_list_each_players_score(agon):
    solo = json.loads(agon("demo", "adamastor", "--players", "1", "--seed", "3", "--json").stdout)["id"]
    duel = json.loads(agon("demo", "toy", "--seed", "1", "--json").stdout)["id"]
    rows = {g["id"]: g for g in json.loads(agon("games", "--json").stdout)}
    (score,) = rows[solo]["scores"].values()
    assert rows[solo]["shared_score"] == score and rows[duel]["shared_score"] is None
    out = agon("games").stdout
    assert f"Ana {score:g}% of the voyage sailed" in out and "the crew" not in out
    assert "the crew" not in agon("branches", duel).stdout
    assert [b["shared_score"] for b in json.loads(agon("branches", duel, "--json").stdout)] == [None]

"""`agon stats`' table by setup: a win rate only where the players win or lose together (an Adamastor crew), said in
the co-op's words; for a competitive ruleset, whose games someone nearly always wins, what the games were like."""

from __future__ import annotations

import json

from agon.analysis.stats_plot import stats_figure


def test_a_competitive_ruleset_has_no_win_rate_by_setup(agon):
    """Every Peloponnes setup read '5 won, 100%, 95% CI 57%-100%': a game is won when anyone wins it."""
    agon("demo", "peloponnes", "--games", "3", "--seed", "2")
    out = agon("stats", "peloponnes").stdout
    setup = out.split("By setup", 1)[1].split("By civilization", 1)[0]
    assert "anyone wins" not in setup and "win rate" not in setup and "95% CI" not in setup
    assert "events (range)" in setup and "best score" in setup and "avg score" in setup
    data = json.loads(agon("stats", "peloponnes", "--json").stdout)
    assert data["together"] is False
    (row,) = data["by_setup"]
    assert row["played"] == 3 and "win_rate" not in row and "wins" not in row
    assert row["shortest"] <= row["avg_events"] <= row["longest"]
    assert row["avg_best_score"] >= row["avg_score"] > 0
    plotted = json.loads(agon("plot", "stats", "peloponnes", "--json").stdout)
    assert plotted["by_setup"] == data["by_setup"]
    fig = stats_figure(plotted, "t")
    assert not [a for a in fig.layout.annotations if "won" in a.text and "setup" in a.text]
    (told,) = [a.text for a in fig.layout.annotations if a.name == "by setup"]
    assert (f"3 players: 3 games, {row['avg_events']:.1f} events ({row['shortest']}–{row['longest']}),"
            f" {row['avg_rounds']:.1f} rounds, best score {row['avg_best_score']:.1f}") in told


def test_a_co_op_win_rate_by_setup_is_said_in_its_words(agon):
    agon("demo", "adamastor", "--games", "3", "--seed", "4")
    out = agon("stats", "adamastor").stdout
    assert "By setup (the crew wins or loses each voyage together; a score is the" in out
    assert "anyone wins" not in out
    data = json.loads(agon("stats", "adamastor", "--json").stdout)
    assert data["together"] is True
    (row,) = data["by_setup"]
    assert row["played"] == 3 and 0 <= row["win_rate"] <= 1 and row["ci_low"] <= row["win_rate"] <= row["ci_high"]
    fig = stats_figure(json.loads(agon("plot", "stats", "adamastor", "--json").stdout), "t")
    assert "Won by setup (the crew wins or loses each voyage together)" in [a.text for a in fig.layout.annotations]
    assert list(fig.data[0].y) == [row["setup"]] and list(fig.data[0].x) == [100 * row["win_rate"]]

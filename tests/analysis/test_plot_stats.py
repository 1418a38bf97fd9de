"""``agon plot stats RULESET``: win rates by side and by seat with 95% Wilson intervals, and the game lengths, drawn
from the stored games, as a person runs it."""

from __future__ import annotations

import json

import pytest

from agon.analysis.palette import PALETTE
from agon.analysis.stats import wilson
from agon.analysis.stats_plot import BAR, stats_figure


@pytest.fixture
def recorded(agon):
    agon("demo", "pergamemnon", "--games", "4", "--seed", "11")
    return json.loads(agon("plot", "stats", "pergamemnon", "--json").stdout)


def test_the_numbers_behind_the_figure_carry_wilson_intervals(recorded):
    assert recorded["games"] == recorded["finished"] == 4 and len(recorded["lengths"]) == 4
    assert recorded["side_label"] == "nation" and recorded["by_side"]
    for r in recorded["by_side"] + recorded["by_seat"]:
        assert (r["ci_low"], r["ci_high"]) == pytest.approx(wilson(r["wins"], r["played"]))
        assert r["ci_low"] <= r["win_rate"] <= r["ci_high"]
    assert sum(r["wins"] for r in recorded["by_seat"]) >= 4  # every game has a winner (ties count each)


def test_the_figure_draws_each_rate_its_interval_and_the_lengths(recorded):
    fig = stats_figure(recorded, "Pergamemnon: win rates and game length")
    sides, seats, lengths = fig.data
    assert list(sides.y) == [r["side"] for r in recorded["by_side"]]
    assert list(sides.x) == pytest.approx([100 * r["win_rate"] for r in recorded["by_side"]])
    assert list(sides.error_x.array) == pytest.approx([100 * (r["ci_high"] - r["win_rate"])
                                                       for r in recorded["by_side"]])
    assert list(sides.error_x.arrayminus) == pytest.approx([100 * (r["win_rate"] - r["ci_low"])
                                                            for r in recorded["by_side"]])
    assert list(seats.y) == [f"seat {r['seat']}" for r in recorded["by_seat"]]
    assert sorted(lengths.x) == sorted(recorded["lengths"])
    written = [a.text for a in fig.layout.annotations if a.name == "win rate"]
    r = recorded["by_seat"][0]
    assert (f"{r['wins']}/{r['played']} won: {100 * r['win_rate']:.0f}% (95% CI {100 * r['ci_low']:.0f}–"
            f"{100 * r['ci_high']:.0f}%)") in written
    assert {t.marker.color for t in fig.data} == {BAR} and BAR not in PALETTE  # sides and seats are not players
    assert any(a.name == "mean length" for a in fig.layout.annotations)


def test_plot_stats_writes_html_or_png(agon, recorded, tmp_path):
    out = agon("plot", "stats", "pergamemnon").stdout
    assert "Wrote the statistics of 4 finished games to plots/pergamemnon-stats.html" in out
    assert (tmp_path / "plots/pergamemnon-stats.html").stat().st_size > 100_000
    r = agon("plot", "stats", "pergamemnon", "--png", "-o", "stats.html", ok=False)
    assert r.exit_code == 1 and "name the file stats.png" in r.stderr


def test_plot_stats_without_games_says_how_to_record_some(agon):
    agon("new", "toy", "--player", "ann", "--bot", "bob:random")  # a store, without a Perikles game
    r = agon("plot", "stats", "perikles", ok=False)
    assert r.exit_code == 1 and "agon demo perikles --games 20" in r.stderr
    r = agon("plot", "stats", "nosuchgame", ok=False)
    assert r.exit_code == 1 and "Traceback" not in r.output + r.stderr
    r = agon("plot", "stats", "perikles", "--json", ok=False)
    assert r.exit_code == 1 and "error" in json.loads(r.stderr)

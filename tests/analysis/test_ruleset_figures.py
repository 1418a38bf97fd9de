"""Each shipped ruleset's own figures, on a fresh game recorded by bots: the figure shows exactly the ruleset's
projection rows (every strike, bid, roll...), in the players' colours, and every command works on the game."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from typer.testing import CliRunner

from agon.analysis.games import figures_for, sides_of
from agon.analysis.palette import PALETTE, player_colors, player_marks
from agon.cli.app import app
from agon.core import registry
from agon.core.service import NewGame

FIGURE_KINDS = {"pergamemnon": "battles", "peloponnes": "auction", "perikles": "battles", "adamastor": "voyage"}
SHIPPED = list(FIGURE_KINDS)


def bot_game(svc, ruleset: str, seed: int = 7):
    rs = registry.get(ruleset)
    n = max(rs.min_players, min(3, rs.max_players))
    seats = [(name, "random") for name in ("Ana", "Bruno", "Chloe")[:n]]
    gid = svc.new_game(NewGame(ruleset=ruleset, bots=seats, seed=seed))
    return svc.load(gid)


def traces(fig, suffix: str) -> dict[str, object]:
    return {t.name.removesuffix(suffix): t for t in fig.data if t.name.endswith(suffix)}


def test_pergamemnon_battle_chains_show_every_strike_and_each_battles_result(sqlite_svc):
    line = bot_game(sqlite_svc, "pergamemnon")
    rows = line.ruleset.projections["battles"](line.steps())
    assert rows, "a whole game has battles"
    fig = figures_for("pergamemnon")["battles"](line)
    colors = player_colors(line.created.names)
    strikes = traces(fig, " strikes")
    assert sum(len(t.x) for t in strikes.values()) == len(rows)
    for p, t in strikes.items():
        assert list(t.x) == [r["value"] for r in rows if r["striker"] == p]
        assert t.marker.color == colors[p]
    for p, t in traces(fig, " defends").items():
        assert list(t.x) == [-r["defence"] for r in rows if r["struck"] == p]
    # each bar ends in its player's marker (their shape in every plot), so a player is not told by colour alone
    marks = player_marks(line.created.names)
    for p in line.created.names:
        ends = [t for t in fig.data if t.name == p]
        mine = [r for r in rows if r["striker"] == p] + [r for r in rows if r["struck"] == p]
        assert sum(len(t.x) for t in ends) == len(mine)
        assert all(t.marker.symbol == marks[p].symbol and t.legendgroup == p for t in ends)
    helped = [r for r in rows if r["reinforcement"]]
    assert sum(len(t.x) for t in traces(fig, " reinforces").values()) == len(helped)
    order = list(fig.layout.yaxis.categoryarray)
    assert len(order) == len(rows) and order[0].startswith(f"battle {rows[0]['battle']} · 1. {rows[0]['striker']}")
    results = [a.text for a in fig.layout.annotations if a.name == "battle result"]
    assert len(results) == len({r["battle"] for r in rows})
    assert all(t.endswith(("wins</b>", "a tie</b>")) for t in results)
    assert all(t.name.split()[0] in line.created.names for t in fig.data)
    side = sides_of("pergamemnon", line)
    assert side[0] == "nation" and set(side[1]) == set(line.created.names) and all(side[1].values())


def test_peloponnes_auction_plot_shows_every_bid_and_the_turn_order_of_every_round(sqlite_svc):
    line = bot_game(sqlite_svc, "peloponnes")
    rows = line.ruleset.projections["auctions"](line.steps())
    order = line.ruleset.projections["turn_order"](line.steps())
    fig = figures_for("peloponnes")["auction"](line)
    colors = player_colors(line.created.names)
    marks = player_marks(line.created.names)
    for p in line.created.names:
        dots = next(t for t in fig.data if t.name == p)
        mine = [r for r in rows if r["player"] == p and r["action"] in ("bid", "move", "won")]
        assert [int(x.removeprefix("★")) for x in dots.text] == [r["coin_cards"] for r in mine]
        # a card won is starred in words and drawn large; a moved bid hollow; all in the player's own shape
        assert [x.startswith("★") for x in dots.text] == [r["action"] == "won" for r in mine]
        assert [s > 13 for s in dots.marker.size] == [r["action"] == "won" for r in mine]
        shape = marks[p].symbol
        assert list(dots.marker.symbol) == [shape + ("-open" if r["action"] == "move" else "") for r in mine]
        assert dots.marker.color == colors[p]
        crossed = [t for t in fig.data if t.name == f"{p} outbid"]
        assert all(t.marker.symbol == f"{shape}-open" and set(t.text) == {"✕"} for t in crossed)
        assert sum(len(t.x) for t in crossed) == sum(1 for r in rows if r["outbid"] == p)
        bump = next(t for t in fig.data if t.name == f"{p} (turn order)")
        assert list(bump.x) == [r["round"] for r in order if r["player"] == p]
        assert list(bump.y) == [r["position"] for r in order if r["player"] == p]
        assert (bump.marker.symbol, bump.line.dash) == (shape, marks[p].dash)
    # each turn-order line is named at its end, where it ends
    finals = {(a.text, a.x, a.y) for a in fig.layout.annotations if a.name == "final"}
    last = max(r["round"] for r in order)
    assert finals == {(r["player"], last, r["position"]) for r in order if r["round"] == last}
    assert sorted({r["round"] for r in order}) == list(range(1, 9))
    moved = [r for r in rows if r["action"] in ("move", "withdraw") and r["from_card"]]
    assert len([a for a in fig.layout.annotations if a.name == "displacement"]) == len(moved)
    offered = {(r["round"], r["card"]) for r in rows if r["card"]}
    assert len(fig.layout.yaxis.ticktext) == len(offered)
    side = sides_of("peloponnes", line)
    assert side[0] == "civilization" and set(side[1]) == set(line.created.names)
    assert len(set(side[1].values())) == len(line.created.names)


def test_perikles_battle_plot_shows_every_roll_and_the_losses_per_location(sqlite_svc):
    line = bot_game(sqlite_svc, "perikles")
    rows = line.ruleset.projections["battles"](line.steps())
    fig = figures_for("perikles")["battles"](line)
    kinds = ("attacker hits", "defender hits", "both hit", "no hit")
    dots = [t for t in fig.data if t.name in kinds]
    assert sum(len(t.x) for t in dots) == sum(r["roll_count"] for r in rows)
    tokens = Counter(text for t in dots for text in t.text)
    assert tokens == Counter(f"{roll['token']:+d}" for r in rows for roll in r["rolls"])
    auto = [t for t in fig.data if t.name == "won without dice"]
    assert sum(len(t.x) for t in auto) == sum(1 for r in rows if r["automatic"])
    lost = {t.name: sum(t.y) for t in fig.data if t.name.endswith(" losses")}
    assert lost["attacker losses"] == sum(1 for r in rows if r["lost"] and r["winner"] == "defender")
    assert lost["defender losses"] == sum(1 for r in rows if r["lost"] and r["winner"] == "attacker")
    colors = player_colors(line.created.names)
    # roles by shape, never by a player's colour; every battle names its players
    assert not {t.marker.color for t in fig.data} & set(PALETTE)
    assert {t.marker.symbol for t in dots} == {"triangle-right", "triangle-left-open", "diamond", "circle-open"}
    battles = list(fig.layout.yaxis.categoryarray)
    assert len(battles) == len(rows) and all(" vs " in b for b in battles)
    assert any(name in b.split(": ")[1] for b in battles for name in line.created.names)
    takers = [(a.text, a.font.color) for a in fig.layout.annotations if a.name == "tile taken"]
    assert takers and all(colors[name] == colour for name, colour in takers)
    results = [a.text for a in fig.layout.annotations if a.name == "battle result"]
    assert len(results) == len(rows)
    assert all("-" not in t for t in results if "lost" in t)  # counters are named, not shown as ids


def test_adamastor_voyage_plot_follows_morale_distance_and_threats(sqlite_svc):
    line = bot_game(sqlite_svc, "adamastor")
    rows = line.ruleset.projections["voyage"](line.steps())
    fig = figures_for("adamastor")["voyage"](line)
    by = {t.name: t for t in fig.data}
    # the voyage starts from the setup's values (round 1), not from the empty table before it
    first = next(i for i, r in enumerate(rows) if r["round"] >= 1)
    assert rows[first]["morale"] > 0 and all(r["morale"] == 0 for r in rows[:first])
    rows = rows[first:]
    assert list(by["morale"].x) == [r["index"] for r in rows]
    assert list(by["morale"].y) == [r["morale"] for r in rows]
    assert list(by["distance to sail"].y) == [r["distance"] for r in rows]
    for key in ("revolt", "disease", "fatigue"):
        assert list(by[f"{key} icons"].y) == [r[key] for r in rows]
    assert ", ".join(line.created.names) in fig.layout.title.text
    finals = {a.text for a in fig.layout.annotations if a.name == "final"}
    assert finals == {f"morale {rows[-1]['morale']}", f"{rows[-1]['distance']:g} to sail",
                      f"{rows[-1]['motivation']} motivation"}
    assert not {t.line.color for t in fig.data} & set(PALETTE)  # colours mean players; the voyage is the crew's


def test_adamastor_voyage_hover_counts_one_icon_and_one_threat_in_the_singular(sqlite_svc):
    line = bot_game(sqlite_svc, "adamastor")
    fig = figures_for("adamastor")["voyage"](line)
    texts = [t for trace in fig.data if trace.name.endswith("icons") for t in trace.hovertext]
    assert any(" 1 revolt icon (" in t for t in texts) and any(" 0 revolt icons (" in t for t in texts)
    assert not [t for t in texts if re.search(r"\b1 [a-z]+ icons\b|\(1 threats\b", t)]


def test_a_co_op_game_draws_its_one_shared_score_once_for_the_crew(sqlite_svc):
    from agon.analysis.figures import CREW_COLOR, scores_figure

    line = bot_game(sqlite_svc, "adamastor", seed=1)  # a voyage that gets somewhere and loses ground once
    assert len(line.created.names) == 2
    fig = scores_figure([line])
    assert [(t.name, t.line.color) for t in fig.data] == [("crew", CREW_COLOR)]
    labels = [a.text for a in fig.layout.annotations if a.name in ("swing", "lead")]
    assert labels and all(t.startswith("crew ") for t in labels)
    assert [a.text for a in fig.layout.annotations if a.name == "final"] == [f"crew {fig.data[0].y[-1]:g}"]


@pytest.mark.parametrize("ruleset", SHIPPED)
def test_every_command_works_on_a_fresh_bot_game(ruleset, tmp_path, monkeypatch):
    monkeypatch.setenv("AGON_DB", str(tmp_path / "games.db"))
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def agon(*args: str) -> str:
        r = runner.invoke(app, list(args))
        assert r.exit_code == 0, (args, r.output, r.stderr)
        return r.stdout

    game = json.loads(agon("demo", ruleset, "--seed", "5", "--json"))["id"]
    agon("branch", game, "whatif", "--at", "12", "--reseed")
    agon("switch", game, "main")
    kind = FIGURE_KINDS[ruleset]
    assert "Wrote the score timeline" in agon("plot", "scores", game, "-b", "main", "-b", "whatif")
    assert f"Wrote the {kind} plot to plots/{game}-main-{kind}.html" in agon("plot", kind, game)
    assert (tmp_path / f"plots/{game}-main-{kind}.html").stat().st_size > 100_000
    assert "Wrote the study page of 2 lines" in agon("view", game)
    # the branch drew the chance due after #12 with its fresh luck (agon branch), which may draw what main drew
    shared = re.search(r"main and whatif share events 0 to #(\d+) ", agon("compare", game, "main", "whatif"))
    assert shared and int(shared[1]) >= 12, shared
    assert "1 game stored, 1 finished" in agon("stats", ruleset)

"""The win-chance chart reads like the score timeline: each line's final value at its end, labels that cover
nothing, and a co-operative game's one shared chance drawn once, for the crew."""

from __future__ import annotations

from agon.analysis.chances import figure, pct
from agon.analysis.figures import CREW_COLOR
from agon.analysis.palette import PALETTE
from agon.core.analyse import Settings, analyse
from agon.core.service import NewGame
from tests.test_rollout import pig


def test_each_players_chance_ends_with_its_final_value(sqlite_svc):
    line = sqlite_svc.load(pig(sqlite_svc))
    a = analyse(sqlite_svc, line, Settings(rollouts=20, seed=4))
    fig = figure(a)
    last = a.positions[-1]
    finals = {(x.text, x.font.color) for x in fig.layout.annotations if x.name == "final"}
    assert finals == {(f"Ana {pct(last.chances['Ana'])}", PALETTE[0]), (f"Bruno {pct(last.chances['Bruno'])}",
                                                                        PALETTE[1])}
    assert fig.layout.xaxis.range == (a.positions[0].n, last.n) and fig.layout.margin.r >= 60
    marked = [x for x in fig.layout.annotations if x.name == "marked"]
    assert marked and all(x.text.startswith("#10") for x in marked)
    # the players' lines differ by more than colour: each player's marker and dash, as in every plot of the game
    ana, bruno = fig.data
    assert (ana.marker.symbol, ana.line.dash, bruno.marker.symbol, bruno.line.dash) == ("circle", "solid", "square",
                                                                                        "dash")
    assert list(ana.selectedpoints)[-1] == len(a.positions) - 1


def test_a_co_op_game_has_one_chance_for_the_crew(sqlite_svc):
    gid = sqlite_svc.new_game(NewGame(ruleset="adamastor", bots=[("Ana", "greedy"), ("Bruno", "greedy")], seed=2))
    sqlite_svc.branch(gid, "short", at=8)  # a short line keeps the rollouts few
    line = sqlite_svc.load(gid, "short")
    a = analyse(sqlite_svc, line, Settings(rollouts=4, seed=1))
    fig = figure(a)
    assert [(t.name, t.line.color) for t in fig.data] == [("crew", CREW_COLOR)]
    assert [x.text for x in fig.layout.annotations if x.name == "final"] == [
        f"crew {pct(a.positions[-1].chances['Ana'])}"]
    assert all(p.chances["Ana"] == p.chances["Bruno"] for p in a.positions)  # one chance, shared


def test_no_label_of_the_chart_overlaps_another_in_a_real_browser(sqlite_svc, page, tmp_path):
    from agon.analysis.figures import write
    from tests.analysis.test_label_layout import BOXES, collisions

    line = sqlite_svc.load(pig(sqlite_svc))
    target = tmp_path / "chances.html"
    write(figure(analyse(sqlite_svc, line, Settings(rollouts=20, seed=4))), str(target))
    page.goto(target.as_uri())
    page.wait_for_selector("g.infolayer")
    boxes = page.evaluate(BOXES)
    assert sum(b["kind"] == "label" for b in boxes) >= 3 and collisions(boxes) == []


def test_the_first_position_is_told_in_the_logs_sentence(agon):
    """`agon plot chances G --rollouts 2 --json` on `agon demo adamastor --seed 3`: position #0 had an empty text and
    its hover said '#0' and nothing else, where `agon log` tells the event ('Ana and Bruno set out on a voyage
    (regular).'). It now reads as the log does, in the JSON and in the chart's hover."""
    import json

    from agon.cli.common import service, set_db

    gid = json.loads(agon("demo", "adamastor", "--seed", "3", "--json").stdout)["id"]
    said = json.loads(agon("log", gid, "--json").stdout)[0]
    assert said["n"] == 0 and said["text"].endswith(" set out on a voyage (regular).")
    positions = json.loads(agon("plot", "chances", gid, "--rollouts", "2", "--json").stdout)["positions"]
    assert positions[0]["n"] == 0 and positions[0]["text"] == said["text"]
    assert all(p["text"] for p in positions)
    set_db(None)
    svc = service()  # the store the commands above wrote to
    fig = figure(analyse(svc, svc.load(gid), Settings(rollouts=2)))
    assert fig.data[0].hovertext[0].startswith(f"#0 {said['text'].rstrip('.')}"), fig.data[0].hovertext[0]

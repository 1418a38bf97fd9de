"""An Adamastor score is no points: the rulebook names only a win or a loss (6 'Ganhando ou perdendo o jogo'), and the
2-player co-op game keeps 'as condições de vitória e de derrota' (9.3), so the score is the voyage's progress in
percent, solo or co-op, going on or over (RULES.md 'Scores and projections'). Every face that shows it says so: a
crew's end read 'Scores: Ana 100, Bruno 100', a solo voyage under way 'Scores: Ana 20', as if they were points."""

from __future__ import annotations

import json
import re

import pytest

UNIT = "% of the voyage sailed"


def _scores_lines(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if ln.startswith("Scores:")]


def _demo(agon, players: str, seed: str) -> str:
    return json.loads(agon("demo", "adamastor", "--players", players, "--seed", seed, "--json").stdout)["id"]


def test_a_crew_game_over_and_a_solo_voyage_under_way_say_their_scores_are_the_voyage_sailed(agon):
    crew = _demo(agon, "2", "3")
    said = [f"Scores: the crew 66.7{UNIT}"]  # a crew's one score told once (tests/test_crew_scores_once.py)
    assert _scores_lines(agon("state", crew).stdout) == said
    assert _scores_lines(agon("demo", "adamastor", "--players", "2", "--seed", "3").stdout) == said
    assert _scores_lines(agon("play", crew).stdout) == said  # the outcome's own words (Outcome.score_unit)
    solo = _demo(agon, "1", "5")
    under_way = agon("state", solo, "--at", "30").stdout
    assert f"  progress: 26.7{UNIT}\n" in under_way
    assert _scores_lines(under_way) == [f"Scores: Ana 26.7{UNIT}"]
    assert _scores_lines(agon("state", crew, "--at", "30", "--as", "Bruno").stdout) == [
        f"Scores: the crew 40{UNIT}"]
    listed = agon("games").stdout
    # a crew's one score listed once, as the crew's (tests/test_stats_crew.py)
    assert f"  players: Ana, Bruno; scores: the crew 66.7{UNIT}\n" in listed and f"  Ana 53.3{UNIT}\n" in listed
    assert f"(the crew 66.7{UNIT})" in " ".join(agon("branches", crew).stdout.split())


def _line(agon, players: str = "2"):
    from agon.cli.common import service, set_db

    gid = _demo(agon, players, "3")
    set_db(None)
    return gid, service().load(gid)


def test_plots_and_the_study_page_say_what_an_adamastor_score_is(agon):
    from agon.analysis.figures import scores_figure
    from agon.analysis.study import build_study, study_data

    _, line = _line(agon)
    fig = scores_figure([line])
    assert UNIT in fig.layout.yaxis.title.text
    hovers = [h for t in fig.data if t.hovertext for h in t.hovertext if "<br>crew: " in h]
    assert hovers and all(h.endswith(UNIT) for h in hovers), hovers[:3]
    assert hovers[-1].endswith(f"<br>crew: 66.7{UNIT}")
    data = study_data([line])
    assert data["score_unit"] == UNIT and data["score_label"] == UNIT.strip()
    page = build_study([line], data=data)
    # the page's areas ('score 66.7% of the voyage sailed'), hovers and axis read the data's words
    assert '"  score " + num(s) + (data.score_unit || "")' in page
    assert 'hovertemplate: p + " %{y}" + (data.score_unit || "")' in page
    assert "yaxis: {title: {text: data.score_label" in page


def test_stats_compare_and_analyse_say_what_an_adamastor_score_is(agon):
    gid, _ = _line(agon)
    _demo(agon, "1", "5")
    stats = agon("stats", "adamastor").stdout
    assert f"By setup (the crew wins or loses each voyage together; a score is the {UNIT})\n" in stats
    assert "By seat" not in stats  # a crew's seats win or lose together: its result is told once, by setup
    assert json.loads(agon("stats", "adamastor", "--json").stdout)["score_unit"] == UNIT
    agon("branch", gid, "luckier", "--at", "40", "--reseed")
    agon("act", gid, "bot")  # the chance due at #40 was drawn as the branch was made; the bots play on to the end
    out = agon("compare", gid, "main", "luckier").stdout
    assert f"Scores ({UNIT})" in out
    words = " ".join(out.split())
    number = r"\d+(\.\d)?"  # the fresh luck is the branch's own
    # a crew's one score, told once as the crew's (tests/analysis/test_compare_together.py)
    assert re.search(f"final scores on luckier: the crew {number}{re.escape(UNIT)} (instead of 66.7|as before)\\.",
                     words), words
    assert json.loads(agon("compare", gid, "main", "luckier", "--json").stdout)["score_unit"] == UNIT
    analysed = " ".join(agon("analyse", gid, "-b", "main", "--rollouts", "4", "--seed", "1").stdout.split())
    assert re.search(r"the crew \d+% \(expected final score [\d.]+" + re.escape(UNIT) + r"\)", analysed), analysed
    told = json.loads(agon("analyse", gid, "-b", "main", "--rollouts", "4", "--seed", "1", "--json").stdout)
    assert told["score_unit"] == UNIT


@pytest.mark.browser
def test_the_study_page_in_a_browser_says_what_the_voyages_score_is_and_keeps_its_axis_title_whole(page, agon,
                                                                                                    tmp_path):
    """A class reads 'Ana score 26.7' on a voyage's study page as points: the player's heading and the timeline's
    hover say what it is, and the axis title (the plot's words, not the longer one of `agon plot scores`, which ran
    past the page's short plot and was cut) stays whole inside the plot."""
    gid = _demo(agon, "1", "5")
    agon("view", gid, "-o", "study.html")
    page.goto((tmp_path / "study.html").as_uri() + "#line=main&step=30")
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    page.wait_for_function("document.body.dataset.step === '30'")
    assert page.text_content("#state .area h3").endswith(f"score 26.7{UNIT}")
    got = page.evaluate("""() => { const p = document.getElementById('timeline');
        const t = p.querySelector('.g-ytitle text'), r = t.getBoundingClientRect(), box = p.getBoundingClientRect();
        return {title: t.textContent, inside: r.top >= box.top && r.bottom <= box.bottom,
                hover: p.data[0].hovertemplate}; }""")
    assert got["title"] == UNIT.strip() and got["inside"], got
    assert got["hover"] == f"crew %{{y}}{UNIT} after #%{{x}}<extra></extra>"  # one score, the crew's
    assert page.page_errors == []


def test_the_study_page_draws_a_crews_one_score_once_and_credits_its_swings_to_the_crew(agon):
    """A co-op voyage's study page drew Ana's and Bruno's equal lines one over the other and put the swings on them
    by turns ('#30 Ana +6.7', '#30 Bruno +6.7', '#40 Ana +6.7', no Bruno at #40), where `agon plot scores` draws
    the crew's one line: a class read two players' scores that differ. It draws the crew's, as the plot does."""
    from agon.analysis.figures import scores_figure
    from agon.analysis.study import study_data

    _, line = _line(agon)
    plot = [a.text for a in scores_figure([line]).layout.annotations if a.name in ("swing", "lead")]
    for viewer in (None, "Bruno"):
        data = study_data([line], as_player=viewer)
        assert data["plotted"] == ["crew"] and data["players"] == ["Ana", "Bruno"], viewer
        labels = [m["label"] for m in data["lines"][0]["moments"]]
        assert labels == plot and labels and all(t.startswith("crew +") for t in labels), (labels, plot)
        last = data["nodes"][data["lines"][0]["path"][-1]]["scores"]
        assert last == {"Ana": 66.7, "Bruno": 66.7, "crew": 66.7}  # each player's heading keeps its number


def test_analyse_of_a_crew_says_its_marked_figures_are_the_crews_chance(agon):
    """`agon analyse` of a co-op voyage tells the crew's one chance ('the crew 60%'), then said of its marked
    decisions that 'each figure is the player's chance': the figures are the crew's."""
    from agon.cli.common import service, set_db
    from agon.core.service import NewGame

    agon("where")  # the store the commands read
    set_db(None)
    svc = service(starts=True)
    # a known salt: the same event ids every run, so the rollouts (whose luck is keyed by event id) are the same
    gid = svc.new_game(NewGame("adamastor", bots=[("Ana", "greedy"), ("Bruno", "greedy")], seed=3, salt="crew"))
    assert svc.load(gid).status().startswith("over: Ana and Bruno")
    out = " ".join(agon("analyse", gid, "--rollouts", "10", "--seed", "0", "--workers", "1").stdout.split())
    assert "Marked: " in out and "each figure is the crew's chance after the move made" in out, out
    assert "the player's chance" not in out


def test_state_and_plot_scores_json_say_what_a_score_is(agon):
    """A script reading `agon state --json` or `agon plot scores --json` got the voyage's 26.7 with nothing saying
    it is no points: both give "score_unit" beside the scores ("" where they are points)."""
    gid = _demo(agon, "1", "5")
    state = json.loads(agon("state", gid, "--at", "30", "--json").stdout)
    assert state["scores"] == {"Ana": 26.7} and state["score_unit"] == UNIT
    assert json.loads(agon("plot", "scores", gid, "--json").stdout)[0]["score_unit"] == UNIT
    other = json.loads(agon("demo", "pergamemnon", "--seed", "4", "--json").stdout)["id"]
    assert json.loads(agon("state", other, "--json").stdout)["score_unit"] == ""
    assert json.loads(agon("plot", "scores", other, "--json").stdout)[0]["score_unit"] == ""


@pytest.mark.browser
def test_a_voyages_chances_are_told_as_the_chance_it_succeeds_not_a_win_chance(page, agon, tmp_path):
    """The chart's title and `agon analyse` say 'chance the voyage succeeds'; `agon plot chances` said it wrote 'the
    win-chance chart', and the study page's sentence under it read 'Win chances after #30: crew 87%'."""
    gid = _demo(agon, "1", "5")
    few = ("--rollouts", "2", "--alternatives", "2", "--workers", "1")
    said = " ".join(agon("plot", "chances", gid, *few).stdout.split())
    assert said.startswith("Wrote the chart of the chance the voyage succeeds to "), said
    agon("view", gid, "-o", "study.html")
    page.goto((tmp_path / "study.html").as_uri() + "#line=main&step=30")
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    page.wait_for_function("document.getElementById('chances-now').textContent !== ''")
    now = page.text_content("#chances-now")
    assert re.fullmatch(r"The chance the voyage succeeds after #30: crew \d+%\.", now), now
    assert page.page_errors == []

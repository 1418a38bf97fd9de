"""The study page in a real browser (headless Chromium driven by Playwright, tests/browser.py), on the known pig game
with its what-if line ``lucky`` (tests/analysis/conftest.py): a click on a move, entering the branch at its fork,
up/down between the lines, a note shown, the timeline clicked between two points, the keys, and the position
restored from the address on reload. A screenshot is kept in test-artifacts/.

Where Chromium is absent these tests skip and say so, unless AGON_REQUIRE_BROWSER=1 (CI), where they fail.
"""

from __future__ import annotations

import pytest

from agon.analysis.study import build_study
from agon.core.notes import add as add_note
from agon.core.notes import all_notes
from tests.browser import ARTIFACTS

pytestmark = pytest.mark.browser

SHOWN = """() => ({
    line: document.body.dataset.line,
    step: document.body.dataset.step,
    narration: document.getElementById('narration').textContent,
    current: [...document.querySelectorAll('#moves .move.current')].map(e => e.textContent),
    tree: [...document.querySelectorAll('#tree a.on')].map(e => e.textContent),
    label: document.getElementById('step-label').textContent,
    marker: Number(document.getElementById('marker').dataset.n),
    // where the marker is drawn, in the event numbers of the plot's x axis
    drawn: (() => { const p = document.getElementById('timeline'), m = document.getElementById('marker');
                    const a = p.querySelector('.nsewdrag').getBoundingClientRect(), r = m.getBoundingClientRect();
                    return p._fullLayout.xaxis.p2d((r.left + r.right) / 2 - a.left); })(),
    areas: [...document.querySelectorAll('#state .area')].map(e => e.dataset.player),
    table: document.querySelector('#state .middle').textContent,
    hash: location.hash,
})"""


def shown(page) -> dict:
    return page.evaluate(SHOWN)


def at(page, line: str, step: int) -> dict:
    page.wait_for_function(f"document.body.dataset.line === '{line}' && document.body.dataset.step === '{step}'")
    return shown(page)


@pytest.fixture
def study(known, tmp_path):
    svc, gid = known.svc, known.game
    add_note(svc, gid, 6, "banking 9 this early is safe", "!")
    add_note(svc, gid, 11, "the 2 that wins it", "!!", branch="lucky")
    notes = {n.event_id: (n.glyph, n.text) for _, n in all_notes(svc, gid)[1]}
    path = tmp_path / "study.html"
    path.write_text(build_study(svc.lines(gid), notes, current="main"), encoding="utf-8")
    return path


def test_the_study_page_in_a_real_browser(page, study):
    page.goto(study.as_uri())
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    first = at(page, "main", 0)
    assert first["narration"].startswith("#0 A game of pig to 10 begins for Ana, Bruno.")
    assert first["tree"] == ["main"] and first["hash"] == "#line=main&step=0"
    moves = page.eval_on_selector_all("#moves .move", "ms => ms.length")
    assert moves == 15

    # a click on a move; its note and glyph are shown with it
    page.click("#moves .move[data-step='6']")
    now = at(page, "main", 6)
    assert now["current"] == ["6.Ana holds, banking 9.!banking 9 this early is safe"]
    assert now["narration"] == "#6! Ana holds, banking 9. (Ana's decision)banking 9 this early is safe"
    assert now["marker"] == 6 and now["label"] == "line main · event 6 of 14 · round 1"
    assert abs(now["drawn"] - 6) < 0.05, now["drawn"]  # the line over the plot stands at event 6
    assert now["areas"] == ["Ana", "Bruno"] and "to act:Bruno" in now["table"]

    # the variation listed under #10 enters the branch at its fork
    page.click("#moves a.variation[data-line='lucky']")
    lucky = at(page, "lucky", 11)
    assert lucky["tree"] == ["lucky"] and lucky["narration"].startswith("#11!! Ana rolls a 2.")
    assert "the 2 that wins it" in lucky["narration"]
    assert page.eval_on_selector_all("#moves .move", "ms => ms.length") == 13
    page.keyboard.press("ArrowRight")
    assert at(page, "lucky", 12)["narration"].startswith("#12 Ana holds, banking 2.")

    # up/down switch between the lines that part at the position shown; left/right, Home/End step
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    at(page, "lucky", 10)
    page.keyboard.press("ArrowDown")
    assert at(page, "main", 10)["tree"] == ["main"]
    page.keyboard.press("ArrowRight")
    assert at(page, "main", 11)["narration"].startswith("#11 Ana rolls a 1")
    page.keyboard.press("ArrowUp")  # no other line parts here: nothing changes
    page.keyboard.press("End")
    assert at(page, "main", 14)["narration"].startswith("#14 Bruno holds, banking 6.")
    page.keyboard.press("Home")
    at(page, "main", 0)

    # the timeline, clicked between two of its points (at x = 7.4), goes to the nearest event
    box = page.evaluate("""() => {
        const p = document.getElementById('timeline'), xa = p._fullLayout.xaxis, ya = p._fullLayout.yaxis;
        const r = p.querySelector('.nsewdrag').getBoundingClientRect();
        return {x: r.left + xa.d2p(7.4), y: r.top + ya.d2p(7.5)};
    }""")
    page.mouse.click(box["x"], box["y"])
    now = at(page, "main", 7)
    assert now["marker"] == 7 and abs(now["drawn"] - 7) < 0.05, now["drawn"]

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "study-main-7.png"))

    # the address names the position: a link opens it, a reload keeps it
    page.goto(study.as_uri() + "#line=lucky&step=12")
    page.reload()
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    back = at(page, "lucky", 12)
    assert back["tree"] == ["lucky"] and back["current"][0].startswith("12.Ana holds, banking 2.")
    assert page.page_errors == []


LABELS = """() => {
    const plot = document.getElementById('timeline'), area = plot.querySelector('.nsewdrag').getBoundingClientRect();
    const box = sel => { const r = plot.querySelector(sel).getBoundingClientRect(); return [r.top, r.bottom]; };
    const moment = i => plot.layout.annotations[i].name !== 'final';  // the players' names at their lines' ends
    return {area: [area.left, area.right], height: area.height, page: document.documentElement.clientWidth,
            legend: box('g.legend'), xtitle: box('g.g-xtitle'),
            anchors: plot.layout.annotations.filter((a, i) => moment(i)).map(a => [a.text, a.xanchor]),
            labels: [...plot.querySelectorAll('g.annotation')].filter(g => moment(Number(g.dataset.index)))
              .map(g => { const b = g.getBoundingClientRect();
                return {text: g.textContent, x0: b.left, x1: b.right, y0: b.top, y1: b.bottom}; })};
}"""


def label_problems(page) -> tuple[dict, list[str]]:
    """The turning points' labels as the browser drew them, and each one that runs past the plot area's left or
    right edge (or the page's) or covers another label."""
    got = page.evaluate(LABELS)
    (left, right), width, labels = got["area"], got["page"], got["labels"]
    found = [f"{b['text']!r} runs from {b['x0']:.0f} to {b['x1']:.0f}, past the plot ({left:.0f} to {right:.0f})"
             for b in labels if b["x0"] < left - 0.5 or b["x1"] > min(right, width) + 0.5]
    found += [f"{a['text']!r} covers {b['text']!r}" for i, a in enumerate(labels) for b in labels[i + 1:]
              if a["x0"] < b["x1"] - 1 and b["x0"] < a["x1"] - 1 and a["y0"] < b["y1"] - 1 and b["y0"] < a["y1"] - 1]
    return got, found


LAID_OUT = "() => { const got = (" + LABELS + """)(), [left, right] = got.area, labels = got.labels;
    return labels.every(b => b.x0 >= left - 0.5 && b.x1 <= Math.min(right, got.page) + 0.5)
      && labels.every((a, i) => labels.slice(i + 1).every(b => !(a.x0 < b.x1 - 1 && b.x0 < a.x1 - 1
        && a.y0 < b.y1 - 1 && b.y0 < a.y1 - 1))); }"""
"""Whether every turning point's label lies inside the plot and covers no other (``label_problems``' test, in the
page)."""


def until(page, condition: str) -> None:
    """Wait up to 5 s for ``condition`` (a function, in the page) to hold; the caller then asserts what the page
    shows, naming what is wrong where it never did."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(condition, timeout=5000)
    except PlaywrightTimeout:
        pass


def settled(page) -> tuple[dict, list[str]]:
    """``label_problems`` once the page has laid its labels out again after a resize (or after 5 s: what is wrong
    then)."""
    until(page, LAID_OUT)
    return label_problems(page)


def test_every_turning_point_label_lies_inside_the_plot_at_any_width(page, study):
    # the known game's last event (#14) is a turning point: its labels, centred on it, ran past the right edge
    heights = []  # the plot area's, at each width
    for width in (1280, 800):
        page.set_viewport_size({"width": width, "height": 1000})
        page.goto("about:blank")  # a new load at this width (the same address again would only be a jump)
        page.goto(study.as_uri() + "#line=main&step=14")
        page.wait_for_function("document.body && document.body.dataset.ready === '1'")
        got, found = label_problems(page)
        assert [b["text"] for b in got["labels"]] == ["#6 Ana +9", "#9 Bruno +5", "#14 Bruno takes the lead for good",
                                                      "#14 Bruno +6"]
        assert found == [], (width, found)
        assert got["anchors"][2:] == [["#14 Bruno takes the lead for good", "right"], ["#14 Bruno +6", "right"]]
        # the rows of labels take room above the plot, not from it: the scores keep 300 - 50 - 40 pixels
        heights.append(settled(page)[0]["height"])
        assert got["xtitle"][1] <= got["legend"][0] + 0.5, ("the legend covers the axis title", width, got)
    # the rows of labels (more of them at 800 px) take room above the plot, not from it
    assert abs(heights[0] - heights[1]) < 1, heights
    # on a phone's width the move list goes above the board: the plot keeps most of the page's width
    page.set_viewport_size({"width": 500, "height": 900})
    page.goto("about:blank")
    page.goto(study.as_uri() + "#line=main&step=14")
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    got, found = settled(page)
    assert found == [] and got["area"][1] - got["area"][0] > 300, got["area"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#timeline").screenshot(path=str(ARTIFACTS / "study-labels-800.png"))

    # a page made wider, then narrower again, lays them out anew; so does entering another line
    page.set_viewport_size({"width": 1280, "height": 1000})
    assert settled(page)[1] == []
    page.set_viewport_size({"width": 760, "height": 1000})
    assert settled(page)[1] == []
    # the current event's line follows the plot it stands on as the page narrows
    page.wait_for_function("() => { const p = document.getElementById('timeline'), m = document.getElementById("
                           "'marker'), a = p.querySelector('.nsewdrag').getBoundingClientRect(), "
                           "r = m.getBoundingClientRect(); "
                           "return Math.abs(p._fullLayout.xaxis.p2d((r.left + r.right) / 2 - a.left) - 14) < 0.05; }",
                           timeout=5000)
    # and the figure follows its box's width (a layout height once pinned it at the width it had: 832 px)
    page.wait_for_function("""() => { const p = document.getElementById('timeline');
        return Math.abs(p._fullLayout.width - p.clientWidth) < 2; }""", timeout=5000)
    page.click("#moves .move[data-step='10']")
    page.click("#moves a.variation[data-line='lucky']")
    at(page, "lucky", 11)
    got, found = settled(page)
    assert [b["text"] for b in got["labels"]][-1] == "#12 Ana +2" and found == []
    assert page.page_errors == []


def test_a_page_for_one_player_opens_with_their_view_only(page, known, tmp_path):
    path = tmp_path / "bruno.html"
    path.write_text(build_study(known.svc.lines(known.game), as_player="Bruno"), encoding="utf-8")
    page.goto(path.as_uri() + "#line=main&step=9")
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    now = at(page, "main", 9)
    assert now["areas"] == ["Bruno", "Ana"]  # their own area first
    assert page.eval_on_selector_all("#as option", "os => os.map(o => o.value)") == ["Bruno"]
    assert "as Bruno sees it" in page.text_content("#state-title")
    assert page.page_errors == []


def test_the_win_chance_chart_is_drawn_where_an_analysis_exists(page, agon, tmp_path):
    import json

    gid = json.loads(agon("new", "toy", "--bot", "Ana:random", "--bot", "Bruno:random", "--seed", "3",
                          "--json").stdout)["id"]
    agon("analyse", gid, "--rollouts", "5", "--workers", "1")
    agon("view", gid, "-o", "study.html")
    page.goto((tmp_path / "study.html").as_uri() + "#line=main&step=20")
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    at(page, "main", 20)
    page.wait_for_function("document.querySelectorAll('#chances .scatterlayer .trace').length === 2")
    # at the size its labels were placed for, as 'agon plot chances' draws it; a narrower column scrolls sideways
    size = page.evaluate("() => { const c = document.getElementById('chances'); "
                         "return [c._fullLayout.width, c._fullLayout.height, c.scrollWidth, c.clientWidth]; }")
    assert size[:2] == [1200, 700] and size[2] >= 1200 > size[3], size
    # to a screen reader: one picture named by its title, and the chances after the event shown in a sentence
    assert page.get_attribute("#chances", "role") == "img" and "after every event" in page.get_attribute(
        "#chances", "aria-label")
    said = page.text_content("#chances-now")
    assert said.startswith("Win chances after #20: Ana ") and ", Bruno " in said and said.endswith("%."), said
    assert page.page_errors == []


def test_the_page_lists_the_decisions_within_the_noise_apart_from_the_marked_with_the_run_that_tells(page, agon,
                                                                                                      tmp_path):
    """`agon analyse` lists, apart from what it marks, the decisions that lost more than the threshold by less than
    the figures' noise, and names the run that tells: the study page under its chart does too, and the chart labels
    them in grey; a page made as a player has no chances (they come from the full state), so none of this."""
    import json

    from agon.cli.common import service, set_db
    from tests.test_rollout import pig

    set_db(None)
    gid = pig(service(starts=True))
    agon("analyse", gid, "--rollouts", "8", "--workers", "1")  # two losses within the noise, none marked
    agon("view", gid, "-o", "study.html")
    page.goto((tmp_path / "study.html").as_uri())
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    page.wait_for_function("document.querySelectorAll('#chances .scatterlayer .trace').length === 2")
    said = " ".join(page.inner_text("#judged").split())
    assert "Marked:" not in said
    assert said.startswith("Not marked: lost more than 10% of the win chance by these figures, but by less than their"
                           " own uncertainty"), said
    assert [" ".join(t.split()) for t in page.eval_on_selector_all("#judged li.uncertain", "ls => ls.map(l =>"
                                                                   " l.textContent)")][1].startswith("#10 Ana rolls: ")
    assert said.endswith(f"200 are enough: `agon analyse {gid} -b main --rollouts 200` (slower).")
    drawn = page.eval_on_selector_all("#chances .annotation-text", "ts => ts.map(t => t.textContent)")
    assert len([t for t in drawn if t.endswith("within the noise")]) == 2, drawn

    agon("analyse", gid, "--rollouts", "200", "--workers", "1")  # enough: #10 is marked, nothing is uncertain
    agon("view", gid, "-o", "enough.html")
    page.goto((tmp_path / "enough.html").as_uri())
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    said = " ".join(page.inner_text("#judged").split())
    assert said.startswith("Marked: lost more than 10% of the win chance against the best alternative") and (
        "#10 Ana rolls: " in said) and "Not marked" not in said, said

    agon("view", gid, "--as", "Ana", "-o", "ana.html")
    page.goto((tmp_path / "ana.html").as_uri())
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    assert page.inner_text("#judged") == "" and page.inner_text("#chances") == ""
    data = json.loads(page.text_content("#study-data"))
    assert data["chances"] == {}
    assert page.page_errors == []


LONG = ("Alexandra-Papadopoulou-Konstantinidou", "Bartholomew-Featherstonehaugh-Smythe")


@pytest.fixture
def long_names(sqlite_svc, tmp_path):
    """The known game (tests/analysis/conftest.py) between two players with 36-letter names: its turning points'
    labels ("#14 Bartholomew-... takes the lead for good") are wider than a third of a narrow plot, and its legend
    takes more than one row there."""
    from agon.core.service import NewGame
    from tests.analysis.conftest import MAIN

    svc = sqlite_svc
    gid = svc.new_game(NewGame(ruleset="toy", players=list(LONG), table=True, options={"target": 10}, seed=1))
    for choice in [" ".join(LONG), *MAIN[1:]]:
        svc.act(gid, choice)
    path = tmp_path / "long.html"
    path.write_text(build_study(svc.lines(gid)), encoding="utf-8")
    return path


def test_long_labels_stay_whole_inside_the_plot_and_the_legend_under_the_axis_title(page, long_names):
    a, b = LONG
    want = [f"#6 {a} +9", f"#9 {b} +5", f"#14 {b} takes the lead for good", f"#14 {b} +6"]
    for width in (1280, 800, 500, 380):
        page.set_viewport_size({"width": width, "height": 1000})
        page.goto("about:blank")
        page.goto(long_names.as_uri() + "#line=main&step=9")
        page.wait_for_function("document.body && document.body.dataset.ready === '1'")
        got, found = settled(page)
        # nothing cut off at either edge (a label in the middle third, centred on its point, ran past the right
        # edge; one in the last third, ending at its point, past the left edge), none covering another
        assert found == [], (width, found)
        # every label whole: one wider than the plot is broken into lines, never shortened
        texts = page.evaluate("() => document.getElementById('timeline').layout.annotations"
                              ".filter(a => a.name !== 'final').map(a => a.text.split('<br>').join(' '))")
        assert texts == want, (width, texts)
        # the legend (three rows of long names on a narrow page) lies under the axis title, not over it
        assert got["xtitle"][1] <= got["legend"][0] + 0.5, ("the legend covers the axis title", width, got)
        if width == 500:
            ARTIFACTS.mkdir(exist_ok=True)
            page.locator("#timeline").screenshot(path=str(ARTIFACTS / "study-long-names-500.png"))
    assert page.page_errors == []


def test_the_timeline_title_stays_whole_on_a_phone(page, study):
    # at 300 px the title ran past the right edge and was cut off: it is broken into lines, above the labels
    page.set_viewport_size({"width": 300, "height": 900})
    page.goto(study.as_uri() + "#line=main&step=14")
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    title = """() => {
            const plot = document.getElementById('timeline'), t = plot.querySelector('.gtitle').getBoundingClientRect();
            const box = plot.getBoundingClientRect();
            const labels = [...plot.querySelectorAll('g.annotation')].map(g => g.getBoundingClientRect().top);
            return {text: plot.querySelector('.gtitle').textContent, left: t.left, right: t.right, top: t.top,
                    bottom: t.bottom, box: [box.left, box.right, box.top], labels};
        }"""
    # the title laid out for the new width: its right end inside the plot (or what it is after 5 s, asserted below)
    until(page, f"() => {{ const got = ({title})(); return got.right <= got.box[1] + 0.5; }}")
    got = page.evaluate(title)
    assert got["text"].replace(" ", "") == "Scoresalongmain(clickanywheretogothere)"
    assert got["box"][0] - 0.5 <= got["left"] and got["right"] <= got["box"][1] + 0.5, got
    assert got["top"] >= got["box"][2] - 0.5 and all(got["bottom"] <= y + 0.5 for y in got["labels"]), got
    _, found = settled(page)
    assert found == []


DRAWN = """() => { const p = document.getElementById('timeline'), r = p.getBoundingClientRect();
    return {traces: p.data.map(t => [t.name, t.marker.symbol, t.line.dash, t.selectedpoints.length]),
            finals: [...p.querySelectorAll('g.annotation')].filter(g => p.layout.annotations[g.dataset.index].name
                === 'final').map(g => { const b = g.getBoundingClientRect();
                  return {text: g.textContent, x0: b.left, x1: b.right, y0: b.top, y1: b.bottom}; }),
            right: r.right}; }"""


def test_the_timeline_tells_players_apart_by_marker_and_dash_and_names_them_at_their_lines_ends(page, known,
                                                                                               tmp_path):
    known.svc.branch(known.game, "even", at=2)  # a line that ends with both scores at 0: the names moved apart
    for who, name, line in ((None, "all", "main"), ("Bruno", "bruno", "main"), (None, "even", "even")):
        path = tmp_path / f"{name}.html"
        path.write_text(build_study(known.svc.lines(known.game), as_player=who), encoding="utf-8")
        page.goto(path.as_uri() + f"#line={line}&step=1")
        page.wait_for_function("document.body && document.body.dataset.ready === '1'")
        got = page.evaluate(DRAWN)
        assert [t[:3] for t in got["traces"]] == [["Ana", "circle", "solid"], ["Bruno", "square", "dash"]], who
        assert all(t[3] >= 1 for t in got["traces"])  # markers on each line (at least at its end)
        # the names only, nothing more (a page made as one player shows no more than before), inside the figure,
        # neither covering the other
        a, b = got["finals"]
        assert {a["text"], b["text"]} == {"Ana", "Bruno"}, who
        assert max(a["x1"], b["x1"]) <= got["right"] + 0.5
        assert a["y1"] <= b["y0"] + 1 or b["y1"] <= a["y0"] + 1, (a, b)
    assert page.page_errors == []


def test_an_address_naming_a_position_the_page_does_not_hold_says_what_it_shows_instead(page, known, tmp_path):
    svc, gid = known.svc, known.game
    path = tmp_path / "main-only.html"  # as `agon view GAME -b main` writes it: no line lucky
    path.write_text(build_study([svc.load(gid, "main")], {}, current="main"), encoding="utf-8")
    notice = "() => document.getElementById('notice').hidden ? null : document.getElementById('notice').textContent"
    page.goto(path.as_uri() + "#line=lucky&step=11")
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    got = at(page, "main", 0)  # not main's #11, which is not the position the link named
    assert got["hash"] == "#line=main&step=0"
    assert page.evaluate(notice) == "This page holds no line 'lucky': it shows line main from its start."
    page.keyboard.press("ArrowRight")  # said once: moving on clears it
    at(page, "main", 1)
    assert page.evaluate(notice) is None
    page.goto(path.as_uri() + "#line=main&step=40")  # the same page: the address changes, and the page follows it
    page.wait_for_function(notice)
    assert page.evaluate(notice) == "Line main has no event 40 (it holds events 0 to 14): it shows its start."
    page.goto(path.as_uri() + "#line=main&step=6")
    at(page, "main", 6)
    assert page.evaluate(notice) is None


def test_a_link_to_a_line_with_no_chances_opens_it_without_an_error(page, agon, tmp_path):
    """A what-if line is seldom analysed: a link to it opens it, and the chart of the line analysed is neither drawn
    over it nor left half drawn (Plotly threw from inside its own code when the box it drew into was emptied
    meanwhile); going back and forth between the two lines at the fork draws and takes away the chart in turn."""
    import json

    gid = json.loads(agon("new", "toy", "--bot", "Ana:random", "--bot", "Bruno:random", "--seed", "3",
                          "--json").stdout)["id"]
    agon("analyse", gid, "--rollouts", "5", "--workers", "1")

    def fifth(branch: str) -> str:
        return json.loads(agon("log", gid, "-b", branch, "--json").stdout)[5]["text"]

    # fresh luck is random: about one time in six the what-if's roll (#5) is main's, the lines then part later and
    # nothing forks at #4 (no line to go down to there); a line is branched again until its roll differs
    for tries in range(40):
        whatif = f"whatif{tries}"
        agon("branch", gid, whatif, "--at", "4", "--reseed")  # the roll that follows, drawn from the line's own luck
        agon("act", gid, "bot")  # the bots play on
        if fifth(whatif) != fifth("main"):
            break
    else:
        raise AssertionError("40 fresh rolls all equal to main's: --reseed draws no fresh luck")
    agon("switch", gid, "main")  # the page opens on main unless its address names another line
    agon("view", gid, "-b", "main", "-b", whatif, "-o", "study.html")
    page.goto((tmp_path / "study.html").as_uri() + f"#line={whatif}&step=4")
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    at(page, whatif, 4)
    # every chart drawing the page queued on opening (main's chart, drawn over the what-if line, was the bug) has
    # begun by the time it shows the position; two frames later its picture would be in the box
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert page.inner_text("#chances") == "" and page.get_attribute("#chances", "role") is None
    for _ in range(3):  # down and up between main and whatif at #4, without waiting for the chart
        page.keyboard.press("ArrowDown")
    at(page, "main", 4)
    page.wait_for_function("document.querySelectorAll('#chances .scatterlayer .trace').length === 2")
    page.keyboard.press("ArrowDown")
    at(page, whatif, 4)
    page.wait_for_function("document.getElementById('chances').childElementCount === 0")
    assert page.page_errors == []


@pytest.mark.parametrize("kind", ["view", "scores", "chances"])
def test_no_page_agon_writes_offers_to_upload_its_chart(page, agon, tmp_path, kind):
    """plotly.js 3 puts a "Share chart..." button in a chart's tool bar, which uploads the chart to Plotly Cloud: the
    study page's win chances (read from the full state) and every plot agon writes are handed out and open offline,
    so none offers it. The tool bar keeps its other buttons (a PNG of the chart), and nothing leaves the page."""
    import json

    gid = json.loads(agon("new", "toy", "--bot", "Ana:random", "--bot", "Bruno:random", "--seed", "3",
                          "--json").stdout)["id"]
    agon("analyse", gid, "--rollouts", "5", "--workers", "1")
    if kind == "view":
        agon("view", gid, "-o", "out.html")
    else:
        agon("plot", kind, gid, "-o", "out.html")
    sent = []
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:"))
               else (sent.append(r.request.url), r.abort()))
    page.goto((tmp_path / "out.html").as_uri())
    chart = "#chances" if kind == "view" else ".js-plotly-plot"
    page.wait_for_selector(f"{chart} .modebar-btn", state="attached")
    page.hover(chart)
    titles = page.eval_on_selector_all(f"{chart} .modebar-btn", "bs => bs.map(b => b.dataset.title)")
    assert "Download plot as a PNG" in titles and "Share chart..." not in titles, titles
    assert sent == [] and page.page_errors == []


def test_a_line_whose_parent_line_is_left_out_is_shown_where_it_parts_from_a_line_shown(page, known, tmp_path):
    """`agon view -b later -b main`, ``later`` branched from ``lucky``, itself branched from main: the page leaves
    ``lucky`` out, and the tree still says where ``later`` parts from main (it listed it as a second line from the
    start, ``later to #12``, as if it shared nothing with main)."""
    svc, gid = known.svc, known.game
    svc.branch(gid, "later", at=11, from_branch="lucky")
    svc.act(gid, "1", branch="later")  # Ana rolls again after her 2, where she held on lucky
    by_name = {ln.branch.name: ln for ln in svc.lines(gid)}
    path = tmp_path / "two.html"
    path.write_text(build_study([by_name["later"], by_name["main"]]), encoding="utf-8")
    page.goto(path.as_uri())
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    assert page.inner_text("#tree").split("\n") == ["main to #14", "later forks after #10 of main, to #12"]
    at(page, "later", 0)
    page.keyboard.press("End")
    for _ in range(2):
        page.keyboard.press("ArrowLeft")
    at(page, "later", 10)
    page.keyboard.press("ArrowDown")  # where the two lines part, down goes over to main
    assert at(page, "main", 10)["tree"] == ["main"]
    assert page.page_errors == []


def test_a_page_made_public_shows_a_class_no_hand_of_a_game_still_being_played(page, agon, tmp_path):
    """`agon view --public`: what a teacher projects while the game goes on; the state shown in the browser, at the
    newest event and at every earlier one, names nothing that any player may not see (Ana's hand, Bruno's)."""
    import json

    from agon.core.engine import PUBLIC, Over
    from agon.core.service import Service
    from agon.events.store import Store
    from tests.hidden import hidden_identifiers, leaks

    gid = json.loads(agon("new", "pergamemnon", "--player", "Ana", "--bot", "Bruno:greedy", "--seed", "4",
                          "--json").stdout)["id"]
    for _ in range(3):
        agon("act", gid, "1")
    said = agon("view", gid, "--public", "-o", "class.html").stdout
    assert said.startswith("Wrote the study page of 1 line") and "only what every player sees" in said
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    line = Service(store).load(gid)
    store.close()
    rs = line.ruleset
    assert not isinstance(line.pending, Over)  # still being played
    page.goto((tmp_path / "class.html").as_uri())
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    assert page.eval_on_selector_all("#as option", "os => os.map(o => o.textContent)") == ["(every player)"]
    assert "as every player sees it" in page.title()
    checked = 0
    for st in line.steps():
        hidden = hidden_identifiers(rs, st.after, PUBLIC)
        page.click(f"#moves .move[data-step='{st.index}']")
        now = at(page, "main", st.index)
        state = page.text_content("#state")
        assert not leaks([state, now["narration"]], hidden), (st.index, leaks(state, hidden))
        checked += bool(hidden)
    assert checked, "nothing was hidden: the check could not fail"
    assert "hand" in state and "hidden" in state  # the hands are there, face down
    assert page.page_errors == []

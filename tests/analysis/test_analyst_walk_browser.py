"""The study page of a line of one event (a branch at #0), in a real browser: its score timeline counts whole
events. Skips without Chromium unless AGON_REQUIRE_BROWSER=1."""

from __future__ import annotations

import pytest

from agon.analysis.study import build_study
from tests.analysis.test_analyst_walk import demo_line

pytestmark = pytest.mark.browser


def test_the_timeline_of_a_one_event_line_has_ticks_on_whole_events(page, sqlite_svc, tmp_path):
    """Its axis ran from -0.5 to 0.5 with ticks at -0.4, -0.2, 0.2 and 0.4: events that are not."""
    main = demo_line(sqlite_svc, "pergamemnon")
    sqlite_svc.branch(main.game.id, "one", at=0)
    path = tmp_path / "study.html"
    path.write_text(build_study(sqlite_svc.lines(main.game.id), {}, current="one"), encoding="utf-8")
    page.goto(path.as_uri() + "#line=one&step=0")
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    page.wait_for_function("document.getElementById('timeline')._fullLayout !== undefined")
    ticks = page.evaluate("() => [...document.querySelectorAll('#timeline .xtick text')].map(t => t.textContent)")
    assert ticks and all(t.lstrip("−-").isdigit() for t in ticks), ticks
    assert page.page_errors == []


@pytest.mark.parametrize(("ruleset", "kind", "at"), [("perikles", "battles", 66), ("peloponnes", "auction", 12),
                                                     ("pergamemnon", "battles", 20), ("perikles", "battles", 1),
                                                     ("peloponnes", "auction", 4), ("pergamemnon", "battles", 5),
                                                     ("adamastor", "voyage", 3), ("adamastor", "voyage", 12)])
def test_a_short_lines_figure_keeps_its_labels_apart(page, sqlite_svc, tmp_path, ruleset, kind, at):
    """The figures are checked on the shipped replays, long games; a line of one or two battles (a what-if early in
    the game) is drawn small, where Perikles' 'roll' axis title lay over the lower panel's title 'Counters lost at
    each location'."""
    from agon.analysis.figures import write
    from agon.analysis.games import figures_for
    from tests.analysis.test_label_layout import BOXES, collisions

    main = demo_line(sqlite_svc, ruleset, players=2 if ruleset == "adamastor" else 3)
    sqlite_svc.branch(main.game.id, "short", at=at)
    fig = figures_for(ruleset)[kind](sqlite_svc.load(main.game.id, "short"))
    target = tmp_path / "short.html"
    write(fig, str(target))
    page.goto(target.as_uri())
    page.wait_for_selector("g.infolayer")
    assert collisions(page.evaluate(BOXES)) == []
    assert page.page_errors == []


def test_the_mark_of_a_line_parting_in_the_setup_is_drawn_apart_from_the_round_labels(page, sqlite_svc, tmp_path):
    from agon.analysis.figures import scores_figure, write
    from tests.analysis.test_label_layout import BOXES, collisions

    main = demo_line(sqlite_svc, "pergamemnon")
    sqlite_svc.branch(main.game.id, "early", at=2, reseed=True)
    sqlite_svc.act(main.game.id, "bot", branch="early")  # the hands drawn anew with the branch; the bots play on
    fig = scores_figure([sqlite_svc.load(main.game.id, "main"), sqlite_svc.load(main.game.id, "early")])
    target = tmp_path / "early.html"
    write(fig, str(target))
    page.goto(target.as_uri())
    page.wait_for_selector("g.infolayer")
    boxes = page.evaluate(BOXES)
    assert any(b["text"] == "early parts after #2, in the setup" for b in boxes)  # drawn, not hidden off the axis
    assert collisions(boxes) == []

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

"""The move shown on the study page of a long game is in sight, under the header and inside the move list, however
it was reached (a click, the keys, the address) and after the page was scrolled, in a wide window and a short or a
narrow one, on the page `agon view` writes and on the spectators' page `agon serve` serves (/games/ID/watch).

Headless Chromium via Playwright (tests/browser.py); the shipped replays of Perikles (353 events) and Pergamemnon
(whose status, long, takes two lines in a narrow window, so the header is taller than on one line).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agon.analysis.study import build_study
from agon.core.service import Service
from agon.core.transfer import import_data
from agon.events.store import Store
from tests.browser import live_server

pytestmark = pytest.mark.browser

REPLAYS = Path(__file__).resolve().parents[2] / "replays"

WHERE = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; };
  const cur = document.querySelector('#moves .move.current'), r = cur.getBoundingClientRect();
  const at = y => { const e = document.elementFromPoint(r.left + 12, y);
                    return e && e.closest('.move') === cur ? 'the move' : e ? e.tagName.toLowerCase() : 'nothing'; };
  return {step: document.body.dataset.step, move: box(cur), side: box(document.getElementById('side')),
          header: box(document.querySelector('header')), window: innerHeight, scrolled: scrollY,
          seen_at_top: at(r.top + 3), seen_at_bottom: at(r.bottom - 3)};
}"""


@pytest.fixture(scope="module")
def long_games(tmp_path_factory):
    """(the store's URL, {replay: (game id, the study page's file)})."""
    folder = tmp_path_factory.mktemp("long")
    url = f"sqlite:///{folder / 'agon.db'}"
    store = Store(url)
    svc = Service(store)
    pages = {}
    for name in ("perikles-4p", "pergamemnon-3p"):
        gid = import_data(svc, (REPLAYS / f"{name}.jsonl").read_bytes()).game_id
        path = folder / f"{name}.html"
        path.write_text(build_study(svc.lines(gid), {}, current="main"), encoding="utf-8")
        pages[name] = (gid, path)
    store.close()
    return url, pages


def in_sight(page, step: int, how: str) -> None:
    page.wait_for_function(f"document.body.dataset.step === '{step}'")
    w = page.evaluate(WHERE)
    said = f"{how}: {w}"
    assert w["header"]["top"] >= 0 and w["scrolled"] == 0, f"the header is scrolled out of sight; {said}"
    assert w["move"]["top"] >= w["header"]["bottom"] - 0.5, f"the move shown is under the header; {said}"
    assert w["move"]["top"] >= w["side"]["top"] - 0.5 and w["move"]["bottom"] <= w["side"]["bottom"] + 0.5, \
        f"the move shown is outside the move list's view; {said}"
    assert w["move"]["bottom"] <= w["window"] + 0.5, f"the move shown is below the window; {said}"
    assert w["seen_at_top"] == w["seen_at_bottom"] == "the move", f"something covers the move shown; {said}"


def walk(page, url: str) -> None:
    """Move 100 reached every way a reader reaches it, each time in sight."""
    page.goto(url + "#line=main&step=100")
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    in_sight(page, 100, "opened at the address #line=main&step=100")
    page.click("#moves .move[data-step='3'] a")
    in_sight(page, 3, "move 3 clicked")
    page.mouse.move(900, 400)  # over the board: the wheel scrolls it, then whatever else scrolls
    page.mouse.wheel(0, 5000)
    page.wait_for_timeout(200)
    page.mouse.move(150, 400)  # over the move list
    page.mouse.wheel(0, 8000)
    page.wait_for_timeout(200)
    page.click("#moves .move[data-step='100'] a")
    in_sight(page, 100, "scrolled, then move 100 clicked")
    page.keyboard.press("ArrowRight")
    in_sight(page, 101, "the right arrow after move 100")
    page.keyboard.press("End")
    page.keyboard.press("Home")
    page.keyboard.press("End")
    in_sight(page, int(page.evaluate("document.body.dataset.step")), "End")


SIZES = [(1280, 1000), (1280, 600), (700, 800)]


@pytest.mark.parametrize("width,height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("replay", ["perikles-4p", "pergamemnon-3p"])
def test_the_move_shown_is_in_sight_on_the_study_page(page, long_games, replay, width, height):
    page.set_viewport_size({"width": width, "height": height})
    walk(page, long_games[1][replay][1].as_uri())
    assert not page.page_errors


@pytest.mark.parametrize("width,height", SIZES[1:], ids=[f"{w}x{h}" for w, h in SIZES[1:]])
def test_the_move_shown_is_in_sight_on_the_spectators_page(page, long_games, width, height):
    url, pages = long_games
    page.set_viewport_size({"width": width, "height": height})
    with live_server(url) as (address, _):
        walk(page, f"{address}/games/{pages['perikles-4p'][0]}/watch")
    assert not page.page_errors

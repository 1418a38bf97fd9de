"""The replay viewer in a real browser: headless Chromium (driven by Playwright, tests/browser.py) opens the file,
a person's clicks and key presses step forward, and the page shows the narration and the scores of that step. A
screenshot is kept in test-artifacts/.

Also here: a PNG drawn by kaleido, which needs the same Chromium.

Where Chromium is absent these tests skip and say so, unless AGON_REQUIRE_BROWSER=1 (CI), where they fail.
"""

from __future__ import annotations

import os
import shutil

import pytest

from agon.analysis.viewer import build_viewer
from tests.browser import ARTIFACTS, find_chromium

pytestmark = pytest.mark.browser

SHOWN = """() => ({
    narration: document.getElementById('narration').textContent,
    label: document.getElementById('step-label').textContent,
    scores: Object.fromEntries([...document.querySelectorAll('#scores tr[data-player]')]
        .map(tr => [tr.dataset.player, [tr.querySelector('.score').textContent,
                                        tr.querySelector('.delta').textContent]])),
    state: document.getElementById('state').textContent,
    marker: (() => { const s = document.getElementById('timeline').layout.shapes; return s[s.length - 1].x0; })(),
    hash: location.hash,
})"""


def shown(page) -> dict:
    return page.evaluate(SHOWN)


def test_viewer_steps_forward_in_a_real_browser(page, known, tmp_path):
    line = known.svc.load(known.game)
    page_file = tmp_path / "viewer.html"
    page_file.write_text(build_viewer(line), encoding="utf-8")
    page.goto(page_file.as_uri())
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")

    first = shown(page)
    assert first["narration"].startswith("#0 A game of pig to 10 begins for Ana, Bruno.")
    assert first["scores"] == {"Ana": ["0", ""], "Bruno": ["0", ""]}

    for _ in range(5):
        page.click("#next")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.body.dataset.step === '6'")
    now = shown(page)
    assert now["narration"] == "#6 Ana holds, banking 9. (Ana's decision)"
    assert now["label"] == "event 6 of 14 · round 1"
    assert now["scores"] == {"Ana": ["9", "+9"], "Bruno": ["0", ""]}
    assert now["marker"] == 6 and now["hash"] == "#step=6"
    assert "State after #6 (everything)" in now["state"]

    page.select_option("#as", "Bruno")
    assert "State after #6 as Bruno sees it" in shown(page)["state"]

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "viewer-step-6.png"))

    page.click("#last")
    page.wait_for_function("document.body.dataset.step === '14'")
    end = shown(page)
    assert end["narration"] == "#14 Bruno holds, banking 6. (Bruno's decision)"
    assert end["scores"] == {"Ana": ["9", ""], "Bruno": ["11", "+6"]}

    page.click("#moments button[data-step='9']")
    page.wait_for_function("document.body.dataset.step === '9'")
    assert shown(page)["scores"] == {"Ana": ["9", ""], "Bruno": ["5", "+5"]}

    page.goto(page_file.as_uri() + "#step=11")
    page.reload()
    page.wait_for_function("document.body && document.body.dataset.ready === '1'"
                           " && document.body.dataset.step === '11'")
    assert shown(page)["narration"] == "#11 Ana rolls a 1 and loses the turn's points. (chance)"
    assert page.page_errors == []


def test_png_is_drawn_with_kaleido(chromium_path, known, tmp_path):
    from agon.analysis.figures import scores_figure, write

    target = tmp_path / "scores.png"
    write(scores_figure([known.svc.load(known.game)]), str(target), png=True)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(target, ARTIFACTS / "scores.png")


def test_a_missing_browser_skips_with_a_reason_or_fails_where_required(monkeypatch):
    real_exists = os.path.exists
    monkeypatch.setattr(os.path, "exists", lambda p: False if p == "/usr/bin/chromium" else real_exists(p))
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("AGON_REQUIRE_BROWSER", raising=False)
    with pytest.raises(pytest.skip.Exception, match="Chromium is not installed"):
        find_chromium()
    monkeypatch.setenv("AGON_REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception, match="a browser is required here"):
        find_chromium()

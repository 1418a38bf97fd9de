"""A PNG drawn by kaleido, which needs the system's Chromium, and what happens where it is absent. (The study
page in a real browser: test_study_browser.py; agon serve's pages: tests/test_server_pages.py.)

Where Chromium is absent these tests skip and say so, unless AGON_REQUIRE_BROWSER=1 (CI), where they fail.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.browser import ARTIFACTS, find_chromium

pytestmark = pytest.mark.browser

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

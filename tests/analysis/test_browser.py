"""The replay viewer in a real browser: headless Chromium opens the file, a person's clicks and key presses step
forward, and the page shows the narration and the scores of that step. A screenshot is kept in test-artifacts/.

Also here: a PNG drawn by kaleido, which needs the same Chromium.

Where Chromium is absent these tests skip and say so, unless AGON_REQUIRE_BROWSER=1 (CI), where they fail.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from agon.analysis.viewer import build_viewer

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1000"]


def chromium() -> str:
    path = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else shutil.which("chromium")
    if path is None:
        reason = "headless Chromium is not installed (apt-get install chromium) at /usr/bin/chromium"
        if os.environ.get("AGON_REQUIRE_BROWSER") == "1":
            pytest.fail(f"a browser is required here (AGON_REQUIRE_BROWSER=1): {reason}")
        pytest.skip(reason)
    return path


class Page:
    """One tab of a Chromium driven over its DevTools protocol (a websocket)."""

    def __init__(self, ws_url: str) -> None:
        import websocket

        self.ws = websocket.create_connection(ws_url, timeout=30, suppress_origin=True)
        self.n = 0

    def call(self, method: str, **params):
        self.n += 1
        self.ws.send(json.dumps({"id": self.n, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.n:
                if "error" in msg:
                    raise AssertionError(f"{method}: {msg['error']}")
                return msg["result"]

    def js(self, expression: str):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise AssertionError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait_for(self, expression: str, seconds: float = 30):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.js(expression):
                return
            time.sleep(0.1)
        raise AssertionError(f"the page never got to: {expression}")

    def click(self, selector: str) -> None:
        box = self.js(f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                      " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)

    def key(self, key: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def close(self) -> None:
        self.ws.close()


@pytest.fixture
def browser(tmp_path):
    exe = chromium()
    profile = tmp_path / "profile"
    proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0",
                             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        port_file = profile / "DevToolsActivePort"
        end = time.monotonic() + 30
        while not port_file.exists() or not port_file.read_text().strip():
            assert proc.poll() is None, "Chromium exited at start"
            assert time.monotonic() < end, "Chromium did not open its DevTools port"
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = Page(next(t for t in targets if t["type"] == "page")["webSocketDebuggerUrl"])
        yield page
        page.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def shown(page: Page) -> dict:
    return page.js("""(() => ({
        narration: document.getElementById('narration').textContent,
        label: document.getElementById('step-label').textContent,
        scores: Object.fromEntries([...document.querySelectorAll('#scores tr[data-player]')]
            .map(tr => [tr.dataset.player, [tr.querySelector('.score').textContent,
                                            tr.querySelector('.delta').textContent]])),
        state: document.getElementById('state').textContent,
        marker: (() => { const s = document.getElementById('timeline').layout.shapes; return s[s.length - 1].x0; })(),
        hash: location.hash,
    }))()""")


def test_viewer_steps_forward_in_a_real_browser(browser, known, tmp_path):
    line = known.svc.load(known.game)
    page_file = tmp_path / "viewer.html"
    page_file.write_text(build_viewer(line), encoding="utf-8")
    browser.call("Page.enable")
    browser.call("Page.navigate", url=page_file.as_uri())
    browser.wait_for("document.body && document.body.dataset.ready === '1'")

    first = shown(browser)
    assert first["narration"].startswith("#0 A game of pig to 10 begins for Ana, Bruno.")
    assert first["scores"] == {"Ana": ["0", ""], "Bruno": ["0", ""]}

    for _ in range(5):
        browser.click("#next")
    browser.key("ArrowRight", 39)
    browser.wait_for("document.body.dataset.step === '6'")
    now = shown(browser)
    assert now["narration"] == "#6 Ana holds, banking 9. (Ana's decision)"
    assert now["label"] == "event 6 of 14 · round 1"
    assert now["scores"] == {"Ana": ["9", "+9"], "Bruno": ["0", ""]}
    assert now["marker"] == 6 and now["hash"] == "#step=6"
    assert "State after #6 (everything)" in now["state"]

    browser.js("(() => { const s = document.getElementById('as'); s.value = 'Bruno';"
               " s.dispatchEvent(new Event('change')); })()")
    assert "State after #6 as Bruno sees it" in shown(browser)["state"]

    ARTIFACTS.mkdir(exist_ok=True)
    shot = browser.call("Page.captureScreenshot", format="png")
    (ARTIFACTS / "viewer-step-6.png").write_bytes(base64.b64decode(shot["data"]))

    browser.click("#last")
    browser.wait_for("document.body.dataset.step === '14'")
    end = shown(browser)
    assert end["narration"] == "#14 Bruno holds, banking 6. (Bruno's decision)"
    assert end["scores"] == {"Ana": ["9", ""], "Bruno": ["11", "+6"]}

    browser.click("#moments button[data-step='9']")
    browser.wait_for("document.body.dataset.step === '9'")
    assert shown(browser)["scores"] == {"Ana": ["9", ""], "Bruno": ["5", "+5"]}

    browser.call("Page.navigate", url=page_file.as_uri() + "#step=11")
    browser.wait_for("document.body && document.body.dataset.ready === '1' && document.body.dataset.step === '11'")
    assert shown(browser)["narration"] == "#11 Ana rolls a 1 and loses the turn's points. (chance)"


def test_png_is_drawn_with_kaleido(known, tmp_path):
    chromium()
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
        chromium()
    monkeypatch.setenv("AGON_REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception, match="a browser is required here"):
        chromium()

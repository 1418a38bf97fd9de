"""A real browser for the tests: Playwright for Python driving the system's headless Chromium.

Playwright is given the system's executable (``executable_path``), so it never downloads a browser of its own.
The fixtures (registered in tests/conftest.py):

    chromium_path   the path of the system's Chromium; skips with a reason where it is absent, fails instead where
                    AGON_REQUIRE_BROWSER=1 (CI)
    browser         one headless Chromium for the whole session
    page            a fresh Playwright ``Page`` (its own context) for one test; closed afterwards
    server          ``agon serve``'s app on a free loopback port over a fresh SQLite store: (its address, the
                    store's URL); stopped after the test

Use it as any Playwright page: ``page.goto(url)``, ``page.click("#next")``, ``page.keyboard.press("ArrowRight")``,
``page.wait_for_function("...")``, ``page.evaluate("...")``, ``page.screenshot(path=...)``.
Screenshots worth keeping go to ``ARTIFACTS`` (test-artifacts/ at the top of the checkout).

``live_server(url)`` runs ``agon serve``'s app over the store at ``url`` in this process, under uvicorn on a free
loopback port, for as long as the ``with`` block: it gives (the server's address, ``url``). Its stop ends the app's
event streams at once (``stopping_server``), as Ctrl-C on ``agon serve`` does.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
SYSTEM_CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


def find_chromium() -> str:
    """The system's Chromium, or a skip (a fail where AGON_REQUIRE_BROWSER=1) that says what to install."""
    path = SYSTEM_CHROMIUM if os.path.exists(SYSTEM_CHROMIUM) else shutil.which("chromium")
    reason = None
    if path is None:
        reason = "headless Chromium is not installed (apt-get install chromium) at /usr/bin/chromium"
    else:
        try:
            import playwright.sync_api  # noqa: F401  (only whether it is installed)
        except ImportError:
            reason = "Playwright for Python is not installed (pip install -e '.[test]')"
    if reason:
        if os.environ.get("AGON_REQUIRE_BROWSER") == "1":
            pytest.fail(f"a browser is required here (AGON_REQUIRE_BROWSER=1): {reason}")
        pytest.skip(reason)
    return path


@pytest.fixture(scope="session")
def chromium_path() -> str:
    return find_chromium()


@pytest.fixture(scope="session")
def browser(chromium_path) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, headless=True, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def open_page(browser, errors: list[str], url: str | None = None, width: int = 1280, height: int = 1000,
           **options) -> tuple[object, object]:
    """A fresh context of ``browser`` (a ``width`` x ``height`` viewport; ``options``: Playwright's, such as
    ``is_mobile`` or ``device_scale_factor``) and its one page, which waits up to 30 s for what a test waits on and
    adds its uncaught JavaScript errors to ``errors``; opened at ``url`` when given: (context, page). Close the
    context when done."""
    context = browser.new_context(viewport={"width": width, "height": height}, **options)
    context.set_default_timeout(30_000)
    p = context.new_page()
    p.on("pageerror", lambda e: errors.append(str(e)))
    if url is not None:
        p.goto(url)
    return context, p


def create_in_lobby(page, ruleset: str, players: str, seed: str | None = None) -> dict[str, str]:
    """Create a game with the lobby's form ``page`` shows (``players`` as typed there, "Ana, Bo"), and wait for its
    links: each link's address by whom it is for (a player's name, 'host', 'spectators')."""
    page.select_option("#ruleset", ruleset)
    page.fill("#players", players)
    if seed is not None:
        page.fill("#seed", seed)
    page.click("button[type=submit]")
    page.wait_for_selector(".seat-link[data-who=spectators]")
    return {a.get_attribute("data-who"): a.get_attribute("href") for a in page.query_selector_all(".seat-link")}


@pytest.fixture
def page(browser) -> Iterator[object]:
    errors: list[str] = []
    context, p = open_page(browser, errors)
    p.page_errors = errors  # the page's uncaught JavaScript errors, for tests that assert there were none
    try:
        yield p
    finally:
        context.close()


@contextmanager
def live_server(url: str) -> Iterator[tuple[str, str]]:
    """The app over the store at ``url`` on a free loopback port: (its address, ``url``); stopped afterwards."""
    from agon.server.app import create_app

    with serving(create_app(url, poll=0.1)) as address:
        yield address, url


@contextmanager
def serving(app, port: int | None = None, log_level: str = "warning") -> Iterator[str]:
    """The ASGI ``app`` served on loopback ``port`` (default: a free one), in a thread: its address; stopped
    afterwards."""
    if port is None:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        sock.close()
    srv = stopping_server(app, port, log_level)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(15)


def stopping_server(app, port: int, log_level: str = "warning") -> object:
    """uvicorn's server for ``app`` on ``port``, to run in a thread, whose stop first ends agon's event streams, as
    Ctrl-C on ``agon serve`` does (server/app.py ``_streams_end_on_stop``, which listens for signals, and so only in
    the main thread): each stop with a page open waited its ``timeout_graceful_shutdown`` for the streams, which end
    only when their client goes. The streams are ended in the server's loop as its shutdown begins, before it stops
    listening, with nothing awaited between: a stream opened after that sees the server stopping and ends at once
    (``api.stream``), so none is left to wait for. ``app``: agon's app, or one wrapping it (as ``.app``)."""
    import uvicorn

    from agon.server import api

    agon = app
    while agon is not None and not hasattr(getattr(agon, "state", None), "stopping"):
        agon = getattr(agon, "app", None)

    class Stopping(uvicorn.Server):
        async def shutdown(self, sockets=None) -> None:
            if agon is not None:
                api.end_streams(agon)
            await super().shutdown(sockets)

    return Stopping(uvicorn.Config(app, host="127.0.0.1", port=port, log_level=log_level,
                                   timeout_graceful_shutdown=1))


@pytest.fixture
def server(tmp_path) -> Iterator[tuple[str, str]]:
    """A live server on a free loopback port over a fresh SQLite store: (its address, the store's URL)."""
    with live_server(f"sqlite:///{tmp_path / 'club.db'}") as address:
        yield address

"""The servers the tests talk to, started and waited for in one place: ``agon serve``'s app in this process behind
Starlette's test client (``app_client``), and ``agon serve`` itself in a process of its own (``agon_serve``,
``answering``), on a free loopback port (``free_port``). A server in a thread under uvicorn, for a browser, is
tests/browser.py's ``serving``.

    with app_client(url, poll=0.01) as client:       # create_app(url, ...) under TestClient; its store closed after
        client.get("/api/games")
    proc, port, _ = agon_serve("--db", db)            # 'agon serve' on a free port, once it answers
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its test client; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

WAIT = 60.0
"""Seconds a server started for a test has to answer its first request (a loaded CI machine's interpreter start
and imports included)."""


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def app_client(url: str, *, errors: bool = True, **options: Any) -> Iterator[TestClient]:
    """``agon serve``'s app over the store at ``url`` (``options``: ``create_app``'s, such as ``poll`` and
    ``max_body``) behind Starlette's test client, its lifespan run; its store closed afterwards. ``errors``: whether
    an exception the app does not answer is raised in the test (False: it is answered as a 500, as uvicorn would)."""
    from agon.server.app import create_app

    app = create_app(url, **options)
    try:
        with TestClient(app, raise_server_exceptions=errors) as client:
            yield client
    finally:
        app.state.service.store.close()


@pytest.fixture
def client(store_url):
    """The app over a fresh store of each backend (tests/conftest.py ``store_url``, as ``client.store_url``), with
    a small body limit, behind the test client."""
    with app_client(store_url, max_body=64 * 1024, poll=0.05) as c:
        c.store_url = store_url
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_duel(client, **extra) -> dict:
    """A seeded two-player Pergamemnon game between two people (Ana, Bo), created over the API."""
    r = client.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"], "seed": 3, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def acting(client, game: dict) -> tuple[str, str]:
    """The player who must act now and their token."""
    state = client.get(f"/api/games/{game['game']}").json()
    who = state["pending"]["player"]
    return who, game["seats"][who]["token"]


def answering(proc: subprocess.Popen, url: str, data: bytes | None = None, within: float = WAIT) -> bytes:
    """Ask ``url`` (a POST of ``data``, else a GET) until the server ``proc`` started answers it, while ``proc``
    runs and for ``within`` seconds at most: the answer's body. A server that ends first, or never answers, fails
    the test with what it printed."""
    deadline = time.monotonic() + within
    while True:
        try:
            with urllib.request.urlopen(url, data=data, timeout=30) as r:
                return r.read()
        except urllib.error.HTTPError:
            raise
        except OSError:
            if proc.poll() is not None or time.monotonic() >= deadline:
                if proc.poll() is None:
                    proc.kill()
                out, err = proc.communicate(timeout=20)
                raise AssertionError(f"the server never answered {url}: {out}{err or ''}") from None
            time.sleep(0.2)  # polled: the next try comes as soon as it may


def agon_serve(*args: str, probe: str = "/api/rulesets", data: bytes | None = None,
               **popen: Any) -> tuple[subprocess.Popen, int, bytes]:
    """``agon ARGS serve --port PORT`` in a process of its own on a free loopback port (``popen``:
    ``subprocess.Popen``'s, such as ``env`` and ``cwd``; its output goes to pipes, as text), once it answers
    ``probe`` (a POST of ``data``, else a GET): (the process, its port, that answer's body)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "agon", *args, "serve", "--port", str(port)],
                            **{"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True, **popen})
    return proc, port, answering(proc, f"http://127.0.0.1:{port}{probe}", data)


# -- a live server's API, as the page tests drive it beside their pages ------------------------------------------


def made(base: str, ruleset: str, players: list[str], **extra: Any) -> dict:
    """A game created on the live server at ``base`` (``POST /api/games``; ``extra``: the body's other fields, such
    as ``seed``, ``bots`` or ``table``): its answer, with each seat's link and token."""
    import httpx

    r = httpx.post(f"{base}/api/games", json={"ruleset": ruleset, "players": players, **extra}, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()


def acting_now(base: str, gid: str) -> str:
    """The player who must act now in game ``gid``, as every player sees it."""
    import httpx

    return httpx.get(f"{base}/api/games/{gid}", timeout=30).json()["pending"]["player"]


def decided(base: str, created: dict, choice: int = 1) -> dict:
    """Decision ``choice`` recorded by the seat that must act now in the game ``created`` (``made``'s answer),
    sent with that seat's own token: the answer."""
    import httpx

    gid = created["game"]
    who = acting_now(base, gid)
    r = httpx.post(f"{base}/api/games/{gid}/act", json={"choice": choice}, timeout=30,
                   headers={"Authorization": f"Bearer {created['seats'][who]['token']}"})
    assert r.status_code == 200, r.text
    return r.json()


def acted(client: TestClient, game: dict, choice: int = 1) -> str:
    """Decision ``choice`` recorded by the player who must act now in ``game`` (``new_duel``'s answer), sent with
    their own token through the test ``client``: who it was."""
    who, token = acting(client, game)
    r = client.post(f"/api/games/{game['game']}/act", json={"choice": choice}, headers=bearer(token))
    assert r.status_code == 200, r.text
    return who

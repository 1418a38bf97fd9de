"""The servers the tests run in threads (tests/browser.py ``live_server``, ``serving``) end their event streams as
they stop, as Ctrl-C on ``agon serve`` does: a stream held open by a page (a spectators' page left open when the
``with`` block ends) held each stop for uvicorn's ``timeout_graceful_shutdown``, which then cut it, logging
'timeout graceful shutdown exceeded'. The stream now ends as a stream ends, and nothing is cut."""

from __future__ import annotations

import logging
import threading

import httpx

from tests.browser import live_server


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.said: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.said.append(record.getMessage())


def test_a_stream_open_as_a_test_server_stops_ends_and_is_not_cut(tmp_path):
    kept = Kept()
    uvicorn_log = logging.getLogger("uvicorn.error")
    uvicorn_log.addHandler(kept)
    opened = threading.Event()
    got: dict[str, object] = {"lines": [], "error": None}

    def follow(base: str, gid: str) -> None:
        try:
            with httpx.stream("GET", f"{base}/api/games/{gid}/events", timeout=30) as r:
                for line in r.iter_lines():
                    got["lines"].append(line)
                    if line.startswith("data: "):
                        opened.set()
        except Exception as e:  # noqa: BLE001 - what the client met, for the assertion below
            got["error"] = e
        finally:
            opened.set()

    try:
        with live_server(f"sqlite:///{tmp_path / 'club.db'}") as (base, _):
            gid = httpx.post(base + "/api/games", json={"ruleset": "adamastor", "players": ["Ana"],
                                                        "seed": 1}).json()["game"]
            reader = threading.Thread(target=follow, args=(base, gid), daemon=True)
            reader.start()
            opened.wait(30)
            assert got["error"] is None and "event: status" in got["lines"]  # the stream is open as the server stops
        reader.join(30)
        assert not reader.is_alive()
        assert got["error"] is None, got["error"]  # ended as a stream ends, not cut
        assert not [m for m in kept.said if "graceful shutdown" in m], kept.said
    finally:
        uvicorn_log.removeHandler(kept)

"""What a server that runs for weeks must not pile up (scripts/soak.py measures it over real traffic): a worker
holds nothing for an event stream once it has ended, however it ended (read to its end, dropped by a client that
vanished while waiting for news or while the server was writing to it, asked for with HEAD), nor for a game that
changed while no stream followed it; its caches stay at their bounds.

The app is driven in process through its ASGI interface: a stream is a request whose client goes away after a
chosen number of frames, as a browser tab closed or a phone that lost its network would."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import httpx

from agon.server.app import create_app
from agon.server.pages import Studies


def _scope(method: str, path: str, query: str = "") -> dict:
    return {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
            "query_string": query.encode(), "root_path": "", "headers": [(b"host", b"testserver")],
            "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 80)}


async def _stream(app, game: str, query: str, frames: int, how: str, linger: float = 0.3) -> int:
    """Open ``game``'s event stream and go away after ``frames`` body chunks, or ``linger`` seconds if they do not
    come: ``how`` is 'wait' (the client disconnects while the stream waits for news), 'stuck' (it stops reading,
    so a write of the server's blocks, then disconnects) or 'broken' (a write fails, as a server on ASGI 2.4 tells
    of a vanished client). The chunks seen."""
    gone = asyncio.Event()
    asked = False
    seen = 0

    async def receive() -> dict:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        try:
            await asyncio.wait_for(gone.wait(), linger)
        except TimeoutError:
            pass
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        nonlocal seen
        if message["type"] != "http.response.body" or not message.get("body"):
            return
        if seen >= frames:
            if how == "broken":
                raise OSError("the client went away")
            gone.set()
            if how == "stuck":
                await asyncio.Event().wait()  # a write that never completes; cancelled by the disconnect
            return
        seen += 1
        if seen >= frames and how == "wait":
            gone.set()

    scope = _scope("GET", f"/api/games/{game}/events", query)
    try:
        await app(scope, receive, send)
    except OSError:  # 'broken': Starlette says the client disconnected
        pass
    except Exception as e:  # noqa: BLE001 - Starlette's ClientDisconnect
        assert type(e).__name__ == "ClientDisconnect", e
    return seen


def _run(main) -> None:
    """``main()`` to its end on an event loop of its own, in a thread of its own: the browser tests' Playwright
    keeps a loop running in this thread, where ``asyncio.run`` refuses to start another."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result()


def _run_on(app, main) -> None:
    """``main(http)`` to its end (``_run``), ``http`` a client of ``app`` in this process; the client and the app's
    store closed afterwards."""
    async def run() -> None:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://testserver") as http:
            await main(http)

    try:
        _run(run)
    finally:
        app.state.service.store.close()


def _held(app) -> dict:
    s = app.state
    return {"follows": dict(s.watcher.follows), "seen": dict(s.watcher.seen), "wakeups": dict(s.wakeups),
            "announced": dict(s.feed.announced), "reading": dict(s.feed.reading)}


async def _settle() -> None:
    """Let the streams' last steps run (a generator let go of while suspended is closed in a task of its own). No
    garbage collection is asked for: a worker must not wait for one to let go of a stream."""
    for _ in range(3):
        await asyncio.sleep(0.05)


def test_two_hundred_streams_dropped_every_way_leave_the_worker_following_nothing(store_url):
    app = create_app(store_url, poll=0.05)

    async def main(http) -> None:
        games = []
        for seed in range(4):
            r = await http.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"],
                                                     "seed": seed})
            assert r.status_code == 201, r.text
            games.append(r.json())
        watcher = asyncio.create_task(app.state.watcher.run())
        tasks_before = len(asyncio.all_tasks())
        hows = ["wait", "stuck", "broken"]
        opened = 0
        for round_ in range(10):
            batch = []
            for i in range(18):
                g = games[(round_ + i) % len(games)]
                token = g["seats"]["Ana"]["token"] if i % 2 else g["host"]["token"]
                query = f"token={token}" if i % 3 else f"since={i % 5}"
                batch.append(_stream(app, g["game"], query, frames=1 + i % 3, how=hows[i % 3]))
            # while the streams are open the games move, so that streams are woken and write
            for g in games[:2]:
                state = (await http.get(f"/api/games/{g['game']}")).json()
                who = state["pending"]["player"]
                if who in g["seats"]:
                    batch.append(http.post(f"/api/games/{g['game']}/act", json={"choice": 1},
                                           headers={"Authorization": f"Bearer {g['seats'][who]['token']}"}))
            await asyncio.gather(*batch)
            opened += 18
            # a HEAD asks for the stream's headers only, and streams that end by themselves
            assert (await http.head(f"/api/games/{games[0]['game']}/events")).status_code == 200
            assert (await http.get(f"/api/games/{games[1]['game']}/events?wait=0")).status_code == 200
            opened += 2
        assert opened == 200
        await _settle()
        assert _held(app) == {"follows": {}, "seen": {}, "wakeups": {}, "announced": {}, "reading": {}}
        assert len(asyncio.all_tasks()) <= tasks_before
        watcher.cancel()

    _run_on(app, main)


def test_games_played_while_no_stream_follows_them_leave_nothing_behind(store_url):
    """A club's games are mostly played with nobody streaming some of them (a program, the CLI's players): each
    change is announced to this worker's streams, and a game no stream follows must not be remembered for it."""
    app = create_app(store_url, poll=0.05)

    async def main(http) -> None:
        for seed in range(6):
            g = (await http.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"],
                                                      "seed": seed})).json()
            for _ in range(3):
                who = (await http.get(f"/api/games/{g['game']}")).json()["pending"]["player"]
                r = await http.post(f"/api/games/{g['game']}/act", json={"choice": 1},
                                    headers={"Authorization": f"Bearer {g['seats'][who]['token']}"})
                assert r.status_code == 200, r.text
            # a stream that came and went in between
            await _stream(app, g["game"], "", frames=1, how="wait")
            await http.post(f"/api/games/{g['game']}/undo", headers={"Authorization": f"Bearer {g['host']['token']}"})
        await _settle()
        assert _held(app) == {"follows": {}, "seen": {}, "wakeups": {}, "announced": {}, "reading": {}}

    _run_on(app, main)


def test_the_line_and_study_caches_stay_at_their_bounds(store_url):
    """Every game read leaves a line in the worker's cache, and every game watched its study data: a club's server
    reads thousands over weeks, and each cache keeps only its most recent ones."""
    app = create_app(store_url, poll=0.05)
    app.state.lines.size = 5
    app.state.studies = Studies(size=3)

    async def main(http) -> None:
        for seed in range(8):
            g = (await http.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"],
                                                      "seed": seed})).json()
            who = (await http.get(f"/api/games/{g['game']}")).json()["pending"]["player"]
            await http.post(f"/api/games/{g['game']}/act", json={"choice": 1},
                            headers={"Authorization": f"Bearer {g['seats'][who]['token']}"})
            assert (await http.get(f"/games/{g['game']}/watch.json")).status_code == 200
        lines = app.state.lines
        assert len(lines.items) == 5 and set(lines.latest.values()) <= set(lines.items)
        assert len(app.state.studies.items) == 3

    _run_on(app, main)

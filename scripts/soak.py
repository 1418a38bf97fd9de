"""Soak test of ``agon serve`` on loopback: does a server that runs for weeks level off?

    python scripts/soak.py --db /tmp/soak.db --minutes 15 --out /tmp/soak-sqlite
    python scripts/soak.py --db 'postgresql+psycopg://postgres@127.0.0.1/test?options=-csearch_path%3Dsoak' ...

It starts ``agon serve`` (one worker) on a free 127.0.0.1 port, with a probe inside the worker that writes, every
``--every`` seconds, the sizes of what the worker holds in memory (the line and study caches, the watcher's
follows, the feed's readings, the streams' wake-ups, asyncio tasks, threads, the store's pools and card sets, and
the caches kept by card set or setup).
Beside it the script samples the process from outside (RSS, open file descriptors, threads, TCP connections,
PostgreSQL sessions in pg_stat_activity) and drives a club's traffic for ``--minutes``: games of every ruleset
created and played to the end by their seats (options or steps, ``expect`` on each act), players' undos, the
host's undo/redo and branches, seat, watch and lobby pages, event streams followed to the end, dropped mid-stream
and asked for with HEAD, slow readers that never read and vanish, imports, and bad requests. Every sample is one
JSON line in ``OUT/samples.jsonl``; the end prints the samples at the start, 5 minutes and the end.

Every request goes to 127.0.0.1, and the run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

# -- the probe, inside the server's worker ---------------------------------------------------------------------


def _sizes(app: Any) -> dict[str, Any]:
    """What the worker holds, by name: each should level off however long the server runs."""
    s = app.state
    store = s.service.store
    out: dict[str, Any] = {
        "lines": len(s.lines.items), "lines_latest": len(s.lines.latest), "studies": len(s.studies.items),
        "follows": len(s.watcher.follows), "follow_streams": sum(s.watcher.follows.values()),
        "seen": len(s.watcher.seen), "announced": len(s.feed.announced), "reading": len(s.feed.reading),
        "wakeups": len(s.wakeups), "tasks": len(asyncio.all_tasks()), "threads": threading.active_count(),
        "card_sets": len(store._card_sets), "card_set_bytes": store._card_set_bytes,
        "pool_out": store.engine.pool.checkedout(),
    }
    if store._auto is not store.engine:
        out["auto_pool_out"] = store._auto.pool.checkedout()
    for name, mod, fn in [("perikles_cards", "agon.core.games.perikles.data", "_parse_frozen"),
                          ("plotly", "agon.server.pages", "_plotly_bodies")]:
        m = sys.modules.get(mod)
        if m is not None:
            out[name] = getattr(m, fn).cache_info().currsize
    for name, mod, attr in [("setups_passed", "agon.core.service", "_setups_passed"),
                            ("perikles_relations", "agon.core.games.perikles.commit", "_RELATIONS")]:
        m = sys.modules.get(mod)
        if m is not None:
            out[name] = len(getattr(m, attr))
    # Python's allocated blocks, not len(gc.get_objects()): that list holds a tuple that a worker thread is still
    # building, whose resize then fails (a SystemError, a 500) - it did in a soak
    out["py_blocks"] = sys.getallocatedblocks()
    return out


def _install_probe(path: str, every: float) -> None:
    """Wrap ``create_app`` so that the app it builds writes ``_sizes`` to ``path`` every ``every`` seconds."""
    from agon.server import app as app_mod

    made = app_mod.create_app

    def create_app(*args: Any, **kw: Any) -> Any:
        app = made(*args, **kw)
        inner = app.router.lifespan_context

        @contextlib.asynccontextmanager
        async def lifespan(a: Any):
            async def sample() -> None:
                with open(path, "a") as f:
                    while True:
                        f.write(json.dumps({"t": time.time(), **_sizes(app)}) + "\n")
                        f.flush()
                        await asyncio.sleep(every)

            async with inner(a) as state:
                task = asyncio.create_task(sample())
                try:
                    yield state
                finally:
                    task.cancel()

        app.router.lifespan_context = lifespan
        return app

    app_mod.create_app = create_app


# -- outside the server ----------------------------------------------------------------------------------------


def _outside(pid: int, port: int, pg: str | None) -> dict[str, Any]:
    import psutil

    p = psutil.Process(pid)
    conns = p.net_connections(kind="tcp")
    out = {"rss_mb": round(p.memory_info().rss / 2**20, 1), "fds": p.num_fds(), "os_threads": p.num_threads(),
           "clients": sum(1 for c in conns if c.laddr and c.laddr.port == port and c.raddr),
           "to_db": sum(1 for c in conns if c.raddr and c.raddr.port == 5432)}
    if pg:
        ports = ",".join(str(c.laddr.port) for c in conns if c.raddr and c.raddr.port == 5432) or "0"
        q = f"select count(*) from pg_stat_activity where client_port in ({ports})"
        r = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "test", "-At", "-c", q],
                           capture_output=True, text=True)
        out["pg_sessions"] = int(r.stdout.strip() or -1)
    return out


class Club:
    """The traffic: one shared httpx client for the well-behaved requests, counting statuses."""

    def __init__(self, base: str, stop: float, seed: int) -> None:
        import httpx

        self.base, self.stop, self.rng = base, stop, random.Random(seed)
        self.http = httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(60.0, connect=10.0),
                                      limits=httpx.Limits(max_connections=200, max_keepalive_connections=50))
        self.statuses: Counter = Counter()
        self.games: list[dict[str, Any]] = []  # created or imported: their answers (tokens)
        self.done = Counter()

    def running(self) -> bool:
        return time.monotonic() < self.stop

    async def req(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        import httpx

        headers = kw.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            r = await self.http.request(method, path, headers=headers, **kw)
        except httpx.TransportError as e:
            self.statuses[f"transport {type(e).__name__}"] += 1
            return None
        self.statuses[r.status_code] += 1
        if r.status_code >= 500:
            print(f"5xx {method} {path}: {r.text[:200]}", file=sys.stderr, flush=True)
        return r

    async def create(self) -> dict[str, Any] | None:
        rng = self.rng
        kind = rng.choice(["peloponnes", "pergamemnon", "pergamemnon", "peloponnes", "adamastor", "perikles"])
        if kind == "adamastor":
            body = {"ruleset": kind, "players": ["Ana"], "options": {"difficulty": "easy"}}
        elif kind == "perikles":
            body = {"ruleset": kind, "players": ["Ana"], "bots": [{"name": "B1", "kind": "random"},
                                                                  {"name": "B2", "kind": "random"}]}
        else:
            body = {"ruleset": kind, "players": [f"P{i}" for i in range(rng.randint(2, 4))]}
        body.update(seed=rng.randrange(10**6), title=f"soak {len(self.games)}")
        r = await self.req("POST", "/api/games", json=body)
        if r is None or r.status_code != 201:
            return None
        g = r.json()
        self.games.append(g)
        return g

    async def choose(self, gid: str, tok: str) -> tuple[str, str] | None:
        """A random legal decision for the acting seat (from the options, or built by steps) and its position."""
        r = await self.req("GET", f"/api/games/{gid}/options", tok, params={"brief": "1"})
        if r is None or r.status_code != 200:
            return None
        o = r.json()
        if o["options"]:
            return str(self.rng.choice(o["options"])["n"]), o["position"]
        if not o.get("stepwise"):
            return None
        chosen: list[str] = []
        for _ in range(60):
            r = await self.req("GET", f"/api/games/{gid}/steps", tok, params={"chosen": " ".join(chosen)})
            if r is None or r.status_code != 200:
                return None
            s = r.json()
            if s["complete"] or (s["question"]["may_end"] and self.rng.random() < 0.3):
                return s["choice"], o["position"]
            chosen = [c["value"] for c in s["chosen"]] + [self.rng.choice(s["question"]["choices"])["value"]]
        return None

    async def play(self, g: dict[str, Any]) -> None:
        """The game's seats play it to the end, with undos, redos, a branch, and pages read along the way."""
        gid, host = g["game"], g["host"]["token"]
        seats = {name: s["token"] for name, s in g["seats"].items()}
        rng = self.rng
        # most games have a seat's page following them; some are played with nobody streaming (a program)
        followed = rng.random() < 0.7
        follower = asyncio.create_task(self.follow(gid, rng.choice(list(seats.values())), to_end=True)
                                       if followed else asyncio.sleep(0))
        moves = 0
        while self.running():
            r = await self.req("GET", f"/api/games/{gid}")
            if r is None or r.status_code != 200:
                await asyncio.sleep(0.5)
                continue
            p = r.json()["pending"]
            if p["kind"] == "over":
                self.done["games played to the end"] += 1
                break
            if p["kind"] != "decision" or p["player"] not in seats:
                await asyncio.sleep(0.2)  # a bot's turn is played by the server as part of the act
                continue
            tok = seats[p["player"]]
            got = await self.choose(gid, tok)
            if got is None:
                continue
            await self.req("POST", f"/api/games/{gid}/act", tok, json={"choice": got[0], "expect": got[1]})
            moves += 1
            x = rng.random()
            if x < 0.04:
                await self.req("POST", f"/api/games/{gid}/undo", tok)
            elif x < 0.06:
                await self.req("POST", f"/api/games/{gid}/undo", host, json={"steps": 2})
                await self.req("POST", f"/api/games/{gid}/redo", host)
            elif x < 0.065:
                b = await self.req("GET", f"/api/games/{gid}/branches")
                if b is not None and b.status_code == 200:
                    current = next(x["name"] for x in b.json() if x["current"])
                    await self.req("POST", f"/api/games/{gid}/branch", host, json={"name": f"alt{moves}"})
                    await self.req("POST", f"/api/games/{gid}/switch", host, json={"name": current})
            if moves % 15 == 0:
                await self.req("GET", f"/games/{gid}/seat")
                await self.req("GET", f"/api/games/{gid}/log", tok)
            if moves % 25 == 0:
                await self.req("GET", f"/games/{gid}/watch")
                await self.req("GET", f"/games/{gid}/watch.json")
            await asyncio.sleep(rng.uniform(0.01, 0.08))
        follower.cancel()
        await asyncio.gather(follower, return_exceptions=True)
        await self.req("GET", f"/games/{gid}/watch")
        r = await self.req("GET", f"/api/games/{gid}/export", host)
        if r is not None and r.status_code == 200:
            await self.req("POST", "/api/import", content=r.content)  # already stored: a 409

    async def follow(self, gid: str, token: str | None, to_end: bool = False) -> None:
        """Read a game's event stream: to its end (``to_end``), or a few frames then vanish."""
        params = {"since": str(self.rng.choice([-1, 0, 3]))}
        if token:
            params["token"] = token
        if not to_end and self.rng.random() < 0.3:
            params["wait"] = str(self.rng.choice([0, 0.5, 2]))  # ends by itself
        frames = self.rng.randint(1, 4)
        try:
            async with self.http.stream("GET", f"/api/games/{gid}/events", params=params) as r:
                self.statuses[f"stream {r.status_code}"] += 1
                async for line in r.aiter_lines():
                    if line.startswith("event: "):
                        frames -= 1
                        if frames <= 0 and not to_end:
                            self.done["streams dropped mid-stream"] += 1
                            return  # leaving the block closes the connection: the client vanished
                    if '"kind": "over"' in line:
                        return
            self.done["streams ended by the server"] += 1
        except Exception as e:  # noqa: BLE001 - a stream's failure is counted, the run goes on
            self.statuses[f"stream {type(e).__name__}"] += 1

    async def players(self) -> None:
        while self.running():
            g = await self.create()
            if g is not None:
                await self.play(g)

    async def streams(self) -> None:
        """Streams opened and dropped: players' and spectators', and HEAD requests for them."""
        while self.running():
            if not self.games:
                await asyncio.sleep(1)
                continue
            g = self.rng.choice(self.games[-30:])
            if self.rng.random() < 0.2:
                await self.req("HEAD", f"/api/games/{g['game']}/events")
                continue
            tok = self.rng.choice([None, g["host"]["token"], *[s["token"] for s in g["seats"].values()]])
            await self.follow(g["game"], tok)
            await asyncio.sleep(self.rng.uniform(0, 0.3))

    async def slow_reader(self, port: int) -> None:
        """A client that opens a stream (or sends half its headers), never reads, and vanishes (a reset)."""
        while self.running():
            if not self.games:
                await asyncio.sleep(1)
                continue
            gid = self.rng.choice(self.games[-30:])["game"]
            half = self.rng.random() < 0.2
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                request = f"GET /api/games/{gid}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                writer.write((request[:20] if half else request + "\r\n").encode())
                await writer.drain()
                await asyncio.sleep(self.rng.uniform(5, 40))
                sock = writer.get_extra_info("socket")
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with RST
                writer.close()
                self.done["slow readers reset"] += 1
            except OSError as e:
                self.statuses[f"slow {type(e).__name__}"] += 1

    async def pages(self) -> None:
        """The lobby, the game list, plotly, and spectators' pages of games in play."""
        from agon.server.pages import PLOTLY_PATH

        n = 0
        while self.running():
            n += 1
            if n % 6 == 0:
                await self.req("GET", "/")
            await self.req("GET", "/api/rulesets")
            if n % 30 == 0:
                await self.req("GET", "/api/games")
                await self.req("GET", "/openapi.json")
                await self.req("GET", PLOTLY_PATH, headers={"Accept-Encoding": "gzip"})
            if self.games:
                g = self.rng.choice(self.games[-20:])
                await self.req("GET", f"/games/{g['game']}/watch.json")
            await asyncio.sleep(self.rng.uniform(0.5, 1.5))

    async def importer(self) -> None:
        """Games played elsewhere (a scratch store, bots only), exported and imported over the API."""
        from agon.core.service import NewGame, Service
        from agon.core.transfer import export_game
        from agon.events.store import Store

        scratch = tempfile.mkdtemp(prefix="agon-soak-")
        other = Service(Store(f"sqlite:///{scratch}/elsewhere.db"))
        n = 0
        while self.running():
            n += 1
            kind = self.rng.choice(["peloponnes", "pergamemnon"])

            def make(kind: str = kind, title: str = f"imported {n}") -> bytes:
                gid = other.new_game(NewGame(kind, bots=[("A", "random"), ("B", "random")],
                                             seed=self.rng.randrange(10**6), title=title))
                return export_game(other, gid)

            data = await asyncio.to_thread(make)
            r = await self.req("POST", "/api/import", content=data)
            if r is not None and r.status_code == 201:
                g = r.json()
                self.done["games imported"] += 1
                await self.req("GET", f"/api/games/{g['game']}", g["host"]["token"])
                await self.req("GET", f"/games/{g['game']}/watch")
            await asyncio.sleep(self.rng.uniform(5, 15))
        other.store.close()

    async def bad(self) -> None:
        """Requests a server must refuse with a 4xx line, never a 5xx nor a leak."""
        while self.running():
            gid = self.rng.choice(self.games)["game"] if self.games else "nope"
            x = self.rng.randrange(10)
            if x == 0:
                await self.req("POST", "/api/games", content=b"{not json")
            elif x == 1:
                await self.req("GET", "/api/games/nosuchgame")
            elif x == 2:
                await self.req("GET", f"/api/games/{gid}", "wrong-token")
            elif x == 3:
                await self.req("GET", f"/api/games/{gid}/events", params={"since": "x"})
            elif x == 4:
                await self.req("POST", "/api/import", content=b"x" * (5 * 1024 * 1024))
            elif x == 5:
                await self.req("POST", f"/api/games/{gid}/act", json={})
            elif x == 6:
                await self.req("POST", "/api/import", content=b'{"not": "an export"}\n')
            elif x == 7:
                await self.req("DELETE", f"/api/games/{gid}")
            elif x == 8:
                await self.req("GET", f"/games/{gid}x/watch", headers={"Accept": "text/html"})
            else:
                await self.req("GET", f"/api/games/{gid}/steps", params={"chosen": "zzz"})
            await asyncio.sleep(self.rng.uniform(0.1, 0.4))


async def drive(args: argparse.Namespace, base: str, port: int) -> Club:
    club = Club(base, time.monotonic() + args.minutes * 60, args.seed)
    tasks = [club.players() for _ in range(args.tables)]
    tasks += [club.streams() for _ in range(3)] + [club.slow_reader(port) for _ in range(2)]
    tasks += [club.pages(), club.importer(), club.bad()]
    await asyncio.gather(*tasks)
    await club.http.aclose()
    return club


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True, help="the store (a SQLite path or a SQLAlchemy URL)")
    ap.add_argument("--minutes", type=float, default=15)
    ap.add_argument("--tables", type=int, default=6, help="games played at once")
    ap.add_argument("--every", type=float, default=15, help="seconds between samples")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="a folder for samples.jsonl and the server's stderr")
    ap.add_argument("--serve-port", type=int, help=argparse.SUPPRESS)  # internal: run the server with the probe
    args = ap.parse_args()
    out = Path(args.out)
    if args.serve_port:
        _install_probe(str(out / "probe.jsonl"), args.every)
        from agon.cli.app import main as agon_main  # the CLI: `agon serve` itself

        sys.argv = ["agon", "serve", "--db", args.db, "--port", str(args.serve_port)]
        agon_main()
        return
    out.mkdir(parents=True, exist_ok=True)
    for f in ("probe.jsonl", "samples.jsonl"):
        (out / f).unlink(missing_ok=True)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    err = open(out / "server.err", "w")
    server = subprocess.Popen([sys.executable, __file__, "--db", args.db, "--out", str(out), "--every",
                               str(args.every), "--serve-port", str(port)], stdout=err, stderr=err)
    base = f"http://127.0.0.1:{port}"
    pg = args.db if args.db.startswith("postgresql") else None
    try:
        import httpx

        for _ in range(300):
            try:
                httpx.get(base + "/api/rulesets", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.2)
        stop = threading.Event()
        start = time.time()

        def sampler() -> None:
            with open(out / "samples.jsonl", "a") as f:
                while not stop.is_set():
                    row = {"t": time.time(), "min": round((time.time() - start) / 60, 2)}
                    row.update(_outside(server.pid, port, pg))
                    probe = (out / "probe.jsonl").read_text().splitlines()
                    if probe:
                        row.update({k: v for k, v in json.loads(probe[-1]).items() if k != "t"})
                    f.write(json.dumps(row) + "\n")
                    f.flush()
                    stop.wait(args.every)

        th = threading.Thread(target=sampler, daemon=True)
        th.start()
        club = asyncio.run(drive(args, base, port))
        time.sleep(args.every * 2)  # the streams and slow readers that were dropped are let go of
        stop.set()
        th.join()
        rows = [json.loads(x) for x in (out / "samples.jsonl").read_text().splitlines()]
        print(f"statuses: {dict(sorted(club.statuses.items(), key=str))}")
        print(f"done: {dict(club.done)}; games created or imported: {len(club.games)}")
        keys = [k for k in rows[-1] if k not in ("t",)]
        marks = [rows[0], min(rows, key=lambda r: abs(r["min"] - 5)), rows[len(rows) // 2], rows[-1]]
        for k in keys:
            print(f"{k:>18}: " + "  ".join(f"{r.get(k, '-')!s:>8}" for r in marks))
    finally:
        server.send_signal(2)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()

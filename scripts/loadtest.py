"""Load and fault test of ``agon serve`` on loopback: many simulated players, each game played to the end.

    python scripts/loadtest.py --db /tmp/load.db --players 200 --games 50
    python scripts/loadtest.py --db postgresql+psycopg://postgres@127.0.0.1/test --workers 2 --kill-after 20

The script starts ``agon serve`` on a free 127.0.0.1 port (or uses ``--url`` of one already running), creates the
games through the API (people only, the players spread evenly over the games), and runs one asyncio task per
player with an async HTTP client (httpx). A player follows its game's event stream (one connection, opened again
if it drops); when the stream, or the answer to their last decision, says it is their turn they read their
options with their seat's token and send a decision chosen by a random bot (their own seeded generator) with
``expect`` (the event number the options were read at). A 409 (someone moved first) or a dropped connection is
retried after reading the options again. Every acknowledged decision is remembered.

With ``--kill-after S``, one worker process of the server is killed with SIGKILL S seconds into the run; uvicorn's
supervisor starts a new one (the script checks that it did), and the players' connections to the dead worker fail
and are retried.

At the end it prints requests per second, the p50 and p99 latency of every request, errors by kind, then runs
``agon verify`` over every game and counts lost events (acknowledged decisions missing from the game's line) and
duplicated ones (a decision recorded twice, or recorded without being acknowledged, beyond the decisions whose
reply was lost with a dropped connection: a worker killed between its commit and its answer). Its exit
status is 1 when a game fails verification or was not finished by the deadline, an event is lost or duplicated,
or any response was a 5xx. Every
request goes to 127.0.0.1 only, and the run stops by itself (``--deadline`` seconds at most).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ["peloponnes", "pergamemnon"]
"""The rulesets played, in turn (both take 2 to 5 players and have hidden cards)."""


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    acked: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # game -> (event number, actor)
    in_doubt: dict[str, Counter] = field(default_factory=dict)  # game -> actor -> decisions sent, reply lost


class Client:
    """One httpx client shared by the players, counting every request's latency and outcome."""

    def __init__(self, base: str, stats: Stats, connections: int) -> None:
        limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
        self.http = httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(60.0, connect=10.0), limits=limits)
        self.stats = stats

    async def request(self, method: str, path: str, token: str | None = None, **kw) -> httpx.Response | None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        start = time.perf_counter()
        try:
            r = await self.http.request(method, path, headers=headers, **kw)
        except httpx.TransportError as e:
            self.stats.errors[f"connection: {type(e).__name__}"] += 1
            return None
        self.stats.latencies.append(time.perf_counter() - start)
        self.stats.statuses[r.status_code] += 1
        if r.status_code >= 400:
            kind = "5xx" if r.status_code >= 500 else str(r.status_code)
            try:
                message = r.json().get("error", "")
            except ValueError:
                message = r.text[:80]
            self.stats.errors[f"{kind}: {message[:60]}"] += 1
        return r


async def take_turn(client: Client, game: str, me: str, token: str, rng: random.Random) -> dict | None:
    """Read the options and send one; retried (options read again) after a 409 or a dropped connection. The
    act's answer (with the pending decision after it), or None when it is not this seat's turn after all."""
    for _ in range(5):
        r = await client.request("GET", f"/api/games/{game}/options", token)
        if r is None or r.status_code != 200:
            await asyncio.sleep(0.2)
            continue
        opts = r.json()
        if not opts["options"]:
            return None
        choice = rng.choice(opts["options"])["n"]
        r = await client.request("POST", f"/api/games/{game}/act", token, json={"choice": choice,
                                                                              "expect": opts["position"]})
        if r is None:  # the connection dropped: the decision may or may not have been recorded
            client.stats.in_doubt.setdefault(game, Counter())[me] += 1
        if r is not None and r.status_code == 200:
            body = r.json()
            client.stats.acked[game].append((body["recorded"][0]["n"], body["recorded"][0]["actor"]))
            return body
    return None


async def player(client: Client, game: str, me: str, token: str, seed: int, stop: float) -> None:
    """Follow the game's stream (one connection, opened again if it drops); play whenever it is my turn."""
    rng = random.Random(seed)
    since = 0
    while time.monotonic() < stop:
        left = max(1, min(3600, int(stop - time.monotonic())))  # the stream takes a wait of at most 3600 s
        params = {"token": token, "since": str(since), "wait": str(left)}
        try:
            async with client.http.stream("GET", f"/api/games/{game}/events", params=params) as r:
                if r.status_code != 200:
                    client.stats.errors[f"stream {r.status_code}"] += 1
                    await asyncio.sleep(0.5)
                    continue
                kind = None
                async for line in r.aiter_lines():
                    if line.startswith("event: "):
                        kind = line[7:]
                        continue
                    if not line.startswith("data: ") or kind != "status":
                        continue
                    status = json.loads(line[6:])
                    since, pending = status["event"], status["pending"]
                    while pending["kind"] == "decision" and pending["player"] == me:
                        body = await take_turn(client, game, me, token, rng)
                        if body is None:
                            break
                        since, pending = body["event"], body["pending"]
                    if pending["kind"] == "over":
                        return
        except httpx.TransportError as e:
            client.stats.errors[f"stream connection: {type(e).__name__}"] += 1
            await asyncio.sleep(0.5)


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def worker_pids(server_pid: int) -> list[int]:
    """The server's worker processes (uvicorn's supervisor's children that run Python)."""
    out = subprocess.run(["pgrep", "-P", str(server_pid)], capture_output=True, text=True).stdout.split()
    pids = []
    for pid in map(int, out):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmd:  # not multiprocessing's resource tracker
            pids.append(pid)
    return pids


async def run(args: argparse.Namespace) -> int:
    server = None
    base = args.url
    if base is None:
        port = free_port()
        env = {**os.environ, "AGON_DB": args.db}
        server = subprocess.Popen([sys.executable, "-m", "agon", "serve", "--port", str(port), "--workers",
                                   str(args.workers)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        base = f"http://127.0.0.1:{port}"
    stats = Stats()
    client = Client(base, stats, connections=args.players + 50)
    try:
        for _ in range(300):
            try:
                await client.http.get("/api/rulesets")
                break
            except httpx.TransportError:
                if server is not None and server.poll() is not None:
                    print(server.stderr.read().decode(), file=sys.stderr)
                    return 2
                await asyncio.sleep(0.1)
        per_game = [args.players // args.games + (1 if g < args.players % args.games else 0) for g in range(args.games)]
        games: list[tuple[str, dict[str, str]]] = []
        for g, n in enumerate(per_game):
            body = {"ruleset": RULESETS[g % len(RULESETS)], "players": [f"P{i + 1}" for i in range(n)],
                    "seed": args.seed + g, "title": f"load {g}"}
            r = await client.request("POST", "/api/games", json=body)
            assert r is not None and r.status_code == 201, r and r.text
            created = r.json()
            games.append((created["game"], {p: s["token"] for p, s in created["seats"].items()}))
            stats.acked[created["game"]] = []
        stats.latencies.clear()
        stats.statuses.clear()
        print(f"{len(games)} games, {sum(per_game)} players, server {base}"
              f" ({args.workers} worker{'s' * (args.workers > 1)}, {args.db or 'its own store'})", flush=True)
        start = time.monotonic()
        stop = start + args.deadline
        tasks = [asyncio.create_task(player(client, gid, p, tok, args.seed * 1000 + k, stop))
                 for k, (gid, seats) in enumerate(games) for p, tok in seats.items()]
        killed = None
        if args.kill_after is not None and server is not None:
            await asyncio.sleep(args.kill_after)
            before = worker_pids(server.pid)
            if before:
                killed = before[0]
                os.kill(killed, signal.SIGKILL)
                print(f"killed worker {killed} with SIGKILL after {args.kill_after:g} s", flush=True)
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - start
        if killed is not None:
            after = worker_pids(server.pid)
            print(f"workers after the kill: {len(after)} (a new one started: {killed not in after and bool(after)})")
        lat = sorted(stats.latencies)
        pct = (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000) if lat else (lambda q: float("nan"))
        total = sum(stats.statuses.values())
        fives = sum(v for k, v in stats.statuses.items() if k >= 500)
        print(f"{total} requests in {elapsed:.1f} s: {total / elapsed:.0f} req/s; latency p50 {pct(0.5):.1f} ms,"
              f" p99 {pct(0.99):.1f} ms; statuses {dict(sorted(stats.statuses.items()))}; 5xx: {fives}")
        if stats.errors:
            print("errors by kind:")
            for kind, n in stats.errors.most_common():
                print(f"  {n:6d}  {kind}")
        # After the run: every game verified, and the acknowledged decisions against the lines.
        from agon.core.service import Service
        from agon.events.store import Store

        svc = Service(Store(args.db if "://" in (args.db or "") else f"sqlite:///{Path(args.db).resolve()}"))
        bad = lost = duplicated = unfinished = doubtful = 0
        for gid, seats in games:
            problems = svc.verify(gid)
            bad += bool(problems)
            line = svc.load(gid)
            unfinished += line.status().startswith("over") is False
            decisions = [(e.depth, e.actor) for e in line.envelopes if e.actor in seats]
            on_line = Counter(decisions)
            acked = Counter(stats.acked[gid])
            lost += sum((acked - on_line).values())
            # A decision on the line that was never acknowledged is a duplicate unless its sender lost the reply
            # (a worker killed between the commit and the answer): those are counted, up to the sends in doubt.
            unacked = Counter(actor for (_, actor), n in (on_line - acked).items() for _ in range(n))
            doubt = stats.in_doubt.get(gid, Counter())
            doubtful += sum((unacked & doubt).values())
            duplicated += sum((unacked - doubt).values())
            ids = [e.id for e in line.envelopes]
            duplicated += len(ids) - len(set(ids))
        svc.store.close()
        acks = sum(len(v) for v in stats.acked.values())
        print(f"verify: {len(games) - bad} of {len(games)} games pass; {len(games) - unfinished} played to the end;"
              f" {acks} acknowledged decisions: {lost} lost, {duplicated} duplicated or unacknowledged;"
              f" {doubtful} recorded whose reply was lost with its connection")
        return 1 if bad or lost or duplicated or fives or unfinished else 0
    finally:
        await client.http.aclose()
        if server is not None:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", help="the store the server uses (a SQLite path or a SQLAlchemy URL); also read back"
                    " to verify the games")
    ap.add_argument("--url", help="a running server on loopback to use instead of starting one (give --db too)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kill-after", type=float, help="SIGKILL one server worker this many seconds into the run")
    ap.add_argument("--deadline", type=float, default=900, help="stop the players after this many seconds")
    args = ap.parse_args()
    if not args.db:
        ap.error("--db is needed: the store the server uses, read back afterwards to verify every game")
    if args.url and not args.url.startswith(("http://127.", "http://localhost", "http://[::1]")):
        ap.error("--url must be a server on this machine's loopback (127.0.0.1)")
    if args.players < args.games * 2:
        ap.error("give at least two players per game")
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()

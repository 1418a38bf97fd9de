"""Rollout speed, in one run against today's play-out (``scripts/bench.py`` runs it too):

    .venv/bin/python scripts/bench_rollouts.py

1. Events per second of random-bot games played to the end, per ruleset, by the rollout engine (core.rollout)
   against the baseline measured in the same process: ``autoplay.play_out`` without validation, the service-less
   fold with ``legal()`` listing and the service's luck drawn per event, as play-outs ran before the engine.
   Targets, per core: 20,000 events/s for Pergamemnon, Peloponnes and Adamastor, 5,000 for Perikles.
2. The same batch of rollout tasks on a pool of two worker processes against one (target: at least 1.7x).
3. The shipped Pergamemnon replay analysed with 100 rollouts per position (``agon analyse``'s work, every
   decision judged, two workers): target under 2 minutes.

Exit status 1 when a target is missed.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agon.core import registry  # noqa: E402
from agon.core.analyse import Settings, analyse, execute  # noqa: E402
from agon.core.autoplay import play_out  # noqa: E402
from agon.core.rollout import Task, run  # noqa: E402
from agon.events.base import GameCreated, PlayerSeat  # noqa: E402

SETUPS = (("pergamemnon", 3, 20000), ("peloponnes", 3, 20000), ("adamastor", 1, 20000), ("perikles", 4, 5000))
SECONDS = 4.0

Record = Callable[[str, str, float, str, bool], None]


def _record(name: str, detail: str, ratio: float, target: str, ok: bool) -> None:
    print(f"{'ok  ' if ok else 'MISS'} {name}: {detail} -> {ratio:.2f}x (target {target})", flush=True)


def _created(name: str, players: int, seed: int, cards: dict) -> GameCreated:
    rs = registry.get(name)
    seats = tuple(PlayerSeat(f"P{i + 1}", "random") for i in range(players))
    return GameCreated(ruleset=name, ruleset_version=rs.version, players=seats, seed=seed, cards=cards)


def _rate(play_one: Callable[[int], int]) -> float:
    """Events per second of whole games, played one after another for about SECONDS."""
    events, k, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < SECONDS or k < 3:
        events += play_one(k)
        k += 1
    return events / (time.perf_counter() - t0)


def bench_speed(record: Record) -> None:
    for name, players, target in SETUPS:
        rs = registry.get(name)
        cards = rs.default_cards()
        start = _created(name, players, 0, cards)
        state = rs.initial_state(start)

        def baseline(k: int) -> int:
            return len(play_out(rs, _created(name, players, k, cards), validate=False)[0]) - 1

        def engine(k: int) -> int:
            return run(rs, state, start.names, "random", 1, "bench", k, 1).events

        base, fast = _rate(baseline), _rate(engine)
        record(f"{name} rollouts ({players}p, random bots) vs today's play-out",
               f"{fast:,.0f} vs {base:,.0f} events/s (target {target:,} events/s)", fast / base,
               f">= {target:,} events/s", fast >= target)


def bench_workers(record: Record) -> None:
    rs = registry.get("pergamemnon")
    start = _created("pergamemnon", 3, 0, rs.default_cards())
    state = rs.initial_state(start)
    tasks = [Task("pergamemnon", state, start.names, "random", 1, f"p{i}", 0, 25) for i in range(24)]
    times = {}
    for workers in (1, 2):
        t0 = time.perf_counter()
        list(execute(tasks, Settings(workers=workers), force_pool=True))
        times[workers] = time.perf_counter() - t0
    ratio = times[1] / times[2]
    record("2 worker processes vs 1 (24 tasks of 25 Pergamemnon rollouts)",
           f"{times[2]:.1f} s vs {times[1]:.1f} s", ratio, ">= 1.7x", ratio >= 1.7)


def bench_replay(record: Record) -> None:
    from agon.core.service import Service
    from agon.events.store import Store

    with tempfile.TemporaryDirectory() as d:
        store = Store(f"sqlite:///{Path(d) / 'bench.db'}")
        svc = Service(store)
        gid = svc.import_((ROOT / "replays" / "pergamemnon-3p.jsonl").read_bytes())
        line = svc.load(gid)
        t0 = time.perf_counter()
        a = analyse(svc, line, Settings(rollouts=100, workers=2))
        took = time.perf_counter() - t0
        t1 = time.perf_counter()
        analyse(svc, line, Settings(rollouts=100, workers=2))
        again = time.perf_counter() - t1
        store.close()
    record(f"shipped Pergamemnon replay ({len(line.events)} events), 100 rollouts per position, 2 workers",
           f"{took:.0f} s for {a.computed:,} rollouts ({a.rollout_events:,} events, {len(a.decisions)} decisions"
           f" judged, {len(a.marked)} marked); cached rerun {again:.2f} s", took / 120, "< 2 minutes", took < 120)


def bench(record: Record = _record) -> None:
    bench_speed(record)
    bench_workers(record)
    bench_replay(record)


def main() -> int:
    missed: list[str] = []

    def rec(name: str, detail: str, ratio: float, target: str, ok: bool) -> None:
        _record(name, detail, ratio, target, ok)
        if not ok:
            missed.append(name)

    bench(rec)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

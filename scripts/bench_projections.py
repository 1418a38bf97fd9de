"""Projection throughput against plain fold throughput, in events per second, measured in one run.

For each ruleset, seeded games are played to the end by random bots (in memory, no store). Then, over the same
events, it times:

- fold: ``state = apply(state, event)`` over the line (the floor: what replaying a game costs);
- steps: the same fold keeping every (before, after) pair, as projections read it;
- timeline: steps plus the score timeline (scores and the narrated sentence after every event);
- each of the ruleset's own projections: steps plus the projection;
- summary: what ``agon stats`` does per game (final state, outcome, sides).

Each figure is the best of three timed runs after a warm-up run.

Usage: python scripts/bench_projections.py [--games 20] [--ruleset NAME ...] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agon.analysis.games import sides_of  # noqa: E402
from agon.analysis.timeline import score_timeline  # noqa: E402
from agon.core import registry  # noqa: E402
from agon.core.autoplay import play_out  # noqa: E402
from agon.core.engine import Over, fold, steps  # noqa: E402
from agon.events.base import GameCreated, PlayerSeat  # noqa: E402


def record(name: str, games: int, seed: int) -> list[tuple[list, list[str]]]:
    rs = registry.get(name)
    n = max(rs.min_players, min(3, rs.max_players))
    lines = []
    for k in range(games):
        created = GameCreated(ruleset=name, ruleset_version=rs.version, seed=seed + k, cards=rs.default_cards(),
                              players=tuple(PlayerSeat(f"P{i + 1}", "random") for i in range(n)))
        events, actors, _ = play_out(rs, created, validate=False)
        lines.append((events, actors))
    return lines


def rate(events: int, fn, repeat: int = 3) -> float:
    """Events per second of ``fn`` over ``events`` events: the best of ``repeat`` runs (after a warm-up run)."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return events / best if best > 0 else float("inf")


def bench(name: str, games: int, seed: int) -> dict:
    rs = registry.get(name)
    lines = record(name, games, seed)
    total = sum(len(ev) for ev, _ in lines)
    out = {"ruleset": name, "games": games, "events": total}
    out["fold"] = rate(total, lambda: [fold(rs, ev) for ev, _ in lines])
    out["steps"] = rate(total, lambda: [list(steps(rs, ev, ac)) for ev, ac in lines])
    out["timeline"] = rate(total, lambda: [score_timeline(rs, steps(rs, ev, ac)) for ev, ac in lines])
    for proj, fn in rs.projections.items():
        out[f"projection {proj}"] = rate(total, lambda fn=fn: [fn(list(steps(rs, ev, ac))) for ev, ac in lines])

    def summaries() -> None:
        for ev, _ in lines:
            state = fold(rs, ev)
            line = SimpleNamespace(ruleset=rs, created=ev[0], events=ev, state=state)
            pending = rs.pending(state)
            assert isinstance(pending, Over)
            rs.scores(state)
            sides_of(name, line)

    out["summary (stats)"] = rate(total, summaries)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per ruleset (default 20)")
    parser.add_argument("--ruleset", action="append", help="a ruleset (repeatable; default: every shipped one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    names = args.ruleset or [n for n in registry.names() if n != "toy"]
    results = [bench(n, args.games, args.seed) for n in names]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for r in results:
        print(f"{r['ruleset']}: {r['games']} games, {r['events']} events")
        fold_rate = r["fold"]
        for key, value in r.items():
            if key in ("ruleset", "games", "events"):
                continue
            print(f"  {key:<28} {value:>12,.0f} events/s   {value / fold_rate:6.2f} x fold")


if __name__ == "__main__":
    main()

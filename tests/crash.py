"""Crash testing with SIGKILL: a child process records decisions (and undoes some, then acts again, which names the
undone line) as fast as it can and reports each one the service acknowledged; the parent kills it at a random
moment, then checks the store. Used by tests/test_kill.py and scripts/reliability.py.

Run as ``python -m tests.crash URL GAME`` it is the child.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("AGON_RULESETS", "toy=tests.toygame")  # the tests' dice game, also outside pytest


def child(url: str, game: str) -> None:
    from agon.core.service import Service, ServiceError
    from agon.events.store import Store

    svc = Service(Store(url, create=False))
    rng = random.Random(os.getpid())
    while True:
        try:
            if rng.random() < 0.2:
                moved, _ = svc.undo(game)
                print(f"undo {moved.head_id}", flush=True)
                continue
            _, line = svc.record(game, rng.choice(["1", "2"]))
            print(f"ack {line.head.id}", flush=True)
        except ServiceError as e:
            if "over" in str(e):
                svc.undo(game, 2)
            else:
                print(f"refused {e}", flush=True)


@dataclass
class KillReport:
    kills: int = 0
    acked: int = 0
    problems: list[str] = field(default_factory=list)


def new_game(url: str, seed: int = 1) -> str:
    from agon.core.service import NewGame, Service
    from agon.events.store import Store

    svc = Service(Store(url))
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=seed))
    svc.store.close()
    return gid


def redo_tips(svc, game: str, branch: str) -> list[str]:
    """Every head that redo, repeated, brings back: the undos since the branch's last recorded event (two undos in a
    row leave two lines to redo, the nearer one first; undone moves entered again as they were, 'reenter', walk the
    undone line and end neither)."""
    tips = []
    for m in svc.store.head_moves_newest_first(game, branch):
        if m.reason == "undo":
            tips.append(m.from_id)
        elif m.reason not in ("redo", "switch", "reenter"):
            break
    return tips


def check(url: str, game: str, acked: list[str]) -> list[str]:
    """What is wrong with the store after a kill: damage, an acknowledged event lost, a line no head reaches."""
    from agon.core.service import Service
    from agon.events.store import Store

    svc = Service(Store(url, create=False))
    try:
        problems = svc.verify(game)
        events = {e.id: e for e in svc.store.all_events(game)}
        problems += [f"acknowledged event {h[:12]} is not stored" for h in acked if h not in events]
        tips = [b.head_id for b in svc.store.branches(game)]
        tips += [t for b in svc.store.branches(game) for t in redo_tips(svc, game, b.name)]
        reached: set[str] = set()
        for tip in tips:
            node = events.get(tip)
            while node is not None and node.id not in reached:
                reached.add(node.id)
                node = events.get(node.parent) if node.parent else None
        lost = set(events) - reached
        if lost:
            problems.append(f"{len(lost)} stored event(s) are reached by no branch head and no redo")
        return problems
    finally:
        svc.store.close()


def run_kills(url: str, kills: int, seed: int = 0) -> KillReport:
    """Kill a recording child ``kills`` times at random moments; check the store after each kill."""
    rng = random.Random(seed)
    game = new_game(url, seed + 1)
    report = KillReport()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for _ in range(kills):
        proc = subprocess.Popen([sys.executable, "-m", "tests.crash", url, game], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, cwd=ROOT, env=env, text=True)
        acked: list[str] = []
        wanted = rng.randint(2, 25)
        assert proc.stdout is not None
        for raw in proc.stdout:
            kind, _, value = raw.strip().partition(" ")
            if kind == "ack":
                acked.append(value)
            if len(acked) >= wanted:
                time.sleep(rng.random() / 50)  # somewhere inside the next decision's transaction, or not
                break
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        report.kills += 1
        report.acked += len(acked)
        report.problems += check(url, game, acked)
    return report


if __name__ == "__main__":
    child(sys.argv[1], sys.argv[2])

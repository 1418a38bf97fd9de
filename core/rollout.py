"""Rollouts: games played to their end from a position by bots, in memory, as fast as the rules allow.

A rollout is what ``autoplay.play_out`` does, less everything a recorded game needs and a throw-away game does
not: no store, no narration, no re-validation of the bots' decisions (a bot chooses among legal decisions, so
they are legal by construction; the conformance suite checks that for every ruleset), and one random generator
per rollout instead of one hash per event. Every future chance outcome is drawn afresh, so a rollout is one
possible future of the position, not the recorded one.

Luck is a pure function of ``(seed, position, index)``: rollout ``index`` from the position whose key is
``position`` (an event id) always plays the same game, whichever process or machine plays it. Batches are cut
at fixed indices (``CHUNK``), never by the number of workers, so sums come out bit for bit the same.

Rollouts start from the full state: they know every hidden card, like an observer who sees everything.

A ruleset may offer ``sample_legal(state, rng)``: one legal decision drawn uniformly from what ``legal(state)``
lists, without listing them all (Perikles lists up to ~2,000 commitments a turn). The ``random`` bot uses it
where it exists; every other bot is handed the full list.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agon.core import chance as chance_mod
from agon.core import registry
from agon.core.bots import bots_of
from agon.core.engine import Chance, Decision, Over, Ruleset, State
from agon.events.base import Event

MAX_EVENTS = 20000
"""A rollout longer than this is a bug in the rules (every game ends); it is reported, not played forever."""

CHUNK = 25
"""Rollouts per task. Fixed, so the split (and the order sums are taken in) never depends on the workers."""


def rollout_rng(seed: int, position: str, index: int) -> random.Random:
    """The generator of rollout ``index`` from ``position``: all its luck and all its bots' choices."""
    digest = hashlib.sha256(f"rollout:{seed}:{position}:{index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


Chooser = Callable[[State, random.Random], Event]


def chooser(ruleset: Ruleset, kind: str) -> Chooser:
    """How a bot of ``kind`` picks a decision in a rollout: ``random`` samples without listing where the
    ruleset can; other bots get the legal list as in a recorded game."""
    sample = getattr(ruleset, "sample_legal", None)
    if kind == "random" and sample is not None:
        return sample
    bot = bots_of(ruleset)[kind]
    legal = ruleset.legal
    if kind == "random":
        def pick(state: State, rng: random.Random) -> Event:
            options = legal(state)
            return options[int(rng.random() * len(options))]
        return pick

    def decide(state: State, rng: random.Random) -> Event:
        return bot(ruleset, state, legal(state), rng)
    return decide


@dataclass
class Tally:
    """What a batch of rollouts from one position came to. ``wins[p]`` counts the rollouts ``p`` won (a shared
    win counts for every winner); ``score_sums[p]`` adds up ``p``'s final scores; ``events`` counts the events
    played."""

    rollouts: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    score_sums: dict[str, float] = field(default_factory=dict)
    events: int = 0

    def add(self, other: Tally) -> None:
        self.rollouts += other.rollouts
        self.events += other.events
        for p, w in other.wins.items():
            self.wins[p] = self.wins.get(p, 0) + w
        for p, s in other.score_sums.items():
            self.score_sums[p] = self.score_sums.get(p, 0.0) + s

    def chance(self, player: str) -> float:
        return self.wins.get(player, 0) / self.rollouts if self.rollouts else 0.0

    def mean_score(self, player: str) -> float:
        return self.score_sums.get(player, 0.0) / self.rollouts if self.rollouts else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"rollouts": self.rollouts, "wins": self.wins, "score_sums": self.score_sums, "events": self.events}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Tally:
        return cls(obj["rollouts"], dict(obj["wins"]), dict(obj["score_sums"]), obj["events"])


def play(ruleset: Ruleset, state: State, choose: Chooser, rng: random.Random, max_events: int = MAX_EVENTS,
         record: list[Event] | None = None) -> tuple[Over, State, int]:
    """Play from ``state`` to the end. Returns the end, the final state and the number of events played (and
    appends them to ``record`` when given: for tests that check them)."""
    pending_of, apply, draw = ruleset.pending, ruleset.apply, chance_mod.draw
    n = 0
    while n < max_events:
        pending = pending_of(state)
        if type(pending) is Decision:
            event = choose(state, rng)
        elif type(pending) is Over:
            return pending, state, n
        else:
            assert isinstance(pending, Chance)
            event = pending.build(draw(pending, rng))
        state = apply(state, event)
        n += 1
        if record is not None:
            record.append(event)
    raise RuntimeError(f"{ruleset.name}: a rollout did not end within {max_events} events")


def run(ruleset: Ruleset, state: State, players: Sequence[str], kind: str, seed: int, position: str,
        start: int, count: int) -> Tally:
    """Rollouts ``start`` to ``start + count - 1`` from ``state`` (whose key is ``position``)."""
    choose = chooser(ruleset, kind)
    tally = Tally(0, {p: 0 for p in players}, {p: 0.0 for p in players}, 0)
    for index in range(start, start + count):
        over, final, n = play(ruleset, state, choose, rollout_rng(seed, position, index))
        tally.rollouts += 1
        tally.events += n
        for w in over.outcome.winners:
            tally.wins[w] += 1
        for p, s in ruleset.scores(final).items():
            tally.score_sums[p] += s
    return tally


@dataclass(frozen=True)
class Task:
    """One batch, self-contained so that it can be pickled to another process or machine."""

    ruleset: str
    state: Any
    players: tuple[str, ...]
    kind: str
    seed: int
    position: str
    start: int
    count: int


def run_task(task: Task) -> Tally:
    rs = registry.get(task.ruleset)
    return run(rs, task.state, task.players, task.kind, task.seed, task.position, task.start, task.count)

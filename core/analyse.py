"""Where was the game won? Win chances after every event of a line, and the better decisions, by rollouts.

For every position of a line, ``rollouts`` games are played from it to the end by bots with fresh luck
(core.rollout); each player's win chance is the share of those games they win (a shared win counts for every
winner; a solo voyage's chance is that of it succeeding) and their expected final score is the mean. Rollouts
start from the full state: they know every hidden card, like an observer who sees everything.

For each decision by a person (every decision with ``judge_all``, or when no seat is a person), each legal
alternative is judged the same way, from the position it would lead to (all of them, or for a long list a
sample that always holds the choice made and the bot's choice). When the best alternative looks better than the
choice made by more than ``threshold``, a second, independent batch of rollouts re-checks it, so that picking the
luckiest of many estimates does not invent a mistake; the decision is marked when the re-checked loss is still
above the threshold and larger than ``SURE_LOSS`` standard errors of itself, from at least ``MARK_ROLLOUTS`` rollouts
per estimate. A loss above the threshold that is within that noise, or from fewer rollouts, is not marked but kept as
``uncertain``: ``rollouts_to_judge`` says how many rollouts tell a loss of the threshold from noise.

Results are cached in the store (events.analysis_cache), keyed by position, ruleset version with this module's
``ANALYSIS_VERSION`` (``cache_version``), bot, rollouts and seed: a second run reads them; ``fresh`` recomputes. The
work is split into tasks of ``rollout.CHUNK`` rollouts and handed to an executor: this process, a local process pool,
or an existing Dask cluster.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from typing import Any

from agon.core import rollout
from agon.core.bots import bots_of, judging_bot
from agon.core.chance import rng_for
from agon.core.engine import Decision, Over, Ruleset, State, option_text
from agon.core.rollout import Tally, Task
from agon.core.service import Line, Service, ServiceError
from agon.events import analysis_cache as cache
from agon.events.base import Event
from agon.events.envelope import chain_hash

ANALYSIS_VERSION = 1
"""How cached results are made, besides the rules: raise it with any change that would give another figure for the
same position, bot, rollouts and seed (how a rollout plays or is tallied, core/rollout.py; a bot's play; a score a
ruleset counts without a new version). Rows made under another version are then not read but played again, as a
ruleset's new version makes them stale (``cache_version``). What the analysis says in words is never cached: its
sentences are made from the events and the figures each time it is shown."""


def cache_version(rs: Ruleset) -> str:
    """The version a cached result is kept and found under: the ruleset's and the analysis's (``5/a1``). Results of
    stores from before the analysis had one are under the ruleset's alone (``5``), so they are stale too."""
    return f"{rs.version}/a{ANALYSIS_VERSION}"


GLYPHS = ((0.30, "??"), (0.20, "?"), (0.0, "?!"))
"""Marks by the win chance lost against the best alternative, as chess annotators use them."""

SURE_LOSS = 1.96
"""A decision is marked only when its loss is larger than this many standard errors of the loss (the difference of
two estimates): 95%, the margin the output states for a chance. A smaller difference may be the rollouts' luck."""

MARK_ROLLOUTS = 10
"""The fewest rollouts per estimate from which a decision is marked. The ``SURE_LOSS`` test reads a share as
normally distributed, which the usual rule (``n·p`` and ``n·(1 - p)`` both at least 5) allows from 10 games at best
(an even chance); from fewer it calls luck a blunder: from 4 games, 0 of 4 against 3 of 4 passed it as ``??``. A loss
above the threshold from fewer games is kept as ``uncertain``, as one within the noise is."""


@dataclass(frozen=True)
class Settings:
    rollouts: int = 100
    bot: str | None = None
    """The bots that play positions on (None: the ruleset's ``judging_bot``, core/bots.py)."""
    seed: int = 0
    workers: int = 1
    judge_all: bool = False
    threshold: float = 0.10
    max_alternatives: int = 12
    fresh: bool = False
    cluster: str | None = None


@dataclass
class Position:
    """The position after event ``n``: each player's win chance and expected final score."""

    n: int
    node_id: str
    actor: str
    text: str
    chances: dict[str, float]
    scores: dict[str, float]
    rollouts: int
    over: bool = False


@dataclass
class Alternative:
    text: str
    event: Event
    node_id: str
    chance: float = 0.0
    score: float = 0.0
    made: bool = False
    bot: bool = False
    choice: str = ""
    """What to type after ``agon act GAME`` to play it: its number in ``agon options``, or the event as JSON."""


@dataclass
class Judged:
    """One decision (event ``n``, by ``player``) against its alternatives."""

    n: int
    player: str
    text: str
    chance: float
    legal: int
    alternatives: list[Alternative]
    best: Alternative | None = None
    best_checked: float | None = None
    loss: float = 0.0
    noise: float = 0.0
    """The standard error of ``loss`` (none where both positions are finished games, whose outcome is known)."""
    marked: bool = False
    uncertain: bool = False
    """The loss is above the threshold but within ``SURE_LOSS`` standard errors, or from fewer than ``MARK_ROLLOUTS``
    rollouts: too few rollouts to tell."""
    glyph: str = ""

    @property
    def sampled(self) -> bool:
        return len(self.alternatives) < self.legal


@dataclass
class Analysis:
    line: Line
    settings: Settings
    positions: list[Position] = field(default_factory=list)
    decisions: list[Judged] = field(default_factory=list)
    rollout_events: int = 0
    computed: int = 0
    cached: int = 0
    seconds: float = 0.0

    @property
    def players(self) -> tuple[str, ...]:
        return self.line.created.names

    @property
    def marked(self) -> list[Judged]:
        return [d for d in self.decisions if d.marked]

    @property
    def uncertain(self) -> list[Judged]:
        """The decisions that seemed to lose more than the threshold, by less than the estimates' own noise."""
        return [d for d in self.decisions if d.uncertain]


Progress = Callable[[int, int], None]
"""``progress(rollouts_done, rollouts_total)``."""


# ---------------------------------------------------------------------------------------------------------------
# Executors: the same tasks, the same results, wherever they run


def _in_process(tasks: Sequence[Task]) -> Iterator[tuple[int, Tally]]:
    for i, t in enumerate(tasks):
        yield i, rollout.run_task(t)


def _process_pool(tasks: Sequence[Task], workers: int) -> Iterator[tuple[int, Tally]]:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(rollout.run_task, t): i for i, t in enumerate(tasks)}
        for f in as_completed(futures):
            yield futures[f], f.result()


def _dask(tasks: Sequence[Task], address: str) -> Iterator[tuple[int, Tally]]:
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise ServiceError("--cluster needs the 'distributed' package: pip install 'agon[cluster]'") from None
    _reachable(address)
    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError) as e:
        raise ServiceError(f"cannot reach the Dask scheduler at {address} ({e}); leave out --cluster to run here")\
            from None
    try:
        futures = client.map(rollout.run_task, list(tasks), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        for f in dask_completed(futures):
            yield index[f.key], f.result()
    finally:
        client.close()


def _address(address: str) -> tuple[str, int]:
    """The host and port of a scheduler address (``tcp://HOST:PORT``), or ``ServiceError`` saying how to give it."""
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or not port:
        raise ServiceError(f"--cluster {address!r} is not a scheduler address; give it as tcp://HOST:PORT")
    return host, port


def _reachable(address: str) -> None:
    """Fail at once, in one line, when nothing listens at ``address`` (Dask itself would retry for a while)."""
    import socket

    host, port = _address(address)
    try:
        socket.create_connection((host, port), timeout=10).close()
    except OSError as e:
        raise ServiceError(f"cannot reach the Dask scheduler at {address} ({e.strerror or e}); start one ('dask"
                           " scheduler' and 'dask worker') or leave out --cluster to run here") from None


def execute(tasks: Sequence[Task], settings: Settings, force_pool: bool = False) -> Iterator[tuple[int, Tally]]:
    """Each task's index and result, in the order they finish. One worker (or one task) runs here, unless
    ``force_pool`` (the benchmark compares pools of one and two processes)."""
    if not tasks:
        return iter(())
    if settings.cluster:
        return _dask(tasks, settings.cluster)
    if not force_pool and (settings.workers <= 1 or len(tasks) == 1):
        return _in_process(tasks)
    return _process_pool(tasks, settings.workers)


# ---------------------------------------------------------------------------------------------------------------
# Planning


def _is_over(rs: Ruleset, state: State) -> Over | None:
    p = rs.pending(state)
    return p if isinstance(p, Over) else None


def exact(rs: Ruleset, state: State, over: Over, players: Sequence[str]) -> Tally:
    """A finished game needs no rollouts: its outcome is known."""
    scores = rs.scores(state)
    return Tally(1, {p: int(p in over.outcome.winners) for p in players}, {p: float(scores.get(p, 0.0)) for p in
                                                                          players}, 0)


class _Jobs:
    """Positions to estimate, each by node id, with the rollouts still to play for it."""

    def __init__(self, line: Line, settings: Settings) -> None:
        self.line, self.settings = line, settings
        self.states: dict[tuple[str, int], State] = {}
        self.results: dict[tuple[str, int], Tally] = {}

    def want(self, node_id: str, state: State, start: int = 0) -> None:
        self.states.setdefault((node_id, start), state)

    def run(self, svc: Service, progress: Progress | None, done_before: int, total: int,
            only_cached: bool = False) -> tuple[int, int, int]:
        """Read what the cache has, play the rest (unless ``only_cached``). Returns (rollouts played, events
        played, positions read from the cache)."""
        rs, s = self.line.ruleset, self.settings
        players = self.line.created.names
        todo: dict[tuple[str, int], State] = {}
        for key, state in self.states.items():
            if key in self.results:
                continue
            over = _is_over(rs, state)
            if over is not None:
                self.results[key] = exact(rs, state, over, players)
            else:
                todo[key] = state
        keys = {k: cache.Key(k[0], cache_version(rs), s.bot, s.rollouts, s.seed, k[1]) for k in todo}
        found = {} if s.fresh else cache.get(svc.store, keys.values())
        missing = []
        for k in todo:
            hit = found.get(keys[k])
            if hit is not None:
                self.results[k] = Tally.from_json(hit)
            else:
                missing.append(k)
        if only_cached:
            return 0, 0, len(todo) - len(missing)
        tasks: list[Task] = []
        owner: list[tuple[str, int]] = []
        for k in missing:
            node_id, start = k
            for first in range(start, start + s.rollouts, rollout.CHUNK):
                count = min(rollout.CHUNK, start + s.rollouts - first)
                tasks.append(Task(rs.name, todo[k], players, s.bot, s.seed, node_id, first, count))
                owner.append(k)
        parts: dict[tuple[str, int], list[Tally | None]] = {}
        for k in missing:
            parts[k] = []
        slot: list[int] = []
        for k in owner:
            slot.append(len(parts[k]))
            parts[k].append(None)
        done = done_before + (len(todo) - len(missing)) * s.rollouts
        if progress:
            progress(done, total)
        played = events = 0
        pending_writes: dict[cache.Key, dict[str, Any]] = {}
        for i, tally in execute(tasks, s):
            k = owner[i]
            parts[k][slot[i]] = tally
            played += tally.rollouts
            events += tally.events
            done += tally.rollouts
            if progress:
                progress(done, total)
            if all(p is not None for p in parts[k]):
                whole = Tally(0, {p: 0 for p in players}, {p: 0.0 for p in players}, 0)
                for part in parts[k]:  # in rollout order: the sums never depend on who finished first
                    assert part is not None
                    whole.add(part)
                self.results[k] = whole
                pending_writes[keys[k]] = whole.to_json()
                if len(pending_writes) >= 64:
                    cache.put(svc.store, pending_writes)
                    pending_writes = {}
        cache.put(svc.store, pending_writes)
        return played, events, len(todo) - len(missing)


def _node_of(line: Line, parent_id: str, actor: str, event: Event) -> str:
    """The id ``event`` has (or would have) as a child of ``parent_id``: the same position shares one cache row."""
    codec = line.codec
    tag = codec.tag_of(event)
    return chain_hash(parent_id, tag, codec.version_of(tag), actor, codec.encode(event))


def bot_choice(line: Line, state: State, n: int, player: str) -> Event | None:
    """What a bot would play for ``player`` at event ``n``: the seat's own bot (drawing from the rng the service
    gave it, so in a bot's seat this is what it played), else the ruleset's greedy bot, else none."""
    rs = line.ruleset
    kinds = bots_of(rs)
    kind = line.bot_of(player) or ("greedy" if "greedy" in kinds else None)
    if kind is None or kind not in kinds:
        return None
    rng = rng_for(line.created.seed, line.branch.luck, n, purpose=f"bot:{player}")
    return kinds[kind](rs, state, rs.legal(state), rng)


def decision_text(rs: Ruleset, state: State, event: Event) -> str:
    """A decision as the analysis tells it: as its player read it among their options (``option_text``: nothing
    the decision would reveal), each card by the name alone, as ``agon log`` and the positions' sentences name it.
    Options show a card's id beside its name where a table types the id (``value_names``: Peloponnes' ``A03
    Market``): `agon analyse` read 'best: Ana bids 5 on A03 Market' above a log and a 'Where the game turned' that
    say 'Market'."""
    text = option_text(rs, state, event)
    hook = getattr(rs, "value_names", None)
    names = hook(state) if hook is not None else {}
    if not names:
        return text
    pairs = re.compile(r"(?<![\w.-])(" + "|".join(re.escape(k) for k in sorted(names, key=len, reverse=True))
                       + r") (?=\S)")

    def named(m: re.Match[str]) -> str:
        name = names[m.group(1)]
        return "" if text.startswith(name, m.end()) else m.group(0)

    return pairs.sub(named, text)


def _alternatives(line: Line, state: State, n: int, player: str, settings: Settings) -> tuple[list[Alternative], int]:
    rs, codec = line.ruleset, line.codec
    parent = line.envelopes[n - 1].id
    made = line.events[n]
    legal = list(rs.legal(state))
    bot = bot_choice(line, state, n, player)
    number = {codec.encode(e): i + 1 for i, e in enumerate(legal)}
    seen: dict[bytes, Alternative] = {}

    def add(e: Event) -> Alternative:
        key = codec.encode(e)
        alt = seen.get(key)
        if alt is None:
            choice = str(number[key]) if key in number else codec.encode(e).decode()
            alt = seen[key] = Alternative(decision_text(rs, state, e), e, _node_of(line, parent, player, e),
                                          choice=choice)
        return alt

    add(made).made = True
    if bot is not None:
        add(bot).bot = True
    rest = [e for e in legal if codec.encode(e) not in seen]
    room = max(0, settings.max_alternatives - len(seen))
    if len(rest) > room:
        rng = rollout.rollout_rng(settings.seed, parent, -1)
        rest = [rest[i] for i in sorted(rng.sample(range(len(rest)), room))]
    for e in rest:
        add(e)
    return list(seen.values()), max(len(legal), len(seen))


def _judged_here(line: Line, settings: Settings) -> set[str]:
    people = {p.name for p in line.created.players if not p.bot}
    return set(line.created.names) if settings.judge_all or not people else people


def settled(line: Line, settings: Settings) -> Settings:
    """``settings`` for ``line`` as ``analyse`` reads them (the bot named in any case, the ruleset's judging bot
    when none is), or ``ServiceError`` naming what cannot be used: a face asks here before it says what it is
    about to do, so a refused request prints only its one line."""
    if settings.rollouts < 1:
        raise ServiceError("--rollouts must be at least 1")
    kinds = bots_of(line.ruleset)
    bot = settings.bot if settings.bot is None or settings.bot in kinds else settings.bot.strip().lower()
    if bot is None:
        bot = judging_bot(line.ruleset)
    if bot not in kinds:
        raise ServiceError(f"unknown bot kind {settings.bot!r} for {line.ruleset.name}; choose one of:"
                           f" {', '.join(sorted(kinds))}")
    if not 0 < settings.threshold < 1:
        raise ServiceError("--threshold is a share of win chance between 0 and 1, e.g. 0.1")
    if settings.cluster:
        _address(settings.cluster)
    return replace(settings, bot=bot)


def analyse(svc: Service, line: Line, settings: Settings, progress: Progress | None = None,
            only_cached: bool = False) -> Analysis | None:
    """Estimate every position of ``line`` and judge its decisions (see the module's docstring).

    With ``only_cached`` nothing is played: the analysis is made of cached results, or is None when a position
    has none (a decision whose alternatives are not all cached is left out)."""
    settings = settled(line, settings)
    t0 = time.perf_counter()
    rs = line.ruleset
    players = line.created.names
    judged_players = _judged_here(line, settings)
    states = [st.after for st in line.steps()]
    jobs = _Jobs(line, settings)
    for env, state in zip(line.envelopes, states):
        jobs.want(env.id, state)
    pending_decisions: list[tuple[int, str, list[Alternative], int]] = []
    for n in range(1, len(line.events)):
        before = states[n - 1]
        pending = rs.pending(before)
        actor = line.envelopes[n].actor
        if not isinstance(pending, Decision) or actor not in judged_players:
            continue
        alts, legal_count = _alternatives(line, before, n, actor, settings)
        if len(alts) < 2:
            continue
        for alt in alts:
            if not alt.made:
                jobs.want(alt.node_id, rs.apply(before, alt.event))
        pending_decisions.append((n, actor, alts, legal_count))
    total = sum(_is_over(rs, st) is None for st in jobs.states.values()) * settings.rollouts
    played, events, cached = jobs.run(svc, progress, 0, total, only_cached)
    result = Analysis(line, settings)
    if any((env.id, 0) not in jobs.results for env in line.envelopes):
        return None
    for n, (env, state) in enumerate(zip(line.envelopes, states)):
        tally = jobs.results[(env.id, 0)]
        over = _is_over(rs, state) is not None
        # told as `agon log` tells it: from the state before the event, or, for the first (which has none), after it
        text = rs.narrate(states[n - 1] if n else state, line.events[n])
        result.positions.append(Position(
            n, env.id, env.actor, text, {p: tally.chance(p) for p in players},
            {p: tally.mean_score(p) for p in players}, 0 if over else tally.rollouts, over))
    # Judge each decision; re-check every best alternative that looks better by more than the threshold.
    recheck: list[Judged] = []
    for n, player, alts, legal_count in pending_decisions:
        if any((alt.node_id, 0) not in jobs.results for alt in alts if not alt.made):
            continue
        for alt in alts:
            tally = jobs.results[(line.envelopes[n].id if alt.made else alt.node_id, 0)]
            alt.chance, alt.score = tally.chance(player), tally.mean_score(player)
        alts.sort(key=lambda a: (-a.chance, not a.made, not a.bot))
        made = next(a for a in alts if a.made)
        judged = Judged(n, player, made.text, made.chance, legal_count, alts, best=alts[0])
        if not alts[0].made and alts[0].chance - made.chance > settings.threshold:
            best_state = rs.apply(states[n - 1], alts[0].event)
            if _is_over(rs, best_state) is None:
                jobs.want(alts[0].node_id, best_state, settings.rollouts)
            recheck.append(judged)
        result.decisions.append(judged)
    if recheck:
        more = sum(1 for k in jobs.states if k not in jobs.results) * settings.rollouts
        p2, e2, c2 = jobs.run(svc, progress, total, total + more, only_cached)
        played, events, cached = played + p2, events + e2, cached + c2
    for judged in recheck:
        best = judged.best
        assert best is not None
        key = (best.node_id, settings.rollouts)
        best_over = _is_over(rs, rs.apply(states[judged.n - 1], best.event)) is not None
        if key not in jobs.results:
            if not best_over:
                continue  # only_cached, and the re-check is not cached: not marked
            key = (best.node_id, 0)  # a finished game needs no re-check
        checked = jobs.results[key].chance(judged.player)
        judged.best_checked = checked
        judged.loss = checked - judged.chance
        made_over = result.positions[judged.n].over
        judged.noise = math.sqrt((0.0 if made_over else standard_error(judged.chance, settings.rollouts) ** 2)
                                 + (0.0 if best_over else standard_error(checked, settings.rollouts) ** 2))
        above = judged.loss > settings.threshold
        judged.marked = above and settings.rollouts >= MARK_ROLLOUTS and judged.loss > SURE_LOSS * judged.noise
        judged.uncertain = above and not judged.marked
        judged.glyph = next(g for limit, g in GLYPHS if judged.loss > max(limit, settings.threshold)) \
            if judged.marked else ""
    result.rollout_events, result.computed, result.cached = events, played, cached
    result.seconds = time.perf_counter() - t0
    return result


def cached(svc: Service, line: Line, settings: Settings | None = None) -> Analysis | None:
    """The newest analysis of ``line`` made of cached results alone (no rollout is played), or None. Without
    ``settings``, the newest settings whose results cover the whole line: those of the game's newest analysis may
    cover another line only (a what-if branch analysed after this line), which leaves this one's standing."""
    if settings is not None:
        return analyse(svc, line, settings, only_cached=True)
    for bot, rollouts, seed in cache.available(svc.store, line.envelopes[0].id, cache_version(line.ruleset)):
        found = analyse(svc, line, Settings(rollouts=rollouts, bot=bot, seed=seed), only_cached=True)
        if found is not None:
            return found
    return None


def standard_error(p: float, n: int) -> float:
    """The standard error of a share ``p`` estimated from ``n`` rollouts."""
    return math.sqrt(max(p * (1 - p), 0.25 / max(n, 1)) / max(n, 1))




def rollouts_to_judge(threshold: float) -> int:
    """The rollouts per position from which every loss above ``threshold`` stands out from the estimates' noise
    (``SURE_LOSS`` standard errors of a difference of two even chances, the widest), in whole batches of
    ``rollout.CHUNK``: 200 for a threshold of 10%."""
    need = math.ceil(2 * 0.25 * (SURE_LOSS / threshold) ** 2)
    return -(-need // rollout.CHUNK) * rollout.CHUNK

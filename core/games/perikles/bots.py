"""Perikles bots. "greedy" looks one decision ahead and scores the position with a plain heuristic: points now,
the elections it stands to win, and the locations it stands to win as main attacker or defender (face-down
counters of others are guessed at strength 2). It never imports ``random``: the service hands it an rng.

Follows the scoring and battle rules of ../shared/rules/perikles-game-help.pt.txt (see scoring.py, battle.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.core.games.perikles.battle import DOUBLED, column, side_of
from agon.core.games.perikles.commit import apply_commitment
from agon.core.games.perikles.scoring import breakdown
from agon.core.games.perikles.state import BATTLE, COMMIT, NOBODY, State, leader_of, pidx
from agon.events.base import Event
from agon.events.perikles import BattleTileKept, BattleTilePlayed, ForcesCommitted, PermissionGiven, SlaveRevoltPlayed

WIN_CHANCE = (0.2, 0.3, 0.45, 0.6, 0.75, 0.85)
SAMPLE = 120


def _politics(s: State, p: int) -> float:
    value = 0.0
    for c, city in enumerate(s.data.cities):
        worth = s.data.statue_value(city, s.defeats[c]) + 2.0
        if s.leaders[c] == p:
            value += worth
        pair = s.candidates[c]
        if p in pair:
            other = pair[1] if pair[0] == p else pair[0]
            if other == NOBODY:
                value += 0.7 * worth
            else:
                mine, theirs = s.cubes[c][p], s.cubes[c][other]
                value += worth * (0.9 if mine > theirs else 0.55 if mine == theirs and pair[0] == p else 0.1)
        elif NOBODY in pair and s.cubes[c][p] == max(s.cubes[c]):
            value += 0.3 * worth
    return value


def _guess(s: State, viewer: int, location: str, side: str, kind: str) -> int:
    """Strength of one side in one kind of battle, as ``viewer`` can tell: its own counters exactly, face-down
    counters of others as 2 (and counted as the battle's kind: the viewer cannot see which they are)."""
    total = 0
    for cm in s.commits:
        if cm.location == location and cm.side == side and cm.counter not in s.lost:
            counter = s.data.counter(cm.counter)
            if cm.player == viewer:
                total += counter.strength if counter.kind == kind else 0
            else:
                total += 2
    return total


def _chance(s: State, p: int, name: str) -> float:
    """A rough chance that the attackers take the location: its battles weighed, the last one most."""
    loc = s.data.location(name)
    chances = []
    for kind in loc.battles:
        att = _guess(s, p, name, "attacker", kind) + loc.bonus("attacker", kind)
        dfn = _guess(s, p, name, "defender", kind) + loc.bonus("defender", kind)
        chances.append(0.0 if att <= loc.bonus("attacker", kind) else 1.0 if dfn == 0 else
                       WIN_CHANCE[column(att, dfn)])
    return chances[0] if len(chances) == 1 else 0.35 * chances[0] + 0.65 * chances[1]


def _military(s: State, p: int) -> float:
    value = 0.0
    for name in s.locations:
        loc = s.data.location(name)
        attacked = any(c.location == name and c.side == "attacker" for c in s.commits)
        chance = _chance(s, p, name) if attacked else 0.0
        mains = {side: next((c.player for c in s.commits if c.location == name and c.side == side
                             and c.role == "main"), NOBODY) for side in ("attacker", "defender")}
        if mains["attacker"] == p:
            value += chance * loc.points
        if mains["defender"] == p:
            value += (1 - chance) * loc.points if attacked else s.data.unattacked_cubes
        if leader_of(s, loc.city) == p:
            value -= chance * 2
    return value


def evaluate(s: State, p: int) -> float:
    return breakdown(s, p)["total"] + _politics(s, p) + _military(s, p)


def foreseen(ruleset: Any, s: State, e: Event) -> State:
    """The position after ``e`` as its player can foresee it. A commitment is applied without settling the battles
    the turn's last one starts: a battle fought without dice is decided by the kinds of others' face-down counters,
    which the player cannot see (``ruleset.apply`` settles it)."""
    return apply_commitment(s, e) if isinstance(e, ForcesCommitted) else ruleset.apply(s, e)


def greedy(ruleset: Any, state: State, legal: Sequence[Event], rng: Any) -> Event:
    """Plays the legal decision whose resulting position scores best for the acting player."""
    first = legal[0]
    p = pidx(state, getattr(first, "player", ""))
    if isinstance(first, PermissionGiven):
        return next(e for e in legal if isinstance(e, PermissionGiven) and e.granted)
    if isinstance(first, (BattleTilePlayed, BattleTileKept)):
        return _battle_tile(state, p, legal)
    options = list(legal)
    if state.phase == COMMIT:
        options = [e for e in options if not isinstance(e, SlaveRevoltPlayed) or _revolt_helps(state, p, e)]
    if len(options) > SAMPLE:
        options = rng.sample(options, SAMPLE)
    best: list[Event] = []
    best_value = float("-inf")
    for e in options:
        v = evaluate(foreseen(ruleset, state, e), p)
        if v > best_value + 1e-9:
            best, best_value = [e], v
        elif abs(v - best_value) <= 1e-9:
            best.append(e)
    return best[rng.randrange(len(best))]


def _battle_tile(s: State, p: int, legal: Sequence[Event]) -> Event:
    keep = next(e for e in legal if isinstance(e, BattleTileKept))
    play = next((e for e in legal if isinstance(e, BattleTilePlayed)), None)
    if play is None or s.phase != BATTLE or s.battle is None:  # a tile that cannot serve here is only kept
        return keep
    location = s.locations[s.battle.loc]
    mine = side_of(s, location, p)
    if play.tile in DOUBLED:
        city, _ = DOUBLED[play.tile]
        sides = {cm.side for cm in s.commits if cm.location == location and s.data.counter(cm.counter).city == city}
        return play if mine and sides == {mine} else keep
    return play


def _revolt_helps(s: State, p: int, e: SlaveRevoltPlayed) -> bool:
    if e.place == "sparta":
        return leader_of(s, "sparta") != p
    return side_of(s, e.place, p) not in ("", *{cm.side for cm in s.commits if cm.location == e.place
                                                 and s.data.counter(cm.counter).city == "sparta"})


BOTS = {"greedy": greedy}

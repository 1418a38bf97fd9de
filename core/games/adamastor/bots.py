"""The greedy captain: a bot that plays Adamastor believably (rulebook 5 'Como jogar').

It draws while it has actions to spare, swaps the strip's most threatening card into its hand when that keeps an
event from firing, and sails with its last action along the cheapest path to the furthest column it can reach.
It never imports ``random``: the service's ``rng`` breaks ties.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Any

from agon.core.games.adamastor import flow
from agon.core.games.adamastor.board import step_cost
from agon.core.games.adamastor.rules import sail_subsets
from agon.core.games.adamastor.state import State, icons
from agon.events.adamastor import (
    ActionsEnded,
    BonusCardsShared,
    CardSwapped,
    DrawChosen,
    DrawnCardKept,
    FleetMoved,
    HandTrimmed,
    IconIgnored,
    LandCardKept,
    SailEnded,
    SailStarted,
    SkillDeclined,
    SkillLearned,
)
from agon.events.base import Event

SKILL_ORDER = (
    "extra_action",
    "navigation_plus_one",
    "cheaper_skills",
    "ignore_fatigue",
    "ignore_revolt",
    "ignore_disease",
    "ignore_black_cloud",
    "draw_two_keep_one",
    "land_plus_one",
)


def _paths(s: State, budget: int) -> tuple[dict[str, int], dict[str, str]]:
    best, prev = {s.fleet: 0}, {}
    heap = [(0, s.fleet)]
    while heap:
        c, sid = heapq.heappop(heap)
        if c > best[sid]:
            continue
        sp = s.board[sid]
        if sid != s.fleet and (sp.edge_of >= 0 or sp.destination):
            continue
        for n in sp.links:
            nc = c + step_cost(s.cards, s.board, sid, n, s.extra_cost)
            if nc <= budget and nc < best.get(n, 1 << 30):
                best[n], prev[n] = nc, sid
                heapq.heappush(heap, (nc, n))
    return best, prev


def _value(s: State, sid: str, cost: int) -> tuple[int, int, int, int]:
    sp = s.board[sid]
    fresh_island = sp.island if sp.island and sid not in s.discovered else 0
    return (int(sp.destination), sp.col, fresh_island, -cost)


def _target(s: State, budget: int) -> tuple[str, dict[str, str], tuple[int, int, int, int]]:
    best, prev = _paths(s, budget)
    target = max(best, key=lambda sid: _value(s, sid, best[sid]))
    return target, prev, _value(s, target, best[target])


def _danger(s: State) -> float:
    ic = icons(s)
    d = 0.0
    for k in ("revolt", "disease", "fatigue"):
        n = ic[k]
        d += 10.0 if n >= flow.THRESHOLD else max(0, n - 2) * 1.0
    if all(ic[k] >= flow.TUMULT - 1 for k in ("revolt", "disease", "fatigue")):
        d += 6.0 * sum(ic[k] >= flow.TUMULT for k in ("revolt", "disease", "fatigue"))
    low = s.strip[-1] if s.strip else ""
    if low and s.card(low).trauma:
        d += 1.5
    return d


def _swap_result(s: State, h: str, st: str) -> State:
    from msgspec.structs import replace

    from agon.core.games.adamastor.state import sort_strip

    strip = sort_strip(s, tuple(h if c == st else c for c in s.strip))
    return replace(s, strip=strip)


def _nav(s: State, c: str) -> int:
    return s.card(c).navigation


def _choose_action(s: State, legal: Sequence[Event], rng: Any) -> Event:
    hand = s.hands[s.actor]
    here = s.board[s.fleet].col
    # The best sail: the furthest column for the fewest navigation points spent.
    best_sail, best_key = None, None
    for cards in sail_subsets(hand):
        pts = sum(_nav(s, c) for c in cards) + s.skill_count("navigation_plus_one")
        _, _, val = _target(s, pts)
        key = (val[0], val[1] - here, -sum(_nav(s, c) for c in cards), val[2])
        if best_key is None or key > best_key:
            best_sail, best_key = cards, key
    if best_key is not None and best_key[0]:
        return SailStarted(cards=best_sail)
    # Swap a threatening strip card into the hand when that lowers the danger clearly.
    now = _danger(s)
    swaps = [e for e in legal if isinstance(e, CardSwapped)]
    if swaps and s.cubes >= 2:
        scored = [(now - _danger(_swap_result(s, e.hand_card, e.strip_card)), rng.random(), e) for e in swaps]
        gain, _, swap = max(scored, key=lambda t: (t[0], t[1]))
        if gain >= 2.0:
            return swap
    if s.cubes >= 2 or best_key is None or best_key[1] <= 0:
        if s.morale > 4 and len(hand) < 7:
            return DrawChosen()
    if best_sail is not None and best_key is not None and best_key[1] > 0:
        return SailStarted(cards=best_sail)
    return ActionsEnded()


def greedy(ruleset: Any, s: State, legal: Sequence[Event], rng: Any) -> Event:
    ph = s.phase
    if ph == "actions":
        return _choose_action(s, legal, rng)
    if ph == "sail":
        target, prev, val = _target(s, s.sail_points)
        if target == s.fleet:
            return SailEnded()
        step = target
        while prev[step] != s.fleet:
            step = prev[step]
        return FleetMoved(to=step)
    if ph == "land_keep":

        def worth(e: LandCardKept) -> float:
            card = s.card(e.card)
            per = {"morale": 1.0, "navigation": 1.2, "action": 0.8, "cards": 0.2 if s.morale > 8 else -1.0}
            return per[card.bonus_kind] * e.bonus + 0.3 * card.navigation

        keeps = [e for e in legal if isinstance(e, LandCardKept)]
        return max(keeps, key=lambda e: (worth(e), e.player == s.acting, rng.random()))
    if ph == "draw_keep":
        return max(legal, key=lambda e: _nav(s, e.card) if isinstance(e, DrawnCardKept) else -1)
    if ph == "learn":
        learn = [e for e in legal if isinstance(e, SkillLearned)]
        if learn:
            return min(learn, key=lambda e: SKILL_ORDER.index(s.card(e.card).skill))
        return SkillDeclined()
    if ph == "ignore":
        ic = icons(s)
        return max(legal, key=lambda e: (ic[e.icon] if isinstance(e, IconIgnored) else 0, rng.random()))
    if ph == "trim":

        def kept(e: Event) -> tuple[int, float]:
            assert isinstance(e, HandTrimmed)
            hand = s.hand_of(e.player)
            return (sum(_nav(s, c) for c in hand if c not in e.cards), rng.random())

        return max(legal, key=kept)
    if ph == "bonus_share":
        sizes = [len(h) for h in s.hands]
        poorer = s.players[sizes.index(min(sizes))]
        return next((e for e in legal if isinstance(e, BonusCardsShared) and set(e.players) == {poorer}), legal[0])
    if ph == "place":
        return legal[len(legal) // 2]
    return legal[rng.randrange(len(legal))]

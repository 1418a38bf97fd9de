"""Bots for the Peloponnes Card Game. ``greedy`` weighs each power card by what it adds to the weaker of the two
scores (population or power points, rulebook 'Pontuação'), bids the least that wins it, and pays the cheapest way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.core.games.peloponnes.state import State, inhabitants, population_points, power_points, production
from agon.events.base import Event
from agon.events.peloponnes import (
    BidMoved,
    BidPlaced,
    BidWithdrawn,
    BuildingBuilt,
    CatastropheFaced,
    ConstructionPaid,
    ConstructionStarted,
    Passed,
    PopulationFed,
)


def card_worth(s: State, player: str, card: str) -> float:
    seat = s.seat(player)
    c = s.cat.power[card]
    pop, pw = population_points(s.cat, seat), power_points(s.cat, seat)
    w_pop, w_pw = (1.4, 0.8) if pop < pw else (0.8, 1.4)
    _, _, grain = production(s.cat, seat)
    hungry = inhabitants(s.cat, seat) - grain
    worth = c.people * w_pop + c.power * w_pw + c.grain * (0.9 if hungry > 0 else 0.4)
    worth += (c.wood + c.stone) * (0.5 if s.round < 6 else 0.2) + c.income_coins * 0.4 + c.income_luxury * 0.3
    worth += 1.2 if c.special else 0.0
    worth += 1.0 if c.protects and c.protects not in s.struck else 0.0
    if c.kind == "building":
        w, st, _ = production(s.cat, seat)
        worth -= 0.4 * (max(0, c.cost_wood - w) + max(0, c.cost_stone - st))
    return worth


def _bid_score(s: State, e: Any) -> float:
    if isinstance(e, BidPlaced):
        n = e.coins.total() + e.luxury * 1.5
        return card_worth(s, e.player, e.card) - 0.3 * n - 0.2 * (e.card in s.conquest)
    if isinstance(e, BidMoved):
        return card_worth(s, e.player, e.card)
    return 0.5 if isinstance(e, Passed | BidWithdrawn) else 0.0


def _pay_cost(e: Any) -> float:
    match e:
        case BuildingBuilt():
            return e.wood + e.stone + 1.3 * e.luxury
        case ConstructionStarted():
            return 1.5 if e.coin != "luxury" else 2.0
        case PopulationFed():
            return e.grain + 1.2 * e.people + 1.1 * e.luxury + 6.0 * len(e.removed)
        case ConstructionPaid():
            return e.wood + e.stone + 1.2 * e.luxury - 4.0 * len(e.finished)
        case CatastropheFaced():
            return sum(1.0 if c else 3.0 for c in e.coins)
    return 10.0


def greedy(ruleset: Any, state: State, legal: Sequence[Event], rng: Any) -> Event:
    if state.phase == "auction":
        best = max(_bid_score(state, e) for e in legal)
        top = [e for e in legal if _bid_score(state, e) >= best - 1e-9]
        return top[rng.randrange(len(top))]
    best_cost = min(_pay_cost(e) for e in legal)
    top = [e for e in legal if _pay_cost(e) <= best_cost + 1e-9]
    return top[rng.randrange(len(top))]


BOTS = {"greedy": greedy}

"""Statistics over many games of one ruleset: win rates by side (nation, civilization) and by seat, each with its
95% Wilson interval, average final scores, game length. ``game_summary`` reads one line; ``aggregate`` folds
summaries into rows."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from agon.events.summary import Summary


def game_summary(line: Any) -> dict[str, Any]:
    """One finished or unfinished game in plain data: length, outcome, final scores, each player's side."""
    return from_summary(line.summary)


def from_summary(s: Summary) -> dict[str, Any]:
    """A stored game summary (core/summary.py) as ``aggregate`` reads it."""
    return {
        "game": s.game_id,
        "branch": s.branch,
        "events": s.events,
        "rounds": s.rounds,
        "over": s.over,
        "winners": list(s.winners),
        "scores": {p: float(v) for p, v in s.scores.items()},
        "seats": [name for name, _ in s.seats],
        "side_label": s.side_label,
        "sides": dict(s.sides),
        "setup": s.setup,
    }


def aggregate(summaries: Iterable[dict[str, Any] | Summary]) -> dict[str, Any]:
    """Win rates and averages over summaries (``from_summary``'s dicts, or the stored summaries themselves, read
    as they are: 'agon stats' counts thousands). Only finished games count towards wins and final scores; every
    game counts towards ``games``. ``by_side`` is empty for a ruleset without sides."""
    games = finished = 0
    events_sum = rounds_sum = 0
    lengths: list[int] = []
    fewest = most = None  # rounds of the shortest and the longest game in rounds
    side_label = None
    # tallies as [played, wins, score sum], updated in place (this loop runs over every stored game)
    by_side: dict[str, list] = {}
    by_seat: dict[int, list] = {}
    by_setup: dict[str, list] = {}
    no_winner = 0
    for s in summaries:
        games += 1
        if isinstance(s, Summary):
            if not s.over:
                continue
            events, rounds, winners, scores, sides, label, setup = (
                s.events, s.rounds, s.winners, s.scores, s.sides, s.side_label, s.setup)
            seats = [name for name, _ in s.seats]
        else:
            if not s["over"]:
                continue
            events, rounds, winners, scores, sides, label, setup = (
                s["events"], s["rounds"], s["winners"], s["scores"], s["sides"], s["side_label"], s.get("setup", ""))
            seats = s["seats"]
        finished += 1
        events_sum += events
        rounds_sum += rounds
        fewest, most = (rounds, rounds) if fewest is None else (min(fewest, rounds), max(most, rounds))
        lengths.append(events)
        if not winners:
            no_winner += 1
        side_label = side_label or label
        # per game: a setup is "won" when anyone won (a co-operative or solo game is won or lost together)
        t = by_setup.get(setup)
        if t is None:
            t = by_setup[setup] = [0, 0, 0.0]
        t[0] += 1
        t[1] += bool(winners)
        t[2] += max(scores.values(), default=0.0)
        for seat, player in enumerate(seats, start=1):
            won = player in winners
            score = scores.get(player, 0.0)
            t = by_seat.get(seat)
            if t is None:
                t = by_seat[seat] = [0, 0, 0.0]
            t[0] += 1
            t[1] += won
            t[2] += score
            side = sides.get(player)
            if side is not None:
                t = by_side.get(side)
                if t is None:
                    t = by_side[side] = [0, 0, 0.0]
                t[0] += 1
                t[1] += won
                t[2] += score
    return {
        "games": games,
        "finished": finished,
        "no_winner": no_winner,
        "avg_events": events_sum / finished if finished else None,
        "avg_rounds": rounds_sum / finished if finished else None,
        "fewest_rounds": fewest,
        "most_rounds": most,
        "shortest": min(lengths) if lengths else None,
        "lengths": lengths,
        "longest": max(lengths) if lengths else None,
        "side_label": side_label,
        "by_side": [{"side": k, **_rates(_tallied(v))} for k, v in sorted(by_side.items())],
        "by_seat": [{"seat": k, **_rates(_tallied(v))} for k, v in sorted(by_seat.items())],
        "by_setup": [{"setup": k, **_rates(_tallied(v))} for k, v in sorted(by_setup.items())],
    }


def _tallied(t: list) -> dict[str, float]:
    return {"played": t[0], "wins": t[1], "score_sum": t[2]}


def wilson(wins: int, played: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default): sound for few games and for rates near 0 or 1,
    where the normal approximation's p ± z·sqrt(p(1−p)/n) runs past 0 and 1 or shrinks to nothing."""
    if played <= 0:
        return 0.0, 1.0
    p = wins / played
    z2 = z * z
    centre = (p + z2 / (2 * played)) / (1 + z2 / played)
    half = z * math.sqrt(p * (1 - p) / played + z2 / (4 * played * played)) / (1 + z2 / played)
    low = 0.0 if wins == 0 else max(0.0, centre - half)  # exactly 0 and 1 at the ends (no rounding crumbs)
    high = 1.0 if wins == played else min(1.0, centre + half)
    return low, high


def _rates(t: dict[str, float]) -> dict[str, Any]:
    played = int(t["played"])
    low, high = wilson(int(t["wins"]), played)
    return {"played": played, "wins": int(t["wins"]), "win_rate": t["wins"] / played if played else 0.0,
            "ci_low": low, "ci_high": high, "avg_score": t["score_sum"] / played if played else 0.0}

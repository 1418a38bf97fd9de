"""Statistics over many games of one ruleset: win rates by side (nation, civilization) and by seat, each with its
95% Wilson interval, average final scores, game length. ``game_summary`` reads one line; ``aggregate`` folds
summaries into rows."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
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


def aggregate(summaries: Iterable[dict[str, Any] | Summary], together: bool = False) -> dict[str, Any]:
    """Win rates and averages over summaries (``from_summary``'s dicts, or the stored summaries themselves, read
    as they are: 'agon stats' counts thousands). Only finished games count towards wins and final scores; every
    game counts towards ``games``. ``by_side`` is empty for a ruleset without sides.

    ``by_setup`` gives each setup's games, lengths and scores. Its win rate (``wins``, ``win_rate``, ``ci_low``,
    ``ci_high``) only for a co-operative ruleset (``together``: the players win or lose together, as an Adamastor
    crew does, ``analysis.figures.shared_score``), where it is how often the setup is won; in a competitive game
    someone wins nearly every game, whatever the setup, so a rate of games won would be 100% and say nothing.
    ``avg_score`` is then the crew's one score; for a competitive ruleset ``avg_best_score`` is the winning score
    and ``avg_score`` every player's.

    Where the players win or lose together, a seat's result is the crew's, the same for every seat: ``by_seat`` is
    then empty and ``crew`` gives the crew's one result over every finished game (None for a competitive ruleset)."""
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
    crew = [0, 0, 0.0]  # the crew's [played, won, score sum], where the players win or lose together
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
        # per game: [played, won (together), best score sum, events sum, rounds sum, shortest, longest, every
        # player's score sum, scores counted]
        t = by_setup.get(setup)
        if t is None:
            t = by_setup[setup] = [0, 0, 0.0, 0, 0, events, events, 0.0, 0]
        t[0] += 1
        t[1] += bool(winners)
        t[2] += max(scores.values(), default=0.0)
        t[3] += events
        t[4] += rounds
        t[5], t[6] = min(t[5], events), max(t[6], events)
        t[7] += sum(scores.values())
        t[8] += len(scores)
        if together:
            crew[0] += 1
            crew[1] += bool(winners)
            crew[2] += max(scores.values(), default=0.0)
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
        # a crew's seats win or lose together: its result is told once, as the crew's
        "by_seat": [] if together else [{"seat": k, **_rates(_tallied(v))} for k, v in sorted(by_seat.items())],
        "together": together,
        "crew": _rates(_tallied(crew)) if together else None,
        "by_setup": [_setup_row(k, v, together) for k, v in sorted(by_setup.items())],
    }


ALL_SETUPS = "all setups"
"""The row of a crew's result over every setup, under its setups' rows (``setup_rows``)."""


def setup_rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    """``aggregate``'s rows by setup as ``agon stats`` and ``agon plot stats`` show them: where the players win or
    lose together and there are several setups, the crew's result over all of them last (``ALL_SETUPS``); with one
    setup, its row is the crew's result."""
    rows = list(result["by_setup"])
    if result.get("together") and result.get("crew") and len(rows) > 1:
        rows.append({"setup": ALL_SETUPS, **result["crew"]})
    return rows


def shared(ruleset: str, scores: Mapping[str, float]) -> float | None:
    """The one score the players of a game share where they win or lose together (an Adamastor crew's progress:
    the ruleset's figure module names it, ``analysis.figures.shared_score``), or None where each player has a score
    of their own."""
    values = set(scores.values())
    if len(values) != 1:  # checked first: a competitive game's listing need not load its ruleset's figure module
        return None
    from agon.analysis.figures import shared_score

    return next(iter(values)) if shared_score(ruleset) else None


def scores_shown(ruleset: str, scores: Mapping[str, float]) -> dict[str, float]:
    """``scores`` as a listing shows them (``agon games``, ``agon branches``): a crew's one score once, as the
    crew's (``{"the crew": 66.7}``), not once for each player; a solo player's score, and each player's own, as
    they are."""
    if len(scores) > 1 and (value := shared(ruleset, scores)) is not None:
        from agon.analysis.figures import shared_score

        return {f"the {shared_score(ruleset)}": value}
    return dict(scores)


def _setup_row(setup: str, t: list, together: bool) -> dict[str, Any]:
    played = t[0]
    length = {"avg_events": t[3] / played, "avg_rounds": t[4] / played, "shortest": t[5], "longest": t[6]}
    if together:  # won or lost by all: how often the setup is won is its point
        return {"setup": setup, **_rates(_tallied(t[:3])), **length}
    return {"setup": setup, "played": played, **length, "avg_best_score": t[2] / played,
            "avg_score": t[7] / t[8] if t[8] else 0.0}


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

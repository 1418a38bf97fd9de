"""Statistics over many games of one ruleset: win rates by side (nation, civilization) and by seat, each with its
95% Wilson interval, average final scores, game length. ``game_summary`` reads one line; ``aggregate`` folds
summaries into rows."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import reduce
from itertools import repeat
from operator import add, itemgetter
from typing import Any

from agon.core.summary import scores_shown, shared  # noqa: F401  (the listing's words, read here by the faces)
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
    # Read column by column (each a list in game order), every count and sum made by the builtins: 'agon stats' counts
    # thousands of games, and a loop updating tallies game by game and seat by seat cost as much as reading the rows.
    # Sums of scores add in game order from 0.0 (``_added``), as a running total would, so no figure moves in its
    # last digit.
    items = [s if isinstance(s, Summary) else _as_summary(s) for s in summaries]
    done = [s for s in items if s.over]  # only finished games count towards wins and scores
    finished = len(done)
    lengths = [s.events for s in done]
    rounds = [s.rounds for s in done]
    winners = [s.winners for s in done]
    scores = [s.scores for s in done]
    best = [max(v.values()) if v else 0.0 for v in scores]  # the winning score, or the crew's one score
    won = sum(map(bool, winners))
    side_label = None
    for s in done:
        side_label = side_label or s.side_label
    by_setup = {setup: _setup_tally(chosen, lengths, rounds, winners, scores, best)
                for setup, chosen in _by_setup([s.setup for s in done]).items()}
    players = [list(map(_NAME, s.seats)) for s in done]
    return {
        "games": len(items),
        "finished": finished,
        "no_winner": finished - won,
        "avg_events": sum(lengths) / finished if finished else None,
        "avg_rounds": sum(rounds) / finished if finished else None,
        "fewest_rounds": min(rounds) if rounds else None,
        "most_rounds": max(rounds) if rounds else None,
        "shortest": min(lengths) if lengths else None,
        "lengths": lengths,
        "longest": max(lengths) if lengths else None,
        "side_label": side_label,
        "by_side": [{"side": k, **_rates(_tallied(v))}
                    for k, v in sorted(_by_side(done, players, winners, scores).items())],
        # a crew's seats win or lose together: its result is told once, as the crew's
        "by_seat": [] if together else [{"seat": k, **_rates(_tallied(v))}
                                        for k, v in sorted(_by_seat(players, winners, scores).items())],
        "together": together,
        "crew": _rates(_tallied([finished, won, _added(best)])) if together else None,
        "by_setup": [_setup_row(k, v, together) for k, v in sorted(by_setup.items())],
    }


_NAME = itemgetter(0)
_ZERO = repeat(0.0)
"""A score of 0 for every seat a game's scores do not name (``map`` stops with the seats)."""


def _added(values: Iterable[float]) -> float:
    """The sum of ``values`` added one by one in their order from 0.0, as a running total adds them (``sum`` of
    floats rounds otherwise from Python 3.12)."""
    return reduce(add, values, 0.0)


def _as_summary(s: dict[str, Any]) -> Summary:
    """``from_summary``'s dict as the stored summary ``aggregate`` reads."""
    return Summary(s.get("game", ""), s.get("branch", ""), "", "", s["events"], s["rounds"], s["over"], "",
                   tuple(s["winners"]), s["scores"], tuple((p, "") for p in s["seats"]), s["side_label"], s["sides"],
                   {}, s.get("setup", ""))


def _by_setup(setups: list[str]) -> dict[str, list[int] | None]:
    """Each setup's games, by their places in ``setups`` (None: every game, the one setup)."""
    if len(set(setups)) <= 1:
        return {setups[0]: None} if setups else {}
    chosen: dict[str, list[int]] = {}
    for i, setup in enumerate(setups):
        at = chosen.get(setup)
        if at is None:
            chosen[setup] = [i]
        else:
            at.append(i)
    return chosen


def _setup_tally(chosen: list[int] | None, lengths: list[int], rounds: list[int], winners: list[Any],
                 scores: list[Mapping[str, float]], best: list[float]) -> list:
    """One setup's [played, won (together), best score sum, events sum, rounds sum, shortest, longest, every
    player's score sum, scores counted] over its games (``chosen``: their places; None: all)."""
    if chosen is not None:
        lengths, rounds, winners, scores, best = ([col[i] for i in chosen]
                                                  for col in (lengths, rounds, winners, scores, best))
    return [len(lengths), sum(map(bool, winners)), _added(best), sum(lengths), sum(rounds), min(lengths),
            max(lengths), _added([sum(v.values()) for v in scores]), sum(map(len, scores))]


def _by_seat(players: list[list[str]], winners: list[Any], scores: list[Mapping[str, float]]) -> dict[int, list]:
    """Each seat's [played, wins, score sum] (seat 1 first to act)."""
    seats = max(map(len, players), default=0)
    wins = [0] * seats
    for names, won in zip(players, winners):
        if len(won) == 1:  # the one winner's seat (a game's seats have different names: core/service.py)
            if won[0] in names:
                wins[names.index(won[0])] += 1
        elif won:
            for i, name in enumerate(names):
                if name in won:
                    wins[i] += 1
    cells = [list(map(v.get, names, _ZERO)) for v, names in zip(scores, players)]
    if min(map(len, cells), default=seats) < seats:
        for row in cells:  # a game of fewer seats adds 0.0 to the others' sums, which changes none of them
            row.extend(repeat(0.0, seats - len(row)))
    sizes = Counter(map(len, players))
    return {i + 1: [sum(n for size, n in sizes.items() if size > i), wins[i], _added(column)]
            for i, column in enumerate(zip(*cells))}


def _by_side(done: list[Summary], players: list[list[str]], winners: list[Any],
             scores: list[Mapping[str, float]]) -> dict[str, list]:
    """Each side's [played, wins, score sum] (a ruleset without sides has none)."""
    by_side: dict[str, list] = {}
    for s, names, won, score in zip(done, players, winners, scores):
        sides = s.sides
        if not sides:
            continue
        for name in names:
            side = sides.get(name)
            if side is not None:
                t = by_side.get(side)
                if t is None:
                    t = by_side[side] = [0, 0, 0.0]
                t[0] += 1
                t[1] += name in won
                t[2] += score.get(name, 0.0)
    return by_side


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

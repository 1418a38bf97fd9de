"""Statistics over many games of one ruleset: win rates by side (nation, civilization) and by seat, each with its
95% Wilson interval, average final scores, game length. ``game_summary`` reads one line; ``aggregate`` folds
summaries into rows."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import partial, reduce
from itertools import chain, compress, repeat
from operator import add, contains, eq, itemgetter
from typing import Any

from agon.core.summary import scores_shown, shared  # noqa: F401  (the listing's words, read here by the faces)
from agon.events.summary import Facts, Summary


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
    as they are). Only finished games count towards wins and final scores; every game counts towards ``games``.
    ``by_side`` is empty for a ruleset without sides.

    ``by_setup`` gives each setup's games, lengths and scores. Its win rate (``wins``, ``win_rate``, ``ci_low``,
    ``ci_high``) only for a co-operative ruleset (``together``: the players win or lose together, as an Adamastor
    crew does, ``analysis.figures.shared_score``), where it is how often the setup is won; in a competitive game
    someone wins nearly every game, whatever the setup, so a rate of games won would be 100% and say nothing.
    ``avg_score`` is then the crew's one score; for a competitive ruleset ``avg_best_score`` is the winning score
    and ``avg_score`` every player's.

    Where the players win or lose together, a seat's result is the crew's, the same for every seat: ``by_seat`` is
    then empty and ``crew`` gives the crew's one result over every finished game (None for a competitive ruleset).

    'agon stats' counts the stored rows' facts without a summary per game (``aggregate_facts``): the same figures."""
    items = [s if isinstance(s, Summary) else _as_summary(s) for s in summaries]
    done = [s for s in items if s.over]  # only finished games count towards wins and scores
    return _figures(len(items), [s.events for s in done], [s.rounds for s in done], [s.winners for s in done],
                    [_dict(s.scores) for s in done], [tuple(map(_NAME, s.seats)) for s in done],
                    [s.side_label for s in done], [_dict(s.sides) for s in done], [s.setup for s in done], together)


def aggregate_facts(facts: Facts, together: bool = False) -> dict[str, Any]:
    """``aggregate`` over the stored rows' facts (events/summary.py ``main_facts``, what 'agon stats' counts): the
    games that read count, each finished one towards the results."""
    return _figures(facts.games, facts.events, facts.rounds, facts.winners, facts.scores, facts.players,
                    facts.side_labels, facts.sides, facts.setups, together)


def _figures(games: int, lengths: list[int], rounds: list[int], winners: list[tuple[str, ...]],
             scores: list[dict[str, float]], players: list[tuple[str, ...]], side_labels: list[str | None],
             sides: list[dict[str, str]], setups: list[str], together: bool) -> dict[str, Any]:
    """``aggregate``'s result from ``games`` (how many) and the finished games' columns, each a list in game order."""
    # Every count and sum is made by the builtins over whole columns, and a seat's figures over a flat list of
    # every game's seats: 'agon stats' counts thousands of games, and a loop updating tallies game by game and seat
    # by seat cost as much as reading the rows. Sums of scores add in game order from 0.0 (``_added``), as a running
    # total would, so no figure moves in its last digit.
    finished = len(lengths)
    best = list(map(_BEST, map(dict.values, scores)))  # the winning score, or the crew's one score
    won = sum(map(bool, winners))
    side_label = None
    for label in side_labels:
        side_label = side_label or label
    games_seats = _Seats(winners, scores, players, sides)
    columns = (lengths, rounds, winners, best, scores)
    by_setup = {setup: _setup_tally(columns, chosen) for setup, chosen in _by_setup(setups).items()}
    return {
        "games": games,
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
        "by_side": [{"side": k, **_rates(_tallied(v))} for k, v in sorted(games_seats.by_side().items())],
        # a crew's seats win or lose together: its result is told once, as the crew's
        "by_seat": [] if together else [{"seat": k, **_rates(_tallied(v))}
                                        for k, v in sorted(games_seats.by_seat().items())],
        "together": together,
        "crew": _rates(_tallied([finished, won, _added(best)])) if together else None,
        "by_setup": [_setup_row(k, v, together) for k, v in sorted(by_setup.items())],
    }


_NAME = itemgetter(0)
_BEST = partial(max, default=0.0)
_NO_SEAT = (None,)
"""A seat a game does not have, where others have more (``_Seats``): no winner and no score names it."""


def _dict(m: Mapping[str, Any]) -> dict[str, Any]:
    """``m`` as a dict (a summary's scores and sides are, as decoded), for ``dict.get`` over whole columns."""
    return m if type(m) is dict else dict(m)


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


def _setup_tally(columns: tuple[list, ...], chosen: list[int] | None) -> list:
    """One setup's [played, won (together), best score sum, events sum, rounds sum, shortest, longest, every
    player's score sum, scores counted] over its games (``columns``: the lengths, rounds, winners, best scores and
    scores of every game; ``chosen``: the setup's places among them; None: all)."""
    if chosen is not None:
        pick = itemgetter(*chosen) if len(chosen) > 1 else lambda col: (col[chosen[0]],)
        columns = tuple(map(pick, columns))
    lengths, rounds, winners, best, scores = columns
    return [len(lengths), sum(map(bool, winners)), _added(best), sum(lengths), sum(rounds), min(lengths),
            max(lengths), _added(map(sum, map(dict.values, scores))), sum(map(len, scores))]


class _Seats:
    """Every finished game's seats in one flat list, game by game with as many seats each as the game with most
    (``_NO_SEAT`` for those a game lacks): each seat's player, whether they won and their score (0.0 where the
    scores do not name them, as for a seat a game lacks, which changes no sum), counted by seat and by side over
    whole columns."""

    def __init__(self, winners: list[tuple[str, ...]], scores: list[dict[str, float]],
                 players: list[tuple[str, ...]], sides: list[dict[str, str]]) -> None:
        sizes = list(map(len, players))
        width = max(sizes, default=0)
        if min(sizes, default=width) < width:  # games of fewer seats: each filled up to ``width``
            pads = [_NO_SEAT * (width - n) for n in range(width + 1)]
            players = list(map(add, players, map(pads.__getitem__, sizes)))
        self.width, self.sizes, self.sides = width, sizes, sides
        self.names = list(chain.from_iterable(players))
        self.won = list(map(contains, chain.from_iterable(map(repeat, winners, repeat(width))), self.names))
        self.scores = list(map(dict.get, chain.from_iterable(map(repeat, scores, repeat(width))), self.names,
                               repeat(0.0)))

    def by_seat(self) -> dict[int, list]:
        """Each seat's [played, wins, score sum] (seat 1 first to act)."""
        sizes = Counter(self.sizes)
        w = self.width
        return {i + 1: [sum(n for size, n in sizes.items() if size > i), sum(self.won[i::w]),
                        _added(self.scores[i::w])] for i in range(w)}

    def by_side(self) -> dict[str, list]:
        """Each side's [played, wins, score sum] (a ruleset without sides has none)."""
        if not any(self.sides):
            return {}
        sides = list(map(dict.get, chain.from_iterable(map(repeat, self.sides, repeat(self.width))), self.names))
        out = {}
        for side in set(sides) - {None}:
            mine = list(map(eq, sides, repeat(side)))
            out[side] = [sum(mine), sum(compress(self.won, mine)), _added(compress(self.scores, mine))]
        return out


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

"""Statistics over many games of one ruleset: win rates by side (nation, civilization) and by seat, average
final scores, average game length. ``game_summary`` reads one line; ``aggregate`` folds summaries into rows."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agon.analysis.games import sides_of
from agon.core.engine import Over


def game_summary(line: Any) -> dict[str, Any]:
    """One finished or unfinished game in plain data: length, outcome, final scores, each player's side."""
    rs = line.ruleset
    state = line.state
    pending = rs.pending(state)
    over = isinstance(pending, Over)
    found = sides_of(rs.name, line)
    return {
        "game": line.game.id,
        "branch": line.branch.name,
        "events": len(line.events),
        "rounds": rs.round(state),
        "over": over,
        "winners": list(pending.outcome.winners) if over else [],
        "scores": {p: float(v) for p, v in rs.scores(state).items()},
        "seats": list(line.created.names),
        "side_label": found[0] if found else None,
        "sides": found[1] if found else {},
        "setup": setup_label(line.created.options, len(line.created.players)),
    }


def setup_label(options: dict[str, Any], seats: int) -> str:
    """A game's setup in words: its options and seat count ("difficulty=hard, 1 player")."""
    parts = [f"{k}={v}" for k, v in sorted(options.items())]
    parts.append(f"{seats} player{'s' if seats != 1 else ''}")
    return ", ".join(parts)


def aggregate(summaries: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Win rates and averages over summaries. Only finished games count towards wins and final scores; every game
    counts towards ``games``. ``by_side`` is empty for a ruleset without sides."""
    games = finished = 0
    events_sum = rounds_sum = 0
    lengths: list[int] = []
    side_label = None
    by_side: dict[str, dict[str, float]] = {}
    by_seat: dict[int, dict[str, float]] = {}
    by_setup: dict[str, dict[str, float]] = {}
    no_winner = 0
    for s in summaries:
        games += 1
        if not s["over"]:
            continue
        finished += 1
        events_sum += s["events"]
        rounds_sum += s["rounds"]
        lengths.append(s["events"])
        if not s["winners"]:
            no_winner += 1
        side_label = side_label or s["side_label"]
        # per game: a setup is "won" when anyone won (a co-operative or solo game is won or lost together)
        top = max(s["scores"].values(), default=0.0)
        _tally(by_setup.setdefault(s.get("setup", ""), _empty()), bool(s["winners"]), top)
        for seat, player in enumerate(s["seats"], start=1):
            won = player in s["winners"]
            score = s["scores"].get(player, 0.0)
            _tally(by_seat.setdefault(seat, _empty()), won, score)
            side = s["sides"].get(player)
            if side is not None:
                _tally(by_side.setdefault(side, _empty()), won, score)
    return {
        "games": games,
        "finished": finished,
        "no_winner": no_winner,
        "avg_events": events_sum / finished if finished else None,
        "avg_rounds": rounds_sum / finished if finished else None,
        "shortest": min(lengths) if lengths else None,
        "longest": max(lengths) if lengths else None,
        "side_label": side_label,
        "by_side": [{"side": k, **_rates(v)} for k, v in sorted(by_side.items())],
        "by_seat": [{"seat": k, **_rates(v)} for k, v in sorted(by_seat.items())],
        "by_setup": [{"setup": k, **_rates(v)} for k, v in sorted(by_setup.items())],
    }


def _empty() -> dict[str, float]:
    return {"played": 0, "wins": 0, "score_sum": 0.0}


def _tally(t: dict[str, float], won: bool, score: float) -> None:
    t["played"] += 1
    t["wins"] += won
    t["score_sum"] += score


def _rates(t: dict[str, float]) -> dict[str, Any]:
    played = int(t["played"])
    return {"played": played, "wins": int(t["wins"]), "win_rate": t["wins"] / played if played else 0.0,
            "avg_score": t["score_sum"] / played if played else 0.0}

"""Scoring and the winner (rulebook, "Pontuação": the lower of population and power points; ties by the other
total, then by luxury goods; and its example of Dimitrios and Helena).
"""

from __future__ import annotations

from agon.core.engine import Outcome
from agon.core.games.peloponnes.state import State, final_score, population_points, power_points


def scores(s: State) -> dict[str, float]:
    """The score each player would have if the game were scored now."""
    if not s.seats or s.seats[0].civ is None and s.phase == "setup":
        return {p: 0.0 for p in s.players}
    return {seat.name: float(final_score(s.cat, seat)) for seat in s.seats}


def ranking_key(s: State, player: str) -> tuple[int, int, int]:
    """Final score, then the other (higher) total, then luxury goods."""
    seat = s.seat(player)
    pop, pw = population_points(s.cat, seat), power_points(s.cat, seat)
    return min(pop, pw), max(pop, pw), seat.luxury


def outcome(s: State) -> Outcome:
    keys = {p: ranking_key(s, p) for p in s.players}
    best = max(keys.values())
    winners = tuple(p for p in s.players if keys[p] == best)
    parts = []
    for p in sorted(s.players, key=lambda p: keys[p], reverse=True):
        seat = s.seat(p)
        parts.append(
            f"{p} {keys[p][0]} (population {population_points(s.cat, seat)}, power {power_points(s.cat, seat)})"
        )
    verb = "wins" if len(winners) == 1 else "win (tied)"
    summary = f"{' and '.join(winners)} {verb} with {best[0]}: " + "; ".join(parts)
    return Outcome(winners, scores(s), summary)

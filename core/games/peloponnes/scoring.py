"""Scoring and the winner (rulebook, "Pontuação": the lower of population and power points; ties by the other
total, then by luxury goods; and its example of Dimitrios and Helena).
"""

from __future__ import annotations

from agon.core.engine import Outcome
from agon.core.games.peloponnes.state import (
    Seat,
    State,
    final_score,
    inhabitants,
    luxury_card_values,
    population_points,
    power_points,
    tableau_power,
)


def scores(s: State) -> dict[str, float]:
    """The score each player would have if the game were scored now, as every player can work it out.

    The coin cards in a hand are private until the final scoring, where the inhabitants on them join the
    population (rulebook, "Pontuação": "aqueles nas cartas de moeda em sua mão (adicione-os a sua mesa agora)").
    So while the game runs a score counts a hand only as what everyone sees of it, its number of cards: each as
    a spare coin (1 power point per 6, with the luxury goods) and none as inhabitants. Once the game is over it is
    the exact score. (A player's own exact points are in their view of their seat.)"""
    if not s.seats or s.seats[0].civ is None and s.phase == "setup":
        return {p: 0.0 for p in s.players}
    if s.phase == "over":
        return exact_scores(s)
    return {seat.name: float(min(seen_population(s, seat), seen_power(s, seat))) for seat in s.seats}


def exact_scores(s: State) -> dict[str, float]:
    """The final scoring's numbers now, hands included (the outcome's; known to the table only at the end)."""
    return {seat.name: float(final_score(s.cat, seat)) for seat in s.seats}


def seen_population(s: State, seat: Seat) -> int:
    """Population points without the inhabitants on the coin cards in hand (which nobody else may see)."""
    return inhabitants(s.cat, seat) + luxury_card_values(s.cat, seat)[0]


def seen_power(s: State, seat: Seat) -> int:
    """Power points counting every coin card in hand as a spare coin."""
    return tableau_power(s.cat, seat) + luxury_card_values(s.cat, seat)[1] + (seat.hand.total() + seat.luxury) // 6


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
    # every player's final score is named, as the lower of its two totals (``final_score``, ``exact_scores``)
    return Outcome(winners, exact_scores(s), summary, totals_told=True)

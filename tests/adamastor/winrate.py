"""Greedy-bot win rate per setup: ``.venv/bin/python -m tests.adamastor.winrate [games] [players]``.

Used to choose the provisional card data so that seeded bot games are won and lost in believable proportions.
"""

from __future__ import annotations

import sys

from agon.core.autoplay import play_out
from agon.core.games.adamastor import RULESET
from agon.events.base import GameCreated, PlayerSeat

SETUPS = (
    {"difficulty": "easy"},
    {"difficulty": "regular"},
    {"difficulty": "hard"},
    {"scenario": "historical"},
    {"difficulty": "regular", "less_luck": "true"},
)


def win_rate(options: dict, games: int = 50, players: int = 1, bot: str = "greedy") -> tuple[int, dict[str, int]]:
    wins, results = 0, {}
    for seed in range(games):
        seats = tuple(PlayerSeat(f"P{i + 1}", bot) for i in range(players))
        created = GameCreated(
            ruleset="adamastor",
            ruleset_version=RULESET.version,
            players=seats,
            seed=seed,
            options=options,
            cards=RULESET.default_cards(),
        )
        _, _, final = play_out(RULESET, created, validate=False)
        wins += final.result == "won"
        results[final.result] = results.get(final.result, 0) + 1
    return wins, results


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    for options in SETUPS:
        wins, results = win_rate(options, games, players)
        label = ", ".join(f"{k}={v}" for k, v in options.items())
        detail = ", ".join(f"{k} {v}" for k, v in sorted(results.items()))
        print(f"{label:40} {wins:3}/{games} won ({100 * wins / games:.0f}%)  [{detail}]")


if __name__ == "__main__":
    main()

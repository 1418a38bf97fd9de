"""Scoring: 1 point per cube in a city, each location tile's points, each statue at the highest value its city's
defeat markers leave uncovered; ties broken by location points, then by statues.

Follows ../shared/rules/perikles-game-help.pt.txt, last two paragraphs ('pontuação final', 'Em caso de
empate'), and perikles-data-facts.md "Statue points".
"""

from __future__ import annotations

from agon.core.engine import Outcome
from agon.core.games.perikles.state import State, location_points
from agon.core.words import counted

SCORES_TOLD = 5
"""From ruleset version 5 the outcome tells how each player's points were made, as the final scoring counts them
(game help, 'pontuação final': "1 ponto para cada cubo de influência presente numa cidade", "Cada carta de local
rende a quantidade de PV mostrada nela", "Cada estátua vai valer em pontos o maior número não coberto por ficha de
derrota"): the end screen read only "Scores: Ana 70, Bruno 46, Chloe 44". A game recorded before keeps the status it
ended with ("Chloe wins with 63 points"), which its recorded outcome holds (tests/test_old_versions.py, replays/)."""


def breakdown(s: State, p: int) -> dict[str, int]:
    cubes = sum(row[p] for row in s.cubes) if s.cubes else 0
    tiles = location_points(s, s.won[p]) if s.won else 0
    statues = 0
    count = 0
    if s.statues:
        for c, city in enumerate(s.data.cities):
            n = s.statues[p][c]
            count += n
            statues += n * s.data.statue_value(city, s.defeats[c])
    return {"cubes": cubes, "locations": tiles, "statues": statues, "statue_count": count,
            "total": cubes + tiles + statues}


def scores(s: State) -> dict[str, float]:
    return {name: float(breakdown(s, p)["total"]) for p, name in enumerate(s.players)}


def ranking_key(s: State, p: int) -> tuple[int, int, int]:
    b = breakdown(s, p)
    return b["total"], b["locations"], b["statue_count"]


def outcome(s: State) -> Outcome:
    keys = {p: ranking_key(s, p) for p in range(len(s.players))}
    best = max(keys.values())
    winners = tuple(s.players[p] for p, k in keys.items() if k == best)
    how = f"{best[0]} points"
    tied = [p for p, k in keys.items() if k[0] == best[0]]
    if len(tied) > 1 and len(winners) < len(tied):
        how += " (tie broken by location tiles, then statues)"
    verb = "wins" if len(winners) == 1 else "share the win"
    summary = f"{' and '.join(winners)} {verb} with {how}"
    if s.version < SCORES_TOLD:
        return Outcome(winners, scores(s), summary)
    ranked = sorted(range(len(s.players)), key=lambda p: keys[p], reverse=True)
    summary += ": " + "; ".join(f"{s.players[p]} {told(s, p)}" for p in ranked)
    return Outcome(winners, scores(s), summary, totals_told=True)


def told(s: State, p: int) -> str:
    """A player's points as the final scoring counts them: ``70 (12 cubes, 30 for 6 location tiles, 28 for 4
    statues)``."""
    b = breakdown(s, p)
    tiles = len(s.won[p]) if s.won else 0
    return (f"{b['total']} ({counted(b['cubes'], 'cube')}, {b['locations']} for {counted(tiles, 'location tile')},"
            f" {b['statues']} for {counted(b['statue_count'], 'statue')})")

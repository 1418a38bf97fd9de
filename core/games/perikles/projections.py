"""Perikles projections for analysis: every battle (rolls, hits, token positions, losses), every location's
outcome, and every election.

Follows the battle rules of ../shared/rules/perikles-game-help.pt.txt (see battle.py); rows are plain dicts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.core.engine import Step
from agon.core.games.perikles.data import KIND_NAMES
from agon.core.games.perikles.state import NOBODY, State


def _state(step: Step) -> State | None:
    return step.after if isinstance(step.after, State) else None


def battles(line: Sequence[Step]) -> list[dict[str, Any]]:
    """One row per battle fought (or won without dice), in order, with the step that ended it."""
    rows: list[dict[str, Any]] = []
    seen = 0
    for step in line:
        s = _state(step)
        if s is None or len(s.fought) <= seen:
            continue
        for f in s.fought[seen:]:
            s_data = s.data
            need_a = need_d = None
            # a battle won without dice consults no column of the combat results table (the state notes one when
            # the defender had strength: how it would have been fought), so its row names none
            column = f.column if f.dice else ""
            if column:
                k = s_data.columns.index(f.column)
                need_a, need_d = s_data.attacker_needs[k], s_data.defender_needs[k]
            rolls = [
                {"attacker": [d[0], d[1]], "defender": [d[2], d[3]],
                 "attacker_hit": need_a is not None and d[0] + d[1] >= need_a,
                 "defender_hit": need_d is not None and d[2] + d[3] >= need_d,
                 "token": t}
                for d, t in zip(f.dice, f.tokens, strict=True)
            ]
            rows.append({
                "index": step.index, "turn": f.turn, "location": f.location, "battle": f.index + 1,
                "kind": KIND_NAMES[f.kind], "attack": f.attack, "defence": f.defence, "column": column,
                "attacker_needs": need_a, "defender_needs": need_d, "token_start": f.start,
                "rolls": rolls, "roll_count": len(rolls),
                "attacker_hits": sum(r["attacker_hit"] for r in rolls),
                "defender_hits": sum(r["defender_hit"] for r in rolls),
                "token_path": [f.start, *f.tokens], "winner": f.winner, "lost": f.lost or None,
                "automatic": f.automatic, "tiles_played": list(f.played),
            })
        seen = len(s.fought)
    return rows


def locations(line: Sequence[Step]) -> list[dict[str, Any]]:
    """One row per location decided: the side that held it, the player who took its tile, defeat, cubes."""
    rows: list[dict[str, Any]] = []
    seen = 0
    for step in line:
        s = _state(step)
        if s is None or len(s.held) <= seen:
            continue
        for h in s.held[seen:]:
            rows.append({"index": step.index, "turn": h.turn, "location": h.location, "winner": h.winner,
                         "player": s.players[h.player] if h.player != NOBODY else None,
                         "points": s.data.location(h.location).points if not h.cubes else 0,
                         "defeat": h.defeat, "cubes": h.cubes})
        seen = len(s.held)
    return rows


def elections(line: Sequence[Step]) -> list[dict[str, Any]]:
    """One row per city and turn: the leader elected (None when nobody stood)."""
    rows: list[dict[str, Any]] = []
    for step in line:
        before, after = step.before, _state(step)
        if after is None or not isinstance(before, State) or before.phase == after.phase or not after.elections:
            continue
        if after.elections == before.elections:
            continue
        for c, city in enumerate(after.data.cities):
            leader = after.leaders[c]
            rows.append({"index": step.index, "turn": after.turn, "city": city,
                         "leader": after.players[leader] if leader != NOBODY else None,
                         "report": after.elections[c]})
    return rows


PROJECTIONS = {"battles": battles, "locations": locations, "elections": elections}

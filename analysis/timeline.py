"""The score timeline of a line: every player's score after every event, with rounds and turning points.

Rows are plain dicts (JSON-able), one per event of the line:
``{"n", "round", "actor", "type", "text", "scores": {player: score}}``. ``n`` is the event number as ``agon log``
numbers it; ``text`` is the ruleset's sentence for the event; ``scores`` is ``ruleset.scores`` after it (the
ruleset's own current score: Peloponnes' lower of population and power, Pergamemnon's points held...).

``round`` is ``ruleset.round`` after the event, under that key for every ruleset; what it counts is named by
``core.summary.round_word`` ("turn" for Perikles and Pergamemnon), which every figure and page showing it uses.
``in_round`` is the round the event belongs to (``ruleset.round`` before it; 0 is the setup): the income that ends
round 1 is round 1's, though round 2 follows it, and the last card dealt in the setup is the setup's (``round_of``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from agon.core.engine import Over, Ruleset, Step


def event_type(event: Any) -> str:
    """The event's stable tag (``toy.die_rolled``)."""
    return str(type(event).__struct_config__.tag)


NOT_PLAYERS = ("chance", "setup", "")
"""Actors that are not a player's decision."""


def score_timeline(ruleset: Ruleset, steps: Iterable[Step]) -> list[dict[str, Any]]:
    """One row per step: the event told in a sentence and everyone's score after it."""
    rows = []
    for st in steps:
        state = st.before if st.before is not None else st.after
        rows.append({
            "n": st.index,
            "round": ruleset.round(st.after),
            "in_round": ruleset.round(state),
            "actor": st.actor,
            "type": event_type(st.event),
            "text": ruleset.narrate(state, st.event),
            "scores": {p: float(v) for p, v in ruleset.scores(st.after).items()},
        })
    return rows


def round_of(row: dict[str, Any], word: str) -> str:
    """The round an event belongs to, in words: "setup" for a ruleset's setup round (0), else "round 2" ("turn
    2")."""
    n = in_round(row)
    return "setup" if n == 0 else f"{word} {n}"


def line_timeline(line: Any) -> list[dict[str, Any]]:
    """``score_timeline`` of a loaded line (``core.service.Line``)."""
    return score_timeline(line.ruleset, line.steps())


def series(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The scored names in the order they first appear (the seat order for every shipped ruleset)."""
    names: list[str] = []
    for r in rows:
        for p in r["scores"]:
            if p not in names:
                names.append(p)
    return names


def play_start(rows: Sequence[dict[str, Any]]) -> int:
    """Where a timeline starts: the event number at which the setup is over and every value holds what the setup
    gave it. A ruleset whose setup is its round 0 (Peloponnes deals civilizations, Adamastor sets morale and the
    route before round 1) starts at the first event of round 1; any other at event 0."""
    if not rows or rows[0]["round"] >= 1:
        return rows[0]["n"] if rows else 0
    for r in rows:
        if r["round"] >= 1:
            return r["n"]
    return rows[-1]["n"]


def in_round(row: dict[str, Any]) -> int:
    """The round an event belongs to (0: the setup); a row without ``in_round`` is read by its ``round``."""
    return int(row.get("in_round", row["round"]))


def round_boundaries(rows: Sequence[dict[str, Any]]) -> list[dict[str, int]]:
    """Where a new round (turn, era) starts, as the events number it: ``{"n": the round's first event, "round": its
    number}``, the first event whose hover (``round_of``) and move-list heading name that round. The event that ends a
    round (Peloponnes' last income, "round 2 begins") is still the round's, so round 2 starts after it, not before;
    a round no event of the line belongs to (the one after the last event) has no start."""
    out = []
    for prev, row in zip(rows, rows[1:]):
        if in_round(row) != in_round(prev):
            out.append({"n": row["n"], "round": in_round(row)})
    return out


def swings(rows: Sequence[dict[str, Any]], top: int = 3) -> list[dict[str, Any]]:
    """The ``top`` largest single-event changes of any player's score, largest first (earlier first on ties).

    Changes before the first decision by a player are the setup (cards dealt, starting points), not play, and
    are left out."""
    found = []
    started = False
    for prev, row in zip(rows, rows[1:]):
        started = started or row["actor"] not in NOT_PLAYERS
        if not started:
            continue
        for p, v in row["scores"].items():
            delta = v - prev["scores"].get(p, 0.0)
            if delta:
                found.append({"n": row["n"], "player": p, "delta": delta, "score": v, "text": row["text"]})
    found.sort(key=lambda s: (-abs(s["delta"]), s["n"]))
    return found[:top]


def final_leader(rows: Sequence[dict[str, Any]], winners: Sequence[str] = ()) -> str | None:
    """Who leads at the end: the single winner when the game is over, else the single top scorer (None on a tie)."""
    if not rows:
        return None
    final = rows[-1]["scores"]
    if len(winners) == 1 and winners[0] in final:
        return winners[0]
    if not final:
        return None
    best = max(final.values())
    top = [p for p, v in final.items() if v == best]
    return top[0] if len(top) == 1 else None


def lead_taken(rows: Sequence[dict[str, Any]], leader: str | None) -> dict[str, Any] | None:
    """The event after which ``leader`` led for good: ahead of everyone at it and at every later event.

    When the rules broke a tie at the end (the winner is level with someone), "ahead" means "not behind". With one
    series alone (a solo voyage, a crew's shared score) there is nobody to lead, so there is no such event."""
    if leader is None or not rows or len(rows[-1]["scores"]) < 2:
        return None

    def margin(row: dict[str, Any]) -> float:
        others = [v for p, v in row["scores"].items() if p != leader]
        return row["scores"].get(leader, 0.0) - (max(others) if others else 0.0)

    strict = margin(rows[-1]) > 0
    start = None
    for i in range(len(rows) - 1, -1, -1):
        m = margin(rows[i])
        if (m > 0) if strict else (m >= 0):
            start = i
        else:
            break
    if start is None:
        return None
    row = rows[start]
    return {"n": row["n"], "player": leader, "score": row["scores"].get(leader, 0.0), "text": row["text"],
            "from_start": start == 0}


def turning_points(rows: Sequence[dict[str, Any]], winners: Sequence[str] = (), top: int = 3) -> list[dict[str, Any]]:
    """The moments worth a note on a plot: the largest swings and where the final leader took the lead for good.

    Each point: ``{"n", "player", "kind": "swing" | "lead", "score", "label", "text"}``; ordered by ``n``."""
    points = []
    for s in swings(rows, top):
        sign = "+" if s["delta"] > 0 else "−"
        points.append({"n": s["n"], "player": s["player"], "kind": "swing", "score": s["score"],
                       "label": f"{s['player']} {sign}{_num(abs(s['delta']))}", "text": s["text"]})
    lead = lead_taken(rows, final_leader(rows, winners))
    if lead is not None and not lead["from_start"]:
        points.append({"n": lead["n"], "player": lead["player"], "kind": "lead", "score": lead["score"],
                       "label": f"{lead['player']} takes the lead for good", "text": lead["text"]})
    points.sort(key=lambda p: (p["n"], p["kind"] != "lead"))
    return points


def outcome_of(line: Any) -> dict[str, Any]:
    """Whether a line is over and who won: ``{"over", "winners", "summary"}``."""
    pending = line.ruleset.pending(line.state)
    if isinstance(pending, Over):
        return {"over": True, "winners": list(pending.outcome.winners), "summary": pending.outcome.summary}
    return {"over": False, "winners": [], "summary": line.status()}


def short_outcome(outcome: dict[str, Any], events: int) -> str:
    """A few words for a legend or subtitle: who won, or that the line is unfinished."""
    if not outcome["over"]:
        return f"unfinished after #{events}"
    if not outcome["winners"]:
        return "nobody won"
    return f"{' and '.join(outcome['winners'])} won"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"

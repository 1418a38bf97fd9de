"""Two lines of one game side by side: where they part, and how scores and outcome differ."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.analysis.timeline import line_timeline, outcome_of


def fork_point(a: Any, b: Any) -> int:
    """The last event the two lines share (event ids are chain hashes, so equal ids mean an equal past)."""
    shared = 0
    for x, y in zip(a.envelopes, b.envelopes):
        if x.id != y.id:
            break
        shared = x.depth
    return shared


def compare_lines(a: Any, b: Any, *, show: int = 3) -> dict[str, Any]:
    """A plain summary of two lines of the same game.

    ``fork``: the last shared event; ``after_fork``: the first ``show`` events of each line after it, narrated;
    ``players``: each player's final score on both lines and the difference (b − a); ``a``/``b``: each line's
    length, status and winners; ``same_luck``: whether chance after the fork is drawn alike;
    ``outcome_changed``: whether the winners differ."""
    if a.game.id != b.game.id:
        raise ValueError("lines of two different games cannot be compared")
    rows_a, rows_b = line_timeline(a), line_timeline(b)
    fork = fork_point(a, b)
    after = []
    for k in range(1, show + 1):
        n = fork + k
        ta = rows_a[n]["text"] if n < len(rows_a) else None
        tb = rows_b[n]["text"] if n < len(rows_b) else None
        if ta is None and tb is None:
            break
        after.append({"n": n, "a": ta, "b": tb})
    end_a, end_b = rows_a[-1]["scores"], rows_b[-1]["scores"]
    players = []
    for p in _names(a.created.names, end_a, end_b):
        sa, sb = end_a.get(p), end_b.get(p)
        players.append({"player": p, "a": sa, "b": sb,
                        "diff": None if sa is None or sb is None else sb - sa,
                        "at_fork": rows_a[fork]["scores"].get(p)})
    out_a, out_b = outcome_of(a), outcome_of(b)
    return {
        "game": a.game.id,
        "fork": fork,
        "fork_text": rows_a[fork]["text"],
        "after_fork": after,
        "players": players,
        "a": _side(a, out_a),
        "b": _side(b, out_b),
        "same_luck": a.branch.luck == b.branch.luck,
        "outcome_changed": (out_a["over"], sorted(out_a["winners"])) != (out_b["over"], sorted(out_b["winners"])),
    }


def _side(line: Any, outcome: dict[str, Any]) -> dict[str, Any]:
    return {"branch": line.branch.name, "events": len(line.events), "last": line.head.depth, **outcome}


def _names(seats: Sequence[str], *scores: dict[str, float]) -> list[str]:
    names = list(seats)
    for s in scores:
        names += [p for p in s if p not in names]
    return names

"""Win chances over a game: rows and the chart of an analysis made by ``core.analyse`` (``agon analyse``).

Rows are plain dicts (JSON-able). ``position_rows``: one per event, ``{"n", "actor", "text", "chances": {player:
share 0..1}, "scores": {player: expected final score}, "rollouts", "over"}``. ``decision_rows``: one per judged
decision, with its alternatives, the best one, the win chance lost and the ``agon branch`` command that plays
the better move. ``figure``: the chart, lichess-style (each player's win chance over the game in the player's
colour, marked decisions annotated). ``for_line`` gives the rows and the chart of a line from the cache alone
(no rollouts), for pages that show an analysis where one exists.

An analysis sees everything: its rollouts start from the full state, and alternatives read as the acting player
sees them. Show it after the game, not to a player in the middle of one.
"""

from __future__ import annotations

import shlex
from typing import Any

from agon.analysis.palette import player_colors
from agon.core.analyse import Analysis, Judged

OBSERVER = ("rollouts start from the full state: they know every hidden card and the order of every deck, like"
            " an observer who sees everything")


def pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def threshold_pct(x: float) -> str:
    """A threshold as given, as a percentage: whole when it is (10%), else as typed (12.5%, 0.1%); a win chance
    is an estimate and is shown whole (``pct``), a threshold is the user's own number."""
    p = round(100 * x, 6)
    return f"{p:g}%"


def branch_command(a: Analysis, d: Judged) -> str:
    """The commands that play the better move on a new line from just before decision ``d``."""
    game = a.line.game.id
    # named after the line it leaves, so the better moves found on two lines are two branches, not one name twice
    source = a.line.branch.name
    name = f"better-{d.n}" if source == "main" else f"{source}-better-{d.n}"[-100:]
    assert d.best is not None
    choice = d.best.choice if d.best.choice.isdigit() else "'" + d.best.choice.replace("'", "'\\''") + "'"
    return (f"agon branch {game} {shlex.quote(name)} --at {d.n - 1} -b {shlex.quote(source)}"
            f" && agon act {game} {choice}")


def marked_text(d: Judged) -> str:
    """``#41 Ana bids 3 on the Harbour: 34% (best: bid 5 on the Harbour, 58%)``."""
    assert d.best is not None
    best = d.best_checked if d.best_checked is not None else d.best.chance
    return f"#{d.n} {d.text.rstrip('.')}: {pct(d.chance)} (best: {d.best.text.rstrip('.')}, {pct(best)})"


def position_rows(a: Analysis) -> list[dict[str, Any]]:
    return [{"n": p.n, "id": p.node_id, "actor": p.actor, "text": p.text, "chances": p.chances, "scores": p.scores,
             "rollouts": p.rollouts, "over": p.over} for p in a.positions]


def decision_rows(a: Analysis) -> list[dict[str, Any]]:
    out = []
    for d in a.decisions:
        out.append({
            "n": d.n, "player": d.player, "text": d.text, "chance": d.chance, "legal": d.legal,
            "judged": len(d.alternatives), "sampled": d.sampled, "loss": d.loss, "marked": d.marked,
            "glyph": d.glyph, "summary": marked_text(d) if d.best is not None else d.text,
            "best": None if d.best is None else {"text": d.best.text, "chance": d.best.chance,
                                                 "checked": d.best_checked, "made": d.best.made},
            "branch_command": branch_command(a, d) if d.marked else None,
            "alternatives": [{"text": x.text, "chance": x.chance, "score": x.score, "made": x.made, "bot": x.bot,
                              "choice": x.choice} for x in d.alternatives],
        })
    return out


def summary(a: Analysis) -> dict[str, Any]:
    s = a.settings
    return {
        "game": a.line.game.id, "branch": a.line.branch.name, "ruleset": a.line.ruleset.name,
        "ruleset_version": a.line.ruleset.version, "players": list(a.players),
        "rollouts": s.rollouts, "bot": s.bot, "seed": s.seed, "threshold": s.threshold,
        "max_alternatives": s.max_alternatives, "judge_all": s.judge_all, "observer": OBSERVER,
        "rollouts_played": a.computed, "rollout_events": a.rollout_events, "positions_cached": a.cached,
        "seconds": round(a.seconds, 3),
    }


def to_json(a: Analysis) -> dict[str, Any]:
    return {**summary(a), "positions": position_rows(a), "decisions": decision_rows(a),
            "marked": [marked_text(d) for d in a.marked]}


def swings(a: Analysis, top: int = 5) -> list[dict[str, Any]]:
    """The events after which some player's win chance moved most (where the game was decided)."""
    out = []
    for prev, cur in zip(a.positions, a.positions[1:]):
        who = max(a.players, key=lambda p: abs(cur.chances[p] - prev.chances[p]))
        delta = cur.chances[who] - prev.chances[who]
        if not delta:  # nothing moved: not a turn of the game (a game decided from the start lists none)
            continue
        out.append({"n": cur.n, "text": cur.text, "player": who, "before": prev.chances[who],
                    "after": cur.chances[who], "delta": delta})
    out.sort(key=lambda r: (-abs(r["delta"]), r["n"]))
    return sorted(out[:top], key=lambda r: r["n"])


def figure(a: Analysis) -> Any:
    """Each player's win chance after every event, in the player's colour, the marked decisions annotated."""
    import plotly.graph_objects as go

    from agon.analysis.figures import CREW_COLOR, EndLabels, shared_score, style

    colors = player_colors(a.players)
    xs = [p.n for p in a.positions]
    fig = go.Figure()
    solo = len(a.players) == 1
    crew = shared_score(a.line.ruleset.name)
    # A co-operative game is won or lost together: its players' chances are one chance, drawn once for the crew.
    drawn = [(crew, a.players[0], CREW_COLOR)] if crew else [(name, name, colors[name]) for name in a.players]
    for label, name, colour in drawn:
        ys = [100 * p.chances[name] for p in a.positions]
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="lines", name=label, line={"color": colour, "width": 2.5, "shape": "hv"},
            fill="tozeroy" if len(drawn) <= 2 else None, fillcolor=_alpha(colour, 0.12),
            hovertext=[f"#{p.n} {p.text}<br>{label}: {pct(p.chances[name])}, expected score"
                       f" {p.scores[name]:.1f}" for p in a.positions],
            hoverinfo="text", meta={"player": label},
        ))
    if len(drawn) > 1:
        fig.add_hline(y=100 / len(a.players), line={"color": "#999", "dash": "dot", "width": 1},
                      annotation_text="an even share", annotation_position="top right",
                      annotation_font={"size": 10, "color": "#888"})
    last = a.positions[-1] if a.positions else None
    labels = EndLabels(fig, [(colour, xs[-1], 100 * last.chances[name], f"{label} {pct(last.chances[name])}")
                             for label, name, colour in drawn] if last else [],
                       (xs[0], xs[-1]) if xs else (0, 1), (0, 100), height=700)
    for k, d in enumerate(a.marked):
        best = d.best_checked if d.best_checked is not None else (d.best.chance if d.best else d.chance)
        text = f"#{d.n}{d.glyph} {d.player}: {pct(d.chance)} (best {pct(best)})"
        dx, dy = labels.arrowed(d.n, 100 * d.chance, text, 11, up_first=k % 2 == 0)
        fig.add_annotation(
            x=d.n, y=100 * d.chance, text=text, showarrow=True, arrowhead=2, ax=dx, ay=dy,
            font={"color": colors[d.player], "size": 11}, bgcolor="rgba(255,255,255,0.85)",
            bordercolor=colors[d.player], hovertext=marked_text(d), name="marked",
        )
    s = a.settings
    what = "chance the voyage succeeds" if solo else "win chance"
    sub = (f"game {a.line.game.id}, branch {a.line.branch.name}: {s.rollouts} rollouts per position by {s.bot}"
           f" bots (seed {s.seed}), from the full state; {len(a.marked)} decision(s) marked")
    style(fig, f"{a.line.ruleset.title}: {what} after every event", "event number", f"{what} (%)", subtitle=sub)
    labels.frame_layout(fig)
    fig.update_layout(meta={"players": list(a.players), "game": a.line.game.id, "kind": "chances"})
    return fig


def _alpha(hex_color: str, alpha: float) -> str:
    h = hex_color.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"


def for_line(svc: Any, line: Any) -> dict[str, Any] | None:
    """The newest cached analysis of ``line`` as ``{"rows": ..., "decisions": ..., "figure": ...}``, or None when
    none exists. Reads the cache only: it never plays a rollout."""
    from agon.core.analyse import cached

    a = cached(svc, line)
    if a is None:
        return None
    return {"rows": position_rows(a), "decisions": decision_rows(a), "summary": summary(a), "figure": figure(a)}

"""Figures shared by every ruleset: the score timeline (one line, or what-if lines overlaid on it).

Every builder returns a plotly ``Figure`` and imports plotly inside itself, so importing this module is cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.analysis.games import module_for
from agon.analysis.palette import branch_dash, player_colors
from agon.analysis.timeline import line_timeline, outcome_of, round_boundaries, series, short_outcome, turning_points

MAX_ROUND_LABELS = 10


def score_label(ruleset: Any) -> str:
    """The y-axis title: "score", with what the ruleset counts as its score when its figure module says."""
    mod = module_for(ruleset.name)
    what = getattr(mod, "SCORE", None) if mod else None
    return f"score ({what})" if what else "score"


def style(fig: Any, title: str, x: str, y: str, *, subtitle: str = "") -> Any:
    """Title, axis labels and a legend, the same way on every figure."""
    text = f"{title}<br><sup>{subtitle}</sup>" if subtitle else title
    fig.update_layout(
        title={"text": text, "x": 0.01, "xanchor": "left"},
        xaxis_title=x,
        yaxis_title=y,
        legend_title_text="player",
        template="plotly_white",
        hovermode="closest",
        margin={"t": 90},
    )
    return fig


def scores_figure(lines: Sequence[Any], *, top: int = 3, timelines: Sequence[list[dict]] | None = None) -> Any:
    """Each player's score over the game. The first line is drawn solid with its round boundaries and turning
    points; every further line (a what-if branch of the same game) is overlaid dashed in the same player colours,
    with a mark where it parts from the first."""
    import plotly.graph_objects as go

    if not lines:
        raise ValueError("no line to plot")
    from agon.analysis.compare import fork_point

    main = lines[0]
    rows_all = list(timelines) if timelines is not None else [line_timeline(ln) for ln in lines]
    names = series(rows_all[0])
    colors = player_colors(main.created.names, [p for rows in rows_all for p in series(rows)])
    fig = go.Figure()
    for k, (line, rows) in enumerate(zip(lines, rows_all)):
        suffix = "" if k == 0 else f" ({line.branch.name})"
        if k:
            fork = fork_point(main, line)
            rows = [r for r in rows if r["n"] >= fork]
        xs = [r["n"] for r in rows]
        for p in series(rows):
            ys = [r["scores"].get(p) for r in rows]
            fig.add_trace(go.Scatter(
                x=xs, y=ys, mode="lines", name=f"{p}{suffix}", legendgroup=p,
                line={"color": colors[p], "dash": branch_dash(k), "width": 2.5 if k == 0 else 2, "shape": "hv"},
                hovertext=[f"#{r['n']} (round {r['round']}): {r['text']}<br>{p}: {_num(y)}" for r, y in zip(rows, ys)],
                hoverinfo="text",
                meta={"player": p, "branch": line.branch.name},
            ))
        if k:
            fig.add_vline(x=fork, line={"color": "#555", "dash": branch_dash(k), "width": 1})
            fig.add_annotation(x=fork, y=1.0, yref="paper", yanchor="bottom", showarrow=False,
                               text=f"{line.branch.name} parts after #{fork}", font={"size": 11, "color": "#555"})
    main_rows = rows_all[0]
    bounds = round_boundaries(main_rows)
    every = max(1, -(-len(bounds) // MAX_ROUND_LABELS))
    for i, b in enumerate(bounds):
        fig.add_vline(x=b["n"] - 0.5, line={"color": "#bbb", "dash": "dot", "width": 1})
        if i % every == 0:
            fig.add_annotation(x=b["n"] - 0.5, y=1.0, yref="paper", yanchor="top", xanchor="left", showarrow=False,
                               text=f"round {b['round']}", font={"size": 10, "color": "#888"}, name="round")
    outcome = outcome_of(main)
    for tp in turning_points(main_rows, outcome["winners"], top):
        fig.add_annotation(
            x=tp["n"], y=tp["score"], text=tp["label"], showarrow=True, arrowhead=2, ax=0,
            ay=-40 if tp["kind"] == "lead" else 30, font={"color": colors[tp["player"]], "size": 12},
            bgcolor="rgba(255,255,255,0.85)", bordercolor=colors[tp["player"]],
            hovertext=f"#{tp['n']}: {tp['text']}", name=tp["kind"],
        )
    branches = ", ".join(ln.branch.name for ln in lines)
    what = "branch" if len(lines) == 1 else "branches"
    title = f"{main.ruleset.title}: scores over the game"
    if len(lines) == 1:
        sub = f"game {main.game.id}, branch {main.branch.name}: {_clip(outcome['summary'], 110)}"
    else:
        ends = "; ".join(f"{ln.branch.name}: {short_outcome(outcome_of(ln), ln.head.depth)}" for ln in lines)
        sub = f"game {main.game.id}, {what} {branches} — {ends}"
    style(fig, title, "event number", score_label(main.ruleset), subtitle=sub)
    fig.update_layout(meta={"players": names, "game": main.game.id})
    return fig


def write(fig: Any, path: str, png: bool = False) -> None:
    """Write ``fig`` as a self-contained HTML file (plotly's script inlined: opens offline), or as a PNG.

    A PNG needs kaleido and a Chromium it can start; ``CannotRender`` says what is missing."""
    if not png:
        fig.write_html(path, include_plotlyjs=True, full_html=True)
        return
    try:
        import kaleido  # noqa: F401
    except ImportError:
        raise CannotRender("kaleido is not installed (pip install 'agon[png]')") from None
    try:
        fig.write_image(path, format="png", width=1200, height=fig.layout.height or 700, scale=1)
    except Exception as e:  # noqa: BLE001 - kaleido reports a missing browser in several ways
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise CannotRender(f"kaleido could not start a Chromium to draw it ({first}); install chromium"
                           " (apt-get install chromium) or leave out --png for HTML") from None


class CannotRender(Exception):
    """A static image cannot be drawn on this machine."""


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _num(x: Any) -> str:
    if x is None:
        return "-"
    return str(int(x)) if float(x).is_integer() else f"{x:g}"

"""The picture of ``agon stats``: win rates by side and by seat (for a co-operative ruleset, by setup instead of by
seat, since the crew's seats win or lose together), each with its 95% Wilson interval, and how long the games ran.
Sides and seats are not players, so the bars are grey; the interval is drawn as an error bar and written beside it,
with the number of games it rests on."""

from __future__ import annotations

from typing import Any

from agon.analysis.figures import style
from agon.analysis.labels import text_size
from agon.analysis.stats import setup_rows

BAR = "#8A8A8A"
"""Bars in grey: a side or a seat is not a player, and colours mean players."""


def _panel(rows: list[dict[str, Any]], key: str, label: str) -> dict[str, Any]:
    names = [f"{label} {r[key]}" if key == "seat" else str(r[key]) for r in rows]
    return {
        "y": names,
        "x": [100 * r["win_rate"] for r in rows],
        "lo": [100 * (r["win_rate"] - r["ci_low"]) for r in rows],
        "hi": [100 * (r["ci_high"] - r["win_rate"]) for r in rows],
        "text": [f"{r['wins']}/{r['played']} won: {100 * r['win_rate']:.0f}%"
                 f" (95% CI {100 * r['ci_low']:.0f}–{100 * r['ci_high']:.0f}%)" for r in rows],
    }


def stats_figure(result: dict[str, Any], title: str) -> Any:
    """``result`` is ``aggregate``'s (with ``ruleset``): one bar per side and per seat (per setup, where the players
    win or lose together), the game lengths below."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    groups = []
    if result.get("together"):  # won or lost together: how often each setup is won (a competitive game is won by
        # someone nearly every time, so its rate by setup would be 100% and is not drawn)
        words = result.get("together_words") or "the players win or lose together"
        # the crew's result over several setups last, told once: its seats' would each repeat it
        groups.append((f"Won by setup ({words})", _panel(setup_rows(result), "setup", "")))
    if result["by_side"]:
        groups.append((f"Win rate by {result['side_label'] or 'side'}", _panel(result["by_side"], "side", "")))
    if not result.get("together"):
        groups.append(("Win rate by seat (1 = first to act)", _panel(result["by_seat"], "seat", "seat")))
    counts = [len(g[1]["y"]) for g in groups]
    fig = make_subplots(rows=len(groups) + 1, cols=1, vertical_spacing=0.11,
                        row_heights=[max(c, 2) for c in counts] + [max(4, max(counts) * 0.8)],
                        subplot_titles=[g[0] for g in groups] + ["Game length (finished games)"])
    longest_name = max((text_size(n, 12)[0] for _, p in groups for n in p["y"]), default=60)
    for i, (_name, p) in enumerate(groups, start=1):
        fig.add_trace(go.Bar(
            y=p["y"], x=p["x"], orientation="h", marker={"color": BAR}, showlegend=False,
            error_x={"type": "data", "symmetric": False, "array": p["hi"], "arrayminus": p["lo"], "color": "#222",
                     "thickness": 1.5, "width": 5},
            hovertext=p["text"], hoverinfo="text", name=_name,
        ), row=i, col=1)
        for name, text in zip(p["y"], p["text"]):  # written in a column right of 100%, clear of every whisker
            fig.add_annotation(x=104, y=name, xref=f"x{i if i > 1 else ''}", yref=f"y{i if i > 1 else ''}",
                               text=text, showarrow=False, xanchor="left", font={"size": 11, "color": "#222"},
                               name="win rate")
        fig.update_xaxes(range=[0, 175], tickvals=[0, 25, 50, 75, 100], ticktext=["0%", "25%", "50%", "75%", "100%"],
                         row=i, col=1)
        fig.update_yaxes(autorange="reversed", row=i, col=1)
    lengths = result.get("lengths") or []
    last = len(groups) + 1
    fig.add_trace(go.Histogram(x=lengths, marker={"color": BAR, "line": {"color": "white", "width": 1}},
                               showlegend=False, name="games", nbinsx=min(30, max(5, len(lengths))),
                               hovertemplate="%{x} events: %{y} games<extra></extra>"), row=last, col=1)
    if lengths:
        mean = sum(lengths) / len(lengths)
        fig.add_vline(x=mean, line={"color": "#222", "dash": "dash", "width": 1.5}, row=last, col=1)
        fig.add_annotation(x=mean, y=1, yref=f"y{last} domain", xref=f"x{last}", yanchor="top", xanchor="left",
                           xshift=4, showarrow=False, text=f"mean {mean:.0f} events", font={"size": 11},
                           name="mean length")
    fig.update_xaxes(title_text="events per game", row=last, col=1)
    fig.update_yaxes(title_text="games", row=last, col=1)
    rows = sum(counts)
    height = max(720, 420 + 36 * rows)
    games = result["games"]
    sub = (f"{games} game{'s' if games != 1 else ''} stored, {result['finished']} finished; lengths"
           f" {result['shortest']}–{result['longest']} events, {result['avg_rounds'] or 0:.1f}"
           f" {result.get('round_word', 'round')}s on average")
    style(fig, title, "", "", subtitle=sub + " · bars: share of games won; whiskers: 95% Wilson interval")
    setups = [] if result.get("together") else _setup_lines(result)
    if setups:  # someone wins nearly every competitive game: by setup, what the games were like, under the lengths
        fig.add_annotation(x=0, xref="paper", y=0, yref="paper", yanchor="top", xanchor="left", yshift=-62,
                           align="left", showarrow=False, font={"size": 11}, name="by setup",
                           text="<br>".join(["<b>By setup</b> (finished games; someone wins each, so no win rate)",
                                             *setups]))
    below = 16 * (len(setups) + 1) if setups else 0
    height += below
    fig.update_layout(height=height, showlegend=False,
                      margin={"l": longest_name + 30, "r": 30, "t": 110, "b": 70 + below})
    return fig


def _setup_lines(result: dict[str, Any]) -> list[str]:
    """Each setup of a competitive ruleset in a line: its games, lengths and scores (no win rate: someone wins)."""
    word = result.get("round_word", "round")
    return [f"{r['setup']}: {r['played']} game{'s' if r['played'] != 1 else ''}, {r['avg_events']:.1f} events"
            f" ({r['shortest']}–{r['longest']}), {r['avg_rounds']:.1f} {word}s, best score {r['avg_best_score']:.1f},"
            f" average score {r['avg_score']:.1f}" for r in result.get("by_setup", ()) if "avg_best_score" in r]

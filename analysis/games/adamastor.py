"""Adamastor's picture: the voyage over the game (from the ruleset's ``voyage`` projection), for the crew as a
whole, since the game is played together: morale and the distance still to sail above, the threat icons in play
(revolt, disease, fatigue) against motivation below, with round boundaries. Rows read ``voyage``: index, round,
morale, distance, progress, revolt, disease, fatigue, threats, motivation, traumas, skills, weather, result.
"""

from __future__ import annotations

from typing import Any

from agon.analysis.figures import style
from agon.analysis.timeline import outcome_of

SCORE = "the crew's shared result"

SERIES = {"morale": "#009E73", "distance": "#0072B2", "revolt": "#D55E00", "disease": "#CC79A7",
          "fatigue": "#E69F00", "motivation": "#56B4E9"}


def voyage_rows(line: Any) -> list[dict[str, Any]]:
    return line.ruleset.projections["voyage"](line.steps())


def voyage_figure(line: Any) -> Any:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    rows = voyage_rows(line)
    xs = [r["index"] for r in rows]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.55, 0.45], vertical_spacing=0.08,
                        specs=[[{"secondary_y": True}], [{}]])
    hover = [f"#{r['index']} (round {r['round']}, {r['phase']}): morale {r['morale']}, {r['distance']:g} to sail,"
             f" weather {r['weather'] or '-'}" for r in rows]
    fig.add_trace(go.Scatter(x=xs, y=[r["morale"] for r in rows], name="morale", mode="lines",
                             line={"color": SERIES["morale"], "width": 2.5, "shape": "hv"}, hovertext=hover,
                             hoverinfo="text"), row=1, col=1)
    fig.add_trace(go.Scatter(x=xs, y=[r["distance"] for r in rows], name="distance to sail", mode="lines",
                             line={"color": SERIES["distance"], "width": 2.5, "dash": "dash", "shape": "hv"},
                             hovertext=hover, hoverinfo="text"), row=1, col=1, secondary_y=True)
    for key in ("revolt", "disease", "fatigue"):
        fig.add_trace(go.Scatter(x=xs, y=[r[key] for r in rows], name=f"{key} icons", mode="lines",
                                 stackgroup="threats", line={"color": SERIES[key], "width": 0.5, "shape": "hv"},
                                 hovertext=[f"#{r['index']}: {r[key]} {key} icons ({r['threats']} threats in all)"
                                            for r in rows], hoverinfo="text"), row=2, col=1)
    fig.add_trace(go.Scatter(x=xs, y=[r["motivation"] for r in rows], name="motivation icons", mode="lines",
                             line={"color": SERIES["motivation"], "width": 2.5, "shape": "hv"},
                             hovertext=[f"#{r['index']}: {r['motivation']} motivation icons" for r in rows],
                             hoverinfo="text"), row=2, col=1)
    for prev, r in zip(rows, rows[1:]):
        if r["round"] != prev["round"]:
            fig.add_vline(x=r["index"] - 0.5, line={"color": "#bbb", "dash": "dot", "width": 1})
            fig.add_annotation(x=r["index"] - 0.5, y=1.0, yref="paper", yanchor="bottom", xanchor="left",
                               showarrow=False, text=f"round {r['round']}", font={"size": 10, "color": "#888"},
                               name="round")
    fig.update_yaxes(title_text="morale", row=1, col=1, secondary_y=False)
    fig.update_yaxes(title_text="distance still to sail (dashed)", row=1, col=1, secondary_y=True,
                     rangemode="tozero", showgrid=False, tickformat=".0f")
    fig.update_yaxes(title_text="threat and motivation icons", row=2, col=1, rangemode="tozero")
    fig.update_xaxes(title_text="event number", row=2, col=1)
    fig.update_layout(height=720)
    outcome = outcome_of(line)
    style(fig, f"{line.ruleset.title}: the voyage", "", "morale",
          subtitle=f"game {line.game.id}, branch {line.branch.name}, crew {', '.join(line.created.names)}:"
          f" {outcome['summary']}")
    fig.update_layout(legend_title_text="")
    return fig


FIGURES = {"voyage": voyage_figure}
ROWS = {"voyage": voyage_rows}

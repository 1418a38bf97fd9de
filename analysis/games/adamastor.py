"""Adamastor's picture: the voyage over the game (from the ruleset's ``voyage`` projection), for the crew as a whole,
since the game is played together: morale and the distance still to sail above, the threat icons in play (revolt,
disease, fatigue) against motivation below, with round boundaries. Drawn in greys and hatching, since colours mean
players; from the values the setup gave (round 1), not from the empty table before it. Rows read ``voyage``
(``voyage_rows``): index, event, round and phase after the event (as the score timeline's ``round``), in_round and
in_phase (those the event happened in, as its hover names them), and after the event: morale, distance, progress,
revolt, disease, fatigue, threats, motivation, traumas, skills, weather, result.
"""

from __future__ import annotations

from typing import Any

from agon.analysis.figures import style
from agon.analysis.timeline import outcome_of, round_of
from agon.core.games.adamastor.rules import SCORE_UNIT
from agon.core.words import counted

SCORE = f"{SCORE_UNIT}, the crew's together"
"""The axis title's words: the score is the voyage's progress, one number for the whole crew (rulebook 6, 9.3)."""


def label(text: str, cards: Any) -> str | None:
    """A crew card's id (``c38``, as the view's ``card`` columns and the events name it; ``c24 disease`` with what
    follows it in brackets) by its title, for the study page's tables and analyse's sentences."""
    head, _, rest = text.partition(" ")
    if len(head) < 2 or head[0] != "c" or not head[1:].isdigit():
        return None
    title = next((c.get("title") for c in (cards or {}).get("player_cards", ()) if c.get("number") == int(head[1:])),
                 None)
    if title is None:
        return None
    return f"{title} ({rest.replace('_', ' ')})" if rest else title


LOST = "Voyages lost (the crew wins or loses together)"
"""How `agon stats` counts the finished games that nobody won: a voyage is won or lost by the whole crew, solo or
co-op (rulebook 6 'Ganhando ou perdendo o jogo': the fleet reaches its final destination, or a tumult or the crew's
morale ends it; 9.3 keeps those conditions for 2 players), so a game without winners is a voyage lost, not one
'nobody won' as if someone might have."""

TOGETHER = "the crew wins or loses each voyage together"
"""How `agon stats` titles its win rate by setup, and `agon compare` tells two voyages alike: in the co-op's words
(rulebook 6, 9.3), never as a game 'anyone' wins."""

ENDS = ("the voyage is won", "the voyage is lost")
"""How `agon compare`'s what-if tells a line's outcome: a voyage won or lost by the whole crew (rulebook 6, 9.3),
never 'nobody wins' as if someone might have."""

SERIES = {
    "morale": {"color": "#222222", "width": 2.5},
    "distance": {"color": "#777777", "width": 2.5, "dash": "dash"},
    "motivation": {"color": "#222222", "width": 2.5, "dash": "dot"},
}
"""Lines in greys: in a game's plots colours mean players, and the voyage belongs to the whole crew."""

THREATS = {"revolt": {"fillcolor": "#9A9A9A", "fillpattern": {"shape": "x", "fgcolor": "#333333", "solidity": 0.25}},
           "disease": {"fillcolor": "#C8C8C8", "fillpattern": {"shape": ".", "fgcolor": "#333333", "solidity": 0.3}},
           "fatigue": {"fillcolor": "#E6E6E6", "fillpattern": {"shape": "/", "fgcolor": "#555555", "solidity": 0.2}}}
"""Threat icons stacked as areas told apart by their hatching."""


def voyage_rows(line: Any) -> list[dict[str, Any]]:
    """The ruleset's ``voyage`` rows, named as the score timeline's rows are (``analysis.timeline``): ``round`` and
    ``phase`` are the state's after the event, as every other figure of a row is (morale, distance, icons, weather);
    ``in_round`` and ``in_phase`` are those the event happened in (the state before it), as its hover and the study
    page's move list name them: the setup's last deal is the setup's (round 0, ``deal``), and the trim that ends round
    1 is round 1's."""
    rows = line.ruleset.projections["voyage"](line.steps())
    out = []
    for before, r in zip(rows[:1] + rows, rows):
        out.append({"index": r["index"], "event": r["event"], "round": r["round"], "phase": r["phase"],
                    "in_round": before["round"], "in_phase": before["phase"],
                    **{k: v for k, v in r.items() if k not in ("index", "event", "round", "phase")}})
    return out


def voyage_figure(line: Any) -> Any:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    from agon.analysis.labels import WIDTH, text_size, thin_every
    from agon.analysis.timeline import play_start

    every_row = voyage_rows(line)
    start = play_start([{"n": r["index"], "round": r["round"]} for r in every_row])
    rows = [r for r in every_row if r["index"] >= start]  # from the setup's morale and route, not the zeros before
    xs = [r["index"] for r in rows]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.55, 0.45], vertical_spacing=0.08,
                        specs=[[{"secondary_y": True}], [{}]])
    # each event's hover names the round and phase it happened in, its row's in_round and in_phase (the sunset that
    # ends round 1 is round 1's, the setup's last deal the setup's), as the score timeline's hovers and the study
    # page's move list do
    hover = [f"#{r['index']} ({round_of(r, 'round')}, {r['in_phase']}):"
             f" morale {r['morale']}, {r['distance']:g} to sail, weather {r['weather'] or '-'}" for r in rows]
    fig.add_trace(go.Scatter(x=xs, y=[r["morale"] for r in rows], name="morale", mode="lines",
                             line={**SERIES["morale"], "shape": "hv"}, hovertext=hover,
                             hoverinfo="text"), row=1, col=1)
    fig.add_trace(go.Scatter(x=xs, y=[r["distance"] for r in rows], name="distance to sail", mode="lines",
                             line={**SERIES["distance"], "shape": "hv"},
                             hovertext=hover, hoverinfo="text"), row=1, col=1, secondary_y=True)
    for key, fill in THREATS.items():
        fig.add_trace(go.Scatter(x=xs, y=[r[key] for r in rows], name=f"{key} icons", mode="lines",
                                 stackgroup="threats", line={"color": "#555555", "width": 0.5, "shape": "hv"},
                                 **fill,
                                 hovertext=[f"#{r['index']}: {counted(r[key], f'{key} icon')}"
                                            f" ({counted(r['threats'], 'threat')} in all)"
                                            for r in rows], hoverinfo="text"), row=2, col=1)
    fig.add_trace(go.Scatter(x=xs, y=[r["motivation"] for r in rows], name="motivation icons", mode="lines",
                             line={**SERIES["motivation"], "shape": "hv"},
                             hovertext=[f"#{r['index']}: {counted(r['motivation'], 'motivation icon')}" for r in rows],
                             hoverinfo="text"), row=2, col=1)
    # Each line's final value at its end: the x axis runs on past the last event to leave them room.
    last = rows[-1] if rows else None
    finals = [] if last is None else [
        ("y", f"morale {last['morale']}", last["morale"]),
        ("y2", f"{last['distance']:g} to sail", last["distance"]),
        ("y3", f"{last['motivation']} motivation", last["motivation"]),
    ]
    left, right = 80, 230
    plot_px = WIDTH - left - right
    room = max(text_size(t, 11)[0] for _, t, _ in finals) + 8 if finals else 0
    x0, x1 = (xs[0], xs[-1]) if xs else (0, 1)
    x_max = x1 + (x1 - x0 or 1) * room / max(plot_px - room, 1)
    top_vals = [r["morale"] for r in rows] or [0]
    dist_vals = [r["distance"] for r in rows] or [0]
    m_hi, d_hi = max(top_vals) * 1.08 + 1, max(dist_vals) * 1.08 + 0.5
    if last is not None:
        # morale (left axis) and distance (right axis) share the upper panel: keep their end labels 16 px apart
        panel_px = (720 - 110 - 80) * 0.55 * 0.92
        gap = (last["morale"] / m_hi - last["distance"] / d_hi) * panel_px
        shift = 0 if abs(gap) >= 16 else (16 - abs(gap)) / 2 * (1 if gap >= 0 else -1)
        shifts = {"y": shift, "y2": -shift, "y3": 0}
        for ref, text, y in finals:
            fig.add_annotation(x=x1, y=y, xref="x" if ref != "y3" else "x2", yref=ref, text=text, showarrow=False,
                               xanchor="left", xshift=6, yshift=shifts[ref], font={"size": 11, "color": "#222"},
                               name="final")
    # each round's line and label where it starts as the events number it (its first event, as the hovers name it);
    # the setup's last deal alone before round 1 gets no label of its own
    bounds = [(prev, r) for prev, r in zip(rows, rows[1:]) if r["in_round"] != prev["in_round"]]
    lead = [(rows[0]["index"] + 0.5, rows[0]["in_round"])] if rows else []
    marks = (lead if lead and (lead[0][1] != 0 or not bounds) else []) + [(r["index"], r["in_round"])
                                                                          for _, r in bounds]
    px = [left + (m - 0.5 - x0) / ((x_max - x0) or 1) * plot_px for m, _ in marks]
    texts = [round_of({"round": rnd}, "round") for _, rnd in marks]
    every = thin_every(px, [text_size(t, 10)[0] for t in texts])
    for _, r in bounds:
        fig.add_vline(x=r["index"] - 0.5, line={"color": "#bbb", "dash": "dot", "width": 1})
    for i, ((m, _rnd), text) in enumerate(zip(marks, texts)):
        if i % every == 0:
            fig.add_annotation(x=max(m - 0.5, x0), y=1.0, yref="paper", yanchor="bottom", xanchor="left",
                               showarrow=False, text=text, font={"size": 10, "color": "#888"}, name="round")
    fig.update_yaxes(title_text="morale", row=1, col=1, secondary_y=False, range=[0, m_hi])
    fig.update_yaxes(title_text="distance still to sail (dashed)", row=1, col=1, secondary_y=True,
                     range=[0, d_hi], showgrid=False, tickformat=".0f")
    fig.update_yaxes(title_text="threat and motivation icons", row=2, col=1, rangemode="tozero")
    fig.update_xaxes(range=[x0, x_max])
    fig.update_xaxes(title_text="event number", row=2, col=1)
    outcome = outcome_of(line)
    style(fig, f"{line.ruleset.title}: the voyage", "", "morale",
          subtitle=f"game {line.game.id}, branch {line.branch.name}, crew {', '.join(line.created.names)}:"
          f" {outcome['summary']}")
    fig.update_layout(height=720, legend_title_text="", margin={"l": left, "r": right, "t": 110, "b": 80},
                      legend={"x": 1.08, "xanchor": "left", "y": 1, "yanchor": "top"})
    return fig


FIGURES = {"voyage": voyage_figure}
ROWS = {"voyage": voyage_rows}

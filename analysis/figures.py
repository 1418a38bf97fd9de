"""Figures shared by every ruleset: the score timeline (one line, or what-if lines overlaid on it).

Every builder returns a plotly ``Figure`` and imports plotly inside itself, so importing this module is cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.analysis.games import module_for
from agon.analysis.labels import AROUND, WIDTH, Box, Frame, centred_box, place, spread, text_size, thin_every
from agon.analysis.palette import Mark, branch_dash, marked_points, player_marks, sparse_markers
from agon.analysis.timeline import (
    in_round,
    line_timeline,
    outcome_of,
    play_start,
    round_boundaries,
    round_of,
    series,
    short_outcome,
    turning_points,
)


def score_label(ruleset: Any) -> str:
    """The y-axis title: "score", with what the ruleset counts as its score when its figure module says."""
    mod = module_for(ruleset.name)
    what = getattr(mod, "SCORE", None) if mod else None
    return f"score ({what})" if what else "score"


def style(fig: Any, title: str, x: str, y: str, *, subtitle: str = "") -> Any:
    """Title, axis labels and a legend, the same way on every figure."""
    text = f"{title}<br><sup>{subtitle}</sup>" if subtitle else title
    fig.update_layout(
        title={"text": text, "x": 0.01, "xanchor": "left", "yref": "container", "y": 1.0, "yanchor": "top",
               "pad": {"t": 28}},
        xaxis_title=x,
        yaxis_title=y,
        legend_title_text="player",
        template="plotly_white",
        hovermode="closest",
        margin={"t": 90},
    )
    return fig


def scores_figure(lines: Sequence[Any], *, top: int = 3, timelines: Sequence[list[dict]] | None = None,
                  height: int = 700) -> Any:
    """Each player's score over the game. The first line is drawn with its round boundaries and turning points;
    every further line (a what-if branch of the same game) is overlaid thinner, its markers hollow, with a mark where
    it parts from the first. Each player keeps their marks (``palette.player_marks``: colour, marker and dash) on
    every line, and each line's player, branch and final value are written at its end, so no line is told from
    another by its colour alone.

    A co-operative ruleset (its ``shared_score`` names who holds it) has one score for the whole crew: it is drawn
    once, in the crew's colour (never a player's), and its swings are credited to the crew. Lines start where the
    setup is over (``play_start``), from the values the setup gave.

    Rounds are named by the ruleset's word for them (``core.summary.round_word``): the hover text and the labels
    above the plot read "turn 2" for Perikles and Pergamemnon, "round 2" for any ruleset without a word of its own. An
    event's hover names the round it belongs to (``timeline.round_of``: "setup" for the setup's last event, where
    the line starts), and each round's dotted line and label stand before the first event so named
    (``timeline.round_boundaries``), never before the event that ends the round before it."""
    import plotly.graph_objects as go

    from agon.core.summary import round_word, score_unit

    if not lines:
        raise ValueError("no line to plot")
    from agon.analysis.compare import fork_point

    main = lines[0]
    word = round_word(main.ruleset)
    unit = score_unit(main.ruleset)  # each hover's number says what it is (an Adamastor voyage's progress)
    rows_all = list(timelines) if timelines is not None else [line_timeline(ln) for ln in lines]
    crew = shared_score(main.ruleset.name)
    if crew:
        rows_all = [crew_rows(rows, crew) for rows in rows_all]
    start = play_start(rows_all[0])
    rows_all = [[r for r in rows if r["n"] >= start] for rows in rows_all]
    names = series(rows_all[0])
    marks = player_marks(main.created.names, [p for rows in rows_all for p in series(rows) if p != crew])
    if crew:
        marks[crew] = CREW_MARK
    colors = {p: m.color for p, m in marks.items()}
    drawn: list[tuple[int, str, list[float], list[float], str]] = []  # (k, player, xs, ys, branch)
    fig = go.Figure()
    forks: list[tuple[int, int, str]] = []
    for k, (line, rows) in enumerate(zip(lines, rows_all)):
        suffix = "" if k == 0 else f" ({line.branch.name})"
        if k:
            fork = fork_point(main, line)
            rows = [r for r in rows if r["n"] >= fork]
            forks.append((k, fork, line.branch.name))
        xs = [r["n"] for r in rows]
        for p in series(rows):
            ys = [r["scores"].get(p) for r in rows]
            drawn.append((k, p, xs, ys, line.branch.name))
            seat = list(marks).index(p)
            fig.add_trace(go.Scatter(
                x=xs, y=ys, mode="lines+markers", name=f"{p}{suffix}", legendgroup=p,
                line=marks[p].line(2.5 if k == 0 else 1.5, shape="hv"), marker=marks[p].marker(9, hollow=k > 0),
                **sparse_markers(marked_points(ys, phase=seat / len(marks))), cliponaxis=False,
                hovertext=[f"#{r['n']} ({round_of(r, word)}): {r['text']}<br>{p}: {_num(y)}{unit}"
                           for r, y in zip(rows, ys)],
                hoverinfo="text",
                meta={"player": p, "branch": line.branch.name},
            ))
    main_rows = rows_all[0]
    values = [y for *_, ys, _b in drawn for y in ys if y is not None] or [0.0]
    lo, hi = min(values), max(values)
    pad = (hi - lo) * 0.06 or 1.0
    x_lo = min((xs[0] for _k, _p, xs, _y, _b in drawn if xs), default=0)
    x_hi = max((xs[-1] for _k, _p, xs, _y, _b in drawn if xs), default=1)
    labels = EndLabels(fig, [(colors[p], xs[-1], ys[-1], f"{p}{'' if k == 0 else f' ({b})'} {_num(ys[-1])}")
                             for k, p, xs, ys, b in drawn if xs and ys[-1] is not None],
                       (x_lo, x_hi if x_hi > x_lo else x_lo + 1), (lo - pad, hi + pad), height=height)
    frame = labels.frame
    # Round (turn) labels, in a row above the plot, each where its round starts as the events number it (the first
    # event its hover names so); every k-th when they would crowd. The line's first round is labelled where it
    # starts, unless that is the setup's last event alone (Peloponnes, Adamastor): round 1's mark follows it at once.
    bounds = round_boundaries(main_rows)
    lead = [{"n": main_rows[0]["n"] + 0.5, "round": in_round(main_rows[0])}] if main_rows else []
    marks = (lead if lead and (lead[0]["round"] != 0 or not bounds) else []) + bounds
    texts = [round_of({"round": b["round"]}, word) for b in marks]
    every = thin_every([frame.px(b["n"] - 0.5) for b in marks], [text_size(t, 10)[0] for t in texts])
    for b in bounds:
        fig.add_vline(x=b["n"] - 0.5, line={"color": "#bbb", "dash": "dot", "width": 1})
    for i, (b, text) in enumerate(zip(marks, texts)):
        if i % every == 0:
            fig.add_annotation(x=max(b["n"] - 0.5, x_lo), y=1.0, yref="paper", yanchor="bottom", xanchor="left",
                               showarrow=False, text=text, font={"size": 10, "color": "#888"}, name="round")
    for k, fork, name in forks:  # a second row above the round labels
        # A line that parts during the setup is drawn from where play starts, as every line is: its mark stands
        # there (plotly hides a mark off the axis), saying so.
        at = max(fork, x_lo)
        fig.add_vline(x=at, line={"color": "#555", "dash": branch_dash(k), "width": 1})
        fig.add_annotation(x=at, y=1.0, yref="paper", yanchor="bottom", yshift=14 * k + 4, showarrow=False,
                           xanchor="left" if at > fork else "auto",
                           text=f"{name} parts after #{fork}{', in the setup' if at > fork else ''}",
                           font={"size": 11, "color": "#555"}, name="fork")
    outcome = outcome_of(main)
    points = turning_points(main_rows, [crew] if crew else outcome["winners"], top)
    for tp in points:
        if crew and tp["kind"] == "lead":
            continue  # one crew: nobody to lead
        dx, dy = labels.arrowed(tp["n"], tp["score"], tp["label"], 12, up_first=tp["kind"] == "lead")
        fig.add_annotation(
            x=tp["n"], y=tp["score"], text=tp["label"], showarrow=True, arrowhead=2, ax=dx, ay=dy,
            font={"color": colors[tp["player"]], "size": 12},
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
        sub = f"game {main.game.id}, {what} {branches} — {_clip(ends, 110)}"
    style(fig, title, "event number", score_label(main.ruleset), subtitle=sub)
    labels.frame_layout(fig)
    fig.update_layout(meta={"players": names, "game": main.game.id})
    return fig


GAP = 9
"""Pixels between a line's end (and the player's marker there) and its label."""


class EndLabels:
    """Each line's final value written at its end, and the arrowed labels placed after them, on a figure with one
    x and one y axis: the right margin is sized for the labels at the right edge, the labels are spread apart
    vertically, and ``arrowed`` finds a free spot for each further label (``analysis/labels.py``)."""

    def __init__(self, fig: Any, finals: Sequence[tuple[str, float, float, str]], x_range: tuple[float, float],
                 y_range: tuple[float, float], *, height: int = 700, size: int = 12) -> None:
        right = max([text_size(t, size)[0] + GAP + 8 for _c, x, _y, t in finals if x >= x_range[1]] + [40])
        self.frame = frame = Frame(WIDTH, height, 80, right, 120, 110, x_range, y_range)
        self.taken: list[Box] = []
        sizes = [text_size(t, size)[1] for *_, t in finals]
        wanted = [frame.py(y) for _c, _x, y, _t in finals]
        got = spread(wanted, sizes, frame.top, frame.height - frame.bottom)
        for (colour, x, y, text), want, at, h in zip(finals, wanted, got, sizes):
            fig.add_annotation(x=x, y=y, text=text, showarrow=False, xanchor="left", xshift=GAP, yshift=want - at,
                               font={"color": colour, "size": size}, name="final")
            w = text_size(text, size)[0]
            self.taken.append(Box(frame.px(x) + GAP, at - h / 2, frame.px(x) + GAP + w, at + h / 2))

    def arrowed(self, x: float, y: float, text: str, size: int, *, up_first: bool = True) -> tuple[float, float]:
        """Where (ax, ay in pixels) an arrowed label pointing at (x, y) covers no label placed so far."""
        w, h = text_size(text, size)
        x0, y0 = self.frame.px(x), self.frame.py(y)
        prefer = AROUND if up_first else AROUND[1:2] + AROUND[:1] + AROUND[2:]
        spot = place(x0, y0, w, h, self.taken, self.frame.area, prefer)
        dx, dy, box = spot if spot else (*prefer[0], centred_box(x0 + prefer[0][0], y0 + prefer[0][1], w, h))
        self.taken.append(box)
        return dx, dy

    def frame_layout(self, fig: Any) -> None:
        """The size, margins and axis ranges the labels were placed for; the legend below the plot, its entries
        wide enough to show each line's dash and marker."""
        f = self.frame
        fig.update_layout(height=f.height,
                          margin={"l": f.left, "r": f.right, "t": f.top, "b": f.bottom},
                          legend={"orientation": "h", "x": 0, "xanchor": "left", "y": -0.17, "yanchor": "top",
                                  "itemsizing": "constant", "itemwidth": 60})
        fig.update_xaxes(range=list(f.x_range), autorange=False)
        if f.x_range[1] - f.x_range[0] <= 10:  # a short line: ticks on whole events, never "#0.2"
            fig.update_xaxes(tick0=0, dtick=1)
        fig.update_yaxes(range=list(f.y_range), autorange=False)


NOTHING_YET = {"battles": ("no battle has been fought", "no battle was fought"),
               "auction": ("no auction has been held", "no auction was held")}
"""What a ruleset plot with nothing to draw says, by plot kind: on a line still being played (stopped before its first
battle or auction), and on one whose game is over."""


def nothing_yet(fig: Any, line: Any, kind: str) -> str | None:
    """When ``fig`` has no point to draw (a line stopped before its first battle or auction), write in its middle
    why, and return that sentence (None when there is something to draw): an empty frame alone reads as a broken
    plot."""
    from agon.core.engine import Over

    if any(len(getattr(t, "x", None) or ()) for t in fig.data):
        return None
    over = isinstance(line.ruleset.pending(line.state), Over)
    none = NOTHING_YET.get(kind, (f"nothing of {kind} has happened", f"nothing of {kind} happened"))[over]
    text = (f"Nothing to draw{'' if over else ' yet'}: {none} on branch {line.branch.name}, which"
            f" {'ended' if over else 'stops'} at #{line.head.depth} ({line.status()})")
    top = fig.layout.yaxis.domain or (0.0, 1.0)  # in the first (upper) panel of a figure of several
    fig.add_annotation(x=0.5, y=(top[0] + top[1]) / 2, xref="paper", yref="paper", showarrow=False, name="nothing yet",
                       text=_clip(text, 150), font={"size": 14, "color": "#555"})
    return text


CREW_COLOR = "#333333"
"""The crew's line in a co-operative game: dark grey, no player's colour."""
CREW_MARK = Mark(CREW_COLOR, "circle", "solid")


def shared_score(ruleset: str) -> str | None:
    """The name a co-operative ruleset gives its one shared score ("crew"), or None (the ruleset's own
    ``shared_score``, read by ``core.summary.shared_name``)."""
    from agon.core.summary import shared_name

    return shared_name(ruleset)


def crew_rows(rows: Sequence[dict[str, Any]], crew: str) -> list[dict[str, Any]]:
    """Timeline rows with the players' equal scores folded into the one shared score."""
    return [{**r, "scores": {crew: next(iter(r["scores"].values()))} if r["scores"] else {}} for r in rows]


OFFLINE_CONFIG = {"displaylogo": False, "showSendToCloud": False}
"""plotly.js's options for a page agon writes: no "Share chart..." button in the tool bar. plotly.js 3 shows one by
default, and it uploads the chart (a game's data, the win chances read from the full state) to Plotly Cloud: a page
that is handed out, and opens offline, sends nothing anywhere. The study page's script says the same for its charts."""


def write(fig: Any, path: str, png: bool = False) -> None:
    """Write ``fig`` as a self-contained HTML file (plotly's script inlined: opens offline), or as a PNG, both
    ``WIDTH`` pixels wide.

    A PNG needs kaleido and a Chromium it can start; ``CannotRender`` says what is missing."""
    if not png:
        # The figure is laid out for WIDTH pixels (its labels placed for that width), so the page draws it so wide;
        # the figure itself keeps no width, so a page that embeds it (the study page) can size it to its box.
        fig.write_html(path, include_plotlyjs=True, full_html=True, default_width=f"{WIDTH}px",
                       default_height=f"{fig.layout.height or 700}px", config=OFFLINE_CONFIG)
        return
    try:
        import kaleido  # noqa: F401
    except ImportError:
        raise CannotRender("kaleido is not installed (pip install 'agon[png]')") from None
    try:
        fig.write_image(path, format="png", width=fig.layout.width or WIDTH, height=fig.layout.height or 700, scale=1)
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

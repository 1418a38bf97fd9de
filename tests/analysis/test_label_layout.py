"""Every figure of every shipped replay, drawn by plotly in a real browser: no label covers another label, the
legend, an axis title or the tick labels; each line's final value is written at its end; player colours mean
players only. The boxes are the ones plotly drew (getBoundingClientRect), not estimates.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agon.analysis.figures import CREW_COLOR, scores_figure, write
from agon.analysis.games import figures_for
from agon.analysis.palette import PALETTE
from agon.analysis.stats import aggregate, game_summary
from agon.analysis.stats_plot import stats_figure
from agon.core.service import Service
from agon.core.transfer import import_data
from agon.events.store import Store

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = sorted((ROOT / "replays").glob("*.jsonl"))

BOXES = """() => {
  const box = (el, kind, text) => { const r = el.getBoundingClientRect();
    return {kind, text: text ?? el.textContent, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
  const out = [];
  document.querySelectorAll('g.annotation').forEach(g => {
    const t = g.querySelector('text.annotation-text');
    if (t && t.textContent.trim()) out.push(box(t, 'label'));
  });
  document.querySelectorAll('g.legend')
    .forEach(g => out.push(box(g.querySelector('rect.bg') || g, 'legend', 'legend')));
  document.querySelectorAll('.infolayer [class*="title"] text, text.gtitle').forEach(t => {
    if (t.textContent.trim()) out.push(box(t, 'title'));
  });
  document.querySelectorAll('.xtick text, .ytick text, .x2tick text, .y2tick text').forEach(t => {
    if (t.textContent.trim()) out.push(box(t, 'tick'));
  });
  return out.filter(b => b.x1 > b.x0 && b.y1 > b.y0);
}"""


def _hit(a: dict, b: dict, pad: float = 1.0) -> bool:
    return not (a["x1"] - pad <= b["x0"] or b["x1"] - pad <= a["x0"] or a["y1"] - pad <= b["y0"]
                or b["y1"] - pad <= a["y0"])


def collisions(boxes: list[dict]) -> list[str]:
    """Pairs that overlap, where at least one is a label (an annotation) or the legend."""
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            kinds = {a["kind"], b["kind"]}
            if kinds <= {"tick", "title"}:
                continue  # plotly lays out its own axes
            if _hit(a, b):
                found.append(f"{a['kind']} {a['text']!r} overlaps {b['kind']} {b['text']!r}")
    return found


@pytest.fixture(scope="module")
def replay_figures(tmp_path_factory):
    """(replay, kind, figure, html file) for every figure of every shipped replay."""
    folder = tmp_path_factory.mktemp("figures")
    store = Store(f"sqlite:///{folder / 'agon.db'}")
    svc = Service(store)
    out = []
    for path in REPLAYS:
        line = svc.load(import_data(svc, path.read_bytes()).game_id)
        kinds = {"scores": lambda ln: scores_figure([ln]), **figures_for(line.ruleset.name),
                 "stats": lambda ln: stats_figure({**aggregate([game_summary(ln)]), "ruleset": ln.ruleset.name},
                                                  f"{ln.ruleset.title}: win rates and game length")}
        for kind, draw in kinds.items():
            fig = draw(line)
            target = folder / f"{path.stem}-{kind}.html"
            write(fig, str(target))
            out.append((path.stem, kind, fig, target, line))
    store.close()
    return out


def test_there_are_figures_of_every_ruleset(replay_figures):
    assert {(name.split("-")[0], kind) for name, kind, *_ in replay_figures} >= {
        ("pergamemnon", "scores"), ("pergamemnon", "battles"), ("perikles", "battles"), ("peloponnes", "auction"),
        ("adamastor", "voyage"), ("adamastor", "scores"), ("perikles", "stats")}


def test_no_label_overlaps_another_label_the_legend_or_an_axis_title(replay_figures, page):
    problems = []
    for name, kind, _fig, target, _line in replay_figures:
        page.goto(target.as_uri())
        page.wait_for_selector("g.infolayer")
        boxes = page.evaluate(BOXES)
        assert any(b["kind"] == "title" for b in boxes), (name, kind)
        problems += [f"{name} {kind}: {c}" for c in collisions(boxes)]
    assert page.page_errors == []
    assert problems == []


def test_the_collision_finder_sees_an_overlap(page, tmp_path):
    import plotly.graph_objects as go

    fig = go.Figure(go.Scatter(x=[0, 1], y=[0, 1], name="a"))
    fig.add_annotation(x=0.5, y=0.5, text="one label", showarrow=False)
    fig.add_annotation(x=0.5, y=0.5, text="another", showarrow=False)
    target = tmp_path / "overlap.html"
    write(fig, str(target))
    page.goto(target.as_uri())
    page.wait_for_selector("g.infolayer")
    assert collisions(page.evaluate(BOXES)) == ["label 'one label' overlaps label 'another'"]


def test_every_line_ends_with_its_final_value_and_colours_mean_players(replay_figures):
    for name, kind, fig, _target, line in replay_figures:
        if kind != "scores":
            continue
        finals = {a.text for a in fig.layout.annotations if a.name == "final"}
        lines = [t for t in fig.data if "lines" in t.mode]
        assert len(finals) == len(lines), (name, finals)
        for t in lines:
            value = t.y[-1]
            shown = str(int(value)) if float(value).is_integer() else f"{value:g}"
            assert f"{t.meta['player']} {shown}" in finals, (name, t.name)
            want = CREW_COLOR if line.ruleset.name == "adamastor" else PALETTE[line.created.names.index(t.name)]
            assert t.line.color == want, (name, t.name)


def player_cues(fig, players) -> dict[str, set[str]]:
    """What tells each player's traces apart other than colour: their marker shapes (a filled or hollow marker is
    one shape) and their line dashes, by the player a trace is drawn for (its legend group, or its meta's player)."""
    cues: dict[str, set[str]] = {}
    for t in fig.data:
        meta = t.meta if isinstance(t.meta, dict) else {}
        p = t.legendgroup if t.legendgroup in players else meta.get("player")
        if p not in players:
            continue
        got = cues.setdefault(p, set())
        symbols = t.marker.symbol if t.type == "scatter" and t.marker.symbol is not None else ()
        line = t.line if t.type == "scatter" else None
        for s in [symbols] if isinstance(symbols, str) else symbols:
            got.add(s.removesuffix("-open"))
        if line is not None and "lines" in t.mode and line.dash:
            got.add(line.dash)
    return cues


def test_every_player_is_told_apart_by_more_than_colour_in_every_figure(replay_figures):
    from agon.analysis.palette import player_marks

    drew = set()
    for name, kind, fig, _target, line in replay_figures:
        players = list(line.created.names)
        cues = player_cues(fig, players)
        if not cues:
            continue  # no trace stands for a player (roles, sides, the crew): players are named in words
        drew.add(kind)
        marks = player_marks(players)
        for p, got in cues.items():
            # the player's own shape (and dash, on a line) in every figure: one encoding per player
            assert got <= {marks[p].symbol, marks[p].dash}, (name, kind, p, got)
            assert marks[p].symbol in got, (name, kind, p, got)
        for p in cues:
            for q in cues:
                assert p == q or not cues[p] & cues[q], (name, kind, p, q, cues)
        # each line that stands for a player is named at its end
        lines = {p for p in cues if any(t.type == "scatter" and "lines" in t.mode and t.legendgroup == p
                                            for t in fig.data)}
        finals = [a.text for a in fig.layout.annotations if a.name == "final"]
        assert all(any(t == p or t.startswith(f"{p} ") for t in finals) for p in lines), (name, kind, finals)
    assert drew >= {"scores", "battles", "auction"}

"""The replay viewer: one self-contained HTML file that steps through a line.

The page holds plotly's script (inlined, so it opens offline), the score timeline with a marker at the current
event, and for every event its number, round, actor, sentence, the scores after it, and the state after it as each
perspective sees it (in full and as each player sees it, or only as one chosen player sees it: a file made for one
player carries nothing that player may not see). Identical states are stored once.

Controls: a slider, buttons (first, back, play, next, last), the arrow keys, a click on the timeline, a button
per key moment (the turning points of the score timeline), and the address's ``#step=N``, which the page keeps up
to date so a position can be shared.
"""

from __future__ import annotations

import html
import json
from typing import Any

from agon.analysis.palette import player_colors
from agon.analysis.timeline import line_timeline, outcome_of, series, turning_points
from agon.core.engine import PUBLIC

FULL = "(everything)"
EVERYONE = "(every player)"
"""The perspective of a viewer without a seat (``PUBLIC``): what every player sees (the server's spectators)."""


def viewer_data(line: Any, as_player: str | None = None) -> dict[str, Any]:
    """Everything the page shows, as plain data (what the tests read)."""
    rs = line.ruleset
    rows = line_timeline(line)
    steps = line.steps()
    players = list(line.created.names)
    if as_player is None:
        perspectives = [FULL, *players]
    else:
        perspectives = [EVERYONE if as_player == PUBLIC else as_player]
    states: list[str] = []
    seen: dict[str, int] = {}
    views: dict[str, list[int]] = {p: [] for p in perspectives}
    for st in steps:
        for p in perspectives:
            text = json.dumps(rs.view(st.after, None if p == FULL else PUBLIC if p == EVERYONE else p), ensure_ascii=False, sort_keys=False,
                              default=str)
            k = seen.get(text)
            if k is None:
                k = seen[text] = len(states)
                states.append(text)
            views[p].append(k)
    names = series(rows)
    colors = player_colors(players, names)
    return {
        "title": rs.title,
        "game": line.game.id,
        "branch": line.branch.name,
        "status": line.status(),
        "players": names,
        "colors": {p: colors[p] for p in names},
        "perspectives": perspectives,
        "steps": [{k: r[k] for k in ("n", "round", "actor", "text", "scores")} for r in rows],
        "moments": [{"n": p["n"], "label": p["label"]} for p in turning_points(rows, outcome_of(line)["winners"])],
        "views": views,
        "states": [json.loads(s) for s in states],
    }


def build_viewer(line: Any, as_player: str | None = None) -> str:
    """The viewer page for ``line`` as one HTML string."""
    import plotly.io as pio
    from plotly.offline import get_plotlyjs

    from agon.analysis.figures import scores_figure

    if as_player not in (None, PUBLIC) and as_player not in line.created.names:
        raise ValueError(f"no player {as_player!r} in this game; its players: {', '.join(line.created.names)}")
    data = viewer_data(line, as_player)
    fig = scores_figure([line])
    fig.add_vline(x=0, line={"color": "#222", "width": 2}, name="now")
    fig.update_layout(height=380, margin={"t": 80, "b": 45})
    seen_as = "" if as_player is None else f", as {as_player or 'every player'} sees it"
    page = _PAGE
    for key, value in {
        "@TITLE@": html.escape(f"{data['title']}: game {data['game']}, branch {data['branch']}{seen_as}"),
        "@STATUS@": html.escape(data["status"]),
        "@PLOTLY@": get_plotlyjs(),
        "@DATA@": _script_json(json.dumps(data, ensure_ascii=False)),
        "@FIGURE@": _script_json(pio.to_json(fig, validate=False)),
    }.items():
        page = page.replace(key, value)
    return page


def _script_json(text: str) -> str:
    """JSON that cannot end the script element it sits in: every "<" (only ever inside a string) escaped."""
    return text.replace("<", "\\u003c")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 1rem 1.5rem; color: #222; }
  h1 { font-size: 1.3rem; margin: 0 0 .2rem; }
  .sub { color: #555; margin: 0 0 .8rem; }
  #controls { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin-bottom: .6rem; }
  #controls button { font-size: 1rem; padding: .25rem .7rem; }
  #slider { flex: 1 1 20rem; }
  #step-label { font-variant-numeric: tabular-nums; min-width: 13rem; }
  #narration { font-size: 1.15rem; padding: .6rem .8rem; background: #f4f6f8; border-left: 4px solid #0072B2;
               margin: .4rem 0 .8rem; min-height: 1.5rem; }
  #narration .who { font-weight: 600; }
  #moments { margin: 0 0 .4rem; color: #555; }
  #moments button { margin-left: .3rem; font-size: .9rem; }
  .cols { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
  #scores table { border-collapse: collapse; }
  #scores td, #scores th { padding: .2rem .6rem; text-align: left; }
  #scores td.score { text-align: right; font-variant-numeric: tabular-nums; font-weight: 600; }
  #scores td.delta { color: #555; font-variant-numeric: tabular-nums; }
  .swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .4rem; }
  #state { flex: 1 1 28rem; max-height: 34rem; overflow: auto; border: 1px solid #ddd; padding: .4rem .6rem; }
  #state table { border-collapse: collapse; margin: .1rem 0; }
  #state td, #state th { border: 1px solid #e3e3e3; padding: .1rem .4rem; vertical-align: top; text-align: left; }
  #state th { background: #fafafa; font-weight: 600; }
  .key { font-weight: 600; color: #333; }
  .muted { color: #888; }
</style>
</head>
<body>
<h1>@TITLE@</h1>
<p class="sub">@STATUS@</p>
<div id="controls">
  <button id="first" title="first event (Home)">|&#x25C0; first</button>
  <button id="prev" title="previous event (left arrow)">&#x25C0; back</button>
  <button id="play" title="play / pause (space)">play</button>
  <button id="next" title="next event (right arrow)">next &#x25B6;</button>
  <button id="last" title="last event (End)">last &#x25B6;|</button>
  <input id="slider" type="range" min="0" value="0" step="1" aria-label="event">
  <span id="step-label"></span>
  <label id="as-label">state as seen by <select id="as"></select></label>
</div>
<p id="moments"></p>
<p id="narration" aria-live="polite"></p>
<div id="timeline"></div>
<div class="cols">
  <div id="scores"></div>
  <div id="state"></div>
</div>
<script>@PLOTLY@</script>
<script type="application/json" id="replay-data">@DATA@</script>
<script type="application/json" id="figure-data">@FIGURE@</script>
<script>
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const figure = JSON.parse(document.getElementById("figure-data").textContent);
  const steps = data.steps, last = steps.length - 1;
  const slider = document.getElementById("slider");
  const select = document.getElementById("as");
  const plot = document.getElementById("timeline");
  let current = 0, timer = null, plotted = false;
  const nowShape = figure.layout.shapes.length - 1;

  slider.max = String(last);
  for (const p of data.perspectives) {
    const o = document.createElement("option");
    o.value = p; o.textContent = p;
    select.appendChild(o);
  }
  if (data.perspectives.length === 1) select.disabled = true;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function num(x) {
    if (x === null || x === undefined) return "-";
    return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
  }
  function scalar(v) { return v === null || ["string", "number", "boolean"].includes(typeof v); }
  function flat(v) {
    if (scalar(v)) return true;
    if (Array.isArray(v)) return v.every(scalar);
    return Object.values(v).every(scalar);
  }
  function text(v) {
    if (v === null || v === undefined) return "-";
    if (typeof v === "number") return num(v);
    if (Array.isArray(v)) return v.length ? v.map(text).join(", ") : "(none)";
    if (typeof v === "object") {
      const ks = Object.keys(v);
      return ks.length ? ks.map(k => k + ": " + text(v[k])).join(", ") : "(none)";
    }
    return String(v);
  }
  function render(v) {
    if (flat(v)) return el("span", text(v));
    if (Array.isArray(v) && v.every(x => x && typeof x === "object" && !Array.isArray(x) && flat(x))) {
      const cols = [];
      v.forEach(r => Object.keys(r).forEach(k => { if (!cols.includes(k)) cols.push(k); }));
      const t = el("table"), head = el("tr");
      cols.forEach(c => head.appendChild(el("th", c)));
      t.appendChild(head);
      v.forEach(r => {
        const tr = el("tr");
        cols.forEach(c => tr.appendChild(el("td", text(r[c]))));
        t.appendChild(tr);
      });
      return t;
    }
    const t = el("table");
    const named = x => x && typeof x === "object" && !Array.isArray(x) && typeof x.name === "string";
    const entries = Array.isArray(v) ? v.map((x, i) => [named(x) ? x.name : String(i + 1), x]) : Object.entries(v);
    for (const [k, x] of entries) {
      const tr = el("tr");
      tr.appendChild(el("th", k));
      const td = el("td");
      td.appendChild(render(x));
      tr.appendChild(td);
      t.appendChild(tr);
    }
    return t;
  }

  function showScores(i) {
    const s = steps[i], prev = i > 0 ? steps[i - 1] : null;
    const t = el("table"), head = el("tr");
    ["player", "score", "change"].forEach(h => head.appendChild(el("th", h)));
    t.appendChild(head);
    data.players.forEach(p => {
      const tr = el("tr");
      tr.dataset.player = p;
      const name = el("td");
      const sw = el("span", null, "swatch");
      sw.style.background = data.colors[p];
      name.appendChild(sw);
      name.appendChild(document.createTextNode(p));
      tr.appendChild(name);
      tr.appendChild(el("td", num(s.scores[p]), "score"));
      const d = prev && prev.scores[p] !== undefined ? s.scores[p] - prev.scores[p] : 0;
      tr.appendChild(el("td", d ? (d > 0 ? "+" : "−") + num(Math.abs(d)) : "", "delta"));
      t.appendChild(tr);
    });
    const box = document.getElementById("scores");
    box.replaceChildren(el("h3", "Scores after event #" + s.n), t);
  }

  function showState(i) {
    const who = select.value;
    const view = data.states[data.views[who][i]];
    const box = document.getElementById("state");
    const title = who === data.perspectives[0] && data.perspectives.length > 1
      ? "State after #" + steps[i].n + " (everything)" : "State after #" + steps[i].n + " as " + who + " sees it";
    box.replaceChildren(el("h3", title), render(view));
  }

  if (data.moments.length) {
    const box = document.getElementById("moments");
    box.appendChild(document.createTextNode("Key moments:"));
    data.moments.forEach(m => {
      const b = el("button", "#" + m.n + " " + m.label);
      b.dataset.step = String(m.n);
      b.addEventListener("click", () => { stop(); show(m.n); });
      box.appendChild(b);
    });
  }

  function show(i) {
    current = Math.max(0, Math.min(last, i));
    const s = steps[current];
    slider.value = String(current);
    document.getElementById("step-label").textContent =
      "event " + s.n + " of " + steps[last].n + " \u00b7 round " + s.round;
    const nar = document.getElementById("narration");
    const who = (s.actor && s.actor !== "chance" && s.actor !== "setup") ? s.actor + "'s decision" : s.actor;
    nar.replaceChildren(el("span", "#" + s.n + " ", "who"), el("span", s.text, "text"),
                        el("span", who ? " (" + who + ")" : "", "muted"));
    nar.dataset.step = String(s.n);
    showScores(current);
    showState(current);
    if (plotted) {
      const upd = {};
      upd["shapes[" + nowShape + "].x0"] = s.n;
      upd["shapes[" + nowShape + "].x1"] = s.n;
      Plotly.relayout(plot, upd);
    }
    if (history.replaceState) history.replaceState(null, "", "#step=" + s.n);
    document.body.dataset.step = String(s.n);
  }

  function stop() {
    if (timer) { clearInterval(timer); timer = null; document.getElementById("play").textContent = "play"; }
  }
  function play() {
    if (timer) { stop(); return; }
    if (current >= last) show(0);
    document.getElementById("play").textContent = "pause";
    timer = setInterval(() => { if (current >= last) stop(); else show(current + 1); }, 600);
  }

  document.getElementById("first").addEventListener("click", () => { stop(); show(0); });
  document.getElementById("prev").addEventListener("click", () => { stop(); show(current - 1); });
  document.getElementById("next").addEventListener("click", () => { stop(); show(current + 1); });
  document.getElementById("last").addEventListener("click", () => { stop(); show(last); });
  document.getElementById("play").addEventListener("click", play);
  slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
  select.addEventListener("change", () => showState(current));
  document.addEventListener("keydown", e => {
    if (e.target === select) return;
    if (e.key === "ArrowRight") { stop(); show(current + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { stop(); show(current - 1); e.preventDefault(); }
    else if (e.key === "Home") { stop(); show(0); }
    else if (e.key === "End") { stop(); show(last); }
    else if (e.key === " " && e.target.tagName !== "BUTTON") { play(); e.preventDefault(); }
  });

  function fromAddress() {
    const m = /step=(\\d+)/.exec(location.hash);
    return m ? Number(m[1]) : null;
  }
  window.addEventListener("hashchange", () => {
    const n = fromAddress();
    if (n !== null && n !== current) { stop(); show(n); }
  });
  show(fromAddress() || 0);
  Plotly.newPlot(plot, figure.data, figure.layout, {responsive: true, displaylogo: false}).then(() => {
    plotted = true;
    show(current);
    plot.on("plotly_click", ev => { if (ev.points.length) { stop(); show(Math.round(ev.points[0].x)); } });
    document.body.dataset.ready = "1";
  });
})();
</script>
</body>
</html>
"""

"""The study page: one offline HTML file that shows a whole game as a chess study shows one.

- a move list: every event told in a sentence, grouped by the round it happened in (headed with the ruleset's word
  for it, the data's ``round_word``: "Turn 2" for Perikles; "Setup" for the setup), the current one highlighted,
  each clickable, with the notes and glyphs (core/notes.py) in place; where other lines leave the one shown, their
  first moves are listed as variations, and clicking one enters that line;
- the tree of lines (every branch, or those asked for), each shown where it forks from its parent;
- the score timeline of the line shown, the current position marked, clickable anywhere on the plot, with the key
  moments; the win-chance chart where an analysis of the line is cached (``agon analyse``), and under it in words
  the decisions it marked and those it did not for the figures' noise, with the run that would tell;
- the state after the current event as one player sees it (or in full), laid out as a table would be: each
  player's area side by side, then the rest of the table (market, board, decks), with cards by name;
- keys: left/right step, Home/End, up/down switch between the lines that part at the current position; the address's
  fragment (``#line=NAME&step=N``) names the position, so a link opens it and a reload restores it;
- for a keyboard and a screen reader: every move, line and variation a link to its position, the move shown the move
  list's one stop of the Tab key (the arrows go on from there), the controls named, the plots one named picture each
  whose words are the move list and the state (and, for the win chances, a sentence of them after the event shown).

Size: plotly.js is included once; events shared by several lines are stored once; each state is stored as the
changes from the state before it where that is smaller than the state itself. A page made ``--as`` a player holds
only that player's view of every state, that player's own record of every event, and no win chances (they are
computed from the full state). A page made as ``PUBLIC`` (a viewer without a seat: ``agon serve``'s spectators)
holds only what every player sees: no hand, no face-down card, no deck order, no hidden draw in a sentence.
``None`` (the default, for the owner of the store at the command line) is everything, with every player's view.

``window.agonStudy.update(data)`` redraws the page with newer data of the same game (what ``agon serve``'s
spectators' page does as the game goes on), following the newest event if the page was showing the last one.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import msgspec

from agon.analysis.figures import CREW_MARK, shared_score
from agon.analysis.palette import player_marks
from agon.analysis.timeline import outcome_of, score_timeline, series, turning_points
from agon.core.engine import PUBLIC, narrate_as
from agon.core.summary import round_word, score_unit

FULL = "(everything)"
EVERYONE = "(every player)"
"""The perspective of a viewer without a seat (``PUBLIC``): what every player sees."""
_ABSENT = object()


# -- state changes ---------------------------------------------------------------------------------------------

def diff(a: Any, b: Any, path: tuple = ()) -> list[list[Any]]:
    """The changes that turn ``a`` into ``b``: ``[path, value]`` sets, ``[path]`` deletes (paths of dict keys and
    list indices). Lists of the same length are compared item by item, others replaced whole."""
    if isinstance(a, dict) and isinstance(b, dict):
        ops: list[list[Any]] = []
        for k, v in b.items():
            old = a.get(k, _ABSENT)
            if old is _ABSENT:
                ops.append([[*path, k], v])
            elif old != v:
                ops += diff(old, v, (*path, k))
        ops += [[[*path, k]] for k in a if k not in b]
        return ops
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and a:
        ops = []
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                ops += diff(x, y, (*path, i))
        return ops
    return [] if a == b else [[list(path), b]]


def patch(a: Any, ops: list[list[Any]]) -> Any:
    """``a`` with the changes of ``diff`` applied (a new value; ``a`` is not changed)."""
    out = json.loads(json.dumps(a))
    for op in ops:
        path = op[0]
        if not path:
            out = json.loads(json.dumps(op[1]))
            continue
        target = out
        for k in path[:-1]:
            target = target[k]
        if len(op) == 1:
            del target[path[-1]]
        else:
            target[path[-1]] = op[1]
    return out


def states_of(data: dict[str, Any], perspective: str) -> list[Any]:
    """Every node's state as ``perspective`` sees it, rebuilt from the page's data (what the page's script does)."""
    out: list[Any] = []
    for i, (kind, value) in enumerate(data["states"][perspective]):
        out.append(value if kind == 0 else patch(out[data["nodes"][i]["parent"]], value))
    return out


_encode = msgspec.json.Encoder().encode


def _compact(values: list[Any], parents: list[int | None]) -> list[list[Any]]:
    """Each value whole (``[0, value]``) or as changes from its parent node's (``[1, ops]``), whichever is shorter."""
    out = []
    for v, p in zip(values, parents):
        whole = [0, v]
        if p is not None:
            ops = diff(values[p], v)
            if len(_encode(ops)) < len(_encode(v)):
                out.append([1, ops])
                continue
        out.append(whole)
    return out


# -- the data --------------------------------------------------------------------------------------------------

def study_data(lines: list[Any], notes: dict[str, tuple[str, str]] | None = None, as_player: str | None = None,
               current: str | None = None, chances: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything the page shows, as plain data (what the tests read).

    ``lines``: the lines to show (``core.service.Line``, the first is where the page opens unless ``current``
    names another); ``notes``: event id -> (glyph, text) of the notes shown; ``chances``: line name -> the plotly
    figure of its win chances, where an analysis exists (shown only on a page of everything); ``as_player``: None
    for everything, a player's name for what that player sees, ``PUBLIC`` for what every player sees."""
    first = lines[0]
    rs = first.ruleset
    players = list(first.created.names)
    if as_player not in (None, PUBLIC) and as_player not in players:
        raise ValueError(f"no player {as_player!r} in this game; its players: {', '.join(players)}")
    perspectives = [FULL, *players] if as_player is None else [EVERYONE if as_player == PUBLIC else as_player]
    viewer = as_player  # None: everything; PUBLIC: what every player sees
    index: dict[str, int] = {}
    nodes: list[dict[str, Any]] = []
    views: dict[str, list[Any]] = {p: [] for p in perspectives}
    parents: list[int | None] = []
    out_lines = []
    # a co-operative game's one score (figures.shared_score: Adamastor's crew), drawn once and credited to the crew,
    # as `agon plot scores` draws it: the players' equal lines each took the swings, named now one, now the other
    crew = shared_score(rs.name)
    for line in lines:
        path: list[int] = []
        rows = None
        for st, env in zip(line.steps(), line.envelopes):
            k = index.get(env.id) if viewer is None else None
            if k is None:
                if rows is None:
                    rows = {r["n"]: r for r in score_timeline(rs, line.steps())}
                row = rows[st.index]
                before = st.before if st.before is not None else st.after
                # "round": the round after the event (the state shown); "in_round": the round it happened in, which
                # heads it in the move list and the step label names (the income that ends round 1 is round 1's,
                # though round 2 follows it; the setup's last deal the setup's), as the plots' hovers do
                node = {"n": st.index, "round": row["round"], "in_round": rs.round(before), "actor": st.actor,
                        "text": narrate_as(rs, before, st.event, viewer),
                        "scores": {**row["scores"], crew: next(iter(row["scores"].values()))} if crew and row["scores"]
                        else row["scores"],
                        "parent": path[-1] if path else None}
                if notes and env.id in notes:
                    node["glyph"], node["note"] = notes[env.id]
                seen = {p: _plain(rs.view(st.after, _seen_by(p))) for p in perspectives}
                # a page made as a player holds one node for events that read alike to them after the same past
                # (the same sentence, actor, scores, note and state as they see it): where two lines part at a
                # face-down choice made again, the same or another, is what they may not see
                key = env.id if viewer is None else _encode([node, seen])
                k = index.get(key)
                if k is None:
                    k = index[key] = len(nodes)
                    nodes.append(node)
                    parents.append(node["parent"])
                    for p in perspectives:
                        views[p].append(seen[p])
            path.append(k)
        tl = [{key: nodes[k][key] for key in ("n", "round", "actor", "text", "scores")} for k in path]
        winners = outcome_of(line)["winners"]
        if crew:
            winners = [crew]
            tl = [{**r, "scores": {crew: r["scores"][crew]} if crew in r["scores"] else {}} for r in tl]
        out_lines.append({
            "name": line.branch.name, "parent": line.branch.parent_branch, "path": path,
            "status": line.status(),
            "moments": [{"n": m["n"], "label": m["label"], "anchor": moment_anchor(m["n"], tl[-1]["n"])}
                        for m in turning_points(tl, winners) if not (crew and m["kind"] == "lead")],
        })
    names = {ln["name"] for ln in out_lines}
    by_name = {ln["name"]: ln for ln in out_lines}
    _attach(out_lines, by_name)
    labels = _names(rs.name, first.created.cards, views)
    scored = [p for p in series([{"scores": nd["scores"]} for nd in nodes]) if p != crew]
    marks = player_marks(players, scored)
    plotted = [crew] if crew and scored else scored
    if crew:
        marks[crew] = CREW_MARK
    open_at = current if current in names else out_lines[0]["name"]
    return {
        "title": rs.title,
        "game_title": first.game.title,  # the title the game was given ('Friday night'), or ""
        "round_word": round_word(rs),
        # what a score is where it is no points (an Adamastor voyage's progress), after each number and, alone, as
        # the axis title: the page's plot is too short for the plots' longer one ('score (..., the crew's together)')
        "score_unit": score_unit(rs),
        "score_label": score_unit(rs).strip() or "score",
        "game": first.game.id,
        "as": as_player,
        "players": scored,
        "plotted": plotted,  # the timeline's lines: each player's, or a co-operative game's one (the crew's)
        "crew": crew,  # the name of a co-operative game's one score ('crew'), None where each player has their own
        "colors": {p: marks[p].color for p in [*scored, *plotted]},
        "marks": {p: [marks[p].symbol, marks[p].dash] for p in [*scored, *plotted]},
        "perspectives": perspectives,
        "current": open_at,
        "nodes": nodes,
        "lines": out_lines,
        "states": {p: _compact(views[p], parents) for p in perspectives},
        "names": labels,
        "chances": {} if as_player is not None else {k: v for k, v in (chances or {}).items() if k in names},
    }


def _shared(a: list[int], b: list[int]) -> int:
    """How many events two lines' paths share from the start."""
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            break
        shared += 1
    return shared


def _attach(out_lines: list[dict[str, Any]], by_name: dict[str, dict[str, Any]]) -> None:
    """Each line's parent on the page and ``fork``, the position of the last event it shares with it (None for a
    root). A line whose parent branch the page leaves out (``-b whatif -b main``, whatif branched from a line
    branched from main) hangs from the line shown that shares most of its events, where no cycle results: the tree
    still shows where it parts from the lines shown, not a second line from the start."""
    missing = []
    for ln in out_lines:
        if ln["parent"] not in by_name:
            if ln["parent"] is not None:
                missing.append(ln)
            ln["parent"] = None

    def above(ln: dict[str, Any]) -> set[str]:
        out = set()
        while ln["parent"] is not None and ln["parent"] not in out:
            out.add(ln["parent"])
            ln = by_name[ln["parent"]]
        return out

    for ln in missing:
        candidates = [other for other in out_lines if other is not ln and ln["name"] not in above(other)]
        if candidates:
            best = max(candidates, key=lambda other: _shared(ln["path"], other["path"]))
            ln["parent"] = best["name"]
    for ln in out_lines:
        parent = by_name[ln["parent"]] if ln["parent"] is not None else None
        ln["fork"] = None if parent is None else _shared(ln["path"], parent["path"]) - 1  # the last event both hold


def moment_anchor(n: int, last: int) -> str:
    """Which side of its label a turning point at event ``n`` sits on, on the timeline of a line whose last event is
    ``last`` (the page's x axis runs from -0.5 to ``last`` + 0.5): plotly's ``xanchor``. A label in the last third
    of the axis ends at its point ("right") and one in the first third starts there ("left"), so neither runs past
    the edge it is near; one in the middle is centred on its point ("center"), with a third of the plot's width
    free on either side."""
    share = (n + 0.5) / (max(last, 0) + 1)
    return "right" if share > 2 / 3 else "left" if share < 1 / 3 else "center"


def _seen_by(perspective: str) -> str | None:
    """The viewer a perspective's states are shown to (``rs.view``'s second argument)."""
    return None if perspective == FULL else PUBLIC if perspective == EVERYONE else perspective


def _names(ruleset: str, cards: Any, views: dict[str, list[Any]]) -> dict[str, str]:
    """Readable names for the identifiers the page's own views show (tiles, card numbers), from the ruleset's
    ``label`` (analysis/games); only strings already in the page are named, so nothing new is told."""
    from agon.analysis.games import labeller

    label = labeller(ruleset)
    if label is None:
        return {}
    seen: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str):
            seen.add(v)

    for vs in views.values():
        walk(vs)
    out = {}
    for text in sorted(seen):
        name = label(text, cards)
        if name and name != text:
            out[text] = name
    return out


def _plain(view: Any) -> Any:
    """The view as JSON would carry it (tuples as lists, anything else as its text)."""
    return msgspec.json.decode(msgspec.json.encode(view, enc_hook=str))


def build_study(lines: list[Any], notes: dict[str, tuple[str, str]] | None = None, as_player: str | None = None,
                current: str | None = None, chances: dict[str, Any] | None = None, *,
                data: dict[str, Any] | None = None, script: str = "", plotly_src: str | None = None) -> str:
    """The study page as one HTML string (see ``study_data`` for the arguments; ``data``: ``study_data``'s answer
    when the caller already has it). ``script`` is appended to the page's own (the server's live updates).
    ``plotly_src``: where the page loads plotly.js from (the server serves it once, cached by the browser);
    by default it is inlined, so the file opens offline."""
    if data is None:
        data = page_data(lines, notes, as_player, current, chances)
    as_player = data["as"]
    seen_as = "" if as_player is None else f", as {as_player or 'every player'} sees it"
    # the game's own title first, where it has one: a tab is told apart from another game's of the same ruleset
    named = f"{data['game_title']} ({data['title']})" if data.get("game_title") else data["title"]
    title = f"{named}: game {data['game']}{seen_as}"
    parts = {
        "@TITLE@": html.escape(title),
        "@PLOTLY@": (f'<script src="{html.escape(plotly_src)}"></script>' if plotly_src
                     else f"<script>{_plotly_js()}</script>"),
        "@DATA@": _script_json(json.dumps(data, ensure_ascii=False, separators=(",", ":"))),
        "@SCRIPT@": _SCRIPT + script,
    }
    # One pass over the template: what is put in is never searched again, so a name, title or note that reads
    # '@SCRIPT@' stays text (replacing the keys one after another pasted the script into the page's data).
    return _SLOT.sub(lambda m: parts[m.group(0)], _PAGE)


def page_data(lines: list[Any], notes: dict[str, tuple[str, str]] | None = None, as_player: str | None = None,
              current: str | None = None, chances: dict[str, Any] | None = None) -> dict[str, Any]:
    """``study_data`` as the page's script reads it: plain JSON (the win-chance figures as plotly's JSON)."""
    import plotly.io as pio

    data = study_data(lines, notes, as_player, current, chances)
    data["chances"] = {k: json.loads(pio.to_json(fig, validate=False)) for k, fig in data["chances"].items()}
    return data


_SLOT = re.compile(r"@(?:TITLE|PLOTLY|DATA|SCRIPT)@")


def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()


def _script_json(text: str) -> str:
    """JSON that cannot end the script element it sits in: every "<" (only ever inside a string) escaped."""
    return text.replace("<", "\\u003c")


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>@TITLE@</title>
<style>
  /* the header and the two columns fill the window, the columns the height the header leaves, whatever it holds
     (a title or status on two lines, the address's notice, the live page's error): the page itself never scrolls,
     so the header stays put and the move shown, scrolled into the move list's view, is in the window's */
  body { font-family: system-ui, sans-serif; margin: 0; color: #222; display: flex; flex-direction: column;
         height: 100vh; }
  header { padding: .6rem 1.2rem; border-bottom: 1px solid #ddd; flex: none; }
  h1 { font-size: 1.2rem; margin: 0; }
  #where { color: #555; margin: .2rem 0 0; }
  #notice { margin: .3rem 0 0; padding: .2rem .5rem; border-left: 4px solid #8a6d00; background: #fff8e0; }
  main { display: grid; grid-template-columns: minmax(18rem, 26rem) 1fr; gap: 0; flex: 1 1 0; min-height: 0; }
  #side { border-right: 1px solid #ddd; overflow: auto; padding: .4rem .8rem; }
  /* positioned, so that the words kept for a screen reader (.sr-only) lie inside it, not below the window */
  #board { overflow: auto; padding: .4rem 1rem; position: relative; }
  /* a narrow screen (a phone): the move list above the board, each the page's width, so the plots keep room */
  @media (max-width: 40rem) {
    body { height: auto; }
    main { grid-template-columns: 1fr; flex: none; }
    #side { border-right: 0; border-bottom: 1px solid #ddd; max-height: 40vh; }
  }
  h2 { font-size: 1rem; margin: .6rem 0 .3rem; }
  #tree ul { list-style: none; padding-left: 1rem; margin: 0; }
  #tree > ul { padding-left: 0; }
  #tree a, #moves a { color: inherit; text-decoration: none; cursor: pointer; }
  #tree a.on { font-weight: 700; color: #0072B2; }
  #tree .fork { color: #666; font-size: .85rem; }
  #moves { font-size: .92rem; }
  #moves .round { font-weight: 600; color: #555; margin: .5rem 0 .1rem; border-bottom: 1px solid #eee; }
  #moves .move { padding: .08rem .3rem; border-radius: 3px; }
  #moves .move:hover { background: #f0f4f8; }
  #moves .move.current { background: #dbe9f6; outline: 1px solid #0072B2; }
  #moves .move.chance { color: #666; }
  #moves .num { color: #5e5e5e; font-variant-numeric: tabular-nums; margin-right: .3rem; }
  #moves .glyph { font-weight: 700; color: #b0004a; margin-left: .15rem; }
  #moves .note { display: block; white-space: pre-line; font-style: italic; color: #5a3e00; background: #fff8e1;
                 margin: .1rem 0 .2rem 1.4rem; padding: .1rem .4rem; border-left: 3px solid #E69F00; }
  #moves .variation { display: block; margin: .1rem 0 .2rem 1.4rem; font-size: .85rem; color: #0072B2; }
  #moves .variation::before { content: "\\21B3  " / ""; }  /* an arrow to see, nothing to read out */
  #controls { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin: .3rem 0; }
  #controls button { font-size: .95rem; padding: .2rem .6rem; }
  #narration { font-size: 1.1rem; padding: .5rem .8rem; background: #f4f6f8; border-left: 4px solid #0072B2;
               margin: .3rem 0 .5rem; }
  #narration .shown-note { display: block; white-space: pre-line; font-size: .95rem; font-style: italic;
                           color: #5a3e00; }
  #timeline-box { position: relative; }
  #timeline { height: 300px; cursor: crosshair; }
  #marker { position: absolute; width: 2px; margin-left: -1px; background: #222; pointer-events: none;
            display: none; }
  #chances { overflow-x: auto; }
  #chances:empty { display: none; }
  #judged:empty { display: none; }
  #judged { font-size: .9rem; margin: .2rem 0 .6rem; }
  #judged ul { margin: .1rem 0 .4rem; padding-left: 1.2rem; }
  #judged .uncertain { color: #767676; font-style: italic; }  /* as the chart's grey, dotted labels */
  .table { display: flex; flex-direction: column; gap: .6rem; }
  .areas { display: flex; flex-wrap: wrap; gap: .6rem; }
  .area { border: 1px solid #ccd; border-radius: 6px; padding: .3rem .6rem; min-width: 14rem; flex: 1 1 16rem;
          background: #fcfcff; }
  .area.me { border: 2px solid #0072B2; }
  .area h3 { margin: 0 0 .2rem; font-size: .98rem; }
  .area .swatch { display: inline-block; width: .75rem; height: .75rem; border-radius: 2px; margin-right: .35rem; }
  .middle { border: 1px solid #dcc; border-radius: 6px; padding: .3rem .6rem; background: #fffdf8; }
  .middle h3 { margin: 0 0 .2rem; font-size: .98rem; }
  .field { margin: .12rem 0; }
  .field > .k { color: #666; margin-right: .3rem; }
  .cards { display: inline-flex; flex-wrap: wrap; gap: .25rem; vertical-align: top; }
  .card { display: inline-block; border: 1px solid #bbb; border-radius: 4px; padding: .05rem .35rem; background: #fff;
          font-size: .88rem; }
  .card.hidden { background: repeating-linear-gradient(45deg, #eee, #eee 4px, #ddd 4px, #ddd 8px); color: #555; }
  .sub { margin-left: .8rem; }
  .muted { color: #5e5e5e; }
  :focus-visible { outline: 3px solid #0072B2; outline-offset: 2px; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
             white-space: nowrap; }
</style>
</head>
<body>
<header><h1>@TITLE@</h1><p id="where"></p><p id="notice" role="status" hidden></p></header>
<main>
<div id="side">
  <h2>Lines</h2>
  <div id="tree"></div>
  <h2>Moves</h2>
  <div id="moves"></div>
</div>
<div id="board">
  <div id="controls">
    <button id="first" title="first event (Home)" aria-label="first event" aria-keyshortcuts="Home">|&#x25C0;</button>
    <button id="prev" title="previous event (left arrow)" aria-label="previous event"
            aria-keyshortcuts="ArrowLeft">&#x25C0;</button>
    <button id="next" title="next event (right arrow)" aria-label="next event"
            aria-keyshortcuts="ArrowRight">&#x25B6;</button>
    <button id="last" title="last event (End)" aria-label="last event" aria-keyshortcuts="End">&#x25B6;|</button>
    <span id="step-label"></span>
    <label id="as-label">state as seen by <select id="as"></select></label>
  </div>
  <p id="narration" aria-live="polite" aria-atomic="true"></p>
  <div id="timeline-box"><div id="timeline" role="img" aria-describedby="plots-in-words"></div>
    <div id="marker" aria-hidden="true"></div></div>
  <div id="chances" aria-describedby="plots-in-words"></div>
  <p id="chances-now" class="sr-only"></p>
  <div id="judged"></div>
  <p id="plots-in-words" class="sr-only">The plots say in pictures what the move list and the state below say in
    words: every event of the line in the move list; after the event shown, each player's score beside their name
    and, where the win chances are drawn, each player's chance just above.</p>
  <h2 id="state-title"></h2>
  <div id="state"></div>
</div>
</main>
@PLOTLY@
<script type="application/json" id="study-data">@DATA@</script>
<script>@SCRIPT@</script>
</body>
</html>
"""

# One string: a line longer than 120 columns is cut into adjacent pieces (""" then r""" on the next line), which
# Python joins back, so the page gets it whole.
_SCRIPT = (r"""
(function () {
  "use strict";
  const opened = location.hash;  // the position the address asked for, if any
  let noticed = "";  // what the address asked for that is not here, said with the position shown for it
  let data = JSON.parse(document.getElementById("study-data").textContent);
  let nodes = data.nodes, lines = {};
  data.lines.forEach(l => { lines[l.name] = l; });
  const select = document.getElementById("as");
  const plot = document.getElementById("timeline");
  let line = lines[data.current], step = 0, plotted = false;
  let cache = {};

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  // what the ruleset calls a round (data.round_word: core.summary.round_word), "turn" for Perikles
  function roundWord() { return data.round_word || "round"; }
  // the round an event belongs to in words, as the plots' hovers name it (analysis/timeline.py's round_of): the
  // setup (round 0) is "setup", never "round 0"
  function roundName(n) { return n === 0 ? "setup" : roundWord() + " " + n; }
  function capital(s) { return s.charAt(0).toUpperCase() + s.slice(1); }
  function num(x) {
    if (x === null || x === undefined) return "-";
    return Number.isInteger(x) ? String(x) : String(Math.round(x * 100) / 100);
  }
  function human(k) { return String(k).replace(/[_]+/g, " "); }
  // the address of a position (what a link to it holds; a click shows it without leaving the page)
  function address(name, n) { return "#line=" + encodeURIComponent(name) + "&step=" + n; }

  // -- states: whole, or the changes from the parent node's state ------------------------------------------------
  function clone(v) { return v === undefined ? v : JSON.parse(JSON.stringify(v)); }
  function stateOf(who, k) {
    const key = who + "\u0000" + k;
    if (key in cache) return cache[key];
    const todo = [];
    let i = k;
    while (i !== null && !((who + "\u0000" + i) in cache) && data.states[who][i][0] === 1) {
      todo.push(i); i = nodes[i].parent;
    }
    let s = i === null ? null : ((who + "\u0000" + i) in cache ? cache[who + "\u0000" + i] : data.states[who][i][1]);
    cache[who + "\u0000" + i] = s;
    while (todo.length) {
      const j = todo.pop();
      s = clone(s);
      for (const op of data.states[who][j][1]) {
        const path = op[0];
        if (!path.length) { s = clone(op[1]); continue; }
        let t = s;
        for (const p of path.slice(0, -1)) t = t[p];
        if (op.length === 1) { if (Array.isArray(t)) t.splice(path[path.length - 1], 1); """
            r"""else delete t[path[path.length - 1]]; }
        else t[path[path.length - 1]] = clone(op[1]);
      }
      cache[who + "\u0000" + j] = s;
    }
    return s;
  }

  // -- the state laid out as a table: each player's area, then the rest ------------------------------------------
  const players = data.players;
  function isCard(v) {
    return v && typeof v === "object" && !Array.isArray(v) &&
      (typeof v.name === "string" || typeof v.title === "string") && !players.includes(v.name);
  }
  function cardLabel(v) { return v.title || v.name; }
  function cardDetail(v) {
    return Object.entries(v).filter(([k]) => k !== "name" && k !== "title")
      .map(([k, x]) => human(k) + ": " + (x && typeof x === "object" ? JSON.stringify(x) : x)).join(", ");
  }
  function card(v) {
    if (v === "hidden") return el("span", "hidden", "card hidden");
    if (isCard(v)) { const c = el("span", cardLabel(v), "card"); c.title = cardDetail(v); return c; }
    return named(v, "card");
  }
  // a string shown by its readable name where the ruleset gives one (the identifier on hover)
  function named(v, cls) {
    if (typeof v !== "string") return el("span", typeof v === "number" ? num(v) : String(v), cls);
    const n = data.names[v];
    const e = el("span", n || human(v), cls);
    if (n) e.title = v;
    return e;
  }
  function scalar(v) { return v === null || ["string", "number", "boolean"].includes(typeof v); }
  function value(v) {
    if (typeof v === "string") return named(v);
    if (scalar(v)) return el("span", v === null ? "-" : typeof v === "number" ? num(v) : v ? "yes" : "no");
    if (Array.isArray(v)) {
      if (!v.length) return el("span", "(none)", "muted");
      if (v.every(x => scalar(x) || isCard(x))) { const box = el("span", null, "cards"); """
          r"""v.forEach(x => box.appendChild(card(x))); return box; }
      const box = el("div", null, "sub");
      v.forEach((x, i) => { const f = el("div", null, "field"); """
          r"""f.appendChild(el("span", (isCard(x) ? cardLabel(x) : "#" + (i + 1)) + ":", "k")); """
          r"""f.appendChild(value(isCard(x) ? strip(x) : x)); box.appendChild(f); });
      return box;
    }
    if (isCard(v)) return card(v);
    const box = el("div", null, "sub");
    Object.entries(v).forEach(([k, x]) => box.appendChild(field(k, x)));
    return box;
  }
  function strip(v) { const o = Object.assign({}, v); delete o.name; delete o.title; return o; }
  function field(k, x) {
    const f = el("div", null, "field");
    f.appendChild(el("span", human(k) + ":", "k"));
    f.appendChild(value(x));
    return f;
  }
  // the name of the one score a crew of several shares (data.crew: 'crew'), or null (a solo voyage, each player's own)
  function crewOf() { return data.crew && players.length > 1 ? data.crew : null; }
  function layout(view, me) {
    const areas = {};
    players.forEach(p => { areas[p] = []; });
    const middle = [];
    for (const [k, v] of Object.entries(view || {})) {
      if (Array.isArray(v) && v.length && v.every(x => x && typeof x === "object" && players.includes(x.name))) {
        v.forEach(x => Object.entries(x).forEach(([kk, xx]) => { if (kk !== "name") areas[x.name].push([kk, xx]); }));
      } else if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length &&
                 Object.keys(v).every(p => players.includes(p))) {
        Object.entries(v).forEach(([p, x]) => {
          if (k === "players" && x && typeof x === "object" && !Array.isArray(x)) """
              r"""Object.entries(x).forEach(e => areas[p].push(e));
          else areas[p].push([k, x]);
        });
      } else {
        middle.push([k, v]);
      }
    }
    const root = el("div", null, "table");
    const row = el("div", null, "areas");
    const order = me && players.includes(me) ? [me, ...players.filter(p => p !== me)] : players;
    order.forEach(p => {
      if (!areas[p].length) return;
      const a = el("section", null, "area" + (p === me ? " me" : ""));
      a.dataset.player = p;
      const h = el("h3");
      const sw = el("span", null, "swatch"); sw.style.background = data.colors[p] || "#888";
      h.appendChild(sw); h.appendChild(document.createTextNode(p));
      const s = crewOf() ? undefined : nodes[line.path[step]].scores[p];  // a crew's: told once, below
      if (s !== undefined) h.appendChild(el("span", "  score " + num(s) + (data.score_unit || ""), "muted"));
      a.appendChild(h);
      areas[p].forEach(([k, x]) => a.appendChild(field(k, x)));
      row.appendChild(a);
    });
    const mid = el("section", null, "middle");
    const told = el("h3", "The table");
    // a crew's one score (its players win or lose together) told once, as the crew's, as `agon games` lists it
    // ('the crew 66.7% of the voyage sailed'), not again under each player's name; a solo voyage keeps its player's
    const crew = crewOf(), cs = crew && nodes[line.path[step]].scores[crew];
    if (crew && cs !== undefined) told.appendChild(el("span", "  the " + crew + " " + num(cs) + (data.score_unit || ""),
                                                      "muted"));
    mid.appendChild(told);
    middle.forEach(([k, x]) => mid.appendChild(field(k, x)));
    root.appendChild(row);
    root.appendChild(mid);
    return root;
  }

  // -- the tree of lines -------------------------------------------------------------------------------------------
  function drawTree() {
    const kids = {};
    data.lines.forEach(l => { (kids[l.parent || ""] = kids[l.parent || ""] || []).push(l); });
    function ul(parent) {
      const u = el("ul");
      (kids[parent] || []).forEach(l => {
        const li = el("li");
        const a = el("a", l.name, l === line ? "on" : "");
        a.dataset.line = l.name;
        a.href = address(l.name, nodes[l.path[Math.min(l.fork === null ? 0 : l.fork + 1, l.path.length - 1)]].n);
        if (l === line) a.setAttribute("aria-current", "true");
        a.addEventListener("click", ev => { ev.preventDefault(); enter(l.name, l.fork === null ? 0 : l.fork + 1); });
        li.appendChild(a);
        const head = nodes[l.path[l.path.length - 1]].n;
        li.appendChild(el("span", """
            r"""l.fork === null ? " to #" + head : " forks after #" + """
            r"""nodes[l.path[l.fork]].n + " of " + l.parent + ", to #" + head, "fork"));
        li.appendChild(ul(l.name));
        u.appendChild(li);
      });
      return u;
    }
    document.getElementById("tree").replaceChildren(ul(""));
  }

  // lines that part from the shown one right after position k (one per different next event)
  function partings(k) {
    const here = line.path[k], next = line.path[k + 1];
    const seen = new Set([next === undefined ? "end" : next]);
    const out = [];
    data.lines.forEach(l => {
      if (l === line || l.path[k] !== here) return;
      for (let i = 0; i <= k; i++) if (l.path[i] !== line.path[i]) return;
      const nx = l.path[k + 1] === undefined ? "end" : l.path[k + 1];
      if (seen.has(nx) || nx === "end") return;
      seen.add(nx);
      out.push(l);
    });
    return out;
  }
  // the lines that share the shown line's events up to position k, one per different continuation
  function siblings(k) {
    const groups = new Map();
    data.lines.forEach(l => {
      for (let i = 0; i <= k; i++) if (l.path[i] !== line.path[i]) return;
      const nx = l.path[k + 1] === undefined ? "end" : l.path[k + 1];
      if (!groups.has(nx) || l === line) groups.set(nx, l);
    });
    return [...groups.values()];
  }

  // -- the move list -------------------------------------------------------------------------------------------------
  function drawMoves() {
    const box = document.getElementById("moves");
    box.replaceChildren();
    let round = null;
    line.path.forEach((k, i) => {
      const nd = nodes[k];
      if (nd.in_round !== round) {  // headed by the round the event happened in
        round = nd.in_round;
        const r = el("div", capital(roundName(round)), "round");
        r.setAttribute("role", "heading"); r.setAttribute("aria-level", "3");
        box.appendChild(r);
      }
      const m = el("div", null, "move" + (nd.actor === "chance" || nd.actor === "setup" ? " chance" : ""));
      m.dataset.step = String(i);
      m.appendChild(el("span", nd.n + ".", "num"));
      const a = el("a", nd.text);
      a.href = address(line.name, nd.n); a.tabIndex = -1;  // the current move only is a stop of the Tab key
      m.appendChild(a);
      if (nd.glyph) m.appendChild(el("span", nd.glyph, "glyph"));
      if (nd.note) m.appendChild(el("span", nd.note, "note"));
      m.addEventListener("click", ev => { ev.preventDefault(); show(i); });
      box.appendChild(m);
      partings(i).forEach(l => {
        const first = nodes[l.path[i + 1]];
        const v = el("a", l.name + ": " + first.n + ". " + first.text, "variation");
        v.dataset.line = l.name; v.href = address(l.name, first.n);
        v.addEventListener("click", ev => { ev.preventDefault(); ev.stopPropagation(); enter(l.name, i + 1); });
        box.appendChild(v);
      });
    });
  }

  // -- the timeline --------------------------------------------------------------------------------------------------
  const TITLE = () => "Scores along " + line.name + " (click anywhere to go there)";
  function figure() {
    const xs = line.path.map(k => nodes[k].n);
    // the lines drawn (data.plotted): each player's, or a co-operative game's one score, the crew's
    const plotted = data.plotted || players;
    const ys = plotted.map(p => line.path.map(k => nodes[k].scores[p] === undefined ? null : nodes[k].scores[p]));
    // each player in their marks (colour, marker and dash: data.marks, as in every plot of the game) and named at
    // their line's end (stack() moves the names apart), so no line is told from another by its colour alone
    const finals = [];
    finalNames = [];
    const traces = plotted.map((p, i) => {
      const [symbol, dash] = data.marks[p] || ["circle", "solid"], at = markedPoints(ys[i], i / plotted.length);
      if (at.length) finals.push({x: xs[at[at.length - 1]], y: ys[i][at[at.length - 1]], text: p, showarrow: false,
        xanchor: "left", xshift: 6, yshift: 0, font: {size: 11, color: data.colors[p]}, name: "final"});
      if (at.length) finalNames.push(p);
      return {x: xs, y: ys[i], name: p, mode: "lines+markers",
        line: {color: data.colors[p], shape: "hv", width: 2.5, dash},
        marker: {color: data.colors[p], symbol, size: 9, line: {color: "white", width: 1}},
        selectedpoints: at, unselected: {marker: {opacity: 0}},
        hovertemplate: p + " %{y}" + (data.score_unit || "") + " after #%{x}<extra></extra>"};
    });
    finals.forEach(f => { f.text = fitName(f.text); });
    const right = endMargin(finals.map(f => f.text));
    // the turning points' labels above the plot, each on the side of its point away from the nearer edge
    // (m.anchor: moment_anchor) so that none is cut off there; stack() puts them in rows once they are drawn
    const moments = line.moments.map(m => ({x: m.n, y: 1.0, yref: "paper", yshift: 0,
      text: "#" + m.n + " " + m.label, showarrow: false, font: {size: 10, color: "#555"}, yanchor: "bottom",
      xanchor: m.anchor || "center"}));
    const layout = {
      title: {text: TITLE(), x: 0.01, font: {size: 13},
              y: 1, yref: "container", yanchor: "top", pad: {t: 8}},
      // the size: its box's; the right margin holds the players' names
      margin: {t: top(1), b: FOOT + 20, l: 50, r: right}, dragmode: false, hovermode: "x",
      xaxis: {title: {text: "event"}, range: [-0.5, xs[xs.length - 1] + 0.5],
              ...(xs[xs.length - 1] <= 10 ? {tick0: 0, dtick: 1} : {})},
      yaxis: {title: {text: data.score_label || "score"}},
      annotations: moments.concat(finals), template: "plotly_white", showlegend: true,
      // the legend at the figure's foot, below the axis title in the bottom margin (paper units would move it with
      // the plot's height and lay it over the title)
      legend: {orientation: "h", yref: "container", yanchor: "bottom", y: 0, itemsizing: "constant", itemwidth: 50},
    };
    return {traces, layout};
  }
  // where a line carries its player's markers: where its value changes, and its last point, evenly thinned to about
  // `most` (as analysis/palette.py's marked_points), staggered by `phase` so that lines do not hide one another's
  function markedPoints(ys, phase, most) {
    most = most || 24;
    let last = -1;
    ys.forEach((y, j) => { if (y !== null) last = j; });
    if (last < 0) return [];
    let changes = [];
    for (let j = 1; j < last; j++) if (ys[j] !== null && ys[j] !== ys[j - 1]) changes.push(j);
    if (changes.length >= most) {
      const gap = changes.length / (most - 1), kept = new Set();
      for (let j = 0; j < most - 1; j++) kept.add(changes[Math.min(changes.length - 1, Math.floor((j + phase) * gap))]);
      changes = [...kept].sort((a, b) => a - b);
    }
    return changes.concat([last]);
  }
  // the players' names at their lines' ends, moved apart to be `gap` pixels from one another and kept inside the plot
  // (the annotations after the turning points'): each name's yshift
  function spreadFinals(anns, gap) {
    const full = plot._fullLayout, out = {};
    if (!full || !full.yaxis || !full._size) return out;
    const ends = anns.map((a, i) => ({i, want: full.yaxis.l2p(a.y)})).slice(line.moments.length)
      .sort((a, b) => a.want - b.want);
    let prev = -Infinity;
    ends.forEach(e => { e.at = Math.max(e.want, prev + gap); prev = e.at; });
    let limit = full._size.h;
    for (let k = ends.length - 1; k >= 0; k--) { ends[k].at = Math.min(ends[k].at, limit); limit = ends[k].at - gap; }
    ends.forEach(e => { out[e.i] = Math.round(e.want - e.at); });
    return out;
  }
  function drawTimeline() {
    const f = figure();
    plot.setAttribute("aria-label", "Scores along " + line.name + ", a plot");
    const go = plotted ? Plotly.react : Plotly.newPlot;
    return go(plot, f.traces, f.layout, {responsive: true, displaylogo: false, displayModeBar: false,
      showSendToCloud: false}).then(() => {
      if (!plotted) {
        plot.on("plotly_relayout", ev => { if (ev && ev.autosize) stack(); });  // the page resized
        plot.on("plotly_afterplot", mark);  // drawn again (resized, labels stacked): the marker follows its event
      }
      plotted = true; mark(); pictureOnly(plot);
      return stack();
    });
  }
  // the top margin that holds the title and `rows` rows of labels
  function top(rows) { return Math.max(50, 32 + ROW * rows); }
  const ROW = 16, FOOT = 52;  // a row of labels; the bottom margin's room for the tick labels and the axis title
  // the bottom margin: the axis's room and the legend's height under it (the legend wraps into more rows where
  // the players' names are long or the plot narrow, and would otherwise lie over the axis title)
  function bottom() {
    const g = plot.querySelector("g.legend");
    const h = g ? g.getBoundingClientRect().height : 0;
    return FOOT + Math.max(20, Math.ceil(h));
  }
  const measurer = document.createElement("canvas").getContext("2d");
  function widthOf(text, size) {
    const fam = (plot._fullLayout && plot._fullLayout.font && plot._fullLayout.font.family) || "sans-serif";
    measurer.font = size + "px " + fam;
    return measurer.measureText(text).width;
  }
  // the players' names at their lines' ends (in the order of the figure's last annotations), each cut short ("…")
  // to a fifth of the plot's width, the whole name in the legend; the right margin is as wide as the widest
  let finalNames = [];
  function fitName(name) {
    const room = Math.max(40, plot.clientWidth / 5) - 14;
    if (widthOf(name, 11) <= room) return name;
    let cut = name;
    while (cut.length > 1 && widthOf(cut + "…", 11) > room) cut = cut.slice(0, -1);
    return cut + "…";
  }
  function endMargin(texts) { return Math.max(20, 14 + Math.ceil(Math.max(0, ...texts.map(t => widthOf(t, 11))))); }
  // a label's text in lines no wider than `width` pixels (broken at spaces; "<br>" between lines, as plotly reads)
  function wrap(text, width, size) {
    const out = [];
    let cur = "";
    text.split(" ").forEach(w => {
      const next = cur ? cur + " " + w : w;
      if (cur && widthOf(next, size || 10) > width) { out.push(cur); cur = w; } else cur = next;
    });
    out.push(cur);
    return out.join("<br>");
  }
  // the labels as drawn, in rows: each in the lowest rows where it covers no other label, kept inside the plot's
  // width (one that would run past an edge is moved in; one wider than the plot is broken into lines), all measured
  // at the plot's present width, so a narrower page stacks them higher instead of drawing one over another or
  // cutting one off at the edge
  function stack() {
    const anns = (plot.layout && plot.layout.annotations) || [];
    const drag = plot.querySelector(".nsewdrag");
    if (!drag) return Promise.resolve();
    const area = drag.getBoundingClientRect();
    const right = Math.min(area.right, document.documentElement.clientWidth);
    const texts = {};
    anns.forEach((a, i) => {
      const m = line.moments[i];
      if (!m) return;
      const t = wrap("#" + m.n + " " + m.label, right - area.left - 8);
      if (t !== a.text) texts["annotations[" + i + "].text"] = t;
    });
    // the title too, in lines as wide as the figure (on a phone's width it ran past the right edge, cut off)
    const title = wrap(TITLE(), plot.getBoundingClientRect().width - 16, 13);
    const names = finalNames.map(fitName), first = anns.length - names.length;
    names.forEach((t, k) => {
      if (anns[first + k] && anns[first + k].text !== t) texts["annotations[" + (first + k) + "].text"] = t;
    });
    if (plot.layout.margin.r !== endMargin(names)) texts["margin.r"] = endMargin(names);
    if (plot.layout.title.text !== title) {
      texts["title.text"] = title;
      texts["title.pad.t"] = 8 + 17 * (title.split("<br>").length - 1);  // plotly grows a title upwards from its line
    }
    if (Object.keys(texts).length) return Plotly.relayout(plot, texts).then(stack);
    const labels = [...plot.querySelectorAll("g.annotation[data-index]")];
    const spans = labels.filter(g => Number(g.dataset.index) < line.moments.length).map(g => {
      const r = g.getBoundingClientRect(), i = Number(g.dataset.index), a = anns[i] || {};
      const was = a.xshift || 0, x0 = r.left - was, x1 = r.right - was;
      let shift = x1 > right ? right - x1 : 0;
      if (x0 + shift < area.left) shift = area.left - x0;
      return {i, x0: x0 + shift, x1: x1 + shift, shift, h: String(a.text || "").split("<br>").length};
    }).filter(s => s.x1 > s.x0).sort((a, b) => a.x0 - b.x0 || a.i - b.i);  // (nothing to measure: not laid out)
    const ends = [], row = {}, shifts = {};
    const free = (k, s) => { for (let j = k; j < k + s.h; j++) if (j < ends.length && ends[j] + 4 > s.x0) return false;
                             return true; };
    spans.forEach(s => {
      let k = 0;
      while (!free(k, s)) k++;
      while (ends.length < k + s.h) ends.push(-Infinity);
      for (let j = k; j < k + s.h; j++) ends[j] = s.x1;
      row[s.i] = k; shifts[s.i] = Math.round(s.shift);
    });
    const changes = {};
    const finals = spreadFinals(anns, 14);
    anns.forEach((a, i) => {
      if (i in finals) {
        if (a.yshift !== finals[i]) changes["annotations[" + i + "].yshift"] = finals[i];
        return;
      }
      const shift = ROW * (row[i] || 0);
      if (a.yshift !== shift) changes["annotations[" + i + "].yshift"] = shift;
      if ((a.xshift || 0) !== (shifts[i] || 0)) changes["annotations[" + i + "].xshift"] = shifts[i] || 0;
    });
    const t = top(ends.length) + ROW * (title.split("<br>").length - 1), b = bottom();
    if (plot.layout.margin.t !== t) changes["margin.t"] = t;
    if (plot.layout.margin.b !== b) changes["margin.b"] = b;
    // the plot keeps its own height: its box grows by what the rows of labels take above it and the legend below,
    // and the figure follows its box (no height or width in the layout, which would stop it following the page's
    // width)
    const box = (300 + t - top(1) + b - FOOT - 20) + "px", grow = plot.style.height !== box;
    plot.style.height = box;
    const done = Object.keys(changes).length ? Plotly.relayout(plot, changes) : Promise.resolve();
    return grow ? done.then(() => Plotly.Plots.resize(plot)) : done;
  }
  // the current event's vertical line over the plot: an element of its own moved by its style, since moving a
  // shape of the figure redrew the whole plot (50 to 100 ms a step on the longest shipped replay)
  const marker = document.getElementById("marker");
  function mark() {
    const full = plot._fullLayout;
    if (!plotted || !full || !full.xaxis || !full._size) return;
    const n = nodes[line.path[step]].n;
    marker.dataset.n = String(n);
    marker.style.left = (full._size.l + full.xaxis.d2p(n)) + "px";
    marker.style.top = full._size.t + "px";
    marker.style.height = full._size.h + "px";
    marker.style.display = "block";
  }
  function nearest(x) {
    let best = 0;
    line.path.forEach((k, i) => { if (Math.abs(nodes[k].n - x) < Math.abs(nodes[line.path[best]].n - x)) best = i; });
    return best;
  }
  plot.addEventListener("click", ev => {
    const full = plot._fullLayout;
    if (!full || !full.xaxis) return;
    const box = plot.querySelector(".nsewdrag") || plot;
    const r = box.getBoundingClientRect();
    if (ev.clientX < r.left || ev.clientX > r.right) return;
    show(nearest(full.xaxis.p2d(ev.clientX - r.left)));
  });
  // a plot is one picture to a screen reader, named by its box (plotly's drawing would be read as its tick labels,
  // and the drawing it measures text in, off the screen, as a picture without a name)
  function pictureOnly(box) {
    box.querySelectorAll("svg").forEach(s => s.setAttribute("aria-hidden", "true"));
    const tester = document.getElementById("js-plotly-tester");
    if (tester) tester.setAttribute("aria-hidden", "true");
  }
  // the win chances after event n in words (the chart's hover text says the same, for a mouse)
  function chancesNow(n) {
    const f = data.chances[line.name];
    if (!f) return "";
    const said = f.data.filter(t => t.meta && t.meta.player && t.x && t.y).map(t => {
      let i = -1;
      t.x.forEach((x, j) => { if (x <= n) i = j; });
      return i < 0 ? null : t.meta.player + " " + Math.round(t.y[i]) + "%";
    }).filter(x => x);
    // what the chances are chances of (meta.what, chances.what): a voyage's success, else a win
    const what = (f.layout.meta && f.layout.meta.what) || "win chance";
    const head = what === "win chance" ? "Win chances" : "The " + what;
    return said.length ? head + " after #" + n + ": " + said.join(", ") + "." : "";
  }
  // the chart's judged decisions in words under it: those marked, then those not marked because their loss is
  // within the figures' noise, with the run that would tell (as `agon analyse` says them)
  function drawJudged(meta) {
    const box = document.getElementById("judged"); box.replaceChildren();
    if (!meta || !meta.marked) return;
    const list = (texts, cls) => { const ul = el("ul"); texts.forEach(t => ul.appendChild(el("li", t, cls)));
      return ul; };
    if (meta.marked.length) {
      box.appendChild(el("p", "Marked: lost more than " + meta.threshold + " of the " + meta.what
        + " against the best alternative (the chance after the move made, then after the best one):"));
      box.appendChild(list(meta.marked, "marked"));
    }
    if (meta.uncertain.length) {
      box.appendChild(el("p", "Not marked: lost more than " + meta.threshold + " of the " + meta.what
        + " by these figures, " + (meta.unmarked_why ||
          "but by less than their own uncertainty (that much can be the games' luck)") + ":",
        "uncertain"));
      box.appendChild(list(meta.uncertain, "uncertain"));
      box.appendChild(el("p", meta.too_few, "uncertain too-few"));
    }
  }
  // one drawing of the chart at a time: Plotly drawing into a box purged meanwhile (a line with chances left for
  // one without, as a link to a what-if line opens the page) throws from inside its own code
  let chancesDrawn = Promise.resolve();
  function inTurn(draw) { chancesDrawn = chancesDrawn.then(draw).catch(e => console.error(e)); }
  function drawChances() {
    const box = document.getElementById("chances");
    const f = data.chances[line.name];
    drawJudged(f && f.layout && f.layout.meta);
    if (!f) {
      box.removeAttribute("role");
      inTurn(() => { if (box.data) Plotly.purge(box); box.replaceChildren(); });
      return;
    }
    const t = f.layout && f.layout.title;
    box.setAttribute("role", "img");
    box.setAttribute("aria-label", String((t && (t.text || t)) || "win chances").replace(/<[^>]*>/g, " "));
    // drawn at the size its labels were placed for ('agon plot chances': 1200 wide), the box scrolling sideways
    // where the column is narrower; squeezed into the column the labels ran over one another and the legend over
    // the axis title
    const size = {width: f.layout.width || 1200, height: f.layout.height || 700, autosize: false};
    // (no "Share chart..." in its tool bar: plotly.js would upload the chart to Plotly Cloud; analysis/figures.py)
    const config = {displaylogo: false, showSendToCloud: false, responsive: false};
    inTurn(() => Plotly.react(box, f.data, Object.assign({}, f.layout, size), config)
      .then(() => pictureOnly(box)));
  }

  // -- showing a position -------------------------------------------------------------------------------------------
  function enter(name, i) {
    if (!(name in lines)) return;
    const changed = lines[name] !== line, place = placeOf();
    line = lines[name];
    if (changed) { drawTree(); drawMoves(); drawChances(); if (plotted) drawTimeline(); }
    show(i);
    keepPlace(place);
  }
  // the tree and the move list drawn again keep the keyboard's place (a link of theirs that had the focus is gone):
  // on the link of the line shown in the tree, or on the move shown, not back at the top of the page
  function placeOf() {
    const was = document.activeElement;
    return {was, where: !was ? null : was.closest("#tree") ? "tree" : was.closest("#moves") ? "moves" : null};
  }
  function keepPlace(place) {
    if (!place.where || place.was.isConnected) return;
    const to = place.where === "tree" ? document.querySelector("#tree a.on")
      : document.querySelector("#moves .move.current a");
    if (to) to.focus();
  }
  function show(i) {
    const notice = document.getElementById("notice");  // said once, with the position shown for the address
    notice.textContent = noticed;
    notice.hidden = !noticed;
    noticed = "";
    step = Math.max(0, Math.min(line.path.length - 1, i));
    const nd = nodes[line.path[step]];
    const inMoves = document.getElementById("moves").contains(document.activeElement);
    document.querySelectorAll("#moves .move.current").forEach(e => {
      e.classList.remove("current");
      const a = e.querySelector("a"); a.tabIndex = -1; a.removeAttribute("aria-current"); });
    const cur = document.querySelector('#moves .move[data-step="' + step + '"]');
    if (cur) {
      cur.classList.add("current");
      const a = cur.querySelector("a");  // the Tab key reaches the move shown; the arrows go on from there
      a.tabIndex = 0; a.setAttribute("aria-current", "step");
      if (inMoves) a.focus({preventScroll: true});
    }
    const head = nodes[line.path[line.path.length - 1]].n;
    document.getElementById("step-label").textContent = "line " + line.name + " \u00b7 event " + """
        r"""nd.n + " of " + head + " \u00b7 " + roundName(nd.in_round);
    document.getElementById("where").textContent = line.name + ": " + line.status;
    const nar = document.getElementById("narration");
    const who = nd.actor && nd.actor !== "chance" && nd.actor !== "setup" ? nd.actor + "'s decision" : nd.actor;
    nar.replaceChildren(el("b", "#" + nd.n + (nd.glyph || "") + " "), """
        r"""el("span", nd.text, "text"), el("span", who ? " (" + who + ")" : "", "muted"));
    if (nd.note) nar.appendChild(el("span", nd.note, "shown-note"));
    const persp = select.value;
    document.getElementById("state-title").textContent = "After #" + nd.n + (persp === "(everything)" ? ", everything" :
      persp === "(every player)" ? ", as every player sees it" : ", as " + persp + " sees it");
    document.getElementById("state").replaceChildren(layout(stateOf(persp, line.path[step]), persp));
    document.getElementById("chances-now").textContent = chancesNow(nd.n);
    // the move shown scrolled into the move list's view last, once the header holds its words (the status filled in
    // on opening, on two lines in a narrow window, moved the list down after it was scrolled: the move lay below it)
    if (cur) cur.scrollIntoView({block: "nearest"});
    mark();
    const frag = address(line.name, nd.n);
    if (location.hash !== frag && history.replaceState) history.replaceState(null, "", frag);
    document.body.dataset.line = line.name;
    document.body.dataset.step = String(nd.n);
  }

  data.perspectives.forEach(p => { const o = el("option", p); o.value = p; select.appendChild(o); });
  if (data.perspectives.length === 1) select.disabled = true;
  select.addEventListener("change", () => show(step));
  document.getElementById("first").addEventListener("click", () => show(0));
  document.getElementById("prev").addEventListener("click", () => show(step - 1));
  document.getElementById("next").addEventListener("click", () => show(step + 1));
  document.getElementById("last").addEventListener("click", () => show(line.path.length - 1));
  document.addEventListener("keydown", e => {
    if (e.target === select) return;
    if (e.key === "ArrowRight") { show(step + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { show(step - 1); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(line.path.length - 1); e.preventDefault(); }
    else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const sib = siblings(step);
      if (sib.length > 1) {
        const at = sib.indexOf(line);
        enter(sib[(at + (e.key === "ArrowDown" ? 1 : sib.length - 1)) % sib.length].name, step);
      }
      e.preventDefault();
    }
  });

  function fromAddress() {
    const m = /line=([^&]*)/.exec(location.hash), s = /step=([^&]*)/.exec(location.hash);
    let name = null;
    try { name = m ? decodeURIComponent(m[1]) : null; } catch (e) { name = m[1]; }
    return {asked: name, name: name !== null && name in lines ? name : line.name, step: s ? s[1] : null};
  }
  // A link may name a line this page does not hold (a page made with -b) or an event past a line's end: the page
  // says what it shows instead, never showing another position as if it were the one asked for.
  function go() {
    const where = fromAddress();
    const l = lines[where.name];
    const n = where.step !== null && /^\d+$/.test(where.step) ? Number(where.step) : null;
    const i = n === null ? 0 : l.path.findIndex(k => nodes[k].n === n);
    let why = "";
    if (where.asked !== null && where.asked !== where.name) {
      why = "This page holds no line '" + where.asked + "': it shows line " + where.name + " from its start.";
    } else if (where.step !== null && (n === null || i < 0)) {
      why = "Line " + where.name + " has no event " + where.step + " (it holds events 0 to " +
            nodes[l.path[l.path.length - 1]].n + "): it shows its start.";
    }
    noticed = why;
    enter(where.name, why || i < 0 ? 0 : i);
  }
  window.addEventListener("hashchange", go);
  // a header that grows or shrinks after the move was scrolled into view (the live page adds a line for trouble
  // with its stream, a status wraps anew) moves the list under it: the move shown is kept in the list's view,
  // scrolling the list alone (a reader further down a phone's page stays where they are)
  if (window.ResizeObserver) new ResizeObserver(() => {
    const cur = document.querySelector("#moves .move.current"), side = document.getElementById("side");
    if (!cur) return;
    const s = side.getBoundingClientRect(), r = cur.getBoundingClientRect();
    if (r.bottom > s.bottom) side.scrollTop += Math.min(r.bottom - s.bottom, r.top - s.top);
    else if (r.top < s.top) side.scrollTop -= s.top - r.top;
  }).observe(document.querySelector("header"));
  line = lines[fromAddress().name];  // the line the address names is the first drawn, not the current one first
  drawTree(); drawMoves(); drawChances();
  go();
  drawTimeline().then(() => { document.body.dataset.ready = "1"; });

  // newer data of the same game (a game followed live): the page follows the newest event of the game's current
  // line if it showed the last one of it, else it stays where it was
  function update(fresh) {
    const following = line.name === data.current && step === line.path.length - 1;
    const name = line.name, at = nodes[line.path[step]].n, place = placeOf();
    data = fresh; nodes = fresh.nodes; lines = {}; cache = {};
    fresh.lines.forEach(l => { lines[l.name] = l; });
    line = lines[following || !(name in lines) ? fresh.current : name];
    drawTree(); drawMoves(); drawChances();
    const i = following ? line.path.length - 1 : line.path.findIndex(k => nodes[k].n === at);
    show(i < 0 ? line.path.length - 1 : i);
    keepPlace(place);
    return drawTimeline();
  }
  // the newest event of the game's current line
  function end() { enter(data.current, lines[data.current].path.length - 1); }
  window.agonStudy = {update, end, opened, data: () => data};
})();
""")

"""The pages of ``agon serve``: the lobby, a seat's page and the spectators' page (server-rendered HTML with one
small script each; nothing is loaded from the internet).

- ``/``: the games with their status, and a form that creates one and shows its links.
- ``/games/ID/seat#token=...``: a player's page (their own view, their legal decisions as buttons, or built a
  step at a time through ``/steps`` when there are many (server/decide.py), and on their turn a field taking the
  decision typed as ``agon play`` takes it (``a02 2s1w``), posted as ``/act``'s ``choice`` with the buttons'
  ``expect`` and the seat's own token; undo, the game's record as they may read it), or with the host's token the
  table's recorder's (chance entry, undo, and redo while one would bring something back).
  The token stays in the address's fragment, which browsers never send to a server or in a Referer.
- ``/games/ID/watch``: for spectators: the study page (analysis/study.py) of the game as every player sees it
  (its lines, move list, score timeline and table; no hand, no face-down card, no deck order, no hidden draw),
  following the game live: on each change the event stream reports, the page reads ``/games/ID/watch.json`` (the
  same data, newer) and moves to the newest event if it was showing the last one. It loads plotly.js from
  ``/static/plotly-VERSION.js`` (served gzipped, cached by the browser for good), not inlined.

The pages read the JSON API (server/api.py) and follow its event stream; all they show comes from there. They take
no query parameters (what a browser keeps to itself goes in the fragment): one that means something elsewhere in
agon (a token, a study position, the API's filters) is a 400 naming it and what to do instead (``_query``); any
other is ignored, as web pages do (a shared link comes back with ``?fbclid=...``).
"""

from __future__ import annotations

import functools
import gzip
import html
import json
import threading
from collections import OrderedDict
from importlib.metadata import version
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from agon.analysis.study import build_study, page_data
from agon.core.engine import PUBLIC
from agon.core.service import Service
from agon.server import api, queries

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1rem 1.5rem; color: #222; max-width: 80rem; }
h1 { font-size: 1.3rem; margin: 0 0 .3rem; } h2 { font-size: 1.05rem; margin: 1rem 0 .3rem; }
.sub { color: #555; margin: 0 0 .8rem; } .muted { color: #5e5e5e; } .err { color: #b00020; min-height: 1.2rem; }
table { border-collapse: collapse; } td, th { border: 1px solid #e3e3e3; padding: .15rem .45rem; text-align: left;
vertical-align: top; } th { background: #fafafa; font-weight: 600; }
#status { font-size: 1.1rem; padding: .5rem .8rem; background: #f4f6f8; border-left: 4px solid #0072B2; }
#options button { display: block; margin: .25rem 0; text-align: left; font-size: .95rem; padding: .3rem .6rem; }
#decide-form { margin: .4rem 0 .8rem; }
#log { max-height: 22rem; overflow: auto; border: 1px solid #ddd; padding: .3rem .6rem; }
#log p { margin: .15rem 0; overflow-wrap: anywhere; }
.cols { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; } .cols[hidden] { display: none; }
.cols > div { flex: 1 1 28rem; min-width: 0; } #view, #scores { overflow-x: auto; }
#taken-back { padding: .3rem .8rem; border-left: 4px solid #D55E00; background: #fdf0e6; }
#status.yours { border-left-color: #D55E00; background: #fdf0e6; font-weight: 600; }
input, select { font-size: .95rem; max-width: 100%; } code { background: #f4f4f4; padding: 0 .2rem; }
#links a { overflow-wrap: anywhere; } #games-box { overflow-x: auto; }
#view td, #scores td { overflow-wrap: break-word; } #view { container-type: inline-size; }
#view .kv .kv, #view .kv .rows { margin: .1rem 0; }
.kv > tr.mine > th, .rows > tr.mine > td { background: #fdf0e6; } .kv > tr.mine > th { border-left: 3px solid #D55E00; }
span.mine { font-weight: 600; }
.rows > tr.mine > td:first-child { box-shadow: inset 4px 0 #D55E00; }  /* a mark beside the colour */
:focus-visible { outline: 3px solid #0072B2; outline-offset: 2px; }  /* where the keyboard is, plain to see */
@container (max-width: 48rem) {  /* a phone, or a column as narrow: labels above values, not in columns beside */
  #view .kv, #view .kv > tr, #view .kv > tr > th, #view .kv > tr > td { display: block; border: 0; }
  #view .kv > tr > th { background: none; padding: .3rem 0 0; }
  #view .kv > tr > td { padding: 0 0 .2rem .5rem; border-left: 2px solid #e3e3e3; }
  #view .kv > tr.mine > td { border-left: 4px solid #D55E00; } #view .kv > tr.mine > th { border-left: 0; }
  #view .kv > tr.leaf > th, #view .kv > tr.leaf > td { display: inline; border: 0; padding: 0; }
  #view .kv > tr.leaf { padding: .1rem 0; } #view .kv > tr.leaf > th::after { content: ": "; }
  #view .rows { display: block; overflow-x: auto; max-width: 100%; }  /* a wide one scrolls in its own box */
}
@container (max-width: 30rem) {  /* a phone: each row of a table as a card of labelled values */
  #view .rows, #view .rows > tr, #view .rows > tr > td { display: block; border: 0; padding: 0 .3rem; }
  #view .rows > tr:first-child { display: none; }
  #view .rows > tr { border-bottom: 1px solid #e3e3e3; padding: .2rem 0; }
  #view .rows > tr > td::before { content: attr(data-label) ": "; font-weight: 600; }
  #view .rows > tr > td:empty { display: none; }
  #view .rows > tr.mine { border-left: 4px solid #D55E00; } #view .rows > tr.mine > td { box-shadow: none; }
}
"""

REOPENING = r"""
// A stream answered with an error status (a 503 while the store is down) is closed for good by the browser: it is
// opened again after a pause that doubles up to a minute, if ``again`` (given) resolves true when asked then (the
// seat's page reads the game first: a link refused for good, one replaced by a newer, is not knocked on for ever).
function reopening(open, again) { let wait = 2000;
  const start = () => { const es = open(() => { wait = 2000; });
    es.addEventListener("error", () => { if (es.readyState === EventSource.CLOSED) {
      setTimeout(() => (again ? again() : Promise.resolve(true)).then(go => { if (go) start();
        else document.body.dataset.stream = "closed"; }), wait);
      wait = Math.min(2 * wait, 60000); } }); };
  start(); }
// said while a page's event stream is dropped and not yet opened again by the browser (the server stopped for a
// restart): cleared by the reading that follows its opening
const LOST = "the server does not answer just now (it may be restarting, or the network is down); this page follows"
  + " the game again once it does";
"""
"""The pages' event streams, opened again when the server refused one (the seat's page and the spectators')."""

# The shared script: rendering a view as tables, reading the API with the seat's token, following the stream.
SCRIPT = REOPENING + r"""
const GAME = document.body.dataset.game;
// a page opened at a prefix of the game's id (typed by hand) puts the whole id in its address, its fragment kept, so
// a reload or a bookmark stays on this game once another game shares that prefix (the page reads the game by it)
if (GAME && /\/games\/[^/]+\/seat$/.test(location.pathname)) {
  const whole = location.pathname.replace(/\/games\/[^/]+\/seat$/, "/games/" + GAME + "/seat");
  if (whole !== location.pathname) history.replaceState(history.state, "", whole + location.hash); }
// the path the server is served under behind a proxy (agon serve --root-path), before every address it names
const ROOT = document.body.dataset.root || "";
function hashToken() { return (/[#&]token=([^&]+)/.exec(location.hash) || [])[1] || null; }
const TOKEN = hashToken();
function el(tag, text, cls) { const e = document.createElement(tag); if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls; return e; }
// The view is rendered as it comes, whatever the ruleset: its field names as words, the seat's own entries (under
// its name, or a named item of that name) first and marked, small counts on one line; nothing is added to it.
let ME = null;  // the seat's player name
const NAMES = new Set();  // the game's player names: keys that are names are shown as they are
function scalar(v) { return v === null || typeof v !== "object"; }
function flat(v) { return scalar(v) || (Array.isArray(v) && v.every(scalar)); }
function words(k) { k = String(k); if (NAMES.has(k)) return k;
  const w = k.replace(/_/g, " "); return w.charAt(0).toUpperCase() + w.slice(1); }
function text(v) { if (v === null || v === undefined) return "–"; if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v)) return v.length ? v.map(text).join(", ") : "none"; return String(v); }
function record(x) { return x !== null && typeof x === "object" && !Array.isArray(x); }
function mine(x) { return ME !== null && record(x) && (x.name === ME || x.player === ME); }
function holdsMine(v) { return ME !== null && v !== null && typeof v === "object" &&  // an entry of the seat's own
  (Array.isArray(v) ? v.some(x => record(x) && x.name === ME) : Object.prototype.hasOwnProperty.call(v, ME)); }
function entries(v) {  // [label, value, mine]: a list of items with distinct names is labelled by them
  let out;
  if (Array.isArray(v)) {
    const named = v.every(x => record(x) && typeof x.name === "string")
      && new Set(v.map(x => x.name)).size === v.length;
    out = v.map((x, i) => named ? [x.name, Object.fromEntries(Object.entries(x).filter(([k]) => k !== "name")),
      mine(x)] : [String(i + 1), x, mine(x)]);
  } else out = Object.entries(v).map(([k, x]) => [k, x, ME !== null && k === ME]);
  return out.filter(e => e[2]).concat(out.filter(e => !e[2]));
}
// the seat's own entry, marked by colour and a bar, is named so for a screen reader too (nothing is shown added)
function yours(cell) { cell.setAttribute("aria-label", cell.textContent + " (yours)"); }
function render(v, depth) {
  depth = depth || 0;
  if (flat(v)) return el("span", text(v));
  const list = Object.values(v);
  if (!list.length) return el("span", "none");
  if (Array.isArray(v) && v.every(x => record(x) && Object.values(x).every(flat))) {  // rows of one kind: a table
    const cols = []; v.forEach(r => Object.keys(r).forEach(k => { if (!cols.includes(k)) cols.push(k); }));
    const t = el("table", undefined, "rows"), head = el("tr");
    cols.forEach(c => { const th = el("th", words(c)); th.scope = "col"; head.appendChild(th); }); t.appendChild(head);
    v.forEach(r => { const tr = el("tr", undefined, mine(r) ? "mine" : undefined);
      cols.forEach(c => { const td = el("td", r[c] === undefined ? "" : text(r[c])); td.dataset.label = words(c);
        tr.appendChild(td); }); t.appendChild(tr);
      if (mine(r)) yours(tr.firstChild); });
    return t;
  }
  if (depth && !Array.isArray(v) && list.length <= 8 && list.every(x => x === null || ["number", "boolean"].includes(
      typeof x))) {  // a few counts: "wood 2, stone 1"
    const line = el("span", undefined, "counts");
    Object.entries(v).forEach(([k, x], i) => { if (i) line.appendChild(document.createTextNode(", "));
      line.appendChild(el("span", (NAMES.has(k) ? k : k.replace(/_/g, " ")) + " " + text(x),
        ME !== null && k === ME ? "mine" : undefined)); });
    return line;
  }
  const t = el("table", undefined, "kv");
  let rows = entries(v);
  if (!depth) rows = rows.filter(e => holdsMine(e[1])).concat(rows.filter(e => !holdsMine(e[1])));
  for (const [k, x, own] of rows) { const shown = render(x, depth + 1);
    const tr = el("tr", undefined, (own ? "mine " : "") + (shown.tagName === "SPAN" ? "leaf" : ""));
    const th = el("th", words(k)); th.scope = "row"; if (own) yours(th);
    tr.appendChild(th); const td = el("td"); td.appendChild(shown); tr.appendChild(td);
    t.appendChild(tr); }
  return t;
}
// every request says it comes from a page, so that a refusal names what to do on the page (its buttons and lists),
// not a route of the API (server/api.py PAGE_WORDS)
async function call(method, path, body) {
  const headers = {"Content-Type": "application/json", "Agon-Face": "page"};
  if (TOKEN) headers["Authorization"] = "Bearer " + TOKEN;
  const r = await reach(ROOT + "/api/games/" + GAME + path, {method, headers,
    body: body ? JSON.stringify(body) : undefined});
  const data = (r.headers.get("content-type") || "").includes("json") ? await r.json() : {};
  if (!r.ok) { const e = new Error(data.error || ("HTTP " + r.status)); e.status = r.status; throw e; }
  return data;
}
// a request the server never answered (stopped, restarting, the network down) is said in a sentence of the page's,
// not as the browser's own words ('Failed to fetch'); a decision sent again once it answers is refused if the first
// was recorded after all (it is sent expecting the position the page showed)
const UNANSWERED = "the server did not answer (it may be restarting, or the network is down): try again in a moment";
async function reach(url, init) {
  let r;
  try { r = await fetch(url, init); } catch (e) { unanswered(); throw new Error(UNANSWERED); }
  answered(); return r; }
// that sentence is true only while the server does not answer: it goes once a request is answered, or the page's
// stream opens again (the server is back), and until then the page asks the server whether it answers again, at
// growing pauses, so that it goes even where nothing else would ask (the lobby; a page whose stream held on)
let asking = null;
function answered() { if (asking !== null) { clearTimeout(asking); asking = null; }
  const error = document.getElementById("error");
  if (error && error.textContent === UNANSWERED) showError(null); }
function unanswered(wait) { if (asking !== null) return; wait = wait || 2000;
  const again = () => unanswered(Math.min(2 * wait, 60000));
  // agon answers this whenever it runs (it reads no store); a proxy's page in its stead (a 502) is no answer of its
  asking = setTimeout(() => { asking = null;
    fetch(ROOT + "/api/rulesets", {cache: "no-store"}).then(r => r.ok ? answered() : again(), again); }, wait); }
function showError(e) { document.getElementById("error").textContent = e ? String(e.message || e) : ""; }
function logLine(row) { const p = el("p"); p.dataset.n = row.n; p.dataset.actor = row.actor;
  p.appendChild(el("span", "#" + row.n + " ", "muted"));
  // who decided, unless the sentence begins with that name already (as cli/render.py's said)
  const nobody = row.actor === "chance" || row.actor === "setup" || row.text.startsWith(row.actor + " ");
  p.appendChild(el("span", (nobody ? "" : row.actor + ": ") + row.text));
  return p; }
// the seat's own undo under way on this page: the decision it takes back is no news to be told of
let undoing = false;
// the page's readings under way (a redraw, the record's), in the page for a test to wait on: when none is and the
// stream has told an event (data-told), the page shows what it was told and nothing more will change it by itself
let reading = 0;
function readingDone() { reading -= 1; document.body.dataset.reading = reading; }
// the newest event the record shows, and its reading under way (null: none)
let logN = -1, logging = null;
async function loadLog() { reading += 1; document.body.dataset.reading = reading;
  const now = logging = drawLog();
  try { await now; } finally { if (logging === now) logging = null; readingDone(); } }
// the stream's status names event n: a record short of it is read again once any reading under way has ended (an
// event recorded after the page first read the record and before its stream opened was told by neither; one told
// while that first reading was under way was drawn over by it)
function catchUp(n) {
  (logging || Promise.resolve()).catch(() => {}).then(() => { if (logN < n) loadLog().catch(showError); });
}
async function drawLog() {
  const log = document.getElementById("log"); const data = await call("GET", "/log");
  const kept = new Set(data.events.map(r => r.n + " " + logLine(r).textContent));
  // the seat's own decisions this page showed that the record no longer holds: taken back elsewhere (the host's
  // undo, or this seat's on another device: the store does not say who)
  const gone = ME === null || undoing ? [] : [...log.children].filter(p => p.dataset.actor === ME
    && !kept.has(p.dataset.n + " " + p.textContent));
  log.replaceChildren(...data.events.map(logLine)); log.scrollTop = log.scrollHeight;
  logN = data.events.length ? data.events[data.events.length - 1].n : -1;
  if (gone.length) takenBack(gone.map(p => p.lastChild.textContent), Number(gone[gone.length - 1].dataset.n));
}
// said on a player's page, and read out, until they decide again: only the decisions of their own it showed them
function takenBack(texts, n) { const note = document.getElementById("taken-back");
  note.textContent = (texts.length === 1 ? "Your last decision (#" + n + ") was taken back: "
    : "Your last " + texts.length + " decisions were taken back, the last (#" + n + "): ")
    + texts[texts.length - 1];
  note.hidden = false; }
function clearTakenBack() { const note = document.getElementById("taken-back"); note.hidden = true;
  note.textContent = ""; }
// the stream says it is a page's in its query (a browser's EventSource sends no header of its own), so that what
// it reports names what to do on the page, as every request's refusal does (server/api.py FACE_PARAM)
// A seat's stream names its seat by a cookie sent to that stream alone, set by a POST that carries the token in its
// header (server/api.py stream_seat): a token in the stream's address would be kept in a proxy's access log.
function follow(onRecorded, onChange, onError) {
  if (!TOKEN) { following("?face=page", onRecorded, onChange, onError); return; }
  let wait = 2000;
  const named = () => call("POST", "/stream-seat", {}).then(
    f => following("?face=page&seat=" + f.stream, onRecorded, onChange, onError),
    e => { if (e.status === 401 || e.status === 403) { document.body.dataset.stream = "closed"; return; }
      setTimeout(named, wait); wait = Math.min(2 * wait, 60000); });  // the server away: asked again later
  named();
}
function following(q, onRecorded, onChange, onError) {
  let opened = false, drops = 0;  // drops: the stream's ends since it last opened (a stream may end, and reopen)
  reopening(ok => { const es = new EventSource(ROOT + "/api/games/" + GAME + "/events" + q);
    // the stream's own report of what went wrong (the store away for a moment); a dropped connection, which the
    // browser opens again by itself, is said too once opening it again failed (the server stopped for a restart):
    // the page showed the game as it last stood, as if nothing were happening
    es.addEventListener("error", ev => { if (ev.data) onError(JSON.parse(ev.data).error);
      else if (es.readyState === EventSource.CONNECTING && ++drops > 1 && !linkRefused) {
        showError(LOST); errorAt = null; } });
    es.addEventListener("recorded", ev => onRecorded(JSON.parse(ev.data)));
    es.addEventListener("status", ev => { told(ev); const s = JSON.parse(ev.data); catchUp(s.event); onChange(s); });
    es.addEventListener("moved", ev => { told(ev); loadLog().catch(showError); onChange(JSON.parse(ev.data)); });
    // the browser reconnects a dropped stream by itself; what changed meanwhile (an undo included) is read again
    es.onopen = () => { ok(); drops = 0; answered();
      if (opened) { loadLog().catch(showError); onChange({}); } opened = true; };
    return es; }, () => refresh().then(() => !linkRefused));
}
function told(ev) { document.body.dataset.told = JSON.parse(ev.data).event; }
function appendLog(row) { const log = document.getElementById("log");
  // a row the page holds at this number or later was taken back (an undo whose re-reading of the record failed,
  // or was overtaken): the new event replaces it and what followed it
  for (const p of [...log.children]) if (Number(p.dataset.n) >= row.n) p.remove();
  log.appendChild(logLine(row)); log.scrollTop = log.scrollHeight; logN = row.n; }
"""

# A line longer than 120 columns is cut into adjacent pieces (""" then r""" on the next line), joined back by Python.
SEAT_SCRIPT = (r"""
let current = null;
// the position the options were read at: a typed decision is sent expecting it, as a button's is
let optionsAt = null;
// a decision of many variants, built step by step (/steps): the steps taken, and those before each step back
let chosen = [], earlier = [], stepsAt = null;
async function readSteps() {
  try { return await call("GET", "/steps?chosen=" + encodeURIComponent(chosen.join(" "))); }
  catch (e) { chosen = []; earlier = []; return await call("GET", "/steps"); }  // steps no longer fit: start again
}
function drawSteps(q, position) {
  const box = el("div"); box.id = "steps";
  // the values chosen, as play shows them: an event's field names ('nominee_city') are not the table's words
  box.appendChild(el("p", q.chosen.length ? "So far: " + q.chosen.map(c => c.shown || c.value).join(", ")
    : "Build your decision step by step.", "muted"));
  // a panel answers one click: a second click on it (a double tap, or a tap again while a slow phone reads the
  // next step) would take the same step again from the same place, and 'back one step' would then go nowhere
  const once = go => () => { if (box.dataset.taken) return; box.dataset.taken = "1";
    box.setAttribute("aria-busy", "true"); go(); };
  const take = words => { earlier.push(chosen); chosen = words; step(); };
  if (q.complete) {
    const b = el("button", "record: " + q.decision.text); b.className = "finish";
    b.onclick = () => act(q.choice, position); box.appendChild(b);
  } else {  // a step that may end the decision is one of the choices ('done'): other steps may follow it
    box.appendChild(el("p", "Next, " + q.question.prompt + ":"));
    q.question.choices.forEach(c => { const b = el("button", c.value + (c.label ? ": " + c.label : ""));
      b.className = "step"; b.dataset.value = c.value;
      b.onclick = once(() => take(q.chosen.map(x => x.value).concat([c.value]))); box.appendChild(b); });
  }
  if (earlier.length) { const b = el("button", "back one step"); b.className = "back";
    b.onclick = once(() => { chosen = earlier.pop(); step(); }); box.appendChild(b); }
  return box;
}
// what the page shows, as drawn from its last readings: a redraw that reads the same leaves that part as it is, so
// a button under a finger (or the keyboard's focus) stays the button it was while nothing changed
const drawn = {};
function redraw(part, value, draw) { const key = JSON.stringify(value);
  if (drawn[part] !== key) { drawn[part] = key; draw(); } }
// the decisions as last read (the options, and the steps when built step by step), drawn only when they changed
let shownOptions = null;
function drawOptions(o, q) {
  shownOptions = o;
  if (document.querySelector("#steps[data-taken]")) delete drawn.options;  // a panel clicked is never left as is
  redraw("options", [o.position, o.options, o.note, q, earlier.length], () => {
    const box = document.getElementById("options"); box.replaceChildren();
    if (q) box.appendChild(drawSteps(q, o.position));
    o.options.forEach(opt => { const b = el("button", opt.n + ". " + opt.text); b.dataset.n = opt.n;
      b.onclick = () => act(opt.n, o.position); box.appendChild(b); });
    if (o.note) box.appendChild(el("p", o.note, "muted"));
  });
}
// the steps read after a step is taken or taken back: the game did not move, so only they are read again (the
// whole page's readings, four requests, made a slow phone wait for each step); the newest step's reading draws,
// unless a redraw of the whole page began meanwhile, which reads the steps as they now stand itself
let stepping = 0;
async function step() {
  const mine = ++stepping, whole = redraws;
  reading += 1; document.body.dataset.reading = reading;
  try {
    const q = await readSteps();
    if (mine !== stepping || whole !== redraws || !shownOptions) return;
    const focused = document.activeElement;
    drawOptions(shownOptions, q);
    keepFocus(focused);
  } catch (e) { if (mine === stepping) { showError(e); errorAt = null;  // the panel may be clicked again
    const box = document.getElementById("steps");
    if (box) { delete box.dataset.taken; box.removeAttribute("aria-busy"); } } }
  finally { readingDone(); }
}
// redraws overlap (the stream's, this page's own after an action): each reads everything first, and only the
// newest one started draws, at once (two drew their steps into the page one after the other, doubling its buttons)
let redraws = 0;
async function refresh() {
  const mine = ++redraws, steps = stepping;
  reading += 1; document.body.dataset.reading = reading;
  try {
    const s = await call("GET", "");
    const o = await call("GET", "/options?brief=1");
    if (o.position !== stepsAt) { chosen = []; earlier = []; stepsAt = o.position; }
    optionsAt = o.position;
    const q = o.stepwise ? await readSteps() : null;
    if (mine !== redraws || linkRefused) return;  // a newer redraw is under way, or the link was refused meanwhile
    const focused = document.activeElement;
    current = s;
    document.getElementById("game").hidden = false;  // hidden until the game is read: empty headings else
    ME = s.host ? null : s.you; NAMES.clear(); s.players.forEach(p => NAMES.add(p.name));
    document.getElementById("you").textContent = s.host ? "You are the host (the table's recorder)."
      : s.you ? "You play " + s.you + "." : "No seat: you see what every player sees.";
    // the seat whose turn it is is told so in words, in colour and in the tab's title (seen from another tab)
    const yours = s.pending.kind === "decision" ? !s.host && s.pending.player === s.you
      : s.pending.kind === "chance" && s.table && s.host;
    const status = document.getElementById("status");
    const said = (yours ? "Your turn. " : "") + "#" + s.event + ": " + s.status;
    if (status.textContent !== said) status.textContent = said;  // a screen reader reads it out when it changes
    status.classList.toggle("yours", yours);
    document.title = (yours ? "(your turn) " : "") + (s.host ? "host" : s.you || "no seat") + ": "
      + s.title + ", game " + GAME + " - agon";
    document.getElementById("status").dataset.event = s.event;
    redraw("view", [ME, s.players, s.view], () => document.getElementById("view").replaceChildren(render(s.view)));
    // a crew's one score (the players win or lose together: an Adamastor crew) told once, as the crew's, as `agon
    // games` and `agon state` tell it, not once for each player; a solo voyage keeps its player's name
    const scores = s.shared_score != null && s.players.length > 1 ? {"the crew": s.shared_score} : s.scores;
    redraw("scores", [ME, s.players, scores],
      () => document.getElementById("scores").replaceChildren(render(scores)));
    // the scores during the game are the ruleset's public ones (the same for every seat, so none holds a hidden
    // card): said so, as a player's view may count their own hand; the final scoring's are exact
    document.getElementById("scores-note").hidden = s.pending.kind === "over";
    shownOptions = o;
    if (steps === stepping) drawOptions(o, q);  // else a step taken meanwhile draws the steps (step)
    const box = document.getElementById("options");
    // the heading only over something: not on a page with no seat (no decision is its own), nor a finished game's
    document.getElementById("options-title").hidden = !box.children.length || (!s.host && !s.you);
    box.hidden = !box.children.length;
    // a decision may be typed as agon play takes it, on the page of the seat deciding now (never the host's)
    document.getElementById("decide-form").hidden = !(!s.host && s.you && s.pending.kind === "decision"
      && s.pending.player === s.you);
    document.getElementById("chance").hidden = !(s.host && s.pending.kind === "chance" && s.table);
    const p = s.pending;  // what the host may type: the items to draw from, or dice (which have no items to list)
    if (p.kind === "chance") document.getElementById("chance-items").textContent = p.chance === "dice"
      ? (p.count === 1 ? "roll a die of " + p.sides + " sides and type what it shows, a number from 1 to "
        : "roll " + p.count + " dice of " + p.sides + " sides and type each, separated by spaces: numbers from 1 to ")
        + p.sides : p.items && p.items.length  // each with the name its card shows, which may be typed too
        ? "possible: " + p.items.map(i => p.names && p.names[i] ? i + " " + p.names[i] : i).join(", ") : "";
    const undo = document.getElementById("undo");
    undo.hidden = !s.may_undo;  // shown only while the undo policy allows it (the host's too: 'undoable')
    undo.textContent = s.host ? "undo the last entry" : "undo my last decision";
    undo.title = s.host ? "take back the last decision or chance outcome entered, with what followed it"
      + " by itself" : "take back your last decision";
    // the host's answer alone has may_redo: a player's or a spectator's page never shows the redo
    document.getElementById("redo").hidden = !(s.host && s.may_redo);
    // an action's refusal stays while it is news: for the event it was shown at, or (NEXT) the one this redraw shows
    if (errorAt === NEXT) errorAt = s.event; else if (s.event !== errorAt) { showError(null); errorAt = null; }
    keepFocus(focused);
  } catch (e) { if (mine === redraws) { showError(e); errorAt = null; }
    linkRefused = linkRefused || e.status === 401 || e.status === 403;
    if (linkRefused) forget(); }
  finally { readingDone(); }
}
// a link replaced while its page was open (agon links: someone else saw it) leaves nothing of the seat's game on
// the page, as one opened with it shows none: not the hand it showed, nor a turn or decisions that are no longer its
function forget() {
  document.getElementById("game").hidden = true;
  ["view", "scores", "log", "options"].forEach(id => document.getElementById(id).replaceChildren());
  for (const k in drawn) delete drawn[k];
  clearTakenBack(); ME = null; current = null;
  document.getElementById("you").textContent = "";
  const status = document.getElementById("status"); status.textContent = ""; status.classList.remove("yours");
  delete status.dataset.event;
  document.title = "game " + GAME + " - agon";
}
// the page's link opens no seat (mistyped, or replaced by a newer one): the refusal says what to do; the page shows
// no empty sections of a game under it, nor opens its stream again and again
let linkRefused = false;
// a redraw that took away the focused control (an option it replaced, the undo, redo or chance entry it hid) moves the
// focus to the first decision it drew, or else to the status, not to the top of the page (where a keyboard or a
// screen reader would have to start again); focus elsewhere, or none, is left where it is, and so is the scroll
function keepFocus(was) {
  if (!was || was === document.body || (was.isConnected && was.getClientRects().length)) return;
  (document.querySelector("#options button") || document.getElementById("status")).focus({preventScroll: true});
}
// the event a refused action's sentence was shown at: a redraw for that same event (the stream's, or this seat's
// other page's) keeps it; the game moving on, or the next action, clears it
let errorAt = null;
// errorAt for a refusal shown before the redraw that follows it: the game as that redraw finds it is the one the
// sentence speaks of (a redraw the stream began meanwhile may be the one that draws, the act's own being dropped)
const NEXT = {};
function refused(e) { showError(e); errorAt = current ? current.event : null; }
// an act, undo or redo refused: a 409 is the game having moved before the click arrived (another seat, an undo, or
// this seat's other page), whose sentence says how, in the page's words, and the page shows the game as it is now
async function failed(e) {
  if (e.status !== 409) { refused(e); return; }
  showError(e); errorAt = NEXT;
  await refresh();
}
// whether it was recorded
// a decision, undo or redo under way from this page: a second tap meanwhile (a double tap, or a tap again on a slow
// phone while the first is sent) sends nothing, where it was refused as made where the game had moved on from
let acting = false;
async function act(choice, expect) {
  if (acting) return false;
  acting = true;
  showError(null); errorAt = null;
  try { await call("POST", "/act", {choice: String(choice), expect}); clearTakenBack(); await refresh(); return true; }
  catch (e) { await failed(e); return false; }
  finally { acting = false; }
}
// the decision typed whole, as agon play takes it (server/api.py act reads it through the core service's steps),
// sent with this seat's token; refused, it stays in the field to be put right
document.getElementById("decide-form").onsubmit = async ev => { ev.preventDefault();
  const input = document.getElementById("decide-input");
  if (!input.value.trim()) { refused("type your decision first (its steps in order, as the buttons name them), or"
    + " choose one of the buttons"); return; }
  if (await act(input.value, optionsAt)) input.value = ""; };
document.getElementById("chance-form").onsubmit = ev => { ev.preventDefault();
  const typed = document.getElementById("chance-input").value;
  // nothing typed: said in the page's words (the API's names its field, 'choice'), and nothing is sent
  if (!typed.trim()) { refused("type the outcome first (what was rolled or drawn), or 'seed' to let agon draw it");
    return; }
  act(typed, current ? current.position : undefined); };
// the undo sends the position the page showed (as its decisions do): a move that lands just before the click is
// not what it takes back; the game moved, and the page shows it as it is now, with the sentence saying how
document.getElementById("undo").onclick = async () => {
  if (acting) return;  // a second tap while the first is under way, as for a decision
  acting = true; showError(null); errorAt = null;
  undoing = true;  // what this undo takes back is not told as the host's
  try { await call("POST", "/undo", current ? {expect: current.position} : {}); clearTakenBack(); await loadLog();
    await refresh(); }
  catch (e) { await failed(e); } finally { undoing = false; acting = false; } };
// the host's redo sends the position the page showed too: a click just after another redo (the host's other page)
// or a move does not bring back a second undo the host never saw; refused, it says why as the undo does
document.getElementById("redo").onclick = async () => {
  if (acting) return;
  acting = true; showError(null); errorAt = null;
  try { await call("POST", "/redo", current ? {expect: current.position} : {}); await loadLog(); await refresh(); }
  catch (e) { await failed(e); } finally { acting = false; } };
// another seat's link opened in this tab differs from its address only after '#', so the browser does not load the
// page again: it is loaded for the token the address now holds, not left acting as the seat it showed
window.addEventListener("hashchange", () => { if (hashToken() !== TOKEN) location.reload(); });
refresh(); loadLog().catch(showError);
// the stream's report stays up until the game moves on; a report that the link opens no seat (replaced while the
// page was open: agon links) takes away at once what the page showed of the seat, as a redraw refused so does
follow(appendLog, () => refresh(), e => { refused(e);
  if (!linkRefused) call("GET", "").catch(x => { if (x.status === 401 || x.status === 403) { linkRefused = true;
    forget(); } }); });
""")

def _page(title: str, body: str, game: str = "", script: str = "", root: str = "") -> HTMLResponse:
    scripts = f"<script>{SCRIPT}{script}</script>" if script else ""
    return HTMLResponse(
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="referrer" content="no-referrer">'
        f'<link rel="icon" href="data:,">'  # no icon: the browser asks for no /favicon.ico (a 404 in its console)
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f'<body data-game="{html.escape(game)}" data-root="{html.escape(root)}">{body}{scripts}</body></html>',
        headers={"Cache-Control": "no-store"})


def _failed(request: Request, e: Exception) -> Response:
    """A page that cannot be shown: the API's one-line JSON error for a program, and for a browser (which asks for
    HTML) a page a person reads, with a link to the lobby rather than a route of the API to request."""
    if "text/html" not in request.headers.get("accept", ""):
        return api.failure(e)
    answer = api.failure(e, api.PAGE_WORDS)  # a person reads it: the lobby, not a route of the API
    game = request.path_params.get("game", "")
    if answer.status_code == 404:
        said = (f"There is no game {game[:40]!r} on this server: check the link you were given, or find the game "
                "in the lobby.")
    else:
        said = "This page could not be shown: " + json.loads(answer.body)["error"]
    page = _page("agon: no such game" if answer.status_code == 404 else "agon",
                 f'<h1>agon</h1><p class="err">{html.escape(said)}</p>'
                 f'<p><a href="{html.escape(_root(request))}/">the lobby</a></p>', root=_root(request))
    page.status_code = answer.status_code
    return page


def _root(request: Request) -> str:
    """The path the server is served under behind a proxy that takes it off (``api.root_of``), put before every
    address a page names, so that each goes through the proxy; "" at the root of its host."""
    return api.root_of(request)


def _query(request: Request, hints: dict[str, str]) -> None:
    """Refuse, in a page's query, a parameter that means something elsewhere in agon (``hints``, each with what to
    do instead): a seat's token put where servers and proxies log it (and where the page does not read it, so it
    showed no seat), a study position as ``?step=3``, the API's filters on the lobby. Each page reads what it shows
    from its path, and what a browser keeps to itself from the address's fragment, so such a parameter would be
    silently ignored: it is a 400 in the API's words instead (server/queries.py). Any other parameter is let through
    and ignored, as web pages do: a link shared through a messenger or a mail comes back with ``?fbclid=...`` or
    ``?utm_source=...`` added, and must still open."""
    asked = [(k, v) for k, v in request.query_params.multi_items() if k in hints]
    if not asked:
        return
    hints = {k: v.replace("{root}", _root(request)) for k, v in hints.items()}  # a path named under the proxy's
    try:
        queries.check(f"{request.method} {request.url.path}", (), asked, token=False, hints=hints)
    except queries.BadQuery as e:
        raise api.HttpError(400, str(e)) from None


LOBBY_GAMES = 100
"""How many games the lobby lists, the newest first (a club's whole history is ``GET /api/games``'s, by its
filters)."""

LOBBY_HINTS = {**dict.fromkeys(("ruleset", "status", "order", "limit"), (
    f"the lobby lists the newest {LOBBY_GAMES} games; GET {{root}}/api/games takes it and lists every game")),
    "token": "a seat's token goes after '#' in its page's address ({root}/games/ID/seat#token=...), which a browser"
             " never sends to a server; open the link as it was given"}
"""What the lobby's refusal says of a parameter ``GET /api/games`` takes, or of a token (``{root}``: the path the
server is served under, ``_query``)."""

SEAT_HINTS = {"token": "a seat's token goes after '#' in the address ({root}/games/ID/seat#token=...), which a"
                       " browser never sends to a server; open the link as it was given"}
"""What the seat page's refusal says of a token in its query (the API's routes take one there; the page does not,
so that it stays out of servers' and proxies' logs)."""

WATCH_HINTS = {**dict.fromkeys(("line", "step"), "a position on the page goes after '#' in the address"
                                                 " (#line=NAME&step=N)"),
               "token": "the spectators' page shows the game as every player sees it, to everyone; a seat's own"
                        " page is its link ({root}/games/ID/seat#token=...)"}
"""What the spectators' page's refusal says of a position or a token in its query."""


async def lobby(request: Request) -> Response:
    try:
        _query(request, LOBBY_HINTS)
    except api.HttpError as e:
        return _failed(request, e)
    svc: Service = request.app.state.service
    root = html.escape(_root(request))
    try:  # the store away (its database down): a 503 in one sentence, as the API's, not a server error
        games = await run_in_threadpool(api.list_games, api.Call(svc, "", None, {}, {
            "order": "newest", "limit": LOBBY_GAMES}))  # as the route reads its query: typed
    except Exception as e:  # noqa: BLE001
        return _failed(request, e)
    rulesets = await run_in_threadpool(api.list_rulesets, None)
    rows = "".join(
        f"<tr><td><code>{html.escape(g['game'])}</code></td><td>{html.escape(g['ruleset'])}</td>"
        f"<td>{html.escape(g['title'])}</td><td>{html.escape(', '.join(g['players']))}</td>"
        f"<td>{html.escape(str(g['status']))}</td>"
        f"<td><a href=\"{root}/games/{html.escape(g['game'])}/watch\">watch</a></td></tr>" for g in games)
    heads = "".join(f'<th scope="col">{c}</th>' for c in ("game", "ruleset", "title", "players", "status"))
    table = (f'<table id="games"><tr>{heads}<th scope="col" aria-label="spectators\' page"></th></tr>{rows}</table>'
             if games else "<p class=\"muted\">No games yet.</p>")
    options = "".join(f"<option value=\"{html.escape(r['name'])}\">{html.escape(r['title'])} ({r['min_players']}"
                      f"-{r['max_players']} players; bots: {html.escape(', '.join(r['bots']))})</option>"
                      for r in rulesets)
    body = f"""<h1>agon: games on this server</h1>
<p class="sub">Create a game, then give each player their own link: it opens their seat, and only theirs.</p>
<div id="games-box">{table}</div>
<p class="muted">The newest {LOBBY_GAMES} games are listed here;
 <a href="{root}/api/games">{root}/api/games</a> lists them all.</p>
<h2 id="create-title">Create a game</h2>
<form id="create" aria-labelledby="create-title">
<p><label>Ruleset <select id="ruleset">{options}</select></label></p>
<p><label>People (names, comma-separated) <input id="players" size="40" placeholder="Ana, Bo"></label></p>
<p><label>Bots (NAME:KIND, comma-separated) <input id="bots" size="40" placeholder="Chloe:random"></label></p>
<p><label>Title <input id="title" size="30"></label> <label>Seed <input id="seed" size="8"></label>
<label><input type="checkbox" id="table"> played at a real table (the host enters dice and draws)</label></p>
<p><button type="submit">Create</button></p>
</form>
<p class="err" id="error" role="alert"></p>
<div id="links"></div>"""
    script = (r"""
async function games() {
  const rows = await (await fetch(ROOT + "/api/games?order=newest&limit=@LOBBY@", {cache: "no-store"})).json();
  const t = el("table"); t.id = "games"; const head = el("tr");
  ["game", "ruleset", "title", "players", "status", ""].forEach(c => { const th = el("th", c); th.scope = "col";
    if (!c) th.setAttribute("aria-label", "spectators' page"); head.appendChild(th); });
  t.appendChild(head);
  rows.forEach(g => { const tr = el("tr"), id = el("td"); id.appendChild(el("code", g.game)); tr.appendChild(id);
    [g.ruleset, g.title, g.players.join(", "), String(g.status)].forEach(x => tr.appendChild(el("td", x)));
    const w = el("td"), a = el("a", "watch"); a.href = ROOT + "/games/" + encodeURIComponent(g.game) + "/watch";
    w.appendChild(a); tr.appendChild(w); t.appendChild(tr); });
  document.getElementById("games-box").replaceChildren(t);
}
// a game under way from this form: a second tap meanwhile (a double tap, Enter pressed twice, a tap again on a slow
// phone) sends nothing, where it made a second game beside the first, whose links were never shown
let creating = false;
document.getElementById("create").onsubmit = async ev => {
  ev.preventDefault();
  if (creating) return;
  creating = true;
  try { await create(); } finally { creating = false; }
};
async function create() {
  const split = s => s.split(",").map(x => x.trim()).filter(x => x);
  const seed = document.getElementById("seed").value.trim();
  const body = {ruleset: document.getElementById("ruleset").value, """
      r"""players: split(document.getElementById("players").value),
    bots: split(document.getElementById("bots").value)"""
        r""".map(b => ({name: b.split(":")[0], kind: b.split(":")[1] || "random"})),
    title: document.getElementById("title").value, table: document.getElementById("table").checked};
  // a number goes as one; anything else as typed, so the refusal names what was typed (Number gave NaN: null)
  if (seed) body.seed = /^-?[0-9]+([.][0-9]*)?$/.test(seed) ? Number(seed) : seed;
  // said to come from a page, as the seat's requests are: a refusal names the lobby's form, not the API's fields
  let r, data;  // unanswered, or answered by something other than agon (a proxy's page): said, not left unseen
  try { r = await reach(ROOT + "/api/games", {method: "POST", """
      r"""headers: {"Content-Type": "application/json", "Agon-Face": "page"}, body: JSON.stringify(body)});
    data = await r.json(); }
  catch (e) { showError(r ? new Error("the server's answer (HTTP " + r.status + ") was not agon's: try again in a"
    + " moment") : e); return; }
  if (!r.ok) { showError(new Error(data.error)); return; }
  showError(null);
  const box = document.getElementById("links"), said = el("h2", "Game " + data.game + ": its links");
  said.tabIndex = -1; box.replaceChildren(said);
  // each link named by whom it is for: a player by their name, the host's and the spectators' in words with a comma,
  // which no player's name holds (a player named 'host' had a link labelled 'host' beside the host's own)
  const add = (who, link, label) => { const p = el("p"); p.appendChild(el("b", (label || who) + ": "));
    const a = el("a", location.origin + link); a.href = link; a.className = "seat-link"; a.dataset.who = who;
    p.appendChild(a); box.appendChild(p); };
  Object.entries(data.seats).forEach(([who, s]) => add(who, s.link));
  games().catch(() => {});  // the list above shows the new game too (it said "No games yet." beside its links)
  add("host", data.host.link, "the host (the table's recorder), to keep");
  add("spectators", data.spectate, "spectators, for anyone");
  box.appendChild(el("p", "Keep these now: the server stores only their hashes and cannot show them again.", "muted"));
  said.focus();  // a keyboard or a screen reader goes on from the new links, which it would not know were there
}
""").replace("@LOBBY@", str(LOBBY_GAMES))
    return _page("agon: games on this server", body, "", script, root)


async def seat(request: Request) -> Response:
    game = request.path_params["game"]
    try:  # a link to no game says so (404), not a page that fails when it asks
        _query(request, SEAT_HINTS)
        info = await run_in_threadpool(request.app.state.service.game, game)
    except Exception as e:  # noqa: BLE001
        return _failed(request, e)
    # named by its title (else its ruleset's) before its script runs, as the script names the tab once it has read
    # the game: 'Friday night, game ID', not an id alone
    named = api.game_title(info.title, info.ruleset)
    root = html.escape(_root(request))
    # the game's whole id from here on, whatever prefix the address typed: a prefix unique now may be shared by a
    # game made later, which would leave the page's requests and stream refused as ambiguous (the script also puts
    # the whole id in the address, so a reload or a bookmark stays on this game)
    game = info.id
    body = f"""<h1>{html.escape(named)}: game <code>{html.escape(game)}</code></h1>
<p class="sub" id="you"></p>
<p id="status" role="status" tabindex="-1"></p>
<p class="err" id="error" role="alert"></p>
<p id="taken-back" role="status" hidden></p>
<div class="cols" id="game" hidden>
<div><h2 id="options-title" hidden>Your decisions</h2>
<div id="options" role="group" aria-labelledby="options-title"></div>
<form id="decide-form" aria-labelledby="decide-label" hidden><label id="decide-label" for="decide-input">or type
 your decision</label>
<input id="decide-input" size="30" autocomplete="off" spellcheck="false"
 placeholder="its steps in order, each by a prefix">
<button type="submit">record</button></form>
<div id="chance" hidden><h2 id="chance-title">Chance outcome</h2><p class="muted" id="chance-items"></p>
<form id="chance-form" aria-labelledby="chance-title"><input id="chance-input" size="30"
 placeholder="3 5, card ids, or seed" aria-labelledby="chance-title" aria-describedby="chance-items">
<button type="submit">record</button></form></div>
<p><button id="undo" hidden title="take back your last decision">undo my last decision</button>
<button id="redo" hidden title="bring back what the last undo took back">redo the last undo</button></p>
<h2 id="scores-title">Scores</h2><p class="muted" id="scores-note" hidden>As every player can work them out now:
 what one player alone sees (the cards in a hand) counts only in the final scoring, so your own may differ from what
 your view's totals give.</p>
<div id="scores" role="region" aria-labelledby="scores-title" aria-describedby="scores-note" tabindex="0"></div>
<h2 id="log-title">Record</h2><div id="log" role="region" aria-labelledby="log-title" tabindex="0"></div></div>
<div><h2 id="view-title">The game as you see it</h2>
<div id="view" role="region" aria-labelledby="view-title" tabindex="0"></div></div>
</div>
<p class="muted"><a href="{root}/games/{html.escape(game)}/watch">spectators' page</a> ·
 <a href="{root}/">lobby</a></p>"""
    return _page(f"{named}, game {game} - agon", body, game, SEAT_SCRIPT, _root(request))


WATCH_SCRIPT = REOPENING + r"""
(function () {
  "use strict";
  const study = window.agonStudy, game = study.data().game;
  // opened at a prefix of the game's id: the whole id in the address (as the seat's page puts it there)
  if (/\/games\/[^/]+\/watch$/.test(location.pathname)) {
    const whole = location.pathname.replace(/\/games\/[^/]+\/watch$/, "/games/" + game + "/watch");
    if (whole !== location.pathname) history.replaceState(history.state, "", whole + location.hash); }
  const ROOT = @ROOT@;  // the path the server is served under (agon serve --root-path), before its addresses
  let busy = false, again = false, last = 0;
  // the stream's report of trouble (the store away for a moment), shown as the seat's page shows it: under the
  // title, read out by a screen reader, and kept until the game moves on from where it stood when it was said
  const error = document.createElement("p"); error.id = "error"; error.setAttribute("role", "alert");
  error.style.cssText = "color: #b00020; margin: .2rem 0 0;";
  document.querySelector("header").appendChild(error);
  let errorAt = null;
  function shown() { const d = study.data(); const l = d.lines.find(x => x.name === d.current);
    return d.current + "@" + d.nodes[l.path[l.path.length - 1]].n; }
  // a reading under way, or asked for, in the page for a test to wait on (as the seat page's data-reading)
  const marked = () => { document.body.dataset.reading = busy || again ? 1 : 0; };
  async function reload() {
    if (busy) { again = true; marked(); return; }
    busy = true; marked();
    try {
      const wait = Math.max(0, 1000 - (Date.now() - last));  // at most one reading a second
      if (wait) await new Promise(r => setTimeout(r, wait));
      last = Date.now();
      const r = await fetch(ROOT + "/games/" + encodeURIComponent(game) + "/watch.json", {cache: "no-store"});
      if (r.ok) await study.update(await r.json());
    } catch (e) { /* the stream reports the next change; read again then */ }
    finally { busy = false; if (again) { again = false; reload(); } }
    document.body.dataset.live = shown();
    if (errorAt !== null && errorAt !== shown()) { error.textContent = ""; errorAt = null; }
    marked();
  }
  const changed = ev => { const s = JSON.parse(ev.data); document.body.dataset.told = s.event;
    if (ev.type === "status" && s.branch + "@" + s.event === shown()) return;  // nothing new
    reload(); };
  let opened = false, drops = 0;  // drops: the stream's ends since it last opened (it may end, and reopen)
  reopening(ok => { const es = new EventSource(ROOT + "/api/games/" + encodeURIComponent(game)
    + "/events?face=page");
    es.addEventListener("error", ev => { if (ev.data) {  // not a dropped connection: that carries no data
      error.textContent = JSON.parse(ev.data).error; errorAt = shown(); }
      else if (es.readyState === EventSource.CONNECTING && ++drops > 1) { error.textContent = LOST; errorAt = LOST; }
    });
    es.addEventListener("status", changed);
    es.addEventListener("moved", changed);
    es.onopen = () => { ok(); drops = 0; if (opened) reload(); opened = true; };  // what changed while it was closed
    return es; });
  if (!/step=/.test(study.opened)) study.end();  // a spectator arrives at the newest event
  document.body.dataset.live = shown();
})();
"""


class Studies:
    """The spectators' study data of the games this worker showed lately, by the heads of every line of the game
    and its current line: lines up to given heads never change (an event's id is its chain hash), so the data for
    the heads the store holds now is the data of the game now, whichever worker recorded it. ``size``: the games
    a club's spectators watch at once, with room to spare; a finished game's data held 0.2-0.6 MB, so at most some
    40 MB per worker."""

    def __init__(self, size: int = 64) -> None:
        self.items: OrderedDict[tuple, dict[str, Any]] = OrderedDict()
        self.size = size
        self.lock = threading.Lock()

    def get(self, svc: Service, game_ref: str) -> dict[str, Any]:
        game = svc.game(game_ref)
        current, heads = svc.store.heads_of([game.id])[game.id]
        key = (game.id, current, heads)
        with self.lock:
            data = self.items.get(key)
            if data is not None:
                self.items.move_to_end(key)
                return data
        lines = svc.lines(game.id)
        current = lines[0].game.current_branch
        data = page_data(lines, as_player=PUBLIC, current=current)
        key = (game.id, current, tuple(sorted((ln.branch.name, ln.head.id) for ln in lines)))
        with self.lock:
            self.items[key] = data
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return data


async def watch(request: Request) -> Response:
    """The study page of the game as every player sees it, following the game live."""
    root = _root(request)

    def build() -> str:
        return build_study([], data=request.app.state.studies.get(request.app.state.service,
                                                                   request.path_params["game"]),
                           script=WATCH_SCRIPT.replace("@ROOT@", json.dumps(root).replace("<", "\\u003c")),
                           plotly_src=root + PLOTLY_PATH)

    try:
        _query(request, WATCH_HINTS)
        return HTMLResponse(await run_in_threadpool(build), headers={"Cache-Control": "no-store"})
    except Exception as e:  # noqa: BLE001
        return _failed(request, e)


async def watch_data(request: Request) -> Response:
    """The spectators' study data, newer (what the study page redraws itself with)."""
    try:
        _query(request, WATCH_HINTS)
        data = await run_in_threadpool(request.app.state.studies.get, request.app.state.service,
                                       request.path_params["game"])
    except Exception as e:  # noqa: BLE001
        return api.failure(e)
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


PLOTLY_PATH = f"/static/plotly-{version('plotly')}.js"
"""Where the spectators' page loads plotly.js from: named by its version, so a browser may keep it for good (it
was inlined in every page, 4.8 MB each time a spectator opened or reloaded one)."""


@functools.cache
def _plotly_bodies() -> tuple[bytes, bytes]:
    """plotly.js as bytes, and gzipped (about a quarter of the size), made once per worker."""
    from plotly.offline import get_plotlyjs

    body = get_plotlyjs().encode()
    return body, gzip.compress(body, 6)


async def plotly_js(request: Request) -> Response:
    body, packed = await run_in_threadpool(_plotly_bodies)
    headers = {"Cache-Control": "public, max-age=31536000, immutable", "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        body, headers["Content-Encoding"] = packed, "gzip"
    return Response(body, media_type="text/javascript; charset=utf-8", headers=headers)


def routes() -> list[Route]:
    return [Route("/", lobby), Route("/games/{game}/seat", seat), Route("/games/{game}/watch", watch),
            Route("/games/{game}/watch.json", watch_data), Route(PLOTLY_PATH, plotly_js)]

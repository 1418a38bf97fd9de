"""agon serve's pages for every player, in a real browser (tests/browser.py): one who uses the keyboard alone, one
who hears the page through a screen reader, one on a phone or at 200% zoom, one who sees colours differently.

- a table game played to its end with Tab, Shift-Tab, Enter, Space and typing only (the host's chance entry, each
  seat's decisions, an undo), the focus always visible and never dropped to the top of the page by a redraw;
- a decision of many variants built step by step with the keyboard (a step, a step back, the finished decision);
- what a screen reader reads, from Chromium's accessibility tree: every control named, headings in order, tables
  with headers, the status and refusals announced (a live status, an alert), a title naming the game and the seat,
  the seat's own entry said to be theirs, the study page's plots a named picture whose words are beside it;
- text against its background at WCAG AA's contrast (4.5:1, large text 3:1), from the pages' own CSS as Chromium
  computes it, and the marks that carry a meaning (the seat's own entry, "your turn", the move shown) told by
  more than colour;
- the pages at 200% zoom (a 1280 px window: 640 CSS px): nothing wider than the window, a wide table scrolling in
  its own box.

The server runs in this process under uvicorn on 127.0.0.1 (tests/browser.py's ``server``).
"""

from __future__ import annotations

import json

import httpx
import pytest

from tests.browser import open_page
from tests.servers import made

pytestmark = pytest.mark.browser


# -- the keyboard -----------------------------------------------------------------------------------------------

FOCUSED = """() => { const e = document.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e);
  return {id: e.id, tag: e.tagName, text: (e.textContent || "").trim(), cls: e.className,
          first: e === document.querySelector("#options button"), outline: s.outlineStyle,
          width: parseFloat(s.outlineWidth)}; }"""
"""Where the focus is: null when it fell back to the page itself (what a redraw must not do)."""


def _focus(page) -> dict | None:
    return page.evaluate(FOCUSED)


def _tab_to(page, wanted, back: bool = False, most: int = 40) -> dict:
    """Press Tab (Shift-Tab with ``back``) until the focused element satisfies ``wanted``; each element reached
    shows its focus (an outline of 2 px or more)."""
    for _ in range(most):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        at = _focus(page)
        if at is None:
            continue
        assert at["outline"] != "none" and at["width"] >= 2, f"the focus is not visible on {at}"
        if wanted(at):
            return at
    raise AssertionError(f"Tab never reached the element wanted; the focus is on {_focus(page)}")


def _state(base: str, gid: str) -> dict:
    return httpx.get(f"{base}/api/games/{gid}").json()


def _wait_event(page, event: int) -> None:
    page.wait_for_function(f"Number(document.getElementById('status').dataset.event) >= {event}")


def _kept(page) -> dict:
    """After a redraw that replaced the focused control: the focus is on the first decision or on the status."""
    at = _focus(page)
    assert at is not None, "the redraw dropped the focus to the top of the page"
    assert at["first"] or at["id"] == "status", at
    return at


def test_a_table_game_is_played_to_its_end_with_the_keyboard_alone(browser, server):
    """Pig to 3 points at a table: the host types the seat order and every die; each seat rolls and holds with Enter
    or Space; a hold is taken back with the undo button; after each redraw the focus is on the new first option or
    on the status, never back at the top of the page."""
    base, _ = server
    created = httpx.post(base + "/api/games", json={"ruleset": "toy", "players": ["Ana", "Bo"], "table": True,
                                                    "options": {"target": 3}}).json()
    gid = created["game"]
    errors: list[str] = []
    contexts, pages = [], {}
    try:
        for who, link in [("host", created["host"]["link"])] + [(p, s["link"]) for p, s in created["seats"].items()]:
            ctx, page = open_page(browser, errors, base + link)
            contexts.append(ctx)
            pages[who] = page
            page.wait_for_selector("#status[data-event]")

        def enter(outcome: str) -> None:  # the host types what the table shows
            host = pages["host"]
            event = _state(base, gid)["event"]
            _wait_event(host, event)
            host.wait_for_selector("#chance-input", state="visible")
            at = _focus(host)
            if not at or at["id"] != "chance-input":
                _tab_to(host, lambda f: f["id"] == "chance-input")
            host.keyboard.press("Control+A")
            host.keyboard.type(outcome)
            host.keyboard.press("Enter")
            _wait_event(host, event + 1)
            assert _focus(host) is not None, "the host's redraw dropped the focus to the top of the page"

        def decide(text: str, key: str = "Enter") -> dict:  # the acting seat picks the option reading `text`
            s = _state(base, gid)
            page = pages[s["pending"]["player"]]
            _wait_event(page, s["event"])
            page.wait_for_selector("#options button")
            at = _focus(page)
            if not at or at["tag"] != "BUTTON" or text not in at["text"]:
                at = _tab_to(page, lambda f: f["tag"] == "BUTTON" and text in f["text"])
                assert page.evaluate("document.getElementById('options').contains(document.activeElement)")
            page.keyboard.press(key)
            _wait_event(page, s["event"] + 1)
            return _kept(page)

        enter("Ana Bo")  # the seat order drawn at the table
        assert _state(base, gid)["pending"]["player"] == "Ana"
        at = decide("hold", key="Space")  # banks nothing: Bo's turn, and Ana's page has no option left
        assert at["id"] == "status" and "Bo to act" in at["text"]
        ana = pages["Ana"]
        ana.wait_for_selector("#undo", state="visible")
        _tab_to(ana, lambda f: f["id"] == "undo")
        event = _state(base, gid)["event"]
        ana.keyboard.press("Enter")  # take it back: Ana's turn again, the focus on her first option
        ana.wait_for_function(f"Number(document.getElementById('status').dataset.event) < {event}")
        ana.wait_for_selector("#options button")
        assert _kept(ana)["first"]
        assert _state(base, gid)["pending"]["player"] == "Ana"
        assert decide("roll")["id"] == "status"  # a die is to be rolled: no option until the host enters it
        enter("2")
        at = decide("hold")
        assert at["id"] == "status" and "Bo to act" in at["text"]
        decide("roll")
        enter("1")  # Bo loses the turn
        decide("roll", key="Space")
        enter("5")
        decide("hold")
        final = _state(base, gid)
        assert final["pending"]["kind"] == "over" and final["pending"]["winners"] == ["Ana"], final["pending"]
        assert not errors, errors
    finally:
        for ctx in contexts:
            ctx.close()


def test_a_decision_of_many_variants_is_built_step_by_step_with_the_keyboard(browser, server):
    """Perikles' influence tile (built a step at a time): Enter on a step draws the next step's choices with the
    focus on the first of them; "back one step" does the same; Enter on the finished decision records it."""
    base, _ = server
    created = made(base, "perikles", ["Ana", "Bo", "Cy"], seed=2)
    gid = created["game"]
    token = {p: s["token"] for p, s in created["seats"].items()}
    for _ in range(20):  # the starting cubes, placed through the API
        who = _state(base, gid)["pending"]["player"]
        o = httpx.get(f"{base}/api/games/{gid}/options", params={"brief": "1", "token": token[who]}).json()
        if o["stepwise"]:
            break
        assert httpx.post(f"{base}/api/games/{gid}/act", params={"token": token[who]},
                          json={"choice": 1, "expect": o["position"]}).status_code == 200
    else:
        raise AssertionError("no decision built step by step came up")
    before = _state(base, gid)["event"]
    errors: list[str] = []
    ctx, page = open_page(browser, errors, base + created["seats"][who]["link"])
    try:
        page.wait_for_selector("#steps button.step")
        _tab_to(page, lambda f: "step" in f["cls"])
        so_far = "document.querySelector('#steps p').textContent"
        page.keyboard.press("Enter")
        page.wait_for_function(f"{so_far}.startsWith('So far')")
        assert _kept(page)["first"]
        taken = page.evaluate(so_far)
        assert not taken.startswith("So far: tile ")  # the value chosen, not the event's field name before it
        _tab_to(page, lambda f: f["cls"] == "back")
        page.keyboard.press("Space")
        page.wait_for_function(f"!{so_far}.startsWith('So far')")
        assert _kept(page)["first"]
        for _ in range(12):  # the first choice of each step, with Enter alone, to the finished decision
            if _focus(page)["cls"] == "finish":
                break
            now = page.evaluate(so_far)
            page.keyboard.press("Enter")
            page.wait_for_function(f"{so_far} !== {json.dumps(now)}")
            assert _kept(page)["first"]
        else:
            raise AssertionError("the steps never finished")
        assert page.evaluate(so_far).startswith(taken)  # the first step again, then on
        page.keyboard.press("Enter")
        _wait_event(page, before + 1)
        _kept(page)
        assert not errors, errors
    finally:
        ctx.close()


# -- a screen reader ----------------------------------------------------------------------------------------------

NAMED = {"button", "textbox", "combobox", "checkbox", "link", "image", "region", "group", "form", "searchbox"}
"""Roles a screen reader announces by their name: each must have one."""


def _tree(page) -> list[dict]:
    """Chromium's accessibility tree of the page (what a screen reader is given), as flat nodes: role, name,
    description and properties (level, live, current...); nodes Chromium leaves out are left out."""
    cdp = page.context.new_cdp_session(page)
    try:
        nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    out = []
    for n in nodes:
        if n.get("ignored"):
            continue
        node = {"role": n.get("role", {}).get("value"), "name": (n.get("name") or {}).get("value", ""),
                "description": (n.get("description") or {}).get("value", "")}
        node.update({p["name"]: p["value"].get("value") for p in n.get("properties", [])})
        out.append(node)
    return out


def _readable(page) -> list[dict]:
    """What every page owes a screen reader: a language, a title, a name for every control and picture, headings
    that go down one level at a time from one h1, and tables whose headers say what they head."""
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.title().strip()
    nodes = _tree(page)
    unnamed = [n for n in nodes if n["role"] in NAMED and not n["name"].strip()]
    assert not unnamed, unnamed
    levels = [int(n["level"]) for n in nodes if n["role"] == "heading"]
    assert levels and levels[0] == 1 and levels.count(1) == 1, levels
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), f"a heading level is skipped: {levels}"
    bare = page.evaluate("[...document.querySelectorAll('th')].filter(th => !['col', 'row'].includes(th.scope))"
                         ".map(th => th.outerHTML)")
    assert not bare, f"table headers without a scope: {bare[:3]}"
    return nodes


def _one(nodes: list[dict], **want) -> dict:
    found = [n for n in nodes if all(n.get(k) == v for k, v in want.items())]
    assert len(found) == 1, (want, found)
    return found[0]


def _played(base: str) -> dict:
    """A game of Pig with a few decisions on its main line and a line 'whatif' made at event 2 (now the current
    one): the answer of its creation (its links and tokens)."""
    created = made(base, "toy", ["Ana", "Bo"], seed=3)
    gid = created["game"]
    token = {p: s["token"] for p, s in created["seats"].items()}
    for _ in range(4):
        s = _state(base, gid)
        who = s["pending"]["player"]
        assert httpx.post(f"{base}/api/games/{gid}/act", params={"token": token[who]},
                          json={"choice": 1, "expect": s["position"]}).status_code == 200
    assert httpx.post(f"{base}/api/games/{gid}/branch", params={"token": created["host"]["token"]},
                      json={"name": "whatif", "at": 2}).status_code < 300
    return created


def test_the_pages_name_their_parts_and_say_what_changes_to_a_screen_reader(browser, server):
    base, _ = server
    created = _played(base)
    gid = created["game"]
    acting = _state(base, gid)["pending"]["player"]
    errors: list[str] = []
    contexts = []
    try:
        ctx, page = open_page(browser, errors, base + "/")
        contexts.append(ctx)
        nodes = _readable(page)  # the lobby
        assert [n["name"] for n in nodes if n["role"] == "columnheader"] == [
            "game", "ruleset", "title", "players", "status", "spectators' page"]
        for label in ("Ruleset", "People (names, comma-separated)", "Bots (NAME:KIND, comma-separated)", "Title",
                      "Seed"):
            assert any(n["name"] == label for n in nodes if n["role"] in ("textbox", "combobox")), label
        _one(nodes, role="alert")  # a refusal is announced at once
        page.fill("#players", "Ana")  # too few for Pergamemnon: the refusal is in the alert
        page.select_option("#ruleset", "pergamemnon")
        page.keyboard.press("Enter")
        page.wait_for_function("document.getElementById('error').textContent.length > 0")
        _one(_tree(page), role="alert")
        assert "player" in page.inner_text("[role=alert]").lower()

        page.goto(base + created["seats"][acting]["link"])  # the seat whose turn it is
        page.wait_for_selector("#options button")
        nodes = _readable(page)
        title = page.title()
        assert title.startswith("(your turn) ") and acting in title and gid in title and "Pig" in title, title
        status = _one(nodes, role="status")
        assert status["live"] == "polite" and page.inner_text("[role=status]").startswith("Your turn."), status
        _one(nodes, role="alert")
        options = [n["name"] for n in nodes if n["role"] == "button" and n["name"][:1].isdigit()]
        assert options and all(". " in o for o in options), options  # "1. Ana rolls." and the like
        regions = {n["name"] for n in nodes if n["role"] == "region"}
        assert {"Scores", "Record", "The game as you see it"} <= regions, regions
        own = [n["name"] for n in nodes if n["role"] == "rowheader" and "(yours)" in n["name"]]
        assert own == [f"{acting} (yours)"], own  # their own row of the scores, marked by more than colour
        assert page.evaluate("getComputedStyle(document.querySelector('#scores tr.mine > th')).borderLeftStyle")\
            == "solid"
        other = "Bo" if acting == "Ana" else "Ana"
        page.goto("about:blank")  # (a link that differs in its fragment only would not load the page again)
        page.goto(base + created["seats"][other]["link"])  # the other seat: not their turn, and only its own row ours
        page.wait_for_function(f"document.getElementById('you').textContent.includes('{other}')")
        nodes = _readable(page)
        assert "your turn" not in page.title() and other in page.title()
        assert [n["name"] for n in nodes if "(yours)" in n["name"]] == [f"{other} (yours)"]

        table = httpx.post(base + "/api/games", json={"ruleset": "toy", "players": ["Ana", "Bo"],
                                                      "table": True}).json()
        page.goto(base + table["host"]["link"])  # the host of a table game: the chance entry is named
        page.wait_for_selector("#chance-input", state="visible")
        nodes = _readable(page)
        entry = _one(nodes, role="textbox")
        assert entry["name"] == "Chance outcome" and entry["description"].startswith("possible: Ana, Bo"), entry
        assert page.title().startswith("(your turn) host: ")

        answer = page.goto(base + "/games/nosuchgame/seat")
        assert answer.status == 404
        _readable(page)

        page.goto(f"{base}/games/{gid}/watch")  # the spectators' study page
        page.wait_for_function("document.body.dataset.ready === '1'")
        nodes = _readable(page)
        assert gid in page.title()
        shown = page.evaluate("document.body.dataset.line")  # the game's current line (the branch just made)
        plot = _one(nodes, role="image", name=f"Scores along {shown}, a plot")
        assert "move list" in plot["description"], plot
        assert not [n for n in nodes if n["role"] == "image" and n is not plot]  # plotly's drawing is not read out
        for name in ("first event", "previous event", "next event", "last event"):
            _one(nodes, role="button", name=name)
        # the move shown is marked as the current step, and is the move list's one stop of the Tab key
        assert page.evaluate("[...document.querySelectorAll('#moves [aria-current=step]')].map(a => a.textContent)")\
            == page.evaluate("[...document.querySelectorAll('#moves a[tabindex=\"0\"]')].map(a => a.textContent)")\
            == [page.evaluate("document.querySelector('#moves .move.current a').textContent")]
        assert {"main", "whatif"} <= {n["name"] for n in nodes if n["role"] == "link"}
        variations = [n["name"] for n in nodes if n["role"] == "link" and n["name"].startswith("main: ")]
        assert variations, "the main line's first move after the fork is listed under the move it leaves"
        assert not [n for n in nodes if n["name"].startswith("\u21b3")]  # its arrow is drawn, not read out
        assert [n["name"] for n in nodes if n["role"] == "heading" and n["level"] == 3][0] == "Round 1"
        narration = page.evaluate("document.getElementById('narration').getAttribute('aria-live')")
        assert narration == "polite"
        assert not errors, errors
    finally:
        for ctx in contexts:
            ctx.close()


def test_the_study_page_is_stepped_and_its_lines_entered_with_the_keyboard(browser, server):
    """Tab reaches the move shown (the move list's one stop), the arrows step from there with the focus following
    the move shown, and a line entered from the tree keeps the focus on that line's link."""
    base, _ = server
    gid = _played(base)["game"]
    errors: list[str] = []
    ctx, page = open_page(browser, errors, f"{base}/games/{gid}/watch")
    try:
        page.wait_for_function("document.body.dataset.ready === '1'")
        assert page.evaluate("document.body.dataset.line") == "whatif"
        end = int(page.evaluate("document.body.dataset.step"))
        at = _tab_to(page, lambda f: f["tag"] == "A" and f["text"] == "main")
        at = _tab_to(page, lambda f: f["tag"] == "A" and page.evaluate(
            "document.activeElement.closest('.move.current') !== null"))
        page.keyboard.press("ArrowLeft")
        page.wait_for_function(f"document.body.dataset.step === '{end - 1}'")
        at = _focus(page)
        assert at["tag"] == "A" and page.evaluate("document.activeElement.closest('.move.current') !== null"), at
        page.keyboard.press("Home")
        page.wait_for_function("document.body.dataset.step === '0'")
        assert page.evaluate("document.activeElement.closest('.move.current').dataset.step") == "0"
        _tab_to(page, lambda f: f["tag"] == "A" and f["text"] == "main", back=True)
        page.keyboard.press("Enter")  # the main line, entered from the tree
        page.wait_for_function("document.body.dataset.line === 'main'")
        at = _focus(page)
        assert at and at["tag"] == "A" and at["text"] == "main" and "on" in at["cls"].split(), at
        assert page.url.endswith("#line=main&step=0")
        assert not errors, errors
    finally:
        ctx.close()


# -- colours ------------------------------------------------------------------------------------------------------

COLOURS = r"""
const parse = c => { const m = /rgba?\(([^)]*)\)/.exec(c || ""); if (!m) return null;
  const p = m[1].split(/[\s,\/]+/).filter(x => x).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
"""
"""WCAG's relative luminance and contrast ratio of CSS colours (``rgb()``/``rgba()`` as computed), and a colour with
transparency laid over another."""

CONTRAST = "() => {" + COLOURS + r"""
  // every colour an element may stand on: its own background and its ancestors' down to an opaque one, each colour
  // of a gradient counted
  function behind(e) {
    const layers = [];
    for (let n = e; n && n.nodeType === 1; n = n.parentElement) {
      const s = getComputedStyle(n);
      const img = (s.backgroundImage.match(/rgba?\([^)]*\)/g) || []).map(parse);
      if (img.length) layers.push(img);
      const c = parse(s.backgroundColor);
      if (c && c[3] > 0) { layers.push([c]); if (c[3] === 1) break; }
    }
    let out = [[255, 255, 255, 1]];
    for (const layer of layers.reverse()) out = out.flatMap(u => layer.map(c => over(c, u)));
    return out;
  }
  const found = [];
  function check(e, color, what) {
    const s = getComputedStyle(e), size = parseFloat(s.fontSize), bold = Number(s.fontWeight) >= 700;
    const need = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
    const c = parse(color);
    for (const b of behind(e)) {
      const r = ratio(c[3] < 1 ? over(c, b) : c, b);
      if (r < need) { found.push({what, text: (e.textContent || e.placeholder || "").trim().slice(0, 40), color,
                                  on: "rgb(" + b.slice(0, 3).join(",") + ")", ratio: Math.round(r * 100) / 100, need});
                      break; }
    }
  }
  for (const e of document.body.querySelectorAll("*")) {
    if (e.closest("svg, script, style, [aria-hidden=true]") || e.matches(":disabled")) continue;
    const r = e.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || getComputedStyle(e).visibility !== "visible") continue;  // not seen
    const cls = typeof e.className === "string" && e.className.trim() ? "." + e.className.trim().split(/\s+/).join(".")
      : "";
    if ([...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
      check(e, getComputedStyle(e).color, e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + cls);
    if (e.placeholder) check(e, getComputedStyle(e, "::placeholder").color, "placeholder of #" + e.id);
  }
  return found;
}"""
"""Every text the page shows (and every placeholder) whose contrast with a background it stands on is below WCAG
AA's: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold); colours as Chromium computes them from the page's CSS,
with their transparency laid over what is behind."""

MARKS = "checks => {" + COLOURS + r"""
  return checks.map(([sel, prop, on]) => { const e = document.querySelector(sel);
    return [sel, e ? Math.round(100 * ratio(parse(getComputedStyle(e)[prop]), parse(on))) / 100 : null]; });
}"""
"""The contrast of a mark's colour (a CSS property of the first element a selector finds) with a background."""


def test_text_and_the_marks_that_mean_something_are_seen_by_every_eye(browser, server):
    base, url = server
    created = _played(base)
    gid = created["game"]
    acting = _state(base, gid)["pending"]["player"]
    errors: list[str] = []
    ctx, page = open_page(browser, errors, base + "/")
    try:
        page.fill("#players", "Ana")  # a refusal shown: its colour counts too
        page.select_option("#ruleset", "pergamemnon")
        page.click("button[type=submit]")
        page.wait_for_function("document.getElementById('error').textContent.length > 0")
        low = {"lobby": page.evaluate(CONTRAST)}
        marks = page.evaluate(MARKS, [["#players", "borderTopColor", "rgb(255,255,255)"]])  # a field's edge
        assert marks[0][1] >= 3, marks
        page.goto(base + created["seats"][acting]["link"])
        page.wait_for_selector("#options button")
        page.keyboard.press("Tab")  # a focused option: its outline counts among the marks below
        low["seat"] = page.evaluate(CONTRAST)
        # marks that carry a meaning beside their colour, at 3:1 against what is behind them (WCAG's non-text
        # contrast): the focus outline, the bar beside the seat's own row, the status's bar when it is their turn
        marks = page.evaluate(MARKS, [["#options button:focus", "outlineColor", "rgb(255,255,255)"],
                                      ["#scores tr.mine > th", "borderLeftColor", "rgb(253,240,230)"],
                                      ["#status.yours", "borderLeftColor", "rgb(255,255,255)"]])
        assert all(r is not None and r >= 3 for _, r in marks), marks
        table = httpx.post(base + "/api/games", json={"ruleset": "toy", "players": ["Ana", "Bo"],
                                                      "table": True}).json()
        page.goto(base + table["host"]["link"])
        page.wait_for_selector("#chance-input", state="visible")
        low["host"] = page.evaluate(CONTRAST)
        page.goto(base + "/games/nosuchgame/watch")
        low["404"] = page.evaluate(CONTRAST)
        page.goto(f"{base}/games/{gid}/watch#line=whatif&step=1")
        page.wait_for_function("document.body.dataset.ready === '1'")
        low["watch"] = page.evaluate(CONTRAST)
        assert not {k: v for k, v in low.items() if v}, low
        assert not errors, errors
    finally:
        ctx.close()


# -- 200% zoom ------------------------------------------------------------------------------------------------------

CUT = r"""() => {
  const out = [];
  for (const e of document.body.querySelectorAll("*")) {
    if (e.closest(".js-plotly-plot, #chances, .sr-only, svg")) continue;  // plotly lays out its own drawing
    const s = getComputedStyle(e), r = e.getBoundingClientRect();
    if (r.width <= 1 || s.display === "none") continue;
    const wider = e.scrollWidth > e.clientWidth + 1;
    if (wider && ["hidden", "clip"].includes(s.overflowX)) out.push("cut off: " + e.tagName + "#" + e.id);
    if (r.right > innerWidth + 1) {
      let boxed = false;  // beyond the window's edge only inside a box that scrolls
      for (let n = e.parentElement; n && !boxed; n = n.parentElement)
        boxed = ["auto", "scroll"].includes(getComputedStyle(n).overflowX)
          && n.getBoundingClientRect().right <= innerWidth + 1;
      if (!boxed) out.push("past the window's edge: " + e.tagName + "#" + e.id + "." + e.className);
    }
  }
  return {wide: document.documentElement.scrollWidth - innerWidth, out: out.slice(0, 10)};
}"""
"""At the page's width: how much wider than the window the page is (0: it never scrolls sideways), and what is cut
off by a box that hides its overflow or reaches past the window's edge outside a box that scrolls."""


def test_the_pages_at_200_percent_zoom_scroll_only_up_and_down(browser, server):
    """A 1280 by 1000 window at 200% zoom is 640 by 500 CSS pixels: every page fits that width, and a table or plot
    wider than its column scrolls in its own box."""
    base, _ = server
    created = made(base, "pergamemnon", ["Ana", "Bo"], seed=4)
    gid = created["game"]
    errors: list[str] = []
    ctx, page = open_page(browser, errors, base + "/", width=640, height=500, device_scale_factor=2)
    try:
        found = {"lobby": page.evaluate(CUT)}
        for who in ("Ana", "host"):
            page.goto("about:blank")
            page.goto(base + (created["seats"][who] if who != "host" else created["host"])["link"])
            page.wait_for_selector("#view table")
            found[who] = page.evaluate(CUT)
        page.goto(f"{base}/games/{gid}/watch")
        page.wait_for_function("document.body.dataset.ready === '1'")
        found["watch"] = page.evaluate(CUT)
        assert all(f["wide"] <= 0 and not f["out"] for f in found.values()), found
        assert not errors, errors
    finally:
        ctx.close()

"""Games played at a table through agon serve's pages, in a real browser (tests/browser.py): the host types every
die and every draw on the host's page, each person clicks their decisions on their own seat's page (a bot here picks
among the page's buttons), and no page shows a seat what it may not see.

- a Peloponnes game for two, played at a table to its end;
- a Perikles game for three at a table through its first battle, the dice typed by the host, the commitments built
  step by step (a step that may end the decision takes the steps that must follow it: it used to record at once
  and be refused, 'the decision is not complete');
- the host's undo button shows only when an undo would take something back (a seeded game the bots and the draws
  opened has events, and nothing the host may undo);
- a seat's view reads as words on a phone's width: field names as words, empty lists as 'none', the seat's own
  entry first and marked, nested tables no wider than the screen.

The server runs in this process under uvicorn on 127.0.0.1 (tests/browser.py's ``server``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import httpx
import pytest

from agon.core import chance as chance_mod
from agon.core import registry
from agon.core.engine import PUBLIC, Chance, Decision, Over
from agon.core.service import Line, Service
from agon.events.store import Store
from tests.browser import ARTIFACTS, open_page
from tests.hidden import hidden_identifiers, leaks, log_leaks, moments
from tests.servers import made
from tests.test_server_pages import _at

pytestmark = pytest.mark.browser

SHOWN = ("#status", "#view", "#scores", "#options")
"""The parts of a seat's page that tell the game as it is now (the record is checked event by event)."""


def _leaks_now(rs, line: Line, page, who: str) -> list[str]:
    shown = " ".join(page.inner_text(part) for part in SHOWN)
    return leaks(shown, hidden_identifiers(rs, line.state, PUBLIC if who == "host" else who))


def _record_leaks(rs, line: Line, page, who: str, players: list[str]) -> list[str]:
    rows = page.evaluate("[...document.querySelectorAll('#log p')].map("
                         "p => ({n: Number(p.dataset.n), text: p.innerText}))")
    at = [m.public if who == "host" else m.unnamable[who] for m in moments(rs, line.events, players)]
    return log_leaks(rows, at)


def _outcome(pending: Chance, rng: random.Random) -> str:
    """What the host types: dice rolled, or the items drawn at the table (the rules' own items, drawn by ``rng``)."""
    return " ".join(map(str, chance_mod.draw(pending, rng)))


def _decide(page, rng: random.Random) -> None:
    """A bot at a seat's page: one of the buttons, or a decision built step by step through the page's steps."""
    page.wait_for_selector("#options > button, #steps button")
    if not page.locator("#steps").count():
        buttons = page.locator("#options > button")
        buttons.nth(rng.randrange(buttons.count())).click()
        return
    for _ in range(60):
        page.wait_for_selector("#steps button.step, #steps button.finish")
        finish = page.locator("#steps button.finish")
        if finish.count():
            assert finish.count() == 1 and finish.inner_text().startswith("record: "), finish.all_inner_texts()
            finish.click()
            return
        steps = page.locator("#steps button.step")
        values = [b.get_attribute("data-value") for b in steps.all()]
        # ending where it may (often): a commitment of every counter at home is long to click through
        value = "done" if "done" in values and rng.random() < 0.5 else rng.choice(values)
        before = page.inner_text("#steps")
        page.locator(f'#steps button.step[data-value="{value}"]').click()
        page.wait_for_function("old => { const s = document.getElementById('steps');"
                               " return !s || s.innerText !== old; }", arg=before)
    raise AssertionError("a decision built step by step did not finish in 60 steps")


def play_at_table(browser, base: str, url: str, created: dict, rng: random.Random,
                  stop: Callable[[Line], bool] = lambda line: False, check_every: int = 10) -> Line:
    """Play ``created`` (a table game) through its pages until it is over or ``stop(line)``: the host's page types
    each chance outcome, each seat's page clicks its decisions. Every ``check_every`` entries and at the end, no
    page shows what its seat may not see (now, and in the record as of each event). The line at the end."""
    gid = created["game"]
    players = list(created["seats"])
    svc = Service(Store(url))
    rs = registry.get(created["ruleset"])
    errors: list[str] = []
    contexts, pages = [], {}
    try:
        for who in [*players, "host"]:
            ctx, page = open_page(browser, errors)
            contexts.append(ctx)
            page.goto(base + (created["host"] if who == "host" else created["seats"][who])["link"])
            pages[who] = page
        entries = 0
        while True:
            line = svc.load(gid)
            pending = line.pending
            if entries % check_every == 0 or isinstance(pending, Over) or stop(line):
                for who, page in pages.items():
                    _at(page, line.depth)
                    assert not _leaks_now(rs, line, page, who), (who, line.depth, _leaks_now(rs, line, page, who))
            if isinstance(pending, Over) or stop(line):
                for who, page in pages.items():
                    assert not _record_leaks(rs, line, page, who, players), who
                break
            if isinstance(pending, Chance):
                page = pages["host"]
                _at(page, line.depth)
                page.wait_for_selector("#chance-input", state="visible")
                page.fill("#chance-input", _outcome(pending, rng))
                page.click("#chance-form button")
            else:
                assert isinstance(pending, Decision)
                page = pages[pending.player]
                _at(page, line.depth)
                _decide(page, rng)
            page.wait_for_function(
                "n => Number(document.getElementById('status').dataset.event) > n"
                " || document.getElementById('error').textContent", arg=line.depth)
            assert page.inner_text("#error") == "", (line.depth, page.inner_text("#error"))
            entries += 1
        assert not errors, errors
        return svc.load(gid)
    finally:
        for ctx in contexts:
            ctx.close()
        svc.store.close()


def test_a_peloponnes_game_for_two_is_played_at_a_table_to_its_end_through_the_pages(browser, server):
    base, url = server
    created = httpx.post(base + "/api/games", json={"ruleset": "peloponnes", "players": ["Ana", "Bo"], "seed": 1,
                                                    "table": True}).json()
    line = play_at_table(browser, base, url, created, random.Random(1))
    assert isinstance(line.pending, Over)
    people = {"Ana", "Bo"}
    actors = {env.actor for env in line.envelopes[1:]}
    assert people <= actors and actors <= people | {"chance"}  # every decision by a seat, every draw by the host


def test_a_perikles_game_at_a_table_reaches_its_first_battle_with_dice_typed_by_the_host(browser, server):
    base, url = server
    created = httpx.post(base + "/api/games", json={"ruleset": "perikles", "players": ["Ana", "Bo", "Cy"],
                                                    "seed": 1, "table": True}).json()
    tags = []

    def battled(line: Line) -> bool:
        tags.append(line.head.tag)
        return line.head.tag == "perikles.battle_dice_rolled"

    line = play_at_table(browser, base, url, created, random.Random(1), stop=battled, check_every=15)
    assert line.head.tag == "perikles.battle_dice_rolled" and line.head.actor == "chance"
    assert "perikles.forces_committed" in tags


def test_the_hosts_undo_shows_only_when_an_undo_would_take_something_back(browser, server):
    """A seeded Pergamemnon game against a bot opens with events nobody entered (the bot's, the draws): the host's
    page offered undo and the server refused it. Now it shows once the person has decided, and an undo by the host
    takes it back and hides the button again."""
    base, url = server
    created = httpx.post(base + "/api/games", json={"ruleset": "pergamemnon", "players": ["Ana"],
                                                    "bots": [{"name": "Bo", "kind": "random"}], "seed": 1}).json()
    gid = created["game"]
    state = httpx.get(f"{base}/api/games/{gid}", params={"token": created["host"]["token"]}).json()
    assert state["event"] > 0 and state["pending"]["player"] == "Ana" and state["may_undo"] is False
    errors: list[str] = []
    ctx, host = open_page(browser, errors)
    ctx2, ana = open_page(browser, errors)
    try:
        host.goto(base + created["host"]["link"])
        ana.goto(base + created["seats"]["Ana"]["link"])
        opened = state["event"]
        _at(host, opened)
        host.wait_for_function("document.getElementById('you').textContent.includes('host')")
        assert not host.is_visible("#undo")
        ana.wait_for_selector("#options > button")
        ana.click("#options > button >> nth=0")
        _at(host, opened + 1)
        host.wait_for_selector("#undo", state="visible")
        assert host.inner_text("#undo") == "undo the last entry"
        host.click("#undo")
        host.wait_for_function(f"Number(document.getElementById('status').dataset.event) === {opened}")
        host.wait_for_selector("#undo", state="hidden")
        assert host.inner_text("#error") == ""
        assert not errors, errors
    finally:
        ctx.close()
        ctx2.close()


def test_a_seats_view_reads_as_words_and_fits_a_phone(browser, server):
    """Pergamemnon's view (nested card tables) at 390 px: nothing in it reaches past the screen's edge (it scrolled
    sideways in its box); fields read 'Hand count', not 'hand_count'; an empty list reads 'none', nothing 'null' or
    'true'; the seat's own entry comes first among the players, marked, and holds their hand; nothing is shown that
    the view does not hold."""
    base, url = server
    created = made(base, "pergamemnon", ["Ana", "Bo"], seed=4)
    gid = created["game"]
    view = httpx.get(f"{base}/api/games/{gid}", params={"token": created["seats"]["Bo"]["token"]}).json()["view"]
    errors: list[str] = []
    ctx, page = open_page(browser, errors, base + created["seats"]["Bo"]["link"], 390, 800, is_mobile=True)
    try:
        page.wait_for_selector("#view table")
        right = page.evaluate("Math.max(...[...document.querySelectorAll('#view *')].map("
                              "e => e.getBoundingClientRect().right))")
        assert right <= 390 and page.evaluate("document.documentElement.scrollWidth") <= 390
        assert page.evaluate("(b => b.scrollWidth <= b.clientWidth)(document.getElementById('view'))")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "seat-view-390.png"), full_page=True)
        text = page.inner_text("#view")
        assert "Hand count" in text and "hand_count" not in text and "Charisma supply" in text
        assert not {"null", "true", "false", "(none)"} & set(text.split())
        shown = page.evaluate("[...document.querySelectorAll('#view tr')].filter(tr => tr.querySelector('th')"
                              " && tr.querySelector('th').textContent === 'Discard').map("
                              "tr => tr.querySelector('td').textContent)")
        assert "none" in shown  # an empty list (the seat's own discard pile at the start)
        first = page.locator("#view > table > tr").first
        assert first.locator("> th").inner_text() == "Players"
        own = first.locator("> td > table > tr").first
        assert own.get_attribute("class").split()[0] == "mine" and own.locator("> th").inner_text() == "Bo"
        hand = next(p for p in view["players"] if p["name"] == "Bo")["hand"]
        assert hand and all(card["id"] in own.inner_text() for card in hand)
        rs = registry.get("pergamemnon")
        svc = Service(Store(url))
        try:
            assert not leaks(page.inner_text("body"), hidden_identifiers(rs, svc.load(gid).state, "Bo"))
        finally:
            svc.store.close()
        assert not errors, errors
    finally:
        ctx.close()

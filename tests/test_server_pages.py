"""agon serve's pages in a real browser (Playwright driving the system's headless Chromium, tests/browser.py): a
game created in the lobby, two players in two browser contexts joining by their own links and playing several
turns of a game with hidden cards, each seeing only their own hand, while a spectators' page follows live; and a
table game's host entering a chance outcome on their page.

The server runs in this process under uvicorn on 127.0.0.1 and stops when the test ends.
"""

from __future__ import annotations

import json
import re
import time

import httpx
import pytest

from agon.core import registry, seats
from agon.core.engine import PUBLIC
from agon.core.service import Service
from agon.events.peloponnes import BidPlaced, Coins
from agon.events.store import Store
from tests.browser import create_in_lobby, open_page
from tests.hidden import hidden_identifiers, leaks, visible
from tests.servers import acting_now, decided, made

pytestmark = pytest.mark.browser


def _at(page, event: int) -> None:
    """Wait until ``page`` shows event #``event`` or a later one (a seat's status; the spectators' study page's
    position, which follows the newest event)."""
    status = "document.getElementById('status')"
    page.wait_for_function(f"Number({status} ? {status}.dataset.event : document.body.dataset.step) >= {event}")


def _settled(page, event: int | None = None) -> None:
    """Wait until ``page`` has no reading under way (its redraws, its record's) and, given ``event``, its stream has
    told it of event #``event`` or a later one: what it shows then changes only on news (server/pages.py
    data-reading, data-told)."""
    told = "true" if event is None else f"Number(document.body.dataset.told) >= {event}"
    page.wait_for_function(f"{told} && document.body.dataset.reading === '0'")


def test_two_players_by_their_links_each_see_only_their_hand_and_a_spectator_follows_live(browser, server):
    base, url = server
    errors: list[str] = []
    lobby_ctx, lobby = open_page(browser, errors)
    lobby.goto(base + "/")
    links = create_in_lobby(lobby, "pergamemnon", "Ana, Bo", seed="5")
    assert set(links) == {"Ana", "Bo", "host", "spectators"}
    gid = links["spectators"].split("/")[2]
    lobby.goto(base + "/")
    assert gid in lobby.inner_text("#games")
    lobby_ctx.close()

    rs = registry.get("pergamemnon")
    svc = Service(Store(url))
    pages = {}
    contexts = []
    for who in ("Ana", "Bo", "spectators"):
        ctx, page = open_page(browser, errors)
        contexts.append(ctx)
        page.goto(base + links[who])
        pages[who] = page
    try:
        turns = 0
        seen_own = {"Ana": 0, "Bo": 0}
        while turns < 6:
            line = svc.load(gid)
            event = line.head.depth
            for page in pages.values():
                _at(page, event)
            for p in ("Ana", "Bo"):
                page = pages[p]
                page.wait_for_function(f"document.getElementById('you').textContent.includes('{p}')")
                text = page.inner_text("body")
                hidden = hidden_identifiers(rs, line.state, p)
                assert hidden and not leaks(text, hidden), (p, leaks(text, hidden))
                own = visible(rs, line.state, p) - visible(rs, line.state, PUBLIC)
                seen_own[p] += bool(leaks(text, own))  # their own hidden cards are on their page
            spectator = pages["spectators"].inner_text("body")
            public_hidden = hidden_identifiers(rs, line.state, PUBLIC)
            assert not leaks(spectator, public_hidden), leaks(spectator, public_hidden)
            acting = line.pending.player
            page = pages[acting]
            page.wait_for_selector("#options button")
            page.click("#options button >> nth=0")
            deadline = time.monotonic() + 30
            while svc.load(gid).head.depth == event:
                assert time.monotonic() < deadline, "the decision was not recorded"
                time.sleep(0.1)
            turns += 1
        final = svc.load(gid).head.depth
        for page in pages.values():
            _at(page, final)  # every page, the spectators' too, followed the game live
        spectator = pages["spectators"]  # the study page, moved along to the newest event as it came
        spectator.locator("#step-label", has_text=f"event {final} of {final}").wait_for(timeout=30_000)
        assert spectator.locator("#moves .move").count() == final + 1
        assert spectator.locator("#as").input_value() == "(every player)"
        line = svc.load(gid)
        public_hidden = hidden_identifiers(rs, line.state, PUBLIC)
        assert not leaks(spectator.inner_text("body"), public_hidden)
        spectator.keyboard.press("Home")  # a spectator may step back; the page then stays there as play goes on
        spectator.wait_for_function("document.body.dataset.step === '0'")
        assert not errors, errors
    finally:
        for ctx in contexts:
            ctx.close()
        svc.store.close()
    assert seen_own["Ana"] and seen_own["Bo"]


def test_the_host_of_a_table_game_enters_chance_outcomes_on_their_page(browser, server):
    base, url = server
    created = httpx.post(base + "/api/games", json={"ruleset": "adamastor", "players": ["Ana"], "seed": 2,
                                                    "table": True}).json()
    gid = created["game"]
    errors: list[str] = []
    ctx, host = open_page(browser, errors)
    svc = Service(Store(url))
    try:
        host.goto(base + created["host"]["link"])
        host.wait_for_function("document.getElementById('you').textContent.includes('host')")
        assert svc.load(gid).pending.__class__.__name__ == "Chance"
        before = svc.load(gid).head.depth
        host.wait_for_selector("#chance-input", state="visible")
        host.click("#chance-form button")  # nothing typed: the page says what to type, in its own words
        host.wait_for_function("document.getElementById('error').textContent.length > 0")
        assert host.inner_text("#error") == ("type the outcome first (what was rolled or drawn), or 'seed' to let"
                                             " agon draw it")
        host.fill("#chance-input", "seed")
        host.click("#chance-form button")
        _at(host, before + 1)
        assert svc.load(gid).head.depth > before
        # a player's page has no chance entry
        ctx2, ana = open_page(browser, errors)
        ana.goto(base + created["seats"]["Ana"]["link"])
        ana.wait_for_function("document.getElementById('you').textContent.includes('Ana')")
        assert not ana.is_visible("#chance-input")
        ctx2.close()
        assert not errors, errors
    finally:
        ctx.close()
        svc.store.close()


def test_a_decision_is_typed_on_the_seat_page_as_agon_play_takes_it(browser, server):
    """Peloponnes: the deciding seat's page has a field for the decision typed whole (a card, then a mix of coin
    cards and a luxury good no button lists); a refusal is shown as one sentence and the text is kept to be put
    right; recorded, the field is cleared. The other seat's page has no such field, and its record names no back."""
    base, url = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=4)
    gid = created["game"]
    token = {p: s["token"] for p, s in created["seats"].items()}
    for n in (2, 5, 1):  # to round 2's auction (tests/test_bid_coins_typed.py): Ana holds one luxury good
        who = acting_now(base, gid)
        assert httpx.post(f"{base}/api/games/{gid}/act", params={"token": token[who]},
                          json={"choice": n}).status_code == 200
    svc = Service(Store(url))
    before = svc.load(gid).head.depth
    errors: list[str] = []
    contexts, pages = [], {}
    try:
        for who in ("Ana", "Bo"):
            ctx, page = open_page(browser, errors)
            contexts.append(ctx)
            page.goto(base + created["seats"][who]["link"])
            _at(page, before)
            _settled(page)
            pages[who] = page
        ana, bo = pages["Ana"], pages["Bo"]
        assert not bo.is_visible("#decide-input")  # not Bo's turn: nothing to type
        ana.wait_for_selector("#decide-input", state="visible")
        assert ana.get_attribute("#decide-input", "placeholder") and ana.inner_text("#decide-form label") == (
            "or type your decision")
        ana.click("#decide-form button")  # nothing typed: said in the page's words, nothing sent
        ana.wait_for_function("document.getElementById('error').textContent.length > 0")
        assert ana.inner_text("#error").startswith("type your decision first")
        ana.fill("#decide-input", "{")  # JSON begun: the page takes none, and says what to type instead
        ana.press("#decide-input", "Enter")
        ana.wait_for_function("document.getElementById('error').textContent.includes(\"begins with '{'\")")
        said = ana.inner_text("#error")
        assert said == ("nothing your page takes begins with '{' (it takes no JSON); choose a decision among those"
                        " your page lists (a decision of many variants is built there a step at a time), or type its"
                        " steps in order, as the buttons name them"), said
        assert ana.input_value("#decide-input") == "{" and svc.load(gid).head.depth == before
        ana.fill("#decide-input", "a04 1w2l")  # one luxury good more than Ana has
        ana.press("#decide-input", "Enter")
        ana.wait_for_function("document.getElementById('error').textContent.includes('Bens de Luxo')")
        said = ana.inner_text("#error")
        assert said.startswith("refused: bid (rulebook, 'Bens de Luxo'): Ana has 1 luxury good, not 2"), said
        assert "\n" not in said
        assert ana.input_value("#decide-input") == "a04 1w2l" and svc.load(gid).head.depth == before
        ana.fill("#decide-input", "a09 1w1l")
        ana.press("#decide-input", "Enter")
        _at(ana, before + 1)
        assert svc.load(gid).events[-1] == BidPlaced(player="Ana", card="A09", coins=Coins(wood=1), luxury=1)
        ana.wait_for_function("document.getElementById('decide-form').hidden")  # Bo's turn now
        assert ana.input_value("#decide-input") == "" and ana.inner_text("#error") == ""
        ana.wait_for_function("document.getElementById('log').textContent.includes('1 wood, 1 luxury')")
        _at(bo, before + 1)
        bo.wait_for_selector("#decide-input", state="visible")
        _settled(bo, before + 1)
        assert "Ana bids 2 (counting 2.5 with Market/Agora) on Wheat Field." in bo.inner_text("#log")
        assert "luxury)" not in bo.inner_text("#log")  # the backs of Ana's bid are hers alone
        assert not errors, errors
    finally:
        for ctx in contexts:
            ctx.close()
        svc.store.close()


def test_a_commitment_is_built_step_by_step_on_the_seat_page(browser, server):
    """Perikles: the acting player's page offers a commitment a step at a time (not ~2,000 buttons); clicking
    through the steps records a legal commitment."""
    base, url = server
    created = made(base, "perikles", ["Ana", "Bo", "Cy"], seed=2)
    gid = created["game"]
    token = {p: s["token"] for p, s in created["seats"].items()}
    for _ in range(120):  # the decisions before the first commitment, taken through the API
        pending = httpx.get(f"{base}/api/games/{gid}").json()["pending"]
        who = pending["player"]
        o = httpx.get(f"{base}/api/games/{gid}/options", params={"brief": "1", "token": token[who]}).json()
        if "commit" in pending["prompt"]:
            assert o["stepwise"] and o["options"] == []
            break
        assert httpx.post(f"{base}/api/games/{gid}/act", params={"token": token[who]},
                          json={"choice": 1, "expect": o["position"]}).status_code == 200
    else:
        raise AssertionError("no commitment came up")
    svc = Service(Store(url))
    before = svc.load(gid).head.depth
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    try:
        page.goto(f"{base}{created['seats'][who]['link']}")
        page.wait_for_selector("#steps")
        assert page.locator("#options > button").count() == 0  # no long list
        for _ in range(40):
            if page.locator("#steps button.finish").count():
                break
            so_far = page.inner_text("#steps p")
            page.locator("#steps button.step").first.click()
            _next_step(page, so_far)
        page.locator("#steps button.finish").first.click()
        deadline = time.monotonic() + 30
        while svc.load(gid).head.depth == before:
            assert time.monotonic() < deadline, "the commitment was not recorded"
            time.sleep(0.1)
        line = svc.load(gid)
        assert line.envelopes[before + 1].actor == who
        assert line.envelopes[before + 1].tag == "perikles.forces_committed"
        assert not errors, errors
    finally:
        ctx.close()
        svc.store.close()


SO_FAR = "document.querySelector('#steps p').textContent"
"""What a seat's page says of the decision it builds step by step: the steps taken so far."""


def _next_step(page, so_far: str) -> None:
    """Wait until ``page``'s step panel says something else than ``so_far`` (the next step drawn, or the one
    before), with no reading under way."""
    page.wait_for_function(f"document.querySelector('#steps p') && {SO_FAR} !== {json.dumps(so_far)}"
                           " && document.body.dataset.reading === '0'")


def _stepwise(base: str, created: dict) -> str:
    """Play ``created``'s Perikles game through the API up to the first decision built step by step (an influence
    tile): the seat that must make it."""
    gid, token = created["game"], {p: s["token"] for p, s in created["seats"].items()}
    for _ in range(20):
        who = acting_now(base, gid)
        o = httpx.get(f"{base}/api/games/{gid}/options", params={"brief": "1", "token": token[who]}).json()
        if o["stepwise"]:
            return who
        assert httpx.post(f"{base}/api/games/{gid}/act", params={"token": token[who]},
                          json={"choice": 1, "expect": o["position"]}).status_code == 200
    raise AssertionError("no decision built step by step came up")


def test_a_redraw_that_reads_nothing_new_leaves_the_step_buttons_under_the_finger(browser, server):
    """The page reads the game again when its stream opens again (a phone back from sleep, a dropped connection)
    or tells a change: with nothing changed, the buttons the player is about to tap stay the same buttons (they
    were replaced on every reading, so a tap on a slow phone could land on a button that had just gone)."""
    base, _ = server
    created = made(base, "perikles", ["Ana", "Bo", "Cy"], seed=2)
    who = _stepwise(base, created)
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    try:
        page.goto(base + created["seats"][who]["link"])
        page.wait_for_selector("#steps button.step")
        _settled(page, 0)
        page.evaluate("window.under = [document.querySelector('#steps button.step'),"
                      " document.querySelector('#view table')]")
        page.evaluate("refresh()")  # what the stream does when it opens again, and on news
        _settled(page)
        assert page.evaluate("window.under.every(e => e.isConnected)"), "a redraw with nothing new replaced them"
        page.locator("#steps button.step").first.click()  # and a step taken draws the next step, as before
        _next_step(page, "Build your decision step by step.")
        assert page.inner_text("#steps p").startswith("So far: ")
        assert not errors, errors
    finally:
        ctx.close()


def test_a_step_tapped_twice_before_the_page_answers_is_taken_once(browser, server):
    """A slow phone: the player taps a step, nothing seems to happen while the next step is read, and taps again.
    The step is taken once: 'back one step' goes back to the start (the second tap took the same step again from
    the same place, so 'back one step' went nowhere, and each tap threw the reading before it away)."""
    base, _ = server
    created = made(base, "perikles", ["Ana", "Bo", "Cy"], seed=2)
    who = _stepwise(base, created)
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    held: list = []
    try:
        page.goto(base + created["seats"][who]["link"])
        page.wait_for_selector("#steps button.step")
        _settled(page, 0)
        page.route(re.compile(r"/steps\?chosen=.+"), lambda route: held.append(route))  # the next step's reading,
        # held back a while
        first = page.locator("#steps button.step").first
        first.click()
        first.click()  # the same button, still there: the page has not answered yet
        page.wait_for_function("document.body.dataset.reading !== '0'")
        for route in held:
            route.continue_()
        page.unroute(re.compile(r"/steps\?chosen=.+"))
        _next_step(page, "Build your decision step by step.")
        taken = page.inner_text("#steps p")
        assert taken.startswith("So far: ") and "," not in taken, taken  # one step taken
        page.locator("#steps button.back").click()
        _settled(page)
        assert page.inner_text("#steps p") == "Build your decision step by step."
        assert not errors, errors
    finally:
        ctx.close()


def test_the_seat_to_act_is_told_it_is_their_turn_and_a_phone_shows_the_page_at_its_width(browser, server):
    """Pergamemnon's view (the widest: nested card tables) on a phone's width: the page keeps that width (the
    tables scroll in their own box) rather than zooming the whole page out to a third of its size; the acting
    seat's status and tab title say it is their turn, the other seat's do not."""
    base, _ = server
    created = made(base, "pergamemnon", ["Ana", "Bo"], seed=4)
    acting = acting_now(base, created['game'])
    errors: list[str] = []
    contexts = []
    try:
        for who in ("Ana", "Bo"):
            ctx, page = open_page(browser, errors, base + created["seats"][who]["link"], 375, 700, is_mobile=True)
            contexts.append(ctx)
            page.wait_for_selector("#view table")
            assert page.evaluate("document.documentElement.scrollWidth") <= 375
            status = page.inner_text("#status")
            if who == acting:
                assert status.startswith("Your turn. ") and page.title().startswith("(your turn)")
                assert page.locator("#options > button").count()
            else:
                assert "Your turn" not in status and "your turn" not in page.title()
                assert f"{acting} to act" in status
        assert not errors, errors
    finally:
        for ctx in contexts:
            ctx.close()


def test_a_player_named_host_is_told_apart_from_the_hosts_link(browser, server):
    """The pages took a seat for the host's link when the API said ``"you": "host"``, which a player so named is
    told too: that player's page said "You are the host", and the host's page said "Your turn" on that player's
    turn. The API's ``host`` flag tells them apart."""
    base, _ = server
    names = ["host", "Bo"]
    for seed in range(1, 40):  # a game where the player named host acts first
        created = httpx.post(base + "/api/games", json={"ruleset": "peloponnes", "players": names,
                                                        "seed": seed}).json()
        if acting_now(base, created['game']) == "host":
            break
    gid = created["game"]
    as_player = httpx.get(f"{base}/api/games/{gid}", params={"token": created["seats"]["host"]["token"]}).json()
    as_host = httpx.get(f"{base}/api/games/{gid}", params={"token": created["host"]["token"]}).json()
    assert (as_player["you"], as_player["host"]) == ("host", False)
    assert (as_host["you"], as_host["host"]) == ("host", True)
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(base + created["seats"]["host"]["link"])
        page.wait_for_selector("#status[data-event]")
        assert page.inner_text("#you") == "You play host."
        assert page.inner_text("#status").startswith("Your turn. ") and page.locator("#options > button").count()
        page.goto(base + created["host"]["link"])  # the fragment alone changed: the page loads itself again
        page.wait_for_function("document.getElementById('you').textContent.startsWith('You are the host')")
        page.wait_for_selector("#status[data-event]")
        assert page.inner_text("#you") == "You are the host (the table's recorder)."
        assert "Your turn" not in page.inner_text("#status") and "your turn" not in page.title()
    finally:
        ctx.close()


def test_a_click_overtaken_by_the_same_seats_other_page_says_so_in_a_players_words(browser, server):
    """One player with their link open twice: a decision made on one page leaves the other's buttons stale for a
    moment; a click on one of them records nothing and says why without naming an API route, and that page then
    shows the game as it is."""
    base, _ = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=4)
    acting = acting_now(base, created['game'])
    errors: list[str] = []
    ctx, first = open_page(browser, errors)
    ctx2, second = open_page(browser, errors)
    try:
        for page in (first, second):
            page.goto(base + created["seats"][acting]["link"])
            page.wait_for_selector("#options > button")
        event = int(second.get_attribute("#status", "data-event"))
        second.evaluate("window.stale = document.querySelector('#options > button')")
        first.click("#options > button >> nth=0")
        _at(first, event + 1)
        second.evaluate("window.stale.click()")  # the button as it was drawn before the decision
        second.wait_for_function("document.getElementById('error').textContent.length > 0")
        said = second.inner_text("#error")
        assert said.startswith("the line has moved since position") and said.endswith(
            "nothing was recorded: your page now shows the game as it stands; choose again from what it offers"), said
        assert "/api/" not in said and "GET" not in said
        _at(second, event + 1)
        _settled(second, event + 1)  # the stream's redraw of that same event leaves the sentence up
        assert second.inner_text("#error") == said
        assert not errors, errors
    finally:
        ctx.close()
        ctx2.close()


def test_a_click_overtaken_by_the_hosts_undo_says_the_line_was_taken_back(browser, server):
    """The host takes a decision back while a player's buttons are drawn: a click on one records nothing and says
    that the line was taken back (not that someone played on), in the page's words."""
    base, _ = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=4)
    gid = created["game"]
    first = acting_now(base, gid)
    token = created["seats"][first]["token"]
    assert httpx.post(f"{base}/api/games/{gid}/act", json={"choice": 1},
                      headers={"Authorization": f"Bearer {token}"}).status_code == 200
    acting = acting_now(base, gid)
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    try:
        page.goto(base + created["seats"][acting]["link"])
        page.wait_for_selector("#options > button")
        page.evaluate("window.stale = document.querySelector('#options > button')")
        host = {"Authorization": f"Bearer {created['host']['token']}"}
        assert httpx.post(f"{base}/api/games/{gid}/undo", json={}, headers=host).status_code == 200
        page.evaluate("window.stale.click()")
        page.wait_for_function("document.getElementById('error').textContent.length > 0")
        said = page.inner_text("#error")
        assert said.startswith("the line was taken back (an undo) since position"), said
        assert said.endswith("your page now shows the game as it stands; choose again from what it offers"), said
        assert "/api/" not in said and "agon " not in said
        assert not errors, errors
    finally:
        ctx.close()


def test_the_undo_button_shows_only_while_the_policy_allows_and_an_undo_reaches_the_other_seat(browser, server):
    """Peloponnes between two people: nobody is offered an undo before deciding anything; a bid (it shows only how
    many coin cards it is) may be taken back (the button appears on the bidder's page only), and taking it back
    takes the other player's options away on their page, live. (A Pergamemnon attack may not be: its weapon was
    declared; tests/test_server_api.py.)"""
    base, _ = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=3)
    who = acting_now(base, created['game'])
    other = "Bo" if who == "Ana" else "Ana"
    errors: list[str] = []
    ctx, me = open_page(browser, errors)
    ctx2, them = open_page(browser, errors)
    try:
        for page, name in ((me, who), (them, other)):
            page.goto(base + created["seats"][name]["link"])
        me.wait_for_selector("#options > button")
        _at(them, int(me.get_attribute("#status", "data-event")))
        assert not me.is_visible("#undo") and not them.is_visible("#undo")
        me.locator("#options > button", has_text=" bids ").first.click()
        them.wait_for_selector("#options > button")
        me.wait_for_selector("#undo", state="visible")
        assert not them.is_visible("#undo")
        me.click("#undo")
        them.wait_for_function("document.querySelectorAll('#options > button').length === 0")
        me.wait_for_selector("#options > button")
        assert not me.is_visible("#undo") and me.inner_text("#error") == ""
        assert not errors, errors
    finally:
        ctx.close()
        ctx2.close()


def test_the_hosts_undo_click_overtaken_by_a_players_move_undoes_nothing_and_says_so(browser, server):
    """The host's page shows the game after Ana's decision, with its undo button; Bo's decision lands before the
    page hears of it (its event stream is held back here) and the host clicks undo: the page sends the position it
    showed, so the click undoes nothing (it took back Bo's decision, which the host never saw) and says why."""
    base, _ = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=3)
    gid = created["game"]

    decided(base, created)
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    try:
        page.route("**/events?*", lambda route: None)  # the stream never opens: the page shows what it read first
        page.goto(base + created["host"]["link"])
        page.wait_for_selector("#undo", state="visible")
        shown = int(page.get_attribute("#status", "data-event"))
        decided(base, created)
        moved = httpx.get(f"{base}/api/games/{gid}").json()
        assert moved["event"] > shown
        page.click("#undo")
        page.wait_for_function("document.getElementById('error').textContent.length > 0")
        said = page.inner_text("#error")
        assert said.startswith("the line has moved since position "), said
        assert said.endswith("nothing was undone: look at the game as it stands and undo again if you still want"
                             " to"), said
        assert httpx.get(f"{base}/api/games/{gid}").json() == moved  # Bo's decision stands
        _at(page, moved["event"])  # and the page shows the game as it is now
        assert page.inner_text("#error") == said
        page.click("#undo")  # the host, having seen it, takes it back
        page.wait_for_function(f"Number(document.getElementById('status').dataset.event) < {moved['event']}")
        assert httpx.get(f"{base}/api/games/{gid}").json()["event"] < moved["event"]
        assert not errors, errors
    finally:
        ctx.close()


def test_the_hosts_redo_button_shows_only_while_a_redo_would_bring_something_back(browser, server):
    """The host who undid one step too many redoes it on their page: the redo button shows once an undo took
    something back, never on a player's page, brings the step back and hides again. Clicked after the host's other
    page redid it already (this page's event stream is held back here), it sends the position it showed, so it
    redoes nothing more (no second undo the host never saw) and says why, and the page shows the game as it is."""
    base, _ = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=3)
    gid = created["game"]
    host = {"Authorization": f"Bearer {created['host']['token']}"}

    for _ in range(3):
        decided(base, created)
    at = httpx.get(f"{base}/api/games/{gid}").json()["event"]
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    ctx2, player = open_page(browser, errors)
    try:
        player.goto(base + created["seats"]["Ana"]["link"])
        page.goto(base + created["host"]["link"])
        page.wait_for_selector("#undo", state="visible")
        assert not page.is_visible("#redo")  # nothing was undone yet
        page.click("#undo")
        page.wait_for_selector("#redo", state="visible")
        assert page.inner_text("#redo") == "redo the last undo"
        assert int(page.get_attribute("#status", "data-event")) < at
        _at(player, 0)
        _settled(player)
        assert not player.is_visible("#redo")  # a player's page never offers it
        page.click("#redo")
        page.wait_for_function(f"Number(document.getElementById('status').dataset.event) === {at}")
        page.wait_for_selector("#redo", state="hidden")
        assert page.inner_text("#error") == ""
        assert httpx.get(f"{base}/api/games/{gid}").json()["event"] == at
        _settled(page)
        assert page.get_attribute("#log > p:last-child", "data-n") == str(at)  # the record shows it brought back
        # two undos; the host's other page redoes the second before this page hears of it
        for _ in range(2):
            r = httpx.post(f"{base}/api/games/{gid}/undo", json={}, headers=host)
            assert r.status_code == 200, r.text
        back = r.json()["event"]
        page.wait_for_function(f"Number(document.getElementById('status').dataset.event) === {back}")
        page.wait_for_selector("#redo", state="visible")
        page.route("**/events?*", lambda route: None)
        page.evaluate("location.reload()")  # the stream never opens again: the page shows what it read first
        page.wait_for_selector("#redo", state="visible")
        _settled(page)
        shown = int(page.get_attribute("#status", "data-event"))
        assert shown == back
        r = httpx.post(f"{base}/api/games/{gid}/redo", json={"expect": shown}, headers=host)
        assert r.status_code == 200 and back < r.json()["event"] < at, r.text
        between = r.json()["event"]
        page.click("#redo")
        page.wait_for_function("document.getElementById('error').textContent.length > 0")
        said = page.inner_text("#error")
        assert said.endswith("nothing was redone: look at the game as it stands and redo again if you still want"
                             " to"), said
        assert "/api/" not in said and "agon " not in said
        assert httpx.get(f"{base}/api/games/{gid}").json()["event"] == between  # the second undo stands
        _at(page, between)  # the page shows the game as it is now, still offering the redo left
        page.wait_for_selector("#redo", state="visible")
        assert page.inner_text("#error") == said
        page.click("#redo")  # the host, having seen it, brings back the rest
        page.wait_for_function(f"Number(document.getElementById('status').dataset.event) === {at}")
        page.wait_for_selector("#redo", state="hidden")
        assert httpx.get(f"{base}/api/games/{gid}").json()["event"] == at
        assert not errors, errors
    finally:
        ctx.close()
        ctx2.close()


def test_the_lobby_lists_a_game_it_just_created_and_fits_a_phone(browser, server):
    """Creating a game on a phone: the list of games shows it at once (it said "No games yet." above the new
    game's links), and the long secret links wrap instead of widening the page."""
    base, _ = server
    ctx = browser.new_context(viewport={"width": 375, "height": 700}, is_mobile=True)
    try:
        lobby = ctx.new_page()
        lobby.goto(base + "/")
        assert "No games yet." in lobby.inner_text("#games-box")
        gid = create_in_lobby(lobby, "peloponnes", "Ana, Bo")["spectators"].split("/")[2]
        lobby.wait_for_selector("#games")
        assert gid in lobby.inner_text("#games") and "Ana, Bo" in lobby.inner_text("#games")
        assert "No games yet." not in lobby.inner_text("body")
        assert lobby.evaluate("document.documentElement.scrollWidth") <= 375
        # a mistyped link: a page a person reads (the API's JSON line named a route to request)
        for page in ("seat", "watch"):
            answer = lobby.goto(f"{base}/games/{gid}x/{page}#token=abc")
            text = lobby.inner_text("body")
            assert answer.status == 404 and f"There is no game '{gid}x' on this server: check the link" in text, text
            assert "GET" not in text and "/api/" not in text and lobby.get_attribute("a", "href") == "/"
    finally:
        ctx.close()


def test_the_lobby_names_the_hosts_link_apart_from_a_player_named_host(browser, server):
    """Friends made a game in the lobby for Ana and a player called "host": the new links read "host: ..." twice,
    one the player's seat, one the table's recorder's, and the one who made the game could keep the wrong one. The
    host's link and the spectators' are named in words no player's name may hold (a comma), and each opens what it
    is named for."""
    base, _ = server
    errors: list[str] = []
    ctx, lobby = open_page(browser, errors)
    try:
        lobby.goto(base + "/")
        create_in_lobby(lobby, "peloponnes", "Ana, host")
        rows = [p.inner_text() for p in lobby.locator("#links p:has(.seat-link)").all()]
        labels = [row.split(": ")[0] for row in rows]
        assert labels == ["Ana", "host", "the host (the table's recorder), to keep", "spectators, for anyone"], rows
        link = {label: lobby.locator("#links p:has(.seat-link)").nth(i).locator("a").get_attribute("href")
                for i, label in enumerate(labels)}
        for label, said in (("host", "You play host."),
                            ("the host (the table's recorder), to keep", "You are the host (the table's recorder).")):
            seat = ctx.new_page()
            seat.goto(base + link[label])
            seat.wait_for_selector("#status[data-event]")
            assert seat.inner_text("#you") == said, label
            seat.close()
        assert not errors, errors
    finally:
        ctx.close()


def test_the_lobbys_create_tapped_twice_makes_one_game(browser, server):
    """A double tap on "Create" (or Enter pressed twice, or a tap again on a slow phone before the links came) made
    two games: the links shown were one's, and the list showed the other beside it, a game nobody had the links of.
    A second tap while the first is sent sends nothing; once the links are shown, the form makes another game."""
    base, _ = server
    errors: list[str] = []
    ctx, lobby = open_page(browser, errors)
    posted: list[str] = []
    lobby.on("request", lambda r: r.method == "POST" and r.url.endswith("/api/games") and posted.append(r.url))
    try:
        lobby.goto(base + "/")
        lobby.select_option("#ruleset", "peloponnes")
        lobby.fill("#players", "Ana, Bo")
        lobby.fill("#title", "twice")
        # two taps before the first is answered (in one task of the page's: no answer can come between them)
        lobby.evaluate("() => { const f = document.getElementById('create'); f.requestSubmit(); f.requestSubmit(); }")
        lobby.wait_for_selector(".seat-link[data-who=spectators]")
        gid = lobby.get_attribute(".seat-link[data-who=spectators]", "href").split("/")[2]
        assert len(posted) == 1, posted
        lobby.wait_for_function(f"document.getElementById('games').textContent.includes({json.dumps(gid)})")
        assert [g["game"] for g in httpx.get(base + "/api/games").json() if g["title"] == "twice"] == [gid]
        lobby.click("button[type=submit]")  # the links were shown: a tap now is another game, as asked
        lobby.wait_for_function(f"!document.querySelector('#links h2').textContent.includes({json.dumps(gid)})")
        twice = [g for g in httpx.get(base + "/api/games").json() if g["title"] == "twice"]
        assert len(posted) == 2 and len(twice) == 2
        assert not errors, errors
    finally:
        ctx.close()


def test_the_lobby_names_a_seed_that_is_not_a_number_as_it_was_typed(page, server):
    """A seed typed as words went as JSON null: the refusal said "not null: leave the field out", of a box the
    person had filled in. It goes as typed, and the sentence names it."""
    base, _ = server
    page.goto(base + "/")
    page.select_option("#ruleset", "pergamemnon")
    page.fill("#players", "Ana, Bo")
    page.fill("#seed", "seven")
    page.click("button[type=submit]")
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    said = page.inner_text("#error")
    assert "'seed' must be a whole number, not the string 'seven'" in said and "null" not in said, said
    assert "openapi" not in said, said  # the form says it is a page's: a person is not sent to the API's document
    assert "No games yet." in page.inner_text("#games-box")
    page.fill("#seed", "7")
    page.fill("#players", "Ana")  # too few seats: the form's box is named, not the API's fields
    page.click("button[type=submit]")
    page.wait_for_function("document.getElementById('error').textContent.includes('seats')")
    said = page.inner_text("#error")
    assert said.endswith("give 2 to 5 seats in the lobby's form") and "'players'" not in said, said
    page.fill("#players", "Ana, Bo")
    page.fill("#seed", "7")
    page.click("button[type=submit]")
    page.wait_for_selector(".seat-link[data-who=spectators]")
    assert page.inner_text("#error") == "" and not page.page_errors


def test_the_pages_ask_for_no_icon_and_log_no_error_in_the_browsers_console(browser, server):
    """Every page asked for /favicon.ico, a 404, which the browser's console showed as an error on each load (what
    a person looking there for a real problem reads first): the pages name no icon, so nothing is asked. The
    browser asks for an icon once a page has loaded: a page that names none (the API's JSON), opened after them all,
    is asked for, and its 404 in the console says that the pages' turn to ask is over."""
    base, _ = server
    ctx = browser.new_context()
    try:
        said = []
        ctx.on("console", lambda m: said.append((m.page, m.text)) if m.type == "error" else None)
        # the first icon asked for in this browser: the lobby's, a seat's, or (as it must be) the control's
        with ctx.expect_console_message(lambda m: m.location["url"].endswith("/favicon.ico")) as asked:
            page = ctx.new_page()
            page.goto(base + "/")
            page.select_option("#ruleset", "peloponnes")
            page.fill("#players", "Ana, Bo")
            page.click("button[type=submit]")
            page.wait_for_selector(".seat-link[data-who=spectators]")
            links = [a.get_attribute("href") for a in page.query_selector_all(".seat-link")]
            assert len(links) == 4
            for link in links:  # each in a tab of its own, left open: a page left early may never ask
                ctx.new_page().goto(base + link, wait_until="load")
            control = ctx.new_page()
            control.goto(base + "/api/rulesets")
        assert asked.value.page == control, f"{asked.value.page.url} asked for an icon"
        assert [text for p, text in said if p != control] == [], said
    finally:
        ctx.close()


def test_the_host_is_told_how_to_enter_a_die_it_rolled_at_the_table(browser, server):
    """A die has no items to list: the host's page said "possible: " and nothing more; it says what to type."""
    base, url = server
    created = httpx.post(base + "/api/games", json={"ruleset": "toy", "players": ["Ana", "Bo"], "table": True,
                                                    "seed": 1}).json()
    gid, host_token = created["game"], created["host"]["token"]
    assert httpx.post(f"{base}/api/games/{gid}/act", json={"choice": "seed"},
                      headers={"Authorization": f"Bearer {host_token}"}).status_code == 200  # the seat order
    who = acting_now(base, gid)
    token = created["seats"][who]["token"]
    options = httpx.get(f"{base}/api/games/{gid}/options", params={"token": token}).json()["options"]
    roll = next(o["n"] for o in options if "roll" in o["text"])
    assert httpx.post(f"{base}/api/games/{gid}/act", json={"choice": roll}, params={"token": token}).status_code == 200
    errors: list[str] = []
    ctx, host = open_page(browser, errors)
    try:
        host.goto(base + created["host"]["link"])
        host.wait_for_selector("#chance-input", state="visible")
        assert host.inner_text("#chance-items") == ("roll a die of 6 sides and type what it shows, a number from 1"
                                                     " to 6")
        event = int(host.get_attribute("#status", "data-event"))
        host.fill("#chance-input", "4")
        host.click("#chance-form button")
        _at(host, event + 1)
        row = host.locator(f'#log p[data-n="{event + 1}"]')
        row.wait_for()
        assert "4" in row.inner_text(), row.inner_text()
        assert not errors, errors
    finally:
        ctx.close()


def test_a_seat_whose_connection_blinks_through_an_undo_shows_the_record_as_it_is(browser, server):
    """While a player's page cannot fetch (a network blip), the host takes moves back and another move is made:
    the record it then shows is the game's, not rows of the undone line kept beside the new one."""
    base, _ = server
    created = made(base, "pergamemnon", ["Ana", "Bo"], seed=3)
    gid, tokens, host = created["game"], {p: s["token"] for p, s in created["seats"].items()}, created["host"]["token"]
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    try:
        page.goto(base + created["seats"]["Ana"]["link"])
        page.wait_for_selector("#log p")
        who = acting_now(base, gid)
        n = len(httpx.get(f"{base}/api/games/{gid}/options", params={"token": tokens[who]}).json()["options"])
        ctx.set_offline(True)
        assert httpx.post(f"{base}/api/games/{gid}/act", params={"token": tokens[who]},
                          json={"choice": 1}).status_code == 200
        event = httpx.get(f"{base}/api/games/{gid}").json()["event"]
        page.locator(f'#log p[data-n="{event}"]').wait_for()  # the open stream still told it
        assert httpx.post(f"{base}/api/games/{gid}/undo", params={"token": host}, json={}).status_code == 200
        assert httpx.post(f"{base}/api/games/{gid}/act", params={"token": tokens[who]},
                          json={"choice": n}).status_code == 200
        ctx.set_offline(False)
        want = [f"#{r['n']} {r['text']}" for r in httpx.get(f"{base}/api/games/{gid}/log",
                                                             params={"token": tokens["Ana"]}).json()["events"]]
        page.wait_for_function("want => JSON.stringify([...document.querySelectorAll('#log p')].map("
                               "p => p.innerText)) === JSON.stringify(want)", arg=want, timeout=10_000)
    finally:
        ctx.close()


def test_a_seat_and_the_spectators_refused_their_stream_by_a_store_down_open_it_again_and_follow(browser, server):
    """A stream answered with a 503 (the store down for a moment) is closed for good by the browser: each page opens
    it again after a pause, reads what changed meanwhile, and follows the game live from then on."""
    base, _ = server
    created = made(base, "pergamemnon", ["Ana", "Bo"], seed=3)
    gid, tokens = created["game"], {p: s["token"] for p, s in created["seats"].items()}
    errors: list[str] = []
    ctx, seat = open_page(browser, errors)
    refused = {"n": 0}

    def down_then_up(route) -> None:
        if refused["n"] < 2:  # the first stream of each page
            refused["n"] += 1
            route.fulfill(status=503, content_type="application/json",
                          body='{"error": "the store is busy; nothing was recorded: retry the request"}')
        else:
            route.continue_()

    ctx.route("**/api/games/*/events*", down_then_up)
    try:
        seat.goto(base + created["seats"]["Ana"]["link"])
        seat.wait_for_selector("#log p")
        watch = ctx.new_page()
        watch.goto(f"{base}/games/{gid}/watch")
        watch.wait_for_function("document.body.dataset.live")
        # its stream told the game once opened again (the page is live before its first stream is even asked for:
        # read at once, the count could miss the watch's refusal: a fresh-clone run failed so)
        watch.wait_for_function("document.body.dataset.told !== undefined")
        assert refused["n"] == 2
        for _ in range(2):  # made while the streams are closed, then after they opened again
            who = acting_now(base, gid)
            assert httpx.post(f"{base}/api/games/{gid}/act", params={"token": tokens[who]},
                              json={"choice": 1}).status_code == 200
            event = httpx.get(f"{base}/api/games/{gid}").json()["event"]
            _at(seat, event)
            _at(watch, event)
        assert not errors, errors
    finally:
        ctx.close()


def test_a_seats_stream_says_it_is_a_pages_and_its_report_of_trouble_is_shown(browser, server):
    """The seat's page asks for its event stream with ?face=page (an EventSource sends no header of its own), so
    that the stream's refusals name what the page offers; a report the stream sends ('error', the store away for a
    moment) is shown on the page as a refusal is, and stays while the game stands where it was."""
    base, _ = server
    created = made(base, "pergamemnon", ["Ana", "Bo"], seed=3)
    errors: list[str] = []
    ctx, seat = open_page(browser, errors)
    asked: list[str] = []
    report = "the store is busy: another program has held it locked; retry the action when it is done"
    trouble = {"now": False}

    def stream(route) -> None:
        asked.append(route.request.url)
        if not trouble["now"]:  # the stream ends at once, and the browser opens it again soon
            route.fulfill(status=200, content_type="text/event-stream", body="retry: 300\n\n")
        else:
            route.fulfill(status=200, content_type="text/event-stream",
                          body='retry: 60000\nevent: error\ndata: {"error": "' + report + '"}\n\n')

    ctx.route("**/api/games/*/events*", stream)
    try:
        seat.goto(base + created["seats"]["Ana"]["link"])
        seat.wait_for_selector("#log p")
        _at(seat, httpx.get(f"{base}/api/games/{created['game']}").json()["event"])
        trouble["now"] = True
        seat.wait_for_function("document.getElementById('error').textContent.length > 0")
        assert seat.inner_text("#error") == report
        _settled(seat)  # the redraw that follows the stream's opening (begun before its report came) leaves it up
        assert seat.inner_text("#error") == report
        assert asked and all("?face=page&seat=" in url for url in asked), asked  # its seat by cookie, not token
        assert not errors, errors
    finally:
        ctx.close()


def test_the_spectators_stream_report_of_trouble_is_shown_until_the_game_moves_on(browser, server):
    """The spectators' page shows what its event stream reports ('error', the store away for a moment) as the seat's
    page does, under its title; the page opening its stream again while the game stands still keeps it up, and it
    goes once the game moves on."""
    base, _ = server
    created = made(base, "pergamemnon", ["Ana", "Bo"], seed=3)
    gid, tokens = created["game"], {p: s["token"] for p, s in created["seats"].items()}
    errors: list[str] = []
    ctx, watch = open_page(browser, errors)
    asked: list[str] = []
    report = "the store is busy: another program has held it locked; retry the action when it is done"
    trouble = {"now": False}

    def stream(route) -> None:
        asked.append(route.request.url)
        if not trouble["now"]:
            route.continue_()
        else:  # said, and the stream ends: the browser opens it again soon
            route.fulfill(status=200, content_type="text/event-stream",
                          body='retry: 300\nevent: error\ndata: {"error": "' + report + '"}\n\n')

    ctx.route("**/api/games/*/events*", stream)
    try:
        watch.goto(f"{base}/games/{gid}/watch")
        watch.wait_for_function("document.body.dataset.live")
        assert watch.locator("#error").count() == 1 and watch.inner_text("#error") == ""
        trouble["now"] = True
        watch.reload()  # its stream opened anew, into the trouble
        watch.wait_for_function("document.getElementById('error').textContent.length > 0")
        assert watch.inner_text("#error") == report
        # the next opening reaches the server, and the page reads the game again: it has not moved, the report stays
        with watch.expect_response(lambda r: r.url.endswith("/watch.json")):
            with watch.expect_request(lambda r: "/events" in r.url):
                trouble["now"] = False
        # the redraw that follows the stream's opening (asked for before the stream's first news) leaves it up
        _settled(watch, httpx.get(f"{base}/api/games/{gid}").json()["event"])
        assert watch.inner_text("#error") == report
        who = acting_now(base, gid)
        assert httpx.post(f"{base}/api/games/{gid}/act", params={"token": tokens[who]},
                          json={"choice": 1}).status_code == 200
        _at(watch, httpx.get(f"{base}/api/games/{gid}").json()["event"])
        watch.wait_for_function("document.getElementById('error').textContent === ''")
        assert all("?face=page" in url for url in asked), asked
        assert not errors, errors
    finally:
        ctx.close()


def test_another_seats_link_opened_in_the_same_tab_shows_that_seat(browser, server):
    """Two players at one computer: Bo opens his link in the tab that shows Ana's seat. Only the address's fragment
    differs, so the browser does not load the page again; the page went on as Ana's (her hand, her buttons) under
    Bo's address. It now shows the seat of the link it holds, and a link whose token opens no seat says so."""
    base, _ = server
    created = made(base, "pergamemnon", ["Ana", "Bo"], seed=4)
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    try:
        page.goto(base + created["seats"]["Ana"]["link"])
        page.wait_for_function("document.getElementById('you').textContent === 'You play Ana.'")
        page.goto(base + created["seats"]["Bo"]["link"])
        page.wait_for_function("document.getElementById('you').textContent === 'You play Bo.'")
        page.goto(f"{base}/games/{created['game']}/seat#token=not-a-token")
        page.wait_for_function("document.getElementById('error').textContent.length > 0")
        assert page.inner_text("#error") == ("this token opens no seat of this game; use the newest link you were"
                                             " given for it, whole (a link given later replaces the one before; one"
                                             " cut short or mistyped opens nothing)")
        assert "Bo" not in page.inner_text("#you")
        assert not errors, errors
    finally:
        ctx.close()


def test_a_link_cut_short_says_it_may_be_cut_short(browser, server):
    """A friend's link came through a chat that cut it short (or it was copied by hand with a slip): the page said
    only to use the newest link, as if it had been replaced, and the friend, holding the only link they were given,
    was left to wonder. It now says that a link cut short or mistyped opens nothing, and to use it whole."""
    base, _ = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=4)
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    try:
        page.goto(base + created["seats"]["Bo"]["link"][:-12])
        page.wait_for_function("document.body.dataset.stream === 'closed'")
        said = page.inner_text("#error")
        assert said.startswith("this token opens no seat of this game; use the newest link you were given for it,"
                               " whole") and "one cut short or mistyped opens nothing" in said, said
        assert page.inner_text("#you") == "" and not page.is_visible("#view-title")
        assert not errors, errors
    finally:
        ctx.close()


def test_a_player_whose_decision_the_host_takes_back_is_told_so_on_their_page(browser, server):
    """The host's undo of a player's decision changed only the record and the status on that player's page: it now
    says, until they decide again, that it was taken back, in the words their record showed it. The other
    player, none of whose decisions was taken back, is told nothing; a player's own undo is no news to them."""
    base, _ = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=3)
    gid = created["game"]
    who = acting_now(base, gid)
    other = "Bo" if who == "Ana" else "Ana"
    errors: list[str] = []
    ctx, me = open_page(browser, errors)
    ctx2, them = open_page(browser, errors)
    try:
        for page, name in ((me, who), (them, other)):
            page.goto(base + created["seats"][name]["link"])
        me.wait_for_selector("#options > button")
        me.locator("#options > button", has_text=" bids ").first.click()
        them.wait_for_selector("#options > button")
        mine = httpx.get(f"{base}/api/games/{gid}/log", params={"token": created["seats"][who]["token"]}).json()
        row = next(r for r in reversed(mine["events"]) if r["actor"] == who)
        shown = me.inner_text(f'#log p[data-n="{row["n"]}"]')
        assert not me.is_visible("#taken-back") and not them.is_visible("#taken-back")
        host = {"Authorization": f"Bearer {created['host']['token']}"}
        assert httpx.post(f"{base}/api/games/{gid}/undo", json={}, headers=host).status_code == 200
        me.wait_for_selector("#taken-back", state="visible")
        said = me.inner_text("#taken-back")
        assert said == f"Your last decision (#{row['n']}) was taken back: " + shown.split(" ", 1)[1], said
        them.wait_for_function("document.querySelectorAll('#options > button').length === 0")
        me.wait_for_selector("#options > button")
        assert not them.is_visible("#taken-back") and them.inner_text("#taken-back") == ""
        # deciding again clears the note; taking that decision back oneself tells nothing
        me.locator("#options > button", has_text=" bids ").first.click()
        me.wait_for_selector("#taken-back", state="hidden")
        me.wait_for_selector("#undo", state="visible")
        me.click("#undo")
        me.wait_for_selector("#options > button")
        them.wait_for_function("document.querySelectorAll('#options > button').length === 0")
        assert not me.is_visible("#taken-back") and me.inner_text("#taken-back") == ""
        assert not errors, errors
    finally:
        ctx.close()
        ctx2.close()


def test_the_decisions_heading_shows_only_over_decisions_or_a_note_of_the_seats_own(browser, server):
    """A seat's page opened without a token, and the page of a game that is over, showed a "Your decisions"
    heading with nothing of the reader's under it; it shows only where there is something."""
    base, _ = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=3)
    gid = created["game"]
    who = acting_now(base, gid)
    other = "Bo" if who == "Ana" else "Ana"
    over = httpx.post(base + "/api/games", json={"ruleset": "peloponnes", "players": [], "seed": 3, "bots": [
        {"name": "Cy", "kind": "random"}, {"name": "Di", "kind": "random"}]}).json()
    assert httpx.get(f"{base}/api/games/{over['game']}").json()["pending"]["kind"] == "over"
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    try:
        for link, shown in ((f"/games/{gid}/seat", False), (created["seats"][who]["link"], True),
                            (created["seats"][other]["link"], True), (created["host"]["link"], True),
                            (over["host"]["link"], False)):
            page.goto(base + "/")  # another seat's link in the same tab would only change the fragment
            page.goto(base + link)
            page.wait_for_selector("#status[data-event]")
            assert page.is_visible("#options-title") == shown, link
            if shown:
                assert page.locator("#options > *").count() > 0, link
        assert not errors, errors
    finally:
        ctx.close()


def test_a_link_replaced_by_a_newer_one_says_so_and_the_page_stops_asking(browser, server):
    """The host gave a seat a new link (``agon links --seat``: the old one was seen by someone else). A page opened
    with the old link says in one sentence to use the newest link, with no empty sections of a game under it (it
    showed "Your decisions", "Scores" and "Record" headings over nothing); a page that was open on it is told so when
    the game next moves. Neither opens its refused event stream again every few seconds for as long as it stays
    open."""
    base, url = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=4)
    gid = created["game"]
    acting = acting_now(base, gid)
    waiting = "Bo" if acting == "Ana" else "Ana"
    said = "this token opens no seat of this game; use the newest link you were given for it"
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    ctx2, kept = open_page(browser, errors)
    streams: list[str] = []
    page.on("request", lambda r: "/events" in r.url and streams.append(r.url))
    svc = Service(Store(url))
    try:
        kept.goto(base + created["seats"][waiting]["link"])
        _settled(kept, 0)
        seats.issue(svc, gid, [acting, waiting])  # both seats' links replaced
        page.goto(base + created["seats"][acting]["link"])  # the old link
        page.wait_for_function("document.body.dataset.stream === 'closed'")
        assert page.inner_text("#error").startswith(said)
        for heading in ("#options-title", "#scores-title", "#log-title", "#view-title"):
            assert not page.is_visible(heading), heading
        # not even asked once: naming the seat to the stream (POST /stream-seat) was refused as the game's reading was
        assert streams == [], streams
        # the page open on a link replaced meanwhile: told at the next move, and it stops there too
        newest = seats.issue(svc, gid, [acting])[acting]
        o = httpx.get(f"{base}/api/games/{gid}/options", params={"token": newest}).json()
        assert httpx.post(f"{base}/api/games/{gid}/act", json={"choice": 1, "expect": o["position"]},
                          params={"token": newest}).status_code == 200
        kept.wait_for_function("document.body.dataset.stream === 'closed'")
        assert kept.inner_text("#error").startswith(said)
        # and nothing of the seat's game stays under it: the hand it showed, a turn and decisions no longer its own
        for heading in ("#options-title", "#scores-title", "#log-title", "#view-title", "#options button"):
            assert not kept.is_visible(heading), heading
        assert kept.inner_text("#status") == "" and kept.inner_text("#view") == "" and "turn" not in kept.title()
        assert not errors, errors
    finally:
        ctx.close()
        ctx2.close()
        svc.store.close()


def test_a_page_open_on_a_link_replaced_while_nobody_moves_says_so_at_once(browser, server):
    """The host gave new links (``agon links``) while the game stood still: a player's page and the host's open on
    the old links went on showing the seat (the hand, "Your turn", its decisions) until someone acted, though every
    click was refused. Each now says at once, through its stream's refusal, to use the newest link, and takes away
    what it showed of the seat, with nobody moving."""
    base, url = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=4)
    gid = created["game"]
    acting = acting_now(base, gid)
    said = "this token opens no seat of this game; use the newest link you were given for it"
    errors: list[str] = []
    ctx, player = open_page(browser, errors)
    ctx2, host = open_page(browser, errors)
    opened = {"n": 0, "held": True}

    def first_only(route) -> None:
        """Each page's first stream reaches the server; while ``held``, the browser's openings of it again fail as
        a dropped network would, so that what the page shows is what the stream's refusal made it show (not what
        opening it again, refused, would: the browser tries that some seconds later)."""
        opened["n"] += 1
        if opened["n"] > 2 and opened["held"]:
            route.abort()
        else:
            route.continue_()

    for c in (ctx, ctx2):
        c.route("**/api/games/*/events*", first_only)
    svc = Service(Store(url))
    try:
        player.goto(base + created["seats"][acting]["link"])
        host.goto(base + created["host"]["link"])
        for page in (player, host):
            _settled(page, 0)
        assert opened["n"] == 2
        assert player.is_visible("#options button") and "turn" in player.title()
        stood = svc.load(gid).head.id
        seats.issue(svc, gid, [acting, seats.HOST])  # `agon links GAME --seat NAME --seat host`
        for page in (player, host):
            page.wait_for_function("document.getElementById('game').hidden")
            assert page.inner_text("#error").startswith(said)
            assert page.inner_text("#status") == "" and page.inner_text("#view") == ""
            assert not page.is_visible("#options button") and "turn" not in page.title()
        assert svc.load(gid).head.id == stood  # nobody moved
        opened["held"] = False
        player.wait_for_function("document.body.dataset.stream === 'closed'")  # and it stops asking
        assert player.inner_text("#error").startswith(said)
        assert not errors, errors
    finally:
        ctx.close()
        ctx2.close()
        svc.store.close()


def test_a_decision_or_undo_tapped_twice_is_made_once_with_no_refusal(browser, server):
    """A double tap on a decision or the undo (or a second tap while a slow phone sends the first): it is made
    once and the page says nothing of a refusal (the second was sent too, and refused as made where the game had
    moved on from: 'branch main ... moved while this action ran ...', under a decision that was recorded)."""
    base, url = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=4)
    gid = created["game"]
    acting = acting_now(base, gid)
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    acts: list[str] = []
    page.on("request", lambda r: r.url.endswith("/act") and acts.append(r.url))
    try:
        page.goto(base + created["seats"][acting]["link"])
        page.wait_for_selector("#options > button")
        _settled(page, 0)
        event = int(page.get_attribute("#status", "data-event"))
        page.locator("#options > button", has_text=" bids ").first.dblclick()
        _at(page, event + 1)
        _settled(page, event + 1)
        assert page.inner_text("#error") == ""
        assert len(acts) == 1, acts
        svc = Service(Store(url))
        try:
            assert [e.actor for e in svc.load(gid).envelopes[event + 1:]].count(acting) == 1
            # the bid may be taken back (nothing was revealed since): a double tap on the undo takes it back once
            page.wait_for_selector("#undo:visible")
            acts.clear()
            page.locator("#undo").dblclick()
            # back at #event exactly: _at waits for that event or a later one, which the page showed before the undo
            page.wait_for_function(f"Number(document.getElementById('status').dataset.event) === {event}")
            _settled(page)
            assert page.inner_text("#error") == ""
            assert svc.load(gid).head.depth == event
        finally:
            svc.store.close()
        assert not errors, errors
    finally:
        ctx.close()


def test_an_event_recorded_between_the_pages_first_readings_is_in_its_record(browser, server):
    """The page reads the record, then its event stream opens: an event recorded between the two (another seat's
    decision at that moment, on a slow line) was in neither, and the record went on without it (the view and the
    status showed it) until the next undo. The stream's status names the newest event: a record short of it is read
    again."""
    base, _ = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=4)
    gid = created["game"]
    acting = acting_now(base, gid)
    waiting = "Bo" if acting == "Ana" else "Ana"
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    held: list = []
    try:
        page.route(re.compile(r"/events\?"), lambda route: held.append(route))  # the stream opens late
        page.goto(base + created["seats"][waiting]["link"])
        page.wait_for_function("document.querySelectorAll('#log p').length > 0 && document.body.dataset.reading"
                               " === '0'")
        shown = int(page.evaluate("document.querySelector('#log p:last-child').dataset.n"))
        token = created["seats"][acting]["token"]
        o = httpx.get(f"{base}/api/games/{gid}/options", params={"token": token}).json()
        assert httpx.post(f"{base}/api/games/{gid}/act", params={"token": token},
                          json={"choice": 1, "expect": o["position"]}).status_code == 200
        now = httpx.get(f"{base}/api/games/{gid}").json()["event"]
        assert now > shown
        for route in held:
            route.continue_()
        page.unroute(re.compile(r"/events\?"))
        _at(page, now)
        _settled(page, now)
        assert int(page.evaluate("document.querySelector('#log p:last-child').dataset.n")) == now
        assert not errors, errors
    finally:
        ctx.close()


def test_an_event_told_while_the_record_is_first_read_stays_in_it(browser, server):
    """The page's first reading of the record answers late (a slow line), and meanwhile the stream tells of a new
    event: the late answer, read before that event, drew the record over it and the event was gone from it."""
    base, _ = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=4)
    gid = created["game"]
    acting = acting_now(base, gid)
    waiting = "Bo" if acting == "Ana" else "Ana"
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    late: list = []

    def hold(route):  # read now, answered later
        late.append((route, route.fetch()))

    try:
        page.route(re.compile(r"/log$"), hold)
        page.goto(base + created["seats"][waiting]["link"])
        # the stream open, the game read, the record's reading alone under way
        page.wait_for_function("document.body.dataset.told !== undefined && document.body.dataset.reading === '1'"
                               " && document.getElementById('status').dataset.event !== undefined")
        token = created["seats"][acting]["token"]
        o = httpx.get(f"{base}/api/games/{gid}/options", params={"token": token}).json()
        assert httpx.post(f"{base}/api/games/{gid}/act", params={"token": token},
                          json={"choice": 1, "expect": o["position"]}).status_code == 200
        now = httpx.get(f"{base}/api/games/{gid}").json()["event"]
        page.wait_for_function(f"Number(document.body.dataset.told) >= {now}")
        for route, answer in late:
            route.fulfill(response=answer)
        page.unroute(re.compile(r"/log$"))
        _settled(page, now)
        assert int(page.evaluate("document.querySelector('#log p:last-child').dataset.n")) == now
        assert not errors, errors
    finally:
        ctx.close()


UNANSWERED = "the server did not answer (it may be restarting, or the network is down): try again in a moment"


def test_a_decision_or_a_new_game_the_server_never_answered_is_said_in_a_sentence(browser, server):
    """A click while the server was stopped (restarted by its host) or the network down showed the browser's own
    words, 'Failed to fetch', on a seat's page, and on the lobby nothing at all. Both say so in a sentence, and the
    decision clicked again once the server answers is recorded."""
    base, url = server
    created = made(base, "perikles", ["Ana", "Bo", "Cy"], seed=3)
    gid = created["game"]
    errors: list[str] = []
    ctx, ana = open_page(browser, errors)
    lobby_ctx, lobby = open_page(browser, errors)
    svc = Service(Store(url))
    try:
        ana.goto(base + created["seats"]["Ana"]["link"])
        ana.wait_for_selector("#options button")
        _settled(ana, 1)
        ctx.set_offline(True)
        ana.click("#options button >> nth=0")
        ana.wait_for_function("document.getElementById('error').textContent.length > 0")
        assert ana.inner_text("#error") == UNANSWERED
        assert svc.load(gid).head.depth == 1
        ctx.set_offline(False)
        ana.click("#options button >> nth=0")
        _at(ana, 2)
        assert ana.inner_text("#error") == ""
        lobby.goto(base + "/")
        lobby.fill("#players", "Ana, Bo")
        lobby_ctx.set_offline(True)
        lobby.click("button[type=submit]")
        lobby.wait_for_function("document.getElementById('error').textContent.length > 0")
        assert lobby.inner_text("#error") == UNANSWERED
        assert not [e for e in errors if "Failed to fetch" in e], errors  # no rejection left unhandled
    finally:
        ctx.close()
        lobby_ctx.close()
        svc.store.close()


def test_the_sentence_that_the_server_did_not_answer_goes_once_it_answers_again(browser, server):
    """A decision, and the lobby's new game, that never reached the server (a blip of the network) said "the server
    did not answer ...: try again in a moment", and on a seat's page the sentence stayed after the server answered
    again, until the game moved; on the lobby, for good. Each page now asks the server whether it answers again, and
    the sentence goes once it does (not when a proxy answers in its stead), the game standing where it was and
    nothing sent again."""
    base, url = server
    created = made(base, "perikles", ["Ana", "Bo", "Cy"], seed=3)
    gid = created["game"]
    errors: list[str] = []
    ctx, ana = open_page(browser, errors)
    lobby_ctx, lobby = open_page(browser, errors)
    sent: list[str] = []

    def lost(route) -> None:  # the request never reaches the server, as in a network's blip; nothing else is held
        sent.append(route.request.method + " " + route.request.url)
        route.abort()

    svc = Service(Store(url))
    try:
        ana.goto(base + created["seats"]["Ana"]["link"])
        ana.wait_for_selector("#options button")
        _settled(ana, 1)
        ana.route(re.compile(r"/act$"), lost)
        # agon is down behind a proxy, which answers in its stead: that is not agon answering again
        ana.route(re.compile(r"/api/rulesets$"), lambda route: route.fulfill(
            status=502, content_type="text/html", body="<h1>502 Bad Gateway</h1>"))
        asked = lambda r: r.url.endswith("/api/rulesets")  # noqa: E731
        with ana.expect_request(asked):
            ana.click("#options button >> nth=0")
        with ana.expect_request(asked):  # asked again after the proxy's answer: it did not take the sentence away
            pass
        assert ana.inner_text("#error") == UNANSWERED
        ana.unroute(re.compile(r"/api/rulesets$"))
        ana.wait_for_function("document.getElementById('error').textContent === ''")
        assert svc.load(gid).head.depth == 1 and len(sent) == 1  # nothing recorded, nothing sent again
        assert ana.inner_text("#status").startswith("Your turn. #1")
        lobby.goto(base + "/")
        lobby.fill("#players", "Ana, Bo")
        lobby.route(lambda u: u.endswith("/api/games"), lost)
        lobby.click("button[type=submit]")
        lobby.wait_for_function("document.getElementById('error').textContent.length > 0")
        assert lobby.inner_text("#error") == UNANSWERED
        lobby.wait_for_function("document.getElementById('error').textContent === ''")
        assert len(sent) == 2 and lobby.input_value("#players") == "Ana, Bo"  # kept, to be sent again
        assert not errors, errors
    finally:
        ctx.close()
        lobby_ctx.close()
        svc.store.close()


LOST = ("the server does not answer just now (it may be restarting, or the network is down); this page follows the"
        " game again once it does")


def test_the_pages_say_while_the_server_is_away_and_follow_the_game_again_once_it_is_back(browser, tmp_path):
    """The host stopped the server and started it again (an upgrade): a seat's page and the spectators' went on
    showing the game as it last stood, with nothing to say that no news could come. Each says so while its stream
    is down, and once the server is back its stream opens again, the sentence goes and the page follows the game."""
    from agon.server.app import create_app
    from tests.browser import serving
    from tests.servers import free_port

    url = f"sqlite:///{tmp_path / 'club.db'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"

    def same_port():
        """The server on ``port`` each time (``serving`` picks a new one by default), so that the page finds it
        there again, over the same store."""
        return serving(create_app(url, poll=0.1), port, log_level="critical")

    errors: list[str] = []
    ctx, ana = open_page(browser, errors)
    watch_ctx, watch = open_page(browser, errors)
    try:
        with same_port():
            created = made(base, "perikles", ["Ana", "Bo", "Cy"], seed=3)
            gid = created["game"]
            token = created["seats"]["Ana"]["token"]
            ana.goto(base + created["seats"]["Ana"]["link"])
            watch.goto(base + created["spectate"])
            _settled(ana, 1)
            _at(watch, 1)
            watch.wait_for_function("Number(document.body.dataset.told) >= 1")  # its stream is open
            assert ana.inner_text("#error") == "" and watch.inner_text("#error") == ""
        for page in (ana, watch):
            page.wait_for_function(f"document.getElementById('error').textContent === {json.dumps(LOST)}")
        assert ana.inner_text("#status").startswith("Your turn. #1")  # the game as it last stood, said to be so
        with same_port():
            for page in (ana, watch):
                page.wait_for_function("document.getElementById('error').textContent === ''")
            assert httpx.post(f"{base}/api/games/{gid}/act", params={"token": token},
                              json={"choice": 1}).status_code == 200
            _at(ana, 2)
            _at(watch, 2)
            assert ana.inner_text("#status").startswith("#2: Bo to act")
        assert not [e for e in errors if "LOST" in e or "ReferenceError" in e], errors
    finally:
        ctx.close()
        watch_ctx.close()


def test_a_seat_page_opened_at_a_prefix_of_the_games_id_keeps_to_its_game_once_another_shares_it(browser, server):
    """A player typed `/games/e967/seat#token=...` by hand: the page opened, then kept asking for `e967`, and once
    another game's id began so too every request and its stream were refused as ambiguous. It reads the game by its
    whole id, and puts that id in its address, so a reload stays on the game."""
    base, url = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=3)
    gid, prefix = created["game"], created["game"][:1]
    svc = Service(Store(url))
    try:
        assert svc.game(prefix).id == gid  # the prefix names this game alone as the page opens
        errors: list[str] = []
        ctx, page = open_page(browser, errors)
        token = created["seats"]["Ana"]["token"]
        requested: list[str] = []
        page.on("request", lambda r: requested.append(r.url))
        page.goto(f"{base}/games/{prefix}/seat#token={token}")
        page.wait_for_selector("#status[data-event]")
        assert page.url == f"{base}/games/{gid}/seat#token={token}"
        assert gid in page.inner_text("h1")
        watch = ctx.new_page()  # the spectators' page likewise
        watch.goto(f"{base}/games/{prefix}/watch")
        watch.wait_for_function("document.body.dataset.live")
        assert watch.url.split("#")[0] == f"{base}/games/{gid}/watch"
        watch.close()
        for seed in range(100):  # another game whose id begins as this one's does
            other = httpx.post(base + "/api/games", json={"ruleset": "peloponnes", "players": ["Cy", "Di"],
                                                          "seed": seed}).json()["game"]
            if other.startswith(prefix):
                break
        else:
            pytest.fail("no game's id began with " + prefix)
        assert httpx.get(f"{base}/api/games/{prefix}").status_code == 400  # the prefix is ambiguous now
        now = httpx.get(f"{base}/api/games/{gid}").json()
        acting = now["pending"]["player"]
        acting_token = created["seats"][acting]["token"]
        httpx.post(f"{base}/api/games/{gid}/act", json={"choice": 1},
                   headers={"Authorization": f"Bearer {acting_token}"}).raise_for_status()
        _at(page, now["event"] + 1)  # the page follows the game
        _settled(page)
        assert page.inner_text("#error") == ""
        page.reload()
        page.wait_for_selector("#status[data-event]")
        assert int(page.get_attribute("#status", "data-event")) > now["event"] and page.inner_text("#error") == ""
        asked = [u for u in requested if "/api/games/" in u]
        assert asked and all(f"/api/games/{gid}" in u for u in asked), asked
        assert not errors, errors
        ctx.close()
    finally:
        svc.store.close()


def test_no_address_a_seat_page_requests_carries_its_token_and_its_stream_still_follows_the_game(browser, server):
    """The seat page's event stream was opened at `/events?face=page&token=...`: a proxy's access log kept every
    player's token. The page now names its seat to the stream by a cookie that a POST carrying the token in its
    header sets, sent to that stream alone; no address the page requests holds the token, and the stream follows
    the game as that seat sees it (a player's own draws), a host's page and a player's in one browser each their
    own."""
    base, _ = server
    created = made(base, "peloponnes", ["Ana", "Bo"], seed=4)
    gid = created["game"]
    tokens = [created["seats"]["Ana"]["token"], created["seats"]["Bo"]["token"], created["host"]["token"]]
    errors: list[str] = []
    ctx, ana = open_page(browser, errors)
    requested: list[str] = []
    ctx.on("request", lambda r: requested.append(r.url))
    try:
        ana.goto(base + created["seats"]["Ana"]["link"])
        host = ctx.new_page()  # the host's page in the same browser: its own cookie, its own stream
        host.goto(base + created["host"]["link"])
        _settled(ana, 0)
        _settled(host, 0)
        for _ in range(2):  # both players pass in turn: each draws coin cards, told to the drawer alone
            now = httpx.get(f"{base}/api/games/{gid}").json()
            who = now["pending"]["player"]
            token = created["seats"][who]["token"]
            o = httpx.get(f"{base}/api/games/{gid}/options", params={"token": token}).json()
            passing = next(x["n"] for x in o["options"] if "passes" in x["text"])
            assert httpx.post(f"{base}/api/games/{gid}/act", json={"choice": passing, "expect": o["position"]},
                              headers={"Authorization": f"Bearer {token}"}).status_code == 200
        last = httpx.get(f"{base}/api/games/{gid}").json()["event"]
        _settled(ana, last)
        _settled(host, last)
        mine = httpx.get(f"{base}/api/games/{gid}/log", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        assert ana.inner_text("#log").count("#") == len(mine["events"])
        drew = [r["text"] for r in mine["events"] if r["text"].startswith("Ana draws") and "(pass):" in r["text"]]
        assert drew and all(text in ana.inner_text("#log") for text in drew)  # her own draws, named, live
        assert not any(text in host.inner_text("#log") for text in drew)  # the host's page: what every player sees
        streams = [u for u in requested if "/events" in u]
        assert streams and all("seat=" in u for u in streams), streams
        assert not [u for u in requested if any(t in u for t in tokens)], requested
        assert not errors, errors
    finally:
        ctx.close()


def test_a_players_page_says_the_scores_are_every_players_reckoning_while_the_game_runs(browser, server):
    """Peloponnes, seed 11, Ana, Bruno and Chloe, at #7: Bruno's page showed a score of 2 beside his view's population
    3 and power 1 (his score by the rules' 'Pontuação', a people coin card in hand joining his population: 1). The
    scores during the game are the ruleset's public reckoning, the same for every seat (a hand counted by its size
    alone), and the page now says so under them; the API gives Bruno no number computed from another's hidden
    cards, and the same scores as a spectator."""
    base, _ = server
    created = made(base, "peloponnes", ["Ana", "Bruno", "Chloe"], seed=11)
    gid, bruno = created["game"], created["seats"]["Bruno"]["token"]
    now = httpx.get(f"{base}/api/games/{gid}").json()
    chloe = created["seats"][now["pending"]["player"]]["token"]
    o = httpx.get(f"{base}/api/games/{gid}/options", params={"token": chloe}).json()
    passing = next(x["n"] for x in o["options"] if "passes" in x["text"])
    httpx.post(f"{base}/api/games/{gid}/act", json={"choice": passing},
               headers={"Authorization": f"Bearer {chloe}"}).raise_for_status()
    his = httpx.get(f"{base}/api/games/{gid}", headers={"Authorization": f"Bearer {bruno}"}).json()
    assert his["event"] == 7
    me = his["view"]["players"]["Bruno"]
    assert (me["population_points"], me["power_points"], his["scores"]["Bruno"]) == (3, 1, 2.0)
    assert httpx.get(f"{base}/api/games/{gid}").json()["scores"] == his["scores"]  # a spectator's, the same
    errors: list[str] = []
    ctx, page = open_page(browser, errors)
    try:
        page.goto(base + created["seats"]["Bruno"]["link"])
        _settled(page, 7)
        assert page.is_visible("#scores-note")
        assert page.inner_text("#scores-note").startswith("As every player can work them out now")
        assert not errors, errors
    finally:
        ctx.close()

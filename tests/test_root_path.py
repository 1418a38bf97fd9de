"""agon serve under a sub-path behind a proxy (``--root-path /agon``): every link, page, script, stream and answer
of the API names its address under the path, so that a browser that follows them all never leaves it. The links
were absolute paths (/games/..., /api/..., /static/...), which such a proxy sends elsewhere on its host.

The proxy is played here as a proxy and uvicorn's root_path hand agon a request together: only what is under the
path reaches the app (anything else is the proxy's 404), with ``root_path`` set to it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from tests.browser import create_in_lobby, open_page, serving

PREFIX = "/agon"


class BehindProxy:
    """The app as a proxy serving it at PREFIX/ and uvicorn's ``root_path`` present it: a request under the prefix
    reaches it with ``root_path`` set; any other is answered 404 by the proxy, never reaching agon."""

    def __init__(self, app, prefix: str) -> None:
        self.app, self.prefix = app, prefix

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            if not (scope["path"] + "/").startswith(self.prefix + "/"):
                await send({"type": "http.response.start", "status": 404,
                            "headers": [(b"content-type", b"text/plain")]})
                await send({"type": "http.response.body", "body": b"not under the proxy's path"})
                return
            scope = {**scope, "root_path": self.prefix}
        await self.app(scope, receive, send)


@contextmanager
def under_prefix(url: str) -> Iterator[str]:
    from agon.server.app import create_app

    with serving(BehindProxy(create_app(url, poll=0.1), PREFIX)) as address:
        yield address


@pytest.fixture
def proxied(tmp_path) -> Iterator[str]:
    with under_prefix(f"sqlite:///{tmp_path / 'club.db'}") as base:
        yield base


def test_the_apis_links_are_under_the_path(proxied):
    made = httpx.post(f"{proxied}{PREFIX}/api/games", json={"ruleset": "adamastor", "players": ["Ana"], "seed": 1})
    assert made.status_code == 201, made.text
    body = made.json()
    gid = body["game"]
    assert body["spectate"] == f"{PREFIX}/games/{gid}/watch"
    assert body["seats"]["Ana"]["link"].startswith(f"{PREFIX}/games/{gid}/seat#token=")
    assert body["host"]["link"].startswith(f"{PREFIX}/games/{gid}/seat#token=")
    for link in (body["spectate"], body["seats"]["Ana"]["link"].split("#")[0]):
        assert httpx.get(proxied + link).status_code == 200
    assert httpx.get(f"{proxied}/api/games").status_code == 404  # outside the path: the proxy's, not agon's


@pytest.mark.browser
def test_every_link_of_the_pages_served_under_a_path_stays_under_it(browser, proxied):
    """The lobby, a game created there, each seat's page played from, the spectators' page following live (its
    plotly.js, its data, its stream), the lobby's links and a missing game's page: every request the browser makes
    is under the path, and none is refused."""
    errors: list[str] = []
    asked: list[str] = []
    answers: list[tuple[int, str]] = []
    ctx, page = open_page(browser, errors)
    ctx.on("request", lambda r: asked.append(r.url))
    ctx.on("response", lambda r: answers.append((r.status, r.url)))
    try:
        page.goto(f"{proxied}{PREFIX}/")
        links = create_in_lobby(page, "pergamemnon", "Ana, Bo", seed="5")
        assert all(link.startswith(PREFIX + "/games/") for link in links.values()), links
        shown = {a.get_attribute("data-who"): a.inner_text() for a in page.query_selector_all(".seat-link")}
        assert shown["spectators"] == proxied + links["spectators"]  # the address to give, whole
        page.wait_for_selector("#games a")  # the list redrawn by the page's script, with the new game
        lobby_links = [a.get_attribute("href") for a in page.query_selector_all("a[href]")]
        assert lobby_links and all(h.startswith(PREFIX + "/") for h in lobby_links), lobby_links

        state = httpx.get(f"{proxied}{PREFIX}/api/games/{links['spectators'].split('/')[3]}").json()
        acting = state["pending"]["player"]
        page.goto(proxied + links[acting])  # the seat to act: its page reads the API and follows the stream
        page.wait_for_selector("#options button")
        before = page.evaluate("Number(document.getElementById('status').dataset.event)")
        page.click("#options button")
        page.wait_for_function(f"Number(document.getElementById('status').dataset.event) > {before}")
        page.wait_for_function("document.getElementById('log').children.length > 0")
        seat_links = [a.get_attribute("href") for a in page.query_selector_all("a[href]")]
        assert seat_links == [links["spectators"], PREFIX + "/"], seat_links

        page.click("text=spectators' page")  # the study page: plotly.js, its data and its stream under the path
        page.wait_for_function("document.body.dataset.ready === '1' && !!window.Plotly")
        page.wait_for_function("document.body.dataset.told !== undefined")
        assert page.evaluate("fetch(location.pathname + '.json').then(r => r.status)") == 200  # its redraw's data
        for href in lobby_links:
            page.goto("about:blank")
            answer = page.goto(proxied + href)
            assert answer.status == 200, href
        answer = page.goto(f"{proxied}{PREFIX}/games/nosuchgame/seat")
        assert answer.status == 404
        page.click("a:has-text(\"the lobby\")")
        page.wait_for_selector("#create")
        assert page.url == f"{proxied}{PREFIX}/"
    finally:
        ctx.close()
    assert errors == []
    outside = [u for u in asked if not u.startswith((f"{proxied}{PREFIX}/", "data:", "about:"))]
    assert outside == [], outside
    refused = [(s, u) for s, u in answers if s >= 400 and not u.endswith("/games/nosuchgame/seat")]
    assert refused == [], refused
    assert any("/static/plotly-" in u for u in asked) and any("/events?face=page" in u for u in asked)


PATH_NAMED = re.compile(r"(?<![\w.])/[\w.]+")
"""A path a sentence names (not a part of a word or a number): '/openapi.json', '/api/games', '/games/ID/seat'."""


def test_every_path_a_refusal_names_is_under_the_path(proxied):
    """Under ``--root-path`` the refusals named /openapi.json, the routes (GET /api/games/ID/options, GET
    /api/rulesets) and a seat's link (/games/ID/seat#token=...) from the root, where the proxy has none of them: a
    program or a person sent there was answered the proxy's 404. Each path named is now under the path, and opens."""
    base = proxied + PREFIX
    made = httpx.post(f"{base}/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"], "seed": 1})
    gid = made.json()["game"]
    who = httpx.get(f"{base}/api/games/{gid}").json()["pending"]["player"]
    token = made.json()["seats"][who]["token"]
    page = {"accept": "application/json"}
    asked = [
        (404, httpx.get(f"{base}/no-such-page"), f"(the API is listed at {PREFIX}/openapi.json)"),
        (405, httpx.delete(f"{base}/api/games"), f"(see {PREFIX}/openapi.json)"),
        (400, httpx.get(f"{base}/api/games", params={"limt": "3"}), f"(see {PREFIX}/openapi.json)"),
        (400, httpx.get(f"{base}/api/games/{gid}/events", params={"since": "abc"}), f"(see {PREFIX}/openapi.json)"),
        (400, httpx.post(f"{base}/api/games", json={"players": ["a", "b"]}),
         f"'ruleset' is needed: a name from GET {PREFIX}/api/rulesets (see {PREFIX}/openapi.json)"),
        (400, httpx.post(f"{base}/api/games", json={"ruleset": "nope", "players": ["a", "b"]}),
         f"(see GET {PREFIX}/api/rulesets)"),
        (404, httpx.get(f"{base}/api/games/abcdef12"), f"GET {PREFIX}/api/games lists the games"),
        (400, httpx.post(f"{base}/api/games/{gid}/act", json={"choice": "999"}, params={"token": token}),
         f"(GET {PREFIX}/api/games/{gid}/options lists them)"),
        (400, httpx.get(f"{base}/", params={"limit": "5"}, headers=page), f"GET {PREFIX}/api/games takes it"),
        (400, httpx.get(f"{base}/games/{gid}/seat", params={"token": "x"}, headers=page),
         f"({PREFIX}/games/ID/seat#token=...)"),
        (400, httpx.get(f"{base}/games/{gid}/watch", params={"token": "x"}, headers=page),
         f"({PREFIX}/games/ID/seat#token=...)"),
    ]
    for status, r, says in asked:
        assert r.status_code == status, (r.status_code, r.text)
        said = r.json()["error"]
        assert says in said, said
        for path in PATH_NAMED.findall(said):  # the path asked for, or one to go to: each under the path
            assert path == PREFIX or path.startswith(PREFIX + "/"), (path, said)
    assert httpx.get(f"{base}/openapi.json").json()["servers"] == [{"url": PREFIX}]  # its routes are under it
    assert httpx.get(f"{base}/api/rulesets").status_code == 200
    assert httpx.get(f"{base}/api/games/{gid}/options").status_code == 200

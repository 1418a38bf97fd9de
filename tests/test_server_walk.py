"""A hostile or clumsy client walks every route: each path of /openapi.json and each page, with every method (HEAD
and OPTIONS included), malformed and oversized bodies under several content types, game ids that are no game, an
ambiguous prefix or unreadable, stale ``expect`` values, a replaced link's token and two tokens at once. Every
answer is below 500; every refusal is a 4xx in one sentence on one line (``{"error": ...}``, or a page a person
reads where a browser asked for HTML), echoing no token; and nothing of it moves the game."""

from __future__ import annotations

import itertools
import json
import re

import pytest

from agon.core import seats
from agon.core.service import Service
from agon.events.store import Store
from tests.servers import app_client

LIMIT = 16 * 1024
PAGES = ["/", "/games/{game}/seat", "/games/{game}/watch", "/games/{game}/watch.json"]
METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
BODIES = [b"", b"{", b"[]", b"null", b'"text"', b"\x00\xff\xfe", b"a=b&c=d", b'{"choice": 1, "choice": 2}',
          b'{"expect": "0.00000000"}', b'{"steps": 99999}', b'{"name": "\\ud800"}', b'{"choice": "\\u0000"}',
          b'{"choice": ' + b"[" * 3000 + b"]" * 3000 + b"}", b"x" * (LIMIT + 1)]
TYPES = [None, "application/json", "text/plain", "application/x-www-form-urlencoded",
         "multipart/form-data; boundary=x", "application/json; charset=latin-1"]
ODD_IDS = ["nosuchgame", "", "x" * 3000, "%00", "%ff%fe", "..", "%2e%2e", "a%20b", "\u202e", "-1", "*"]


def one_sentence(r, tokens: list[str]) -> str | None:
    """What is wrong with a refusal ``r`` (None: nothing): not JSON's one line, or a page, or it names a token."""
    if any(t in r.text for t in tokens):
        return "a token is echoed back"
    if r.request.method == "HEAD":
        return None
    media = r.headers.get("content-type", "").split(";")[0]
    if media == "text/html":
        return None if 'class="err"' in r.text and "Traceback" not in r.text else "a page without its sentence"
    if media != "application/json":
        return f"answered as {media!r}"
    try:
        data = r.json()
    except ValueError:
        return "not JSON"
    if list(data) != ["error"] or not isinstance(data["error"], str) or not data["error"].strip():
        return f"not one error: {r.text[:100]}"
    if "\n" in data["error"] or "Traceback" in data["error"]:
        return "more than one line"
    return None


@pytest.fixture
def walk(tmp_path):
    url = f"sqlite:///{tmp_path / 'club.db'}"
    with app_client(url, errors=False, max_body=LIMIT, poll=0.01) as client:
        yield client, Service(Store(url))


def test_every_route_answers_a_hostile_client_with_a_4xx_sentence_and_moves_nothing(walk):
    client, keeper = walk
    games = [client.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"], "seed": s}).json()
             for s in range(20)]
    g = games[0]
    gid, host = g["game"], g["host"]["token"]
    state = client.get(f"/api/games/{gid}").json()
    who = state["pending"]["player"]
    mine = g["seats"][who]["token"]
    assert client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers={"Authorization": f"Bearer {mine}"}
                       ).status_code == 200
    stale = state["position"]  # where the game stood before that decision
    replaced = g["seats"][who]["token"]
    seats.issue(keeper, gid, {who})  # `agon links GAME --seat WHO`: the link given before opens nothing now
    shared = max((p for p in {x["game"][0] for x in games}), key=lambda p: sum(x["game"][0] == p for x in games))
    assert sum(x["game"][0] == shared for x in games) > 1  # a prefix that names several games
    before = {x["game"]: keeper.load(x["game"]).head.id for x in games}
    tokens = [host, replaced, *(s["token"] for s in g["seats"].values())]
    paths = list(client.get("/openapi.json").json()["paths"]) + PAGES
    wrong: list[str] = []
    asked = 0

    def ask(method: str, path: str, **kw) -> None:
        nonlocal asked
        asked += 1
        r = client.request(method, path, **kw)
        if r.status_code >= 500:
            wrong.append(f"{method} {path[:60]} {kw.get('headers')}: {r.status_code} {r.text[:200]}")
        elif r.status_code >= 400 and (problem := one_sentence(r, tokens)):
            wrong.append(f"{method} {path[:60]} {kw.get('headers')}: {r.status_code} {problem}")

    for template in paths:
        query = "?wait=0" if template.endswith("/events") else ""
        for game in ([gid, gid[:3], shared, *ODD_IDS] if "{game}" in template else [None]):
            path = (template.replace("{game}", game) if game is not None else template) + query
            whole = game == gid
            heads = ([{}, {"Authorization": f"Bearer {host}"}, {"Authorization": f"Bearer {replaced}"},
                      {"Authorization": f"Bearer {mine}"}, {"Authorization": "Token x"}, {"Accept": "text/html"},
                      {"Agon-Face": "page"}] if whole else [{}, {"Accept": "text/html"}])
            for method, head in itertools.product(METHODS if whole else ["GET", "POST", "HEAD"], heads):
                ask(method, path, headers=head)  # no body
            if whole:  # every odd body, as each kind of content, from the acting seat and the host
                sent = [*itertools.product(BODIES, TYPES, [mine]), *((b, None, host) for b in BODIES)]
                for body, kind, token in sent:
                    ask("POST", path, headers={"Authorization": f"Bearer {token}",
                                               **({"Content-Type": kind} if kind else {})}, content=body)
            sep = "&" if query else "?"
            for extra in (f"token={replaced}", f"token={host}&token={host}", "token=", f"token={'x' * 5000}"):
                ask("GET", f"{path}{sep}{extra}", headers={"Authorization": f"Bearer {mine}"})
    for route in ("act", "undo", "redo"):  # a position the game has left, or never stood at, or none at all
        for expect in (stale, int(stale.split(".")[0]), 10**6, "10.zzzzzzzz", "", stale.upper(), [stale]):
            ask("POST", f"/api/games/{gid}/{route}", json={"choice": 1, "expect": expect} if route == "act" else
                {"expect": expect}, headers={"Authorization": f"Bearer {host if route == 'redo' else mine}"})
    assert asked > 3000, asked
    assert not wrong, f"{len(wrong)} answers of {asked}:\n" + "\n".join(wrong[:20])
    assert {x["game"]: keeper.load(x["game"]).head.id for x in games} == before  # nothing was recorded
    keeper.store.close()


def test_a_replaced_link_opens_nothing_on_any_route_and_names_nothing_of_the_game(walk):
    """After `agon links GAME --seat NAME`, the link given before is a 403 on every route of a game, its answer
    the same sentence whatever the route, naming no card, no player and nothing of the game."""
    client, keeper = walk
    g = client.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"], "seed": 3}).json()
    gid = g["game"]
    old = g["seats"]["Ana"]["token"]
    seats.issue(keeper, gid, {"Ana"})
    line = keeper.load(gid)
    names = {c for p in line.state.players for c in p.hand} | {"Ana", "Bo"}
    said = set()
    for template, ops in client.get("/openapi.json").json()["paths"].items():
        if "{game}" not in template:
            continue
        for method in ops:
            body = ({"choice": 1} if template.endswith("/act") else {"name": "x"}
                    if template.endswith(("/branch", "/switch")) else {}) if method == "post" else None
            path = template.replace("{game}", gid) + ("?wait=0" if template.endswith("/events") else "")
            r = client.request(method.upper(), path, json=body, headers={"Authorization": f"Bearer {old}"})
            assert r.status_code == 403, (method, template, r.status_code, r.text)
            said.add(r.json()["error"])
    assert len(said) == 1, said
    assert not [n for n in names if re.search(rf"\b{re.escape(n)}\b", next(iter(said)))], said
    assert keeper.load(gid).head.id == line.head.id
    keeper.store.close()


def _asked(app, target: str, root: str = "") -> tuple[int, bytes]:
    """``GET TARGET`` as uvicorn gives it to the app (its scope's path is the request line's target, after
    ``root``), answered on an event loop of its own: (status, body)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor
    from urllib.parse import unquote

    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": root + unquote(target), "raw_path": (root + target).encode(),
             "query_string": b"", "root_path": root, "headers": [(b"host", b"club.example")],
             "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 80)}
    said: dict = {"body": b""}

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            said["status"] = message["status"]
        else:
            said["body"] += message.get("body", b"")

    with ThreadPoolExecutor(1) as pool:  # a loop of its own: a browser test's Playwright may hold this thread's
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    return said["status"], said["body"]


@pytest.mark.parametrize("root", ["", "/agon"])
def test_a_request_target_in_absolute_form_is_its_path_and_one_that_is_no_path_is_a_400_sentence(tmp_path, root):
    """HTTP/1.1 servers must take a whole address as a request's target (``GET http://HOST/api/rulesets``, as a
    client set to reach the server as its proxy sends it): it was a 404 naming the address as a path. A target
    that is no path (``api/rulesets``, ``*``, a CONNECT's ``HOST:PORT``) was a 404 saying that /api/rulesets, which
    is served, is no page or endpoint; it is a 400 saying to begin the path with '/'."""
    from agon.server.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'club.db'}")
    try:
        status, plain = _asked(app, "/api/rulesets", root)
        assert status == 200
        for target in ("http://club.example/api/rulesets", "HTTPS://club.example:8443/api/rulesets"):
            assert _asked(app, target, root) == (200, plain), target
        assert _asked(app, "http://club.example", root)[0] == 200  # the lobby, at '/'
        for target in ("api/rulesets", "*", "club.example:443"):
            status, body = _asked(app, target, root)
            assert status == 400 and json.loads(body) == {
                "error": f"the request's target {target!r} is no path; give one that begins with '/', such as"
                         f" {root}/api/games"}, (target, body)
    finally:
        app.state.service.store.close()

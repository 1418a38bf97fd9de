"""The HTTP API keeps its published contract: a live ``agon serve`` app (on loopback, as tests/browser.py starts
it) is driven through a session of every ruleset, as a club member's client would, and every answer is checked
against /openapi.json: its status is one the operation declares, its media type is the declared one, and its body
(each line of an export, each message of the event stream) validates against the declared schema. Requests meant
to be right validate against the declared request schemas, and those of a wrong type do not.

Each seat is driven with its own token only: who must act is read from what every player sees (the public state),
and a seat's options and steps are read with that seat's token; nothing of one seat's reaches another.
"""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from starlette.routing import Route

from agon.server import pages
from agon.server.app import MAX_BODY, create_app
from tests.browser import live_server

HIDDEN = {"/", "/games/{game}/seat", "/games/{game}/watch", "/games/{game}/watch.json", pages.PLOTLY_PATH,
          "/openapi.json"}
"""Routes left out of the document on purpose: the pages (and the data the spectators' page redraws with), and
the document itself."""

PEOPLE = ["Ana", "Bo", "Cy", "Dee", "Eli"]


class Contract:
    """A client of the live server that checks each answer against the OpenAPI document."""

    def __init__(self, base: str, doc: dict[str, Any]) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        self.doc = doc
        self.seen: set[tuple[str, str, int]] = set()  # (method, path template, status)

    def schema_of(self, schema: dict[str, Any]) -> dict[str, Any]:
        """``schema`` with the document's components beside it, so its '#/components/...' references resolve."""
        return {**schema, "components": self.doc["components"]}

    def valid(self, schema: dict[str, Any], value: Any) -> list[str]:
        v = jsonschema.Draft202012Validator(self.schema_of(schema), format_checker=jsonschema.FormatChecker())
        return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"[:300] for e in v.iter_errors(value)]

    def call(self, method: str, template: str, *args: str, token: str | None = None, params: dict | None = None,
             json_body: Any = None, content: bytes | None = None, conforming: bool = True,
             headers: dict | None = None) -> httpx.Response:
        """``method`` on ``template`` (its ``{game}`` filled from ``args``), checked against the document.
        ``conforming``: whether the request's JSON body is one the document allows (a wrong one must not be)."""
        op = self.doc["paths"][template][method.lower()]
        path = template.replace("{game}", args[0]) if args else template
        declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "query"}
        assert set(params or {}) <= declared | {"token"}, (method, template, params, declared)
        if json_body is not None and isinstance(json_body, dict | list):
            schema = op["requestBody"]["content"]["application/json"]["schema"]
            problems = self.valid(schema, json_body)
            assert not problems if conforming else problems, (method, template, json_body, problems)
        hdrs = dict(headers or {})
        if token is not None:
            hdrs["Authorization"] = f"Bearer {token}"
        r = self.http.request(method, path, params=params, headers=hdrs, content=content,
                              json=json_body if content is None else None)
        self.check(method, template, op, r)
        return r

    def check(self, method: str, template: str, op: dict[str, Any], r: httpx.Response) -> None:
        where = f"{method} {r.request.url} -> {r.status_code}"
        assert r.status_code < 500, f"{where}: {r.text[:500]}"
        declared = op["responses"].get(str(r.status_code))
        assert declared is not None, f"{where} is not a status the operation declares: {r.text[:300]}"
        self.seen.add((method, template, r.status_code))
        media = r.headers.get("content-type", "").split(";")[0].strip()
        assert media in declared["content"], f"{where}: {media!r} is not one of {list(declared['content'])}"
        spec = declared["content"][media]
        if media == "application/json":
            problems = self.valid(spec["schema"], r.json())
        elif media == "application/x-ndjson":
            problems = [p for line in r.text.splitlines() for p in self.valid({"type": "object"}, json.loads(line))]
            assert r.text.strip(), where
        elif media == "text/event-stream":
            problems = []
            for kind, data in sse(r.text):
                assert kind in spec["x-events"], f"{where}: the stream sent {kind!r}, not in x-events"
                problems += self.valid(spec["x-events"][kind], data)
        else:
            raise AssertionError(f"{where}: no check for {media}")
        assert not problems, f"{where}: the body does not fit the declared schema: {problems[:5]}"
        if r.status_code >= 400:  # the README's promise: one sentence, on one line, nothing else
            assert list(r.json()) == ["error"] and "Traceback" not in r.json()["error"], where


def sse(text: str) -> Iterator[tuple[str, Any]]:
    """The (kind, data) of each message of an event stream's text (comment lines skipped)."""
    for frame in text.split("\n\n"):
        fields = dict(ln.split(": ", 1) for ln in frame.splitlines() if ln and not ln.startswith(":"))
        if fields:
            yield fields["event"], json.loads(fields["data"])


@pytest.fixture(scope="module")
def api(tmp_path_factory) -> Iterator[Contract]:
    with live_server(f"sqlite:///{tmp_path_factory.mktemp('contract') / 'club.db'}") as (base, _):
        doc = httpx.get(f"{base}/openapi.json", timeout=30).json()
        c = Contract(base, doc)
        yield c
        c.http.close()


def test_every_route_served_is_documented_and_every_documented_route_is_served(api):
    app = create_app("sqlite://")
    served: dict[str, set[str]] = {}
    for r in app.routes:
        assert isinstance(r, Route)
        served.setdefault(r.path, set()).update(m.lower() for m in r.methods or () if m != "HEAD")
    documented = {path: set(ops) for path, ops in api.doc["paths"].items()}
    assert {p: m for p, m in served.items() if p not in HIDDEN} == documented
    assert HIDDEN <= set(served)
    jsonschema.Draft202012Validator.check_schema(api.schema_of({"$ref": "#/components/schemas/State"}))
    for schema in api.doc["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema(schema)


def public(api: Contract, gid: str) -> dict[str, Any]:
    return api.call("GET", "/api/games/{game}", gid).json()


def decide(api: Contract, gid: str, who: str, token: str, rng: random.Random) -> None:
    """The seat ``who`` decides with its own token: from its options, or built at /steps when stepwise."""
    opts = api.call("GET", "/api/games/{game}/options", gid, token=token, params={"brief": "1"}).json()
    assert opts["you"] == who
    if opts.get("stepwise"):
        chosen: list[str] = []
        while True:
            step = api.call("GET", "/api/games/{game}/steps", gid, token=token,
                            params={"chosen": " ".join(chosen)}).json()
            if step["complete"]:
                choice: Any = step["choice"]
                break
            chosen.append(rng.choice(step["question"]["choices"])["value"])
    else:
        choice = rng.randrange(1, len(opts["options"]) + 1)
    r = api.call("POST", "/api/games/{game}/act", gid, token=token,
                 json_body={"choice": choice, "expect": opts["position"]})
    assert r.status_code == 200, r.text


def play(api: Contract, game: dict[str, Any], moves: int, rng: random.Random) -> None:
    """Up to ``moves`` turns of ``game`` (created over the API), each seat acting with its own token; at a
    table the host enters chance outcomes (drawn from the seed)."""
    gid = game["game"]
    for _ in range(moves):
        state = public(api, gid)
        pending = state["pending"]
        if pending["kind"] == "over":
            return
        if pending["kind"] == "chance":
            host = game["host"]["token"]
            assert api.call("GET", "/api/games/{game}/options", gid, token=host).json()["note"]
            assert api.call("POST", "/api/games/{game}/act", gid, token=host,
                            json_body={"choice": "seed"}).status_code == 200
            continue
        who = pending["player"]
        decide(api, gid, who, game["seats"][who]["token"], rng)


def create(api: Contract, rs: dict[str, Any], people: int, **extra: Any) -> dict[str, Any]:
    bots = [{"name": f"bot{i}", "kind": rs["bots"][i % len(rs["bots"])]}
            for i in range(max(0, rs["min_players"] - people))]
    r = api.call("POST", "/api/games", json_body={"ruleset": rs["name"], "players": PEOPLE[:people], "bots": bots,
                                                  **extra})
    assert r.status_code == 201, r.text
    return r.json()


def test_a_session_of_every_ruleset_keeps_the_contract(api):
    rng = random.Random(5)
    rulesets = api.call("GET", "/api/rulesets").json()
    assert {r["name"] for r in rulesets} >= {"adamastor", "peloponnes", "pergamemnon", "perikles"}
    for rs in rulesets:
        people = min(2, rs["max_players"])
        game = create(api, rs, people, seed=rng.randrange(1000), title=f"{rs['name']} night")
        gid, host = game["game"], game["host"]["token"]
        assert set(game["seats"]) == set(PEOPLE[:people])
        # a game of bots alone plays to the end at once
        over = create(api, rs, 0, seed=2)
        assert public(api, over["game"])["pending"]["kind"] == "over"
        assert api.call("GET", "/api/games/{game}/options", over["game"]).json()["options"] == []
        # a table game: the host enters chance outcomes
        options = {"difficulty": "easy", "less_luck": True} if rs["name"] == "adamastor" else {}
        table = create(api, rs, people, table=True, seed=3, options=options)
        play(api, table, 6, rng)
        # the game seen as each seat, as the host and as nobody
        for name, seat in game["seats"].items():
            mine = api.call("GET", "/api/games/{game}", gid, token=seat["token"]).json()
            assert mine["you"] == name and mine["host"] is False
            api.call("GET", "/api/games/{game}/options", gid, params={"token": seat["token"]})
            api.call("GET", "/api/games/{game}/log", gid, token=seat["token"], params={"from": "0"})
        as_host = api.call("GET", "/api/games/{game}", gid, token=host).json()
        assert as_host["you"] == "host" and as_host["host"] is True
        api.call("GET", "/api/games/{game}/options", gid, token=host)
        play(api, game, 8, rng)
        start = public(api, gid)["event"]
        play(api, game, 2, rng)
        # the event stream, as a seat and as nobody, from an event the client has
        for token in [None, *[s["token"] for s in game["seats"].values()]]:
            params = {"since": str(start), "wait": "0", **({"token": token} if token else {})}
            r = api.call("GET", "/api/games/{game}/events", gid, params=params)
            assert r.status_code == 200 and "event: status" in r.text
        # as a seat's page follows it: its seat named by the cookie /stream-seat sets, no token in the address
        for name, seat in game["seats"].items():
            named = api.call("POST", "/api/games/{game}/stream-seat", gid, token=seat["token"], json_body={}).json()
            assert (named["you"], named["host"]) == (name, False)
            r = api.call("GET", "/api/games/{game}/events", gid,
                         params={"since": str(start), "wait": "0", "seat": named["stream"]})
            assert r.status_code == 200 and "event: status" in r.text
        api.call("GET", "/api/games/{game}/log", gid, params={"from": str(start)})
        # a player takes back their own last decision, if the undo policy allows it
        state = public(api, gid)
        if state["pending"]["kind"] == "decision" and state["pending"]["bot"] is None:
            who = state["pending"]["player"]
            token = game["seats"][who]["token"]
            decide(api, gid, who, token, rng)
            mine = api.call("GET", "/api/games/{game}", gid, token=token).json()
            r = api.call("POST", "/api/games/{game}/undo", gid, token=token, json_body={})
            assert r.status_code == (200 if mine["may_undo"] else 403), r.text
        # the host undoes, redoes, branches, switches and exports
        before = public(api, gid)["event"]
        assert api.call("POST", "/api/games/{game}/undo", gid, token=host,
                        json_body={"steps": 2}).status_code == 200
        moved = api.call("GET", "/api/games/{game}/events", gid, params={"since": str(before), "wait": "0"})
        assert "event: moved" in moved.text
        # the host's answer alone says whether a redo would bring something back (what their page shows it by)
        assert api.call("GET", "/api/games/{game}", gid, token=host).json()["may_redo"] is True
        for token in [None, *[s["token"] for s in game["seats"].values()]]:
            assert "may_redo" not in api.call("GET", "/api/games/{game}", gid, token=token).json()
        assert api.call("POST", "/api/games/{game}/redo", gid, token=host).status_code == 200
        # true again while the player's own undo above is still there to redo: each redo it offers succeeds
        for _ in range(2):
            if not api.call("GET", "/api/games/{game}", gid, token=host).json()["may_redo"]:
                break
            assert api.call("POST", "/api/games/{game}/redo", gid, token=host).status_code == 200
        assert api.call("GET", "/api/games/{game}", gid, token=host).json()["may_redo"] is False
        assert api.call("POST", "/api/games/{game}/redo", gid, token=host).status_code == 409
        at = public(api, gid)["event"] // 2
        made = api.call("POST", "/api/games/{game}/branch", gid, token=host,
                        json_body={"name": "whatif", "at": at, "reseed": True})
        assert made.status_code == 200 and made.json()["branch"] == "whatif"
        play(api, game, 2, rng)
        branches = api.call("GET", "/api/games/{game}/branches", gid).json()
        assert {b["name"] for b in branches} == {"main", "whatif"}
        api.call("GET", "/api/games/{game}", gid, params={"branch": "main"})
        api.call("GET", "/api/games/{game}/options", gid, params={"branch": "main"})
        api.call("GET", "/api/games/{game}/log", gid, params={"branch": "main", "from": "3"})
        assert api.call("POST", "/api/games/{game}/switch", gid, token=host,
                        json_body={"name": "main"}).json()["branch"] == "main"
        exported = api.call("GET", "/api/games/{game}/export", gid, token=host)
        assert exported.status_code == 200
        one = api.call("GET", "/api/games/{game}/export", gid, token=host, params={"branch": "whatif"})
        assert one.status_code == 200
        again = api.call("POST", "/api/import", content=exported.content)
        assert again.status_code == 409
    # the lobby, with each of its parameters
    for params in ({}, {"status": "over"}, {"status": "playing", "order": "newest", "limit": "3"},
                   {"ruleset": "PERIKLES", "order": "longest"}, {"order": "shortest", "limit": "0"}):
        api.call("GET", "/api/games", params=params)
    # every documented operation answered its success at least once
    for path, ops in api.doc["paths"].items():
        for method, op in ops.items():
            ok = next(s for s in op["responses"] if s.startswith("2"))
            if (method.upper(), path) != ("POST", "/api/import"):
                assert (method.upper(), path, int(ok)) in api.seen, (method, path)


def test_a_game_exported_elsewhere_imports_with_its_links(api, tmp_path):
    from agon.core.service import NewGame, Service
    from agon.core.transfer import export_game
    from agon.events.store import Store

    other = Service(Store(f"sqlite:///{tmp_path / 'elsewhere.db'}"))
    gid = other.new_game(NewGame("pergamemnon", players=["Ana", "Bo"], seed=9))
    data = export_game(other, gid)
    other.store.close()
    r = api.call("POST", "/api/import", content=data)
    assert r.status_code == 201 and set(r.json()["seats"]) == {"Ana", "Bo"}


def test_bad_requests_of_every_kind_keep_the_contract(api):
    rs = {"name": "pergamemnon", "min_players": 2, "bots": ["random"]}
    game = create(api, rs, 2, seed=11)
    gid, host = game["game"], game["host"]["token"]
    who = public(api, gid)["pending"]["player"]
    mine = game["seats"][who]["token"]
    other = next(s["token"] for n, s in game["seats"].items() if n != who)
    expected: list[tuple[int, httpx.Response]] = []

    def expect(status: int, method: str, template: str, *args: str, **kw: Any) -> None:
        expected.append((status, api.call(method, template, *args, **kw)))

    # an unknown game, on every route of a game (each with a body it takes); an unknown branch
    for path, ops in api.doc["paths"].items():
        if "{game}" in path:
            for method in ops:
                body = {"choice": 1} if path.endswith("/act") else {"name": "x"} if path.endswith(
                    ("/branch", "/switch")) else {} if method == "post" else None
                expect(404, method.upper(), path, "nosuchgame", token=host, json_body=body,
                       params={"wait": "0"} if path.endswith("/events") else None)
    expect(404, "GET", "/api/games/{game}", gid, params={"branch": "nope"})
    expect(404, "POST", "/api/games/{game}/switch", gid, token=host, json_body={"name": "nope"})
    # a bad token, no token, a token that does not allow it
    expect(403, "GET", "/api/games/{game}", gid, token="not-a-token")
    expect(403, "GET", "/api/games/{game}/events", gid, params={"token": "not-a-token", "wait": "0"})
    expect(401, "POST", "/api/games/{game}/act", gid, json_body={"choice": 1})
    expect(401, "POST", "/api/games/{game}/undo", gid, json_body={})
    expect(401, "POST", "/api/games/{game}/redo", gid)
    expect(401, "POST", "/api/games/{game}/branch", gid, json_body={"name": "b"})
    expect(401, "POST", "/api/games/{game}/switch", gid, json_body={"name": "main"})
    expect(401, "GET", "/api/games/{game}/export", gid)
    expect(401, "GET", "/api/games/{game}/steps", gid)
    expect(401, "POST", "/api/games/{game}/stream-seat", gid, json_body={})
    expect(403, "POST", "/api/games/{game}/stream-seat", gid, token="not-a-token", json_body={})
    expect(401, "GET", "/api/games/{game}/events", gid, params={"seat": "0123456789abcdef", "wait": "0"})
    expect(403, "GET", "/api/games/{game}/export", gid, token=mine)
    expect(403, "POST", "/api/games/{game}/redo", gid, token=mine)
    expect(403, "POST", "/api/games/{game}/branch", gid, token=mine, json_body={"name": "b"})
    expect(403, "POST", "/api/games/{game}/act", gid, token=host, json_body={"choice": 1})
    expect(403, "GET", "/api/games/{game}/steps", gid, token=other)
    # illegal decisions: out of turn, an option that is not there, an event the rules refuse
    expect(422, "POST", "/api/games/{game}/act", gid, token=other, json_body={"choice": 1})
    expect(400, "POST", "/api/games/{game}/act", gid, token=mine, json_body={"choice": 9999})
    offered = api.call("GET", "/api/games/{game}/options", gid, token=mine).json()["options"][0]["event"]
    assert "player" in offered
    expect(422, "POST", "/api/games/{game}/act", gid, token=mine,
           json_body={"choice": {**offered, "player": next(n for n in game["seats"] if n != who)}})
    expect(400, "POST", "/api/games/{game}/act", gid, token=mine, json_body={"choice": "gibberish words"})
    expect(400, "GET", "/api/games/{game}/steps", gid, token=mine, params={"chosen": "nonsense"})
    # a stale position, and nothing to redo
    expect(409, "POST", "/api/games/{game}/act", gid, token=mine, json_body={"choice": 1, "expect": "0.00000000"})
    expect(409, "POST", "/api/games/{game}/act", gid, token=mine, json_body={"choice": 1, "expect": 0})
    expect(400, "POST", "/api/games/{game}/act", gid, token=mine, json_body={"choice": 1, "expect": "soon"})
    # malformed JSON, a body that is not an object
    for raw in (b"{not json", b"[1, 2]", b'"text"', b"\xff\xfe", b'{"choice": ' + b"[" * 5000 + b"]" * 5000 + b"}"):
        expect(400, "POST", "/api/games/{game}/act", gid, token=mine, content=raw,
               headers={"Content-Type": "application/json"})
    expect(400, "POST", "/api/games", content=b"{")
    expect(400, "POST", "/api/games", json_body={"ruleset": "adamastor", "players": ["A"], "options": {"speed": "1"}})
    expect(400, "POST", "/api/games", json_body={"ruleset": "perikles", "players": ["A"]})
    # fields of the wrong type (the document refuses each as well)
    for body in ({"ruleset": "pergamemnon", "players": "Ana"}, {"ruleset": 5},
                 {"ruleset": "pergamemnon", "players": ["A", "B"], "seed": "x"},
                 {"ruleset": "pergamemnon", "players": ["A", "B"], "table": "yes"},
                 {"ruleset": "pergamemnon", "players": ["A"], "bots": [{"name": "B"}]},
                 {"ruleset": "pergamemnon", "players": ["A", "B"], "options": ["x"]},
                 {"ruleset": "adamastor", "players": ["A"], "options": {"difficulty": None}}, {}):
        expect(400, "POST", "/api/games", json_body=body, conforming=False)
    expect(400, "POST", "/api/games/{game}/act", gid, token=mine, json_body={"choice": True}, conforming=False)
    expect(400, "POST", "/api/games/{game}/act", gid, token=mine, json_body={"choice": 1, "expect": [1]},
           conforming=False)
    expect(400, "POST", "/api/games/{game}/undo", gid, token=host, json_body={"steps": "two"}, conforming=False)
    expect(400, "POST", "/api/games/{game}/undo", gid, token=host, json_body={"steps": 0}, conforming=False)
    expect(400, "POST", "/api/games/{game}/branch", gid, token=host, json_body={"name": "b", "reseed": "yes"},
           conforming=False)
    expect(400, "POST", "/api/games/{game}/branch", gid, token=host, json_body={"name": 5}, conforming=False)
    expect(400, "POST", "/api/games/{game}/switch", gid, token=host, json_body={}, conforming=False)
    # unknown or malformed query parameters
    expect(400, "GET", "/api/games", params={"status": "won"})
    expect(400, "GET", "/api/games", params={"order": "best"})
    expect(400, "GET", "/api/games", params={"limit": "-1"})
    expect(400, "GET", "/api/games", params={"ruleset": "chess"})
    expect(400, "GET", "/api/games/{game}/log", gid, params={"from": "x"})
    expect(400, "GET", "/api/games/{game}/options", gid, params={"brief": "maybe"})
    expect(400, "GET", "/api/games/{game}/events", gid, params={"since": "x"})
    expect(400, "GET", "/api/games/{game}/events", gid, params={"wait": "soon"})
    # imports that are not a game's export
    expect(400, "POST", "/api/import", content=b"")
    expect(400, "POST", "/api/import", content=b"not an export")
    # bodies over the limit, with and without a Content-Length
    big = b"x" * (MAX_BODY + 1)
    expect(413, "POST", "/api/games", content=big)
    expect(413, "POST", "/api/import", content=iter([big[:MAX_BODY // 2], big[MAX_BODY // 2:]]))
    expect(413, "POST", "/api/games/{game}/act", gid, token=mine, content=big)
    for status, r in expected:
        assert r.status_code == status, (status, r.request.method, str(r.request.url), r.text[:300])
    # nothing of it was recorded
    assert public(api, gid)["event"] == game["event"]


def test_errors_outside_the_documented_operations_are_one_sentence_too(api):
    for method, path in (("GET", "/nowhere"), ("DELETE", "/api/games"), ("PUT", "/api/games/x/act")):
        r = api.http.request(method, path)
        assert r.status_code in (404, 405) and r.headers["content-type"] == "application/json"
        assert not api.valid({"$ref": "#/components/schemas/Error"}, r.json())
    assert re.search(r"/openapi\.json", api.http.get("/nowhere").json()["error"])


# -- request bodies: what the document declares is what the server takes -------------------------------------------

OUTSIDE = [None, True, False, 0, -1, 7, 7.0, 2.5, "", " ", "x", "7", "true", [], ["x"], [["Cy", "random"]], {},
           {"a": 1}, [{"name": "Cy", "kind": "random"}]]
"""Values tried in every field of every body: those the field's schema refuses must be refused by the server."""

NESTED = {"bots": [[["Cy", "random"]], [{"name": "Cy"}], [{"name": "Cy", "kind": "random", "level": 2}],
                   [{"name": 1, "kind": "random"}], [{"name": "Cy", "kind": None}], ["Cy"]],
          "options": [{"difficulty": None}, {"difficulty": ["easy"]}, {"difficulty": {"a": 1}}]}
"""Values inside a field that the field's schema refuses (a bot as a pair, a bot's unknown field, null)."""


def json_bodies(op_body: dict[str, Any]):
    """A hypothesis strategy of bodies for ``op_body``: each field from its schema or any JSON value, sometimes a
    field the schema does not name, sometimes a required field left out."""
    from hypothesis import strategies as st

    leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5)
    anything = st.recursive(leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.text(max_size=4), inner, max_size=3), max_leaves=6)

    def fits(schema: dict[str, Any]):
        if "anyOf" in schema:
            return st.one_of([fits(s) for s in schema["anyOf"]])
        kind = schema.get("type")
        if isinstance(kind, list):
            return st.one_of([fits({"type": k}) for k in kind])
        if kind == "string":
            return st.text(min_size=schema.get("minLength", 0), max_size=5)
        if kind == "integer":
            ints = st.integers(min_value=schema.get("minimum"), max_value=schema.get("maximum"))
            return ints | ints.map(float)  # 7.0 is a whole number too, as JSON Schema counts it
        if kind == "number":
            return st.integers() | st.floats(allow_nan=False, allow_infinity=False)
        if kind == "boolean":
            return st.booleans()
        if kind == "array":
            return st.lists(fits(schema["items"]), max_size=3)
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        if extra is not False and not props:
            return st.dictionaries(st.text(max_size=4), fits(extra) if isinstance(extra, dict) else anything,
                                   max_size=3)
        needed = schema.get("required", [])
        return st.fixed_dictionaries({k: fits(props[k]) | anything for k in needed},
                                     optional={k: fits(p) | anything for k, p in props.items() if k not in needed})

    required = op_body.get("required", [])
    return st.tuples(fits(op_body), st.sampled_from([None, *required]),
                     st.one_of(st.none(), st.tuples(st.text(min_size=1, max_size=4), anything))).map(
        lambda t: {**{k: v for k, v in t[0].items() if k != t[1]}, **({t[2][0]: t[2][1]} if t[2] else {})})


def json_ops() -> list[tuple[str, dict[str, Any]]]:
    from agon.server.app import ROUTES

    return [(f"{op.method} {op.path}", op.body) for op in ROUTES
            if isinstance(op.body, dict) and op.body_media == "application/json"]


def keywords(schema: Any) -> set[str]:
    """Every JSON Schema keyword ``schema`` uses, at any depth."""
    if isinstance(schema, list):
        return set().union(*map(keywords, schema)) if schema else set()
    if not isinstance(schema, dict):
        return set()
    out = set(schema)
    for key, value in schema.items():
        if key == "properties":
            out |= set().union(*map(keywords, value.values())) if value else set()
        elif key in ("items", "additionalProperties", "anyOf"):
            out |= keywords(value)
    return out


@pytest.mark.parametrize(("where", "schema"), json_ops(), ids=[w for w, _ in json_ops()])
def test_the_servers_check_of_a_body_agrees_with_its_declared_schema(where, schema):
    """server/bodies.py takes exactly the bodies the document's schema allows: any JSON in any field, fields not
    named, required fields left out; the schemas use no keyword it does not know."""
    from hypothesis import given, settings

    from agon.server import bodies

    assert keywords(schema) <= bodies.KNOWN, where
    validator = jsonschema.Draft202012Validator(schema)

    @settings(max_examples=300, deadline=None)
    @given(json_bodies(schema))
    def agree(body: dict[str, Any]) -> None:
        allowed = validator.is_valid(body)
        try:
            bodies.check(schema, body)
        except bodies.BadBody as e:
            assert not allowed, (where, body, str(e))
            assert str(e) and "\n" not in str(e)
        else:
            assert allowed, (where, body, [x.message for x in validator.iter_errors(body)])

    agree()


def test_bodies_outside_their_schemas_are_refused_in_one_sentence_and_bodies_inside_are_taken(api):
    """Every field of every route's body, given each of many values its schema refuses (a number as a string, a
    bot as a pair, true as "yes", null, a field not named), is a 400 saying which field, never a 500, and records
    nothing; a body the document allows, in each form it declares, does what the route says."""
    rs = {"name": "pergamemnon", "min_players": 2, "bots": ["random"]}
    game = create(api, rs, 2, seed=13)
    gid, host = game["game"], game["host"]["token"]
    who = public(api, gid)["pending"]["player"]
    mine = game["seats"][who]["token"]
    bases = {"/api/games": ({"ruleset": "pergamemnon", "players": ["Ana", "Bo"]}, None),
             "/api/games/{game}/act": ({"choice": 1}, mine), "/api/games/{game}/undo": ({}, host),
             "/api/games/{game}/redo": ({}, host), "/api/games/{game}/branch": ({"name": "b"}, host),
             "/api/games/{game}/switch": ({"name": "main"}, host), "/api/games/{game}/stream-seat": ({}, mine)}
    games = len(api.call("GET", "/api/games").json())
    tried = 0
    for where, schema in json_ops():
        path = where.split(" ", 1)[1]
        base, token = bases[path]
        args = (gid,) if "{game}" in path else ()
        validator = jsonschema.Draft202012Validator(schema)
        bodies = [{**base, field: value} for field in schema["properties"] for value in OUTSIDE]
        bodies += [{**base, field: value} for field, values in NESTED.items() if field in schema["properties"]
                   for value in values]
        bodies += [{k: v for k, v in base.items() if k != field} for field in schema.get("required", [])]
        bodies.append({**base, "zzz": 1})
        for body in bodies:
            problems = list(validator.iter_errors(body))
            if not problems:
                continue
            tried += 1
            r = api.call("POST", path, *args, token=token, json_body=body, conforming=False)
            assert r.status_code == 400, (where, body, r.text)
            error = r.json()["error"]
            named = {str(p.path[0]) if p.path else next(iter(set(body) - set(schema["properties"])), "")
                     for p in problems} | {f for f in schema.get("required", []) if f not in body}
            assert any(repr(f) in error or f"'{f}[" in error or f"'{f}." in error for f in named), (body, error)
    assert tried > 200
    # a field in a POST's query, a body on a GET: refused, not read from there nor left unread
    r = api.http.post(f"/api/games/{gid}/undo", params={"steps": "2", "token": host})
    api.check("POST", "/api/games/{game}/undo", api.doc["paths"]["/api/games/{game}/undo"]["post"], r)
    assert r.status_code == 400 and "not in the query ('steps')" in r.json()["error"]
    for path, ops in api.doc["paths"].items():
        if "get" in ops and not path.endswith("/events"):
            r = api.call("GET", path, *((gid,) if "{game}" in path else ()), content=b'{"branch": "main"}')
            assert r.status_code == 400 and "takes no body" in r.json()["error"], (path, r.text)
    assert public(api, gid)["event"] == game["event"]
    assert len(api.call("GET", "/api/games").json()) == games
    # inside: each declared form of each field
    for body in ({"ruleset": "pergamemnon", "players": ["Ana"], "bots": [{"name": "Cy", "kind": "random"}],
                  "seed": 7, "table": False, "options": {}, "title": ""},
                 {"ruleset": "adamastor", "players": ["Ana"], "seed": 7.0, "table": True,
                  "options": {"difficulty": "easy", "less_luck": True}, "title": "voyage"}):
        assert api.call("POST", "/api/games", json_body=body).status_code == 201
    for form in ("number", "string", "event"):
        who = public(api, gid)["pending"]["player"]
        token = game["seats"][who]["token"]
        opts = api.call("GET", "/api/games/{game}/options", gid, token=token).json()
        choice = {"number": 1, "string": "1", "event": opts["options"][0]["event"]}[form]
        expect = opts["position"] if form == "string" else opts["event"]
        r = api.call("POST", "/api/games/{game}/act", gid, token=token, json_body={"choice": choice, "expect": expect})
        assert r.status_code == 200, (form, r.text)
    for path, body in (("/undo", {"steps": 1, "branch": "main"}), ("/redo", {"branch": "main"}), ("/undo", {}),
                       ("/redo", {}), ("/branch", {"name": "b1", "at": 1, "reseed": False, "branch": "main"}),
                       ("/switch", {"name": "main"}), ("/branch", {"name": "b2"})):
        r = api.call("POST", "/api/games/{game}" + path, gid, token=host, json_body=body)
        assert r.status_code == 200, (path, body, r.text)


# -- queries: what the document declares is what the server takes -------------------------------------------------

QUERY_VALUES = ["", " ", "x", "0", "1", "2", "-1", "007", "1.5", "-0.5", "0.25", "3600.5", "3601", "1e3", "nan",
                "NaN", "inf", "-inf", "Infinity", "0x10", "1_0", " 1", "1 ", "+1", "²", "99999999999999999999",
                "9223372036854775807", "9223372036854775808", "0.0000000000000000001",
                "maybe", "TRUE", "yes", "no", "over", "won", "newest", "best", "main", "pergamemnon"]
"""Values tried in every query parameter of every route: those its schema refuses must be refused by the server.
(None is a 'wait' over 2 seconds: an allowed one holds the stream open that long.)"""


def query_allows(schema: dict[str, Any], text: str) -> bool:
    """Whether the document allows ``text`` for a parameter of ``schema``: a number written in plain digits (one
    sign, a decimal point for a number; no exponent, 'nan', 'inf' or spaces) read as one, held to the schema."""
    value: Any = text
    if schema.get("type") == "integer":
        if not re.fullmatch(r"-?[0-9]+", text, re.ASCII):
            return False
        value = int(text)
    elif schema.get("type") == "number":
        if not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", text, re.ASCII):
            return False
        value = float(text)
    return jsonschema.Draft202012Validator(schema).is_valid(value)


def get_ops() -> list[tuple[str, tuple]]:
    from agon.server.app import ROUTES

    return [(f"{op.method} {op.path}", op.query) for op in ROUTES
            if op.body is None or op.body_media != "application/json"]


@pytest.mark.parametrize(("where", "params"), get_ops(), ids=[w for w, _ in get_ops()])
def test_the_servers_check_of_a_query_agrees_with_its_declared_parameters(where, params):
    """server/queries.py takes exactly the values each declared parameter's schema allows (a whole number, a
    number in range, one of a list), refuses a parameter not declared (but 'token') and one given twice, each in
    one sentence naming it; the schemas use no keyword it does not know and each says its type."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from agon.server import queries

    for p in params:
        assert set(p.schema) <= queries.KNOWN and "type" in p.schema, (where, p)
    if not params:
        with pytest.raises(queries.BadQuery, match=r"has no parameter 'limit'; it takes only 'token'"):
            queries.check(where, params, [("limit", "1")])
        assert queries.check(where, params, [("token", "t")]) == {"token": "t"}
        return
    texts = st.sampled_from(QUERY_VALUES) | st.integers().map(str) | st.floats().map(str) | st.text(max_size=4)

    @settings(max_examples=200, deadline=None)
    @given(st.sampled_from(params), texts)
    def agree(param, text: str) -> None:
        allowed = query_allows(param.schema, text)
        try:
            got = queries.check(where, params, [(param.name, text), ("token", "t")])
        except queries.BadQuery as e:
            assert not allowed, (where, param.name, text, str(e))
            assert "\n" not in str(e) and (repr(param.name) in str(e) or f"{param.name} {text!r}"[:40] in str(e)), e
        else:
            assert allowed, (where, param.name, text)
            assert got["token"] == "t" and (got[param.name] == text or float(got[param.name]) == float(text))

    agree()
    name = params[0].name
    with pytest.raises(queries.BadQuery, match=f"gives '{name}' more than once"):
        queries.check(where, params, [(name, "0"), (name, "0")])
    with pytest.raises(queries.BadQuery) as refused:
        queries.check(where, params, [(name + "s", "0")])
    said = str(refused.value)
    assert f"no parameter '{name}s' (did you mean '{name}'?)" in said
    assert all(repr(p.name) in said for p in params) and "'token'" in said


def test_every_get_route_holds_its_query_to_its_declared_parameters(api):
    """Every GET route (and the import) refuses a parameter it does not declare, naming it and those it takes, and
    a value of a declared one outside its schema (a 'limit' that is no number, a negative 'from', a 'wait' of
    'nan'), in one sentence, never a 500 nor silently; every value the schema allows is taken, and so is what the
    pages themselves send."""
    rs = {"name": "pergamemnon", "min_players": 2, "bots": ["random"]}
    game = create(api, rs, 2, seed=17)
    gid, host = game["game"], game["host"]["token"]
    before = public(api, gid)["event"]
    tried = 0
    for path, ops in api.doc["paths"].items():
        for method, op in ops.items():
            if method == "post" and "application/json" in op.get("requestBody", {}).get("content", {}):
                continue  # a JSON body's route takes its fields there: its query is held by the body's check
            where = path.replace("{game}", gid)
            declared = [p for p in op["parameters"] if p["in"] == "query"]
            names = [p["name"] for p in declared]
            quiet = {"wait": "0"} if "wait" in names else {}
            # a parameter the route does not declare, and one of its own given twice
            r = api.http.request(method.upper(), where, params={**quiet, "zzz": "5", "token": host})
            api.check(method.upper(), path, op, r)
            said = r.json().get("error", "")
            assert r.status_code == 400 and "no parameter 'zzz'" in said, (path, r.text)
            assert all(repr(n) in said for n in [*names, "token"]), (path, said)
            if declared:
                twice = httpx.QueryParams([(names[0], "0"), (names[0], "0"), *quiet.items()])
                r = api.http.request(method.upper(), where, params=twice, headers={"Authorization": f"Bearer {host}"})
                api.check(method.upper(), path, op, r)
                assert r.status_code == 400 and "more than once" in r.json()["error"], (path, r.text)
            # each declared parameter, with values inside and outside its schema
            for p in declared:
                for text in QUERY_VALUES:
                    if p["name"] == "wait" and query_allows(p["schema"], text) and float(text) > 2:
                        continue
                    params = {**quiet, p["name"]: text}
                    r = api.call(method.upper(), path, gid, token=host, params=params)
                    tried += 1
                    if not query_allows(p["schema"], text):
                        said = r.json().get("error", "")
                        assert r.status_code == 400, (path, params, r.text)
                        assert repr(p["name"]) in said or f"{p['name']} {text!r}" in said, (path, params, said)
                    elif p["schema"] != {"type": "string"}:  # a value of its type: not refused for its form
                        assert r.status_code != 400, (path, params, r.text)
    assert tried > 300
    assert public(api, gid)["event"] == before
    # the values each parameter declares, and what the pages send, are taken
    who = public(api, gid)["pending"]["player"]
    mine = game["seats"][who]["token"]
    taken = {"/api/games": [{"limit": "1"}, {"limit": "2", "order": "newest", "status": "playing"},
                            {"ruleset": "PERGAMEMNON", "order": "shortest", "status": "over"},
                            *({"order": o} for o in api.doc["paths"]["/api/games"]["get"]["parameters"][2]["schema"]
                              ["enum"])],
             "/api/games/{game}/options": [{"brief": b, "branch": "main"} for b in
                                           ["1", "true", "yes", "0", "false", "no"]],
             "/api/games/{game}/log": [{"from": "0"}, {"from": "3", "branch": "main"}, {"from": "9999"}],
             "/api/games/{game}/events": [{"since": "0", "wait": "0"}, {"wait": "0.25", "branch": "main"},
                                          {"since": "2", "wait": "0.0"}],
             "/api/games/{game}/steps": [{"chosen": ""}, {"branch": "main"}],
             "/api/games/{game}": [{"branch": "main"}], "/api/games/{game}/branches": [{}],
             "/api/games/{game}/export": [{"branch": "main"}]}
    for path, cases in taken.items():
        for params in cases:
            token = mine if path.endswith(("/steps", "/options")) else host
            r = api.call("GET", path, *((gid,) if "{game}" in path else ()), token=token, params=params)
            assert r.status_code == 200, (path, params, r.text)
    # what the pages' own scripts ask for: a game's routes (call("GET", "/options?brief=1")) and the lobby's list
    source = Path(pages.__file__).read_text()
    sent = [("/api/games/{game}" + suffix, name) for suffix, name in re.findall(r'"(/[a-z]+)\?([a-z]+)=', source)]
    for query in re.findall(r'"/api/games\?([^"]*)"', source):
        sent += [("/api/games", name) for name in re.findall(r"([a-z]+)=", query)]
    assert {("/api/games/{game}/options", "brief"), ("/api/games/{game}/steps", "chosen"), ("/api/games", "order"),
            ("/api/games", "limit")} <= set(sent)
    for path, name in sent:
        assert name in {p["name"] for p in api.doc["paths"][path]["get"]["parameters"]}, (path, name)


# -- seeds: one range, judged in the core, for every face ----------------------------------------------------------


def test_a_seed_outside_its_range_is_refused_naming_it_by_the_server_the_command_line_and_the_core(api, agon):
    from agon.core.service import SEED_MAX, NewGame, ServiceError, judge_new_game

    assert SEED_MAX == 2**31 - 1  # what agon draws itself, and what --seed always took
    games = len(api.call("GET", "/api/games").json())
    for seed in (10**30, SEED_MAX + 1, -1, 2**63):
        body = {"ruleset": "pergamemnon", "players": ["Ana", "Bo"], "seed": seed}
        r = api.call("POST", "/api/games", json_body=body, conforming=False)  # the document states the range too
        assert r.status_code == 400, r.text
        assert r.json()["error"] == (f"'seed' must be a whole number from 0 to {SEED_MAX}, not {seed}"
                                     " (see /openapi.json)"), r.text
        with pytest.raises(ServiceError, match=f"from 0 to {SEED_MAX}, not "):
            judge_new_game(NewGame("pergamemnon", players=["Ana", "Bo"], seed=seed))
        refused = agon("new", "pergamemnon", "-p", "Ana", "-p", "Bo", "--seed", str(seed), ok=False)
        assert refused.exit_code == 2 and f"it takes 0 to {SEED_MAX}" in refused.stderr, refused.stderr
    assert len(api.call("GET", "/api/games").json()) == games  # nothing was created
    assert not Path("games.db").exists()  # nor a store by the command line
    for seed in (0, SEED_MAX):
        body = {"ruleset": "pergamemnon", "players": ["Ana", "Bo"], "seed": seed}
        assert api.call("POST", "/api/games", json_body=body).status_code == 201
        made = json.loads(agon("new", "pergamemnon", "-p", "Ana", "-p", "Bo", "--seed", str(seed), "--json").stdout)
        assert made["seed"] == seed


# -- limits and event numbers: one range each, in the core, for every face -----------------------------------------


def test_every_integer_query_parameter_states_its_minimum_and_maximum_and_they_are_the_command_lines(api):
    """'limit' was declared 0 to 2**63 - 1 (0 answered []), 'from' and 'since' the same, where the command line takes
    1 to 2147483647 and 0 to 2147483647: every integer in a query now states both bounds, the core's ranges."""
    from agon.core.service import EVENT_RANGE, LIMIT_RANGE

    assert LIMIT_RANGE == (1, 2**31 - 1) and EVENT_RANGE == (0, 2**31 - 1)
    ranges = {}
    for path, item in api.doc["paths"].items():
        for p in item.get("get", {}).get("parameters", []):
            if p["schema"].get("type") in ("integer", "number"):
                assert {"minimum", "maximum"} <= set(p["schema"]), (path, p)
                ranges[path, p["name"]] = (p["schema"]["minimum"], p["schema"]["maximum"])
    events = "/api/games/{game}/events"
    assert ranges == {("/api/games", "limit"): LIMIT_RANGE, ("/api/games/{game}/log", "from"): EVENT_RANGE,
                      (events, "since"): EVENT_RANGE, (events, "wait"): (0, 3600)}


def integers(schema: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every integer schema in ``schema`` at any depth, with where it is ('expect', 'bots[]', 'options.*')."""
    if not isinstance(schema, dict):
        return
    kind = schema.get("type")
    if kind == "integer" or isinstance(kind, list) and "integer" in kind:
        yield where, schema
    for option in schema.get("anyOf", []):
        yield from integers(option, where)
    for key, value in schema.get("properties", {}).items():
        yield from integers(value, f"{where}.{key}" if where else key)
    if isinstance(schema.get("items"), dict):
        yield from integers(schema["items"], f"{where}[]")
    if isinstance(schema.get("additionalProperties"), dict):
        yield from integers(schema["additionalProperties"], f"{where}.*")


def test_every_integer_in_a_request_body_states_its_minimum_and_maximum_and_they_are_the_cores(api):
    """'expect', 'at' and 'steps' were declared with a minimum alone, and 2**31 went on to the service ('the game was
    taken back since event #2147483648'): every integer in a body now states both bounds, the core's ranges, but the
    choice sent as a number, which the service reads as the text typed (dice '35' at a table: a 3 and a 5)."""
    from agon.core.service import EVENT_RANGE, INT_MAX, SEED_MAX
    from agon.server.schemas import CHOICE_NUMBER

    ranges, unbounded = {}, []
    for path, item in api.doc["paths"].items():
        for method, operation in item.items():
            for media in operation.get("requestBody", {}).get("content", {}).values():
                for where, schema in integers(media["schema"], ""):
                    if schema == CHOICE_NUMBER:
                        unbounded.append((method, path, where))
                        continue
                    assert {"minimum", "maximum"} <= set(schema), (method, path, where, schema)
                    ranges[path, where] = (schema["minimum"], schema["maximum"])
    game = "/api/games/{game}"
    assert ranges == {("/api/games", "seed"): (0, SEED_MAX), (f"{game}/act", "expect"): EVENT_RANGE,
                      (f"{game}/undo", "expect"): EVENT_RANGE, (f"{game}/undo", "steps"): (1, INT_MAX),
                      (f"{game}/redo", "expect"): EVENT_RANGE, (f"{game}/branch", "at"): EVENT_RANGE}
    assert unbounded == [("post", f"{game}/act", "choice")]


def test_a_limit_outside_its_range_is_refused_naming_it_by_the_server_the_command_line_and_the_core(api, agon):
    """`agon games --limit 0` was refused and GET /api/games?limit=0 answered [] with 200 (and took 9.2e18)."""
    from agon.core.service import LIMIT_RANGE, Service, ServiceError
    from agon.events.store import Store

    low, high = LIMIT_RANGE
    svc = Service(Store("sqlite://"))  # what either face calls
    for limit in (0, -1, high + 1, 2**63 - 1, 10**30):
        r = api.call("GET", "/api/games", params={"limit": str(limit)})
        assert r.status_code == 400, r.text
        assert r.json() == {"error": f"'limit' must be a whole number from {low} to {high:,}, not '{limit}' (see"
                                     " /openapi.json)"}
        refused = agon("games", "--limit", str(limit), ok=False)
        assert refused.exit_code == 2 and f"(it takes {low} to {high})" in refused.stderr, refused.stderr
        with pytest.raises(ServiceError, match=f"^the limit must be a whole number from {low} to {high}, not "):
            svc.listing(limit=limit)
        with pytest.raises(ServiceError, match=f"from {low} to {high}, not "):
            svc.main_summaries("pergamemnon", limit)
    assert not Path("games.db").exists()  # the command line refused before opening a store
    made = json.loads(agon("new", "pergamemnon", "-p", "Ana", "-p", "Bo", "--json").stdout)["id"]
    for limit in (low, high):
        assert api.call("GET", "/api/games", params={"limit": str(limit)}).status_code == 200
        listed = json.loads(agon("games", "--limit", str(limit), "--json").stdout)
        assert [g["id"] for g in listed] == [made]


# -- refusals by the game as it stands: 409 ------------------------------------------------------------------------


def test_what_the_game_as_it_stands_refuses_is_a_409_the_document_declares_and_moves_nothing(api):
    """Nothing to undo, nothing to redo, a decision on a game that has ended, a branch name the game already has:
    requests of the right form that the game now refuses are 409s (a conflict with its current state), declared
    for each route, in one sentence saying why; a malformed request stays a 400."""
    rs = {"name": "pergamemnon", "min_players": 2, "bots": ["random"]}
    game = create(api, rs, 2, seed=23)
    gid, host = game["game"], game["host"]["token"]
    before = public(api, gid)

    def refused(template: str, *args: str, says: str, **kw: Any) -> None:
        r = api.call("POST", template, *args, **kw)  # checked against the document: 409 is declared for it
        assert r.status_code == 409 and says in r.json()["error"], (template, r.text)

    refused("/api/games/{game}/undo", gid, token=host, json_body={},
            says="cannot undo: branch 'main' has no decisions by people yet, so there is nothing to take back")
    refused("/api/games/{game}/redo", gid, token=host,
            says="nothing to redo: nothing was undone on branch 'main' since its last recorded event")
    refused("/api/games/{game}/branch", gid, token=host, json_body={"name": "main"},
            says=f"game {gid} already has a branch 'main'; choose another name")
    over = create(api, rs, 0, seed=2)  # bots alone: over at once
    assert public(api, over["game"])["pending"]["kind"] == "over"
    refused("/api/games/{game}/act", over["game"], token=over["host"]["token"], json_body={"choice": 1},
            says="the game is over (")
    # a request that asks for more than the line holds is the request's fault: 400
    who = before["pending"]["player"]
    decide(api, gid, who, game["seats"][who]["token"], random.Random(1))
    r = api.call("POST", "/api/games/{game}/undo", gid, token=host, json_body={"steps": 50})
    assert r.status_code == 400 and "at most 1 can be undone" in r.json()["error"], r.text
    assert "has only 1 decision by a person," in r.json()["error"], r.text  # one, not '1 decisions by people'
    r = api.call("POST", "/api/games/{game}/branch", gid, token=host, json_body={"name": "b", "at": 9999})
    assert r.status_code == 400 and "outside branch 'main'" in r.json()["error"], r.text
    assert [b["name"] for b in api.call("GET", "/api/games/{game}/branches", gid).json()] == ["main"]
    # the document says what each 409 is
    for path in ("/undo", "/redo", "/branch", "/act"):
        said = api.doc["paths"]["/api/games/{game}" + path]["post"]["responses"]["409"]["description"]
        assert {"/undo": "nothing to take back", "/redo": "nothing to redo", "/branch": "already has a branch",
                "/act": "the game is over"}[path] in said, (path, said)


# -- pages: what a page takes is all it takes ---------------------------------------------------------------------


def test_the_pages_refuse_a_query_that_means_something_elsewhere_in_a_sentence_a_person_reads(api):
    """The lobby, a seat's page, the spectators' page and its data read everything from their path (and, in the
    browser, from the address's fragment): a parameter in their query that means something elsewhere in agon (a
    token put where a server reads it, a study position, the API's filters) is a 400 in one sentence naming it and
    what to do instead, as the API's routes refuse one: a page a person reads for a browser, the API's JSON line for
    a program. A token is never echoed back; any other parameter (a messenger's ``fbclid``) is ignored."""
    rs = {"name": "pergamemnon", "min_players": 2, "bots": ["random"]}
    game = create(api, rs, 2, seed=19)
    gid = game["game"]
    mine = next(iter(game["seats"].values()))["token"]
    browser = {"Accept": "text/html,application/xhtml+xml"}
    cases = [("/", {"limit": "5"}, "GET / has no parameter 'limit': the lobby lists the newest 100 games; GET"
                                   " /api/games takes it and lists every game"),
             ("/", {"token": mine}, "GET / has no parameter 'token': a seat's token goes after '#' in its page's"
                                    " address"),
             (f"/games/{gid}/seat", {"token": mine}, f"GET /games/{gid}/seat has no parameter 'token': a seat's token"
                                                     " goes after '#' in the address (/games/ID/seat#token=...)"),
             (f"/games/{gid}/watch", {"step": "3"}, f"GET /games/{gid}/watch has no parameter 'step': a position on"
                                                    " the page goes after '#' in the address (#line=NAME&step=N)"),
             (f"/games/{gid}/watch", {"token": mine}, f"GET /games/{gid}/watch has no parameter 'token': the"
                                                      " spectators' page shows the game as every player sees it"),
             (f"/games/{gid}/watch.json", {"line": "main"}, f"GET /games/{gid}/watch.json has no parameter 'line'"),
             ("/games/nosuchgame/seat", {"token": "x"}, "GET /games/nosuchgame/seat has no parameter 'token'")]
    for path, params, said in cases:
        r = api.http.get(path, params=params)  # a program: the API's error
        assert r.status_code == 400 and r.headers["content-type"] == "application/json", (path, r.text)
        assert not api.valid({"$ref": "#/components/schemas/Error"}, r.json())
        assert r.json()["error"].startswith(said) and "\n" not in r.json()["error"], (path, r.text)
        assert mine not in r.text
        page = api.http.get(path, params=params, headers=browser)  # a browser: a page saying the same
        if path.endswith(".json"):  # the data the spectators' page reads: JSON whoever asks
            assert page.status_code == 400 and page.json() == r.json()
            continue
        assert page.status_code == 400 and page.headers["content-type"].startswith("text/html"), (path, page.text)
        shown = re.search(r'<p class="err">(.*?)</p>', page.text).group(1)
        assert "\n" not in shown and html.unescape(shown) == (
            "This page could not be shown: " + r.json()["error"])
        assert mine not in page.text and "Your decisions" not in page.text  # no seat's page, no token
    # as they are linked, every page answers; and as a messenger or a mail gives the link back, with its own
    # parameters (or a typo no page would read anyway)
    for path in ("/", f"/games/{gid}/seat", f"/games/{gid}/watch", f"/games/{gid}/watch.json"):
        assert api.http.get(path, headers=browser).status_code == 200, path
        for extra in ({"fbclid": "IwAR0x"}, {"utm_source": "mail", "utm_medium": "email"}, {"limt": "5"}):
            assert api.http.get(path, params=extra, headers=browser).status_code == 200, (path, extra)

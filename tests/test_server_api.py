"""agon serve's JSON API, driven in process (Starlette's test client) as a client program sees it: seat tokens,
who may act, errors as one JSON line with the right status, the event stream, the undo policy, and `agon serve`
itself answering on loopback."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time

import httpx
import pytest
import sqlalchemy as sa

from agon.core.engine import Decision
from agon.core.service import Service
from agon.events.store import Store
from tests.servers import acted, acting, agon_serve, bearer, new_duel
from tests.servers import client as _client

client = _client


def test_creating_a_game_answers_a_secret_link_per_person_and_the_host_and_stores_only_hashes(client):
    g = new_duel(client)
    assert set(g["seats"]) == {"Ana", "Bo"}
    tokens = [g["seats"]["Ana"]["token"], g["seats"]["Bo"]["token"], g["host"]["token"]]
    assert len(set(tokens)) == 3 and all(len(t) >= 40 for t in tokens)
    assert g["seats"]["Ana"]["link"].endswith(tokens[0])
    eng = sa.create_engine(client.store_url)
    with eng.connect() as c:
        stored = " ".join(str(v) for row in c.execute(sa.text("select * from seat_token")).all() for v in row)
    eng.dispose()
    assert "Ana" in stored and ":host" in stored
    assert not any(t in stored for t in tokens)  # only hashes
    listed = client.get("/api/games").json()
    assert [x["game"] for x in listed] == [g["game"]] and "to act" in listed[0]["status"]


def test_the_games_are_listed_from_their_summaries_filtered_and_ordered_as_agon_games_takes_them(client):
    first, second = new_duel(client), new_duel(client, title="rematch")
    duo = client.post("/api/games", json={"ruleset": "toy", "players": [], "bots": [
        {"name": "ann", "kind": "random"}, {"name": "bob", "kind": "random"}], "seed": 1}).json()
    client.app.state.lines.items.clear()
    listed = client.get("/api/games").json()
    assert [x["game"] for x in listed] == [first["game"], second["game"], duo["game"]]
    assert listed[2]["over"] and listed[2]["status"].startswith("over") and listed[2]["players"] == ["ann", "bob"]
    assert not client.app.state.lines.items  # no game's line was read to list them
    assert listed[0]["event"] == client.get(f"/api/games/{first['game']}").json()["event"]
    newest = client.get("/api/games", params={"order": "newest", "limit": 2, "status": "playing"}).json()
    assert [x["game"] for x in newest] == [second["game"], first["game"]]
    assert [x["game"] for x in client.get("/api/games", params={"ruleset": "PERGAMEMNON"}).json()] == [
        first["game"], second["game"]]
    assert client.get("/api/games", params={"status": "won"}).json() == {
        "error": "status 'won' is not one of: over, playing (see /openapi.json)"}
    assert client.get("/api/games", params={"order": "best"}).status_code == 400
    assert "GET /api/rulesets" in client.get("/api/games", params={"ruleset": "chess"}).json()["error"]


def test_a_game_has_the_same_title_in_the_listing_and_on_its_own(client):
    untitled, titled = new_duel(client), new_duel(client, title="rematch")
    listed = {x["game"]: x["title"] for x in client.get("/api/games").json()}
    for g, title in ((untitled, "Pergamemnon"), (titled, "rematch")):  # none given: the ruleset's, in both
        alone = client.get(f"/api/games/{g['game']}").json()
        assert g["title"] == alone["title"] == listed[g["game"]] == title and alone["ruleset"] == "pergamemnon"


def test_a_new_game_titled_with_spaces_only_is_refused_in_one_sentence_and_none_is_made(client):
    r = client.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"], "title": "   "})
    assert r.status_code == 400
    assert r.json() == {"error": "a title of spaces only names nothing; give it words, or leave the title out"}
    assert client.get("/api/games").json() == []


def test_a_seat_sees_its_own_hand_and_options_nobody_else_does(client):
    g = new_duel(client)
    who, tok = acting(client, g)
    other = "Bo" if who == "Ana" else "Ana"
    mine = client.get(f"/api/games/{g['game']}", headers=bearer(tok)).json()
    public = client.get(f"/api/games/{g['game']}").json()
    theirs = client.get(f"/api/games/{g['game']}?token={g['seats'][other]['token']}").json()
    assert mine["you"] == who and public["you"] is None and theirs["you"] == other
    assert mine["view"] != public["view"] and mine["view"] != theirs["view"]
    opts = client.get(f"/api/games/{g['game']}/options", headers=bearer(tok)).json()
    assert opts["options"] and opts["options"][0]["n"] == 1
    for t in (None, g["seats"][other]["token"], g["host"]["token"]):
        o = client.get(f"/api/games/{g['game']}/options", headers=bearer(t) if t else {}).json()
        assert o["options"] == [] and who in o["note"]


def test_acting_needs_the_acting_seats_token(client):
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    other = "Bo" if who == "Ana" else "Ana"
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1})
    assert r.status_code == 401 and "token" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer("not-a-token"))
    assert r.status_code == 403 and r.json() == {"error": r.json()["error"]}
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(g["seats"][other]["token"]))
    assert r.status_code == 422 and r.json()["error"].startswith("refused: turn order:")
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(g["host"]["token"]))
    assert r.status_code == 403 and "own link" in r.json()["error"]
    before = client.get(f"/api/games/{gid}").json()["event"]
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": before}, headers=bearer(tok))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["recorded"][0]["actor"] == who and body["event"] > before
    # a token of one game opens nothing in another
    g2 = new_duel(client)
    r = client.get(f"/api/games/{g2['game']}", headers=bearer(tok))
    assert r.status_code == 403


def test_a_refused_decision_names_the_rule(client):
    g = new_duel(client)
    who, tok = acting(client, g)
    r = client.post(f"/api/games/{g['game']}/act", json={"choice": {"type": "pergamemnon.battle_yielded",
                                                                     "player": who}}, headers=bearer(tok))
    assert r.status_code in (400, 422)
    msg = r.json()["error"]
    assert "\n" not in msg and len(msg) < 300
    r = client.post(f"/api/games/{g['game']}/act", json={"choice": 99}, headers=bearer(tok))
    assert r.status_code == 400 and "out of range" in r.json()["error"]


def test_bad_requests_get_one_line_and_a_4xx_never_a_500(client):
    g = new_duel(client)
    gid = g["game"]
    tok = acting(client, g)[1]
    cases = [
        client.post(f"/api/games/{gid}/act", content=b"{not json", headers=bearer(tok)),
        client.post(f"/api/games/{gid}/act", json=[1, 2], headers=bearer(tok)),
        client.post(f"/api/games/{gid}/act", json={}, headers=bearer(tok)),
        client.get("/api/games/nosuchgame"),
        client.get("/api/games/nosuchgame/events?wait=0"),
        client.get(f"/api/games/{gid}?branch=nope"),
        client.get(f"/api/games/{gid}/log?from=x"),
        client.post("/api/games", json={"ruleset": "chess", "players": ["A", "B"]}),
        client.post("/api/games", json={"ruleset": "pergamemnon", "players": "Ana"}),
        client.post("/api/games", json={"ruleset": "pergamemnon", "players": ["A"], "bots": [{"name": "B"}]}),
        client.post("/api/games", content=b"x" * (64 * 1024 + 1)),
        client.post("/api/import", content=b"not an export"),
        client.get("/nowhere"),
        client.delete("/api/games"),
        client.post(f"/api/games/{gid}/redo", headers=bearer(tok)),
        client.post(f"/api/games/{gid}/switch", json={"name": "main"}),
        client.get(f"/api/games/{gid}/export", headers=bearer(tok)),
    ]
    statuses = [r.status_code for r in cases]
    assert statuses == [400, 400, 400, 404, 404, 404, 400, 400, 400, 400, 413, 400, 404, 405, 403, 401, 403]
    for r in cases:
        body = r.json()
        assert list(body) == ["error"] and body["error"] and "\n" not in body["error"], r.text
        assert "Traceback" not in body["error"]
    assert "unknown ruleset 'chess'" in cases[7].json()["error"]


def test_odd_bodies_numbers_and_methods_get_a_4xx_line_never_a_500(client):
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)

    def chunked():  # no Content-Length: the limit is found while reading
        for _ in range(80):
            yield b"x" * 1024

    deep = b'{"choice": ' + b"[" * 5000 + b"]" * 5000 + b"}"
    cases = {
        "chunked body over the limit": (client.post("/api/games", content=chunked()), 413),
        "nested too deeply": (client.post(f"/api/games/{gid}/act", content=deep, headers=bearer(tok)), 400),
        "import nested too deeply": (client.post("/api/import", content=b"[" * 5000 + b"]" * 5000), 400),
        "a double sign": (client.get(f"/api/games/{gid}/log?from=--5"), 400),
        "a superscript digit": (client.get(f"/api/games/{gid}/log?from=%C2%B2"), 400),
        "a seed of two signs": (client.post("/api/games", json={"ruleset": "pergamemnon", "players": ["A", "B"],
                                                                "seed": "--5"}), 400),
        "steps of two signs": (client.post(f"/api/games/{gid}/undo", json={"steps": "--2"}, headers=bearer(tok)),
                               400),
        "a watch page of no game": (client.get("/games/zzzz/watch"), 404),
        "its data": (client.get("/games/zzzz/watch.json"), 404),
        "a seat page of no game": (client.get("/games/zzzz/seat"), 404),
    }
    for what, (r, status) in cases.items():
        assert r.status_code == status, (what, r.text)
        assert list(r.json()) == ["error"] and "\n" not in r.json()["error"], what
    # a wrong method names the methods allowed
    r = client.delete(f"/api/games/{gid}/act")
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    r = client.delete("/api/games")  # listed with GET and created with POST: both are allowed
    assert r.status_code == 405 and set(r.headers["allow"].split(", ")) == {"GET", "HEAD", "POST"}
    # a very long choice is not echoed back whole
    r = client.post(f"/api/games/{gid}/act", json={"choice": "x" * 50_000}, headers=bearer(tok))
    assert r.status_code == 400 and len(r.text) < 500
    # HEAD on the event stream answers its headers and ends (it does not hold the stream open for an hour)
    r = client.head(f"/api/games/{gid}/events")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream") and not r.content


def test_a_body_giving_a_field_twice_or_a_number_too_long_to_read_is_refused_naming_it(client):
    """JSON lets an object repeat a key and a parser keep the last: {"choice": 1, "choice": 2} is refused, not read
    as one of them, as a query parameter given twice is; a number of thousands of digits is refused saying so,
    without Python's advice to the server's programmer."""
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    before = client.get(f"/api/games/{gid}").json()["position"]
    r = client.post(f"/api/games/{gid}/act", content=b'{"choice": 1, "choice": 2}', headers=bearer(tok))
    assert r.status_code == 400, r.text
    assert r.json() == {"error": "the request body gives 'choice' more than once; give each field once"}
    r = client.post(f"/api/games/{gid}/act", content=b'{"choice": {"type": "x", "type": "y"}}', headers=bearer(tok))
    assert r.status_code == 400 and "gives 'type' more than once" in r.json()["error"], r.text
    games = len(client.get("/api/games").json())
    r = client.post("/api/games", content=b'{"ruleset": "pergamemnon", "ruleset": "perikles", "players": ["A", "B"]}')
    assert r.status_code == 400 and "gives 'ruleset' more than once" in r.json()["error"], r.text
    huge = b'{"ruleset": "pergamemnon", "players": ["A", "B"], "seed": ' + b"9" * 5000 + b"}"
    r = client.post("/api/games", content=huge)
    assert r.status_code == 400, r.text
    assert r.json() == {"error": "a number in the request body has more than 4,000 digits; no field takes one that"
                                 " long"}
    assert len(client.get("/api/games").json()) == games  # nothing was created
    assert client.get(f"/api/games/{gid}").json()["position"] == before  # nor recorded


def test_a_whole_number_in_a_query_is_taken_up_to_the_maximum_the_document_declares_and_refused_past_it(client):
    """'limit' took 0 (answering []) and numbers up to 9.2e18, and 'from' and 'since' any event number up to 9.2e18,
    where 'agon games --limit' takes 1 to 2147483647 and '--from' 0 to 2147483647: now the document declares the
    command line's ranges and the server refuses a number outside them in one sentence naming the range."""
    g = new_duel(client)
    gid = g["game"]
    doc = client.get("/openapi.json").json()
    params = {(path, p["name"]): p["schema"] for path, item in doc["paths"].items()
              for p in item.get("get", {}).get("parameters", [])}
    top = 2**31 - 1
    assert params[("/api/games", "limit")] == {"type": "integer", "minimum": 1, "maximum": top}
    for key in (("/api/games/{game}/log", "from"), ("/api/games/{game}/events", "since")):
        assert params[key] == {"type": "integer", "minimum": 0, "maximum": top}, key
    assert params[("/api/games/{game}/events", "wait")] == {"type": "number", "minimum": 0, "maximum": 3600}
    assert [x["game"] for x in client.get(f"/api/games?limit={top}").json()] == [gid]
    assert [x["game"] for x in client.get("/api/games?limit=1").json()] == [gid]
    for value in ("0", "-1", str(top + 1), str(2**63 - 1), "1" + "0" * 30):
        r = client.get(f"/api/games?limit={value}")
        assert r.status_code == 400, (value, r.text)
        assert r.json() == {"error": f"'limit' must be a whole number from 1 to 2,147,483,647, not {value!r} (see"
                                     " /openapi.json)"}, value
    assert client.get(f"/api/games/{gid}/log?from={top}").json()["events"] == []
    r = client.get(f"/api/games/{gid}/events?since={top}&wait=0")
    assert r.status_code == 200 and "event: moved" in r.text  # more than the line holds: read it again
    for path, name in (("log?", "from"), ("events?wait=0&", "since")):
        for value in ("-1", str(top + 1), str(2**63 - 1)):
            r = client.get(f"/api/games/{gid}/{path}{name}={value}")
            assert r.status_code == 400, (name, value, r.text)
            assert r.json() == {"error": f"{name!r} must be a whole number from 0 to 2,147,483,647, not {value!r}"
                                         " (see /openapi.json)"}, (name, value)
    # the event number a stream is resumed from in its header is held to the same range as 'since'
    assert client.get(f"/api/games/{gid}/events?wait=0", headers={"Last-Event-ID": str(top)}).status_code == 200
    r = client.get(f"/api/games/{gid}/events?wait=0", headers={"Last-Event-ID": str(top + 1)})
    assert r.status_code == 400, r.text
    assert r.json() == {"error": "the Last-Event-ID header must be an event's id as the stream gave it (such as"
                                 " 12.a1b2c3d4) or its number, from 0 to 2,147,483,647, not '2147483648'"}
    r = client.get(f"/api/games/{gid}/log?from=%2B5")
    assert r.status_code == 400 and "must be a whole number, 0 or more" not in r.text and "in plain digits" in r.text
    r = client.get(f"/api/games/{gid}/events?wait=1e1")
    assert r.status_code == 400, r.text
    assert r.json()["error"] == ("'wait' must be a number from 0 to 3,600 in plain digits (such as 2.5), not '1e1'"
                                 " (see /openapi.json)")
    r = client.get(f"/api/games/{gid}/events?wait=3600.5")
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "'wait' must be a number from 0 to 3,600, not '3600.5' (see /openapi.json)"
    r = client.get(f"/api/games/{gid}/events?wait=0.0000000000000000001")  # a number the document allows
    assert r.status_code == 200 and "event: status" in r.text


def test_a_host_only_request_without_a_token_says_in_a_sentence_that_the_host_may(client):
    """Without a token the host's routes said 'redo needs the host's token', 'make a branch needs ...'."""
    gid = new_duel(client)["game"]
    asked = [("POST", "/redo", None, "redo"), ("POST", "/branch", {"name": "b"}, "make a branch"),
             ("POST", "/switch", {"name": "main"}, "switch branches"),
             ("GET", "/export", None, "export the game (the file holds every hidden card)")]
    for method, path, body, what in asked:
        r = client.request(method, f"/api/games/{gid}{path}", json=body)
        assert r.status_code == 401, (path, r.text)
        assert r.json() == {"error": f"only the host may {what}: send the host's token"}


def test_a_game_branch_or_ruleset_asked_for_by_a_name_thousands_of_characters_long_is_not_echoed_back_whole(client):
    """A 404 for a game id or a branch, and a 400 for a ruleset, named what was asked for whole: 5,000 characters
    sent, 5,000 echoed."""
    g = new_duel(client)
    gid, host = g["game"], g["host"]["token"]
    long = "x" * 5000
    cases = [client.get(f"/api/games/{long}"), client.get(f"/api/games/{gid}?branch={long}"),
             client.get(f"/api/games/{gid}/log?branch={long}"), client.get(f"/api/games?ruleset={long}"),
             client.post("/api/games", json={"ruleset": long, "players": ["A", "B"]}),
             client.post(f"/api/games/{gid}/switch", json={"name": long}, headers=bearer(host))]
    for r in cases:
        assert r.status_code in (400, 404) and len(r.json()["error"]) < 300, (r.status_code, r.text[:200])
    assert cases[0].json()["error"].startswith("no game 'xxxxxxxxxx")
    assert "..." in cases[1].json()["error"] and "its branches: main" in cases[1].json()["error"]


def test_a_path_with_a_trailing_slash_is_a_404_saying_so_not_a_redirect_a_token_might_follow(client):
    """'/api/games/' was a 307 to 'http://HOST/api/games' with an empty body: a status the document does not give,
    nothing to read for a client that does not follow it, and behind a TLS proxy a redirect to plain http that a
    client following it would send a '?token=' over."""
    g = new_duel(client)
    gid, tok = g["game"], g["host"]["token"]
    for method, path in (("GET", "/api/games/"), ("POST", "/api/games/"), ("GET", f"/api/games/{gid}/"),
                         ("GET", f"/api/games/{gid}/log/?token={tok}"), ("GET", f"/games/{gid}/watch/")):
        r = client.request(method, path, follow_redirects=False)
        assert r.status_code == 404 and "location" not in r.headers, (path, r.status_code)
        bare = path.split("?")[0].rstrip("/")
        assert r.json() == {"error": f"no such page or endpoint: {bare}/ (leave out the trailing slash: {bare})"}
        assert tok not in r.text
    r = client.get("/api/" + "x" * 5000)
    assert r.status_code == 404 and len(r.text) < 300  # a long path is not echoed back whole


def test_steps_chosen_too_long_says_it_is_too_long(client):
    """A 'chosen' of 5,000 characters was told what 'chosen' is, not what was wrong with it."""
    g = new_duel(client)
    _, tok = acting(client, g)
    r = client.get(f"/api/games/{g['game']}/steps", params={"chosen": "x" * 5000}, headers=bearer(tok))
    assert r.status_code == 400 and r.json() == {
        "error": "'chosen' is 5,000 characters long; the steps of a decision take at most 4,000: read the steps"
                 " again from the start"}


def test_a_player_plays_only_on_the_current_branch_however_it_is_named(client):
    g = new_duel(client)
    gid = g["game"]
    host = bearer(g["host"]["token"])
    assert client.post(f"/api/games/{gid}/branch", json={"name": "whatif"}, headers=host).status_code == 200
    assert client.post(f"/api/games/{gid}/switch", json={"name": "main"}, headers=host).status_code == 200
    who, tok = acting(client, g)
    before = client.get(f"/api/games/{gid}/branches").json()
    for r in (client.post(f"/api/games/{gid}/act", json={"choice": 1, "branch": "whatif"}, headers=bearer(tok)),
              client.post(f"/api/games/{gid}/act?branch=whatif", json={"choice": 1}, headers=bearer(tok))):
        assert r.status_code == 400 and "current branch; the host switches branches" in r.json()["error"], r.text
    # a player's undo on another branch: the host's token would be allowed it, theirs is not
    r = client.post(f"/api/games/{gid}/undo", json={"branch": "whatif"}, headers=bearer(tok))
    assert r.status_code == 403 and "current branch only" in r.json()["error"], r.text
    # a field sent in the query of a POST is refused, not read from there nor left unread
    r = client.post(f"/api/games/{gid}/undo?branch=whatif", headers=bearer(tok))
    assert r.status_code == 400 and r.json()["error"] == (
        f"POST /api/games/{gid}/undo takes its fields in the JSON body, not in the query ('branch'); only 'token'"
        " may be given there"), r.text
    assert client.get(f"/api/games/{gid}/branches").json() == before


def test_a_stale_position_is_a_lost_race_even_when_the_turn_has_passed(client):
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    seen = client.get(f"/api/games/{gid}/options", headers=bearer(tok)).json()["position"]
    assert client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": seen},
                       headers=bearer(tok)).status_code == 200
    # the same request again (a retry after a lost answer): the line moved, so a 409, not "turn order"
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": seen}, headers=bearer(tok))
    assert r.status_code == 409 and r.json()["error"].startswith("the line has moved since position"), r.text


def test_no_seat_can_learn_more_of_an_event_id_than_its_position_shows(client):
    """An id is the hash of a payload that may hide a card: with a whole id, each candidate card of the next event
    could be hashed and compared with its public position. A position names at most 8 hex digits, so probing
    longer prefixes is refused whatever they are; the first event's salt (128 secret bits) keeps the first id, and
    so every one after it, out of reach of a search."""
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    svc = Service(Store(client.store_url))
    line = svc.load(gid)
    svc.store.close()
    head = line.head.id
    for probe in (head[:9], head[:16], head, head[:8] + "0"):
        r = client.post(f"/api/games/{gid}/act", json={"choice": "9999", "expect": f"{line.head.depth}.{probe}"},
                        headers=bearer(tok))
        assert r.status_code == 400 and "is not a position" in r.json()["error"], (probe, r.text)
    assert len(line.created.salt) == 32
    rows = client.get(f"/api/games/{gid}/log", headers=bearer(tok)).json()["events"]
    assert rows[0]["event"]["salt"] == "hidden" and rows[0]["event"]["seed"] == "hidden"
    exported = client.get(f"/api/games/{gid}/export", headers=bearer(g["host"]["token"])).text
    assert line.created.salt in exported  # the host's file is the whole game


def test_a_lost_race_is_a_409_with_the_clis_message(client, monkeypatch):
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    # Another worker records the same decision between this request's read and its write.
    other = Service(Store(client.store_url))
    store = client.app.state.service.store
    real = store.append

    def append_after_someone_else(*args, **kwargs):
        other.act(gid, "1", as_player=who)
        monkeypatch.setattr(store, "append", real)
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "append", append_after_someone_else)
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(tok))
    other.store.close()
    assert r.status_code == 409
    assert "moved while this request ran" in r.json()["error"] and "nothing was recorded" in r.json()["error"]
    assert f"GET /api/games/{gid}/options again and choose anew" in r.json()["error"]  # the API's words, not a command
    # an option number read at an older position is refused, not applied to the new one
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": 0}, headers=bearer(tok))
    assert r.status_code == 409 and "moved on" in r.json()["error"]
    # the same with the position the options gave (the event number and the head's id)
    stale = client.get(f"/api/games/{gid}/options", headers=bearer(tok)).json()["position"]
    who, tok = acting(client, g)
    assert client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": stale},
                       headers=bearer(tok)).status_code == 200
    who, tok = acting(client, g)
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": stale}, headers=bearer(tok))
    assert r.status_code == 409 and r.json()["error"].startswith("the line has moved since position")
    # a player on a web page is pointed at the API's options, not at a command of the command line
    assert f"look at GET /api/games/{gid}/options again" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": "nowhere"}, headers=bearer(tok))
    assert r.status_code == 400 and "is not a position" in r.json()["error"] and "agon" not in r.json()["error"]
    r = client.post(f"/api/games/{gid}/act", json={"choice": 999}, headers=bearer(tok))
    assert r.status_code == 400, r.json()
    n = len(client.get(f"/api/games/{gid}/options", headers=bearer(tok)).json()["options"])
    assert r.json()["error"].endswith(f"out of range: choose 1 to {n} (GET /api/games/{gid}/options lists them)")


def test_undo_policy_a_player_takes_back_only_their_own_unrevealed_last_decision(client):
    g = new_duel(client)
    gid = g["game"]
    host = bearer(g["host"]["token"])

    def play_until(prompt_word: str) -> tuple[str, str]:
        for _ in range(40):
            who, tok = acting(client, g)
            opts = client.get(f"/api/games/{gid}/options", headers=bearer(tok)).json()
            attack = [o for o in opts["options"] if prompt_word in o["text"]]
            if attack:
                return who, tok
            assert client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(tok)).status_code == 200
        raise AssertionError("no attack offered")

    # a player who has decided nothing yet is told so, not that something was drawn or played "since" it
    nobody = next(p for p in g["seats"] if client.get(f"/api/games/{gid}").json()["pending"]["player"] != p)
    r = client.post(f"/api/games/{gid}/undo", headers=bearer(g["seats"][nobody]["token"]))
    assert r.status_code == 403 and r.json()["error"] == ("cannot undo: you have made no decision yet on this"
                                                          " line, so there is nothing of yours to take back")
    who, tok = play_until("face down")
    opts = client.get(f"/api/games/{gid}/options", headers=bearer(tok)).json()["options"]
    n = next(o["n"] for o in opts if "face down" in o["text"])
    at = client.post(f"/api/games/{gid}/act", json={"choice": n}, headers=bearer(tok)).json()["event"]
    other, other_tok = acting(client, g)
    assert other != who
    # the other player cannot take back the attacker's decision; nobody without a token can undo
    r = client.post(f"/api/games/{gid}/undo", headers=bearer(other_tok))
    decided = any(row["actor"] == other for row in client.get(f"/api/games/{gid}/log").json()["events"])
    assert r.status_code == 403 and (f"{who} has acted since" if decided else "no decision yet") in r.json()["error"]
    assert client.post(f"/api/games/{gid}/undo").status_code == 401
    r = client.post(f"/api/games/{gid}/undo", json={"steps": 2}, headers=bearer(tok))  # one at a time
    assert r.status_code == 403 and r.json()["error"] == ('a player may take back only their own last decision'
                                                          ' ("steps": 1, or no "steps" at all); the host may undo more')
    # nor may the attacker: the weapon declared told the defender what a card of the attacker's hand is
    # (Pergamemnon's RULES.md, 'Who is told what'), though the card lies face down
    r = client.post(f"/api/games/{gid}/undo", headers=bearer(tok))
    assert r.status_code == 403 and "showed the other players" in r.json()["error"]
    assert client.get(f"/api/games/{gid}", headers=bearer(tok)).json()["may_undo"] is False
    # once the other player answers (laying a card reveals both), neither may take anything back
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(other_tok))
    assert r.status_code == 200
    r = client.post(f"/api/games/{gid}/undo", headers=bearer(tok))
    assert r.status_code == 403 and f"{other} has acted since" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/undo", headers=bearer(other_tok))
    assert r.status_code == 403 and "showed the other players" in r.json()["error"]
    # the host may undo both, and redo
    r = client.post(f"/api/games/{gid}/undo", json={"steps": 2}, headers=host)
    assert r.status_code == 200 and r.json()["event"] == at - 1
    assert client.post(f"/api/games/{gid}/redo", headers=host).json()["event"] == at + 1


def test_undo_policy_a_player_takes_back_their_own_last_decision_while_it_showed_nothing(client):
    """A Peloponnes bid shows only how many coin cards it is ('Leilão'): its bidder may take it back until the other
    player acts, and then the bidder is asked again."""
    r = client.post("/api/games", json={"ruleset": "peloponnes", "players": ["Ana", "Bo"], "seed": 3})
    g = r.json()
    gid = g["game"]
    who, tok = acting(client, g)
    opts = client.get(f"/api/games/{gid}/options", headers=bearer(tok)).json()["options"]
    n = next(o["n"] for o in opts if " bids " in o["text"])
    at = client.post(f"/api/games/{gid}/act", json={"choice": n}, headers=bearer(tok)).json()["event"]
    assert acting(client, g)[0] != who
    assert client.get(f"/api/games/{gid}", headers=bearer(tok)).json()["may_undo"] is True
    r = client.post(f"/api/games/{gid}/undo", headers=bearer(tok))
    assert r.status_code == 200, r.text
    assert r.json()["event"] == at - 1 and r.json()["undone"] == 1
    assert acting(client, g)[0] == who


def test_an_undo_the_policy_refuses_is_a_403_declared_for_the_route_and_moves_nothing(client):
    """The policy's refusal is core's ``UndoRefused`` (a ``ServiceError``, as every face catches it), which the API
    answers 403 with the reason: the token does not allow it, the host's would. /openapi.json says so for /undo."""
    from agon.core import seats
    from agon.core.service import ServiceError

    g = new_duel(client)
    gid = g["game"]
    who = acted(client, g)
    other = next(p for p in g["seats"] if p != who)
    svc = Service(Store(client.store_url))
    try:
        line = svc.load(gid)
        for seat, steps in ((other, 1), (who, 2)):
            with pytest.raises(seats.UndoRefused) as refused:
                seats.undo(svc, line, seat, steps)
            assert isinstance(refused.value, ServiceError)
        assert svc.load(gid).head.id == line.head.id
    finally:
        svc.store.close()
    r = client.post(f"/api/games/{gid}/undo", headers=bearer(g["seats"][other]["token"]))
    assert r.status_code == 403 and r.json()["error"].startswith("cannot undo: ")
    assert client.get(f"/api/games/{gid}").json()["event"] == line.head.depth
    declared = client.get("/openapi.json").json()["paths"]["/api/games/{game}/undo"]["post"]["responses"]["403"]
    assert "the undo policy refuses" in declared["description"]


def seat_options(client, gid: str, tok: str) -> list[dict]:
    return client.get(f"/api/games/{gid}/options", headers=bearer(tok)).json()["options"]


def play_first_options_until(client, game: dict, offered) -> tuple[str, str, list[dict]]:
    """Each acting person takes option 1 until ``offered(option)`` holds for one of theirs: that person, their token
    and their options."""
    gid = game["game"]
    for _ in range(60):
        who, tok = acting(client, game)
        opts = seat_options(client, gid, tok)
        if any(offered(o) for o in opts):
            return who, tok, opts
        assert client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(tok)).status_code == 200
    raise AssertionError("never offered")


def decide(client, gid: str, tok: str, n: int) -> dict:
    """Take option ``n``; the game as that seat then reads it, after checking that nobody acted since."""
    at = client.post(f"/api/games/{gid}/act", json={"choice": n}, headers=bearer(tok)).json()["event"]
    state = client.get(f"/api/games/{gid}", headers=bearer(tok)).json()
    assert state["event"] == at and state["pending"]["kind"] == "decision"  # no chance drawn, nobody acted since
    return state


SHOWED = ("cannot undo: your last decision showed the other players something they could not see before, so it"
          " cannot be taken back; the host may undo it")


def test_a_peloponnes_payment_from_the_hand_shows_its_coin_cards_and_is_not_taken_back(client):
    """Feeding the inhabitants with a grain coin card shows its back to the table ('Suprimento': "cartas de moeda de
    sua mão mostrando os grãos faltantes"), though every view tells the hand by its count alone: the payer's page
    offers no undo and the undo is refused. Feeding by removing a card from the tableau shows nothing hidden, and
    may be taken back."""
    g = client.post("/api/games", json={"ruleset": "peloponnes", "players": ["Ana", "Bo", "Cy"], "seed": 0}).json()
    gid = g["game"]
    fed = "peloponnes.population_fed"
    who, tok, opts = play_first_options_until(client, g, lambda o: o["event"]["type"] == fed)
    hand = client.get(f"/api/games/{gid}", headers=bearer(tok)).json()["view"]["players"][who]["hand"]
    seen = client.get(f"/api/games/{gid}", headers=bearer(g["host"]["token"])).json()["view"]["players"][who]
    assert hand["grain"] > 0 and "hand" not in seen and seen["hand_count"] == sum(hand.values())
    removing = next(o["n"] for o in opts if o["event"]["removed"] and not o["event"]["grain"] + o["event"]["people"])
    assert decide(client, gid, tok, removing)["may_undo"] is True
    r = client.post(f"/api/games/{gid}/undo", headers=bearer(tok))
    assert r.status_code == 200, r.text
    grain = next(o for o in seat_options(client, gid, tok) if o["event"]["grain"] and not o["event"]["removed"])
    state = decide(client, gid, tok, grain["n"])
    assert state["may_undo"] is False
    row = client.get(f"/api/games/{gid}/log").json()["events"][-1]  # what every player read
    assert row["actor"] == who and f"feeds the hungry with {grain['event']['grain']} grain" in row["text"]
    r = client.post(f"/api/games/{gid}/undo", headers=bearer(tok))
    assert r.status_code == 403 and r.json()["error"] == SHOWED
    assert client.post(f"/api/games/{gid}/undo", headers=bearer(g["host"]["token"])).status_code == 200


def test_a_peloponnes_bid_typed_as_agon_play_takes_it_is_recorded_from_the_seats_own_token(client):
    """The seat page's typed decision: the text agon play takes (``a09 1w1l``, a card, then coin cards and a luxury
    good as one word) sent as the ``choice`` with the options' position, read through the core service's steps; a
    bid the rules refuse is one sentence naming the rule, a 422 as the same bid sent as JSON is, nothing recorded;
    the token of a seat not deciding, or none, records nothing."""
    g = client.post("/api/games", json={"ruleset": "peloponnes", "players": ["Ana", "Bo"], "seed": 4}).json()
    gid, tok = g["game"], {p: s["token"] for p, s in g["seats"].items()}
    for n in (2, 5, 1):  # to round 2's auction (tests/test_bid_coins_typed.py): Ana holds one luxury good, Bo none
        assert client.post(f"/api/games/{gid}/act", json={"choice": n}, headers=bearer(acting(client, g)[1])).is_success
    page = {"Agon-Face": "page"}
    at = client.get(f"/api/games/{gid}/options", params={"brief": "1"}, headers=bearer(tok["Ana"])).json()["position"]
    depth = client.get(f"/api/games/{gid}").json()["event"]
    r = client.post(f"/api/games/{gid}/act", json={"choice": "a04 1w2l", "expect": at},
                    headers={**bearer(tok["Ana"]), **page})
    assert r.status_code == 422 and r.json()["error"].startswith(
        "refused: bid (rulebook, 'Bens de Luxo'): Ana has 1 luxury good, not 2;") and "\n" not in r.json()["error"]
    # the same bid sent as the event is refused alike: a decision the rules refuse is a 422 however it is given
    bid = {"type": "peloponnes.bid_placed", "player": "Ana", "card": "A04", "coins": {"wood": 1}, "luxury": 2}
    r = client.post(f"/api/games/{gid}/act", json={"choice": bid, "expect": at}, headers=bearer(tok["Ana"]))
    assert r.status_code == 422 and r.json()["error"].startswith("refused: bid (rulebook, 'Bens de Luxo')"), r.text
    for headers in ({**bearer(tok["Bo"]), **page}, page):  # not Bo's turn; no token at all
        r = client.post(f"/api/games/{gid}/act", json={"choice": "a09 1w1l", "expect": at}, headers=headers)
        assert r.status_code in (401, 422), r.text
    assert client.get(f"/api/games/{gid}").json()["event"] == depth
    r = client.post(f"/api/games/{gid}/act", json={"choice": "a09 1w1l", "expect": at},
                    headers={**bearer(tok["Ana"]), **page})
    assert r.status_code == 200, r.text
    [row] = r.json()["recorded"]
    assert row["actor"] == "Ana" and row["text"].endswith("on Wheat Field (1 wood, 1 luxury).")  # her own backs
    told = client.get(f"/api/games/{gid}/log", headers=bearer(tok["Bo"])).json()["events"][-1]["text"]
    assert told == "Ana bids 2 (counting 2.5 with Market/Agora) on Wheat Field."  # Bo is told the count alone
    at = client.get(f"/api/games/{gid}/options", params={"brief": "1"}, headers=bearer(tok["Bo"])).json()["position"]
    r = client.post(f"/api/games/{gid}/act", json={"choice": "a04 2g1s", "expect": at},
                    headers={**bearer(tok["Bo"]), **page})  # a mix of backs the list does not offer
    assert r.status_code == 200, r.text
    assert r.json()["recorded"][0]["text"].startswith("Bo bids 3 on Lion Gate (1 stone, 2 grain)")


def test_an_adamastor_skill_learned_from_the_hand_shows_the_partner_that_card_and_is_not_taken_back(client):
    """Co-op Adamastor: a skill is learned from the hand into what both players share (rulebook 7 'Aprende
    habilidade', 9.3), and the view lists it as 'Title (n): skill', not by the name the hand row had. The learner
    may not take it back; the host may."""
    g = client.post("/api/games", json={"ruleset": "adamastor", "players": ["Ana", "Bo"], "seed": 4}).json()
    gid = g["game"]
    learn = "adamastor.skill_learned"
    who, tok, opts = play_first_options_until(client, g, lambda o: o["event"]["type"] == learn)
    card = next(o for o in opts if o["event"]["type"] == learn)["event"]["card"]
    partner = next(p for p in g["seats"] if p != who)
    theirs = client.get(f"/api/games/{gid}", headers=bearer(g["seats"][partner]["token"])).json()["view"]
    assert list(theirs["hands"][who]) == ["count"] and f'"{card}"' not in json.dumps(theirs)
    state = decide(client, gid, tok, next(o["n"] for o in opts if o["event"].get("card") == card))
    assert state["may_undo"] is False and state["pending"]["player"] == partner
    r = client.post(f"/api/games/{gid}/undo", headers=bearer(tok))
    assert r.status_code == 403 and r.json()["error"] == SHOWED
    assert client.post(f"/api/games/{gid}/undo", headers=bearer(g["host"]["token"])).status_code == 200


def test_branch_switch_export_and_import_by_the_host(client):
    g = new_duel(client)
    gid = g["game"]
    host = bearer(g["host"]["token"])
    who, tok = acting(client, g)
    client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(tok))
    assert client.post(f"/api/games/{gid}/branch", json={"name": "whatif", "at": 3},
                       headers=bearer(tok)).status_code == 403
    r = client.post(f"/api/games/{gid}/branch", json={"name": "whatif", "at": 3}, headers=host)
    assert r.status_code == 200 and r.json()["branch"] == "whatif" and r.json()["event"] >= 3
    # the new line moved on by itself (seeded chance, bots) to where a person decides: nobody else could
    pending = client.get(f"/api/games/{gid}", headers=host).json()["pending"]
    assert pending["kind"] == "decision" and pending["bot"] is None
    names = {b["name"]: b["current"] for b in client.get(f"/api/games/{gid}/branches").json()}
    assert names == {"main": False, "whatif": True}
    assert client.post(f"/api/games/{gid}/switch", json={"name": "main"}, headers=host).json()["branch"] == "main"
    exported = client.get(f"/api/games/{gid}/export", headers=host)
    assert exported.status_code == 200 and exported.content.count(b"\n") >= 6
    line = client.get(f"/api/games/{gid}/export?branch=main", headers=host)
    assert line.status_code == 200 and line.content != exported.content
    # the same game again is refused whole: an import over the network never changes a game being played
    for data in (exported.content, line.content):
        r = client.post("/api/import", content=data)
        assert r.status_code == 409 and f"game {gid} is already on this server" in r.json()["error"]


def test_importing_a_game_from_elsewhere_answers_its_links(client, tmp_path):
    other = Service(Store(f"sqlite:///{tmp_path / 'elsewhere.db'}"))
    from agon.core.service import NewGame
    from agon.core.transfer import export_game

    gid = other.new_game(NewGame("pergamemnon", players=["Ana", "Bo"], seed=9))
    other.act(gid, "1")
    data = export_game(other, gid)
    other.store.close()
    r = client.post("/api/import", content=data)
    assert r.status_code == 201, r.text
    imported = r.json()
    assert set(imported["seats"]) == {"Ana", "Bo"} and imported["event"] >= 4
    state = client.get(f"/api/games/{imported['game']}", headers=bearer(imported["seats"]["Bo"]["token"])).json()
    assert state["you"] == "Bo" and state["event"] == imported["event"]


def test_a_file_refused_once_read_whole_is_refused_over_http_and_the_store_is_left_as_it_was(client, tmp_path):
    """A line the rules refuse (a chance outcome rewritten, every hash after it recomputed), or a card set the file
    names but neither carries nor is agon's own: 400 in one sentence, and the store as it was."""
    from agon.core import registry
    from agon.core.service import NewGame, default_cards
    from agon.core.transfer import export_game
    from tests.tamper import rewrite

    cards = default_cards(registry.get("peloponnes"))
    cards["power"][0]["name"] = "Deep Well"  # a set of the user's own
    other = Service(Store(f"sqlite:///{tmp_path / 'elsewhere.db'}"))
    gid = other.new_game(NewGame("peloponnes", players=["Ana", "Bo", "Cy"], seed=9, cards=cards))
    data = export_game(other, gid)
    other.store.close()

    def redrawn(events: list) -> None:
        draw = next(e for e in events if e["tag"] == "peloponnes.coins_drawn")
        draw["payload"]["coins"] = ["stone"] * len(draw["payload"]["coins"])

    without_set = rewrite(b"".join(raw + b"\n" for raw in data.splitlines() if b'"kind":"cards"' not in raw),
                          lambda events: None)
    g = new_duel(client)
    before = client.get("/api/games").json()
    for bad, says in ((rewrite(data, redrawn), "is not the outcome the game's seed draws there"),
                      (without_set, "is neither in the file nor bundled with agon nor in this store")):
        r = client.post("/api/import", content=bad)
        said = r.json()["error"]
        assert r.status_code == 400 and says in said and "\n" not in said, said
        assert said.startswith("cannot import: ") and said.endswith("; nothing was imported")
        assert client.get("/api/games").json() == before
    assert [x["game"] for x in before] == [g["game"]]


def test_the_event_stream_tells_each_new_event_as_the_seat_may_read_it(client):
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    start = client.get(f"/api/games/{gid}").json()["event"]
    client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(tok))
    text = client.get(f"/api/games/{gid}/events?since={start}&wait=0&token={tok}").text
    frames = [f for f in text.split("\n\n") if f.strip()]
    kinds = [next(ln[7:] for ln in f.splitlines() if ln.startswith("event: ")) for f in frames]
    assert kinds[0] == "recorded" and kinds[-1] == "status"
    first = json.loads(next(ln[6:] for ln in frames[0].splitlines() if ln.startswith("data: ")))
    assert first["n"] == start + 1 and first["actor"] == who
    log = client.get(f"/api/games/{gid}/log?from={start + 1}", headers=bearer(tok)).json()["events"]
    assert [json.loads(f.split("data: ")[1]) for f in frames[:-1]] == log
    # after an undo by the host the stream says the line moved
    client.post(f"/api/games/{gid}/undo", headers=bearer(g["host"]["token"]))
    with client.stream("GET", f"/api/games/{gid}/events?since={start + len(log)}&wait=0.3") as r:
        body = "".join(r.iter_text())
    assert "event: moved" in body


def _messages(text: str) -> list[tuple[str, str | None, dict]]:
    """An event stream's messages: (kind, id, data)."""
    out = []
    for frame in text.split("\n\n"):
        fields = dict(ln.split(": ", 1) for ln in frame.splitlines() if not ln.startswith(":"))
        if "event" in fields:
            out.append((fields["event"], fields.get("id"), json.loads(fields["data"])))
    return out


def test_a_stream_resumed_after_its_events_were_taken_back_and_played_again_another_way_says_the_line_moved(client):
    """A client that resumes its stream with the id of the last message it read (Last-Event-ID, as a browser does)
    is told 'moved' when that event is no longer on the line, though the line has as many events again: the ids
    were the events' numbers alone, so it was sent the events after that number and kept a record that was not the
    game's."""
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(tok))
    read = _messages(client.get(f"/api/games/{gid}/events?since=0&wait=0").text)
    kind, last, data = read[-1]
    head = client.get(f"/api/games/{gid}").json()
    assert kind == "status" and last == head["position"] == data["position"]  # an id is a position
    recorded = [(i, d) for k, i, d in read if k == "recorded"]
    assert all(i == f"{d['n']}.{i.split('.')[1]}" for i, d in recorded) and recorded[-1][0] == last
    # resumed at once: nothing new, nothing moved
    again = _messages(client.get(f"/api/games/{gid}/events?wait=0", headers={"Last-Event-ID": last}).text)
    assert [k for k, _, _ in again] == ["status"]
    # the host takes the decision back, the same player decides otherwise and play goes on: the line is at least
    # as long as before
    client.post(f"/api/games/{gid}/undo", json={}, headers=bearer(g["host"]["token"]))
    client.post(f"/api/games/{gid}/act", json={"choice": 2}, headers=bearer(tok))
    while (now := client.get(f"/api/games/{gid}").json())["event"] < head["event"]:
        _, token = acting(client, g)
        assert client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(token)).status_code == 200
    assert now["position"] != head["position"]
    resumed = _messages(client.get(f"/api/games/{gid}/events?wait=0", headers={"Last-Event-ID": last}).text)
    assert [k for k, _, _ in resumed] == ["moved", "status"], resumed
    assert resumed[0][2]["position"] == now["position"] and resumed[-1][1] == now["position"]
    # an event's number alone is taken as before (a client that kept only numbers)
    number = _messages(client.get(f"/api/games/{gid}/events?wait=0", headers={"Last-Event-ID": "4"}).text)
    assert [k for k, _, _ in number][-1] == "status" and "moved" not in [k for k, _, _ in number]
    r = client.get(f"/api/games/{gid}/events?wait=0", headers={"Last-Event-ID": "4.xyz"})
    assert r.status_code == 400 and "such as 12.a1b2c3d4" in r.json()["error"]


def test_the_event_stream_takes_no_body_as_no_other_get_does(client):
    """GET /events read no body: '{"since": 3}' sent there was ignored, and the client was sent the game from the
    start, where every other GET refuses a body."""
    gid = new_duel(client)["game"]
    for path in (f"/api/games/{gid}/events?wait=0", f"/api/games/{gid}/log"):
        r = client.request("GET", path, content=b'{"since": 3}')
        assert r.status_code == 400, (path, r.text)
        assert r.json() == {"error": f"GET {path.split('?')[0]} takes no body; send its parameters in the query"}
    assert client.get(f"/api/games/{gid}/events?wait=0", headers={"content-length": "0"}).status_code == 200


def test_the_openapi_document_lists_every_endpoint(client):
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    for path in ("/api/games", "/api/games/{game}/act", "/api/games/{game}/events", "/api/import"):
        assert path in doc["paths"]
    assert "post" in doc["paths"]["/api/games/{game}/undo"]


def _serve(tmp_path, **env: str) -> tuple[subprocess.Popen, int]:
    """'agon serve' on a free loopback port with a fresh store (and ``env``), once it answers: (process, port)."""
    proc, port, _ = agon_serve(env={**os.environ, "AGON_DB": str(tmp_path / "club.db"), **env})
    return proc, port


def test_agon_serve_answers_on_loopback(tmp_path):
    proc, port = _serve(tmp_path)
    try:
        r = httpx.post(f"http://127.0.0.1:{port}/api/games", timeout=5,
                       json={"ruleset": "adamastor", "players": ["Ana"], "seed": 1})
        assert r.status_code == 201
        games = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5).json()
        assert [x["game"] for x in games] == [r.json()["game"]]
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert f"on http://127.0.0.1:{port}/" in out


def test_agon_serve_answers_a_client_whose_headers_trickle_in_with_408_and_closes_it(tmp_path):
    """A client that sends its request a byte at a time, each byte within uvicorn's keep-alive time, would hold a
    connection for ever; 'agon serve' gives a request's line and headers AGON_HEADER_WAIT seconds (30 unless set).
    A prompt request on another connection meanwhile, and a slow body after prompt headers, are not cut."""
    proc, port = _serve(tmp_path, AGON_HEADER_WAIT="1")
    try:
        slow = socket.create_connection(("127.0.0.1", port), timeout=10)
        start = time.monotonic()
        got = b""
        try:
            for byte in b"GET /api/games HTTP/1.1\r\nhost: x\r\n":
                slow.sendall(bytes([byte]))
                time.sleep(0.1)  # within the keep-alive time, so only the header deadline can end this
                assert httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5).status_code == 200
        except (BrokenPipeError, ConnectionResetError):
            pass
        while chunk := slow.recv(4096):
            got += chunk
        took = time.monotonic() - start
        slow.close()
        head, _, body = got.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 ") and b"application/json" in head
        assert json.loads(body) == {"error": "the request's headers did not arrive within 1 second; send the"
                                             " request again"}
        assert 0.9 < took < 10
        prompt = socket.create_connection(("127.0.0.1", port), timeout=10)  # prompt headers, the body at leisure
        prompt.sendall(b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                       b"content-length: 55\r\n\r\n")
        time.sleep(1.5)
        prompt.sendall(b'{"ruleset": "adamastor", "players": ["Ana"], "seed": 1}')
        assert prompt.recv(4096).startswith(b"HTTP/1.1 201 ")
        prompt.close()
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def test_agon_serve_answers_a_request_that_is_not_http_in_one_json_sentence(tmp_path):
    """uvicorn answered a malformed request (a Content-Length that is no number, two that differ, a header line
    with no colon) 'Invalid HTTP request received.' in plain text; every error of the API is one JSON sentence."""
    proc, port = _serve(tmp_path)
    try:
        for bad in (b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-length: abc\r\n\r\n{}",
                    b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}",
                    b"GET /api/games HTTP/1.1\r\nhost: x\r\nno colon here\r\n\r\n"):
            conn = socket.create_connection(("127.0.0.1", port), timeout=10)
            conn.sendall(bad)
            got = b""
            while chunk := conn.recv(4096):
                got += chunk
            conn.close()
            head, _, body = got.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 400 ") and b"content-type: application/json" in head.lower(), got
            assert json.loads(body) == {"error": "the request is not valid HTTP/1.1 (its request line, a header or its"
                                                 " Content-Length is malformed); nothing was done: send it again as"
                                                 " HTTP/1.1"}
        assert httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=5).json() == []  # nothing was created
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def test_the_stream_sees_a_decision_recorded_elsewhere(client):
    """A decision recorded by another worker (here: another service on the same store, as the CLI would) reaches
    the stream within the poll interval, through the worker's one look at all the games it follows."""
    import threading

    g = new_duel(client)
    gid = g["game"]
    who, _ = acting(client, g)
    start = client.get(f"/api/games/{gid}").json()["event"]
    other = Service(Store(client.store_url))
    timer = threading.Timer(0.5, lambda: other.act(gid, "1", as_player=who))
    timer.start()
    try:
        with client.stream("GET", f"/api/games/{gid}/events?wait=5") as r:
            seen = []
            for line in r.iter_lines():
                if line.startswith("data: ") and '"actor"' in line:
                    seen.append(json.loads(line[6:]))
                    break
    finally:
        timer.join()
        other.store.close()
    assert seen and seen[0]["n"] == start + 1 and seen[0]["actor"] == who


def test_the_stream_of_an_ended_game_stays_open_and_tells_of_the_hosts_undo(client):
    """An ended game may still change (the host takes back the slip that ended it, redoes, branches or switches, here
    or at the command line), so its stream stays open, as the pages that follow it rely on, and tells of the change."""
    import threading

    g = client.post("/api/games", json={"ruleset": "toy", "players": [], "seed": 3, "bots": [
        {"name": "ann", "kind": "random"}, {"name": "bob", "kind": "random"}]}).json()
    gid = g["game"]
    assert client.get(f"/api/games/{gid}").json()["pending"]["kind"] == "over"
    other = Service(Store(client.store_url))
    timer = threading.Timer(0.5, lambda: other.undo(gid))
    timer.start()
    try:
        with client.stream("GET", f"/api/games/{gid}/events?wait=5") as r:
            kinds = []
            for line in r.iter_lines():
                if line.startswith("event: "):
                    kinds.append(line[7:])
                    if kinds[-1] == "moved":
                        break
    finally:
        timer.join()
        other.store.close()
    assert kinds[0] == "status" and "moved" in kinds


def test_a_commitment_of_many_variants_is_built_step_by_step_without_its_long_list(client):
    """Perikles: some 2,000 commitments are legal; the acting seat builds one a step at a time (/steps), each step
    offering only what remains legal, and records it with the steps typed at once, as /steps says."""
    g = client.post("/api/games", json={"ruleset": "perikles", "players": ["Ana", "Bo", "Cy"], "seed": 2}).json()
    gid = g["game"]
    built = None
    for _ in range(120):
        who, token = acting(client, g)
        o = client.get(f"/api/games/{gid}/options?brief=1", headers=bearer(token)).json()
        if not o["stepwise"]:
            assert o["options"]
            assert client.post(f"/api/games/{gid}/act", headers=bearer(token),
                               json={"choice": 1, "expect": o["position"]}).status_code == 200
            continue
        assert o["options"] == []  # the long list is left out
        other = next(t for p, t in ((p, s["token"]) for p, s in g["seats"].items()) if p != who)
        assert client.get(f"/api/games/{gid}/steps", headers=bearer(other)).status_code == 403
        assert client.get(f"/api/games/{gid}/steps").status_code == 401
        bad = client.get(f"/api/games/{gid}/steps?chosen=zzz", headers=bearer(token))
        assert bad.status_code == 400 and "zzz" in bad.json()["error"]
        words: list[str] = []
        for _ in range(40):
            q = client.get(f"/api/games/{gid}/steps", params={"chosen": " ".join(words)}, headers=bearer(token)).json()
            assert q["you"] == who
            if q["complete"]:
                break
            choices = [c["value"] for c in q["question"]["choices"]]
            assert len(choices) > 1 or q["question"]["may_end"]
            words = [c["value"] for c in q["chosen"]] + [choices[-1]]
        assert q["complete"], q
        r = client.post(f"/api/games/{gid}/act", headers=bearer(token), json={"choice": q["choice"],
                                                                              "expect": o["position"]})
        assert r.status_code == 200, r.text
        assert r.json()["recorded"][0]["event"] == q["decision"]["event"] and r.json()["recorded"][0]["actor"] == who
        if q["decision"]["event"]["type"] == "perikles.forces_committed":
            built = q
            break
    assert built is not None, "no commitment came up"
    assert len(built["chosen"]) >= 2


def test_a_line_read_anew_is_carried_from_one_held_to_the_same_state_and_steps(store_url):
    """The server's line cache folds a line moved on elsewhere from the line it held (only the new events); what
    it carries is what folding the whole line gives, past a state snapshot too."""
    from agon.core.service import NewGame
    from agon.server.api import carry, steps_of

    svc = Service(Store(store_url))
    gid = svc.new_game(NewGame("pergamemnon", players=["Ana", "Bo"], seed=3))
    for _ in range(10):
        svc.act(gid, "1")
    base = svc.load(gid)
    steps_of(base)
    for _ in range(60):  # past a snapshot (every 64 events)
        if not svc.load(gid).status().startswith("over"):
            svc.act(gid, "1")
    line = svc.load(gid)
    assert line.depth > base.depth + 60
    carry(base, line)
    whole = svc.load(gid, whole=True)
    assert line.__dict__["state"] == whole.state
    carried = line.__dict__["_steps"]
    assert [(s.index, s.event, s.before, s.after, s.actor) for s in carried] == [
        (s.index, s.event, s.before, s.after, s.actor) for s in whole.steps()]
    svc.store.close()


def test_the_spectators_page_loads_plotly_from_one_cached_address(client):
    """plotly.js (about 4.8 MB) was inlined in every spectator page; the page now names one address, by
    plotly's version, which answers it gzipped when asked and lets a browser keep it for good."""
    import re

    gid = new_duel(client)["game"]
    page = client.get(f"/games/{gid}/watch")
    assert page.status_code == 200
    assert len(page.content) < 1_000_000
    src = re.findall(r'<script src="([^"]+)"></script>', page.text)
    assert len(src) == 1 and src[0].startswith("/static/plotly-")
    plain = client.get(src[0], headers={"Accept-Encoding": "identity"})
    packed = client.get(src[0], headers={"Accept-Encoding": "gzip"})
    for r in (plain, packed):
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
        assert "immutable" in r.headers["cache-control"]
    assert packed.headers.get("content-encoding") == "gzip" and "content-encoding" not in plain.headers
    assert packed.content == plain.content  # the client undid the gzip: the same script
    assert len(plain.content) > 1_000_000 and b"plotly" in plain.content[:2000].lower()
    assert client.get("/static/plotly-0.0.0.js").status_code == 404


def test_a_branch_made_past_a_snapshot_where_a_person_acts_takes_their_decision(client):
    """A line read from a state snapshot (kept at event 64) and branched where a person acts at once has no summary
    of its own yet: the first decision on it is recorded, and the game is not listed as damaged (the summary once
    read the new line's head before it was stored: a 400 'damaged', and the listing then said so)."""
    g = client.post("/api/games", json={"ruleset": "peloponnes", "players": ["Ana", "Bo", "Cy"], "seed": 1}).json()
    gid, host = g["game"], bearer(g["host"]["token"])  # (its civilizations are dealt after its first event)
    while client.get(f"/api/games/{gid}").json()["pending"]["kind"] == "decision":
        acted(client, g)
    line = Service(Store(client.store_url)).load(gid)
    assert line.state is not None and line.base == 0  # read whole and folded, as `agon options` would: the
    assert Service(Store(client.store_url)).load(gid).base == 64  # state at event 64 is kept, and read from
    at = max(n for n in range(line.depth) if isinstance(line.ruleset.pending(line.state_at(n)), Decision))
    assert at > 64
    r = client.post(f"/api/games/{gid}/branch", json={"name": "whatif", "at": at}, headers=host)
    assert r.status_code == 200 and r.json()["event"] == at  # a person acts there: nothing moved by itself
    tok = g["seats"][line.ruleset.pending(line.state_at(at)).player]["token"]
    other = len(seat_options(client, gid, tok))  # not the decision main took there (its event is stored)
    assert other > 1
    r = client.post(f"/api/games/{gid}/act", json={"choice": other}, headers=bearer(tok))
    assert r.status_code == 200, r.text
    assert r.json()["event"] > at
    listed = {x["game"]: x for x in client.get("/api/games").json()}[gid]
    assert "damaged" not in json.dumps(listed)


def test_the_hosts_note_on_a_players_turn_says_the_host_enters_chance_only_in_a_table_game(client):
    """The host's page shows the options' note while a player decides: it told the host of a game whose chance
    agon draws (not played at a real table) that the host enters chance outcomes, which they never do there."""
    for table in (False, True):
        g = new_duel(client, table=table)
        gid = g["game"]
        if table:  # the host enters the deal, then a player decides
            while client.get(f"/api/games/{gid}").json()["pending"]["kind"] == "chance":
                assert client.post(f"/api/games/{gid}/act", json={"choice": "seed"},
                                   headers=bearer(g["host"]["token"])).status_code == 200
        who, _ = acting(client, g)
        note = client.get(f"/api/games/{gid}/options", headers=bearer(g["host"]["token"])).json()["note"]
        assert note.startswith(f"{who} decides now with their own link")
        assert ("the host enters chance outcomes" in note) == table, note
        r = client.post(f"/api/games/{gid}/act", json={"choice": "1"}, headers=bearer(g["host"]["token"]))
        assert r.status_code == 403 and r.json()["error"].startswith(f"{who} decides now, with their own link")
        assert ("the host enters chance outcomes" in r.json()["error"]) == table, r.json()


def test_the_items_a_host_may_type_are_listed_in_the_order_a_person_counts_them(client):
    """The host's page lists what a draw at the table may be, which the host reads to find a card's id: Adamastor's
    cards were listed as text sorts them (c1, c10, c11, ..., c19, c2, c20), c2 nineteen places after c1; they
    come as counted, as a refused entry already lists them."""
    g = client.post("/api/games", json={"ruleset": "adamastor", "players": ["Ana"], "seed": 2, "table": True}).json()
    gid, host = g["game"], bearer(g["host"]["token"])
    for _ in range(20):
        pending = client.get(f"/api/games/{gid}", headers=host).json()["pending"]
        if pending["kind"] == "chance" and len(pending["items"]) > 10:
            break
        who = "host" if pending["kind"] == "chance" else pending["player"]
        token = g["host"]["token"] if who == "host" else g["seats"][who]["token"]
        assert client.post(f"/api/games/{gid}/act", json={"choice": "seed" if who == "host" else "1"},
                           headers=bearer(token)).status_code == 200
    items = pending["items"]
    numbers = [int(i[1:]) for i in items]
    assert len(items) > 10 and all(i.startswith("c") for i in items) and numbers == sorted(numbers), items


def test_a_redo_reads_the_line_it_moves_on_from_once(client):
    """The redo route read the line to check the seat, and the service read it again to check that it reads before
    moving its head: the line read is now what the service checks, and the line brought back is folded from it."""
    g = new_duel(client)
    gid, host = g["game"], bearer(g["host"]["token"])
    for _ in range(3):
        acted(client, g)
    at = client.get(f"/api/games/{gid}").json()["event"]
    assert client.post(f"/api/games/{gid}/undo", json={"steps": 2}, headers=host).status_code == 200
    undone = client.get(f"/api/games/{gid}", headers=host).json()["event"]  # as the host's page reads it: held
    svc = client.app.state.service
    read, load = [], svc.load

    def counted(*args, **kwargs):
        line = load(*args, **kwargs)
        read.append(line.head.depth)
        return line

    svc.load = counted
    try:
        r = client.post(f"/api/games/{gid}/redo", headers=host)
    finally:
        del svc.load
    assert r.status_code == 200 and (r.json()["event"], r.json()["redone"]) == (at, 2)
    assert undone not in read, read  # the line the route found held is the one checked: not read again
    assert read.count(at) <= 1, read  # the line brought back: found held, or read once (and folded from the other)
    assert client.get(f"/api/games/{gid}").json()["event"] == at


def test_a_body_integer_past_its_range_is_a_400_naming_the_field_and_the_range_and_changes_nothing(client):
    """'expect', 'steps', 'at' and 'seed' in a body took any whole number past their minimum: 2**31 went on to the
    service, where an undo expecting event #2147483648 was told 'the game was taken back (an undo) since' it. Each is
    now held to the range the document states (the largest value of a PostgreSQL integer), refused in one sentence."""
    g = new_duel(client)
    gid, host = g["game"], bearer(g["host"]["token"])
    for _ in range(3):
        who = acted(client, g)
    assert client.post(f"/api/games/{gid}/undo", json={}, headers=host).status_code == 200  # a redo is possible

    def seen() -> tuple:
        return (client.get(f"/api/games/{gid}", headers=host).json(), client.get(f"/api/games/{gid}/log",
                headers=host).json(), client.get(f"/api/games/{gid}/branches").json(), client.get("/api/games").json())

    before = seen()
    _, tok = acting(client, g)
    sent = [("act", "expect", 0, {"choice": 1}, bearer(tok)), ("undo", "expect", 0, {}, host),
            ("undo", "steps", 1, {}, host), ("redo", "expect", 0, {}, host),
            ("branch", "at", 0, {"name": "wide"}, host)]
    for value in (2**31, 10**30):
        for route, name, low, body, who in sent:
            said = f"'{name}' must be a whole number from {low} to 2147483647, not {value}"
            r = client.post(f"/api/games/{gid}/{route}", json={**body, name: value}, headers=who)
            assert (r.status_code, r.json()) == (400, {"error": f"{said} (see /openapi.json)"}), (route, r.text)
            page = {**who, "Agon-Face": "page"}
            r = client.post(f"/api/games/{gid}/{route}", json={**body, name: value}, headers=page)
            assert (r.status_code, r.json()) == (400, {"error": said}), (route, r.text)  # a page's person: no document
        r = client.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"], "seed": value})
        assert (r.status_code, r.json()) == (400, {"error": f"'seed' must be a whole number from 0 to 2147483647, not"
                                                            f" {value} (see /openapi.json)"}), r.text
    assert seen() == before  # nothing recorded, undone, redone, branched or created
    # a number of more digits than a sentence shows is told by its length
    r = client.post(f"/api/games/{gid}/undo", json={"steps": 10**60}, headers=host)
    assert r.json() == {"error": "'steps' must be a whole number from 1 to 2147483647, not a number of 61 digits"
                                 " (see /openapi.json)"}, r.text
    # the largest is taken by the schema and judged by the game: there is no event 2147483647 to branch at
    r = client.post(f"/api/games/{gid}/branch", json={"name": "wide", "at": 2**31 - 1}, headers=host)
    assert r.status_code == 400 and r.json()["error"].startswith("event 2147483647 is outside branch 'main'"), r.text
    assert seen() == before


def test_the_host_is_told_when_a_redo_would_bring_something_back_and_nobody_else_is(client):
    """``may_redo`` (what the host's page shows its redo button by) is in the host's answer alone: false before any
    undo, true after one, false again once redone and once a different entry followed an undo; a player's and a
    spectator's answer have no such field. Telling it reads the branch's head moves once, and not at all for them."""
    g = new_duel(client)
    gid, host = g["game"], bearer(g["host"]["token"])
    for _ in range(2):
        who = acted(client, g)
    store = client.app.state.service.store
    reads, moves = [], store.head_moves_newest_first

    def counted(*args, **kwargs):
        reads.append(args)
        return moves(*args, **kwargs)

    def seen(headers: dict[str, str]) -> dict:
        reads.clear()
        store.head_moves_newest_first = counted
        try:
            r = client.get(f"/api/games/{gid}", headers=headers)
        finally:
            del store.head_moves_newest_first
        assert r.status_code == 200, r.text
        return r.json()

    def others() -> None:  # a player's answer and a spectator's: no field, no head move read for it
        for headers in (bearer(g["seats"][who]["token"]), {}):
            assert "may_redo" not in seen(headers) and reads == []

    assert seen(host)["may_redo"] is False and len(reads) == 1
    others()
    assert client.post(f"/api/games/{gid}/undo", headers=host).status_code == 200
    assert seen(host)["may_redo"] is True and len(reads) == 1
    others()
    r = client.post(f"/api/games/{gid}/redo", headers=host)
    assert r.status_code == 200 and r.json()["redone"] == 1
    assert seen(host)["may_redo"] is False
    others()
    # a different entry after an undo leaves nothing to redo on this line (the undone one is kept as a branch)
    assert client.post(f"/api/games/{gid}/undo", headers=host).status_code == 200
    who, tok = acting(client, g)
    options = client.get(f"/api/games/{gid}/options", headers=bearer(tok)).json()["options"]
    assert len(options) > 1  # the last is not the decision undone (the first)
    assert client.post(f"/api/games/{gid}/act", json={"choice": len(options)}, headers=bearer(tok)).status_code == 200
    state = seen(host)
    assert state["may_redo"] is False, state
    assert client.post(f"/api/games/{gid}/redo", headers=host).status_code == 409


def test_the_only_decision_legal_built_with_steps_is_recorded_with_the_choice_steps_gives(client):
    """Perikles: a holder whose only answer before a battle is to keep their tile is asked no step; /steps says the
    decision is complete, and the 'choice' it gives is one /act records (it was '', which /act refuses as empty)."""
    g = client.post("/api/games", json={"ruleset": "perikles", "players": ["Ana"], "seed": 2, "bots": [
        {"name": "Bo", "kind": "greedy"}, {"name": "Cy", "kind": "greedy"}]}).json()
    gid, token = g["game"], g["seats"]["Ana"]["token"]
    for _ in range(100):
        o = client.get(f"/api/games/{gid}/options", headers=bearer(token)).json()
        assert o["pending"]["kind"] == "decision", o["pending"]
        if len(o["options"]) == 1:
            break
        assert client.post(f"/api/games/{gid}/act", headers=bearer(token),
                           json={"choice": 1, "expect": o["position"]}).status_code == 200
    assert o["options"][0]["event"]["type"] == "perikles.battle_tile_kept", o
    assert not o["stepwise"]
    q = client.get(f"/api/games/{gid}/steps", headers=bearer(token)).json()
    assert q["complete"] and q["chosen"] == [] and q["choice"] == "1"
    assert q["decision"]["event"] == o["options"][0]["event"]
    r = client.post(f"/api/games/{gid}/act", headers=bearer(token), json={"choice": q["choice"],
                                                                          "expect": o["position"]})
    assert r.status_code == 200, r.text
    assert r.json()["recorded"][0]["event"] == q["decision"]["event"] and r.json()["recorded"][0]["actor"] == "Ana"

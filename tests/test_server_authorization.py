"""An Authorization header that is not 'Bearer TOKEN', as a client of the API meets it: a 401 saying what was wrong
and what to send, on every route, with nothing done and nothing of the credential echoed back. Before, such a
header was read as no token at all: a player who sent 'Token abc' or their bare token was told that acting needs a
token, and a page asked with 'Token ...' was shown what every player sees. A proxy's own 'Basic' credentials
name no seat: they are passed over, as no header."""

from __future__ import annotations

import base64

from tests.test_server_api import acting, bearer, new_duel
from tests.test_server_api import client as _client

client = _client

SEND = ": send your seat's token as 'Authorization: Bearer TOKEN', or as ?token=TOKEN"


def wrong_headers(token: str) -> dict[str, tuple[str, str]]:
    """Authorization headers a client might send instead of 'Bearer TOKEN', each with the sentence it is told."""
    return {
        "Token": (f"Token {token}", "the Authorization header is of the scheme 'Token', not 'Bearer'" + SEND),
        "bare": (token, "the Authorization header gives a token without 'Bearer ' before it" + SEND),
        "empty Bearer": ("Bearer ", "the Authorization header gives no token after 'Bearer'" + SEND),
        "blank Bearer": ("Bearer    ", "the Authorization header gives no token after 'Bearer'" + SEND),
        "Bearer alone": ("Bearer", "the Authorization header gives no token after 'Bearer'" + SEND),
        "empty": ("", "the Authorization header is empty" + SEND),
        "odd scheme": (f"B=e {token}", "the Authorization header is not 'Bearer TOKEN'" + SEND),
    }


def test_an_act_with_an_authorization_header_not_bearer_is_a_401_saying_so_and_records_nothing(client):
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    before = client.get(f"/api/games/{gid}").json()
    for kind, (header, said) in wrong_headers(tok).items():
        r = client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers={"Authorization": header})
        assert r.status_code == 401, (kind, r.text)
        assert r.json() == {"error": said}, kind
        assert tok not in r.text, kind  # nor the credential: the sentence is the whole answer
    assert client.get(f"/api/games/{gid}").json() == before  # nothing recorded
    # the same token sent as it should be is the seat's
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(tok))
    assert r.status_code == 200 and r.json()["event"] > before["event"]


def test_a_read_with_a_wrong_authorization_header_is_refused_not_shown_what_everyone_sees(client):
    """A player's page asked with 'Token ...' got the public view (no hand) and 'you': null, and the stream told
    only what every player may read: the client could not tell that its token had been ignored."""
    g = new_duel(client)
    gid = g["game"]
    tok = g["seats"]["Ana"]["token"]
    header = {"Authorization": f"Token {tok}"}
    for path in ("", "/options", "/log", "/branches", "/events?wait=0"):
        r = client.get(f"/api/games/{gid}{path}", headers=header)
        assert r.status_code == 401, (path, r.text)
        assert r.json()["error"] == "the Authorization header is of the scheme 'Token', not 'Bearer'" + SEND
    for method, path in (("GET", "/api/games"), ("GET", "/api/rulesets")):
        assert client.request(method, path, headers=header).status_code == 401, path
    assert client.get(f"/api/games/{gid}", headers=bearer(tok)).json()["you"] == "Ana"


def test_the_token_in_the_query_names_the_seat_whatever_authorization_header_comes_with_it(client):
    """A browser's event stream cannot choose its headers (a proxy's 'Basic' may ride along): ?token= still names
    the seat, and 'bearer' is taken in any case, as the scheme's name is."""
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    for header in ("Basic QW5hOnNlY3JldA==", "Bearer ", tok, ""):
        r = client.get(f"/api/games/{gid}?token={tok}", headers={"Authorization": header})
        assert r.status_code == 200 and r.json()["you"] == who, (header, r.text)
    r = client.get(f"/api/games/{gid}?token={tok}")
    assert r.status_code == 200 and r.json()["you"] == who
    r = client.get(f"/api/games/{gid}", headers={"Authorization": f"bearer   {tok}  "})
    assert r.status_code == 200 and r.json()["you"] == who
    r = client.get(f"/api/games/{gid}/events?wait=0&token={tok}", headers={"Authorization": "Basic QW5hOnNlY3JldA=="})
    assert r.status_code == 200 and "event: status" in r.text


def test_the_document_declares_the_401_on_every_route_and_says_which_header_is_taken(client):
    doc = client.get("/openapi.json").json()
    for path, item in doc["paths"].items():
        for method, op in item.items():
            assert "401" in op["responses"], (method, path)
            assert "the Authorization header is not 'Bearer TOKEN'" in op["responses"]["401"]["description"], (
                method, path)
            assert "an Authorization header of another kind is a 401" in op["description"], (method, path)


def test_a_proxys_basic_credentials_name_no_seat_and_spectators_still_see_the_game(client):
    """A site behind a proxy that asks for a password passes 'Basic ...' on with every request: the lobby and a
    spectator's read answer as without a header (what every player sees), and acting asks for the seat's token."""
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    proxy = {"Authorization": "Basic " + base64.b64encode(b"club:door-password").decode()}
    assert client.get("/api/games", headers=proxy).status_code == 200
    r = client.get(f"/api/games/{gid}", headers=proxy)
    assert r.status_code == 200 and r.json()["you"] is None
    before = client.get(f"/api/games/{gid}").json()
    r = client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=proxy)
    assert r.status_code == 401 and "token" in r.json()["error"] and "door-password" not in r.text
    assert client.get(f"/api/games/{gid}").json() == before
    r = client.get(f"/api/games/{gid}?token={tok}", headers=proxy)
    assert r.json()["you"] == who


def test_a_bearer_token_and_a_different_token_in_the_query_are_a_400_on_every_route_and_do_nothing(client):
    """'Authorization: Bearer ANA' with '?token=BO' answered as Ana, the query passed over without a word (a client
    holding two seats' links, or an old link's token beside a new one, was shown one seat and could not tell which).
    Two different tokens are now a 400 in one sentence, naming neither; the same token twice is that seat."""
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    other = next(s["token"] for name, s in g["seats"].items() if name != who)
    before = client.get(f"/api/games/{gid}").json()
    said = ("the Authorization header and ?token= name two different tokens, so which seat asks is not known; send"
            " your seat's token once")
    for method, path, body in (("GET", "", None), ("GET", "/options", None), ("GET", "/log", None),
                               ("GET", "/events?wait=0", None), ("POST", "/act", {"choice": 1}),
                               ("POST", "/undo", {}), ("POST", "/stream-seat", {})):
        for a, b in ((tok, other), (other, tok), (tok, g["host"]["token"])):
            sep = "&" if "?" in path else "?"
            r = client.request(method, f"/api/games/{gid}{path}{sep}token={b}", json=body, headers=bearer(a))
            assert r.status_code == 400 and r.json() == {"error": said}, (method, path, r.text)
    assert client.get(f"/api/games/{gid}").json() == before  # nothing recorded
    r = client.get(f"/api/games/{gid}?token={tok}", headers=bearer(tok))
    assert r.status_code == 200 and r.json()["you"] == who

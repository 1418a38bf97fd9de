"""POST /undo with 'expect', as a client of the API meets it: a host who clicks undo just as a player's move lands
is refused (409, one sentence saying how the game moved and that nothing was undone), not given an undo of that
player's move; the game stays as it was. Before, /undo took no 'expect' (a 400), and its page sent none. POST /redo
takes it the same way (below)."""

from __future__ import annotations

from agon.core.service import Service
from agon.events.store import Store
from tests.test_server_api import acted, acting, bearer, new_duel
from tests.test_server_api import client as _client

client = _client

NOTHING = "; nothing was undone: look at the game as it stands and undo again if you still want to"


def moved_after_the_host_looked(client) -> tuple[dict, dict, dict]:
    """A duel where the host looked at the game (``seen``) after one decision, and then the other player decided:
    (the game's links, what the host saw, the game as it stands)."""
    g = new_duel(client)
    gid = g["game"]
    acted(client, g)
    seen = client.get(f"/api/games/{gid}", headers=bearer(g["host"]["token"])).json()
    assert seen["may_undo"] is True
    acted(client, g)
    now = client.get(f"/api/games/{gid}").json()
    assert now["event"] > seen["event"]
    return g, seen, now


def test_the_hosts_undo_of_a_position_the_game_moved_from_is_a_409_and_undoes_nothing(client):
    g, seen, now = moved_after_the_host_looked(client)
    gid = g["game"]
    host = bearer(g["host"]["token"])
    log = client.get(f"/api/games/{gid}/log", headers=host).json()
    r = client.post(f"/api/games/{gid}/undo", json={"expect": seen["position"]}, headers=host)
    assert r.status_code == 409, r.text
    assert r.json()["error"] == (f"the line has moved since position {seen['position']}: it is now at"
                                 f" {now['position']} ({now['status']})" + NOTHING)
    r = client.post(f"/api/games/{gid}/undo", json={"expect": seen["event"]}, headers=host)
    assert r.status_code == 409, r.text
    assert r.json()["error"] == (f"the game moved on since event #{seen['event']} (it is at #{now['event']})"
                                 + NOTHING)
    # the same from a page: the same sentence (what to look at again is the game, on every face)
    r = client.post(f"/api/games/{gid}/undo", json={"expect": seen["position"], "steps": 2},
                    headers={**host, "Agon-Face": "page"})
    assert r.status_code == 409 and r.json()["error"].endswith(NOTHING), r.text
    assert client.get(f"/api/games/{gid}").json() == now
    assert client.get(f"/api/games/{gid}/log", headers=host).json() == log
    # at the position the game stands at, the undo is done, by position or by event number
    r = client.post(f"/api/games/{gid}/undo", json={"expect": now["position"]}, headers=host)
    assert r.status_code == 200 and r.json()["undone"] >= 1 and r.json()["event"] < now["event"], r.text
    back = r.json()
    r = client.post(f"/api/games/{gid}/undo", json={"expect": back["event"]}, headers=host)
    assert r.status_code == 200 and r.json()["event"] < back["event"], r.text


def test_an_undo_expecting_a_position_taken_back_since_says_so(client):
    g, seen, now = moved_after_the_host_looked(client)
    gid = g["game"]
    host = bearer(g["host"]["token"])
    assert client.post(f"/api/games/{gid}/undo", json={}, headers=host).status_code == 200
    back = client.get(f"/api/games/{gid}").json()
    for expect, said in ((now["position"], f"the line was taken back (an undo) since position {now['position']}:"
                                           f" it is now at {back['position']} ("),
                         (now["event"], f"the game was taken back (an undo) since event #{now['event']} (it is at"
                                        f" #{back['event']})")):
        r = client.post(f"/api/games/{gid}/undo", json={"expect": expect}, headers=host)
        assert r.status_code == 409 and r.json()["error"].startswith(said) and r.json()["error"].endswith(NOTHING), (
            r.text)
    assert client.get(f"/api/games/{gid}").json() == back
    # a number past any event the line reached is not told as taken back: the line never stood there
    far = now["event"] + 5
    r = client.post(f"/api/games/{gid}/undo", json={"expect": far}, headers=host)
    assert r.status_code == 409 and r.json()["error"].startswith(
        f"the game has not stood at event #{far} (it is at #{back['event']})"), r.text
    assert client.get(f"/api/games/{gid}").json() == back


def test_a_players_undo_of_a_position_the_game_moved_from_is_a_409_before_the_undo_policy(client):
    """The player saw their own decision as the last one; the other player's move that landed since is the news
    (the policy's 403, 'someone acted since', would say only that they may not)."""
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    seen = client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(tok)).json()
    other, other_tok = acting(client, g)
    assert other != who
    assert client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(other_tok)).status_code == 200
    now = client.get(f"/api/games/{gid}").json()
    r = client.post(f"/api/games/{gid}/undo", json={"expect": seen["position"]}, headers=bearer(tok))
    assert r.status_code == 409 and r.json()["error"].startswith(
        f"the line has moved since position {seen['position']}: it is now at {now['position']}"), r.text
    assert client.get(f"/api/games/{gid}").json() == now


def test_an_undos_expect_is_held_to_what_act_takes(client):
    g = new_duel(client)
    gid = g["game"]
    host = bearer(g["host"]["token"])
    acted(client, g)
    now = client.get(f"/api/games/{gid}").json()
    for expect, says in (("nowhere", "'nowhere' is not a position"),
                         (-1, "'expect' must be a whole number from 0 to 2147483647, not -1"),
                         (None, "leave the field out"), (True, "'expect' must be a string or a whole number")):
        r = client.post(f"/api/games/{gid}/undo", json={"expect": expect}, headers=host)
        assert r.status_code == 400 and says in r.json()["error"], (expect, r.text)
    assert client.get(f"/api/games/{gid}").json() == now
    body = client.get("/openapi.json").json()["paths"]["/api/games/{game}/undo"]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"steps", "branch", "expect"} and schema["required"] == []
    assert schema["properties"]["expect"]["anyOf"] == [{"type": "string"},
                                                  {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}]


# POST /redo takes 'expect' as /undo does: a host who undid twice, and whose redo click another redo (their other
# page, another device) overtook, is refused, not given back the second undo's steps they never saw taken back again.
# Before, /redo took no 'expect' (a 400), and the click redid whatever was undone next.

NOTHING_REDONE = "; nothing was redone: look at the game as it stands and redo again if you still want to"


def undone_twice_then_redone_elsewhere(client) -> tuple[dict, dict, dict]:
    """A duel of four decisions whose host undid two of them and looked (``seen``), and then redid one elsewhere:
    (the game's links, what the host saw, the game as it stands)."""
    g = new_duel(client)
    gid = g["game"]
    host = bearer(g["host"]["token"])
    for _ in range(4):
        acted(client, g)
    for _ in range(2):
        assert client.post(f"/api/games/{gid}/undo", json={}, headers=host).status_code == 200
    seen = client.get(f"/api/games/{gid}", headers=host).json()
    r = client.post(f"/api/games/{gid}/redo", json={"expect": seen["position"]}, headers=host)  # the other page's
    assert r.status_code == 200 and r.json()["redone"] >= 1, r.text
    now = client.get(f"/api/games/{gid}").json()
    assert now["event"] > seen["event"]
    return g, seen, now


def test_a_redo_of_a_position_another_redo_moved_on_from_is_a_409_and_redoes_nothing(client):
    g, seen, now = undone_twice_then_redone_elsewhere(client)
    gid = g["game"]
    host = bearer(g["host"]["token"])
    log = client.get(f"/api/games/{gid}/log", headers=host).json()
    r = client.post(f"/api/games/{gid}/redo", json={"expect": seen["position"]}, headers=host)
    assert r.status_code == 409, r.text
    assert r.json()["error"] == (f"the line was put forward again (a redo) since position {seen['position']}: it is"
                                 f" now at {now['position']} ({now['status']})" + NOTHING_REDONE)
    r = client.post(f"/api/games/{gid}/redo", json={"expect": seen["event"]}, headers=host)
    assert r.status_code == 409, r.text
    assert r.json()["error"] == (f"the game moved on since event #{seen['event']} (it is at #{now['event']})"
                                 + NOTHING_REDONE)
    r = client.post(f"/api/games/{gid}/redo", json={"expect": seen["position"]}, headers={**host, "Agon-Face": "page"})
    assert r.status_code == 409 and r.json()["error"].endswith(NOTHING_REDONE), r.text
    assert client.get(f"/api/games/{gid}").json() == now
    assert client.get(f"/api/games/{gid}/log", headers=host).json() == log
    # at the position the game stands at, the redo is done, by position or by event number
    r = client.post(f"/api/games/{gid}/redo", json={"expect": now["position"]}, headers=host)
    assert r.status_code == 200 and r.json()["redone"] >= 1 and r.json()["event"] > now["event"], r.text
    assert client.post(f"/api/games/{gid}/undo", json={}, headers=host).status_code == 200
    r = client.post(f"/api/games/{gid}/redo", json={"expect": now["event"]}, headers=host)
    assert r.status_code == 200 and r.json()["event"] > now["event"], r.text


def test_a_redo_whose_line_another_redo_moved_between_its_check_and_its_write_is_a_409(client, monkeypatch):
    """The position checked is the head the redo moves from (the store's compare-and-swap): another worker's redo
    landing just after the check is a lost race, not a redo of the next undo."""
    g = new_duel(client)
    gid = g["game"]
    host = bearer(g["host"]["token"])
    for _ in range(4):
        acted(client, g)
    for _ in range(2):
        assert client.post(f"/api/games/{gid}/undo", json={}, headers=host).status_code == 200
    seen = client.get(f"/api/games/{gid}", headers=host).json()
    svc = client.app.state.service
    other = Service(Store(client.store_url))
    real = svc.check_position

    def check_then_someone_else_redoes(*args, **kwargs):
        real(*args, **kwargs)
        other.redo(gid)
        monkeypatch.setattr(svc, "check_position", real)

    monkeypatch.setattr(svc, "check_position", check_then_someone_else_redoes)
    r = client.post(f"/api/games/{gid}/redo", json={"expect": seen["position"]}, headers=host)
    other.store.close()
    assert r.status_code == 409, r.text
    assert r.json()["error"].startswith(f"branch 'main' of game {gid} moved while this request ran (someone else"), (
        r.text)
    assert "nothing was redone" in r.json()["error"], r.text
    now = client.get(f"/api/games/{gid}").json()
    r = client.post(f"/api/games/{gid}/redo", json={"expect": now["position"]}, headers=host)
    assert r.status_code == 200 and r.json()["redone"] >= 1, r.text  # the second undo, redone only when asked


def test_a_redos_expect_is_held_to_what_act_takes(client):
    g, seen, now = undone_twice_then_redone_elsewhere(client)
    gid = g["game"]
    host = bearer(g["host"]["token"])
    for expect, says in (("nowhere", "'nowhere' is not a position"),
                         (-1, "'expect' must be a whole number from 0 to 2147483647, not -1"),
                         (None, "leave the field out"), (True, "'expect' must be a string or a whole number")):
        r = client.post(f"/api/games/{gid}/redo", json={"expect": expect}, headers=host)
        assert r.status_code == 400 and says in r.json()["error"], (expect, r.text)
    assert client.get(f"/api/games/{gid}").json() == now
    body = client.get("/openapi.json").json()["paths"]["/api/games/{game}/redo"]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"branch", "expect"} and schema["required"] == []
    assert schema["properties"]["expect"]["anyOf"] == [{"type": "string"},
                                                  {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}]

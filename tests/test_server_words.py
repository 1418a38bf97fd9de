"""A refusal over HTTP names what a caller of the API can do (a route, or nothing), never a command of the command
line, which keeps its own words for the same refusals (events/hints.py, core.service.Words)."""

from __future__ import annotations

import json
import re
from dataclasses import asdict

import pytest
import sqlalchemy as sa

from agon.core.service import CLI_WORDS, RaceLost, Service
from agon.events import hints
from agon.events.store import Conflict, Store
from tests.tamper import rewrite
from tests.test_cli_surface import one_line
from tests.test_server_api import acted, acting, bearer, new_duel
from tests.test_server_api import client as _client

client = _client  # the API's test client (a fixture)

COMMAND = re.compile(r"['`]agon |agon [a-z]+ [A-Z]|--[a-z]")
"""What names a command or an option of the command line in a message."""


def refused(r, status: int, *says: str) -> str:
    """The one sentence of a refusal with ``status``, saying ``says`` and naming no command of the command line."""
    assert r.status_code == status, (r.status_code, r.text)
    error = r.json()["error"]
    assert not COMMAND.search(error), error
    for text in says:
        assert text in error, error
    return error


def test_unknown_rulesets_and_games_point_at_the_routes_that_list_them(client):
    refused(client.post("/api/games", json={"ruleset": "nope", "players": ["a", "b"]}), 400,
            "unknown ruleset 'nope'", "(see GET /api/rulesets)")
    refused(client.get("/api/games/abcdef12"), 404, "no game 'abcdef12'", "; GET /api/games lists the games")
    refused(client.get("/api/games/abcdef12/options"), 404, "GET /api/games lists the games")
    ids = set()
    while len({i[0] for i in ids}) == len(ids):  # until two games' ids start alike (at most 17 games)
        ids.add(client.post("/api/games", json={"ruleset": "adamastor", "players": ["P"], "seed": 1}).json()["game"])
    first = next(i[0] for i in ids if sum(j[0] == i[0] for j in ids) > 1)
    refused(client.get(f"/api/games/{first}"), 400, "is ambiguous: it may be", "; type more of it (see GET /api/games)")


def test_a_choice_that_is_no_event_points_at_the_options_events(client):
    g = new_duel(client)
    gid = g["game"]
    who = client.get(f"/api/games/{gid}").json()["pending"]["player"]
    tok = g["seats"][who]["token"]
    shape = f"each option of GET /api/games/{gid}/options carries its event as JSON"
    refused(client.post(f"/api/games/{gid}/act", json={"choice": {"type": "nothing-of-this-game"}},
                        headers=bearer(tok)), 400, "not an event of pergamemnon", shape)
    deep = '{"a":' * 5000 + "1" + "}" * 5000
    refused(client.post(f"/api/games/{gid}/act", json={"choice": deep}, headers=bearer(tok)), 400,
            "nested too deeply", shape)
    for choice in ("seed", "zzz", "999", "{"):
        refused(client.post(f"/api/games/{gid}/act", json={"choice": choice}, headers=bearer(tok)), 400,
                f"GET /api/games/{gid}/options")


def test_a_damaged_game_is_refused_without_a_command_to_run(client):
    g = new_duel(client)
    gid = g["game"]
    eng = sa.create_engine(client.store_url)
    with eng.begin() as c:
        c.execute(sa.text("update event set payload = :p where game_id = :g and depth = 1"), {"p": b"{}", "g": gid})
    eng.dispose()
    client.app.state.lines.items.clear()  # what a worker started after the damage reads
    said = refused(client.get(f"/api/games/{gid}"), 400, f"game {gid} is damaged", "changed after it was recorded")
    assert said.endswith("changed after it was recorded")  # no step left dangling where the CLI names one
    refused(client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(g["host"]["token"])), 400,
            "is damaged")
    row = next(x for x in client.get("/api/games").json() if x["game"] == gid)
    assert row["status"].startswith("unreadable: game") and not COMMAND.search(row["status"])
    # the command line still names its command for the same damage
    svc = Service(Store(client.store_url))
    try:
        svc.load(gid)
    except Exception as e:  # noqa: BLE001
        assert str(e).endswith(f"; `agon verify {gid}` lists what is broken"), str(e)
    else:
        raise AssertionError("a damaged game was read")
    finally:
        svc.store.close()


def test_an_import_of_an_unknown_ruleset_points_at_the_rulesets_route(client):
    g = new_duel(client)
    data = client.get(f"/api/games/{g['game']}/export", headers=bearer(g["host"]["token"])).content
    r = client.post("/api/import", content=rewrite(data, lambda evs: evs[0]["payload"].update(ruleset="nowhere")))
    refused(r, 400, "cannot import: ", "(see GET /api/rulesets); nothing was imported")
    r = client.post("/api/import", content=rewrite(data, lambda evs: evs[0]["payload"].update(options={"zz": 1})))
    refused(r, 400, "its setup is not one agon creates a game with: pergamemnon has no option 'zz'")


def test_the_command_lines_words_are_the_ones_every_hint_names_by_default():
    assert asdict(CLI_WORDS) == hints.CLI
    e = hints.Hinted("no game 'x' in this store", "; {games} lists the games")
    assert str(e) == "no game 'x' in this store; `agon games` lists the games"
    assert CLI_WORDS.told(e) == str(e)
    moved = hints.again(hints.Hinted("game g1 is damaged", "{verify}", game="g1"), hints.Hinted, "cannot: ", "; stop")
    assert str(moved) == "cannot: game g1 is damaged; `agon verify g1` lists what is broken; stop"
    assert moved.told({**hints.CLI, "verify": ""}) == "cannot: game g1 is damaged; stop"


def test_the_command_line_names_its_commands_with_the_db_it_was_given(agon, tmp_path):
    db = str(tmp_path / "club.db")
    one_line(agon("--db", db, "new", "nope", "--player", "a", ok=False), 1,
             "unknown ruleset 'nope'; known rulesets: adamastor,", f"(see `agon --db {db} rulesets`)")
    agon("--db", db, "new", "toy", "--player", "a", "--bot", "b:random")  # the refusal above made no store
    one_line(agon("--db", db, "log", "abc", ok=False), 1, f"no game 'abc' in this store; `agon --db {db} games`")


def test_an_undo_of_no_steps_names_the_field_not_an_option(client):
    g = new_duel(client)
    for steps in (0, -1):
        refused(client.post(f"/api/games/{g['game']}/undo", json={"steps": steps}, headers=bearer(g["host"]["token"])),
                400, f"'steps' must be a whole number from 1 to 2147483647, not {steps}")


def test_a_wrong_number_of_seats_names_the_fields_over_http_and_the_options_at_the_command_line(client, agon):
    refused(client.post("/api/games", json={"ruleset": "toy", "players": ["a"]}), 400,
            "toy is played by 2 to 4 players, not 1; give 2 to 4 seats in 'players' and 'bots'")
    one_line(agon("new", "toy", "--player", "a", ok=False), 1,
             "toy is played by 2 to 4 players, not 1; give 2 to 4 seats, each as --player NAME or --bot NAME:KIND")


@pytest.mark.parametrize(("ruleset", "seats", "reason"), [
    ("perikles", 0, "it is played by 3 to 5 players, not 0; give 3 to 5 seats"),
    ("peloponnes", 0, "it is played by 2 to 5 players, not 0; give 2 to 5 seats"),
    ("peloponnes", 1, "the rule text has no rules for a single player; give 2 to 5 seats"),
    ("adamastor", 3, "it is played by 1 player or 2 co-operating players, not 3; give 1 or 2 seats"),
])
def test_a_shipped_rulesets_own_reason_for_a_seat_count_still_says_how_to_give_the_seats(client, agon, ruleset,
                                                                                      seats, reason):
    """A new user's first `agon new perikles` names no seat: the ruleset's reason, then what to type."""
    names = [f"p{i}" for i in range(seats)]
    refused(client.post("/api/games", json={"ruleset": ruleset, "players": names}), 400,
            f"cannot set up {ruleset}: ", reason + " in 'players' and 'bots'")
    one_line(agon("new", ruleset, *(a for n in names for a in ("--player", n)), ok=False), 1,
             f"cannot set up {ruleset}: ", reason + ", each as --player NAME or --bot NAME:KIND")


def test_a_seeded_games_chance_sent_as_an_event_names_no_command(client):
    """A line of a seeded game waiting for chance (a branch the club's owner made at the command line, at an event
    followed by a draw): the host's outcome sent as an event, not the seed's, is refused without a command to run."""
    from agon.core.engine import Chance

    g = new_duel(client)
    gid, host = g["game"], bearer(g["host"]["token"])
    svc = client.app.state.service
    line = svc.load(gid)
    state, at = line.first_state, 0
    for event in line.events[1:]:
        if isinstance(line.ruleset.pending(state), Chance):
            break
        state, at = line.ruleset.apply(state, event), at + 1
    svc.branch(gid, "drawn", at)  # `agon branch GAME drawn --at N` on the store the server serves, which draws
    svc.undo(gid, branch="drawn", to=at)  # the chance due there; `agon undo GAME --to N` takes it back
    client.app.state.lines.items.clear()
    assert client.get(f"/api/games/{gid}").json()["pending"]["entered_by"] == "seed"
    drawn = line.codec.to_obj(event)
    other = {**drawn, "nations": list(reversed(drawn["nations"]))}
    refused(client.post(f"/api/games/{gid}/act", json={"choice": other}, headers=host), 400,
            "this game draws every chance outcome from its seed", "type 'seed'", '"table": true (POST /api/games)')
    assert client.post(f"/api/games/{gid}/act", json={"choice": "seed"}, headers=host).status_code == 200


def test_a_server_on_a_read_only_store_refuses_every_request_that_records_first_naming_no_command_or_path(tmp_path):
    """A club's archive served read-only (a SQLite file opened with mode=ro): each request that would record is
    refused as read-only before anything else is judged (a seat's undo the policy would refuse too, an import of a
    game already there), in the API's words: no command of the command line, no path of the store; nothing changes,
    and the games are still read."""
    from tests.servers import app_client

    path = tmp_path / "archive.db"
    with app_client(f"sqlite:///{path}", poll=0.05) as c:
        g = new_duel(c)
        gid, host = g["game"], bearer(g["host"]["token"])
        who = c.get(f"/api/games/{gid}").json()["pending"]["player"]
        assert c.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(g["seats"][who]["token"])).is_success
        assert c.get(f"/api/games/{gid}", headers=host).json()["may_undo"] is True  # something was entered
        exported = c.get(f"/api/games/{gid}/export", headers=host).content
    before = path.read_bytes()

    with app_client(f"sqlite:///{path}?mode=ro", poll=0.05) as c:
        state = c.get(f"/api/games/{gid}").json()
        seat = {p: bearer(g["seats"][p]["token"]) for p in g["seats"]}
        acting, other = state["pending"]["player"], who  # who decided last
        # the store would refuse any undo: no page offers one, the host's included
        assert [c.get(f"/api/games/{gid}", headers=h).json()["may_undo"] for h in (*seat.values(), host)] == [False] * 3
        asked = [("/act", {"choice": 1}, seat[acting]), ("/act", {"choice": 99}, seat[acting]),
                 ("/undo", {}, seat[other]), ("/undo", {}, seat[acting]), ("/undo", {"steps": 2}, host),
                 ("/redo", {}, host), ("/branch", {"name": "x"}, host), ("/switch", {"name": "main"}, host)]
        said = [c.post(f"/api/games/{gid}{route}", json=body, headers=h) for route, body, h in asked]
        said += [c.post("/api/games", json={"ruleset": "pergamemnon", "players": ["A", "B"]}),
                 c.post("/api/import", content=exported)]
        for r in said:
            error = refused(r, 503, "is read-only", "nothing was recorded: the games of this server may be read, not"
                            " played on")
            assert str(tmp_path) not in error and "archive" not in error, error
        assert c.get(f"/api/games/{gid}").json()["event"] == state["event"]
    assert path.read_bytes() == before


PAGE = {"Agon-Face": "page"}
"""What a seat's page sends with each request (server/pages.py ``call``)."""

ROUTE = re.compile(r"\b(GET|POST) /|/api/")


def on_page(r, status: int, *says: str) -> str:
    """A refusal a person at a seat's page reads: naming neither a command nor a route of the API."""
    error = refused(r, status, *says)
    assert not ROUTE.search(error), error
    return error


def test_a_seat_page_is_refused_in_the_pages_words_and_a_caller_of_the_api_in_the_apis(client):
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    seen = client.get(f"/api/games/{gid}/options", headers=bearer(tok)).json()["position"]
    on_page(client.post(f"/api/games/{gid}/act", json={"choice": "999"}, headers={**bearer(tok), **PAGE}), 400,
            "choice 999 is out of range: choose 1 to", "(your page lists them)")
    refused(client.post(f"/api/games/{gid}/act", json={"choice": "999"}, headers=bearer(tok)), 400,
            f"(GET /api/games/{gid}/options lists them)")
    on_page(client.get("/api/games/abcdef12", headers=PAGE), 404,
            "no game 'abcdef12' in this store; the lobby lists the games")
    assert client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(tok)).status_code == 200
    # a click on an option drawn before the line moved: what to do is on the page, which shows the game anew
    who, tok = acting(client, g)
    said = on_page(client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": seen},
                               headers={**bearer(tok), **PAGE}), 409, f"the line has moved since position {seen}")
    assert said.endswith("nothing was recorded: your page now shows the game as it stands; choose again from what"
                         " it offers"), said
    said = refused(client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": seen}, headers=bearer(tok)), 409)
    assert said.endswith(f"look at GET /api/games/{gid}/options again and choose anew"), said
    # a header naming no face this server knows is a caller of the API
    refused(client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": seen},
                        headers={**bearer(tok), "Agon-Face": "robot"}), 409, "GET /api/games/")


def test_an_undo_since_the_options_were_read_is_told_as_one_on_every_face(client):
    g = new_duel(client)
    gid = g["game"]
    host = bearer(g["host"]["token"])
    acted(client, g)
    who, tok = acting(client, g)
    seen = client.get(f"/api/games/{gid}/options", headers=bearer(tok)).json()
    assert client.post(f"/api/games/{gid}/undo", json={}, headers=host).status_code == 200
    back = client.get(f"/api/games/{gid}").json()["position"]
    for face in ({}, PAGE):
        said = refused(client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": seen["position"]},
                                   headers={**bearer(tok), **face}), 409)
        assert said.startswith(f"the line was taken back (an undo) since position {seen['position']}: it is now at"
                               f" {back} ("), said
        said = refused(client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": seen["event"]},
                                   headers={**bearer(tok), **face}), 409)
        assert said.startswith(f"the game was taken back (an undo) since event #{seen['event']} (it is at #"), said
        assert ("your page now shows the game" in said) == bool(face), said
    assert client.post(f"/api/games/{gid}/redo", json={}, headers=host).status_code == 200
    said = on_page(client.post(f"/api/games/{gid}/act", json={"choice": 1, "expect": back},
                               headers={**bearer(tok), **PAGE}), 409)
    assert said.startswith(f"the line was put forward again (a redo) since position {back}"), said


def test_a_finished_game_tells_a_page_of_its_undo_and_the_api_of_its_routes(client):
    g = new_duel(client)
    gid = g["game"]
    for _ in range(400):
        state = client.get(f"/api/games/{gid}").json()
        if state["pending"]["kind"] == "over":
            break
        acted(client, g)
    else:
        raise AssertionError("the game did not end")
    tok = g["seats"]["Ana"]["token"]
    said = on_page(client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers={**bearer(tok), **PAGE}), 409,
                   "the game is over")
    # the page has an undo and no branch control: it names only what the host's page offers
    assert said.endswith("; the host may take the last step back with the undo on their page (a slip), one at a"
                         " time, and play on from there"), said
    assert "branch" not in said, said
    assert client.get(f"/api/games/{gid}", headers=bearer(g["host"]["token"])).json()["may_undo"] is True
    refused(client.post(f"/api/games/{gid}/act", json={"choice": 1}, headers=bearer(tok)), 409,
            "the game is over", "the host may undo the last step (a slip) or branch from an earlier position")


def test_a_players_undo_of_more_than_one_step_is_told_how_on_each_face(client):
    """The undo policy lets a player take back one decision: the API names its field, a page (whose button sends no
    count) its button."""
    g = new_duel(client)
    gid = g["game"]
    tok = g["seats"][acted(client, g)]["token"]
    said = on_page(client.post(f"/api/games/{gid}/undo", json={"steps": 2}, headers={**bearer(tok), **PAGE}), 403)
    assert said == ("a player may take back only their own last decision, one at a time, with the undo on their"
                    " page; the host may undo more"), said
    assert "steps" not in said
    said = refused(client.post(f"/api/games/{gid}/undo", json={"steps": 2}, headers=bearer(tok)), 403)
    assert said == ('a player may take back only their own last decision ("steps": 1, or no "steps" at all); the'
                    " host may undo more"), said


def test_an_undo_overtaken_by_another_move_names_the_faces_try(client):
    """An undo whose line moved between reading it and taking the step back is told as the try it was: a command at
    the command line, a request to the API, an action on a page."""
    from agon.server.api import HTTP_WORDS, PAGE_WORDS

    g = new_duel(client)
    gid = g["game"]
    acted(client, g)
    svc = Service(Store(client.store_url))
    try:
        read = svc.load(gid).head.id
        svc.undo(gid)  # someone else's undo first
        with pytest.raises(RaceLost) as lost:
            svc.undo(gid, expect_head=read)
    finally:
        svc.store.close()
    tail = " ran (someone else took a step back (an undo)); nothing was undone: look at the game again and retry"
    assert str(lost.value).endswith(" moved while this command" + tail), str(lost.value)
    assert HTTP_WORDS.told(lost.value).endswith(" moved while this request" + tail)
    assert PAGE_WORDS.told(lost.value).endswith(" moved while this action" + tail)
    # lost at the store's compare-and-swap itself: the same steps, nothing undone (no option to choose again)
    store = Store(client.store_url)
    try:
        head = store.branch(gid, "main").head_id
        with pytest.raises(Conflict) as lost:
            store.move_head(gid, "main", read, head, "undo")
    finally:
        store.close()
    said = PAGE_WORDS.told(lost.value)
    assert said.endswith(" moved while this action ran (someone else recorded, took back or redid an event first);"
                         " nothing was undone: look at the game again and retry"), said


def test_a_pages_event_stream_says_so_in_its_query_and_is_told_in_the_pages_words(client, monkeypatch):
    """A browser's EventSource sends no header of its own: a page adds ?face=page to its stream's address (and only
    there), and the stream's refusals, at its start or in its 'error' messages, name what the page offers."""
    from agon.events.store import unavailable
    from agon.server import pages

    assert "/events?face=page" in pages.WATCH_SCRIPT and '"?face=page"' in pages.SCRIPT
    on_page(client.get("/api/games/abcdef12/events?face=page&wait=0"), 404,
            "no game 'abcdef12' in this store; the lobby lists the games")
    refused(client.get("/api/games/abcdef12/events?wait=0"), 404, "; GET /api/games lists the games")
    refused(client.get("/api/games/abcdef12/events?face=robot&wait=0"), 400, "face", "page")
    # the store away for a moment while the stream reads: its 'error' message says what to retry
    g = new_duel(client)
    busy = sa.exc.OperationalError("select", {}, Exception("database is locked"))

    async def away(game_id, branch):
        raise unavailable(busy, client.store_url)

    monkeypatch.setattr(client.app.state.feed, "line", away)
    for query, says in (("&face=page", "retry the action when it is done"), ("", "retry the request when it is done")):
        text = client.get(f"/api/games/{g['game']}/events?wait=0{query}").text
        error = next(json.loads(line[6:])["error"] for line in text.splitlines()
                     if line.startswith("data: ") and '"error"' in line)
        assert error.startswith("the store is busy") and error.endswith(says), error
        assert client.store_url not in error


def test_a_pages_event_stream_asked_with_a_bad_query_is_refused_in_the_pages_words(client):
    """The seat's and the spectators' pages follow the game through /events?face=page: a 'since' the page never
    sends (an address edited by hand) was refused in the API's words, ending '(see /openapi.json)'; a page's person
    is told what the page offers (reload it), with no route; a program calling the API is still shown its document."""
    gid = new_duel(client)["game"]
    for query, says in (("since=abc", "'since' must be a whole number from 0 to 2,147,483,647 in plain digits, not"
                                      " 'abc'"),
                        ("since=-5", "'since' must be a whole number from 0 to 2,147,483,647, not '-5'"),
                        ("since=1&since=2", "the query gives 'since' more than once"),
                        ("sinse=3", "the page's event stream has no parameter 'sinse' (did you mean 'since'?)")):
        for url in (f"/api/games/{gid}/events?face=page&wait=0&{query}", f"/api/games/{gid}/events?{query}&face=page"):
            said = on_page(client.get(url), 400, says)
            assert said.endswith("; reload the page to follow the game again") and "openapi" not in said, said
        refused(client.get(f"/api/games/{gid}/events?wait=0&{query}"), 400, "(see /openapi.json)")
    said = on_page(client.request("GET", f"/api/games/{gid}/events?face=page&wait=0", content=b'{"since": 3}'), 400,
                   "the page's event stream takes no body; reload the page")
    refused(client.request("GET", f"/api/games/{gid}/events?wait=0", content=b'{"since": 3}'), 400,
            f"GET /api/games/{gid}/events takes no body")


def test_a_pages_event_stream_sent_a_bad_last_event_id_is_refused_in_the_pages_words(client):
    """A malformed Last-Event-ID on a page's stream (a browser sends back the ids the stream gave; another value is a
    hand-made request or a proxy's) was told in the API's words, as a bad 'since' once was: a page's person is told
    to reload the page, with no route and no id format to type; a program calling the API still reads the format."""
    gid = new_duel(client)["game"]
    for last in ("x", "12.zz", "99999999999999"):
        said = on_page(client.get(f"/api/games/{gid}/events?face=page&wait=0", headers={"Last-Event-ID": last}), 400,
                       f"the page's event stream was sent a Last-Event-ID it never gave ({last!r})")
        assert said.endswith("; reload the page to follow the game again") and "such as" not in said, said
        refused(client.get(f"/api/games/{gid}/events?wait=0", headers={"Last-Event-ID": last}), 400,
                "the Last-Event-ID header must be an event's id as the stream gave it (such as 12.a1b2c3d4)")


def test_the_lobbys_form_is_refused_in_the_pages_words(client):
    """The lobby creates a game with the API's POST, saying it is a page: a refusal names the form's boxes, not the
    body's fields nor the API's document."""
    one = {"ruleset": "pergamemnon", "players": ["Ana"], "bots": [], "title": "", "table": False}
    on_page(client.post("/api/games", json=one, headers=PAGE), 400, "give 2 to 5 seats in the lobby's form")
    refused(client.post("/api/games", json=one), 400, "in 'players' and 'bots'")
    words = {**one, "players": ["Ana", "Bo"], "seed": "seven"}
    said = on_page(client.post("/api/games", json=words, headers=PAGE), 400,
                   "'seed' must be a whole number, not the string 'seven'")
    assert "openapi" not in said, said
    refused(client.post("/api/games", json=words), 400, "(see /openapi.json)")


def test_names_escaping_a_lone_surrogate_are_refused_with_a_400_naming_them(client):
    """JSON may escape a lone surrogate ('\\ud800'), which Python reads as text that cannot be encoded: an unknown
    option so named was quoted raw in the error, and the answer could not be written (a 500)."""
    headers = {"content-type": "application/json"}
    body = b'{"ruleset":"adamastor","players":["Ana"],"options":{"\\ud800":"x"}}'
    refused(client.post("/api/games", content=body, headers=headers), 400, "adamastor has no option '\\ud800'")
    body = b'{"ruleset":"adamastor","players":["Ana"],"options":{"scenario":"\\ud800"}}'
    refused(client.post("/api/games", content=body, headers=headers), 400,
            "the value of option scenario '\\ud800' holds a control or separator character (U+D800)")
    g = new_duel(client)
    refused(client.get(f"/api/games/{g['game']}/log?branch=%ED%A0%80"), 404, f"game {g['game']} has no branch")


def test_json_cut_short_typed_on_a_seat_page_is_told_as_nothing_the_page_takes(client):
    """A seat page's typed box took '{' (or any JSON cut short) and answered "the choice is not valid JSON": a
    person at the page never meant to type JSON, and the page takes none. The page is told what it was ('{'
    begins nothing it takes) and what to type, as it is of whole JSON that is no event; a caller of the API is still
    told of its JSON."""
    g = new_duel(client)
    gid = g["game"]
    who, tok = acting(client, g)
    for typed in ("{", '{"type": "pergamemnon.', "  {x", "{}", '{"type": "attack"}'):
        said = on_page(client.post(f"/api/games/{gid}/act", json={"choice": typed}, headers={**bearer(tok), **PAGE}),
                       400)
        assert said == ("nothing your page takes begins with '{' (it takes no JSON); choose a decision among those"
                        " your page lists (a decision of many variants is built there a step at a time), or type its"
                        " steps in order, as the buttons name them"), said
        assert "valid JSON" not in said
        refused(client.post(f"/api/games/{gid}/act", json={"choice": typed}, headers=bearer(tok)), 400,
                "not valid JSON (" if typed.count("{") > typed.count("}") else "not an event of pergamemnon",
                f"GET /api/games/{gid}/options")
    assert client.get(f"/api/games/{gid}").json()["pending"]["player"] == who  # nothing was recorded

"""A seat's event stream held open while its link is replaced (`agon links GAME --seat NAME`: the link was lost, or
seen by someone else) tells nothing more of that seat: before, the stream went on telling whoever held the old link
every card the seat drew, for as long as it stayed open (an hour by default), though every request with that link
was refused. It now ends with the refusal at the first change."""

from __future__ import annotations

import json

from agon.core import seats
from agon.core.service import Service
from agon.events.store import Store
from tests.test_server_api import bearer, new_duel
from tests.test_server_api import client as _client

client = _client


def test_a_stream_opened_with_a_replaced_link_tells_nothing_more(client):
    g = new_duel(client)
    gid = g["game"]
    old = {name: seat["token"] for name, seat in g["seats"].items()}
    other = Service(Store(client.store_url))  # the keeper's command line, on the same store
    try:
        told: list[tuple[str, dict]] = []
        with client.stream("GET", f"/api/games/{gid}/events?wait=5", headers=bearer(old["Ana"])) as r:
            lines = r.iter_lines()
            kind = None
            for line in lines:  # the status as the stream opens
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    break
            assert kind == "status"
            seats.issue(other, gid, {"Ana"})  # `agon links GAME --seat Ana`
            for _ in range(4):  # the game goes on: Ana's draws among what follows
                who = other.load(gid).pending.player
                other.act(gid, "1", as_player=who)
            for line in lines:
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    told.append((kind, json.loads(line[6:])))
        assert told == [("error", {"error": "this token opens no seat of this game; use the newest link you were"
                                            " given for it, whole (a link given later replaces the one before; one"
                                            " cut short or mistyped opens nothing)"})]
        # every request with the old link is refused as before; Bo's link, not replaced, still opens his seat
        assert client.get(f"/api/games/{gid}", headers=bearer(old["Ana"])).status_code == 403
        assert client.get(f"/api/games/{gid}/events?wait=0", headers=bearer(old["Ana"])).status_code == 403
        text = client.get(f"/api/games/{gid}/events?wait=0&since=4", headers=bearer(old["Bo"])).text
        assert "event: recorded" in text and "event: error" not in text
    finally:
        other.store.close()


def test_a_stream_opened_with_a_link_replaced_while_the_game_stands_still_ends_at_once(client):
    """The link replaced and nobody moving (the seat's player away from the table, the host giving new links at the
    start of an evening): the stream ended only at the game's next move, and until then the page open on the old
    link showed the seat as if nothing had happened. It now ends with the refusal as the server sees the new link,
    the game standing where it was; the host's link likewise."""
    g = new_duel(client)
    gid = g["game"]
    other = Service(Store(client.store_url))  # the keeper's command line, on the same store
    try:
        stood = other.load(gid).head.id
        for seat, token in (("Ana", g["seats"]["Ana"]["token"]), (seats.HOST, g["host"]["token"])):
            told: list[tuple[str, dict]] = []
            with client.stream("GET", f"/api/games/{gid}/events?wait=20", headers=bearer(token)) as r:
                kind = None
                for line in r.iter_lines():
                    if line.startswith("event: "):
                        kind = line[7:]
                    elif line.startswith("data: "):
                        told.append((kind, json.loads(line[6:])))
                        if kind == "status" and len(told) == 1:  # the stream is open: the link is replaced now
                            seats.issue(other, gid, {seat})  # `agon links GAME --seat ...`
            assert told[1:] == [("error", {"error": "this token opens no seat of this game; use the newest link you"
                                                    " were given for it, whole (a link given later replaces the one"
                                                    " before; one cut short or mistyped opens nothing)"})], seat
        assert other.load(gid).head.id == stood  # nobody moved
    finally:
        other.store.close()

"""What a seat is shown of an event's id over HTTP: never a part of its chain hash (events/envelope.py).

An event's id is sha256 over its parent's id, tag, schema version, actor and payload, with no secret in it. A seat
knows the rules, the encoding and every public event, so it can rebuild the chain event by event; had the server
shown the first 8 hex digits of each id (the positions, the event stream's ids), the seat could hash every
candidate of a hidden event with few possibilities (a hand of coin backs) and keep the one whose digits match. The
server shows a keyed digest of each id instead (core/service.py ``Service.shown``): a key per game, kept in the
store, that no seat holds.
"""

from __future__ import annotations

import itertools
import json

from agon.core import seats
from agon.core.engine import HIDDEN
from agon.core.service import NewGame, Service, judge_new_game, position
from agon.events.envelope import chain_hash
from agon.events.store import Store
from tests.servers import TestClient, app_client

NAMES = ["Ana", "Bo", "Cy"]
SEED = 5
"""The game's seed, given here to the attacker with its salt: a game made before the first event held a salt of
128 secret bits (``GameCreated.salt``), whose seed a seat may search for (31 bits), is served still, and a salt
given (``NewGame.salt``) is as good as none. Everything else the attacker uses is public."""


def _stream_ids(client: TestClient, gid: str, token: str) -> dict[int, str]:
    """Event number -> the stream's id of that event, for every event after the first."""
    text = client.get(f"/api/games/{gid}/events?token={token}&since=0&wait=0").text
    out = {}
    for frame in text.split("\n\n"):
        lines = frame.splitlines()
        if "event: recorded" in lines:
            data = json.loads(next(ln[6:] for ln in lines if ln.startswith("data: ")))
            out[data["n"]] = next(ln[4:] for ln in lines if ln.startswith("id: "))
    return out


def _hidden(obj) -> bool:
    return obj == HIDDEN or (isinstance(obj, dict) and any(map(_hidden, obj.values()))) or (
        isinstance(obj, list) and any(map(_hidden, obj)))


def test_a_seat_cannot_brute_force_a_hidden_draw_from_the_ids_it_is_shown(tmp_path):
    url = f"sqlite:///{tmp_path / 'club.db'}"
    gid = Service(Store(url)).new_game(NewGame("peloponnes", NAMES, seed=SEED, salt=""))
    with app_client(url, poll=0.01) as client:
        bo = seats.issue(client.app.state.service, gid)["Bo"]
        rows = client.get(f"/api/games/{gid}/log?token={bo}").json()["events"]
        ids = _stream_ids(client, gid, bo)
        line = Service(Store(url)).load(gid)
    codec = line.codec
    # Bo's rebuild of the chain: the first event from the public setup and the seed, then each event as Bo reads it
    parent = chain_hash(None, "game.created", 1, rows[0]["actor"],
                        judge_new_game(NewGame("peloponnes", NAMES, seed=SEED, salt="")).payload)
    assert parent == line.envelopes[0].id  # the rebuild is right: Bo holds the whole id of the first event
    target = next(r for r in rows if r["actor"] == "chance" and _hidden(r["event"]))  # Ana's coins, say
    backs = sorted(set(line.ruleset.pending(line.steps()[target["n"]].before).items))  # public: the coin backs
    assert 2 <= len(backs) <= 6
    for row in rows[1 : target["n"]]:
        assert not _hidden(row["event"])
        event = codec.from_obj(row["event"])
        tag = codec.tag_of(event)
        parent = chain_hash(parent, tag, codec.version_of(tag), row["actor"], codec.encode(event))
    assert parent == line.envelopes[target["n"] - 1].id  # every public event rebuilt to the byte
    shown = ids[target["n"]].partition(".")[2]
    seen = target["event"]
    field = next(k for k, v in seen.items() if isinstance(v, list) and HIDDEN in v)
    found = []
    for hand in itertools.product(backs, repeat=len(seen[field])):
        event = codec.from_obj({**seen, field: list(hand)})
        tag = codec.tag_of(event)
        if chain_hash(parent, tag, codec.version_of(tag), "chance", codec.encode(event)).startswith(shown):
            found.append(hand)
    truth = tuple(getattr(line.events[target["n"]], field))
    assert found == [], f"Bo worked out Ana's hidden {field} from the stream's id: {found} (truth {truth})"
    # nor does any id, position or stream id Bo reads begin as the event's chain hash does
    assert all(not ids[n].endswith(line.envelopes[n].id[:8]) for n in ids)


def _last_id_frames(client: TestClient, gid: str, last: str) -> list[str]:
    """The kinds of the messages a stream reconnected with Last-Event-ID ``last`` starts with."""
    text = client.get(f"/api/games/{gid}/events?wait=0", headers={"Last-Event-ID": last}).text
    return [ln[7:] for ln in text.splitlines() if ln.startswith("event: ")]


def test_expect_and_last_event_id_hold_across_an_undo_and_the_same_decision_again(store_url):
    """Two workers over one store (stateless, as ``agon serve --workers``) show the same keyed positions, so an
    ``expect`` or a Last-Event-ID read from one is taken by the other, through an undo and the decision again."""
    with app_client(store_url, poll=0.01) as one, app_client(store_url, poll=0.01) as two:
        made = one.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"], "seed": 7}).json()
        gid, host = made["game"], made["host"]["token"]
        tokens = {p: made["seats"][p]["token"] for p in ("Ana", "Bo")}
        before = one.get(f"/api/games/{gid}").json()
        assert two.get(f"/api/games/{gid}").json()["position"] == before["position"]
        player = before["pending"]["player"]
        acted = two.post(f"/api/games/{gid}/act?token={tokens[player]}",
                         json={"choice": 1, "expect": before["position"]})
        assert acted.status_code == 200, acted.text
        after = acted.json()["position"]
        assert one.get(f"/api/games/{gid}").json()["position"] == after != before["position"]
        assert _last_id_frames(two, gid, after) == ["status"]  # nothing new since
        undone = one.post(f"/api/games/{gid}/undo?token={host}", json={}).json()
        assert undone["position"] == before["position"]
        # the position read before the undo is refused at either worker, said to be taken back
        stale = two.post(f"/api/games/{gid}/act?token={tokens[player]}", json={"choice": 1, "expect": after})
        assert stale.status_code == 409 and "taken back (an undo)" in stale.json()["error"], stale.text
        assert f"it is now at {before['position']} " in stale.json()["error"]
        assert _last_id_frames(one, gid, after) == ["moved", "status"]
        # the same decision again is the same event: the same position, and the stream's id of it holds again
        again = one.post(f"/api/games/{gid}/act?token={tokens[player]}",
                         json={"choice": 1, "expect": before["position"]})
        assert again.status_code == 200 and again.json()["position"] == after
        assert _last_id_frames(two, gid, after) == ["status"]
        # another decision instead: the client that had the undone event is told the line moved
        one.post(f"/api/games/{gid}/undo?token={host}", json={})
        other = two.post(f"/api/games/{gid}/act?token={tokens[player]}",
                         json={"choice": 2, "expect": before["position"]})
        assert other.status_code == 200 and other.json()["position"] != after
        assert _last_id_frames(one, gid, after) == ["moved", "status"]


def test_the_same_events_show_other_positions_in_another_game_or_store(tmp_path):
    """Two games of the same events (the same seed, seats and salt: the same chain hashes), in one store and in
    two: each shows positions of its own, so a game made to match another tells nothing of it."""
    urls = [f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"]
    games = [(url, Service(Store(url)).new_game(NewGame("peloponnes", NAMES, seed=SEED, salt="same")))
             for url in urls]
    heads, positions, streams = set(), set(), set()
    for url, gid in games:
        heads.add(Service(Store(url)).load(gid).head.id)
        with app_client(url, poll=0.01) as client:
            positions.add(client.get(f"/api/games/{gid}").json()["position"])
            streams.add(tuple(_stream_ids(client, gid, seats.issue(client.app.state.service, gid)["Bo"]).values()))
    assert len(heads) == 1 and len(positions) == 3 and len(streams) == 3


def test_a_position_the_command_line_printed_is_compared_as_the_server_shows_it(tmp_path):
    """The command line's position (the id's own first digits: its user holds the store) sent to the server is
    compared with the server's keyed position, so it is refused as a position the line does not stand at."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    svc = Service(Store(url))
    gid = svc.new_game(NewGame("pergamemnon", ["Ana", "Bo"], seed=7))
    plain = position(svc.load(gid))
    with app_client(url, poll=0.01) as client:
        tokens = seats.issue(client.app.state.service, gid)
        state = client.get(f"/api/games/{gid}").json()
        assert state["position"] != plain and state["position"].split(".")[0] == plain.split(".")[0]
        who = state["pending"]["player"]
        refused = client.post(f"/api/games/{gid}/act?token={tokens[who]}", json={"choice": 1, "expect": plain})
        assert refused.status_code == 409, refused.text
        assert f"since position {plain}: it is now at {state['position']} " in refused.json()["error"]


def test_a_read_only_store_without_a_game_key_shows_keyed_positions_and_writes_nothing(tmp_path):
    """An archive served read-only whose game was never shown by a server (no key kept): the worker makes a key of
    its own, which it keeps showing, and the file is left as it was."""
    path = tmp_path / "archive.db"
    svc = Service(Store(f"sqlite:///{path}"))
    gid = svc.new_game(NewGame("pergamemnon", ["Ana", "Bo"], seed=7))
    line = svc.load(gid)
    svc.store.close()
    before = path.read_bytes()
    with app_client(f"sqlite:///{path}?mode=ro", poll=0.01) as client:
        shown = client.get(f"/api/games/{gid}").json()["position"]
        assert shown != position(line) and client.get(f"/api/games/{gid}/options").json()["position"] == shown
        assert _last_id_frames(client, gid, shown) == ["status"]
    assert path.read_bytes() == before


def test_workers_making_a_game_key_at_once_all_show_the_one_kept(store_url):
    """The first look at a game's positions by several workers at once: one key is kept, and each reads that one."""
    import threading

    from agon.events import seats as seats_table

    gid = Service(Store(store_url)).new_game(NewGame("pergamemnon", ["Ana", "Bo"], seed=7))
    stores = [Store(store_url) for _ in range(6)]
    start = threading.Barrier(len(stores))
    keys: list[bytes | None] = [None] * len(stores)

    def look(i: int) -> None:
        start.wait()
        keys[i] = seats_table.position_key(stores[i], gid)

    threads = [threading.Thread(target=look, args=(i,)) for i in range(len(stores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in stores:
        s.close()
    assert keys[0] is not None and len(keys[0]) == 32 and keys.count(keys[0]) == len(keys)

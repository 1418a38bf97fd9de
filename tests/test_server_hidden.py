"""agon serve keeps hidden information on the server: every endpoint, and the event stream, of a game of each
ruleset with hidden information, fetched as each seat, as the host and with no token, names nothing that viewer
may not see (tests/hidden.py's leak finder).

The games are played through the API by people only (each decision sent by the acting seat with its own token),
so every kind of hidden card of the ruleset turns up; at every position every viewer reads everything.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from agon.analysis.study import EVERYONE, states_of
from agon.core import registry
from agon.core.engine import HIDDEN, PUBLIC
from agon.core.service import Service
from agon.events.store import Store
from tests.hidden import hidden_identifiers, leaks, log_leaks, moments
from tests.servers import app_client
from tests.test_hidden_information import _coin_backs, _viewer_data

GAMES = [
    pytest.param("pergamemnon", 2, 5, id="pergamemnon-2p"),
    pytest.param("peloponnes", 3, 4, id="peloponnes-3p"),
    pytest.param("perikles", 3, 4, id="perikles-3p"),
    pytest.param("adamastor", 2, 4, id="adamastor-2p"),
]
DECISIONS = 20
"""Decisions played per game: enough for hands, draws, face-down cards and reveals in every ruleset."""


def _unnamed(body):
    """A response without its ``ruleset`` fields: the ruleset's name is public, and Perikles has a card of that
    name."""
    if isinstance(body, list):
        return [_unnamed(x) for x in body]
    return {k: v for k, v in body.items() if k != "ruleset"} if isinstance(body, dict) else body


def _frames(text: str) -> list[tuple[str, dict]]:
    out = []
    for frame in text.split("\n\n"):
        lines = frame.splitlines()
        kind = next((ln[7:] for ln in lines if ln.startswith("event: ")), None)
        data = next((ln[6:] for ln in lines if ln.startswith("data: ")), None)
        if kind and data:
            out.append((kind, json.loads(data)))
    return out


@pytest.mark.parametrize(("name", "n", "seed"), GAMES)
def test_no_endpoint_shows_a_viewer_what_their_seat_may_not_see(tmp_path, name, n, seed):
    url = f"sqlite:///{tmp_path / 'club.db'}"
    rs = registry.get(name)
    players = [f"P{i + 1}" for i in range(n)]
    rng = random.Random(seed)
    with app_client(url, poll=0.01) as client:
        created = client.post("/api/games", json={"ruleset": name, "players": players, "seed": seed}).json()
        gid = created["game"]
        tokens = {p: created["seats"][p]["token"] for p in players}
        viewers = {**{p: (p, tokens[p]) for p in players}, "host": (PUBLIC, created["host"]["token"]),
                   "nobody": (PUBLIC, None)}
        svc = Service(Store(url))
        checked = hidden_seen = 0
        for _ in range(DECISIONS):
            line = svc.load(gid)
            at = moments(rs, line.events, players)
            last = at[-1]
            for label, (who, token) in viewers.items():
                hidden = last.hidden[who] if who else hidden_identifiers(rs, line.state, PUBLIC)
                told = [m.unnamable[who] for m in at] if who else [m.public for m in at]
                q = f"?token={token}" if token else ""
                for path, extra in (("", {}), ("/options", {}), ("/options", {"brief": "1"}), ("/branches", {}),
                                    ("/steps", {})):
                    params = {**extra, **({"token": token} if token else {})}
                    body = _unnamed(client.get(f"/api/games/{gid}{path}", params=params).json())
                    assert not leaks(body, hidden), (label, path, leaks(body, hidden))
                listing = _unnamed(client.get(f"/api/games{q}").json())
                assert not leaks(listing, hidden), (label, leaks(listing, hidden))
                rows = client.get(f"/api/games/{gid}/log{q}").json()["events"]
                assert rows[0]["event"]["seed"] == HIDDEN, label  # with it every draw could be worked out
                assert not log_leaks(rows, told), (label, log_leaks(rows, told))
                sep = "&" if q else "?"
                frames = _frames(client.get(f"/api/games/{gid}/events{q}{sep}since=0&wait=0").text)
                streamed = [d for k, d in frames if k == "recorded"]
                assert [r["n"] for r in streamed] == list(range(1, len(line.events)))
                assert not log_leaks(streamed, told), (label, log_leaks(streamed, told))
                statuses = [_unnamed(d) for k, d in frames if k != "recorded"]
                assert not leaks(statuses, hidden), (label, leaks(statuses, hidden))
                if label != "host":
                    refused = client.get(f"/api/games/{gid}/export{q}")
                    assert refused.status_code in (401, 403) and not leaks(refused.json(), hidden)
                checked += 1
                if name == "peloponnes":  # it hides no named item, only the backs of coin cards
                    hidden_seen += bool(_coin_backs(rows, who) + _coin_backs(streamed, who))
                else:
                    hidden_seen += bool(hidden)
            pending = client.get(f"/api/games/{gid}").json()["pending"]
            if pending["kind"] != "decision":
                break
            p = pending["player"]
            opts = client.get(f"/api/games/{gid}/options?token={tokens[p]}").json()["options"]
            assert opts, (p, pending)
            choice = rng.choice(opts)["n"]
            reply = client.post(f"/api/games/{gid}/act?token={tokens[p]}", json={"choice": choice})
            assert reply.status_code == 200, reply.text
            after = moments(rs, svc.load(gid).events, players)
            own = [m.unnamable[p] for m in after]
            assert not log_leaks(reply.json()["recorded"], own), (p, log_leaks(reply.json()["recorded"], own))
        # The spectators' study page and the data it follows the game with: the game as every player sees it.
        line = svc.load(gid)
        at = moments(rs, line.events, players)
        page = client.get(f"/games/{gid}/watch")
        assert page.status_code == 200
        newer = client.get(f"/games/{gid}/watch.json").json()
        for data in (_viewer_data(page.text, "study-data"), newer):
            assert data["as"] == PUBLIC and data["perspectives"] == [EVERYONE] and list(data["states"]) == [EVERYONE]
            assert data["chances"] == {} and not any("note" in nd for nd in data["nodes"])
            assert [nd["n"] for nd in data["nodes"]] == list(range(len(line.events)))
            assert not log_leaks(data["nodes"], [m.public for m in at])
            for node, view in zip(data["nodes"], states_of(data, EVERYONE)):
                assert not leaks(view, hidden_identifiers(rs, line.state_at(node["n"]), PUBLIC)), node["n"]
            never_seen = frozenset.intersection(*(hidden_identifiers(rs, line.state_at(k), PUBLIC)
                                                  for k in range(len(line.events))))
            assert not leaks({k: v for k, v in data.items() if k not in ("nodes", "states")}, never_seen)
        # The host's export is the whole game (it is the table's recorder's), and nobody else's.
        export = client.get(f"/api/games/{gid}/export?token={created['host']['token']}")
        assert export.status_code == 200
        svc.store.close()
    assert hidden_seen > checked // 2  # something was hidden from most viewers most of the time


def test_a_damaged_game_in_the_listing_names_no_hidden_card(tmp_path):
    """'agon verify' marks a game whose line breaks a rule; its summary keeps what is broken for the store's keeper:
    the rule as it refuses the player who made the event, which may name what only they see (here a draw from Bo's
    deck that is not in it: "each card must be one of" every card of his deck), and the command to run. The games'
    listing, which anyone may read (the lobby), said all of it; it says the game is damaged, in words for anyone."""
    import msgspec

    from agon.core import chance as chance_mod
    from agon.core.service import NewGame
    from agon.events.envelope import seal
    from agon.events.pergamemnon import CardsDrawn
    from agon.events.store import now

    url = f"sqlite:///{tmp_path / 'club.db'}"
    svc = Service(Store(url))
    gid = svc.new_game(NewGame(ruleset="pergamemnon", players=("Ana", "Bo", "Cy"), seed=4, table=True))
    while True:  # the host types the seed's draws until Bo's first
        line = svc.load(gid)
        p = line.pending
        ev = p.build(chance_mod.draw(p, chance_mod.rng_for(line.created.seed, line.branch.luck, line.chance_count)))
        if isinstance(ev, CardsDrawn) and ev.player == "Bo":
            break
        svc.record(gid, msgspec.json.encode(ev).decode())
    rs, state = line.ruleset, line.state
    deck = [c for c in p.items if c not in ev.cards]
    bad = msgspec.structs.replace(ev, cards=state.players[0].hand[:p.count])  # Ana's cards: a store edited by hand
    head = seal(line.head, line.codec.tag_of(bad), 1, "chance", msgspec.json.encode(bad), now())
    svc.store.append(gid, "main", line.head.id, [head])
    problems = svc.verify(gid)
    assert "breaks a rule" in problems[0] and deck[0] in problems[0]  # the keeper is told all of it
    hidden = frozenset().union(*(hidden_identifiers(rs, state, who) for who in (*line.created.names, PUBLIC)))
    assert set(deck) <= hidden
    with app_client(url, poll=0.01) as client:
        listed = client.get("/api/games").json()
        lobby = client.get("/").text
    svc.store.close()
    assert [g["game"] for g in listed] == [gid]
    status = listed[0]["status"]
    assert status.startswith("damaged: ") and listed[0]["event"] is None
    for said in (status, lobby):
        assert not leaks(said, hidden), leaks(said, hidden)
        assert "agon verify" not in said and "breaks a rule" not in said  # no command, no rule's words to anyone


def _twin(client, svc, alter: str | None) -> dict:
    """A Pergamemnon game at a table (seed 4) to its first decision, the host typing the seed's draws, except that
    ``alter``'s cards are others of the same charisma (who starts is told by charisma: the public flow stays
    the same; only that player may see the difference)."""
    import msgspec

    from agon.core import chance as chance_mod
    from agon.core.engine import Decision
    from agon.events.pergamemnon import CardsDrawn

    g = client.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo", "Cy"], "seed": 4,
                                        "table": True}).json()
    while True:
        line = svc.load(g["game"])
        p = line.pending
        if isinstance(p, Decision):
            return g
        ev = p.build(chance_mod.draw(p, chance_mod.rng_for(line.created.seed, line.branch.luck, line.chance_count)))
        if isinstance(ev, CardsDrawn) and ev.player == alter:
            cards = line.state.table.cards
            rest = [c for c in p.items if c not in ev.cards]
            other = []
            for c in ev.cards:  # another card of the same charisma where the deck has one
                other.append(next((x for x in rest if x not in other and cards[x].charisma == cards[c].charisma
                                   and cards[x].name != cards[c].name), c))
            ev = msgspec.structs.replace(ev, cards=tuple(other))
        r = client.post(f"/api/games/{g['game']}/act", json={"choice": msgspec.json.encode(ev).decode()},
                        headers={"Authorization": f"Bearer {g['host']['token']}"})
        assert r.status_code == 200, r.text


def test_two_games_that_differ_in_one_hand_read_alike_byte_for_byte_to_every_other_seat(tmp_path):
    """The attacker's comparison: two games alike but for the cards Bo drew. Every other seat, the host and a caller
    with no token get the same answers from every route (the state, options, steps, log, branches, the event stream
    and the games' listing), the same to the byte, lengths included, once the game's and events' ids (hashes of
    what differs) are set aside. Bo's own seat tells them apart: the check can fail."""
    import re

    url = f"sqlite:///{tmp_path / 'club.db'}"
    with app_client(url, poll=0.01) as client:
        svc = client.app.state.service
        games = [_twin(client, svc, None), _twin(client, svc, "Bo")]
        assert svc.load(games[0]["game"]).state != svc.load(games[1]["game"]).state

        def read(g: dict, seat: str | None, path: str) -> tuple[int, str]:
            token = g["host"]["token"] if seat == "host" else g["seats"][seat]["token"] if seat else None
            sep = "&" if "?" in path else "?"
            r = client.get(f"/api/games/{g['game']}{path}" + (f"{sep}token={token}" if token else ""))
            return r.status_code, re.sub(r"\b[0-9a-f]{8,64}\b", "ID", r.text.replace(g["game"], "GAME"))

        paths = ("", "/options", "/options?brief=1", "/steps", "/log", "/branches", "/events?since=0&wait=0")
        for seat in ("Ana", "Cy", "host", None):
            for path in paths:
                assert read(games[0], seat, path) == read(games[1], seat, path), (seat, path)
        assert any(read(games[0], "Bo", path) != read(games[1], "Bo", path) for path in paths)
        listed = {row["game"]: {k: v for k, v in row.items() if k not in ("game", "created_at")}
                  for row in client.get("/api/games").json()}
        assert listed[games[0]["game"]] == listed[games[1]["game"]]


def test_two_games_that_differ_in_one_hand_refuse_alike_what_names_the_hidden_cards(tmp_path):
    """The attacker's comparison, by refusals: in two games alike but for Cy's hand, the acting seat (Bo), another
    seat, the host and a caller with no token send decisions, steps and events naming each card that differs (by
    its id and its short name, as text and inside the acting seat's own offered event), and undo, redo and a branch.
    Each is answered the same in both games, to the byte once the ids are set aside: no refusal tells where a
    hidden card is. Cy's own seat reads the games apart (the check can fail)."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    with app_client(url, poll=0.01) as client:
        svc = client.app.state.service
        games = [_twin(client, svc, None), _twin(client, svc, "Cy")]
        hands = [set(svc.load(g["game"]).state.players[2].hand) for g in games]
        differ = sorted(hands[0] ^ hands[1])
        assert differ and svc.load(games[0]["game"]).pending.player == "Bo"

        def ask(g: dict, seat: str | None, method: str, path: str, body: dict | None = None) -> tuple[int, str]:
            token = g["host"]["token"] if seat == "host" else g["seats"][seat]["token"] if seat else None
            r = client.request(method, f"/api/games/{g['game']}{path}", json=body,
                               headers={"Authorization": f"Bearer {token}"} if token else {})
            return r.status_code, re.sub(r"\b[0-9a-f]{8,64}\b", "ID", r.text.replace(g["game"], "GAME"))

        offered = client.get(f"/api/games/{games[0]['game']}/options",
                             headers={"Authorization": f"Bearer {games[0]['seats']['Bo']['token']}"}).json()
        event = offered["options"][0]["event"]
        asked: list[tuple[str, str, dict | None]] = []
        for card in differ:
            for word in (card, card.split(".", 1)[1]):
                asked += [("POST", "/act", {"choice": word}), ("POST", "/act", {"choice": f"1 {word}"}),
                          ("GET", f"/steps?chosen={word}", None)]
                asked += [("POST", "/act", {"choice": {**event, k: word if isinstance(v, str) else [word]}})
                          for k, v in event.items() if k not in ("type", "player") and isinstance(v, str | list)]
        asked += [("POST", "/undo", {}), ("POST", "/redo", {}), ("POST", "/branch", {"name": "x"})]  # the host's last
        for seat in ("Bo", "Ana", None, "host"):
            for method, path, body in asked:
                assert ask(games[0], seat, method, path, body) == ask(games[1], seat, method, path, body), (
                    seat, method, path, body)
        assert any(ask(games[0], "Cy", "GET", path) != ask(games[1], "Cy", "GET", path) for path in ("", "/log"))

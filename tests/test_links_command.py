"""`agon links GAME`: seat links for a game the server did not create, or new ones for a link lost or seen by
someone else. Before, only `POST /api/games` (and an import over HTTP) gave links: a game a club's keeper made with
`agon new` or brought in with `agon import` could be watched on the server and never played, and a player who lost
their link, or whose link was seen by another, could not be given a new one."""

from __future__ import annotations

import json
import re

import pytest

from tests.servers import app_client


@pytest.fixture
def game(agon):
    """A Peloponnes game made on the command line: two people and a bot."""
    out = agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--bot", "Cy:greedy", "--seed", "4").output
    return out.splitlines()[0]


@pytest.fixture
def server(tmp_path):
    with app_client(f"sqlite:///{tmp_path / 'games.db'}", max_body=64 * 1024, poll=0.05) as c:
        yield c


def tokens_of(output: str) -> dict[str, str]:
    """seat -> token, from the lines `agon links` prints (the host's line as 'host')."""
    found = {m[1]: m[2] for m in re.finditer(r"^  (\S+) +\S*/games/\w+/seat#token=(\S+)$", output, re.M)}
    host = re.search(r"^Host \(the table's recorder; keep it\): \S*/games/\w+/seat#token=(\S+)$", output, re.M)
    return {**found, **({"host": host[1]} if host else {})}


def test_a_game_made_on_the_command_line_gets_links_that_open_its_seats(agon, game, server):
    out = agon("links", game, "--base", "http://127.0.0.1:8000/").output
    assert f"http://127.0.0.1:8000/games/{game}/seat#token=" in out
    assert f"Spectators: http://127.0.0.1:8000/games/{game}/watch" in out
    tokens = tokens_of(out)
    assert set(tokens) == {"Ana", "Bo", "host"}  # no link for the bot's seat
    ana = server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {tokens['Ana']}"}).json()
    assert ana["you"] == "Ana" and isinstance(ana["view"]["players"]["Ana"]["hand"], dict)  # her own coin cards
    assert ana["view"]["players"]["Bo"].get("hand") in (None, "hidden")  # and not Bo's
    host = server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {tokens['host']}"}).json()
    assert host["you"] == "host"


def test_a_new_link_for_one_seat_replaces_that_seats_link_alone(agon, game, server):
    first = tokens_of(agon("links", game).output)
    out = agon("links", game, "--seat", "ana").output  # a player's name in any case
    assert "the other seats keep theirs" in out
    again = tokens_of(out)
    assert set(again) == {"Ana"} and again["Ana"] != first["Ana"]
    old = server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {first['Ana']}"})
    assert old.status_code == 403  # the lost (or seen) link no longer opens Ana's seat
    assert server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {again['Ana']}"}).json()["you"] == "Ana"
    bo = server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {first['Bo']}"}).json()
    assert bo["you"] == "Bo"  # Bo's link still opens his seat


def test_links_json_and_refusals(agon, game, server):
    data = json.loads(agon("links", game, "--seat", "host", "--json").output)
    assert data["game"] == game and data["seats"] == {}
    assert data["host"].startswith(f"/games/{game}/seat#token=")
    r = agon("links", game, "--seat", "Cy", ok=False)
    assert r.exit_code == 1
    said = "error: Cy is a bot's seat, which no link opens; give a person's seat (Ana, Bo) or 'host'"
    assert r.stderr.strip() == said
    r = agon("links", game, "--seat", "Zed", ok=False)
    assert r.exit_code == 1 and r.stderr.strip() == "error: no player 'Zed' in this game; its players: Ana, Bo, Cy"
    r = agon("links", game, "--base", "ftp://club", ok=False)
    assert r.exit_code == 2 and "'ftp://club' is no address of a server" in r.stderr
    token = data["host"].split("token=")[1]
    assert server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {token}"}).json()["you"] == "host"


def test_an_import_over_http_of_a_game_with_no_links_says_whom_to_ask(agon, game, server):
    """A game made on the command line has no host's link: the refusal of its file over HTTP said 'its host's link
    opens it', a link nobody had. It now says the game has none yet; once `agon links` gave them, it names the
    host's link again."""
    agon("export", game, "-o", "g.jsonl")
    data = open("g.jsonl", "rb").read()
    r = server.post("/api/import", content=data)
    assert r.status_code == 409
    assert r.json()["error"] == (f"game {game} is already on this server (the same first event); nothing was imported:"
                                 " it has no seat links yet (it was made or imported where the games are kept): ask"
                                 " whoever keeps the games for them")
    agon("links", game)
    r = server.post("/api/import", content=data)
    assert r.status_code == 409 and r.json()["error"].endswith("nothing was imported: its host's link opens it")


def test_a_player_named_host_and_the_hosts_link_are_told_apart(agon, server):
    """Players 'Ana' and 'host': `agon links --json` answered {'Ana': ..., 'host': ...}, the host's link over the
    player's (one of the two links lost), and the text listed 'host' twice. The JSON names the players' links under
    'seats' and the host's under 'host', as POST /api/games does; the text gives the host's on a line of its own."""
    game = agon("new", "peloponnes", "--player", "Ana", "--player", "host", "--seed", "4").output.splitlines()[0]
    data = json.loads(agon("links", game, "--json").output)
    assert set(data["seats"]) == {"Ana", "host"} and data["host"].startswith(f"/games/{game}/seat#token=")
    opened = {who: server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {link.split('token=')[1]}"})
              .json() for who, link in [*data["seats"].items(), ("the host", data["host"])]}
    assert {who: (d["you"], d["host"]) for who, d in opened.items()} == {
        "Ana": ("Ana", False), "host": ("host", False), "the host": ("host", True)}
    out = agon("links", game).output
    player = re.findall(r"^  host +/games/\w+/seat#token=(\S+)$", out, re.M)
    recorder = re.findall(r"^Host \(the table's recorder; keep it\): /games/\w+/seat#token=(\S+)$", out, re.M)
    assert len(player) == 1 and len(recorder) == 1, out
    assert server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {player[0]}"}).json()["host"] is False
    assert server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {recorder[0]}"}).json()["host"] is True


def test_links_seat_host_where_a_player_is_named_host_is_refused_naming_both_spellings(agon, server):
    """`agon links GAME --seat host` in a game with a player named 'host' replaced the host's link, and no spelling
    reached the player's seat alone. Now plain 'host' is refused there, naming ':host' (the host's link, the seat no
    player can be named, as ':' is barred from names) and 'player:host' (the player's); nothing is replaced."""
    game = agon("new", "peloponnes", "--player", "Ana", "--player", "Host", "--seed", "4").output.splitlines()[0]
    first = json.loads(agon("links", game, "--json").output)
    r = agon("links", game, "--seat", "host", ok=False)
    assert r.exit_code == 1
    assert r.stderr.strip() == ("error: 'host' names both the host's link (the table's recorder) and player Host's;"
                                " give --seat :host for the host's or --seat player:Host for Host's")
    for token in [first["host"], *first["seats"].values()]:  # the refusal replaced no link
        assert server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {token.split('token=')[1]}"}
                          ).status_code == 200
    player = json.loads(agon("links", game, "--seat", "player:host", "--json").output)
    assert set(player["seats"]) == {"Host"} and player["host"] is None
    opened = server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer "
                                                       f"{player['seats']['Host'].split('token=')[1]}"}).json()
    assert (opened["you"], opened["host"]) == ("Host", False)
    recorder = json.loads(agon("links", game, "--seat", ":host", "--json").output)
    assert recorder["seats"] == {} and recorder["host"] != first["host"]
    opened = server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer "
                                                       f"{recorder['host'].split('token=')[1]}"}).json()
    assert (opened["you"], opened["host"]) == ("host", True)
    old_host = server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {first['host'].split('token=')[1]}"})
    assert old_host.status_code == 403  # ':host' replaced the host's link, and only it
    ana = first["seats"]["Ana"].split("token=")[1]
    assert server.get(f"/api/games/{game}", headers={"Authorization": f"Bearer {ana}"}).json()["you"] == "Ana"


def test_links_seat_spellings_that_are_never_ambiguous(agon, game, server):
    """':host' always names the host's link, and 'player:NAME' a player's, in a game with no player named host
    too; 'host' keeps naming the host's link there."""
    data = json.loads(agon("links", game, "--seat", ":host", "--seat", "player:ana", "--json").output)
    assert set(data["seats"]) == {"Ana"} and data["host"] is not None
    data = json.loads(agon("links", game, "--seat", "HOST", "--json").output)
    assert data["seats"] == {} and data["host"] is not None
    r = agon("links", game, "--seat", "player:Cy", ok=False)
    assert r.exit_code == 1 and r.stderr.strip().startswith("error: Cy is a bot's seat")

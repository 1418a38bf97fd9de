"""A game's own title names its pages (the spectators' and a seat's of ``agon serve``, and ``agon view``'s study
page), escaped, so two games of one ruleset are told apart in a browser's tabs; a game with no title is named by
its ruleset as before."""

from __future__ import annotations

import json
import re

from tests.test_server_api import client as _client

client = _client  # the API's test client (a fixture)

TITLE = "Friday <night> & co"
SHOWN = "Friday &lt;night&gt; &amp; co"  # as the page's HTML holds it: the title's text, never its markup


def _title_and_heading(page: str) -> tuple[str, str]:
    return re.search(r"<title>(.*?)</title>", page)[1], re.search(r"<h1>(.*?)</h1>", page)[1]


def test_the_spectators_and_a_seats_page_are_named_by_the_games_title(client):
    made = client.post("/api/games", json={"ruleset": "peloponnes", "players": ["Ana", "Bo"], "seed": 1,
                                           "title": TITLE}).json()
    gid = made["game"]
    title, heading = _title_and_heading(client.get(f"/games/{gid}/watch").text)
    assert title == heading == f"{SHOWN} (Peloponnes Card Game): game {gid}, as every player sees it"
    title, heading = _title_and_heading(client.get(f"/games/{gid}/seat").text)
    assert title == f"{SHOWN}, game {gid} - agon" and heading == f"{SHOWN}: game <code>{gid}</code>"
    assert "<night>" not in client.get(f"/games/{gid}/seat").text  # the script reads it as text, too

    plain = client.post("/api/games", json={"ruleset": "peloponnes", "players": ["Ana", "Bo"], "seed": 1}).json()
    title, _ = _title_and_heading(client.get(f"/games/{plain['game']}/watch").text)
    assert title == f"Peloponnes Card Game: game {plain['game']}, as every player sees it"
    title, heading = _title_and_heading(client.get(f"/games/{plain['game']}/seat").text)
    assert title == f"Peloponnes Card Game, game {plain['game']} - agon"


def test_agon_view_names_the_study_page_by_the_games_title(agon, tmp_path):
    gid = json.loads(agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--seed", "1", "--title", TITLE,
                          "--json").stdout)["id"]
    agon("view", gid, "-o", "all.html")
    title, heading = _title_and_heading((tmp_path / "all.html").read_text())
    assert title == heading == f"{SHOWN} (Peloponnes Card Game): game {gid}"
    agon("view", gid, "--as", "Bo", "-o", "bo.html")
    title, _ = _title_and_heading((tmp_path / "bo.html").read_text())
    assert title == f"{SHOWN} (Peloponnes Card Game): game {gid}, as Bo sees it"

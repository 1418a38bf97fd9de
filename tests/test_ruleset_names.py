"""A ruleset is named as a person types it: any case, accents or punctuation, or by its title ('Peloponnes Card
Game'); every game stores the canonical name (core/registry.py), and a file must carry it as agon writes it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from agon.core import registry
from tests.tamper import rewrite
from tests.test_cli_surface import ROOT, one_line
from tests.test_server_api import client as _client

client = _client  # the API's test client (a fixture)


@pytest.mark.parametrize(("typed", "meant"), [
    ("adamastor", "adamastor"), ("Adamastor", "adamastor"), ("PERIKLES", "perikles"), ("Periklês", "perikles"),
    ("Peloponnes", "peloponnes"), ("Peloponnes Card Game", "peloponnes"), ("peloponnes-card-game", "peloponnes"),
    (" pergamemnon ", "pergamemnon"), ("PerGamemnon", "pergamemnon"),
])
def test_a_name_typed_in_any_case_or_spelling_means_its_ruleset(typed, meant):
    assert registry.canonical(typed) == meant
    assert registry.get(typed).name == meant


@pytest.mark.parametrize("typed", ["", "perik", "pergamemnon2", "cardgame"])
def test_a_name_that_means_no_ruleset_is_refused_naming_the_known_ones(typed):
    with pytest.raises(registry.UnknownRuleset, match="known rulesets: adamastor, peloponnes"):
        registry.get(typed)


@pytest.mark.parametrize(("typed", "meant"), [
    ("perikels", "perikles"), ("pergamenon", "pergamemnon"), ("Adamastorr", "adamastor"), ("peloponese", "peloponnes"),
])
def test_a_slip_of_the_keys_is_refused_naming_the_ruleset_it_is_close_to(typed, meant):
    with pytest.raises(registry.UnknownRuleset) as e:
        registry.get(typed)
    assert f"unknown ruleset {typed!r} (did you mean {meant}?); known rulesets: adamastor," in str(e.value)


@pytest.mark.parametrize("typed", ["nope", "perik", "chess", "pelo"])
def test_a_name_close_to_no_ruleset_guesses_none(typed):
    with pytest.raises(registry.UnknownRuleset) as e:
        registry.get(typed)
    assert "did you mean" not in str(e.value)


def test_a_bot_kind_is_read_in_any_case_and_stored_as_listed(agon):
    gid = agon("new", "pergamemnon", "--player", "Ana", "--bot", "Bo:Greedy", "--seed", "1").stdout.split()[0]
    created = json.loads(agon("log", gid, "--full", "--json").stdout)[0]["event"]
    assert created["players"] == [{"name": "Ana", "bot": None}, {"name": "Bo", "bot": "greedy"}]
    one_line(agon("new", "pergamemnon", "--player", "Ana", "--bot", "Bo:smart", ok=False), 1,
             "unknown bot kind 'smart' for pergamemnon; choose one of: greedy, random")


def test_the_command_line_takes_a_ruleset_in_any_case_and_stores_the_canonical_name(agon):
    gid = agon("new", "Adamastor", "--player", "Ana", "--seed", "1").stdout.split()[0]
    agon("new", "PERIKLES", "--bot", "a:random", "--bot", "b:random", "--bot", "c:random", "--seed", "2")
    listed = json.loads(agon("games", "--ruleset", "ADAMASTOR", "--json").stdout)
    assert [(g["id"], g["ruleset"]) for g in listed] == [(gid, "adamastor")]
    assert [g["ruleset"] for g in json.loads(agon("games", "--ruleset", "perikles", "--json").stdout)] == ["perikles"]
    assert json.loads(agon("stats", "PeRiKlEs", "--json").stdout)["ruleset"] == "perikles"
    assert agon("cards", "Peloponnes").stdout == agon("cards", "peloponnes").stdout
    assert agon("schema", "ADAMASTOR").stdout == agon("schema", "adamastor").stdout
    one_line(agon("new", "Adamastorr", "--player", "Ana", ok=False), 1,
             "unknown ruleset 'Adamastorr' (did you mean adamastor?)", "(see `agon rulesets`)")


def test_a_ruleset_named_by_agon_rulesets_is_found_in_any_case(tmp_path):
    env = {**os.environ, "AGON_RULESETS": "TOY=tests.toygame", "AGON_DB": str(tmp_path / "g.db")}

    def run(*args: str) -> str:
        r = subprocess.run([sys.executable, "-m", "agon", *args], capture_output=True, text=True, env=env, cwd=ROOT,
                           timeout=60)
        assert r.returncode == 0, r.stderr
        return r.stdout

    run("new", "Toy", "--player", "ann", "--bot", "bob:random", "--seed", "3")
    assert [g["ruleset"] for g in json.loads(run("games", "--ruleset", "toy", "--json"))] == ["toy"]


def test_the_api_creates_a_game_of_a_ruleset_in_any_case_stored_canonical(client):
    r = client.post("/api/games", json={"ruleset": "Pergamemnon", "players": ["Ana", "Bo"], "seed": 3})
    assert r.status_code == 201, r.text
    assert r.json()["ruleset"] == "pergamemnon"
    assert [g["ruleset"] for g in client.get("/api/games").json()] == ["pergamemnon"]
    r = client.post("/api/games", json={"ruleset": "peloponnes card game", "players": ["Ana", "Bo"]})
    assert r.status_code == 201 and r.json()["ruleset"] == "peloponnes"


def test_a_file_must_name_its_ruleset_as_agon_writes_it(client):
    g = client.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"], "seed": 3}).json()
    data = client.get(f"/api/games/{g['game']}/export", headers={"Authorization": f"Bearer {g['host']['token']}"})
    changed = rewrite(data.content, lambda evs: evs[0]["payload"].update(ruleset="PERGAMEMNON"))
    r = client.post("/api/import", content=changed)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == ("cannot import: the game names ruleset 'PERGAMEMNON', which agon writes as"
                                 " 'pergamemnon'; nothing was imported")

"""A difficulty asked for with the historical scenario is refused, not silently ignored: the historical voyage sails
its own 3 map cards whatever the difficulty (rulebook 9.1). `agon new` and the server's POST /api/games ask the same
service, so both refuse it in the same words, and record nothing. A game recorded with one before still imports,
plays back and verifies: the refusal is of a new game's request, not of the log."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its test client; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from agon.server.app import create_app

RECORDED = Path(__file__).resolve().parent / "fixtures" / "historical-hard.jsonl"

REFUSAL = ("cannot set up adamastor: the historical voyage has its own 3 map cards (rulebook 9.1), so difficulty={0}"
           " cannot apply: leave it out, or choose scenario=variable for a {0} voyage")


@pytest.mark.parametrize(("typed", "said"), [("hard", "hard"), ("Easy", "easy"), ("regular", "regular")])
def test_agon_new_refuses_a_difficulty_with_the_historical_scenario_and_makes_no_store(agon, tmp_path, typed, said):
    r = agon("new", "adamastor", "--player", "Ana", "--option", "scenario=historical", "--option",
             f"difficulty={typed}", ok=False)
    assert r.exit_code == 1
    assert r.stdout == ""
    assert r.stderr == f"error: {REFUSAL.format(said)}\n"
    assert not (tmp_path / "games.db").exists()  # nothing recorded: not even an empty store


def test_a_difficulty_that_is_none_is_refused_naming_the_difficulties_not_as_a_voyage_to_choose(agon):
    r = agon("new", "adamastor", "--player", "Ana", "--option", "scenario=historical", "--option", "difficulty=brutal",
             ok=False)
    assert r.stderr.endswith("difficulty must be easy, regular or hard, not 'brutal'\n")


def test_agon_new_refuses_it_with_games_stored_and_records_nothing(agon):
    agon("new", "adamastor", "--player", "Ana", "--option", "scenario=historical")  # no difficulty: taken
    agon("new", "adamastor", "--player", "Ana", "--option", "difficulty=hard")  # the variable map: taken
    before = json.loads(agon("games", "--json").stdout)
    r = agon("new", "adamastor", "--player", "Ana", "--option", "scenario=Historical", "--option", "difficulty=hard",
             "--json", ok=False)
    assert r.exit_code == 1
    assert json.loads(r.stderr) == {"error": REFUSAL.format("hard")}
    assert json.loads(agon("games", "--json").stdout) == before and len(before) == 2


def test_the_game_creation_endpoint_refuses_it_in_the_same_words_and_records_nothing(store_url):
    app = create_app(store_url, max_body=64 * 1024, poll=0.05)
    try:
        with TestClient(app) as client:
            r = client.post("/api/games", json={"ruleset": "adamastor", "players": ["Ana"],
                                                "options": {"scenario": "historical", "difficulty": "hard"}})
            assert r.status_code == 400
            assert r.json() == {"error": REFUSAL.format("hard")}
            assert client.get("/api/games").json() == []
            r = client.post("/api/games", json={"ruleset": "adamastor", "players": ["Ana"],
                                                "options": {"scenario": "historical"}})
            assert r.status_code == 201, r.text
    finally:
        app.state.service.store.close()


def test_a_game_recorded_with_one_before_still_imports_plays_back_and_verifies(agon):
    gid = agon("import", str(RECORDED)).stdout.split()[0]
    assert "0. Ana sets out on the historical voyage.\n" in agon("log", gid).stdout
    assert "every hash matches and every line replays the same" in agon("verify", gid).stdout

"""A crew's one score told once, as the crew's, on every face: `agon games`, `agon branches` and `agon stats` told an
Adamastor crew's result once (tests/test_stats_crew.py), but the end screens and `agon state` still said 'Scores:
Ana 66.7% of the voyage sailed, Bruno 66.7% of the voyage sailed', the seat page's scores listed Ana and Bruno, the
study page put the one score under each player's name, and the server's games and state gave no `shared_score`
where `agon games --json` gives one. A solo voyage keeps its player's name, and a competitive game each player's."""

from __future__ import annotations

import json

import jsonschema
import pytest

from agon.cli.render import scores_line
from agon.core.engine import Decision, Outcome, Over
from tests.servers import app_client

UNIT = "% of the voyage sailed"
CREW = f"Scores: the crew 66.7{UNIT}"


def _scores_lines(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if ln.startswith("Scores:")]


def _demo(agon, players: str, seed: str) -> str:
    return json.loads(agon("demo", "adamastor", "--players", players, "--seed", seed, "--json").stdout)["id"]


def test_the_end_screens_and_state_tell_a_crews_one_score_once(agon):
    made = agon("demo", "adamastor", "--players", "2", "--seed", "3").stdout
    assert _scores_lines(made) == [CREW], made
    gid = json.loads(agon("games", "--json").stdout)[0]["id"]
    for shown in (agon("state", gid).stdout, agon("options", gid).stdout, agon("play", gid).stdout):
        assert _scores_lines(shown) == [CREW], shown
        assert "Bruno 66.7" not in shown and "Ana 66.7" not in shown, shown
    assert f"The game is over: Ana and Bruno lose in round 10: a tumult breaks out on board\n{CREW}\n" in agon(
        "play", gid).stdout
    # under way too, and as one player sees it
    for viewer in ((), ("--as", "Bruno")):
        assert _scores_lines(agon("state", gid, "--at", "30", *viewer).stdout) == [f"Scores: the crew 40{UNIT}"]


def test_a_solo_voyage_keeps_its_players_name(agon):
    made = agon("demo", "adamastor", "--players", "1", "--seed", "5").stdout
    said = [f"Scores: Ana 53.3{UNIT}"]
    assert _scores_lines(made) == said, made
    gid = json.loads(agon("games", "--json").stdout)[0]["id"]
    for shown in (agon("state", gid).stdout, agon("options", gid).stdout, agon("play", gid).stdout):
        assert _scores_lines(shown) == said, shown
    assert _scores_lines(agon("state", gid, "--at", "30").stdout) == [f"Scores: Ana 26.7{UNIT}"]


def test_equal_scores_of_a_competitive_game_stay_each_players():
    """Only a ruleset whose players win or lose together tells one score for all: equal scores of another (every
    game's start, a tie) are each player's."""
    going_on = Decision("Ana", "sail")
    assert scores_line(going_on, {"Ana": 40.0, "Bruno": 40.0}, UNIT, "adamastor") == f"Scores: the crew 40{UNIT}"
    assert scores_line(going_on, {"Ana": 40.0}, UNIT, "adamastor") == f"Scores: Ana 40{UNIT}"
    assert scores_line(going_on, {"Ana": 0.0, "Bo": 0.0, "Cy": 0.0}, "", "toy") == "Scores: Ana 0, Bo 0, Cy 0"
    over = Over(Outcome(("Ana", "Bo"), {"Ana": 7.0, "Bo": 7.0}, "Ana and Bo tie"))
    assert scores_line(over, {"Ana": 7.0, "Bo": 7.0}, None, "pergamemnon") == "Scores: Ana 7, Bo 7"
    assert scores_line(over, {"Ana": 7.0, "Bo": 7.0}) == "Scores: Ana 7, Bo 7"  # no ruleset named: as before


def _valid(doc: dict, name: str, value: object) -> None:
    schema = {"$ref": f"#/components/schemas/{name}", "components": doc["components"]}
    jsonschema.Draft202012Validator(schema).validate(value)


def test_the_servers_games_and_state_give_the_crews_shared_score_as_agon_games_does(agon, tmp_path):
    crew = _demo(agon, "2", "3")
    solo = _demo(agon, "1", "5")
    other = json.loads(agon("demo", "pergamemnon", "--seed", "4", "--json").stdout)["id"]
    listed = {g["id"]: g for g in json.loads(agon("games", "--json").stdout)}
    assert listed[crew]["shared_score"] == 66.7 and listed[other]["shared_score"] is None
    with app_client(f"sqlite:///{tmp_path / 'games.db'}") as client:
        doc = client.get("/openapi.json").json()
        games = client.get("/api/games").json()
        _valid(doc, "Games", games)
        by_id = {g["game"]: g for g in games}
        assert {gid: by_id[gid]["shared_score"] for gid in by_id} == {
            gid: listed[gid]["shared_score"] for gid in (crew, solo, other)}
        assert {"game", "ruleset", "title", "players", "created_at", "branch", "event", "status", "over"} < set(
            by_id[crew])  # every field kept
        for gid in (crew, solo, other):
            state = client.get(f"/api/games/{gid}").json()
            _valid(doc, "State", state)
            assert state["shared_score"] == listed[gid]["shared_score"], gid
            assert "scores" in state and "view" in state
        at = client.get(f"/api/games/{crew}").json()
        assert at["scores"] == {"Ana": 66.7, "Bruno": 66.7}  # each player's kept, as `agon games --json` keeps it


@pytest.mark.browser
def test_the_seat_page_and_the_study_page_tell_a_crews_one_score_once(agon, page, tmp_path):
    from tests.browser import live_server

    crew = _demo(agon, "2", "3")
    solo = _demo(agon, "1", "5")
    with live_server(f"sqlite:///{tmp_path / 'games.db'}") as (base, _):
        for gid, rows in ((crew, [["The crew", "66.7"]]), (solo, [["Ana", "53.3"]])):
            page.goto(f"{base}/games/{gid}/seat")  # no token: what every player sees
            page.wait_for_function("document.querySelectorAll('#scores tr').length > 0")
            got = page.evaluate("""() => [...document.querySelectorAll('#scores tr')].map(
                tr => [...tr.children].map(c => c.textContent.trim()))""")
            assert got == rows, (gid, got)
    for gid, heads, table in ((crew, ["Ana", "Bruno"], f"The table  the crew 40{UNIT}"),
                              (solo, [f"Ana  score 26.7{UNIT}"], "The table")):
        agon("view", gid, "-o", f"{gid}.html")
        page.goto((tmp_path / f"{gid}.html").as_uri() + "#line=main&step=30")
        page.wait_for_function("document.body && document.body.dataset.ready === '1'")
        page.wait_for_function("document.body.dataset.step === '30'")
        got = page.evaluate("""() => ({table: document.querySelector('#state .middle h3').textContent,
            heads: [...document.querySelectorAll('#state .area h3')].map(h => h.textContent)})""")
        assert got == {"heads": heads, "table": table}, (gid, got)
    assert page.page_errors == []

"""Fuzzing with hypothesis: choices built from every ruleset's event schema (and odd text) given to 'act', and
damaged or rewritten export files given to 'import'. Nothing may escape but the service's own one-line errors:
no traceback, no internal error. Lone surrogates, which the strategies draw rarely, are explicit examples of every
run, and go through 'agon act' and the HTTP API too. scripts/reliability.py runs the same with more examples and
counts them."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings

from agon.core import registry
from agon.core.service import NewGame, Service, ServiceError, codec_for
from agon.core.transfer import export_game, import_data
from agon.events.store import Store
from tests.conftest import shipped_rulesets
from tests.fuzz import choices_of, damaged_files, lone_surrogate_choices, lone_surrogate_files

EXAMPLES = 60


def with_examples(test, values):
    """``test`` (not yet given to ``given``) with each of ``values`` as an explicit example: run on every run, before
    what the strategy draws."""
    for value in values:
        test = example(value)(test)
    return test


def seats_for(name: str) -> NewGame:
    rs = registry.get(name)
    bots = [(f"Bot{i}", "random") for i in range(1, rs.min_players)] if rs.min_players > 1 else []
    return NewGame(name, players=["Ana"], bots=bots, seed=11)


def _store() -> Service:
    folder = Path(tempfile.mkdtemp(prefix="agon-fuzz-"))
    return Service(Store(f"sqlite:///{folder / 'fuzz.db'}"))


@pytest.mark.parametrize("ruleset", ["toy", *shipped_rulesets()])
def test_act_takes_any_choice_without_a_traceback(ruleset):
    svc = _store()
    gid = svc.new_game(seats_for(ruleset))
    types = codec_for(registry.get(ruleset)).types
    outcomes = {"refused": 0, "recorded": 0}

    def act(choice: str) -> None:
        try:
            svc.act(gid, choice)
            outcomes["recorded"] += 1
        except ServiceError as e:
            assert "\n" not in str(e)
            outcomes["refused"] += 1

    lone = lone_surrogate_choices(types[-1].__struct_config__.tag)  # an event of this ruleset's, with one
    settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)(
        given(choices_of(types))(with_examples(act, lone)))()
    assert outcomes["refused"] > 0
    assert svc.verify(gid) == []
    svc.store.close()


@pytest.mark.parametrize("kind", ["whole", "line"])
def test_import_takes_any_damaged_file_without_a_traceback(kind):
    svc = _store()
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=5))
    for _ in range(3):
        svc.act(gid, "1")
    svc.branch(gid, "side", at=2)
    good = export_game(svc, gid) if kind == "whole" else svc.export(gid, "main")
    other = _store()
    counts = {"refused": 0, "imported": 0}

    def imp(data: bytes) -> None:
        try:
            import_data(other, data)
            counts["imported"] += 1
        except ServiceError as e:
            assert "\n" not in str(e)
            counts["refused"] += 1

    settings(max_examples=EXAMPLES * 2, deadline=None, suppress_health_check=list(HealthCheck), database=None)(
        given(damaged_files(good))(with_examples(imp, lone_surrogate_files(good))))()
    assert counts["refused"] > EXAMPLES
    for g in other.games():  # whatever was taken checks
        assert other.verify(g.id) == [], g.id
    svc.store.close()
    other.store.close()


def _toy_tag() -> str:
    return codec_for(registry.get("toy")).types[-1].__struct_config__.tag


@pytest.mark.parametrize("choice", lone_surrogate_choices(_toy_tag()))
def test_a_choice_holding_a_lone_surrogate_is_refused_in_one_line_on_the_command_line(agon, choice):
    """The explicit examples of the fuzzing, through the faces: 'agon act' refuses each in one line, records
    nothing."""
    gid = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.splitlines()[0]
    before = agon("export", gid).stdout
    r = agon("act", gid, choice, ok=False)
    assert r.exit_code == 1 and r.stdout == "", (r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "internal error" not in lines[0], r.stderr
    assert agon("export", gid).stdout == before


@pytest.mark.parametrize("choice", lone_surrogate_choices(_toy_tag()))
def test_a_choice_holding_a_lone_surrogate_is_refused_with_a_400_over_http(tmp_path, choice):
    """... and POST /api/games/{id}/act answers 400 with one sentence (JSON escapes the surrogate in the body)."""
    import warnings

    from agon.server.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    app = create_app(f"sqlite:///{tmp_path / 'http.db'}", max_body=64 * 1024, poll=0.05)
    with TestClient(app) as client:
        game = client.post("/api/games", json={"ruleset": "toy", "players": ["ann", "bob"], "seed": 3}).json()
        state = client.get(f"/api/games/{game['game']}").json()
        token = game["seats"][state["pending"]["player"]]["token"]
        body = json.dumps({"choice": choice}).encode()  # escaped, as a client's JSON sends a surrogate
        r = client.post(f"/api/games/{game['game']}/act", content=body,
                        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        assert r.status_code == 400, r.text
        assert list(r.json()) == ["error"] and "\n" not in r.json()["error"]
        assert client.get(f"/api/games/{game['game']}").json()["event"] == state["event"]  # nothing recorded
    app.state.service.store.close()

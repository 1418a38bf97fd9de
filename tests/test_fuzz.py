"""Fuzzing with hypothesis: choices built from every ruleset's event schema (and odd text) given to 'act', and
damaged or rewritten export files given to 'import'. Nothing may escape but the service's own one-line errors:
no traceback, no internal error. scripts/reliability.py runs the same with more examples and counts them."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from agon.core import registry
from agon.core.service import NewGame, Service, ServiceError, codec_for
from agon.core.transfer import export_game, import_data
from agon.events.store import Store
from tests.conftest import shipped_rulesets
from tests.fuzz import choices_of, damaged_files

EXAMPLES = 60


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

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(choices_of(types))
    def act(choice: str) -> None:
        try:
            svc.act(gid, choice)
            outcomes["recorded"] += 1
        except ServiceError as e:
            assert "\n" not in str(e)
            outcomes["refused"] += 1

    act()
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

    @settings(max_examples=EXAMPLES * 2, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(damaged_files(good))
    def imp(data: bytes) -> None:
        try:
            import_data(other, data)
            counts["imported"] += 1
        except ServiceError as e:
            assert "\n" not in str(e)
            counts["refused"] += 1

    imp()
    assert counts["refused"] > EXAMPLES
    for g in other.games():  # whatever was taken checks
        assert other.verify(g.id) == [], g.id
    svc.store.close()
    other.store.close()

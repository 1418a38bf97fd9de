"""'agon undo' tells what it took back from what it already knows (issue 13): it reads the line after the undo
from its nearest state snapshot and the undone events alone, never the whole line, and says exactly what
narrating the old line's last events says, for every ruleset, by the public view and in JSON."""

from __future__ import annotations

import json

import pytest

from agon.core import registry
from agon.core.service import NewGame, Service
from agon.events import snapshots as table
from agon.events.store import Store
from tests.conftest import shipped_rulesets


@pytest.fixture
def every(monkeypatch):
    monkeypatch.setattr(table, "EVERY", 4)
    return 4


def _seats(name: str) -> tuple[list[str], list[tuple[str, str]]]:
    n = max(registry.get(name).min_players, 2)
    return ["Ann"], [(f"Bot{i}", "random") for i in range(1, n)]


@pytest.mark.parametrize("name", [*shipped_rulesets(), "toy"])
def test_undo_says_what_narrating_the_old_line_says(svc, every, name):
    people, bots = _seats(name)
    gid = svc.new_game(NewGame(name, players=people, bots=bots, seed=7))
    for _ in range(4):
        if svc.load(gid).pending.__class__.__name__ == "Over":
            break
        svc.act(gid, "1")
    before = svc.load(gid, whole=True)
    line, taken = svc.undo_told(gid)
    expected = svc.log(before)[-len(taken):]
    assert taken and [(r.n, r.actor, r.sentence, r.shown) for r in taken] == [
        (r.n, r.actor, r.sentence, r.shown) for r in expected]
    assert line.head.id == before.envelopes[-len(taken) - 1].id
    assert line.status() == svc.load(gid, whole=True).status()


def test_the_undo_command_reads_neither_line_whole(tmp_path, monkeypatch, every):
    """With a snapshot near the head, neither the line before the undo nor the one after it is read whole."""
    db = tmp_path / "games.db"
    svc = Service(Store(f"sqlite:///{db}"))
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=3,
                               options={"target": 10**6}))
    for _ in range(60):
        svc.act(gid, "1")
    _ = svc.load(gid).state  # reading the state keeps the snapshot nearest its head
    svc.undo(gid)
    _ = svc.load(gid).state  # and again after the undo
    svc.redo(gid)
    expected = svc.log(svc.load(gid, whole=True))
    svc.store.close()

    def whole(*_args, **_kw):
        raise AssertionError("the whole line was read")

    monkeypatch.setattr(Store, "line", whole)
    from typer.testing import CliRunner

    from agon.cli.app import app

    monkeypatch.setenv("AGON_DB", str(db))
    out = CliRunner().invoke(app, ["undo", gid, "--json"])
    assert out.exit_code == 0, out.output
    got = json.loads(out.stdout)
    n = got["undone"]
    assert n >= 2 and [r["text"] for r in got["took_back"]] == [r.sentence for r in expected[-n:]]
    assert got["event"] == expected[-n - 1].n
    out = CliRunner().invoke(app, ["redo", gid])
    assert out.exit_code == 0 and f"Redid {n} events" in out.stdout


@pytest.mark.parametrize("table", [False, True])
def test_undo_after_a_decision_typed_at_a_bots_seat_takes_back_that_entry_only(tmp_path, table):
    """The README's way into a what-if: branch at a bot's turn and type another decision for it. One undo takes
    back that entry and what followed it by itself, and never reaches back past the branch's start."""
    from agon.core.engine import Chance, Decision

    svc = Service(Store(f"sqlite:///{tmp_path / 'g.db'}"))
    gid = svc.new_game(NewGame("peloponnes", players=["Ana"], bots=[("B", "greedy"), ("C", "random")], seed=4,
                               table=table))
    for _ in range(60):  # on until Ana has decided twice (at a table, chance is typed: 'seed' draws it)
        line = svc.load(gid)
        actors = [e.actor for e in line.envelopes]
        if actors.count("Ana") >= 2:
            break
        p = line.pending
        svc.act(gid, "seed" if isinstance(p, Chance) else "bot" if line.bot_of(p.player) else "1")
    fork = next(k for k in range(actors.index("Ana") + 1, line.head.depth) if actors[k + 1] in ("B", "C"))
    svc.branch(gid, "ov", at=fork)
    at_fork = svc.load(gid, "ov")
    assert isinstance(at_fork.pending, Decision) and at_fork.bot_of(at_fork.pending.player)
    svc.act(gid, str(len(at_fork.ruleset.legal(at_fork.state))))  # not necessarily what the bot would choose
    assert svc.load(gid, "ov").head.depth > fork
    moved, n = svc.undo(gid, branch="ov")
    assert svc.load(gid, "ov").head.depth == fork and moved.head_id == at_fork.head.id
    svc.store.close()

"""Every recorded game in replays/ can be plotted, viewed and counted: the commands a teacher would run on it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agon.analysis.games import figures_for
from agon.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
REPLAYS = sorted((ROOT / "replays").glob("*.jsonl"))


def run_commands_on(path: Path, tmp_path: Path, monkeypatch) -> None:
    tmp_path.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("AGON_DB", str(tmp_path / "games.db"))
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def agon(*args: str) -> str:
        r = runner.invoke(app, list(args))
        assert r.exit_code == 0, (args, r.output, r.stderr)
        return r.stdout

    info = json.loads(agon("import", str(path), "--json"))
    game, ruleset = info["id"], info["ruleset"]
    timeline = json.loads(agon("plot", "scores", game, "--json"))[0]["timeline"]
    assert len(timeline) == info["events"]
    assert "Wrote the score timeline" in agon("plot", "scores", game)
    for kind in figures_for(ruleset):
        assert f"Wrote the {kind} plot" in agon("plot", kind, game)
    assert f"{info['events']} events" in agon("view", game)
    assert "1 game stored, 1 finished" in agon("stats", ruleset)


def test_there_are_replays_to_run_them_on():
    assert REPLAYS, "replays/ holds the recorded games these commands are tried on"


@pytest.mark.parametrize("path", REPLAYS, ids=[p.stem for p in REPLAYS])
def test_every_replay_can_be_plotted_viewed_and_counted(path, tmp_path, monkeypatch):
    run_commands_on(path, tmp_path, monkeypatch)


def test_an_exported_bot_game_goes_through_the_same_commands(tmp_path, monkeypatch, sqlite_svc):
    from agon.core.service import NewGame

    game = sqlite_svc.new_game(NewGame(ruleset="toy", bots=[("Ana", "random"), ("Bruno", "random")], seed=4))
    path = tmp_path / "pig.jsonl"
    path.write_bytes(sqlite_svc.export(game))
    run_commands_on(path, tmp_path / "fresh", monkeypatch)

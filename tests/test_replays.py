"""Every recorded game in replays/ imports (so it replays cleanly under today's rules) and ends as recorded.

Each ``NAME.jsonl`` has a ``NAME.expected.json`` beside it: the number of events, the final status line and the
scores at the end. A rules change that alters any recorded game fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agon.core import registry
from agon.core.transfer import import_data

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
FILES = sorted(REPLAYS.glob("*.jsonl"))


def test_there_is_a_recorded_game_for_every_shipped_ruleset():
    rulesets = {json.loads(f.read_text().splitlines()[0])["payload"]["ruleset"] for f in FILES}
    assert rulesets >= {n for n in registry.names() if n != "toy"}


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_a_recorded_game_replays_to_its_recorded_outcome(sqlite_svc, path):
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    gid = import_data(sqlite_svc, path.read_bytes()).game_id
    line = sqlite_svc.load(gid)
    assert len(line.events) == expected["events"]
    assert line.status() == expected["status"]
    assert line.ruleset.scores(line.state) == expected["scores"]
    assert sqlite_svc.verify(gid) == []

"""Slips at ``agon play``'s prompt, in a pseudo-terminal as a person types them: a line that may be a command never
ends by itself (``q `` is not a quit without Enter), and what a branch name may be where the line reads as no entry.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pexpect
import pytest

from agon.core.service import NewGame
from tests.test_play_pty import PROMPT, spawn_play

REPLAYS = Path(__file__).resolve().parent / ".." / "replays"


def typed_game(svc, replay: str, upto: int) -> str:
    """A table game of the recorded game's players, its first ``upto`` events typed in as a table records them."""
    records = [json.loads(line) for line in (REPLAYS / replay).read_text().splitlines()]
    created = records[0]["payload"]
    gid = svc.new_game(NewGame(created["ruleset"], players=tuple(p["name"] for p in created["players"]),
                               seed=created["seed"], table=True))
    for rec in records[1:upto + 1]:
        svc.act(gid, json.dumps(rec["payload"]))
    return gid


def _typed(child, keys: str) -> None:
    for k in keys:  # key by key, as a person types
        child.send(k)
        time.sleep(0.05)


@pytest.fixture
def quarry(sqlite_svc):
    """The recorded three-player Peloponnes game at Bruno's bid of round 4: 'q' names one option's card alone
    (Marble Quarry, the only card in the conquest row he may bid on)."""
    svc = sqlite_svc
    gid = typed_game(svc, "peloponnes-3p.jsonl", 36)
    return svc, gid


@pytest.mark.parametrize("keys", ["q ", "q,", "Q "])
def test_q_then_a_space_is_no_quit_without_enter_where_q_begins_a_card_s_name(quarry, tmp_path, keys):
    """'q' begins Marble Quarry, and a space after it made the line a whole bid, which ended by itself and was read
    as 'q': play stopped without Enter. Now it waits: rubbed out, the line takes the entry meant; 'q' then Enter
    stops."""
    svc, gid = quarry
    child = spawn_play(tmp_path, gid)
    _typed(child, keys)
    time.sleep(0.5)
    assert child.isalive()
    _typed(child, "\x7f\x7f1")  # a pass: the one option whose number is 1 (of 6), taken without Enter
    child.expect("Bruno passes")
    child.expect(PROMPT)
    assert "Stopped" not in child.before
    assert len(svc.load(gid).events) == 38  # the pass, and the coin cards it draws (one more prompt: its draw)
    child.sendline("q")
    child.expect("Stopped; every decision so far is recorded")
    child.expect(pexpect.EOF)

"""The real ``agon play`` at a Perikles assassin's last step, as a table types it: the candidate by name (``bru``)
or by position (``b``), each taken as soon as typed (no Enter), the name's further keys swallowed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agon.core.service import NewGame
from tests.test_play_pty import PROMPT, spawn_play, type_keys

PERIKLES_4P = Path(__file__).resolve().parent / ".." / "replays" / "perikles-4p.jsonl"


@pytest.fixture
def assassin(sqlite_svc, tmp_path):
    """The recorded four-player game's first 27 events, typed into a table game of four people: Ana takes an
    influence tile, a Megara assassin on display, Corinth's candidates A Ana and B Bruno."""
    svc = sqlite_svc
    game = svc.new_game(NewGame("perikles", players=("Ana", "Bruno", "Chloe", "Dario"), seed=8, table=True))
    for line in PERIKLES_4P.read_text().splitlines():
        rec = json.loads(line)
        if 0 < rec.get("n", 0) <= 27:
            svc.act(game, json.dumps(rec["payload"]))
    return svc, game


@pytest.mark.parametrize(("keys", "who"), [("bru", "Bruno, candidate B"), ("b", "Bruno, candidate B"),
                                           ("a", "Ana, candidate A")])
def test_the_assassins_candidate_typed_by_name_or_position_is_recorded_without_enter(assassin, tmp_path, keys, who):
    svc, game = assassin
    child = spawn_play(tmp_path, game)
    type_keys(child, f"meg-ass cor {keys}")
    child.expect(f"assassinating {who} in Corinth")
    child.expect("influence tile refilling the display")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Stopped")
    assert len(svc.load(game).events) == 29  # the 27, the tile taken; nothing typed on reached the next prompt

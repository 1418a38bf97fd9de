"""Alkibiades moves "any 2 cubes to other cities" (perikles-data-facts.md, 'Special tiles'): the same cube move made
twice is told once with its count. In the recorded four-player game (replays/perikles-4p.jsonl) Chloe moves two of
Bruno's cubes from Athens to Argos; the log read "moves Bruno's cube from Athens to Argos; Bruno's cube from Athens
to Argos", as if the move were written twice by mistake."""

from __future__ import annotations

import json
from pathlib import Path

from agon.core.games.perikles import RULESET as RS
from agon.events.perikles import AlkibiadesPlayed, CubeMove
from tests.perikles.helpers import fresh

PERIKLES_4P = Path(__file__).resolve().parents[2] / "replays" / "perikles-4p.jsonl"


def test_the_same_move_twice_is_told_once_with_its_count_in_the_log(agon):
    game = json.loads(agon("import", str(PERIKLES_4P), "--json").stdout)["id"]
    rows = json.loads(agon("log", game, "--json").stdout)
    played = [r for r in rows if r["type"] == "perikles.alkibiades_played"]
    assert [r["text"] for r in played] == ["Chloe plays Alkibiades and moves 2 of Bruno's cubes from Athens to Argos."]
    assert f"{played[0]['n']}. Chloe plays Alkibiades and moves 2 of Bruno's cubes from Athens to Argos." in (
        agon("log", game).stdout)


def test_two_different_moves_are_each_told_once():
    e = AlkibiadesPlayed(player="P1", moves=(CubeMove(owner="P2", source="athens", target="sparta"),
                                             CubeMove(owner="P3", source="thebes", target="corinth")))
    assert RS.narrate(fresh(), e) == ("P1 plays Alkibiades and moves P2's cube from Athens to Sparta; P3's cube from"
                                      " Thebes to Corinth.")

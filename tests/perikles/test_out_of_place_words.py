"""An event typed out of its place (JSON through ``agon act``, or a POST) is refused in the table's words: what is
asked now and where the event belongs. It read "a AlkibiadesPlayed cannot happen in the setup phase", a class name
no one at the table knows."""

from __future__ import annotations

import json

from tests.test_cli_surface import one_line


def _setup(agon) -> str:
    players = ("--player", "Ana", "--player", "Bruno", "--player", "Chloe")
    return agon("new", "perikles", *players, "--table").stdout.split()[0]


def _events(agon, gid: str) -> str:
    return agon("log", gid).stdout


def test_a_special_tile_played_during_setup_names_the_tile_and_the_phase_it_belongs_to(agon):
    gid = _setup(agon)
    alk = json.dumps({"type": "perikles.alkibiades_played", "player": "Ana", "moves": []})
    said = one_line(agon("act", gid, alk, ok=False), 1)
    assert "chance outcome is needed now" in said and said.endswith("not playing the Alkibiades tile"), said
    agon("act", gid, "alk bra peri")
    before = _events(agon, gid)
    said = one_line(agon("act", gid, alk, ok=False), 1)
    assert said.endswith("Ana must place a starting cube now; playing the Alkibiades tile belongs to the influence"
                         " phase, not to the setup (starting cubes)"), said
    roll = json.dumps({"type": "perikles.battle_dice_rolled", "attacker": [1, 2], "defender": [3, 4]})
    said = one_line(agon("act", gid, roll, ok=False), 1)
    assert said.endswith("Ana must place a starting cube now: a decision, not a chance outcome (rolling the battle"
                         " dice)"), said
    permit = json.dumps({"type": "perikles.permission_given", "player": "Ana", "granted": True})
    said = one_line(agon("act", gid, permit, ok=False), 1)
    assert "giving a permission belongs to the commitment of forces" in said, said
    assert _events(agon, gid) == before  # the log unchanged


def test_no_perikles_refusal_names_a_class():
    from agon.core.games.perikles import rules
    from agon.events.perikles import EVENTS

    assert {t for t in EVENTS if t.__name__ != "GameCreated"} <= set(rules.EVENT_WORDS)

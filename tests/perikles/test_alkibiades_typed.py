"""Alkibiades moves any two cubes to other cities (perikles-data-facts.md, 'Special tiles': "Move any 2 cubes to
other cities"). ``legal`` lists each move twice (RULES.md), so at a table two different moves (Bo's cube out of
Athens, Cy's out of Thebes) could be recorded only as JSON: typed, they were refused as none of the answers. The
step reads them as ``owner:from:to+owner:from:to`` (core/games/perikles/steps.py)."""

from __future__ import annotations

import pytest

from agon.core.service import NewGame, Service, ServiceError
from agon.events.perikles import AlkibiadesPlayed, CubeMove
from agon.events.store import Store


@pytest.fixture
def alkibiades_turn(tmp_path):
    """A three-player table game at Ana's first influence turn, Ana holding Alkibiades."""
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = svc.new_game(NewGame("perikles", players=("Ana", "Bo", "Cy"), seed=3, table=True))
    svc.act(gid, "alk peri bras")
    for city in ("ath", "spa", "arg", "cor", "the", "meg"):
        svc.act(gid, city)
    svc.act(gid, "seed")  # the location tiles
    svc.act(gid, "seed")  # the influence display
    assert svc.load(gid).pending.player == "Ana"
    return svc, gid


def test_two_different_cube_moves_typed_are_recorded(alkibiades_turn):
    svc, gid = alkibiades_turn
    recorded = svc.act(gid, "alk bo:ath:spa+cy:the:cor")
    assert recorded[0].event == AlkibiadesPlayed(player="Ana", moves=(
        CubeMove(owner="Bo", source="athens", target="sparta"),
        CubeMove(owner="Cy", source="thebes", target="corinth")))
    assert "Bo's cube from Athens to Sparta; Cy's cube from Thebes to Corinth" in recorded[0].sentence


def test_a_move_the_tile_forbids_is_refused_in_one_line_naming_the_rule_and_nothing_is_recorded(alkibiades_turn):
    svc, gid = alkibiades_turn
    depth = svc.load(gid).head.depth
    with pytest.raises(ServiceError) as held:
        svc.act(gid, "alk bo:ath:ath+cy:the:cor")
    said = str(held.value)
    assert "\n" not in said and "Alkibiades: a cube moves to another city, not back to athens" in said
    with pytest.raises(ServiceError, match="Alkibiades: no player 'dan' here"):
        svc.act(gid, "alk dan:ath:spa+cy:the:cor")
    assert svc.load(gid).head.depth == depth

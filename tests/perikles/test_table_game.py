"""A table game through the service: chance outcomes typed by a person, bad dice refused and nothing recorded."""

from __future__ import annotations

import pytest

from agon.core.engine import Chance
from agon.core.service import NewGame, ServiceError


def to_first_battle(svc, game: str) -> None:
    for _ in range(2000):
        line = svc.load(game)
        pending = line.pending
        if isinstance(pending, Chance) and pending.kind == "dice":
            return
        svc.act(game, "seed" if isinstance(pending, Chance) else "1")
    raise AssertionError("no battle came")


def test_a_battle_die_outside_1_to_6_in_a_table_game_is_refused_and_nothing_recorded(sqlite_svc):
    svc = sqlite_svc
    game = svc.new_game(NewGame("perikles", bots=(("Ann", "greedy"), ("Bob", "greedy"), ("Cy", "greedy"),
                                                  ("Dee", "greedy")), seed=9, table=True))
    to_first_battle(svc, game)
    before = len(svc.load(game).events)
    with pytest.raises(ServiceError, match="a die shows 1 to 6, not 7"):
        svc.act(game, "7 2 3 4")
    with pytest.raises(ServiceError, match="a die shows 1 to 6, not 0"):
        svc.act(game, '{"type": "perikles.battle_dice_rolled", "attacker": [0, 2], "defender": [3, 4]}')
    assert len(svc.load(game).events) == before
    recorded = svc.act(game, "6 5 1 2")
    assert "attacker rolls 6+5=11" in recorded[0].sentence

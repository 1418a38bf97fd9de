"""Every listed decision is legal, at every decision of seeded games (the engine's contract, core/engine.py)."""

from __future__ import annotations

import pytest

from agon.core.autoplay import play_out
from agon.core.engine import Decision
from agon.events.base import GameCreated, PlayerSeat
from tests.peloponnes.helpers import rs


@pytest.mark.parametrize(("n", "bot"), [(2, "random"), (4, "greedy"), (5, "random")])
def test_every_listed_decision_validates_and_the_list_stays_short(n, bot):
    game = GameCreated(
        ruleset="peloponnes",
        ruleset_version=rs.version,
        players=tuple(PlayerSeat(f"P{i}", bot) for i in range(n)),
        seed=11,
        cards=rs.default_cards(),
    )
    events, _, _ = play_out(rs, game)
    state = rs.initial_state(game)
    decisions = 0
    for ev in events[1:]:
        if isinstance(rs.pending(state), Decision):
            options = rs.legal(state)
            assert 1 <= len(options) <= 40
            for option in options:
                assert rs.validate(state, option) is None, option
            decisions += 1
        state = rs.apply(state, ev)
    assert decisions > 8 * n

"""An option is read before it is chosen: its text tells the decision, never what would follow from it. What follows
(a battle won without dice, losses) is worked out from face-down counters, so telling it ahead would show them."""

from __future__ import annotations

import random

from agon.core import registry
from agon.core.autoplay import next_auto
from agon.core.engine import Decision, option_text
from agon.core.service import default_cards
from agon.events.base import GameCreated, PlayerSeat


def test_no_option_text_tells_what_would_follow():
    rs = registry.get("perikles")
    created = GameCreated(ruleset="perikles", ruleset_version=rs.version, seed=12, cards=default_cards(rs),
                          players=tuple(PlayerSeat(p, "random") for p in ("Ana", "B", "C")))
    state, pick, told = rs.initial_state(created), random.Random(1), 0
    for depth in range(1, 3000):
        pending = rs.pending(state)
        if isinstance(pending, Decision):
            options = rs.legal(state)
            for ev in options[:40]:
                text = option_text(rs, state, ev)
                assert " Then " not in text and "without dice" not in text, text
                told += 1
            event = pick.choice(options)
        else:
            auto = next_auto(rs, created, state, depth=depth, chance_ordinal=depth, luck=0, draw_chance=True)
            if auto is None:
                break
            event = auto.event
        state = rs.apply(state, event)
    assert told > 500

"""The conformance suite: every registered ruleset (and the test game) must pass it.

Seeded games with every seat a bot are played to the end by random legal decisions. Every decision chosen from
``legal`` must pass ``validate``; replaying the log gives the same state; every event survives an encode/decode
round trip and can be narrated; views are plain JSON for everyone; the finished game has an outcome and scores.
"""

from __future__ import annotations

import msgspec
import pytest

from agon.core import registry
from agon.core.autoplay import play_out
from agon.core.engine import Over, fold
from agon.events.base import GameCreated, PlayerSeat
from agon.events.codec import Codec

SEEDS = (1, 2)


def setups():
    for name in registry.names():
        rs = registry.get(name)
        option_sets = getattr(rs, "conformance_options", None) or [{}]
        for n in range(rs.min_players, rs.max_players + 1):
            for options in option_sets:
                for seed in SEEDS:
                    label = ",".join(f"{k}={v}" for k, v in options.items())
                    yield pytest.param(name, n, options, seed, id=f"{name}-{n}p-{label or 'default'}-s{seed}")


def created_for(name: str, n: int, options: dict, seed: int) -> GameCreated:
    rs = registry.get(name)
    players = tuple(PlayerSeat(f"P{i + 1}", "random") for i in range(n))
    cards = rs.default_cards()
    rs.check_setup([p.name for p in players], options, cards)
    return GameCreated(
        ruleset=name, ruleset_version=rs.version, players=players, seed=seed, options=options, cards=cards
    )


@pytest.mark.parametrize(("name", "n", "options", "seed"), list(setups()))
def test_seeded_random_game_plays_to_a_scored_end(name, n, options, seed):
    rs = registry.get(name)
    created = created_for(name, n, options, seed)
    events, actors, final = play_out(rs, created, validate=True)

    pending = rs.pending(final)
    assert isinstance(pending, Over)
    # Winners may be empty only when everyone lost together (a co-operative or solo game).
    assert pending.outcome.summary
    assert set(pending.outcome.winners) <= set(created.names)
    assert set(rs.scores(final)) == set(created.names)

    # Replaying the log gives the same state.
    assert fold(rs, events) == final

    # Every event survives an encode/decode round trip, and its JSON schema names its tag.
    codec = Codec((GameCreated, *rs.events), rs.upcasters)
    for ev in events:
        assert codec.decode(codec.encode(ev)) == ev
    decoded = [codec.decode(codec.encode(ev)) for ev in events]
    assert fold(rs, decoded) == final

    # Narration and views work at every step and are plain data.
    state = rs.initial_state(created)
    assert rs.narrate(state, created)
    for ev in events[1:]:
        sentence = rs.narrate(state, ev)
        assert isinstance(sentence, str) and sentence.strip()
        state = rs.apply(state, ev)
    for who in (None, *created.names):
        msgspec.json.encode(rs.view(final, who))
    for proj in rs.projections.values():
        from agon.core.engine import steps

        rows = proj(list(steps(rs, events, actors)))
        msgspec.json.encode(rows)


@pytest.mark.parametrize("name", registry.names())
def test_default_cards_are_plain_data_and_accepted(name):
    rs = registry.get(name)
    cards = rs.default_cards()
    msgspec.json.encode(cards)
    rs.check_setup([f"P{i}" for i in range(rs.min_players)], {}, cards)

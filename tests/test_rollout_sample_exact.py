"""Samplers that stand exactly for the list: where a ruleset's ``sample_legal`` promises the very decision the
random bot would pick from ``legal`` (``legal(s)[int(r * len(legal(s)))]`` for the number ``r`` it draws), it
gives exactly that, for every index of the list, at every decision of seeded games. Rollouts therefore play the
same games, event for event, whether they list or sample."""

from __future__ import annotations

import random

import pytest

from agon.core import registry
from agon.core.autoplay import play_out
from agon.core.engine import Decision
from agon.core.rollout import chooser, play, rollout_rng
from tests.test_conformance import created_for

EXACT = (("peloponnes", 2), ("peloponnes", 3), ("peloponnes", 5))
"""Rulesets whose sampler is exact, with a player count to test (Perikles' draws uniformly by rejection instead:
tests/test_rollout_sampling.py)."""


class Fixed:
    """A generator whose next number is ``r``: the sampler must take the list's entry at ``int(r * len)``."""

    def __init__(self, r: float) -> None:
        self.r = r

    def random(self) -> float:
        return self.r


def decisions(name: str, n: int, seeds: tuple[int, ...]):
    rs = registry.get(name)
    for seed in seeds:
        events, _, _ = play_out(rs, created_for(name, n, {}, seed), validate=False)
        state = rs.initial_state(events[0])
        for ev in events[1:]:
            if isinstance(rs.pending(state), Decision):
                yield state
            state = rs.apply(state, ev)


@pytest.mark.parametrize(("name", "n"), EXACT)
def test_the_sampler_gives_the_listed_decision_at_every_index(name, n):
    rs = registry.get(name)
    seen = 0
    for state in decisions(name, n, seeds=(1, 2)):
        listed = rs.legal(state)
        for i, expected in enumerate(listed):
            for r in (i / len(listed), (i + 0.5) / len(listed), (i + 1) / len(listed) - 1e-12):
                assert rs.sample_legal(state, Fixed(r)) == expected, (i, len(listed))
        seen += 1
    assert seen > 50


@pytest.mark.parametrize(("name", "n"), EXACT)
def test_a_rollout_plays_the_same_game_listing_or_sampling(name, n):
    rs = registry.get(name)
    state = rs.initial_state(created_for(name, n, {}, 3))

    def from_the_list(s, rng: random.Random):
        options = rs.legal(s)
        return options[int(rng.random() * len(options))]

    for index in range(4):
        sampled, listed = [], []
        play(rs, state, chooser(rs, "random"), rollout_rng(9, "start", index), record=sampled)
        play(rs, state, from_the_list, rollout_rng(9, "start", index), record=listed)
        assert sampled == listed

"""``sample_legal``: a ruleset's shortcut for the random bot draws every decision of ``legal`` equally often,
without listing them (Perikles' commitments), checked against the list itself."""

from __future__ import annotations

import random
from collections import Counter

from agon.core import registry
from agon.core.autoplay import play_out
from agon.core.engine import Decision, fold
from agon.core.games.perikles import commit
from agon.core.games.perikles.sample import _Space
from agon.core.games.perikles.state import COMMIT
from tests.test_conformance import created_for


def commit_states(seeds=(1,), players=(3, 5), every=3):
    rs = registry.get("perikles")
    for n in players:
        for seed in seeds:
            events, _, _ = play_out(rs, created_for("perikles", n, {}, seed), validate=False)
            state = rs.initial_state(events[0])
            for k, ev in enumerate(events[1:]):
                if (k % every == 0 and state.phase == COMMIT and state.request is None and not state.revolt_place
                        and isinstance(rs.pending(state), Decision)):
                    yield state
                state = rs.apply(state, ev)


def test_the_candidates_kept_are_exactly_the_listed_commitments():
    seen = 0
    for state in commit_states():
        listed = commit.legal_commitments(state)
        assert len(set(listed)) == len(listed)  # no decision is listed twice: uniform over the list = over the set
        space = _Space(state)
        kept = {e for i in range(space.size) if (e := space.event(i)) is not None}
        assert kept == set(listed)
        seen += 1
    assert seen > 15


def test_each_decision_is_drawn_about_equally_often():
    rs = registry.get("perikles")
    state = next(s for s in commit_states(seeds=(3, 4), players=(4,)) if 15 <= len(rs.legal(s)) <= 40)
    legal = rs.legal(state)
    rng = random.Random(9)
    draws = 60 * len(legal)
    counts = Counter(rs.sample_legal(state, rng) for _ in range(draws))
    assert set(counts) == set(legal)
    expected = draws / len(legal)
    chi2 = sum((counts[e] - expected) ** 2 / expected for e in legal)
    # Chi-square with len(legal) - 1 degrees of freedom: far below the 0.1% tail for a uniform draw.
    dof = len(legal) - 1
    assert chi2 < dof + 4.5 * (2 * dof) ** 0.5, (chi2, dof)


def test_outside_the_commitments_it_draws_from_the_list():
    rs = registry.get("perikles")
    events, _, final = play_out(rs, created_for("perikles", 3, {}, 4), validate=False)
    state = fold(rs, events[:12])
    assert isinstance(rs.pending(state), Decision) and state.phase != COMMIT
    assert rs.sample_legal(state, random.Random(1)) in rs.legal(state)

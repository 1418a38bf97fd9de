"""Honest numbers: the rollout estimate at the start of a game agrees with how complete bot games from there end.

The estimate comes from the rollout engine (core.rollout: its own luck, no validation, Perikles' sampling
shortcut); the reference from whole games played the ordinary way (core.autoplay.play_out: the service's luck
and bots choosing from the legal list). Two different paths to the same distribution: they must agree within
the confidence interval of the difference (99%: z = 2.58), and the estimate must tighten as rollouts grow.
"""

from __future__ import annotations

import math

import pytest

from agon.core import registry
from agon.core.autoplay import play_out
from agon.core.rollout import Tally, run
from agon.events.base import GameCreated, PlayerSeat

Z99 = 2.58
REFERENCE_GAMES = 300
ROLLOUTS = 256


def created(name: str, players: int, seed: int, cards) -> GameCreated:
    rs = registry.get(name)
    seats = tuple(PlayerSeat(f"P{i + 1}", "random") for i in range(players))
    return GameCreated(ruleset=name, ruleset_version=rs.version, players=seats, seed=seed, cards=cards)


def reference(name: str, players: int) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """Win rate, mean final score and the final score's standard deviation per player over complete games, one
    per seed."""
    rs = registry.get(name)
    cards = rs.default_cards()
    wins: dict[str, int] = {}
    scores: dict[str, list[float]] = {}
    for seed in range(REFERENCE_GAMES):
        _, _, final = play_out(rs, created(name, players, seed, cards), validate=False)
        for w in rs.pending(final).outcome.winners:
            wins[w] = wins.get(w, 0) + 1
        for p, v in rs.scores(final).items():
            scores.setdefault(p, []).append(v)
    names = created(name, players, 0, cards).names
    means = {p: sum(scores.get(p, [])) / REFERENCE_GAMES for p in names}
    sds = {p: math.sqrt(sum((v - means[p]) ** 2 for v in scores.get(p, [])) / (REFERENCE_GAMES - 1)) for p in names}
    return {p: wins.get(p, 0) / REFERENCE_GAMES for p in names}, means, sds


def each_rollout(name: str, players: int) -> list[Tally]:
    """The ROLLOUTS rollouts from the start, one tally each (rollout i is the same game in any batch)."""
    rs = registry.get(name)
    start = created(name, players, 0, rs.default_cards())
    state = rs.initial_state(start)
    return [run(rs, state, start.names, "random", 1, "calibration", i, 1) for i in range(ROLLOUTS)]


def pooled(tallies: list[Tally]) -> Tally:
    out = Tally()
    for t in tallies:
        out.add(t)
    return out


@pytest.mark.parametrize(("name", "players", "measure"), [
    ("pergamemnon", 2, "chance"),   # who wins: a share
    ("adamastor", 1, "score"),      # a random crew never reaches the goal: the voyage's progress is what varies
])
def test_the_start_estimate_agrees_with_complete_games_and_tightens(name, players, measure):
    win_rate, mean_score, score_sd = reference(name, players)
    single = each_rollout(name, players)
    whole = pooled(single)
    assert whole.rollouts == ROLLOUTS
    for p in win_rate:
        if measure == "chance":
            est, ref = whole.chance(p), win_rate[p]
            share = (est * ROLLOUTS + ref * REFERENCE_GAMES) / (ROLLOUTS + REFERENCE_GAMES)
            se = math.sqrt(share * (1 - share) * (1 / ROLLOUTS + 1 / REFERENCE_GAMES))
        else:
            est, ref = whole.mean_score(p), mean_score[p]
            # The standard error of a difference of two means: each sample with its own spread.
            sd = math.sqrt(sum((t.mean_score(p) - est) ** 2 for t in single) / (ROLLOUTS - 1))
            se = math.sqrt(sd**2 / ROLLOUTS + score_sd[p] ** 2 / REFERENCE_GAMES)
        assert se > 0
        assert abs(est - ref) <= Z99 * se, (p, est, ref, se)
    # Tighter with more rollouts: estimates from disjoint batches of the same rollouts spread less as the
    # batches grow.
    p = next(iter(win_rate))

    def value(t: Tally) -> float:
        return t.chance(p) if measure == "chance" else t.mean_score(p)

    spread = {}
    for size in (4, 16, 64):
        values = [value(pooled(single[i:i + size])) for i in range(0, ROLLOUTS, size)]
        centre = sum(values) / len(values)
        spread[size] = math.sqrt(sum((v - centre) ** 2 for v in values) / (len(values) - 1))
    assert spread[4] > spread[16] > spread[64] > 0, spread

"""Adamastor: what must hold at every step of a voyage, by the rulebook, checked over seeded bot games.

Rule text: ../shared/rules/adamastor-rulebook.pt.txt (sections 3-9); readings chosen (and the provisional weather
table) in core/games/adamastor/RULES.md. Each check recomputes what the text says from the state it can see and
compares it with what the rules code did: the 40 player cards are always each in one place, the strip keeps 3
cards sorted, morale is the deck, the weather sets the actions, actions alternate in co-op, hands end a round at 3
or fewer, one skill a round, and the end (won, lost to morale, lost to a tumult) is what section 6 says.

Games: random and greedy bots, solo and co-op, over every difficulty, the historical scenario and 'less luck',
and hypothesis-chosen decisions.
"""

from __future__ import annotations

from collections import Counter as Multiset
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.core.games.adamastor import RULESET as RS
from agon.core.games.adamastor.state import State
from agon.events.adamastor import (
    ActionsEnded,
    CardSwapped,
    DrawChosen,
    HandTrimmed,
    LandCardKept,
    MoraleLost,
    SailStarted,
    SkillLearned,
)
from agon.events.base import GameCreated, PlayerSeat
from tests.played import chosen_by, to_the_end

ACTIONS = (DrawChosen, CardSwapped, SailStarted)
PLAYING = ("actions", "sail", "draw", "draw_keep", "land_draw", "land_keep", "bonus_draw", "bonus_share", "ignore",
           "learn", "morale_loss", "trim", "refill")


def created(players: int, seed: int, bot: str = "random", options: dict | None = None) -> GameCreated:
    seats = tuple(PlayerSeat(f"P{i + 1}", bot) for i in range(players))
    return GameCreated(ruleset="adamastor", ruleset_version=RS.version, players=seats, seed=seed,
                       options=RS.canonical_options(options or {}), cards=RS.default_cards())


def expected_weather(s: State) -> tuple[int, bool]:
    """Rulebook 5.1 with RULES.md's table: black clouds of the strip and the fleet's space, the space's black clouds
    turning every normal cloud black; 'Ignora 1 nuvem preta' spent on the space first. (actions, extra cost)."""
    icons = [s.card(c).weather for c in s.strip]
    suns = icons.count("sun")
    clouds = icons.count("cloud")
    black = icons.count("storm")
    space = s.board[s.fleet].clouds
    spare = sum(1 for c in s.skills if s.card(c).skill == "ignore_black_cloud")
    on_space = min(spare, space)
    space -= on_space
    spare -= on_space
    if space:
        black += clouds
    black = max(0, black + space - spare)
    if black >= 3:
        actions, extra = 1, True
    elif black == 2:
        actions, extra = 2, True
    elif suns >= 2:
        actions, extra = 4, False
    else:
        actions, extra = 3, False
    return actions + sum(1 for c in s.skills if s.card(c).skill == "extra_action"), extra


def threat_icons(s: State) -> dict[str, int]:
    """Rulebook 5.3/7: icons in play are the strip's threat icons and each trauma's one icon, less those ignored."""
    out = {"revolt": 0, "disease": 0, "fatigue": 0}
    for c in s.strip:
        for icon, n in s.card(c).threats:
            out[icon] += n
    for c in s.traumas:
        out[s.card(c).trauma] += 1
    for c, icon in s.ignored:
        if c in s.strip or c in s.traumas:
            out[icon] -= 1
    return out


def places(s: State) -> list[str]:
    return [*s.strip, *(c for h in s.hands for c in h), *s.deck, *s.bottom, *s.discard, *s.removed,
            *([s.shown] if s.shown else []), *s.traumas, *s.skills, *s.drawn]


def check_step(before: State, e, after: State, log: dict) -> None:
    dealt = bool(after.strip) or after.round > 0
    if dealt:
        # Every one of the 40 player cards is in exactly one place (rulebook 2, 4).
        assert Multiset(places(after)) == Multiset(list(after.cards.player)), "a player card lost or doubled"
        assert len(after.cards.player) == 40
        numbers = [after.card(c).number for c in after.strip]
        assert numbers == sorted(numbers, reverse=True), "the strip is kept highest left, lowest right (3.4)"
        if after.phase in ("actions", "sail", "draw", "draw_keep", "land_draw", "land_keep", "bonus_draw",
                           "bonus_share", "ignore", "learn"):
            assert len(after.strip) == 3, "the adventure strip always holds 3 cards (3.3)"
        if after.phase == "sunrise":
            assert len(after.strip) == 2
            assert all(len(h) <= 3 for h in after.hands), "a round ends with no hand over 3 cards (5.4)"
        # Morale is the deck (4).
        assert after.morale == len(after.deck) + len(after.bottom)
        if not after.result and after.phase not in ("land_keep", "draw_keep"):
            assert after.morale > 0, "the game goes on with an empty deck"
        # 'Menos sorte' (9.2): one card shown beside the deck, never part of it; none without the variant.
        assert bool(after.shown) == after.less_luck
    # Removed only grows, only by 'Doença espalha-se'; skills and traumas are never lost.
    assert after.removed[: len(before.removed)] == before.removed
    if len(after.removed) > len(before.removed):
        assert isinstance(e, MoraleLost) and before.loss_removes
        sick = sum(1 for c in before.traumas if before.card(c).trauma == "disease")
        assert len(after.removed) - len(before.removed) <= sick
    assert after.skills[: len(before.skills)] == before.skills
    assert after.traumas[: len(before.traumas)] == before.traumas

    # A new round: the weather of the strip and the fleet's space sets the action cubes (5.1, 5.2).
    if after.phase == "actions" and before.phase in ("deal", "sunrise"):
        actions, extra = expected_weather(after)
        assert after.cubes == actions
        assert (after.extra_cost > 0) == extra
        log.update(round=after.round, actions=0, cubes=actions)
        if len(after.players) == 2 and before.phase == "sunrise":
            assert after.captain != log["captain"], "the captain token passes each round (9.3)"
        log["captain"] = after.captain
        log["learned"] = 0
    if isinstance(e, ACTIONS):
        # Co-op: starting with the captain, the players alternate one action each (9.3).
        assert before.actor == (before.captain + log["actions"]) % len(before.players)
        log["actions"] += 1
        assert log["actions"] <= log["cubes"], "more actions than the weather gave"
        check_actions_offered(before)
    if isinstance(e, LandCardKept):
        # 5.2 C: the cards not kept go under the deck; a morale bonus brings back that many discards (4).
        if before.card(e.card).bonus_kind == "action":
            log["cubes"] += e.bonus
        back = len(before.drawn) - 1
        gain = min(e.bonus, len(before.discard)) if before.card(e.card).bonus_kind == "morale" else 0
        assert after.morale == before.morale + back + gain
        assert after.bottom[len(before.bottom):len(before.bottom) + back] == tuple(c for c in before.drawn
                                                                                   if c != e.card)
    if isinstance(e, MoraleLost):
        # 4: losing N morale discards the top N cards of the deck (all that is left when fewer).
        assert len(e.cards) == min(before.need, before.morale)
        assert after.morale == before.morale - len(e.cards)
    if isinstance(e, ActionsEnded):
        assert before.phase == "actions"
    if isinstance(e, SkillLearned):
        log["learned"] += 1
        assert log["learned"] == 1, "only 1 skill a round (7)"
    if isinstance(e, HandTrimmed):
        i = before.players.index(e.player)
        assert len(after.hands[i]) == 3, "discard down to exactly 3 (5.4)"


def check_actions_offered(s: State) -> None:
    """Rulebook 5.2: draw 1 card; swap any hand card with any strip card; sail discarding any non-empty set of hand
    cards; or end the phase. Every one of them is offered, and nothing else."""
    hand = s.hands[s.actor]
    expect = {("draw",), ("end",)}
    expect |= {("swap", h, c) for h in hand for c in s.strip}
    expect |= {("sail", *sorted(k)) for n in range(1, len(hand) + 1) for k in combinations(hand, n)}
    offered = set()
    for e in RS.legal(s):
        match e:
            case DrawChosen():
                offered.add(("draw",))
            case ActionsEnded():
                offered.add(("end",))
            case CardSwapped(hand_card=h, strip_card=c):
                offered.add(("swap", h, c))
            case SailStarted(cards=cards):
                offered.add(("sail", *sorted(cards)))
    assert offered == expect


def check_final(s: State) -> None:
    """Rulebook 6: won on reaching the final destination; lost when morale is 0 or on a tumult."""
    outcome = RS.pending(s).outcome
    here = s.board[s.fleet] if s.fleet else None
    if s.result == "won":
        assert here is not None and here.destination
        assert set(outcome.winners) == set(s.players)
        assert all(v == 100.0 for v in RS.scores(s).values())
    else:
        assert not outcome.winners
        assert here is None or not here.destination
        # RULES.md: the score is the columns sailed out of those to the destination's sea spaces; a fleet lost
        # beside the destination, in its column but not on its space, shows 100 without winning.
        assert all(0.0 <= v <= 100.0 for v in RS.scores(s).values())
        if s.result == "lost_morale":
            assert s.morale == 0
        else:
            assert s.result == "lost_tumult"
            icons = threat_icons(s)
            assert min(icons.values()) >= 3, icons


def play_and_check(c: GameCreated) -> State:
    log: dict = {"captain": -1}
    final = to_the_end(RS, c, lambda step: check_step(step.before, step.event, step.after, log))
    assert final.result
    check_final(final)
    return final


OPTIONS = [{"difficulty": "easy"}, {"difficulty": "regular"}, {"difficulty": "hard"}, {"scenario": "historical"},
           {"difficulty": "regular", "less_luck": "true"}]
GAMES = [(n, seed, bot, o) for n in (1, 2) for bot in ("random", "greedy") for seed in (1, 2, 3) for o in OPTIONS]


@pytest.mark.parametrize(("players", "seed", "bot", "options"), GAMES,
                         ids=[f"{b}-{n}p-s{s}-{'-'.join(map(str, o.values()))}" for n, s, b, o in GAMES])
def test_every_step_of_a_bot_voyage_keeps_the_rules(players, seed, bot, options):
    play_and_check(created(players, seed, bot, options))


def test_the_games_end_each_way():
    """The seeded games above reach each ending the text names: the check of the end is not idle."""
    ends = {play_and_check(created(n, seed, bot, o)).result for n, seed, bot, o in GAMES[:30]}
    assert ends == {"won", "lost_morale", "lost_tumult"}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(1, 2), seed=st.integers(0, 10_000), option=st.sampled_from(OPTIONS))
def test_hypothesis_chosen_decisions_keep_the_rules(data, players, seed, option):
    c = created(players, seed, options=option)
    log: dict = {"captain": -1}
    s = to_the_end(RS, c, lambda step: check_step(step.before, step.event, step.after, log),
                   choose=chosen_by(data))
    assert s.result
    check_final(s)

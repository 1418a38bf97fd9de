"""Every refusal of a decision made out of turn names the rule it breaks: the section of the ruleset's rule text
(or of the RULES.md reading beside its code) that says who acts now, in every ruleset and at every kind of decision
seeded bot games reach: the decision recorded, claimed by another player (``check`` with that actor, as 'agon act
--as' does) or typed as JSON with another player's name."""

from __future__ import annotations

import re

import msgspec
import pytest

from agon.core import registry
from agon.core.engine import Decision, RuleViolation, check
from agon.core.service import NewGame, Service
from agon.events.store import Store
from tests.conftest import shipped_rulesets

CITED = re.compile(r"\((rulebook|game help|data facts|RULES\.md)\b")
"""A rule section as the rulesets cite one: "Turn (rulebook, 'O jogo')", "Nominations (game help, 5th ...)"."""


def out_of_turn_refusals(name: str, seed: int):
    """(prompt, refusal) for every decision of a seeded bot game, claimed by a player whose turn it is not."""
    rs = registry.get(name)
    n = max(2, rs.min_players) if rs.max_players >= 2 else rs.min_players
    names = [f"P{i}" for i in range(n)]
    svc = Service(Store("sqlite://"))
    line = svc.load(svc.new_game(NewGame(name, bots=[(p, "random") for p in names], seed=seed)))
    state = rs.initial_state(line.created)
    for _env, ev in zip(line.envelopes[1:], line.events[1:]):
        pending = rs.pending(state)
        if isinstance(pending, Decision):
            other = next(p for p in names if p != pending.player)
            with pytest.raises(RuleViolation) as refused:
                check(rs, state, ev, other)
            yield pending.prompt, refused.value.rule
            if isinstance(getattr(ev, "player", None), str) and ev.player == pending.player:
                claimed = rs.validate(state, msgspec.structs.replace(ev, player=other))
                if claimed is not None:  # else the field names someone else than the decider (a card's receiver)
                    yield pending.prompt, claimed
        state = rs.apply(state, ev)


@pytest.mark.parametrize("name", shipped_rulesets())
def test_every_out_of_turn_refusal_names_its_rule(name):
    seen = 0
    for seed in (1, 2):
        for prompt, rule in out_of_turn_refusals(name, seed):
            assert CITED.search(rule), (name, prompt, rule)
            seen += 1
    assert seen >= 20, (name, seen)


def test_perikles_names_the_rule_of_each_phase():
    from agon.core.games.perikles.rules import TURN_ORDER

    rules = {rule.split(":")[0] for _, rule in out_of_turn_refusals("perikles", 1)}
    for phase_rule in TURN_ORDER.values():
        assert phase_rule.split(":")[0] in rules, (phase_rule, rules)

"""Conformance through the service and store, for every registered ruleset.

- A seeded bot game recorded by the service exports and imports to the same line and the same state.
- A table game with people in every seat: at each step a decision by the wrong player, and a decision while a
  chance outcome is due, are refused and leave the log unchanged; then a legal choice (or the seed's outcome) is
  recorded. The rules' and the service's notions of whose turn it is agree all along.
"""

from __future__ import annotations

import random

import pytest

from agon.core import registry
from agon.core.engine import Chance, Decision, Over
from agon.core.service import NewGame, ServiceError
from agon.core.transfer import import_data

RULESETS = registry.names()


def players(rs) -> list[str]:
    """The fewest seats, but two where the game allows it (so turn order can be tested)."""
    return [f"P{i + 1}" for i in range(min(max(rs.min_players, 2), rs.max_players))]


@pytest.mark.parametrize("name", RULESETS)
def test_a_recorded_game_exports_and_imports_to_the_same_state(sqlite_svc, elsewhere, name):
    rs = registry.get(name)
    seats = [(p, "random") for p in players(rs)]
    gid = sqlite_svc.new_game(NewGame(name, bots=seats, seed=5))
    line = sqlite_svc.load(gid)
    assert isinstance(line.pending, Over)
    new = import_data(elsewhere, sqlite_svc.export(gid)).game_id
    again = elsewhere.load(new)
    assert [e.id for e in again.envelopes] == [e.id for e in line.envelopes]
    assert again.state == line.state


def _snapshot(svc, gid):
    line = svc.load(gid)
    return line.head.id, svc.store.event_count(gid)


@pytest.mark.parametrize("name", RULESETS)
def test_refused_events_leave_the_log_unchanged_in_a_table_game(sqlite_svc, name):
    rs = registry.get(name)
    names = players(rs)
    gid = sqlite_svc.new_game(NewGame(name, players=names, seed=9, table=True))
    pick = random.Random(3)
    last_decision = None
    for _ in range(80):
        line = sqlite_svc.load(gid)
        pending = line.pending
        if isinstance(pending, Over):
            break
        before = _snapshot(sqlite_svc, gid)
        if isinstance(pending, Chance):
            if last_decision is not None:
                with pytest.raises(ServiceError):
                    sqlite_svc.act(gid, last_decision)
                assert _snapshot(sqlite_svc, gid) == before
            sqlite_svc.act(gid, "seed")
        else:
            assert isinstance(pending, Decision) and pending.player in names
            others = [p for p in names if p != pending.player]
            if others:
                # Refused by the rule that says who acts: the ruleset's own (as for the same event as JSON), or
                # the turn order when the ruleset has nothing more to say.
                with pytest.raises(ServiceError, match=r"turn order|rulebook|game help"):
                    sqlite_svc.act(gid, "1", as_player=others[0])
            assert _snapshot(sqlite_svc, gid) == before
            legal = rs.legal(line.state)
            choice = pick.randrange(len(legal))
            last_decision = line.codec.encode(legal[choice]).decode()
            sqlite_svc.act(gid, str(choice + 1), as_player=pending.player)
            continue
        assert _snapshot(sqlite_svc, gid) != before
    assert sqlite_svc.verify(gid) == []

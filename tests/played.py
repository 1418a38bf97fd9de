"""Seeded games played to their end one event at a time, for the tests that check every step of a game (each
ruleset's ``test_invariants.py``). Every event passes the engine's ``check`` before it is applied; a decision is
``choose(legal)`` when a chooser is given (hypothesis picks), else the seat's bot's; chance is drawn from the seed,
each outcome by its own ordinal."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from agon.core.autoplay import CHANCE_ACTOR, next_auto
from agon.core.engine import Decision, Over, Pending, Ruleset, check
from agon.events.base import Event, GameCreated


@dataclass(frozen=True)
class Step:
    before: Any
    pending: Pending
    legal: Sequence[Event] | None
    """What ``legal`` offered, at a decision (None at a chance)."""
    event: Event
    actor: str
    after: Any


def played(rs: Ruleset, created: GameCreated, choose: Callable[[Sequence[Event]], Event] | None = None,
           max_events: int = 6000) -> Iterator[Step]:
    """Every step of the game ``created`` starts, to its end (then ``rs.pending(last.after)`` is ``Over``)."""
    state = rs.initial_state(created)
    depth, ordinal = 1, 0
    while not isinstance(pending := rs.pending(state), Over):
        assert depth < max_events, f"the game did not end within {max_events} events"
        legal = rs.legal(state) if isinstance(pending, Decision) else None
        if legal is not None and choose is not None:
            event, actor = choose(legal), pending.player
        else:
            auto = next_auto(rs, created, state, depth=depth, chance_ordinal=ordinal, luck=0, draw_chance=True)
            assert auto is not None
            event, actor = auto.event, auto.actor
            ordinal += actor == CHANCE_ACTOR
        check(rs, state, event, None if actor == CHANCE_ACTOR else actor)
        after = rs.apply(state, event)
        yield Step(state, pending, legal, event, actor, after)
        state = after
        depth += 1


def to_the_end(rs: Ruleset, created: GameCreated, each: Callable[[Step], None] | None = None,
          choose: Callable[[Sequence[Event]], Event] | None = None) -> Any:
    """The last state of the game, ``each`` called on every step on the way."""
    state = rs.initial_state(created)
    for step in played(rs, created, choose):
        if each is not None:
            each(step)
        state = step.after
    return state


def chosen_by(data: st.DataObject) -> Callable[[Sequence[Event]], Event]:
    """A ``choose`` for ``played``: hypothesis picks each decision among those offered (``st.data()``)."""
    return lambda legal: legal[data.draw(st.integers(0, len(legal) - 1), label="decision")]

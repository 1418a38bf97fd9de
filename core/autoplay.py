"""What happens without a person: chance drawn from the seed and bot decisions.

Pure functions of (state, position); the service uses them to extend a line, and the tests use ``play_out`` to
play seeded games to the end without a store.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from agon.core import chance as chance_mod
from agon.core.bots import bots_of
from agon.core.engine import Chance, Decision, Over, Ruleset, State, check
from agon.events.base import Event, GameCreated

CHANCE_ACTOR = "chance"


@dataclass(frozen=True)
class Auto:
    """An event made without a person, with the actor to record it under."""

    event: Event
    actor: str


def bot_kinds(created: GameCreated) -> Mapping[str, str]:
    return {p.name: p.bot for p in created.players if p.bot}


def next_auto(
    ruleset: Ruleset,
    created: GameCreated,
    state: State,
    *,
    depth: int,
    chance_ordinal: int,
    luck: int,
    draw_chance: bool,
) -> Auto | None:
    """The event that follows by itself, or None when a person must act or the game is over.

    ``depth`` is the index the new event will have; ``chance_ordinal`` counts the chance events before it.
    Chance is drawn only when ``draw_chance`` (not in a table game, unless a person asked for it).
    """
    pending = ruleset.pending(state)
    if isinstance(pending, Over):
        return None
    if isinstance(pending, Chance):
        if not draw_chance and not pending.forced:
            return None
        outcome = chance_mod.draw(pending, chance_mod.rng_for(created.seed, luck, chance_ordinal))
        return Auto(pending.build(outcome), CHANCE_ACTOR)
    assert isinstance(pending, Decision)
    kind = bot_kinds(created).get(pending.player)
    if kind is None:
        return None
    bot = bots_of(ruleset)[kind]
    legal = ruleset.legal(state)
    if not legal:
        raise RuntimeError(f"{ruleset.name}: {pending.player} must act but no decision is legal")
    rng = chance_mod.rng_for(created.seed, luck, depth, purpose=f"bot:{pending.player}")
    return Auto(bot(ruleset, state, legal, rng), pending.player)


def play_out(
    ruleset: Ruleset,
    created: GameCreated,
    *,
    luck: int = 0,
    max_events: int = 20000,
    validate: bool = True,
) -> tuple[list[Event], list[str], State]:
    """Play a game whose every seat is a bot to its end. Returns (events, actors, final state).

    With ``validate``, every event is checked against the rules before it is applied, as the service does.
    """
    events: list[Event] = [created]
    actors: list[str] = ["setup"]
    state = ruleset.initial_state(created)
    ordinal = 0
    while len(events) < max_events:
        auto = next_auto(
            ruleset, created, state, depth=len(events), chance_ordinal=ordinal, luck=luck, draw_chance=True
        )
        if auto is None:
            if isinstance(ruleset.pending(state), Over):
                return events, actors, state
            raise RuntimeError(f"{ruleset.name}: a person must act, but every seat should be a bot")
        if validate:
            check(ruleset, state, auto.event, None if auto.actor == CHANCE_ACTOR else auto.actor)
        if auto.actor == CHANCE_ACTOR:
            ordinal += 1
        state = ruleset.apply(state, auto.event)
        events.append(auto.event)
        actors.append(auto.actor)
    raise RuntimeError(f"{ruleset.name}: the game did not end within {max_events} events")

"""The common event base and the lifecycle event that opens every game.

Every event is an immutable msgspec Struct with an explicit, stable tag (``tag="ruleset.name"``), so renaming a
class never breaks a stored game. Each event type states its payload's schema version in ``version``; an
incompatible change bumps it and registers an upcaster (see ``events.codec``).
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every event: a fact that happened (past tense, immutable)."""

    version: ClassVar[int] = 1


class PlayerSeat(msgspec.Struct, frozen=True):
    """A seat at the table: the player's name and, for a bot, its kind (``random``, ``greedy``...)."""

    name: str
    bot: str | None = None


class GameCreated(Event, tag="game.created"):
    """The first event of every game: everything needed to replay it forever.

    The card set the game is played with (the bundled data, or a person's corrected set) is fixed by this event,
    so a later correction of the bundled data never changes an old game: ``card_set`` names it by the sha256 of
    its JSON bytes, stored once per store and carried by exports (core/card_sets.py fills ``cards`` in when the
    game is read); a game recorded before that embeds the whole set in ``cards`` and ``card_set`` is empty.
    """

    ruleset: str
    ruleset_version: str
    players: tuple[PlayerSeat, ...]
    seed: int
    table: bool = False
    options: dict[str, Any] = {}
    cards: dict[str, Any] = {}
    title: str = ""
    card_set: str = ""
    salt: str = ""
    """A secret (128 random bits, hex) that makes this event's id, and so every id after it, impossible to work out
    from the public parts of the events: an id is the sha256 of its payload and its parent's id, and a payload may
    hold a hidden card that a player could otherwise find by hashing each candidate. Shown only with everything,
    like the seed; empty in games made before it was added."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)


LIFECYCLE_EVENTS: tuple[type[Event], ...] = (GameCreated,)

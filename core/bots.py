"""Bots: players that choose among legal decisions. Every ruleset gets ``random``; rulesets may add their own.

A bot's rng is seeded by the service from the game's seed and the line position, so a bot game replays and
branches deterministically.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from agon.core.engine import Bot, Ruleset
from agon.events.base import Event


def random_bot(ruleset: Ruleset, state: Any, legal: Sequence[Event], rng: random.Random) -> Event:
    """Picks uniformly among the listed legal decisions."""
    return legal[rng.randrange(len(legal))]


def bots_of(ruleset: Ruleset) -> dict[str, Bot]:
    return {"random": random_bot, **dict(ruleset.bots)}


def judging_bot(ruleset: Ruleset) -> str:
    """The bot whose games judge a position when none is asked for (``agon analyse``): ``random``, the fastest, or
    the one a ruleset names as ``judging_bot`` where random play tells nothing (an Adamastor fleet crewed at random
    almost never reaches its destination, so every position would read 0%)."""
    return getattr(ruleset, "judging_bot", "random")

"""The random bot's decision in a rollout, drawn without making the whole list (core/rollout.py).

``sample_legal(s, rng)`` returns exactly ``legal(s)[int(rng.random() * len(legal(s)))]``, the decision the
``random`` bot picks from the list, drawing the same single number: rollouts come out the same game for game
whether they list or sample. In an auction turn (rulebook, "3. Leilão") the list offers, per power card, the
least bid and the next two counts the hand allows, each as one canonical set of coin cards; the sampler counts
them from ``auction.bid_layout`` (which ``legal`` uses too) and makes only the one drawn. Other decisions are
picked from ``legal``.
"""

from __future__ import annotations

import random

from agon.core.games.peloponnes import auction, rules
from agon.core.games.peloponnes.state import State
from agon.events.base import Event


def sample_legal(s: State, rng: random.Random) -> Event:
    """``legal(s)[int(rng.random() * len(legal(s)))]`` for a state where a player must decide."""
    if s.phase == "auction" and s.loose is None and not s.draws:
        return auction.sample_bid(s, rng.random())
    options = rules.decisions(s)
    return options[int(rng.random() * len(options))]

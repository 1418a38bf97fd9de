"""A greedy Pergamemnon bot (the engine provides ``random``).

It plays what the rulebook's 'Dica' lines suggest: recruit whenever a creature can be paid (the best one it can
afford), otherwise attack with its strongest weapon; defend with the card whose matching defence is highest;
reinforce with the least valuable card that holds; keep point cards in the discard pile (they score there) and
put point-less captured cards under the city for their charisma; after a lost battle, discard weak cards.

Like a person's decision, a bot's names a card of copies alike by its kind (``greece.bowman``, not ``.2``), and the
fold places or discards the first copy of that kind (RULES.md, 'Copies alike'): the log never tells copies apart
that nobody at the table can tell apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.core.games.pergamemnon.state import State, attack_of, card, defence_of, kind, player
from agon.events.base import Event
from agon.events.pergamemnon import (
    Attacked,
    CapturesPlaced,
    CreatureRecruited,
    DefenceCommitted,
    HandDiscarded,
    Reinforced,
)


def _strength(s: State, cid: str) -> int:
    c = card(s, cid)
    return max(c.attack, c.helmet, c.armour, c.shield)


def greedy(ruleset: Any, s: State, legal: Sequence[Event], rng: Any) -> Event:
    first = legal[0]
    recruits = [e for e in legal if isinstance(e, CreatureRecruited)]
    if recruits:
        return max(recruits, key=lambda e: (card(s, e.creature).points, -e.charisma_cards - len(e.captured)))
    attacks = [e for e in legal if isinstance(e, Attacked)]
    if attacks:
        me = player(s, attacks[0].player)
        best = max(attack_of(s, me, e.card) for e in attacks)
        strongest = [e for e in attacks if attack_of(s, me, e.card) == best]
        return strongest[rng.randrange(len(strongest))]
    if isinstance(first, DefenceCommitted):
        b = s.battle
        assert b is not None
        me = player(s, first.player)
        return max(
            legal,
            key=lambda e: (defence_of(s, me, e.card, b.weapon), -card(s, e.card).points),  # type: ignore[attr-defined]
        )
    reinforcements = [e for e in legal if isinstance(e, Reinforced)]
    if reinforcements:
        return min(reinforcements, key=lambda e: (card(s, e.card).points, _strength(s, e.card)))
    if isinstance(first, CapturesPlaced):
        assert s.aftermath is not None
        under = tuple(kind(c) for c in s.aftermath.captured if card(s, c).points == 0 and card(s, c).charisma > 0)
        return CapturesPlaced(player=first.player, under_city=under)
    if isinstance(first, HandDiscarded):
        weak = tuple(kind(c) for c in player(s, first.player).hand if _strength(s, c) <= 4 and card(s, c).points == 0)
        return HandDiscarded(player=first.player, cards=weak)
    return first


BOTS = {"greedy": greedy}

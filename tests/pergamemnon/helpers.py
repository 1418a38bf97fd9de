"""Building Pergamemnon games for the tests: card sets with chosen values, setups with chosen luck, and a way to
play events through the same check the service uses."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from agon.core.engine import Chance, RuleViolation, check
from agon.core.games.pergamemnon import RULESET
from agon.core.games.pergamemnon.state import State, player, with_player
from agon.events.base import Event, GameCreated, PlayerSeat
from agon.events.pergamemnon import CardsDrawn, CreaturesRevealed, NationsDealt, StarterDrawn

rs = RULESET
replace = msgspec.structs.replace


def unit(name: str, weapon: str, attack: int, helmet: int, armour: int, shield: int, **extra: Any) -> dict[str, Any]:
    spec = {
        "name": name,
        "weapon": weapon,
        "attack": attack,
        "helmet": helmet,
        "armour": armour,
        "shield": shield,
        "charisma": 1,
        "points": 1,
    }
    spec.update(extra)
    return spec


def filler(n: int) -> list[dict[str, Any]]:
    """Plain cards to make a deck long enough: sword 1, every defence 1."""
    return [unit("Recruit", "sword", 1, 1, 1, 1, count=n, charisma=0, points=0)]


def card_set(armies: Mapping[str, list[dict[str, Any]]] | None = None, creatures: list[dict[str, Any]] | None = None):
    """The bundled card set with some nations' armies (and the creatures) replaced."""
    data = copy.deepcopy(rs.default_cards())
    for nid, army in (armies or {}).items():
        data["nations"][nid]["army"] = army
    if creatures is not None:
        data["creatures"] = creatures
    return data


def created(n: int, cards: dict[str, Any] | None = None, names: Sequence[str] | None = None) -> GameCreated:
    names = list(names or ["Alice", "Bob", "Carol", "Dave", "Eve"][:n])
    cards = cards if cards is not None else rs.default_cards()
    rs.check_setup(names, {}, cards)
    return GameCreated(
        ruleset="pergamemnon",
        ruleset_version=rs.version,
        players=tuple(PlayerSeat(x) for x in names),
        seed=1,
        cards=cards,
    )


def play(state: State, *events: Event) -> State:
    """Check each event as the service does, then apply it."""
    for e in events:
        check(rs, state, e)
        state = rs.apply(state, e)
    return state


def refused(state: State, event: Event) -> str:
    try:
        check(rs, state, event)
    except RuleViolation as e:
        return e.rule
    raise AssertionError(f"{event!r} was accepted")


def draw_first(state: State) -> State:
    """Answer the pending chance with its first items (a deterministic 'luck')."""
    p = rs.pending(state)
    assert isinstance(p, Chance), p
    return play(state, p.build(p.items[: p.count]))


def setup(
    nations: Sequence[str],
    hands: Mapping[str, Sequence[str]] | None = None,
    cards: dict[str, Any] | None = None,
    creatures: Sequence[str] | None = None,
    starter: str | None = None,
) -> State:
    """A game after setup: nations dealt in seat order, the chosen creatures and hands, ``starter`` to act."""
    g = created(len(nations), cards)
    s = rs.initial_state(g)
    s = play(s, NationsDealt(nations=tuple(nations)))
    if creatures is None:
        s = draw_first(s)
    else:
        s = play(s, CreaturesRevealed(cards=tuple(creatures)))
    hands = hands or {}
    for p in g.names:
        if p in hands:
            s = play(s, CardsDrawn(player=p, cards=tuple(hands[p])))
        else:
            s = draw_first(s)
    if s.phase == "starter":
        s = play(s, StarterDrawn(player=s.tied[0]))
    if starter is not None:
        s = replace(s, current=[p.name for p in s.players].index(starter))
    return s


def refill_all(state: State) -> State:
    """Answer every pending draw with the first cards of the source."""
    while isinstance(rs.pending(state), Chance):
        state = draw_first(state)
    return state


def hand(state: State, name: str) -> tuple[str, ...]:
    return player(state, name).hand


def with_state_player(state: State, name: str, **changes: Any) -> State:
    """The given state with some of one player's fields set (a 'given' position)."""
    return with_player(state, replace(player(state, name), **changes))


# A card set for battle tests: every nation has the same cards with extreme values.
NATIONS = ("rome", "egypt", "greece", "carthage", "persia")


def army() -> list[dict]:
    return [
        unit("Leader", "sword", 2, 2, 2, 2, leader=True, charisma=3, points=3),
        unit("Champion", "sword", 9, 9, 9, 9, charisma=1, points=2),
        unit("Weakling", "sword", 1, 1, 1, 1, charisma=2, points=1),
        unit("Runner", "sword", 1, 1, 1, 1, flee=True, points=1),
        unit("Veteran", "sword", 1, 1, 1, 1, secured=True, points=2),
        unit("Shieldbearer", "bow", 3, 1, 1, 6, charisma=0, points=0),
        *filler(4),
    ]


def battle_game(nations=("rome", "carthage", "greece"), hands=None):
    """Alice, Bob, Carol... with ``nations``, each holding the named cards of the ``army()`` above, Alice to act."""
    hands = hands or {}
    names = ["Alice", "Bob", "Carol", "Dave", "Eve"]
    full = {}
    for name, nation in zip(names, nations):
        size = 4 if nation == "persia" else 3
        given = hands.get(name, ("champion", "weakling", "leader", "runner")[:size])
        full[name] = tuple(f"{nation}.{c}" for c in given)
    return setup(list(nations), full, cards=card_set({n: army() for n in NATIONS}), starter="Alice")

"""Helpers for the Adamastor tests: games started through real events, states adjusted field by field."""

from __future__ import annotations

import copy
from typing import Any

from msgspec.structs import replace

from agon.core.games.adamastor import RULESET
from agon.core.games.adamastor.board import build_board
from agon.core.games.adamastor.data import compile_cards
from agon.core.games.adamastor.state import State, sort_strip
from agon.events.adamastor import FleetPlaced, MapCardRevealed, PlayerCardsDealt
from agon.events.base import Event, GameCreated, PlayerSeat

RS = RULESET


def created(players: int = 1, options: dict | None = None, cards: dict | None = None, seed: int = 1) -> GameCreated:
    seats = tuple(PlayerSeat(f"P{i + 1}") for i in range(players))
    return GameCreated(
        ruleset="adamastor",
        ruleset_version=RS.version,
        players=seats,
        seed=seed,
        options=options or {},
        cards=cards if cards is not None else RS.default_cards(),
    )


def act(s: State, e: Event) -> State:
    """Apply ``e`` after checking the rules accept it."""
    reason = RS.validate(s, e)
    assert reason is None, reason
    return RS.apply(s, e)


def refused(s: State, e: Event) -> str:
    reason = RS.validate(s, e)
    assert reason is not None, f"{e!r} should be refused"
    return reason


def started(
    strip: tuple[str, ...] = ("c40", "c39", "c38"),
    hand: tuple[str, ...] = ("c1", "c2", "c3"),
    options: dict | None = None,
    first_map: str = "R1",
    place: str = "0b",
    cards: dict | None = None,
) -> State:
    """A solo game just dealt (round 1, action phase)."""
    s = RS.initial_state(created(1, options, cards))
    s = act(s, MapCardRevealed(position=0, card=first_map))
    s = act(s, FleetPlaced(space=place))
    shown = "c37" if (options or {}).get("less_luck") else ""
    return act(s, PlayerCardsDealt(strip=strip, hands=(hand,), shown=shown))


def with_strip(s: State, strip: tuple[str, ...]) -> State:
    used = set(strip)
    deck = tuple(c for c in s.deck if c not in used) + tuple(c for c in s.strip if c not in used)
    return replace(s, strip=sort_strip(s, strip), deck=tuple(sorted(deck, key=lambda c: int(c[1:]))))


def pull(s: State, *cards: str) -> State:
    """Take cards out of the deck (so they can be placed elsewhere by the test)."""
    return replace(s, deck=tuple(c for c in s.deck if c not in cards))


def find(s: State, pred: Any, exclude: tuple[str, ...] = ()) -> list[str]:
    return [c for c in sorted(s.cards.player, key=lambda c: s.card(c).number) if pred(s.card(c)) and c not in exclude]


# The map of the rulebook's Imagem 4, built so that every cost its example states holds.
EXAMPLE_MAP = {
    "id": "X",
    "kind": "regular",
    "width": 4,
    "spaces": [
        {"at": "0b", "type": "empty", "label": "A"},
        {"at": "0a", "type": "rough", "label": "B"},
        {"at": "1b", "type": "current", "current": "E", "label": "C"},
        {"at": "2b", "type": "empty", "clouds": 1, "label": "E"},
        {"at": "2c", "type": "current", "current": "SE", "label": "F"},
        {"at": "3d", "type": "rough", "island": 3, "label": "D"},
        {"at": "4d", "type": "rough", "island": 1, "label": "G"},
    ],
    "links": ["0b-0a", "0b-1b", "1b-2b", "1b-2c", "1b-3d", "2c-2b", "2c-3d", "2b-3d", "3d-4d"],
}


def example_cards() -> dict[str, Any]:
    cards = copy.deepcopy(RS.default_cards())
    cards["maps"].append(copy.deepcopy(EXAMPLE_MAP))
    return cards


def on_example_map(s: State, at: str = "A") -> State:
    """Put the fleet of a started game (made with ``example_cards``) on the Imagem 4 map, at label ``at``."""
    source = copy.deepcopy(s.cards.source)
    if not any(m["id"] == "X" for m in source["maps"]):
        source["maps"].append(copy.deepcopy(EXAMPLE_MAP))
    cards = compile_cards(source)
    board = build_board(cards, ("X",))
    return replace(s, cards=cards, maps=("X",), board=board, fleet=label(board, at))


def label(board: Any, name: str) -> str:
    return next(sp.id for sp in board.spaces if sp.label == name)

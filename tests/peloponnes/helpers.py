"""Building Peloponnes games for the tests: a card set with test cards of chosen values, setups with chosen luck,
tableaus put together directly, and events played through the same check the service uses."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import pytest

from agon.core.engine import Chance, RuleViolation, check
from agon.core.games.peloponnes import RULESET
from agon.core.games.peloponnes.state import Seat, Slot, State
from agon.events.base import Event, GameCreated, PlayerSeat
from agon.events.peloponnes import CivilizationsDealt, Coins, CoinsDrawn, PowerCardsRevealed

rs = RULESET
replace = msgspec.structs.replace


def power(cid: str, kind: str = "land", **kw: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "id": cid,
        "name": kw.pop("name", cid),
        "kind": kind,
        "era": kw.pop("era", "C"),
        "symbol": "",
        "cost": [0, 0],
        "value": 1,
        "income": [0, 0],
        "people": 0,
        "power": 0,
        "special": "",
        "protects": "",
        "produce": [0, 0, 0],
        "supply": False,
    }
    spec.update(kw)
    return spec


def civ(cid: str, arrow: int, **kw: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"id": cid, "name": kw.pop("name", cid), "arrow": arrow, "coins": 3, "people": 0}
    spec.update({"power": 0, "produce": [0, 0, 0], "symbol": ""})
    spec.update(kw)
    return spec


TEST_POWER = [
    # Rulebook 'Bens de Luxo' examples: a building costing 4 stone; one costing 5 wood.
    power("T_STONE4", "building", name="Stone Temple", cost=[0, 4], value=3, power=3),
    power("T_WOOD5", "building", name="Wooden Hall", cost=[5, 0], value=3, power=3),
    power("T_FIELD", name="Big Field", people=2, produce=[0, 0, 3]),
    power("T_GRAIN4", name="Granary Land", people=1, produce=[0, 0, 4]),
    power("T_VILLAGE", name="Village", people=4),
    power("T_MARKET", "building", name="Test Market", special="market"),
    power("T_AGORA", "building", name="Test Agora", special="agora"),
    power("T_BARRACKS", "building", name="Test Barracks", special="barracks"),
    power("T_PALISADE", "building", name="Test Palisade", special="palisade"),
    power("T_WELL", "building", name="Test Well", protects="plague"),
    power("T_STOA", "building", name="Test Stoa", protects="decline"),
    power("T_B1", "building", name="House 1", power=1, people=1),
    power("T_B2", "building", name="House 2", power=2),
    power("T_B3", "building", name="House 3", power=3),
    power("T_B4", "building", name="House 4", power=4, cost=[1, 1]),
    power("T_L1", name="Land 1", people=1, produce=[0, 0, 1], symbol="tempest"),
    power("T_L2", name="Land 2", people=1, produce=[0, 0, 2], symbol="tempest"),
    power("T_L3", name="Land 3", people=1, produce=[0, 0, 2], symbol="tempest"),
    power("T_L4", name="Land 4", people=2, produce=[1, 0, 0]),
    # Auction cards: two of value 2, one of 3 (middle); conquest row cards of value 1, 2, 3.
    power("T_V2A", name="Field A", value=2, people=1),
    power("T_V2B", name="Field B", value=2, people=1),
    power("T_V3", name="Field C", value=3, people=1),
    power("T_C1", name="Hill", value=1, people=1),
    power("T_C2", name="Shrine", kind="building", value=2, power=2),
    power("T_C3", name="Fort", value=3, people=2),
    power("T_MILL", "building", name="Mill", cost=[1, 0], produce=[1, 0, 0], power=1),
    power("T_RICH", name="Rich Land", income=[2, 1]),
]

# The tables the tests rely on (the bundled ones are provisional and may be corrected).
TEST_TABLES = {
    "income": [[0, 1], [4, 2], [8, 3]],
    "luxury_income": [[11, 1], [14, 2]],
    "catastrophe_steps": 3,
    "luxury_card": [[3, 1, 1], [6, 2, 2]],
}

AUCTION_ROW = ("T_V2A", "T_V2B", "T_V3", "T_C1", "T_C2", "T_C3")

TEST_CIVS = [
    # Leonidas produces 1 stone and 2 wood (first example), or 2 stone and 4 wood (second example).
    civ("leonidas1", 91, name="Leonidas' polis", produce=[2, 1, 0]),
    civ("leonidas2", 92, name="Leonidas' second polis", produce=[4, 2, 0]),
    civ("helena", 93, name="Helena's polis", people=9, produce=[0, 0, 12]),
    civ("plain", 94, name="Plain polis", people=1, power=1, produce=[0, 0, 1]),
]


def card_set() -> dict[str, Any]:
    cards = copy.deepcopy(rs.default_cards())
    cards["power"] += TEST_POWER
    cards["civilizations"] += TEST_CIVS
    cards["tables"] = copy.deepcopy(TEST_TABLES)
    return cards


def created(n: int = 3, cards: dict[str, Any] | None = None, names: tuple[str, ...] = ()) -> GameCreated:
    names = names or ("Alice", "Bob", "Carol", "Dimitrios", "Helena")[:n]
    return GameCreated(
        ruleset="peloponnes",
        ruleset_version=rs.version,
        players=tuple(PlayerSeat(p) for p in names),
        seed=1,
        cards=cards if cards is not None else card_set(),
    )


def play(state: State, *events: Event) -> State:
    """Each event checked as the service checks it (decisions by their player), then applied."""
    for e in events:
        p = rs.pending(state)
        actor = getattr(e, "player", None) if not isinstance(p, Chance) else None
        check(rs, state, e, actor)
        state = rs.apply(state, e)
    return state


def refused(state: State, event: Event) -> str:
    with pytest.raises(RuleViolation) as err:
        check(rs, state, event, getattr(event, "player", None) if not isinstance(rs.pending(state), Chance) else None)
    return err.value.rule


def dealt(
    civs: tuple[str, ...] = ("argos", "corinth", "sparta"), hands: dict[str, str] | None = None, n: int | None = None
) -> State:
    """A game after setup: civilizations dealt in seat order, coin cards drawn (``hands``: player -> backs, one
    letter each: w s g p; default all wood)."""
    n = n or len(civs)
    s = rs.initial_state(created(n))
    s = play(s, CivilizationsDealt(civilizations=civs))
    letters = {"w": "wood", "s": "stone", "g": "grain", "p": "people"}
    while s.draws:
        head = s.draws[0]
        wanted = (hands or {}).get(head.player)
        backs = tuple(letters[c] for c in wanted) if wanted else ("wood",) * head.count
        s = play(s, CoinsDrawn(player=head.player, coins=backs))
    return s


def reveal(s: State, *cards: str) -> State:
    return play(s, PowerCardsRevealed(cards=cards))


def auction_round(hands: dict[str, Coins] | None = None) -> State:
    """Three players (turn order Alice, Bob, Carol) at the auction of the test row: middle T_V2A (2), T_V2B (2),
    T_V3 (3); conquest row T_C1 (1), T_C2 (2), T_C3 (3). Each holds 6 wood unless ``hands`` says otherwise."""
    s = dealt()
    for name in s.players:
        s = seat(s, name, hand=(hands or {}).get(name, Coins(wood=6)))
    s = replace(s, power_left=AUCTION_ROW + s.cat.era_cards("B"))
    return reveal(s, *AUCTION_ROW)


def seat(s: State, name: str, **changes: Any) -> State:
    return s.with_seat(replace(s.seat(name), **changes))


def slots(*cards: str) -> tuple[Slot, ...]:
    return tuple(Slot(c) for c in cards)


def coins(wood: int = 0, stone: int = 0, grain: int = 0, people: int = 0) -> Coins:
    return Coins(wood, stone, grain, people)


def at(s: State, phase: str, todo: tuple[tuple[str, str], ...]) -> State:
    """The state put at a decision directly (for tests of one rule on a chosen tableau)."""
    return replace(s, phase=phase, todo=todo, draws=())


def bare(s: State, name: str, civ_id: str = "plain", **changes: Any) -> State:
    """A seat reset to a chosen civilization with no cards, coins or luxury, then ``changes``."""
    fresh = Seat(name=name, civ=Slot(civ_id))
    return s.with_seat(replace(fresh, **changes))

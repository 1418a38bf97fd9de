"""The card set: reading and checking ``cards.toml`` (rulebook, "Componentes" and "Cartas de Poder"; CARD-DATA.md).

``default_cards`` loads the bundled file; everything else reads the plain dict a game was created with
(``GameCreated.cards``), so a corrected set typed by a person who owns the game is played as given.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import msgspec

CATASTROPHES: tuple[str, ...] = ("plague", "earthquake", "tempest", "drought", "decline")
CATASTROPHE_NAMES = {
    "plague": "Plague",
    "earthquake": "Earthquake",
    "tempest": "Tempest",
    "drought": "Drought",
    "decline": "Decline",
}
SPECIALS = ("", "market", "agora", "barracks", "palisade")
SPECIAL_TEXTS = {
    "market": "a bid counts half a coin more against another bid (1 more with both Market and Agora)",
    "agora": "a bid counts half a coin more against another bid (1 more with both Market and Agora)",
    "barracks": "the conquest row costs 1 coin less (2 less with both Barracks and Palisade)",
    "palisade": "the conquest row costs 1 coin less (2 less with both Barracks and Palisade)",
}
"""A special function in words (rulebook, 'Edifícios Especiais': 'Mercado + Ágora', 'Quartel + Paliçada')."""
ERAS = ("A", "B", "C")
ROUNDS = 8
ROW_SIZE = 6
LUXURY_MAX = 17
LUXURY_AFTER_DECLINE = 3


class PowerCard(msgspec.Struct, frozen=True):
    id: str
    name: str
    kind: str
    era: str
    symbol: str
    cost_wood: int
    cost_stone: int
    value: int
    income_coins: int
    income_luxury: int
    people: int
    power: int
    special: str
    protects: str
    wood: int
    stone: int
    grain: int
    supply: bool


class Civilization(msgspec.Struct, frozen=True):
    id: str
    name: str
    arrow: int
    coins: int
    people: int
    power: int
    wood: int
    stone: int
    grain: int
    symbol: str


class Catalog(msgspec.Struct, frozen=True):
    """The card set of one game, indexed."""

    power: dict[str, PowerCard]
    civs: dict[str, Civilization]
    coins: tuple[int, int, int, int]
    income: tuple[tuple[int, int], ...]
    luxury_income: tuple[tuple[int, int], ...]
    catastrophe_steps: int
    luxury_card: tuple[tuple[int, int, int], ...]
    provisional: bool

    def name(self, card_id: str) -> str:
        if card_id in self.power:
            return self.power[card_id].name
        if card_id in self.civs:
            return self.civs[card_id].name
        if card_id == "luxury":
            return "the luxury card"
        return card_id

    def era_cards(self, era: str) -> tuple[str, ...]:
        return tuple(sorted(c.id for c in self.power.values() if c.era == era))


def default_cards() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("cards.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _pair(v: Any, n: int, what: str) -> list[int]:
    if not isinstance(v, list) or len(v) != n or not all(isinstance(x, int) and x >= 0 for x in v):
        raise ValueError(f"{what} must be a list of {n} whole numbers of at least 0")
    return v


def parse(cards: dict[str, Any]) -> Catalog:
    """Read a card set; raises ValueError with one line naming the first malformed entry."""
    if not isinstance(cards, dict) or "power" not in cards or "civilizations" not in cards:
        raise ValueError("the card set needs 'power' and 'civilizations' lists (see `agon cards peloponnes`)")
    power: dict[str, PowerCard] = {}
    provisional = False
    for raw in cards["power"]:
        cid = str(raw.get("id", "?"))
        where = f"power card {cid}"
        try:
            kind, era, symbol = raw["kind"], raw["era"], raw.get("symbol", "")
            if kind not in ("building", "land"):
                raise ValueError(f"{where}: kind must be building or land")
            if era not in ERAS:
                raise ValueError(f"{where}: era must be A, B or C")
            if symbol not in ("", *CATASTROPHES) or raw.get("protects", "") not in ("", *CATASTROPHES):
                raise ValueError(f"{where}: catastrophe names are {', '.join(CATASTROPHES)}")
            if raw.get("special", "") not in SPECIALS:
                raise ValueError(f"{where}: special must be one of {', '.join(s for s in SPECIALS if s)}")
            cost = _pair(raw.get("cost", [0, 0]), 2, f"{where}: cost")
            income = _pair(raw.get("income", [0, 0]), 2, f"{where}: income")
            prod = _pair(raw.get("produce", [0, 0, 0]), 3, f"{where}: produce")
            nums = [raw["value"], raw.get("people", 0), raw.get("power", 0)]
            if not all(isinstance(x, int) and x >= 0 for x in nums) or raw["value"] < 1:
                raise ValueError(f"{where}: value (1 or more), people and power must be whole numbers")
        except KeyError as e:
            raise ValueError(f"{where}: missing field {e.args[0]}") from None
        if cid in power:
            raise ValueError(f"power card id {cid} is used twice")
        power[cid] = PowerCard(
            cid, str(raw.get("name", cid)), kind, era, symbol, cost[0], cost[1], raw["value"], income[0], income[1],
            raw.get("people", 0), raw.get("power", 0), raw.get("special", ""), raw.get("protects", ""),
            prod[0], prod[1], prod[2], bool(raw.get("supply", False)),
        )  # fmt: skip
        provisional = provisional or bool(raw.get("provisional", False))
    civs: dict[str, Civilization] = {}
    for raw in cards["civilizations"]:
        cid = str(raw.get("id", "?"))
        try:
            prod = _pair(raw.get("produce", [0, 0, 0]), 3, f"civilization {cid}: produce")
            civ = Civilization(
                cid, str(raw.get("name", cid)), int(raw["arrow"]), int(raw["coins"]), int(raw.get("people", 0)),
                int(raw.get("power", 0)), prod[0], prod[1], prod[2], raw.get("symbol", ""),
            )  # fmt: skip
        except KeyError as e:
            raise ValueError(f"civilization {cid}: missing field {e.args[0]}") from None
        if civ.symbol not in ("", *CATASTROPHES):
            raise ValueError(f"civilization {cid}: catastrophe names are {', '.join(CATASTROPHES)}")
        civs[cid] = civ
        provisional = provisional or bool(raw.get("provisional", False))
    if len({c.arrow for c in civs.values()}) != len(civs):
        raise ValueError("two civilizations share an arrow number; the turn order at setup needs distinct numbers")
    if power and power.keys() & civs.keys():
        raise ValueError("a civilization id is also a power card id")
    coins = cards.get("coins", {})
    counts = tuple(int(coins.get(k, 0)) for k in ("wood", "stone", "grain", "people"))
    tables = cards.get("tables", {})
    try:
        income = tuple((int(a), int(b)) for a, b in tables["income"])
        lux_income = tuple((int(a), int(b)) for a, b in tables.get("luxury_income", []))
        lux_card = tuple((int(a), int(b), int(c)) for a, b, c in tables.get("luxury_card", []))
        steps = int(tables.get("catastrophe_steps", 3))
    except (KeyError, ValueError, TypeError):
        raise ValueError("tables: income, luxury_income and luxury_card must be lists of number rows") from None
    provisional = provisional or bool(tables.get("provisional", False))
    return Catalog(power, civs, counts, income, lux_income, steps, lux_card, provisional)  # type: ignore[arg-type]


def check(cards: dict[str, Any], players: int) -> Catalog:
    cat = parse(cards)
    if len(cat.civs) < players:
        raise ValueError(f"the card set has {len(cat.civs)} civilizations, one is needed for each of {players} players")
    if sum(cat.coins) < 10 * players:
        raise ValueError("the coin deck is too small: the card set needs at least 10 coin cards per player")
    if len(cat.power) < ROW_SIZE:
        raise ValueError("the power deck needs at least 6 cards (one round's reveal)")
    if cat.catastrophe_steps < 1:
        raise ValueError("tables.catastrophe_steps must be at least 1")
    return cat


def table_row(table: tuple[tuple[int, ...], ...], key: int) -> tuple[int, ...] | None:
    """The last row whose first number is at most ``key`` (the summary card's tables), or None."""
    best = None
    for row in table:
        if row[0] <= key and (best is None or row[0] >= best[0]):
            best = row
    return best

"""The card set: loading the bundled ``cards.toml`` and turning a game's plain card dict into a lookup table.

Follows the rulebook's 'Componentes' and 'Nações' (../shared/rules/pergamemnon-rulebook.pt.txt) and
../shared/rules/CARD-DATA.md: 11 army cards per nation (leader first), 24 creatures, 21 charisma cards worth 1,
a city card per nation with its advantage (``free``) and disadvantage (``captured``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

WEAPONS = ("sword", "spear", "bow")
DEFENCE_OF = {"sword": "helmet", "spear": "armour", "bow": "shield"}
"""The defence that answers each weapon (rulebook, 'A Batalha')."""
NATION_ORDER = ("rome", "egypt", "greece", "carthage", "persia")
EFFECT_KEYS = {"hand_size", "recruit", "attack", "defence", "half_points", "captures_flee", "flee_all", "loses_flee"}
NUMBERS = ("points", "attack", "helmet", "armour", "shield", "charisma")


class Card(msgspec.Struct, frozen=True):
    id: str
    name: str
    nation: str
    """The nation of an army card; "" for a creature."""
    weapon: str
    attack: int
    helmet: int
    armour: int
    shield: int
    charisma: int
    points: int
    cost: int = 0
    leader: bool = False
    flee: bool = False
    secured: bool = False

    @property
    def creature(self) -> bool:
        return not self.nation

    def defence(self, weapon: str) -> int:
        return int(getattr(self, DEFENCE_OF[weapon]))


class Effects(msgspec.Struct, frozen=True):
    """One side of a city card: what holds for the nation while its leader is free, or once captured."""

    hand_size: int = 3
    recruit: int = 0
    attack: int = 0
    defence: int = 0
    half_points: bool = False
    captures_flee: bool = False
    flee_all: bool = False
    loses_flee: bool = False


class Nation(msgspec.Struct, frozen=True):
    id: str
    name: str
    city: str
    leader: str
    start_charisma: int
    free: Effects
    captured: Effects
    army: tuple[str, ...]


class Table(msgspec.Struct, frozen=True):
    """The game's cards by id, its nations and creatures, and the number of charisma cards."""

    cards: dict[str, Card]
    nations: dict[str, Nation]
    creatures: tuple[str, ...]
    charisma_cards: int
    start_charisma: int


def default_cards() -> dict[str, Any]:
    with (Path(__file__).parent / "cards.toml").open("rb") as f:
        return tomllib.load(f)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _card(spec: Mapping[str, Any], card_id: str, nation: str) -> Card:
    return Card(
        id=card_id,
        name=str(spec["name"]),
        nation=nation,
        weapon=str(spec["weapon"]),
        attack=int(spec["attack"]),
        helmet=int(spec["helmet"]),
        armour=int(spec["armour"]),
        shield=int(spec["shield"]),
        charisma=int(spec["charisma"]),
        points=int(spec["points"]),
        cost=int(spec.get("cost", 0)),
        leader=bool(spec.get("leader", False)),
        flee=bool(spec.get("flee", False)),
        secured=bool(spec.get("secured", False)),
    )


def _expand(specs: list[Mapping[str, Any]], prefix: str, nation: str) -> list[Card]:
    out = []
    for spec in specs:
        count = int(spec.get("count", 1))
        base = f"{prefix}.{_slug(str(spec['name']))}"
        for i in range(count):
            out.append(_card(spec, base if count == 1 else f"{base}.{i + 1}", nation))
    return out


def build_table(data: Mapping[str, Any]) -> Table:
    """The lookup table of a card set already accepted by ``check_cards``."""
    cards: dict[str, Card] = {}
    nations: dict[str, Nation] = {}
    for nid, spec in data["nations"].items():
        army = _expand(spec["army"], nid, nid)
        cards.update((c.id, c) for c in army)
        leader = next(c.id for c in army if c.leader)
        nations[nid] = Nation(
            id=nid,
            name=str(spec.get("name", nid)),
            city=str(spec.get("city", nid)),
            leader=leader,
            start_charisma=int(spec.get("start_charisma", data.get("start_charisma", 1))),
            free=msgspec.convert(spec.get("free", {}), Effects),
            captured=msgspec.convert(spec.get("captured", {}), Effects),
            army=tuple(c.id for c in army),
        )
    creatures = _expand(data["creatures"], "creature", "")
    cards.update((c.id, c) for c in creatures)
    return Table(
        cards=cards,
        nations=nations,
        creatures=tuple(c.id for c in creatures),
        charisma_cards=int(data.get("charisma_cards", 21)),
        start_charisma=int(data.get("start_charisma", 1)),
    )


def _check_spec(spec: Any, where: str, creature: bool) -> None:
    if not isinstance(spec, Mapping) or not spec.get("name"):
        raise ValueError(f"card set: every card in {where} needs a name")
    name = f"{where} {spec['name']}"
    if spec.get("weapon") not in WEAPONS:
        raise ValueError(f"card set: {name} needs a weapon among sword, spear, bow")
    for key in NUMBERS + (("cost",) if creature else ()):
        value = spec.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"card set: {name} needs a whole number {key} of 0 or more")
    count = spec.get("count", 1)
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"card set: {name} has a bad count {count!r}")


def check_cards(data: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` with one line when ``data`` is not a playable Pergamemnon card set."""
    if not isinstance(data, Mapping):
        raise ValueError("card set: expected a table with 'nations' and 'creatures'")
    nations = data.get("nations")
    if not isinstance(nations, Mapping) or len(nations) < 2:
        raise ValueError("card set: 'nations' must list at least 2 nations")
    for nid, spec in nations.items():
        if not isinstance(spec, Mapping) or not isinstance(spec.get("army"), list):
            raise ValueError(f"card set: nation {nid} needs an 'army' list")
        for side in ("free", "captured"):
            effects = spec.get(side, {})
            if not isinstance(effects, Mapping) or set(effects) - EFFECT_KEYS:
                raise ValueError(f"card set: nation {nid} '{side}' may only use {', '.join(sorted(EFFECT_KEYS))}")
            try:
                msgspec.convert(effects, Effects)
            except msgspec.ValidationError as e:
                raise ValueError(f"card set: nation {nid} '{side}': {e}") from None
        for card in spec["army"]:
            _check_spec(card, f"nation {nid}", creature=False)
        leaders = sum(int(c.get("count", 1)) for c in spec["army"] if c.get("leader"))
        if leaders != 1:
            raise ValueError(f"card set: nation {nid} needs exactly one leader, has {leaders}")
    creatures = data.get("creatures")
    if not isinstance(creatures, list) or not creatures:
        raise ValueError("card set: 'creatures' must list the creature cards")
    for card in creatures:
        _check_spec(card, "creatures", creature=True)
    charisma = data.get("charisma_cards", 21)
    if not isinstance(charisma, int) or charisma < 0:
        raise ValueError("card set: 'charisma_cards' must be a whole number")
    table = build_table(data)
    if len(table.cards) != sum(len(n.army) for n in table.nations.values()) + len(table.creatures):
        raise ValueError("card set: two cards share a name and id within a nation or among the creatures")

"""Perikles component data: reading and checking a card set (cards.toml, from perikles-data-facts.md).

The card set travels in ``GameCreated.cards`` as plain data; ``parse`` turns it into the immutable ``Data`` the
rules read, and ``check`` says in one line what is wrong with a malformed set.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

import msgspec

KINDS = ("H", "T")
KIND_NAMES = {"H": "hoplite", "T": "trireme"}
SIDES = ("attacker", "defender")
ROLES = ("main", "ally")
PERSIA = "persia"
BATTLE_TILES = ("brasidas", "phormio", "persian-fleet", "thessalian-allies")
INFLUENCE_TILES = ("perikles", "alkibiades", "plague")


class Counter(msgspec.Struct, frozen=True):
    id: str
    city: str
    kind: str
    strength: int


class Location(msgspec.Struct, frozen=True):
    name: str
    city: str
    battles: str
    points: int
    bonus_side: str
    bonus_in: str

    def bonus(self, side: str, kind: str) -> int:
        return 1 if self.bonus_side == side and kind in self.bonus_in else 0


class Data(msgspec.Struct, frozen=True):
    cities: tuple[str, ...]
    statues: tuple[tuple[int, ...], ...]
    deck: tuple[str, ...]
    counters: tuple[Counter, ...]
    locations: tuple[Location, ...]
    columns: tuple[str, ...]
    attacker_needs: tuple[int, ...]
    defender_needs: tuple[int, ...]
    specials: tuple[str, ...]
    special_texts: tuple[str, ...]
    starting_cubes: int
    setup_placements: int
    display_size: int
    locations_per_turn: int
    turns: int
    fatal_defeats: int
    contested_loss: int
    unattacked_cubes: int
    units_per_commitment: int
    extra_units: int
    tiles_per_player: tuple[tuple[int, int], ...]
    loc_map: dict[str, Location] = {}
    counter_map: dict[str, Counter] = {}

    def city_index(self, city: str) -> int:
        return self.cities.index(city)

    def location(self, name: str) -> Location:
        return self.loc_map[name]

    def counter(self, cid: str) -> Counter:
        return self.counter_map[cid]

    def has_counter(self, cid: str) -> bool:
        return cid in self.counter_map

    def quota(self, players: int) -> int:
        return dict(self.tiles_per_player)[players]

    def statue_value(self, city: str, defeats: int) -> int:
        values = self.statues[self.city_index(city)]
        return values[defeats] if defeats < len(values) else 0


def tile_city(tile: str) -> str:
    """The city of an influence tile id ("athens-2" -> "athens"); "" for an "any" tile."""
    return "" if tile == "any" else tile.split("-")[0]


def tile_kind(tile: str) -> str:
    """"2", "candidate", "assassin" or "any"."""
    return "any" if tile == "any" else tile.split("-")[1]


def tile_cubes(tile: str) -> int:
    return 2 if tile_kind(tile) == "2" else 1


# --- words for a player: what the facts call a tile or a counter, never its id --------------------------------


def city_name(city: str) -> str:
    """A city as the facts write it ("athens" -> "Athens")."""
    return city.capitalize()


def tile_label(tile: str) -> str:
    """An influence tile in a list, as the facts' deck table names it: "Megara 2-cube", "Argos candidate",
    "Thebes assassin", "Any" (perikles-data-facts.md, 'Influence deck'). A string that is no tile of the deck's kinds
    is told as given."""
    kind = tile_kind(tile)
    if kind == "any":
        return "Any"
    if kind not in ("2", "candidate", "assassin"):
        return tile
    return f"{city_name(tile_city(tile))} {'2-cube' if kind == '2' else kind}"


def tile_name(tile: str, article: bool = False) -> str:
    """An influence tile in a sentence: "Megara 2-cube tile" ("a Megara 2-cube tile" with ``article``)."""
    name = f"{tile_label(tile)} tile"
    if not article:
        return name
    return ("an " if name[0] in "AEIOU" else "a ") + name


def tile_names(tiles: tuple[str, ...] | list[str]) -> str:
    """Tiles in a sentence: their labels joined by commas."""
    return ", ".join(tile_label(t) for t in tiles)


def special_name(tile: str) -> str:
    """A special tile by its title in the facts: "persian-fleet" -> "Persian Fleet tile" ("tile" tells the Perikles
    tile from the game and the man)."""
    return tile.replace("-", " ").title() + " tile"


def counter_label(c: Counter) -> str:
    """A military counter as a player reads it: its city, kind and strength, "Corinth hoplite 2" (the facts'
    counter table: city, hoplites or triremes, strength). Counters alike are alike to a player; the id's last
    number only tells them apart in what is typed."""
    return f"{city_name(c.city)} {KIND_NAMES.get(c.kind, c.kind)} {c.strength}"


def default_cards() -> dict[str, Any]:
    text = resources.files("agon.core.games.perikles").joinpath("cards.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def _counters(city: str, table: Mapping[str, int], kind: str) -> list[Counter]:
    out = []
    for strength, count in sorted(table.items(), key=lambda kv: int(kv[0])):
        for i in range(int(count)):
            out.append(Counter(f"{city}-{kind.lower()}{int(strength)}-{i + 1}", city, kind, int(strength)))
    return out


def parse(cards: Mapping[str, Any]) -> Data:
    """The immutable data of a card set. Raises ValueError (one line) when the set is malformed."""
    try:
        return _parse(cards)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise ValueError(f"the card set is malformed: {type(e).__name__} {e}") from None


@lru_cache(maxsize=32)
def _parse_frozen(blob: bytes) -> Data:
    """A set's data by its JSON, the 32 used last kept (a server's players may bring sets of their own, each a new
    key; games of one set, rollouts above all, find theirs)."""
    return _parse(msgspec.json.decode(blob))


def parse_cached(cards: Mapping[str, Any]) -> Data:
    """``parse`` with a cache keyed by the set's JSON (replays parse the same set again and again)."""
    try:
        return _parse_frozen(msgspec.json.encode(cards))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        raise ValueError(f"the card set is malformed: {type(e).__name__} {e}") from None


def _parse(cards: Mapping[str, Any]) -> Data:
    rules = cards["rules"]
    cities = tuple(c["name"] for c in cards["cities"])
    deck: list[str] = []
    counters: list[Counter] = []
    for c in cards["cities"]:
        name = c["name"]
        deck += [f"{name}-2"] * int(c["influence"])
        deck += [f"{name}-candidate"] * int(c["candidate"])
        deck += [f"{name}-assassin"] * int(c["assassin"])
        counters += _counters(name, c["hoplites"], "H") + _counters(name, c["triremes"], "T")
    persia = cards["persia"]
    deck += ["any"] * int(persia["any_tiles"])
    counters += _counters(PERSIA, persia["hoplites"], "H") + _counters(PERSIA, persia["triremes"], "T")
    locations = tuple(
        Location(
            name=str(loc["name"]),
            city=str(loc["city"]),
            battles=str(loc["battles"]),
            points=int(loc["points"]),
            bonus_side=str(loc.get("bonus_side", "")),
            bonus_in=str(loc.get("bonus_in", "")),
        )
        for loc in cards["locations"]
    )
    combat = cards["combat"]
    data = Data(
        cities=cities,
        statues=tuple(tuple(int(v) for v in c["statues"]) for c in cards["cities"]),
        deck=tuple(deck),
        counters=tuple(counters),
        locations=locations,
        columns=tuple(combat["columns"]),
        attacker_needs=tuple(int(v) for v in combat["attacker_needs"]),
        defender_needs=tuple(int(v) for v in combat["defender_needs"]),
        specials=tuple(sp["name"] for sp in cards["specials"]),
        special_texts=tuple(sp.get("text", "") for sp in cards["specials"]),
        starting_cubes=int(rules["starting_cubes"]),
        setup_placements=int(rules["setup_placements"]),
        display_size=int(rules["display_size"]),
        locations_per_turn=int(rules["locations_per_turn"]),
        turns=int(rules["turns"]),
        fatal_defeats=int(rules["fatal_defeats"]),
        contested_loss=int(rules["contested_winner_loses"]),
        unattacked_cubes=int(rules["unattacked_defence_cubes"]),
        units_per_commitment=int(rules["units_per_commitment"]),
        extra_units=int(rules["extra_units_for_a_cube"]),
        tiles_per_player=tuple(sorted((int(k), int(v)) for k, v in rules["tiles_per_player"].items())),
        loc_map={loc.name: loc for loc in locations},
        counter_map={c.id: c for c in counters},
    )
    _check(data)
    return data


def _check(d: Data) -> None:
    if "athens" not in d.cities or "sparta" not in d.cities:
        raise ValueError("Athens and Sparta must be among the cities")
    if len(d.columns) != 6 or len(d.attacker_needs) != 6 or len(d.defender_needs) != 6:
        raise ValueError("the combat table needs 6 columns with both sides' targets")
    for loc in d.locations:
        if loc.city not in d.cities:
            raise ValueError(f"location {loc.name} belongs to unknown city {loc.city}")
        if not loc.battles or set(loc.battles) - set(KINDS):
            raise ValueError(f"location {loc.name} battles must be made of H and T")
        if loc.bonus_side not in ("", *SIDES) or set(loc.bonus_in) - set(KINDS):
            raise ValueError(f"location {loc.name} has a bad bonus")
    if len({loc.name for loc in d.locations}) != len(d.locations):
        raise ValueError("location names must be unique")
    if len(set(d.cities)) != len(d.cities):
        raise ValueError("city names must be unique")
    # counts the rules deal, draw, play or place: each at least one (none at zero or below is playable)
    for name in ("setup_placements", "display_size", "locations_per_turn", "turns", "fatal_defeats",
                 "units_per_commitment"):
        if getattr(d, name) < 1:
            raise ValueError(f"rules.{name} must be at least 1, not {getattr(d, name)}")
    for name in ("starting_cubes", "contested_loss", "unattacked_cubes", "extra_units"):
        if getattr(d, name) < 0:
            raise ValueError(f"rules.{name} cannot be negative ({getattr(d, name)})")
    if any(v < 0 for row in d.statues for v in row) or any(v < 0 for _, v in d.tiles_per_player):
        raise ValueError("statue values and tiles per player cannot be negative")
    known = set(BATTLE_TILES) | set(INFLUENCE_TILES) | {"slave-revolt"}
    unknown = set(d.specials) - known
    if unknown:
        raise ValueError(f"unknown special tiles: {', '.join(sorted(unknown))}")

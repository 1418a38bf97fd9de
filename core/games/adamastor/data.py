"""Adamastor's card data: reading and checking a card set (rulebook 2 'Componentes', 2.1 'Anatomia das cartas').

``default_cards`` reads the bundled ``cards.toml``; ``compile_cards`` turns a game's plain card dict (from
``GameCreated.cards``) into immutable lookup tables and raises ``ValueError`` with one line when it is malformed.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

THREATS = ("revolt", "disease", "fatigue")
WEATHER_ICONS = ("sun", "cloud", "storm")
BONUS_KINDS = ("morale", "cards", "navigation", "action")
SKILL_NAMES = {
    "land_plus_one": ("Bônus terra: +1 carta", "1 more card to choose from on a land discovery"),
    "navigation_plus_one": ("1 Navegação", "1 more navigation point on every sail"),
    "draw_two_keep_one": ("Compra 2, fica com 1", "the draw action draws 2 cards and keeps 1"),
    "ignore_black_cloud": ("Ignora 1 nuvem preta", "1 black cloud counts as a normal cloud"),
    "ignore_revolt": ("Ignora ícones em jogo: revolta", "1 revolt icon in play is ignored"),
    "ignore_disease": ("Ignora ícones em jogo: doença", "1 disease icon in play is ignored"),
    "ignore_fatigue": ("Ignora ícones em jogo: fadiga", "1 fatigue icon in play is ignored"),
    "extra_action": ("+1 Acção", "1 more action every round"),
    "cheaper_skills": ("Cada habilidade -1", "each skill needs 1 motivation icon less"),
}
"""Each skill's name as rulebook 8 'Referência habilidades' heads it (the three 'Ignora ícones em jogo' skills with
the icon each ignores) and what it does, in a few English words, for the texts a player reads."""
SKILLS = tuple(SKILL_NAMES)
SEA_TYPES = ("empty", "rough", "current")
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
MAP_KINDS = ("regular", "final", "historical")
ROWS = "abcdef"


@dataclass(frozen=True)
class PlayerCard:
    id: str
    number: int
    title: str
    weather: str
    threats: tuple[tuple[str, int], ...]
    motivation: int
    navigation: int
    bonus_kind: str
    bonus: int
    trauma: str = ""
    skill: str = ""
    skill_cost: int = 0

    def threat(self, icon: str) -> int:
        return dict(self.threats).get(icon, 0)


@dataclass(frozen=True)
class MapSpace:
    at: str
    col: int
    row: int
    type: str
    current: str = ""
    clouds: int = 0
    island: int = 0
    destination: bool = False
    label: str = ""


@dataclass(frozen=True)
class MapCard:
    id: str
    kind: str
    width: int
    spaces: tuple[MapSpace, ...]
    links: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class WeatherRow:
    name: str
    min_black: int
    min_suns: int
    actions: int
    extra_cost: bool


@dataclass(frozen=True)
class Cards:
    """A compiled card set. Equality compares the plain source it was compiled from."""

    source: Any = field(compare=True, repr=False)
    player: dict[str, PlayerCard] = field(compare=False, repr=False, default_factory=dict)
    maps: dict[str, MapCard] = field(compare=False, repr=False, default_factory=dict)
    weather: tuple[WeatherRow, ...] = field(compare=False, repr=False, default=())
    costs: dict[str, int] = field(compare=False, repr=False, default_factory=dict)

    def maps_of(self, kind: str) -> tuple[str, ...]:
        return tuple(sorted(m.id for m in self.maps.values() if m.kind == kind))


def default_cards() -> dict[str, Any]:
    with (Path(__file__).parent / "cards.toml").open("rb") as f:
        return tomllib.load(f)


def _card(raw: dict[str, Any]) -> PlayerCard:
    n = int(raw["number"])
    threats = raw.get("threats", {})
    for icon in threats:
        if icon not in THREATS:
            raise ValueError(f"player card {n}: unknown threat icon {icon!r} (known: {', '.join(THREATS)})")
    if raw.get("weather") not in WEATHER_ICONS:
        raise ValueError(f"player card {n}: weather must be one of {', '.join(WEATHER_ICONS)}")
    bonus = raw.get("bonus", {})
    if bonus.get("kind") not in BONUS_KINDS:
        raise ValueError(f"player card {n}: land bonus kind must be one of {', '.join(BONUS_KINDS)}")
    trauma, skill = raw.get("trauma", ""), raw.get("skill", "")
    if bool(trauma) == bool(skill):
        raise ValueError(f"player card {n}: a card holds exactly one of a trauma or a skill")
    if trauma and trauma not in THREATS:
        raise ValueError(f"player card {n}: a trauma's icon must be one of {', '.join(THREATS)}")
    if skill and skill not in SKILLS:
        raise ValueError(f"player card {n}: unknown skill {skill!r} (known: {', '.join(SKILLS)})")
    return PlayerCard(
        id=f"c{n}",
        number=n,
        title=str(raw.get("title", f"card {n}")),
        weather=raw["weather"],
        threats=tuple(sorted((k, int(v)) for k, v in threats.items() if int(v) > 0)),
        motivation=int(raw.get("motivation", 0)),
        navigation=int(raw.get("navigation", 0)),
        bonus_kind=bonus["kind"],
        bonus=int(bonus.get("amount", 0)),
        trauma=trauma,
        skill=skill,
        skill_cost=int(raw.get("skill_cost", 0)),
    )


def _map(raw: dict[str, Any]) -> MapCard:
    mid = str(raw["id"])
    if raw.get("kind") not in MAP_KINDS:
        raise ValueError(f"map card {mid}: kind must be one of {', '.join(MAP_KINDS)}")
    spaces = []
    for s in raw.get("spaces", []):
        at = str(s["at"])
        col, row = int(at[:-1]), ROWS.index(at[-1])
        if s.get("type") not in SEA_TYPES:
            raise ValueError(f"map card {mid}, space {at}: type must be one of {', '.join(SEA_TYPES)}")
        cur = s.get("current", "")
        if (s["type"] == "current") != bool(cur) or (cur and cur not in COMPASS):
            raise ValueError(f"map card {mid}, space {at}: a current space needs a compass direction, others none")
        spaces.append(
            MapSpace(
                at=at,
                col=col,
                row=row,
                type=s["type"],
                current=cur,
                clouds=int(s.get("clouds", 0)),
                island=int(s.get("island", 0)),
                destination=bool(s.get("destination", False)),
                label=str(s.get("label", "")),
            )
        )
    ids = {s.at for s in spaces}
    links = []
    for text in raw.get("links", []):
        a, b = text.split("-")
        if a not in ids or b not in ids:
            raise ValueError(f"map card {mid}: link {text!r} names a space the card does not have")
        links.append((a, b))
    return MapCard(id=mid, kind=raw["kind"], width=int(raw["width"]), spaces=tuple(spaces), links=tuple(links))


def compile_cards(cards: dict[str, Any]) -> Cards:
    """The lookup tables of a card set; ``ValueError`` (one line) when the set cannot be played."""
    try:
        player = {c.id: c for c in map(_card, cards["player_cards"])}
        maps = {m.id: m for m in map(_map, cards["maps"])}
        weather = tuple(
            WeatherRow(
                name=str(w["name"]),
                min_black=int(w.get("min_black", 0)),
                min_suns=int(w.get("min_suns", 0)),
                actions=int(w["actions"]),
                extra_cost=bool(w.get("extra_cost", False)),
            )
            for w in cards["weather"]
        )
        costs = {k: int(v) for k, v in cards["sea_costs"].items()}
    except (KeyError, TypeError, AttributeError, IndexError) as e:
        raise ValueError(f"the card set is malformed: missing or bad field {e}") from None
    except ValueError as e:
        raise ValueError(f"the card set is malformed: {e}") from None
    need = ("empty", "rough", "current_with", "current_against", "current_across", "storm_extra")
    missing = [k for k in need if k not in costs]
    if missing:
        raise ValueError(f"the card set's sea_costs lacks {', '.join(missing)}")
    if len(player) < 10:
        raise ValueError(f"the card set's {len(player)} player cards are too few to deal and play")
    if not weather or weather[-1].min_black or weather[-1].min_suns:
        raise ValueError("the last row of the card set's weather table must match any sky (no minimums)")
    return Cards(source=cards, player=player, maps=maps, weather=weather, costs=costs)

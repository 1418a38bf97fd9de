"""Perikles state: one immutable value per position, and small queries over it.

Follows ../shared/rules/perikles-game-help.pt.txt (the whole turn) with perikles-data-facts.md (components).
Players and cities are referred to by index inside the state; events use names.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from agon.core.games.perikles.data import PERSIA, Counter, Data, tile_cubes

NOBODY = -1

# Phases, in the order a turn passes through them.
DEAL_SPECIALS = "deal-specials"
SETUP = "setup"
DEAL_LOCATIONS = "deal-locations"
DISPLAY = "display"
INFLUENCE = "influence"
NOMINATE = "nominate"
COMMIT = "commit"
BATTLE = "battle"
OVER = "over"


class Commit(msgspec.Struct, frozen=True):
    """A counter committed (face down) to a location this turn, by the player commanding it."""

    counter: str
    player: int
    location: str
    side: str
    role: str


class Battle(msgspec.Struct, frozen=True):
    """Where the battle phase stands: location ``loc`` (index in the turn's locations), its battle ``index``.

    ``token``: the battle token's position, attacker side positive; 2 steps toward a side win the battle.
    ``stage``: "start" (not yet opened), "tiles" (special tiles may be played), "dice" (rolling).
    ``winners``: "attacker"/"defender" per battle fought at this location ("" when none could be fought).
    """

    loc: int = 0
    index: int = 0
    token: int = 0
    stage: str = "start"
    asked: tuple[int, ...] = ()
    played: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()
    rolls: int = 0
    start: int = 0
    dice: tuple[tuple[int, int, int, int], ...] = ()
    tokens: tuple[int, ...] = ()


class Fought(msgspec.Struct, frozen=True):
    """A battle over (a derived fact kept for views and the "battles" projection, never an event)."""

    turn: int
    location: str
    index: int
    kind: str
    attack: int
    defence: int
    column: str
    dice: tuple[tuple[int, int, int, int], ...]
    tokens: tuple[int, ...]
    start: int
    winner: str
    lost: str
    automatic: bool
    played: tuple[str, ...]


class Held(msgspec.Struct, frozen=True):
    """A location's outcome this turn: who won its tile, and whether its city took a defeat."""

    turn: int
    location: str
    winner: str
    player: int
    defeat: bool
    cubes: int


class Request(msgspec.Struct, frozen=True):
    """A commitment waiting for a city leader's permission to defend as main defender."""

    player: int
    tile: str
    placements: tuple[tuple[str, str, str, str], ...]
    cube: str
    leader: int
    location: str


class State(msgspec.Struct, frozen=True):
    """``version``: the ruleset version the game was recorded under (``GameCreated.ruleset_version``), for the
    rules that changed between versions (RULES.md names them): a game is folded by the rules it was played with."""

    data: Data
    players: tuple[str, ...]
    version: int
    phase: str = DEAL_SPECIALS
    turn: int = 0
    first: int = 0
    actor: int = 0
    placed: int = 0
    cubes: tuple[tuple[int, ...], ...] = ()
    candidates: tuple[tuple[int, int], ...] = ()
    leaders: tuple[int, ...] = ()
    statues: tuple[tuple[int, ...], ...] = ()
    defeats: tuple[int, ...] = ()
    specials: tuple[str, ...] = ()
    used: tuple[bool, ...] = ()
    display: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    taken: tuple[int, ...] = ()
    refill: bool = False
    passes: int = 0
    locations: tuple[str, ...] = ()
    dealt: tuple[str, ...] = ()
    won: tuple[tuple[str, ...], ...] = ()
    commits: tuple[Commit, ...] = ()
    lost: tuple[str, ...] = ()
    revolted: tuple[str, ...] = ()
    request: Request | None = None
    refused: tuple[tuple[int, str], ...] = ()
    revolt_place: str = ""
    battle: Battle | None = None
    elections: tuple[str, ...] = ()
    fought: tuple[Fought, ...] = ()
    held: tuple[Held, ...] = ()


# ---------------------------------------------------------------------------------------------------------------
# Small immutable updates


def set_at(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1 :]


def add_cubes(s: State, city: str, player: int, n: int) -> tuple[tuple[int, ...], ...]:
    c = s.data.city_index(city)
    row = s.cubes[c]
    return set_at(s.cubes, c, set_at(row, player, max(0, row[player] + n)))


def replace(s: State, **kw) -> State:
    return msgspec.structs.replace(s, **kw)


# ---------------------------------------------------------------------------------------------------------------
# Queries


def pidx(s: State, name: str) -> int:
    return s.players.index(name) if name in s.players else NOBODY


def cube_count(s: State, city: str, player: int) -> int:
    return s.cubes[s.data.city_index(city)][player]


def leader_of(s: State, city: str) -> int:
    return s.leaders[s.data.city_index(city)]


def leads_any(s: State, player: int) -> bool:
    return player in s.leaders


def commands(s: State, player: int, city: str) -> bool:
    """May ``player`` command ``city``'s counters? Leaders their cities; players leading no city the Persians."""
    if city == PERSIA:
        return s.phase in (COMMIT, BATTLE) and not leads_any(s, player)
    return leader_of(s, city) == player


def next_seat(s: State, p: int) -> int:
    return (p + 1) % len(s.players)


def committed_ids(s: State) -> set[str]:
    return {c.counter for c in s.commits}


def at_home(s: State, counter: Counter) -> bool:
    return (
        counter.id not in s.lost and counter.id not in s.revolted and all(c.counter != counter.id for c in s.commits)
    )


def home_counters(s: State, player: int) -> list[Counter]:
    busy = committed_ids(s) | set(s.lost) | set(s.revolted)
    return [c for c in s.data.counters if c.id not in busy and commands(s, player, c.city)]


def units(s: State, location: str, side: str, kind: str | None = None) -> list[tuple[Commit, Counter]]:
    """Counters still standing at ``location`` on ``side`` (of ``kind`` when given), in commitment order."""
    out = []
    for cm in s.commits:
        if cm.location != location or cm.side != side or cm.counter in s.lost or cm.counter in s.revolted:
            continue
        counter = s.data.counter(cm.counter)
        if kind is None or counter.kind == kind:
            out.append((cm, counter))
    return out


def main_of(s: State, location: str, side: str) -> int:
    for cm in s.commits:
        if cm.location == location and cm.side == side and cm.role == "main":
            return cm.player
    return NOBODY


def two_cube_tiles_left(s: State) -> bool:
    return any(tile_cubes(t) == 2 for hand in s.hands for t in hand)


def eligible_tiles(s: State, player: int) -> list[str]:
    """The influence tiles ``player`` may spend now: 2-cube tiles while anyone still holds one."""
    hand = s.hands[player]
    if two_cube_tiles_left(s):
        return [t for t in hand if tile_cubes(t) == 2]
    return list(hand)


def location_points(s: State, names: Iterable[str]) -> int:
    return sum(s.data.location(n).points for n in names)

"""Perikles events (../shared/rules/perikles-game-help.pt.txt, perikles-data-facts.md).

Decisions carry the acting ``player`` so a decision typed out of turn is refused by name. Chance events
(tiles dealt, influence tiles revealed, battle dice, the Slave Revolt's victim) carry what was drawn or rolled.
Tags are stable: ``perikles.<snake_case>``.
"""

from __future__ import annotations

import msgspec

from agon.events.base import Event

# ---------------------------------------------------------------------------------------------------------------
# Chance


class SpecialTilesDealt(Event, tag="perikles.special_tiles_dealt"):
    """One special tile per player, in seat order."""

    tiles: tuple[str, ...]


class LocationsDealt(Event, tag="perikles.locations_dealt"):
    """The turn's location tiles, in the order their battles are fought."""

    locations: tuple[str, ...]


class InfluenceDisplayed(Event, tag="perikles.influence_displayed"):
    """The influence tiles laid out at the start of a turn, drawn from the shuffled deck."""

    tiles: tuple[str, ...]


class DisplayRefilled(Event, tag="perikles.display_refilled"):
    tile: str


class BattleDiceRolled(Event, tag="perikles.battle_dice_rolled"):
    """Both sides' 2d6, rolled at once."""

    attacker: tuple[int, int]
    defender: tuple[int, int]


class SlaveRevoltStruck(Event, tag="perikles.slave_revolt_struck"):
    """The Spartan hoplite counter the revolt removes (drawn blind: committed counters lie face down)."""

    counter: str


# ---------------------------------------------------------------------------------------------------------------
# Decisions


class StartingCubePlaced(Event, tag="perikles.starting_cube_placed"):
    player: str
    city: str


class InfluenceTileTaken(Event, tag="perikles.influence_tile_taken"):
    """A tile taken from the display and carried out in full: its cube(s), then its nomination or assassination.

    ``city``: where the cube goes for an "any" tile. ``nominee``/``nominee_city``/``slot``: the candidate a
    candidate tile nominates. ``target_city``/``target_slot``: the candidate an assassin tile removes. Empty when
    the tile has no such part or nothing is possible.
    """

    player: str
    tile: str
    city: str = ""
    nominee: str = ""
    nominee_city: str = ""
    slot: str = ""
    target_city: str = ""
    target_slot: str = ""


class CandidateNominated(Event, tag="perikles.candidate_nominated"):
    player: str
    city: str
    nominee: str
    slot: str


class NominationPassed(Event, tag="perikles.nomination_passed"):
    player: str


class Placement(msgspec.Struct, frozen=True):
    """One military counter sent to a location: ``side`` attacker/defender, ``role`` main/ally."""

    counter: str
    location: str
    side: str
    role: str


class ForcesCommitted(Event, tag="perikles.forces_committed"):
    """An influence tile spent to commit 0-2 counters (0-4 with a sacrificed ``cube`` city) to 1-2 locations."""

    player: str
    tile: str
    placements: tuple[Placement, ...] = ()
    cube: str = ""


class PermissionGiven(Event, tag="perikles.permission_given"):
    """A city's leader answers a request to be main defender of one of its locations."""

    player: str
    granted: bool


class CubeMove(msgspec.Struct, frozen=True):
    owner: str
    source: str
    target: str


class PeriklesPlayed(Event, tag="perikles.perikles_played"):
    player: str


class AlkibiadesPlayed(Event, tag="perikles.alkibiades_played"):
    player: str
    moves: tuple[CubeMove, ...]


class PlaguePlayed(Event, tag="perikles.plague_played"):
    player: str
    city: str


class SlaveRevoltPlayed(Event, tag="perikles.slave_revolt_played"):
    """``place``: a location where Spartan hoplites are committed, or "sparta" for those still at home."""

    player: str
    place: str


class BattleTilePlayed(Event, tag="perikles.battle_tile_played"):
    """Brasidas, Phormio, Persian Fleet or Thessalian Allies, played before the battle now to be fought."""

    player: str
    tile: str


class BattleTileKept(Event, tag="perikles.battle_tile_kept"):
    """A holder of an unused special tile keeps it for later, before a battle (from ruleset version 4 every holder
    is asked, whatever the tile, so keeping tells nothing of it; until version 3 only a holder whose tile could
    serve in this battle was asked)."""

    player: str


PeriklesEvent = (
    SpecialTilesDealt
    | LocationsDealt
    | InfluenceDisplayed
    | DisplayRefilled
    | BattleDiceRolled
    | SlaveRevoltStruck
    | StartingCubePlaced
    | InfluenceTileTaken
    | CandidateNominated
    | NominationPassed
    | ForcesCommitted
    | PermissionGiven
    | PeriklesPlayed
    | AlkibiadesPlayed
    | PlaguePlayed
    | SlaveRevoltPlayed
    | BattleTilePlayed
    | BattleTileKept
)

EVENTS: tuple[type[Event], ...] = (
    SpecialTilesDealt,
    LocationsDealt,
    InfluenceDisplayed,
    DisplayRefilled,
    BattleDiceRolled,
    SlaveRevoltStruck,
    StartingCubePlaced,
    InfluenceTileTaken,
    CandidateNominated,
    NominationPassed,
    ForcesCommitted,
    PermissionGiven,
    PeriklesPlayed,
    AlkibiadesPlayed,
    PlaguePlayed,
    SlaveRevoltPlayed,
    BattleTilePlayed,
    BattleTileKept,
)

"""Events of the Peloponnes Card Game (../shared/rules/peloponnes-card-game-rulebook.pt.txt).

Chance events record what was drawn (civilizations, power cards, coin cards); decision events record what a player
chose (a bid, a move of a displaced bid, a payment, a cover). Coin cards are identical on their coin side, so a
coin card is named by the symbol on its back: ``wood``, ``stone``, ``grain`` or ``people``; a payment is a count of
each (``Coins``) plus luxury goods used in place of coin cards.
"""

from __future__ import annotations

import msgspec

from agon.events.base import Event

COIN_KINDS: tuple[str, ...] = ("wood", "stone", "grain", "people")


class Coins(msgspec.Struct, frozen=True, omit_defaults=True):
    """A number of coin cards of each back (wood, stone, grain, inhabitants)."""

    wood: int = 0
    stone: int = 0
    grain: int = 0
    people: int = 0

    def total(self) -> int:
        return self.wood + self.stone + self.grain + self.people

    def get(self, kind: str) -> int:
        return int(getattr(self, kind))

    def plus(self, other: Coins) -> Coins:
        return Coins(
            self.wood + other.wood, self.stone + other.stone, self.grain + other.grain, self.people + other.people
        )

    def minus(self, other: Coins) -> Coins:
        return Coins(
            self.wood - other.wood, self.stone - other.stone, self.grain - other.grain, self.people - other.people
        )

    def covers(self, other: Coins) -> bool:
        """True when every count here is at least the one in ``other`` (and none is negative)."""
        return all(other.get(k) >= 0 and self.get(k) >= other.get(k) for k in COIN_KINDS)

    def describe(self) -> str:
        parts = [f"{self.get(k)} {k}" for k in COIN_KINDS if self.get(k)]
        return ", ".join(parts) or "none"

    @staticmethod
    def of(kinds: tuple[str, ...] | list[str]) -> Coins:
        return Coins(kinds.count("wood"), kinds.count("stone"), kinds.count("grain"), kinds.count("people"))


# --- chance ----------------------------------------------------------------------------------------------------


class CivilizationsDealt(Event, tag="peloponnes.civilizations_dealt"):
    """One civilization card per player, in seat order (setup)."""

    civilizations: tuple[str, ...]


class CoinsDrawn(Event, tag="peloponnes.coins_drawn"):
    """Coin cards drawn from the coin deck into a player's hand, named by their backs."""

    player: str
    coins: tuple[str, ...]


class PowerCardsRevealed(Event, tag="peloponnes.power_cards_revealed"):
    """Power cards turned up from the top of the power deck (the first ones to the middle, then the conquest row)."""

    cards: tuple[str, ...]


# --- auction ---------------------------------------------------------------------------------------------------


class BidPlaced(Event, tag="peloponnes.bid_placed"):
    """A bid of coin cards (and luxury goods used as coin cards) on a power card."""

    player: str
    card: str
    coins: Coins
    luxury: int = 0


class BidMoved(Event, tag="peloponnes.bid_moved"):
    """An outbid player moves the same bid to another power card."""

    player: str
    card: str


class BidWithdrawn(Event, tag="peloponnes.bid_withdrawn"):
    """An outbid player takes the bid back and passes (drawing 3 coin cards)."""

    player: str


class Passed(Event, tag="peloponnes.passed"):
    """A player passes instead of bidding (drawing 3 coin cards)."""

    player: str


# --- gaining buildings -----------------------------------------------------------------------------------------


class BuildingBuilt(Event, tag="peloponnes.building_built"):
    """A won building is paid: production first, the missing wood/stone with coin cards or luxury goods."""

    player: str
    card: str
    wood: int = 0
    stone: int = 0
    luxury: int = 0


class ConstructionStarted(Event, tag="peloponnes.construction_started"):
    """A won building is put under construction with one coin card (or a luxury good used as one)."""

    player: str
    card: str
    coin: str


class BuildingLost(Event, tag="peloponnes.building_lost"):
    """A won building that can neither be paid nor put under construction goes back to the box."""

    player: str
    card: str


# --- supply ----------------------------------------------------------------------------------------------------


class PopulationFed(Event, tag="peloponnes.population_fed"):
    """A player feeds the inhabitants their grain production does not: coin cards, luxury goods, removed cards."""

    player: str
    grain: int = 0
    people: int = 0
    luxury: int = 0
    removed: tuple[str, ...] = ()


class ConstructionPaid(Event, tag="peloponnes.construction_paid"):
    """Buildings under construction are finished (``finished``) against their summed cost; the others are lost."""

    player: str
    finished: tuple[str, ...] = ()
    wood: int = 0
    stone: int = 0
    luxury: int = 0


# --- catastrophes ----------------------------------------------------------------------------------------------


class CatastropheFaced(Event, tag="peloponnes.catastrophe_faced"):
    """The cards a catastrophe hits, each covered with a coin card (its back, or ``luxury``) or removed (``""``)."""

    player: str
    catastrophe: str
    cards: tuple[str, ...]
    coins: tuple[str, ...]


PeloponnesEvent = (
    CivilizationsDealt
    | CoinsDrawn
    | PowerCardsRevealed
    | BidPlaced
    | BidMoved
    | BidWithdrawn
    | Passed
    | BuildingBuilt
    | ConstructionStarted
    | BuildingLost
    | PopulationFed
    | ConstructionPaid
    | CatastropheFaced
)

EVENTS: tuple[type[Event], ...] = (
    CivilizationsDealt,
    CoinsDrawn,
    PowerCardsRevealed,
    BidPlaced,
    BidMoved,
    BidWithdrawn,
    Passed,
    BuildingBuilt,
    ConstructionStarted,
    BuildingLost,
    PopulationFed,
    ConstructionPaid,
    CatastropheFaced,
)

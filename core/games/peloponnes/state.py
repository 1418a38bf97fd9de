"""The game state and what is read off a player's tableau (rulebook, "Preparação", "Adicionando cartas de poder",
"Catástrofes" and "Pontuação").

A tableau card is a ``Slot``: covered by a coin card after a catastrophe (only its top stays visible: catastrophe
symbol, cost and inhabitants; RULES.md), or under construction with a coin card beneath it.
"""

from __future__ import annotations

import math

import msgspec

from agon.core.games.peloponnes.cards import LUXURY_AFTER_DECLINE, LUXURY_MAX, Catalog, table_row
from agon.events.peloponnes import Coins

NO_COINS = Coins()


class Slot(msgspec.Struct, frozen=True):
    card: str
    cover: str = ""
    """The coin card covering it (its back, or ``luxury``), "" when not covered."""
    cause: str = ""
    """The catastrophe that covered it."""
    under: str = ""
    """The coin card under a building under construction, "" when built."""


class Bid(msgspec.Struct, frozen=True):
    player: str
    card: str
    coins: Coins
    luxury: int = 0

    @property
    def count(self) -> int:
        """The number of coin cards bid (what the turn order reads)."""
        return self.coins.total() + self.luxury


class Draw(msgspec.Struct, frozen=True):
    player: str
    count: int
    reason: str


class Seat(msgspec.Struct, frozen=True):
    name: str
    civ: Slot | None = None
    buildings: tuple[Slot, ...] = ()
    lands: tuple[Slot, ...] = ()
    hand: Coins = NO_COINS
    luxury: int = 0
    luxury_card: str = "intact"
    """intact, declined (covered by Decline: at most 3 luxury goods) or removed (no luxury goods)."""
    luxury_cover: str = ""
    gained: str = ""
    """The power card gained this round (its one-time income is paid at income)."""

    def slots(self) -> tuple[Slot, ...]:
        """Every card on the tableau: civilization, buildings, lands."""
        return ((self.civ,) if self.civ else ()) + self.buildings + self.lands


class State(msgspec.Struct, frozen=True):
    """``version``: the ruleset version the game was recorded under (``GameCreated.ruleset_version``), for the
    rules that changed between versions (RULES.md names them): a game is folded by the rules it was played with."""

    cat: Catalog
    players: tuple[str, ...]
    version: int
    seats: tuple[Seat, ...] = ()
    order: tuple[str, ...] = ()
    round: int = 0
    phase: str = "setup"
    """setup, reveal, catastrophe, supply, auction, build, final_supply, over."""
    deck: Coins = NO_COINS
    discard: Coins = NO_COINS
    """The discard pile, face up ('5. Ganhar Cartas de Poder': "uma pilha de descarte virada para cima"): every
    seat sees its backs."""
    deck_known: bool = False
    """Whether every seat knows the backs in the coin deck: the face-up discard pile's once it is shuffled into a
    new deck, until a card is drawn from a deck holding more than one back (RULES.md, 'Who is told what'). Added in
    ruleset version 6; it is read by the views, the log and a refused draw's sentence, never by the rules."""
    draws: tuple[Draw, ...] = ()
    power_left: tuple[str, ...] = ()
    """Power cards still in the deck, era by era (their order is drawn when they are revealed)."""
    revealed: tuple[str, ...] = ()
    row: tuple[str, ...] = ()
    conquest: tuple[str, ...] = ()
    markers: tuple[int, ...] = (0, 0, 0, 0, 0)
    struck: tuple[str, ...] = ()
    striking: tuple[str, ...] = ()
    supply_due: bool = False
    todo: tuple[tuple[str, str], ...] = ()
    """Decisions still due in this phase, in turn order: (step, player)."""
    bids: tuple[Bid, ...] = ()
    loose: Bid | None = None
    """A bid that was outbid and must move at once (or be taken back)."""
    acted: tuple[str, ...] = ()
    passed: tuple[str, ...] = ()
    last_bids: tuple[tuple[str, int], ...] = ()
    """Each player's bid (coin cards, 0 for a pass) in the last auction, in the turn order it produced."""
    won: tuple[Bid, ...] = ()
    """The winning bids of the last auction (kept after the next round's start clears ``bids``)."""
    auction_round: int = 0
    """The round whose auction ended last: an event ended an auction when it changes this."""

    def auction_ended(self, after: State) -> bool:
        """True when the step from this state to ``after`` ended an auction (even when the next round began
        within the same step, as when no income draw follows)."""
        return after.auction_round != self.auction_round

    def seat(self, name: str) -> Seat:
        return self.seats[self.players.index(name)]

    def with_seat(self, seat: Seat) -> State:
        i = self.players.index(seat.name)
        return msgspec.structs.replace(self, seats=self.seats[:i] + (seat,) + self.seats[i + 1 :])


replace = msgspec.structs.replace
"""A copy of a state, seat or slot with some fields changed (msgspec's own, with no wrapper: it runs for every
change of every event)."""


# --- reading a tableau -----------------------------------------------------------------------------------------


def production(cat: Catalog, seat: Seat, exclude: str = "") -> tuple[int, int, int]:
    """Wood, stone, grain produced by the uncovered cards (a covered card's production is hidden)."""
    w = s = g = 0
    for slot in seat.slots():
        if slot.cover or slot.card == exclude:
            continue
        c = cat.power.get(slot.card) or cat.civs[slot.card]
        w, s, g = w + c.wood, s + c.stone, g + c.grain
    return w, s, g


def inhabitants(cat: Catalog, seat: Seat) -> int:
    """Inhabitants on the tableau: a covered power card keeps its (top) inhabitants, a covered civilization not."""
    total = 0
    for slot in seat.slots():
        if slot.card in cat.civs:
            total += 0 if slot.cover else cat.civs[slot.card].people
        else:
            total += cat.power[slot.card].people
    return total


def tableau_power(cat: Catalog, seat: Seat) -> int:
    total = 0
    for slot in seat.slots():
        if not slot.cover:
            total += (cat.power.get(slot.card) or cat.civs[slot.card]).power
    return total


def specials(cat: Catalog, seat: Seat, name: str, other: str = "") -> int:
    """Uncovered buildings with the special ``name`` (or ``other``, when given)."""
    if not seat.buildings:
        return 0
    power, wanted = cat.power, (name, other or name)
    return sum(1 for s in seat.buildings if not s.cover and power[s.card].special in wanted)


def bid_bonus(cat: Catalog, seat: Seat) -> float:
    """Market and Agora: each adds half a coin to every bid (rulebook, 'Mercado + Ágora')."""
    return 0.5 * specials(cat, seat, "market", "agora")


def conquest_price(cat: Catalog, seat: Seat, card: str) -> int:
    """Conquest row: value + 3, one less for each of Barracks and Palisade (rulebook, 'Quartel + Paliçada')."""
    return cat.power[card].value + 3 - specials(cat, seat, "barracks", "palisade")


def protected(cat: Catalog, seat: Seat, catastrophe: str) -> bool:
    """A building's protection symbol (uncovered), or three symbols of that catastrophe on the tableau's cards."""
    for s in seat.buildings:
        if not s.cover and cat.power[s.card].protects == catastrophe:
            return True
    symbols = 0
    for s in seat.slots():
        card = cat.power.get(s.card) or cat.civs[s.card]
        symbols += card.symbol == catastrophe
    return symbols >= 3


def luxury_cap(seat: Seat) -> int:
    return {"intact": LUXURY_MAX, "declined": LUXURY_AFTER_DECLINE}.get(seat.luxury_card, 0)


def gain_luxury(seat: Seat, n: int) -> Seat:
    return replace(seat, luxury=max(seat.luxury, min(luxury_cap(seat), seat.luxury + n)))


def luxury_card_values(cat: Catalog, seat: Seat) -> tuple[int, int]:
    """Inhabitants and power points the luxury card shows (none once Decline covered or removed it)."""
    if seat.luxury_card != "intact":
        return 0, 0
    row = table_row(cat.luxury_card, seat.luxury)
    return (row[1], row[2]) if row else (0, 0)


def population_points(cat: Catalog, seat: Seat) -> int:
    return inhabitants(cat, seat) + seat.hand.people + luxury_card_values(cat, seat)[0]


def power_points(cat: Catalog, seat: Seat) -> int:
    """Power points: tableau, luxury card, and 1 per 6 of coin cards (people cards go to the population) and
    luxury goods together (rulebook, 'Pontuação')."""
    spare = seat.hand.total() - seat.hand.people + seat.luxury
    return tableau_power(cat, seat) + luxury_card_values(cat, seat)[1] + spare // 6


def final_score(cat: Catalog, seat: Seat) -> int:
    return min(population_points(cat, seat), power_points(cat, seat))


def thirds(n: int) -> int:
    return math.ceil(n / 3)

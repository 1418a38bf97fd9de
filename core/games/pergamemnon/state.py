"""Pergamemnon's state and the small facts derived from it (hand size, card values after the city effects).

Follows ../shared/rules/pergamemnon-rulebook.pt.txt, 'Preparação', 'O jogo' and 'Nações'. The state is an
immutable value: a table of the cards (from ``GameCreated.cards``), one ``PlayerState`` per seat, the creatures,
the charisma supply, the battle under way and what is left to do after a battle or a recruit.

Decks are kept as unordered sets: a card is drawn (a chance event) when it is revealed, which is the same luck
as a shuffled deck and lets a person at a real table type what they drew.
"""

from __future__ import annotations

import msgspec

from agon.core.entry import natural, natural_key
from agon.core.games.pergamemnon.cards import Card, Effects, Table


class PlayerState(msgspec.Struct, frozen=True):
    name: str
    nation: str = ""
    hand: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    charisma: int = 0
    """Charisma cards under the city."""
    under: tuple[str, ...] = ()
    """Captured cards kept under the city for their charisma."""
    secured: tuple[str, ...] = ()
    """Own defeated cards with Secured points, fully under the city."""
    leader_captured: bool = False
    active: bool = True
    """The nation card's side (only used with 3 or more players)."""


class Strike(msgspec.Struct, frozen=True):
    """One strike of a battle chain and how it was answered.

    ``result``: "" while the struck side decides; "repelled" (the last card alone held), "reinforced" (held with a
    reinforcement), "broken" (the defence fell short, also with an insufficient reinforcement or an empty hand),
    "yielded" (the struck side chose not to reinforce).
    """

    striker: str
    struck: str
    card: str
    weapon: str
    value: int
    defence_card: str
    defence: int
    reinforcement: str = ""
    reinforcement_defence: int = 0
    result: str = ""

    @property
    def total(self) -> int:
        return self.defence + self.reinforcement_defence


class Battle(msgspec.Struct, frozen=True):
    number: int
    attacker: str
    defender: str
    weapon: str
    attacker_cards: tuple[str, ...]
    defender_cards: tuple[str, ...] = ()
    strikes: tuple[Strike, ...] = ()
    result: str = ""
    """"" while fought; then "attacker", "defender" or "tie"."""


class Aftermath(msgspec.Struct, frozen=True):
    """What a battle's result still asks of its players: the winner places ``captured``, the loser discards."""

    winner: str = ""
    loser: str = ""
    captured: tuple[str, ...] = ()


class State(msgspec.Struct, frozen=True):
    """``version``: the ruleset version the game was recorded under (``GameCreated.ruleset_version``), for the
    rules that changed between versions (RULES.md names them): a game is folded by the rules it was played with."""

    table: Table
    players: tuple[PlayerState, ...]
    version: int
    phase: str = "setup"
    """setup, starter, turn, battle, place, discard, refill."""
    current: int = 0
    next_actor: int = 0
    creature_pool: tuple[str, ...] = ()
    """Creatures neither face up nor dealt out: the creature deck is drawn from here, ``creature_deck`` at most."""
    creature_deck: int = 0
    creatures: tuple[str, ...] = ()
    reveal: int = 0
    refill: tuple[str, ...] = ()
    supply: int = 0
    box: tuple[str, ...] = ()
    """Cards that left the game (Flee, used captured cards, Egypt's losses)."""
    battle: Battle | None = None
    aftermath: Aftermath | None = None
    tied: tuple[str, ...] = ()
    turn: int = 0
    battles: int = 0


# ---------------------------------------------------------------------------------------------------------------
# Lookups


def index(s: State, name: str) -> int:
    for i, p in enumerate(s.players):
        if p.name == name:
            return i
    raise KeyError(name)


def player(s: State, name: str) -> PlayerState:
    return s.players[index(s, name)]


def with_player(s: State, p: PlayerState) -> State:
    players = list(s.players)
    players[index(s, p.name)] = p
    return msgspec.structs.replace(s, players=tuple(players))


def card(s: State, cid: str) -> Card:
    """The card an id names: a copy's id (``greece.bowman.2``) or the kind of copies alike (``greece.bowman``)."""
    c = s.table.cards.get(cid)
    return c if c is not None else s.table.cards[f"{cid}.1"]


def card_name(s: State, cid: str) -> str:
    """A card as a refusal names it: "that Elephant" (copies alike are alike to a player; the id only tells them
    apart in what is typed), or an id that names no card as typed."""
    c = s.table.cards.get(cid) or s.table.cards.get(f"{cid}.1")
    return f"that {c.name}" if c is not None else repr(cid)


def kind(cid: str) -> str:
    """What every player is told of a card: its id without the copy's number (``greece.bowman`` for
    ``greece.bowman.2``), the id itself for a card of one copy (``greece.hercules``). Copies alike are told apart
    by their number only, which nobody at a table can see (RULES.md, 'Copies alike')."""
    base, _, number = cid.rpartition(".")
    return base if number.isdigit() and "." in base else cid


def kinds(s: State) -> dict[str, str]:
    """Each copy's id with its kind, for the cards of copies alike (what ``core.engine.event_as`` renames)."""
    return {cid: kind(cid) for cid in s.table.cards if kind(cid) != cid}


def take(s: State, pool: tuple[str, ...], ids: tuple[str, ...] | list[str]) -> tuple[str, ...] | None:
    """The cards of ``pool`` that ``ids`` name, each once: a copy's id names that copy, a kind the first copy of it
    in ``pool`` not yet taken (the order ``pool`` holds them in: for a hand, the order drawn). None when ``ids``
    names a card ``pool`` does not hold, or more copies of a kind than it holds. A decision names a card of copies
    alike by its kind (RULES.md, 'Copies alike'); a game recorded before names the copy, and reads as it did."""
    left = list(pool)
    out: list[str | None] = [None] * len(ids)
    for i, cid in enumerate(ids):  # the copies named first, then the kinds from the copies left
        if cid in left:
            left.remove(cid)
            out[i] = cid
    for i, cid in enumerate(ids):
        if out[i] is None:
            got = next((c for c in left if kind(c) == cid and c != cid), None)
            if got is None:
                return None
            left.remove(got)
            out[i] = got
    return tuple(c for c in out if c is not None)


def effects(s: State, p: PlayerState) -> Effects:
    nation = s.table.nations.get(p.nation)
    if nation is None:
        return Effects()
    return nation.captured if p.leader_captured else nation.free


def hand_size(s: State, p: PlayerState) -> int:
    return effects(s, p).hand_size


def uses_nation_cards(s: State) -> bool:
    """Nation cards are not used with 2 players (rulebook, 'Preparação')."""
    return len(s.players) >= 3


def attack_of(s: State, p: PlayerState, cid: str) -> int:
    return max(0, card(s, cid).attack + effects(s, p).attack)


def defence_of(s: State, p: PlayerState, cid: str, weapon: str) -> int:
    return max(0, card(s, cid).defence(weapon) + effects(s, p).defence)


SECURED_NEVER_FLEES = 2
"""The ruleset version from which a card with Secured points is not made to flee by Xerxes' capture; until then it
fled like every Persian army card, and a game recorded then is folded so (RULES.md, 'Ruleset versions')."""


def flees(s: State, p: PlayerState, cid: str) -> bool:
    """Flee: the printed icon, or a Persian army card once Xerxes is captured (rulebook, 'Nações', Persas).

    A card with Secured points keeps them after Xerxes is captured: the text calls the new Flee "vantajoso para os
    Persas", and Secured cards go under the city and "não podem ser capturadas" ('Habilidades Especiais'), so a
    Secured card is never made to flee (RULES.md). In a game recorded before ``SECURED_NEVER_FLEES`` it flees, as
    "todos os exércitos Persas passam a ter a habilidade de “fuga”" was read then."""
    c = card(s, cid)
    keeps_secured = c.secured and s.version >= SECURED_NEVER_FLEES
    return c.flee or (effects(s, p).flee_all and c.nation == p.nation and not keeps_secured)


def playable(p: PlayerState) -> int:
    """The cards a nation can still fight with: hand, deck and discard pile."""
    return len(p.hand) + len(p.deck) + len(p.discard)


def without(cards: tuple[str, ...], remove: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    gone = set(remove)
    return tuple(c for c in cards if c not in gone)


def alike(s: State, ids: tuple[str, ...] | list[str]) -> list[tuple[str, ...]]:
    """The groups of copies alike among ``ids`` (the same card in every value, told apart by the id's number only:
    ``greece.bowman.1`` and ``.2``), each in natural order, groups of one left out (RULES.md, 'Copies alike')."""
    groups: dict[tuple[object, ...], list[str]] = {}
    for cid in dict.fromkeys(ids):
        groups.setdefault(msgspec.structs.astuple(card(s, cid))[1:], []).append(cid)
    return sorted((tuple(natural(g)) for g in groups.values() if len(g) > 1), key=lambda g: natural_key(g[0]))


def distinct(s: State, ids: tuple[str, ...] | list[str]) -> list[str]:
    """One card per different card, by its kind (copies such as ``rome.spearman.1`` and ``.2`` are one kind,
    ``rome.spearman``): for the decisions listed, which name no copy (RULES.md, 'Copies alike')."""
    return list(dict.fromkeys(kind(cid) for cid in ids))

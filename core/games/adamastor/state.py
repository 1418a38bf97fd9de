"""Adamastor's state and the bookkeeping every rule uses (rulebook 3 'Preparação', 4 'Moral', 5.1 'Nascer-do-sol',
5.3 'Eventos': icons in play).

The deck is the crew's morale (rulebook 4). Its top part is shuffled and unknown (``deck``, kept sorted: its order
is not known to anyone); cards put under it are known and ordered (``bottom``, next to be drawn first). Drawing
takes from the unknown part, then from ``bottom``. ``discard`` is the discard pile, its top last.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from agon.core.games.adamastor.board import Board
from agon.core.games.adamastor.data import SKILL_NAMES, THREATS, Cards

SETUP_PHASES = ("captain", "reveal", "place", "deal")


class State(msgspec.Struct, frozen=True):
    """``version``: the ruleset version the game was recorded under (``GameCreated.ruleset_version``), for the
    rules that changed between versions (RULES.md, 'Ruleset versions'): a game is folded by the rules it was played
    with."""

    cards: Cards
    players: tuple[str, ...]
    difficulty: str
    historical: bool
    less_luck: bool
    maps: tuple[str, ...]
    board: Board
    version: int
    phase: str
    """captain, reveal, place, deal, sunrise, actions, draw, draw_keep, sail, land_draw, land_keep, bonus_draw,
    bonus_share, ignore, learn, refill, morale_loss, trim, over"""
    fleet: str = ""
    start_col: int = 0
    strip: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    deck: tuple[str, ...] = ()
    bottom: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    shown: str = ""
    traumas: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    captain: int = 0
    actor: int = 0
    round: int = 0
    weather: str = ""
    black: int = 0
    suns: int = 0
    extra_cost: int = 0
    cubes: int = 0
    sail_points: int = 0
    reveal_pos: int = 0
    after_reveal: str = ""
    drawn: tuple[str, ...] = ()
    discovered: tuple[str, ...] = ()
    event_step: int = 0
    ignored: tuple[tuple[str, str], ...] = ()
    learned: bool = False
    declined: tuple[int, ...] = ()
    """Co-op: the players who declined to learn a skill from their hand this round."""
    need: int = 0
    """How many cards the pending draw takes (land discovery, a 'cards' bonus, a morale loss)."""
    loss_removes: bool = False
    result: str = ""
    """'' while playing; 'won', 'lost_morale' or 'lost_tumult' at the end."""
    notes: tuple[str, ...] = ()
    """What the last event set off by itself (events that fired, traumas gained), for narration."""

    # --- shorthands ---------------------------------------------------------------------------------------------

    def card(self, cid: str) -> Any:
        return self.cards.player[cid]

    @property
    def morale(self) -> int:
        return len(self.deck) + len(self.bottom)

    @property
    def acting(self) -> str:
        return self.players[self.actor]

    @property
    def captain_name(self) -> str:
        return self.players[self.captain]

    def hand_of(self, player: str) -> tuple[str, ...]:
        return self.hands[self.players.index(player)]

    def holder(self, cid: str) -> int:
        for i, h in enumerate(self.hands):
            if cid in h:
                return i
        return -1

    def skill_count(self, skill: str) -> int:
        return sum(1 for c in self.skills if self.card(c).skill == skill)


# --- words for a player ------------------------------------------------------------------------------------------


def card_name(s: State, cid: str) -> str:
    """A player card as a player reads it: its title and its number (rulebook 2.1.1: 'Título', 'Número carta'; the
    text calls cards by number, 'carta nº 9'), e.g. "Calafate (9)". An id that names no card is told as given."""
    card = s.cards.player.get(cid)
    if card is None:
        return cid
    plain = f"card {card.number}"
    return plain if card.title == plain else f"{card.title} ({card.number})"


def printed(s: State, cid: str) -> str:
    """What a player card shows of itself (rulebook 2.1.1: '1) Título', '5) Número carta'), as a recorder at a
    table types it for the card's id (core.entry's names): its number, then its title, "9 Calafate"; the number
    alone when the card set gives no title. ``9``, ``calafate``, ``cal`` or ``9cal`` then name c9, and a start that
    two titles share (``cap``: Capelão (5), Capitão-mor (40)) is refused naming both."""
    card = s.cards.player[cid]
    return str(card.number) if card.title == f"card {card.number}" else f"{card.number} {card.title}"


def printed_names(s: State, cids: tuple[str, ...] | list[str] | None = None) -> tuple[tuple[str, str], ...]:
    """``printed`` of each card of ``cids`` (every player card when ``None``), as (id, name) pairs."""
    return tuple((c, printed(s, c)) for c in (s.cards.player if cids is None else dict.fromkeys(cids))
                 if c in s.cards.player)


def card_names(s: State, cids: tuple[str, ...] | list[str]) -> str:
    """Cards in a sentence ("A, B and C"), or "nothing"."""
    named = [card_name(s, c) for c in cids]
    if len(named) < 2:
        return named[0] if named else "nothing"
    return ", ".join(named[:-1]) + " and " + named[-1]


def skill_name(skill: str, does: bool = True) -> str:
    """A skill as rulebook 8 names it, with what it does unless ``does`` is false: "'+1 Acção' (1 more action every
    round)"."""
    name, what = SKILL_NAMES.get(skill, (skill, ""))
    return f"'{name}' ({what})" if what and does else f"'{name}'"


def map_name(s: State, mid: str) -> str:
    """A map card by its kind (rulebook 2.1.2 'Tipo Carta Mapa') and id: "regular map card R3"."""
    card = s.cards.maps.get(mid)
    return f"{card.kind} map card {mid}" if card is not None else f"map card {mid}"


def sort_strip(s: State, strip: tuple[str, ...]) -> tuple[str, ...]:
    """Highest number on the left, lowest on the right (rulebook 3.4)."""
    return tuple(sorted(strip, key=lambda c: -s.card(c).number))


def with_hand(s: State, i: int, hand: tuple[str, ...]) -> State:
    hands = list(s.hands)
    hands[i] = hand
    return replace(s, hands=tuple(hands))


def add_note(s: State, note: str) -> State:
    return replace(s, notes=(*s.notes, note))


# --- the deck ----------------------------------------------------------------------------------------------------


def draw_split(s: State, count: int) -> tuple[int, tuple[str, ...]]:
    """How ``count`` cards come off the deck: (how many from the unknown part, the known cards that follow)."""
    count = min(count, s.morale)
    from_pool = min(count, len(s.deck))
    return from_pool, s.bottom[: count - from_pool]


def take(s: State, cards: tuple[str, ...]) -> State:
    """Remove drawn cards from the deck (the unknown part first, then the known bottom, in order)."""
    pool = list(s.deck)
    bottom = s.bottom
    for c in cards:
        if c in pool:
            pool.remove(c)
        else:
            bottom = bottom[1:]
    return replace(s, deck=tuple(pool), bottom=bottom)


def drawn_ok(s: State, cards: tuple[str, ...], count: int) -> bool:
    """Are ``cards`` a possible result of drawing ``count`` cards from the top of the deck now?"""
    from_pool, known = draw_split(s, count)
    head, tail = cards[:from_pool], cards[from_pool:]
    if len(cards) != from_pool + len(known) or tail != known:
        return False
    return len(set(head)) == len(head) and all(c in s.deck for c in head)


def gain_morale(s: State, n: int) -> State:
    """Rulebook 4: the top ``n`` cards of the discard pile go back under the deck, one at a time from the top of
    the pile (the text gives no order; RULES.md 'Morale'), so the pile's top card is drawn first of them."""
    n = min(n, len(s.discard))
    if n <= 0:
        return s
    moved = tuple(reversed(s.discard[len(s.discard) - n :]))
    return replace(s, discard=s.discard[: len(s.discard) - n], bottom=(*s.bottom, *moved))


# --- icons in play (5.3) -----------------------------------------------------------------------------------------


def icons(s: State) -> dict[str, int]:
    """Threat icons of the strip and the traumas (less the ignored ones) and motivation icons of the strip and the
    learned skills."""
    out = dict.fromkeys((*THREATS, "motivation"), 0)
    cards = s.cards.player  # s.card without the call: this runs several times per event
    motivation = 0
    for c in s.strip:
        card = cards[c]
        for icon, n in card.threats:
            out[icon] += n
        motivation += card.motivation
    for c in s.traumas:
        out[cards[c].trauma] += 1
    for c in s.skills:
        motivation += cards[c].motivation
    out["motivation"] += motivation
    for c, icon in s.ignored:
        if c in s.strip or c in s.traumas:
            out[icon] -= 1
    return out


def icons_on(s: State, cid: str, icon: str) -> int:
    """How many ``icon`` threat icons ``cid`` shows in play (strip card or trauma)."""
    card = s.card(cid)
    if cid in s.strip:
        return card.threat(icon)
    if cid in s.traumas:
        return 1 if card.trauma == icon else 0
    return 0


def skill_cost(s: State, cid: str) -> int:
    """A skill's motivation cost, less one per 'Cada habilidade -1' learned."""
    return max(0, s.card(cid).skill_cost - s.skill_count("cheaper_skills"))


# --- weather (5.1) ------------------------------------------------------------------------------------------------


def weather_of(s: State) -> tuple[str, int, int, int, int]:
    """(weather, actions, extra cost per space, black clouds, suns) for the strip and the fleet's space now."""
    suns = clouds = black = 0
    for c in s.strip:
        w = s.card(c).weather
        suns += w == "sun"
        clouds += w == "cloud"
        black += w == "storm"
    space_black = s.board[s.fleet].clouds if s.fleet in s.board else 0
    spare = s.skill_count("ignore_black_cloud")
    # 'Ignora 1 nuvem preta' is best spent on the fleet's space first: there it also stops the darkening.
    used = min(spare, space_black)
    space_black -= used
    spare -= used
    if space_black:
        black, clouds = black + clouds, 0
    black = max(0, black + space_black - spare)
    row = next(w for w in s.cards.weather if black >= w.min_black and suns >= w.min_suns)
    actions = row.actions + s.skill_count("extra_action")
    extra = s.cards.costs["storm_extra"] if row.extra_cost else 0
    return row.name, actions, extra, black, suns

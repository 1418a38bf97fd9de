"""Adamastor's events (rule text: ../shared/rules/adamastor-rulebook.pt.txt).

Decisions are what a captain does (place the fleet, draw, swap, sail, keep a land card, learn a skill...); chance
events are what the table reveals (a map card turned over, player cards drawn from the deck). Card ids are
``c<number>``, map cards ``R1``..``R7``, ``F1``..``F3``, ``H1``..``H3``, sea spaces ``<column><row>`` (``5b``).
"""

from __future__ import annotations

from agon.events.base import Event

# --- setup (rulebook 3 and 9.3) ---------------------------------------------------------------------------------


class CaptainChosen(Event, tag="adamastor.captain_chosen"):
    """Chance (2-player co-op, 9.3): the player who starts with the captain token."""

    player: str


class MapCardRevealed(Event, tag="adamastor.map_card_revealed"):
    """Chance: the face-down map card at ``position`` (0 = leftmost) is turned over and is ``card``."""

    position: int
    card: str


class FleetPlaced(Event, tag="adamastor.fleet_placed"):
    """Decision (3.2): the fleet starts on one of the leftmost half spaces of the first map card."""

    space: str


class PlayerCardsDealt(Event, tag="adamastor.player_cards_dealt"):
    """Chance (3.3-3.6): the adventure strip's 3 cards, each player's 3-card hand and (less luck, 9.2) the card
    shown beside the deck."""

    strip: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    shown: str = ""


# --- sunrise (5.1) ---------------------------------------------------------------------------------------------


class SunriseCardDrawn(Event, tag="adamastor.sunrise_card_drawn"):
    """Chance: the deck's top card joins the strip (less luck: the shown card joins it and ``card`` is shown)."""

    card: str


# --- actions (5.2) ---------------------------------------------------------------------------------------------


class DrawChosen(Event, tag="adamastor.draw_chosen"):
    """Decision, action A: draw 1 card (2, keeping 1, with the skill)."""


class CardsDrawn(Event, tag="adamastor.cards_drawn"):
    """Chance: the cards drawn from the top of the deck by the draw action."""

    cards: tuple[str, ...]


class DrawnCardKept(Event, tag="adamastor.drawn_card_kept"):
    """Decision (skill 'Compra 2, fica com 1'): the card kept; the other goes to the bottom of the deck."""

    card: str


class CardSwapped(Event, tag="adamastor.card_swapped"):
    """Decision, action B: a hand card and a strip card change places."""

    hand_card: str
    strip_card: str


class SailStarted(Event, tag="adamastor.sail_started"):
    """Decision, action C: these hand cards are discarded for their navigation points."""

    cards: tuple[str, ...]


class FleetMoved(Event, tag="adamastor.fleet_moved"):
    """Decision while sailing: the fleet enters the adjacent sea space ``to``, paying its cost."""

    to: str


class SailEnded(Event, tag="adamastor.sail_ended"):
    """Decision: the fleet stops; navigation points left over are lost."""


class LandCardsDrawn(Event, tag="adamastor.land_cards_drawn"):
    """Chance (land discovery): as many cards as the island's numeral, drawn from the deck."""

    cards: tuple[str, ...]


class LandCardKept(Event, tag="adamastor.land_card_kept"):
    """Decision: the card kept (into ``player``'s hand), and how much of its land bonus is taken (0 to all)."""

    card: str
    player: str
    bonus: int


class BonusCardsDrawn(Event, tag="adamastor.bonus_cards_drawn"):
    """Chance: the cards a 'cards' land bonus draws."""

    cards: tuple[str, ...]


class BonusCardsShared(Event, tag="adamastor.bonus_cards_shared"):
    """Decision (co-op, 9.3): who receives each bonus card, in the order drawn."""

    players: tuple[str, ...]


class ActionsEnded(Event, tag="adamastor.actions_ended"):
    """Decision: the remaining action cubes are discarded."""


# --- events phase (5.3, 7) ----------------------------------------------------------------------------------


class IconIgnored(Event, tag="adamastor.icon_ignored"):
    """Decision (skill 'Ignora ícones em jogo', 8): one ``icon`` on ``card`` (strip or trauma) is ignored."""

    card: str
    icon: str


class SkillLearned(Event, tag="adamastor.skill_learned"):
    """Decision (event 'Aprende habilidade'): a hand card's skill is learned."""

    card: str


class SkillDeclined(Event, tag="adamastor.skill_declined"):
    """Decision: no skill is learned this round."""


class StripRefilled(Event, tag="adamastor.strip_refilled"):
    """Chance (event 'Revolta'): the deck's top card joins the strip."""

    card: str


class MoraleLost(Event, tag="adamastor.morale_lost"):
    """Chance ('Doença espalha-se', 'Tripulação cansada'): the cards discarded from the top of the deck."""

    cards: tuple[str, ...]


# --- sunset (5.4) ----------------------------------------------------------------------------------------------


class HandTrimmed(Event, tag="adamastor.hand_trimmed"):
    """Decision: ``player`` discards these cards to keep no more than 3 in hand."""

    player: str
    cards: tuple[str, ...]


AdamastorEvent = (
    CaptainChosen
    | MapCardRevealed
    | FleetPlaced
    | PlayerCardsDealt
    | SunriseCardDrawn
    | DrawChosen
    | CardsDrawn
    | DrawnCardKept
    | CardSwapped
    | SailStarted
    | FleetMoved
    | SailEnded
    | LandCardsDrawn
    | LandCardKept
    | BonusCardsDrawn
    | BonusCardsShared
    | ActionsEnded
    | IconIgnored
    | SkillLearned
    | SkillDeclined
    | StripRefilled
    | MoraleLost
    | HandTrimmed
)

EVENT_TYPES: tuple[type[Event], ...] = AdamastorEvent.__args__  # type: ignore[attr-defined]

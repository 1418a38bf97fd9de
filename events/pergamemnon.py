"""Pergamemnon's events (../shared/rules/pergamemnon-rulebook.pt.txt): chance outcomes of the setup and the draws,
and the players' decisions: recruiting, attacking, committing, reinforcing or yielding in a battle chain, placing
captured cards and discarding after a lost battle.

Every decision names its ``player``, so a typed event can be checked against the player whose turn it is, and a
refused one names the rule it breaks. Card ids are those of the game's card set (e.g. ``rome.spearman.1``).
"""

from __future__ import annotations

from agon.events.base import Event

# --- chance outcomes ------------------------------------------------------------------------------------------


class NationsDealt(Event, tag="pergamemnon.nations_dealt"):
    """The nation cards dealt face down: ``nations[i]`` goes to the i-th player in seat order."""

    nations: tuple[str, ...]


class CreaturesRevealed(Event, tag="pergamemnon.creatures_revealed"):
    """Creatures turned face up from the creature deck (twice the players at setup, one after each recruit)."""

    cards: tuple[str, ...]


class CardsDrawn(Event, tag="pergamemnon.cards_drawn"):
    """``player`` draws ``cards`` from the deck; ``reshuffled``: the deck was empty and the discard pile was
    shuffled into a new deck first."""

    player: str
    cards: tuple[str, ...]
    reshuffled: bool = False


class StarterDrawn(Event, tag="pergamemnon.starter_drawn"):
    """Lots drawn among the players tied as the most charismatic: ``player`` starts."""

    player: str


# --- decisions ------------------------------------------------------------------------------------------------


class CreatureRecruited(Event, tag="pergamemnon.creature_recruited"):
    """``player`` recruits ``creature`` with ``hand_card`` plus ``charisma_cards`` charisma cards and the
    ``captured`` cards from under the city."""

    player: str
    creature: str
    hand_card: str
    charisma_cards: int = 0
    captured: tuple[str, ...] = ()


class Attacked(Event, tag="pergamemnon.attacked"):
    """``player`` attacks ``defender``, declaring ``weapon`` and laying ``card`` face down."""

    player: str
    defender: str
    weapon: str
    card: str


class DefenceCommitted(Event, tag="pergamemnon.defence_committed"):
    """The defender lays ``card`` face down; both cards are revealed and the chain of strikes begins."""

    player: str
    card: str


class Reinforced(Event, tag="pergamemnon.reinforced"):
    """``player``, struck, adds ``card`` from the hand to the defence of the last card played."""

    player: str
    card: str


class Yielded(Event, tag="pergamemnon.yielded"):
    """``player``, struck and not repelling, gives the battle up."""

    player: str


class CapturesPlaced(Event, tag="pergamemnon.captures_placed"):
    """The battle's winner puts ``under_city`` under the city for their charisma; the other captured cards go to
    the discard pile."""

    player: str
    under_city: tuple[str, ...] = ()


class HandDiscarded(Event, tag="pergamemnon.hand_discarded"):
    """The battle's loser discards ``cards`` (possibly none) from the hand."""

    player: str
    cards: tuple[str, ...] = ()


PergamemnonEvent = (
    NationsDealt
    | CreaturesRevealed
    | CardsDrawn
    | StarterDrawn
    | CreatureRecruited
    | Attacked
    | DefenceCommitted
    | Reinforced
    | Yielded
    | CapturesPlaced
    | HandDiscarded
)

EVENTS: tuple[type[Event], ...] = (
    NationsDealt,
    CreaturesRevealed,
    CardsDrawn,
    StarterDrawn,
    CreatureRecruited,
    Attacked,
    DefenceCommitted,
    Reinforced,
    Yielded,
    CapturesPlaced,
    HandDiscarded,
)

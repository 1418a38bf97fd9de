"""Pergamemnon (Bernd Eisenstein, Irongames 2011): deck-building battles between five ancient nations.

Rule texts: ../shared/rules/pergamemnon-rulebook.pt.txt (the rulebook), pergamemnon-player-aid.fr.txt (a player
aid), pergamemnon-errata-facts.md (the designer's clarifications) and CARD-DATA.md. The readings chosen where the
texts are ambiguous are in RULES.md beside this file. Modules: cards (card data), state, flow (nation cards and
turn order), rules (setup, turns, recruiting), battle (the chain of strikes and its aftermath), scoring, view
(views, narration, the battles projection), bots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agon.core.engine import Outcome, Over, Pending
from agon.core.games.pergamemnon import rules, scoring, view
from agon.core.games.pergamemnon.bots import BOTS
from agon.core.games.pergamemnon.cards import check_cards, default_cards
from agon.core.games.pergamemnon.state import State, kinds
from agon.events.base import Event, GameCreated
from agon.events.pergamemnon import EVENTS, PergamemnonEvent


def _has_provisional(data: Mapping[str, Any]) -> bool:
    specs = [c for n in data.get("nations", {}).values() for c in n.get("army", [])] + list(data.get("creatures", []))
    return any(bool(c.get("provisional")) for c in specs)


class Pergamemnon:
    name = "pergamemnon"
    title = "Pergamemnon"
    version = rules.VERSION
    min_players = 2
    max_players = 5
    provisional = _has_provisional(default_cards())
    events = EVENTS
    upcasters: Mapping[tuple[str, int], Any] = {}
    bots = BOTS
    projections = {"battles": view.battles}
    option_names: Mapping[str, str] = {}
    field_prompts: Mapping[str, str] = {
        # the player aid's terms: the attacker declares a weapon ('arme') and lays a card face down, the defender
        # answers with a card; creatures are paid with a hand card, charisma cards and captured cards (errata)
        "pergamemnon.attacked.defender": "which player to attack",
        "pergamemnon.attacked.weapon": "which weapon to declare (sword, spear or bow)",
        "pergamemnon.attacked.card": "which card to lay face down for the attack",
        "pergamemnon.defence_committed.card": "which card to lay face down in defence",
        "pergamemnon.reinforced.card": "which hand card reinforces the defence",
        "pergamemnon.creature_recruited.creature": "which creature to recruit",
        "pergamemnon.creature_recruited.hand_card": "which hand card pays for the creature",
        "pergamemnon.creature_recruited.charisma_cards": "how many charisma cards to add to the payment",
        "pergamemnon.creature_recruited.captured": "which captured cards from under the city to add ('none': no"
                                                   " captured card)",
        "pergamemnon.captures_placed.under_city": "which captured cards go under your city (the others are"
                                                  " discarded)",
        "pergamemnon.hand_discarded.cards": "which hand cards to discard ('none': keep them all)",
    }
    """Each step's question in the table's words (core.steps), for every field of every decision."""
    kind_words: Mapping[str, str] = {
        # the rulebook's 'Recrutar', 'Atacar', 'Reforçar' / 'Ceder'
        "pergamemnon.creature_recruited": "recruit", "pergamemnon.attacked": "attack",
        "pergamemnon.defence_committed": "defend", "pergamemnon.reinforced": "reinforce",
        "pergamemnon.yielded": "yield", "pergamemnon.captures_placed": "place-captures",
        "pergamemnon.hand_discarded": "discard",
    }
    """Each kind of decision (its event's tag) as the table says it (core.steps ``kind_word``): the verb its options
    and step prompts use, one word that may be typed for it, as its label may."""

    def default_cards(self) -> dict[str, Any]:
        return default_cards()

    def check_setup(self, players: Sequence[str], options: Mapping[str, Any], cards: Mapping[str, Any]) -> None:
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"it is played by 2 to 5 players, not {len(players)}")
        if len(set(players)) != len(players):
            raise ValueError("every player needs a different name")
        if options:
            raise ValueError(f"it has no options (got {', '.join(sorted(options))})")
        check_cards(cards)
        if len(cards["nations"]) < len(players):
            raise ValueError(f"the card set has {len(cards['nations'])} nations for {len(players)} players")

    def initial_state(self, created: GameCreated) -> State:
        return rules.initial_state(created)

    def pending(self, state: State) -> Pending:
        return rules.pending(state)

    def legal(self, state: State) -> Sequence[Event]:
        return rules.legal(state)

    def validate(self, state: State, event: Event) -> str | None:
        return rules.validate(state, event)

    def apply(self, state: State, event: Event) -> State:
        return rules.apply(state, event)  # type: ignore[arg-type]

    def scores(self, state: State) -> dict[str, float]:
        return scoring.scores(state)

    def outcome(self, state: State) -> Outcome | None:
        p = rules.pending(state)
        return p.outcome if isinstance(p, Over) else None

    round_word = "turn"  # RULES.md 'Turns and nation cards': one player's recruit or attack

    def round(self, state: State) -> int:
        return state.turn

    side_label = "nation"

    def sides(self, state: State) -> dict[str, str]:
        """Each player's nation, once chosen (for the game summary and statistics)."""
        nations = state.table.nations
        return {p.name: nations[p.nation].name if p.nation in nations else p.nation for p in state.players
                if p.nation}

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return view.view(state, player)

    def narrate(self, state: State, event: Event) -> str:
        return view.narrate(state, event)

    def narrate_as(self, state: State, event: Event, viewer: str | None) -> str:
        return view.narrate(state, event, viewer)

    def secrets(self, state: State, event: Event) -> list[tuple[tuple[str, ...], str]]:
        return view.secrets(state, event)

    def renamed(self, state: State) -> dict[str, str]:
        """Copies alike by their kind in every event a seat reads (``core.engine.event_as``; RULES.md, 'Copies
        alike')."""
        return kinds(state)

    def value_aliases(self, state: State) -> dict[str, str]:
        """A copy's id typed for its kind where a step names the kind (``gb2``, as typed at the draw, for
        ``greece.bowman``; core.steps): every copy of the card set, whichever the hand holds, so that what is
        accepted tells no seat which copy it holds, and the decision records the kind (RULES.md, 'Copies
        alike')."""
        return kinds(state)

    def option_text(self, state: State, event: Event) -> str:
        return view.option_text(state, event)

    def shows(self, before: State, event: Event, after: State) -> bool:
        return view.shows(before, event)


RULESET = Pergamemnon()

__all__ = ["RULESET", "Pergamemnon", "PergamemnonEvent"]

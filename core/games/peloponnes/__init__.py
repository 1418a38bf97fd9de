"""The Peloponnes Card Game (../shared/rules/peloponnes-card-game-rulebook.pt.txt): 2 to 5 players, eight rounds
of revealing power cards, auctioning them with displacement chains, building, feeding and facing catastrophes.

Modules: cards (card data), state (the state and tableau readings), flow (the course of a round), auction,
supply (buildings, feeding, luxury goods), catastrophe, scoring, view (views and narration), bots, projections.
Readings of ambiguous rules are in RULES.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agon.core.engine import Pending
from agon.core.games.peloponnes import cards as cards_mod
from agon.core.games.peloponnes import rules, sample, scoring, steps, view
from agon.core.games.peloponnes.bots import BOTS
from agon.core.games.peloponnes.projections import PROJECTIONS
from agon.core.games.peloponnes.state import State
from agon.events.base import Event, GameCreated
from agon.events.peloponnes import EVENTS


class Peloponnes:
    name = "peloponnes"
    title = "Peloponnes Card Game"
    version = rules.VERSION
    min_players = 2
    max_players = 5
    events = EVENTS
    upcasters: Mapping[tuple[str, int], Any] = {}
    bots = BOTS
    projections = PROJECTIONS
    option_names: Mapping[str, str] = {}
    field_prompts: Mapping[str, str] = {
        # the rule text's terms: power cards bid on ('Leilão'), coin cards by the wood, stone, grain or inhabitants
        # ('people') on their backs, luxury goods used as coin cards ('Bens de luxo'), buildings 'em construção'
        "peloponnes.bid_placed.card": "which power card to bid on",
        "peloponnes.bid_placed.coins": "which coin cards to bid, as how many of each back (wood, stone, grain, people)"
                                       " and of luxury goods: one listed, or any you hold, typed (2s1w, 1w1l)",
        "peloponnes.bid_placed.luxury": "how many luxury goods to bid as coin cards",
        "peloponnes.bid_moved.card": "which power card to move the bid to",
        "peloponnes.building_built.card": "which building to build",
        "peloponnes.building_built.wood": "how many wood coin cards to pay",
        "peloponnes.building_built.stone": "how many stone coin cards to pay",
        "peloponnes.building_built.luxury": "how many luxury goods to pay",
        "peloponnes.construction_started.card": "which building to put under construction",
        "peloponnes.construction_started.coin": "which coin card to put under it (its back, or luxury)",
        "peloponnes.building_lost.card": "which building goes back to the box",
        "peloponnes.population_fed.grain": "how many grain coin cards to feed the inhabitants with",
        "peloponnes.population_fed.people": "how many people coin cards to pay for inhabitants not fed",
        "peloponnes.population_fed.luxury": "how many luxury goods to feed the inhabitants with",
        "peloponnes.population_fed.removed": "which cards to remove from your tableau ('none': keep them all)",
        "peloponnes.construction_paid.finished": "which buildings under construction to finish ('none': lose them)",
        "peloponnes.construction_paid.wood": "how many wood coin cards to pay",
        "peloponnes.construction_paid.stone": "how many stone coin cards to pay",
        "peloponnes.construction_paid.luxury": "how many luxury goods to pay",
        "peloponnes.catastrophe_faced.catastrophe": "which catastrophe to face",
        "peloponnes.catastrophe_faced.cards": "which cards the catastrophe hits",
        "peloponnes.catastrophe_faced.coins": "what covers each card hit: a coin card's back, luxury or none (removed)",
    }
    """Each step's question in the table's words (core.steps), for every field of every decision."""
    kind_words: Mapping[str, str] = {
        # the rulebook's auction (a bid and a pass), building, and the phases after it
        "peloponnes.bid_placed": "bid", "peloponnes.passed": "pass", "peloponnes.bid_moved": "move-bid",
        "peloponnes.bid_withdrawn": "take-back-bid", "peloponnes.building_built": "build",
        "peloponnes.construction_started": "construct", "peloponnes.population_fed": "feed",
        "peloponnes.construction_paid": "pay", "peloponnes.catastrophe_faced": "face",
        "peloponnes.building_lost": "lose",
    }
    """Each kind of decision (its event's tag) as the table says it (core.steps ``kind_word``): the verb its options
    and step prompts use, one word that may be typed for it, as its label may."""

    @property
    def provisional(self) -> bool:
        return cards_mod.parse(self.default_cards()).provisional

    def default_cards(self) -> dict[str, Any]:
        return cards_mod.default_cards()

    def check_setup(self, players: Sequence[str], options: Mapping[str, Any], cards: Mapping[str, Any]) -> None:
        n = len(players)
        if n == 1:
            raise ValueError("it is played by 2 to 5 players: the rule text has no rules for a single player")
        if n < 2:
            raise ValueError(f"it is played by 2 to 5 players, not {n}")
        if n > 5:
            raise ValueError(f"it is played by 2 to 5 players, not {n}: the game has markers in only 5 colours")
        if len(set(players)) != n:
            raise ValueError("each player needs a different name")
        if options:
            raise ValueError(f"it takes no options (got {', '.join(options)})")
        cards_mod.check(dict(cards), n)

    def initial_state(self, created: GameCreated) -> State:
        return rules.initial_state(created)

    def pending(self, state: State) -> Pending:
        return rules.pending(state)

    def legal(self, state: State) -> Sequence[Event]:
        return rules.legal(state)

    def sample_legal(self, state: State, rng: Any) -> Event:
        """What the random bot picks from ``legal(state)`` with ``rng``, without making the list (sample.py)."""
        return sample.sample_legal(state, rng)

    def validate(self, state: State, event: Event) -> str | None:
        return rules.validate(state, event)

    def apply(self, state: State, event: Event) -> State:
        return rules.apply(state, event)  # type: ignore[arg-type]

    def scores(self, state: State) -> dict[str, float]:
        return scoring.scores(state)

    def outcome(self, state: State) -> Any:
        return scoring.outcome(state)

    def round(self, state: State) -> int:
        return state.round

    side_label = "civilization"

    def sides(self, state: State) -> dict[str, str]:
        """Each player's civilization, once dealt (for the game summary and statistics)."""
        return {seat.name: state.cat.name(seat.civ.card) for seat in state.seats if seat.civ is not None}

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return view.view(state, player)

    def narrate(self, state: State, event: Event) -> str:
        return view.narrate(state, event)

    def narrate_as(self, state: State, event: Event, viewer: str | None) -> str:
        return view.narrate(state, event, viewer)

    def option_text(self, state: State, event: Event) -> str:
        return view.option_text(state, event)

    def decision_steps(self, state: State, tag: str, chosen: tuple[tuple[str, str], ...]) -> Any:
        """A bid's coin cards: the sets ``legal`` lists, and any other the hand holds, typed (steps.py); a catastrophe
        faced: the cards it hits (asked even when forced, so that ``hill grain`` names them), then each one's cover."""
        if tag == steps.FACED:
            return steps.cover_steps(state, chosen, {f: self.field_prompts[f"{tag}.{f}"] for f in ("cards", "coins")})
        if tag != steps.TAG:
            return None
        return steps.bid_steps(state, chosen, self.field_prompts[f"{tag}.coins"])

    def barred_values(self, state: State, tag: str, chosen: tuple[tuple[str, str], ...],
                      field: str) -> list[dict[str, str]]:
        """The power cards a bid may not go to now, each with the rule that bars it, those on the table first; the
        cards a catastrophe faced may not hit, the player's own first (steps.py)."""
        if tag == steps.FACED:
            return steps.barred_hits(state, field)
        return steps.barred_cards(state, tag, field)

    def value_names(self, state: State) -> dict[str, str]:
        return view.value_names(state)

    def secrets(self, state: State, event: Event) -> list[tuple[tuple[str | int, ...], str]]:
        return view.secrets(state, event)

    def shows(self, before: State, event: Event, after: State) -> bool:
        return view.shows(before, event, after)


RULESET = Peloponnes()

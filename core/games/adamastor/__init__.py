"""Adamastor: the solo voyage of a Portuguese fleet, and its 2-player co-op (rule text:
../shared/rules/adamastor-rulebook.pt.txt; readings chosen where it is ambiguous: RULES.md beside this file).

Modules: ``data`` (card set), ``board`` (map and sailing costs), ``state`` (state, deck, icons, weather),
``flow`` (apply), ``rules`` (pending, legal, validate), ``view`` (view, narration, scores, projections),
``bots`` (the greedy captain).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agon.core.engine import Pending
from agon.core.games.adamastor import bots, data, flow, rules, view
from agon.core.games.adamastor.state import State, printed_names
from agon.events.adamastor import EVENT_TYPES
from agon.events.base import Event, GameCreated

DIFFICULTIES = ("easy", "regular", "hard")
SCENARIOS = ("variable", "historical")


class Adamastor:
    name = "adamastor"
    title = "Adamastor"
    version = flow.VERSION
    min_players = 1
    max_players = 2
    provisional = True
    events = EVENT_TYPES
    upcasters: Mapping[str, Any] = {}
    bots = {"greedy": bots.greedy}
    judging_bot = "greedy"
    score_unit = rules.SCORE_UNIT  # no points, solo or co-op: the voyage's progress (rulebook 6, 9.3)
    shared_score = view.SHARED_SCORE  # several players win or lose together, as one crew (rulebook 9.3)
    """What judges a position in ``agon analyse`` by default: random crews almost never arrive (core/bots.py)."""
    projections = {"voyage": view.voyage, "sails": view.sails}
    option_names = {
        "difficulty": "easy, regular or hard: 2, 3 or 4 regular map cards before the final one (default regular; none"
                      " with scenario=historical)",
        "scenario": "variable (default) or historical: the 3 historical map cards, from Lisbon to Calicut, whatever"
                    " the difficulty (rulebook 9.1)",
        "less_luck": "true to show the next adventure-strip card beside the deck (variant 9.2)",
    }
    field_prompts: Mapping[str, str] = {
        # the rulebook's terms: the fleet on the map's sea spaces, the adventure strip, navigation points, the
        # land card and its bonus, skills, icons (3.2, 5.2, 5.3, 8, 9.3)
        "adamastor.fleet_placed.space": "where the fleet starts (a half space of the first map card)",
        "adamastor.drawn_card_kept.card": "which drawn card to keep (the other goes under the deck)",
        "adamastor.card_swapped.hand_card": "which hand card to swap",
        "adamastor.card_swapped.strip_card": "for which card of the adventure strip",
        "adamastor.sail_started.cards": "which hand cards to discard for their navigation points",
        "adamastor.fleet_moved.to": "which sea space the fleet sails into",
        "adamastor.land_card_kept.card": "which land card to keep",
        "adamastor.land_card_kept.player": "into whose hand the land card goes",
        "adamastor.land_card_kept.bonus": "how much of the land bonus to take",
        "adamastor.bonus_cards_shared.players": "who receives each bonus card, in the order drawn",
        "adamastor.icon_ignored.card": "on which card to ignore an icon",
        "adamastor.icon_ignored.icon": "which icon to ignore",
        "adamastor.skill_learned.card": "which hand card's skill to learn",
        "adamastor.hand_trimmed.player": "which player discards down to 3 cards",
        "adamastor.hand_trimmed.cards": "which hand cards to discard (keeping no more than 3)",
    }
    """Each step's question in the table's words (core.steps), for every field of every decision."""
    kind_words: Mapping[str, str] = {
        # the rulebook's actions, the sail and the sunset
        "adamastor.captain_chosen": "captain", "adamastor.fleet_placed": "place-fleet",
        "adamastor.draw_chosen": "draw", "adamastor.card_swapped": "swap", "adamastor.sail_started": "sail",
        "adamastor.fleet_moved": "sail-on", "adamastor.sail_ended": "end-sail", "adamastor.land_card_kept": "keep",
        "adamastor.bonus_cards_shared": "share", "adamastor.actions_ended": "end-actions",
        "adamastor.icon_ignored": "ignore", "adamastor.skill_learned": "learn", "adamastor.skill_declined": "no-skill",
        "adamastor.morale_lost": "lose-morale", "adamastor.hand_trimmed": "trim",
    }
    """Each kind of decision (its event's tag) as the table says it (core.steps ``kind_word``): the verb its options
    and step prompts use, one word that may be typed for it, as its label may."""
    conformance_options = [
        {"difficulty": "easy"},
        {"difficulty": "regular"},
        {"difficulty": "hard"},
        {"scenario": "historical"},
        {"difficulty": "regular", "less_luck": "true"},
    ]

    def default_cards(self) -> dict[str, Any]:
        return data.default_cards()

    def canonical_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options as stored: ``less_luck`` as true or false however it was typed (1, yes, on, ...), a difficulty
        or scenario in any case (``Hard`` is hard, as a bot's kind ``Greedy`` is greedy); a value that is none of
        those is left for ``check_setup`` to refuse."""
        out = dict(options)
        for key, values in (("difficulty", DIFFICULTIES), ("scenario", SCENARIOS)):
            value = out.get(key)
            if isinstance(value, str) and value.strip().lower() in values:
                out[key] = value.strip().lower()
        flag = str(out.get("less_luck", "")).lower()
        if flag in ("true", "1", "yes", "on"):
            out["less_luck"] = True
        elif flag in ("false", "0", "no", "off"):
            out["less_luck"] = False
        return out

    def setup_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """What makes a game's setup what it is, one way each, for statistics by setup (core/summary.py): the
        difficulty, or the historical scenario, whose map is its 3 cards whatever the difficulty (rulebook 9.1), and
        'less luck' when played. A default left out and the same default typed (``difficulty=regular``) are one
        setup, and so are ``less_luck=false`` and no ``less_luck``."""
        difficulty, historical, less_luck = flow.option_flags(self.canonical_options(dict(options)))
        out: dict[str, Any] = {"scenario": "historical"} if historical else {"difficulty": difficulty}
        if less_luck:
            out["less_luck"] = True
        return out

    def new_options_problem(self, options: Mapping[str, Any]) -> str | None:
        """What a new game may not ask for though a game recorded with it still plays (``check_setup`` judges those,
        for import and verify too), or None: a difficulty with the historical scenario, whose map is its own 3 cards
        whatever the difficulty (rulebook 9.1: "excepto o mapa que é formado pelas 3 cartas Mapa Histórico"; the
        difficulty is how many regular map cards are drawn, 3 step 1), so the difficulty asked for would be silently
        ignored. ``options``: as ``canonical_options`` stores them."""
        _, historical, _ = flow.option_flags(dict(options))
        if historical and options.get("difficulty") in DIFFICULTIES:  # one of none: check_setup names them
            value = options["difficulty"]
            return (f"the historical voyage has its own 3 map cards (rulebook 9.1), so difficulty={value} cannot"
                    f" apply: leave it out, or choose scenario=variable for a {value} voyage")
        return None

    def check_setup(self, players: Sequence[str], options: Mapping[str, Any], cards: Mapping[str, Any]) -> None:
        if not 1 <= len(players) <= 2:
            raise ValueError(f"it is played by 1 player or 2 co-operating players, not {len(players)}")
        if len(set(players)) != len(players):
            raise ValueError("the two players need different names")
        unknown = set(options) - set(self.option_names)
        if unknown:
            names = ", ".join(sorted(unknown))
            raise ValueError(f"unknown option(s) {names}; known: difficulty, scenario, less_luck")
        if str(options.get("difficulty", "regular")) not in DIFFICULTIES:
            raise ValueError(f"difficulty must be easy, regular or hard, not {options['difficulty']!r}")
        if str(options.get("scenario", "variable")) not in SCENARIOS:
            raise ValueError(f"scenario must be variable or historical, not {options['scenario']!r}")
        if str(options.get("less_luck", "false")).lower() not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
            raise ValueError("less_luck must be true or false")
        compiled = data.compile_cards(dict(cards))
        difficulty, historical, _ = flow.option_flags(dict(options))
        if historical:
            missing = [m for m in flow.HISTORICAL_MAPS if m not in compiled.maps]
            if missing:
                raise ValueError(f"the card set lacks map cards {', '.join(missing)},"
                                 " which the historical scenario needs")
            if not any(s.label == "Lisbon" for s in compiled.maps["H1"].spaces):
                raise ValueError("the card set's map card H1 needs a space labelled Lisbon")
        else:
            need = flow.MAP_COUNT[difficulty]
            if len(compiled.maps_of("regular")) < need or not compiled.maps_of("final"):
                raise ValueError(f"the card set has too few map cards: a {difficulty} game needs {need} regular"
                                 " and 1 final map card")
        if not all(any(s.destination for s in m.spaces) for m in compiled.maps.values() if m.kind == "final"):
            raise ValueError("the card set has a final map card without a destination space, which every final map"
                             " card needs")

    def initial_state(self, created: GameCreated) -> State:
        return flow.initial_state(created)

    def pending(self, state: State) -> Pending:
        return rules.pending(state)

    def legal(self, state: State) -> Sequence[Event]:
        return rules.legal(state)

    def value_names(self, state: State) -> dict[str, str]:
        """Each player card's number and title as printed on it (state.printed): shown beside its id where a step
        asks for a card, and typed for it at a table (``cal`` for c9 "9 Calafate"). A card's number and title are
        the card set's, the same for every player: they tell no more than the id."""
        return dict(printed_names(state))

    def validate(self, state: State, event: Event) -> str | None:
        return rules.validate(state, event)

    def turn_rule(self, state: State) -> str:
        return rules.turn_rule(state)

    def apply(self, state: State, event: Event) -> State:
        return flow.apply(state, event)  # type: ignore[arg-type]

    def scores(self, state: State) -> dict[str, float]:
        return view.scores(state)

    def round(self, state: State) -> int:
        return state.round

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        return view.view(state, player)

    def narrate(self, state: State, event: Event) -> str:
        return view.narrate(state, event)

    def narrate_as(self, state: State, event: Event, viewer: str | None) -> str:
        return view.narrate(state, event, viewer)

    def secrets(self, state: State, event: Event) -> list[tuple[tuple[str | int, ...], str]]:
        return view.secrets(state, event)

    def shows(self, before: State, event: Event, after: State) -> bool:
        return view.shows(before, event)


RULESET = Adamastor()

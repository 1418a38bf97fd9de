"""The engine protocol: what a ruleset is, and the pure fold over its events.

A ruleset is data plus pure functions (../shared/DESIGN.md, "Rules are pure functions"):

- ``initial_state(created)``: the state before any play, from the game's first event (``GameCreated``).
- ``pending(state)``: what must happen next: a ``Decision`` by one player, a ``Chance`` outcome, or ``Over``.
- ``legal(state)``: the decisions the acting player may take now, as events (a canonical, finite list; a ruleset
  whose full decision space is huge lists a sensible subset and accepts any legal event through ``validate``).
- ``validate(state, event)``: ``None`` when the event may happen now, else the broken rule, named.
- ``apply(state, event)``: the next state. Trusts its input (the service validated it) and never mutates.
- ``scores(state)``, ``outcome(state)``, ``view(state, player)``, ``narrate(state, event)``.

Rules code never draws random numbers: when the rules need luck, ``pending`` returns a ``Chance`` that says what
is needed (dice, cards drawn from a set, an order) and how to turn the outcome into an event. The service draws it
from the game's seed, or a person at a real table enters it (``core.chance``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

import msgspec

from agon.events.base import Event, GameCreated

State = Any
"""A ruleset's state: an immutable value (frozen msgspec Struct or dataclass, tuples inside) that supports ==."""


@dataclass(frozen=True)
class Decision:
    """One player must decide. ``prompt`` says what about, in a few words ("bid or pass")."""

    player: str
    prompt: str


ChanceKind = Literal["dice", "draw", "shuffle"]


@dataclass(frozen=True)
class Chance:
    """A chance outcome is needed.

    - ``dice``: ``count`` dice of ``sides`` sides; the outcome is a tuple of ``count`` ints in 1..sides.
    - ``draw``: ``count`` items taken one after another, without replacement, from ``items`` (which may repeat,
      e.g. coin backs); the outcome is the tuple of items taken, in order.
    - ``shuffle``: an order of ``items``; the outcome is a permutation of them.

    ``build`` turns the outcome into the event to record. Items are short strings (card ids) a person can type.
    ``blind``: how many items there are is itself hidden (Perikles' revolt draws among face-down counters), so the
    description, which every seat may read in a status, leaves their number out.
    ``unseen``: which items are left is hidden from every seat, though their number shows (Peloponnes' coin deck,
    whose cards are named by backs that only their holders see): the names an outcome is typed from, those of the
    whole card set. Such a draw is never recorded by itself, and a recorder is offered these names, not the items
    left (``names``), and told no more than that when an outcome typed cannot be drawn.
    ``unordered``: the sizes of the outcome's leading groups, one after another, within which the rules read no
    order (Perikles' ``(2, 2)``: each side's two dice are summed; ``(count,)``: a hand drawn). The values after the
    last group keep their order. A person at a table may type such a group in any order: the service records it in
    one order (``core.chance.canonical``), so the same dice or cards typed again are the same event. Outcomes drawn
    from the seed keep the order they were drawn in.
    ``item_names``: (item, name) pairs, the name a card shows where its id is not what a table sees (Peloponnes'
    power cards: ``("A02", "Palisade")``): listed beside the id and typed like it (``core.entry``). Only names of
    the items offered (never of what an ``unseen`` draw hides); the outcome recorded is the ids.
    ``gone``: (item, name, what became of it) for items of the set drawn from that are not among ``items``, where
    every seat knows it (a Perikles tile already drawn, on the display; a Peloponnes power card revealed in an
    earlier round, or of a later era): an item typed that is one of them is told so (``core.chance.parse``), not
    only that it is not here. Never for a ``blind`` or ``unseen`` draw.
    """

    kind: ChanceKind
    label: str
    build: Callable[[tuple[Any, ...]], Event]
    count: int = 1
    sides: int = 6
    items: tuple[str, ...] = ()
    blind: bool = False
    unseen: tuple[str, ...] = ()
    unordered: tuple[int, ...] = ()
    item_names: tuple[tuple[str, str], ...] = ()
    gone: tuple[tuple[str, str, str], ...] = ()
    alike: tuple[tuple[str, ...], ...] = ()
    """Groups of items that are copies alike (the same card in every value, told apart by their ids alone:
    Pergamemnon's ``greece.bowman.1`` and ``.2``): a person at a table cannot tell which one was drawn and types
    either; the prompt says so (the ruleset's RULES.md says why the choice is left to the person)."""

    @property
    def named(self) -> dict[str, str]:
        """``item_names`` by item."""
        return dict(self.item_names)

    @property
    def names(self) -> tuple[str, ...]:
        """What an outcome is typed from at a table: the items, or for an ``unseen`` draw the card set's names."""
        return self.unseen or self.items

    @property
    def forced(self) -> bool:
        """Only one outcome is possible (nothing to draw, or every item alike): no luck is involved, so the
        service records it by itself, even in a game played at a real table. Never for a ``blind`` or ``unseen``
        draw from something: recording it at once would tell every seat that it held one item alone, or items
        all alike."""
        if self.kind == "dice" or ((self.blind or self.unseen) and self.items and self.count):
            return False
        if self.kind == "draw" and self.count == 0:
            return True
        return len(set(self.items)) <= 1

    def describe(self) -> str:
        if self.kind == "dice":
            return f"{self.label}: roll {self.count}d{self.sides}"
        if self.kind == "draw":
            pool = "blind" if self.blind else f"of {len(self.items)}"
            return f"{self.label}: draw {self.count} {pool}"
        return f"{self.label}: the order of {len(self.items)} items"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. ``winners`` has several names on a shared win or a tie the rules keep."""

    winners: tuple[str, ...]
    scores: Mapping[str, float]
    summary: str
    totals_told: bool = False
    """Whether ``summary`` tells every player's total (Perikles from ruleset version 5, its scoring's
    ``SCORES_TOLD``; Peloponnes, whose summary names each final score): a face then shows no second list of the
    totals beside it, which would read as two results."""
    score_unit: str = ""
    """What each total is, said right after its number where the number alone does not say it (an Adamastor voyage,
    solo or co-op, which has no points: ``"% of the voyage sailed"``, its ruleset's ``score_unit``); empty where the
    totals are the rules' points."""


@dataclass(frozen=True)
class Over:
    outcome: Outcome


Pending = Decision | Chance | Over


class RuleViolation(Exception):
    """An event that the rules refuse. ``rule`` names the rule (and its section in the rule text)."""

    def __init__(self, rule: str) -> None:
        super().__init__(rule)
        self.rule = rule


@dataclass(frozen=True)
class Step:
    """One event of a line with the states around it: what projections and narration read."""

    index: int
    event: Event
    before: State | None
    after: State
    actor: str


Bot = Callable[["Ruleset", State, Sequence[Event], Any], Event]
"""A bot: ``bot(ruleset, state, legal_events, rng) -> event``. ``rng`` is a ``random.Random`` seeded by the
service; bots in rules folders use it and never import ``random`` themselves."""

Projection = Callable[[Sequence[Step]], list[dict[str, Any]]]
"""A projection: a pure function from a line's steps to plain rows (for analysis and plots)."""


@runtime_checkable
class Ruleset(Protocol):
    """The contract of a ruleset. One module-level instance per folder under ``core/games/``."""

    name: str
    title: str
    version: str
    min_players: int
    max_players: int
    provisional: bool
    """True when some card values are provisional (no rule text states them)."""
    events: tuple[type[Event], ...]
    upcasters: Mapping[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]]
    bots: Mapping[str, Bot]
    projections: Mapping[str, Projection]
    option_names: Mapping[str, str]
    """Options ``agon new --option KEY=VALUE`` accepts, with a one-line help each (e.g. difficulty)."""

    def default_cards(self) -> dict[str, Any]: ...

    def check_setup(self, players: Sequence[str], options: Mapping[str, Any], cards: Mapping[str, Any]) -> None:
        """Raise ``ValueError`` with a one-line reason when this setup cannot be played."""

    def initial_state(self, created: GameCreated) -> State: ...

    def pending(self, state: State) -> Pending: ...

    def legal(self, state: State) -> Sequence[Event]: ...

    def validate(self, state: State, event: Event) -> str | None: ...

    def apply(self, state: State, event: Event) -> State: ...

    def scores(self, state: State) -> dict[str, float]:
        """Each player's score now. Where it is not the rules' points, the ruleset's optional ``score_unit`` says what
        it is (``core.summary.score_unit``), and its outcomes carry the same words (``Outcome.score_unit``)."""

    def round(self, state: State) -> int:
        """The round, turn or era number now (for boundaries on timelines). What the rules call it is the ruleset's
        optional ``round_word`` ("turn"; "round" where it has none), as ``agon stats`` names the average."""

    def view(self, state: State, player: str | None) -> dict[str, Any]:
        """The state as ``player`` sees it (``None``: everything), as plain JSON-able data."""

    def narrate(self, state: State, event: Event) -> str:
        """One English sentence for ``event`` happening in ``state`` ("Alice bids 5 on the Harbour."), as every
        player may read it: it names nothing that any player may not see (see "Who sees what" below)."""


# ---------------------------------------------------------------------------------------------------------------
# Who sees what
#
# A viewer is a player's name, ``PUBLIC`` (no seat: what every player sees, as in ``agon log``) or ``None``
# (everything, as ``view(state, None)``). Besides ``narrate`` (public), a ruleset with hidden information may
# define four optional methods:
#
# - ``narrate_as(state, event, viewer) -> str``: the sentence as ``viewer`` may read it (a player's own record
#   names the cards they drew; ``None`` names everything).
# - ``secrets(state, event) -> Iterable[(path, owner)]``: the parts of the event's JSON object (a path of keys and
#   indexes) that only ``owner`` may see (``PUBLIC`` as owner: nobody, e.g. a counter drawn blind). What an event
#   reveals is decided when it happens: a later reveal is its own event, so an old event never changes.
# - ``option_text(state, event) -> str``: a decision as the acting player reads it among their options, before
#   choosing it: it names their own hidden cards but nothing the decision would reveal.
# - ``shows(before, event, after) -> bool``: whether a decision shows the other players something hidden from them
#   that the views do not name (a coin card's kind paid from a hand told only by its count): the undo policy
#   (core/seats.py) reads the names in the views, and asks this besides (``shows``, below).
# - ``renamed(state) -> Mapping[str, str]``: ids a viewer other than ``None`` reads as another (Pergamemnon's copies
#   alike, ``greece.bowman.2``, by their kind, ``greece.bowman``: nobody at a table can tell them apart), in every
#   event's JSON object (``event_as``); the ruleset's ``view`` names them so too.

PUBLIC = ""
"""The viewer who holds no seat (no player may be named ""): sees only what every player sees."""

HIDDEN = "hidden"
"""What stands in an event's JSON object for a part the viewer may not see (a list keeps its length)."""


def narrate_as(ruleset: Ruleset, state: State, event: Event, viewer: str | None) -> str:
    """``event`` told as ``viewer`` may read it (``narrate`` when the ruleset hides nothing in its sentences)."""
    told = getattr(ruleset, "narrate_as", None)
    return told(state, event, viewer) if told is not None else ruleset.narrate(state, event)


def shows(ruleset: Ruleset, before: State, event: Event, after: State) -> bool:
    """Whether the decision ``event`` (``before`` -> ``after``) showed the players besides its own something hidden
    from them that no view names: the ruleset's optional ``shows``; False without one. It is asked on every page
    read of a seat (the undo policy), so it looks at the event, not at whole views."""
    told = getattr(ruleset, "shows", None)
    return told is not None and told(before, event, after)


def event_as(ruleset: Ruleset, state: State, event: Event, viewer: str | None) -> dict[str, Any]:
    """``event``'s JSON object (as ``agon schema`` describes it) with every part ``viewer`` may not see replaced by
    ``HIDDEN`` (each item of a hidden list, so its length stays public)."""
    import msgspec

    obj = msgspec.json.decode(msgspec.json.encode(event))  # lists and dicts all the way down, as JSON shows it
    if viewer is None:
        return obj
    if isinstance(event, GameCreated):
        # The seed is every player's secret: with it, each shuffle, draw and bot's choice can be worked out
        # (core.chance), so it is shown only with everything (``agon log --full``, the host's export).
        obj["seed"] = HIDDEN
        if obj.get("salt"):
            obj["salt"] = HIDDEN
    secrets = getattr(ruleset, "secrets", None)
    for path, owner in secrets(state, event) if secrets is not None else ():
        if owner == viewer and viewer != PUBLIC:
            continue
        holder = obj
        for key in path[:-1]:
            holder = holder[key]
        value = holder[path[-1]]
        holder[path[-1]] = [HIDDEN] * len(value) if isinstance(value, list) else HIDDEN
    renamed = getattr(ruleset, "renamed", None)
    return _renamed(obj, renamed(state)) if renamed is not None else obj


def _renamed(data: Any, names: Mapping[str, str]) -> Any:
    """``data`` (plain JSON) with every string that ``names`` holds read as the name it gives."""
    if isinstance(data, str):
        return names.get(data, data)
    if isinstance(data, list):
        return [_renamed(x, names) for x in data]
    if isinstance(data, dict):
        return {k: _renamed(v, names) for k, v in data.items()}
    return data


def option_text(ruleset: Ruleset, state: State, event: Event) -> str:
    """How a decision reads in the acting player's list of options, before it is chosen.

    A ruleset may define ``option_text(state, event)``; without it, the decision is told as its player may read it
    (``narrate_as``). A ruleset whose decisions reveal hidden things (laying a card against a face-down one) must
    define ``option_text`` so that an option names only what its player sees now."""
    label = getattr(ruleset, "option_text", None)
    if label is not None:
        return label(state, event)
    pending = ruleset.pending(state)
    return narrate_as(ruleset, state, event, pending.player if isinstance(pending, Decision) else PUBLIC)


# ---------------------------------------------------------------------------------------------------------------
# The fold


def fold(ruleset: Ruleset, events: Iterable[Event]) -> State:
    """``state = reduce(apply, events[1:], initial_state(events[0]))``."""
    it = iter(events)
    first = next(it)
    if not isinstance(first, GameCreated):
        raise ValueError("a game's first event must be game.created")
    state = ruleset.initial_state(first)
    for ev in it:
        state = ruleset.apply(state, ev)
    return state


def steps(ruleset: Ruleset, events: Sequence[Event], actors: Sequence[str] | None = None) -> Iterator[Step]:
    """Walk a line, yielding each event with the state before and after it."""
    if not events:
        return
    first = events[0]
    assert isinstance(first, GameCreated)
    state = ruleset.initial_state(first)
    yield Step(0, first, None, state, actors[0] if actors else "setup")
    for i, ev in enumerate(events[1:], start=1):
        after = ruleset.apply(state, ev)
        yield Step(i, ev, state, after, actors[i] if actors else "")
        state = after


def turn_rule(ruleset: Ruleset, state: State) -> str:
    """The rule text section that says who acts now, named by a refusal of a decision out of turn: the ruleset's
    optional ``turn_rule(state) -> str`` (e.g. "co-op turns (rulebook 9.3 ...)"), else "turn order"."""
    rule = getattr(ruleset, "turn_rule", None)
    return rule(state) if rule is not None else "turn order"


def out_of_turn(ruleset: Ruleset, state: State, pending: Decision, actor: str, event: Event | None) -> str:
    """The rule ``actor`` breaks deciding while ``pending.player`` must: the ruleset names it, as it does for the
    same decision (``event``, when there is one) typed as JSON with the actor's name."""
    mine = msgspec.structs.replace(event, player=actor) if isinstance(getattr(event, "player", None), str) else None
    reason = ruleset.validate(state, mine) if mine is not None else None
    return reason or f"{turn_rule(ruleset, state)}: {pending.player} must act now ({pending.prompt}), not {actor}"


def check(ruleset: Ruleset, state: State, event: Event, actor: str | None = None) -> None:
    """Raise ``RuleViolation`` unless ``event`` may happen now (by ``actor``, when a decision is pending)."""
    pending = ruleset.pending(state)
    if isinstance(pending, Over):
        raise RuleViolation("the game is over: no event can follow its end")
    if isinstance(pending, Decision) and actor is not None and actor != pending.player:
        raise RuleViolation(out_of_turn(ruleset, state, pending, actor, event))
    if isinstance(event, GameCreated):
        raise RuleViolation("game.created opens a game; it cannot be recorded during play")
    reason = ruleset.validate(state, event)
    if reason is not None:
        raise RuleViolation(reason)


def version_number(v: str) -> int | None:
    """A ruleset version as a number ("3" -> 3), or None for one that is not a plain number of at most 5 digits."""
    return int(v) if v.isascii() and v.isdigit() and len(v) < 6 else None


def recorded_version(created: GameCreated, current: str) -> int:
    """The ruleset version a game was recorded under, as a number, for the rules to gate a changed rule on (a game
    folds by the rules of its own version). ``current`` (the ruleset's version) stands for one that is not a
    number: the service refuses to open a game of a version it does not know, so that is only a hand-made
    creation."""
    n = version_number(created.ruleset_version)
    return int(current) if n is None else n


def describe_pending(p: Pending) -> str:
    """What a line waits for, in words: the status line of listings and summaries."""
    if isinstance(p, Over):
        return f"over: {p.outcome.summary}"
    if isinstance(p, Chance):
        return f"chance needed: {p.describe()}"
    return f"{p.player} to act: {p.prompt}"

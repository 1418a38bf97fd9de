"""The service: the only layer that touches the store. Load -> validate -> chance -> append.

Every command works on a *line*: the events from a game's first event to a branch head. The state is always
recomputed by folding the line (no state is stored). A decision is recorded in one transaction together with the
chance events it triggers (drawn from the seed unless the game is played at a real table) and the bots' decisions
that follow, all in one transaction with one compare-and-swap (one move in the head history).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import shlex
import sys
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from functools import cached_property
from itertools import islice
from typing import Any

import msgspec

from agon.core import card_sets as card_sets_mod
from agon.core import chance as chance_mod
from agon.core import entry, registry
from agon.core import snapshot as snapshot_mod
from agon.core import steps as steps_mod
from agon.core import summary as summary_mod
from agon.core.autoplay import CHANCE_ACTOR, next_auto
from agon.core.bots import bots_of
from agon.core.engine import (
    PUBLIC,
    Chance,
    Decision,
    Over,
    Pending,
    Ruleset,
    RuleViolation,
    State,
    Step,
    check,
    describe_pending,
    event_as,
    narrate_as,
    option_text,
    out_of_turn,
    steps,
    version_number,
)
from agon.core.names import (
    MAX_TITLE,
    branch_problem,
    derived_branch,
    name_key,
    name_problem,
    new_title_problem,
    player_named,
    shown,
    text_problem,
    title_problem,
)
from agon.core.words import counted
from agon.core.words import listed as listed_words
from agon.events import hints
from agon.events import seats as seats_table
from agon.events import snapshots as snapshots_table
from agon.events import summary as summary_table
from agon.events.base import Event, GameCreated, PlayerSeat
from agon.events.codec import Codec, DecodeError, lone_surrogate
from agon.events.envelope import Envelope, seal, to_jsonl
from agon.events.store import (
    UNDO_RUN,
    BranchInfo,
    Conflict,
    Damaged,
    GameIdTaken,
    GameInfo,
    HeadMove,
    NewBranch,
    Store,
    StoreError,
    Taken,
    Unavailable,
    Unknown,
    now,
    read_only_refusal,
    unavailable,
)
from agon.events.summary import Listed, Summary

SETUP_ACTOR = "setup"
DECIDER = ":decider"
"""``record``'s default audience: the player who decided (no player may be named with a ':')."""
RESERVED_NAMES = {CHANCE_ACTOR, SETUP_ACTOR, ""}
@dataclass(frozen=True)
class Words:
    """How the service's messages name what a person can do next: the command line's commands by default
    (``events/hints.py``, where each step is kept apart in the messages raised below the service). The server has
    its own (``server/api.py`` ``HTTP_WORDS``), so one message serves every face and a player on a web page is not
    told to run a command. ``{game}`` and ``{ruleset}`` in a step are the message's game id and ruleset."""

    options: str = hints.CLI["options"]
    """Where the numbered options, and the position they were read at, are shown."""
    listed: str = hints.CLI["listed"]
    """Where the numbered options are shown, told after a choice number out of their range ('choose 1 to 14'), with
    its own leading space (``agon play`` lists them itself)."""
    anew: str = hints.CLI["anew"]
    """What a person does after a choice refused because the line moved since the options were shown (nothing was
    recorded): look at the options as they now stand and choose again (``agon play`` lists them itself)."""
    play_on: str = hints.CLI["play_on"]
    """How a finished line is played on."""
    schema: str = hints.CLI["schema"]
    """Where the shape of a ruleset's events is shown (after a choice given as JSON that is not one)."""
    table: str = hints.CLI["table"]
    """How a game whose chance outcomes are typed in at a table is made."""
    verify: str = hints.CLI["verify"]
    """What lists a damaged game's problems (with its leading '; '), or nothing."""
    games: str = hints.CLI["games"]
    """What lists the games."""
    rulesets: str = hints.CLI["rulesets"]
    """What lists the rulesets."""
    seats: str = hints.CLI["seats"]
    """How the seats of a new game are named (after 'give 3 to 5 seats', with its own leading separator)."""
    new: str = hints.CLI["new"]
    """What creates a game."""
    asking: str = hints.CLI["asking"]
    """What a person's one try is called (a race lost while it ran)."""
    read_only: str = hints.CLI["read_only"]
    """What a person can do with a store that may only be read, told when a request would record in it: never a
    step that records (undo, branch, act), which the store would refuse again."""
    store: str = hints.CLI["store"]
    """How an unavailable store is named (the command line names where it is; a player needs no address)."""
    cause: str = hints.CLI["cause"]
    """The database driver's own words on an unavailable store (with a leading space), or nothing."""
    one_back: str = hints.CLI["one_back"]
    """How a player asks to take back their one last decision, told after 'a player may take back only their own
    last decision' when more was asked (with its own leading separator): the undo policy's one step at a time."""
    several: str = hints.CLI["several"]
    """How games are imported from a file that holds several exports one after another (with its own leading
    separator): each game's file on its own."""
    decide: str = hints.CLI["decide"]
    """What a person gives instead of words that are no decision (after a refusal of them, a step's question, or a
    word typed where a chance is due): ``{options}`` is ``options``, ``{a}`` 'its' where the refusal listed the
    decisions meant, else 'a'. A page offers its buttons and its typed decision, never an event as JSON, which a
    person at a page cannot give (``server/api.py`` ``PAGE_WORDS``)."""
    json_too: str = hints.CLI["json_too"]
    """The event as JSON, offered beside a chance outcome typed in (with its own leading space), or nothing where a
    face takes none."""
    not_json: str = hints.CLI["not_json"]
    """What was wrong with a choice that begins with '{' and is no JSON: ``{why}`` is what the JSON parser found
    (and where). A face that takes no event as JSON (``json_too`` empty) says what its person typed, which begins
    nothing it takes, for any such choice that is no event: never that it is not valid JSON, nor what an event's
    JSON lacks, as they meant no JSON."""

    def deciding(self, its: bool = False) -> str:
        """``decide`` with the face's ``options`` in it."""
        return self.decide.replace("{options}", self.options).replace("{a}", "its" if its else "a")

    def at(self, game: str = "", ruleset: str = "", line: Line | None = None) -> Words:
        """These words with a game's id and ruleset filled in (a message's other parts are left for it to fill);
        with ``line``, a step that names a command names that line too when it is not the game's current one."""
        b = ("" if line is None or line.branch.name == line.game.current_branch
             else f" -b {shlex.quote(line.branch.name)}")
        known = _Known(game=game, ruleset=ruleset, b=b)
        return replace(self, **{f.name: getattr(self, f.name).format_map(known) for f in fields(self)})

    def told(self, e: BaseException) -> str:
        """``e``'s message, a step it names in these words."""
        return e.told(asdict(self)) if isinstance(e, hints.Hinted) else str(e)


class _Known(dict):
    """The parts of a message known so far: any other stays a ``{name}`` to fill later."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


CLI_WORDS = Words()

SEED_MAX = 2**31 - 1
"""The largest seed a game takes (the smallest is 0): the seeds agon draws itself are below 2**31, the command
line's ``--seed`` has always stopped here (the largest value of a PostgreSQL integer column, as its other numbers
do), so every seed a game holds can be typed again. A game's seed lives in its first event's JSON, which would hold
any integer; ``judge_new_game`` holds every face to this range, so no face takes a seed another refuses."""

INT_MAX = 2**31 - 1
"""The largest whole number an event number or a limit takes, on every face (the command line's options, the API's
query parameters): the largest value of a PostgreSQL integer column, as ``SEED_MAX`` is."""

EVENT_RANGE = (0, INT_MAX)
"""The event numbers a request may name (``--at``, ``--from``; the API's ``from`` and ``since``), as 'agon log'
numbers them; whether the line has that event is the command's or the route's to say."""

LIMIT_RANGE = (1, INT_MAX)
"""How many games a listing reads at most ('agon games --limit', 'agon stats --limit', ``GET /api/games?limit=``):
at least one (a limit of 0 would read none); ``Service.listing`` holds every face to it (``limit_problem``)."""


def limit_problem(limit: object) -> str | None:
    """Why ``limit`` cannot be the most games a listing reads (None: it can, or it is None, for every game)."""
    return _range_problem("the limit", limit, LIMIT_RANGE, "leave it out for every game")


MAX_CHOICE = 100_000
"""The longest choice (a number, an outcome or an event as JSON) ``parse_choice`` reads."""

_TYPED_BACK = re.compile(r"[0-9A-Za-z_][0-9A-Za-z_-]{0,39}")
"""A game named as a request typed it that a hint may print back in a command as it is (no quoting, no control
character): a game id or a prefix of one. Anything else is named GAME (``Service.writable``)."""


def seats_problem(names: Sequence[str]) -> str | None:
    """Why these seat names cannot play together (a reserved, blank, too long or repeated name), or None."""
    for n in names:
        problem = name_problem(n)
        if problem:
            return problem
        why = ("it is blank); give every seat a name" if not n.strip()
               else "the log uses chance and setup for what no player does); choose another name"
               if n.strip() in RESERVED_NAMES
               else "it begins or ends with a space); leave the space out" if n != n.strip()
               else "',' and ':' separate names, and a name from its bot's kind); leave them out"
               if "," in n or ":" in n else None)
        if why:
            return f"{shown(n)} cannot be a player name ({why}"
    # the same letters written two ways (an 'é' as one character or as 'e' and an accent) print alike and read
    # alike: two seats so named could not be told apart, nor the second one typed
    if len({name_key(n) for n in names}) != len(names):
        return "two seats have the same name; give every player a different name"
    return None


def seed_problem(seed: object) -> str | None:
    """Why ``seed`` cannot be a new game's seed (None: it can, or it is None, for a random one)."""
    return _range_problem("the seed", seed, (0, SEED_MAX), "leave it out for a random one")


def _range_problem(what: str, value: object, bounds: tuple[int, int], instead: str) -> str | None:
    """Why ``value`` is not a whole number within ``bounds`` (None: it is, or it is None, which ``instead`` says how
    to ask for), naming it as ``what``; a number too long to print is described by its length."""
    low, high = bounds
    whole = isinstance(value, int) and not isinstance(value, bool)
    if value is None or whole and low <= value <= high:
        return None
    shown = "a number of more than 40 digits" if whole and abs(value) >= 10**40 else repr(value)[:40]
    return f"{what} must be a whole number from {low} to {high}, not {shown}; {instead}"


def _undone_tip_from(moves: Iterable[HeadMove]) -> str | None:
    """``Service.undone_tip`` from a branch's head moves newest first (``Store.undo_tails`` reads no more)."""
    tip = None
    for m in moves:
        if m.reason == "undo":
            tip = m.from_id
        elif m.reason not in UNDO_RUN:  # an entry: the undone line ends here
            break
    return tip


def _redo_from(moves: Iterable[HeadMove], head: str, ahead: Callable[[str], bool]) -> str | None:
    """Where a redo would take a branch at ``head`` (``Service.redo_target``), from its head moves newest first
    (read as far as the first one a redo cannot go past: ``Store.undo_tails`` reads no more). ``ahead(tip)``: whether
    ``head`` is on the line that ends at ``tip``, asked only after undone moves were entered again ('reenter')."""
    redone, reentered = 0, False
    for m in moves:
        if m.reason == "switch":
            continue
        if m.reason == "reenter":
            reentered = True
        elif m.reason == "redo":
            redone += 1
        elif m.reason == "undo":
            if redone:
                redone -= 1
            elif not reentered:
                return m.from_id if m.to_id == head else None
            elif m.from_id != head and m.from_id is not None and ahead(m.from_id):
                return m.from_id
        else:
            return None
    return None


class ServiceError(hints.Hinted):
    """Something a person asked for that cannot be done; the message says what to do instead (a step it names,
    such as a command, kept apart: ``Words.told``)."""


class NotFound(ServiceError):
    """No game or branch of that name (the server answers 404)."""


class RaceLost(ServiceError):
    """Another writer moved the branch head first; nothing was recorded (the server answers 409)."""


class NotNow(ServiceError):
    """A request of the right form that the game as it stands refuses: nothing to undo or redo, a decision on a
    game that has ended, a branch name the game already has. The same request may do next time what it cannot do
    now (after an undo there is a redo; the host may branch from an ended game), so it is not a malformed request:
    the server answers 409 (a conflict with the game's current state), as for a lost race; the command line says
    the same sentence."""


def store_trouble(e: BaseException, url: str = "") -> hints.Hinted | None:
    """``e`` as the store being unavailable (locked, unreachable, full, read-only, a connection ended), or None
    when it is something else. The one place both faces ask: the command line prints its sentence and exits 1,
    the server answers 503 with it. The sentences themselves are worded in one place too (``events.store``
    ``unavailable``); a driver error that escaped the store is worded there as well."""
    import sqlalchemy as sa

    if isinstance(getattr(e, "origin", e), Unavailable):
        return e if isinstance(e, hints.Hinted) else e.origin  # type: ignore[attr-defined]
    if isinstance(e, sa.exc.SQLAlchemyError):
        return unavailable(e, url)
    return None


def _store_failure(e: StoreError) -> ServiceError:
    """A store error as the service's own, keeping apart a lost race and an unknown name."""
    kind = (RaceLost if isinstance(e, Conflict) else NotFound if isinstance(e, Unknown) else NotNow
            if isinstance(e, Taken) else ServiceError)
    return hints.again(e, kind)


@dataclass(frozen=True)
class Recorded:
    """One event of a line told as one viewer may see it (a player, ``PUBLIC`` or ``None`` for everything).

    ``sentence`` and ``shown`` (the event's JSON object, with what the viewer may not see replaced by "hidden") are
    what may be printed to that viewer; ``event`` is the whole event, for code, never to be printed to a person."""

    n: int
    actor: str
    event: Event
    sentence: str
    shown: dict[str, Any] = field(default_factory=dict)


def told(rs: Ruleset, n: int, actor: str, before: State, event: Event, viewer: str | None) -> Recorded:
    """Event #n (``before``: the state it happened in) as ``viewer`` may see it."""
    return Recorded(n, actor, event, narrate_as(rs, before, event, viewer), event_as(rs, before, event, viewer))


_codecs: dict[str, Codec] = {}
_setups_passed: set[tuple[str, str, tuple[str, ...], bytes, str]] = set()
"""Setups ``Ruleset.check_setup`` accepted in this process (see ``Service.new_game``)."""
_default_cards: dict[str, tuple[str, bytes]] = {}


def default_card_set(rs: Ruleset) -> tuple[str, bytes]:
    """The ruleset's bundled card set as (hash, JSON bytes); its file is read once per process."""
    known = _default_cards.get(rs.name)
    if known is None:
        known = _default_cards[rs.name] = card_sets_mod.seal_cards(rs.default_cards())
    return known


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


def _trial(rs: Ruleset, names: list[str], options: dict[str, Any], cards: Any) -> None:
    """Refuse a card set of the user's own that a game cannot be played with: one game with random bots in every
    seat is played from it to the end. A set whose every field is well formed may still hold a value no rule text
    allows for (a display of -1 tiles, a city named twice); the first game stored with it would then stop at the
    first decision that meets it, with nothing the players could do. One trial follows one path, so it catches a
    set that breaks every game, not one that breaks a rare position; the rulesets' own checks name the values
    they know to be wrong. Once per process per setup (``_setups_passed``): a Perikles trial takes about 0.1 s."""
    from agon.core.autoplay import play_out

    created = GameCreated(ruleset=rs.name, ruleset_version=rs.version, seed=1, cards=cards, options=options,
                          players=tuple(PlayerSeat(n, "random") for n in names))
    try:
        play_out(rs, created)
    except Exception as e:  # noqa: BLE001 - whatever stops the trial stops a real game
        raise ServiceError(f"cannot set up {rs.name} with this card set: a trial game with random bots failed"
                           f" ({_first_line(e)}); check the values changed from `agon cards {rs.name}`") from None


def default_cards(rs: Ruleset) -> dict[str, Any]:
    """A fresh copy of the ruleset's bundled card set (its file is parsed once per process)."""
    return msgspec.json.decode(default_card_set(rs)[1])


def codec_for(rs: Ruleset) -> Codec:
    c = _codecs.get(rs.name)
    if c is None:
        c = _codecs[rs.name] = Codec((GameCreated, *rs.events), rs.upcasters)
    return c


@dataclass(frozen=True)
class Seek:
    """A span of a line read without the rest: the encoded state at a snapshot node before it (None: at the first
    event), then the events after that node up to the end of the span."""

    state: bytes | None
    envelopes: list[Envelope]
    events: list[Event]


class Line:
    """A game's events from its first to a branch head, with the state folded lazily.

    A line read at its head (``Service.load``) may hold only its *tail*: the events after the nearest state snapshot
    (events/snapshots.py), with that snapshot's state and chance count. ``head``, ``state``, ``pending`` and
    ``chance_count`` need only the tail; ``envelopes``, ``events``, ``steps()`` and ``state_at`` before the tail
    read and decode the whole line on first use (``fetch``, given the head's id)."""

    def __init__(self, game: GameInfo, branch: BranchInfo, ruleset: Ruleset, envelopes: list[Envelope] | None = None,
                 events: list[Event] | None = None, *, tail: list[Envelope] | None = None,
                 tail_events: list[Event] | None = None, created: GameCreated | None = None,
                 snapshot: snapshots_table.Snapshot | None = None,
                 fetch: Callable[[str], tuple[list[Envelope], list[Event]]] | None = None,
                 keep: Callable[[Line, list[tuple[Envelope, State, int]]], None] | None = None,
                 seek: Callable[[str, int, int], Seek | None] | None = None) -> None:
        self.game, self.branch, self.ruleset = game, branch, ruleset
        self._envs, self._events = envelopes, events
        if tail is None:  # the whole line
            assert envelopes is not None and events is not None
            tail, tail_events = envelopes, events[1:]
        self._tail, self._tail_events = tail, tail_events or []
        self._created = created
        self._snapshot = snapshot  # the state at the tail's first node, when it is not the game's first event
        self._fetch = fetch
        self._keep = keep  # told the snapshot nodes the fold passed (to keep their states), once
        self._seek = seek  # reads a span of the line from the nearest snapshot before it, without reading it whole

    @property
    def whole(self) -> bool:
        """The whole line is read (not only its tail after a snapshot)."""
        return self._envs is not None

    @property
    def base(self) -> int:
        """The depth the tail starts at (0: the line is folded from its first event)."""
        return self._tail[0].depth

    def _read_whole(self) -> None:
        """Reads the line before the tail from the store, up to the tail's first node: a line ``extended`` by
        events not stored yet (its summary is computed before the write) has a head the store does not hold."""
        if self._envs is None:
            assert self._fetch is not None
            envs, events = self._fetch(self._tail[0].id)
            self._envs, self._events = envs + self._tail[1:], events + self._tail_events

    @property
    def envelopes(self) -> list[Envelope]:
        self._read_whole()
        assert self._envs is not None
        return self._envs

    def newest_first(self) -> Iterator[Envelope]:
        """The line's events from the head back to the first; the whole line is read only if the walk goes on past
        the tail (a caller that stops within it costs nothing more than the tail already read)."""
        yield from reversed(self._tail)
        if self.base > 0:
            yield from reversed(self.envelopes[: self.base])

    @property
    def events(self) -> list[Event]:
        self._read_whole()
        assert self._events is not None
        return self._events

    @property
    def created(self) -> GameCreated:
        first = self._created if self._created is not None else self.events[0]
        assert isinstance(first, GameCreated)
        return first

    def player(self, name: str) -> str:
        """The player ``name`` names, as the game stores the name (``names.player_named``: in either Unicode form
        of its letters); refused naming the game's players when none is."""
        found = player_named(name, self.created.names)
        if found is None:
            raise ServiceError(f"no player {name!r} in this game; its players: {', '.join(self.created.names)}")
        return found

    @property
    def head(self) -> Envelope:
        return self._tail[-1]

    @property
    def depth(self) -> int:
        """The head's event number (the line holds ``depth + 1`` events)."""
        return self._tail[-1].depth

    def holds(self, node_id: str) -> bool | None:
        """Whether ``node_id`` is on this line; None when only reading the whole line would tell (it may lie
        before the tail)."""
        if any(e.id == node_id for e in self._tail):
            return True
        return False if self.base == 0 else None

    def since(self, node_id: str) -> list[tuple[Envelope, Event]] | None:
        """The events after node ``node_id`` up to the head, read from the tail when it holds that node (so without
        reading the whole line); None when ``node_id`` is not on this line."""
        for i, env in enumerate(self._tail):
            if env.id == node_id:
                return list(zip(self._tail[i + 1:], self._tail_events[i:]))
        if self.base == 0:
            return None
        for i, env in enumerate(self.envelopes):
            if env.id == node_id:
                return list(zip(self.envelopes[i + 1:], self.events[i + 1:]))
        return None

    @property
    def codec(self) -> Codec:
        return codec_for(self.ruleset)

    @cached_property
    def first_state(self) -> State:
        """The state the game's first event sets up."""
        return self.ruleset.initial_state(self.created)

    def _start(self) -> State:
        """The state at the tail's first node: the first state, or the snapshot's. A snapshot that does not decode
        is ignored: the whole line is read and folded instead."""
        if self._snapshot is None:
            return self.first_state
        try:
            return snapshot_mod.decode(self._snapshot.state, self.first_state)
        except Exception:  # noqa: BLE001 - any damage to a cache row only costs the fold
            self._read_whole()
            assert self._envs is not None and self._events is not None
            self._tail, self._tail_events, self._snapshot = self._envs, self._events[1:], None
            self.__dict__.pop("chance_count", None)
            return self.first_state

    @cached_property
    def state(self) -> State:
        rs = self.ruleset
        s = self._start()
        chance = self._snapshot.chance_count if self._snapshot is not None else 0
        kept = []
        for env, ev in zip(self._tail[1:], self._tail_events):
            s = rs.apply(s, ev)
            if env.actor == CHANCE_ACTOR:
                chance += 1
            if self._keep is not None and env.depth % snapshots_table.EVERY == 0:
                kept.append((env, s, chance))
        if kept and self._keep is not None:
            self._keep(self, kept)
        return s

    def _span(self, start: int, stop: int) -> tuple[State, list[Envelope], list[Event]]:
        """The state after some event at or before ``start`` and the events after it up to ``stop``: from the
        tail's snapshot when ``start`` is in the tail, else from the nearest snapshot before ``start`` (reading only
        the rows from there to ``stop``), else from the first event ('agon verify' reads whole lines and folds them
        from the first event)."""
        if self._snapshot is not None and self.base <= start:
            s = self._start()
            if self._snapshot is not None:  # (still: it decoded)
                return s, self._tail[1 : stop - self.base + 1], self._tail_events[: stop - self.base]
        if self._envs is None and self._seek is not None:
            got = self._seek(self.head.id, start, stop)
            if got is not None:
                try:
                    s = self.first_state if got.state is None else snapshot_mod.decode(got.state, self.first_state)
                    return s, got.envelopes, got.events
                except Exception:  # noqa: BLE001 - a snapshot that does not decode: fold from the first event
                    pass
        return self.first_state, self.envelopes[1 : stop + 1], self.events[1 : stop + 1]

    def state_at(self, n: int) -> State:
        """The state after event ``n`` (see ``_span``: folded from the nearest snapshot at or before it)."""
        rs = self.ruleset
        s, _, events = self._span(n, n)
        for ev in events:
            s = rs.apply(s, ev)
        return s

    def steps(self, start: int = 0, stop: int | None = None) -> list[Step]:
        """The line's events from ``start`` to ``stop`` (default: all of them) with the states around each; a part
        of the line is folded from the nearest snapshot before it (``_span``)."""
        last = self.depth
        stop = last if stop is None else min(stop, last)
        if stop < 0 or start > stop:
            return []
        if start <= 0:
            every = list(steps(self.ruleset, self.events, [e.actor for e in self.envelopes]))
            return every[: stop + 1]
        rs = self.ruleset
        s, envs, events = self._span(start - 1, stop)  # the state before event ``start``
        out = []
        for env, ev in zip(envs, events):
            after = rs.apply(s, ev)
            if env.depth >= start:
                out.append(Step(env.depth, ev, s, after, env.actor))
            s = after
        return out

    @property
    def pending(self) -> Pending:
        return self.ruleset.pending(self.state)

    @cached_property
    def chance_count(self) -> int:
        """How many chance events the line holds (counted once, from the tail's start, then carried by
        ``extended``)."""
        before = self._snapshot.chance_count if self._snapshot is not None else 0
        return before + sum(1 for e in self._tail[1:] if e.actor == CHANCE_ACTOR)

    @cached_property
    def sides(self) -> dict[str, str]:
        """What each player plays as (a nation, a civilization), for the summary; carried by ``extended`` once
        every player has one. Read from the first events alone when the line is read from a snapshot."""
        rs = self.ruleset
        if getattr(rs, "sides", None) is None or self.base == 0:
            return summary_mod.sides_of(self)
        names = self.created.names
        found = summary_mod.sides_at(rs, self.first_state, names)
        for st in self.steps(1, min(self.depth, 4 * snapshots_table.EVERY)) if found is None else ():
            found = summary_mod.sides_at(rs, st.after, names)
            if found is not None:
                break
        return found if found is not None else summary_mod.sides_of(self)

    @property
    def summary(self) -> Summary:
        """This line at its head in plain data, as the game summary stores it."""
        return summary_mod.summarise(self, self.sides)

    def extended(self, envs: list[Envelope], events: list[Event], state: State, chance_count: int) -> Line:
        """This line with ``envs`` appended (already stored), without reading the store again. Called once per
        command (a whole run of automatic events is appended at once), with the state and chance count carried."""
        branch = BranchInfo(self.branch.name, envs[-1].id, self.branch.luck, self.branch.parent_branch,
                            self.branch.fork_id, self.branch.created_at)
        if self._envs is not None and self._events is not None and self._snapshot is None:
            new = Line(self.game, branch, self.ruleset, self._envs + envs, self._events + events, fetch=self._fetch)
        else:
            new = Line(self.game, branch, self.ruleset, tail=self._tail + envs, tail_events=self._tail_events + events,
                       created=self.created, snapshot=self._snapshot, fetch=self._fetch, seek=self._seek)
        new.__dict__["state"] = state
        new.__dict__["chance_count"] = chance_count
        if "first_state" in self.__dict__:
            new.__dict__["first_state"] = self.__dict__["first_state"]
        known = self.__dict__.get("sides")
        if known is not None and all(p in known for p in self.created.names):
            new.__dict__["sides"] = known
        return new

    def bot_of(self, player: str) -> str | None:
        return next((p.bot for p in self.created.players if p.name == player), None)

    def status(self) -> str:
        return describe_pending(self.pending)


CHANCE_DUE = "chance needed: "
"""How a summary's status begins where a chance outcome is due (``describe_pending``)."""

Mark = Callable[[str], str]
"""How a face shows an event's id: 8 hex digits that tell two lines of the same length apart (``position``)."""


def plain_mark(node_id: str) -> str:
    """An event's id as the command line shows it: its first 8 hex digits (its user holds the whole store)."""
    return node_id[:8]


def _whole(node_id: str) -> str:
    return node_id


def keyed_mark(key: bytes) -> Mark:
    """An event's id as the server shows it to seats: the first 8 hex digits of HMAC-SHA256 under the game's
    position key (``Service.mark_of``). A chain hash has no secret in it: a seat that knows the public events (and
    a game's first event, when it has no salt) can rebuild the chain and hash each candidate of a hidden event with
    few possibilities, and any digits of the real ids would tell which one was recorded. Digits of a keyed digest
    tell nothing of the id (nor of another game's: each game has its own key)."""
    def mark(node_id: str) -> str:
        return hmac.new(key, node_id.encode(), hashlib.sha256).hexdigest()[:8]

    return mark


def position(line: Line, mark: Mark = plain_mark) -> str:
    """Where a line stands, as 'agon options' prints it and 'agon act --expect' takes it: the head's event number
    and the ``mark`` of its id (the id tells two lines of the same length apart), e.g. ``12.a1b2c3d4``; the server
    shows it keyed (``keyed_mark``)."""
    return f"{line.head.depth}.{mark(line.head.id)}"


MOVES_LOOKED = 64
"""How many of a line's latest head moves are read back to tell what moved it since a position (an undo, a redo,
play): the line has seldom moved more often between a person's reading its options and their choosing."""

_MOVED_BY = {"undo": "taken back (an undo)", "redo": "put forward again (a redo)"}
"""What each head move other than play (``act``, ``reenter``) did to a line, as a lost race tells it."""


def moved_since(moves: Iterable[HeadMove], ident: str, mark: Mark | None = None) -> list[str] | None:
    """What moved a line since it stood at the event whose id (or its ``mark``, as a face shows it) begins with
    ``ident``: the reasons of its head moves since then (``moves``: its head moves, the newest first), the first
    first, or None when it has not stood there within its last ``MOVES_LOOKED`` moves. Only heads the line stood at
    are matched, and every head is a position anyone may read, so this tells nobody more of an event's id than a
    position shows."""
    if mark is None:
        mark = _whole
    reasons: list[str] = []
    for m in islice(moves, MOVES_LOOKED):
        if mark(m.to_id).startswith(ident):
            return reasons[::-1]
        if m.reason != "switch":  # a switch moves no head (its rows go from a head to itself)
            reasons.append(m.reason)
        if m.from_id is not None and mark(m.from_id).startswith(ident):
            return reasons[::-1]
    return None


def someone(reasons: Sequence[str] | None) -> str:
    """Who moved a line, and how, as a race lost to them tells it: 'someone else took a step back (an undo)' (the
    head moves' ``reasons``, as ``moved_since`` finds them; None: not known)."""
    if not reasons:
        return "someone else moved it first"
    did = {"undo": "took a step back (an undo)", "redo": "redid an undo"}
    return "someone else " + listed_words(list(dict.fromkeys(did.get(r, "recorded an event") for r in reasons)))


def position_problem(line: Line, expect: str, words: Words = CLI_WORDS, moves: Iterable[HeadMove] = (),
                     mark: Mark = plain_mark) -> str | None:
    """Why ``line`` is no longer at the position ``expect`` (say, when options were listed), or None. ``moves``:
    the line's head moves, the newest first, read only when it moved (to say whether it was taken back by an undo,
    put forward again by a redo, or played on). ``mark``: how the face that showed ``expect`` shows ids; it is
    compared, and the position now told, in that form."""
    problem, _ = _position(line, expect, words, moves, mark)
    return problem


KEPT = re.compile(r"(?s).+-undone-[0-9]+")
"""The names undo gives the lines it keeps (``Service.kept_name``: ``main-undone-1``), and only those: a branch made
by hand may not take one (``reserved_branch``), so that redo's 'kept as branch' names the line undo kept. A game
imported from before may hold such a branch made by hand: it is imported as it is."""


def reserved_branch(name: str) -> str | None:
    """Why ``name`` may not be given to a new branch by hand: it is of the form undo names the lines it keeps."""
    if not KEPT.fullmatch(name):
        return None
    return (f"branch name {name!r} is reserved: a name ending in '-undone-' and a number is the one undo gives a line"
            " it keeps (as main-undone-1); choose another")


UNDO_ANEW = "nothing was undone: look at the game as it stands and undo again if you still want to"
"""How a refused undo whose line moved since the position its caller saw ends (the server's ``expect`` of /undo,
'agon undo --expect'): the same on every face, since what to look at again is the game itself, not a list of
options."""

REDO_ANEW = "nothing was redone: look at the game as it stands and redo again if you still want to"
"""How a refused redo whose line moved since the position its caller saw ends ('agon redo --expect'), as
``UNDO_ANEW`` ends a refused undo."""


def _position(line: Line, expect: str, words: Words, moves: Iterable[HeadMove],
              mark: Mark = plain_mark, anew: str | None = None) -> tuple[str | None, bool]:
    """``position_problem``, and whether it is that the line moved (a lost race) rather than a malformed position.
    ``anew``: how the refusal of a line that moved ends, where ``expect`` came with something else than a choice
    (``UNDO_ANEW``, ``REDO_ANEW``); by default, that nothing was recorded."""
    words = words.at(line.game.id, line.ruleset.name, line)
    depth, sep, ident = expect.strip().partition(".")
    # At most the 8 hex digits a position shows: a longer prefix would let anyone who may name a position learn
    # the whole id a digit at a time (a refused position against an accepted one), and with a whole id a hidden
    # card in the next event could be found by hashing each candidate.
    if not (depth.isascii() and depth.isdigit() and sep and 4 <= len(ident) <= 8 and len(expect) <= 80
            and all(c in "0123456789abcdef" for c in ident)):
        return f"{shown(expect)} is not a position; give it as {words.options} shows it, e.g. 12.a1b2c3d4", False
    if int(depth) == line.head.depth and mark(line.head.id).startswith(ident):
        return None, False
    reasons = moved_since(moves, ident, mark) or []
    done = listed_words(list(dict.fromkeys(_MOVED_BY.get(r, "played on") for r in reasons))) if reasons else ""
    if done in ("", "played on"):  # decisions and chance outcomes since, or a position the line never stood at
        said = f"the line has moved since position {expect.strip()}: it is now at"
    else:
        said = f"the line was {done} since position {expect.strip()}: it is now at"
    return f"{said} {position(line, mark)} ({line.status()}); {anew or f'nothing was recorded: {words.anew}'}", True


def seeded_only(pending: Chance, ruleset: str) -> ServiceError:
    """The refusal of a chance outcome other than the seed's in a game of ``ruleset`` that draws its luck from its
    seed (typed, or sent as an event): the same words on every face, naming no command (the server words ``{table}``
    its own way; the command line's names a new game of the same ruleset)."""
    return ServiceError(f"this game draws every chance outcome from its seed ({pending.describe()}): type 'seed';"
                        " a game whose luck is typed in is", " {table}", ruleset=ruleset)


def check_position(line: Line, expect: str, words: Words = CLI_WORDS, moves: Iterable[HeadMove] = (),
                   mark: Mark = plain_mark, anew: str | None = None) -> None:
    """Raise unless ``line`` is still at position ``expect``: a line that moved is a lost race (``RaceLost``: the
    server's 409), a malformed position a ``ServiceError``. ``moves`` and ``mark``: as ``position_problem`` takes
    them; ``anew``: as ``_position`` takes it."""
    problem, moved = _position(line, expect, words, moves, mark, anew)
    if problem:
        raise (RaceLost if moved else ServiceError)(problem)


@dataclass(frozen=True)
class BranchRow:
    """One branch as ``agon branches`` shows it."""

    name: str
    parent: str | None
    fork_at: int | None
    head: int
    luck: str
    status: str
    over: bool
    winners: list[str] | None
    scores: dict[str, float]
    current: bool
    redo: int | None = None
    """How many events ``agon redo`` on this branch would bring back (None: there is nothing to redo)."""
    undone: int | None = None
    """How many events are undone in all when there is something to redo: redos in a row bring them all back, each
    one undo's (None: there is nothing to redo)."""


@dataclass
class Run:
    """Events that follow one another by themselves, sealed and not yet stored, with the state after them."""

    envs: list[Envelope]
    events: list[Event]
    recorded: list[Recorded]
    state: State
    chance_count: int


@dataclass
class NewGame:
    ruleset: str
    players: Sequence[str] = ()
    bots: Sequence[tuple[str, str]] = ()
    seed: int | None = None
    cards: Mapping[str, Any] | None = None
    table: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    title: str = ""
    salt: str | None = None
    """The first event's secret (``GameCreated.salt``); None: 128 fresh random bits, as every face makes games.
    Given only where every event id must come out the same from one run to the next (tests of analyses, whose
    rollouts' luck is keyed by event id): a known salt lets anyone work hidden cards out of ids."""


@dataclass(frozen=True)
class NewSetup:
    """A new game's request as ``judge_new_game`` accepted it: its first event's payload and what it sets up."""

    ruleset: Ruleset
    names: tuple[str, ...]
    card_hash: str
    """The card set's hash, which the first event names ("" for a ruleset without cards)."""
    card_body: bytes
    payload: bytes
    created: GameCreated
    """The first event as a later command reads it back (its card set filled in)."""
    state: State
    luck: int = 0
    """The main line's luck (``core.chance.rng_for``): 0 where the request gave the seed, so that the seed alone
    replays the game; a secret drawn fresh (1 to ``SEED_MAX``) where agon drew the seed. Every chance outcome is
    drawn from the seed and the luck alone, and a seat sees some outcomes whole (a face-up deal, its own hand): with
    the 31 bits of a seed alone, a player could try every seed on those and work out every draw they may not see;
    with a luck of 31 more bits, never shown but with everything (an export), there are too many to try."""


def judge_new_game(spec: NewGame) -> NewSetup:
    """Judge a new game's request by the rules of setup (the ruleset, its seats and bot kinds, its options, the
    title, the ruleset's own ``check_setup``, the card set), raising ``ServiceError`` with the reason, and return
    what the game's first event records. Pure (nothing is read or written; the seed and the salt are drawn fresh
    when the request gives none): a face asks here before it opens a store (``agon new`` on a path with no file
    must make none to refuse), and ``Service.new_game`` asks again, for every caller."""
    try:
        rs = registry.get(spec.ruleset)
    except registry.UnknownRuleset as e:
        raise hints.again(e, ServiceError) from None
    seats = [PlayerSeat(p) for p in spec.players]
    kinds = bots_of(rs)
    for name, kind in spec.bots:
        kind = kind if kind in kinds else kind.strip().lower()  # 'Greedy' is greedy, as 'PERIKLES' is perikles
        if kind not in kinds:
            raise ServiceError(
                f"unknown bot kind {kind!r} for {rs.name}; choose one of: {', '.join(sorted(kinds))}"
            )
        seats.append(PlayerSeat(name, kind))
    names = [s.name for s in seats]
    listed = next((n for n in names if "," in n), None)
    if listed is not None:  # 'Ana,Bo,Cy' as one seat: said before the count of seats it throws off
        raise ServiceError(f"{listed!r} cannot be a player name (',' separates names)",
                           "; give each player a seat of their own{seats}")
    if not rs.min_players <= len(seats) <= rs.max_players:
        said = f"{rs.name} is played by {rs.min_players} to {rs.max_players} players, not {len(seats)}"
        try:  # the ruleset's own reason, when it gives one (e.g. "no rules for a single player")
            rs.check_setup(names, dict(spec.options), rs.default_cards())
        except (ValueError, KeyError, TypeError) as e:
            said = f"cannot set up {rs.name}: {_first_line(e)}"
        # what to do, in the face's words: a new user's first 'agon new perikles' names no seat at all
        span = (f"{rs.min_players} or {rs.max_players}" if rs.max_players == rs.min_players + 1
                else f"{rs.min_players} to {rs.max_players}")
        raise ServiceError(said, f"; give {span} seats{{seats}}")
    problem = seats_problem(names) or new_title_problem(spec.title)  # one of spaces only: refused when new alone
    if problem:
        raise ServiceError(problem)
    unknown = set(spec.options) - set(rs.option_names)
    if unknown:
        allowed = (f"its options: {', '.join(sorted(rs.option_names))}" if rs.option_names else
                   "it takes none")
        raise ServiceError(f"{rs.name} has no option {', '.join(sorted(map(shown, unknown)))}; {allowed}")
    for key, value in sorted(spec.options.items()):  # stored in the first event and printed in errors: plain text
        problem = isinstance(value, str) and text_problem(value, f"the value of option {key}", MAX_TITLE)
        if problem:
            raise ServiceError(problem)
    if spec.cards is not None and lone_surrogate(spec.cards):  # JSON may escape one ("\ud800"); no store takes it
        raise ServiceError(f"the card set holds a lone surrogate (an escape from \\ud800 to \\udfff without its"
                           f" pair), which is not text; compare it with `agon cards {rs.name}`")
    # The card set is stored once per store, by hash; the first event names the hash (core/card_sets.py).
    # A ruleset without cards (an empty set) names none.
    card_hash, card_body = (card_sets_mod.seal_cards(spec.cards) if spec.cards is not None
                            else default_card_set(rs))
    if card_body == b"{}":
        card_hash = ""
    cards = msgspec.json.decode(card_body)  # as a later command will read it back
    # check_setup is pure: a setup it passed once (the same seats, options and card set) passes again, so a
    # process that creates many games (agon demo, bots, a server) checks the card set once, not every game
    # one spelling per value ('less_luck=0', '=false', '=off' are one setup), so stats group games alike
    canonical = getattr(rs, "canonical_options", None)
    options = canonical(dict(spec.options)) if canonical is not None else dict(spec.options)
    # a setting asked for that cannot apply, refused for a new game only: a game recorded with it still plays
    asked: Callable[[dict[str, Any]], str | None] | None = getattr(rs, "new_options_problem", None)
    problem = asked(dict(options)) if asked is not None else None
    if problem:
        raise ServiceError(f"cannot set up {rs.name}: {problem}")
    setup = (rs.name, rs.version, tuple(names), msgspec.json.encode(options), card_hash)
    if setup not in _setups_passed:
        try:
            rs.check_setup(names, dict(options), cards)
        except ValueError as e:  # the ruleset's own sentence
            raise ServiceError(f"cannot set up {rs.name}: {_first_line(e)}") from None
        except Exception as e:  # noqa: BLE001 - check_setup is pure: whatever it raises, the setup is malformed
            raise ServiceError(f"cannot set up {rs.name}: the card set is malformed ({type(e).__name__}:"
                               f" {_first_line(e)}); compare it with `agon cards {rs.name}`") from None
        if spec.cards is not None and card_hash and card_hash != default_card_set(rs)[0]:
            _trial(rs, names, dict(options), cards)
        if len(_setups_passed) > 1000:
            _setups_passed.clear()
        _setups_passed.add(setup)
    problem = seed_problem(spec.seed)
    if problem:
        raise ServiceError(problem)
    seed = spec.seed if spec.seed is not None else secrets.randbelow(SEED_MAX + 1)
    created = GameCreated(
        ruleset=rs.name, ruleset_version=rs.version, players=tuple(seats), seed=seed, table=spec.table,
        options=options, title=spec.title, card_set=card_hash,
        salt=spec.salt if spec.salt is not None else secrets.token_hex(16),
    )
    codec = codec_for(rs)
    payload = card_sets_mod.encode_created(created, codec.encode)
    # the game as a later command will read it back
    stored = msgspec.structs.replace(codec.decode(payload), cards=cards)
    try:
        state = rs.initial_state(stored)
    except Exception as e:  # noqa: BLE001 - a bad card set must not be stored
        raise ServiceError(f"cannot set up {rs.name} with this card set: {e}") from None
    luck = 0 if spec.seed is not None else secrets.randbelow(SEED_MAX) + 1
    return NewSetup(rs, tuple(names), card_hash, card_body, payload, stored, state, luck)


class Service:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.snapshots = os.environ.get("AGON_SNAPSHOTS", "1") != "0"
        """Whether lines are read from state snapshots (events/snapshots.py); off (AGON_SNAPSHOTS=0), every line
        is read whole and no snapshot is written."""
        self._computed: dict[str, dict[str, Summary]] = {}
        """Summaries computed and not kept, by game and branch: what listings read on a store that may only be
        read (``_keep``); empty while the store may be written."""
        self._keys: dict[str, bytes] = {}
        """The games' position keys read from the store (``mark_of``): a key kept is never changed."""
        self._unkept_keys: dict[str, bytes] = {}
        """Position keys made here for games the store holds none of and may not be written (``mark_of``)."""

    # -- reading -----------------------------------------------------------------------------------------------

    def load(self, game_ref: str, branch: str | None = None, whole: bool = False, keep: bool | None = None) -> Line:
        """The line of ``branch`` (default: the game's current branch). Read from its head back to the nearest state
        snapshot, unless ``whole`` (or no snapshot is near): then from its first event. ``keep``: whether its fold
        keeps the snapshots it passes (default: unless ``whole``, which verify reads to check them)."""
        game, b = self._head(game_ref, branch)
        if not whole and self.snapshots:
            line = self._load_tail(game, b)
            if line is not None:
                return line
        line = self._decode(game, b, self._read(game, b.name, b.head_id))
        if (not whole if keep is None else keep) and self.snapshots:
            line._keep = self._keeper(line.ruleset)
        return line

    def _read(self, game: GameInfo, branch: str, head_id: str) -> list[Envelope]:
        try:
            return self.store.line(game.id, head_id)
        except StoreError as e:
            if isinstance(e, Damaged):  # 'agon games' marks it from now on (its summary says so)
                self._keep([summary_table.unreadable(game.id, branch, head_id, e)])
            raise hints.again(e, ServiceError) from None

    def _fetch(self, game: GameInfo, b: BranchInfo) -> Callable[[str], tuple[list[Envelope], list[Event]]]:
        def fetch(head_id: str) -> tuple[list[Envelope], list[Event]]:
            whole = self._decode(game, b, self._read(game, b.name, head_id))
            return whole.envelopes, whole.events
        return fetch

    def _load_tail(self, game: GameInfo, b: BranchInfo) -> Line | None:
        """The line read back from its head to the nearest snapshot (or its first event, if nearer), or None when
        neither is near or what was read does not hold together (the whole line is read then, and any damage
        reported as usual)."""
        try:
            rs = registry.get(game.ruleset)
        except registry.UnknownRuleset as e:
            raise hints.again(e, ServiceError) from None
        tail, snap, root = snapshots_table.tail(self.store, game.id, b.head_id, rs.version)
        if not tail or tail[-1].id != b.head_id:
            return None
        base = tail[0].depth
        for i, env in enumerate(tail):
            if env.depth != base + i or env.expected_id() != env.id:
                return None
        keep = self._keeper(rs)
        if tail[0].parent is None:
            if base != 0:
                return None
            line = self._decode(game, b, tail)
            line._keep = keep
            return line
        if snap is None or root is None:
            return None
        codec = codec_for(rs)
        current = {t: codec.version_of(t) for t in codec.by_tag}
        created = self._decode(game, b, [root]).created
        events = []
        for env in tail[1:]:
            try:
                events.append(codec.decode(env.payload, None if current.get(env.tag) == env.version else env.version))
            except DecodeError as e:
                raise ServiceError(f"game {game.id}: event #{env.depth} cannot be read: {e}") from None
        return Line(game, b, rs, tail=tail, tail_events=events, created=created, snapshot=snap,
                    fetch=self._fetch(game, b), keep=keep, seek=self._seeker(game, rs))

    def _keeper(self, rs: Ruleset) -> Callable[[Line, list[tuple[Envelope, State, int]]], None]:
        """What a line calls with the snapshot nodes its fold passed: keeps their states in one write (a cache
        write; a state that does not encode exactly is not kept)."""
        def keep(line: Line, kept: list[tuple[Envelope, State, int]]) -> None:
            snaps = []
            for env, state, chance in kept:
                data = snapshot_mod.encode(state, line.first_state)
                if data is not None:
                    snaps.append(snapshots_table.Snapshot(env.id, rs.version, env.depth, chance, data))
            snapshots_table.put(self.store, snaps)
        return keep

    def _seeker(self, game: GameInfo, rs: Ruleset) -> Callable[[str, int, int], Seek | None]:
        """What a line calls to read a span of itself (``Line._span``): the game's node links (no payload), the
        nearest snapshot at or before the span's start, and only the rows from there to its end. None when the
        links do not hold together (the whole line is read then, and any damage reported as usual)."""
        def seek(head_id: str, start: int, stop: int) -> Seek | None:
            nodes = self.store.nodes(game.id)
            path, node = [], head_id
            while node is not None and node in nodes and len(path) <= len(nodes):
                path.append(node)
                node = nodes[node][0]
            path.reverse()
            if node is not None or not path or nodes[path[0]][1] != 0 or len(path) != nodes[head_id][1] + 1:
                return None
            every = snapshots_table.EVERY
            marks = [path[d] for d in range(every, min(start, len(path) - 1) + 1, every)]
            found = snapshots_table.of_nodes(self.store, marks)
            base, data = 0, None
            for d in range(len(marks) * every, 0, -every):
                row = found.get(path[d])
                if row is not None and row[0] == rs.version and row[4] and row[1] == d:
                    base, data = d, row[3]
                    break
            envs = snapshots_table.rows(self.store, game.id, path[base + 1 : stop + 1])
            if [e.id for e in envs] != path[base + 1 : stop + 1] or any(e.expected_id() != e.id for e in envs):
                return None
            codec = codec_for(rs)
            current = {t: codec.version_of(t) for t in codec.by_tag}
            events = []
            for env in envs:
                try:
                    events.append(codec.decode(env.payload, None if current.get(env.tag) == env.version
                                               else env.version))
                except DecodeError as e:
                    raise ServiceError(f"game {game.id}: event #{env.depth} cannot be read: {e}") from None
            return Seek(data, envs, events)
        return seek

    def game(self, game_ref: str) -> GameInfo:
        """A game by id or unique prefix, without reading its events (so also a damaged game)."""
        try:
            return self.store.game(game_ref)
        except StoreError as e:
            raise _store_failure(e) from None

    def _decode(self, game: GameInfo, b: BranchInfo, envs: list[Envelope]) -> Line:
        """A stored line from its envelopes (its card set read from the store)."""
        try:
            rs = registry.get(game.ruleset)
        except registry.UnknownRuleset as e:
            raise hints.again(e, ServiceError) from None
        codec = codec_for(rs)
        current = {t: codec.version_of(t) for t in codec.by_tag}
        events = []
        for env in envs:
            try:
                events.append(codec.decode(env.payload, None if current.get(env.tag) == env.version else env.version))
            except DecodeError as e:
                raise ServiceError(f"game {game.id}: event #{env.depth} cannot be read: {e}") from None
        if not isinstance(events[0], GameCreated) or events[0].ruleset != rs.name:
            raise ServiceError(f"game {game.id}: its first event is not the creation of a {rs.name} game")
        events[0] = self._with_cards(game.id, events[0])
        return Line(game, b, rs, envs, events)

    def _with_cards(self, game_id: str, created: GameCreated) -> GameCreated:
        """``created`` with the card set it names filled in from the store (a file's is judged by core/transfer.py)."""
        try:
            return card_sets_mod.expand(created, lambda h: self.store.card_sets([h]).get(h))
        except card_sets_mod.CardSetProblem as e:
            raise ServiceError(f"game {game_id} is damaged: {e}", "{verify}", game=game_id) from None

    def card_sets_of(self, created: GameCreated) -> dict[str, bytes]:
        """The stored card set a game's first event names (hash -> bytes), for an export; none if it embeds it."""
        h = card_sets_mod.wanted(created)
        return self.store.card_sets([h]) if h else {}

    def games(self) -> list[GameInfo]:
        return self.store.games()

    def log(self, line: Line, viewer: str | None = PUBLIC) -> list[Recorded]:
        """The line's events told as ``viewer`` may see them: ``PUBLIC`` (the default: what every player sees), a
        player (their own record: their cards by name), or ``None`` (everything)."""
        if viewer not in (None, PUBLIC):
            viewer = line.player(viewer)
        out = []
        for st in line.steps():
            state = st.before if st.before is not None else st.after
            out.append(told(line.ruleset, st.index, st.actor, state, st.event, viewer))
        return out

    # -- creating ----------------------------------------------------------------------------------------------

    def check_position(self, line: Line, expect: str, words: Words = CLI_WORDS, keyed: bool = False,
                       anew: str | None = None) -> None:
        """``check_position`` with the line's head moves at hand, so that a line taken back by an undo, or put
        forward again by a redo, since ``expect`` is said to have been (a lost race: ``RaceLost``). ``keyed``:
        ``expect`` is a position as the server shows it (``mark_of``), compared so; ``anew``: how a refusal ends
        where ``expect`` came with an undo or a redo (``UNDO_ANEW``, ``REDO_ANEW``)."""
        def moves() -> Iterator[HeadMove]:
            try:
                yield from self.store.head_moves_newest_first(line.game.id, line.branch.name)
            except StoreError:  # what moved it is then not told; that it moved still is
                return

        check_position(line, expect, words, moves(), self.mark_of(line.game.id) if keyed else plain_mark, anew)

    def mark_of(self, game_id: str) -> Mark:
        """How the server shows the event ids of ``game_id`` to everyone it answers (``keyed_mark``), under the
        game's position key (events/seats.py ``position_key``: made the first time it is needed, kept in the store
        so that every worker over one database shows the same positions). On a store that may not be written and
        holds no key for the game, a key of this process's own: its positions differ from another worker's, so a
        stream reconnected to another worker reads the game again (nothing can be recorded there anyway)."""
        key = self._keys.get(game_id)
        if key is None:
            try:
                key = seats_table.position_key(self.store, game_id)
            except StoreError as e:
                raise _store_failure(e) from None
            if key is not None:
                self._keys[game_id] = key
                self._unkept_keys.pop(game_id, None)
            else:
                key = self._unkept_keys.setdefault(game_id, secrets.token_bytes(32))
        return keyed_mark(key)

    def check_event_number(self, line: Line, expect: int, words: Words = CLI_WORDS, anew: str | None = None) -> None:
        """Raise ``RaceLost`` unless ``line``'s head is event #``expect`` (a client's position given as an event
        number): a line further on moved on; one behind it was taken back by an undo if the undone line it left
        reached #``expect``, else it never stood there (a number past any the line reached). ``anew``: as
        ``_position`` takes it."""
        depth = line.head.depth
        if expect == depth:
            return
        if expect < depth:
            how = "moved on since"
        else:
            tip = self.undone_tip(line.game.id, line.branch.name)
            undone = self.store.event(line.game.id, tip) if tip is not None else None
            how = ("was taken back (an undo) since" if undone is not None and undone.depth >= expect
                   else "has not stood at")
        then = anew or f"nothing was recorded: {words.at(line.game.id, line.ruleset.name, line).anew}"
        raise RaceLost(f"the game {how} event #{expect} (it is at #{depth}); {then}")

    def shown_position(self, line: Line) -> str:
        """``line``'s position as the server shows it (``mark_of``)."""
        return position(line, self.mark_of(line.game.id))

    def writable(self, game_ref: str = "") -> None:
        """Refuse a request that would record, in a store known to be read-only as it opened (SQLite: its options,
        its file; PostgreSQL: a standby, a read-only transaction, a user who may not record, asked as it opened),
        before the request is read or checked: another refusal would name a step that records (a finished game's
        undo or branch), which the store then refuses too. Every request that records asks here first. A store that
        learnt it may only be read from a refused write of derived data (PostgreSQL opened without asking, or made
        read-only since) may stop being so (``Store.read_only``: a user granted writing): a request that records is
        tried there and refused as it writes (``events.store.unavailable``), or succeeds and makes it writable again.
        ``game_ref``: the game the request names, which the refusal's steps name as it was typed (no read is spent
        resolving it; one that could not be typed back as it is, a bare word of letters, digits, '-' and '_', is
        named GAME)."""
        if self.store.read_only_as_opened:
            raise read_only_refusal(self.store.url, game_ref if _TYPED_BACK.fullmatch(game_ref) else "",
                                    self.store.read_only_why)

    def new_game(self, spec: NewGame | NewSetup) -> str:
        """Record a new game with what follows its creation by itself; ``spec`` judged here, or already judged
        (``judge_new_game``: a face that judged it before opening the store). Returns the game's id."""
        self.writable()
        setup = spec if isinstance(spec, NewSetup) else judge_new_game(spec)  # before the store is asked more
        rs, names, stored, state = setup.ruleset, list(setup.names), setup.created, setup.state
        card_hash, card_body = setup.card_hash, setup.card_body
        root = seal(None, "game.created", GameCreated.version, SETUP_ACTOR, setup.payload, now())
        game_id = secrets.token_hex(4)
        # The new line is known without reading it back: its first event and the state it sets up. It is stored
        # with the chance and bot events that follow by themselves, in one transaction.
        game = GameInfo(game_id, rs.name, stored.title, tuple(names), root.recorded_at, "main")
        line = Line(game, BranchInfo("main", root.id, setup.luck, None, None, root.recorded_at), rs, [root], [stored])
        line.__dict__["state"] = state
        run = self._run(line, [], PUBLIC, auto=True, tell=False)
        if run.envs:
            line = line.extended(run.envs, run.events, run.state, run.chance_count)
        line.__dict__["sides"] = summary_mod.sides_of(line, initial=state)  # no second setup of the cards
        summary = line.summary
        for _ in range(8):
            try:
                self.store.create_game(game_id, rs.name, stored.title, names, root, run.envs, [summary],
                                       {card_hash: card_body} if card_hash else None, luck=setup.luck)
                return game_id
            except GameIdTaken:  # a random id met a stored game's (about once in 400,000 in a 10,000-game store)
                game_id = secrets.token_hex(4)
                summary = msgspec.structs.replace(summary, game_id=game_id)
            except StoreError as e:
                raise _store_failure(e) from None
        raise ServiceError("could not find a free game id after 8 tries; the store is nearly full of games")

    # -- acting ------------------------------------------------------------------------------------------------

    def parse_choice(self, line: Line, choice: str, words: Words = CLI_WORDS) -> Event:
        """The event meant by ``choice``: a number from ``options``, the event as JSON, or a chance outcome."""
        words = words.at(line.game.id, line.ruleset.name, line)
        pending = line.pending
        text = choice.strip()
        if isinstance(pending, Over):
            raise NotNow(f"the game is over ({pending.outcome.summary}); {words.play_on}")
        if len(text) > MAX_CHOICE:
            raise ServiceError(f"the choice is {len(text):,} characters long; no event of {line.ruleset.name} needs"
                               f" more than {MAX_CHOICE:,}")
        if text.startswith("{"):
            instead = (words.deciding() if not isinstance(pending, Chance)  # no options
                       else f"type the outcome ({pending.describe()}) or 'seed'{words.json_too}"
                       if line.created.table else f"type 'seed'{words.json_too}")

            def no_event(e: ServiceError) -> ServiceError:
                """``e``, or on a face that takes no event as JSON (``json_too`` empty: a page, whose person meant
                none) what was typed and what to type instead, in that face's words."""
                return e if words.json_too else ServiceError(f"{words.not_json.replace('{why}', '')}; {instead}")

            try:
                obj = json.loads(text)
            except json.JSONDecodeError as e:
                wrong = words.not_json.replace("{why}", f"{e.msg} at column {e.colno}")
                raise no_event(ServiceError(f"{wrong}; {instead}")) from None
            except ValueError:  # valid JSON Python will not read: a number of more digits than int() takes
                raise no_event(ServiceError(
                    f"the choice's JSON holds a number of more than {sys.get_int_max_str_digits():,} digits; no event"
                    f" of {line.ruleset.name} needs one", "; {schema}", game=line.game.id,
                    ruleset=line.ruleset.name)) from None
            except RecursionError:
                raise no_event(ServiceError("the choice's JSON is nested too deeply to be an event", "; {schema}",
                                            game=line.game.id, ruleset=line.ruleset.name)) from None
            try:
                return line.codec.from_obj(obj)
            except (DecodeError, RecursionError) as e:
                why = "it is nested too deeply" if isinstance(e, RecursionError) else str(e)
                raise no_event(ServiceError(f"not an event of {line.ruleset.name}: {why}", "; {schema}",
                                            game=line.game.id, ruleset=line.ruleset.name)) from None
        if isinstance(pending, Chance):
            if text in ("seed", "random"):
                outcome = chance_mod.draw(pending, chance_mod.rng_for(
                    line.created.seed, line.branch.luck, line.chance_count))
            elif not line.created.table:  # what may be typed here is 'seed' alone: say so, not what a table takes
                raise seeded_only(pending, line.ruleset.name)
            else:
                try:
                    outcome = chance_mod.parse(pending, text)
                    chance_mod.check(pending, outcome)
                    outcome = chance_mod.canonical(pending, outcome)  # typed again in another order: the same event
                except chance_mod.BadOutcome as e:
                    # 'bot' typed here lets no bot draw the outcome: said so, not only how the outcome is typed
                    bot = "'bot' works only when a bot's seat must decide; a chance outcome is needed now: " \
                        if text == "bot" else ""
                    raise ServiceError(f"{bot}{self._outcome_rule(line, pending, text) or e};"
                                       " or type 'seed' to let agon draw it") from None
            return pending.build(outcome)
        if not entry.tokens(text):  # nothing but spaces or commas: nothing chosen, even where one decision is legal
            raise ServiceError(f"no choice given: {pending.player} must decide ({pending.prompt});"
                               f" {words.deciding()}")
        if text == "bot":
            auto = None
            if line.bot_of(pending.player):
                auto = self._auto(line, line.depth + 1, line.chance_count, draw_chance=False)
            if auto is None:
                raise ServiceError(f"'bot' works only when a bot's seat must decide; {pending.player} is a person")
            return auto.event
        legal = line.ruleset.legal(line.state)
        # a number, or one below zero (never read as a step); not '²': str.isdigit accepts digits int() cannot read
        if steps_mod.negative(text) or text.isascii() and text.isdigit():
            if len(text) > 9 or not 1 <= int(text) <= len(legal):
                n = text if len(text) <= 12 else text[:12] + "..."
                raise ServiceError(f"choice {n} is out of range: choose 1 to {len(legal)}{words.listed}")
            return legal[int(text) - 1]
        try:  # the decision's steps typed at once, each by a prefix (core.steps)
            return steps_mod.build(line.ruleset, line.state, text)
        except entry.EntryError as e:
            if text in ("seed", "random"):  # typed at a table out of habit: no chance is due, a person decides
                raise ServiceError(f"'{text}' draws a chance outcome, but none is needed now: {pending.player} must"
                                   f" decide ({pending.prompt}); {words.deciding()}") from None
            if isinstance(e, steps_mod.Listed) and all(ev in legal for ev in e.question.decisions):
                # the decisions the words reach, by their numbers in the options (a short list's own numbers,
                # 1 to 3, would record other decisions here)
                listed = "; ".join(f"{legal.index(ev) + 1}: {option_text(line.ruleset, line.state, ev).rstrip('.')}"
                                   for ev in e.question.decisions)
                raise ServiceError(f"{e.head}; possible: {listed}; {words.deciding(its=True)}") from None
            # a step the rules forbid (a bid of coins not held) is refused as the same event sent as JSON is
            said = f"refused: {e}" if isinstance(e, steps_mod.Refused) else str(e)
            raise ServiceError(f"{said}; or {words.deciding()}") from None

    @staticmethod
    def _outcome_rule(line: Line, pending: Chance, text: str) -> str | None:
        """The ruleset's own refusal (naming its rule) of dice typed at a table that read as numbers, the right
        count of them, but not as faces of the die: what the same outcome typed as JSON is told."""
        if pending.kind != "dice":
            return None
        try:
            outcome = chance_mod.parse(pending, text)
        except chance_mod.BadOutcome:
            return None
        if len(outcome) != pending.count:
            return None
        return line.ruleset.validate(line.state, pending.build(outcome))

    def act(self, game_ref: str, choice: str, as_player: str | None = None, branch: str | None = None,
            auto: bool = True, tell: str | None = DECIDER, expect: str | None = None,
            words: Words = CLI_WORDS) -> list[Recorded]:
        """Record one decision (or, in a table game, a chance outcome), then what follows by itself."""
        return self.record(game_ref, choice, as_player, branch, auto, tell, expect, words=words)[0]

    def record(self, game_ref: str, choice: str, as_player: str | None = None, branch: str | None = None,
               auto: bool = True, tell: str | None = DECIDER, expect: str | None = None, line: Line | None = None,
               words: Words = CLI_WORDS, keyed: bool = False) -> tuple[list[Recorded], Line]:
        """``act``, also returning the line as it now stands (without reading and folding it again).

        The events recorded are told to ``tell``: by default (``DECIDER``) as the player who decided may see them
        (a chance outcome typed at a table: as every player sees it), since the reply is read by the person who
        acted; else to that player, ``PUBLIC``, or ``None`` for everything.

        ``expect``: the ``position`` at which the choice was made (e.g. when the options were shown); a line that
        has moved since is refused, so an option number never means another decision than the one shown. The
        store's compare-and-swap on the head read here covers a move between this check and the write.

        ``line``: the line as the caller has just read it (the server reads it to check the seat), to save reading
        and folding it again; the compare-and-swap expects its head, so a line that moved since is a lost race.
        ``words``: how refusals name what to do next (the server's differ from the command line's). ``keyed``:
        ``expect`` is a position as the server shows it (``mark_of``)."""
        self.writable(line.game.id if line is not None else game_ref)
        if line is None:
            line = self.load(game_ref, branch)
        if expect is not None:
            self.check_position(line, expect, words, keyed)
        if as_player is not None:  # the seat as stored, typed in either Unicode form; a name no seat has is
            as_player = player_named(as_player, line.created.names) or as_player  # refused below, as the turn asks
        pending = line.pending
        if (isinstance(pending, Decision) and as_player is not None and as_player != pending.player
                and as_player in line.created.names and not choice.lstrip().startswith("{")):
            # A number or typed steps are read against the options of the player to act, which may tell of a hand
            # ``as_player`` cannot see ('choose 1 to N'): refused before they are read, naming the rule as the same
            # decision given as JSON under their name is told (the rules judge the turn before anything else).
            first = next(iter(line.ruleset.legal(line.state)), None)
            raise ServiceError(f"refused: {out_of_turn(line.ruleset, line.state, pending, as_player, first)}")
        # A seat's decision entered by someone told the game as another viewer sees it ('agon play' at a bot's
        # seat): a refusal would name what that seat may choose (a hand, a hidden tile), so it names none of it.
        unseen = isinstance(pending, Decision) and tell not in (DECIDER, None) and tell != pending.player
        try:
            event = self.parse_choice(line, choice, words)
            if unseen:
                check(line.ruleset, line.state, event, as_player or pending.player)
        except (ServiceError, RuleViolation):
            if not unseen:
                raise
            whom = "here" if tell == PUBLIC else f"to {tell}"
            raise ServiceError(f"{shown(choice.strip())} is not a decision {pending.player} may make now; what"
                               f" {pending.player} may choose is not shown {whom}"
                               + (" ('bot' lets the bot decide)" if line.bot_of(pending.player) else "")) from None
        if isinstance(pending, Decision):
            actor = as_player or pending.player
            if actor not in line.created.names:
                raise ServiceError(f"no player {actor!r} in this game; its players: {', '.join(line.created.names)}")
            viewer = actor
        else:
            if as_player is not None:
                raise ServiceError(f"no player acts now: a chance outcome is needed ({pending.describe()})")
            if isinstance(pending, Chance) and not line.created.table and event != pending.build(chance_mod.draw(
                    pending, chance_mod.rng_for(line.created.seed, line.branch.luck, line.chance_count))):
                raise seeded_only(pending, line.ruleset.name)  # an event sent as JSON: the same words
            actor, viewer = CHANCE_ACTOR, PUBLIC
        if tell != DECIDER:
            viewer = tell
        return self._record(line, [(event, actor)], viewer, auto=auto)

    def pass_in_turn(self, game_ref: str, branch: str | None = None, tell: str | None = DECIDER,
                     expect: str | None = None, words: Words = CLI_WORDS) -> list[Recorded]:
        """The pending pass and the same pass by every person asked in turn after it (core.steps.passes_in_turn:
        "nobody plays a tile"), as one entry: one move in the head history, so one undo takes the whole run back.
        Told as the first of them may see it (or ``tell``). For a face where one person answers for the table
        (``agon play``); a seat answers only for itself."""
        self.writable(game_ref)
        line = self.load(game_ref, branch)
        if expect is not None:
            self.check_position(line, expect, words)
        run = steps_mod.passes_in_turn(line.ruleset, line.state,
                                         [p.name for p in line.created.players if not p.bot])
        if not run:
            raise ServiceError("no pass is asked of several players in turn now; answer the decision asked")
        return self._record(line, run, run[0][1] if tell == DECIDER else tell, auto=True)[0]

    def advance(self, line: Line, viewer: str | None = PUBLIC, tell: bool = True) -> tuple[list[Recorded], Line]:
        """Let chance (outside table games) and bots move until a person must act or the game ends, in one
        transaction; what was recorded is told as ``viewer`` may see it (nothing is told unless ``tell``)."""
        return self._record(line, [], viewer, auto=True, tell=tell)

    def _auto(self, line: Line, depth: int, ordinal: int, draw_chance: bool, state: State = None):
        return next_auto(
            line.ruleset, line.created, line.state if state is None else state, depth=depth,
            chance_ordinal=ordinal, luck=line.branch.luck, draw_chance=draw_chance,
        )

    def _record(self, line: Line, first: list[tuple[Event, str]], viewer: str | None = PUBLIC, auto: bool = False,
                tell: bool = True) -> tuple[list[Recorded], Line]:
        """Append ``first`` and what follows it by itself (see ``_run``) in one transaction with one
        compare-and-swap: one move in the head history. A refused event records nothing."""
        run = self._run(line, first, viewer, auto, tell)
        if not run.envs:
            return run.recorded, line
        tip = self.undone_tip(line.game.id, line.branch.name)
        keep, reason = None, "act"
        if tip is not None:
            if self._on_the_way(line.game.id, run.envs[-1], tip):
                reason = "reenter"  # the undone moves entered again as they were: no line is left behind yet
            else:
                keep = self._undone_line(line, tip, {e.id for e in run.envs})
        if "sides" not in line.__dict__:  # carried from the branch's summary when it is current and complete
            prior = summary_table.of_game(self.store, line.game.id, line.branch.name).get(line.branch.name)
            if prior is not None and prior.head_id == line.head.id and all(
                    p in prior.sides for p in line.created.names):
                line.__dict__["sides"] = dict(prior.sides)
        new = line.extended(run.envs, run.events, run.state, run.chance_count)
        try:
            # moves entered as they were entered before on a line kept since (e.g. an undone line named at an
            # earlier entry, or another branch's): the stored events are walked, a 'reenter', not a new 'act'
            self.store.append(line.game.id, line.branch.name, line.head.id, run.envs, reason,
                              summaries=[new.summary], keep=keep, walked="reenter")
        except StoreError as e:
            raise _store_failure(e) from None
        return run.recorded, new

    def _run(self, line: Line, first: list[tuple[Event, str]], viewer: str | None, auto: bool, tell: bool) -> Run:
        """``first`` and what follows it by itself, sealed but not stored: the chance events it triggers (outside
        table games) and, with ``auto``, the bots' decisions and their chance too, until a person must act or the
        game ends. Each event is told as ``viewer`` may see it (when ``tell``).

        Every event is checked against the rules; a refused one raises ``ServiceError``."""
        rs, codec = line.ruleset, line.codec
        created, luck = line.created, line.branch.luck  # read once: a Line's properties are not free
        table = created.table
        draw = not (auto and table)
        state, chances = line.state, line.chance_count
        envs: list[Envelope] = []
        events: list[Event] = []
        recorded: list[Recorded] = []
        # the hot loop of a bot game: each name it calls per event is a local
        apply, tag_of, version_of, encode = rs.apply, codec.tag_of, codec.version_of, codec.encode
        parent = line.head
        queue = list(first)
        at = now()
        while True:
            if queue:
                event, actor = queue.pop(0)
            else:
                more = None
                if auto or (isinstance(nxt := rs.pending(state), Chance) and (not table or nxt.forced)):
                    more = next_auto(rs, created, state, depth=parent.depth + 1, chance_ordinal=chances, luck=luck,
                                     draw_chance=draw)
                if more is None:
                    return Run(envs, events, recorded, state, chances)
                event, actor = more.event, more.actor
            try:
                check(rs, state, event, None if actor == CHANCE_ACTOR else actor)
            except RuleViolation as e:
                raise ServiceError(f"refused: {e.rule}") from None
            tag = tag_of(event)
            env = seal(parent, tag, version_of(tag), actor, encode(event), at)
            envs.append(env)
            events.append(event)
            if tell:
                recorded.append(told(rs, env.depth, actor, state, event, viewer))
            state = apply(state, event)
            parent = env
            if actor == CHANCE_ACTOR:
                chances += 1

    def undone_tip(self, game_id: str, branch: str) -> str | None:
        """Where the branch's head was before the undos (and redos) since its last recorded event: the end of the
        line that acting now would leave behind (several undos in a row leave it, not only the last one's start).
        Undone moves entered again as they were ('reenter') walk that line and do not end it. A 'reenter' onto
        another stored line (one kept before) does not end it either: the line it left was named in the same
        write, and ``_undone_line`` names no tip that a branch's line already holds."""
        return _undone_tip_from(self.store.head_moves_newest_first(game_id, branch))

    def _on_the_way(self, game_id: str, env: Envelope, tip: str) -> bool:
        """Whether ``env`` is on the line that ends at ``tip`` (``tip`` itself included): the events just
        recorded are undone ones entered again, the same decisions at the same positions, so the same nodes. One
        walk back from ``tip`` over the events between them."""
        if env.id == tip:
            return True
        end = self.store.event(game_id, tip)
        if end is None or end.depth <= env.depth:
            return False
        back = self.store.back_from(game_id, tip, end.depth - env.depth + 1)
        return bool(back) and back[0].id == env.id

    @staticmethod
    def kept_name(branch: str, k: int) -> str:
        """The name undo gives the ``k``-th line it keeps off ``branch`` (``main-undone-1``): acting after an undo
        grows a new line, and the undone one keeps this name (``_undone_line``). Always one a branch may have
        (``derived_branch``): off a branch of the longest name it was longer, and the game's export could not be
        imported."""
        return derived_branch(branch, f"undone-{k}")

    @classmethod
    def kept_by_undo(cls, name: str, branch: str) -> bool:
        """Whether ``name`` is one that undo gives a line it keeps off ``branch`` (``kept_name``)."""
        m = re.search(r"-undone-([0-9]+)$", name)
        return m is not None and name == cls.kept_name(branch, int(m[1]))

    def _undone_line(self, line: Line, tip: str, new_ids: set[str]) -> NewBranch | None:
        """Acting after an undo grows a new line; the undone one keeps a name so no line is ever hidden. The name
        is stored in the same transaction as the new events (``Store.append``'s ``keep``)."""
        branches = self.store.branches(line.game.id)
        if tip in new_ids or self._holds(line, tip) or self._on_a_branch(line.game.id, tip, branches):
            return None
        names = {b.name for b in branches}
        k = 1
        while self.kept_name(line.branch.name, k) in names:
            k += 1
        return NewBranch(self.kept_name(line.branch.name, k), tip, line.branch.luck, line.branch.name)

    def _on_a_branch(self, game_id: str, node_id: str, branches: Sequence[BranchInfo]) -> bool:
        """Whether ``node_id`` is on the line of one of ``branches`` (its head or before it): such a node needs no
        new name. Each branch whose head is deeper is walked back from its head to the node's depth."""
        if any(b.head_id == node_id for b in branches):
            return True
        node = self.store.event(game_id, node_id)
        return node is not None and any(self._on_the_way(game_id, node, b.head_id) for b in branches)

    def _holds(self, line: Line, node_id: str) -> bool:
        """Whether ``node_id`` is on ``line``, without reading the whole line when the node's depth settles it."""
        known = line.holds(node_id)
        if known is not None:
            return known
        env = self.store.event(line.game.id, node_id)
        if env is None or env.depth >= line.base:
            return False  # a node at or after the tail's start would be in the tail
        return any(e.id == node_id for e in line.envelopes)

    # -- undo, redo, branches ----------------------------------------------------------------------------------

    def _head(self, game_ref: str, branch: str | None) -> tuple[GameInfo, BranchInfo]:
        try:
            return self.game_branch(game_ref, branch)
        except StoreError as e:
            raise _store_failure(e) from None

    def game_branch(self, game_ref: str, branch: str | None = None) -> tuple[GameInfo, BranchInfo]:
        """The store's ``game_branch`` (its errors too), where ``branch`` also finds a branch stored in another
        Unicode form of the same letters (``names.name_key``): looked for only when the name as typed is not
        stored, so the usual read stays one query."""
        try:
            return self.store.game_branch(game_ref, branch)
        except Unknown as e:
            missed = e
        if branch is not None:
            game = self.store.game(game_ref)
            key = name_key(branch)
            found = next((b for b in self.store.branches(game.id) if name_key(b.name) == key), None)
            if found is not None:
                return game, found
        raise missed

    def created(self, game: GameInfo) -> GameCreated:
        root = self.store.root(game.id)
        created = codec_for(registry.get(game.ruleset)).decode(root.payload, root.version)
        assert isinstance(created, GameCreated)
        return self._with_cards(game.id, created)

    def _still_at(self, game: GameInfo, b: BranchInfo, expect_head: str | None, done: str) -> None:
        """Refuse (``RaceLost``) a head move expecting ``b`` at ``expect_head`` (the head its caller read) when it
        is at another: the sentence tells what moved it and that nothing was ``done`` ('undone', 'redone')."""
        if expect_head is not None and b.head_id != expect_head:
            by = moved_since(self.store.head_moves_newest_first(game.id, b.name), expect_head)
            who = someone(by).replace("{", "{{").replace("}", "}}")  # a template's text: its own braces kept
            raise RaceLost(f"branch {b.name!r} of game {game.id} moved", f" while this {{asking}} ran ({who}); nothing"
                           f" was {done}: look at the game again and retry", game=game.id)

    def undo(self, game_ref: str, steps_back: int = 1, branch: str | None = None,
             expect_head: str | None = None, to: int | None = None) -> tuple[BranchInfo, int]:
        """Move the head back. With ``to``: to just after event ``to``. Else before the last ``steps_back`` steps:
        in a game played at a table, a step is any event a person entered (a decision or a typed chance outcome;
        what followed by itself goes with it); in a seeded game, a decision by a person (the bots' replies and the
        chance that followed are undone with it), or by anyone when no person plays. Returns the moved branch and
        the number of events undone. A seeded game walks back from the head only as far as needed. With
        ``expect_head``, undoes only while the head is still that event (the caller decided on that line:
        ``RaceLost`` otherwise)."""
        self.writable(game_ref)
        if steps_back < 1:
            raise ServiceError("--steps must be at least 1")
        game, b = self._head(game_ref, branch)
        self._still_at(game, b, expect_head, "undone")
        if to is None and steps_back == 1:
            start = self._entry_start(game.id, b.name, b.head_id)
            if start is not None:
                return self._move_back(game, b, start.id, self._depth(game.id, b.head_id) - start.depth)
        created = self.created(game)
        if to is not None or created.table:
            return self._undo_line(game, b, created, steps_back, to)
        humans = {p.name for p in created.players if not p.bot}
        head = env = self.store.event(game.id, b.head_id)
        count = 0
        while env is not None and env.parent is not None:
            if _entered(env.actor, humans, None):
                count += 1
                if count == steps_back:
                    break
            env = self.store.event(game.id, env.parent)
        if env is None or env.parent is None or head is None:
            what = ("decision", "decisions") if not humans else ("decision by a person", "decisions by people")
            raise (NotNow if count == 0 else ServiceError)(_too_far(b.name, steps_back, count, what))
        return self._move_back(game, b, env.parent, head.depth - env.depth + 1)

    def undoable(self, line: Line) -> bool:
        """Whether ``undo`` of one step would take something back on ``line`` now (what the host's undo button
        shows by), told walking back from the head only as far as the first event a person entered (a line read from
        a snapshot is read whole only when none lies in its tail), then, as ``undo`` does first, from the newest
        head moves when the head was reached by an entry that no count finds (a decision typed at a bot's seat)."""
        if line.depth == 0:
            return False
        humans = {p.name for p in line.created.players if not p.bot}
        table = line.created.table
        for env in line.newest_first():
            if env.depth == 0:
                break
            before = (lambda n=env.depth - 1: line.ruleset.pending(line.state_at(n))) if table else None
            if _entered(env.actor, humans, before):
                return True
        return self._entry_start(line.game.id, line.branch.name, line.head.id) is not None

    def _entry_start(self, game_id: str, branch: str, head_id: str) -> Envelope | None:
        """Where the last thing entered on ``branch`` started: the head before the 'act' that recorded the head
        (an entry and what followed it by itself are one move in the head history). A decision typed at a bot's
        seat to start a what-if is such an entry too, though no count of people's decisions would find it. None
        when the head was not reached by an 'act' (a new game's, an import's or a new branch's own events), or
        not among the newest moves: the caller counts steps instead."""
        for k, m in enumerate(self.store.head_moves_newest_first(game_id, branch)):
            if k >= 200:
                return None
            if m.to_id == head_id and m.reason in ("act", "reenter"):
                return self.store.event(game_id, m.from_id) if m.from_id else None
            if m.to_id == head_id and m.reason in ("create", "import", "branch"):
                return None
        return None

    def depth_of(self, game_id: str, node_id: str) -> int:
        """The event number of node ``node_id`` of a game (a branch's fork, say)."""
        return self._depth(game_id, node_id)

    def _depth(self, game_id: str, node_id: str) -> int:
        env = self.store.event(game_id, node_id)
        if env is None:
            raise ServiceError(f"game {game_id}: event {node_id[:8]} is missing from the store")
        return env.depth

    def undo_told(self, game_ref: str, steps_back: int = 1, branch: str | None = None, to: int | None = None,
                  viewer: str | None = PUBLIC, expect: str | None = None,
                  words: Words = CLI_WORDS) -> tuple[Line, list[Recorded]]:
        """``undo``, then the line as it now stands and the events taken back, told as ``viewer`` may see them
        (what 'agon undo' prints). Only the undone events are read again (back from the old head by their parent
        links), and they are told forward from the new head's state, which ``load`` reads from the nearest state
        snapshot: the cost does not grow with the line.

        ``expect``: the ``position`` the caller saw (as ``record`` takes it): a line that has moved since is
        refused (``RaceLost``, ending ``UNDO_ANEW``) and nothing is undone; the undo then expects the head checked
        (the store's compare-and-swap), so a move between the check and the write is a lost race too."""
        self.writable(game_ref)
        game, b = self._head(game_ref, branch)
        read = self.load(game.id, b.name)
        read.state  # noqa: B018 - a damaged line is refused before its head moves, not after (as ``_sound``)
        if expect is not None:
            self.check_position(read, expect, words, anew=UNDO_ANEW)
        head = read.head.id
        moved, n = self.undo(game.id, steps_back, b.name, expect_head=head, to=to)
        line = self.load(game.id, moved.name)
        undone = self.store.back_from(game.id, head, n)
        rs, codec = line.ruleset, line.codec
        current = {t: codec.version_of(t) for t in codec.by_tag}
        state, out = line.state, []
        for env in undone:
            try:
                event = codec.decode(env.payload, None if current.get(env.tag) == env.version else env.version)
            except DecodeError as e:
                raise ServiceError(f"game {game.id}: event #{env.depth} cannot be read: {e}") from None
            out.append(told(rs, env.depth, env.actor, state, event, viewer))
            state = rs.apply(state, event)
        return line, out

    def _undo_line(self, game: GameInfo, b: BranchInfo, created: GameCreated, steps_back: int,
                   to: int | None) -> tuple[BranchInfo, int]:
        line = self.load(game.id, b.name)
        last = line.head.depth
        if to is not None:
            if last == 0:
                raise NotNow(f"nothing to undo: branch {b.name!r} is at event #0, the start of the game")
            if not 0 <= to < last:
                raise ServiceError(f"--to {to} is outside what can be undone: this line has events 0 to {last},"
                                   f" so --to takes 0 to {last - 1}")
            return self._move_back(game, b, line.envelopes[to].id, last - to)
        humans = {p.name for p in created.players if not p.bot}
        entered = []  # the events a person typed: decisions (by anyone when nobody is a person) and chance
        for st in line.steps()[1:]:
            if _entered(st.actor, humans, lambda st=st: line.ruleset.pending(st.before)):
                entered.append(st.index)
        if len(entered) < steps_back:
            raise (NotNow if not entered else ServiceError)(_too_far(b.name, steps_back, len(entered),
                                                                    ("entered event", "entered events")))
        n = entered[-steps_back]
        return self._move_back(game, b, line.envelopes[n - 1].id, last - n + 1)

    def _move_back(self, game: GameInfo, b: BranchInfo, target: str, undone: int) -> tuple[BranchInfo, int]:
        try:
            self.store.move_head(game.id, b.name, b.head_id, target, "undo")
        except StoreError as e:
            raise _store_failure(e) from None
        return self.store.branch(game.id, b.name), undone

    def redo_target(self, game_id: str, branch: str, head: str) -> str | None:
        """Where ``redo`` would go: the head before the latest undo not yet redone, if nothing was done since but
        redos and undone moves entered again ('reenter'). After those, the head is somewhere on the undone line:
        redo goes on to the end of the first undo whose end is still ahead of it."""
        def ahead(tip: str) -> bool:
            now_at = self.store.event(game_id, head)
            return now_at is not None and self._on_the_way(game_id, now_at, tip)

        return _redo_from(self.store.head_moves_newest_first(game_id, branch), head, ahead)

    def redoable(self, line: Line) -> bool:
        """Whether ``redo`` would bring something back on ``line`` now (what the host's redo button shows by): as
        ``redo_target`` tells it, from one read of the branch's newest head moves (a page of them; a line played on
        since its last undo stops at the first), the line's head as read standing for the head, not read again."""
        def ahead(tip: str) -> bool:  # asked only after undone moves were entered again ('reenter')
            return self._on_the_way(line.game.id, line.head, tip)

        moves = self.store.head_moves_newest_first(line.game.id, line.branch.name)
        return _redo_from(moves, line.head.id, ahead) is not None

    def _sound(self, game_id: str, branch: str) -> None:
        """Refuse a line that does not read (``Damaged``) before a command moves its head. Read as ``load`` reads
        it, from the nearest state snapshot, and folded: a line read whole for want of one (an imported game) keeps
        its snapshots from then on, so that the next undo or redo reads only the tail again, not the whole line."""
        self.load(game_id, branch).state  # noqa: B018 - folded for the snapshots it keeps

    def redo(self, game_ref: str, branch: str | None = None, line: Line | None = None, expect: str | None = None,
             words: Words = CLI_WORDS, expect_head: str | None = None) -> tuple[BranchInfo, int]:
        """Move the head on to where the last undo not yet redone took it from. ``line``: the line as the caller
        has just read it (the server reads it to check the seat): while it is the branch's line at its head now,
        folding it (once, if it is not yet) checks that the line reads, instead of reading it again. Either way
        the head moves only from the head just read (the store's compare-and-swap). ``expect``: the ``position``
        the caller saw (as ``undo_told`` takes it): a line that has moved since is refused (``RaceLost``, ending
        ``REDO_ANEW``), so a stale redo never brings back a second undo after someone else's redo. ``expect_head``
        (as ``undo`` takes it): redoes only while the head is still that event (the caller checked its position
        there: the server's ``expect``), ``RaceLost`` otherwise."""
        self.writable(game_ref)
        game, b = self._head(game_ref, branch)
        self._still_at(game, b, expect_head, "redone")
        if expect is not None and line is None:
            line = self.load(game.id, b.name)
            b = line.branch  # the head checked below is the one the compare-and-swap expects
        if line is not None and (line.game.id, line.branch.name, line.head.id) == (game.id, b.name, b.head_id):
            line.state  # noqa: B018 - a damaged line is refused (Damaged) before its head moves
        else:
            self._sound(game.id, b.name)  # a damaged line is refused before its head moves
        if expect is not None:
            assert line is not None
            self.check_position(line, expect, words, anew=REDO_ANEW)
        target = self.redo_target(game.id, b.name, b.head_id)
        if target is None:
            raise NotNow(self._no_redo(game, b))
        try:
            self.store.move_head(game.id, b.name, b.head_id, target, "redo")
        except StoreError as e:
            raise _store_failure(e) from None
        old, new = self.store.event(game.id, b.head_id), self.store.event(game.id, target)
        assert old is not None and new is not None
        return self.store.branch(game.id, b.name), new.depth - old.depth

    def _no_redo(self, game: GameInfo, b: BranchInfo) -> str:
        """Why there is nothing to redo on ``b``, in words: nothing was undone, it was all brought back, or a
        different entry left it (then which branch keeps it); and where the line goes on when another branch holds
        more of it, or which branch has an undo to redo."""
        moves = (m for m in self.store.head_moves_newest_first(game.id, b.name) if m.reason != "switch")
        last = next(moves, None)
        head = self.store.event(game.id, b.head_id)
        others = [o for o in self.store.branches(game.id) if o.name != b.name]

        def on_line(node_id: str | None, branch_head: str) -> bool:  # node_id on the line ending at branch_head
            node = self.store.event(game.id, node_id) if node_id else None
            return node is not None and self._on_the_way(game.id, node, branch_head)

        def keeper(node_id: str | None) -> str | None:  # the undone line kept off b that holds node_id
            kept = [o for o in others if o.parent_branch == b.name and self.kept_by_undo(o.name, b.name)
                    and on_line(node_id, o.head_id) and not on_line(o.head_id, b.head_id)]
            return max(kept, key=lambda o: o.created_at).name if kept else None

        if last is not None and last.reason in ("undo", "redo", "reenter"):
            tip = self.undone_tip(game.id, b.name)
            kept = None if tip is None or on_line(tip, b.head_id) else keeper(tip)
            why = (f"nothing to redo: a different entry followed the undo on branch {b.name!r}; what it took back is"
                   f" kept as branch {kept!r}" if kept else
                   f"nothing to redo: what was undone on branch {b.name!r} has been brought back (by redo, or by"
                   " entering the same moves again)")
        else:
            # the last entry followed an undo (the moves before it are undos): the line that undo took back, to
            # its tip, is kept; any other entry kept nothing ('main-undone-1' made by hand through the position the
            # entry was made at was named, though nothing had been undone)
            tip = _undone_tip_from(moves) if last is not None and last.reason == "act" else None
            kept = keeper(tip) if tip is not None else None
            why = f"nothing to redo: nothing was undone on branch {b.name!r} since its last recorded event" + (
                f" (the entry made after the last undo kept what it took back as branch {kept!r})" if kept else "")
        ahead = sorted(o.name for o in others if o.head_id != b.head_id and head is not None
                       and self._on_the_way(game.id, head, o.head_id))
        if ahead:
            return why + f"; the line goes on as branch {ahead[0]!r}: switch to it, or enter the same moves again"
        undone = sorted(o.name for o in others if self.redo_target(game.id, o.name, o.head_id) is not None)
        if undone:  # e.g. an undo, then a switch to another branch before the redo
            return why + f"; branch {undone[0]!r} has an undo to redo (a redo applies to one branch)"
        return why

    def branch(self, game_ref: str, name: str, at: int | None = None, from_branch: str | None = None,
               reseed: bool = False) -> BranchInfo:
        """A new line starting at event ``at`` of ``from_branch`` (default: its head); switches to it.

        At the head this is one row: its cost does not grow with the game. ``at`` reads the line to find it."""
        self.writable(game_ref)
        name = name_key(name)  # one form of each letter: the branch is found however its letters are typed
        problem = branch_problem(name) or reserved_branch(name)
        if problem:
            raise ServiceError(problem)
        game, src_b = self._head(game_ref, from_branch)
        # a branch stored before names were kept in one form, under another form of the same letters: taken too
        if not name.isascii():  # (only letters beyond ASCII have two forms: the usual name costs no read)
            name = next((b.name for b in self.store.branches(game.id) if name_key(b.name) == name), name)
        if at is None:
            head_id = src_b.head_id
        else:
            src = self.load(game.id, src_b.name)
            if not 0 <= at <= src.head.depth:
                raise ServiceError(
                    f"event {at} is outside branch {src.branch.name!r}, which has events 0 to {src.head.depth}"
                )
            head_id = src.envelopes[at].id
        luck = secrets.randbelow(2**31) + 1 if reseed else src_b.luck
        try:
            self.store.create_branch(game.id, name, head_id, luck, src_b.name)
        except StoreError as e:
            raise _store_failure(e) from None
        src = summary_table.of_game(self.store, game.id, src_b.name).get(src_b.name)
        copied = src is not None and src.head_id == head_id
        if copied:  # the same position: the same summary, still O(1)
            self._keep([msgspec.structs.replace(src, branch=name)])
        # A chance outcome due where the branch starts is drawn now, as after every decision (a seeded game's
        # chance, or a table's forced one, waits for nobody): the branch is left where someone must decide. At a
        # head whose summary tells of no chance due (the usual case), the line is not read.
        if not copied or at is not None or src.status.startswith(CHANCE_DUE):
            self._draw_due(game, name)
        return self.store.branch(game.id, name)

    def _draw_due(self, game: GameInfo, name: str) -> int:
        """Draw the chance outcomes due at the head of the new branch ``name`` (outside table games; at a table,
        only forced ones), with the branch's luck (the parent's, or fresh after --reseed), up to the first decision;
        no bot moves (a branch at a bot's turn is where a what-if overrides it). Recorded as the branch's making
        ('branch' in the head history, from the fork on): what came by itself with it, which no undo takes back
        alone. Returns how many events were drawn."""
        line = self.load(game.id, name)
        run = self._run(line, [], PUBLIC, auto=False, tell=False)
        if not run.envs:
            return 0
        new = line.extended(run.envs, run.events, run.state, run.chance_count)
        try:
            self.store.append(game.id, name, line.head.id, run.envs, "branch", summaries=[new.summary],
                              walked="branch")
        except StoreError as e:
            raise _store_failure(e) from None
        return len(run.envs)

    def switch(self, game_ref: str, name: str) -> Line:
        self.writable(game_ref)
        game = self.load(game_ref).game
        _, b = self._head(game.id, name)  # as stored, however its letters were typed
        try:
            self.store.set_current(game.id, b.name)
        except StoreError as e:
            raise _store_failure(e) from None
        return self.load(game.id, b.name)

    def head_summary(self, game_id: str, branch: str) -> Summary:
        """Where a branch stands (its head's summary) without reading its line when the stored summary is current
        (after a redo, a branch made at a head, an act); else recomputed and stored."""
        game, b = self._head(game_id, branch)
        row = self._known(game.id, {branch: b.head_id}).get(branch)
        try:
            version = registry.get(game.ruleset).version
        except registry.UnknownRuleset as e:
            raise hints.again(e, ServiceError) from None
        if summary_table.current(row, b.head_id, version):
            return row
        row = self.load(game_id, branch).summary
        self._keep([row])
        return row

    def tree(self, game_ref: str) -> tuple[GameInfo, list[BranchRow]]:
        """Every branch of a game with where it forks from its parent, its head and how it stands, from one scan
        of the game's nodes (parent links only) and the branches' summaries (a stale one is recomputed): no line
        is read or replayed unless its summary is stale."""
        game, _ = self._head(game_ref, None)
        branches = self.store.branches(game.id)
        try:
            version = registry.get(game.ruleset).version
        except registry.UnknownRuleset as e:
            raise hints.again(e, ServiceError) from None
        heads = {b.name: b.head_id for b in branches}
        known = self._known(game.id, heads)
        stale = [(game.id, b.name, game.ruleset, b.head_id) for b in branches
                 if not summary_table.current(known.get(b.name), b.head_id, version)]
        problems = self.refresh(stale)
        if problems:  # said of this game: once, not 'ID: game ID is damaged'
            raise ServiceError(problems[0].removeprefix(f"{game.id}: "))
        if stale:
            known = self._known(game.id, heads)
        marked = next((s.status for s in known.values() if s.ruleset_version == summary_table.DAMAGED), None)
        if marked:  # found by 'agon verify': the tree is damaged somewhere, though these lines read
            raise ServiceError(marked)
        nodes = self.store.nodes(game.id)
        lines: dict[str, set[str]] = {}

        def line_of(head: str) -> set[str]:
            if head not in lines:
                ids, node = set(), head
                while node is not None:
                    ids.add(node)
                    node = nodes[node][0] if node in nodes else None
                lines[head] = ids
            return lines[head]

        def ahead(head: str, tip: str) -> bool:  # head on the line ending at tip, walked back from tip
            node: str | None = tip
            while node is not None and node in nodes and head in nodes and nodes[node][1] > nodes[head][1]:
                node = nodes[node][0]
            return node == head

        def redo(b: BranchInfo) -> tuple[int | None, int | None]:
            """The events a redo would bring back and those undone in all, from the tails read at once."""
            moves = tails.get(b.name, [])
            target = _redo_from(moves, b.head_id, lambda tip: ahead(b.head_id, tip))
            if target is None or target not in nodes or b.head_id not in nodes:
                return None, None
            tip = _undone_tip_from(moves)
            end = tip if tip in nodes and ahead(b.head_id, tip) and ahead(target, tip) else target
            return nodes[target][1] - nodes[b.head_id][1], nodes[end][1] - nodes[b.head_id][1]

        tails = self.store.undo_tails(game.id)  # every branch's moves since its last entry: one query, not one each
        by_name = {b.name: b for b in branches}
        rows = []
        for b in branches:
            parent = by_name.get(b.parent_branch or "")
            fork = None
            if parent is not None:  # the last event this line shares with its parent's line
                theirs, node = line_of(parent.head_id), b.head_id
                while node is not None and node not in theirs:
                    node = nodes[node][0] if node in nodes else None
                fork = nodes[node][1] if node is not None else 0
            s = known[b.name]
            rows.append(BranchRow(
                b.name, b.parent_branch, fork, nodes[b.head_id][1] if b.head_id in nodes else s.events - 1,
                "same" if b.luck == 0 or parent is None or b.luck == parent.luck else "fresh", s.status, s.over,
                list(s.winners) if s.over else None, dict(s.scores), b.name == game.current_branch, *redo(b),
            ))
        return game, rows

    def lines(self, game_ref: str) -> list[Line]:
        game = self.load(game_ref).game
        return [self.load(game.id, b.name) for b in self.store.branches(game.id)]

    def line_ids(self, game_id: str) -> dict[str, list[str]]:
        """Each branch of a game with its line's event ids by number (#0 first), from one scan of the game's nodes
        (parent links, no payload): which line holds which event, without reading or folding any line. A line with
        an event missing (damaged: ``agon verify`` says so) has no ids, its numbers not being known."""
        nodes = self.store.nodes(game_id)
        out: dict[str, list[str]] = {}
        for b in self.store.branches(game_id):
            ids: list[str] = []
            node: str | None = b.head_id
            while node is not None and node in nodes and len(ids) <= len(nodes):
                ids.append(node)
                node = nodes[node][0]
            out[b.name] = ids[::-1] if node is None else []
        return out

    # -- summaries -------------------------------------------------------------------------------------------

    def _keep(self, rows: Sequence[Summary]) -> None:
        """Store these summaries; a store that may only be read keeps none (``Store.keep``): they are held here,
        for the listings this service makes (a command's, or a server's while it runs)."""
        if rows and not summary_table.put(self.store, rows):
            for s in rows:
                self._computed.setdefault(s.game_id, {})[s.branch] = s

    def _known(self, game_id: str, heads: Mapping[str, str]) -> dict[str, Summary]:
        """The stored summaries of a game's branches (stale ones too), by branch; on a store that may only be read,
        those computed here instead, where made at the branch's head (``heads``: branch -> head id)."""
        known = summary_table.of_game(self.store, game_id, next(iter(heads)) if len(heads) == 1 else None)
        for name, s in self._computed.get(game_id, {}).items():
            if heads.get(name) == s.head_id:
                known[name] = s
        return known

    def _not_computed(self, branches: Sequence[tuple[str, str, str, str]]) -> list[tuple[str, str, str, str]]:
        """``branches`` (game id, branch, ruleset, head id) but those whose summary was computed here and still
        stands (a store that may only be read keeps none: each listing would compute it again). Once the store is
        no longer taken to be read-only (``Store.read_only``: written since, or a while has passed), the summaries
        held here are offered to it; kept, they are let go of."""
        if self._computed and not self.store.read_only and summary_table.put(
                self.store, [s for held in self._computed.values() for s in held.values()]):
            self._computed.clear()
        if not self._computed:
            return list(branches)
        versions: dict[str, str | None] = {}
        for rs in {b[2] for b in branches}:
            try:
                versions[rs] = registry.get(rs).version
            except registry.UnknownRuleset:
                versions[rs] = None
        return [b for b in branches if versions[b[2]] is None or not summary_table.current(
            self._computed.get(b[0], {}).get(b[1]), b[3], versions[b[2]] or "")]

    def listing(self, which: str = "current", ruleset: str | None = None, over: bool | None = None,
                order: str = "oldest", limit: int | None = None,
                progress: Callable[[int], Callable[[], None]] | None = None, count_branches: bool = True
                ) -> list[Listed]:
        """Games with the summary of their current branch (``which="main"``: their main line), read from the
        game summary without folding; rows that are missing or stale are recomputed first (``progress(n)`` is
        called with how many, and returns a callback to call after each). A game whose listed line cannot be read
        carries the number of events the store holds for it (``Listed.stored_events``)."""
        if order not in summary_table.ORDERS:
            raise ServiceError(f"unknown order {order!r}; choose one of: {', '.join(summary_table.ORDERS)}")
        if problem := limit_problem(limit):
            raise ServiceError(problem)
        if ruleset is not None:  # as the games store it; a ruleset no longer installed by the name given
            try:
                ruleset = registry.get(ruleset).name
            except registry.UnknownRuleset:
                pass
        self.refresh(self._not_computed(summary_table.stale(self.store, self._versions(ruleset), which, ruleset)),
                     progress)
        listed = summary_table.listing(self.store, which, ruleset, over, order, limit, count_branches,
                                       self._computed or None)
        # a line that cannot be read has no length: what the store holds of its game is told instead (damaged
        # games are few; one count each)
        return [g if g.summary.ruleset_version != summary_table.UNREADABLE
                else replace(g, stored_events=self.store.event_count(g.id)) for g in listed]

    def main_summaries(self, ruleset: str, limit: int | None = None,
                       progress: Callable[[int], Callable[[], None]] | None = None, facts: bool = False
                       ) -> list[Summary] | summary_table.Facts:
        """The summaries of the main lines of a ruleset's games, newest first (at most ``limit``), read in one query
        (what 'agon stats' counts); rows missing or stale in that window are recomputed first (``progress`` as for
        ``listing``). ``facts``: only what statistics count of them, column by column, without a ``Summary`` per
        game (events/summary.py ``Facts``)."""
        if problem := limit_problem(limit):
            raise ServiceError(problem)
        try:
            rs = registry.get(ruleset)
        except registry.UnknownRuleset as e:
            raise hints.again(e, ServiceError) from None
        ruleset, version = rs.name, rs.version  # as the games store it, however it was typed
        read = summary_table.main_facts if facts else summary_table.main_lines
        rows, stale = read(self.store, ruleset, version, limit, self._computed or None)
        if stale:
            self.refresh(stale, progress)
            rows, _ = read(self.store, ruleset, version, limit, self._computed or None)
        return rows

    def _versions(self, ruleset: str | None) -> dict[str, str]:
        """The current version of each ruleset in scope (those that are installed)."""
        names = [ruleset] if ruleset is not None else self.store.rulesets()
        out = {}
        for name in names:
            try:
                out[name] = registry.get(name).version
            except registry.UnknownRuleset:
                continue
        return out

    def refresh(self, branches: Sequence[tuple[str, str, str, str]],
                progress: Callable[[int], Callable[[], None]] | None = None) -> list[str]:
        """Recompute the summaries of these (game id, branch, ruleset, head id) from their events; returns the
        problems (a branch that cannot be read gets a row saying so, tried again at the next listing)."""
        if not branches:
            return []
        step = progress(len(branches)) if progress else None
        problems: list[str] = []
        batch: list[Summary] = []
        for game_id, branch, _, head_id in branches:
            try:  # read whole, every hash checked: a line 'agon verify' found unreadable is read from its first
                # event again, never from a snapshot after the damage (which would list it as sound); the fold
                # keeps its snapshots, as a line read for want of one does
                batch.append(self.load(game_id, branch, whole=True, keep=True).summary)
            except ServiceError as e:
                problems.append(f"{game_id}: {e}")
                batch.append(summary_table.unreadable(game_id, branch, head_id, e))
            if len(batch) >= 200:
                self._keep(batch)
                batch = []
            if step:
                step()
        self._keep(batch)
        return problems

    def rebuild(self, progress: Callable[[int], Callable[[], None]] | None = None
                ) -> tuple[int, dict[str, list[str]]]:
        """Drop every game summary and state snapshot, and recompute a summary for every branch of every game from
        its events, checking each game as 'agon verify' does (``verify_all``), so the damaged ones are marked, not
        summarised as sound. Refused on a store that may only be read: it would keep nothing."""
        if self.store.read_only:
            raise ServiceError("the store is read-only: rebuild replaces the summaries and snapshots a store keeps, and"
                               " none can be kept here; `agon verify` checks every game without writing")
        summary_table.clear(self.store)
        snapshots_table.drop(self.store)
        return self.verify_all(progress)

    # -- files -------------------------------------------------------------------------------------------------

    def export(self, game_ref: str, branch: str | None = None) -> bytes:
        line = self.load(game_ref, branch)
        return to_jsonl(line.envelopes, self.lucks(line.game.id), self.card_sets_of(line.created), line.branch.luck)

    def lucks(self, game_id: str) -> list[int]:
        """Every luck a game's chance was drawn with (0, and each branch's: one made with --reseed has its own)."""
        return sorted({0, *(b.luck for b in self.store.branches(game_id))})

    def verify(self, game_ref: str) -> list[str]:
        """Recompute every node's hash, check every parent link and branch head, and replay every branch that
        reads; returns every problem found (none: all good). A damaged game is reported, never raised, and its
        branches' summaries are marked so that 'agon games' shows it (``summary.DAMAGED``)."""
        problems, rows = self._checked(self.game(game_ref))
        self._keep(rows)
        return problems

    def verify_all(self, progress: Callable[[int], Callable[[], None]] | None = None
                   ) -> tuple[int, dict[str, list[str]]]:
        """``verify`` every game of the store, writing every branch's summary (marked where the game is damaged):
        how many games were checked, and the problems of each damaged one."""
        games = self.store.games()
        step = progress(len(games)) if progress and games else None
        damaged: dict[str, list[str]] = {}
        batch: list[Summary] = []
        for game in games:
            problems, rows = self._checked(game)
            if problems:
                damaged[game.id] = problems
            batch += rows
            if len(batch) >= 200:
                self._keep(batch)
                batch = []
            if step:
                step()
        self._keep(batch)
        return len(games), damaged

    def _checked(self, game: GameInfo) -> tuple[list[str], list[Summary]]:
        """A game's problems (``verify``) and a summary of each of its branches: a branch whose line cannot be read
        is unreadable; in a damaged game the others are marked damaged."""
        problems = self.damage(game.id)
        lucks = self.lucks(game.id)
        ids = self.store.event_ids(game.id)
        rows, lines = [], []
        checked: set[str] = set()
        cache: list[str] = []
        for b in self.store.branches(game.id):
            try:
                line = self.load(game.id, b.name, whole=True)
            except ServiceError as e:
                if b.head_id in ids:  # a head pointing to nothing is reported by damage()
                    # without its step: this is what `agon verify GAME` lists (and the step named no --db)
                    problems.append(f"branch {b.name}: {e.said if e.then == '{verify}' else e}")
                rows.append(summary_table.unreadable(game.id, b.name, b.head_id, e))
                continue
            p = replay_problem(line, lucks)
            if p:
                problems.append(f"branch {b.name}: {p}")
            else:  # a bad snapshot is dropped here: reported, but the game is not damaged
                cache += [f"branch {b.name}: {p}" for p in self._check_snapshots(line, checked)]
            lines.append(line)
        mark = (f"game {game.id} is damaged: {problems[0]}{_more(problems)}"
                + hints.say("{verify}", hints.CLI, {"game": game.id})) if problems else None  # kept in the summary
        rows += [summary_table.damaged(line.summary, mark) if mark else line.summary for line in lines]
        return problems + cache, rows

    def _check_snapshots(self, line: Line, checked: set[str]) -> list[str]:
        """Compare every state snapshot of the line's nodes (for this ruleset version) with the fold from the first
        event; a snapshot that differs is dropped (the next command folds past it and writes it anew) and
        reported. ``checked``: nodes already compared (lines share their beginnings)."""
        rs, every = line.ruleset, snapshots_table.EVERY
        ids = [e.id for e in line.envelopes if e.depth % every == 0 and e.depth and e.id not in checked]
        found = snapshots_table.of_nodes(self.store, ids)
        if not found:
            checked.update(ids)
            return []
        problems, bad = [], []
        chance = 0
        for st, env in zip(line.steps(), line.envelopes):
            chance += env.actor == CHANCE_ACTOR
            row = found.get(env.id)
            if row is None or env.id in checked:
                continue
            checked.add(env.id)
            version, depth, count, data, intact = row
            if version != rs.version:
                continue  # another version's: never read by this one
            try:
                same = intact and depth == env.depth and count == chance and snapshot_mod.decode(
                    data, line.first_state) == st.after
            except Exception:  # noqa: BLE001 - a damaged row
                same = False
            if not same:
                bad.append(env.id)
                problems.append(f"the state snapshot after event #{env.depth} differs from the fold of the events"
                                " (a damaged cache, never the truth): dropped; commands fold the events instead")
        if bad and snapshots_table.drop(self.store, bad) is None:  # a store that may only be read keeps it
            problems = [p.replace(": dropped; commands fold the events instead", ", and stays: the store is"
                                  " read-only (a rebuild where agon may write to it drops it)") for p in problems]
        return problems

    def check_intact(self, game_id: str) -> None:
        """Raise a one-line ServiceError when any event or branch head of the game is damaged (for commands that
        read the whole tree rather than one line, such as a whole-game export)."""
        problems = self.damage(game_id)
        if problems:
            raise ServiceError(f"game {game_id} is damaged: {problems[0]}{_more(problems)}", "{verify}", game=game_id)

    def damage(self, game_id: str) -> list[str]:
        """The game's stored tree checked without the rules: every event's hash and parent link, every branch's
        head. Returns every problem found."""
        problems, edited = [], []
        events = self.store.all_events(game_id)
        by_id = {e.id: e for e in events}
        for env in events:
            where = f"event #{env.depth} ({env.tag}, id {env.id[:12]})"
            if env.expected_id() != env.id:  # listed after the broken links (a changed link changes the hash)
                edited.append(f"{where} does not match its hash: it was changed after it was recorded")
            if env.parent is None:
                if env.depth != 0:
                    problems.append(f"{where} has no parent but is not the game's first event")
                continue
            parent = by_id.get(env.parent)
            if parent is None:
                problems.append(f"{where} follows an event that is not stored (id {env.parent[:12]}): a missing"
                                " event")
            elif parent.depth != env.depth - 1:
                problems.append(f"{where} follows event #{parent.depth}: the chain is broken")
        if not any(e.parent is None for e in events):
            problems.append("the game's first event (its creation) is not stored")
        for root in (e for e in events if e.parent is None and e.tag == "game.created"):
            try:
                named = json.loads(root.payload).get("card_set")
            except (ValueError, AttributeError, RecursionError):
                continue  # an unreadable creation is reported by its hash or by the replay
            if named and isinstance(named, str):
                body = self.store.card_sets([named]).get(named)
                if body is None:
                    problems.append(f"its card set {named[:12]} (named by its first event) is not stored")
                elif card_sets_mod.digest(body) != named:
                    problems.append(f"its card set {named[:12]} does not match its hash: it was changed after it"
                                    " was recorded")
        for b in self.store.branches(game_id):
            if b.head_id not in by_id:
                problems.append(f"branch {b.name}: its head points to an event that is not stored (id"
                                f" {b.head_id[:12]})")
        return problems + edited


def _entered(actor: str, humans: Collection[str], pending_before: Callable[[], Pending] | None) -> bool:
    """Whether an event by ``actor`` is a step ``undo`` counts: a decision by a person (by anyone when nobody is
    one, ``humans`` empty) or, in a game played at a table (``pending_before``: what the rules asked for just before
    the event), a chance outcome typed there (not one the service recorded by itself, having one outcome only)."""
    if actor == CHANCE_ACTOR:
        if pending_before is None:
            return False
        pend = pending_before()
        return isinstance(pend, Chance) and not pend.forced
    return actor != SETUP_ACTOR and (not humans or actor in humans)


def _too_far(branch: str, steps_back: int, count: int, what: tuple[str, str]) -> str:
    """Why an undo of ``steps_back`` steps is refused on a line with only ``count`` such steps (``what``: their
    name, one and many): with none, nothing can be undone now (``NotNow``); with some, the request asks for more
    than the line holds (a ``ServiceError``, as an ``at`` past a line's end is)."""
    if count == 0:
        return f"cannot undo: branch {branch!r} has no {what[1]} yet, so there is nothing to take back"
    return (f"cannot undo {steps_back:,} steps: branch {branch!r} has only {counted(count, *what)}, so at most"
            f" {count:,} can be undone; nothing was undone")


def _more(problems: Sequence[str]) -> str:
    return f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""


def creation_problem(rs: Ruleset, created: GameCreated) -> str | None:
    """What in a game's creation 'agon new' would have refused (seats, names, player count, bots, ruleset version,
    options, card set), or None. Import and verify run it on files and stores that 'agon new' did not write."""
    names = created.names
    problem = seats_problem(names) or title_problem(created.title)
    if problem:
        return problem
    if not rs.min_players <= len(names) <= rs.max_players:
        return f"{rs.name} is played by {rs.min_players} to {rs.max_players} players, not {len(names)}"
    kinds = bots_of(rs)
    for seat in created.players:
        if seat.bot is not None and seat.bot not in kinds:
            return f"{shown(seat.name)} is played by an unknown bot kind {shown(seat.bot)}"
    v, known = created.ruleset_version, rs.version
    older, ours = version_number(v), version_number(known)
    if v != known and (older is None or ours is None or older >= ours):
        return f"it was played with {rs.name} version {shown(v)}, which this agon does not know (it has {known})"
    unknown = set(created.options) - set(rs.option_names)
    if unknown:
        return f"{rs.name} has no option {', '.join(sorted(map(shown, unknown)))}"
    try:
        rs.check_setup(names, dict(created.options), created.cards)
    except Exception as e:  # noqa: BLE001 - a file's card set may be anything
        return str(e) or type(e).__name__
    return None


def replay_problem(line: Line, lucks: Collection[int] | None = None) -> str | None:
    """Replay a line checking every event against the rules; None if it replays cleanly and deterministically.

    In a seeded game (not played at a table) every chance outcome must also be the one the seed draws at that
    ordinal with one of ``lucks`` (default: the line's branch's luck and 0, the luck every game starts with; a line
    that passes through branches made with --reseed needs theirs too), so an outcome rewritten in a file or a
    store, hashes recomputed, is refused."""
    rs = line.ruleset
    for i, env in enumerate(line.envelopes):
        if env.depth != i or (i and env.parent != line.envelopes[i - 1].id):
            return f"event #{i} is out of place in the line"
    if not isinstance(line.events[0], GameCreated) or line.events[0].ruleset != rs.name:
        return "the line does not start with this ruleset's game creation"
    problem = creation_problem(rs, line.created)
    if problem:
        return f"its setup is not one agon creates a game with: {problem}"
    for env, ev in zip(line.envelopes, line.events):
        if line.codec.tag_of(ev) != env.tag:
            return f"event #{env.depth} is labelled {env.tag!r} but its payload is {line.codec.tag_of(ev)!r}"
        if env.depth and env.actor not in (CHANCE_ACTOR, *line.created.names):
            return f"event #{env.depth} is recorded by {shown(env.actor)}, who is neither a player nor chance"
    try:
        state = rs.initial_state(line.created)
    except Exception as e:  # noqa: BLE001
        return f"its setup cannot be played: {e}"
    seeded = not line.created.table
    lucks = sorted({0, line.branch.luck, *(lucks or ())}) if seeded else []
    try:
        return _replay(line, state, lucks)
    except Exception as e:  # noqa: BLE001 - rules trust their input; a rewritten line must not crash the check
        return f"it cannot be replayed: the rules fail on it ({type(e).__name__})"


def _replay(line: Line, state: State, lucks: list[int]) -> str | None:
    rs = line.ruleset
    ordinal = 0
    for env, ev in zip(line.envelopes[1:], line.events[1:]):
        pending = rs.pending(state)
        if env.actor == CHANCE_ACTOR and isinstance(pending, Chance) and lucks:
            seed = line.created.seed
            if not any(pending.build(chance_mod.draw(pending, chance_mod.rng_for(seed, luck, ordinal))) == ev
                       for luck in lucks):
                return (f"event #{env.depth} ({pending.describe()}) is not the outcome the game's seed draws there:"
                        " the chance outcome or the seed was rewritten")
        if env.actor == CHANCE_ACTOR:
            ordinal += 1
        if env.actor == CHANCE_ACTOR and not isinstance(pending, Chance):
            return f"event #{env.depth} is recorded as chance, but a decision was due ({describe_pending(pending)})"
        if env.actor != CHANCE_ACTOR and isinstance(pending, Chance):
            return f"event #{env.depth} is recorded as a decision by {env.actor}, but chance was due"
        try:
            check(rs, state, ev, None if env.actor == CHANCE_ACTOR else env.actor)
        except RuleViolation as e:
            return f"event #{env.depth} breaks a rule: {e.rule}"
        state = rs.apply(state, ev)
    if line.state_at(len(line.events) - 1) != state:
        return "replaying it twice gave two different states (non-deterministic rules)"
    return None

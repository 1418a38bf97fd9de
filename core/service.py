"""The service: the only layer that touches the store. Load -> validate -> chance -> append.

Every command works on a *line*: the events from a game's first event to a branch head. The state is always
recomputed by folding the line (no state is stored). A decision is recorded in one transaction together with the
chance events it triggers (drawn from the seed unless the game is played at a real table); each bot decision that
follows is recorded the same way, in its own transaction.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from agon.core import chance as chance_mod
from agon.core import registry
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
    event_as,
    narrate_as,
    steps,
)
from agon.events.base import Event, GameCreated, PlayerSeat
from agon.events.codec import Codec, DecodeError
from agon.events.envelope import Envelope, ImportError_, from_jsonl, seal, to_jsonl
from agon.events.store import BranchInfo, GameInfo, Store, StoreError, now

SETUP_ACTOR = "setup"
DECIDER = ":decider"
"""``record``'s default audience: the player who decided (no player may be named with a ':')."""
RESERVED_NAMES = {CHANCE_ACTOR, SETUP_ACTOR, ""}


class ServiceError(Exception):
    """Something a person asked for that cannot be done; the message says what to do instead."""


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


def codec_for(rs: Ruleset) -> Codec:
    c = _codecs.get(rs.name)
    if c is None:
        c = _codecs[rs.name] = Codec((GameCreated, *rs.events), rs.upcasters)
    return c


@dataclass
class Line:
    """A game's events from its first to a branch head, decoded, with the state folded lazily."""

    game: GameInfo
    branch: BranchInfo
    ruleset: Ruleset
    envelopes: list[Envelope]
    events: list[Event]

    @property
    def created(self) -> GameCreated:
        first = self.events[0]
        assert isinstance(first, GameCreated)
        return first

    @property
    def head(self) -> Envelope:
        return self.envelopes[-1]

    @property
    def codec(self) -> Codec:
        return codec_for(self.ruleset)

    @cached_property
    def state(self) -> State:
        return self.state_at(len(self.events) - 1)

    def state_at(self, n: int) -> State:
        rs = self.ruleset
        s = rs.initial_state(self.created)
        for ev in self.events[1 : n + 1]:
            s = rs.apply(s, ev)
        return s

    def steps(self) -> list[Step]:
        return list(steps(self.ruleset, self.events, [e.actor for e in self.envelopes]))

    @property
    def pending(self) -> Pending:
        return self.ruleset.pending(self.state)

    @property
    def chance_count(self) -> int:
        return sum(1 for e in self.envelopes if e.actor == CHANCE_ACTOR)

    def extended(self, envs: list[Envelope], events: list[Event], state: State) -> Line:
        """This line with ``envs`` appended (already stored), without reading the store again."""
        branch = BranchInfo(self.branch.name, envs[-1].id, self.branch.luck, self.branch.parent_branch,
                            self.branch.fork_id, self.branch.created_at)
        new = Line(self.game, branch, self.ruleset, self.envelopes + envs, self.events + events)
        new.__dict__["state"] = state
        return new

    def bot_of(self, player: str) -> str | None:
        return next((p.bot for p in self.created.players if p.name == player), None)

    def status(self) -> str:
        return describe_pending(self.pending)


def describe_pending(p: Pending) -> str:
    if isinstance(p, Over):
        return f"over: {p.outcome.summary}"
    if isinstance(p, Chance):
        return f"chance needed: {p.describe()}"
    return f"{p.player} to act: {p.prompt}"


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


class Service:
    def __init__(self, store: Store) -> None:
        self.store = store

    # -- reading -----------------------------------------------------------------------------------------------

    def load(self, game_ref: str, branch: str | None = None) -> Line:
        game, b = self._head(game_ref, branch)
        envs = self.store.line(game.id, b.head_id)
        return self._decode(game, b, envs)

    def _decode(self, game: GameInfo, b: BranchInfo, envs: list[Envelope]) -> Line:
        try:
            rs = registry.get(game.ruleset)
        except registry.UnknownRuleset as e:
            raise ServiceError(str(e)) from None
        codec = codec_for(rs)
        current = {t: codec.version_of(t) for t in codec.by_tag}
        events = []
        for env in envs:
            try:
                events.append(codec.decode(env.payload, None if current.get(env.tag) == env.version else env.version))
            except DecodeError as e:
                raise ServiceError(f"game {game.id}: event #{env.depth} cannot be read: {e}") from None
        return Line(game, b, rs, envs, events)

    def games(self) -> list[GameInfo]:
        return self.store.games()

    def log(self, line: Line, viewer: str | None = PUBLIC) -> list[Recorded]:
        """The line's events told as ``viewer`` may see them: ``PUBLIC`` (the default: what every player sees), a
        player (their own record: their cards by name), or ``None`` (everything)."""
        if viewer not in (None, PUBLIC) and viewer not in line.created.names:
            raise ServiceError(f"no player {viewer!r} in this game; its players: {', '.join(line.created.names)}")
        out = []
        for st in line.steps():
            state = st.before if st.before is not None else st.after
            out.append(told(line.ruleset, st.index, st.actor, state, st.event, viewer))
        return out

    # -- creating ----------------------------------------------------------------------------------------------

    def new_game(self, spec: NewGame) -> str:
        try:
            rs = registry.get(spec.ruleset)
        except registry.UnknownRuleset as e:
            raise ServiceError(str(e)) from None
        seats = [PlayerSeat(p) for p in spec.players]
        kinds = bots_of(rs)
        for name, kind in spec.bots:
            if kind not in kinds:
                raise ServiceError(
                    f"unknown bot kind {kind!r} for {rs.name}; choose one of: {', '.join(sorted(kinds))}"
                )
            seats.append(PlayerSeat(name, kind))
        names = [s.name for s in seats]
        if not rs.min_players <= len(seats) <= rs.max_players:
            try:  # the ruleset's own reason, when it gives one (e.g. "no rules for a single player")
                rs.check_setup(names, dict(spec.options), rs.default_cards())
            except (ValueError, KeyError, TypeError) as e:
                raise ServiceError(f"cannot set up {rs.name}: {e}") from None
            raise ServiceError(
                f"{rs.name} is played by {rs.min_players} to {rs.max_players} players, not {len(seats)};"
                " give that many --player/--bot options"
            )
        for n in names:
            if n.strip() in RESERVED_NAMES or n != n.strip() or "," in n or ":" in n:
                raise ServiceError(f"{n!r} cannot be a player name (reserved, blank, or with ',' or ':')")
        if len(set(names)) != len(names):
            raise ServiceError("two seats have the same name; give every player a different name")
        unknown = set(spec.options) - set(rs.option_names)
        if unknown:
            allowed = ", ".join(sorted(rs.option_names)) or "none"
            raise ServiceError(f"{rs.name} has no option {', '.join(sorted(unknown))}; its options: {allowed}")
        cards = dict(spec.cards) if spec.cards is not None else rs.default_cards()
        try:
            rs.check_setup(names, dict(spec.options), cards)
        except (ValueError, KeyError, TypeError) as e:
            raise ServiceError(f"cannot set up {rs.name}: {e}") from None
        seed = spec.seed if spec.seed is not None else secrets.randbelow(2**31)
        created = GameCreated(
            ruleset=rs.name, ruleset_version=rs.version, players=tuple(seats), seed=seed, table=spec.table,
            options=dict(spec.options), cards=cards, title=spec.title,
        )
        codec = codec_for(rs)
        try:
            rs.initial_state(codec.decode(codec.encode(created)))
        except Exception as e:  # noqa: BLE001 - a bad card set must not be stored
            raise ServiceError(f"cannot set up {rs.name} with this card set: {e}") from None
        root = seal(None, "game.created", GameCreated.version, SETUP_ACTOR, codec.encode(created), now())
        game_id = secrets.token_hex(4)
        self.store.create_game(game_id, rs.name, spec.title, names, root)
        self.advance(self.load(game_id))
        return game_id

    # -- acting ------------------------------------------------------------------------------------------------

    def parse_choice(self, line: Line, choice: str) -> Event:
        """The event meant by ``choice``: a number from ``options``, the event as JSON, or a chance outcome."""
        pending = line.pending
        text = choice.strip()
        if isinstance(pending, Over):
            raise ServiceError(f"the game is over ({pending.outcome.summary}); branch from an earlier position"
                               " with 'agon branch' to play on")
        if text.startswith("{"):
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as e:
                raise ServiceError(f"the choice is not valid JSON ({e.msg} at column {e.colno});"
                                   " give a number from 'agon options' or an event as JSON") from None
            try:
                return line.codec.from_obj(obj)
            except DecodeError as e:
                raise ServiceError(f"not an event of {line.ruleset.name}: {e}; 'agon schema"
                                   f" {line.ruleset.name}' shows the event types") from None
        if isinstance(pending, Chance):
            if text in ("seed", "random"):
                outcome = chance_mod.draw(pending, chance_mod.rng_for(
                    line.created.seed, line.branch.luck, line.chance_count))
            else:
                try:
                    outcome = chance_mod.parse(pending, text)
                    chance_mod.check(pending, outcome)
                except chance_mod.BadOutcome as e:
                    raise ServiceError(f"{e}; or type 'seed' to let agon draw it") from None
            return pending.build(outcome)
        if text == "bot":
            auto = None
            if line.bot_of(pending.player):
                auto = self._auto(line, len(line.events), line.chance_count, draw_chance=False)
            if auto is None:
                raise ServiceError(f"'bot' works only when a bot's seat must decide; {pending.player} is a person")
            return auto.event
        legal = line.ruleset.legal(line.state)
        if text.isdigit():
            n = int(text)
            if not 1 <= n <= len(legal):
                raise ServiceError(f"choice {n} is out of range: 'agon options' lists 1 to {len(legal)}")
            return legal[n - 1]
        raise ServiceError("give a choice number from 'agon options', or the event as JSON")

    def act(self, game_ref: str, choice: str, as_player: str | None = None, branch: str | None = None,
            auto: bool = True, tell: str | None = DECIDER) -> list[Recorded]:
        """Record one decision (or, in a table game, a chance outcome), then what follows by itself."""
        return self.record(game_ref, choice, as_player, branch, auto, tell)[0]

    def record(self, game_ref: str, choice: str, as_player: str | None = None, branch: str | None = None,
               auto: bool = True, tell: str | None = DECIDER) -> tuple[list[Recorded], Line]:
        """``act``, also returning the line as it now stands (without reading and folding it again).

        The events recorded are told to ``tell``: by default (``DECIDER``) as the player who decided may see them
        (a chance outcome typed at a table: as every player sees it), since the reply is read by the person who
        acted; else to that player, ``PUBLIC``, or ``None`` for everything."""
        line = self.load(game_ref, branch)
        event = self.parse_choice(line, choice)
        pending = line.pending
        if isinstance(pending, Decision):
            actor = as_player or pending.player
            if actor not in line.created.names:
                raise ServiceError(f"no player {actor!r} in this game; its players: {', '.join(line.created.names)}")
            viewer = actor
        else:
            if as_player is not None:
                raise ServiceError(f"no player acts now: a chance outcome is needed ({pending.describe()})")
            actor, viewer = CHANCE_ACTOR, PUBLIC
        if tell != DECIDER:
            viewer = tell
        recorded, line = self._record(line, [(event, actor)], viewer)
        if auto:
            more, line = self.advance(line, viewer)
            recorded += more
        return recorded, line

    def advance(self, line: Line, viewer: str | None = PUBLIC) -> tuple[list[Recorded], Line]:
        """Let chance (outside table games) and bots move until a person must act or the game ends; what was
        recorded is told as ``viewer`` may see it."""
        out: list[Recorded] = []
        while True:
            auto = self._auto(line, len(line.events), line.chance_count, draw_chance=not line.created.table)
            if auto is None:
                return out, line
            rec, line = self._record(line, [(auto.event, auto.actor)], viewer)
            out += rec

    def _auto(self, line: Line, depth: int, ordinal: int, draw_chance: bool, state: State = None):
        return next_auto(
            line.ruleset, line.created, line.state if state is None else state, depth=depth,
            chance_ordinal=ordinal, luck=line.branch.luck, draw_chance=draw_chance,
        )

    def _record(self, line: Line, first: list[tuple[Event, str]], viewer: str | None = PUBLIC
                ) -> tuple[list[Recorded], Line]:
        """Append ``first`` and the chance events that follow it (outside table games) in one transaction, told
        as ``viewer`` may see them.

        Every event is checked against the rules first; a refused one records nothing."""
        rs, codec = line.ruleset, line.codec
        state = line.state
        parent = line.head
        ordinal = line.chance_count
        envs: list[Envelope] = []
        events: list[Event] = []
        recorded: list[Recorded] = []
        queue = list(first)
        at = now()
        while queue:
            event, actor = queue.pop(0)
            try:
                check(rs, state, event, None if actor == CHANCE_ACTOR else actor)
            except RuleViolation as e:
                raise ServiceError(f"refused: {e.rule}") from None
            tag = codec.tag_of(event)
            env = seal(parent, tag, codec.version_of(tag), actor, codec.encode(event), at)
            envs.append(env)
            events.append(event)
            recorded.append(told(rs, env.depth, actor, state, event, viewer))
            state = rs.apply(state, event)
            parent = env
            if actor == CHANCE_ACTOR:
                ordinal += 1
            nxt = rs.pending(state)
            if isinstance(nxt, Chance) and (not line.created.table or nxt.forced):
                auto = self._auto(line, env.depth + 1, ordinal, True, state)
                assert auto is not None
                queue.append((auto.event, auto.actor))
        redo_target = self.redo_target(line.game.id, line.branch.name, line.head.id)
        try:
            self.store.append(line.game.id, line.branch.name, line.head.id, envs)
        except StoreError as e:
            raise ServiceError(str(e)) from None
        if redo_target is not None:
            self._keep_undone_line(line, redo_target, {e.id for e in envs})
        return recorded, line.extended(envs, events, state)

    def _keep_undone_line(self, line: Line, tip: str, new_ids: set[str]) -> None:
        """Acting after an undo grows a new line; the undone one keeps a name so no line is ever hidden."""
        branches = self.store.branches(line.game.id)
        if tip in new_ids or any(b.head_id == tip for b in branches):
            return
        names = {b.name for b in branches}
        k = 1
        while f"{line.branch.name}-undone-{k}" in names:
            k += 1
        self.store.create_branch(line.game.id, f"{line.branch.name}-undone-{k}", tip, line.branch.luck,
                                 line.branch.name, switch=False)

    # -- undo, redo, branches ----------------------------------------------------------------------------------

    def _head(self, game_ref: str, branch: str | None) -> tuple[GameInfo, BranchInfo]:
        try:
            game = self.store.game(game_ref)
            return game, self.store.branch(game.id, branch or game.current_branch)
        except StoreError as e:
            raise ServiceError(str(e)) from None

    def created(self, game: GameInfo) -> GameCreated:
        root = self.store.root(game.id)
        return codec_for(registry.get(game.ruleset)).decode(root.payload, root.version)  # type: ignore[return-value]

    def undo(self, game_ref: str, steps_back: int = 1, branch: str | None = None) -> tuple[BranchInfo, int]:
        """Move the head back before the last ``steps_back`` decisions (by people, when the game has any: the
        bots' replies and the chance that followed are undone with them). Returns the moved branch and the
        number of events undone. Walks back from the head only as far as needed: its cost does not grow with
        the length of the game."""
        if steps_back < 1:
            raise ServiceError("--steps must be at least 1")
        game, b = self._head(game_ref, branch)
        humans = {p.name for p in self.created(game).players if not p.bot}
        head = env = self.store.event(game.id, b.head_id)
        count = 0
        while env is not None and env.parent is not None:
            if env.actor not in (CHANCE_ACTOR, SETUP_ACTOR) and (not humans or env.actor in humans):
                count += 1
                if count == steps_back:
                    break
            env = self.store.event(game.id, env.parent)
        if env is None or env.parent is None or head is None:
            what = "decisions" if not humans else "decisions by people"
            raise ServiceError(f"cannot undo {steps_back} step(s): the line has only {count} {what}")
        try:
            self.store.move_head(game.id, b.name, b.head_id, env.parent, "undo")
        except StoreError as e:
            raise ServiceError(str(e)) from None
        return self.store.branch(game.id, b.name), head.depth - env.depth + 1

    def redo_target(self, game_id: str, branch: str, head: str) -> str | None:
        """Where ``redo`` would go: the head before the latest undo not yet redone, if nothing was done since."""
        redone = 0
        for m in self.store.head_moves_newest_first(game_id, branch):
            if m.reason == "switch":
                continue
            if m.reason == "redo":
                redone += 1
            elif m.reason == "undo":
                if redone:
                    redone -= 1
                else:
                    return m.from_id if m.to_id == head else None
            else:
                return None
        return None

    def redo(self, game_ref: str, branch: str | None = None) -> tuple[BranchInfo, int]:
        game, b = self._head(game_ref, branch)
        target = self.redo_target(game.id, b.name, b.head_id)
        if target is None:
            raise ServiceError("nothing to redo: no undo on this branch since its last recorded event")
        try:
            self.store.move_head(game.id, b.name, b.head_id, target, "redo")
        except StoreError as e:
            raise ServiceError(str(e)) from None
        old, new = self.store.event(game.id, b.head_id), self.store.event(game.id, target)
        assert old is not None and new is not None
        return self.store.branch(game.id, b.name), new.depth - old.depth

    def branch(self, game_ref: str, name: str, at: int | None = None, from_branch: str | None = None,
               reseed: bool = False) -> BranchInfo:
        """A new line starting at event ``at`` of ``from_branch`` (default: its head); switches to it.

        At the head this is one row: its cost does not grow with the game. ``at`` reads the line to find it."""
        if not name or name != name.strip() or any(c.isspace() for c in name):
            raise ServiceError("a branch name must be one word without spaces")
        game, src_b = self._head(game_ref, from_branch)
        if at is None:
            head_id = src_b.head_id
        else:
            src = self.load(game.id, src_b.name)
            if not 0 <= at <= src.head.depth:
                raise ServiceError(
                    f"--at {at} is outside branch {src.branch.name!r}, which has events 0 to {src.head.depth}"
                )
            head_id = src.envelopes[at].id
        luck = secrets.randbelow(2**31) + 1 if reseed else src_b.luck
        try:
            self.store.create_branch(game.id, name, head_id, luck, src_b.name)
        except StoreError as e:
            raise ServiceError(str(e)) from None
        return self.store.branch(game.id, name)

    def switch(self, game_ref: str, name: str) -> Line:
        game = self.load(game_ref).game
        try:
            self.store.set_current(game.id, name)
        except StoreError as e:
            raise ServiceError(str(e)) from None
        return self.load(game.id, name)

    def lines(self, game_ref: str) -> list[Line]:
        game = self.load(game_ref).game
        return [self.load(game.id, b.name) for b in self.store.branches(game.id)]

    # -- files -------------------------------------------------------------------------------------------------

    def export(self, game_ref: str, branch: str | None = None) -> bytes:
        return to_jsonl(self.load(game_ref, branch).envelopes)

    def import_(self, data: bytes) -> str:
        """A new game from an exported line; refuses, importing nothing, unless it replays cleanly."""
        try:
            envs = from_jsonl(data)
        except ImportError_ as e:
            raise ServiceError(f"cannot import: {e}") from None
        first = envs[0]
        if first.tag != "game.created":
            raise ServiceError("cannot import: the first line must be the game's creation (game.created)")
        try:
            head = json.loads(first.payload)
            rs = registry.get(head.get("ruleset", ""))
        except (ValueError, registry.UnknownRuleset) as e:
            raise ServiceError(f"cannot import: {e}") from None
        game = GameInfo("import", rs.name, "", (), now(), "main")
        fake_branch = BranchInfo("main", envs[-1].id, 0, None, None, now())
        line = self._decode(game, fake_branch, envs)
        problem = replay_problem(line)
        if problem:
            raise ServiceError(f"cannot import: {problem}; nothing was imported")
        game_id = secrets.token_hex(4)
        self.store.import_game(game_id, rs.name, line.created.title, line.created.names, envs)
        return game_id

    def verify(self, game_ref: str) -> list[str]:
        """Recompute every node's hash and replay every branch; returns the problems found (none: all good)."""
        game = self.load(game_ref).game
        problems = []
        for env in self.store.all_events(game.id):
            if env.expected_id() != env.id:
                problems.append(f"event #{env.depth} ({env.tag}, id {env.id[:12]}) does not match its hash:"
                                " it was changed after it was recorded")
        for b in self.store.branches(game.id):
            try:
                line = self.load(game.id, b.name)
            except ServiceError as e:
                problems.append(f"branch {b.name}: {e}")
                continue
            if line.head.id != b.head_id or line.envelopes[0].parent is not None:
                problems.append(f"branch {b.name}: its line is broken (a parent link is missing)")
                continue
            p = replay_problem(line)
            if p:
                problems.append(f"branch {b.name}: {p}")
        return problems


def replay_problem(line: Line) -> str | None:
    """Replay a line checking every event against the rules; None if it replays cleanly and deterministically."""
    rs = line.ruleset
    for i, env in enumerate(line.envelopes):
        if env.depth != i or (i and env.parent != line.envelopes[i - 1].id):
            return f"event #{i} is out of place in the line"
    if not isinstance(line.events[0], GameCreated) or line.events[0].ruleset != rs.name:
        return "the line does not start with this ruleset's game creation"
    try:
        state = rs.initial_state(line.created)
    except Exception as e:  # noqa: BLE001
        return f"its setup cannot be played: {e}"
    for env, ev in zip(line.envelopes[1:], line.events[1:]):
        pending = rs.pending(state)
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

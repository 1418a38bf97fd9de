"""Keystrokes to record a game at a table, measured through the real ``agon play`` in a pseudo-terminal:

    .venv/bin/python scripts/keystrokes.py                 # every shipped replay
    .venv/bin/python scripts/keystrokes.py perikles-4p     # one

For each recorded game in ``replays/`` its setup (players, bots, seed, card set and options: its first event) is
played anew by its bots at today's ruleset version, as ``agon new`` with the command in replays/README.md would
play it; then a new game with that setup is set up at a table (``--table``: every chance outcome is typed) with
every seat a person, and ``agon play`` is run in a pseudo-terminal (pexpect). For every event of that game the
script types what a person would type with the shortest unambiguous input: a chance outcome's items by their
shortest unique prefix or abbreviation and dice as digits (``6512``, which ``play`` takes without Enter; an Enter
alone right after them is ignored, so one that follows them is typed twice); a decision by its option number when
``play`` lists the options, else its steps' values in one line (each the shortest input that step takes; where
``play`` lists the options, the steps when they are shorter than the number), Enter alone when only one decision
is legal, and ``0`` for a pass asked of several players in turn (each keeping a special tile before a battle),
which records them all (cli.play_cmds.in_turn). An event that follows by itself (a chance outcome with one possible
result) is not typed. Keys are planned as ``play`` reads them (cli.keyread.Typing): a word is typed only until
``play`` takes it, and a spelling whose first keys would go on spelling the word just taken (which ``play``
swallows) is typed further or not chosen; at the prompt after an entry that ended by itself, such keys get a space
first (counted). At the end the game recorded
through ``play`` must equal the one played by the bots event for event; before typing, the script folds that game
on the table game's setup and stops with a one-line error naming the first event that cannot follow there, and
while typing it names the first event ``play`` recorded otherwise.

Why a game played anew and not the file itself: a table game is always set up at today's ruleset version (the
service creates no game at an older one; older versions are only folded, for the games recorded under them), and
a file recorded under an older version may be played differently today. ``perikles-4p`` was recorded under
Perikles version 1; version 4 asks every tile holder before a battle, so from event #80 on its events cannot be
typed into a new game. The files stay as they are: tests/test_replays.py uses them as old-version games that must
fold to their recorded outcome. Shipping a second, current-version file for each ruleset would break again, one
ruleset at a time, with every version bump. Playing the file's setup anew measures what a person types today, and
needs nothing when a version changes; while a ruleset plays a file's game as recorded (and its bots choose as
they did), the game played anew is the file's own, event for event. The script prints, for each replay, whether
it is, and else from which event on it differs. Where the rules read no order in a chance outcome
(``Chance.unordered``: a hand drawn, each side's dice), the game played anew holds it in the one order a table
records a typed outcome in (core.chance.canonical), so its later decisions follow the hand as it was typed.

Baseline ("today", before issue 17): chance items typed as full ids with spaces between, dice as ``6 5 1 2``,
decisions by their number in the option list when it is among the 40 options shown; beyond those, the cheaper of
a ``?TEXT`` filter (the shortest run of the option's words) that brings it among the shown (then its number) and
the event's JSON; the event's JSON when the list does not hold it. A keystroke is a character typed, Enter included.

Mistakes are then made on purpose, once each, and corrected: a wrong die, a wrong card, a wrong decision (by its
number, and one built step by step), each corrected by ``u`` and the right entry, and a wrong first step of a
decision being built, corrected by ``-`` and the right steps; the script counts the inputs that correct each.
Target: at most 40% of the baseline's keystrokes for Perikles, and every correction in at most 2 inputs. Exit
status 1 when a target is missed.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402
import pexpect  # noqa: E402

from agon.cli.keyread import Typing  # noqa: E402
from agon.cli.play_cmds import SHOWN, completion, in_turn, stepwise_now  # noqa: E402
from agon.core import chance as chance_mod  # noqa: E402
from agon.core import entry, steps  # noqa: E402
from agon.core.autoplay import CHANCE_ACTOR, next_auto  # noqa: E402
from agon.core.engine import Chance, Decision, RuleViolation, check, option_text  # noqa: E402
from agon.core.service import NewGame, Service, codec_for  # noqa: E402
from agon.core.transfer import import_data  # noqa: E402
from agon.events.base import GameCreated  # noqa: E402
from agon.events.store import Store  # noqa: E402

PROMPT = "Your choice"
TARGET = 0.40


# -- the shortest inputs -------------------------------------------------------------------------------------------


def spellings(item: str, most: int = 4):
    """Ways to type ``item`` that core.entry may read as it, shortest first: prefixes of its words in order (from
    its first word or a later one), each word cut at up to ``most`` characters, and the item itself."""
    ws = entry.words(item)
    seen = set()
    out = []
    for start in range(len(ws)):
        rest = ws[start:]
        cuts = [range(1, min(most, len(rest[0])) + 1)] + [range(0, min(most, len(w)) + 1) for w in rest[1:]]
        for ks in itertools.product(*cuts):
            if 0 in ks and any(ks[i] for i in range(ks.index(0), len(ks))):
                continue  # a word skipped in the middle is not an abbreviation
            text = "".join(w[:k] for w, k in zip(rest, ks))
            if text not in seen:
                seen.add(text)
                out.append(text)
    out.append(item)
    out.append(re.sub(r"(?<![0-9])0+(?=[0-9])", "", item))  # 'a6' names 'A06' (core.entry)
    return sorted(out, key=len)


RESERVED = {"u", "undo", "r", "redo", "log", "state", "q", "quit", "exit", "help", "?", "-", "back"}
"""Words ``play`` reads as its commands when alone on a line (unless an item's full name): an entry avoids them.
``b`` is not among them: ``b NAME`` is a branch only when the line is no entry (cli/play_cmds.what_is)."""


def shortest_item(item: str, items) -> str:
    pool = list(items)
    for t in spellings(item):
        if t in RESERVED:
            continue
        try:
            if entry.resolve(t, pool) == item:
                return t
        except entry.EntryError:
            pass
    return item


def shortest_step(question: steps.Question, value: str) -> str:
    options = list(spellings(value))
    if not any(v.isdigit() for v in question.values):
        options.append(str(question.values.index(value) + 1) if value in question.values else value)
    for t in sorted(options, key=len):
        if t in RESERVED:
            continue
        try:
            if steps.pick(question, t) == value:
                return t
        except entry.EntryError:
            pass
    return value


# -- what was typed for an event -----------------------------------------------------------------------------------


def outcome_of(pending: Chance, event_obj) -> tuple:
    """The chance outcome an event recorded: its die values, or its items, in the order the event holds them."""
    found: list = []

    def walk(x):
        if isinstance(x, bool):
            return
        if pending.kind == "dice" and isinstance(x, int):
            found.append(x)
        elif pending.kind != "dice" and isinstance(x, str) and x in pending.items:
            found.append(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                if k != "type":
                    walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    walk(event_obj)
    return tuple(found)


def step_path(rs, state, event, chosen=(), budget=None) -> steps.Chosen | None:
    """The steps that build ``event`` (a depth-first search over the values the event names)."""
    budget = budget if budget is not None else [400]
    now = steps.ask(rs, state, chosen)
    if not isinstance(now, steps.Question):
        return chosen if now == event else None
    if now.field == steps.OPTION:  # the few decisions left, listed: the one that is the event
        for c in now.choices:
            if steps.ask(rs, state, chosen + (steps.answer(now, c.value),)) == event:
                return chosen + (steps.answer(now, c.value),)
        return None
    obj_text = json.dumps(event_obj_of(event))
    text = steps.key(event_obj_of(event))
    candidates = []
    for c in now.choices:
        if c.value in (steps.DONE,) or c.value == steps.tag_label(steps.tag_of(event)) or f'"{c.value}"' in obj_text \
                or c.value in text:
            candidates.append(c.value)
    candidates += [a for a in now.accepts if f'"{a}"' in obj_text and a not in candidates]
    if len(now.choices) == 1 and not candidates:  # answered by itself; another kind may be offered after it
        candidates = list(now.values)
    candidates.sort(key=lambda v: obj_text.find(f'"{v}"') if f'"{v}"' in obj_text else len(obj_text))
    for v in candidates:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        found = step_path(rs, state, event, chosen + (steps.answer(now, v),), budget)
        if found is not None:
            return found
    return None


def event_obj_of(event):
    return msgspec.to_builtins(event)


def words_for(rs, state, path: steps.Chosen) -> list[str]:
    """The shortest words that, typed in one line at ``play``'s prompt, take ``path``: questions with one possible
    answer are left out (play answers them), unless leaving them out would change what the words mean."""
    chosen: steps.Chosen = ()
    now = steps.ask(rs, state)
    chosen, now = steps.forward(rs, state, chosen, now)
    words = []
    for f, v in path[len(chosen):]:
        assert isinstance(now, steps.Question) and steps.answer(now, v) == (f, v), (now, f, v)
        if len(now.choices) > 1:
            words.append(shortest_step(now, v))
        chosen = chosen + ((f, v),)
        now = steps.ask(rs, state, chosen)
    try:
        _, end = steps.walk(rs, state, words)
        if end != steps.ask(rs, state, path):
            raise entry.EntryError("not the same decision")
        return words
    except entry.EntryError:
        chosen, now = steps.forward(rs, state, (), steps.ask(rs, state))
        return [shortest_step(steps.ask(rs, state, path[:i]), v) for i, (f, v) in enumerate(path)
                if i >= len(chosen)]


# -- typing key by key, as play reads it (cli/keyread.py, cli/play_cmds.completion) ----------------------------------


def type_word(typing: Typing, word: str) -> tuple[Typing, str, bool, bool]:
    """Type ``word`` key by key on a copy of ``typing`` (cli.keyread.Typing, as play reads keys): the line then,
    the keys typed, whether play took the word by itself (the keys left of it are not typed) and whether that
    ended the entry."""
    t = copy.copy(typing)
    typed = ""
    for ch in word:
        typed += ch
        _, done = t.key(ch)
        if t.took:
            return t, typed, True, done is not None
    return t, typed, False, False


def plan_keys(complete, targets: list[list[str]], valid) -> tuple[str, bool] | None:
    """The fewest keys that type one entry: ``targets`` holds, for each word, the ways it may be spelled;
    ``valid(words, i)`` says whether words 0..i name what is meant. Returns the keys (without Enter) and whether
    Enter must end the entry, or ``None`` when no spelling works. Typed as play reads keys (cli.keyread.Typing):
    a word whose first keys go on spelling the word taken before it is held back until a key leaves that
    spelling, so such a spelling is typed further or not chosen."""
    typing, keys, ended = Typing(complete or (lambda text: None)), "", False
    for i, options in enumerate(targets):
        last = i == len(targets) - 1
        best = None
        for word in options:
            if best is not None and best[0] <= 1:
                break
            new, typed, took, end = type_word(typing, word)
            if took:
                if not valid(entry.tokens(new.text), i) or (end and not last):
                    continue
            else:
                if new.held or not valid(entry.tokens(new.text), i):
                    continue  # held back as more of the word before, or not the word meant
                if not typing.text and last and word.lower() in RESERVED:
                    continue  # alone on the line it is a command
                if not last:
                    typed += " "
                    _, done = new.key(" ")
                    if done is not None and done[1]:
                        continue
            cost = len(typed) + (1 if last and not (took and end) else 0)
            if best is None or cost < best[0]:
                best = (cost, new, typed, took and end)
        if best is None:
            return None
        _, typing, typed, ended = best
        keys += typed
    return keys, not ended


def carried(complete, carry: str | None, keys: str, enter: bool) -> tuple[str, str | None]:
    """``keys`` as typed at a prompt that follows an entry which ended by itself leaving ``carry`` of its last
    word untyped (cli.keyread swallows keys that go on spelling it): the keys, with a space first where they
    would otherwise be read differently, and what the entry leaves to the next one."""
    def run(text: str, rest: str | None) -> tuple[tuple[str, bool] | None, Typing]:
        t = Typing(complete or (lambda x: None), rest=rest)
        done = None
        for ch in text + ("\n" if enter else ""):
            _, done = t.key(ch)
            if done is not None:
                break
        return done, t

    alone, t = run(keys, None)
    if carry is not None:
        with_carry, t2 = run(keys, carry)
        if with_carry != alone:
            keys = " " + keys  # a space ends the word before: the keys are then read as they are alone
            _, t2 = run(keys, carry)
        t = t2
    return keys, (t.rest if alone is not None and alone[1] else None)


def memo(complete):
    seen: dict = {}

    def f(text):
        if text not in seen:
            seen[text] = complete(text)
        return seen[text]

    return f if complete is not None else None


def asked_now(line) -> steps.Question | None:
    """The step ``play`` asks first for the pending decision, as play computes it (None: the options are listed)."""
    if not stepwise_now(line):
        return None
    rs, state = line.ruleset, line.state
    now = steps.forward(rs, state, (), steps.ask(rs, state))[1]
    return now if isinstance(now, steps.Question) else None


def step_spellings(question: steps.Question, value: str) -> list[str]:
    options = list(spellings(value))
    if not any(v.isdigit() for v in question.values) and value in question.values:
        options.append(str(question.values.index(value) + 1))
    out = []
    for t in sorted(dict.fromkeys(options), key=len):
        try:
            if steps.pick(question, t) == value:
                out.append(t)
        except entry.EntryError:
            pass
    return out


def step_keys(line, complete, path: steps.Chosen) -> tuple[str, bool] | None:
    """The fewest keys that build the decision ``path`` in one line: the steps asked (those with one possible
    answer left out, unless that changes what the words mean), each as play takes it key by key."""
    rs, state = line.ruleset, line.state
    start, now = steps.forward(rs, state, (), steps.ask(rs, state))

    def valid(words, i):
        try:
            chosen, _ = steps.walk(rs, state, words)
        except entry.EntryError:
            return False
        return len(chosen) >= at[i] + 1 and chosen == path[:len(chosen)]

    for skip_forced in (True, False):
        at, targets = [], []
        chosen = start
        for j in range(len(start), len(path)):
            q = steps.ask(rs, state, chosen)
            assert isinstance(q, steps.Question), (q, path)
            if len(q.choices) > 1 or not skip_forced:
                at.append(j)
                targets.append(step_spellings(q, path[j][1]))
            chosen = chosen + (path[j],)
        if not targets:
            return "", True
        got = plan_keys(complete, targets, valid)
        if got is not None:
            return got
    return None


@dataclass
class Plan:
    """What is typed for one event, today and now."""

    n: int
    kind: str  # decision, dice, draw
    now: str | None  # None: recorded by itself
    today: str | None
    enter: bool = True  # False: dice typed as digits, which play takes without Enter (cli/keyread.py)
    tag: str = ""  # the event's kind, for the breakdown by kind of prompt


def plan_event(svc: Service, line, n: int, event, actor: str) -> Plan:
    plan = _plan_event(svc, line, n, event, actor)
    plan.tag = steps.tag_label(steps.tag_of(event))
    return plan


def _plan_event(svc: Service, line, n: int, event, actor: str) -> Plan:
    rs, state = line.ruleset, line.state
    pending = rs.pending(state)
    obj = line.codec.to_obj(event)
    if isinstance(pending, Chance):
        if pending.forced:
            return Plan(n, "forced", None, None)
        out = outcome_of(pending, obj)
        assert pending.build(out) == event, (n, pending, out, event)
        if pending.kind == "dice":
            if pending.sides <= 9:
                return Plan(n, "dice", "".join(map(str, out)), " ".join(map(str, out)), enter=False)
            return Plan(n, "dice", " ".join(map(str, out)), " ".join(map(str, out)))
        items = list(pending.items)

        def valid(words, i):
            try:
                return [entry.resolve(w, items) for w in words] == list(out[:i + 1])
            except entry.EntryError:
                return False

        got = plan_keys(memo(completion(line, None, ())), [spellings(i) for i in out], valid)
        assert got is not None, (n, out)
        return Plan(n, pending.kind, got[0], " ".join(out), enter=got[1])
    assert isinstance(pending, Decision)
    legal = list(rs.legal(state))
    today = today_decision(rs, state, legal, event, obj)
    if len(legal) == 1 and legal[0] == event:
        return Plan(n, "decision", "", today)
    stepping = asked_now(line)
    complete = memo(completion(line, stepping, ()))
    path = step_path(rs, state, event)
    built = step_keys(line, complete, path) if path is not None else None
    if stepping is None:
        # a listed decision: its number, or its steps' words when fewer keys (play reads a line that is not a
        # number as the decision's steps, core.service.parse_choice)
        if event not in legal:
            return Plan(n, "decision", json.dumps(obj), today)
        number = str(legal.index(event) + 1)
        got = plan_keys(complete, [[number]], lambda words, i: words == [number])
        assert got is not None
        cost = len(got[0]) + got[1]
        if built and not built[0].strip().isdigit() and len(built[0]) + built[1] < cost:
            return Plan(n, "decision", built[0], today, enter=built[1])
        return Plan(n, "decision", got[0], today, enter=got[1])
    if built is None:
        return Plan(n, "decision", json.dumps(obj), today)
    return Plan(n, "decision", built[0], today, enter=built[1])


def passes_typed(line, target: list, n: int) -> list[Plan] | None:
    """When the events from #n on begin with a run of passes that ``0`` records as one entry (cli.play_cmds.in_turn:
    the pass asked now and the same pass by each player asked in turn after it), that run's plans (each with what
    was typed for it before issue 17); else None. ``0`` is typed only where it ends the entry by itself."""
    run = in_turn(line, asked_now(line), ())
    if not run or [e for e, _ in run] != target[n:n + len(run)]:
        return None
    complete = completion(line, asked_now(line), ())
    if complete is None or complete(steps.TOGETHER) != (steps.TOGETHER, True):
        return None
    rs, state = line.ruleset, line.state
    plans = []
    for i, (event, _) in enumerate(run):
        legal = list(rs.legal(state))
        plans.append(Plan(n + i, "decision", "", today_decision(rs, state, legal, event, line.codec.to_obj(event)),
                          enter=False, tag=steps.tag_label(steps.tag_of(event))))
        state = rs.apply(state, event)
    return plans


def today_decision(rs, state, legal, event, obj) -> str:
    """What a person typed for a decision before issue 17: its number when it is among the options shown (the
    first 40); else the cheaper of a '?TEXT' filter that brings it among the 40 shown, then its number (two
    inputs, written here with a newline between), and the event as JSON. The filter is the shortest run of the
    option's words that does: one or two words no longer single out a Perikles commitment since its text names
    counters in words ('Thebes hoplite 1 to Solygeia'), and a person would type more of it rather than JSON."""
    if event not in legal:
        return json.dumps(obj)
    n = legal.index(event) + 1
    if n <= SHOWN:
        return str(n)
    texts = [option_text(rs, state, ev).lower() for ev in legal]
    mine = texts[n - 1]
    ws = mine.split()
    best = json.dumps(obj)
    runs = {" ".join(ws[i:j]) for i in range(len(ws)) for j in range(i + 1, len(ws) + 1)}
    for f in sorted(runs, key=len):
        if len(f) + len(str(n)) + 3 >= len(best):
            break
        shown = [i for i, t in enumerate(texts) if f in t][:SHOWN]
        if n - 1 in shown:
            best = f"?{f}\n{n}"
            break
    return best


# -- driving agon play ---------------------------------------------------------------------------------------------


@dataclass
class Result:
    name: str
    events: int = 0
    inputs: int = 0
    keys: int = 0
    today_keys: int = 0
    today_inputs: int = 0
    by_kind: dict = field(default_factory=dict)
    by_tag: dict = field(default_factory=dict)
    corrections: dict = field(default_factory=dict)
    version: str = ""  # the ruleset version the game typed was played at (today's)
    recorded_version: str = ""  # the replay file's
    differs_at: int | None = None  # the first event where the game typed differs from the file's; None: the same


class Diverged(Exception):
    """The game typed through play is not, or cannot be, the game meant: one line naming the event."""


@dataclass
class Today:
    """The game measured for a replay: its setup played anew by its bots at today's ruleset version."""

    created: GameCreated
    events: list
    actors: list
    recorded_version: str
    differs_at: int | None  # the first event where it differs from the replay file's game; None: the same game


def played_today(svc: Service, name: str) -> Today:
    """The replay's setup (players, bots, seed, card set, options), played anew by its bots at today's ruleset
    version, as 'agon new' plays it (core.autoplay), its chance outcomes as a table records them: the game the
    script types."""
    recorded = svc.load(import_data(svc, (ROOT / "replays" / f"{name}.jsonl").read_bytes()).game_id)
    rs = recorded.ruleset
    created = msgspec.structs.replace(recorded.created, ruleset_version=rs.version)
    events, actors = played_as_typed(rs, created)
    pairs = itertools.zip_longest(events[1:], recorded.events[1:])
    differs = next((i for i, (a, b) in enumerate(pairs, 1) if a != b), None)
    return Today(created, events, actors, recorded.created.ruleset_version, differs)


def played_as_typed(rs, created) -> tuple[list, list]:
    """The bots' game of ``created`` as a table records it: played as core.autoplay.play_out plays it, but with each
    chance outcome whose order the rules do not read (``Chance.unordered``) put in the one order a typed outcome
    takes (core.chance.canonical), so that its later decisions follow a hand as it was typed. (events, actors)."""
    codec = codec_for(rs)
    events, actors = [created], ["setup"]
    state, ordinal = rs.initial_state(created), 0
    while (auto := next_auto(rs, created, state, depth=len(events), chance_ordinal=ordinal, luck=0,
                             draw_chance=True)) is not None:
        event = auto.event
        if auto.actor == CHANCE_ACTOR:
            ordinal += 1
            pending = rs.pending(state)
            if pending.unordered:
                event = pending.build(chance_mod.canonical(pending, outcome_of(pending, codec.to_obj(event))))
        check(rs, state, event, None if auto.actor == CHANCE_ACTOR else auto.actor)
        state = rs.apply(state, event)
        events.append(event)
        actors.append(auto.actor)
    return events, actors


def divergence(line, events: list, actors: list) -> str | None:
    """Where the game ``events`` (recorded by ``actors``) cannot be typed into ``line``, a new table game: the first
    event that the table game recorded otherwise by itself, or that cannot follow there, in one line; None when
    every event can follow in turn."""
    rs, state = line.ruleset, line.state
    for n in range(1, len(line.events)):
        if n >= len(events) or line.events[n] != events[n]:
            return f"event #{n} followed by itself in the table game, other than in the game to type"
    for n in range(len(line.events), len(events)):
        event = events[n]
        pending = rs.pending(state)
        try:
            check(rs, state, event, actors[n] if isinstance(pending, Decision) else None)
        except RuleViolation as e:
            return f"event #{n} ({steps.tag_label(steps.tag_of(event))} by {actors[n]}) cannot follow: {e}"
        state = rs.apply(state, event)
    return None


def agon_command() -> list[str]:
    exe = shutil.which("agon", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "agon"]


def measure(name: str, work: Path) -> Result:
    db = work / f"{name}.db"
    svc = Service(Store(f"sqlite:///{db}"))
    today = played_today(svc, name)
    created = today.created
    game = svc.new_game(NewGame(created.ruleset, players=created.names, seed=created.seed, cards=created.cards,
                                table=True, options=dict(created.options), title="keystrokes"))
    start = svc.load(game)
    problem = divergence(start, today.events, today.actors)
    if problem is not None:
        raise Diverged(f"{name}: the game cannot be typed into a table game at {created.ruleset} version"
                       f" {start.created.ruleset_version}: {problem}")
    env = dict(os.environ, AGON_DB=str(db), COLUMNS="200", NO_COLOR="1")
    cmd = agon_command()
    child = pexpect.spawn(cmd[0], [*cmd[1:], "play", game], env=env, encoding="utf-8", timeout=120,
                          dimensions=(50, 200))
    child.expect(PROMPT)
    res = Result(name, version=created.ruleset_version, recorded_version=today.recorded_version,
                 differs_at=today.differs_at)
    mistakes = {"dice": None, "draw": None, "decision": None, "built decision": None, "step": None}

    after_dice = [False]
    carry: list[str | None] = [None]  # what the last entry, ended by itself, left untyped of its last word

    def send(text: str, enter: bool = True) -> tuple[str, str]:
        """Type ``text`` (and Enter): the screen's text and the keys typed. An Enter alone right after an entry that
        ended by itself is swallowed by play (no line, no new prompt), so it is typed twice (and counted: see
        ``account``); keys that would go on spelling the word that ended the last entry (cli.keyread swallows them)
        get a space first."""
        if text == "" and after_dice[0]:
            child.sendline("")  # swallowed: nothing is shown for it
            carry[0] = None
        now = svc.load(game)
        keys, carry[0] = carried(memo(completion(now, asked_now(now), ())), carry[0], text, enter)
        child.send(keys + ("\n" if enter else ""))
        after_dice[0] = not enter
        child.expect([PROMPT, pexpect.EOF])  # play ends by itself with the game
        return child.before, keys

    target = today.events
    while True:
        line = svc.load(game)
        n = len(line.events)
        if n >= len(target):
            break
        event = target[n]
        run = passes_typed(line, target, n)
        if run is not None:  # '0': the pass and the same by every player asked in turn after it, one entry
            out, keys = send(steps.TOGETHER, enter=False)
            for i, plan in enumerate(run):
                plan.now = keys if i == 0 else ""
                account(res, plan, together=i > 0)
            for i in range(len(run)):
                check_progress(name, svc, game, target, n + i, out)
            continue
        plan = plan_event(svc, line, n, event, today.actors[n])
        if plan.now is None:
            raise AssertionError(f"{name}: event #{n} should have followed by itself")
        kind = plan.kind
        category = kind
        if kind == "decision" and plan.now != "" and len(line.ruleset.legal(line.state)) > 1:
            category = "decision"
            if steps.stepwise(line.ruleset, line.state):
                category = "built decision" if mistakes["built decision"] is None else "step"
        if category in mistakes and mistakes[category] is None:
            slip = wrong_entry(line, plan, category, event)
            if slip is not None:
                wrong, enter = slip
                out, _ = send(wrong, enter)
                recorded_wrong = len(svc.load(game).events) > n
                if "error" not in out and recorded_wrong == (category != "step"):
                    out, _ = send("u" if recorded_wrong else "-")  # take the event back, or the step
                    assert not recorded_wrong or "Took back 1 event" in out, out
                    out, plan.now = send(plan.now, plan.enter)
                    mistakes[category] = 2  # 'u' or '-', then the right entry (check_progress checks it); the
                    # slip and its correction stay out of the totals
                    account(res, plan)
                    check_progress(name, svc, game, target, n, out)
                    continue
                if recorded_wrong:
                    raise AssertionError(f"{name}: the slip {wrong!r} at #{n} was recorded: {out[-800:]}")
        twice = plan.now == "" and after_dice[0]
        out, plan.now = send(plan.now, plan.enter)
        account(res, plan, twice)
        check_progress(name, svc, game, target, n, out)
    if child.isalive():
        child.sendline("q")
        child.expect(pexpect.EOF)
    got = svc.load(game).events
    if got[1:] != target[1:]:
        n = next(i for i, (a, b) in enumerate(itertools.zip_longest(got, target)) if i and a != b)
        raise Diverged(f"{name}: the game typed through play diverged at event #{n}: {len(got) - 1} events"
                       f" recorded, {len(target) - 1} meant")
    res.events = sum(1 for _ in target[1:])
    res.corrections = {k: v for k, v in mistakes.items() if v is not None}
    svc.store.close()
    return res


def account(res: Result, plan: Plan, twice: bool = False, together: bool = False) -> None:
    """Count ``plan``'s keys, today's and now; ``together``: recorded by the entry before it (no input of its own)."""
    keys = 0 if together else len(plan.now) + (1 if plan.enter else 0) + (1 if twice else 0)
    today = len(plan.today) + 1  # a filter's newline is its Enter
    res.inputs += 0 if together else 1
    res.keys += keys
    res.today_inputs += 1 + plan.today.count("\n")
    res.today_keys += today
    for k in (res.by_kind.setdefault(plan.kind, [0, 0, 0]), res.by_tag.setdefault((plan.kind, plan.tag), [0, 0, 0])):
        k[0] += 1
        k[1] += keys
        k[2] += today


def check_progress(name: str, svc, game, target, n, out) -> None:
    """Stop with one line naming event #n when play did not record it as the game meant."""
    line = svc.load(game)
    if len(line.events) <= n or line.events[n] != target[n]:
        got = steps.tag_label(steps.tag_of(line.events[n])) if len(line.events) > n else "nothing"
        said = next((t.strip() for t in reversed(out.splitlines()) if t.strip() and PROMPT not in t), "")
        raise Diverged(f"{name}: the game typed through play diverged at event #{n}: play recorded {got} where"
                       f" the game has {steps.tag_label(steps.tag_of(target[n]))} (play said: {said[:200]!r})")


def wrong_entry(line, plan: Plan, category: str, event) -> tuple[str, bool] | None:
    """A plausible slip, as the keys typed and whether Enter follows: the next die value, another card of the same
    draw, another legal decision (by its number, or built step by step), or a wrong first step of a decision built
    step by step (nothing recorded yet)."""
    rs, state = line.ruleset, line.state
    pending = rs.pending(state)
    if category == "dice":
        d = list(plan.now)
        d[0] = str(int(d[0]) % pending.sides + 1)
        return "".join(d), plan.enter
    stepping = asked_now(line)
    complete = memo(completion(line, stepping, ()))
    if category == "draw":
        out = plan.today.split()
        others = [i for i in sorted(set(pending.items)) if i not in out]
        if not others:
            return None
        wrong = [others[0], *out[1:]]
        items = list(pending.items)

        def valid(words, i):
            try:
                return [entry.resolve(w, items) for w in words] == wrong[:i + 1]
            except entry.EntryError:
                return False

        return plan_keys(complete, [spellings(i) for i in wrong], valid)
    if category == "decision":
        number = "2" if plan.today != "2" else "1"
        return plan_keys(complete, [[number]], lambda words, i: words == [number])
    if category == "built decision":
        for other in list(rs.legal(state))[:20]:
            path = step_path(rs, state, other) if other != event else None
            if path is not None:
                return step_keys(line, complete, path)
        return None
    chosen, first = steps.forward(rs, state, (), steps.ask(rs, state))
    if not isinstance(first, steps.Question):
        return None
    path = step_path(rs, state, event)
    right = path[len(chosen):] if path is not None else ()
    for value in first.values:
        if right and value != right[0][1] and value != steps.DONE:
            _, after = steps.walk(rs, state, [value], chosen)
            if isinstance(after, steps.Question):
                _, typed, _, ended = type_word(Typing(complete or (lambda text: None)), shortest_step(first, value))
                assert not ended
                return typed, True
    return None


def main(argv: list[str]) -> int:
    if {"-h", "--help"} & set(argv):
        print(__doc__)
        return 0
    shipped = sorted(p.stem for p in (ROOT / "replays").glob("*.jsonl"))
    unknown = [n for n in argv if n not in shipped]
    if unknown:
        print(f"error: no replay {unknown[0]!r} in replays/; the games are: {', '.join(shipped)}", file=sys.stderr)
        return 2
    names = argv or shipped
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        try:
            results = [measure(n, Path(tmp)) for n in names]
        except Diverged as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
    print(f"{'game':<24}{'events':>7}{'inputs':>8}{'keys':>7}{'today':>7}{'ratio':>7}{'keys/event':>11}"
          f"{'today/event':>12}  corrections (inputs)")
    for r in results:
        ratio = r.keys / r.today_keys
        corr = ", ".join(f"{k} {v}" for k, v in r.corrections.items()) or "-"
        print(f"{r.name:<24}{r.events:>7}{r.inputs:>8}{r.keys:>7}{r.today_keys:>7}{ratio:>7.0%}"
              f"{r.keys / r.events:>11.2f}{r.today_keys / r.events:>12.2f}  {corr}")
        if r.differs_at is None:
            print(f"    the replay's own game (recorded at version {r.recorded_version}, played alike at {r.version})")
        else:
            print(f"    a game played anew at version {r.version} with the replay's setup (the replay, version"
                  f" {r.recorded_version}, differs from event #{r.differs_at} on)")
        for kind, (count, keys, today) in sorted(r.by_kind.items()):
            print(f"    {kind:<20}{count:>7} typed, {keys:>6} keys, today {today:>6}")
            for (k, tag), (c, ks, td) in sorted(r.by_tag.items(), key=lambda kv: -kv[1][1]):
                if k == kind and len([t for t in r.by_tag if t[0] == kind]) > 1:
                    print(f"      {tag:<26}{c:>5} typed, {ks:>6} keys, today {td:>6}")
        if r.name.startswith("perikles") and ratio > TARGET:
            ok = False
            print(f"    target missed: more than {TARGET:.0%} of today's keystrokes")
        if any(v > 2 for v in r.corrections.values()):
            ok = False
            print("    target missed: a correction took more than 2 inputs")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

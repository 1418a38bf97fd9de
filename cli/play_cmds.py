"""Commands that record play: options, act, play."""

import json
import re
import shlex
from collections import Counter
from dataclasses import replace
from typing import Annotated, Any, NoReturn

import typer
from rich.markup import escape

from agon.cli import keyread
from agon.cli.common import (
    BranchOpt,
    Fail,
    GameArg,
    JsonOpt,
    agon_line,
    branch_flag,
    cited,
    console,
    error_line,
    examples,
    expect_option,
    fit_width,
    friendly,
    interrupted,
    print_json,
    read_only,
    service,
    with_db_quoted,
)
from agon.cli.render import said, scores_line, view_text
from agon.core import entry, steps
from agon.core.engine import PUBLIC, Chance, Decision, Over, option_text
from agon.core.entry import groups_text
from agon.core.service import (
    CLI_WORDS,
    Line,
    NotFound,
    RaceLost,
    Recorded,
    ServiceError,
    describe_pending,
    position,
    store_trouble,
)
from agon.core.words import counted
from agon.events.base import Event
from agon.events.store import StoreError

app = typer.Typer()


def options_data(line: Line) -> dict[str, Any]:
    pending = line.pending
    data: dict[str, Any] = {"game": line.game.id, "branch": line.branch.name, "event": line.head.depth,
                            "position": position(line), "status": describe_pending(pending)}
    if isinstance(pending, Decision):
        bot = line.bot_of(pending.player)
        data["pending"] = {"kind": "decision", "player": pending.player, "prompt": pending.prompt, "bot": bot}
        data["options"] = [
            {"n": i, "text": option_text(line.ruleset, line.state, ev), "event": line.codec.to_obj(ev)}
            for i, ev in enumerate(line.ruleset.legal(line.state), start=1)
        ]
    elif isinstance(pending, Chance):
        data["pending"] = {"kind": "chance", "chance": pending.kind, "label": pending.label, "count": pending.count,
                           "sides": pending.sides, "items": list(pending.names)}
        data["options"] = []
    else:
        data["pending"] = {"kind": "over", "winners": list(pending.outcome.winners),
                           "scores": dict(pending.outcome.scores), "summary": pending.outcome.summary}
        data["options"] = []
    return data


SHOWN = 40


def print_options(line: Line, match: str | None = None, show_all: bool = False, here: bool = False) -> None:
    """The options, numbered; long lists are cut at ``SHOWN`` lines (numbers stay those ``act`` takes). ``here``:
    inside ``agon play``, where the person types at the prompt (not ``agon act``)."""
    data = options_data(line)
    gid = line.game.id + branch_flag(line)  # the commands printed below act on this line, current or not
    if here:
        console.print(f"After #{line.head.depth}: {data['status']}")
    else:
        console.print(f"[bold]{escape(line.ruleset.title)}[/] game {line.game.id}, branch"
                      f" {escape(line.branch.name)}, after event #{line.head.depth} (position {data['position']}):"
                      f" {escape(data['status'])}",
                      markup=True)
    pending = line.pending
    if isinstance(pending, Over):
        if (scores := scores_line(pending, pending.outcome.scores, ruleset=line.ruleset.name)) is not None:
            console.print(scores)  # unless the status above told every total (Perikles from version 5)
        return
    listed_only = not here and read_only()  # nothing can be recorded in this store: no command to record one
    if isinstance(pending, Decision):
        opts = data["options"]
        if match:
            opts = [o for o in opts if match.lower() in o["text"].lower()]
        for opt in opts if show_all else opts[:SHOWN]:
            console.print(f"  [bold]{opt['n']:>3}[/]. {escape(opt['text'])}", markup=True)
        if match and not opts:  # which options there are to mention it: all of them, a command away
            every = counted(len(data["options"]), "option")
            where = "" if here else f": {cited(f'options {gid}')} lists them all"
            console.print(f"  (none of the {every} mentions {match!r}{where})", markup=False)
        if len(opts) > SHOWN and not show_all:
            play = "" if listed_only else " (in `agon play`: ?TEXT)"  # play records: no hint of it where nothing can be
            console.print(f"  ... and {len(opts) - SHOWN} more: narrow them with --match TEXT{play}, or list all with"
                          " --all.")
        bot = data["pending"]["bot"]
        hint = f" (`bot` lets {pending.player}'s {bot} bot choose)" if bot else ""
        if here:
            console.print(f"Type a number here{hint}, or the decision's steps by prefix; `?` lists the commands.")
        elif listed_only:
            console.print(READ_ONLY_LISTED, markup=False)
        else:
            choose = cited(f"act {gid} N --expect {data['position']}")
            console.print(f"Choose: {choose}{hint}; --expect refuses"
                          " the number if the line has moved since these options were listed. Any legal decision can"
                          f" also be given as JSON ({cited(f'schema {line.ruleset.name}')}).", markup=False)
            if not bot and steps.stepwise(line.ruleset, line.state):
                first = steps.ask(line.ruleset, line.state)
                if isinstance(first, steps.Question):
                    values = ", ".join(first.values[:12]) + (", ..." if len(first.values) > 12 else "")
                    console.print(f"Or build any legal one step by step ({cited(f'play {gid}')} asks each step, or"
                                  f" type them all: `{agon_line(f'act {gid}')} 'VALUE ...'`), first {first.prompt}:"
                                  f" {values}",
                                  markup=False)
    elif listed_only:
        console.print(f"{describe_pending(pending)}. {READ_ONLY_LISTED}", markup=False)
    elif isinstance(pending, Chance) and not line.created.table:
        how = "type 'seed' here" if here else cited(f"act {gid} seed")
        console.print(f"This game draws its luck from its seed: {how} (the same luck as the line this one came"
                      " from, unless it was branched with --reseed).", markup=False)
    else:
        print_chance(pending, "type it here" if here else cited(f"act {gid} '...'"))


READ_ONLY_LISTED = "The store is read-only: what comes next can be read here, not recorded."


def print_chance(pending: Chance, how: str) -> None:
    """What a person at the table types for a chance outcome: dice as digits, items by a unique prefix, listed in
    natural order (c2 before c10) and grouped as the game names them (core.entry)."""
    if pending.kind == "dice":
        digits = f" or '{'3' * pending.count}'" if pending.sides <= 9 and pending.count > 1 else ""
        if pending.sides <= 9 and how == "type it here":
            digits += f" ({counted(pending.count, 'digit')} {'needs' if pending.count == 1 else 'need'} no Enter)"
        example = " ".join(["3"] * pending.count)
        console.print(f"Enter the {counted(pending.count, 'die value')} of {pending.label}, e.g. '{example}'{digits}:"
                      f" {how} (or 'seed' to let agon draw it).")
        return
    what = f"the {counted(pending.count, 'item')} drawn" if pending.kind == "draw" else "the new order of the items"
    soon = " (each is taken as soon as it can only mean one)" if how == "type it here" else ""
    console.print(f"Enter {what} ({pending.label}), each by any unique prefix, spaces or commas between{soon}:"
                  f" {how} (or 'seed' to let agon draw it). From:")
    for row in groups_text(pending.names, pending.named):  # an unseen draw: the card set's names, not what is left
        console.print(f"  {row}")
    if pending.alike:
        console.print(ALIKE.format(groups="; ".join(" = ".join(g) for g in pending.alike)), markup=False)


ALIKE = ("Copies alike, told apart by their number only: {groups}. Type the one you record (any of them): which one"
         " changes nothing in the game, and no player is shown its number.")
"""Said under a draw of copies alike (``Chance.alike``): the person says which copy (Pergamemnon's RULES.md, 'Copies
alike': the record names the copy, and every seat reads the card by its kind)."""


def print_recorded(recorded: list[Recorded]) -> None:
    for r in recorded:
        text = escape(said(r.actor, r.sentence))
        console.print(f"  #{r.n:<4} [dim]{text}[/]" if r.actor == "chance" else f"  #{r.n:<4} {text}", markup=True)


@app.command(epilog=examples("agon options 3f2a", "agon options 3f2a --match market --json"))
@friendly
def options(
    game: GameArg,
    branch: BranchOpt = None,
    match: Annotated[str | None, typer.Option("--match", "-m", help="Only options whose text has TEXT.")] = None,
    show_all: Annotated[bool, typer.Option("--all", help=f"List every option, not the first {SHOWN}.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Who must act now and the legal decisions, numbered; or the chance outcome that is needed."""
    line = service().load(game, branch)
    if as_json:
        print_json(options_data(line))
    else:
        print_options(line, match, show_all)


@app.command(epilog=examples("agon act 3f2a 3   # decision 3 of `agon options 3f2a`",
                             "agon act 3f2a '4 6'   # at a table: the dice rolled"))
@friendly
def act(
    game: GameArg,
    choice: Annotated[str, typer.Argument(help="A number from `agon options`, the event as JSON, `bot`, or in a"
                                          " table game the chance outcome (e.g. `'3 5'`) or `seed`.")],
    as_player: Annotated[
        str | None, typer.Option("--as", help="The player deciding (checked against the turn).")
    ] = None,
    branch: BranchOpt = None,
    expect: Annotated[str | None, expect_option("choice")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Record one decision (or a chance outcome at a real table); bots whose turn follows act by themselves."""
    svc = service()
    try:
        recorded, line = svc.record(game, choice, as_player=as_player, branch=branch, expect=expect)
    except ServiceError as e:
        # play's commands typed here ('agon act GAME u', as at play's prompt) were refused as an entry alone
        command = {"u": "undo", "undo": "undo", "r": "redo", "redo": "redo"}.get(choice.strip().lower())
        if command is None or isinstance(e, NotFound):
            raise
        raise Fail(f"{with_db_quoted(str(e))}; to {command} instead:"
                   f" {agon_line(f'{command} {game}' + (f' -b {shlex.quote(branch)}' if branch else ''))}") from None
    if as_json:  # what followed is told as the deciding player may see it (service.record)
        print_json({"recorded": [{"n": r.n, "actor": r.actor, "text": r.sentence, "event": r.shown}
                                 for r in recorded],
                    "status": line.status(), "scores": line.ruleset.scores(line.state)})
        return
    print_recorded(recorded)
    console.print(f"Now: {line.status()}")


def seen_by(line: Line) -> str:
    """Whose view ``play`` shows: the person who must decide; while chance or a bot moves, the only person at the
    table, or with several people what every player sees."""
    pending = line.pending
    if isinstance(pending, Decision) and not line.bot_of(pending.player):
        return pending.player
    people = [p.name for p in line.created.players if not p.bot]
    return people[0] if len(people) == 1 else PUBLIC


def hot_seat(line: Line) -> bool:
    """Several people's seats played at this one terminal, by turns (a hot seat): a game not recorded at a table
    (``--table``: there one typist records what the whole table sees and knows), with more than one person's seat."""
    return not line.created.table and sum(not p.bot for p in line.created.players) > 1


def hides(line: Line, *states: Any) -> bool:
    """Whether, in any of ``states``, some person sees what another may not (a hand, a face-down card): what the
    terminal showed one person must then be cleared before it shows another."""
    rs = line.ruleset
    people = [p.name for p in line.created.players if not p.bot]
    for state in states:
        public = rs.view(state, PUBLIC)
        if any(rs.view(state, p) != public for p in people):
            return True
    return False


def hand_over(line: Line, who: str, before: str | None, after_ended: bool) -> None:
    """Hand the terminal to ``who`` (a person, or ``PUBLIC`` while a bot's seat or chance is due) from ``before``
    (``None``: play has just begun, and the screen may hold anything): say who comes next, wait for their Enter at
    a terminal (cli.keyread.hand_over), then clear the screen, so that nothing ``before`` was shown (their hand, the
    card they laid face down) is still there when ``who`` sits down."""
    gone = "" if before is None else " (the screen is cleared)" if before == PUBLIC else \
        f" (what {before} was shown is cleared from the screen)"
    if who == PUBLIC:
        console.print(f"Next, what every player sees: {describe_pending(line.pending)}.", markup=False)
        ask = f"Press Enter to go on{gone}."
    else:
        console.print(f"{who} {'decides first' if before is None else 'decides next'}: pass the terminal to {who}.",
                      markup=False)
        ask = f"{who}, press Enter{gone}."
    if keyread.is_terminal_in():
        console.print(ask, markup=False)
    if keyread.hand_over(after_ended) and console.is_terminal:
        console.file.write(CLEAR)
        console.file.flush()


CLEAR = "\x1b[H\x1b[2J\x1b[3J"
"""ANSI: the cursor home, the screen cleared, and the lines scrolled off it too (a person could scroll back)."""


def since_turn(svc: Any, line: Line, who: str, seen: str | None, upto: int) -> None:
    """What happened since ``who`` last saw the screen (``seen``: the head then, ``None``: not yet in this
    session, then the events since play began, ``upto`` its event number, and the few before), told as ``who`` may
    see it, after the screen was handed over to them."""
    rows = svc.log(line, who)
    gone = line.since(seen) if seen is not None else None
    rows = rows[len(rows) - len(gone):] if gone is not None else [r for r in rows if r.n > upto - 3]
    whose = "what every player sees" if who == PUBLIC else f"as {who} sees it"
    more = len(rows) - LOG_SHOWN
    since = "" if not rows or who == PUBLIC else f"; since {who} last saw the screen" if gone is not None else \
        "; the last events"
    console.print(f"Event #{line.head.depth}, {whose}{since}{':' if rows else '.'}", markup=False)
    if more > 0:
        console.print(f"  ({counted(more, 'earlier event')}: `log`)", markup=False)
    print_recorded(rows[-LOG_SHOWN:])


LOG_SHOWN = 20
"""How many events ``log`` inside play shows, and a hand-over at most."""


def print_question(line: Line, question: steps.Question, chosen: steps.Chosen) -> None:
    """One step of a decision built step by step: what is asked, the values still legal, numbered."""
    player = line.pending.player if isinstance(line.pending, Decision) else ""
    so_far = f" (so far: {' '.join(steps.shown(line.ruleset, line.state, chosen))}; `-` goes back)" if chosen else ""
    console.print(f"{player}: {question.prompt}{so_far}")
    width = max(len(c.value) for c in question.choices)
    for i, c in enumerate(question.choices, start=1):
        label = f"  {c.label}" if c.label else ""
        console.print(f"  [bold]{i:>3}[/]. {escape(c.value.ljust(width))}{escape(label)}", markup=True)
    finish = " Enter ends the decision here." if steps.DONE in question.values else ""
    console.print(f"Type a number or any unique prefix (several steps at once: spaces between); a step is taken as"
                  f" soon as it can only mean one.{finish}")


COMMANDS = ("u", "undo", "r", "redo", "log", "state", "?", "help")
"""One-word commands. A line that is one of these words is the command, unless the word is the full name of an item
or step value asked for now (then it is that item). ``b NAME`` is a branch only when the line is not an entry here
and NAME reads as nothing here (no number, no item's or value's start: ``name_reads_here``); ``branch NAME`` always
is. Every other line is an entry."""
QUIT = ("q", "quit", "exit")
HELP = "\n".join((  # an entry a line, folded to the terminal (``b NAME`` as much as the others)
    "Commands (one word alone on the line; a full item name that is the same word is the item):",
    "  u, undo        take back the last step (at a table: the last event entered, a typed die included)",
    "  r, redo        bring back what the last undo took back",
    "  branch NAME    start a branch NAME here and play on it (the old line stays);  b NAME: the same, unless the"
    " line is also an entry here ('b c' naming two items): then it is the entry; and never where NAME is a number or"
    " may name an item or value here ('b 7' at a draw): only 'branch 7' starts that branch",
    "  log            the last events of this line;  state: the state as you see it",
    "  ?TEXT          only the options that mention TEXT;  ?: this help;  q: stop (everything is recorded)",
    "  -              one step back while building a decision (first on a line: then the steps after it, '- meg');"
    "  0 (where offered): a pass, and the same pass by each player asked in turn after"))


def command(svc: Any, line: Line, answer: str, branch: str | None, who: str | None) -> str | None:
    """Run one of ``play``'s commands; returns the branch to play on. A store that cannot do it (``store_trouble``)
    is raised for ``play`` to say, which then knows it has said it."""
    word, _, rest = answer.strip().partition(" ")
    word = word.lower()
    gid = line.game.id
    try:
        if word in ("u", "undo"):
            moved, n = svc.undo(gid, 1, branch, expect_head=line.head.id)
            console.print(f"Took back {counted(n, 'event')}:")
            print_recorded(svc.log(line, who)[-n:])
        elif word in ("r", "redo"):
            moved, n = svc.redo(gid, branch)
            now = svc.load(gid, moved.name)
            console.print(f"Brought back {counted(n, 'event')}:")
            print_recorded(svc.log(now, who)[-n:])
        elif word in ("b", "branch"):
            if not rest.strip():
                raise ServiceError("give the new branch a name: branch NAME")
            made = svc.branch(gid, rest.strip(), from_branch=line.branch.name)
            back = cited(f"switch {gid} {shlex.quote(line.branch.name)}")
            console.print(f"Now on branch {made.name}, starting after event #{line.head.depth} of"
                          f" {line.branch.name} (back: {back}).", markup=False)
            return made.name
        elif word == "log":
            rows = svc.log(line, who)
            for r in rows[-20:]:
                console.print(f"{r.n:>5}. {said(r.actor, r.sentence)}", markup=False)
            if len(rows) > 20:
                everything = cited(f"log {gid}{branch_flag(line)}")
                console.print(f"(the last 20 of {counted(len(rows), 'event')}; all of them: {everything})",
                              markup=False)
        elif word == "state":
            whose = {None: ", everything", PUBLIC: ", as every player sees it"}.get(who, f", as {who} sees it")
            console.print(view_text(f"{line.ruleset.title}, event #{line.head.depth}{whose}",
                                    line.ruleset.view(line.state, who), fit_width()))
        else:
            console.print(HELP, markup=False)
    except ServiceError as e:
        if store_trouble(e) is not None:
            raise
        error_line(str(e))
    return branch


def exact_names(line: Line, stepping: steps.Question | None) -> set[str]:
    """The full names asked for now (chance items, step values), lower-cased: such a word is never a command."""
    pending = line.pending
    names = list(pending.names) if isinstance(pending, Chance) and line.created.table else []
    if isinstance(pending, Chance) and line.created.table:
        names += [entry.name_word(n) for n in pending.named.values()]
    if stepping is not None:
        names += [*stepping.values, *stepping.accepts, *(entry.name_word(n) for _, n in stepping.names)]
    return {str(n).lower() for n in names}


def reads_as_entry(svc: Any, line: Line, answer: str, stepping: steps.Question | None, chosen: steps.Chosen) -> bool:
    """Whether ``answer`` is an entry at this prompt (a chance outcome, a decision, its steps), nothing recorded."""
    return entry_problem(svc, line, answer, stepping, chosen) is None


def entry_problem(svc: Any, line: Line, answer: str, stepping: steps.Question | None,
                  chosen: steps.Chosen) -> str | None:
    """Why ``answer`` is no entry at this prompt, as its refusal would say it; None when it is one."""
    try:
        if stepping is not None and not answer.startswith("{"):
            steps.walk(line.ruleset, line.state, entry.tokens(answer), chosen)
        else:
            svc.parse_choice(line, answer, PLAY_WORDS)
    except entry.EntryError as e:
        return str(e)
    except ServiceError as e:
        return PLAY_WORDS.told(e)
    return None


def name_reads_here(line: Line, stepping: steps.Question | None, chosen: steps.Chosen, name: str) -> str | None:
    """Why ``name``, typed after ``b``, reads as part of an entry here rather than as a branch's name: a number (an
    option, a die, a count), or a word that may name an item drawn or a value of the step asked, as typed or typed
    on. None when it reads as nothing here. ``b NAME`` that is no entry starts a branch only with such a name: at a
    draw ``b 7`` is more likely an item or a slip than a branch named 7 (``branch 7`` still starts one)."""
    pending = line.pending
    for word in entry.tokens(name):
        if word.isascii() and word.isdigit():
            return f"{entry.quoted(word)} is a number here"
        if isinstance(pending, Chance) and line.created.table and pending.kind != "dice" \
                and entry.reachable(word, pending.names, pending.named):
            return f"{entry.quoted(word)} may name an item here"
        if isinstance(pending, Decision) and person_chooses(line) and steps.begins(
                line.ruleset, line.state, word, chosen if stepping is not None else ()):
            return f"{entry.quoted(word)} may name a step's value here"
    return None


def what_is(svc: Any, line: Line, answer: str, stepping: steps.Question | None, chosen: steps.Chosen) -> str:
    """How ``play`` reads a line: 'quit', 'command', 'branch' (``branch NAME``, or ``b NAME`` that is no entry
    here), 'neither' (``b NAME`` that is no entry, where NAME reads as part of one: a number, an item's start), 'back',
    or 'entry'. A command never swallows an entry: a one-word command that is also the full name of an item asked for
    now is that item, and ``b NAME`` that reads as an entry here is the entry."""
    word = answer.strip().lower()
    first, _, rest = word.partition(" ")
    exact = exact_names(line, stepping) if word in (*QUIT, *COMMANDS, "-", "back") else set()
    if word in QUIT and word not in exact:
        return "quit"
    if word in COMMANDS and word not in exact:
        return "command"
    if stepping is not None and (word == "back" or set(entry.tokens(word)) == {"-"}) and word not in exact:
        return "back"  # '-', or '- -': so many steps back
    if first == "branch" and rest.strip():
        return "branch"
    if first in ("b", "branch") and not reads_as_entry(svc, line, answer, stepping, chosen):
        if first == "b" and name_reads_here(line, stepping, chosen, rest) is not None:
            return "neither"  # 'b 7' at a draw: a slip more likely than a branch named 7
        return "branch"  # 'b' or 'branch' alone: asked to name the branch
    return "entry"


def neither(svc: Any, line: Line, answer: str, stepping: steps.Question | None, chosen: steps.Chosen) -> str:
    """Why ``b NAME`` (``what_is``: 'neither') did nothing: no branch, since NAME reads as part of an entry here,
    and no entry, as its refusal says."""
    name = answer.strip().partition(" ")[2].strip()
    why = name_reads_here(line, stepping, chosen, name)
    problem = entry_problem(svc, line, answer, stepping, chosen)
    return (f"{entry.quoted(answer.strip())} starts no branch: {why}, not taken for a branch's name after 'b'"
            f" ('branch {name}' starts a branch named so); nor is it an entry: {problem}")


UNSETTLED = (*COMMANDS, *QUIT, "-", "back", "b", "branch", "seed", "random", "bot")
"""Words ``play`` reads otherwise than as an item or a step: while the line typed so far may become one of them, it
never ends by itself (``u`` may be undo; ``s`` may be seed or state)."""


def completion(line: Line, stepping: steps.Question | None, chosen: steps.Chosen) -> keyread.Complete | None:
    """How an entry at this prompt ends by itself in a terminal (cli.keyread): dice once there is a digit for every
    die; an item drawn, or a step's value, once what is typed can only name that one (it is then shown in full,
    with a space after it), the entry once the last item or the last step is taken; an option number once no
    longer number is listed. ``None``: every line ends with Enter."""
    pending = line.pending
    if isinstance(pending, Chance):
        if not line.created.table:
            return None
        if pending.kind == "dice":
            if pending.sides > 9:
                return None
            return lambda text: (text, True) if len(text) == pending.count and dice_keys(text, pending.sides) \
                else None
        return guarded(lambda text: settle_items(pending, text))
    if not isinstance(pending, Decision) or line.bot_of(pending.player):
        return None
    rs, state = line.ruleset, line.state
    legal = len(rs.legal(state))
    together = bool(in_turn(line, stepping, chosen))

    def settle(text: str) -> tuple[str, bool] | None:
        t = text.strip()
        if together and text == steps.TOGETHER:
            return text, True
        if stepping is None and t.isascii() and t.isdigit():  # an option number
            longer = any(str(m).startswith(t) for m in range(1, legal + 1) if str(m) != t)
            # nor while the digits may be the start of a step's value typed in full (an Adamastor sea space: '1'
            # of '15a' is not option 1, the fleet sailing elsewhere)
            spelled = steps.digits_begin_a_value(rs, state, t)
            return (text, True) if t == text and 1 <= int(t) <= legal and not t.startswith("0") and not longer \
                and not spelled else None
        if stepping is None:
            return steps.settle(rs, state, text, ())
        rest, start = past_back(line, text, chosen)  # '- meg': the steps after going back, taken as typed there
        settled = steps.settle(rs, state, rest, start) if rest else None
        return (text[:len(text) - len(rest)] + settled[0], settled[1]) if settled else None

    return guarded(settle)


def dice_keys(text: str, sides: int) -> bool:
    """Whether every key of ``text`` is a face of a die of ``sides`` (at most 9) sides, '1' to its last: only such
    keys count toward the dice typed as digits. A '7' typed for a d6 (or a '0') is no die, so the entry does not
    end by itself once there are as many keys as dice: it waits for Enter (or a backspace), and the keys typed after
    it stay in it rather than answering the next prompt."""
    return text.isascii() and text.isdigit() and all(1 <= int(d) <= sides for d in text)


def beginning(line: Line, stepping: steps.Question | None, chosen: steps.Chosen) -> keyread.Begins | None:
    """Which words may name something at this prompt (cli.keyread: keys held back after a word taken early begin
    the next word only with such a word): an item's name at a table's draw, a step's value in a decision. ``None``
    where no word is taken early (dice, an option number)."""
    pending = line.pending
    if isinstance(pending, Chance):
        return begins_items(pending) if line.created.table and pending.kind != "dice" else None
    if not isinstance(pending, Decision) or line.bot_of(pending.player):
        return None
    rs, state, start = line.ruleset, line.state, chosen if stepping is not None else ()
    if stepping is None:
        return lambda text: steps.begins(rs, state, text, start)

    def begins(text: str) -> bool:
        return steps.begins(rs, state, *past_back(line, text, chosen))

    return begins


def past_back(line: Line, text: str, chosen: steps.Chosen) -> tuple[str, steps.Chosen]:
    """``text`` after the ``-`` words that begin it (``BACK``), each followed by a space or a comma (``- m`` is
    ``m``), and the steps ``chosen`` left after going back one step for each (``backed``)."""
    lead = re.match(r"(?:\s*-[\s,]+)*", text).group()  # type: ignore[union-attr]
    return text[len(lead):], backed(line, [BACK] * lead.count(BACK), chosen)[1]


def begins_items(pending: Chance) -> keyread.Begins:
    """Whether the last word typed may name one of a chance outcome's items, as typed or typed on."""
    def begins(text: str) -> bool:
        words = entry.tokens(text)
        return not words or text[-1] in " ," or bool(entry.reachable(words[-1], pending.names, pending.named))

    return begins


def guarded(settle: keyread.Complete) -> keyread.Complete:
    """``settle``, except while the line may still become a command (``u``, ``b NAME``, ``?TEXT``, JSON), also once
    a space or a comma follows it: ``q `` (``q`` begins Marble Quarry's name, the one card a bid may take) is ``q``
    alone on the line, which Enter makes the command, so it never ends by itself, as an entry or as ``q``."""
    def complete(text: str) -> tuple[str, bool] | None:
        low = text.lower()
        word = low.strip(" ,")
        if low.startswith(("?", "{", "b ", "branch ")) or any(w.startswith(low) for w in UNSETTLED) or (
                word and any(w.startswith(word) for w in UNSETTLED)):
            return None
        return settle(text)

    return complete


def settle_items(pending: Chance, text: str) -> tuple[str, bool] | None:
    """A chance outcome's items typed so far: the last one shown in full once it can only name one of the items
    still left to take (core.entry.settled), and the entry complete once every item is named."""
    words = entry.tokens(text)
    need = pending.count if pending.kind == "draw" else len(pending.items)
    if not words or len(words) > need:
        return None
    # an unseen draw: how many of each name are left is hidden, so none runs out here
    left = Counter({n: need for n in pending.unseen}) or Counter(pending.items)
    done = words if text[-1] in " ," else words[:-1]
    try:
        for w in done:
            left[entry.resolve(w, pending.names, names=pending.named)] -= 1
    except entry.EntryError:
        return None
    if text[-1] in " ,":
        return (text, True) if len(words) == need else None
    last = words[-1]
    value = entry.settled(last, [it for it, k in left.items() if k > 0], pending.named)
    if value is None:
        return None
    return text[:len(text) - len(last)] + value + " ", len(words) == need


def person_chooses(line: Line) -> bool:
    """Whether a person (not a bot's seat) must decide now, among more than one legal decision."""
    pending = line.pending
    return isinstance(pending, Decision) and not line.bot_of(pending.player) and len(
        line.ruleset.legal(line.state)) > 1


def stepwise_now(line: Line) -> bool:
    return person_chooses(line) and steps.stepwise(line.ruleset, line.state)


def in_turn(line: Line, stepping: steps.Question | None, chosen: steps.Chosen) -> list[tuple[Event, str]]:
    """The pass a person is asked now and the same pass by each person asked in turn after it, which ``0`` records
    as one entry (core.steps.passes_in_turn); empty when there is no such run, while a decision is being built, or
    where ``0`` names a step's value."""
    pending = line.pending
    if chosen or not isinstance(pending, Decision) or line.bot_of(pending.player) or (
            stepping is not None and steps.TOGETHER in (*stepping.values, *stepping.accepts)):
        return []
    return steps.passes_in_turn(line.ruleset, line.state, [p.name for p in line.created.players if not p.bot])


def print_in_turn(line: Line, run: list[tuple[Event, str]]) -> None:
    names = [p for _, p in run]
    others = ", ".join(names[1:-1]) + (" and " if len(names) > 2 else "") + names[-1]
    verb = "does" if len(names) == 2 else "do"  # 'So does Cy', 'So do Bo and Cy'
    console.print(f"{steps.TOGETHER}: {option_text(line.ruleset, line.state, run[0][0])} So {verb} {others}, asked in"
                  " turn after (one entry).", markup=False)


PLAY_WORDS = replace(CLI_WORDS, anew="what the line asks now is shown below; choose anew",
                     options="the options listed above", listed=" (the options listed above)")
"""The service's words inside ``agon play``, which lists the options itself, so it names no command to run: after an
entry refused because another terminal recorded first, play lists them again (after what was recorded meanwhile);
after a choice number out of range or an entry that is no decision, they are the ones play listed before its
prompt."""


def meanwhile(svc: Any, before: Line, full: bool, viewer: str | None | bool = False) -> None:
    """After an entry refused because someone else recorded first (another terminal, a seat's page): what they
    recorded since the position shown, told as the person now asked may see it, before the next prompt; at a hot
    seat (``hot_seat``) as ``viewer``, the person still at the terminal, since the next person is handed it after.
    Nothing when the line went elsewhere (an undo): the prompt says where it stands."""
    now = svc.load(before.game.id, before.branch.name)
    if now.since(before.head.id) is None:
        return
    told = None if full else viewer if viewer is not False else seen_by(now)
    rows = [r for r in svc.log(now, told) if r.n > before.head.depth]
    if rows:
        console.print("Recorded meanwhile elsewhere:")
        print_recorded(rows)


def stopped(line: Line) -> None:
    """Said when the input ends (Ctrl-D): stopped as by q."""
    console.print("\nStopped; every decision so far is recorded. Go on later with:"
                  f" {agon_line(f'play {line.game.id}{branch_flag(line)}')}", markup=False)


def stopped_by_ctrl_c(line: Line) -> NoReturn:
    """Ctrl-C: stopped as every command it stops is (status 130), in one line."""
    console.print()  # the prompt's line ended, so the line below stands alone
    interrupted("stopped (Ctrl-C); every decision so far is recorded. Go on later with:"
                f" {agon_line(f'play {line.game.id}{branch_flag(line)}')}")


def steps_begun(line: Line, answer: str) -> steps.Chosen | None:
    """A line typed where a person's options are listed (a decision built step by step after ``?TEXT``, or any
    listed one: a Peloponnes power card alone) that takes its first steps but not all of them (a tile alone, the
    card without its coin cards): the steps taken, so that ``play`` asks the next one, as it does
    at a step's prompt, rather than ending the decision where a step may end it (core.steps.build). ``None`` for
    anything else (an option number, JSON, ``bot``, a whole decision, words that name no step)."""
    text = answer.strip()
    if not person_chooses(line) or text.startswith("{") or text in ("bot", "seed", "random") or steps.negative(text) \
            or text.isascii() and text.isdigit():
        return None
    words = entry.tokens(text)
    if steps.option_first(line.ruleset, line.state, words) is not None:
        return None  # an option's number and more words: refused as the whole decision (core.steps.build)
    try:
        chosen, now = steps.walk(line.ruleset, line.state, words)
    except entry.EntryError:
        return None
    return chosen if isinstance(now, steps.Question) else None


BACK = "-"
"""Typed while a decision is built step by step: one step back. Alone on the line, or first on it before the steps
that replace the one taken back (``- meg``: back one step, then Megara), as the same words typed on two lines
would do; each ``-`` at the start is one step. A ``-`` after a step typed on the same line would take back a step
not yet taken (``pla - meg``: a slip, which backspace rubs out), so it is refused, saying where ``-`` goes."""


def backed(line: Line, words: list[str], chosen: steps.Chosen) -> tuple[list[str], steps.Chosen]:
    """The words after the ``-`` that begin them, and the steps left after going back one step for each."""
    while words and words[0] == BACK:
        words, chosen = words[1:], back(line, chosen)
    return words, chosen


def dash_problem(line: Line, answer: str, stepping: steps.Question | None) -> str | None:
    """Why ``-`` cannot be read where it stands in ``answer`` (see ``BACK``), or None: not first on the line while a
    decision is built step by step, or anywhere at a prompt that builds none (a chance outcome, listed options),
    where no item or value is named ``-`` (``core.entry``: a word of separators alone names nothing)."""
    words = entry.tokens(answer)
    if BACK not in words or answer.startswith("{") or BACK in exact_names(line, stepping):
        return None
    if stepping is None:
        return ("'-' goes back one step while a decision is built step by step, and none is being built here:"
                " 'u' takes back the last entry; else type the entry without '-'")
    rest = words[next((i for i, w in enumerate(words) if w != BACK), len(words)):]  # after the '-' that lead
    if BACK not in rest:
        return None
    last = len(words) - 1 - words[::-1].index(BACK)
    after = words[last + 1:] or [w for w in rest if w != BACK]  # 'pla - meg': '- meg'; 'meg -': '- meg'
    return (f"'-' goes back one step already taken, so it stands alone or first on the line ('- {' '.join(after)}':"
            " back one step, then the rest); a step typed on this line is not taken yet: type the line again"
            " without it")


def back(line: Line, chosen: steps.Chosen) -> steps.Chosen:
    """One step back: past the steps that had only one possible answer (they were not asked)."""
    rs, state = line.ruleset, line.state
    while chosen:
        chosen = chosen[:-1]
        now = steps.ask(rs, state, chosen)
        if isinstance(now, steps.Question) and len(now.choices) > 1:
            break
    return chosen


@app.command(epilog=examples("agon play 3f2a", "agon play 3f2a -b whatif --full"))
@friendly
def play(
    game: GameArg,
    branch: BranchOpt = None,
    full: Annotated[bool, typer.Option("--full", help="`state` and the events show everything, not the acting"
                                                    " player's view.")] = False,
) -> None:
    """Play interactively: each prompt shows what happened since the last one and what is asked now; type your
    choice here, and bots move by themselves, until the game ends or you quit (q). Every entry is recorded at
    once; `state` shows the state as the acting player sees it, `u` takes back the last step, `?` lists
    the commands.

    A decision with many variants is built step by step (each step lists what remains legal; `-` goes back); a
    value is typed as a number or any unique prefix, and several steps may be typed at once. In a terminal a word
    is taken as soon as it can only mean one item or value (shown in full), and the entry ends by itself once it
    is complete (the dice, the items drawn, the last step, an option number no longer one can follow)."""
    svc = service()
    svc.writable(game)  # every entry is recorded: a store that may only be read is said so before the first prompt
    match: str | None = None
    chosen: steps.Chosen = ()
    at: str | None = None  # the head the steps were chosen at: they are dropped when it moves
    opening = True
    last_shown: tuple | None = None
    after_ended = False
    tail: keyread.Tail | None = None  # words that may be typed on to the entry that ended by itself before
    trouble: str | None = None  # the store's trouble the last entry was refused for, said then
    holder: str | None = None  # whose view the screen holds (a hot seat: several people at this terminal)
    seen: dict[str, str] = {}  # the head each person last saw the screen at
    shown_state: Any = None  # the state of the last prompt shown
    began = 0  # the event play began at

    def refused(e: ServiceError) -> None:
        nonlocal trouble
        error_line(PLAY_WORDS.told(e))
        trouble = str(e) if store_trouble(e) is not None else None

    while True:
        try:
            line = svc.load(game, branch)
        except (ServiceError, StoreError) as e:
            # the store still cannot answer (a database gone down under the prompt): the entry's refusal said why,
            # and the command ends with that one line rather than saying it again
            if trouble is not None and str(e) == trouble:
                raise typer.Exit(1) from None
            raise
        trouble = None
        pending = line.pending
        if isinstance(pending, Over):
            console.print(f"The game is over: {pending.outcome.summary}")
            if (scores := scores_line(pending, pending.outcome.scores, ruleset=line.ruleset.name)) is not None:
                console.print(scores)  # unless the summary told every total (Perikles from version 5)
            # the entry that ended it may be a slip (a die typed wrong at a table): the way back, as at every prompt
            console.print(f"Take back the last step with: {agon_line(f'undo {line.game.id}{branch_flag(line)}')}",
                          markup=False)
            return
        if at != line.head.id:
            chosen, at = (), line.head.id
        who = None if full else seen_by(line)
        if holder is not None:
            seen[holder] = line.head.id  # the events recorded up to here were told to them (print_recorded)
        if not full and hot_seat(line) and who != holder and who is not None:
            if hides(line, line.state, *([] if shown_state is None else [shown_state])):
                try:
                    hand_over(line, who, holder, after_ended)
                except EOFError:
                    stopped(line)
                    return
                except KeyboardInterrupt:
                    stopped_by_ctrl_c(line)
                after_ended, tail = False, None
                if not opening:
                    since_turn(svc, line, who, seen.get(who), began)
            holder = who
        shown_state = line.state
        if opening:
            opening = False
            whose = {None: "everything (--full)", PUBLIC: "what every player sees"}.get(who, f"what {who} sees")
            console.print(f"[bold]{escape(line.ruleset.title)}[/] game {line.game.id}, branch"
                          f" {escape(line.branch.name)}, event #{line.head.depth}. Type here; `state` shows"
                          f" {escape(whose)}, `?` lists the commands.", markup=True)
            print_recorded(svc.log(line, who)[-3:])
            began = line.head.depth
        shown = (line.head.id, line.branch.name, chosen, match)
        quiet, last_shown = shown == last_shown, shown
        stepping: steps.Question | None = None
        only: Event | None = None
        if quiet:  # nothing changed since the last prompt (an error, a command): the prompt alone
            if isinstance(pending, Decision) and (stepwise_now(line) or chosen):
                chosen, now = steps.forward(line.ruleset, line.state, chosen,
                                            steps.ask(line.ruleset, line.state, chosen))
                stepping = now if isinstance(now, steps.Question) else None
            elif isinstance(pending, Decision) and len(line.ruleset.legal(line.state)) == 1:
                only = line.ruleset.legal(line.state)[0]
            console.print(f"Still: {describe_pending(pending)}")
        elif isinstance(pending, Decision) and who not in (None, pending.player):
            # A bot's seat must decide: its options would show its hand.
            console.print(f"{describe_pending(pending)}; type `bot` to let {pending.player}'s bot move.")
        elif isinstance(pending, Decision) and len(legal := line.ruleset.legal(line.state)) == 1:
            only = legal[0]
            console.print(f"{pending.player}: only one decision is legal:"
                          f" {option_text(line.ruleset, line.state, only)} Press Enter to record it.")
        elif isinstance(pending, Decision) and (stepwise_now(line) or chosen) and not match:  # ?TEXT: the options
            # listed; a listed decision's first steps typed alone (a Peloponnes card, 'mark'): its next step asked
            chosen, now = steps.forward(line.ruleset, line.state, chosen, steps.ask(line.ruleset, line.state, chosen))
            if isinstance(now, steps.Question):
                stepping = now
                print_question(line, now, chosen)
        else:
            print_options(line, match, here=True)
        run = in_turn(line, stepping, chosen)
        if run and not quiet:
            print_in_turn(line, run)
        match = None
        try:
            # the Enter typed after an entry that ended by itself is swallowed by the key reader (only a terminal's
            # entries end by themselves), so an Enter after it is an entry: the one legal decision, say
            answer, after_ended = keyread.read(completion(line, stepping, chosen), beginning(line, stepping, chosen),
                                               after_ended=after_ended, tail=tail)
        except EOFError:  # Ctrl-D: the input ended, stopped as by q
            stopped(line)
            return
        except KeyboardInterrupt:  # Ctrl-C: stopped as every command it stops is (status 130), in one line
            stopped_by_ctrl_c(line)
        if answer.startswith(keyread.AFTER):  # a word typed on to the entry recorded, which refuses it
            word = answer[len(keyread.AFTER):]
            why = (tail or {}).get(word, "")
            error_line(f"{entry.quoted(word)}, typed after the entry that ended by itself, is not read: {why}; that"
                       " entry stands as recorded ('u' takes it back)")
            tail = None
            continue
        # an entry that ends by itself leaves words that may be typed on to it (a Perikles assassin's one candidate,
        # 'cor bru'): the next prompt holds them back rather than reading them (cli.keyread)
        # also where the options are listed and the decision was typed by its steps ('meg ana', the slot A filled
        # in): not an option number, whose decision fills every field in
        soon = steps.names_after(line.ruleset, line.state, *past_back(line, answer, chosen)) if after_ended \
            and isinstance(pending, Decision) and (stepping is not None or not answer.strip().isdigit()) else {}
        tail = None
        answer = answer.strip()
        kind = what_is(svc, line, answer, stepping, chosen) if answer else "entry"
        if kind == "quit":
            console.print("Stopped; every decision so far is recorded. Go on later with:"
                          f" {agon_line(f'play {line.game.id}{branch_flag(line)}')}", markup=False)
            return
        if kind == "neither":
            error_line(neither(svc, line, answer, stepping, chosen))
            continue
        if kind in ("command", "branch"):
            try:
                branch = command(svc, line, answer, branch, who)
            except ServiceError as e:
                refused(e)
            continue
        if kind == "back":
            rs, state = line.ruleset, line.state
            asked = steps.forward(rs, state, chosen, steps.ask(rs, state, chosen))[0]
            for _ in range(max(1, entry.tokens(answer).count("-"))):
                chosen = back(line, chosen)
            if steps.forward(rs, state, chosen, steps.ask(rs, state, chosen))[0] == asked:
                # no step was asked before this one (the steps before it had one answer each): say so, not nothing
                console.print(f"Nothing to go back to: this is the first step asked of this decision. 'u' takes"
                              f" back the last entry recorded ({agon_line(f'undo {line.game.id}')} does too).",
                              markup=False)
            continue
        if answer.lower().startswith("b "):
            console.print("(read as an entry here; 'branch NAME' starts a branch)")
        if answer == steps.TOGETHER and run:
            try:
                print_recorded(svc.pass_in_turn(game, branch, tell=who, expect=position(line), words=PLAY_WORDS))
            except ServiceError as e:
                refused(e)
                if isinstance(e, RaceLost):
                    meanwhile(svc, line, full, who if hot_seat(line) else False)
            continue
        if not answer and only is not None:
            answer = "1"
        elif not answer and stepping is not None and steps.DONE in stepping.values:
            answer = steps.DONE
        elif not answer:
            continue
        if answer.startswith("?"):
            match = answer[1:].strip() or None
            continue
        if (dash := dash_problem(line, answer, stepping)) is not None:
            error_line(dash)
            continue
        if stepping is not None and not answer.startswith("{") and answer != "bot":
            words, start = backed(line, entry.tokens(answer), chosen)
            try:
                chosen, now = steps.walk(line.ruleset, line.state, words, start)
            except entry.EntryError as e:
                error_line(str(e))
                continue
            if isinstance(now, steps.Question):
                continue
            answer = json.dumps(line.codec.to_obj(now))
        elif stepping is None and (begun := steps_begun(line, answer)) is not None:
            chosen = begun  # the next step is asked (Enter alone there ends the decision where it may end)
            continue
        try:
            # the options shown were for this position: a number typed after someone else moved is refused
            recorded = svc.act(game, answer, branch=branch, tell=who, expect=position(line), words=PLAY_WORDS)
        except ServiceError as e:
            refused(e)
            if isinstance(e, RaceLost):
                meanwhile(svc, line, full, who if hot_seat(line) else False)
            continue
        print_recorded(recorded)
        tail = soon or None

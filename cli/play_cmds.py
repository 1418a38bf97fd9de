"""Commands that record play: options, act, play."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape

from agon.cli.common import BranchOpt, GameArg, JsonOpt, console, err, examples, friendly, print_json, service
from agon.cli.render import scores_text, view_text
from agon.core.engine import PUBLIC, Chance, Decision, Over, option_text
from agon.core.service import Line, Recorded, ServiceError, describe_pending

app = typer.Typer()


def options_data(line: Line) -> dict[str, Any]:
    pending = line.pending
    data: dict[str, Any] = {"game": line.game.id, "branch": line.branch.name, "event": line.head.depth,
                            "status": describe_pending(pending)}
    if isinstance(pending, Decision):
        bot = line.bot_of(pending.player)
        data["pending"] = {"kind": "decision", "player": pending.player, "prompt": pending.prompt, "bot": bot}
        data["options"] = [
            {"n": i, "text": option_text(line.ruleset, line.state, ev), "event": line.codec.to_obj(ev)}
            for i, ev in enumerate(line.ruleset.legal(line.state), start=1)
        ]
    elif isinstance(pending, Chance):
        data["pending"] = {"kind": "chance", "chance": pending.kind, "label": pending.label, "count": pending.count,
                           "sides": pending.sides, "items": list(pending.items)}
        data["options"] = []
    else:
        data["pending"] = {"kind": "over", "winners": list(pending.outcome.winners),
                           "scores": dict(pending.outcome.scores), "summary": pending.outcome.summary}
        data["options"] = []
    return data


SHOWN = 40


def print_options(line: Line, match: str | None = None, show_all: bool = False) -> None:
    """The options, numbered; long lists are cut at ``SHOWN`` lines (numbers stay those ``act`` takes)."""
    data = options_data(line)
    gid = line.game.id
    console.print(f"[bold]{line.ruleset.title}[/] game {gid}, branch {line.branch.name}, after event "
                  f"#{line.head.depth}: {data['status']}")
    pending = line.pending
    if isinstance(pending, Decision):
        opts = data["options"]
        if match:
            opts = [o for o in opts if match.lower() in o["text"].lower()]
        for opt in opts if show_all else opts[:SHOWN]:
            console.print(f"  [bold]{opt['n']:>3}[/]. {escape(opt['text'])}")
        if match and not opts:
            console.print(f"  (no option mentions {match!r})")
        if len(opts) > SHOWN and not show_all:
            console.print(f"  ... and {len(opts) - SHOWN} more: narrow them with --match TEXT (in 'agon play':"
                          " ?TEXT), or list all with --all.")
        bot = data["pending"]["bot"]
        hint = f" ('bot' lets {pending.player}'s {bot} bot choose)" if bot else ""
        console.print(f"Choose: agon act {gid} N{hint}; any legal decision can also be given as JSON"
                      f" (agon schema {line.ruleset.name}).")
    elif isinstance(pending, Chance) and not line.created.table:
        console.print(f"This game draws its luck from its seed: agon act {gid} seed (the same luck as the line"
                      " this one came from, unless it was branched with --reseed).")
    elif isinstance(pending, Chance):
        if pending.kind == "dice":
            example = " ".join(["3"] * pending.count)
            what = f"the {pending.count} die value(s), e.g. '{example}'"
        elif pending.kind == "draw":
            what = f"the {pending.count} item(s) drawn, from: {', '.join(sorted(set(pending.items)))}"
        else:
            what = f"the new order of: {', '.join(pending.items)}"
        console.print(f"Enter {what}: agon act {gid} '...' (or 'seed' to let agon draw it).")
    else:
        console.print(f"Scores: {scores_text(dict(pending.outcome.scores))}")


def print_recorded(recorded: list[Recorded]) -> None:
    for r in recorded:
        who = "" if r.actor in ("chance", "setup") else f"{r.actor}: "
        style = "dim" if r.actor == "chance" else ""
        text = escape(f"{who}{r.sentence}")
        console.print(f"  #{r.n:<4} [{style}]{text}[/]" if style else f"  #{r.n:<4} {text}")


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


@app.command(epilog=examples("agon act 3f2a 3   # decision 3 of 'agon options 3f2a'",
                             "agon act 3f2a '4 6'   # at a table: the dice rolled"))
@friendly
def act(
    game: GameArg,
    choice: Annotated[str, typer.Argument(help="A number from 'agon options', the event as JSON, 'bot', or in a"
                                          " table game the chance outcome (e.g. '3 5') or 'seed'.")],
    as_player: Annotated[
        str | None, typer.Option("--as", help="The player deciding (checked against the turn).")
    ] = None,
    branch: BranchOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Record one decision (or a chance outcome at a real table); bots whose turn follows act by themselves."""
    svc = service()
    recorded, line = svc.record(game, choice, as_player=as_player, branch=branch)
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


@app.command(epilog=examples("agon play 3f2a", "agon play 3f2a -b whatif --full"))
@friendly
def play(
    game: GameArg,
    branch: BranchOpt = None,
    full: Annotated[bool, typer.Option("--full", help="Show the full state, not the acting player's view.")] = False,
) -> None:
    """Play interactively: see the state as the acting player does, choose, and let bots move, until the game
    ends or you quit (q). Every decision is recorded at once."""
    svc = service()
    match: str | None = None
    while True:
        line = svc.load(game, branch)
        pending = line.pending
        if isinstance(pending, Over):
            console.print(f"The game is over: {pending.outcome.summary}")
            console.print(f"Scores: {scores_text(dict(pending.outcome.scores))}")
            return
        who = None if full else seen_by(line)
        whose = {None: ", everything (--full)", PUBLIC: ", as every player sees it"}.get(who, f", as {who} sees it")
        title = f"{line.ruleset.title}, event #{line.head.depth}{whose}"
        console.print(view_text(title, line.ruleset.view(line.state, who)))
        if isinstance(pending, Decision) and who not in (None, pending.player):
            # A bot's seat must decide: its options would show its hand.
            console.print(f"{describe_pending(pending)}; type 'bot' to let {pending.player}'s bot move.")
        else:
            print_options(line, match)
        match = None
        try:
            answer = typer.prompt("Your choice (q to quit)", default="", show_default=False)
        except (EOFError, typer.Abort):
            console.print("\nStopped; every decision so far is recorded.")
            return
        answer = answer.strip()
        if answer.lower() in ("q", "quit", "exit"):
            console.print(f"Stopped; every decision so far is recorded. Go on later with: agon play {line.game.id}")
            return
        if not answer:
            continue
        if answer.startswith("?"):
            match = answer[1:].strip() or None
            continue
        try:
            recorded = svc.act(game, answer, branch=branch, tell=who)
        except ServiceError as e:
            err.print(f"[bold red]error:[/] {e}", soft_wrap=True)
            continue
        print_recorded(recorded)

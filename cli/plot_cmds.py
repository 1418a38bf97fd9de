"""Commands that draw: ``agon plot scores|battles|auction|...``, ``agon compare``, ``agon view``, ``agon stats``.

The analysis package (and plotly, inside the functions that draw) is imported only when one of these commands
runs, so the CLI starts without it.
"""

import re
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from typer.core import TyperGroup

from agon.cli.common import (
    LIMIT,
    BranchesOpt,
    BranchOpt,
    Fail,
    GameArg,
    JsonOpt,
    UsageFail,
    branch_name,
    cited,
    console,
    err,
    examples,
    friendly,
    named_as,
    not_a_folder,
    output_file,
    print_json,
    read_only,
    service,
    show_table,
    told,
    viewer_of,
    whole,
)
from agon.core.engine import PUBLIC
from agon.core.service import Line
from agon.core.words import counted, listed

app = typer.Typer()


class PlotGroup(TyperGroup):
    """``agon plot``, whose help says what its commands offer (``group_help``), read from them when the help is
    shown, not kept by hand beside them."""

    computed_help = True  # cli/app.py's _join_lines leaves it as it is (and does not compute it on every run)

    @property
    def help(self) -> str:  # type: ignore[override]
        return group_help()

    @help.setter
    def help(self, value: str | None) -> None:  # Click sets the help it was given: the commands' own is shown
        pass


plot_app = typer.Typer(cls=PlotGroup, epilog=examples("agon plot scores 3f2a -b main -b whatif",
                                                      "agon plot battles 3f2a --png"), no_args_is_help=True)
app.add_typer(plot_app, name="plot")

OutOpt = Annotated[Path | None, typer.Option("--output", "-o", help="File to write (default: plots/<game>-<branch>-"
                                             "<kind>.html, or .png with --png).")]
PngOpt = Annotated[bool, typer.Option("--png", help="Write a static PNG image instead of HTML (needs kaleido and "
                                      "a Chromium).")]
DEFAULT_DIR = Path("plots")


def _safe(text: str, among: tuple[str, ...] = ()) -> str:
    """``text`` as part of a default file name: kept as it is when made of ASCII letters, digits, '_', '.' and
    '-'; else each run of other characters becomes '_' and a short digest of ``text`` follows, so that two names
    never share a file ('🎲' and '👑' were both '_': the study page made for one player overwrote the one made for
    another, and was handed out under the other's name). So too a name that another of ``among`` spells the same
    but for case ('Ana', 'ana'), which a case-insensitive file system (macOS, Windows) would write to one file."""
    kept = re.sub(r"[^A-Za-z0-9_.-]+", "_", text)
    if kept == text and not any(o != text and o.casefold() == text.casefold() for o in among):
        return kept
    import hashlib

    return f"{kept}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


def json_or_file(as_json: bool, out: Path | None, png: bool) -> None:
    """--json prints the figure's data and writes no file: with -o or --png as well, which ask for a file, one of
    them would be ignored (the file was silently not written, with exit status 0), so the command is refused."""
    if as_json and (out is not None or png):
        given = " and ".join(o for o, on in (("-o", out is not None), ("--png", png)) if on)
        raise UsageFail(f"--json prints the plot's data and writes no file; give --json or {given}, not both")


def _target(out: Path | None, line: Line, kind: str, png: bool, can_png: bool = True) -> Path:
    return _output(out, f"{_safe(line.game.id)}-{_safe(line.branch.name)}-{kind}", png, can_png)


def _output(out: Path | None, default: str, png: bool, can_png: bool = True) -> Path:
    """The file to write: ``-o``, else ``plots/DEFAULT.html`` (``.png``). The suffix must say what the file holds,
    so that it opens as what it is: ``-o s.png`` without ``--png`` (HTML in a .png) is refused as ``--png -o
    s.html`` is, rather than guessed, since a PNG needs what HTML does not (kaleido and a Chromium). ``can_png``:
    the command has a ``--png`` to suggest (``view`` writes HTML only)."""
    if out is None:
        return DEFAULT_DIR / f"{default}.{'png' if png else 'html'}"
    not_a_folder(out, ".png" if png else ".html")
    if out.exists() and not out.is_file():
        return out  # a device or a pipe (-o /dev/stdout): no file to open later, so --png alone says what it holds
    suffix = out.suffix.lower()
    if png and suffix != ".png":
        raise Fail(f"--png writes a PNG image; name the file {named_as(out, '.png')} or leave out --png")
    html = named_as(out, ".html")
    if not png and suffix == ".png":
        if not can_png:
            raise Fail(f"-o {out} names a PNG image, but this command writes only an HTML page; name the file {html}")
        raise Fail(f"-o {out} names a PNG image: add --png to draw one, or name the file {html} for the HTML page")
    if not png and suffix not in (".html", ".htm"):
        raise Fail(f"-o {out}: this writes an HTML page; name the file {html}"
                   + (" (or add --png for a PNG image, named .png)" if can_png else ""))
    return out


def _write(fig: Any, out: Path, png: bool, what: str, then: str | None = None) -> None:
    """Write ``fig`` and say where; ``then``: a sentence said after that (what the figure lacks)."""
    from agon.analysis.figures import CannotRender, write

    screen = told(out)  # asked before the file is written
    try:
        with output_file(out) as tmp:  # a failed or cut-off drawing leaves no file, and an older one as it was
            write(fig, str(tmp), png)
    except CannotRender as e:
        raise Fail(f"cannot write a PNG on this machine: {e}") from None
    if png:
        screen.print(f"Wrote {what} to [bold]{escape(str(out))}[/] (a PNG image)", soft_wrap=True, markup=True)
    else:
        screen.print(f"Wrote {what} to [bold]{escape(str(out))}[/] (an HTML page; it opens offline in a browser)",
                      soft_wrap=True, markup=True)
    if then:
        screen.print(then, soft_wrap=True, markup=False)


# -- plot ---------------------------------------------------------------------------------------------------------


@plot_app.command(epilog=examples("agon plot scores 3f2a",
                                  "agon plot scores 3f2a -b main -b whatif --png -o scores.png"))
@friendly
def scores(
    game: GameArg,
    branch: Annotated[list[str] | None, typer.Option(
        "--branch", "-b", help="A line to draw (default: the game's current one). Repeat it to overlay what-if "
        "lines on the first: thinner, with hollow markers, from where they part.", parser=branch_name)] = None,
    top: Annotated[int, typer.Option("--top", help="How many of the largest swings to annotate.",
                                     parser=whole(0, 1000))] = 3,
    out: OutOpt = None,
    png: PngOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Each player's score over the game, with round boundaries and turning points marked.

    With --json, one object per branch, with the same keys for every ruleset (a script reads any game alike):
    "rounds" and each timeline row's "round" count the ruleset's rounds, and "round_word" names them as its rules
    do ("turn" for Perikles and Pergamemnon, "round" otherwise), as the figure and agon stats do; "score_unit" says
    what a score is where it is no points ("% of the voyage sailed" for Adamastor; "" for points)."""
    json_or_file(as_json, out, png)
    svc = service()
    lines = [svc.load(game, b) for b in branch or [None]]
    _each_once(lines, game, "draw")
    from agon.analysis.timeline import final_leader, line_timeline, outcome_of, round_boundaries, turning_points

    timelines = [line_timeline(ln) for ln in lines]
    if as_json:
        from agon.core.summary import round_word, score_unit

        print_json([{"branch": ln.branch.name, **outcome_of(ln), "round_word": round_word(ln.ruleset),
                     "score_unit": score_unit(ln.ruleset),
                     "rounds": round_boundaries(rows),
                     "final_leader": final_leader(rows, outcome_of(ln)["winners"]),
                     "turning_points": turning_points(rows, outcome_of(ln)["winners"], top), "timeline": rows}
                    for ln, rows in zip(lines, timelines)])
        return
    from agon.analysis.figures import scores_figure

    fig = scores_figure(lines, top=top, timelines=timelines)
    kind = "scores" if len(lines) == 1 else "scores-vs-" + "-".join(_safe(ln.branch.name) for ln in lines[1:])
    _write(fig, _target(out, lines[0], kind, png), png, "the score timeline")


def _each_once(lines: list[Line], game: str, verb: str) -> None:
    """Refuse a branch given twice (``plot scores -b main -b main``, ``view -b main -b main``), as ``agon compare``
    refuses the same line twice: the branches as found (a name is found in either Unicode form), so one typed in the
    other form is the same branch. Drawing it once without a word hid the slip."""
    found = [ln.branch.name for ln in lines]
    twice = next((n for i, n in enumerate(found) if n in found[:i]), None)
    if twice is not None:
        raise UsageFail(f"give each branch to {verb} once, not {twice} twice"
                        f" ({cited('branches ' + shlex.quote(game))} lists them)")


def game_plots(ruleset: str) -> list[str]:
    """The ``agon plot`` commands that draw a game of ``ruleset``, read from the plot commands themselves (those of
    other modules, ``plot chances``, included), so that a sentence listing them cannot leave one out: each command
    that takes a GAME, less the plots only some rulesets draw (``analysis.games.plot_kinds``) that ``ruleset`` has
    no figure for."""
    import inspect

    from agon.analysis.games import figures_for, plot_kinds

    own, some = figures_for(ruleset), plot_kinds()
    names = []
    for info in plot_app.registered_commands:
        if info.callback is None or "game" not in inspect.signature(info.callback).parameters:
            continue  # plot stats draws a ruleset's stored games, not a game
        name = info.name or info.callback.__name__.replace("_", "-")
        if name not in some or name in own:
            names.append(name)
    return names


def group_help() -> str:
    """What ``agon plot`` offers, read from its commands (``plot chances`` of cli/analyse_cmds.py included): those
    that draw a game, each plot only some rulesets draw with those rulesets (``analysis.games.plot_kinds``), those
    that draw a ruleset's stored games, and the forms each gives (PNG with --png, rows with --json)."""
    import inspect

    from agon.analysis.games import plot_kinds
    from agon.core import registry

    some = plot_kinds()
    games, rulesets, forms = [], [], {"png": [], "as_json": []}
    for info in plot_app.registered_commands:
        if info.callback is None:
            continue
        name = info.name or info.callback.__name__.replace("_", "-")
        params = inspect.signature(info.callback).parameters
        if "game" in params:
            titles = [registry.get(rs).title for rs in some.get(name, [])]
            games.append(f"{name} ({', '.join(titles)})" if titles else name)
        else:
            rulesets.append(name)
        for form, having in forms.items():
            if form in params:
                having.append(name)
    everyone = len(games) + len(rulesets)

    def form(text: str, names: list[str]) -> list[str]:
        return [] if not names else [text if len(names) == everyone else f"{text} ({', '.join(names)})"]

    offered = ["an HTML page", *form("a PNG image (--png)", forms["png"]),
               *form("its figures as JSON (--json)", forms["as_json"])]
    told = f"Draw a recorded game: {', '.join(games)}" + (
        f"; or a ruleset's stored games: {', '.join(rulesets)}" if rulesets else "")
    return f"{told}. Each as {', '.join(offered[:-1])} or {offered[-1]}." if len(offered) > 1 else f"{told}."


def _ruleset_plot(kind: str, game: str, branch: str | None, out: Path | None, png: bool, as_json: bool) -> None:
    from agon.analysis.games import figures_for, plot_kinds, rows_for

    json_or_file(as_json, out, png)
    line = service().load(game, branch)
    figures = figures_for(line.ruleset.name)
    if kind not in figures:
        which = ", ".join(plot_kinds().get(kind, [])) or "no ruleset"
        own = ", ".join(game_plots(line.ruleset.name))
        article = "an" if line.ruleset.title[:1].lower() in "aeiou" else "a"
        raise Fail(f"{article} {line.ruleset.title} game has no '{kind}' plot ({kind} plots are drawn for: {which});"
                   f" its plots: {own}")
    if as_json:
        print_json(rows_for(line.ruleset.name)[kind](line))
        return
    from agon.analysis.figures import nothing_yet

    fig = figures[kind](line)
    empty = nothing_yet(fig, line, kind)
    _write(fig, _target(out, line, kind, png), png, f"the {kind} plot", then=f"{empty}." if empty else None)


@plot_app.command(epilog=examples("agon plot battles 3f2a", "agon plot battles 3f2a -b whatif --png -o battles.png"))
@friendly
def battles(game: GameArg, branch: BranchOpt = None, out: OutOpt = None, png: PngOpt = False,
            as_json: JsonOpt = False) -> None:
    """Battles: Pergamemnon's chains of strikes and defences, Perikles' rolls, hits and losses per location."""
    _ruleset_plot("battles", game, branch, out, png, as_json)


@plot_app.command(epilog=examples("agon plot auction 3f2a", "agon plot auction 3f2a --json"))
@friendly
def auction(game: GameArg, branch: BranchOpt = None, out: OutOpt = None, png: PngOpt = False,
            as_json: JsonOpt = False) -> None:
    """Peloponnes' auctions: each round's bids and displacements, and the turn order across the rounds."""
    _ruleset_plot("auction", game, branch, out, png, as_json)


@plot_app.command(epilog=examples("agon plot voyage 3f2a", "agon plot voyage 3f2a --png -o voyage.png"))
@friendly
def voyage(game: GameArg, branch: BranchOpt = None, out: OutOpt = None, png: PngOpt = False,
           as_json: JsonOpt = False) -> None:
    """Adamastor's voyage: morale, the distance still to sail, threats and motivation over the game."""
    _ruleset_plot("voyage", game, branch, out, png, as_json)


# -- compare, view, stats -----------------------------------------------------------------------------------------


def _fmt(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else f"{x:g}"
    return str(x)


@app.command(epilog=examples("agon compare 3f2a main bid5", "agon compare 3f2a main whatif --as Ana --json"))
@friendly
def compare(
    game: GameArg,
    branch_a: Annotated[str, typer.Argument(help="The first line (e.g. main).")],
    branch_b: Annotated[str, typer.Argument(help="The second line (e.g. a what-if branch).")],
    as_player: Annotated[str | None, typer.Option("--as", help="Tell the events as this player may read them "
                                                  "(default: in full, every hidden draw named).")] = None,
    public: Annotated[bool, typer.Option("--public", help="Tell the events as every player may read them (a"
                                         " spectator's view): no hand, deck order or hidden draw.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Where two lines of a game part, what differs after the fork (hidden draws named, unless --as PLAYER or
    --public), how
    their scores and outcome differ, and in a sentence: what was done instead and how it came out (with the chances
    after both moves where `agon analyse` has them). A what-if to compare: `agon branch 3f2a bid5 --at 16`, then
    `agon act 3f2a 9` (the other choice), then `agon play 3f2a` or more `agon act` to play it on."""
    from rich.table import Table

    from agon.analysis.compare import compare_lines, what_if

    svc = service()
    a, b = svc.load(game, branch_a), svc.load(game, branch_b)
    # the branches as found, not the names as typed: a name is found in either Unicode form ('é', or 'e' and an
    # accent: core.names.name_key), so two spellings that print alike may be the same branch
    if a.branch.name == b.branch.name:
        raise UsageFail(f"give two different branches to compare, not {a.branch.name} twice"
                        f" ({cited('branches ' + shlex.quote(game))} lists them)")
    viewer = viewer_of(a, as_player, public)  # the seat as stored, typed in either Unicode form
    c = compare_lines(a, b, viewer=viewer)
    estimate = None
    if viewer is None and c["parting"] is not None:
        from agon.analysis.chances import at_parting

        estimate = at_parting(svc, a, b, c["parting"]["n"])  # from the full state: never told as one player
    if as_json:
        print_json({**c, "what_if": what_if(c), "estimate": estimate})
        return
    na, nb = a.branch.name, b.branch.name
    reader = "every player" if viewer == PUBLIC else viewer  # told as a player: whether two events that read alike
    # are the same is what they may not see, so such a pair is told as reading alike, never as the same or not
    shared = ("share events" if reader is None else f"read alike to {escape(reader)} from event") + (
        f" 0 to #{c['fork']} (last {'shared' if reader is None else 'alike'}: {escape(c['fork_text'])})")
    console.print(f"[bold]{escape(a.ruleset.title)}[/] game {c['game']}: {escape(na)} and {escape(nb)} {shared}",
                  markup=True)
    console.print(f"After the fork, chance is drawn {'alike' if c['same_luck'] else 'differently'} on the two lines.")
    if viewer is None:
        console.print("Told in full: every hidden draw is named (`--as PLAYER` tells it as one player may read it)."
                      " `--public` tells it as every player may.")
    elif viewer == PUBLIC:
        console.print("Told as every player may read it: nothing hidden from any player is named.")
    else:
        console.print(f"Told as {viewer} may read it: nothing {viewer} may not see is named.", markup=False)
    if c["after_fork"]:
        shown = len(c["after_fork"])
        title = f"The first {shown} events after the fork" if shown > 1 else "The first event after the fork"
        t = Table(title=title, show_edge=False, header_style="bold")
        t.add_column("#", justify="right")
        t.add_column(na)
        t.add_column(nb)
        t.add_column("")
        for r in c["after_fork"]:
            # an event one line has where the other has ended (its text null): no event that differs
            ended, only = (c["b"], na) if r["b"] is None else (c["a"], nb) if r["a"] is None else (None, None)
            note = (f"only on {only} ({ended['branch']} ends at #{ended['last']})" if ended is not None
                    else (f"reads alike to {reader}" if r["reads_alike"] else "the same luck, in another order"
                     if r.get("reordered") else "reads differently") if viewer is not None
                    else "same event, from another position" if r["reads_differently"] else "same" if r["same"]
                    else "the same luck, in another order" if r.get("reordered")
                    else "differs, though it reads alike (another copy of a card, say)" if r["reads_alike"]
                    else "differs")
            t.add_row(str(r["n"]), r["a"] or "(line ends)", r["b"] or "(line ends)", note)
        show_table(t, "#")
    elif viewer is not None:
        console.print(f"The two lines read alike to {reader} to their ends: both end at #{c['fork']}.", markup=False)
    else:
        console.print(f"The two lines are the same line: both end at #{c['fork']}.")
    at = c["scored_at"]  # a line still being played: both lines' scores after the last event both reach
    unit = f" ({c['score_unit'].lstrip()})" if c["score_unit"] else ""  # what an Adamastor score is
    holds = c.get("holds")  # one line holds the other: each head's scores, no difference a move made
    title = (f"Scores{unit} after #{at}, the last event both lines reach" if at is not None
             else f"Scores{unit} at each line's last event (one line holds all of the other: no difference to tell)"
             if holds else f"Scores{unit}")
    t = Table(title=title, show_edge=False, header_style="bold")
    t.add_column("player")
    t.add_column("at the fork", justify="right")
    t.add_column(na if at is None else f"{na} #{at}", justify="right")
    t.add_column(nb if at is None else f"{nb} #{at}", justify="right")
    if not holds:
        t.add_column(f"{nb} − {na}", justify="right")
    for r in c["players"]:
        d = r["diff"]
        t.add_row(r["player"], _fmt(r["at_fork"]), _fmt(r["a"]), _fmt(r["b"]),
                  *([] if holds else ["-" if d is None else ("+" if d > 0 else "") + _fmt(d)]))
    show_table(t)
    for side in (c["a"], c["b"]):
        console.print(f"{side['branch']}: {counted(side['events'], 'event')} (to #{side['last']}), {side['summary']}")
    unfinished = [side["branch"] for side in (c["a"], c["b"]) if not side["over"]]
    if len(unfinished) == 2:  # two lines still being played have no outcome yet, the same or not
        console.print("Neither line is over yet, so there is no outcome to compare.")
    elif unfinished:
        console.print(f"Only one line is over: {unfinished[0]} is still being played, so its outcome is not known"
                      " yet.", markup=False)
    else:
        console.print("The outcome differs." if c["outcome_changed"] else "The outcome is the same.")
    console.print(f"\n[bold]What if[/]: {escape(what_if(c))}", markup=True)
    if c["parting"] is not None and viewer is None:
        _estimate(c, estimate, a)


def _estimate(c: dict[str, Any], estimate: dict[str, Any] | None, a: Line) -> None:
    """What 'agon analyse' says of the two positions where the lines part, or how to ask it."""
    from agon.analysis.chances import pct
    from agon.analysis.figures import shared_score

    na, nb = c["a"]["branch"], c["b"]["branch"]
    actor = c["parting"]["actor"]
    if estimate is None:
        people = [p for p in a.created.players if not p.bot]
        judge_all = " --all" if people and actor not in {p.name for p in people} else ""
        command = cited(f"analyse {c['game']} -b {shlex.quote(na)}{judge_all}")
        console.print(f"One line played on is one possible future: {command} estimates the chances after both"
                      " moves from many games, and this comparison then shows them.", markup=False)
        return
    who = [actor] if actor in estimate["a"] else list(estimate["a"])
    crew = len(estimate["a"]) > 1 and bool(shared_score(a.ruleset.name))
    if crew:
        who = who[:1]  # one chance, the crew's: not the player's who made the move
    chance = "chance the voyage succeeds" if len(estimate["a"]) == 1 or crew else "win chance"
    each = "; ".join(f"{'the crew' if crew else p} {pct(estimate['a'][p])} on {na}, {pct(estimate['b'][p])} on {nb}"
                     for p in who)
    games = counted(estimate["rollouts"], "game")
    console.print(f"The {chance} right after #{estimate['n']}, as `agon analyse` estimated it ({games}"
                  f" played on from each position by {estimate['bot']} bots, seed {estimate['seed']}, good to"
                  f" about ±{estimate['margin']} points): {each}.", markup=False)


@app.command(epilog=examples("agon view 3f2a --public", "agon view 3f2a -b main -b whatif --as Ana -o for-ana.html"))
@friendly
def view(
    game: GameArg,
    branches: BranchesOpt = None,
    as_player: Annotated[str | None, typer.Option("--as", help="Only as this player sees it: the state as they see"
                                                  " it and their own record of every event, nothing else.")]
    = None,
    public: Annotated[bool, typer.Option("--public", help="Only what every player sees, as a spectator does (to"
                                         " project a game still being played): no hand, deck order or hidden"
                                         " draw.")] = False,
    out: Annotated[Path | None, typer.Option("--output", "-o", help="File to write (default: plots/<game>-"
                                             "<branch>-view.html; with -b, plots/<game>-lines=<b1>+<b2>-view.html)."
                                             )] = None,
) -> None:
    """One offline HTML study page of a game: the move list with notes, every line (or those named with -b) as a
    tree you can enter at its forks, the score timeline (click anywhere), the state laid out as a table, and the
    win chances where `agon analyse` has run. Keys: arrows, Home/End, up/down between lines at a fork; the address
    names the position. Made --as a player or --public, it holds nothing else (and no win chances, which come from
    the full state)."""
    from agon.analysis.study import build_study
    from agon.core.notes import all_notes

    svc = service()
    first = svc.load(game, branches[0] if branches else None)
    viewer = viewer_of(first, as_player, public)  # a seat as stored, typed in either Unicode form
    lines, notes = all_notes(svc, first.game.id)
    if branches:
        by_name = {ln.branch.name: ln for ln in lines}
        # a branch all_notes loaded is taken as loaded; one named in another Unicode form is found by loading it
        named = [first, *(by_name.get(b) or svc.load(first.game.id, b) for b in branches[1:])]
        _each_once(named, game, "show")
        lines = [by_name.get(ln.branch.name, ln) for ln in named]
    current = first.branch.name
    chances = {}
    if viewer is None:
        from agon.analysis.chances import for_line

        for ln in lines:
            found = for_line(svc, ln)
            if found is not None:
                chances[ln.branch.name] = found["figure"]
    kind = ("view" if viewer is None else "view-public" if viewer == PUBLIC
            else f"view-as-{_safe(viewer, first.created.names)}")
    if branches:  # only the lines named: a file of its own, never the page of every line opening at the first
        # ('=' and '+' are in no name _safe keeps, so no branch's name can make another page's)
        named_lines = "+".join(_safe(ln.branch.name) for ln in lines)
        target = _output(out, f"{_safe(first.game.id)}-lines={named_lines}-{kind}", False, can_png=False)
    else:
        target = _target(out, first, kind, False, can_png=False)
    shown = {nt.event_id: (nt.glyph, nt.text) for _, nt in notes}
    screen = told(target)  # asked before the file is written
    with output_file(target) as tmp:
        tmp.write_text(build_study(lines, shown, viewer, current, chances), encoding="utf-8")
    who = ("the state in full or as any player sees it" if viewer is None
           else "only what every player sees (no hand, deck order or hidden draw)" if viewer == PUBLIC
           else f"the state as {viewer} sees it")
    counts = ", ".join(f"{ln.branch.name}: {counted(len(ln.events), 'event')}" for ln in lines)
    extra = f" and the win chances of {listed(list(chances))}" if chances else ""
    screen.print(f"Wrote the study page of {counted(len(lines), 'line')} ({escape(counts)}) to"
                  f" [bold]{escape(str(target))}[/]: {escape(who)}{escape(extra)} (open it in a browser; it works"
                  " offline)", soft_wrap=True, markup=True)


def _gather(ruleset: str, limit: int | None, quiet: bool) -> tuple[Any, dict[str, Any]]:
    """Every stored game of ``ruleset`` (its main line; newest first, at most ``limit``) from the game summaries
    (a stale or missing one is recomputed first, with a progress bar), folded into ``aggregate``'s result
    (``unreadable``: the games that could not be read, and why)."""
    from agon.analysis.figures import shared_score
    from agon.analysis.stats import aggregate_facts
    from agon.cli.summary_cmds import progress_bar
    from agon.core import registry
    from agon.core.summary import round_word, score_unit

    try:
        rs = registry.get(ruleset)
    except registry.UnknownRuleset as e:
        raise Fail(str(e)) from None
    svc = service()
    with progress_bar("summarising games", quiet=quiet) as bar:  # one query, only the columns statistics count
        facts = svc.main_summaries(rs.name, limit, progress=bar, facts=True)
    if not facts.read:
        raise Fail(f"no stored {rs.name} games; record some with {cited(f'demo {rs.name} --games 20')} or"
                   f" {cited(f'new {rs.name}')}")
    # a co-operative ruleset (one shared score: the players win or lose together) has a win rate by setup
    result = aggregate_facts(facts, together=shared_score(rs.name) is not None)
    result["ruleset"] = rs.name
    result["round_word"] = round_word(rs)  # what avg_rounds counts: a Perikles turn is no round of one move each
    result["score_unit"] = score_unit(rs)  # what avg_score counts: an Adamastor score is the voyage's progress
    if result["together"]:  # how the ruleset says it is won or lost together (an Adamastor crew's voyage)
        from agon.analysis.games import module_for

        result["together_words"] = getattr(module_for(rs.name), "TOGETHER", "the players win or lose together")
    result["unreadable"] = [f"{game}: {status.removeprefix('unreadable: ')}" for game, status in facts.unreadable]
    return rs, result


LimitOpt = Annotated[int | None, typer.Option("--limit", help="Read at most this many games (newest first).",
                                              parser=LIMIT)]
RulesetArg = Annotated[str, typer.Argument(help="The ruleset whose stored games to read.")]


@app.command(epilog=examples("agon stats perikles", "agon stats adamastor --limit 50 --json"))
@friendly
def stats(ruleset: RulesetArg, limit: LimitOpt = None, as_json: JsonOpt = False) -> None:
    """Across all stored games of a ruleset (each game's main line): win rates by side (nation, civilization) and
    by seat with their 95% confidence intervals, average final scores, average game length."""
    from rich.table import Table

    from agon.analysis.stats import setup_rows

    rs, result = _gather(ruleset, limit, as_json)
    skipped = result["unreadable"]
    if as_json:
        print_json(result)
        return
    stored = result["games"] + len(skipped)  # 'games' counts the readable ones, which the figures are of
    console.print(f"[bold]{escape(rs.title)}[/]: {counted(stored, 'game')} stored, {result['finished']:,}"
                  " finished" + (f", {len(skipped)} unreadable" if skipped else ""), markup=True)
    for s in skipped:
        err.print(f"[yellow]skipped[/] {escape(s)}", soft_wrap=True, markup=True)
    if not result["finished"]:
        record = "" if read_only() else f"; finish one, or record some with {cited(f'demo {rs.name} --games 20')}"
        console.print(f"No game is finished yet, so there are no results to count{record}.", markup=False)
        return
    word, fewest, most = result["round_word"], result["fewest_rounds"], result["most_rounds"]
    spread = counted(most, word) if fewest == most else f"{fewest:,} to {most:,} {word}s"
    console.print(f"Average length: {result['avg_events']:.1f} events, {result['avg_rounds']:.1f} {word}s"
                  f" (shortest {result['shortest']:,}, longest {counted(result['longest'], 'event')}; {spread})")
    if result["no_winner"]:
        from agon.analysis.games import module_for

        # a ruleset's own words where a game without winners is no game 'nobody won' (an Adamastor voyage lost)
        lost = getattr(module_for(rs.name), "LOST", "Games that nobody won")
        console.print(f"{lost}: {result['no_winner']}", markup=False)
    # what a score is, where it is no points (an Adamastor voyage's progress): in each table's title, not in a
    # column's head, which it would make wider than the terminal
    unit = f"; a score is the {result['score_unit'].lstrip()}" if result["score_unit"] else ""
    if result["together"]:  # won or lost together: how often each setup is won is the point, in the co-op's words
        setup = Table(title=f"By setup ({result['together_words']}{unit})", show_edge=False, header_style="bold")
        columns = ("won", "win rate", "95% CI", "avg score")
    else:  # someone wins nearly every competitive game: by setup, what the games were like, no win rate
        setup = Table(title=f"By setup (someone wins each game: its length and scores{unit})", show_edge=False,
                      header_style="bold")
        columns = ("events (range)", f"{word}s", "best score", "avg score")
    setup.add_column("setup")
    setup.add_column("games", justify="right")
    for name in columns:
        setup.add_column(name, justify="right")
    for r in setup_rows(result):  # a crew's result over several setups last: its seats' would repeat it
        cells = ((str(r["wins"]), f"{r['win_rate']:.0%}", _ci(r), f"{r['avg_score']:.1f}") if result["together"]
                 else (f"{r['avg_events']:.1f} ({r['shortest']:,}–{r['longest']:,})", f"{r['avg_rounds']:.1f}",
                       f"{r['avg_best_score']:.1f}", f"{r['avg_score']:.1f}"))
        setup.add_row(r["setup"], str(r["played"]), *cells)
    show_table(setup)
    # where the players win or lose together every seat's result is the crew's, told once above
    groups = [] if result["together"] else [("seat", "by_seat", "seat")]
    if result["by_side"]:
        groups.insert(0, (result["side_label"] or "side", "by_side", "side"))
    for label, key, col in groups:
        t = Table(title=f"By {label}" + (f" ({unit.removeprefix('; ')})" if unit else ""), show_edge=False,
                  header_style="bold")
        for name, right in ((label, False), ("games", True), ("wins", True), ("win rate", True), ("95% CI", True),
                            ("avg final score", True)):
            t.add_column(name, justify="right" if right else "left")
        for r in result[key]:
            t.add_row(str(r[col]), str(r["played"]), str(r["wins"]), f"{r['win_rate']:.0%}", _ci(r),
                      f"{r['avg_score']:.1f}")
        show_table(t, "seat " if col == "seat" else "")
    console.print(f"95% CI: the Wilson interval of the win rate; {cited(f'plot stats {rs.name}')} draws"
                  " these.", markup=False)


def _ci(r: dict[str, Any]) -> str:
    return f"{r['ci_low']:.0%}–{r['ci_high']:.0%}"


StatsOutOpt = Annotated[Path | None, typer.Option("--output", "-o", help="File to write (default: plots/<ruleset>-"
                                                  "stats.html, or .png with --png).")]


@plot_app.command("stats", epilog=examples("agon plot stats perikles",
                                           "agon plot stats peloponnes --limit 100 --png -o stats.png"))
@friendly
def plot_stats(ruleset: RulesetArg, limit: LimitOpt = None, out: StatsOutOpt = None, png: PngOpt = False,
               as_json: JsonOpt = False) -> None:
    """Win rates by side and by seat, each with its 95% confidence interval (Wilson), and the game lengths, over
    the stored games of a ruleset (record some with `agon demo RULESET --games 20`)."""
    json_or_file(as_json, out, png)
    if out is not None:
        _output(out, "", png)  # a file name that cannot be written is refused before the games are read
    rs, result = _gather(ruleset, limit, as_json)
    if not result["finished"]:
        raise Fail(f"no finished {rs.name} game is stored yet, so there are no results to draw; record some with"
                   f" {cited(f'demo {rs.name} --games 20')}")
    if as_json:
        print_json(result)
        return
    from agon.analysis.stats_plot import stats_figure

    target = _output(out, f"{_safe(rs.name)}-stats", png)
    fig = stats_figure(result, f"{rs.title}: win rates and game length")
    _write(fig, target, png, f"the statistics of {counted(result['finished'], 'finished game')}")

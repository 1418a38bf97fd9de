"""``agon analyse``: win chances after every event and the better decisions, by bot rollouts; ``agon plot chances``
draws them. The work is done by ``core.analyse``; this module parses, shows progress and renders."""

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from agon.cli.common import (
    MAX_WORKERS,
    SEED,
    WORKERS,
    BranchOpt,
    GameArg,
    JsonOpt,
    bars_off,
    branch_flag,
    cited,
    console,
    default_workers,
    err,
    examples,
    friendly,
    print_json,
    read_only,
    service,
    share,
    whole,
    with_db,
)
from agon.cli.plot_cmds import OutOpt, PngOpt, _output, _target, _write, json_or_file, plot_app
from agon.core.names import MAX_ROLLOUTS
from agon.core.service import Line
from agon.core.summary import score_unit
from agon.core.words import counted

app = typer.Typer()



RolloutsOpt = Annotated[int, typer.Option("--rollouts", help="Rollouts (games played to the end by bots)"
                                          " per position.", parser=whole(1, MAX_ROLLOUTS))]
BotOpt = Annotated[str | None, typer.Option("--bot", help="The bot that plays every seat in the rollouts (default:"
                                            " random, the fastest; greedy for Adamastor, where random crews almost"
                                            " never arrive; greedy plays better and slower).", show_default=False)]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the rollouts' luck: the same seed gives the same"
                                      " figures, whatever --workers.", parser=SEED)]
WorkersOpt = Annotated[int | None, typer.Option(
    "--workers", "-w", help=f"Local worker processes (default: one per core; at most {MAX_WORKERS}).",
    parser=WORKERS)]
AllOpt = Annotated[bool, typer.Option("--all", help="Judge every decision, not only those of people (a game of"
                                      " bots only has every decision judged anyway).")]
FreshOpt = Annotated[bool, typer.Option("--fresh", help="Recompute instead of reading cached results.")]
ClusterOpt = Annotated[str | None, typer.Option("--cluster", help="Run the rollouts on an existing Dask cluster,"
                                                " e.g. tcp://127.0.0.1:8786 (needs 'distributed').")]
ThresholdOpt = Annotated[float, typer.Option("--threshold", help="Mark a decision that lost more than this share"
                                             " of win chance against the best alternative (0.1 or 10%).",
                                             parser=share("win chance"))]
AltOpt = Annotated[int, typer.Option("--alternatives", help="Judge at most this many alternatives of a decision"
                                     " (a sample, always with the choice made and the bot's choice).",
                                     parser=whole(2, 10_000))]


def _run(game: str, branch: str | None, rollouts: int, bot: str | None, seed: int, workers: int | None, judge_all: bool,
         fresh: bool, cluster: str | None, threshold: float, alternatives: int, quiet: bool = False,
         announce: Callable[[Line, Any], None] | None = None) -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from agon.core.analyse import Settings, analyse, settled

    svc = service()
    line = svc.load(game, branch)
    settings = settled(line, Settings(rollouts=rollouts, bot=bot, seed=seed, workers=workers or default_workers(),
                                      judge_all=judge_all, threshold=threshold, max_alternatives=max(2, alternatives),
                                      fresh=fresh, cluster=cluster))
    if announce is not None:
        announce(line, settings)
    columns = (TextColumn("games played on"), BarColumn(), MofNCompleteColumn(), TextColumn("time left"),
               TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True, disable=bars_off(quiet)) as bar:
        task = bar.add_task("rollouts", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return analyse(svc, line, settings, progress)


@app.command(epilog=examples("agon analyse 3f2a", "agon analyse 3f2a --rollouts 400 --bot greedy --workers 2"))
@friendly
def analyse(
    game: GameArg,
    branch: BranchOpt = None,
    rollouts: RolloutsOpt = 100,
    bot: BotOpt = None,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    judge_all: AllOpt = False,
    fresh: FreshOpt = False,
    as_json: JsonOpt = False,
    cluster: ClusterOpt = None,
    threshold: ThresholdOpt = 0.10,
    alternatives: AltOpt = 12,
) -> None:
    """Each player's win chance and expected final score after every event, from bot rollouts; decisions that
    lost more than --threshold of win chance against the best alternative are marked, with the command that
    plays the better move. Results are cached in the store: a second run is instant."""
    from agon.analysis import chances

    def announce(line: Line, settings: Any) -> None:
        # what it is about to do, once the request is accepted and before the games are played (the bar on stderr
        # then says how long is left)
        console.print(f"[bold]{escape(line.ruleset.title)}[/] game {line.game.id}, branch {escape(line.branch.name)}:"
                      f" each position is judged by {counted(rollouts, 'game')} played on to the end by"
                      f" {escape(settings.bot)} bots"
                      f" (seed {seed}).", markup=True)

    a = _run(game, branch, rollouts, bot, seed, workers, judge_all, fresh, cluster, threshold, alternatives,
             quiet=as_json, announce=None if as_json else announce)
    if as_json:
        print_json(chances.to_json(a, _branch_nodes(a)))
        return
    s = a.settings
    line = a.line
    what = chances.what(a)
    crew = len(a.players) > 1 and what != "win chance"  # a co-operative game: one chance, the crew's
    console.print(f"Each chance is the share of those games won, good to about ±{chances.margin(s.rollouts)} points"
                  f" either way; more games per position (--rollouts) are surer and slower.")
    console.print(f"Note: {chances.OBSERVER}.")

    unit = score_unit(line.ruleset)  # an Adamastor score is the voyage's progress, not points

    def chances_at(p: Any) -> str:
        if crew:
            name = a.players[0]
            return f"the crew {chances.pct(p.chances[name])} (expected final score {p.scores[name]:.1f}{unit})"
        return ", ".join(f"{name} {chances.pct(p.chances[name])}" + (" (expected final score " if k == 0 else " (")
                         + f"{p.scores[name]:.1f}{unit})" for k, name in enumerate(a.players))

    first, last = a.positions[0], a.positions[-1]
    console.print(f"\nThe {what}:", markup=False)
    ends = [] if last is first else [(f"after #{last.n}" if not last.over else "at the end", last)]
    for label, p in (("at the start", first), *ends):  # a line of one position: its start, once
        console.print(f"  {label}: {chances_at(p)}", markup=False)
    if not last.over:
        console.print(f"  (the game is not over on this line: it stops at #{last.n})", markup=False)
    turned = chances.swings(a)
    console.print(f"\n[bold]Where the game turned[/] (where the {what} moved most and stayed moved: the"
                  f" {chances.SPAN} positions before each event against the {chances.SPAN} from it on):",
                  markup=True)
    for r in turned:
        who = "the crew" if crew else r["player"]
        luck = "luck: " if r["luck"] else ""
        console.print(f"  #{r['n']} {luck}{chances.readable(a, r['text'])}  {who} {chances.pct(r['before'])} ->"
                      f" {chances.pct(r['after'])}", markup=False)
    if not turned:
        console.print(f"  No move stands out from the estimates' own uncertainty (about ±{chances.margin(s.rollouts)}"
                      " points); more games per position (--rollouts) would show smaller ones.", markup=False)
    judged = a.decisions
    # too few games a position: a decision seemed to lose more than the threshold by less than the figures' noise,
    # or a chance's own margin is wider than the threshold (a loss that large could hide in it)
    too_few = bool(a.uncertain) or (bool(judged) and chances.margin(s.rollouts) > 100 * s.threshold)
    sampled = sum(1 for d in judged if d.sampled)
    whose = (f"{a.players[0]}'s" if len(a.players) == 1
             else "every player's" if s.judge_all or all(p.bot for p in line.created.players) else "the people's")
    console.print(f"\n[bold]Decisions[/]: {counted(len(judged), 'decision')} ({whose}) judged"
                  " against their alternatives"
                  + (f" ({sampled} with long lists judged on a sample of {s.max_alternatives}, always with the choice"
                     " made and the bot's choice)" if sampled else "") + ".", markup=True)
    if not judged:  # nothing was judged: saying that nothing lost would read as a verdict on the play
        bots = not s.judge_all and any(p.bot for p in line.created.players)
        every = (f"; {cited(f'analyse {line.game.id}{branch_flag(line)} --all')} judges the bots' decisions too"
                 if bots else "")
        console.print(f"None was made on this line to judge, so none lost more than"
                      f" {chances.threshold_pct(s.threshold)} of the {what} against the best alternative{every}.",
                      markup=False)
    elif not a.marked and not a.uncertain:
        console.print(f"No decision lost more than {chances.threshold_pct(s.threshold)} of the {what} against the"
                      f" best alternative{' by these figures' if too_few else ''}.")
    if a.marked:
        console.print(f"Marked: lost more than {chances.threshold_pct(s.threshold)} of the {what} against the best"
                      f" alternative; each figure is the {'crew' if crew else 'player'}'s chance after the move made,"
                      " then after the best one, re-checked with a fresh batch of games (?! lost up to 20 points, ? up"
                      " to 30, ?? more):")
        playable = not read_only()  # the commands that play the better move record: none in a read-only store
        nodes = _branch_nodes(a) if playable else {}
        for d in a.marked:
            console.print(f"  {d.glyph:<2} {chances.readable(a, chances.marked_text(d))}", markup=False)
            if playable:
                console.print(f"     [dim]{escape(with_db(chances.branch_command(a, d, nodes)))}[/]", markup=True)
    if too_few:
        _too_few(a, what)
    console.print(f"\nPlayed {a.computed:,} games ({a.rollout_events:,} events) in {chances.seconds_text(a.seconds)};"
                  f" {counted(a.cached, 'position')} read from the cache."
                  f" {cited(f'plot chances {line.game.id}{branch_flag(line)}{_same_analysis(a)}')} draws"
                  " the chart; --json gives every row.", markup=False)


def _too_few(a: Any, what: str) -> None:
    """The decisions that lost more than the threshold by less than the figures' noise (not marked), and, when there
    are such or when a chance's own margin is wider than the threshold (a loss could hide in it), that the games a
    position were too few and the command that plays enough."""
    from agon.analysis import chances

    s, line = a.settings, a.line
    few, limit = a.uncertain, chances.threshold_pct(s.threshold)
    if few:
        # within the figures' noise, or (below MARK_ROLLOUTS games a position) however far beyond it
        console.print(f"Not marked: {counted(len(few), 'decision')} that lost more than {limit} of the {what} by"
                      f" these figures, {chances.why_unmarked(a)}:", markup=False)
        for d in few:
            console.print(f"     {chances.readable(a, chances.marked_text(d))}", markup=False)
    console.print(chances.too_few(a, cited, branch_flag(line)), markup=False)


def _same_analysis(a: Any, rollouts: int | None = None) -> str:
    from agon.analysis.chances import same_analysis

    return same_analysis(a, rollouts)


@plot_app.command("chances", epilog=examples("agon plot chances 3f2a", "agon plot chances 3f2a --png -o chances.png"))
@friendly
def plot_chances(
    game: GameArg,
    branch: BranchOpt = None,
    rollouts: RolloutsOpt = 100,
    bot: BotOpt = None,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    judge_all: AllOpt = False,
    fresh: FreshOpt = False,
    cluster: ClusterOpt = None,
    threshold: ThresholdOpt = 0.10,
    alternatives: AltOpt = 12,
    out: OutOpt = None,
    png: PngOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Each player's win chance over the game (as `agon analyse` estimates it; cached results are reused), the
    marked decisions annotated."""
    from agon.analysis import chances

    json_or_file(as_json, out, png)
    if out is not None:
        _output(out, "", png)  # a file name that cannot be written is refused before the rollouts, not after
    a = _run(game, branch, rollouts, bot, seed, workers, judge_all, fresh, cluster, threshold, alternatives,
             quiet=as_json)
    if as_json:
        print_json(chances.to_json(a, _branch_nodes(a)))
        return
    target: Path = _target(out, a.line, "chances", png)
    what = chances.what(a)  # a voyage's chart is of its success, not of a win
    _write(chances.figure(a), target, png,
           "the win-chance chart" if what == "win chance" else f"the chart of the {what}")


def _branch_nodes(a: Any) -> dict[str, list[str]]:
    """Each branch of the analysed game with its event ids by number, for the commands that play a better move
    (``chances.branch_command``): a branch that plays it already is compared, a new one gets a free name. The game's
    nodes are read only when a decision is marked."""
    if not a.marked:
        return {}
    return service().line_ids(a.line.game.id)

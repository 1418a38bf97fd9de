"""The game summary seen from the command line: a progress bar while stale summaries are recomputed, and
``agon rebuild``, which recomputes every one from the events."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import typer

from agon.cli.common import JsonOpt, bars_off, cited, console, err, examples, friendly, print_json, service
from agon.core.words import counted

app = typer.Typer()


@contextmanager
def progress_bar(what: str, quiet: bool = False) -> Iterator[Callable[[int], Callable[[], None]]]:
    """A ``progress`` callback for the service: shows a bar on stderr once there is work to count."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                  transient=True, disable=bars_off(quiet)) as bar:

        def start(total: int) -> Callable[[], None]:
            task = bar.add_task(what, total=total)
            return lambda: bar.advance(task)

        yield start


@app.command(epilog=examples("agon rebuild", "agon --db club.db rebuild --json"))
@friendly
def rebuild(as_json: JsonOpt = False) -> None:
    """Recompute the game summaries (`agon games`, `agon stats`) of every branch of every game from the events,
    checking every game as `agon verify` does: a damaged game is marked DAMAGED, not summarised.

    Never needed for correctness (a stale summary is recomputed before it is read); after a change to the rules
    it does the work at once instead of at the next listing."""
    svc = service()
    with progress_bar("summarising and verifying games", quiet=as_json) as bar:
        n, damaged = svc.rebuild(bar)
    if as_json:
        print_json({"games": n, "damaged": [{"game": g, "problems": p} for g, p in damaged.items()]})
        return
    console.print(f"Summarised every branch of the stored games; {checked_line(n, damaged)}", markup=False)
    if damaged:
        raise typer.Exit(1)


def checked_line(games: int, damaged: dict[str, list[str]], marked: bool = True) -> str:
    """The one-line outcome of checking every game ('agon verify', 'agon rebuild'). ``marked``: whether the
    damaged games' summaries were marked in the store; a store that may only be read keeps no mark, so its
    `agon games` cannot show one (it lists a game as its stored summary last said)."""
    checked = f"{counted(games, 'game')} checked"
    if not damaged:
        return f"{checked}: every hash matches and every line replays the same."
    listed = f"{len(damaged):,} damaged ({', '.join(damaged)}); {cited('verify GAME')} lists what is broken"
    if not marked:
        return (f"{checked}: {listed}; this store is read-only, so no mark is kept and {cited('games')} may still"
                f" list them as sound ({cited('verify')} marks them DAMAGED where agon may write to the store).")
    return f"{checked}: {listed}, and {cited('games')} marks them DAMAGED."

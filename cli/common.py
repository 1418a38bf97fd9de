"""What every command module shares: the consoles, the store from ``--db``/``AGON_DB``, JSON output, and the
rule that a person sees one line saying what went wrong and what to do, never a traceback."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.text import Text
from sqlalchemy.exc import SQLAlchemyError

from agon.core.service import Service, ServiceError
from agon.events.store import Store, StoreError

# Markup is off by default: names, titles and sentences come from people and from data, and a name such as
# '[/x]' must print as written. A line that styles itself passes markup=True and escapes every value in it.
console = Console(highlight=False, soft_wrap=True, markup=False)
err = Console(stderr=True, highlight=False, soft_wrap=True, markup=False)

# -- the option conventions -------------------------------------------------------------------------------------
# One meaning per option name across every command (the README's "Options" lists them). Build a command's options
# from these, or from the same names with the same meaning:
#   GAME               a game id or a unique prefix (an argument)
#   -b/--branch NAME   a line of the game (default: its current one); repeatable where several lines make sense
#   --at N             the position after event N, as 'agon log' numbers it
#   --from N, --to M   the first and last event shown (event numbers, never a branch)
#   --as PLAYER        as this player sees the game (or, for 'act', the player deciding)
#   -o/--output FILE   the file to write
#   --json             print the result as JSON; errors are then JSON on stderr too ({"error": ...})
#   --seed N           the seed of chance and bots
GameArg = Annotated[str, typer.Argument(help="Game id (or a unique prefix).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON (errors too, on stderr).")]
BranchOpt = Annotated[str | None, typer.Option("--branch", "-b", help="A branch (default: the game's current one).")]
BranchesOpt = Annotated[list[str] | None, typer.Option(
    "--branch", "-b", help="A line to read (default: the game's current one); repeat it for several lines.")]
AtOpt = Annotated[int | None, typer.Option("--at", help="After event N (as numbered by 'agon log').")]
AsOpt = Annotated[str | None, typer.Option("--as", help="Show the game as this player sees it.")]


def output_option(default: str) -> Any:
    """``-o/--output FILE``, saying what is written when it is left out."""
    return typer.Option("--output", "-o", help=f"File to write (default: {default}).")


def examples(*commands: str) -> str:
    """The end of a command's help: one or two example command lines (pass as ``epilog=``).

    Each line may carry a short comment after two spaces and ``#``. Square brackets print as written."""
    from rich.markup import escape

    return "Examples:\n\n" + "\n\n".join(f"  {escape(c)}" for c in commands)

_db_url: str | None = None
_service: Service | None = None


def default_db_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("agon", appauthor=False)) / "agon.db"


def db_url() -> str:
    """The store URL: ``--db``, else ``AGON_DB``, else the SQLite file in the user's data directory.

    A value without ``://`` is a path to a SQLite file."""
    raw = _db_url or os.environ.get("AGON_DB") or ""
    if not raw:
        path = default_db_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    if "://" not in raw:
        return f"sqlite:///{Path(raw).expanduser().resolve()}"
    return raw


def set_db(url: str | None) -> None:
    global _db_url, _service
    _db_url = url
    _service = None


def service() -> Service:
    global _service
    if _service is None:
        url = db_url()
        if url.startswith("sqlite:///"):
            parent = Path(url.removeprefix("sqlite:///")).parent
            if not parent.is_dir():
                raise StoreError(f"cannot open database {url}: folder {parent} does not exist; create it or"
                                 " choose another --db")
        _service = Service(Store(url))
    return _service


class Fail(Exception):
    """A one-line error from the CLI itself (bad arguments it checks)."""


F = TypeVar("F", bound=Callable[..., Any])


def error_line(message: str, as_json: bool = False) -> None:
    """Print one error on stderr: ``error: ...`` for a person, ``{"error": ...}`` when ``--json`` was asked.

    The message prints as written: square brackets in it (``pip install 'agon[png]'``) are text, not markup."""
    if as_json:
        typer.echo(dumps({"error": message}), err=True)
    else:
        from rich.markup import escape

        err.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True, markup=True)


def friendly(fn: F) -> F:
    """Turn the errors a person can act on into one line on stderr and exit status 1 (a JSON object when the
    command was given ``--json``)."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("as_json"))
        try:
            return fn(*args, **kwargs)
        except (ServiceError, StoreError, Fail) as e:
            error_line(str(e), as_json)
        except OSError as e:
            error_line(f"{e.strerror or e}: {e.filename or ''}".rstrip(": "), as_json)
        except SQLAlchemyError as e:
            detail = str(getattr(e, "orig", None) or e).splitlines()[0]
            error_line(f"the store at {db_url()} failed: {detail}; nothing was recorded (check --db, or 'agon"
                       " verify' the game)", as_json)
        raise typer.Exit(1)

    return wrapper  # type: ignore[return-value]


def print_json(data: Any) -> None:
    """``data`` as indented JSON on standard output, written as it is: no re-parsing and re-rendering by rich,
    which took 14 s for the --json log of a 100,000-event line."""
    import msgspec

    out = console.file
    out.write(msgspec.json.format(msgspec.json.encode(data), indent=2).decode())
    out.write("\n")
    out.flush()


def print_lines(lines: Iterable[tuple[str, str | None]], batch: int = 512) -> None:
    """Many lines of plain text (each with a rich style or None), printed a batch at a time: one rich call per
    line cost about 0.1 ms, 14 s for the log of a 100,000-event line. Written as they are where rich would add
    no style (not a terminal): the same bytes, without rich's layout work."""
    if not console.is_terminal:
        out = console.file
        for line, _style in lines:
            out.write(line)
            out.write("\n")
        out.flush()
        return
    text, n = Text(), 0
    for line, style in lines:
        if n:
            text.append("\n")
        text.append(line, style=style)
        n += 1
        if n == batch:
            console.print(text)
            text, n = Text(), 0
    if n:
        console.print(text)


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, default=str)

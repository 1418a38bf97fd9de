"""What every command module shares: the consoles, the store from ``--db``/``AGON_DB``, JSON output, and the
rule that a person sees one line saying what went wrong and what to do, never a traceback."""

import contextlib
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.text import Text
from sqlalchemy.exc import SQLAlchemyError

from agon.core.engine import PUBLIC
from agon.core.service import (
    EVENT_RANGE,
    LIMIT_RANGE,
    SEED_MAX,
    Service,
    ServiceError,
    store_trouble,
)
from agon.core.words import listed
from agon.events.store import (
    NoStoreYet,
    Store,
    StoreError,
    missing_file,
    shown_url,
    sqlite_option_problem,
    without_password,
)

_hints: dict[str, None] = {}  # the commands printed as hints lately (``hint``), kept whole when a line is folded


def hint(command: str) -> str:
    """``command``, a command printed for a person to copy: a line that holds it is never folded inside it."""
    _hints[command.strip()] = None
    if len(_hints) > 256:  # one command line prints a few; a long test session many
        del _hints[next(iter(_hints))]
    return command


class Screen(Console):
    """A console that folds its lines to the terminal's width at spaces, never inside a word or a command to copy
    (``render.fold``): rich itself would cut an id or a command in two, or a terminal would.

    Lines are folded where the output is a terminal, or where COLUMNS names a width; output piped elsewhere keeps
    each line whole, as scripts read it. The width is read for every command (COLUMNS, else the terminal's size),
    not fixed when the console is made. Other renderables (tables) are printed as rich lays them out."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._width = None  # rich fixes COLUMNS when the console is made: read it for every command instead

    def fits(self) -> bool:
        """Whether lines are folded to ``self.width``."""
        return self.is_terminal or os.environ.get("COLUMNS", "").strip().isdigit()

    def print(self, *objects: Any, sep: str = " ", markup: bool | None = None, hang: int | str | None = None,
              fold: bool = True, **kwargs: Any) -> None:
        """As rich's ``print``, each string or Text folded (``hang``: how the lines folded begin, see
        ``render.breaks``; ``fold=False``: folded already)."""
        if fold and objects and self.fits() and all(isinstance(o, str | Text) for o in objects):
            from agon.cli.render import fold_text

            parts = [self.render_str(o, markup=markup, emoji=kwargs.get("emoji"), highlight=kwargs.get("highlight"))
                     if isinstance(o, str) else o for o in objects]
            objects = (fold_text(Text(sep).join(parts), self.width, _hints, hang),)
        kwargs["soft_wrap"] = True  # folded here, or not at all: never by rich
        super().print(*objects, sep=sep, markup=markup, **kwargs)


# Markup is off by default: names, titles and sentences come from people and from data, and a name such as
# '[/x]' must print as written. A line that styles itself passes markup=True and escapes every value in it.
console = Screen(highlight=False, soft_wrap=True, markup=False)
err = Screen(stderr=True, highlight=False, soft_wrap=True, markup=False)


def fit_columns(table: Any) -> list[int] | None:
    """Set the widths of a rich ``table``'s columns so that it fits the width with every word of every cell whole
    (rich would otherwise cut words short with '…', an id too): each column as wide as its widest line where there
    is room, else the widest give up room first, none narrower than its longest word. Returns the widths, or None
    (and nothing set) where even the longest words do not fit side by side."""
    from rich.cells import cell_len

    columns = [[str(x) for x in (c.header, *c.cells)] for c in table.columns]
    least = [max((cell_len(w) for cell in cells for w in cell.split()), default=1) for cells in columns]
    widths = [max((cell_len(line) for cell in cells for line in cell.splitlines()), default=1) for cells in columns]
    _, right, _, left = table.padding
    framed = table.box is not None
    room = console.width - (2 if framed and table.show_edge else 0) - (len(columns) - 1 if framed else 0) - (
        (left + right) * len(columns) - (0 if table.pad_edge else left + right))
    if sum(least) > room:
        return None
    while sum(widths) > room:  # the widest column gives up a column of its width, down to its longest word
        i = max((j for j in range(len(widths)) if widths[j] > least[j]), key=lambda j: widths[j])
        widths[i] -= 1
    for column, w in zip(table.columns, widths):
        column.width = w
    return widths


def show_table(table: Any, key: str = "") -> None:
    """Print a rich ``table`` with every word of every cell whole (``fit_columns``). Where even that is too wide,
    each row is printed as a record instead: its first cell on a line (after ``key``, a prefix saying what it is:
    '#', 'seat '), each other column's below it on a line of its own."""
    if fit_columns(table) is not None:
        console.print(table)
        return
    if table.title:
        console.print(str(table.title))
    columns = [[str(x) for x in c.cells] for c in table.columns]
    for i, first in enumerate(columns[0]):
        console.print(f"{key}{first}", style="bold")
        for column, cells in zip(table.columns[1:], columns[1:]):
            header = str(column.header)
            console.print(f"  {header}: {cells[i]}" if header else f"  {cells[i]}")


def fit_width() -> int | None:
    """The width output is laid out for (``Screen.fits``), or None where lines stay as long as they are."""
    return console.width if console.fits() else None

# -- the option conventions -------------------------------------------------------------------------------------
# One meaning per option name across every command (the README's "Options" lists them). Build a command's options
# from these, or from the same names with the same meaning:
#   GAME               a game id or a unique prefix (an argument)
#   -b/--branch NAME   a line of the game (default: its current one); repeatable where several lines make sense
#   --at N             the position after event N, as 'agon log' numbers it
#   --from N, --to M   the first and last event shown (event numbers, never a branch)
#   --as PLAYER        as this player sees the game (or, for 'act', the player deciding)
#   --public           as a spectator sees it: what every player sees (wherever --as shows a player's view)
#   -o/--output FILE   the file to write
#   --json             print the result as JSON; errors are then JSON on stderr too ({"error": ...})
#   --seed N           the seed of chance and bots
#
# Every whole-number option and argument has bounds (``whole``): a value outside them, 99999999999999999999 as much
# as -1, is a usage error naming the range, never a number that overflows a store's column or starts a million
# processes. Event numbers, limits and seeds stop at INT_MAX (core.service), the largest value of a PostgreSQL integer
# column; the ranges of event numbers and limits are the core's (EVENT_RANGE, LIMIT_RANGE), which the API takes too.
# SEED_MAX (the largest seed, core.service): a new game's seed is judged there for every face; --seed is parsed to
# the same range, so the command line refuses what the server refuses, as a usage error naming the range


def whole(lo: int, hi: int, why: str = "") -> Callable[[Any], int]:
    """The parser of a whole number from ``lo`` to ``hi`` (pass as ``parser=``); ``why`` explains the bounds.

    Click names the option in front of the message ("invalid value for '--limit': ..."), so it only says what
    is wrong with the value and which values are taken."""
    takes = f"it takes {lo} to {hi}{why}"

    def parse(value: Any) -> int:
        if isinstance(value, int):  # a default, already a number
            number = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                raise typer.BadParameter(f"{str(value)!r} is not a whole number ({takes})")
            if len(text.lstrip("+-0")) > 30:  # far out of any range, and int() refuses 4,300 digits and more
                raise typer.BadParameter(f"{text[:24]}... is out of range ({takes})")
            number = int(text)
        if not lo <= number <= hi:
            raise typer.BadParameter(f"{number} is out of range ({takes})")
        return number

    return parse


def one_of(*values: str) -> Callable[[Any], str]:
    """The parser of a word from ``values`` (pass as ``parser=``): any other is a usage error (exit status 2), as
    a number out of range is, naming the values taken. Read in any case (``--status Over``), as a ruleset or a
    bot's kind is."""

    def parse(value: Any) -> str:
        word = str(value).lower()
        if word not in values:
            raise typer.BadParameter(f"{str(value)!r} is not one of: {', '.join(values)}")
        return word

    return parse


def share(what: str) -> Callable[[Any], float]:
    """The parser of a share strictly between 0 and 1 (pass as ``parser=``), as a decimal ("0.1") or a percentage
    ("10%"); ``what`` says what it is a share of."""
    takes = f"it takes a share of {what} between 0 and 1, e.g. 0.1 or 10%"

    def parse(value: Any) -> float:
        if isinstance(value, float):  # a default, already a number
            return value
        text = str(value).strip()
        m = re.fullmatch(r"([+-]?[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]{1,3})?)(%?)", text)
        if m is None or len(text) > 30:
            raise typer.BadParameter(f"{str(value)[:30]!r} is not a number ({takes})")
        number = float(m.group(1)) / (100 if m.group(2) else 1)
        if not 0 < number < 1:
            raise typer.BadParameter(f"{text} is out of range ({takes})")
        return number

    return parse


GameArg = Annotated[str, typer.Argument(help="Game id (or a unique prefix).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON (errors too, on stderr).")]


def branch_name(value: str) -> str:
    """``-b NAME``: a name, not an empty word (which would quietly mean the current branch)."""
    if not str(value).strip():
        raise typer.BadParameter("a branch name cannot be empty; leave -b out for the game's current branch (see"
                                 " `agon branches GAME`)")
    return str(value)


def expect_option(what: str) -> Any:
    """The --expect option of a command that moves a line (act, undo, redo): the position `agon options` printed,
    refusing ``what`` (the choice, the undo) if the line has moved since."""
    return typer.Option("--expect", help=f"The position `agon options` printed (e.g. 12.a1b2c3d4): refuse the {what}"
                        " if the line has moved since.")


BranchOpt = Annotated[str | None, typer.Option("--branch", "-b", help="A branch (default: the game's current one).",
                                               parser=branch_name)]
BranchesOpt = Annotated[list[str] | None, typer.Option(
    "--branch", "-b", help="A line to show (default: every line of the game, opening on its current one); repeat"
    " it for several lines.", parser=branch_name)]
EVENT = whole(*EVENT_RANGE)
"""An event number, as 'agon log' numbers them; whether the line has that event is the command's to say."""
AtOpt = Annotated[int | None, typer.Option("--at", help="After event N (as numbered by `agon log`).", parser=EVENT)]
AsOpt = Annotated[str | None, typer.Option("--as", help="Show the game as this player sees it.")]
PublicOpt = Annotated[bool, typer.Option("--public", help="Show the game as a spectator sees it (for a class's"
                                         " screen): what every player sees, no hand, deck order or hidden draw.")]


def viewer_of(line: Any, as_player: str | None, public: bool) -> str | None:
    """Whom a command shows the game to: ``PUBLIC`` with ``--public`` (what every player sees, as ``agon serve``'s
    spectators see it), the seat ``--as`` names (as the game stores it, typed in either Unicode form), else None
    (everything). ``--public`` is a flag, not a name given to ``--as``: any word may be a player's name."""
    if public and as_player is not None:
        raise UsageFail("give either --as PLAYER (as one player sees it) or --public (what every player sees), not"
                        " both")
    if public:
        return PUBLIC
    return None if as_player is None else line.player(as_player)
SEED = whole(0, SEED_MAX)
"""A seed (of a game's chance and bots, of rollouts)."""
LIMIT = whole(*LIMIT_RANGE)
"""How many games to read at most ('games', 'stats'): at least one (--limit 0 would read none)."""


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every OS
        return max(1, os.cpu_count() or 1)


# Each worker (of 'analyse', of 'serve') is a process with its own memory: past a few per core they only compete for
# the cores and the memory ('analyse --workers 99999' started 99999 processes), so more are refused.
MAX_WORKERS = min(64, 4 * default_workers())
WORKERS = whole(1, MAX_WORKERS, f": 4 per core, and this machine has {default_workers()}" if MAX_WORKERS < 64
                else ": more would only compete for the cores")


def output_option(default: str) -> Any:
    """``-o/--output FILE``, saying what is written when it is left out."""
    return typer.Option("--output", "-o", help=f"File to write (default: {default}).")


def examples(*commands: str) -> str:
    """The end of a command's help: one or two example command lines (pass as ``epilog=``).

    Each line may carry a short comment after two spaces and ``#``. Square brackets print as written."""
    from rich.markup import escape

    return "Examples:\n\n" + "\n\n".join(f"  {escape(c)}" for c in commands)

_db_url: str | None = None
_db_typed: str | None = None  # the --db value as typed on this command line (not AGON_DB), for the hints
_service: Service | None = None
_made: list[Path] = []  # what this command made to start a store (its SQLite file, then any folders for it), if any
_unkept: list[str] = []
"""What this command computed and could not keep (a store that may only be read), said once when it ends."""


def default_db_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("agon", appauthor=False)) / "agon.db"


def db_url() -> str:
    """The store URL: ``--db``, else ``AGON_DB``, else the SQLite file in the user's data directory.

    A value without ``://`` is a path to a SQLite file. The store speaks SQLite and PostgreSQL only, so another
    database's URL is refused here in words rather than by a driver that is not installed; ``postgres://`` (the
    spelling libpq and many hosts use) is read as ``postgresql+psycopg://``, the driver agon installs. An empty
    ``--db`` (``--db "$UNSET"``) is refused rather than read as the default store, which is someone's own."""
    if _db_typed == "":
        raise StoreError("--db is empty: give a SQLite file's path or a postgresql+psycopg:// URL (leave --db out"
                         " for the default store)")
    raw = _db_url or os.environ.get("AGON_DB") or ""
    if raw and not raw.strip():  # spaces only: a slip in a script or a shell's settings, not a file named ' '
        source, instead = ("--db", "leave --db out") if _db_typed is not None else ("AGON_DB", "unset AGON_DB")
        raise StoreError(f"{source} is blank: give a SQLite file's path or a postgresql+psycopg:// URL ({instead}"
                         " for the default store)")
    if not raw:
        return f"sqlite:///{default_db_path()}"  # its folder: made as a store starts (``service``)
    if "://" not in raw and "mode=memory" not in raw.partition("?")[2]:
        return f"sqlite:///{Path(raw).expanduser().resolve()}"
    if "://" not in raw:  # a path's options are SQLite's too (club.db?mode=ro): in memory, nothing is kept
        raise StoreError(f"cannot use database {raw}: it is a store in memory, gone when this command ends; give a"
                         " SQLite file's path (e.g. --db club.db)")
    scheme, _, rest = raw.partition("://")
    if scheme.lower() == "postgres":
        return f"postgresql+psycopg://{rest}"
    if scheme.split("+")[0].lower() not in ("sqlite", "postgresql"):
        raise StoreError(f"cannot use database {without_password(raw)}: agon stores games in SQLite (a file's path) or"
                         f" PostgreSQL (postgresql+psycopg://user@host/dbname), not in {scheme.split('+')[0]}")
    base, _, driver = scheme.partition("+")
    if base.lower() == "postgresql" and driver and driver.lower() != "psycopg":
        # another driver's URL (psycopg2's, from another program's settings): the same database, a driver agon lacks
        raise StoreError(f"cannot use database {without_password(raw)}: agon reaches PostgreSQL through psycopg"
                         f" (version 3), not {driver}; write {without_password('postgresql+psycopg://' + rest)}")
    path, _, query = rest.partition("?")
    if scheme.split("+")[0].lower() == "sqlite" and (path in ("", "/", "/:memory:") or "mode=memory" in query
                                                     or (path.startswith("/file:") and ":memory:" in path)):
        # a store in memory is gone when the command ends: nothing one command records is there for the next
        # (SQLite makes one for an empty path, sqlite:///, too, and for a 'file::memory:' or 'mode=memory' URI)
        raise StoreError(f"cannot use database {raw}: it is a store in memory, gone when this command ends; give a"
                         " SQLite file's path (e.g. --db club.db)")
    return raw


def set_db(url: str | None, typed: bool = False) -> None:
    """Use the store ``url``; ``typed``: it was given as ``--db`` on the command line, so the commands printed as
    hints name it too (with AGON_DB or the default store, the same command in the same shell finds it anyway)."""
    global _db_url, _db_typed
    close_store()  # a store an earlier command in this process left open (a test's, a caller's)
    _db_url = url
    _db_typed = url if typed else None
    _made.clear()
    _unkept.clear()


def agon_line(rest: str) -> str:
    """A command to print as a hint, ``agon REST``, with the ``--db`` this command line was given (shell-quoted):
    a hint copied from 'agon --db club.db new ...' must read the same store, not the default one. A password typed
    in a PostgreSQL URL is left out (a hint is read over shoulders and kept in transcripts): the command it prints
    reads it from ``PGPASSWORD`` or ``~/.pgpass``, as the README's shared-server paragraph says."""
    db = without_password(_db_typed, None) if _db_typed else None
    return hint(f"agon --db {shlex.quote(db)} {rest}" if db else f"agon {rest}")


def cited(rest: str) -> str:
    """``agon REST`` (``agon_line``, with this command line's ``--db``) as a sentence names it: between backticks,
    never between quotes, which would nest with the quotes a --db, a path or a branch name may need ('agon --db
    'my club.db' games'). What stands between the backticks is the command to copy into a POSIX shell, as it is."""
    return f"`{agon_line(rest)}`"


def branch_flag(line: Any) -> str:
    """`` -b NAME`` when ``line`` is not its game's current branch (a command printed for it must name it), else
    nothing."""
    name = line.branch.name
    return "" if name == line.game.current_branch else f" -b {shlex.quote(name)}"


def with_db(commands: str) -> str:
    """``commands`` (``agon ...``, or several joined by ``&&``) as hints: each with this command line's ``--db``."""
    return hint(re.sub(r"(^|&& )agon ", lambda m: m.group(1) + agon_line(""), commands))


def with_db_quoted(message: str) -> str:
    """``message`` (the service's words, which name commands as ```agon ...```, events/hints.py) with this command
    line's ``--db`` in each command it names, so that a hint copied from an error reads the same store."""
    if not _db_typed:
        return message
    return re.sub(r"`agon (?!--db )", lambda _: "`" + agon_line(""), message)


def every_ruleset() -> list[Any]:
    """Every ruleset agon knows (its own and those AGON_RULESETS names), loaded: one that does not import is refused
    in its one line ("correct or unset AGON_RULESETS"), for 'agon rulesets' and before 'agon serve' serves (where
    it answered every request that lists the rulesets with a 500)."""
    from agon.core import registry

    try:
        return [registry.get(name) for name in registry.names()]
    except registry.UnknownRuleset as e:  # one named by AGON_RULESETS that does not import
        raise Fail(str(e)) from None


def service(starts: bool = False) -> Service:
    """The service on this command's store. ``starts``: the command can start a store (new, demo, import, serve),
    so a SQLite file that is not there yet is made, an empty store, with its missing folders (a new club's
    ``--db club/agon.db``; taken away again if the command fails). Any other command (one that reads, or records
    in a game already stored: no game is in a store not made yet) never makes one, nor its folder, nor SQLite's
    ``-wal`` and ``-shm`` files beside it, and refuses such a path in one line (``NoStore``): a mistyped --db or
    AGON_DB would otherwise leave a stray empty store behind and say 'no game' in it."""
    global _service
    if _service is None:
        url = db_url()
        if url.startswith("sqlite:///"):
            path = Path(shown_url(url))  # the file (of a 'file:' URI too), without SQLite's options
            if path.is_dir():
                raise StoreError(f"cannot open database {url}: {path} is a folder; give a file in it, e.g."
                                 f" --db {path / 'agon.db'}")
            parent, default = path.parent, path == default_db_path()
            blocked = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
            if blocked is not None:  # no folder can be made there, and no store be there
                raise StoreError(f"cannot open database {url}: {blocked} is a file, not a folder; choose another"
                                 " --db")
            wrong = sqlite_option_problem(url)  # said before 'no store there yet', which the options would refuse
            if wrong:
                raise StoreError(wrong)
            missing = missing_file(url) is not None  # never for a store opened read-only, which SQLite never makes
            if not starts and missing:
                raise _no_store(str(path), None if parent.is_dir() or default else parent)
            if starts and missing:  # made here: taken away again if the command fails
                _made[:] = [path, *(p for p in path.parents if not p.exists())]
                # a new club's folder (--db club/agon.db), or the default store's data directory
                parent.mkdir(parents=True, exist_ok=True)
        try:  # on PostgreSQL, a command that reads makes no tables where no store is yet (Store's ``make``)
            store = Store(url, make=starts)
        except NoStoreYet:
            raise _no_store(without_password(url)) from None
        store.on_unkept = _not_kept
        _service = Service(store)
    return _service


def close_store() -> None:
    """After a command: its store closed, not left to the garbage collector or the process's end. SQLite's last
    connection to close writes the log (``-wal``) into the store's file and removes the ``-wal`` and ``-shm`` files:
    left open, what the command recorded was in the ``-wal`` file only, so a copy of the store's file alone (a
    backup, a file sent to someone) held none of it, and a test saw the two files come and go with the collector."""
    global _service
    if _service is None:
        return
    svc, _service = _service, None
    with contextlib.suppress(Exception):  # a store that fails to close has nothing more to tell this command
        svc.store.close()


def unmake_store() -> None:
    """After a command that failed: the SQLite store it made (``service(starts=True)``), with SQLite's ``-wal``,
    ``-shm`` and ``-journal`` files and any folder made for it, is taken away again when no game was recorded in
    it, so a refused or failed 'agon new', 'demo' or 'import' leaves nothing behind where no store was."""
    global _service
    if not _made:
        return
    path, *folders = _made
    _made.clear()
    if _service is not None:
        try:
            if _service.store.games():  # something was recorded before the failure: it stays
                return
            _service.store.close()
        except Exception:  # a store that cannot be read may hold something: left as it is
            return
        _service = None
    for name in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(f"{path}{name}")
    for folder in folders:  # the deepest first; a folder something else was put in meanwhile stays
        with contextlib.suppress(OSError):
            folder.rmdir()


def no_store_yet() -> bool:
    """Whether this command's store is a SQLite file not made yet: a command that starts a store would make an
    empty one there, so it judges first what an empty store would refuse (``agon import``: a card set only a store
    could give)."""
    return _service is None and missing_file(db_url()) is not None


def read_only() -> bool:
    """Whether this command's store is known to be read-only (``Store.read_only``): a hint then names no command
    that records (act, undo, branch, note...), which the store would refuse."""
    return service().store.read_only


def _not_kept(what: str) -> None:
    if what not in _unkept:
        _unkept.append(what)


def unkept_notice(as_json: bool = False) -> None:
    """One line on stderr after a command that computed what a store that may only be read cannot keep (summaries,
    snapshots, analysis results): it worked, and the next command computes them again."""
    if not _unkept:
        return
    what = listed(_unkept)
    message = f"read-only store: {what} are computed, not kept"
    _unkept.clear()
    if as_json:
        typer.echo(dumps({"note": message}), err=True)
    else:
        err.print(message)


class Fail(Exception):
    """A one-line error from the CLI itself (bad arguments it checks)."""


class UsageFail(Fail):
    """Options that cannot go together on one command line: a usage error, exit status 2 as Click's own."""


class NoStore(Fail):
    """A command that starts no store was given a SQLite file that does not exist (``service``): nothing was made.
    ``default``: the file is the default store's, where no game is recorded yet (agon's first run on a machine)."""

    def __init__(self, message: str, default: bool) -> None:
        super().__init__(message)
        self.default = default


def _no_store(path: str, folder: Path | None = None) -> NoStore:
    """Why a command that starts no store has none to open at ``path``, and the steps: the option or variable that named
    it (a path typed wrong is the likely cause), or the commands that start a store there (which make its folders).
    ``folder``: the folder of ``path``, when it is not there either (said, since it is the likelier slip)."""
    record = f"{cited('new RULESET --player NAME...')} or {cited('demo')}"
    yet = f" yet (its folder {folder} does not exist)" if folder is not None else " yet"
    if _db_typed:
        return NoStore(f"no store at {path}{yet}: check --db, or record a game there first with {record}", False)
    if _db_url or os.environ.get("AGON_DB"):
        return NoStore(f"no store at {path}{yet}: check AGON_DB, or record a game there first with {record}", False)
    return NoStore(f"no store at {path} yet (the default store: nothing is recorded on this machine yet): record a"
                   f" game with {record}, or name another store with --db or AGON_DB", True)


def input_file(path: Path, what: str, hint: str = "") -> Path:
    """``path``, a file to read: a folder or a missing file is refused saying which (``hint``: how to get one). A
    pipe is read as a file (``<(agon export G)``, ``/dev/stdin``): it exists, though it is no regular file."""
    if path.is_dir():
        raise Fail(f"{what} {path} is a folder, not a file{hint}")
    if not path.exists():
        raise Fail(f"{what} {path} does not exist{hint}")
    return path


MAX_GAME_FILE = 128 * 1024 * 1024
"""The most ``agon import`` reads: a whole game with all its lines and notes is a few hundred kilobytes, and a stream
with no end (``agon import /dev/zero``, ``yes | agon import -``) must be refused, not read until memory runs out."""
MAX_CARD_FILE = 16 * 1024 * 1024
"""The most ``agon new --cards`` reads: a card set is a few kilobytes."""


def read_input(path: Path | None, what: str, limit: int, hint: str = "") -> bytes:
    """The bytes of ``path`` (None: standard input), a file checked by ``input_file``, when there are at most
    ``limit`` of them; a longer file or stream is refused after ``limit`` bytes, saying what to give instead."""
    with contextlib.nullcontext(sys.stdin.buffer) if path is None else path.open("rb") as f:
        chunks, size = [], 0
        while size <= limit and (chunk := f.read(1024 * 1024)):  # in chunks: no buffer of ``limit`` bytes up front
            chunks.append(chunk)
            size += len(chunk)
    if size > limit:
        source = "standard input" if path is None else f"{what} {path}"
        raise Fail(f"{source} holds more than {limit // (1024 * 1024)} MiB, more than any {what} agon reads{hint}")
    return b"".join(chunks)


def not_a_folder(path: Path, suffix: str) -> None:
    """Refuse ``-o`` naming a folder (``-o ''`` too: the working folder) before a file name is suggested from it."""
    if path.is_dir() or not path.name:
        raise Fail(f"{path} is a folder; give the file to write, e.g. {path / ('out' + suffix)}")


def named_as(path: Path, suffix: str) -> Path:
    """``path`` with ``suffix``, as a refusal suggests it: in place of a suffix that names a kind of file (``.txt``),
    else after the whole name (``1.5`` gives ``1.5.html``, not ``1.html``)."""
    if path.suffix[1:].isalpha():
        return path.with_suffix(suffix)
    return path.with_name(path.name + suffix)


@contextlib.contextmanager
def output_file(path: Path) -> Iterator[Path]:
    """Write ``path`` whole or not at all: yields a new temporary file in the same folder (with the same suffix, for
    writers that read the format from it), and once the block has written it, syncs it to disk and renames it into
    place in one step. On any failure (a full disk, a writer that gives up) the temporary file is removed and a
    file already at ``path`` keeps its old content. Missing folders are created, as every ``-o`` promises.

    A device or a pipe (``-o /dev/stdout``, ``-o /dev/null``, a FIFO) is written into once the block is done, as a
    shell's ``>`` would: renaming a file onto it would put a plain file in the device's place."""
    if path.is_dir():
        raise Fail(f"{path} is a folder; give the file to write, e.g. {path / ('out' + (path.suffix or '.txt'))}")
    if path.exists() and not path.is_file():  # followed through links: /dev/stdout is one to the output itself
        with tempfile.TemporaryDirectory(prefix="agon-out-") as folder:
            tmp = Path(folder) / f"out{path.suffix}"
            yield tmp
            try:
                with tmp.open("rb") as written, open(path, "wb") as stream:
                    shutil.copyfileobj(written, stream)
            except OSError as e:
                raise OSError(e.errno, e.strerror, str(path)) from None  # a full device says which it was
        return
    if path.is_symlink():
        path = path.resolve()  # a link is written through, as a plain write would, not replaced by a file
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):  # a file stands where a folder of the path should be
        blocking = next(p for p in reversed(path.parents) if p.exists() and not p.is_dir())
        raise Fail(f"cannot write {path}: {blocking} is a file, not a folder; give another path") from None
    try:
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.tmp-", suffix=path.suffix)
    except OSError as e:
        raise OSError(e.errno, e.strerror, str(path)) from None  # the file asked for, not the temporary one
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        # mkstemp makes the file readable by its owner only; the result gets the mode a new file gets here (or the
        # mode of the file it replaces), as a plain write would have
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        os.chmod(tmp, mode)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)  # a write error the file system only reports late (NFS, a full disk) is reported here
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(e, OSError) and e.errno is not None and e.filename in (None, name):
            # the error names the file asked for: the temporary one is gone
            raise OSError(e.errno, e.strerror, str(path)) from None
        raise


def _umask() -> int:
    mask = os.umask(0)  # the only way to read it is to set it
    os.umask(mask)
    return mask


def told(path: Path) -> Screen:
    """Where to say what was written to ``path``: standard error where ``path`` is the standard output itself (``-o
    /dev/stdout``, or the pipe or file the output goes to), so that the data written there stays whole for whatever
    reads it (``agon export G -o /dev/stdout | agon import -``); else standard output. Ask before writing: a file
    written whole replaces the one the output may name."""
    try:
        here, out = os.stat(path), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no such file yet, or an output that is no file (a test's)
        return console
    return err if (here.st_dev, here.st_ino) == (out.st_dev, out.st_ino) else console


def write_file(path: Path, data: bytes | str) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` whole or not at all (``output_file``)."""
    with output_file(path) as tmp:
        tmp.write_bytes(data.encode() if isinstance(data, str) else data)


def bars_off(quiet: bool) -> bool:
    """Whether a progress bar stays hidden: with ``--json``, and wherever stderr is no terminal, where a bar that
    vanishes when done still left an empty line behind (so each error read as two lines)."""
    return quiet or not err.is_terminal


F = TypeVar("F", bound=Callable[..., Any])


def error_line(message: str, as_json: bool = False) -> None:
    """Print one error on stderr: ``error: ...`` for a person, ``{"error": ...}`` when ``--json`` was asked.

    The message prints as written: square brackets in it (``pip install 'agon[png]'``) are text, not markup. It is
    one line whatever it quotes: a control character in it (a file name given as $'a\\nb', an escape) is shown
    escaped, as Python writes it, so it neither breaks the line nor reaches the terminal (JSON escapes its own)."""
    if as_json:
        typer.echo(dumps({"error": message}), err=True)
    else:
        from rich.markup import escape

        message = "".join(repr(ch)[1:-1] if unicodedata.category(ch) == "Cc" else ch for ch in message)
        err.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True, markup=True)


INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (128 + SIGINT, as shells report it; Typer returns it)."""


def interrupted(said: str) -> NoReturn:
    """End a command stopped by Ctrl-C with its own line, ``said`` (what it kept, how to go on), instead of the
    general one ``cli.app`` prints for it: the same status, 130, so that a script tells it from a normal end."""
    error_line(said)
    raise SystemExit(INTERRUPTED)  # not typer.Exit: its status would have the general line printed too


def friendly(fn: F) -> F:
    """Turn the errors a person can act on into one line on stderr and exit status 1 (a JSON object when the
    command was given ``--json``)."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("as_json"))
        done = False
        try:
            result = fn(*args, **kwargs)
            done = True
            return result
        except typer.Exit as e:
            done = e.exit_code == 0
            raise
        except (ServiceError, StoreError) as e:
            error_line(with_db_quoted(str(e)), as_json)  # the service's hints do not know this command's --db
        except SQLAlchemyError as e:  # escaped the store's own wording: worded as the store words it
            error_line(str(store_trouble(e, db_url())), as_json)
        except Fail as e:
            error_line(str(e), as_json)
            raise typer.Exit(2 if isinstance(e, UsageFail) else 1) from None
        except BrokenPipeError:
            raise  # the reader of the output has gone (agon log GAME | head): not an error, ended quietly above
        except OSError as e:
            error_line(f"{e.strerror or e}: {e.filename or ''}".rstrip(": ") + _os_advice(e), as_json)
        finally:
            if not done:
                unmake_store()
            _made.clear()  # a store a command that worked made is kept
        raise typer.Exit(1)

    return wrapper  # type: ignore[return-value]


def _os_advice(e: OSError) -> str:
    """What to do about a file the system refused (a path given to write or read), for the common causes."""
    import errno

    if e.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "; give a path you may write to (or read from), or change its permissions"
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return "; free some space there, or give a path on another disk"
    if e.errno == errno.ENOENT:
        return "; check the path"
    return ""


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
    width = fit_width()
    if width is not None:  # folded to the terminal (a line that fits, most of them, costs one length)
        from agon.cli.render import fold

        lines = ((fold(line, width, _hints), style) for line, style in lines)
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
            console.print(text, fold=False)  # folded above already
            text, n = Text(), 0
    if n:
        console.print(text, fold=False)


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, default=str)

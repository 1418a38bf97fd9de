"""The store: games, immutable event nodes, branch heads and the head history, in SQL (sqlmodel tables).

- ``event`` rows are never updated or deleted. A node's id is its chain hash (events.envelope), unique per game.
- ``branch`` rows name a head; a head moves only by compare-and-swap on the head the caller read, so two writers
  that both read the same head can never both append: one commits, the other gets ``Conflict`` and its events
  are rolled back with it.
- ``head_move`` is append-only: every act, undo, redo, branch and switch is recorded, so undo is itself undoable.

SQLite (the default, a file) runs in WAL mode and opens write transactions with ``BEGIN IMMEDIATE`` so a second
writer waits for the first instead of failing on a stale snapshot. PostgreSQL is used through any
``postgresql+psycopg://`` URL.
"""

from __future__ import annotations

import re
import select
import shlex
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Field, SQLModel

from agon.events import card_sets as card_sets_mod
from agon.events import pg_arrays
from agon.events import summary as summary_mod
from agon.events.analysis_cache import ANALYSIS
from agon.events.envelope import Envelope, stored_payload
from agon.events.hints import Hinted
from agon.events.seats import POSITION_KEYS, SEATS
from agon.events.snapshots import SNAPSHOT


class GameRow(SQLModel, table=True):
    __tablename__ = "game"
    # a ruleset's games newest or oldest first ('agon stats', 'agon games RULESET') read in this index's order, not
    # sorted; a store made before it gains it as it is opened where it may be written (``Store._add_indexes``)
    __table_args__ = (sa.Index("ix_game_listing", "ruleset", "created_at", "id"),)
    id: str = Field(primary_key=True)
    ruleset: str = Field(index=True)
    title: str = ""
    players: str = ""  # comma-separated names, for listings without decoding the first event
    root_id: str = ""  # the game's first event
    created_at: datetime
    current_branch: str = "main"


class EventRow(SQLModel, table=True):
    __tablename__ = "event"
    # On SQLite the rows are clustered by (game_id, id): reading a game is one range scan.
    __table_args__ = ({"sqlite_with_rowid": False},)
    # No foreign key to ``game``: an event row is written only by this store, in the statement or transaction that
    # creates its game or under a compare-and-swap on one of its game's branches, and no row is ever deleted, so
    # the key could never fail; it cost a lookup of the game per event written (on PostgreSQL a trigger per row,
    # more than half the server's time inserting a new game's events). Stores made before keep theirs: harmless.
    game_id: str = Field(primary_key=True)
    id: str = Field(primary_key=True)  # the chain hash
    parent_id: str | None = None
    depth: int
    tag: str
    schema_version: int
    actor: str
    payload: bytes
    recorded_at: datetime


class BranchRow(SQLModel, table=True):
    __tablename__ = "branch"
    __table_args__ = (sa.UniqueConstraint("game_id", "name"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    name: str
    head_id: str
    luck: int = 0
    parent_branch: str | None = None
    fork_id: str | None = None
    created_at: datetime


class HeadMoveRow(SQLModel, table=True):
    __tablename__ = "head_move"
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    branch: str
    from_id: str | None
    to_id: str
    reason: str  # create, act, reenter, undo, redo, branch, switch, import
    at: datetime


class NoteRow(SQLModel, table=True):
    """A comment on an event node: append-only and outside the hash chain (a note never changes an event)."""

    __tablename__ = "note"
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    event_id: str
    text: str
    glyph: str = ""
    at: datetime


class SchemaRow(SQLModel, table=True):
    """The store's layout version, so an older store is brought up to date when it is opened."""

    __tablename__ = "agon_schema"
    version: int = Field(primary_key=True)


SCHEMA_VERSION = 3
"""1: the first layout. 2: ``game.root_id`` names each game's first event. 3: card sets stored once, by hash, in
``card_set`` (events/card_sets.py); a new game's first event names its set. An older agon must not open such a
store (it would read those games without their cards), hence a layout of its own."""

EVENT = EventRow.__table__
GAME = GameRow.__table__
LATER_INDEXES = [ix for ix in GAME.indexes if ix.name == "ix_game_listing"]
"""Indexes added after the tables they index (``Store._add_indexes``): each game's ruleset, creation time and id."""
BRANCH = BranchRow.__table__
HEAD_MOVE = HeadMoveRow.__table__
UNDO_RUN = ("undo", "redo", "switch", "reenter")
"""The head moves a run of undos and redos is made of (and that it goes through: a switch, undone moves entered
again as they were); any other move (an entry, the branch's making, an import) ends what a redo could bring back."""
NOTE = NoteRow.__table__
SCHEMA = SchemaRow.__table__
CARD_SET = card_sets_mod.CARD_SET
DERIVED = [ANALYSIS, summary_mod.SUMMARY, SNAPSHOT]
"""Derived tables (caches, never the truth): created when missing on every open, so an older store gains them
without a layout upgrade. Analysis results live in events/analysis_cache.py, game summaries in events/summary.py,
state snapshots in events/snapshots.py."""
SIDE = [SEATS, POSITION_KEYS]
"""Tables beside the events, never in the hash chain, created when missing on every open: seat tokens
(events/seats.py, only their hashes) and the games' position keys (events/seats.py ``position_key``)."""


EVENT_INSERT = "INSERT INTO event (game_id, id, parent_id, depth, tag, schema_version, actor, payload, recorded_at)"
UNNEST = ("unnest(%b::varchar[], %b::varchar[], %b::int[], %b::varchar[], %b::int[], %b::varchar[], %b::bytea[],"
          " %b::timestamp[]) AS u")
"""On PostgreSQL, events go as one array per column, sent in binary (``%b``): psycopg's text form of ~60 events'
arrays took longer to build than the server took to insert them."""


AMBIGUOUS_NAMED = 5
"""How many games an ambiguous game id prefix names (in id order), '...' after them when there are more."""


class StoreError(Hinted):
    """A store problem a person can act on (a bad URL, an unknown game or branch); a step it names ('agon games')
    is kept apart (events/hints.py), for the server to name its own."""


class Damaged(StoreError):
    """A game whose stored events do not form an unbroken, unedited chain (a missing event, a head pointing to
    nothing, an event changed after it was recorded). Nothing is read from such a line; 'agon verify' lists all."""


def chain_problem(envs: Sequence[Envelope], head_id: str, missing_parent: str | None = None) -> str | None:
    """What is wrong with the chain ``envs`` read back from ``head_id`` (first event first), or None.

    ``missing_parent`` is the parent id the walk from the head stopped at, when the store lacks that event."""
    if not envs:
        return f"its head points to an event that is not stored (id {head_id[:12]})"
    if missing_parent is not None:
        return (f"event #{envs[0].depth} follows an event that is not stored (id {missing_parent[:12]}): the line"
                " before it is lost")
    for i, env in enumerate(envs):
        if env.depth != i:
            return f"event #{env.depth} is stored at position {i} of its line: the chain is broken"
        if env.expected_id() != env.id:
            return (f"event #{env.depth} ({env.tag}) does not match its hash: it was changed after it was"
                    " recorded")
    return None


class Conflict(StoreError):
    """Another writer moved the branch head first."""


_MOVED = " while this {{asking}} ran (someone else {what}); nothing was recorded: {{anew}}"
"""How a writer lost a race, and what it does next (``asking``: a command, or a request to the server; ``anew``:
look at the options again, as they now stand, and choose again)."""
_MOVED_ANY = _MOVED.format(what="recorded, took back or redid an event first")
"""A race lost to any move of the head: another's decision, undo or redo (the store does not read which)."""
_MOVED_BACK = (" while this {{asking}} ran (someone else recorded, took back or redid an event first); nothing was"
               " {done}: look at the game again and retry")
"""The same race lost by an undo or a redo (``move_head``), which records nothing and chooses nothing: what it
would have done was not done, and the person looks at the game as it now stands."""


class Unknown(StoreError):
    """No game (or branch) of that name in this store."""


class Taken(StoreError):
    """A name the game already has (a branch's): nothing was written; another name will do."""


class GameIdTaken(StoreError):
    """``create_game`` was given the id of a game already stored (a random id met an old one): nothing was
    written; the caller draws another id."""


class Unavailable(StoreError):
    """The database could not do what was asked, for a reason outside any game: unreachable, locked by another
    program, full, read-only, not a database, a connection ended by its server. Every driver error of the store
    becomes one (``unavailable``), so each face says it in one sentence (the server answers 503)."""


BUSY_SECONDS = 10
"""How long a SQLite writer waits for another program's write lock before it gives up (``busy_timeout``)."""

CARD_SETS_KEPT = 64
CARD_SET_BYTES_KEPT = 8 << 20
"""A store keeps the card sets it read or wrote in memory, the most recently added ones up to these many sets and
bytes (a bundled set is 4-18 KB): a server fed many sets of its players' own would otherwise hold every one. A set let
go of is read again, by its hash, when a game needs it."""

READ_ONLY_SECONDS = 300
"""How long a store that refused a write of derived data is taken to be read-only before the next such write is
tried again (``Store.read_only``): one refused write per 5 minutes on a store that may only be read, and a store made
writable under a running server (a user granted writing) keeps summaries and snapshots again within 5 minutes, or at
its next recorded write."""


def shown_url(url: str) -> str:
    """The store as a message names it: a SQLite file's path, or the URL without its password."""
    if url.startswith("sqlite"):
        try:
            return (sa.engine.make_url(url).database or url).removeprefix("file:").split("?")[0]
        except Exception:  # noqa: BLE001 - not a URL: named as it was given
            return url
    return without_password(url)


def without_password(url: str, shown: str | None = "***") -> str:
    """``url`` as it was given (a URL SQLAlchemy cannot read too: a port that is no number), its password hidden:
    all of it, up to the host's '@' (an '@' left unencoded in a password is no end of it). ``shown``: what stands
    for it (None: nothing, the user alone, as a command to copy names the store: the driver then reads the password
    from ``PGPASSWORD`` or ``~/.pgpass``)."""
    return re.sub(r"^([^:/?#]+://[^:/?#@]*):[^/?#]*@", r"\1@" if shown is None else rf"\1:{shown}@", url)


def _bad_url(url: str, e: Exception) -> str:
    """Why a database URL cannot be used, in words: a port that is no number is said so (the URL parser's own
    words are about Python's int()), anything else as the driver or parser says it."""
    if not (isinstance(e, ValueError) and "int()" in str(e)):
        return str(e)
    host = re.split(r"[/?#]", url.partition("://")[2])[0].rpartition("@")[2].rpartition("]")[2]  # after an IPv6 [..]
    port = host.rpartition(":")[2] if ":" in host else ""
    return ((f"its port {port!r} is not a number" if port and not port.isdigit() else "it is not a URL agon can read")
            + "; write it as postgresql+psycopg://user@host:port/dbname (the port may be left out)")


SQLITE_OPTIONS = ("SQLite takes mode=ro (only read), mode=rw or rwc, immutable=1, cache=shared or private, nolock=1,"
                  " vfs=NAME and timeout=SECONDS")
"""The options a SQLite store's URL may have, as the advice to correct one that SQLite refuses or would ignore."""

PG_OPTIONS = ("the options after '?' are libpq's (sslmode=require, connect_timeout=SECONDS, application_name=NAME),"
              " and options=-cNAME%3DVALUE sets one of the server's")
"""What a PostgreSQL URL's options are, as the advice to correct one that libpq or the server refuses."""

_SQLITE_URI_KEYS = {"mode", "cache", "immutable", "nolock", "vfs", "psow", "modeof"}
"""SQLite's own options of a file's URI (``_sqlite_uri`` passes them on)."""

_SQLITE_KEYS = _SQLITE_URI_KEYS | {"uri", "timeout", "isolation_level", "detect_types", "check_same_thread",
                                   "cached_statements"}
"""The options of a SQLite URL that are used: SQLite's own and those of Python's driver (SQLAlchemy passes them on).
Any other would be dropped with a warning on stderr (or passed to SQLite, which ignores it)."""


def sqlite_option_problem(url: str) -> str | None:
    """Why the options of a SQLite ``url`` (``club.db?mode=ro``) cannot be used, as the sentence refusing it, or
    None: one neither SQLite nor its driver takes (a typo: it would be ignored, and a store opened otherwise than
    meant), a ``timeout`` that is no number, a ``mode`` or ``cache`` SQLite has not. Said before the file is looked
    at, so that a reading command does not answer 'no store there yet' first; a ``vfs`` SQLite lacks is said as it
    opens the file (``unavailable``). A URL that is no SQLite one is judged elsewhere."""
    if not url.startswith("sqlite:///") or "?" not in url:
        return None
    try:
        query = sa.engine.make_url(url).query
    except Exception:  # noqa: BLE001 - not a URL: opening it says what is wrong
        return None
    unknown = sorted(key for key in query if key not in _SQLITE_KEYS)
    timeout = query.get("timeout")
    if unknown:
        what = f"its option {unknown[0]!r} is not one SQLite takes" if len(unknown) == 1 else (
            f"its options {', '.join(repr(k) for k in unknown)} are not ones SQLite takes")
    elif isinstance(timeout, str) and not re.fullmatch(r"\d+(\.\d*)?|\.\d+", timeout):
        what = f"its timeout {timeout!r} is not a number of seconds"
    elif (mode := query.get("mode")) is not None and mode not in ("ro", "rw", "rwc", "memory"):
        what = f"its mode {mode!r} is not one SQLite has"
    elif (cache := query.get("cache")) is not None and cache not in ("shared", "private"):
        what = f"its cache {cache!r} is not one SQLite has"
    else:
        return None
    return f"cannot use database {shown_url(url)}: {what}; correct the URL: {SQLITE_OPTIONS}"


def _no_database(url: str) -> str | None:
    """Why a PostgreSQL ``url`` naming no database is refused (PostgreSQL would open the one named as the user,
    ``postgres``, its administrator's, and agon would add its tables there), or None: a URL that names one, in its
    path or as ``?dbname=``, or a shell whose ``PGDATABASE`` does."""
    import os

    if not url.startswith("postgresql"):
        return None
    try:
        u = sa.engine.make_url(url)
    except Exception:  # noqa: BLE001 - opening it says what is wrong with it
        return None
    if u.database or u.query.get("dbname") or os.environ.get("PGDATABASE"):
        return None
    user = f" ({u.username})" if u.username else ""
    return (f"cannot use database {shown_url(url)}: it names no database, so PostgreSQL would open the one named as"
            f" its user{user}; give the database's name after the host: postgresql+psycopg://user@host/dbname"
            " (createdb makes one)")


def missing_file(url: str) -> str | None:
    """The path of the SQLite file ``url`` names when no file is there yet, which opening the store would create
    (with its ``-wal`` and ``-shm`` files): a command that only reads asks first, and says so instead. None where a
    file is there, where opening creates none (``?mode=ro``: SQLite says there is no such file), or for PostgreSQL
    (a database agon never creates)."""
    import os

    if not url.startswith("sqlite:///") or _sqlite_read_only(url)[1]:
        return None
    path = shown_url(url)
    return None if os.path.exists(path) else path


_PG_EMPTY = sa.text(
    "SELECT current_schema() IS NOT NULL AND has_schema_privilege(current_schema(), 'CREATE')"
    " AND current_setting('transaction_read_only') = 'off' AND NOT pg_is_in_recovery()"
    " AND to_regclass('agon_schema') IS NULL AND to_regclass('game') IS NULL AND to_regclass('event') IS NULL"
    " AND to_regclass('branch') IS NULL")
"""Whether opening a store would make agon's tables where there are none: a schema selected, which this user may
create in on a server that records, holding no table of the names agon's store is known by. Where opening would
refuse the place in words of its own (no schema, another program's table of agon's name, a read-only server or
user), the answer is no, and those words are said."""


class NoStoreYet(StoreError):
    """A PostgreSQL place where no agon store is yet, opened by a command that only reads (``Store``'s ``make``)."""


def _cause(e: BaseException) -> tuple[str, str]:
    """(the driver's code for ``e``, its first line): an SQLite error name or a PostgreSQL SQLSTATE, or ''."""
    orig = getattr(e, "orig", None) or e
    code = getattr(orig, "sqlite_errorname", None) or getattr(orig, "sqlstate", None) or ""
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    return str(code), text.removeprefix("connection failed: ")


READ_ONLY_WHY = "a read-only file, folder or mount, or a store opened read-only"
_READ_ONLY = (f"is read-only ({READ_ONLY_WHY})", "; nothing was recorded: {read_only}")
"""What a store that may only be read is, and what a person can do instead of recording (a step of its own,
events/hints.py: never a command that records, which the store would refuse again)."""


def read_only_refusal(url: str, game: str = "", why: str = READ_ONLY_WHY) -> Unavailable:
    """The refusal of anything that would record in the store at ``url``, known to be read-only: the sentence a
    refused write gets (``unavailable``), said before the request is read or checked at all. ``game``: the game
    the request names, as it names it (its steps name ``GAME`` for a request that names none: a new game, an
    import); ``why``: what makes the store read-only (``Store.read_only_why``)."""
    then = _READ_ONLY[1]
    return Unavailable("", "{store} is read-only (" + why + ")" + then, store=shown_url(url), cause="",
                       game=game or "GAME")


def unavailable(e: BaseException, url: str, *, opening: bool = False, writing: bool = False) -> Unavailable:
    """The one sentence a person reads when the database at ``url`` failed with ``e`` (a driver error): what is
    wrong in words, and whether anything was recorded. ``opening``: the store was being opened (by the command
    line: the sentence names the store); ``writing``: a write had been sent, so a connection lost before its answer
    leaves it unknown whether it was stored.

    Where the store is and the driver's own words are steps (``{store}``, ``{cause}``: events/hints.py), so that
    the server tells a player what happened without the database's address."""
    code, text = _cause(e)
    low = text.lower()
    where = shown_url(url)
    nothing = "; nothing was recorded: retry the {asking}"
    cantopen = code.startswith("SQLITE_CANTOPEN") or "unable to open database file" in low
    if opening and re.match(r"no such (access mode|cache mode|vfs):", low):  # an option value SQLite refused
        return Unavailable(f"cannot open database {where}: {text}; correct the URL: {SQLITE_OPTIONS}")
    notadb = code.startswith("SQLITE_NOTADB") or "file is not a database" in low
    if cantopen and opening:
        return Unavailable(f"cannot open database {where}{_why_not_open(url)}")
    if notadb and opening:
        return Unavailable(f"cannot open database {where}: it is not a SQLite database (another kind of file);"
                           " give the path of agon's store, or of a new file")
    if cantopen:  # once open (a server's new connection): its file removed, moved or out of reach since
        what, then = "could not be opened again: its file was removed, moved or cannot be reached{cause}", nothing
    elif notadb:  # once open: its file replaced by another
        what, then = "is no SQLite database any more: its file was replaced{cause}", "; restore it from a copy"
    elif code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "database is locked" in low:
        seconds = "1 second" if BUSY_SECONDS == 1 else f"{BUSY_SECONDS} seconds"
        what = f"is busy: another program has held it locked for writing for over {seconds}"
        then = nothing + " when it is done"
    elif code.startswith("SQLITE_FULL") or "database or disk is full" in low or code == "53100":
        what, then = "is full: its disk has no room left", "; nothing was recorded: free some space and retry"
    elif code.startswith("SQLITE_READONLY") or "readonly database" in low or code == "25006":
        what, then = _READ_ONLY
    elif code == "42501":  # insufficient_privilege: a user that may only read (SELECT)
        what = "is read-only for this database user{cause}"
        then = "; nothing was recorded: connect as a user who may write to it"
    elif code.startswith("SQLITE_CORRUPT") or "malformed" in low:
        what, then = "is damaged: SQLite finds its file malformed", "; restore it from a copy"
    elif code.startswith("SQLITE_IOERR") or "disk i/o error" in low:
        what, then = "could not be read or written: the disk failed{cause}", nothing
    elif code == "57014":  # query_canceled: a statement_timeout, or cancelled by an administrator
        what, then = "cancelled a statement that ran too long (a statement timeout){cause}", nothing
    elif code.startswith("57P"):  # the server shut down, or ended this session (pg_terminate_backend)
        what, then = "ended the connection{cause}", nothing
    elif code == "3F000":  # invalid_schema_name: the search_path of the URL's options names no schema there
        what = "has no schema to keep agon's tables in: the URL's search_path names none that exists{cause}"
        then = "; nothing was recorded: create the schema there (CREATE SCHEMA), or correct the URL"
    elif code == "53300":
        what, then = "has no connection free{cause}", "; retry the {asking} later"
    elif code.startswith("28") or code == "3D000" or (not code and opening) or isinstance(e, sa.exc.TimeoutError):
        if opening and re.search(r"invalid connection option|invalid \w+ value|bad value for|unrecognized"
                                 r" configuration parameter|invalid value for parameter", low):
            # an option of the URL libpq or the server refuses: the same every time, so no server check will do
            return Unavailable(f"cannot connect to the store {where}: {text}", f"; correct the URL: {PG_OPTIONS}")
        missing = re.search(r'\b(database|role) "([^"]+)" does not exist', text)
        if opening and missing:  # a new club's server: agon makes its tables, not the database or the user
            return Unavailable(f"cannot connect to the store {where}: {text}",
                               f"; {_make_it(url, *missing.groups())}, or correct the URL")
        if opening:
            return Unavailable(f"cannot connect to the store {where}: {text}", "; check its server and the URL")
        what, then = "does not answer{cause}", "; nothing was recorded: retry the {asking} later"
    elif not code and low.startswith(("connection to server", "failed to resolve host")):
        # no new connection could be made (the server down, or its host unreachable): nothing was sent on one
        what, then = "does not answer{cause}", "; nothing was recorded: retry the {asking} later"
    elif isinstance(e, sa.exc.DBAPIError) and (e.connection_invalidated or code.startswith("08") or not code):
        what = "lost the connection{cause}"
        then = ("; it may have been recorded before it broke: look at the game before you retry" if writing
                else "; retry the {asking}")
    else:
        what, then = "failed{cause}", nothing
    if opening:
        return Unavailable(f"cannot open database {where}: it {what.format(cause=f' ({text})')}",
                           then.replace("{asking}", "command"))
    return Unavailable("", "{store} " + what + then, store=where, cause=text, game="GAME")  # no game known here


def _make_it(url: str, kind: str, name: str) -> str:
    """How to make the PostgreSQL database or user (``kind``: 'database' or 'role') named ``name`` that the server
    at ``url`` does not have: the command PostgreSQL ships for it, run as its superuser, on the URL's server (a
    database owned by the URL's user)."""
    u = sa.engine.make_url(url)
    where = "".join(f" -{flag} {shlex.quote(str(v))}" for flag, v in (("h", u.host), ("p", u.port)) if v)
    if kind == "role":
        return f"make the user once, as PostgreSQL's superuser: `createuser{where} -U postgres {shlex.quote(name)}`"
    owner = f" -O {shlex.quote(u.username)}" if u.username and u.username != "postgres" else ""
    return (f"make the database once, as PostgreSQL's superuser (agon makes its tables in it):"
            f" `createdb{where} -U postgres{owner} {shlex.quote(name)}`")


def psycopg_lost() -> tuple[type[Exception], ...]:
    """psycopg's errors of the database rather than of a statement (a connection lost, a statement cancelled, a
    server shut down), as a raw connection raises them, unwrapped by SQLAlchemy."""
    import psycopg

    return psycopg.OperationalError, psycopg.InterfaceError


def _why_not_open(url: str) -> str:
    """Why SQLite could not open the file of ``url`` (it names no reason): a missing file it was told only to read,
    a read-only folder, when it is one."""
    import os

    path = shown_url(url)
    if not os.path.exists(path):
        return ": there is no such file (a store opened read-only is never created)"
    folder = os.path.dirname(os.path.abspath(path))
    try:
        readonly = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return ""
    if readonly:
        return (f": {folder} is on a read-only file system, and SQLite writes beside the file even to read it"
                " (copy the store to a folder agon may write to)")
    return ""


@dataclass(frozen=True)
class GameInfo:
    id: str
    ruleset: str
    title: str
    players: tuple[str, ...]
    created_at: datetime
    current_branch: str


@dataclass(frozen=True)
class BranchInfo:
    name: str
    head_id: str
    luck: int
    parent_branch: str | None
    fork_id: str | None
    created_at: datetime


@dataclass(frozen=True)
class NewBranch:
    """A branch to create: its name, head, luck and the branch it came from."""

    name: str
    head_id: str
    luck: int
    parent_branch: str | None


@dataclass(frozen=True)
class HeadMove:
    branch: str
    from_id: str | None
    to_id: str
    reason: str
    at: datetime


@dataclass(frozen=True)
class NoteInfo:
    event_id: str
    text: str
    glyph: str
    at: datetime


def now() -> datetime:
    return datetime.now(UTC)


def _sqlite_setup(engine: Engine, read_only: bool) -> None:
    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):  # pragma: no cover - exercised by every SQLite test
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        if not read_only:  # switching a file to WAL writes it: a read-only store is read as its journal mode is
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={BUSY_SECONDS * 1000}")
        cur.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(conn):  # pragma: no cover
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.info.get("write") else "BEGIN")


def _replace_ended(dbapi_conn, _record, _proxy) -> None:
    """A pooled PostgreSQL connection that its server ended while it lay idle in the pool (a restart,
    ``pg_terminate_backend``) is replaced as it is taken out, before any statement is sent on it: the server said
    goodbye and closed it, so its socket has something to read although no statement runs. One ``poll`` of the
    socket, no round trip (``pool_pre_ping`` would cost one per read); without it the next read or write on each
    pool failed (a 503, a command's error), and SQLAlchemy then let go of the rest of that pool. A connection lost
    while a statement runs on it still fails that statement: a write is not sent twice (whether it was stored is
    unknown; the compare-and-swap would refuse the second anyway)."""
    try:
        fd = dbapi_conn.fileno()
    except Exception:  # noqa: BLE001 - closed already
        raise sa.exc.DisconnectionError("the connection is closed") from None
    poll = select.poll()
    poll.register(fd, select.POLLIN)
    if poll.poll(0):
        raise sa.exc.DisconnectionError("the server ended the connection")


def _sqlite_uri(url: str) -> str:
    """``url``, a SQLite file named with SQLite's own options (``?mode=ro``), as the URI that passes them on: the
    driver ignores them otherwise (SQLAlchemy warned on stderr, and a read-only store was opened for writing)."""
    if not url.startswith("sqlite:///") or "?" not in url:
        return url
    path, _, query = url.removeprefix("sqlite:///").partition("?")
    keys = {part.partition("=")[0] for part in query.split("&")}
    if "uri" in keys or not keys & _SQLITE_URI_KEYS:
        return url
    return f"sqlite:///file:{path}?{query}&uri=true"


def _sqlite_read_only(url: str) -> tuple[str, bool]:
    """(the URL to open, whether the store is read-only) for a SQLite ``url``: read-only by SQLite's own options
    (``?mode=ro``, ``immutable=1``), or a file agon may not write (a read-only file or mount), which is then opened
    with ``mode=ro`` (else SQLite would try to switch its journal, and fail) and, when its folder may not be written
    either and no ``-wal`` file lies beside it, ``immutable=1``: SQLite cannot make its shared-memory file there,
    and without a ``-wal`` file every commit is in the file itself. A few file checks, no query."""
    import os

    if not url.startswith("sqlite:///"):
        return url, False
    try:
        query = sa.engine.make_url(url).query
    except Exception:  # noqa: BLE001 - not a URL: opening it says what is wrong
        return url, False
    if query.get("mode") == "ro" or query.get("immutable") == "1":
        return url, True
    path = shown_url(url)
    if not os.path.isfile(path) or os.access(path, os.W_OK):
        return url, False
    extra = "mode=ro"
    if not os.access(os.path.dirname(os.path.abspath(path)), os.W_OK) and not os.path.exists(f"{path}-wal"):
        extra += "&immutable=1"
    return _sqlite_uri(f"{url}{'&' if '?' in url else '?'}{extra}"), True


def read_only_error(e: BaseException | None) -> bool:
    """Whether the driver error ``e`` says the store may not be written: a read-only SQLite file or connection,
    a PostgreSQL read-only transaction (25006: a standby, ``default_transaction_read_only``) or a user without
    the privilege (42501: a role that may only SELECT)."""
    if e is None:
        return False
    code, text = _cause(e)
    return code.startswith("SQLITE_READONLY") or code in ("25006", "42501") or "readonly database" in text.lower()


_MAY_WRITE = (sa.func.pg_is_in_recovery(), sa.func.current_setting("transaction_read_only"),
              sa.func.has_table_privilege(EVENT.name, "INSERT"), sa.func.has_table_privilege(BRANCH.name, "UPDATE"))
"""What a PostgreSQL session is asked, beside the layout it reads as the store opens, to know whether it may record:
a hot standby (in recovery) and a read-only transaction (``default_transaction_read_only``: of the session, its user
or its database) refuse every write; a user without INSERT on events or UPDATE on branches, every recording."""


_AGON_COLUMNS = {"game": {"id", "ruleset", "players"}, "event": {"game_id", "id", "parent_id", "depth", "payload"},
                 "branch": {"game_id", "name", "head_id"}}
"""Columns every layout of agon's store gave these tables: a table of one of these names without them is another
program's (``Store._foreign``)."""


def _foreign_table(columns: Mapping[str, set[str]]) -> tuple[str, list[str]] | None:
    """The first table of agon's names in ``columns`` (each table's columns) that lacks a column every layout of
    agon's store gave it, with the columns it lacks; None when there is none."""
    for table, needed in _AGON_COLUMNS.items():
        missing = sorted(needed - columns[table]) if table in columns else []
        if missing:
            return table, missing
    return None

_PG_COLUMNS = sa.text(
    "SELECT c.relname, a.attname FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0"
    " AND NOT a.attisdropped WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())"
    " AND c.relname = ANY(:names)"
    " AND c.relkind IN ('r', 'p', 'v', 'm', 'f')")


def storable(text: str) -> bool:
    """Whether a row could hold ``text``: not when it has a lone surrogate (what Python makes of the bytes of a
    command-line argument that are not UTF-8, which no driver can encode) or a NUL (which PostgreSQL's text
    refuses). Every name stored was checked to be plain text (core/names.py), so a name that is not storable names
    nothing stored: a lookup answers that, without asking the database."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _aware(t: datetime) -> datetime:
    """SQLite hands back naive datetimes; every time agon stores is UTC."""
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def _row_env(r) -> Envelope:
    return Envelope(
        r.id, r.parent_id, r.depth, r.tag, r.schema_version, r.actor, stored_payload(r.payload), _aware(r.recorded_at)
    )


class Store:
    """All reads and writes of games. One instance per database URL."""

    def __init__(self, url: str, *, create: bool = True, make: bool = True) -> None:
        """``create``: bring the tables up to this agon's layout (making those missing). ``make`` False: a command
        that only reads, which on PostgreSQL refuses a place holding no agon store yet (``NoStoreYet``) instead of
        making its dozen tables there, empty (a URL typed without its search_path leads to the database's public
        schema): one query more, on the connection the store then reads with. A SQLite path is its face's to check
        (the file is there or not) before it opens the store."""
        self.url = url = _sqlite_uri(url)
        unnamed = _no_database(url) or sqlite_option_problem(url)
        if unnamed:
            raise StoreError(unnamed)
        url, self._read_only = _sqlite_read_only(url)
        self._refused_at: float | None = None
        """When (``time.monotonic``) a write of derived data was refused, on a store not known as read-only as it
        opened (``read_only``)."""
        self.read_only_why = READ_ONLY_WHY
        """What makes the store read-only, as a refusal says it (``read_only_refusal``)."""
        self._asked_at: float | None = None
        """When (``time.monotonic``) a PostgreSQL session last answered that it may not record (``_MAY_WRITE``): as
        the store opened, or when asked again ``READ_ONLY_SECONDS`` later (``_ask_again``)."""
        self.on_unkept: Callable[[str], None] | None = None
        """Called with what was computed and not kept (``keep``), each time: a face says it, once."""
        try:
            # PostgreSQL speaks UTF-8 with this store whatever the server's default: events' text columns go
            # as binary arrays built here (events/pg_arrays.py), encoded as UTF-8
            self.engine = sa.create_engine(url, future=True, **({} if url.startswith("sqlite") else
                                                                 {"connect_args": {"client_encoding": "UTF8"}}))
        except Exception as e:  # noqa: BLE001 - any driver/URL problem becomes one clear line
            raise StoreError(f"cannot use database {shown_url(url)}: {_bad_url(url, e)}") from None
        self.sqlite = self.engine.dialect.name == "sqlite"
        # On PostgreSQL, reads and the one-statement writes (appending events, moving a head) use a pool of
        # autocommit connections: a statement is then its own transaction, with no BEGIN before it and no COMMIT
        # or ROLLBACK after it (each a round trip), and no isolation switch at every checkout. A read sees what it
        # would in a transaction: at READ COMMITTED each statement takes its own snapshot anyway.
        self._auto = self.engine if self.sqlite else sa.create_engine(
            url, future=True, isolation_level="AUTOCOMMIT", pool_reset_on_return=None,
            connect_args={"client_encoding": "UTF8"})
        self._card_sets: dict[str, bytes] = {}  # stored sets read or written (content-addressed: never stale)
        self._card_set_bytes = 0
        self._card_sets_lock = threading.Lock()
        if self.sqlite:
            _sqlite_setup(self.engine, self.read_only)
        else:
            for engine in (self.engine, self._auto):
                sa.event.listen(engine, "checkout", _replace_ended)
                sa.event.listen(engine, "connect", lambda dbapi_conn, _record: pg_arrays.register(dbapi_conn))
        if create:
            try:
                if not make and not self.sqlite:
                    with self._read() as c:
                        empty = c.execute(_PG_EMPTY).scalar() is True
                    if empty:
                        self.close()
                        raise NoStoreYet(f"no store at {shown_url(self.url)} yet")
                self._foreign()
                tables = [GAME, EVENT, BRANCH, HEAD_MOVE, NOTE, SCHEMA, CARD_SET, *DERIVED, *SIDE]
                SQLModel.metadata.create_all(self.engine, tables=tables)
                self._upgrade()
                self._add_indexes()
            except Unavailable as e:  # from _read or _write: said again as the store's opening
                if e.__cause__ is None:
                    raise
                raise self._not_opened(e.__cause__) from None
            except sa.exc.SQLAlchemyError as e:
                raise self._not_opened(e) from None

    def _not_opened(self, e: BaseException) -> StoreError:
        """Why the store could not be opened: one that may only be read and lacks tables this agon keeps (an older
        agon's store, or none yet), which it would have added, is said so; any other failure as ``unavailable``
        words it."""
        if not read_only_error(e):
            return unavailable(e, self.url, opening=True)
        return StoreError(f"cannot open database {shown_url(self.url)}: it is read-only, and lacks tables this agon"
                          " keeps (an older agon's store, or no store yet); open it once where agon may write to it"
                          " (a writable copy will do)")

    def _foreign(self) -> None:
        """Refuse a SQLite file that holds another program's tables and none of agon's, or a table of a name agon
        uses without agon's columns: its file is that program's document (a browser's history, another game's save
        with its own 'game' table), and agon would add a dozen tables to it; a device or a pipe (``--db /dev/null``),
        beside which SQLite would leave its journal. On PostgreSQL, a schema holding another program's table of a
        name agon uses (``_foreign_pg``)."""
        import os
        import sqlite3
        from urllib.parse import quote

        if not self.sqlite:
            self._foreign_pg()
            return
        path = shown_url(self.url)
        if os.path.exists(path) and not os.path.isfile(path):  # SQLite would write its journal beside it
            kind = "a folder" if os.path.isdir(path) else "a device or a pipe"
            raise StoreError(f"cannot open database {path}: it is {kind}, not a file; give the path of agon's store,"
                             " or of a new file")
        if not os.path.isfile(path) or not os.path.getsize(path):
            return
        # looked at read-only, on a connection of its own: agon's connections switch a file to WAL as they open it;
        # and as unchanging (immutable), since a read-only reader of a WAL file makes -wal and -shm files it cannot
        # take away, which a command refused after this look would leave beside the store (the tables it looks for
        # are in the file itself once a store has been closed, or made by another program)
        try:
            db = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro&immutable=1", uri=True)
            try:
                tables = [r[0] for r in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name")]
                columns = {t: {r[1] for r in db.execute(f'PRAGMA table_info("{t}")')}
                           for t in tables if t in _AGON_COLUMNS}
            finally:
                db.close()
        except sqlite3.Error:
            return  # not a database, damaged...: opening it says which
        if tables and not {"game", "event", "agon_schema"} & set(tables):
            shown = ", ".join(tables[:3]) + (f" and {len(tables) - 3} more" if len(tables) > 3 else "")
            raise StoreError(f"cannot open database {shown_url(self.url)}: it is another program's SQLite database"
                             f" (tables {shown}), not agon's store; give the path of agon's store, or of a new file")
        foreign = _foreign_table(columns)
        if foreign:  # a table of agon's name but not agon's (another game's save with its own 'game' table)
            table, missing = foreign
            raise StoreError(f"cannot open database {shown_url(self.url)}: its table {table!r} is another program's"
                             f" (it has no column {', '.join(missing)}), not agon's store; give the path of agon's"
                             " store, or of a new file")

    def _foreign_pg(self) -> None:
        """Refuse a PostgreSQL schema holding another program's table under a name agon uses (a club's website with
        its own 'event' or 'game' table): a PostgreSQL database is shared by design, agon's tables beside others,
        but agon would then list no game from it and fail at the first one it records, after adding its other
        tables. One query of the catalogue: the columns of the tables of agon's names in the session's schema."""
        with self._read() as c:
            found = c.execute(_PG_COLUMNS, {"names": list(_AGON_COLUMNS)}).all()
        columns: dict[str, set[str]] = {}
        for table, column in found:
            columns.setdefault(table, set()).add(column)
        foreign = _foreign_table(columns)
        if foreign:
            table, missing = foreign
            raise StoreError(f"cannot open database {shown_url(self.url)}: its table {table!r} is another"
                             f" program's (it has no column {', '.join(missing)}), not agon's; give agon a"
                             " database of its own (createdb), or a schema of its own (options=-csearch_path%3D"
                             "NAME in the URL)")

    def _upgrade(self) -> None:
        """Bring a store written by an older agon up to ``SCHEMA_VERSION``; events are never touched. On PostgreSQL
        the read of its layout also asks whether this session may record (``_MAY_WRITE``): no round trip more."""
        with self._read() as c:
            if self.sqlite:
                version = c.execute(sa.select(sa.func.max(SCHEMA.c.version))).scalar()
            else:
                version, *answers = c.execute(sa.select(sa.func.max(SCHEMA.c.version), *_MAY_WRITE)).one()
                self._answered(answers)
            if version == SCHEMA_VERSION:
                return
        with self._write() as c:
            version = c.execute(sa.select(sa.func.max(SCHEMA.c.version))).scalar()
            if version == SCHEMA_VERSION:
                return
            if version is not None and version > SCHEMA_VERSION:
                raise StoreError(f"the store at {self.url} was written by a newer agon (layout {version}); upgrade"
                                 " agon to use it")
            columns = {col["name"] for col in sa.inspect(c).get_columns("game")}
            if "root_id" not in columns:  # layout 1
                c.exec_driver_sql("ALTER TABLE game ADD COLUMN root_id VARCHAR NOT NULL DEFAULT ''")
                c.exec_driver_sql(
                    "UPDATE game SET root_id = (SELECT e.id FROM event e WHERE e.game_id = game.id AND e.depth = 0)"
                )
            # layout 2 -> 3: the card_set table (created above, empty). Older games keep the card set their first
            # event embeds: it is in their hash chain; both forms are read.
            c.execute(SCHEMA.delete())
            c.execute(SCHEMA.insert().values(version=SCHEMA_VERSION))

    def _add_indexes(self) -> None:
        """Add the ``LATER_INDEXES`` a store made before them lacks (``create_all`` makes a missing table with its
        indexes, never a missing index of a table there), as derived tables are added: as the store opens, without
        a layout upgrade (an older agon reads the store as well with them), and only where it may be written. One
        read when they are there. An index only speeds reading up: a store where it cannot be made now (read-only,
        a user who does not own the tables, a writer holding the store too long) is read without it, and the next
        open tries again."""
        if self.read_only:  # PostgreSQL: as the session answered when the layout was read (``_upgrade``)
            return
        with self._read() as c:
            present = set(c.exec_driver_sql(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'game'" if self.sqlite else
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'game'"
            ).scalars())
        missing = [ix for ix in LATER_INDEXES if ix.name not in present]
        if not missing:
            return
        try:
            with self._write() as c:
                for ix in missing:
                    ix.create(c, checkfirst=True)
        except Unavailable:
            pass

    def _answered(self, answers: Sequence[object]) -> None:
        """Take what a PostgreSQL session answered to ``_MAY_WRITE``: read-only as opened, or writable."""
        in_recovery, read_only, may_insert, may_update = answers
        if in_recovery or read_only == "on" or not (may_insert and may_update):
            self._read_only, self._refused_at, self._asked_at = True, None, time.monotonic()
            self.read_only_why = ("a PostgreSQL standby, in recovery" if in_recovery
                                  else "a read-only transaction: default_transaction_read_only is on"
                                  if read_only == "on" else "for this database user, who may not record games")
        elif self._asked_at is not None:  # read-only when last asked, no longer: a user granted writing
            self._read_only, self._asked_at = False, None

    def _ask_again(self) -> None:
        """A PostgreSQL store that answered it may not record is asked again once ``READ_ONLY_SECONDS`` have passed
        (one query, on a store that may only be read): a server whose user is granted writing, a standby promoted,
        records again without a restart. A store that does not answer stays as it was."""
        if self._asked_at is None or time.monotonic() - self._asked_at < READ_ONLY_SECONDS:
            return
        self._asked_at = time.monotonic()
        try:
            with self._read() as c:
                self._answered(c.execute(sa.select(*_MAY_WRITE)).one())
        except Unavailable:
            pass

    @property
    def read_only(self) -> bool:
        """Whether the store may only be read: known as the store opens (SQLite: its options, its file; PostgreSQL:
        a standby, a read-only transaction, a user that may not record, asked with the layout it reads), or learnt
        when a write of derived data is refused (PostgreSQL: a store opened without asking, ``create=False``, or
        made read-only since). Derived data is then computed and not kept (``keep``). What a refused write taught
        holds until a write succeeds (a recording command's: it is tried whatever this says) or for
        ``READ_ONLY_SECONDS``, after which the next write of derived data is tried again; what PostgreSQL answered
        is asked again after that long (``_ask_again``): a user granted writing under a running server."""
        self._ask_again()
        return self._read_only and (self._refused_at is None
                                    or time.monotonic() - self._refused_at < READ_ONLY_SECONDS)

    @property
    def read_only_as_opened(self) -> bool:
        """Whether the store was known to be read-only as it opened (SQLite: ``?mode=ro``, a file or mount agon may
        not write; PostgreSQL: what its session answered, asked again every ``READ_ONLY_SECONDS``), unlike what a
        refused write taught (``read_only``). A request that records is then refused before it is read."""
        self._ask_again()
        return self._read_only and self._refused_at is None

    def _written(self) -> None:
        """A write succeeded: a store learnt to be read-only may be written after all."""
        if self._refused_at is not None:
            self._read_only, self._refused_at = False, None

    def close(self) -> None:
        self.engine.dispose()
        self._auto.dispose()

    # -- transactions ------------------------------------------------------------------------------------------

    # Every driver error but a broken constraint (which the writers below read as a lost race or a name taken)
    # leaves these two as ``Unavailable``: one sentence for every face, whatever the database.

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        committing = False
        try:
            with self.engine.connect() as conn:
                conn.info["write"] = True
                try:
                    with conn.begin():
                        yield conn
                        committing = True
                finally:
                    conn.info["write"] = False
        except sa.exc.IntegrityError:
            raise
        except sa.exc.SQLAlchemyError as e:
            raise unavailable(e, self.url, writing=committing) from e
        self._written()

    def keep(self, what: str, write: Callable[[Connection], object]) -> bool:
        """Write derived data (``what``: "game summaries", "state snapshots", "analysis results"), never the truth,
        with ``write`` in a transaction of its own. False when the store may not be written: nothing is written,
        the caller uses what it computed, and ``on_unkept`` is told. A refusal (a read-only file, a PostgreSQL user
        who may only read) marks the store read-only: no write of derived data is tried while it is (``read_only``)."""
        if not self.read_only:
            try:
                with self._write() as c:
                    write(c)
                return True
            except Unavailable as e:
                if not read_only_error(e.__cause__):
                    raise
                self._read_only, self._refused_at = True, time.monotonic()
        if self.on_unkept is not None:
            self.on_unkept(what)
        return False

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        try:
            with self._auto.connect() as conn:
                yield conn
        except sa.exc.IntegrityError:
            raise
        except sa.exc.SQLAlchemyError as e:
            raise unavailable(e, self.url) from e

    # -- games -------------------------------------------------------------------------------------------------

    def create_game(self, game_id: str, ruleset: str, title: str, players: Sequence[str], root: Envelope,
                    then: Sequence[Envelope] = (), summaries: Sequence[summary_mod.Summary] = (),
                    card_sets: Mapping[str, bytes] | None = None, luck: int = 0) -> None:
        """A new game from its first event and ``then``, the events that followed by themselves (chance, bots),
        in one transaction with its ``summaries`` and the card set its first event names (``card_sets``: hash ->
        body, stored unless already there); its head history starts with one move, to the last event. ``luck``:
        its main line's (core.service ``NewSetup.luck``)."""
        at = root.recorded_at
        head = then[-1].id if then else root.id
        stamp = self._stamp(at)
        if not self.sqlite:
            self._create_game_pg(game_id, ruleset, title, players, root, then, summaries, card_sets, luck)
            return
        with self._write() as c:  # at the driver level: `agon demo` and bots create many games
            try:
                c.exec_driver_sql(self._sql(
                    "INSERT INTO game (id, ruleset, title, players, root_id, created_at, current_branch)"
                    " VALUES (?, ?, ?, ?, ?, ?, 'main')"), (game_id, ruleset, title, ",".join(players), root.id,
                                                            stamp))
            except sa.exc.IntegrityError:
                raise GameIdTaken(f"a game {game_id} is already stored") from None
            self._insert(c, game_id, [root, *then])
            c.exec_driver_sql(self._sql(
                "INSERT INTO branch (game_id, name, head_id, luck, created_at) VALUES (?, 'main', ?, ?, ?)"),
                (game_id, head, luck, stamp))
            c.exec_driver_sql(self._sql(
                "INSERT INTO head_move (game_id, branch, from_id, to_id, reason, at)"
                " VALUES (?, 'main', NULL, ?, 'create', ?)"), (game_id, head, stamp))
            summary_mod.write(c, summaries)
            new_sets = self._new_sets(card_sets)
            card_sets_mod.write(c, new_sets, self.sqlite)
        self._remember(new_sets)

    def _create_game_pg(self, game_id: str, ruleset: str, title: str, players: Sequence[str], root: Envelope,
                        then: Sequence[Envelope], summaries: Sequence[summary_mod.Summary],
                        card_sets: Mapping[str, bytes] | None, luck: int = 0) -> None:
        """``create_game`` on PostgreSQL: the game, its events, branch, head move, summaries and new card set in
        one statement (data-modifying WITH clauses; the foreign keys are checked at its end), sent on its own
        outside an explicit transaction: a single statement is atomic by itself, so a new game costs one round
        trip and the commit, not BEGIN, a statement per table and COMMIT. The columns go as arrays in binary
        (``%b``): psycopg's text form of ~60 events' arrays took longer to build than the server took to insert
        them. Recording a bot game is mostly this."""
        envs = [root, *then]
        head = envs[-1].id
        stamp = self._stamp(root.recorded_at)
        args: list[object] = [game_id, ruleset, title, ",".join(players), root.id, stamp, head, luck, stamp, head,
                              stamp]
        parts = [
            "g AS (INSERT INTO game (id, ruleset, title, players, root_id, created_at, current_branch)"
            " VALUES (%s, %s, %s, %s, %s, %s, 'main') RETURNING id)",
            "b AS (INSERT INTO branch (game_id, name, head_id, luck, created_at) SELECT id, 'main', %s, %s, %s FROM g)",
            "h AS (INSERT INTO head_move (game_id, branch, from_id, to_id, reason, at)"
            " SELECT id, 'main', NULL, %s, 'create', %s FROM g)",
        ]
        rows = summary_mod.rows(summaries)
        if rows:
            cols = list(rows[0])
            values = ", ".join("(" + ", ".join(["%s"] * len(cols)) + ")" for _ in rows)
            parts.append(f"s AS (INSERT INTO game_summary ({', '.join(cols)}) VALUES {values})")
            args += [r[k] for r in rows for k in cols]
        new_sets = self._new_sets(card_sets)
        if new_sets:
            parts.append("c AS (INSERT INTO card_set (hash, body) SELECT * FROM unnest(%b::varchar[], %b::bytea[])"
                         " ON CONFLICT (hash) DO NOTHING)")
            args += [list(new_sets), list(new_sets.values())]
        args += self._event_arrays(envs)
        sql = f"WITH {', '.join(parts)} {EVENT_INSERT} SELECT g.id, u.* FROM g, {UNNEST}"
        try:
            raw = self.engine.raw_connection()  # the driver's own connection, from the pool: no ORM layer per game
        except (sa.exc.SQLAlchemyError, *psycopg_lost()) as e:  # a new connection's failure comes unwrapped
            raise unavailable(e, self.url) from e
        try:
            pg = raw.driver_connection
            pg.autocommit = True
            try:
                pg.execute(sql, args)
            finally:
                if not pg.closed:
                    pg.autocommit = False
        except Exception as e:  # noqa: BLE001 - a driver error here is not wrapped by SQLAlchemy: one line
            if getattr(getattr(e, "diag", None), "constraint_name", None) == "game_pkey":
                raise GameIdTaken(f"a game {game_id} is already stored") from None
            if pg.closed or getattr(e, "sqlstate", None) is None or str(e.sqlstate).startswith(("08", "57P")):
                raw.invalidate()  # the connection broke: not back to the pool
            if isinstance(e, psycopg_lost()):
                raise unavailable(e, self.url, writing=True) from e
            if read_only_error(e):  # a user who may only read, a read-only transaction: refused, nothing written
                raise unavailable(e, self.url) from e
            raise StoreError(f"cannot record game {game_id}: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
                             ) from None
        finally:
            raw.close()
        self._written()
        self._remember(new_sets)

    def import_game(
        self, game_id: str, ruleset: str, title: str, players: Sequence[str], line: Sequence[Envelope],
        summaries: Sequence[summary_mod.Summary] = (), card_sets: Mapping[str, bytes] | None = None, luck: int = 0,
    ) -> None:
        """Write a whole line as a new game in one transaction (one batched insert), with its card set; ``luck``:
        the luck the line was drawn with (its main line's from then on)."""
        at = now()
        with self._write() as c:
            c.execute(GAME.insert().values(
                id=game_id, ruleset=ruleset, title=title, players=",".join(players), root_id=line[0].id,
                created_at=at, current_branch="main",
            ))
            self._insert(c, game_id, line)
            c.execute(BRANCH.insert().values(
                game_id=game_id, name="main", head_id=line[-1].id, luck=luck, created_at=at
            ))
            c.execute(HEAD_MOVE.insert().values(
                game_id=game_id, branch="main", from_id=None, to_id=line[-1].id, reason="import", at=at
            ))
            summary_mod.write(c, summaries)
            card_sets_mod.write(c, card_sets or {}, self.sqlite)

    def rulesets(self) -> list[str]:
        """The rulesets the stored games use."""
        with self._read() as c:
            return [r[0] for r in c.execute(sa.select(GAME.c.ruleset).distinct())]

    def all_branches(self) -> list[tuple[str, str, str, str]]:
        """Every (game id, branch, ruleset, head id) of the store, the oldest game first."""
        with self._read() as c:
            rows = c.execute(sa.select(BRANCH.c.game_id, BRANCH.c.name, GAME.c.ruleset, BRANCH.c.head_id).join(
                GAME, GAME.c.id == BRANCH.c.game_id).order_by(GAME.c.created_at, BRANCH.c.id)).all()
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def write_game(
        self, game: GameInfo, root_id: str, events: Sequence[Envelope], branches: Sequence[BranchInfo],
        moves: Sequence[HeadMove], notes: Sequence[NoteInfo], summaries: Sequence[summary_mod.Summary] = (),
        card_sets: Mapping[str, bytes] | None = None,
    ) -> None:
        """Write a whole game as it was elsewhere (an imported document) in one transaction: its events, its
        branches in their order, its head history and its notes, times and all (and its branches' summaries and
        its card set)."""
        with self._write() as c:
            c.execute(GAME.insert().values(
                id=game.id, ruleset=game.ruleset, title=game.title, players=",".join(game.players),
                root_id=root_id, created_at=game.created_at, current_branch=game.current_branch,
            ))
            self._insert(c, game.id, events)
            c.execute(BRANCH.insert(), [
                {"game_id": game.id, "name": b.name, "head_id": b.head_id, "luck": b.luck,
                 "parent_branch": b.parent_branch, "fork_id": b.fork_id, "created_at": b.created_at}
                for b in branches
            ])
            self._add_moves_notes(c, game.id, moves, notes)
            summary_mod.write(c, summaries)
            card_sets_mod.write(c, card_sets or {}, self.sqlite)

    def _new_sets(self, sets: Mapping[str, bytes] | None) -> dict[str, bytes]:
        """The sets of ``sets`` this process has not yet seen stored (a store never loses one)."""
        return {h: b for h, b in (sets or {}).items() if h not in self._card_sets}

    def _remember(self, sets: Mapping[str, bytes]) -> None:
        """Keep these stored sets in memory, letting the oldest added go beyond ``CARD_SETS_KEPT`` sets or
        ``CARD_SET_BYTES_KEPT`` bytes (the newest is kept whatever its size). Only adding takes the lock: a set
        looked up is not moved, so a lookup costs what a dict's does."""
        if not sets:
            return
        with self._card_sets_lock:
            kept = self._card_sets
            for h, body in sets.items():
                if h not in kept:
                    kept[h] = body
                    self._card_set_bytes += len(body)
            while len(kept) > 1 and (len(kept) > CARD_SETS_KEPT or self._card_set_bytes > CARD_SET_BYTES_KEPT):
                self._card_set_bytes -= len(kept.pop(next(iter(kept))))

    def card_sets(self, hashes: Sequence[str]) -> dict[str, bytes]:
        """The stored card sets of these hashes, as hash -> the bytes stored (not checked against the hash: the
        caller does); a hash that is not stored is absent."""
        kept = self._card_sets
        found = {h: body for h in hashes if (body := kept.get(h)) is not None}
        missing = [h for h in hashes if h not in found]
        if missing:
            with self._read() as c:
                read = card_sets_mod.read(c, missing)
            self._remember(read)
            found.update(read)
            found = {h: found[h] for h in hashes if h in found}
        return found

    def extend_game(
        self, game_id: str, events: Sequence[Envelope], branches: Sequence[BranchInfo],
        heads: dict[str, tuple[str, str]], moves: Sequence[HeadMove], moves_before: int,
        notes: Sequence[NoteInfo], current_branch: str | None, summaries: Sequence[summary_mod.Summary] = (),
    ) -> None:
        """Add to a stored game what a newer copy of it holds, in one transaction: new events, new branches,
        branch heads moved (``heads``: name -> (expected head, new head), compare-and-swap), head moves that
        follow the ``moves_before`` already stored, and new notes. Raises ``Conflict`` (writing nothing) when
        the game changed since it was read."""
        with self._write() as c:
            stored = c.execute(sa.select(sa.func.count()).select_from(HEAD_MOVE)
                               .where(HEAD_MOVE.c.game_id == game_id)).scalar_one()
            if stored != moves_before:
                raise Conflict(f"game {game_id} changed while it was being imported; nothing was imported: retry")
            self._insert(c, game_id, events)
            if branches:
                c.execute(BRANCH.insert(), [
                    {"game_id": game_id, "name": b.name, "head_id": b.head_id, "luck": b.luck,
                     "parent_branch": b.parent_branch, "fork_id": b.fork_id, "created_at": b.created_at}
                    for b in branches
                ])
            for name, (expected, new) in heads.items():
                res = c.execute(BRANCH.update().where(
                    BRANCH.c.game_id == game_id, BRANCH.c.name == name, BRANCH.c.head_id == expected
                ).values(head_id=new))
                if res.rowcount != 1:
                    raise Conflict(f"branch {name!r} of game {game_id} moved while it was being imported; nothing"
                                   " was imported: retry")
            if current_branch is not None:
                c.execute(GAME.update().where(GAME.c.id == game_id).values(current_branch=current_branch))
            self._add_moves_notes(c, game_id, moves, notes)
            summary_mod.write(c, summaries)

    @staticmethod
    def _add_moves_notes(c: Connection, game_id: str, moves: Sequence[HeadMove], notes: Sequence[NoteInfo]) -> None:
        if moves:
            c.execute(HEAD_MOVE.insert(), [
                {"game_id": game_id, "branch": m.branch, "from_id": m.from_id, "to_id": m.to_id,
                 "reason": m.reason, "at": m.at} for m in moves
            ])
        if notes:
            c.execute(NOTE.insert(), [
                {"game_id": game_id, "event_id": n.event_id, "text": n.text, "glyph": n.glyph, "at": n.at}
                for n in notes
            ])

    def game_by_root(self, root_id: str) -> GameInfo | None:
        """The stored game whose first event is ``root_id`` (the same game, wherever it was played)."""
        with self._read() as c:
            row = c.execute(GAME.select().where(GAME.c.root_id == root_id).order_by(GAME.c.created_at)).first()
        return self._game(row) if row is not None else None

    def games(self) -> list[GameInfo]:
        with self._read() as c:
            rows = c.execute(GAME.select().order_by(GAME.c.created_at)).all()
        return [self._game(r) for r in rows]

    @staticmethod
    def _game(r) -> GameInfo:
        return GameInfo(r.id, r.ruleset, r.title, tuple(p for p in r.players.split(",") if p),
                        _aware(r.created_at), r.current_branch)

    def game(self, ref: str) -> GameInfo:
        """A game by id or by a unique prefix of its id."""
        if not storable(ref):
            raise Unknown(f"no game {ref!r} in this store", "; {games} lists the games")
        with self._read() as c:
            row = c.execute(GAME.select().where(GAME.c.id == ref)).first()
            if row is None and ref:
                rows = c.execute(GAME.select().where(GAME.c.id.startswith(ref, autoescape=True))
                                 .order_by(GAME.c.id).limit(AMBIGUOUS_NAMED + 1)).all()
                if len(rows) == 1:
                    row = rows[0]
                elif len(rows) > 1:  # named, as an ambiguous card or tile is, so the next try can be the right one
                    named = ", ".join(r.id for r in rows[:AMBIGUOUS_NAMED])
                    more = ", ..." if len(rows) > AMBIGUOUS_NAMED else ""
                    raise StoreError(f"game id {ref!r} is ambiguous: it may be {named}{more}; type more of it",
                                     " (see {games})")
        if row is None:
            raise Unknown(f"no game {_quoted(ref)} in this store", "; {games} lists the games")
        return self._game(row)

    def game_branch(self, ref: str, branch: str | None = None) -> tuple[GameInfo, BranchInfo]:
        """A game (by id or unique prefix) and one of its branches (default: its current one): one read when
        ``ref`` is a whole id and the branch exists (what every request to a server starts with), else as ``game``
        and ``branch`` answer, errors included."""
        if not (storable(ref) and storable(branch or "")):
            game = self.game(ref)
            return game, self.branch(game.id, branch or game.current_branch)
        named = BRANCH.c.name == (sa.literal(branch) if branch else GAME.c.current_branch)
        q = sa.select(GAME, BRANCH.c.name.label("b_name"), BRANCH.c.head_id.label("b_head"),
                      BRANCH.c.luck.label("b_luck"), BRANCH.c.parent_branch.label("b_parent"),
                      BRANCH.c.fork_id.label("b_fork"), BRANCH.c.created_at.label("b_created")).join(
            BRANCH, sa.and_(BRANCH.c.game_id == GAME.c.id, named)).where(GAME.c.id == ref)
        with self._read() as c:
            r = c.execute(q).first()
        if r is None:
            game = self.game(ref)
            return game, self.branch(game.id, branch or game.current_branch)
        return self._game(r), BranchInfo(r.b_name, r.b_head, r.b_luck, r.b_parent, r.b_fork, _aware(r.b_created))

    def set_current(self, game_id: str, branch: str) -> None:
        b = self.branch(game_id, branch)
        with self._write() as c:
            c.execute(GAME.update().where(GAME.c.id == game_id).values(current_branch=branch))
            c.execute(HEAD_MOVE.insert().values(
                game_id=game_id, branch=branch, from_id=b.head_id, to_id=b.head_id, reason="switch", at=now()
            ))

    # -- events ------------------------------------------------------------------------------------------------

    # Events are written and read at the driver level: it is the hot path (a whole game is read by every
    # command, and imports write thousands of rows), and SQLAlchemy's per-row type processing would double it.

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s") if self.engine.dialect.paramstyle in ("format", "pyformat") else text

    def _stamp(self, t: datetime):
        naive = t.astimezone(UTC).replace(tzinfo=None)
        return naive.strftime("%Y-%m-%d %H:%M:%S.%f") if self.sqlite else naive

    def _event_arrays(self, envs: Sequence[Envelope]) -> list[pg_arrays.Array]:
        """The columns of ``envs`` as the eight arrays ``UNNEST`` reads (PostgreSQL), each built whole in binary
        (events/pg_arrays.py). A run of events shares one time: each distinct one is converted once."""
        stamps = {t: self._stamp(t) for t in {e.recorded_at for e in envs}}
        return [pg_arrays.varchars([e.id for e in envs]), pg_arrays.varchars([e.parent for e in envs]),
                pg_arrays.ints([e.depth for e in envs]), pg_arrays.varchars([e.tag for e in envs]),
                pg_arrays.ints([e.version for e in envs]), pg_arrays.varchars([e.actor for e in envs]),
                pg_arrays.byteas([e.payload for e in envs]),
                pg_arrays.timestamps([stamps[e.recorded_at] for e in envs])]

    def _insert(self, c: Connection, game_id: str, envs: Sequence[Envelope]) -> None:
        if not envs:
            return
        if self.sqlite:
            stamps = {t: self._stamp(t) for t in {e.recorded_at for e in envs}}  # a run of events shares one time
            c.exec_driver_sql(EVENT_INSERT + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
                (game_id, e.id, e.parent, e.depth, e.tag, e.version, e.actor, e.payload, stamps[e.recorded_at])
                for e in envs])
            return
        # PostgreSQL: one statement per chunk with one array per column (unnest), not executemany and not one
        # placeholder per value: psycopg runs executemany in a pipeline, and a pipeline that loses a race (a
        # duplicate key) printed "error ignored terminating <psycopg.Pipeline [INERROR]>" on stderr while the
        # conflict itself was handled; and it parses a query of thousands of placeholders anew every time (10 ms
        # for a 70-event game). Nine arrays are parsed once.
        sql = f"{EVENT_INSERT} SELECT %s, u.* FROM {UNNEST}"
        for start in range(0, len(envs), 5000):
            chunk = envs[start:start + 5000]
            c.exec_driver_sql(sql, (game_id, *self._event_arrays(chunk)))

    def line(self, game_id: str, head_id: str) -> list[Envelope]:
        """The events from the game's first to ``head_id``, in order.

        Reads the game's nodes in one scan and follows parent links from the head. A game's nodes are the union
        of its lines, which share their beginnings, so this is close to the line itself and much faster than a
        recursive query that looks each parent up in turn.

        Raises ``Damaged`` (never a partial chain) when the head or an event before it is missing, or an event does
        not match its hash."""
        with self._read() as c:
            rows = c.exec_driver_sql(self._sql(
                "SELECT id, parent_id, depth, tag, schema_version, actor, payload, recorded_at FROM event"
                " WHERE game_id = ?"), (game_id,)).all()
        by_id = {r[0]: r for r in rows}
        chain = []
        node = by_id.get(head_id)
        missing = None
        while node is not None and len(chain) <= len(by_id):  # a cycle cannot loop forever
            chain.append(node)
            if node[1] is None:
                break
            node = by_id.get(node[1])
            if node is None:
                missing = chain[-1][1]
        chain.reverse()
        # A run of events recorded together shares one timestamp: each distinct one is converted once.
        times: dict[object, datetime] = {}
        envs = []
        for r in chain:
            at = times.get(r[7])
            if at is None:
                at = times[r[7]] = (datetime.fromisoformat(r[7]) if isinstance(r[7], str) else r[7]).replace(
                    tzinfo=UTC)
            envs.append(Envelope(r[0], r[1], r[2], r[3], r[4], r[5], stored_payload(r[6]), at))
        problem = chain_problem(envs, head_id, missing)
        if problem:
            raise Damaged(f"game {game_id} is damaged: {problem}", "{verify}", game=game_id)
        return envs

    def nodes(self, game_id: str) -> dict[str, tuple[str | None, int]]:
        """Every node of a game as id -> (parent id, depth), in one scan that reads no payload."""
        with self._read() as c:
            rows = c.exec_driver_sql(self._sql("SELECT id, parent_id, depth FROM event WHERE game_id = ?"),
                                     (game_id,)).all()
        return {r[0]: (r[1], r[2]) for r in rows}

    def event(self, game_id: str, event_id: str) -> Envelope | None:
        with self._read() as c:
            r = c.execute(EVENT.select().where(EVENT.c.game_id == game_id, EVENT.c.id == event_id)).first()
        return _row_env(r) if r else None

    def root(self, game_id: str) -> Envelope:
        """A game's first event (its creation)."""
        with self._read() as c:
            r = c.execute(
                EVENT.select().where(EVENT.c.game_id == game_id, EVENT.c.id == GAME.c.root_id, GAME.c.id == game_id)
            ).first()
        if r is None:
            raise StoreError(f"game {game_id} has no first event")
        return _row_env(r)

    def all_events(self, game_id: str) -> list[Envelope]:
        with self._read() as c:
            rows = c.execute(EVENT.select().where(EVENT.c.game_id == game_id).order_by(EVENT.c.depth)).all()
        return [_row_env(r) for r in rows]

    def event_count(self, game_id: str) -> int:
        with self._read() as c:
            q = sa.select(sa.func.count()).select_from(EVENT).where(EVENT.c.game_id == game_id)
            return c.execute(q).scalar_one()

    def append(
        self, game_id: str, branch: str, expected_head: str, envs: Sequence[Envelope], reason: str = "act",
        summaries: Sequence[summary_mod.Summary] = (), keep: NewBranch | None = None, walked: str | None = None,
    ) -> str:
        """Append ``envs`` (a chain following ``expected_head``) and move the branch head to the last one, writing
        ``summaries`` (of the new head) in the same transaction. ``walked``: the head move's reason instead of
        ``reason`` when every event was stored already (judged in the same transaction as the write).

        Nodes that already exist (the same events at the same position, e.g. after an undo) are reused, not
        copied. Raises ``Conflict`` when the head is no longer ``expected_head``; nothing is written then.
        ``keep`` is a branch created in the same transaction (the name of the line an act after an undo leaves
        behind), so a crash cannot record the one without the other.
        """
        if not envs:
            return expected_head
        new_head = envs[-1].id
        if not self.sqlite:
            self._append_pg(game_id, branch, expected_head, envs, reason, summaries, keep, walked)
            return new_head
        try:
            with self._write() as c:
                # A chain's ids depend on every id before them: once one event is new, all that follow are new.
                start = 0
                while start < len(envs) and c.execute(
                    sa.select(EVENT.c.id).where(EVENT.c.game_id == game_id, EVENT.c.id == envs[start].id)
                ).first():
                    start += 1
                self._insert(c, game_id, envs[start:])
                if walked is not None and start == len(envs):
                    reason = walked
                self._cas(c, game_id, branch, expected_head, new_head, reason)
                summary_mod.write(c, summaries)
                if keep is not None:
                    self._add_branch(c, game_id, keep)
        except sa.exc.IntegrityError:
            # SQLite (PostgreSQL appends in _append_pg): writers queue on BEGIN IMMEDIATE, so this is another
            # writer's row taken first, e.g. the name of the line left behind after an undo.
            raise Conflict(
                f"branch {branch!r} of game {game_id} moved", _MOVED.format(what="recorded the same event"),
                game=game_id
            ) from None
        return new_head

    def _append_pg(self, game_id: str, branch: str, expected_head: str, envs: Sequence[Envelope], reason: str,
                   summaries: Sequence[summary_mod.Summary], keep: NewBranch | None, walked: str | None) -> None:
        """``append`` on PostgreSQL as one statement, so one round trip (and its commit): the head's
        compare-and-swap is a data-modifying WITH clause, and every other write of the statement selects from it,
        so none happens unless the head was still ``expected_head``. Events already stored (the same events at
        the same place, e.g. after an undo) are kept, not copied (ON CONFLICT DO NOTHING)."""
        at = self._stamp(now())
        parts, args = self._cas_pg(game_id, branch, expected_head, envs[-1].id, reason, at, walked)
        parts.append(f"ev AS ({EVENT_INSERT} SELECT %s, u.* FROM {UNNEST} WHERE EXISTS (SELECT FROM cas)"
                     " ON CONFLICT (game_id, id) DO NOTHING)")
        args += [game_id, *self._event_arrays(envs)]
        for i, row in enumerate(summary_mod.rows(summaries)):
            parts.append(f"s{i} AS ({summary_mod.upsert_from('cas')})")
            args += [row[k] for k in summary_mod.COLUMNS]
        if keep is not None:
            parts += ["k AS (INSERT INTO branch (game_id, name, head_id, luck, parent_branch, fork_id, created_at)"
                      " SELECT %s, %s, %s, %s, %s, %s, %s FROM cas)",
                      "kh AS (INSERT INTO head_move (game_id, branch, from_id, to_id, reason, at)"
                      " SELECT %s, %s, NULL, %s, 'branch', %s FROM cas)"]
            args += [game_id, keep.name, keep.head_id, keep.luck, keep.parent_branch, keep.head_id, at,
                     game_id, keep.name, keep.head_id, at]
        self._moved_pg(parts, args, game_id, branch)

    def _cas_pg(self, game_id: str, branch: str, expected: str, to_id: str, reason: str, at: object,
                walked: str | None = None) -> tuple[list[str], list[object]]:
        """The WITH clauses of a head's compare-and-swap and its head move on PostgreSQL (``cas`` has one row
        when the head moved). ``walked``: the reason instead when ``to_id`` was stored before the statement (every
        clause of one statement sees the rows as they were when it began, not the events it inserts)."""
        if walked is None:
            why, why_args = "%s", [reason]
        else:
            why = "CASE WHEN EXISTS (SELECT FROM event WHERE game_id = %s AND id = %s) THEN %s ELSE %s END"
            why_args = [game_id, to_id, walked, reason]
        return (["cas AS (UPDATE branch SET head_id = %s WHERE game_id = %s AND name = %s AND head_id = %s"
                 " RETURNING id)",
                 "hm AS (INSERT INTO head_move (game_id, branch, from_id, to_id, reason, at)"
                 f" SELECT %s, %s, %s, %s, {why}, %s FROM cas)"],
                [to_id, game_id, branch, expected, game_id, branch, expected, to_id, *why_args, at])

    def _moved_pg(self, parts: list[str], args: list[object], game_id: str, branch: str,
                  then: str = _MOVED_ANY) -> None:
        """Run the one statement of ``parts`` (WITH clauses, ``cas`` first) on its own; ``Conflict`` unless the
        head moved (then nothing at all was written)."""
        sent = False
        try:
            with self._auto.connect() as c:
                sent = True
                moved = c.exec_driver_sql(f"WITH {', '.join(parts)} SELECT count(*) FROM cas", tuple(args)).scalar()
        except sa.exc.IntegrityError:  # e.g. the name of the line left behind was taken meanwhile
            moved = 0
        except sa.exc.SQLAlchemyError as e:
            raise unavailable(e, self.url, writing=sent) from e
        if moved != 1:
            raise Conflict(f"branch {branch!r} of game {game_id} moved", then, game=game_id)
        self._written()

    def move_head(self, game_id: str, branch: str, expected_head: str, to_id: str, reason: str) -> None:
        then = _MOVED_BACK.format(done={"undo": "undone", "redo": "redone"}.get(reason, "moved"))
        if not self.sqlite:
            parts, args = self._cas_pg(game_id, branch, expected_head, to_id, reason, self._stamp(now()))
            self._moved_pg(parts, args, game_id, branch, then)
            return
        with self._write() as c:
            self._cas(c, game_id, branch, expected_head, to_id, reason, then)

    @staticmethod
    def _cas(c: Connection, game_id: str, branch: str, expected: str, to_id: str, reason: str,
             then: str = _MOVED_ANY) -> None:
        res = c.execute(
            BRANCH.update()
            .where(BRANCH.c.game_id == game_id, BRANCH.c.name == branch, BRANCH.c.head_id == expected)
            .values(head_id=to_id)
        )
        if res.rowcount != 1:
            raise Conflict(f"branch {branch!r} of game {game_id} moved", then, game=game_id)
        c.execute(HEAD_MOVE.insert().values(
            game_id=game_id, branch=branch, from_id=expected, to_id=to_id, reason=reason, at=now()
        ))

    def back_from(self, game_id: str, head_id: str, count: int) -> list[Envelope]:
        """The ``count`` events ending at ``head_id`` (fewer when the line is shorter), first first: parent links
        walked in one recursive query, so the cost is that of the events read, not of the line."""
        if count < 1:
            return []
        sql = self._sql(
            "WITH RECURSIVE walk (id, parent_id, depth, tag, schema_version, actor, payload, recorded_at, n) AS ("
            " SELECT id, parent_id, depth, tag, schema_version, actor, payload, recorded_at, 1 FROM event"
            " WHERE game_id = ? AND id = ?"
            " UNION ALL"
            " SELECT e.id, e.parent_id, e.depth, e.tag, e.schema_version, e.actor, e.payload, e.recorded_at, w.n + 1"
            " FROM walk w JOIN event e ON e.game_id = ? AND e.id = w.parent_id WHERE w.n < ?)"
            " SELECT id, parent_id, depth, tag, schema_version, actor, payload, recorded_at FROM walk ORDER BY n DESC")
        with self._read() as c:
            rows = c.exec_driver_sql(sql, (game_id, head_id, game_id, count)).all()
        times: dict[object, datetime] = {}
        out = []
        for r in rows:
            at = times.get(r[7])
            if at is None:
                at = times[r[7]] = (datetime.fromisoformat(r[7]) if isinstance(r[7], str) else r[7]).replace(
                    tzinfo=UTC)
            out.append(Envelope(r[0], r[1], r[2], r[3], r[4], r[5], stored_payload(r[6]), at))
        return out

    def event_ids(self, game_id: str) -> set[str]:
        with self._read() as c:
            return set(c.execute(sa.select(EVENT.c.id).where(EVENT.c.game_id == game_id)).scalars())

    # -- notes -------------------------------------------------------------------------------------------------

    def add_note(self, game_id: str, note: NoteInfo) -> None:
        with self._write() as c:
            self._add_moves_notes(c, game_id, (), [note])

    def notes(self, game_id: str) -> list[NoteInfo]:
        """Every note of a game, oldest first (none is ever removed)."""
        with self._read() as c:
            rows = c.execute(NOTE.select().where(NOTE.c.game_id == game_id).order_by(NOTE.c.id)).all()
        return [NoteInfo(r.event_id, r.text, r.glyph, _aware(r.at)) for r in rows]

    # -- branches ----------------------------------------------------------------------------------------------

    def heads_of(self, game_ids: Sequence[str]) -> dict[str, tuple[str, tuple[tuple[str, str], ...]]]:
        """For each of ``game_ids``: its current branch and every branch's (name, head id), in one read (what a
        server watches to tell its streams that a game moved)."""
        out: dict[str, list] = {g: [] for g in game_ids}
        current: dict[str, str] = {}
        with self._read() as c:
            for i in range(0, len(game_ids), 500):
                part = list(game_ids[i:i + 500])
                q = sa.select(BRANCH.c.game_id, BRANCH.c.name, BRANCH.c.head_id, GAME.c.current_branch).join(
                    GAME, GAME.c.id == BRANCH.c.game_id).where(BRANCH.c.game_id.in_(part))
                for gid, name, head, cur in c.execute(q).all():
                    out[gid].append((name, head))
                    current[gid] = cur
        return {g: (current.get(g, ""), tuple(sorted(v))) for g, v in out.items()}

    def branches(self, game_id: str) -> list[BranchInfo]:
        with self._read() as c:
            rows = c.execute(BRANCH.select().where(BRANCH.c.game_id == game_id).order_by(BRANCH.c.id)).all()
        return [BranchInfo(r.name, r.head_id, r.luck, r.parent_branch, r.fork_id, _aware(r.created_at)) for r in rows]

    def branch(self, game_id: str, name: str) -> BranchInfo:
        with self._read() as c:
            r = (c.execute(BRANCH.select().where(BRANCH.c.game_id == game_id, BRANCH.c.name == name)).first()
                 if storable(name) else None)
        if r is None:
            names = ", ".join(b.name for b in self.branches(game_id))
            raise Unknown(f"game {game_id} has no branch {_quoted(name)}; its branches: {names}")
        return BranchInfo(r.name, r.head_id, r.luck, r.parent_branch, r.fork_id, _aware(r.created_at))

    def create_branch(
        self, game_id: str, name: str, head_id: str, luck: int, parent_branch: str | None, switch: bool = True
    ) -> None:
        taken = Taken(f"game {game_id} already has a branch {name!r}; choose another name")
        with self._write() as c:
            if c.execute(BRANCH.select().where(BRANCH.c.game_id == game_id, BRANCH.c.name == name)).first():
                raise taken
            try:
                self._add_branch(c, game_id, NewBranch(name, head_id, luck, parent_branch))
            except sa.exc.IntegrityError:  # created by another writer since we looked
                raise taken from None
            if switch:
                c.execute(GAME.update().where(GAME.c.id == game_id).values(current_branch=name))

    @staticmethod
    def _add_branch(c: Connection, game_id: str, b: NewBranch) -> None:
        at = now()
        c.execute(BRANCH.insert().values(
            game_id=game_id, name=b.name, head_id=b.head_id, luck=b.luck, parent_branch=b.parent_branch,
            fork_id=b.head_id, created_at=at,
        ))
        c.execute(HEAD_MOVE.insert().values(
            game_id=game_id, branch=b.name, from_id=None, to_id=b.head_id, reason="branch", at=at
        ))

    def head_moves(self, game_id: str, branch: str | None = None) -> list[HeadMove]:
        q = HEAD_MOVE.select().where(HEAD_MOVE.c.game_id == game_id)
        if branch is not None:
            q = q.where(HEAD_MOVE.c.branch == branch)
        with self._read() as c:
            rows = c.execute(q.order_by(HEAD_MOVE.c.id)).all()
        return [HeadMove(r.branch, r.from_id, r.to_id, r.reason, _aware(r.at)) for r in rows]

    def head_moves_newest_first(self, game_id: str, branch: str, page: int = 32) -> Iterator[HeadMove]:
        """A branch's head moves from the newest back, read a page at a time (callers usually stop early)."""
        last_id = None
        while True:
            q = HEAD_MOVE.select().where(HEAD_MOVE.c.game_id == game_id, HEAD_MOVE.c.branch == branch)
            if last_id is not None:
                q = q.where(HEAD_MOVE.c.id < last_id)
            with self._read() as c:
                rows = c.execute(q.order_by(HEAD_MOVE.c.id.desc()).limit(page)).all()
            for r in rows:
                yield HeadMove(r.branch, r.from_id, r.to_id, r.reason, _aware(r.at))
            if len(rows) < page:
                return
            last_id = rows[-1].id

    def undo_tails(self, game_id: str) -> dict[str, list[HeadMove]]:
        """For every branch of a game that has any: its head moves newest first since its last one that was none
        of ``UNDO_RUN`` (an entry, the branch's making, an import), which ends what a redo could bring back. One
        query for all the branches (``agon branches`` of a game with 1,000 of them), not one a branch."""
        last = sa.select(HEAD_MOVE.c.branch, sa.func.max(HEAD_MOVE.c.id).label("last")).where(
            HEAD_MOVE.c.game_id == game_id, HEAD_MOVE.c.reason.not_in(UNDO_RUN)).group_by(HEAD_MOVE.c.branch).subquery()
        q = sa.select(HEAD_MOVE).outerjoin(last, last.c.branch == HEAD_MOVE.c.branch).where(
            HEAD_MOVE.c.game_id == game_id, HEAD_MOVE.c.id > sa.func.coalesce(last.c.last, 0)).order_by(
            HEAD_MOVE.c.id.desc())
        out: dict[str, list[HeadMove]] = {}
        with self._read() as c:
            for r in c.execute(q).all():
                out.setdefault(r.branch, []).append(HeadMove(r.branch, r.from_id, r.to_id, r.reason, _aware(r.at)))
        return out


def _quoted(text: str, limit: int = 100) -> str:
    """``text`` as a one-line refusal names what was asked for: quoted, and cut to ``limit`` characters (a game id
    or branch name typed or sent thousands of characters long is not echoed back whole)."""
    return repr(text if len(text) <= limit else text[:limit] + "...")

"""The game summary: one row per branch of a game, what listings and statistics read instead of folding the line.

A derived, disposable table (../shared/DESIGN.md, "Store"): never the truth, always recomputable from the events
(``agon rebuild``). A row summarises one branch at one head:

- ``head_id``: the head it was computed at. A row whose head is not the branch's head (after an undo, a redo, a
  write by an older agon) is stale and is recomputed before it is read;
- ``layout`` and ``ruleset_version``: a new summary layout or a new version of the rules makes a row stale too;
- the facts: events, rounds, over, status, winners, scores, seats (name and bot), sides, setup options.

The service writes a branch's row in the same transaction as the events it summarises (``Store.append``), so a
listing after an ``act`` reads it as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from operator import attrgetter
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlmodel import Field, SQLModel

from agon.events.hints import Hinted

Store = Any
"""An ``events.store.Store`` (not imported: the store imports this module to create the table)."""

LAYOUT = 4
"""The version of this table's contents; a row of another layout is stale. 2: scores as the ruleset gives them.
3: statuses count in words ("1 card", "3 cards": core/words.py ``counted``), not "card(s)": rows written before
are recomputed as a listing reads them (``stale``), rather than showing the old wording until ``agon rebuild``.
4: a setup names each option one way (core/summary.py ``setup_label``): an Adamastor game with ``difficulty=regular``
typed and one with it left out are one setup in ``agon stats``, where they were two."""


class SummaryRow(SQLModel, table=True):
    __tablename__ = "game_summary"
    game_id: str = Field(primary_key=True)
    branch: str = Field(primary_key=True)
    head_id: str
    layout: int
    ruleset_version: str
    events: int
    rounds: int
    over: bool
    status: str
    winners: bytes  # JSON list
    scores: bytes  # JSON object
    seats: bytes  # JSON list of [name, bot or ""]
    side_label: str | None = None
    sides: bytes  # JSON object
    options: bytes  # JSON object
    setup: str
    updated_at: datetime


SUMMARY = SummaryRow.__table__


class Summary(msgspec.Struct, frozen=True):
    """One branch of a game in plain data, as the summary row holds it.

    A msgspec struct rather than a frozen dataclass: 'agon stats' makes one per game of a ruleset, and a frozen
    dataclass's ``__init__`` (one ``object.__setattr__`` per field) cost about ten times as much."""

    game_id: str
    branch: str
    head_id: str
    ruleset_version: str
    events: int
    rounds: int
    over: bool
    status: str
    winners: tuple[str, ...]
    scores: Mapping[str, float]  # as the ruleset gives them (whole numbers stay whole)
    seats: tuple[tuple[str, str], ...]
    side_label: str | None
    sides: Mapping[str, str]
    options: Mapping[str, Any]
    setup: str

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.seats)

    @property
    def readable(self) -> bool:
        return self.ruleset_version not in (UNREADABLE, DAMAGED)


UNREADABLE = "?"
"""The ruleset version of the row of a branch that cannot be read (its status says why): it never matches a
version, so it is tried again at every listing, and the listing still shows the game."""


def unreadable(game_id: str, branch: str, head_id: str, problem: str | BaseException) -> Summary:
    """The row of a branch that cannot be read: its status says why, without the step a face names next (the
    command line's 'agon games' marks the game DAMAGED with its command; the server names no command)."""
    if isinstance(problem, Hinted) and problem.then:
        problem = problem.said
    return Summary(game_id, branch, head_id, UNREADABLE, 0, 0, False, f"unreadable: {problem}", (), {}, (), None,
                   {}, {}, "")


DAMAGED = "!"
"""The ruleset version of the row of a branch that reads, in a game 'agon verify' found damaged (a line that breaks
a rule or its seed, or damage elsewhere in the game's tree): unlike an unreadable row it is current while the
branch's head stays where it was checked, so the listing keeps marking the game without checking it again."""


def current(row: Summary | None, head_id: str, version: str) -> bool:
    """Whether a stored row still stands for a branch at ``head_id`` with its ruleset at ``version`` (a damaged
    game's mark stands while the head stays)."""
    return row is not None and row.head_id == head_id and row.ruleset_version in (version, DAMAGED)


def damaged(s: Summary, problem: str) -> Summary:
    """``s`` marked as the summary of a branch of a damaged game (its facts kept; its status says what is wrong)."""
    return msgspec.structs.replace(s, ruleset_version=DAMAGED, status=problem)


_enc = msgspec.json.Encoder()
FACTS = [col for col in SUMMARY.c if col.name not in ("layout", "updated_at")]
"""The columns a reader needs (``from_row`` reads these)."""


def _row(s: Summary) -> dict[str, Any]:
    return {
        "game_id": s.game_id, "branch": s.branch, "head_id": s.head_id, "layout": LAYOUT,
        "ruleset_version": s.ruleset_version, "events": s.events, "rounds": s.rounds, "over": s.over,
        "status": s.status, "winners": _enc.encode(list(s.winners)), "scores": _enc.encode(dict(s.scores)),
        "seats": _enc.encode([list(p) for p in s.seats]), "side_label": s.side_label,
        "sides": _enc.encode(dict(s.sides)), "options": _enc.encode(dict(s.options)), "setup": s.setup,
        "updated_at": datetime.now(UTC),
    }


_names = msgspec.json.Decoder(tuple[str, ...])
_seats = msgspec.json.Decoder(tuple[tuple[str, str], ...])
_numbers = msgspec.json.Decoder(dict[str, int | float])
_texts = msgspec.json.Decoder(dict[str, str])
_options = msgspec.json.Decoder(dict[str, Any])


def from_row(r: Sequence[Any]) -> Summary:
    """A summary from the values of ``FACTS``, in that order (the order of ``Summary``'s fields)."""
    (game_id, branch, head_id, version, events, rounds, over, status, winners, scores, seats, side_label, sides,
     options, setup) = r
    return Summary(game_id, branch, head_id, version, events, rounds, bool(over), status, _names.decode(winners),
                   _numbers.decode(scores), _seats.decode(seats), side_label, _texts.decode(sides),
                   _options.decode(options), setup)


def rows(summaries: Sequence[Summary]) -> list[dict[str, Any]]:
    """The table rows of these summaries, column -> value (for a caller that writes them with its own SQL)."""
    return [_row(s) for s in summaries]


COLUMNS = [col.name for col in SUMMARY.c]
"""The table's columns, in order (the keys of ``rows``' dicts)."""
_REPLACE = " ON CONFLICT (game_id, branch) DO UPDATE SET " + ", ".join(
    f"{k} = excluded.{k}" for k in COLUMNS if k not in ("game_id", "branch"))
_UPSERT = (f"INSERT INTO game_summary ({', '.join(COLUMNS)}) VALUES ({', '.join(['{p}'] * len(COLUMNS))})"
           + _REPLACE)


def upsert_from(source: str) -> str:
    """PostgreSQL: the upsert of one row (``COLUMNS``' values as ``%s`` in order) that writes only when ``source``
    (a WITH clause of the same statement) has a row."""
    return (f"INSERT INTO game_summary ({', '.join(COLUMNS)}) SELECT {', '.join(['%s'] * len(COLUMNS))}"
            f" FROM {source}{_REPLACE}")


def write(c: Connection, summaries: Sequence[Summary]) -> None:
    """Replace the rows of these branches, inside the caller's transaction: one upsert per row, at the driver's
    level (every recorded decision writes one; an ORM delete and insert cost as much as the events' own insert)."""
    sqlite = c.dialect.name == "sqlite"
    sql = _UPSERT.format(p="?" if sqlite else "%s")
    for s in summaries:
        row = _row(s)
        if sqlite:  # SQLite keeps times as text, in the form the table's DateTime type reads back
            row["updated_at"] = row["updated_at"].replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")
        c.exec_driver_sql(sql, tuple(row[k] for k in COLUMNS))


def put(store: Store, summaries: Sequence[Summary]) -> bool:
    """Keep these rows; False when the store may only be read (nothing written: the caller keeps them in memory)."""
    if not summaries:
        return True
    return store.keep("game summaries", lambda c: write(c, summaries))


def clear(store: Store) -> int:
    """Delete every row (``agon rebuild``); returns how many there were."""
    with store._write() as c:
        return c.execute(SUMMARY.delete()).rowcount


def count(store: Store) -> int:
    with store._read() as c:
        return c.execute(sa.select(sa.func.count()).select_from(SUMMARY)).scalar_one()


# The game and branch tables, by name (the store imports this module, so it cannot import the store).
_GAME = sa.table("game", sa.column("id"), sa.column("ruleset"), sa.column("title"), sa.column("players"),
                 sa.column("created_at"), sa.column("current_branch"))
_BRANCH = sa.table("branch", sa.column("game_id"), sa.column("name"), sa.column("head_id"))

_NO_LENGTH = sa.case((SUMMARY.c.ruleset_version == UNREADABLE, 1), else_=0)
"""1 for a game whose line cannot be read: it has no length (its row's ``events`` is a 0 that counts nothing), so
it comes after every game with one, longest first or shortest first."""

ORDERS = {
    "oldest": (_GAME.c.created_at.asc(), _GAME.c.id.asc()),
    "newest": (_GAME.c.created_at.desc(), _GAME.c.id.desc()),
    "longest": (_NO_LENGTH.asc(), SUMMARY.c.events.desc(), _GAME.c.created_at.asc()),
    "shortest": (_NO_LENGTH.asc(), SUMMARY.c.events.asc(), _GAME.c.created_at.asc()),
}


def _scope(which: str, ruleset: str | None):
    """The (game, branch) pairs a listing reads: each game's current branch, or its main line."""
    on_branch = _BRANCH.c.name == (_GAME.c.current_branch if which == "current" else sa.literal("main"))
    joined = _GAME.join(_BRANCH, sa.and_(_BRANCH.c.game_id == _GAME.c.id, on_branch)).outerjoin(
        SUMMARY, sa.and_(SUMMARY.c.game_id == _GAME.c.id, SUMMARY.c.branch == _BRANCH.c.name))
    where = [] if ruleset is None else [_GAME.c.ruleset == ruleset]
    return joined, where


def stale(store: Store, versions: Mapping[str, str], which: str = "current", ruleset: str | None = None
          ) -> list[tuple[str, str, str, str]]:
    """The (game id, branch, ruleset, head id) of the branches in scope whose row is missing or stale: another
    head, layout or ruleset version (``versions``: each ruleset's version now; a ruleset not named there is always
    stale). A ``DAMAGED`` row at the branch's head is not stale: the damage is still there."""
    joined, where = _scope(which, ruleset)
    unknown = sa.literal(UNREADABLE)
    version_now = sa.case(versions, value=_GAME.c.ruleset, else_=unknown) if versions else unknown
    q = sa.select(_GAME.c.id, _BRANCH.c.name, _GAME.c.ruleset, _BRANCH.c.head_id).select_from(joined).where(
        *where, sa.or_(SUMMARY.c.game_id.is_(None), SUMMARY.c.head_id != _BRANCH.c.head_id,
                       SUMMARY.c.layout != LAYOUT,
                       sa.and_(SUMMARY.c.ruleset_version != version_now, SUMMARY.c.ruleset_version != DAMAGED))
    ).order_by(_GAME.c.created_at, _GAME.c.id)
    with store._read() as c:
        return [(r[0], r[1], r[2], r[3]) for r in c.execute(q)]


@dataclass(frozen=True)
class Listed:
    """A game as a listing shows it: the game, its number of branches and the summary of the branch read;
    ``damaged``: that summary or another branch's says the game cannot be read or is damaged."""

    id: str
    ruleset: str
    title: str
    created_at: datetime
    current_branch: str
    branches: int
    summary: Summary
    damaged: bool = False
    game_players: tuple[str, ...] = ()
    """The players the game's row names (what a game that cannot be read still tells of them)."""
    stored_events: int | None = None
    """Where the branch read cannot be read (its length unknown, its row's ``events`` a 0 that counts nothing): how
    many events the store holds for the game, on every branch (the service counts them; otherwise None)."""

    @property
    def players(self) -> tuple[str, ...]:
        """The players, in seat order as the branch read has them; a branch that cannot be read has no seats, and
        then the game's row names them (as given when it was made)."""
        return self.summary.players or self.game_players


Computed = Mapping[str, Mapping[str, Summary]]
"""Summaries computed and not kept (a store that may only be read), by game id and branch."""


def listing(store: Store, which: str = "current", ruleset: str | None = None, over: bool | None = None,
            order: str = "oldest", limit: int | None = None, count_branches: bool = True,
            computed: Computed | None = None) -> list[Listed]:
    """Games with the summary of their current branch (or main line), filtered, ordered and limited in SQL (and
    each game's number of branches, unless not ``count_branches``: then it reads 0). ``computed``: summaries
    that stand instead of the stored ones where made at the branch's head (then filtered, ordered and limited
    here)."""
    if computed:
        return _listing_with(store, computed, which, ruleset, over, order, limit, count_branches)
    joined, where = _scope(which, ruleset)
    if over is not None:
        where.append(SUMMARY.c.over == over)
    every = _BRANCH.alias("every_branch")
    n_branches = sa.select(sa.func.count()).select_from(every).where(
        every.c.game_id == _GAME.c.id).correlate(_GAME).scalar_subquery() if count_branches else sa.literal(0)
    marked = SUMMARY.alias("marked")
    any_marked = sa.exists().where(marked.c.game_id == _GAME.c.id,
                                   marked.c.ruleset_version.in_([UNREADABLE, DAMAGED])).correlate(_GAME)
    q = sa.select(_GAME.c.id, _GAME.c.ruleset, _GAME.c.title, _GAME.c.created_at, _GAME.c.current_branch,
                  n_branches, any_marked, _GAME.c.players, *FACTS).select_from(joined).where(
        *where, SUMMARY.c.game_id.is_not(None))
    q = q.order_by(*ORDERS[order])
    if limit is not None:
        q = q.limit(limit)
    with store._read() as c:
        rows = c.execute(q).all()
    out = []
    for r in rows:
        at = r[3]
        if isinstance(at, str):
            at = datetime.fromisoformat(at)
        at = at if at.tzinfo else at.replace(tzinfo=UTC)
        out.append(Listed(r[0], r[1], r[2], at, r[4], r[5], from_row(r[8:]), bool(r[6]), _players(r[7])))
    return out


def _players(names: str | None) -> tuple[str, ...]:
    """The players a game's row names (comma-separated, as the store keeps them)."""
    return tuple(p for p in (names or "").split(",") if p)


def _time(at: Any) -> datetime:
    """A game's creation time as read back (SQLite: text, without a zone; every time agon stores is UTC)."""
    if isinstance(at, str):
        at = datetime.fromisoformat(at)
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def _listing_with(store: Store, computed: Computed, which: str, ruleset: str | None, over: bool | None,
                  order: str, limit: int | None, count_branches: bool) -> list[Listed]:
    """``listing`` on a store that may only be read: every game in scope with its stored row or the one computed
    at its branch's head, then filtered, ordered and limited here (the rows computed are in no table)."""
    joined, where = _scope(which, ruleset)
    every = _BRANCH.alias("every_branch")
    n_branches = sa.select(sa.func.count()).select_from(every).where(
        every.c.game_id == _GAME.c.id).correlate(_GAME).scalar_subquery() if count_branches else sa.literal(0)
    q = sa.select(_GAME.c.id, _GAME.c.ruleset, _GAME.c.title, _GAME.c.created_at, _GAME.c.current_branch,
                  n_branches, _BRANCH.c.name, _BRANCH.c.head_id, SUMMARY.c.layout, _GAME.c.players, *FACTS
                  ).select_from(joined).where(*where).order_by(*ORDERS["oldest"])
    marks = sa.select(SUMMARY.c.game_id, SUMMARY.c.branch).where(SUMMARY.c.ruleset_version.in_([UNREADABLE,
                                                                                                DAMAGED]))
    with store._read() as c:
        rows = c.execute(q).all()
        marked = {(r[0], r[1]) for r in c.execute(marks)}
    for game_id, by_branch in computed.items():  # a row computed here says how the branch stands now
        for branch, s in by_branch.items():
            if s.readable:
                marked.discard((game_id, branch))
            else:
                marked.add((game_id, branch))
    games_marked = {game_id for game_id, _ in marked}
    out = []
    for r in rows:
        mine = computed.get(r[0], {}).get(r[6])
        if mine is not None and mine.head_id == r[7]:
            s = mine
        elif r[8] == LAYOUT:
            s = from_row(r[10:])
        else:
            continue
        if over is None or s.over == over:
            out.append(Listed(r[0], r[1], r[2], _time(r[3]), r[4], r[5], s, r[0] in games_marked, _players(r[9])))
    if order == "newest":
        out.reverse()
    elif order in ("longest", "shortest"):  # stable: the oldest first among games as long; no length: last
        out.sort(key=lambda g: (g.summary.ruleset_version == UNREADABLE,
                                -g.summary.events if order == "longest" else g.summary.events))
    return out if limit is None else out[:limit]


def main_lines(store: Store, ruleset: str, version: str, limit: int | None = None, computed: Computed | None = None
           ) -> tuple[list[Summary], list[tuple[str, str, str, str]]]:
    """The stored summaries of the main lines of a ruleset's games, newest first (at most ``limit``), and the
    (game id, branch, ruleset, head id) of those in that window whose row is missing or stale (``version``: the
    ruleset's version now; an unreadable one is stale, and listed too), in one query: what statistics read,
    without a listing's titles, times and marks. ``computed``: summaries that stand instead of the stored ones
    where made at the main line's head (a store that may only be read)."""
    rows = _main_rows(store, ruleset, limit, facts=False)
    present, stale = [], []
    n = len(FACTS)  # each row: the facts (``from_row``'s), then the branch's head, the row's layout, the game's id
    standing = (version, DAMAGED)
    for r in rows:
        head, layout, game_id = r[n], r[n + 1], r[n + 2]
        mine = computed.get(game_id, {}).get("main") if computed else None
        if mine is not None and mine.head_id == head:
            present.append(mine)
            if not current(mine, head, version):  # unreadable: tried again, as a stored row would be
                stale.append((game_id, "main", ruleset, head))
            continue
        if layout != LAYOUT or r[2] != head or r[3] not in standing:  # the row's head_id and ruleset_version
            stale.append((game_id, "main", ruleset, head))
        if layout == LAYOUT:
            present.append(from_row(r[:n]))
    return present, stale


@dataclass(frozen=True)
class Facts:
    """What statistics count of the main lines of a ruleset's games (``main_facts``), column by column, newest
    first, without a ``Summary`` per game: how many games read; the game id and status of each that cannot be read
    or is damaged (no figure counts it); and of each finished game that reads (only those have results) its length,
    rounds, winners, scores, players (their names in seat order, without their bots), side label, sides and setup,
    the JSON columns decoded as ``from_row`` decodes them. No branch, head, options or status of a game that reads:
    statistics use none of them."""

    games: int
    """The games that read, finished or not."""
    unreadable: list[tuple[str, str]]
    events: list[int]
    rounds: list[int]
    winners: list[tuple[str, ...]]
    scores: list[dict[str, int | float]]
    players: list[tuple[str, ...]]
    side_labels: list[str | None]
    sides: list[dict[str, str]]
    setups: list[str]

    @property
    def read(self) -> int:
        """Every game read, the ones that cannot be read or are damaged included."""
        return self.games + len(self.unreadable)


_FACT_COLUMNS = [SUMMARY.c[name] for name in ("events", "rounds", "over", "winners", "scores", "seats", "side_label",
                                                "sides", "setup")]
"""The columns of a row statistics count (``Facts``), after its head, version, layout, branch head, game id and the
status of a row that cannot be read or is damaged."""


def main_facts(store: Store, ruleset: str, version: str, limit: int | None = None, computed: Computed | None = None
               ) -> tuple[Facts, list[tuple[str, str, str, str]]]:
    """``main_lines`` as statistics read it: the same rows, the same window and the same stale ones (each checked
    as ``main_lines`` checks it), but only the columns statistics count, as ``Facts``: no ``Summary`` per game, and
    the JSON of finished games only decoded."""
    rows = _main_rows(store, ruleset, limit, facts=True)
    done, unreadable, stale = [], [], []
    games = 0
    standing = (version, DAMAGED)
    marks = (UNREADABLE, DAMAGED)
    for r in rows:  # each row: the row's head_id, ruleset_version and layout, the branch's head, the game's id, ...
        head, layout, game_id = r[3], r[2], r[4]
        mine = computed.get(game_id, {}).get("main") if computed else None
        if mine is not None and mine.head_id == head:
            if not current(mine, head, version):  # unreadable: tried again, as a stored row would be
                stale.append((game_id, "main", ruleset, head))
            r = _fact_row(mine, head)
        else:
            if layout != LAYOUT or r[0] != head or r[1] not in standing:
                stale.append((game_id, "main", ruleset, head))
            if layout != LAYOUT:
                continue
        if r[1] in marks:
            unreadable.append((game_id, r[5]))
            continue
        games += 1
        if r[8]:  # over: only finished games have results
            done.append(r)
    *_, events, rounds, _, winners, scores, seats, side_labels, sides, setups = zip(*done) if done else [()] * 15
    players = list(map(tuple, map(partial(map, _NAME), map(_seat_names.decode, seats))))
    return Facts(games, unreadable, list(events), list(rounds), list(map(_names.decode, winners)),
                 list(map(_numbers.decode, scores)), players, list(side_labels), list(map(_texts.decode, sides)),
                 list(setups)), stale


class _Seat(msgspec.Struct, array_like=True, gc=False):
    """A seat of the ``seats`` column ([name, bot]) read for its name alone: the bot is skipped unread, and no seat
    is tracked by the garbage collector (statistics read thousands)."""

    name: str


_seat_names = msgspec.json.Decoder(tuple[_Seat, ...])
_NAME = attrgetter("name")


def _fact_row(s: Summary, head: str) -> tuple[Any, ...]:
    """A summary computed and not kept as a row of ``main_facts``' query gives it (its JSON columns encoded)."""
    row = _row(s)
    return (s.head_id, s.ruleset_version, LAYOUT, head, s.game_id, s.status,
            *(row[col.name] for col in _FACT_COLUMNS))


_MAIN_LINES: dict[tuple[str, bool, bool], tuple[str, Sequence[str] | None, dict[str, Any]]] = {}
"""``main_lines``' query (or ``main_facts``') as the database's driver reads it, by dialect, whether it is limited and
which: compiled once, and run without SQLAlchemy's conversion of each value read ('agon stats' reads thousands of
rows; ``from_row`` takes the driver's values as they come)."""


def _main_rows(store: Store, ruleset: str, limit: int | None, facts: bool) -> Sequence[Any]:
    """The rows of ``main_lines``' query (``facts``: ``main_facts``'), as the driver gives them."""
    with store._read() as c:
        sql, names, params = _main_lines_sql(c.dialect, limit is not None, facts)
        values = {**params, "ruleset": ruleset, "limit": limit}
        return c.exec_driver_sql(sql, values if names is None else tuple(values[k] for k in names)).all()


def _main_lines_sql(dialect: Any, limited: bool, facts: bool = False
                    ) -> tuple[str, Sequence[str] | None, dict[str, Any]]:
    """The SQL, the names of its parameters in order (None where the driver takes them by name) and their values,
    ``ruleset`` and ``limit`` to be given. ``facts``: the columns ``main_facts`` reads instead of ``FACTS``."""
    key = (dialect.name, limited, facts)
    made = _MAIN_LINES.get(key)
    if made is None:
        s_game = _GAME.alias("g")
        version = SUMMARY.c.ruleset_version
        columns = ([SUMMARY.c.head_id, version, SUMMARY.c.layout, _BRANCH.c.head_id, s_game.c.id,
                    sa.case((sa.or_(version == UNREADABLE, version == DAMAGED), SUMMARY.c.status)), *_FACT_COLUMNS]
                   if facts else [*FACTS, _BRANCH.c.head_id, SUMMARY.c.layout, s_game.c.id])
        q = sa.select(*columns).select_from(
            s_game.join(_BRANCH, sa.and_(_BRANCH.c.game_id == s_game.c.id, _BRANCH.c.name == "main")).outerjoin(
                SUMMARY, sa.and_(SUMMARY.c.game_id == s_game.c.id, SUMMARY.c.branch == "main"))
        ).where(s_game.c.ruleset == sa.bindparam("ruleset", type_=sa.String)).order_by(
            s_game.c.created_at.desc(), s_game.c.id.desc())
        if limited:
            q = q.limit(sa.bindparam("limit", type_=sa.Integer))
        compiled = q.compile(dialect=dialect)
        made = _MAIN_LINES[key] = (str(compiled), compiled.positiontup if compiled.positional else None,
                                   dict(compiled.params))
    return made


def of_game(store: Store, game_id: str, branch: str | None = None) -> dict[str, Summary]:
    """The stored rows of every branch of one game (or of one branch), by branch (stale ones included: compare
    their heads)."""
    where = [SUMMARY.c.game_id == game_id] + ([SUMMARY.c.branch == branch] if branch is not None else [])
    with store._read() as c:
        rows = c.execute(sa.select(*FACTS, SUMMARY.c.layout).where(*where)).all()
    return {r[1]: from_row(r[:-1]) for r in rows if r[-1] == LAYOUT}

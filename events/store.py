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

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Field, SQLModel

from agon.events.analysis_cache import ANALYSIS
from agon.events.envelope import Envelope


class GameRow(SQLModel, table=True):
    __tablename__ = "game"
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
    game_id: str = Field(primary_key=True, foreign_key="game.id")
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
    reason: str  # create, act, undo, redo, branch, switch, import
    at: datetime


class SchemaRow(SQLModel, table=True):
    """The store's layout version, so an older store is brought up to date when it is opened."""

    __tablename__ = "agon_schema"
    version: int = Field(primary_key=True)


SCHEMA_VERSION = 2
"""1: the first layout. 2: ``game.root_id`` names each game's first event."""

EVENT = EventRow.__table__
GAME = GameRow.__table__
BRANCH = BranchRow.__table__
HEAD_MOVE = HeadMoveRow.__table__
SCHEMA = SchemaRow.__table__
DERIVED = [ANALYSIS]
"""Derived tables (caches, never the truth): created when missing on every open, so an older store gains them
without a layout upgrade. Analysis results live in events/analysis_cache.py."""


class StoreError(Exception):
    """A store problem a person can act on (a bad URL, an unknown game or branch)."""


class Conflict(StoreError):
    """Another writer moved the branch head first."""


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
class HeadMove:
    branch: str
    from_id: str | None
    to_id: str
    reason: str
    at: datetime


def now() -> datetime:
    return datetime.now(UTC)


def _sqlite_setup(engine: Engine) -> None:
    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):  # pragma: no cover - exercised by every SQLite test
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=10000")
        cur.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(conn):  # pragma: no cover
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.info.get("write") else "BEGIN")


def _aware(t: datetime) -> datetime:
    """SQLite hands back naive datetimes; every time agon stores is UTC."""
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def _row_env(r) -> Envelope:
    return Envelope(
        r.id, r.parent_id, r.depth, r.tag, r.schema_version, r.actor, bytes(r.payload), _aware(r.recorded_at)
    )


class Store:
    """All reads and writes of games. One instance per database URL."""

    def __init__(self, url: str, *, create: bool = True) -> None:
        self.url = url
        try:
            self.engine = sa.create_engine(url, future=True)
        except Exception as e:  # noqa: BLE001 - any driver/URL problem becomes one clear line
            raise StoreError(f"cannot use database {url!r}: {e}") from None
        self.sqlite = self.engine.dialect.name == "sqlite"
        if self.sqlite:
            _sqlite_setup(self.engine)
        if create:
            try:
                SQLModel.metadata.create_all(self.engine, tables=[GAME, EVENT, BRANCH, HEAD_MOVE, SCHEMA, *DERIVED])
                self._upgrade()
            except sa.exc.SQLAlchemyError as e:
                msg = str(e.orig) if getattr(e, "orig", None) else str(e)
                raise StoreError(f"cannot open database {url}: {msg.splitlines()[0]}") from None

    def _upgrade(self) -> None:
        """Bring a store written by an older agon up to ``SCHEMA_VERSION``; events are never touched."""
        with self._read() as c:
            if c.execute(sa.select(sa.func.max(SCHEMA.c.version))).scalar() == SCHEMA_VERSION:
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
            c.execute(SCHEMA.delete())
            c.execute(SCHEMA.insert().values(version=SCHEMA_VERSION))

    def close(self) -> None:
        self.engine.dispose()

    # -- transactions ------------------------------------------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            conn.info["write"] = True
            try:
                with conn.begin():
                    yield conn
            finally:
                conn.info["write"] = False

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn:
            yield conn

    # -- games -------------------------------------------------------------------------------------------------

    def create_game(self, game_id: str, ruleset: str, title: str, players: Sequence[str], root: Envelope) -> None:
        at = root.recorded_at
        with self._write() as c:
            c.execute(GAME.insert().values(
                id=game_id, ruleset=ruleset, title=title, players=",".join(players), root_id=root.id,
                created_at=at, current_branch="main",
            ))
            self._insert(c, game_id, [root])
            c.execute(BRANCH.insert().values(
                game_id=game_id, name="main", head_id=root.id, luck=0, created_at=at
            ))
            c.execute(HEAD_MOVE.insert().values(
                game_id=game_id, branch="main", from_id=None, to_id=root.id, reason="create", at=at
            ))

    def import_game(
        self, game_id: str, ruleset: str, title: str, players: Sequence[str], line: Sequence[Envelope]
    ) -> None:
        """Write a whole line as a new game in one transaction (one batched insert)."""
        at = now()
        with self._write() as c:
            c.execute(GAME.insert().values(
                id=game_id, ruleset=ruleset, title=title, players=",".join(players), root_id=line[0].id,
                created_at=at, current_branch="main",
            ))
            self._insert(c, game_id, line)
            c.execute(BRANCH.insert().values(
                game_id=game_id, name="main", head_id=line[-1].id, luck=0, created_at=at
            ))
            c.execute(HEAD_MOVE.insert().values(
                game_id=game_id, branch="main", from_id=None, to_id=line[-1].id, reason="import", at=at
            ))

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
        with self._read() as c:
            row = c.execute(GAME.select().where(GAME.c.id == ref)).first()
            if row is None and ref:
                rows = c.execute(GAME.select().where(GAME.c.id.startswith(ref, autoescape=True)).limit(2)).all()
                if len(rows) == 1:
                    row = rows[0]
                elif len(rows) > 1:
                    raise StoreError(f"game id {ref!r} is ambiguous: type more of it (see 'agon games')")
        if row is None:
            raise StoreError(f"no game {ref!r} in this store; 'agon games' lists the games")
        return self._game(row)

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

    def _insert(self, c: Connection, game_id: str, envs: Sequence[Envelope]) -> None:
        if not envs:
            return
        stamp = self._stamp(envs[0].recorded_at)
        rows = [
            (game_id, e.id, e.parent, e.depth, e.tag, e.version, e.actor, e.payload,
             stamp if e.recorded_at == envs[0].recorded_at else self._stamp(e.recorded_at))
            for e in envs
        ]
        c.exec_driver_sql(self._sql(
            "INSERT INTO event (game_id, id, parent_id, depth, tag, schema_version, actor, payload, recorded_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"), rows)

    def line(self, game_id: str, head_id: str) -> list[Envelope]:
        """The events from the game's first to ``head_id``, in order.

        Reads the game's nodes in one scan and follows parent links from the head. A game's nodes are the union
        of its lines, which share their beginnings, so this is close to the line itself and much faster than a
        recursive query that looks each parent up in turn."""
        with self._read() as c:
            rows = c.exec_driver_sql(self._sql(
                "SELECT id, parent_id, depth, tag, schema_version, actor, payload, recorded_at FROM event"
                " WHERE game_id = ?"), (game_id,)).all()
        by_id = {r[0]: r for r in rows}
        chain = []
        node = by_id.get(head_id)
        while node is not None:
            chain.append(node)
            node = by_id.get(node[1]) if node[1] is not None else None
        chain.reverse()
        parse = datetime.fromisoformat
        return [
            Envelope(r[0], r[1], r[2], r[3], r[4], r[5], bytes(r[6]),
                     (parse(r[7]) if isinstance(r[7], str) else r[7]).replace(tzinfo=UTC))
            for r in chain
        ]

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
        self, game_id: str, branch: str, expected_head: str, envs: Sequence[Envelope], reason: str = "act"
    ) -> str:
        """Append ``envs`` (a chain following ``expected_head``) and move the branch head to the last one.

        Nodes that already exist (the same events at the same position, e.g. after an undo) are reused, not
        copied. Raises ``Conflict`` when the head is no longer ``expected_head``; nothing is written then.
        """
        if not envs:
            return expected_head
        new_head = envs[-1].id
        try:
            with self._write() as c:
                # A chain's ids depend on every id before them: once one event is new, all that follow are new.
                start = 0
                while start < len(envs) and c.execute(
                    sa.select(EVENT.c.id).where(EVENT.c.game_id == game_id, EVENT.c.id == envs[start].id)
                ).first():
                    start += 1
                self._insert(c, game_id, envs[start:])
                self._cas(c, game_id, branch, expected_head, new_head, reason)
        except sa.exc.IntegrityError:
            # Another writer inserted the same events first (PostgreSQL: its insert was in flight when we looked).
            raise Conflict(
                f"branch {branch!r} of game {game_id} moved while this command ran (someone else recorded the"
                " same event); nothing was recorded: look at 'agon options' again and retry"
            ) from None
        return new_head

    def move_head(self, game_id: str, branch: str, expected_head: str, to_id: str, reason: str) -> None:
        with self._write() as c:
            self._cas(c, game_id, branch, expected_head, to_id, reason)

    @staticmethod
    def _cas(c: Connection, game_id: str, branch: str, expected: str, to_id: str, reason: str) -> None:
        res = c.execute(
            BRANCH.update()
            .where(BRANCH.c.game_id == game_id, BRANCH.c.name == branch, BRANCH.c.head_id == expected)
            .values(head_id=to_id)
        )
        if res.rowcount != 1:
            raise Conflict(
                f"branch {branch!r} of game {game_id} moved while this command ran (someone else recorded"
                " an event); nothing was recorded: look at 'agon options' again and retry"
            )
        c.execute(HEAD_MOVE.insert().values(
            game_id=game_id, branch=branch, from_id=expected, to_id=to_id, reason=reason, at=now()
        ))

    # -- branches ----------------------------------------------------------------------------------------------

    def branches(self, game_id: str) -> list[BranchInfo]:
        with self._read() as c:
            rows = c.execute(BRANCH.select().where(BRANCH.c.game_id == game_id).order_by(BRANCH.c.id)).all()
        return [BranchInfo(r.name, r.head_id, r.luck, r.parent_branch, r.fork_id, _aware(r.created_at)) for r in rows]

    def branch(self, game_id: str, name: str) -> BranchInfo:
        with self._read() as c:
            r = c.execute(BRANCH.select().where(BRANCH.c.game_id == game_id, BRANCH.c.name == name)).first()
        if r is None:
            names = ", ".join(b.name for b in self.branches(game_id))
            raise StoreError(f"game {game_id} has no branch {name!r}; its branches: {names}")
        return BranchInfo(r.name, r.head_id, r.luck, r.parent_branch, r.fork_id, _aware(r.created_at))

    def create_branch(
        self, game_id: str, name: str, head_id: str, luck: int, parent_branch: str | None, switch: bool = True
    ) -> None:
        at = now()
        taken = StoreError(f"game {game_id} already has a branch {name!r}; choose another name")
        with self._write() as c:
            if c.execute(BRANCH.select().where(BRANCH.c.game_id == game_id, BRANCH.c.name == name)).first():
                raise taken
            try:
                c.execute(BRANCH.insert().values(
                    game_id=game_id, name=name, head_id=head_id, luck=luck, parent_branch=parent_branch,
                    fork_id=head_id, created_at=at,
                ))
            except sa.exc.IntegrityError:  # created by another writer since we looked
                raise taken from None
            c.execute(HEAD_MOVE.insert().values(
                game_id=game_id, branch=name, from_id=None, to_id=head_id, reason="branch", at=at
            ))
            if switch:
                c.execute(GAME.update().where(GAME.c.id == game_id).values(current_branch=name))

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


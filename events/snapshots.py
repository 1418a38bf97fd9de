"""State snapshots: a line's state every ``EVERY`` events, kept so that reading the head of a long line folds only
the events after the last snapshot.

A derived, disposable cache (../shared/DESIGN.md, "Store"), like the game summary and the analysis results: never
events, never in the hash chain, always recomputable from the events. A row is the state after one event node,
keyed by

- ``event_id``: the node, whose id is the chain hash of everything before it, so one id always has one state (two
  games holding the same node, e.g. a game imported twice, share it);
- ``ruleset_version``: a new version of the rules ignores old rows (they are simply not read);
- ``layout``: the encoding of this table; a row of another layout is not read either.

A row also holds the node's depth, how many chance events the line holds up to it (the ordinal the next drawn
outcome uses), the encoded state (core/snapshot.py) and a sha256 ``digest`` of all of these: a row whose digest or
encoding does not hold (a torn or garbled write) is ignored, as if missing. ``agon verify`` folds every line from its
first event and compares each snapshot on it; ``agon rebuild`` drops them all. Deleting the table (or any row)
loses nothing but time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from agon.events.envelope import Envelope, stored_payload
from agon.events.hints import Hinted

Store = Any
"""An ``events.store.Store`` (not imported: the store imports this module to create the table)."""

EVERY = 64
"""A snapshot is kept at every node whose depth is a multiple of this: the head of a line is at most this many
events after one (once it is written)."""

LAYOUT = 1
"""The version of the encoding (core/snapshot.py); a row of another layout is ignored."""


class SnapshotRow(SQLModel, table=True):
    __tablename__ = "state_snapshot"
    event_id: str = Field(primary_key=True)
    ruleset_version: str = Field(primary_key=True)
    layout: int
    depth: int
    chance_count: int
    state: bytes
    digest: str
    made_at: datetime


SNAPSHOT = SnapshotRow.__table__


@dataclass(frozen=True)
class Snapshot:
    """The state after node ``event_id`` (at ``depth``), encoded, and the line's chance count up to it."""

    event_id: str
    ruleset_version: str
    depth: int
    chance_count: int
    state: bytes

    def digest(self) -> str:
        h = hashlib.sha256()
        for part in (self.event_id, self.ruleset_version, str(LAYOUT), str(self.depth), str(self.chance_count)):
            h.update(part.encode())
            h.update(b"\x00")
        h.update(self.state)
        return h.hexdigest()


def _checked(event_id: str, version: str, depth: Any, chance: Any, state: Any, digest: Any) -> Snapshot | None:
    """The snapshot of a row, or None when its digest does not hold (a damaged row reads as a missing one)."""
    if state is None:
        return None
    snap = Snapshot(event_id, version, int(depth), int(chance), bytes(state))
    return snap if digest == snap.digest() else None


def _envelope(r: Sequence[Any], times: dict[object, datetime]) -> Envelope:
    at = times.get(r[7])
    if at is None:
        at = times[r[7]] = (datetime.fromisoformat(r[7]) if isinstance(r[7], str) else r[7]).replace(tzinfo=UTC)
    return Envelope(r[0], r[1], r[2], r[3], r[4], r[5], stored_payload(r[6]), at)


def tail(store: Store, game_id: str, head_id: str, version: str, budget: int = 2 * EVERY
         ) -> tuple[list[Envelope], Snapshot | None, Envelope | None]:
    """The events from ``head_id`` back to the nearest node with a snapshot for ``version`` (first event first,
    that node included) and its snapshot; or back to the game's first event (snapshot None) when that comes first.
    Third, the game's first event (None if the store has none): a line that starts from a snapshot still needs
    it (its setup), and reading it in the same query saves a round trip per command on a server.

    Walks parent links in one recursive query, at most ``budget`` + 1 nodes: when neither is found within them
    (no snapshot yet, a damaged snapshot, a broken chain) it returns the nodes it read and None, and the caller
    reads the whole line instead. Converts only the rows it reads: the cost does not grow with the line."""
    has = ("CASE WHEN e.depth - (e.depth / ?) * ? = 0 AND EXISTS (SELECT 1 FROM state_snapshot s"
           " WHERE s.event_id = e.id AND s.ruleset_version = ? AND s.layout = ?) THEN 1 ELSE 0 END")
    sql = store._sql(
        "WITH RECURSIVE walk (id, parent_id, depth, tag, schema_version, actor, payload, recorded_at, n, stop) AS ("
        f" SELECT e.id, e.parent_id, e.depth, e.tag, e.schema_version, e.actor, e.payload, e.recorded_at, 0, {has}"
        " FROM event e WHERE e.game_id = ? AND e.id = ?"
        " UNION ALL"
        " SELECT e.id, e.parent_id, e.depth, e.tag, e.schema_version, e.actor, e.payload, e.recorded_at, w.n + 1,"
        f" {has} FROM walk w JOIN event e ON e.game_id = ? AND e.id = w.parent_id WHERE w.n < ? AND w.stop = 0)"
        " SELECT w.id, w.parent_id, w.depth, w.tag, w.schema_version, w.actor, w.payload, w.recorded_at,"
        " s.depth, s.chance_count, s.state, s.digest, w.n FROM walk w LEFT JOIN state_snapshot s"
        " ON w.stop = 1 AND s.event_id = w.id AND s.ruleset_version = ? AND s.layout = ?"
        " UNION ALL"  # the first event, last (n = -1)
        " SELECT e.id, e.parent_id, e.depth, e.tag, e.schema_version, e.actor, e.payload, e.recorded_at,"
        " NULL, NULL, NULL, NULL, -1 FROM game g JOIN event e ON e.game_id = g.id AND e.id = g.root_id"
        " WHERE g.id = ? ORDER BY 13 DESC")
    found = (EVERY, EVERY, version, LAYOUT)
    args = (*found, game_id, head_id, *found, game_id, budget, version, LAYOUT, game_id)
    try:
        with store._read() as c:
            rows = c.exec_driver_sql(sql, args).all()
    except (sa.exc.SQLAlchemyError, Hinted):  # a busy or odd store (Unavailable): the caller reads the whole line
        return [], None, None
    times: dict[object, datetime] = {}
    root = _envelope(rows.pop(), times) if rows and rows[-1][12] == -1 else None
    envs = [_envelope(r, times) for r in rows]
    if not rows:
        return envs, None, root
    first = rows[0]
    snap = None
    if first[10] is not None:
        snap = _checked(first[0], version, first[8], first[9], first[10], first[11])
    return envs, snap, root


def rows(store: Store, game_id: str, ids: Sequence[str]) -> list[Envelope]:
    """The events of a game with these ids, by depth (a span of a line whose ids are known from its links): only
    these rows are read and converted."""
    out: list[Envelope] = []
    times: dict[object, datetime] = {}
    sql = ("SELECT id, parent_id, depth, tag, schema_version, actor, payload, recorded_at FROM event"
           " WHERE game_id = ? AND id IN ({})")
    with store._read() as c:
        for i in range(0, len(ids), 500):
            part = list(ids[i:i + 500])
            got = c.exec_driver_sql(store._sql(sql.format(", ".join("?" * len(part)))), (game_id, *part)).all()
            out += [_envelope(r, times) for r in got]
    out.sort(key=lambda e: e.depth)
    return out


def put(store: Store, snaps: Iterable[Snapshot]) -> None:
    """Keep ``snaps``, replacing rows with the same key. A cache: a failed write (a read-only store, a busy
    database) is not an error, it is tried again by a later command."""
    rows = [{"event_id": s.event_id, "ruleset_version": s.ruleset_version, "layout": LAYOUT, "depth": s.depth,
             "chance_count": s.chance_count, "state": s.state, "digest": s.digest(), "made_at": datetime.now(UTC)}
            for s in snaps]
    if not rows:
        return

    def write(c: Any) -> None:
        for r in rows:
            c.execute(SNAPSHOT.delete().where(SNAPSHOT.c.event_id == r["event_id"],
                                              SNAPSHOT.c.ruleset_version == r["ruleset_version"]))
        c.execute(SNAPSHOT.insert(), rows)

    try:
        store.keep("state snapshots", write)  # a read-only store keeps none: the line is folded every time
    except (sa.exc.SQLAlchemyError, Hinted):  # the store unavailable: a cache is written another time
        pass


def of_nodes(store: Store, ids: Sequence[str]) -> dict[str, tuple[str, int, int, bytes, bool]]:
    """Every stored snapshot of these nodes, any version: event id -> (ruleset version, depth, chance count,
    state, digest holds), for ``agon verify`` (rows of another layout are left out)."""
    out: dict[str, tuple[str, int, int, bytes, bool]] = {}
    with store._read() as c:
        for i in range(0, len(ids), 500):
            rows = c.execute(sa.select(SNAPSHOT.c.event_id, SNAPSHOT.c.ruleset_version, SNAPSHOT.c.depth,
                                       SNAPSHOT.c.chance_count, SNAPSHOT.c.state, SNAPSHOT.c.digest).where(
                SNAPSHOT.c.event_id.in_(list(ids[i:i + 500])), SNAPSHOT.c.layout == LAYOUT)).all()
            for r in rows:
                snap = _checked(r[0], r[1], r[2], r[3], r[4], r[5])
                out[r[0]] = (r[1], int(r[2]), int(r[3]), bytes(r[4]), snap is not None)
    return out


def drop(store: Store, ids: Sequence[str] | None = None) -> int | None:
    """Delete the snapshots of these nodes (every snapshot: ``agon rebuild``); returns how many there were, or None
    when the store may only be read (none was deleted)."""
    n = 0

    def write(c: Any) -> None:
        nonlocal n
        if ids is None:
            n = c.execute(SNAPSHOT.delete()).rowcount
            return
        for i in range(0, len(ids), 500):
            n += c.execute(SNAPSHOT.delete().where(SNAPSHOT.c.event_id.in_(list(ids[i:i + 500])))).rowcount

    return n if store.keep("state snapshots", write) else None


def count(store: Store) -> int:
    with store._read() as c:
        return c.execute(sa.select(sa.func.count()).select_from(SNAPSHOT)).scalar_one()

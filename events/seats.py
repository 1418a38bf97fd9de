"""Seat tokens: the secrets that let a person act as one seat of a game over HTTP (``agon serve``); and each game's
position key, with which the server shows event ids to seats.

Outside the hash chain and never events: a row is one seat of one game (a player's name, or the host) with the
SHA-256 of its token. The token itself is never stored, so a copy of the database opens no seat. Tokens are 32
random bytes, so a plain hash is enough (nothing to guess by brute force); they are compared in constant time.

A game's position key (``position_key``) is 32 random bytes, made the first time the server shows one of the game's
positions and never changed: a seat is shown a keyed digest of an event's id, never a part of the id itself
(core/service.py ``keyed_mark``). It is kept in the store so that every worker over one database shows the same
positions; an older agon, which has no such table, neither makes nor reads it (no layout version of its own).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

Store = Any
"""An ``events.store.Store`` (not imported: the store imports this module to create the table)."""


class SeatTokenRow(SQLModel, table=True):
    __tablename__ = "seat_token"
    game_id: str = Field(primary_key=True)
    seat: str = Field(primary_key=True)
    token_hash: str
    issued_at: datetime


SEATS = SeatTokenRow.__table__


class PositionKeyRow(SQLModel, table=True):
    __tablename__ = "position_key"
    game_id: str = Field(primary_key=True)
    key: str
    """32 random bytes, in hex."""
    made_at: datetime


POSITION_KEYS = PositionKeyRow.__table__


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def put(store: Store, game_id: str, tokens: Mapping[str, str]) -> None:
    """Keep the hashes of ``tokens`` (seat -> token) for ``game_id``, replacing the seats' earlier tokens."""
    at = datetime.now(UTC)
    with store._write() as c:
        c.execute(SEATS.delete().where(SEATS.c.game_id == game_id, SEATS.c.seat.in_(list(tokens))))
        c.execute(SEATS.insert(), [{"game_id": game_id, "seat": seat, "token_hash": digest(tok), "issued_at": at}
                                   for seat, tok in tokens.items()])


def seat_of(store: Store, game_id: str, token: str) -> str | None:
    """The seat whose token is ``token`` in ``game_id``, or None. Every stored hash is compared, each in constant
    time, so the answer's timing does not tell which seat (or how much of a hash) matched."""
    want = digest(token)
    with store._read() as c:
        rows = c.execute(sa.select(SEATS.c.seat, SEATS.c.token_hash).where(SEATS.c.game_id == game_id)).all()
    found = None
    for seat, h in rows:
        if hmac.compare_digest(h, want):
            found = seat
    return found


def issued(store: Store, game_ids: list[str]) -> dict[str, tuple[tuple[str, str], ...]]:
    """For each of ``game_ids`` that has seat tokens: its seats' (seat, token hash), in one read. It changes when a
    link is replaced (``agon links``, in any process), which a server watches along with the heads, so that an event
    stream opened with the old link ends at once, not at the game's next move."""
    out: dict[str, list[tuple[str, str]]] = {}
    with store._read() as c:
        for i in range(0, len(game_ids), 500):
            part = list(game_ids[i:i + 500])
            q = sa.select(SEATS.c.game_id, SEATS.c.seat, SEATS.c.token_hash).where(SEATS.c.game_id.in_(part))
            for gid, seat, h in c.execute(q).all():
                out.setdefault(gid, []).append((seat, h))
    return {g: tuple(sorted(v)) for g, v in out.items()}


def seats(store: Store, game_id: str) -> list[str]:
    """The seats of ``game_id`` that have a token."""
    with store._read() as c:
        return [r[0] for r in c.execute(sa.select(SEATS.c.seat).where(SEATS.c.game_id == game_id)).all()]


def position_key(store: Store, game_id: str) -> bytes | None:
    """``game_id``'s position key, made and kept now if it has none yet (the first worker to keep one wins a race,
    and every worker reads that one). None when the store may not be written and holds no key for the game."""
    def stored() -> bytes | None:
        with store._read() as c:
            got = c.execute(sa.select(POSITION_KEYS.c.key).where(POSITION_KEYS.c.game_id == game_id)).scalar()
        return None if got is None else bytes.fromhex(got)

    key = stored()
    if key is not None:
        return key
    row = {"game_id": game_id, "key": secrets.token_hex(32), "made_at": datetime.now(UTC)}
    try:
        store.keep("position keys", lambda c: c.execute(POSITION_KEYS.insert(), [row]))
    except sa.exc.IntegrityError:  # another worker kept one first: that one is the game's
        pass
    return stored()

"""Card sets stored once per store, keyed by the sha256 of their JSON bytes.

A game's first event names its card set by that hash (``GameCreated.card_set``); the hash is in the event's
payload and so in the game's chain, and a set read back is checked against it, so a game stays tamper-evident
while a store of 1,000 games holds its card set once instead of 1,000 times. Games recorded before this (store
layout 2 and older, and exports of format version 1) embed the whole set in their first event
(``GameCreated.cards``); they keep it, since it is part of their hash chain, and both forms are read.

The table is part of the truth (a game whose set is missing cannot be replayed), so it belongs to the store's
layout (events/store.py, layout 3); rows are only ever added, never changed or removed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlmodel import Field, SQLModel


class CardSetRow(SQLModel, table=True):
    __tablename__ = "card_set"
    hash: str = Field(primary_key=True)  # sha256 of body, hex
    body: bytes  # the card set as JSON, the exact bytes that were hashed


CARD_SET = CardSetRow.__table__


def digest(body: bytes) -> str:
    """The hash a game's first event names its card set by."""
    return hashlib.sha256(body).hexdigest()


def write(c: Connection, sets: Mapping[str, bytes], sqlite: bool) -> None:
    """Store these sets (hash -> body) inside the caller's transaction; a set already stored is left as it is."""
    if not sets:
        return
    sql = "INSERT INTO card_set (hash, body) VALUES ({p}, {p}) ON CONFLICT (hash) DO NOTHING".format(
        p="?" if sqlite else "%s")
    for h, body in sets.items():  # one statement each (usually one set): no psycopg pipeline
        c.exec_driver_sql(sql, (h, body))


def read(c: Connection, hashes: Iterable[str]) -> dict[str, bytes]:
    """The stored bodies of these hashes (a hash not stored is absent from the result)."""
    wanted = sorted(set(hashes))
    if not wanted:
        return {}
    rows = c.execute(sa.select(CARD_SET.c.hash, CARD_SET.c.body).where(CARD_SET.c.hash.in_(wanted))).all()
    return {r[0]: bytes(r[1]) for r in rows}

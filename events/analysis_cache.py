"""The analysis cache: rollout results kept in the store so that a second ``agon analyse`` is instant.

A derived, disposable table (../shared/DESIGN.md, "Store"): never events, never in the hash chain, always
recomputable from the events. A row is one batch of rollouts from one position, keyed by

- ``node_id``: the position, an event id (or, for an alternative decision not taken, the id that event would
  have: the chain hash of the parent and the decision), so the same position reached in two games shares it;
- ``ruleset_version``: the ruleset's version and the analysis's (``core.analyse.cache_version``, ``5/a1``): a new
  version of the rules, or of how rollouts are played and tallied (``core.analyse.ANALYSIS_VERSION``), makes old
  rows stale, not wrong: they are simply not read, and played again (no layout change: only the value differs);
- ``bot``, ``rollouts``, ``seed``: how the figures were made;
- ``start``: the index of the batch's first rollout (a second, independent batch re-checks a best alternative).

``result`` is the batch's tally as JSON: figures only, never a sentence (the analysis's words are made each time it
is shown, so a change in them needs no new version). Deleting the table (or any row) loses nothing but time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlmodel import Field, SQLModel

Store = Any
"""An ``events.store.Store`` (not imported: the store imports this module to create the table)."""


class AnalysisRow(SQLModel, table=True):
    __tablename__ = "analysis_result"
    node_id: str = Field(primary_key=True)
    ruleset_version: str = Field(primary_key=True)
    bot: str = Field(primary_key=True)
    rollouts: int = Field(primary_key=True)
    seed: int = Field(primary_key=True)
    start: int = Field(primary_key=True, default=0)
    result: bytes
    computed_at: datetime


ANALYSIS = AnalysisRow.__table__


@dataclass(frozen=True)
class Key:
    node_id: str
    ruleset_version: str
    bot: str
    rollouts: int
    seed: int
    start: int = 0


def get(store: Store, keys: Iterable[Key]) -> dict[Key, dict[str, Any]]:
    """The cached results among ``keys`` (missing keys are left out): one query per settings and few hundred
    positions."""
    groups: dict[tuple[str, str, int, int], dict[tuple[str, int], Key]] = {}
    for k in keys:
        groups.setdefault((k.ruleset_version, k.bot, k.rollouts, k.seed), {})[(k.node_id, k.start)] = k
    out: dict[Key, dict[str, Any]] = {}
    with store._read() as c:
        for (version, bot, rollouts, seed), wanted in groups.items():
            nodes = sorted({node for node, _ in wanted})
            for i in range(0, len(nodes), 500):
                rows = c.execute(sa.select(ANALYSIS.c.node_id, ANALYSIS.c.start, ANALYSIS.c.result).where(
                    ANALYSIS.c.node_id.in_(nodes[i:i + 500]), ANALYSIS.c.ruleset_version == version,
                    ANALYSIS.c.bot == bot, ANALYSIS.c.rollouts == rollouts, ANALYSIS.c.seed == seed)).all()
                for node_id, start, result in rows:
                    key = wanted.get((node_id, start))
                    if key is not None:
                        out[key] = msgspec.json.decode(bytes(result))
    return out


def put(store: Store, results: Mapping[Key, Mapping[str, Any]]) -> None:
    """Keep ``results``, replacing rows with the same key (``--fresh`` recomputes and overwrites). A store that may
    only be read keeps none (``Store.keep``): the analysis is played again next time."""
    if not results:
        return
    at = datetime.now(UTC)

    def write(c: Any) -> None:
        for k, result in results.items():
            where = (ANALYSIS.c.node_id == k.node_id, ANALYSIS.c.ruleset_version == k.ruleset_version,
                     ANALYSIS.c.bot == k.bot, ANALYSIS.c.rollouts == k.rollouts, ANALYSIS.c.seed == k.seed,
                     ANALYSIS.c.start == k.start)
            c.execute(ANALYSIS.delete().where(*where))
            c.execute(ANALYSIS.insert().values(
                node_id=k.node_id, ruleset_version=k.ruleset_version, bot=k.bot, rollouts=k.rollouts, seed=k.seed,
                start=k.start, result=msgspec.json.encode(result), computed_at=at))

    store.keep("analysis results", write)


def available(store: Store, node_id: str, ruleset_version: str) -> list[tuple[str, int, int]]:
    """The (bot, rollouts, seed) settings with a result for ``node_id``, the newest first."""
    with store._read() as c:
        rows = c.execute(sa.select(ANALYSIS.c.bot, ANALYSIS.c.rollouts, ANALYSIS.c.seed).where(
            ANALYSIS.c.node_id == node_id, ANALYSIS.c.ruleset_version == ruleset_version, ANALYSIS.c.start == 0,
        ).order_by(ANALYSIS.c.computed_at.desc())).all()
    return [(r[0], r[1], r[2]) for r in rows]


def count(store: Store) -> int:
    with store._read() as c:
        return c.execute(sa.select(sa.func.count()).select_from(ANALYSIS)).scalar_one()

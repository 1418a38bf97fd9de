"""Races of two writers appending the same events after the same head, counted (tests/test_pg_races.py and
scripts/reliability.py): one must win, the other get a clean ``Conflict``, the game must hold each event once, and
the database driver (psycopg) must log nothing."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

from agon.events.store import Conflict, Store
from tests.test_store import chain, new_game


class Logged(logging.Handler):
    """Keeps the messages of the warnings (and worse) logged while it is attached."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record.getMessage())


@dataclass
class Races:
    outcomes: list[list[str]] = field(default_factory=list)
    """Each race's two results, sorted: "conflict" or "ok"."""
    wrong: int = 0
    """Races that nobody won, or after which the game does not hold the events exactly once."""
    logged: list[str] = field(default_factory=list)
    """What psycopg logged (a warning or worse) during the races."""

    @property
    def won(self) -> int:
        return sum(o.count("ok") for o in self.outcomes)

    @property
    def conflicts(self) -> int:
        return sum(o.count("conflict") for o in self.outcomes)


def race_same_events(url: str, n: int, events: int) -> Races:
    """``n`` races on the store at ``url``, each of two writers (two ``Store`` objects, so two connection pools)
    appending the same ``events`` events after a new game's first event at the same moment."""
    handler = Logged()
    logging.getLogger("psycopg").addHandler(handler)
    stores = [Store(url), Store(url, create=False), Store(url, create=False)]
    report = Races()
    try:
        for k in range(n):
            gid = f"r{k}"
            root = new_game(stores[0], gid)
            barrier = threading.Barrier(2)
            results: list[str] = []

            def racer(store: Store, root=root, gid=gid, barrier=barrier, results=results) -> None:
                envs = chain(events, root, "same")
                barrier.wait()
                try:
                    store.append(gid, "main", root.id, envs)
                    results.append("ok")
                except Conflict:
                    results.append("conflict")

            threads = [threading.Thread(target=racer, args=(s,)) for s in stores[1:]]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            report.outcomes.append(sorted(results))
            report.wrong += stores[0].event_count(gid) != events + 1 or "ok" not in results
    finally:
        logging.getLogger("psycopg").removeHandler(handler)
        for s in stores:
            s.close()
    report.logged = handler.records
    return report

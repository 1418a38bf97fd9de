"""Reliability figures for the README: races, SIGKILL crashes, fuzzing and tampered files, counted in one run.

    python scripts/reliability.py            # the README's figures (a few minutes on two cores)
    python scripts/reliability.py --quick    # fewer of each

Every figure is counted here, not claimed: races of two writers appending the same events after the same head
(one must win, the other get a clean conflict, psycopg must log nothing), kills of a process that records decisions
(nothing acknowledged lost, nothing damaged, every line reachable), hypothesis fuzzing of 'act' with every ruleset's
event schema and of 'import' with damaged files (no exception but the service's one-line errors), and rewritten
files (hashes recomputed) that import must refuse. PostgreSQL runs where AGON_TEST_PG_URL (or the local default)
answers; otherwise it says so.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("AGON_RULESETS", "toy=tests.toygame")

PG_URL = os.environ.get("AGON_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def sqlite_url() -> str:
    return f"sqlite:///{Path(tempfile.mkdtemp(prefix='agon-rel-')) / 'rel.db'}"


class PgSchema:
    """A fresh schema on the PostgreSQL server, dropped afterwards; ``url`` is None when no server answers."""

    def __enter__(self) -> str | None:
        import sqlalchemy as sa

        self.schema = f"agon_rel_{secrets.token_hex(4)}"
        try:
            self.engine = sa.create_engine(PG_URL)
            with self.engine.begin() as c:
                c.execute(sa.text(f"CREATE SCHEMA {self.schema}"))
        except Exception:  # noqa: BLE001 - no server: the figure says so
            self.engine = None
            return None
        sep = "&" if "?" in PG_URL else "?"
        return f"{PG_URL}{sep}options=-csearch_path%3D{self.schema}"

    def __exit__(self, *exc) -> None:
        import sqlalchemy as sa

        if self.engine is not None:
            with self.engine.begin() as c:
                c.execute(sa.text(f"DROP SCHEMA {self.schema} CASCADE"))
            self.engine.dispose()


def races(url: str, n: int) -> dict:
    """``n`` races of two writers appending the same 20 events after the same head (tests/races.py)."""
    from tests.races import race_same_events

    report = race_same_events(url, n, 20)
    return {"races": n, "appends_won": report.won, "clean_conflicts": report.conflicts, "wrong_results": report.wrong,
            "driver_warnings": len(report.logged)}


def kills(url: str, n: int) -> dict:
    from tests.crash import run_kills

    report = run_kills(url, n, seed=7)
    return {"kills": report.kills, "acknowledged": report.acked, "problems": len(report.problems)}


def fuzz(examples: int) -> dict:
    from hypothesis import HealthCheck, given, settings

    from agon.core import registry
    from agon.core.service import NewGame, Service, ServiceError, codec_for
    from agon.core.transfer import export_game, import_data
    from agon.events.store import Store
    from tests.fuzz import choices_of, damaged_files

    counts = {"choices": 0, "choices_refused": 0, "files": 0, "files_refused": 0, "tracebacks": 0}
    quiet = settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck),
                     database=None)
    for name in registry.names():
        rs = registry.get(name)
        svc = Service(Store(sqlite_url()))
        bots = [(f"Bot{i}", "random") for i in range(1, rs.min_players)]
        gid = svc.new_game(NewGame(name, players=["Ana"], bots=bots, seed=11))

        def fuzz_act(svc: Service, gid: str, types: tuple) -> None:
            @quiet
            @given(choices_of(types))
            def act(choice: str) -> None:
                counts["choices"] += 1
                try:
                    svc.act(gid, choice)
                except ServiceError:
                    counts["choices_refused"] += 1
                except Exception:  # noqa: BLE001 - counted: the figure must be zero
                    counts["tracebacks"] += 1

            act()

        fuzz_act(svc, gid, codec_for(rs).types)
        svc.store.close()
    svc = Service(Store(sqlite_url()))
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=5))
    for _ in range(3):
        svc.act(gid, "1")
    svc.branch(gid, "side", at=2)
    for good in (export_game(svc, gid), svc.export(gid, "main")):
        other = Service(Store(sqlite_url()))

        def fuzz_import(other: Service, good: bytes) -> None:
            @quiet
            @given(damaged_files(good))
            def imp(data: bytes) -> None:
                counts["files"] += 1
                try:
                    import_data(other, data)
                except ServiceError:
                    counts["files_refused"] += 1
                except Exception:  # noqa: BLE001
                    counts["tracebacks"] += 1

            imp()

        fuzz_import(other, good)
        other.store.close()
    return counts


def tampered() -> dict:
    """Rewritten files (every hash and the trailer recomputed) that import must refuse, and signed files."""
    from agon.core import signing
    from agon.core.service import Service, ServiceError
    from agon.core.transfer import export_game, import_data
    from agon.events.store import Store
    from tests.tamper import rewrite

    replay = (ROOT / "replays" / "perikles-4p.jsonl").read_bytes()
    svc = Service(Store(sqlite_url()))
    gid = import_data(svc, replay).game_id
    folder = Path(tempfile.mkdtemp(prefix="agon-keys-"))
    public = signing.public_hex(signing.keygen(folder / "key"))

    def dice(evs):
        ev = next(e for e in evs if e["tag"] == "perikles.battle_dice_rolled" and e["payload"]["attacker"] != [6, 6])
        ev["payload"]["attacker"] = [6, 6]

    def seed(evs):
        evs[0]["payload"]["seed"] += 1

    def seats(evs):
        evs[0]["payload"]["players"] = [{"name": "Ana", "bot": None}]

    def version(evs):
        evs[0]["payload"]["ruleset_version"] = "999"

    def same_name(evs):
        for p in evs[0]["payload"]["players"]:
            p["name"] = "Ana"

    def retag(evs):
        ev = next(e for e in evs if e["tag"] == "perikles.battle_dice_rolled")
        ev["tag"] = "perikles.display_refilled"

    cases: list[tuple[str, bytes, str | None]] = []
    for kind, good in (("line", replay), ("whole game", export_game(svc, gid))):
        for label, change in (("dice changed to 6,6", dice), ("seed changed", seed), ("one seat", seats),
                              ("ruleset version 999", version), ("every seat one name", same_name),
                              ("tag other than the payload's type", retag)):
            cases.append((f"{kind}: {label}", rewrite(good, change), None))
        lines = good.splitlines(keepends=True)
        for label, keep in (("last 30 lines cut", len(lines) - 30), ("first line only", 1),
                            ("trailer cut", len(lines) - 1)):
            cases.append((f"{kind}: {label}", b"".join(lines[:keep]), None))
        signed = signing.sign(good, folder / "key")
        cases.append((f"{kind}: signed, then dice rewritten", rewrite(signed, dice), public))
        cases.append((f"{kind}: signature removed", good, public))
    refused = []
    for label, data, trust in cases:
        target = Service(Store(sqlite_url()))
        try:
            import_data(target, data, trust=trust)
        except ServiceError:
            refused.append(label)
        target.store.close()
    signed_ok = Service(Store(sqlite_url()))
    import_data(signed_ok, signing.sign(replay, folder / "key"), trust=public)  # the untouched file is taken
    return {"tampered_files": len(cases), "refused": len(refused),
            "accepted": [label for label, _, _ in cases if label not in refused]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer races, kills and fuzz examples")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    n_races, n_kills, n_fuzz = (20, 3, 30) if args.quick else (100, 10, 100)
    figures: dict = {}
    t0 = time.time()
    figures["races_sqlite"] = races(sqlite_url(), n_races)
    figures["kills_sqlite"] = kills(sqlite_url(), n_kills)
    with PgSchema() as pg:
        figures["races_postgres"] = races(pg, n_races) if pg else "no PostgreSQL server answered"
    with PgSchema() as pg:
        figures["kills_postgres"] = kills(pg, n_kills) if pg else "no PostgreSQL server answered"
    figures["fuzz"] = fuzz(n_fuzz)
    figures["tampered"] = tampered()
    figures["seconds"] = round(time.time() - t0)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for backend in ("sqlite", "postgres"):
        r, k = figures[f"races_{backend}"], figures[f"kills_{backend}"]
        if isinstance(r, str):
            print(f"{backend}: {r}")
            continue
        print(f"{backend}: {r['races']} races of two writers appending the same events: {r['appends_won']} won,"
              f" {r['clean_conflicts']} clean conflicts, {r['wrong_results']} wrong results,"
              f" {r['driver_warnings']} driver warnings")
        print(f"{backend}: {k['kills']} SIGKILLs while recording ({k['acknowledged']} acknowledged decisions):"
              f" {k['problems']} problems (lost, damaged or unreachable)")
    f = figures["fuzz"]
    print(f"fuzz: {f['choices']} choices from every ruleset's event schema ({f['choices_refused']} refused in one"
          f" line), {f['files']} damaged or rewritten import files ({f['files_refused']} refused):"
          f" {f['tracebacks']} tracebacks")
    t = figures["tampered"]
    print(f"tampered files: {t['refused']} of {t['tampered_files']} refused"
          + (f"; accepted: {', '.join(t['accepted'])}" if t["accepted"] else ""))
    print(f"({figures['seconds']} s)")


if __name__ == "__main__":
    main()

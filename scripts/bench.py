"""agon's benchmark: every figure is a ratio against a baseline measured in the same run on the same machine.

    .venv/bin/pip install -e '.[bench]' && .venv/bin/python scripts/bench.py

Every figure is the median of the ratios of interleaved pairs (``paired``: the two sides run in turn, alternating
which goes first), never a best-of: a pair runs under one load, so the ratio holds still while the load changes.

The groups (``bench.py GROUP...`` runs only those; SQLite, and PostgreSQL at ``AGON_BENCH_PG_URL`` or the local
``test`` database, where a group names both):

- ``append``: the store's batched append against raw ``sqlite3`` ``executemany`` of the same rows into the same
  schema (target: at least 0.5x).
- ``eventsourcing``: append, read back and rebuild the state of 10,000 events against the ``eventsourcing``
  library's SQLite application doing the same, both syncing every commit (target: at least 3x faster).
- ``o1``: branch creation, and undo with redo, at depth 10,000 against depth 10, as service calls (target: within
  1.5x, i.e. O(1)).
- ``recording``: a whole bot game recorded through the service against the same game played in memory, per
  ruleset (target: at most 1.5x).
- ``commands``: ``agon branch``, ``agon undo`` + ``agon redo`` end to end at the head of lines of about 10,000
  events against about 10 (target: within 1.5x); with ``undo``: ``agon undo`` at the head of about 100,000 events
  against about 100 (``undo`` alone runs only this one).
- ``snapshots``: ``agon state`` with the options and ``agon act`` at the head of a 100,000-event line against a
  100-event one, in process and end to end (target: within 2x).
- ``listing``: ``agon games --limit 50`` in a 10,000-game store against a 10-game one (target: within 1.5x), and
  ``agon stats`` against reading its summary rows alone (target: within 2x).
- ``startup``: ``agon state`` end to end against a bare interpreter importing the same libraries (target: at most
  1.5x).
- ``rollouts`` (scripts/bench_rollouts.py): events/s per ruleset against today's play-out, two workers against one,
  and the shipped Pergamemnon replay analysed with 100 rollouts per position.

Exit status 1 when a target is missed, so the script can guard a change.
"""

from __future__ import annotations

import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("AGON_RULESETS", "toy=tests.toygame")

from agon.core import registry  # noqa: E402
from agon.core.service import Service, codec_for  # noqa: E402
from agon.events.base import GameCreated, PlayerSeat  # noqa: E402
from agon.events.envelope import Envelope, seal  # noqa: E402
from agon.events.store import Store  # noqa: E402

T0 = datetime(2026, 1, 1, tzinfo=UTC)
results: list[tuple[str, str, float, str, bool]] = []


def record(name: str, detail: str, ratio: float, target: str, ok: bool) -> None:
    results.append((name, detail, ratio, target, ok))
    print(f"{'ok  ' if ok else 'MISS'} {name}: {detail} -> {ratio:.2f}x (target {target})", flush=True)


def toy_line(n: int, actor: str = "ann") -> list[Envelope]:
    rs = registry.get("toy")
    codec = codec_for(rs)
    created = GameCreated(ruleset="toy", ruleset_version="1", players=(PlayerSeat("ann"), PlayerSeat("bob", "random")),
                          seed=1)
    root = seal(None, "game.created", 1, "setup", codec.encode(created), T0)
    line, parent = [root], root
    payload = b'{"type":"toy.roll_chosen"}'
    for _ in range(n):
        parent = seal(parent, "toy.roll_chosen", 1, actor, payload, T0)
        line.append(parent)
    return line


def bench_append(tmp: Path, n: int = 20000) -> None:
    line = toy_line(n)
    rows = [("g", e.id, e.parent, e.depth, e.tag, e.version, e.actor, e.payload, e.recorded_at.isoformat(" "))
            for e in line[1:]]

    def ours() -> None:
        path = tmp / f"ours-{time.perf_counter_ns()}.db"
        store = Store(f"sqlite:///{path}")
        store.create_game("g", "toy", "", ["ann", "bob"], line[0])
        t = time.perf_counter()
        store.append("g", "main", line[0].id, line[1:])
        ours.elapsed = time.perf_counter() - t  # type: ignore[attr-defined]
        store.close()

    def raw() -> None:
        path = tmp / f"raw-{time.perf_counter_ns()}.db"
        Store(f"sqlite:///{path}").close()  # the same schema and indexes
        con = sqlite3.connect(path, isolation_level=None)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")
        t = time.perf_counter()
        con.execute("BEGIN IMMEDIATE")
        con.executemany(
            "INSERT INTO event (game_id, id, parent_id, depth, tag, schema_version, actor, payload, recorded_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        con.execute("COMMIT")
        raw.elapsed = time.perf_counter() - t  # type: ignore[attr-defined]
        con.close()

    ours_t, raw_t, ratios = [], [], []
    for i in range(9):  # interleaved, alternating which goes first; the median of the pairs' ratios
        for fn in ((ours, raw) if i % 2 == 0 else (raw, ours)):
            fn()
        ours_t.append(ours.elapsed)  # type: ignore[attr-defined]
        raw_t.append(raw.elapsed)  # type: ignore[attr-defined]
        ratios.append(raw_t[-1] / ours_t[-1])  # our throughput / raw throughput
    o, r, ratio = n / statistics.median(ours_t), n / statistics.median(raw_t), statistics.median(ratios)
    record("append throughput vs raw sqlite3 executemany", f"{o:,.0f} vs {r:,.0f} events/s", ratio, ">= 0.5x",
           ratio >= 0.5)


def bench_eventsourcing(tmp: Path, n: int = 10000) -> None:
    try:
        from eventsourcing.application import Application
        from eventsourcing.domain import Aggregate, event
    except ImportError:
        print("skip eventsourcing comparison: install it with  pip install -e '.[bench]'")
        return

    class Table(Aggregate):
        @event("Registered")
        def __init__(self, name: str) -> None:
            self.name = name
            self.rolls: list[int] = []

        @event("Rolled")
        def roll(self, value: int) -> None:
            self.rolls.append(value)

    class Games(Application):
        pass

    def theirs() -> None:
        os.environ.update(PERSISTENCE_MODULE="eventsourcing.sqlite",
                          SQLITE_DBNAME=str(tmp / f"es-{time.perf_counter_ns()}.db"))
        app = Games()
        agg = Table("g")
        for i in range(n):
            agg.roll(i % 6 + 1)
        app.save(agg)
        back = app.repository.get(agg.id)
        assert len(back.rolls) == n

    rs = registry.get("toy")
    codec = codec_for(rs)
    import sqlalchemy as sa

    from tests.toygame.rules import DieRolled

    def ours() -> None:
        store = Store(f"sqlite:///{tmp / f'ours-es-{time.perf_counter_ns()}.db'}")

        @sa.event.listens_for(store.engine, "connect")
        def _full(dbapi_conn, _record):  # eventsourcing's SQLite keeps SQLite's default: every commit synced
            dbapi_conn.execute("PRAGMA synchronous=FULL")

        store.engine.dispose()
        line = toy_line(0)
        store.create_game("g", "toy", "", ["ann", "bob"], line[0])
        parent, envs = line[0], []
        for i in range(n):
            parent = seal(parent, "toy.die_rolled", 1, "chance", codec.encode(DieRolled(value=i % 6 + 1)), T0)
            envs.append(parent)
        store.append("g", "main", line[0].id, envs)
        rolls: list[int] = []  # the state rebuilt from the events, as eventsourcing's repository rebuilds its
        for env in store.line("g", parent.id)[1:]:  # aggregate: decode each event and apply it
            rolls.append(codec.decode(env.payload).value)
        assert len(rolls) == n
        store.close()

    theirs()  # one untimed run of each first: the first in a process paid one-time costs (imports, caches), which
    ours()  # made this the figure that moved most between runs (2.97x first in a whole run, 3.2-3.3x alone)
    t, o, ratio = paired(theirs, ours, 11)  # interleaved: both sides under the same load
    record("append, read back and rebuild the state of 10,000 events vs eventsourcing (SQLite, synchronous=FULL"
           " on both)", f"{o * 1000:.0f} ms vs {t * 1000:.0f} ms", ratio, ">= 3x faster", ratio >= 3)


def bench_o1(tmp: Path) -> None:
    store = Store(f"sqlite:///{tmp / 'depth.db'}")
    svc = Service(store)
    for gid, depth in (("shallow", 10), ("deep", 10000)):
        line = toy_line(depth)
        store.import_game(gid, "toy", "", ["ann", "bob"], line)
    counter = iter(range(10**6))

    def branch(gid: str) -> Callable[[], object]:
        return lambda: svc.branch(gid, f"b{next(counter)}")

    def undo_redo(gid: str) -> Callable[[], object]:
        def run() -> None:
            svc.undo(gid, branch="main")
            svc.redo(gid, branch="main")
        return run

    for label, make in (("branch creation", branch), ("undo + redo", undo_redo)):
        shallow, deep = make("shallow"), make("deep")
        shallow(), deep()
        # interleaved, so drift in the machine's load or the WAL's size hits both alike
        d, s, ratio = paired(deep, shallow, 81)
        record(f"{label} at depth 10,000 vs depth 10", f"{d * 1000:.2f} ms vs {s * 1000:.2f} ms", ratio,
               "<= 1.5x", ratio <= 1.5)
    store.close()


def pg_url() -> str | None:
    """A fresh schema on the PostgreSQL server named by AGON_BENCH_PG_URL (default: the tests' server), or None."""
    import secrets

    import sqlalchemy as sa

    base = os.environ.get("AGON_BENCH_PG_URL", os.environ.get(
        "AGON_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"))
    schema = f"agon_bench_{secrets.token_hex(4)}"
    try:
        eng = sa.create_engine(base)
        with eng.begin() as c:
            c.execute(sa.text(f"CREATE SCHEMA {schema}"))
        eng.dispose()
    except Exception as e:  # noqa: BLE001
        print(f"skip PostgreSQL figures: no server at {base} ({type(e).__name__})")
        return None
    _schemas.append((base, schema))
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}"


_schemas: list[tuple[str, str]] = []
"""The PostgreSQL schemas this run made (server URL, name): dropped when it ends."""


def drop_schemas() -> None:
    import sqlalchemy as sa

    while _schemas:
        base, schema = _schemas.pop()
        eng = sa.create_engine(base)
        try:
            with eng.begin() as c:
                c.execute(sa.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        except Exception as e:  # noqa: BLE001 - a schema left behind is named, not fatal
            print(f"could not drop the benchmark's schema {schema}: {type(e).__name__}")
        finally:
            eng.dispose()


def backends(tmp: Path) -> list[tuple[str, str]]:
    urls = [("SQLite", f"sqlite:///{tmp / f'store-{time.perf_counter_ns()}.db'}")]
    pg = pg_url()
    if pg:
        urls.append(("PostgreSQL", pg))
    return urls


def bench_recording(label: str, url: str) -> None:
    """A whole bot game recorded through the service (``agon demo``'s path) against playing the same game in
    memory from the same setup (the bundled card set, every event checked against the rules)."""
    from agon.core.autoplay import play_out
    from agon.core.service import NewGame, default_cards

    store = Store(url)
    svc = Service(store)
    for name in (n for n in registry.names() if n != "toy"):
        rs = registry.get(name)
        seats = max(rs.min_players, 2)
        bots = [(f"Bot{i}", "random") for i in range(seats)]
        seeds = iter(range(1, 10**6))
        seed = [0]

        # the loop's rs, bots, name and seed are bound when each function is made, so a call uses this ruleset's
        # (seed is the one-item list the timing loop below sets)
        def memory(rs=rs, bots=bots, seed=seed) -> None:
            created = GameCreated(ruleset=rs.name, ruleset_version=rs.version, seed=seed[0], cards=default_cards(rs),
                                  players=tuple(PlayerSeat(n, k) for n, k in bots))
            memory.events = len(play_out(rs, created)[0])  # type: ignore[attr-defined]

        def recorded(name=name, bots=bots, seed=seed) -> None:
            svc.new_game(NewGame(name, bots=bots, seed=seed[0]))

        # each seed is played in memory and recorded, in turn (alternating which goes first): the ratio is taken
        # per pair (both under the same load), and the median of the pairs' ratios is reported
        mem_t, rec_t, ratios = [], [], []
        repeat = 21 if name != "perikles" else 7
        svc.new_game(NewGame(name, bots=bots, seed=0))
        for i in range(repeat):
            seed[0] = next(seeds)
            took = {}
            for fn in ((memory, recorded) if i % 2 == 0 else (recorded, memory)):
                t0 = time.perf_counter()
                fn()
                took[fn] = time.perf_counter() - t0
            mem_t.append(took[memory])
            rec_t.append(took[recorded])
            ratios.append(took[recorded] / took[memory])
        ratio = statistics.median(ratios)
        record(f"recording a whole {name} bot game vs playing it in memory ({label})",
               f"{statistics.median(rec_t) * 1000:.1f} ms vs {statistics.median(mem_t) * 1000:.1f} ms a game",
               ratio, "<= 1.5x", ratio <= 1.5)
    store.close()


def fill_club(svc: Service, games: int) -> None:
    """A club's store: ``games`` whole bot games, cycling through the shipped rulesets. One game of each is
    recorded through the service; the rest are copies of those (new ids, the same events), written by the
    database itself so that filling 10,000 games takes seconds."""
    import sqlalchemy as sa

    from agon.core.service import NewGame
    from agon.events.summary import SUMMARY

    store = svc.store
    names = [n for n in registry.names() if n != "toy"]
    templates = []
    for name in names:
        rs = registry.get(name)
        templates.append(svc.new_game(NewGame(name, bots=[(f"Bot{i}", "random") for i in range(max(rs.min_players, 2))],
                                              seed=1)))
    if games <= len(templates):
        return
    with store.engine.connect() as c:
        game_rows = {t: c.execute(sa.text("SELECT * FROM game WHERE id = :t"), {"t": t}).mappings().one()
                     for t in templates}
        branch_rows = {t: c.execute(sa.text("SELECT * FROM branch WHERE game_id = :t"), {"t": t}).mappings().one()
                       for t in templates}
        summary_rows = {t: c.execute(sa.select(SUMMARY).where(SUMMARY.c.game_id == t)).mappings().one()
                        for t in templates}
    copies: dict[str, list[str]] = {t: [] for t in templates}
    for i in range(games - len(templates)):
        copies[templates[i % len(templates)]].append(f"c{i:07d}")
    t0 = T0.replace(year=2020)
    with store._write() as c:
        for t, ids in copies.items():
            g, b, sm = game_rows[t], branch_rows[t], summary_rows[t]
            c.execute(sa.text("INSERT INTO game (id, ruleset, title, players, root_id, created_at, current_branch)"
                              " VALUES (:id, :ruleset, :title, :players, :root_id, :created_at, 'main')"),
                      [{**g, "id": gid, "title": f"copy of {t}",
                        "created_at": t0.replace(tzinfo=None) + timedelta(milliseconds=int(gid[1:]))} for gid in ids])
            c.execute(sa.text(
                "INSERT INTO event (game_id, id, parent_id, depth, tag, schema_version, actor, payload, recorded_at)"
                " SELECT g.id, e.id, e.parent_id, e.depth, e.tag, e.schema_version, e.actor, e.payload,"
                " e.recorded_at FROM event e JOIN game g ON g.title = :title WHERE e.game_id = :t"),
                {"title": f"copy of {t}", "t": t})
            c.execute(sa.text("INSERT INTO branch (game_id, name, head_id, luck, created_at)"
                              " VALUES (:gid, 'main', :head, 0, :at)"),
                      [{"gid": gid, "head": b["head_id"], "at": b["created_at"]} for gid in ids])
            c.execute(sa.text("INSERT INTO head_move (game_id, branch, from_id, to_id, reason, at)"
                              " VALUES (:gid, 'main', NULL, :head, 'create', :at)"),
                      [{"gid": gid, "head": b["head_id"], "at": b["created_at"]} for gid in ids])
            c.execute(SUMMARY.insert(), [{**sm, "game_id": gid} for gid in ids])


def bench_listing(tmp: Path, label: str, small_url: str, big_url: str, games: int = 10000) -> None:
    """``agon games --limit 50`` end to end on a 10,000-game store against a 10-game store, and what ``agon stats``
    does in process (the listing from the summaries and the counting, without the CLI's start) against reading
    the same summary rows alone."""
    import msgspec
    import sqlalchemy as sa

    from agon.events.summary import FACTS, SUMMARY

    small, big = Service(Store(small_url)), Service(Store(big_url))
    fill_club(small, 10)
    fill_club(big, games)
    agon = str(Path(sys.executable).with_name("agon"))

    def cli(url: str, *args: str) -> Callable[[], object]:
        return lambda: subprocess.run([agon, "--db", url, *args], capture_output=True, check=True)

    cli(big_url, "games", "--limit", "50")()  # the first listing after the fill may refresh nothing: all fresh
    a, b, ratio = paired(cli(big_url, "games", "--limit", "50"), cli(small_url, "games", "--limit", "50"), 11)
    record(f"'agon games --limit 50' in a {games:,}-game store vs a 10-game store ({label})",
           f"{a * 1000:.0f} ms vs {b * 1000:.0f} ms", ratio, "<= 1.5x", ratio <= 1.5)

    from agon.analysis.stats import aggregate_facts

    name = "perikles"

    def stats() -> None:  # what 'agon stats' does between parsing its arguments and printing (cli/plot_cmds.py
        # _gather): the facts statistics count of the main lines, read in one query, then counted
        stats.games = aggregate_facts(big.main_summaries(name, facts=True))["games"]  # type: ignore[attr-defined]

    game = sa.table("game", sa.column("id"), sa.column("ruleset"))

    # the rows read as agon's own listing reads them (events/summary.py, main_lines): the query compiled once and
    # run through the database's driver, without SQLAlchemy's conversion of each value, so that the ratio counts
    # only what statistics do beyond reading, not a faster read on one side. Every column a summary holds is read
    # and decoded here; that 'agon stats' reads and decodes only those it counts (main_facts) is its own saving
    query = sa.select(*FACTS).join(game, game.c.id == SUMMARY.c.game_id).where(
        game.c.ruleset == sa.bindparam("ruleset", type_=sa.String), SUMMARY.c.branch == "main")
    compiled = query.compile(dialect=big.store.engine.dialect)
    params = {**compiled.params, "ruleset": name}
    sql = str(compiled)
    given = tuple(params[k] for k in compiled.positiontup) if compiled.positional else params
    decoded = [i for i, c in enumerate(FACTS) if c.name in ("winners", "scores", "seats", "sides", "options")]

    def rows_alone() -> None:
        with big.store.engine.connect() as c:
            rows = c.exec_driver_sql(sql, given).all()
        for r in rows:  # the JSON columns decoded, as any reader of the rows must
            for i in decoded:
                msgspec.json.decode(bytes(r[i]))

    stats()
    a, b, ratio = paired(stats, rows_alone, 11)
    record(f"'agon stats {name}' over {stats.games:,} games vs reading their summary rows alone ({label})",  # type: ignore[attr-defined]
           f"{a * 1000:.0f} ms vs {b * 1000:.0f} ms", ratio, "<= 2x", ratio <= 2)
    small.store.close()
    big.store.close()


def paired(a: Callable[[], object], b: Callable[[], object], repeat: int,
           after: Callable[[], object] | None = None) -> tuple[float, float, float]:
    """Run ``a`` and ``b`` in turn (alternating which goes first) ``repeat`` times: the medians of each and the
    median of the pairs' ratios a/b. Both halves of a pair run under the same load, so the ratio holds still
    while the machine's load changes. ``after`` runs, untimed, after each of them (to undo what it did)."""
    ta, tb, ratios = [], [], []
    for i in range(repeat):
        first, second = (a, b) if i % 2 == 0 else (b, a)
        t0 = time.perf_counter()
        first()
        t1 = time.perf_counter()
        if after is not None:
            after()
        t2 = time.perf_counter()
        second()
        t3 = time.perf_counter()
        if after is not None:
            after()
        x, y = (t1 - t0, t3 - t2) if i % 2 == 0 else (t3 - t2, t1 - t0)
        ta.append(x)
        tb.append(y)
        ratios.append(x / y)
    return statistics.median(ta), statistics.median(tb), statistics.median(ratios)


def bench_commands_o1(label: str, url: str) -> None:
    """The commands' O(1) claims end to end, on valid lines: ``agon branch`` at the head and ``agon undo`` then
    ``agon redo`` in a whole bot game of about 10,000 events against one of about 10 (the test game, Pig, to
    3,000 points and to 3)."""
    from agon.core.service import NewGame

    svc = Service(Store(url))
    deep = svc.new_game(NewGame("toy", bots=[("ann", "random"), ("bob", "random")], seed=1, options={"target": 5000}))
    shallow = svc.new_game(NewGame("toy", bots=[("ann", "random"), ("bob", "random")], seed=1, options={"target": 3}))
    sizes = {g: len(svc.load(g).events) for g in (deep, shallow)}
    svc.store.close()
    agon = str(Path(sys.executable).with_name("agon"))
    counter = iter(range(10**6))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the test game's module

    def run(*args: str) -> None:
        subprocess.run([agon, "--db", url, *args], capture_output=True, check=True, env=env)

    def branch(game: str) -> Callable[[], object]:
        return lambda: run("branch", game, f"b{next(counter)}", "-b", "main")

    def undo_redo(game: str) -> Callable[[], object]:
        def both() -> None:
            run("undo", game, "-b", "main")
            run("redo", game, "-b", "main")
        return both

    for what, make in (("'agon branch' at the head", branch), ("'agon undo' then 'agon redo'", undo_redo)):
        a, b, ratio = paired(make(deep), make(shallow), 9)
        record(f"{what} of a {sizes[deep]:,}-event line vs a {sizes[shallow]}-event line ({label})",
               f"{a * 1000:.0f} ms vs {b * 1000:.0f} ms", ratio, "<= 1.5x", ratio <= 1.5)


def bench_undo_command(label: str, url: str) -> None:
    """``agon undo`` end to end at the head of a valid line of about 100,000 events against one of about 100 (the
    test game to 50,000 points and to 50, bots only): the command reads the line after the undo from its nearest
    state snapshot and the undone events alone. Each undo is put back by a redo, untimed."""
    from agon.core.service import NewGame

    svc = Service(Store(url))
    bots = [("ann", "random"), ("bob", "random")]
    deep = svc.new_game(NewGame("toy", bots=bots, seed=1, options={"target": 50000}))
    shallow = svc.new_game(NewGame("toy", bots=bots, seed=1, options={"target": 50}))
    sizes = {g: svc.load(g).depth + 1 for g in (deep, shallow)}
    agon = str(Path(sys.executable).with_name("agon"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the test game's module
    undone: list[str] = []

    def undo(game: str) -> Callable[[], object]:
        def run() -> None:
            subprocess.run([agon, "--db", url, "undo", game, "-b", "main"], capture_output=True, check=True, env=env)
            undone.append(game)
        return run

    def redo() -> None:
        svc.redo(undone.pop(), "main")

    for game in (deep, shallow):  # the first read of the deep line folds it whole and keeps its last snapshot
        undo(game)()
        redo()
    a, b, ratio = paired(undo(deep), undo(shallow), 9, after=redo)
    record(f"'agon undo' of a {sizes[deep]:,}-event line vs a {sizes[shallow]}-event line ({label})",
           f"{a * 1000:.0f} ms vs {b * 1000:.0f} ms", ratio, "<= 1.5x", ratio <= 1.5)


def person_line(events: int, seed: int = 1) -> list[Envelope]:
    """A valid line of the test game (Pig, to a target never reached) of about ``events`` events, ending where the
    person, ann, must decide: ann always rolls, bob is a random bot, every die is drawn from the seed as the service
    draws it (so 'agon verify' accepts it)."""
    from agon.core.autoplay import next_auto
    from agon.core.engine import Decision

    rs = registry.get("toy")
    codec = codec_for(rs)
    created = GameCreated(ruleset="toy", ruleset_version=rs.version, seed=seed, options={"target": 10**9},
                          players=(PlayerSeat("ann"), PlayerSeat("bob", "random")))
    stored = codec.decode(codec.encode(created))
    parent = seal(None, "game.created", GameCreated.version, "setup", codec.encode(created), T0)
    line, state, chance = [parent], rs.initial_state(stored), 0
    roll = None
    while True:
        pending = rs.pending(state)
        if isinstance(pending, Decision) and pending.player == "ann":
            if len(line) >= events:
                return line
            roll = roll or rs.legal(state)[0]  # the first option: roll
            event, actor = roll, "ann"
        else:
            auto = next_auto(rs, stored, state, depth=len(line), chance_ordinal=chance, luck=0, draw_chance=True)
            assert auto is not None
            event, actor = auto.event, auto.actor
            chance += actor == "chance"
        tag = codec.tag_of(event)
        parent = seal(parent, tag, codec.version_of(tag), actor, codec.encode(event), T0)
        line.append(parent)
        state = rs.apply(state, event)


def bench_snapshots(label: str, url: str) -> None:
    """What 'agon state' and 'agon act' do in process at the head of a line of 100,000 events against one of 100
    (the test game, valid lines): read the line (from its nearest state snapshot), its state as a person sees it,
    its options; and recording a decision (then what follows by itself). The median of interleaved pairs' ratios."""
    from agon.cli.play_cmds import options_data

    svc = Service(Store(url))
    for gid, n in (("deep", 100_000), ("shallow", 100)):
        line = person_line(n)
        svc.store.import_game(gid, "toy", "", ["ann", "bob"], line)
    sizes = {g: svc.load(g).depth + 1 for g in ("deep", "shallow")}  # the first read writes the nearest snapshot

    def state(gid: str) -> Callable[[], object]:
        def run() -> None:
            line = svc.load(gid)
            rs = line.ruleset
            rs.view(line.state, "ann"), rs.scores(line.state), line.status()
            options_data(line)
        return run

    def act(gid: str) -> Callable[[], object]:
        return lambda: svc.act(gid, "1")

    for what, make in (("'agon state' + 'agon options'", state), ("'agon act'", act)):
        make("deep")(), make("shallow")()
        a, b, ratio = paired(make("deep"), make("shallow"), 41)
        record(f"{what} in process at the head of a {sizes['deep']:,}-event line vs a {sizes['shallow']}-event line"
               f" ({label})", f"{a * 1000:.2f} ms vs {b * 1000:.2f} ms", ratio, "<= 2x", ratio <= 2)
    agon = str(Path(sys.executable).with_name("agon"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the test game's module

    def cli(*args: str) -> Callable[[], object]:
        return lambda: subprocess.run([agon, "--db", url, *args], capture_output=True, check=True, env=env)

    for what, args in (("'agon state'", ("state",)), ("'agon act'", ("act",))):
        extra = ("1",) if args == ("act",) else ()
        a, b, ratio = paired(cli(*args, "deep", *extra), cli(*args, "shallow", *extra), 9)
        record(f"{what} end to end at the head of a {sizes['deep']:,}-event line vs a {sizes['shallow']}-event line"
               f" ({label})", f"{a * 1000:.0f} ms vs {b * 1000:.0f} ms", ratio, "<= 2x", ratio <= 2)
    svc.snapshots = False  # for the record: the same read without snapshots (not a target)
    t = time.perf_counter()
    state("deep")()
    print(f"     without snapshots, the same read of the deep line takes {(time.perf_counter() - t) * 1000:.0f} ms",
          flush=True)
    svc.store.close()


def bench_cli_startup(tmp: Path) -> None:
    """``agon state`` end to end against a bare interpreter importing the libraries it uses. Both sides load
    compiled bytecode, as an installed agon does: the libraries' was compiled when pip installed them, agon's is
    written by the first (untimed) run, even where the shell sets PYTHONDONTWRITEBYTECODE (which made every run
    compile agon's sources again, about 40 ms, while the baseline loaded compiled libraries)."""
    db = tmp / "cli.db"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["AGON_DB"] = str(db)
    agon = str(Path(sys.executable).with_name("agon"))
    names = [n for n in registry.names() if n != "toy"] or ["toy"]
    out = subprocess.run([agon, "demo", names[0], "--json"], env=env, capture_output=True, text=True, check=True)
    import json

    game = json.loads(out.stdout)["id"]
    events = json.loads(out.stdout)["events"]
    cmd = [agon, "state", game]
    bare = [sys.executable, "-c", "import typer, rich, sqlalchemy, sqlmodel, msgspec, platformdirs"]
    subprocess.run(cmd, env=env, capture_output=True, check=True)

    def run(c: list[str]) -> Callable[[], object]:
        return lambda: subprocess.run(c, env=env, capture_output=True, check=True)

    a, b, ratio = paired(run(cmd), run(bare), 9)
    record(f"'agon state' of a game of {names[0]} ({events} events) vs bare imports",
           f"{a * 1000:.0f} ms vs {b * 1000:.0f} ms", ratio, "<= 1.5x", ratio <= 1.5)


GROUPS = ("append", "eventsourcing", "o1", "recording", "commands", "undo", "snapshots", "listing", "startup",
          "rollouts")
"""The figures' groups, in the order they run; ``bench.py GROUP...`` runs only those named."""


def main() -> int:
    """``bench.py`` runs every figure; ``bench.py recording o1`` only the named groups."""
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print(f"{__doc__}\nusage: bench.py [GROUP...]   groups: {', '.join(GROUPS)} (default: all)")
        return 0
    unknown = [a for a in args if a not in GROUPS]
    if unknown:
        print(f"bench.py: no group {', '.join(map(repr, unknown))}; the groups are {', '.join(GROUPS)}",
              file=sys.stderr)
        return 2
    try:
        return run(set(args))
    finally:
        drop_schemas()


def run(only: set[str]) -> int:

    def wanted(group: str) -> bool:
        return not only or group in only

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if wanted("append"):
            bench_append(tmp)
        if wanted("eventsourcing"):
            bench_eventsourcing(tmp)
        if wanted("o1"):
            bench_o1(tmp)
        if wanted("recording"):
            for label, url in backends(tmp):
                bench_recording(label, url)
        if wanted("commands"):
            for label, url in backends(tmp):
                bench_commands_o1(label, url)
        if wanted("commands") or wanted("undo"):
            for label, url in backends(tmp):
                bench_undo_command(label, url)
        if wanted("snapshots"):
            for label, url in backends(tmp):
                bench_snapshots(label, url)
        if wanted("listing"):
            for label, url in backends(tmp):
                other = pg_url() if label == "PostgreSQL" else f"sqlite:///{tmp / 'small.db'}"
                bench_listing(tmp, label, other, url)
        if wanted("startup"):
            bench_cli_startup(tmp)
    if wanted("rollouts"):
        from bench_rollouts import bench as bench_rollouts  # rollout speed, workers and the replay analysis

        bench_rollouts(record)
    missed = [r for r in results if not r[4]]
    print(f"{len(results) - len(missed)} of {len(results)} targets met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

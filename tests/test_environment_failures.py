"""When the environment fails rather than the person: the store's file is missing, a folder, another kind of file or
another program's database; another program holds it locked; its disk is full; it is read-only; a PostgreSQL
server ends the connection. Each is one line (exit status 1) on the command line or a 503 with one sentence over
HTTP, and afterwards the store verifies with exactly the events that were acknowledged: nothing lost, nothing
half-written, nothing twice.

Checked by hand only (not portable to every machine the tests run on): a full disk (a small tmpfs) under the store
and under '-o', a read-only mount, a PostgreSQL server that is not running, a wrong database or user."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import warnings

import pytest
import sqlalchemy as sa

from agon.events import store as store_mod

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its test client; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def one_line(result, *words: str) -> str:
    """The error of a failed command: exit status 1 and one line on stderr, holding ``words``; no traceback."""
    line = result.stderr.strip()
    assert result.exit_code == 1, (result.stdout, result.stderr, result.exception)
    assert "\n" not in line and "Traceback" not in line, line
    for w in words:
        assert w in line, line
    return line


def toy(agon, seed: str = "3") -> str:
    return agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", seed).stdout.splitlines()[0]


def log_of(agon, gid: str) -> str:
    return agon("log", gid, "--full", "--json").stdout


class Locker:
    """Another program holding the SQLite store locked for writing (BEGIN IMMEDIATE) until ``release``."""

    def __init__(self, path) -> None:
        code = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None);"
                " c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); sys.stdin.readline(); c.rollback()")
        self.proc = subprocess.Popen([sys.executable, "-c", code, str(path)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout.readline().strip() == "locked"

    def release(self) -> None:
        if self.proc.poll() is None:
            self.proc.communicate("go\n", timeout=30)


@pytest.fixture
def short_wait(monkeypatch):
    """A writer gives up on another program's lock after 1 second instead of 10 (the wording says how long)."""
    monkeypatch.setattr(store_mod, "BUSY_SECONDS", 1)


# -- the store's file --------------------------------------------------------------------------------------------


def test_a_store_that_is_no_store_is_one_line_and_the_file_is_left_as_it_was(agon, tmp_path):
    (tmp_path / "folder").mkdir()
    one_line(agon("--db", str(tmp_path / "missing" / "x.db"), "games", ok=False), "does not exist")
    one_line(agon("--db", str(tmp_path / "folder"), "games", ok=False), "is a folder")
    notes = tmp_path / "notes.db"
    notes.write_text("my notes, not a database\n")
    one_line(agon("--db", str(notes), "games", ok=False), "not a SQLite database")
    assert notes.read_text() == "my notes, not a database\n"
    cut = tmp_path / "cut.db"
    gid = toy(agon)
    db = sqlite3.connect(tmp_path / "games.db")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = (tmp_path / "games.db").read_bytes()
    cut.write_bytes(data[: len(data) // 2])  # a copy that stopped half way
    for command in (["games"], ["log", gid], ["verify"]):
        one_line(agon("--db", str(cut), *command, ok=False), "damaged", "malformed")


def test_another_programs_database_is_refused_without_adding_agons_tables(agon, tmp_path):
    other = tmp_path / "places.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
    db.execute("INSERT INTO moz_places (url) VALUES ('https://example.org')")
    db.commit()
    db.close()
    before = other.read_bytes()
    line = one_line(agon("--db", str(other), "new", "toy", "--player", "ann", "--bot", "bob:random", ok=False),
                    "another program's SQLite database", "moz_places")
    assert "agon's store" in line
    assert other.read_bytes() == before
    db = sqlite3.connect(other)
    assert [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == ["moz_places"]
    db.close()


def test_another_programs_sqlite_file_with_a_table_of_agons_name_is_refused_untouched(agon, tmp_path):
    """Another game's save keeps its own 'game' table: agon added its other tables to the file and then failed
    ('no such column: game.ruleset ... retry the command'). It is refused as it opens, naming the table."""
    save = tmp_path / "save.db"
    db = sqlite3.connect(save)
    db.execute("CREATE TABLE game (id TEXT PRIMARY KEY, level INTEGER)")
    db.commit()
    db.close()
    before = save.read_bytes()
    for command in (["games"], ["new", "toy", "--player", "ann", "--bot", "bob:random"], ["verify"]):
        line = one_line(agon("--db", str(save), *command, ok=False), "its table 'game' is another program's",
                        "no column players, ruleset", "give the path of agon's store, or of a new file")
        assert "retry" not in line
    assert save.read_bytes() == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_pipe_or_a_device_is_no_store_and_nothing_is_left_beside_it(agon, tmp_path):
    """'--db /dev/null' left SQLite's journal in /dev ('/dev/null-journal') and said 'the disk failed; retry'."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for db in (str(pipe), "/dev/null"):
        for command in (["games"], ["new", "toy", "--player", "ann", "--bot", "bob:random"]):
            line = one_line(agon("--db", db, *command, ok=False), f"cannot open database {db}: it is a device or a"
                            " pipe, not a file")
            assert "retry" not in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]
    assert not os.path.exists("/dev/null-journal")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_an_export_to_a_pipe_is_written_into_it_not_replaced_by_a_file(agon, tmp_path):
    """'-o' writes a file whole or not at all, through a temporary file renamed over it; renamed over a pipe or a
    device ('-o /dev/stdout' to a terminal, '-o /dev/full' as root), it replaced the device with a regular file."""
    import stat

    gid = toy(agon)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)  # open first, so that agon's write finds a reader
    try:
        agon("export", gid, "-o", str(pipe))
        got = os.read(reader, 1 << 20)
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)
    assert got == agon("export", gid).stdout.encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db", "pipe"]  # the store closed: no -wal, -shm


@pytest.mark.postgres
def test_a_postgresql_schema_with_another_programs_table_of_agons_name_is_refused_untouched(agon, pg_base):
    """A club's website keeps its own 'event' table where agon is pointed: agon listed no game there ('No games
    yet'), added its other tables beside it, and failed at the first game it recorded ('column "game_id" of relation
    "event" does not exist'). It is refused as it opens, naming the table, and nothing is added; agon's tables beside
    another program's of other names stay welcome (a PostgreSQL database is shared by design)."""
    from tests.conftest import _pg_schema_url

    urls = _pg_schema_url(pg_base)
    url = next(urls)
    try:
        eng = sa.create_engine(url)
        with eng.begin() as c:
            c.exec_driver_sql("CREATE TABLE event (id integer PRIMARY KEY, title text)")
        for command in (["games"], ["new", "toy", "--player", "ann", "--bot", "bob:random"], ["verify"]):
            line = one_line(agon("--db", url, *command, ok=False), "its table 'event' is another program's",
                            "game_id", "a database of its own")
            assert "Traceback" not in line
        with eng.connect() as c:
            assert c.execute(sa.text("SELECT table_name FROM information_schema.tables"
                                     " WHERE table_schema = current_schema()")).scalars().all() == ["event"]
            c.exec_driver_sql("DROP TABLE event")
            c.exec_driver_sql("CREATE TABLE invoices (id integer PRIMARY KEY)")
            c.commit()
        agon("--db", url, "new", "toy", "--player", "ann", "--bot", "bob:random")
        eng.dispose()
    finally:
        next(urls, None)


@pytest.mark.postgres
def test_a_postgresql_url_whose_search_path_names_no_schema_says_so_not_retry(agon, pg_base):
    """A schema mistyped in the URL's options: PostgreSQL has nowhere to create agon's tables. Said in words, with
    what to do, not 'it failed ...: retry the command', which would fail the same way."""
    import secrets

    url = f"{pg_base}{'&' if '?' in pg_base else '?'}options=-csearch_path%3Dagon_nosuch_{secrets.token_hex(4)}"
    for command in (["games"], ["new", "toy", "--player", "ann", "--bot", "bob:random"]):
        line = one_line(agon("--db", url, *command, ok=False), "has no schema to keep agon's tables in",
                        "CREATE SCHEMA")
        assert "retry" not in line


# -- another program holds the store --------------------------------------------------------------------------


def test_a_store_locked_by_another_program_refuses_a_decision_in_one_line_and_records_nothing(
        agon, tmp_path, short_wait):
    gid = toy(agon)
    before = log_of(agon, gid)
    locker = Locker(tmp_path / "games.db")
    try:
        assert log_of(agon, gid) == before  # reading goes on meanwhile (WAL)
        one_line(agon("act", gid, "1", ok=False), "is busy", "another program", "1 second;",
                 "nothing was recorded", "retry the command")
        one_line(agon("new", "toy", "--player", "cy", "--bot", "di:random", ok=False), "is busy")
        r = agon("act", gid, "1", "--json", ok=False)
        assert r.exit_code == 1 and '"error"' in r.stderr and "is busy" in r.stderr
    finally:
        locker.release()
    assert log_of(agon, gid) == before
    assert "1 game checked" in agon("verify").stdout
    agon("act", gid, "1")  # and once the other program is done, the same decision is taken
    assert log_of(agon, gid) != before
    agon("verify")


def test_a_server_answers_503_while_another_program_holds_the_store_and_goes_on_after(tmp_path, short_wait):
    from agon.core.service import Service
    from agon.events.store import Store
    from agon.server.app import create_app

    path = tmp_path / "club.db"
    app = create_app(f"sqlite:///{path}", poll=0.05)
    with TestClient(app) as client:
        g = client.post("/api/games", json={"ruleset": "toy", "players": ["ann", "bob"], "seed": 3}).json()
        gid = g["game"]
        state = client.get(f"/api/games/{gid}").json()
        who = state["pending"]["player"]
        auth = {"Authorization": f"Bearer {g['seats'][who]['token']}"}
        body = {"choice": 1, "expect": state["position"]}
        locker = Locker(path)
        try:
            r = client.post(f"/api/games/{gid}/act", headers=auth, json=body)
            assert r.status_code == 503
            said = r.json()["error"]
            assert said == ("the store is busy: another program has held it locked for writing for over 1 second;"
                            " nothing was recorded: retry the request when it is done")
            assert str(path) not in said  # a player is not told where the host keeps the store
            assert client.get(f"/api/games/{gid}").json()["event"] == state["event"]  # reads go on
            assert client.get("/api/games").status_code == 200
        finally:
            locker.release()
        r = client.post(f"/api/games/{gid}/act", headers=auth, json=body)  # the same request, retried
        assert r.status_code == 200, r.text
        assert client.post(f"/api/games/{gid}/act", headers=auth, json=body).status_code == 409  # and only once
    app.state.service.store.close()
    check = Service(Store(f"sqlite:///{path}"))
    assert not check.verify(gid)
    line = check.load(gid)
    assert [e.actor for e in line.envelopes[state["event"] + 1:]][:1] == [who]  # the decision, once
    assert sum(1 for e in line.envelopes if e.actor in ("ann", "bob")) == 1
    check.store.close()


def test_a_server_whose_store_file_goes_away_or_is_replaced_answers_503_without_its_path(tmp_path):
    """The store's file removed (its folder with it), then replaced by another kind of file, under a running server:
    a new connection cannot open it. The 503 says so in one sentence without the path, as every other store failure
    over HTTP does (it answered 'cannot open database /srv/...: there is no such file (a store opened read-only is
    never created)', the opening's words for the command line)."""
    import shutil

    from agon.server.app import create_app

    folder = tmp_path / "club"
    folder.mkdir()
    path = folder / "club.db"
    app = create_app(f"sqlite:///{path}", poll=0.05)
    with TestClient(app) as client:
        gid = client.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"], "seed": 3}).json()[
            "game"]
        store = app.state.service.store
        shutil.rmtree(folder)
        store.engine.dispose()  # the pool's connections held the removed file open: the next one opens it anew
        app.state.lines.items.clear()
        said = []
        for url in (f"/api/games/{gid}", "/api/games"):
            r = client.get(url)
            assert r.status_code == 503, r.text
            said.append(r.json()["error"])
        assert said[0] == ("the store could not be opened again: its file was removed, moved or cannot be reached;"
                           " nothing was recorded: retry the request")
        folder.mkdir()
        path.write_bytes(b"a letter, not a database\n" * 400)
        store.engine.dispose()
        r = client.get(f"/api/games/{gid}")
        assert r.status_code == 503
        said.append(r.json()["error"])
        assert said[-1] == "the store is no SQLite database any more: its file was replaced; restore it from a copy"
        for text in said:
            assert str(tmp_path) not in text and "club" not in text and "\n" not in text
    store.close()


# -- a full disk, a read-only store ----------------------------------------------------------------------------


@pytest.fixture
def full_disk():
    """Call it to fill the disk: every SQLite connection opened from then on may not grow its file, and SQLite says
    'database or disk is full', as on a full disk (a tmpfs that small needs root and a mount; this needs neither).
    It returns a call that frees the disk again."""

    def cap(dbapi_conn, _record):
        cur = dbapi_conn.cursor()
        pages = cur.execute("PRAGMA page_count").fetchone()[0]
        cur.execute(f"PRAGMA max_page_count = {max(pages, 1)}")
        cur.close()

    def free() -> None:
        if sa.event.contains(sa.engine.Engine, "connect", cap):
            sa.event.remove(sa.engine.Engine, "connect", cap)

    def fill():
        sa.event.listen(sa.engine.Engine, "connect", cap)
        return free

    yield fill
    free()


def test_a_full_disk_records_nothing_and_says_so_in_one_line(agon, tmp_path, full_disk):
    gid = toy(agon)
    for _ in range(3):
        agon("act", gid, "1")
    db = sqlite3.connect(tmp_path / "games.db")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("VACUUM")  # no free page left inside the file: a game's worth of events must grow it
    db.close()
    before = log_of(agon, gid)
    free = full_disk()
    one_line(agon("demo", "--seed", "4", ok=False), "is full", "no room left", "nothing was recorded")
    free()
    assert log_of(agon, gid) == before
    assert "1 game checked" in agon("verify").stdout


def test_a_read_only_store_is_read_and_refuses_a_write_in_one_line(agon, tmp_path):
    gid = toy(agon)
    before = log_of(agon, gid)
    ro = f"sqlite:///{tmp_path / 'games.db'}?mode=ro"  # SQLite's own option, passed on (a URI)
    r = agon("--db", ro, "log", gid, "--full", "--json")
    assert r.stdout == before and not r.stderr  # no driver warning about the option either
    one_line(agon("--db", ro, "act", gid, "1", ok=False), "is read-only", "nothing was recorded")
    assert log_of(agon, gid) == before
    agon("verify")


# -- files written with -o ---------------------------------------------------------------------------------------


def test_an_output_path_through_a_file_is_one_line(agon, tmp_path):
    gid = toy(agon)
    (tmp_path / "notes.txt").write_text("keep\n")
    one_line(agon("export", gid, "-o", str(tmp_path / "notes.txt" / "game.jsonl"), ok=False),
             "notes.txt is a file, not a folder")
    assert (tmp_path / "notes.txt").read_text() == "keep\n"


def test_an_output_file_that_cannot_be_written_whole_keeps_the_old_one(agon, tmp_path):
    """A write that fails part way (here: a file size limit, as a full disk would, set above the 32 KiB of the
    store's -shm file, which a closed store makes anew) leaves the file that was there, and no temporary file
    beside it."""
    gid = toy(agon)
    for _ in range(6):
        agon("act", gid, "1")
    out = tmp_path / "out" / "game.html"
    out.parent.mkdir()
    out.write_text("the old page\n")
    code = ("import resource, sys; from agon.cli.app import main;"
            " resource.setrlimit(resource.RLIMIT_FSIZE, (40000, 40000)); sys.argv = ['agon', *sys.argv[1:]]; main()")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # for the test ruleset's module
    env = {**os.environ, "AGON_DB": str(tmp_path / "games.db"), "PYTHONPATH": root}
    r = subprocess.run([sys.executable, "-c", code, "view", gid, "-o", str(out)], env=env, capture_output=True,
                       text=True, cwd=tmp_path)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and "File too large" in r.stderr and str(out) in r.stderr
    assert out.read_text() == "the old page\n"
    assert [p.name for p in out.parent.iterdir()] == ["game.html"]


# -- PostgreSQL: the server ends the connection ----------------------------------------------------------------


@pytest.fixture
def pg_named(pg_base):
    """(a fresh PostgreSQL schema's URL whose connections carry a name of their own, a call that ends every one of
    them as a database restart or an administrator does and says how many, an administrator's engine on the schema)"""
    import secrets

    from tests.conftest import _pg_schema_url

    name = f"agon_envfail_{secrets.token_hex(4)}"
    urls = _pg_schema_url(pg_base)
    schema_url = next(urls)
    admin = sa.create_engine(schema_url, isolation_level="AUTOCOMMIT")

    def end_connections() -> int:
        with admin.connect() as c:
            # waiting (up to 10 s) until each has ended, as a restart has ended them before it lets anyone in
            return c.execute(sa.text("SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity"
                                     " WHERE application_name = :n"), {"n": name}).scalar()

    try:
        yield schema_url + f"&application_name={name}", end_connections, admin
    finally:
        admin.dispose()
        next(urls, None)


def _turn(client, g: dict) -> tuple[dict, dict, dict]:
    """(the game's state, the acting player's header, a first choice expecting the game's position)"""
    r = client.get(f"/api/games/{g['game']}")
    assert r.status_code == 200, r.text
    state = r.json()
    auth = {"Authorization": f"Bearer {g['seats'][state['pending']['player']]['token']}"}
    return state, auth, {"choice": 1, "expect": state["position"]}


def _decisions(url: str, gid: str, head: int) -> int:
    """How many decisions of a person the game holds (checked sound, its head at ``head``)."""
    from agon.core.service import Service
    from agon.events.store import Store

    check = Service(Store(url))
    try:
        assert not check.verify(gid)
        line = check.load(gid)
        assert line.head.depth == head
        return sum(1 for e in line.envelopes if e.actor in ("ann", "bob"))
    finally:
        check.store.close()


@pytest.mark.postgres
def test_a_server_whose_idle_database_connections_are_ended_answers_every_request_the_first_time(pg_named):
    """pg_terminate_backend on every connection of the server between requests (as a database restart or an
    administrator does): a pooled connection found ended as it is taken is replaced before anything is sent on it,
    so reads, decisions and new games are all answered the first time (each pool's next request was a 503 before),
    and the game holds every decision once."""
    from agon.server.app import create_app

    url, end_connections, _ = pg_named
    app = create_app(url, poll=0.05)
    with TestClient(app) as client:
        g = client.post("/api/games", json={"ruleset": "toy", "players": ["ann", "bob"], "seed": 3}).json()
        for _ in range(5):
            assert end_connections() >= 1
            _, auth, body = _turn(client, g)  # a read first
            assert end_connections() >= 1
            r = client.post(f"/api/games/{g['game']}/act", headers=auth, json=body)
            assert r.status_code == 200, r.text
            assert end_connections() >= 1
            r = client.get("/api/games")
            assert r.status_code == 200, r.text
            assert end_connections() >= 1
            r = client.post("/api/games", json={"ruleset": "toy", "players": ["cy", "di"]})
            assert r.status_code == 201, r.text
        head = client.get(f"/api/games/{g['game']}").json()["event"]
    app.state.service.store.close()
    assert _decisions(url, g["game"], head) == 5


@pytest.mark.postgres
def test_a_decision_whose_connection_is_ended_while_it_is_written_is_a_503_and_not_sent_again(pg_named):
    """The server's connections ended while a decision's statement waits for a row an administrator holds: that
    request is a 503 in one sentence, as agon never sends a write again by itself (had the connection broken after
    the write, whether it was stored would be unknown), the game is as it was, and the request sent again is
    recorded, once."""
    import time
    from concurrent.futures import ThreadPoolExecutor

    from agon.server.app import create_app

    url, end_connections, admin = pg_named
    app = create_app(url, poll=0.05)
    with TestClient(app) as client:
        g = client.post("/api/games", json={"ruleset": "toy", "players": ["ann", "bob"], "seed": 3}).json()
        state, auth, body = _turn(client, g)
        with admin.connect() as holder, ThreadPoolExecutor(1) as pool:
            holder.exec_driver_sql("BEGIN")
            holder.execute(sa.text("SELECT 1 FROM branch WHERE game_id = :g FOR UPDATE"), {"g": g["game"]})
            sent = pool.submit(client.post, f"/api/games/{g['game']}/act", headers=auth, json=body)
            waiting = sa.text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                              " AND query LIKE 'WITH cas%'")  # the decision's statement, on the held row
            deadline = time.monotonic() + 60
            with admin.connect() as look:  # not the holder's: a transaction sees pg_stat_activity as it first did
                while not look.execute(waiting).scalar() and time.monotonic() < deadline:
                    time.sleep(0.05)
            assert end_connections() >= 1
            r = sent.result()
            holder.exec_driver_sql("ROLLBACK")
        assert r.status_code == 503, r.text
        said = r.json()["error"]
        assert said == "the store ended the connection; nothing was recorded: retry the request"
        assert client.get(f"/api/games/{g['game']}").json()["event"] == state["event"]
        r = client.post(f"/api/games/{g['game']}/act", headers=auth, json=body)  # the same request, sent again
        assert r.status_code == 200, r.text
        assert client.post(f"/api/games/{g['game']}/act", headers=auth, json=body).status_code == 409
        head = client.get(f"/api/games/{g['game']}").json()["event"]
    app.state.service.store.close()
    assert head > state["event"]
    assert _decisions(url, g["game"], head) == 1


def _forward(listener, target: tuple[str, int], stop) -> None:
    """Accept on ``listener`` and pass each connection's bytes to ``target`` and back, until ``stop`` is set: a
    database server that comes up at the address a worker was given."""
    import socket
    import threading

    def pipe(a, b):
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    listener.settimeout(0.1)
    while not stop.is_set():
        try:
            client, _ = listener.accept()
        except TimeoutError:
            continue
        except OSError:  # the test closed the listener as it ended, while this waited in accept()
            if stop.is_set():
                return
            raise
        server = socket.create_connection(target)
        for a, b in ((client, server), (server, client)):
            threading.Thread(target=pipe, args=(a, b), daemon=True).start()


@pytest.mark.postgres
def test_a_worker_started_while_its_database_is_away_answers_503s_until_it_is_back(pg_base):
    """uvicorn starts a worker anew after one dies (and 'agon serve --workers N' starts them after it has reached
    the database): one that starts while PostgreSQL does not answer serves each request a 503 in one sentence,
    not dying with a traceback so that requests find nobody, and serves the games once the database answers. The
    same answers come from a running worker whose database went down: a connection refused is 'does not answer'
    (not 'lost the connection'), the lobby page and a new game included."""
    import socket
    import threading
    from urllib.parse import urlsplit

    from agon.server.app import create_app
    from tests.conftest import _pg_schema_url

    urls = _pg_schema_url(pg_base)
    url = next(urls)
    store_mod.Store(url).close()  # the store exists, as 'agon serve' made sure before starting its workers
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    parts = urlsplit(url)
    away = url.replace(f"@{parts.hostname}:{parts.port or 5432}/", f"@127.0.0.1:{port}/", 1)
    assert away != url
    stop = threading.Event()
    try:
        app = create_app(away, poll=0.05)  # nothing accepts at that port yet (not listening: refused)
        with TestClient(app) as client:
            for r in (client.get("/api/games"), client.get("/"),
                      client.post("/api/games", json={"ruleset": "toy", "players": ["ann", "bob"]})):
                assert r.status_code == 503, r.text  # the lobby and a new game were 500s, server errors
                assert r.json() == {"error": "the store does not answer; nothing was recorded: retry the request"
                                             " later"}
            r = client.get("/", headers={"accept": "text/html"})
            assert r.status_code == 503 and "the store does not answer" in r.text and "Traceback" not in r.text
            listener.listen()
            threading.Thread(target=_forward, args=(listener, (parts.hostname, parts.port or 5432), stop),
                             daemon=True).start()
            r = client.post("/api/games", json={"ruleset": "toy", "players": ["ann", "bob"]})
            assert r.status_code == 201, r.text
            assert [g["game"] for g in client.get("/api/games").json()] == [r.json()["game"]]
        app.state.service.store.close()
    finally:
        stop.set()
        listener.close()
        next(urls, None)


@pytest.mark.postgres
def test_agon_play_whose_database_goes_down_says_so_once(agon, pg_base, monkeypatch):
    """The database stops answering while a player is at the prompt of 'agon play' (its server stopped: the
    connection ended, the port closed): the entry typed is refused in one line, said once, and the command ends
    with status 1, nothing recorded; the line was said twice, at the prompt and again as the command ended."""
    import secrets
    import socket
    import threading
    from urllib.parse import urlsplit

    from agon.cli import keyread
    from tests.conftest import _pg_schema_url

    urls = _pg_schema_url(pg_base)
    name = f"agon_play_down_{secrets.token_hex(4)}"
    url = next(urls) + f"&application_name={name}"
    parts = urlsplit(url)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    away = url.replace(f"@{parts.hostname}:{parts.port or 5432}/", f"@127.0.0.1:{port}/", 1)
    stop = threading.Event()
    forward = threading.Thread(target=_forward, args=(listener, (parts.hostname, parts.port or 5432), stop),
                               daemon=True)
    forward.start()
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    read = keyread.read

    def server_stops(*args, **kwargs):
        stop.set()
        forward.join()
        listener.close()  # nothing answers at the port any more
        with admin.connect() as c:  # and the connections agon holds are ended, as a server that stops ends them
            c.execute(sa.text("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity"
                              " WHERE application_name = :n AND pid <> pg_backend_pid()"), {"n": name})
        return read(*args, **kwargs)

    try:
        gid = agon("--db", away, "new", "toy", "--player", "ann", "--bot", "bob:random",
                   "--seed", "3").stdout.splitlines()[0]
        before = agon("--db", url, "log", gid, "--full", "--json").stdout
        monkeypatch.setattr(keyread, "read", server_stops)
        one_line(agon("--db", away, "play", gid, input="1\nq\n", ok=False), "does not answer",
                 "nothing was recorded")
        assert agon("--db", url, "log", gid, "--full", "--json").stdout == before  # the server as it came back
    finally:
        stop.set()
        forward.join()
        listener.close()
        admin.dispose()
        next(urls, None)


def test_an_import_into_a_store_locked_by_another_program_says_once_that_nothing_was_written(
        agon, tmp_path, short_wait):
    """The store's refusal says that nothing was recorded and what to do: the import wraps it without saying the
    same again at its end ('nothing was recorded: retry ...; nothing was imported')."""
    gid = toy(agon)
    agon("export", gid, "-o", "game.jsonl")
    agon("--db", "club.db", "new", "toy", "--player", "cy", "--bot", "di:random")
    before = agon("--db", "club.db", "games", "--json").stdout
    locker = Locker(tmp_path / "club.db")
    try:
        said = one_line(agon("--db", "club.db", "import", "game.jsonl", ok=False))
    finally:
        locker.release()
    assert said == (f"error: cannot import: the store {tmp_path / 'club.db'} is busy: another program has held it"
                    " locked for writing for over 1 second; nothing was recorded: retry the command when it is"
                    " done")
    assert agon("--db", "club.db", "games", "--json").stdout == before

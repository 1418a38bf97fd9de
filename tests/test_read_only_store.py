"""A club's archive read from a store agon may not write: a SQLite file opened with SQLite's own ``?mode=ro`` or
``immutable=1`` (what agon opens a read-only file or mount with; neither can be made portably here, and root writes
through file permissions), and a PostgreSQL user who may only SELECT.

The archive's summaries and snapshots are missing (an older copy, or dropped): every reading command answers as it
does on a writable copy, computing them without keeping them, and says so in one line on stderr at most; a writing
command is refused in one line saying the store is read-only; the store is left exactly as it was."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sqlite3

import pytest
import sqlalchemy as sa

from tests.conftest import _pg_schema_url
from tests.test_environment_failures import one_line

NOTE = "read-only store: "
DERIVED = ("game_summary", "state_snapshot", "analysis_result")


def noted(result, *kinds: str) -> None:
    """A reading command that worked: at most one line on stderr, saying what it computed and did not keep (naming
    ``kinds``)."""
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    line = result.stderr.strip()
    assert "\n" not in line, line
    if line.startswith("{"):  # with --json: {"note": ...}
        line = json.loads(line)["note"]
    if kinds:
        assert line.startswith(NOTE) and line.endswith("are computed, not kept"), line
        for k in kinds:
            assert k in line, line
    else:
        assert line == "" or line.startswith(NOTE), line


def make_archive(run) -> dict[str, str]:
    """Games as a club leaves them: one long bot game (its line passes several snapshot points), one played by a
    person with a what-if branch, an undo and a note, and a short one still going. ``run(*args)`` is agon on the
    store."""
    long = run("new", "toy", "--bot", "a:random", "--bot", "b:random", "--seed", "5", "--option",
               "target=100").stdout.splitlines()[0]
    game = run("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.splitlines()[0]
    for _ in range(6):
        if "over" in run("options", game).stdout:
            break
        run("act", game, "1")
    run("branch", game, "aside", "--at", "2")  # the die due there is drawn from the game's seed with the branch
    run("act", game, "2")  # hold
    run("undo", game)
    run("switch", game, "main")
    run("note", game, "2", "a bold roll", "--glyph", "!?")
    short = run("new", "toy", "--player", "cy", "--bot", "di:random", "--seed", "8").stdout.splitlines()[0]
    return {"long": long, "game": game, "short": short}


def reading(ids: dict[str, str]) -> list[tuple[str, ...]]:
    """The reading commands that print what they read (as JSON where they can)."""
    long, game = ids["long"], ids["game"]
    return [
        ("games", "--json"), ("games", "--json", "--limit", "2"), ("games", "--json", "--ruleset", "toy"),
        ("games", "--json", "--status", "over"), ("games", "--json", "--status", "playing", "--order", "longest"),
        ("games", "--json", "--order", "newest", "--limit", "1"),
        ("stats", "toy", "--json"), ("log", long, "--full", "--json"), ("log", game, "-b", "aside", "--json"),
        ("state", long, "--json"), ("state", long, "--at", "70", "--json"), ("options", game, "--json"),
        ("branches", game, "--json"), ("replay", long, "--from", "60", "--to", "70"), ("export", game),
        ("verify", game), ("verify",), ("compare", game, "main", "aside", "--json"), ("notes", game, "--json"),
        ("where",),
    ]


def written(run, ids: dict[str, str], tmp_path, tag: str) -> None:
    """The commands that write a file of what they read (to a writable folder): they work."""
    game = ids["game"]
    for args in (("view", game, "-o", str(tmp_path / f"{tag}.html")),
                 ("plot", "scores", ids["long"], "-o", str(tmp_path / f"{tag}-scores.html")),
                 ("plot", "stats", "toy", "-o", str(tmp_path / f"{tag}-stats.html"))):
        noted(run(*args))
    for name in (f"{tag}.html", f"{tag}-scores.html", f"{tag}-stats.html"):
        assert (tmp_path / name).stat().st_size, name


def writing(agon, ids: dict[str, str], tmp_path) -> list[tuple[str, ...]]:
    """The writing commands: to record a decision, a game, a head move, a branch, a note; to import a game (one
    from another store: the archive lacks it); to rebuild the summaries."""
    game, short = ids["game"], ids["short"]
    other = tmp_path / "other.db"
    new = agon("--db", str(other), "new", "toy", "--player", "eve", "--bot", "bob:random").stdout.splitlines()[0]
    agon("--db", str(other), "export", new, "-o", str(tmp_path / "other.jsonl"))
    return [
        ("act", short, "1"), ("new", "toy", "--player", "ann", "--bot", "bob:random"), ("undo", game),
        ("redo", game, "-b", "aside"), ("branch", game, "again", "--at", "1"), ("switch", game, "aside"),
        ("note", game, "1", "hello"), ("import", str(tmp_path / "other.jsonl")), ("rebuild",), ("demo", "adamastor"),
    ]


def analysed(run, game: str) -> tuple[dict, object]:
    """What 'agon analyse --json' finds (without its timing and cache count), and the command's result."""
    r = run("analyse", game, "--rollouts", "3", "--workers", "1", "--json")
    out = json.loads(r.stdout)
    out.pop("seconds", None)
    out.pop("cached", None)
    return out, r


def sqlite_contents(path) -> dict[str, list]:
    """Every row of every table of a SQLite store (its derived tables included)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return {t: sorted(map(repr, db.execute(f"SELECT * FROM {t}"))) for t in tables}
    finally:
        db.close()


def stale(path) -> None:
    """The archive as an older copy: no summary, no snapshot, no analysis kept; its log in the file itself."""
    db = sqlite3.connect(path)
    for t in DERIVED:
        db.execute(f"DELETE FROM {t}")
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


@pytest.fixture
def archive(agon, tmp_path):
    """A stale archive at ``archive.db`` and a writable copy of it, ``copy.db``, to compare with."""
    ids = make_archive(agon)
    stale(tmp_path / "games.db")
    shutil.copy(tmp_path / "games.db", tmp_path / "archive.db")
    shutil.copy(tmp_path / "games.db", tmp_path / "copy.db")
    return ids


def test_a_read_only_sqlite_store_reads_as_a_writable_copy_and_keeps_nothing(agon, tmp_path, archive):
    ids = archive
    ro = f"sqlite:///{tmp_path / 'archive.db'}?mode=ro"
    before = sqlite_contents(tmp_path / "archive.db")

    def on_ro(*args, ok=False):
        return agon("--db", ro, *args, ok=ok)

    def on_copy(*args):
        return agon("--db", str(tmp_path / "copy.db"), *args)

    for args in reading(ids):
        r = on_ro(*args)
        noted(r)
        if args != ("where",):
            expected = on_copy(*args).stdout
            # a command printed to copy ('agon branches': the redo of an undo) names the store it read, quoted
            assert r.stdout.replace(shlex.quote(ro), ro) == expected.replace(str(tmp_path / "copy.db"), ro), args
        stale(tmp_path / "copy.db")  # the copy as stale again: each command on it computes what the archive does
    noted(on_ro("games"), "game summaries")  # computed at every command: nothing is kept
    noted(on_ro("log", ids["long"]), "state snapshots")
    assert on_ro("where").stdout.strip() == ro
    written(on_ro, ids, tmp_path, "ro")
    got, r = analysed(on_ro, ids["long"])
    noted(r, "analysis results")
    assert json.loads(r.stderr) == {"note": f"{NOTE}analysis results are computed, not kept"}
    assert got == analysed(on_copy, ids["long"])[0]
    assert sqlite_contents(tmp_path / "archive.db") == before  # nothing kept, nothing changed

    for args in writing(agon, ids, tmp_path):
        one_line(on_ro(*args), "read-only")
    assert sqlite_contents(tmp_path / "archive.db") == before


RECORDING = re.compile(r"agon (?:--db (?:'[^']*'|\S+) )?"
                       r"(act|undo|redo|branch|switch|new|note|import|rebuild|demo|play)\b")
"""A command that records, as a hint names it (with the --db it was given)."""


def test_no_refusal_on_a_read_only_store_names_a_command_that_records(agon, tmp_path, archive):
    """A finished game, a choice out of range, an undo with nothing to undo, an event not on the line: on a store
    that may only be read each is refused as read-only, and the commands the refusal names instead read the store
    (they run there); none records, which the store would refuse again."""
    ids = archive
    ro = f"sqlite:///{tmp_path / 'archive.db'}?mode=ro"
    long, game, short = ids["long"], ids["game"], ids["short"]
    assert json.loads(agon("--db", ro, "options", long, "--json").stdout)["pending"]["kind"] == "over"
    agon("--db", str(tmp_path / "copy.db"), "export", long, "-o", str(tmp_path / "long.json"))
    refused = [("act", long, "1"), ("act", short, "99"), ("act", short, "1"), ("undo", short, "--steps", "50"),
               ("undo", long), ("redo", game), ("branch", long, "whatif", "--at", "99999"), ("branch", long, "x"),
               ("switch", game, "nope"), ("note", game, "999", "hi"), ("import", str(tmp_path / "long.json")),
               ("new", "toy", "--player", "a", "--bot", "b:random"), ("play", long), ("play", short)]
    before = sqlite_contents(tmp_path / "archive.db")
    for args in refused:
        said = one_line(agon("--db", ro, *args, ok=False), "is read-only", "nothing was recorded")
        assert not RECORDING.search(said), (args, said)
        named = re.findall(r"`(agon [^`]*)`", said)
        assert named, said  # what can be done instead
        games = {shlex.split(command)[4] for command in named}  # agon --db URL export|log GAME ...
        assert games == ({"GAME"} if args[0] in ("new", "import") else {args[1]}), said  # the game it named
        for command in named:
            argv = [{"GAME": long, "FILE": str(tmp_path / "out.json")}.get(w, w) for w in shlex.split(command)]
            assert argv[1:3] == ["--db", ro], command
            assert agon(*argv[1:]).exit_code == 0  # it runs on this store
    assert sqlite_contents(tmp_path / "archive.db") == before

    # the reading commands' own hints name nothing that records either
    for args in (("options", short), ("options", long), ("options", game), ("notes", short),
                 ("analyse", long, "--rollouts", "2", "--workers", "1", "--threshold", "0.01")):
        out = agon("--db", ro, *args).stdout
        assert not RECORDING.search(out), (args, out)
    assert "read-only" in agon("--db", ro, "options", short).stdout
    assert sqlite_contents(tmp_path / "archive.db") == before


def test_a_read_only_refusal_names_the_game_as_it_was_typed_and_never_prints_back_what_a_shell_would_split(
        agon, tmp_path, archive):
    ro = f"sqlite:///{tmp_path / 'archive.db'}?mode=ro"
    prefix = archive["short"][:4]
    said = one_line(agon("--db", ro, "undo", prefix, ok=False), "is read-only")
    assert f"export {prefix} -o FILE`" in said and f"log {prefix}`" in said  # no read spent on the full id
    for typed in ("no such; game", "-x", "$(id)"):
        said = one_line(agon("--db", ro, "redo", "--", typed, ok=False), "is read-only")
        assert "export GAME -o FILE`" in said and "log GAME`" in said and typed not in said, said


def test_a_long_option_list_on_a_read_only_store_names_no_command_that_records(agon, tmp_path):
    """Past the 40 options shown, `agon options` tells how to narrow the list: on a read-only store by --match
    alone, not by `agon play`, which records."""
    gid = agon("new", "perikles", "--player", "a", "--bot", "b:random", "--bot", "c:random", "--seed",
               "1").stdout.split()[0]
    while "take an influence tile" not in agon("options", gid).stdout:  # two starting cubes, then the tiles
        agon("act", gid, "1")
    out = agon("--db", f"sqlite:///{tmp_path / 'games.db'}?mode=ro", "options", gid).stdout
    assert "more: narrow them with --match TEXT, or list all with --all." in out
    assert not RECORDING.search(out), out
    assert "(in `agon play`: ?TEXT)" in agon("options", gid).stdout  # where it can record, play is named


@pytest.mark.parametrize("journal", ["wal", "delete"])
@pytest.mark.parametrize("option", ["mode=ro", "immutable=1"])
def test_a_read_only_sqlite_file_in_either_journal_mode_is_read(agon, tmp_path, archive, option, journal):
    """``immutable=1`` is how agon opens a file on a read-only mount (no -wal beside it); a store kept in SQLite's
    older journal mode (a copy made by another tool) is read as it is, not switched to WAL."""
    db = sqlite3.connect(tmp_path / "archive.db")
    db.execute(f"PRAGMA journal_mode={journal}")
    db.close()
    before = sqlite_contents(tmp_path / "archive.db")
    url = f"sqlite:///{tmp_path / 'archive.db'}?{option}"
    listed = agon("--db", url, "games", "--json")
    noted(listed, "game summaries")
    assert listed.stdout == agon("--db", str(tmp_path / "copy.db"), "games", "--json").stdout
    noted(agon("--db", url, "log", archive["long"]), "state snapshots")
    one_line(agon("--db", url, "act", archive["short"], "1", ok=False), "is read-only", "nothing was recorded")
    assert sqlite_contents(tmp_path / "archive.db") == before


def test_a_writable_store_keeps_what_it_computes_and_says_nothing(agon, tmp_path, archive):
    r = agon("games")
    assert r.stderr == ""
    agon("log", archive["long"])
    kept = sqlite_contents(tmp_path / "games.db")
    assert kept["game_summary"] and kept["state_snapshot"]


# -- PostgreSQL: a user who may only SELECT ----------------------------------------------------------------------


@pytest.fixture
def pg_reader(pg_base):
    """(the owner's URL, a SELECT-only user's URL) on a fresh schema; the user is dropped afterwards."""
    for url in _pg_schema_url(pg_base):
        schema = url.rsplit("%3D", 1)[1]
        role = f"{schema}_reader"
        admin = sa.create_engine(pg_base)
        with admin.begin() as c:
            c.execute(sa.text(f"CREATE ROLE {role} LOGIN"))
        reader = sa.engine.make_url(url).set(username=role, password=None).render_as_string(hide_password=False)
        try:
            yield url, reader, (schema, role, admin)
        finally:
            with admin.begin() as c:
                c.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = :r"),
                          {"r": role})
                c.execute(sa.text(f"DROP OWNED BY {role}"))
                c.execute(sa.text(f"DROP ROLE {role}"))
            admin.dispose()


def only_reading(admin, schema: str, role: str, emptied: tuple[str, ...] = DERIVED) -> None:
    """Let ``role`` read the tables of ``schema`` and do nothing else (a SELECT-only user), the derived tables
    ``emptied`` emptied first (an archive whose summaries and snapshots were never kept)."""
    with admin.begin() as c:
        for t in emptied:
            c.execute(sa.text(f"DELETE FROM {schema}.{t}"))
        c.execute(sa.text(f"GRANT USAGE ON SCHEMA {schema} TO {role}"))
        c.execute(sa.text(f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO {role}"))


def pg_contents(admin, schema: str) -> dict[str, int]:
    with admin.connect() as c:
        return {t: c.execute(sa.text(f"SELECT count(*) FROM {schema}.{t}")).scalar_one()
                for t in ("event", "branch", "head_move", "note", "game", *DERIVED)}


@pytest.mark.postgres
def test_a_select_only_postgresql_user_reads_the_archive_and_writes_nothing(agon, tmp_path, pg_reader):
    owner, reader, (schema, role, admin) = pg_reader

    def on(url):
        return lambda *args, ok=True: agon("--db", url, *args, ok=ok)

    ids = make_archive(on(owner))
    only_reading(admin, schema, role)
    before = pg_contents(admin, schema)
    expected = {}
    for args in reading(ids):
        if args != ("where",):
            expected[args] = on(owner)(*args).stdout.replace(owner, reader)
    with admin.begin() as c:  # the owner's commands kept what they computed: gone again
        for t in DERIVED:
            c.execute(sa.text(f"DELETE FROM {schema}.{t}"))

    run = on(reader)
    first = run("games", "--json", ok=False)  # the first refused write tells the store it may only be read
    noted(first, "game summaries")
    assert first.stdout == expected[("games", "--json")]
    for args in reading(ids):
        r = run(*args, ok=False)
        noted(r)
        if args in expected:
            assert r.stdout == expected[args], args
    written(run, ids, tmp_path, "pg")
    noted(analysed(run, ids["long"])[1], "analysis results")
    assert pg_contents(admin, schema) == before

    for args in writing(agon, ids, tmp_path):
        one_line(run(*args, ok=False), "read-only")
    assert pg_contents(admin, schema) == before


def test_a_read_only_store_agon_cannot_read_as_it_is_says_why_in_one_line(agon, tmp_path, archive):
    """One that lacks a table this agon keeps (an older agon's, which agon would add on opening it), and a file
    that is not there (a store opened read-only is never created)."""
    db = sqlite3.connect(tmp_path / "archive.db")
    db.execute("DROP TABLE analysis_result")
    db.commit()
    db.close()
    one_line(agon("--db", f"sqlite:///{tmp_path / 'archive.db'}?mode=ro", "games", ok=False), "is read-only",
             "lacks tables", "open it once where agon may write to it")
    assert agon("--db", str(tmp_path / "archive.db"), "games").stderr == ""  # a writable copy gains the table
    one_line(agon("--db", f"sqlite:///{tmp_path / 'none.db'}?mode=ro", "games", ok=False), "no such file")
    assert not (tmp_path / "none.db").exists()


@pytest.mark.postgres
def test_a_postgresql_user_granted_writing_under_a_running_service_keeps_derived_data_again(
        agon, pg_reader, monkeypatch):
    """A server runs for weeks as a user who may only SELECT; the DBA then grants it writing. The store was taken to
    be read-only at the first refused write, and is no longer once a write succeeds (a recorded decision) or
    ``READ_ONLY_SECONDS`` have passed (shortened here): listings keep the summaries computed meanwhile, lines keep
    their snapshots. Within that time no write of derived data is tried."""
    from agon.core.service import Service
    from agon.events import store as store_mod

    owner, reader, (schema, role, admin) = pg_reader
    long = agon("--db", owner, "new", "toy", "--bot", "a:random", "--bot", "b:random", "--seed", "5", "--option",
                "target=100").stdout.splitlines()[0]
    game = agon("--db", owner, "new", "toy", "--player", "ann", "--bot", "bob:random", "--seed",
                "3").stdout.splitlines()[0]
    writes = f"INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema}"

    def admin_does(*sql: str) -> None:
        with admin.begin() as c:
            for q in sql:
                c.execute(sa.text(q))

    def kept() -> tuple[int, int]:
        counts = pg_contents(admin, schema)
        return counts["game_summary"], counts["state_snapshot"]

    only_reading(admin, schema, role)
    svc = Service(store_mod.Store(reader, create=False))

    def listed() -> list[str]:
        return [g.id for g in svc.listing()]

    try:
        assert listed() == [long, game]
        assert svc.store.read_only and kept() == (0, 0)
        admin_does(f"GRANT {writes} TO {role}", f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA {schema} TO {role}")
        assert listed() == [long, game]
        svc.load(long)
        assert svc.store.read_only and kept() == (0, 0)  # nothing tried meanwhile

        svc.act(game, "1")  # a recorded decision: the store may be written
        assert not svc.store.read_only
        assert listed() == [long, game]
        svc.load(long)
        summaries, snapshots = kept()
        assert summaries == 2 and snapshots >= 1

        admin_does(*(f"DELETE FROM {schema}.{t}" for t in DERIVED), f"REVOKE {writes} FROM {role}")
        assert listed() == [long, game]
        assert svc.store.read_only and kept() == (0, 0)
        admin_does(f"GRANT {writes} TO {role}")
        assert listed() == [long, game]
        assert kept() == (0, 0)
        monkeypatch.setattr(store_mod, "READ_ONLY_SECONDS", 0)  # as if 5 minutes had passed, with nothing recorded
        assert listed() == [long, game]
        svc.load(long)
        summaries, snapshots = kept()
        assert summaries == 2 and snapshots >= 1
    finally:
        svc.store.close()


def pg_read_only_session(owner: str, schema: str) -> str:
    """The owner's URL with a session whose every transaction is read-only (``default_transaction_read_only``)."""
    path = f"-csearch_path%3D{schema}"
    return owner.replace(path, f"{path}%20-cdefault_transaction_read_only%3Don")


@pytest.mark.postgres
@pytest.mark.parametrize("how", ["select-only user", "read-only session"])
def test_a_postgresql_store_that_may_not_record_is_known_as_it_opens(agon, tmp_path, pg_reader, how):
    """A user who may only SELECT, a session whose transactions are read-only: known as the store opens (asked with
    the layout it reads), so a command that records is refused before anything else is checked, in the sentence a
    read-only SQLite file gets, and no refusal or hint names a command that records; reading commands work."""
    from agon.events.store import Store

    owner, reader, (schema, role, admin) = pg_reader
    ids = make_archive(lambda *args, ok=True: agon("--db", owner, *args, ok=ok))
    only_reading(admin, schema, role)
    url, why = ((reader, "for this database user, who may not record games") if how == "select-only user" else
                (pg_read_only_session(owner, schema), "default_transaction_read_only is on"))
    store = Store(url)
    writable = Store(owner)
    try:
        assert store.read_only_as_opened and store.read_only and why in store.read_only_why
        assert not writable.read_only_as_opened and not writable.read_only  # the owner's session may write
    finally:
        store.close()
        writable.close()
    before = pg_contents(admin, schema)
    long, game, short = ids["long"], ids["game"], ids["short"]

    def run(*args, ok=True):
        return agon("--db", url, *args, ok=ok)

    noted(run("games", "--json"), "game summaries")
    for args in (("act", long, "1"), ("act", short, "99"), ("undo", short, "--steps", "50"), ("undo", long),
                 ("redo", game), ("branch", long, "x"), ("note", game, "999", "hi"),
                 ("new", "toy", "--player", "a", "--bot", "b:random")):
        said = one_line(run(*args, ok=False), "is read-only", why, "nothing was recorded")
        assert not RECORDING.search(said), (args, said)
        named = re.findall(r"`(agon [^`]*)`", said)
        assert named, said
        for command in named:
            argv = [{"GAME": long, "FILE": str(tmp_path / "out.json")}.get(w, w) for w in shlex.split(command)]
            assert argv[1:3] == ["--db", url], command
            assert agon(*argv[1:]).exit_code == 0  # what it names instead runs on this store
    for args in (("options", short), ("options", long), ("options", game), ("notes", short),
                 ("analyse", long, "--rollouts", "2", "--workers", "1", "--threshold", "0.01")):
        out = run(*args).stdout
        assert not RECORDING.search(out), (args, out)
    assert "read-only" in run("options", short).stdout
    for args in (("log", long), ("state", short, "--json"), ("branches", game), ("verify",)):
        noted(run(*args))
    assert pg_contents(admin, schema) == before


@pytest.mark.postgres
def test_a_select_only_postgresql_user_on_a_schema_without_agons_tables_is_refused_as_before(agon, pg_reader):
    """Opening would create the tables, which the user may not: the store cannot be opened, said in one line."""
    owner, reader, (schema, role, admin) = pg_reader
    with admin.begin() as c:
        c.execute(sa.text(f"GRANT USAGE ON SCHEMA {schema} TO {role}"))
    one_line(agon("--db", reader, "games", ok=False), "is read-only", "lacks tables",
             "open it once where agon may write to it")


@pytest.mark.postgres
def test_a_postgresql_store_read_only_as_it_opened_is_asked_again_and_records_once_granted(
        agon, pg_reader, monkeypatch):
    """A server opened as a user who may only SELECT refuses every recording up front; the DBA then grants it
    writing. ``READ_ONLY_SECONDS`` later (shortened here) the store asks again, and records and keeps summaries."""
    from agon.core.service import Service
    from agon.events import store as store_mod

    owner, reader, (schema, role, admin) = pg_reader
    game = agon("--db", owner, "new", "toy", "--player", "ann", "--bot", "bob:random", "--seed",
                "3").stdout.splitlines()[0]
    only_reading(admin, schema, role, ("game_summary",))
    svc = Service(store_mod.Store(reader))  # as the server opens it
    try:
        assert svc.store.read_only_as_opened
        with pytest.raises(store_mod.Unavailable):
            svc.act(game, "1")
        with admin.begin() as c:
            c.execute(sa.text(f"GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role}"))
            c.execute(sa.text(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA {schema} TO {role}"))
        assert svc.store.read_only_as_opened  # not asked again yet
        monkeypatch.setattr(store_mod, "READ_ONLY_SECONDS", 0)  # as if 5 minutes had passed
        assert not svc.store.read_only_as_opened and not svc.store.read_only
        svc.act(game, "1")
        assert [g.id for g in svc.listing()] == [game]
        assert pg_contents(admin, schema)["game_summary"] == 1
    finally:
        svc.store.close()


@pytest.mark.postgres
def test_agon_serve_on_a_select_only_user_says_so_as_it_starts(agon, pg_reader, monkeypatch):
    """An organiser starting the club's server as a user who may only read learns it from the banner, before sending
    anyone a link, not from the players' refused games; a writable store's banner says nothing of it."""
    import uvicorn

    from tests.servers import free_port

    owner, reader, (schema, role, admin) = pg_reader
    agon("--db", owner, "new", "toy", "--player", "ann", "--bot", "bob:random")
    only_reading(admin, schema, role, emptied=())
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)  # the banner is all this asks for
    free = str(free_port())
    said = agon("serve", "--db", reader, "--port", free).stdout
    assert "The store is read-only (for this database user, who may not record games): its games can be watched" \
           " and read, not created or played on." in said.replace("\n", " ")
    assert "read-only" not in agon("serve", "--db", owner, "--port", free).stdout

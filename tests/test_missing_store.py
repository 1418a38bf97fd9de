"""A SQLite path with no file there: only a command that starts a store (new, demo, import) makes one there. Every
other command (one that reads, or records in a game already stored) says in one line that no store is there and
what to do, and leaves no file behind (no ``-wal`` or ``-shm`` either): a mistyped --db or AGON_DB used to leave a
stray empty store and say 'No games yet' or 'no game' in it. On agon's first run, the default store not made yet,
``agon games`` lists no game, as an empty store does, and makes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agon.cli import common
from agon.events.store import missing_file
from tests.tamper import rewrite

NEITHER_STARTS = [
    ("games",), ("games", "--json"), ("log", "3f2a"), ("state", "3f2a"), ("options", "3f2a"), ("branches", "3f2a"),
    ("notes", "3f2a"), ("view", "3f2a"), ("export", "3f2a"), ("stats", "toy"), ("verify",), ("verify", "3f2a"),
    ("plot", "scores", "3f2a"), ("replay", "3f2a"), ("compare", "3f2a", "main", "b"), ("analyse", "3f2a"),
    ("rebuild",),
    # recording in a game: no game is in a store that is not there
    ("act", "3f2a", "1"), ("undo", "3f2a"), ("redo", "3f2a"), ("note", "3f2a", "1", "why?"),
    ("branch", "3f2a", "b", "--at", "1"), ("switch", "3f2a", "main"),
]


def new_toy(agon, *db: str) -> str:
    return agon(*db, "new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.split()[0]


def files(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def one_line(r) -> str:
    assert r.exit_code == 1 and "Traceback" not in r.stdout + r.stderr, (r.stdout, r.stderr)
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr
    return r.stderr.strip()


@pytest.mark.parametrize("args", NEITHER_STARTS, ids=" ".join)
def test_a_mistyped_db_is_refused_in_one_line_and_nothing_is_made(agon, tmp_path, args):
    folder = tmp_path / "club"
    folder.mkdir()
    typo = folder / "clbu.db"
    r = agon("--db", str(typo), *args, ok=False)
    said = one_line(r)
    if "--json" in args:
        said = json.loads(said)["error"]
    assert said.removeprefix("error: ") == (
        f"no store at {typo} yet: check --db, or record a game there first with"
        f" `agon --db {typo} new RULESET --player NAME...` or `agon --db {typo} demo`")
    assert files(folder) == []  # no store, no -wal, no -shm


@pytest.mark.parametrize("args", [("games",), ("log", "3f2a"), ("act", "3f2a", "1")], ids=" ".join)
def test_a_mistyped_agon_db_names_agon_db(agon, tmp_path, monkeypatch, args):
    typo = tmp_path / "gmaes.db"
    monkeypatch.setenv("AGON_DB", str(typo))
    before = files(tmp_path)
    said = one_line(agon(*args, ok=False))
    assert said == (f"error: no store at {typo} yet: check AGON_DB, or record a game there first with"
                    " `agon new RULESET --player NAME...` or `agon demo`")
    assert files(tmp_path) == before


def test_a_store_that_is_there_reads_as_before(agon, tmp_path):
    gid = new_toy(agon, "--db", "club.db")
    assert "club.db" in files(tmp_path)
    assert gid in agon("--db", "club.db", "games").stdout
    assert agon("--db", "club.db", "log", gid).stdout
    said = one_line(agon("--db", "club.db", "log", "zzzz", ok=False))
    assert "no game 'zzzz'" in said and "no store" not in said


@pytest.mark.parametrize("start", ["new", "demo", "import"])
def test_a_command_that_starts_a_store_makes_one_where_none_is(agon, tmp_path, start):
    folder = tmp_path / "club"
    folder.mkdir()
    db = str(folder / "new.db")
    if start == "new":
        gid = new_toy(agon, "--db", db)
    elif start == "demo":
        gid = json.loads(agon("--db", db, "demo", "toy", "--json").stdout)["id"]
    else:
        gid = new_toy(agon)  # in the store AGON_DB names
        agon("export", gid, "-o", str(tmp_path / "game.jsonl"))
        agon("--db", db, "import", str(tmp_path / "game.jsonl"))
    assert "new.db" in files(folder)
    assert gid in agon("--db", db, "games").stdout


@pytest.fixture
def fresh_machine(agon, tmp_path, monkeypatch):
    """No --db, no AGON_DB, and the default store's folder not made yet: agon's first run on a machine."""
    data = tmp_path / "data" / "agon"
    monkeypatch.delenv("AGON_DB")
    monkeypatch.setattr(common, "default_db_path", lambda: data / "agon.db")
    return data / "agon.db"


def test_the_first_run_lists_no_game_and_makes_nothing(agon, tmp_path, fresh_machine):
    out = agon("games").stdout
    assert out.strip() == (f"No games yet in sqlite:///{fresh_machine}. Create one: agon new RULESET --player NAME"
                           " --bot NAME:random")
    assert json.loads(agon("games", "--json").stdout) == []
    assert agon("where").stdout.strip() == f"sqlite:///{fresh_machine}"
    assert not (tmp_path / "data").exists()  # not the store, nor its folder


def test_the_first_run_says_there_is_no_game_yet_for_a_game_asked_for(agon, tmp_path, fresh_machine):
    said = one_line(agon("log", "3f2a", ok=False))
    assert said == (f"error: no store at {fresh_machine} yet (the default store: nothing is recorded on this machine"
                    " yet): record a game with `agon new RULESET --player NAME...` or `agon demo`, or name another"
                    " store with --db or AGON_DB")
    assert not (tmp_path / "data").exists()


def test_the_first_game_on_a_machine_makes_the_default_store_and_its_folder(agon, fresh_machine):
    gid = new_toy(agon)
    assert fresh_machine.is_file()
    assert gid in agon("games").stdout


def test_only_a_sqlite_path_without_a_file_is_missing(tmp_path):
    there = tmp_path / "there.db"
    there.write_bytes(b"")
    assert missing_file(f"sqlite:///{tmp_path / 'none.db'}") == str(tmp_path / "none.db")
    assert missing_file(f"sqlite:///{there}") is None
    assert missing_file(f"sqlite:///{tmp_path / 'none.db'}?mode=ro") is None  # opening it creates nothing
    assert missing_file("postgresql+psycopg://agon@127.0.0.1/none") is None  # agon never creates a database


# A command that starts a store judges its request first: one the rules of setup refuse (or a file that is no
# export) makes no store where there is none, and is refused in the words it gets where a store is there.
REFUSED_NEW = {
    "unknown ruleset": ("new", "chess", "--player", "A", "--player", "B"),
    "too few seats": ("new", "toy", "--player", "A"),
    "unknown bot kind": ("new", "toy", "--player", "A", "--bot", "B:clever"),
    "unknown option": ("new", "toy", "--player", "A", "--player", "B", "--option", "speed=3"),
    "option the ruleset refuses": ("new", "toy", "--player", "A", "--player", "B", "--option", "target=0"),
    "bad title": ("new", "toy", "--player", "A", "--player", "B", "--title", "x" * 1000),
    "same name twice": ("new", "toy", "--player", "A", "--player", "A"),
    "reserved name": ("new", "toy", "--player", "A", "--bot", "setup:random"),
    "card set": ("new", "peloponnes", "--player", "A", "--player", "B", "--cards", "cards.json"),
    "unknown demo ruleset": ("demo", "chess"),
    "demo players": ("demo", "toy", "--players", "9"),
    "demo seeds": ("demo", "toy", "--seed", "2147483647", "--games", "3"),
    "empty file": ("import", "empty.jsonl"),
    "not text": ("import", "binary.jsonl"),
    "no export": ("import", "notes.txt"),
    "cut short": ("import", "cut.jsonl"),
    "not signed by the trusted key": ("import", "game.jsonl", "--trust", "key.pub"),
}


@pytest.fixture
def inputs(agon, tmp_path):
    """The files the refused commands read, in the working folder; made without a store at the test's path."""
    (tmp_path / "cards.json").write_text('{"cities": "none"}')
    (tmp_path / "empty.jsonl").write_bytes(b"")
    (tmp_path / "binary.jsonl").write_bytes(b"\xff\xfe\x00agon")
    (tmp_path / "notes.txt").write_text("a shopping list, not a game\n")
    gid = new_toy(agon)  # in the store AGON_DB names
    agon("export", gid, "-o", "game.jsonl")
    whole = (tmp_path / "game.jsonl").read_bytes()
    (tmp_path / "cut.jsonl").write_bytes(whole[: len(whole) // 2])
    agon("keygen", "key")


@pytest.mark.parametrize("args", REFUSED_NEW.values(), ids=REFUSED_NEW.keys())
def test_a_refused_new_game_demo_or_import_makes_no_store(agon, tmp_path, inputs, args):
    folder = tmp_path / "club"
    folder.mkdir()
    db = str(folder / "new.db")
    said = one_line(agon("--db", db, *args, ok=False))
    assert files(folder) == []  # no store, no -wal, no -shm
    assert "no store" not in said
    new_toy(agon, "--db", db)  # the store is there now: the same request is refused in the same words
    assert one_line(agon("--db", db, *args, ok=False)) == said


def test_a_refused_new_game_says_what_it_said(agon, tmp_path):
    """The refusals' own words, on a path with no file (tests/test_cli.py and others hold the rest)."""
    db = str(tmp_path / "club" / "new.db")
    (tmp_path / "club").mkdir()
    assert one_line(agon("--db", db, "new", "toy", "--player", "A", "--bot", "B:clever", ok=False)) == (
        "error: unknown bot kind 'clever' for toy; choose one of: random")
    assert one_line(agon("--db", db, "new", "toy", "--player", "A", "--player", "B", "--option", "speed=3",
                         ok=False)) == "error: toy has no option 'speed'; its options: target"
    assert one_line(agon("--db", db, "demo", "toy", "--players", "9", ok=False)) == (
        "error: toy is played by 2 to 4 players, not 9; choose --players 2, 3 or 4")
    assert files(tmp_path / "club") == []


# A file refused only once read whole: a line the rules refuse (a decision rewritten, every hash after it and the
# file's digest recomputed, as a hostile sender would), or a card set the file names by its hash but neither carries
# nor is agon's own. Such a file is judged before the store opens: a path with no store gets none, and a store that
# is there is left as it was, with the same words.

def _overbid(events: list) -> None:
    bid = next(e for e in events if e["tag"] == "peloponnes.bid_placed")
    bid["payload"]["coins"] = {"wood": 99}


def _without_sets(data: bytes) -> bytes:
    kept = b"".join(raw + b"\n" for raw in data.splitlines() if not raw.startswith(b'{"kind":"cards"'))
    return rewrite(kept, lambda events: None)


def _set_of(data: bytes) -> str:
    return next(json.loads(raw)["hash"] for raw in data.splitlines() if raw.startswith(b'{"kind":"cards"'))


def _own_set_game(agon, seed: int) -> str:
    """A Peloponnes game with a card set of the user's own (one card renamed), in the store AGON_DB names."""
    if not Path("own.json").exists():
        agon("cards", "peloponnes", "-o", "own.json")
        cards = json.loads(Path("own.json").read_text())
        cards["power"][0]["name"] = "Deep Well"
        Path("own.json").write_text(json.dumps(cards))
    return agon("new", "peloponnes", "--cards", "own.json", "--player", "ann", "--bot", "bob:random", "--bot",
                "cy:random", "--seed", str(seed)).stdout.split()[0]


@pytest.fixture
def refused_files(agon, tmp_path) -> dict[str, str]:
    """Files refused once read whole, in the working folder (made in the store AGON_DB names): each name and the
    line its import is refused with, where a store is there and where none is."""
    demo = json.loads(agon("demo", "peloponnes", "--json").stdout)["id"]
    own = _own_set_game(agon, 3)
    made: dict[str, str] = {}
    for kind, args in (("whole", ()), ("line", ("--branch", "main"))):
        agon("export", demo, *args, "-o", f"demo-{kind}.jsonl")
        (tmp_path / f"overbid-{kind}.jsonl").write_bytes(rewrite((tmp_path / f"demo-{kind}.jsonl").read_bytes(),
                                                                 _overbid))
        made[f"overbid-{kind}.jsonl"] = "breaks a rule: bid"
        agon("export", own, *args, "-o", f"own-{kind}.jsonl")
        data = (tmp_path / f"own-{kind}.jsonl").read_bytes()
        (tmp_path / f"no-set-{kind}.jsonl").write_bytes(_without_sets(data))
        made[f"no-set-{kind}.jsonl"] = (
            f"error: cannot import: its card set {_set_of(data)[:12]} is neither in the file nor bundled with agon"
            " nor in this store; export the game again from a store that holds it (its file then carries the set);"
            " nothing was imported")
    return made


def _said_as_expected(said: str, name: str, expected: str) -> None:
    if name.startswith("overbid"):  # the rule's own words: the bid is more than the player holds
        where = "branch main: " if "whole" in name else ""  # a whole game names the line's branch
        assert said.startswith(f"error: cannot import: {where}event #") and expected in said, said
        assert said.endswith("not 99 wood; nothing was imported"), said
    else:
        assert said == expected


def test_a_file_refused_once_read_whole_makes_no_store(agon, tmp_path, refused_files):
    folder = tmp_path / "club"
    folder.mkdir()
    db = folder / "new.db"
    for name, expected in refused_files.items():
        _said_as_expected(one_line(agon("--db", str(db), "import", name, ok=False)), name, expected)
        assert files(folder) == []  # no store, no -wal, no -shm


def test_a_file_refused_once_read_whole_leaves_a_store_as_it_was(agon, tmp_path, refused_files):
    folder = tmp_path / "club"
    folder.mkdir()
    db = str(folder / "club.db")
    gid = new_toy(agon, "--db", db)
    before = (files(folder), agon("--db", db, "games", "--json").stdout, agon("--db", db, "export", gid).stdout)
    for name, expected in refused_files.items():
        _said_as_expected(one_line(agon("--db", db, "import", name, ok=False)), name, expected)
        after = (files(folder), agon("--db", db, "games", "--json").stdout, agon("--db", db, "export", gid).stdout)
        assert after == before


def test_a_command_closes_its_store_so_the_file_alone_holds_what_it_recorded(agon, tmp_path):
    # the store was left open when a command ended (closed by the garbage collector, or not at all when the process
    # ended): what it recorded stayed in the -wal file beside the store, so a copy of the store's file alone held
    # no game, and the test above saw the -wal and -shm files come and go with the collector
    import os
    import shutil
    import subprocess
    import sys

    from tests.test_cli_surface import ROOT

    folder = tmp_path / "club"
    folder.mkdir()
    db = str(folder / "club.db")
    gid = new_toy(agon, "--db", db)
    assert files(folder) == ["club.db"]
    agon("--db", db, "act", gid, "1")
    assert files(folder) == ["club.db"]
    (tmp_path / "copy").mkdir()
    shutil.copy(db, tmp_path / "copy" / "club.db")
    copied = json.loads(agon("--db", str(tmp_path / "copy" / "club.db"), "games", "--json").stdout)
    assert [g["id"] for g in copied] == [gid]
    # so too where each command is a process of its own, as a person runs them
    env = {**os.environ, "AGON_DB": str(tmp_path / "own" / "g.db")}
    (tmp_path / "own").mkdir()
    r = subprocess.run([sys.executable, "-m", "agon", "new", "toy", "--player", "ann", "--bot", "bob:random"],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert r.returncode == 0 and files(tmp_path / "own") == ["g.db"], (r.stderr, files(tmp_path / "own"))


def test_a_card_set_the_file_leaves_out_is_found_among_agons_own_or_in_the_store(agon, tmp_path, refused_files):
    # agon's own set (a demo's), left out of the file: agon has it, and the new store keeps it
    for kind in ("whole", "line"):
        (tmp_path / f"demo-no-set-{kind}.jsonl").write_bytes(_without_sets(
            (tmp_path / f"demo-{kind}.jsonl").read_bytes()))
        db = str(tmp_path / f"fresh-{kind}.db")
        gid = json.loads(agon("--db", db, "import", f"demo-no-set-{kind}.jsonl", "--json").stdout)["id"]
        assert "every hash matches" in agon("--db", db, "verify", gid).stdout
        assert b'"kind":"cards"' in agon("--db", db, "export", gid).stdout_bytes  # kept: the export carries it
    # a set of the user's own, left out of the file: a store that holds it (from another game) gives it
    db = str(tmp_path / "club.db")
    agon("--db", db, "import", "own-whole.jsonl")
    second = _own_set_game(agon, 4)
    agon("export", second, "-o", "second.jsonl")
    (tmp_path / "second-no-set.jsonl").write_bytes(_without_sets((tmp_path / "second.jsonl").read_bytes()))
    report = json.loads(agon("--db", db, "import", "second-no-set.jsonl", "--json").stdout)
    assert report["outcome"] == "new" and report["id"] == second
    assert "every hash matches" in agon("--db", db, "verify", second).stdout
    # and the refused files of that game now import there: the store holds their set
    for kind in ("whole", "line"):
        assert json.loads(agon("--db", db, "import", f"no-set-{kind}.jsonl", "--json").stdout)["outcome"] == (
            "unchanged")


# A write that fails once the new store's file was made (a full disk, say): the command fails in one line and takes
# the store it made away again (its -wal, -shm and -journal with it), as if it had never started; a store that was
# there is left as it was. Simulated by the store's one writer of events failing as SQLite does when the disk is full.

def _disk_full(self, c, game_id, envs):
    import sqlite3

    import sqlalchemy as sa

    raise sa.exc.OperationalError("INSERT INTO event", {}, sqlite3.OperationalError("database or disk is full"))


STARTS_THEN_FAILS = {
    "import a whole game": ("import", "game.jsonl"),
    "import a line": ("import", "line.jsonl"),
    "new": ("new", "toy", "--player", "A", "--bot", "B:random"),
    "demo": ("demo", "toy"),
}


@pytest.fixture
def exports(agon, tmp_path) -> str:
    """A game's whole file and one line's file, in the working folder (made in the store AGON_DB names)."""
    gid = new_toy(agon)
    agon("act", gid, "1")
    agon("export", gid, "-o", "game.jsonl")
    agon("export", gid, "--branch", "main", "-o", "line.jsonl")
    return gid


@pytest.mark.parametrize("args", STARTS_THEN_FAILS.values(), ids=STARTS_THEN_FAILS.keys())
def test_a_write_that_fails_after_a_new_store_was_made_leaves_nothing_behind(agon, tmp_path, exports, monkeypatch,
                                                                              args):
    from agon.events.store import Store

    folder = tmp_path / "club"
    folder.mkdir()
    with monkeypatch.context() as m:
        m.setattr(Store, "_insert", _disk_full)
        said = one_line(agon("--db", str(folder / "new.db"), *args, ok=False))
    assert "its disk has no room left" in said, said
    assert files(folder) == []  # no store, no -wal, -shm or -journal
    agon("--db", str(folder / "new.db"), *args)  # the same command, the disk no longer full: it works


def test_a_write_that_fails_in_the_first_store_on_a_machine_leaves_not_even_its_folder(agon, tmp_path, exports,
                                                                                         fresh_machine, monkeypatch):
    from agon.events.store import Store

    monkeypatch.setattr(Store, "_insert", _disk_full)
    assert "its disk has no room left" in one_line(agon("import", "game.jsonl", ok=False))
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("args", STARTS_THEN_FAILS.values(), ids=STARTS_THEN_FAILS.keys())
def test_a_write_that_fails_in_a_store_that_is_there_leaves_it_as_it_was(agon, tmp_path, exports, monkeypatch, args):
    from agon.events.store import Store

    folder = tmp_path / "club"
    folder.mkdir()
    db = str(folder / "club.db")
    gid = new_toy(agon, "--db", db)
    before = (files(folder), agon("--db", db, "games", "--json").stdout, agon("--db", db, "export", gid).stdout)
    with monkeypatch.context() as m:
        m.setattr(Store, "_insert", _disk_full)
        assert "its disk has no room left" in one_line(agon("--db", db, *args, ok=False))
    assert (files(folder), agon("--db", db, "games", "--json").stdout, agon("--db", db, "export", gid).stdout) == before


def test_an_import_that_fails_while_extending_a_stored_game_leaves_it_as_it_was(agon, tmp_path, exports,
                                                                                 monkeypatch):
    from agon.events.store import Store

    db = str(tmp_path / "club.db")
    agon("--db", db, "import", "game.jsonl")
    before = agon("--db", db, "export", exports).stdout
    agon("act", exports, "1")  # one event more in the store the files come from
    agon("export", exports, "-o", "newer.jsonl")
    agon("export", exports, "--branch", "main", "-o", "newer-line.jsonl")
    for name in ("newer.jsonl", "newer-line.jsonl"):
        with monkeypatch.context() as m:
            m.setattr(Store, "_insert", _disk_full)
            assert "its disk has no room left" in one_line(agon("--db", db, "import", name, ok=False))
        assert agon("--db", db, "export", exports).stdout == before
    assert json.loads(agon("--db", db, "import", "newer.jsonl", "--json").stdout)["outcome"] == "extended"


def _pg_tables(base: str, url: str) -> list[str]:
    """The tables of the schema ``url``'s search_path names."""
    import sqlalchemy as sa

    schema = url.rpartition("search_path%3D")[2]
    eng = sa.create_engine(base)
    with eng.connect() as c:
        names = c.execute(sa.text("SELECT tablename FROM pg_tables WHERE schemaname = :s"), {"s": schema}).scalars()
        found = sorted(names)
    eng.dispose()
    return found


@pytest.mark.postgres
@pytest.mark.parametrize("args", [("games",), ("verify",), ("rebuild",), ("stats", "toy"), ("log", "3f2a")],
                         ids=" ".join)
def test_a_postgresql_schema_without_a_store_is_refused_and_left_empty(agon, pg_base, args):
    """A PostgreSQL URL whose schema holds no agon store (a fresh one, or the database's public schema when the URL
    left out its search_path) is told as a mistyped path is: reading made agon's twelve tables there, empty."""
    from tests.conftest import _pg_schema_url

    urls = _pg_schema_url(pg_base)
    url = next(urls)
    try:
        r = agon("--db", url, *args, ok=False)
        assert r.exit_code == 1 and r.stdout == ""
        assert r.stderr.startswith(f"error: no store at {url} yet: check --db, or record a game there first with `agon"
                                   f" --db '{url}' new RULESET --player NAME...`"), r.stderr
        assert _pg_tables(pg_base, url) == []
        gid = new_toy(agon, "--db", url)  # a command that starts a store makes it there, as before
        assert gid in agon("--db", url, "games").stdout
    finally:
        next(urls, None)

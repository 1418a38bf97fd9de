"""A SQLite path with no file there: only a command that starts a store (new, demo, import) makes one there. Every
other command (one that reads, or records in a game already stored) says in one line that no store is there and
what to do, and leaves no file behind (no ``-wal`` or ``-shm`` either): a mistyped --db or AGON_DB used to leave a
stray empty store and say 'No games yet' or 'no game' in it. On agon's first run, the default store not made yet,
``agon games`` lists no game, as an empty store does, and makes nothing."""

from __future__ import annotations

import json

import pytest

from agon.cli import common
from agon.events.store import missing_file

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

"""A club's store at a path of its own: a new club types ``--db club/agon.db`` before any folder ``club`` is there.
The commands that start a store (new, demo, import) make its folders with it (taken away again when the request is
refused); a command that only reads says there is no store there yet, and that its folder is missing too, and makes
nothing. And the busy store's refusal counts its seconds in words a person reads ("1 second")."""

from __future__ import annotations

import json
import sqlite3

import pytest

from agon.events import store as store_mod


def one_line(r) -> str:
    assert r.exit_code == 1 and "Traceback" not in r.stdout + r.stderr, (r.stdout, r.stderr)
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr
    return r.stderr.strip()


def new_toy(agon, db: str) -> str:
    return agon("--db", db, "new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.split()[0]


@pytest.mark.parametrize("start", ["new", "demo", "import"])
def test_a_command_that_starts_a_store_makes_its_missing_folders(agon, tmp_path, start):
    db = "club/2026/agon.db"  # as a new user types it, relative to where they are
    if start == "new":
        gid = new_toy(agon, db)
    elif start == "demo":
        gid = json.loads(agon("--db", db, "demo", "toy", "--json").stdout)["id"]
    else:
        gid = new_toy(agon, str(tmp_path / "home.db"))
        agon("--db", str(tmp_path / "home.db"), "export", gid, "-o", "game.jsonl")
        agon("--db", db, "import", "game.jsonl")
    assert sorted(p.name for p in (tmp_path / "club" / "2026").iterdir()) == ["agon.db"]
    assert gid in agon("--db", db, "games").stdout


def test_a_refused_new_game_leaves_no_folder_behind(agon, tmp_path):
    said = one_line(agon("--db", "club/2026/agon.db", "new", "toy", "--player", "A", "--bot", "B:clever", ok=False))
    assert said == "error: unknown bot kind 'clever' for toy; choose one of: random"
    assert not (tmp_path / "club").exists()


@pytest.mark.parametrize("args", [("games",), ("stats", "toy"), ("verify",), ("rebuild",), ("log", "3f2a")],
                         ids=" ".join)
def test_a_reading_command_says_the_store_and_its_folder_are_missing_and_makes_nothing(agon, tmp_path, args):
    db = tmp_path / "club" / "agon.db"
    said = one_line(agon("--db", str(db), *args, ok=False))
    assert said == (f"error: no store at {db} yet (its folder {tmp_path / 'club'} does not exist): check --db, or"
                    f" record a game there first with `agon --db {db} new RULESET --player NAME...` or"
                    f" `agon --db {db} demo`")
    assert not (tmp_path / "club").exists()


def test_a_file_where_the_folder_would_be_is_refused_in_one_line(agon, tmp_path):
    (tmp_path / "club").write_text("minutes of the last meeting\n")
    for args in (("new", "toy", "--player", "A", "--bot", "B:random"), ("games",)):
        said = one_line(agon("--db", "club/agon.db", *args, ok=False))
        assert said == (f"error: cannot open database sqlite:///{tmp_path / 'club' / 'agon.db'}: {tmp_path / 'club'}"
                        " is a file, not a folder; choose another --db")
    assert (tmp_path / "club").read_text() == "minutes of the last meeting\n"


@pytest.mark.parametrize(("seconds", "said"), [(1, "for over 1 second;"), (10, "for over 10 seconds;")])
def test_the_busy_store_counts_its_seconds_in_words(monkeypatch, seconds, said):
    monkeypatch.setattr(store_mod, "BUSY_SECONDS", seconds)
    e = store_mod.unavailable(sqlite3.OperationalError("database is locked"), "sqlite:///club.db")
    assert said in str(e)


@pytest.mark.parametrize("args", [("games",), ("new", "toy", "--player", "A", "--bot", "B:random")], ids=" ".join)
def test_a_store_opened_read_only_in_a_missing_folder_makes_no_folder(agon, tmp_path, args):
    """SQLite never makes a store it is told only to read (?mode=ro), so no folder is made for one either."""
    said = one_line(agon("--db", "sqlite:///club/agon.db?mode=ro", *args, ok=False))
    assert said == ("error: cannot open database club/agon.db: there is no such file (a store opened read-only is"
                    " never created)")
    assert not (tmp_path / "club").exists()

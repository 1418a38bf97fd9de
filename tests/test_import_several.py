"""A club's history moves between stores as one file per game: `agon import` takes several files at once (a shell
glob of a folder), judging every file before it imports any, and a file that holds several exports one after
another (`agon export` run in a loop into one file) is refused saying so, not as an edited file."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def exported(agon, tmp_path) -> list[str]:
    """Three Peloponnes games recorded in a SQLite store, each exported to a file of its own (their names)."""
    agon("--db", "source.db", "demo", "peloponnes", "--games", "3", "--seed", "5")
    games = [g["id"] for g in json.loads(agon("--db", "source.db", "games", "--json").stdout)]
    (tmp_path / "club").mkdir()
    for g in games:
        agon("--db", "source.db", "export", g, "-o", f"club/{g}.jsonl")
    return [f"club/{g}.jsonl" for g in games]


def test_several_files_import_in_one_command_into_either_store(agon, exported, store_url):
    r = agon("--db", store_url, "import", *exported)
    assert r.stdout.splitlines()[-1] == "3 files imported: 3 new games.", r.stdout
    listed = json.loads(agon("--db", store_url, "games", "--json").stdout)
    assert sorted(g["id"] for g in listed) == sorted(f.removeprefix("club/").removesuffix(".jsonl") for f in exported)
    assert "3 games checked: every hash matches" in agon("--db", store_url, "verify").stdout
    again = agon("--db", store_url, "import", *exported, "--json")
    assert [g["outcome"] for g in json.loads(again.stdout)] == ["unchanged"] * 3


def test_one_refused_file_among_several_imports_none_and_names_it(agon, exported, tmp_path):
    bad = tmp_path / "club" / "bad.jsonl"
    good = (tmp_path / exported[0]).read_bytes()
    bad.write_bytes(good + b"{}\n")
    r = agon("--db", "target.db", "import", exported[1], "club/bad.jsonl", exported[2], ok=False)
    assert r.exit_code == 1 and r.stdout == ""
    after = len(good.splitlines()) + 1
    assert r.stderr.strip() == (f"error: cannot import club/bad.jsonl: line {after} follows the end of the game (the"
                                " trailer): the file was edited; nothing was imported"), r.stderr
    assert not (tmp_path / "target.db").exists()  # judged before any was imported: no store made


def test_standard_input_among_files_is_refused(agon, exported, tmp_path):
    r = agon("--db", "target.db", "import", exported[0], "-", ok=False)
    assert r.exit_code == 1
    assert r.stderr.strip() == "error: standard input (-) is read alone; give it as the only FILE, or give files only"
    assert not (tmp_path / "target.db").exists()


def test_exports_written_one_after_another_into_one_file_are_refused_saying_so(agon, exported, tmp_path):
    joined = b"".join((tmp_path / f).read_bytes() for f in exported)
    r = agon("--db", "target.db", "import", "-", input=joined.decode(), ok=False)
    assert r.exit_code == 1
    said = r.stderr.strip()
    assert said.startswith("error: cannot import: line ") and " begins another game's export after the end of the" \
        " first: the file holds several exports one after another; " in said, said
    assert said.endswith("write each game to a file of its own (`agon --db STORE export -o FOLDER` writes every game"
                         " of a store so) and import them together (`agon --db target.db import FOLDER/*.jsonl`);"
                         " nothing was imported"), said
    assert "was edited" not in said
    assert not (tmp_path / "target.db").exists()


def test_every_game_exports_to_a_folder_and_imports_into_a_fresh_store(agon, tmp_path, store_url):
    agon("--db", "source.db", "demo", "peloponnes", "--games", "2", "--seed", "5")
    agon("--db", "source.db", "demo", "adamastor", "--games", "1", "--seed", "5")
    games = [g["id"] for g in json.loads(agon("--db", "source.db", "games", "--json").stdout)]
    events = sum(g["events"] for g in json.loads(agon("--db", "source.db", "games", "--json").stdout))
    r = agon("--db", "source.db", "export", "-o", "club history")
    assert r.stdout == (f"Wrote 3 games ({events:,} events in all) to club history, one file each; `agon --db OTHER"
                        " import 'club history'/*.jsonl` takes them into another store.\n"), r.stdout
    files = sorted(p.name for p in (tmp_path / "club history").iterdir())
    assert files == sorted(f"{g}.jsonl" for g in games)
    for g in games:  # each file is what `agon export GAME` writes
        assert (tmp_path / "club history" / f"{g}.jsonl").read_text() == agon("--db", "source.db", "export", g).stdout
    r = agon("--db", store_url, "import", *(f"club history/{f}" for f in files))
    assert r.stdout.splitlines()[-1] == "3 files imported: 3 new games."
    listed = json.loads(agon("--db", store_url, "games", "--json").stdout)
    assert sorted(g["id"] for g in listed) == sorted(games)


def test_exporting_every_game_needs_a_folder_and_no_branch(agon, tmp_path):
    agon("--db", "source.db", "demo", "peloponnes", "--games", "1", "--seed", "5")
    r = agon("--db", "source.db", "export", ok=False)
    assert r.exit_code == 1 and r.stderr == ("error: give a GAME to export, or -o FOLDER to write every game of the"
                                             " store, each to a file of its own (`agon --db source.db export -o"
                                             " club/`)\n")
    (tmp_path / "taken.jsonl").write_text("")
    r = agon("--db", "source.db", "export", "-o", "taken.jsonl", ok=False)
    assert r.exit_code == 1 and "taken.jsonl is a file; without a GAME, -o names the folder" in r.stderr
    r = agon("--db", "source.db", "export", "-o", "game.jsonl", ok=False)  # its GAME left out
    assert r.exit_code == 1 and r.stderr == ("error: give the GAME to write to game.jsonl (`agon --db source.db"
                                             " games` lists them); without a GAME, -o names a folder to write every"
                                             " game's file in, e.g. game/\n"), r.stderr
    assert not (tmp_path / "game.jsonl").exists()
    r = agon("--db", "source.db", "export", "-b", "main", "-o", "club", ok=False)
    assert r.exit_code == 1 and r.stderr.startswith("error: --branch names a line of one game: give the GAME too")
    assert not (tmp_path / "club").exists()


def test_a_damaged_game_is_named_and_left_out_of_a_whole_store_export(agon, tmp_path):
    import sqlite3

    agon("--db", "source.db", "demo", "peloponnes", "--games", "2", "--seed", "5")
    first, second = (g["id"] for g in json.loads(agon("--db", "source.db", "games", "--json").stdout))
    with sqlite3.connect(tmp_path / "source.db") as db:
        db.execute("DELETE FROM event WHERE game_id = ? AND depth = 3", (first,))
    r = agon("--db", "source.db", "export", "-o", "club", ok=False)
    assert r.exit_code == 1
    assert r.stdout.startswith("Wrote 1 game (")
    assert f"\ndamaged, not written: {first}: game {first} is damaged" in r.stdout
    assert r.stderr == "error: 1 damaged game not written (`agon --db source.db verify` says what is broken)\n"
    assert [p.name for p in (tmp_path / "club").iterdir()] == [f"{second}.jsonl"]


def test_over_http_a_file_of_several_exports_is_told_in_the_apis_words(agon, exported, tmp_path):
    import warnings

    from agon.server.app import create_app

    with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its test client; httpx works the same here
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    joined = b"".join((tmp_path / f).read_bytes() for f in exported)
    app = create_app(f"sqlite:///{tmp_path / 'http.db'}", max_body=1024 * 1024, poll=0.05)
    with TestClient(app) as client:
        r = client.post("/api/import", content=joined)
        assert r.status_code == 400
        said = r.json()["error"]
        assert said.endswith(" begins another game's export after the end of the first: the file holds several"
                             " exports one after another; send each game's export in a request of its own; nothing"
                             " was imported"), said
        assert client.get("/api/games").json() == []
    app.state.service.store.close()


def test_every_game_exported_signed_imports_with_trust_and_says_it_was_signed(agon, exported, tmp_path):
    agon("keygen", "club.key")
    r = agon("--db", "source.db", "export", "-o", "signed", "--sign", "club.key")
    assert r.stdout.startswith("Wrote 3 games (")
    assert " in all, each signed) to signed, one file each; `agon" in r.stdout
    assert r.stdout.endswith("takes them into another store.\n"), r.stdout
    files = sorted(f"signed/{p.name}" for p in (tmp_path / "signed").iterdir())
    r = agon("--db", "target.db", "import", *files, "--trust", "club.key.pub")
    assert r.stdout.count("Signed by the trusted key") == 3
    r = agon("--db", "other.db", "import", *exported, "--trust", "club.key.pub", ok=False)
    assert r.stderr.startswith(f"error: cannot import {exported[0]}: the file is not signed")

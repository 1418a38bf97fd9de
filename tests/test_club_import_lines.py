"""A club's folder of exports imported at once prints one line a file (its game id in it), then the count.

It printed two lines a file, the bare id and then the sentence: 614 lines for a club's 307 files. One file still
prints its id alone first, for a script (`agon import FILE | head -1`); --json keeps its list."""

from __future__ import annotations

import json


def _club(agon, tmp_path, games: int = 3) -> tuple[list[str], list[str]]:
    agon("--db", "source.db", "demo", "toy", "--games", str(games), "--seed", "5")
    agon("--db", "source.db", "export", "-o", "club/")
    files = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "club").iterdir())
    ids = [f.removeprefix("club/").removesuffix(".jsonl") for f in files]
    return files, ids


def test_several_files_print_one_line_each_then_the_count(agon, tmp_path):
    files, ids = _club(agon, tmp_path)
    lines = agon("--db", "club.db", "import", *files).stdout.splitlines()
    assert len(lines) == len(files) + 1, lines
    for line, gid in zip(lines, ids, strict=False):
        assert line.startswith(f"Imported game {gid}: "), line
        assert ", branch main: " in line and line.endswith("."), line
    assert lines[-1] == "3 files imported: 3 new games."
    again = agon("--db", "club.db", "import", *files).stdout.splitlines()
    assert len(again) == len(files) + 1
    assert all(line.startswith(f"Game {gid} is already stored") for line, gid in zip(again, ids, strict=False))
    listed = json.loads(agon("--db", "other.db", "import", *files, "--json").stdout)
    assert [r["id"] for r in listed] == ids  # --json: the list, one object a file, as before


def test_one_file_prints_its_id_alone_first(agon, tmp_path):
    files, ids = _club(agon, tmp_path, games=1)
    lines = agon("--db", "club.db", "import", files[0]).stdout.splitlines()
    assert lines[0] == ids[0] and lines[1].startswith(f"Imported game {ids[0]}: ") and len(lines) == 2


def test_files_signed_by_a_key_no_trust_names_say_what_that_proves_once(agon, tmp_path):
    agon("keygen", "ana.key")
    agon("--db", "source.db", "demo", "toy", "--games", "2", "--seed", "5")
    agon("--db", "source.db", "export", "-o", "club/", "--sign", "ana.key")
    files = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "club").iterdir())
    lines = agon("--db", "club.db", "import", *files).stdout.splitlines()
    assert len(lines) == len(files) + 2, lines
    assert all("Signed by key " in line and line.endswith(", which no --trust names.") for line in lines[:2])
    assert lines[2] == ("Of a file signed by a key no --trust names, the signature proves only that the file is"
                        " unchanged since that key signed it; --trust SENDER.pub requires your sender's key.")
    assert lines[3] == "2 files imported: 2 new games."

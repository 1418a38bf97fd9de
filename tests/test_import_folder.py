"""`agon import FOLDER`: the folder `agon export -o FOLDER` wrote a club's games to. Before, the refusal said only
that it is a folder and to give a file `agon export GAME -o FILE` wrote, though the keeper had just written the
folder with `agon export -o club/` and wanted every game in it; it now names the command that imports them all."""

from __future__ import annotations


def test_a_folder_to_import_is_refused_naming_the_files_in_it(agon, tmp_path):
    gid = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.split()[0]
    agon("export", "-o", "club/")
    r = agon("--db", "other.db", "import", "club/", ok=False)
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.strip() == ("error: game file club is a folder, not a file; give a file written by `agon export"
                                " GAME -o FILE` (every game in it: `agon --db other.db import club/*.jsonl`)")
    assert not (tmp_path / "other.db").exists()
    (tmp_path / "my club").mkdir()
    r = agon("import", "my club", ok=False)
    assert r.stderr.strip().endswith("(every game in it: `agon import 'my club'/*.jsonl`)")
    # what it names imports every game of the folder
    r = agon("--db", "other.db", "import", *sorted(str(p) for p in (tmp_path / "club").glob("*.jsonl")))
    assert gid in agon("--db", "other.db", "games").stdout

"""A club imports the same folder of exports again (a sync run twice): the count at the end says that nothing was
imported, where it said '2 files imported: 2 with nothing new'; a run that adds something still counts imports."""

from __future__ import annotations

import json


def test_importing_a_folder_again_says_nothing_was_imported(agon, tmp_path):
    agon("--db", "source.db", "demo", "toy", "--games", "2", "--seed", "5")
    agon("--db", "source.db", "export", "-o", "club/")
    files = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "club").iterdir())
    assert agon("--db", "club.db", "import", *files).stdout.splitlines()[-1] == "2 files imported: 2 new games."
    again = agon("--db", "club.db", "import", *files).stdout.splitlines()
    assert again[-1] == "2 files read: every game is stored already, with nothing new; nothing was imported."
    agon("--db", "source.db", "demo", "toy", "--seed", "9")
    agon("--db", "source.db", "export", "-o", "club/")
    files = sorted(str(p.relative_to(tmp_path)) for p in (tmp_path / "club").iterdir())
    mixed = agon("--db", "club.db", "import", *files).stdout.splitlines()
    assert mixed[-1] == "3 files imported: 1 new game, 2 with nothing new."
    assert len(json.loads(agon("--db", "club.db", "games", "--json").stdout)) == 3

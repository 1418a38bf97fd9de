"""'agon branches' tells, on each branch where a redo is possible, how many events it would bring back and the command
that does (text and --json), so that undone moves are not forgotten; the head moves of all the branches are read
in one query, not one a branch."""

from __future__ import annotations

import json
import re

from agon.events.store import Store
from tests.test_cli import new_toy


def line_of(out: str, name: str) -> str:
    return next(x for x in out.splitlines() if re.search(rf"── {re.escape(name)}( \(current\))?:", x))


def rows(agon, gid: str) -> dict[str, dict]:
    return {r["name"]: r for r in json.loads(agon("branches", gid, "--json").stdout)}


def undone(agon, gid: str, *extra: str) -> int:
    said = agon("undo", gid, *extra).stdout
    return int(re.search(r"Undid (\d+) events?", said).group(1))


def test_an_undo_is_marked_with_its_count_and_the_redo_command_until_it_is_redone(agon):
    gid = new_toy(agon)
    agon("act", gid, "1")
    agon("act", gid, "1")
    before = rows(agon, gid)["main"]
    assert before["redo"] is None and "undone" not in line_of(agon("branches", gid).stdout, "main")
    n = undone(agon, gid)
    main = line_of(agon("branches", gid).stdout, "main")
    assert main.startswith(f"└── main (current): head #{before['head'] - n} ({n} events undone: `agon redo {gid}`"
                           " brings them back), same luck")
    assert rows(agon, gid)["main"]["redo"] == {"events": n, "undone": n, "command": f"agon redo {gid}"}
    agon("redo", gid)
    assert "undone" not in line_of(agon("branches", gid).stdout, "main")
    assert rows(agon, gid)["main"]["redo"] is None


def test_two_undos_count_both_and_a_branch_not_current_is_named_in_the_command(agon):
    gid = new_toy(agon)
    agon("act", gid, "1")
    agon("act", gid, "1")
    first = undone(agon, gid)
    last = undone(agon, gid)
    agon("branch", gid, "whatif")
    agon("act", gid, "2")
    out = agon("branches", gid).stdout
    assert (f"main: head #1 ({first + last} events undone: `agon redo {gid} -b main` brings back the last undo's"
            f" {last}, run again for the rest), same luck") in line_of(out, "main")
    assert "undone" not in line_of(out, "whatif")
    assert rows(agon, gid)["main"]["redo"] == {"events": last, "undone": first + last,
                                               "command": f"agon redo {gid} -b main"}
    # what the mark says the redo does, it does; then the first undo is left, told as one
    assert f"Redid {last} events" in agon("redo", gid, "-b", "main").stdout
    assert (f"main: head #{1 + last} ({first} events undone: `agon redo {gid} -b main` brings them back)"
            in line_of(agon("branches", gid).stdout, "main"))
    assert f"Redid {first} events" in agon("redo", gid, "-b", "main").stdout
    assert "undone" not in line_of(agon("branches", gid).stdout, "main")


def test_a_new_decision_after_an_undo_leaves_no_redo_to_mark(agon):
    """The undone line is kept as main-undone-1; neither main nor it has a redo to offer."""
    gid = new_toy(agon)
    agon("act", gid, "1")
    undone(agon, gid)
    agon("act", gid, "2")
    out = agon("branches", gid).stdout
    assert "main-undone-1" in out and "undone:" not in out and "agon redo" not in out
    assert all(r["redo"] is None for r in rows(agon, gid).values())


def test_the_head_moves_of_all_branches_are_read_in_one_query(agon, monkeypatch):
    gid = new_toy(agon)
    agon("act", gid, "1")
    for name in ("a", "b", "c"):
        agon("branch", gid, name)
        agon("act", gid, "1")
        undone(agon, gid)
    reads = []
    real = Store.undo_tails
    monkeypatch.setattr(Store, "undo_tails", lambda self, g: reads.append(g) or real(self, g))
    monkeypatch.setattr(Store, "head_moves_newest_first", lambda *a, **k: (_ for _ in ()).throw(AssertionError(a)))
    got = rows(agon, gid)
    assert len(reads) == 1
    assert {name: bool(r["redo"]) for name, r in got.items()} == {"main": False, "a": True, "b": True, "c": True}


RESERVED = ("is reserved: a name ending in '-undone-' and a number is the one undo gives a line it keeps (as"
            " main-undone-1); choose another")


def test_a_branch_made_by_hand_may_not_take_the_name_undo_gives_a_line_it_keeps(agon):
    """A host who named a branch 'main-undone-1' (or 'main-undone-x', past the reserved names) made redo's 'kept as
    branch' sentence name it, though nothing had been undone."""
    gid = new_toy(agon)
    agon("act", gid, "1")
    for name in ("main-undone-1", "whatif-undone-12", "main-undone-007"):
        refused = agon("branch", gid, name, ok=False)
        assert refused.exit_code == 1 and refused.stderr == f"error: branch name {name!r} {RESERVED}\n", refused.stderr
    assert set(rows(agon, gid)) == {"main"}  # nothing was made
    agon("branch", gid, "main-undone-x")  # not a name undo gives: taken
    agon("act", gid, "2")  # on main-undone-x, away from main
    agon("switch", gid, "main")
    agon("act", gid, "1")  # an entry on main, after no undo
    said = agon("redo", gid, ok=False).stderr
    assert said == "error: nothing to redo: nothing was undone on branch 'main' since its last recorded event\n", said
    # an entry after an undo still names the line it kept, under the name undo gave it
    agon("undo", gid)
    agon("act", gid, "2")
    assert "main-undone-1" in rows(agon, gid)
    said = agon("redo", gid, ok=False).stderr
    assert said.endswith("kept as branch 'main-undone-1'\n"), said


def test_a_game_whose_branch_was_so_named_before_still_imports_and_redo_names_no_branch_for_it(agon, tmp_path):
    """A game stored before the names were reserved may hold a branch 'main-undone-1' made by hand: its export is
    imported as it is, and redo there names it only where undo kept it."""
    gid = new_toy(agon)
    agon("act", gid, "1")
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        main = store.branch(gid, "main")
        store.create_branch(gid, "main-undone-1", main.head_id, main.luck, "main")  # as a branch made before
    finally:
        store.close()
    agon("switch", gid, "main-undone-1")
    agon("act", gid, "2")
    agon("switch", gid, "main")
    agon("act", gid, "1")
    agon("export", gid, "-o", "old.jsonl")
    out = agon("--db", str(tmp_path / "other.db"), "import", "old.jsonl").stdout
    assert gid in out
    other = json.loads(agon("--db", str(tmp_path / "other.db"), "branches", gid, "--json").stdout)
    assert {r["name"] for r in other} == {"main", "main-undone-1"}
    said = agon("--db", str(tmp_path / "other.db"), "redo", gid, ok=False).stderr
    assert said == "error: nothing to redo: nothing was undone on branch 'main' since its last recorded event\n", said


def test_the_line_undo_keeps_off_a_branch_of_the_longest_name_is_named_within_the_limit(agon, tmp_path):
    """A branch name has at most 100 characters: the line an undo kept off a branch of 100 was named with 109, and
    the game's export was refused by 'agon import' ("the file's branch name ... is 109 characters long")."""
    gid = json.loads(agon("new", "pergamemnon", "--player", "ann", "--player", "bob", "--seed", "3",
                          "--json").stdout)["id"]
    long = "b" * 100
    agon("branch", gid, long)
    agon("act", gid, "1")
    agon("act", gid, "1")
    agon("undo", gid)
    agon("act", gid, "2")  # a different entry: the undone line is kept
    kept = "b" * 91 + "-undone-1"
    assert set(rows(agon, gid)) == {"main", long, kept}
    said = agon("redo", gid, ok=False).stderr
    assert said.endswith(f"kept what it took back as branch {kept!r})\n"), said
    agon("export", gid, "-o", "long.jsonl")
    out = agon("--db", str(tmp_path / "other.db"), "import", "long.jsonl").stdout
    assert f"Imported game {gid}: 10 events, 3 branches" in out, out

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

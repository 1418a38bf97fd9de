"""Undo and redo at a real table as people type them, through the command line, on SQLite and PostgreSQL: dice
typed between the decisions, undos past them, the same moves typed again, a different one, and what 'agon games',
'agon branches' and 'agon verify' say after. The test ruleset ``toy`` (pig: roll or hold, a typed die per roll)."""

from __future__ import annotations

import json

import pytest

from agon.events.store import Store


@pytest.fixture
def table(agon, store_url, monkeypatch):
    """The command line on a fresh store of each backend, and a table game of pig to 9 with its seats typed, ann
    having rolled a 4, rolled again and rolled a 3 (head at event #5)."""
    monkeypatch.setenv("AGON_DB", store_url)
    gid = json.loads(agon("new", "toy", "--player", "ann", "--player", "bob", "--table", "--option", "target=9",
                          "--json").stdout)["id"]
    for entry in ("ann bob", "1", "4", "1", "3"):
        agon("act", gid, entry)
    store = Store(store_url)
    yield agon, gid, store
    store.close()


def moves(store: Store, gid: str) -> list[tuple[str, str | None, str, str]]:
    return [(m.branch, m.from_id, m.to_id, m.reason) for m in store.head_moves(gid)]


def listed(agon, gid: str) -> dict:
    return next(g for g in json.loads(agon("games", "--json").stdout) if g["id"] == gid)


def test_a_die_typed_again_after_an_undo_is_walked_and_redo_goes_on_past_the_next_die(table):
    agon, gid, store = table
    text = agon("undo", gid, "--steps", "3").stdout
    assert "Undid 3 events:" in text and "#3    ann rolls a 4." in text and "#5    ann rolls a 3." in text
    assert "Now branch main is at event #2: chance needed: ann's roll" in text
    assert "#3    ann rolls a 4." in agon("act", gid, "4").stdout  # the die as it was: the same event
    assert "Redid 2 events; branch main is at event #5: ann to act" in agon("redo", gid).stdout
    assert [(b["name"], b["head"]) for b in json.loads(agon("branches", gid, "--json").stdout)] == [("main", 5)]
    row = listed(agon, gid)
    assert (row["events"], row["branches"], row["status"]) == (6, 1, "ann to act: roll or hold")
    again = agon("redo", gid, ok=False)
    assert again.exit_code == 1
    assert "nothing to redo: what was undone on branch 'main' has been brought back" in again.stderr
    assert [m[3] for m in moves(store, gid)][-3:] == ["undo", "reenter", "redo"]
    assert agon("verify", gid).stdout.startswith("OK: 6 events, 1 branch;")
    # on to the end at the prompt: the game is won, then the winning hold is undone and redone
    out = agon("play", gid, input="1\n2\n2\n").output
    assert ("The game is over: ann won with 9 points\nScores: ann 9, bob 0\n"
            f"Take back the last step with: agon undo {gid}\n") in out
    assert listed(agon, gid)["status"] == "over: ann won with 9 points"
    refused = agon("act", gid, "1", ok=False)
    assert refused.exit_code == 1 and refused.stderr == (
        f"error: the game is over (ann won with 9 points); take the last step back with `agon undo {gid}` (a slip),"
        f" or branch from an earlier position with `agon branch {gid} NAME --at N` to play on\n")
    text = agon("undo", gid).stdout
    assert "#8    ann holds, banking 9." in text and "Now branch main is at event #7: ann to act" in text
    assert listed(agon, gid)["status"] == "ann to act: roll or hold"
    agon("redo", gid)
    assert listed(agon, gid)["status"] == "over: ann won with 9 points"
    assert json.loads(agon("branches", gid, "--json").stdout)[0]["over"] is True


def test_typed_at_the_prompt_a_move_of_a_kept_line_is_walked_and_taken_back_alone(table):
    """In 'agon play': three undos, another die (the old line is kept as main-undone-1), undo, then the first die
    again: the kept line is walked (head history 'reenter'), the other die is kept as main-undone-2, redo says where
    the line goes on, and the moves typed on are walked too. The head history only grows."""
    agon, gid, store = table
    heads = [m[2] for m in moves(store, gid)]  # create, then the five entries: the head after each
    before = moves(store, gid)
    played = agon("play", gid, input="u\nu\nu\n2\nu\n4\nr\n1\n3\nq\n")
    out = played.output
    assert "#3    ann rolls a 2." in out and "#3    ann rolls a 4." in out
    assert ("error: nothing to redo: a different entry followed the undo on branch 'main'; what it took back is kept"
            " as branch 'main-undone-2'; the line goes on as branch 'main-undone-1': switch to it, or enter the same"
            " moves again") in out
    after = moves(store, gid)
    assert after[:len(before)] == before
    walked = [m for m in after[len(before):] if m[0] == "main" and m[3] == "reenter"]
    assert [(m[1], m[2]) for m in walked] == [(heads[2], heads[3]), (heads[3], heads[4]), (heads[4], heads[5])]
    assert [m[3] for m in after[len(before):] if m[0] == "main"] == [
        "undo", "undo", "undo", "act", "undo", "reenter", "reenter", "reenter"]  # the other die alone is new
    tree = {b["name"]: b for b in json.loads(agon("branches", gid, "--json").stdout)}
    assert sorted(tree) == ["main", "main-undone-1", "main-undone-2"]
    assert (tree["main"]["head"], tree["main-undone-2"]["fork_at"], tree["main-undone-2"]["head"]) == (5, 2, 3)
    assert tree["main-undone-1"]["head"] == 5  # walked to its end: main holds all of it now, and says so
    assert ("main-undone-1: forks after #5 of main, head #5 (no events of its own: its head is on main's line)"
            in agon("branches", gid).stdout)
    row = listed(agon, gid)
    assert (row["events"], row["branches"]) == (6, 3)
    assert len(store.all_events(gid)) == 7  # the start, five entries and the other die: nothing copied
    text = agon("undo", gid).stdout
    assert "Undid 1 event:" in text and "#5    ann rolls a 3." in text
    assert agon("verify", gid).stdout.startswith("OK: 7 events, 3 branches;")

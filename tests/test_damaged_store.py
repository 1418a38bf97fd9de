"""A store damaged behind agon's back (the SQLite file edited directly): a damaged game is one line naming the game
and what is broken on every command, the other games stay usable, and 'agon verify' reports every kind of damage
without crashing."""

from __future__ import annotations

import json
import sqlite3

import pytest


def toy(agon, seed: str = "3") -> str:
    gid = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", seed).stdout.splitlines()[0]
    for _ in range(4):
        agon("act", gid, "1")
    return gid


def _sql(tmp_path, statement: str, *args) -> None:
    db = sqlite3.connect(tmp_path / "games.db")
    with db:
        assert db.execute(statement, args).rowcount >= 1
    db.close()


def _id_at(tmp_path, gid: str, depth: int) -> str:
    db = sqlite3.connect(tmp_path / "games.db")
    row = db.execute("SELECT id FROM event WHERE game_id = ? AND depth = ?", (gid, depth)).fetchone()
    db.close()
    return row[0]


DAMAGE = {
    "missing event": ("DELETE FROM event WHERE game_id = ? AND depth = 3", "follows an event that is not stored"),
    "dangling head": ("UPDATE branch SET head_id = 'f00d' || head_id WHERE game_id = ?",
                      "head points to an event that is not stored"),
    "edited payload": ("UPDATE event SET payload = CAST(REPLACE(CAST(payload AS TEXT), 'roll', 'hold') AS BLOB)"
                       " WHERE game_id = ? AND depth = 2", "does not match its hash"),
    # as an edit with sqlite3's own functions leaves it: the payload stored as text (once an internal error)
    "payload edited as text": ("UPDATE event SET payload = REPLACE(CAST(payload AS TEXT), 'roll', 'hold')"
                               " WHERE game_id = ? AND depth = 2", "does not match its hash"),
}


@pytest.mark.parametrize("kind", [*DAMAGE, "broken chain"])
def test_a_damaged_game_is_one_line_and_the_others_stay_usable(agon, tmp_path, kind):
    good, bad = toy(agon, "3"), toy(agon, "4")
    if kind == "broken chain":  # event #5 now claims to follow the creation
        _sql(tmp_path, "UPDATE event SET parent_id = ? WHERE game_id = ? AND depth = 5", _id_at(tmp_path, bad, 0), bad)
        says = "the chain is broken"
    else:
        statement, says = DAMAGE[kind]
        _sql(tmp_path, statement, bad)
    for command in (["options", bad], ["log", bad], ["state", bad], ["act", bad, "1"], ["replay", bad],
                    ["export", bad], ["branches", bad], ["view", bad], ["plot", "scores", bad], ["undo", bad]):
        r = agon(*command, ok=False)
        assert r.exit_code == 1, (command, r.stdout, r.stderr, r.exception)
        line = r.stderr.strip()
        assert "\n" not in line and f"game {bad} is damaged" in line and says in line, (command, line)
        assert line.startswith(f"error: game {bad} is damaged"), (command, line)  # said once, not 'ID: game ID'
        assert f"agon verify {bad}" in line
    listing = agon("games").stdout  # marked once a command has found the damage (the commands above did)
    assert good in listing and bad in listing and "DAMAGED" in listing
    assert "is damaged" in {r["id"]: r for r in json.loads(agon("games", "--json").stdout)}[bad]["status"]
    rows = {r["id"]: r for r in json.loads(agon("games", "--json").stdout)}
    assert rows[bad]["damaged"] is True and rows[good]["damaged"] is False
    assert rows[good]["status"].startswith("ann to act")
    r = agon("verify", bad, ok=False)
    assert r.exit_code == 1 and r.exception is None or isinstance(r.exception, SystemExit)
    assert says in r.stdout and "Traceback" not in r.stdout + r.stderr
    report = json.loads(agon("verify", bad, "--json", ok=False).stdout)
    assert report["ok"] is False and any(says in p for p in report["problems"])
    assert "OK:" in agon("verify", good).stdout
    agon("act", good, "1")


def test_a_game_whose_line_cannot_be_read_is_listed_with_the_players_its_row_names(agon, tmp_path):
    """Once, 'agon games' listed such a game with "players": [] and a blank players line: the players are read
    from the branch, which cannot be read, though the game's own row names them."""
    gid = toy(agon)
    _sql(tmp_path, DAMAGE["missing event"][0], gid)
    agon("log", gid, ok=False)  # finds the damage: the listing marks the game from now on
    row = {r["id"]: r for r in json.loads(agon("games", "--json").stdout)}[gid]
    assert row["damaged"] is True and row["players"] == ["ann", "bob"]
    listing = agon("games").stdout.splitlines()
    at = next(i for i, ln in enumerate(listing) if ln.startswith(gid))
    assert listing[at + 1] == "  players: ann, bob; scores: -" and "DAMAGED" in listing[at + 2]


def test_a_game_whose_line_cannot_be_read_is_listed_with_the_events_stored_never_a_false_0(agon, tmp_path,
                                                                                           monkeypatch):
    """Once, 'agon games' listed such a game with "0 events" ("events": 0): its line has no length that can be
    read, so the count is unknown, and the listing says how many events the store still holds for the game."""
    gid = toy(agon)
    db = sqlite3.connect(tmp_path / "games.db")
    stored = db.execute("SELECT count(*) FROM event WHERE game_id = ?", (gid,)).fetchone()[0] - 1
    db.close()
    _sql(tmp_path, DAMAGE["missing event"][0], gid)
    agon("log", gid, ok=False)
    row = {r["id"]: r for r in json.loads(agon("games", "--json").stdout)}[gid]
    assert row["events"] is None and row["stored_events"] == stored > 0
    listing = agon("games").stdout.splitlines()  # narrow: a game is a few lines
    assert f"{gid}  toy, events unknown ({stored} stored), 1 branch (on main)" in listing
    monkeypatch.setenv("COLUMNS", "200")  # wide: a game is a row of the table
    wide = agon("games").stdout
    assert f"? ({stored} stored)" in wide and "│ 0 " not in wide


@pytest.mark.parametrize("kind", DAMAGE)
def test_undo_and_redo_refuse_a_damaged_line_before_its_head_moves(agon, tmp_path, kind):
    """Once, `agon undo` moved the head of a damaged line and only then said it was damaged (exit 1, the head
    moved all the same), and `agon redo` moved it without a word."""
    gid = toy(agon)
    agon("undo", gid)
    statement, says = DAMAGE[kind]
    _sql(tmp_path, statement, gid)

    def head() -> str:
        db = sqlite3.connect(tmp_path / "games.db")
        row = db.execute("SELECT head_id FROM branch WHERE game_id = ? AND name = 'main'", (gid,)).fetchone()
        db.close()
        return row[0]

    before = head()
    for command in ("undo", "redo"):
        r = agon(command, gid, ok=False)
        assert r.exit_code == 1 and f"game {gid} is damaged" in r.stderr and says in r.stderr, (command, r.stderr)
        assert head() == before, command


def test_verify_reports_every_kind_of_damage_at_once(agon, tmp_path):
    gid = toy(agon)
    agon("branch", gid, "side", "--at", "2")  # chance is due at #2: drawn from the seed with the branch
    _sql(tmp_path, "UPDATE event SET payload = CAST(REPLACE(CAST(payload AS TEXT), 'roll', 'hold') AS BLOB)"
                   " WHERE game_id = ? AND depth = 2", gid)
    _sql(tmp_path, "DELETE FROM event WHERE game_id = ? AND depth = 6", gid)
    _sql(tmp_path, "UPDATE branch SET head_id = 'abc' WHERE game_id = ? AND name = 'side'", gid)
    problems = json.loads(agon("verify", gid, "--json", ok=False).stdout)["problems"]
    text = "\n".join(problems)
    assert "event #2" in text and "does not match its hash" in text
    assert "follows an event that is not stored" in text
    assert "branch side: its head points to an event that is not stored" in text
    assert "branch main: game" in text and "is damaged" in text


def test_verify_of_a_game_names_no_command_to_run_itself(agon, tmp_path):
    """A branch that cannot be read is one of the problems `agon verify GAME` lists: said without the hint to run
    `agon verify GAME` (the command that is running), which also named no --db and so another store."""
    gid = toy(agon)
    _sql(tmp_path, "DELETE FROM event WHERE game_id = ? AND depth = 3", gid)
    r = agon("--db", str(tmp_path / "games.db"), "verify", gid, ok=False)
    assert r.exit_code == 1
    assert "branch main: game" in r.stdout and "follows an event that is not stored" in r.stdout, r.stdout
    assert "agon verify" not in r.stdout + r.stderr, r.stdout + r.stderr


def test_a_store_line_is_never_a_silent_partial_chain(sqlite_svc):
    from agon.core.service import NewGame
    from agon.events.store import Damaged

    gid = sqlite_svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=1))
    for _ in range(3):
        sqlite_svc.act(gid, "1")
    line = sqlite_svc.load(gid)
    with sqlite_svc.store.engine.begin() as c:
        c.exec_driver_sql("DELETE FROM event WHERE game_id = ? AND depth = 2", (gid,))
    with pytest.raises(Damaged, match="follows an event that is not stored"):
        sqlite_svc.store.line(gid, line.head.id)
    with pytest.raises(Damaged, match="head points to an event that is not stored"):
        sqlite_svc.store.line(gid, "0" * 64)


def test_a_game_whose_line_cannot_be_read_has_no_length_and_comes_last_longest_or_shortest_first(agon, tmp_path):
    """Once, '--order shortest' put such a game first, as if it had 0 events (its row's count counts nothing):
    with no length it comes after every game that has one, in either order, on a store that may only be read too
    (where the listing is ordered outside SQL)."""
    long, bad = toy(agon, "3"), toy(agon, "4")
    short = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "5").stdout.splitlines()[0]
    _sql(tmp_path, DAMAGE["missing event"][0], bad)
    agon("log", bad, ok=False)  # finds the damage: the listing marks the game from now on
    ro = f"sqlite:///{tmp_path / 'games.db'}?mode=ro"
    for store in ((), ("--db", ro)):
        for order, first in (("longest", [long, short]), ("shortest", [short, long])):
            rows = json.loads(agon(*store, "games", "--json", "--order", order).stdout)
            assert [r["id"] for r in rows] == [*first, bad], (store, order)
            assert rows[-1]["events"] is None and rows[-1]["damaged"] is True
            assert [r["id"] for r in json.loads(agon(*store, "games", "--json", "--order", order, "--limit", "2"
                                                     ).stdout)] == first

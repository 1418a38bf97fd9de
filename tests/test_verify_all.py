"""'agon verify' without a game checks every game of the store: a store damaged behind agon's back (the database
edited directly, nothing read since) is reported in one line per damaged game and a count, and from then on
'agon games' marks the damaged game DAMAGED while the others list as before. 'agon rebuild' checks the same way, so
recomputing the summaries never makes a damaged game look sound."""

from __future__ import annotations

import json

import pytest

from agon.core.service import NewGame
from tests.test_damaged_store import DAMAGE, _id_at, _sql, toy

KINDS = [*DAMAGE, "broken chain"]


def damage(tmp_path, gid: str, kind: str) -> str:
    """Damage game ``gid`` of the CLI's SQLite store; returns what 'agon verify' says of it."""
    if kind == "broken chain":  # event #5 now claims to follow the creation
        _sql(tmp_path, "UPDATE event SET parent_id = ? WHERE game_id = ? AND depth = 5", _id_at(tmp_path, gid, 0), gid)
        return "the chain is broken"
    statement, says = DAMAGE[kind]
    _sql(tmp_path, statement, gid)
    return says


@pytest.mark.parametrize("kind", KINDS)
def test_verify_without_a_game_finds_fresh_damage_and_games_marks_it(agon, tmp_path, kind):
    first, bad, last = toy(agon, "3"), toy(agon, "4"), toy(agon, "5")
    agon("games")  # every summary is current: the listing alone would not look at the events again
    says = damage(tmp_path, bad, kind)
    r = agon("verify", ok=False)
    assert r.exit_code == 1 and "Traceback" not in r.stdout + r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[-1].startswith(f"3 games checked: 1 damaged ({bad})")
    assert [line for line in lines if line.startswith("damaged:")] == [
        next(line for line in lines if line.startswith(f"damaged: {bad}: "))]
    assert says in r.stdout
    rows = {r["id"]: r for r in json.loads(agon("games", "--json").stdout)}
    assert rows[bad]["damaged"] is True and "is damaged" in rows[bad]["status"]
    for good in (first, last):
        assert rows[good]["damaged"] is False and rows[good]["status"].startswith("ann to act")
    listing = agon("games").stdout
    assert listing.count("DAMAGED") == 1  # the table wraps "DAMAGED: agon verify GAME"
    assert json.loads(agon("games", "--json").stdout) == list(rows.values())  # the mark stays at the next listing
    report = json.loads(agon("verify", "--json", ok=False).stdout)
    assert report["games"] == 3 and report["ok"] is False
    assert [d["game"] for d in report["damaged"]] == [bad] and any(says in p for p in report["damaged"][0]["problems"])
    agon("act", first, "1")  # the other games stay usable


@pytest.mark.parametrize("kind", KINDS)
def test_rebuild_checks_every_game_as_verify_does(agon, tmp_path, kind):
    good, bad = toy(agon, "3"), toy(agon, "4")
    agon("games")
    damage(tmp_path, bad, kind)
    r = agon("rebuild", ok=False)
    assert r.exit_code == 1 and "2 games checked: 1 damaged" in r.stdout and bad in r.stdout
    rows = {r["id"]: r for r in json.loads(agon("games", "--json").stdout)}
    assert rows[bad]["damaged"] is True and rows[good]["damaged"] is False
    report = json.loads(agon("rebuild", "--json", ok=False).stdout)
    assert report["games"] == 2 and [d["game"] for d in report["damaged"]] == [bad]


def test_a_sound_store_and_an_empty_one(agon, tmp_path):
    from agon.events.store import Store

    Store(f"sqlite:///{tmp_path / 'games.db'}").close()  # the store AGON_DB names, with no game yet
    r = agon("verify")
    assert r.stdout.strip() == "0 games checked: every hash matches and every line replays the same."
    toy(agon, "3"), toy(agon, "4")
    assert agon("verify").stdout.strip() == "2 games checked: every hash matches and every line replays the same."
    assert json.loads(agon("verify", "--json").stdout) == {"games": 2, "ok": True, "damaged": []}
    assert "2 games checked" in agon("rebuild").stdout


def test_damage_off_every_line_marks_the_game_at_every_listing(agon, tmp_path):
    """An undone event edited: no branch's line holds it, so every line reads; verify finds it, and the listing
    marks the game (the mark stands: the listing does not check it again, nor replace it by a sound summary)."""
    gid = toy(agon, "3")
    agon("undo", gid, "--steps", "2")
    _sql(tmp_path, "UPDATE event SET payload = CAST(REPLACE(CAST(payload AS TEXT), 'roll', 'hold') AS BLOB)"
                   " WHERE game_id = ? AND depth = 8", gid)
    other = toy(agon, "4")
    assert agon("games", "--json").stdout.count('"damaged": true') == 0
    r = agon("verify", ok=False)
    assert f"damaged: {gid}: event #8" in r.stdout and "does not match its hash" in r.stdout
    for _ in range(2):
        rows = {r["id"]: r for r in json.loads(agon("games", "--json").stdout)}
        assert rows[gid]["damaged"] is True and rows[other]["damaged"] is False
    r = agon("branches", gid, ok=False)  # the whole tree is refused, as a whole-game export is
    assert r.exit_code == 1 and f"game {gid} is damaged" in r.stderr
    agon("options", gid)  # its line reads


POSTGRES_DAMAGE = {
    "missing event": "DELETE FROM event WHERE game_id = %s AND depth = 3",
    "dangling head": "UPDATE branch SET head_id = 'f00d' || head_id WHERE game_id = %s",
    "edited payload": "UPDATE event SET payload = convert_to(replace(convert_from(payload, 'UTF8'), 'roll', 'hold'),"
                      " 'UTF8') WHERE game_id = %s AND depth = 2",
}


BACKEND_KINDS = [k for k in KINDS if k != "payload edited as text"]
"""The damage both stores can hold: a PostgreSQL bytea column cannot hold text, so a payload edited to text is
SQLite's alone (checked through the CLI above)."""


@pytest.mark.parametrize("kind", BACKEND_KINDS)
def test_verify_all_and_the_listing_on_every_backend(svc, kind):
    games = []
    for seed in (3, 4, 5):
        games.append(svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=seed)))
        for _ in range(4):
            svc.act(games[-1], "1")
    good, bad, _ = games
    assert not any(g.damaged for g in svc.listing())
    with svc.store.engine.begin() as c:
        if kind == "broken chain":
            c.exec_driver_sql(svc.store._sql("UPDATE event SET parent_id = ? WHERE game_id = ? AND depth = 5"),
                              (svc.load(bad).envelopes[0].id, bad))
        elif svc.store.sqlite:
            c.exec_driver_sql(DAMAGE[kind][0], (bad,))
        else:
            c.exec_driver_sql(POSTGRES_DAMAGE[kind], (bad,))
    n, damaged = svc.verify_all()
    assert n == 3 and list(damaged) == [bad] and damaged[bad]
    listed = {g.id: g for g in svc.listing()}
    assert [gid for gid, g in listed.items() if g.damaged or not g.summary.readable] == [bad]
    assert listed[good].summary == svc.load(good).summary
    assert svc.rebuild() == (3, damaged)
    assert [g.id for g in svc.listing() if g.damaged] == [bad]


def test_damage_before_a_snapshot_stays_marked_at_every_listing(svc):
    """A line read at its head starts at its nearest state snapshot; an event edited before that snapshot is found by
    'agon verify' (which reads every line whole), and the listing that follows keeps the game marked rather than
    recomputing its summary from the snapshot on, which would list it as sound again."""
    gid = svc.new_game(NewGame("adamastor", players=[], bots=[("Ana", "greedy")], seed=2))
    line = svc.load(gid)
    assert line.head.depth > 64 and line.state  # the fold keeps the snapshot at event #64
    assert svc.load(gid).base > 0  # read from that snapshot on
    with svc.store.engine.begin() as c:
        c.exec_driver_sql(svc.store._sql("UPDATE event SET actor = 'x' || actor WHERE game_id = ? AND depth = 5"),
                          (gid,))
    n, damaged = svc.verify_all()
    assert n == 1 and list(damaged) == [gid]
    for _ in range(2):
        [g] = svc.listing()
        assert not g.summary.readable and "does not match its hash" in g.summary.status

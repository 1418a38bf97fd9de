"""`agon stats` over a store where one game is damaged: the first line counts every game stored, the damaged one
too, beside those finished and the one that could not be read. It counted only the readable games as stored, so
'2 games stored, 2 finished, 1 unreadable' left an organiser wondering where the third game went."""

from __future__ import annotations

import json
import sqlite3


def test_stats_counts_a_damaged_game_among_those_stored(agon, tmp_path):
    games = [json.loads(agon("demo", "toy", "--seed", str(seed), "--json").stdout)["id"] for seed in (1, 2, 3)]
    db = sqlite3.connect(tmp_path / "games.db")
    with db:
        db.execute("UPDATE event SET payload = CAST(REPLACE(CAST(payload AS TEXT), 'roll', 'hold') AS BLOB)"
                   " WHERE game_id = ? AND depth = 2", (games[1],))
    db.close()
    agon("verify", ok=False)  # marks the damaged game's summaries, as `agon games` then shows
    r = agon("stats", "toy")
    assert r.stdout.splitlines()[0] == "Pig (test game): 3 games stored, 2 finished, 1 unreadable", r.stdout
    assert r.stderr.startswith(f"skipped {games[1]}: "), r.stderr

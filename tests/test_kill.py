"""SIGKILL at random moments while decisions are recorded, on SQLite and PostgreSQL: nothing acknowledged is lost,
nothing is half-written (verify finds no damage), and every line stays reachable from a branch head or a redo
(acting after an undo names the undone line in the same transaction). scripts/reliability.py kills more often."""

from __future__ import annotations

from tests.crash import run_kills

KILLS = 4


def test_kills_lose_nothing_acknowledged_and_damage_nothing(store_url):
    report = run_kills(store_url, KILLS, seed=3)
    assert report.kills == KILLS and report.acked >= KILLS * 2
    assert report.problems == []

"""A game played on in two stores, then brought together (`agon import` of the other's file): the refusal says
where each store's move led. Before, both moves were told by kind, branch and second alone, so two decisions
entered within the same second read alike ("its head move #2 (an act on branch 'main', 2026-11-27 10:43:18 UTC)
differs from the stored one (an act on branch 'main', 2026-11-27 10:43:18 UTC)"): a club's keeper could not tell
what differed."""

from __future__ import annotations

import json


def _position(agon, db: str, gid: str) -> tuple[int, str]:
    """(event number, first 8 hex digits of its id) of the game's head, as `agon options` prints it."""
    number, mark = json.loads(agon("--db", db, "options", gid, "--json").stdout)["position"].split(".")
    return int(number), mark


def test_two_stores_that_went_on_apart_are_told_where_each_move_led(agon):
    gid = agon("--db", "laptop.db", "new", "peloponnes", "--player", "Ana", "--player", "Bo", "--seed", "8").stdout
    gid = gid.splitlines()[0]
    agon("--db", "laptop.db", "export", gid, "-o", "first.jsonl")
    agon("--db", "club.db", "import", "first.jsonl")
    agon("--db", "club.db", "act", gid, "1")  # at the club: Ana passes
    agon("--db", "laptop.db", "act", gid, "2")  # at home, the same turn: Ana bids
    agon("--db", "laptop.db", "export", gid, "-o", "home.jsonl")
    club, home = _position(agon, "club.db", gid), _position(agon, "laptop.db", gid)
    assert club != home
    r = agon("--db", "club.db", "import", "home.jsonl", ok=False)
    said = r.stderr.strip()
    assert r.exit_code == 1 and "\n" not in said
    mine = f"to event #{home[0]} ({home[1]})"
    stored = f"to event #{club[0]} ({club[1]})"
    assert "its head move #2 (an act on branch 'main', " in said
    assert f"UTC, {mine}) differs from the stored one (an act on branch 'main', " in said
    assert f"UTC, {stored}), switches between branches aside" in said
    assert said.endswith("nothing was imported")
    assert _position(agon, "club.db", gid) == club  # nothing changed

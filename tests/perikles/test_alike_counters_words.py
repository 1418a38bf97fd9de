"""A commitment of two counters alike (Argos has two 'hoplite 1' counters, perikles-data-facts.md's counter table)
is told once with its count: the options listed "Argos hoplite 1 to Attica as main attacker, Argos hoplite 1 to
Attica as main attacker", which read as one counter named twice."""

from __future__ import annotations

import json


def test_two_alike_counters_sent_together_are_told_with_their_count(agon, monkeypatch):
    gid = json.loads(agon("demo", "perikles", "--seed", "3", "--json").stdout)["id"]
    agon("branch", gid, "w", "--at", "47")
    options = json.loads(agon("options", gid, "-b", "w", "--json").stdout)["options"]
    both = next(o for o in options
                if sorted(p["counter"] for p in o["event"]["placements"]) == ["argos-h1-1", "argos-h1-2"])
    assert both["text"] == ("Chloe spends an Athens 2-cube tile: 2 counters, each Argos hoplite 1, to Attica as"
                            " main attacker.")
    monkeypatch.setenv("COLUMNS", "200")
    assert f"{both['n']}. {both['text']}" in agon("options", gid, "-b", "w").stdout
    agon("act", gid, str(both["n"]), "-b", "w")  # Chloe's own record of it reads so too
    own = agon("log", gid, "-b", "w", "--as", "Chloe").stdout
    assert "2 counters, each Argos hoplite 1, to Attica as main attacker" in own
    assert "Argos hoplite 1 to Attica as main attacker, Argos hoplite 1" not in own

"""Who gets a hand-over in ``agon play``: several people at one terminal without ``--table`` (a hot seat) do, and
what happened since is told again as the next person may see it; a ``--table`` game (one typist who knows
everything) and one person against bots keep the flow they had, without a stop between decisions."""

from __future__ import annotations

import json

HANDED = "pass the terminal to"


def test_a_hot_seat_tells_the_next_person_what_happened_as_they_may_see_it(agon):
    gid = json.loads(agon("new", "pergamemnon", "--player", "Chloé", "--player", "Ana", "--seed", "3",
                          "--json").stdout)["id"]
    out = agon("play", gid, input="1\n1\nq\n").stdout  # Ana recruits; Chloé attacks, the Chariot face down
    assert "Chloé decides next: pass the terminal to Chloé." in out
    assert "#8    Chloé attacks Ana, declaring a spear, and lays the Chariot (spear 7) face down." in out  # to Chloé
    ana = out.split("Ana decides next: pass the terminal to Ana.")[1]
    assert "#8    Chloé attacks Ana, declaring a spear, and lays a card face down." in ana
    assert "Chariot" not in ana


def test_a_table_game_and_one_person_against_bots_are_not_handed_over(agon):
    table = json.loads(agon("new", "pergamemnon", "--player", "Chloé", "--player", "Ana", "--seed", "3", "--table",
                            "--json").stdout)["id"]
    alone = json.loads(agon("new", "pergamemnon", "--player", "Ana", "--bot", "Bo:greedy", "--seed", "3",
                            "--json").stdout)["id"]
    # at the table: Ana's decision, the creature revealed, her refill, then Chloé decides
    while "chance needed" in agon("options", table).stdout:  # the deal, the creatures, the hands
        agon("act", table, "seed")
    out = agon("play", table, input="1\nseed\nseed\n1\nq\n").stdout
    assert "After #4: Ana to act" in out and "Chloé to act" in out and "Stopped" in out, out
    assert HANDED not in out, out
    out = agon("play", alone, input="1\n1\n1\nq\n").stdout
    assert out.count("Ana to act") >= 2 and "Stopped" in out, out
    assert HANDED not in out, out

"""Where a decision's options are numbered, a number is an option's number (README, 'Recording a game at a
table'): ``3`` alone is option 3, and ``3 grain`` is refused saying so and what option 3 is, rather than read as the
third value of a step whose list is not on the screen (a bid of 3 on another card) or refused as 'choose 1 to 2'."""

from __future__ import annotations

import json


def test_a_number_with_words_after_it_at_listed_options_is_refused_naming_the_option(agon):
    gid = json.loads(agon("new", "peloponnes", "--player", "Ana", "--bot", "Bo:greedy", "--seed", "3",
                          "--json").stdout)["id"]
    assert "3. Ana bids 2 on A11 Forest (1 stone, 1 grain);" in agon("options", gid).stdout
    said = agon("act", gid, "3 grain", ok=False).stderr
    assert said.startswith("error: '3 grain': a number here is an option's number, typed alone (option 3: Ana bids 2"
                           " on A11 Forest (1 stone, 1 grain)); type the number alone, or the decision by its steps'"
                           " values, first "), said
    played = agon("play", gid, input="3 grain\nq\n")
    assert "'3 grain': a number here is an option's number, typed alone (option 3: Ana bids 2 on A11 Forest" \
        in played.stderr, played.stderr
    assert len(json.loads(agon("log", gid, "--json").stdout)) == 6  # nothing recorded
    assert "#6    Ana bids 2 on Forest (1 stone, 1 grain)" in agon("act", gid, "3").stdout  # the number alone

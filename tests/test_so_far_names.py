"""``agon play``'s step-by-step question says the steps taken as the options and the questions list them: a
Peloponnes power card with its name (``A11 Forest``, as option 2 says it), the kind of decision by its word
(``bid``); it said ``so far: bid-placed A11``, a bare id a table does not read and the kind's tag."""

from __future__ import annotations

import json

from agon.core import steps


def test_the_steps_so_far_name_the_power_card_as_the_options_do(agon):
    gid = json.loads(agon("new", "peloponnes", "--player", "Ana", "--bot", "Bo:greedy", "--seed", "3",
                          "--json").stdout)["id"]
    options = agon("options", gid).stdout
    assert "2. Ana bids 1 on A11 Forest (1 stone)" in options
    played = agon("play", gid, input="a11\nq\n").stdout
    assert "(so far: bid A11 Forest; `-` goes back)" in played, played


def test_steps_shown_is_what_the_questions_listed(sqlite_svc):
    from agon.core.service import NewGame

    game = sqlite_svc.new_game(NewGame("peloponnes", players=("Ana", "Bo"), seed=3))
    line = sqlite_svc.load(game)
    chosen, now = steps.walk(line.ruleset, line.state, ["forest"])
    assert isinstance(now, steps.Question)
    assert steps.shown(line.ruleset, line.state, chosen)[-1] == "A11 Forest"

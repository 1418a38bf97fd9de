"""``agon play``'s step-by-step question says the steps taken as the options and the questions list them: a
Peloponnes power card with its name (``A11 Forest``, as option 2 says it), the kind of decision by its word
(``bid``); it said ``so far: bid-placed A11``, a bare id a table does not read and the kind's tag. The seat page's
step panel says them alike (``/steps``' ``shown``), where it said ``So far: A11``."""

from __future__ import annotations

import json

from agon.core import steps
from tests.test_refusal_words import PAGE, _seat
from tests.test_server_api import bearer
from tests.test_server_api import client as _client

client = _client  # the API's test client (a fixture)


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


def test_the_seat_pages_steps_so_far_name_the_power_card_as_the_options_do(client):
    gid, tok = _seat(client, "peloponnes", ["Ana", "Bo"])
    page = {**bearer(tok), **PAGE}
    texts = [o["text"] for o in client.get(f"/api/games/{gid}/options", headers=page).json()["options"]]
    asked = client.get(f"/api/games/{gid}/steps", params={"chosen": "a11"}, headers=page).json()
    shown = [c["shown"] for c in asked["chosen"]]
    assert shown[-1] == "A11 Forest" and any("A11 Forest" in t for t in texts), (asked, texts)
    assert [c["value"] for c in asked["chosen"]][-1] == "A11"  # what is sent back is still the id

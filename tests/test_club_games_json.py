"""`agon games --json` as a club's script reads it: whether each game is over (what `--status` filters on) and who
won, as values, beside the status sentence; `agon branches --json` said them, `agon games --json` did not, so a
script had to parse 'over: ann wins with ...'."""

from __future__ import annotations

import json


def test_games_json_says_whether_a_game_is_over_and_who_won(agon):
    done = json.loads(agon("demo", "toy", "--seed", "4", "--json").stdout)["id"]
    playing = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.split()[0]
    rows = {r["id"]: r for r in json.loads(agon("games", "--json").stdout)}
    assert (rows[playing]["over"], rows[playing]["winners"]) == (False, None)
    branch = json.loads(agon("branches", done, "--json").stdout)[0]
    assert rows[done]["over"] is True and rows[done]["winners"] == branch["winners"] and branch["winners"]
    assert rows[done]["status"].startswith("over: ")
    over = json.loads(agon("games", "--status", "over", "--json").stdout)
    assert [r["id"] for r in over] == [done] and all(r["over"] for r in over)

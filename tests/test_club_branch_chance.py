"""A branch made where a chance outcome is due, in a seeded game, as a club organiser makes one.

After any decision agon draws a seeded game's chance by itself; a new branch made where chance was due waited
instead, and the number the options seemed to offer was refused ('type seed'). The branch now draws it as it is
made, with the branch's luck (the same as its parent's, or fresh with --reseed), and stops where someone decides.
"""

from __future__ import annotations

import json

from agon.core.engine import Chance


def _game(svc) -> str:
    from agon.core.service import NewGame

    return svc.new_game(NewGame("peloponnes", ["Ana"], [("Bo", "greedy")], seed=11))


def test_a_branch_where_chance_is_due_draws_it_and_waits_for_a_person(agon):
    gid = json.loads(agon("new", "peloponnes", "--player", "Ana", "--bot", "Bo:greedy", "--seed", "11",
                          "--json").stdout)["id"]
    main = json.loads(agon("state", gid, "--json").stdout)
    said = agon("branch", gid, "w", "--at", "2").stdout
    assert said.startswith("Branch w starts after event #2 of main with the same luck; agon drew the chance due"
                           " there (events #3 to #4); now on w: Ana to act: bid on a power card or pass"), said
    # the same luck draws what main drew: the branch walks main's events, no copy of them
    now = json.loads(agon("state", gid, "--json").stdout)
    assert (now["branch"], now["event"], now["status"]) == ("w", 4, main["status"])
    tree = {b["name"]: b for b in json.loads(agon("branches", gid, "--json").stdout)}
    assert (tree["w"]["parent"], tree["w"]["fork_at"], tree["w"]["head"]) == ("main", 4, 4)  # on main's line
    r = agon("act", gid, "1", ok=False)  # what was refused ('type seed') before
    assert r.exit_code == 0 and "seed" not in r.stderr, r.stderr
    assert json.loads(agon("state", gid, "--json").stdout)["event"] > 4


def test_the_draw_is_part_of_the_branch_s_making_not_an_entry_to_undo(svc):
    gid = _game(svc)
    svc.branch(gid, "w", at=2)
    line = svc.load(gid, "w")
    assert not isinstance(line.pending, Chance) and line.pending.player == "Ana"
    moves = [(m.reason, m.from_id is None) for m in svc.store.head_moves(gid, "w")]
    assert moves == [("branch", True), ("branch", False)]  # append-only: the fork, then the draw from it
    fork = svc.store.branch(gid, "w").fork_id
    assert svc.depth_of(gid, fork) == 2
    # nobody entered anything on w: an undo has nothing of a person's to take back, and never leaves the line
    # waiting on a chance nobody may type in a seeded game
    assert not svc.undoable(line)


def test_a_reseeded_branch_draws_fresh_luck_where_it_starts(svc):
    gid = _game(svc)
    main = svc.load(gid, "main")
    made = svc.branch(gid, "r", at=2, from_branch="main", reseed=True)
    line = svc.load(gid, "r")
    assert made.luck != main.branch.luck
    assert line.depth == 4 and line.pending.player == "Ana"
    assert line.envelopes[3].id != main.envelopes[3].id  # Bo's 6 coin cards drawn anew
    assert line.envelopes[2].id == main.envelopes[2].id
    assert svc.load(gid, "r").summary.status == line.status()  # the stored summary is the new head's


def test_a_branch_at_a_bot_s_turn_waits_for_the_what_if(svc):
    gid = _game(svc)
    svc.act(gid, "1")  # Ana's bid; Bo replies, chance follows
    main = svc.load(gid, "main")
    bot_turn = next(i for i in range(5, main.depth + 1)
                    if getattr(main.ruleset.pending(main.state_at(i)), "player", None) == "Bo")
    svc.branch(gid, "b", at=bot_turn, from_branch="main")
    line = svc.load(gid, "b")
    assert line.depth == bot_turn and line.pending.player == "Bo"

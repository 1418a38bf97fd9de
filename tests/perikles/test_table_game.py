"""A table game through the service: chance outcomes typed by a person, bad dice refused and nothing recorded."""

from __future__ import annotations

import re

import pytest

from agon.core.engine import Chance
from agon.core.service import NewGame, ServiceError


def to_first_battle(svc, game: str) -> None:
    for _ in range(2000):
        line = svc.load(game)
        pending = line.pending
        if isinstance(pending, Chance) and pending.kind == "dice":
            return
        svc.act(game, "seed" if isinstance(pending, Chance) else "1")
    raise AssertionError("no battle came")


def test_a_battle_die_outside_1_to_6_in_a_table_game_is_refused_and_nothing_recorded(sqlite_svc):
    svc = sqlite_svc
    game = svc.new_game(NewGame("perikles", bots=(("Ann", "greedy"), ("Bob", "greedy"), ("Cy", "greedy"),
                                                  ("Dee", "greedy")), seed=9, table=True))
    to_first_battle(svc, game)
    before = len(svc.load(game).events)
    # Typed at the table or given as JSON, the refusal names the rule (game help: two dice each, d6).
    rule = re.escape("Battle dice (game help, 'rolam dois dados cada simultaneamente'): a die shows 1 to 6")
    with pytest.raises(ServiceError, match=rule + ", not 7"):
        svc.act(game, "7 2 3 4")
    with pytest.raises(ServiceError, match=rule + ", not 0"):
        svc.act(game, "0234")
    with pytest.raises(ServiceError, match=rule + ", not 0"):
        svc.act(game, '{"type": "perikles.battle_dice_rolled", "attacker": [0, 2], "defender": [3, 4]}')
    with pytest.raises(ServiceError, match="4 die value"):  # too few dice: the count is what is wrong
        svc.act(game, "2 3")
    assert len(svc.load(game).events) == before
    recorded = svc.act(game, "6 5 1 2")
    assert "attacker rolls 5+6=11" in recorded[0].sentence  # each side's pair is summed: recorded low die first


def test_a_tile_event_with_a_field_its_tile_does_not_use_is_refused_in_one_line_at_the_command_line(agon):
    # The event: a candidate tile that also assassinates, once with 'rome' (not a city) as the target.
    import json

    gid = json.loads(agon("new", "perikles", "--player", "Ann", "--player", "Bob", "--player", "Cy", "--seed", "9",
                          "--table", "--json").stdout)["id"]
    for _ in range(40):
        opts = json.loads(agon("options", gid, "--json").stdout)
        pending = opts["pending"]
        if pending["kind"] == "decision" and any(
                o["event"]["type"] == "perikles.influence_tile_taken" for o in opts["options"]):
            break
        if pending["kind"] == "chance" and "influence tiles displayed" in pending["label"]:
            agon("act", gid, "athens-candidate athens-2 athens-2 sparta-2 sparta-2 argos-2 any any thebes-2 "
                             "megara-2")
        else:
            agon("act", gid, "seed" if pending["kind"] == "chance" else "1")
    else:
        raise AssertionError("the influence phase never came")
    who = pending["player"]
    before = agon("log", gid, "--json").stdout
    for target in ("athens", "rome"):
        event = {"type": "perikles.influence_tile_taken", "player": who, "tile": "athens-candidate",
                 "nominee": who, "nominee_city": "athens", "slot": "A", "target_city": target, "target_slot": "A"}
        r = agon("act", gid, json.dumps(event), ok=False)
        assert r.exit_code == 1 and "Traceback" not in r.output
        assert "only an assassin tile removes a candidate" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
    assert agon("log", gid, "--json").stdout == before

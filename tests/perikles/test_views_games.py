"""Hidden information in views, narration, and seeded bot games played to a scored end."""

from __future__ import annotations

import msgspec
import pytest

from agon.core.autoplay import play_out
from agon.core.engine import Over, fold, steps
from agon.core.games.perikles import RULESET as RS
from agon.core.games.perikles.state import Commit
from agon.events.base import GameCreated, PlayerSeat
from agon.events.codec import Codec
from agon.events.perikles import BattleDiceRolled, BattleTileKept
from tests.perikles.helpers import at_battle, at_commit, play

LEADERS = {"athens": 0, "sparta": 1, "corinth": 2, "megara": 3}


def test_unused_special_tiles_are_hidden_from_others_and_shown_once_used():
    s = at_commit(leaders=LEADERS)
    mine = RS.view(s, "P1")["players"]
    assert mine["P1"]["special_tile"] == "Perikles tile" and mine["P2"]["special_tile"] == "hidden"
    assert RS.view(s, None)["players"]["P2"]["special_tile"] == "Plague tile"
    used = s.__class__(**{**{f: getattr(s, f) for f in s.__struct_fields__}, "used": (False, True, False, False)})
    assert RS.view(used, "P1")["players"]["P2"]["special_tile"] == "Plague tile"


def test_committed_counters_are_face_down_to_others_until_their_battle():
    commits = (Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
               Commit("sparta-t3-1", 1, "Pylos", "defender", "main"))
    s = at_commit(leaders=LEADERS, commits=commits, locations=("Pylos", "Plataea"))
    theirs = RS.view(s, "P2")["locations"][0]["attacker"][0]
    assert theirs == {"player": "P1", "role": "main", "city": "athens", "face_down": True}
    assert RS.view(s, "P1")["locations"][0]["attacker"][0]["strength"] == 4
    assert RS.view(s, None)["locations"][0]["defender"][0]["counter"] == "sparta-t3-1"
    msgspec.json.encode(RS.view(s, "P3"))
    fighting = at_battle(s)
    assert RS.view(fighting, "P2")["locations"][0]["attacker"][0]["strength"] == 4


def created(n: int, bot: str, seed: int) -> GameCreated:
    return GameCreated(ruleset="perikles", ruleset_version=RS.version, seed=seed, cards=RS.default_cards(),
                       players=tuple(PlayerSeat(f"P{i + 1}", bot) for i in range(n)))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_seeded_greedy_games_reach_a_scored_end_and_replay_the_same(n):
    events, actors, final = play_out(RS, created(n, "greedy", 11), validate=True)
    pending = RS.pending(final)
    assert isinstance(pending, Over) and pending.outcome.winners
    assert final.turn >= 2 and final.fought
    assert fold(RS, events) == final
    codec = Codec((GameCreated, *RS.events), RS.upcasters)
    assert fold(RS, [codec.decode(codec.encode(e)) for e in events]) == final


def test_the_log_narrates_every_election_and_every_battle_roll():
    events, actors, final = play_out(RS, created(4, "greedy", 5))
    state = RS.initial_state(events[0])
    elections = rolls = 0
    for e in events[1:]:
        sentence = RS.narrate(state, e)
        if "Elections:" in sentence:
            elections += 1
        if isinstance(e, BattleDiceRolled):
            assert "attacker rolls" in sentence and "defender rolls" in sentence
            rolls += 1
        state = RS.apply(state, e)
    assert elections == final.turn and rolls == sum(len(f.dice) for f in final.fought)


def test_projections_are_plain_rows_matching_the_game():
    events, actors, final = play_out(RS, created(4, "random", 3))
    line = list(steps(RS, events, actors))
    rows = RS.projections["battles"](line)
    assert len(rows) == len(final.fought) and rows
    msgspec.json.encode(rows)
    assert all(r["token_path"][-1] in (2, -2) for r in rows if not r["automatic"])
    assert {r["city"] for r in RS.projections["elections"](line)} == set(final.data.cities)
    assert RS.projections["locations"](line)


def test_a_decision_by_the_wrong_player_in_the_battle_window_is_refused():
    commits = (Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
               Commit("sparta-t3-1", 1, "Pylos", "defender", "main"))
    s = at_battle(at_commit(leaders=LEADERS, commits=commits, locations=("Pylos",),
                            specials=("phormio", "plague", "alkibiades", "perikles")))
    from tests.perikles.helpers import refused

    assert "Special tiles (RULES.md" in refused(s, BattleTileKept(player="P2"))
    s = play(s, BattleTileKept(player="P1"))
    assert "Special tiles (RULES.md" in refused(s, BattleTileKept(player="P3"))  # P2 is asked next
    s = play(s, BattleTileKept(player="P2"), BattleTileKept(player="P3"), BattleTileKept(player="P4"))
    assert RS.legal(s) == []


def test_check_setup_refuses_unplayable_setups_in_one_line():
    cards = RS.default_cards()
    RS.check_setup(["a", "b", "c"], {}, cards)
    for players in (["a", "b"], ["a", "b", "c", "d", "e", "f"]):
        with pytest.raises(ValueError, match="3 to 5 players"):
            RS.check_setup(players, {}, cards)
    with pytest.raises(ValueError, match="no options"):
        RS.check_setup(["a", "b", "c"], {"speed": 2}, cards)
    broken = {**cards, "locations": [{"name": "X", "city": "rome", "battles": "H", "points": 1}]}
    with pytest.raises(ValueError, match="unknown city rome"):
        RS.check_setup(["a", "b", "c"], {}, broken)
    with pytest.raises(ValueError, match="the card set is malformed"):
        RS.check_setup(["a", "b", "c"], {}, {"rules": {}})


def test_the_card_data_is_exact_and_complete():
    data = RS.initial_state(created(4, "random", 1)).data
    assert RS.provisional is False
    assert len(data.deck) == 36 and data.deck.count("any") == 5
    assert len(data.locations) == 21 and len(data.specials) == 8
    assert sum(1 for c in data.counters if c.city == "persia") == 10
    assert sum(c.strength for c in data.counters if c.city == "sparta" and c.kind == "H") == 2 + 6 + 9 + 8


def test_no_view_leaks_another_players_face_down_counters_or_special_tile():
    events, actors, final = play_out(RS, created(4, "random", 8))
    state = RS.initial_state(events[0])
    checked = 0
    for e in events[1:]:
        state = RS.apply(state, e)
        if state.phase != "commit" or not state.commits:
            continue
        for p, name in enumerate(state.players):
            text = msgspec.json.encode(RS.view(state, name)).decode()
            for cm in state.commits:
                if cm.player != p:
                    assert cm.counter not in text
            for q, other in enumerate(state.players):
                if q != p and not state.used[q]:
                    assert RS.view(state, name)["players"][other]["special_tile"] == "hidden"
            checked += 1
    assert checked > 10


def test_the_public_log_keeps_committed_counters_face_down_but_the_options_name_them():
    from agon.core.engine import option_text
    from agon.events.perikles import ForcesCommitted, Placement

    s = at_commit(leaders=LEADERS)
    e = ForcesCommitted(player="P1", tile="any",
                        placements=(Placement(counter="athens-t4-1", location="Pylos", side="attacker", role="main"),))
    assert "1 counter to Pylos as main attacker" in RS.narrate(s, e)
    assert "athens-t4-1" not in RS.narrate(s, e) and "trireme" not in RS.narrate(s, e)
    assert "Athens trireme 4 to Pylos as main attacker" in option_text(RS, s, e)


def test_the_election_report_is_shown_in_its_own_turn_only():
    """The report of a turn's elections is shown from the elections to the end of that turn (and at the game's end);
    the next turn, while locations are dealt, influence taken and candidates nominated, shows no report rather than
    the last turn's, whose leaders have left office (every city shows no leader then)."""
    events, _, final = play_out(RS, created(3, "greedy", 11))
    state = RS.initial_state(events[0])
    stale = shown = 0
    for e in events[1:]:
        state = RS.apply(state, e)
        seen = RS.view(state, "P1")
        if state.phase in ("deal-locations", "display", "influence", "nominate"):
            stale += bool(state.elections)  # the last turn's report is still in the state here
            assert seen["elections"] == [], (state.turn, state.phase)
            assert all(c["leader"] is None for c in seen["cities"].values())
        elif state.phase in ("commit", "battle", "over"):
            shown += 1
            assert seen["elections"] == list(state.elections) and seen["elections"]
    assert stale and shown and final.turn >= 2


def test_a_battle_won_without_dice_names_no_column_of_the_combat_table():
    """A battle with no attackers goes to the defenders without dice; its row (``agon plot battles GAME --json``,
    the battles figure) once named the combat table column 1:2 and what each side needed, as if it had been rolled."""
    events, actors, final = play_out(RS, created(4, "random", 3))
    rows = RS.projections["battles"](list(steps(RS, events, actors)))
    automatic = [r for r in rows if r["automatic"]]
    assert any(r["attack"] == 0 and r["defence"] > 0 for r in automatic)  # the case that named a column
    assert all(r["column"] == "" and r["attacker_needs"] is None and r["defender_needs"] is None and not r["rolls"]
               for r in automatic)
    assert all(r["column"] and r["attacker_needs"] for r in rows if not r["automatic"])

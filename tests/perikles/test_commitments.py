"""Commitments (perikles-game-help.pt.txt paragraphs 7-11 and 16, the Persians; data facts 'Alliances and wars')."""

from __future__ import annotations

from agon.core.engine import Decision, option_text
from agon.core.games.perikles import RULESET as RS
from agon.core.games.perikles.state import BATTLE, Commit, replace
from agon.events.perikles import ForcesCommitted, PermissionGiven, Placement
from tests.perikles.helpers import at_commit, play, refused

# P1 leads Athens and Argos, P2 Sparta, P3 Corinth and Thebes, P4 Megara.
LEADERS = {"athens": 0, "argos": 0, "sparta": 1, "corinth": 2, "thebes": 2, "megara": 3}


def send(player: str, *placements: tuple[str, str, str, str], tile: str = "any", cube: str = "") -> ForcesCommitted:
    return ForcesCommitted(player=player, tile=tile, cube=cube,
                           placements=tuple(Placement(counter=c, location=lo, side=si, role=ro)
                                            for c, lo, si, ro in placements))


def test_a_unit_may_not_attack_a_location_of_its_own_city():
    s = at_commit(leaders={"athens": 0})
    rule = refused(s, send("P1", ("athens-h3-1", "Plataea", "attacker", "main")))
    assert "may not attack Plataea, a location of its own city" in rule


def test_a_leader_may_not_attack_a_location_of_the_city_he_leads():
    s = at_commit(leaders={"athens": 0, "argos": 0})
    rule = refused(s, send("P1", ("argos-h3-1", "Plataea", "attacker", "main")))
    assert "leads athens and may not attack" in rule


def test_counters_of_a_city_the_player_does_not_lead_are_refused():
    s = at_commit(leaders=LEADERS)
    assert "does not command" in refused(s, send("P1", ("sparta-h4-1", "Plataea", "defender", "ally")))


def test_two_cube_tiles_are_spent_first_and_players_without_one_wait():
    s = at_commit(leaders=LEADERS, hands=(("athens-2", "any"), ("any",), ("corinth-2",), ("any",)), actor=0)
    assert "2-cube tiles are spent first" in refused(s, send("P1", tile="any"))
    s = play(s, send("P1", tile="athens-2"))
    assert RS.pending(s).player == "P3"
    s = play(s, send("P3", tile="corinth-2"))
    assert RS.pending(s).player == "P4"


def test_up_to_two_counters_to_one_or_two_locations_and_main_then_ally():
    s = at_commit(leaders=LEADERS, hands=(("any", "any"), ("any",), ("any",), ("any",)))
    assert "at most 2 counters" in refused(s, send(
        "P1", ("athens-t4-1", "Pylos", "attacker", "main"), ("athens-t4-2", "Pylos", "attacker", "main"),
        ("athens-t3-1", "Pylos", "attacker", "main")))
    assert "an ally joins a main" in refused(s, send("P1", ("athens-t4-1", "Pylos", "attacker", "ally")))
    s = play(s, send("P1", ("athens-t4-1", "Pylos", "attacker", "main"),
                     ("athens-h3-1", "Corcyra", "attacker", "main")))
    assert [c.location for c in s.commits] == ["Pylos", "Corcyra"]
    s = replace(s, actor=3)
    assert "already main attacker" in refused(s, send("P4", ("megara-h2-1", "Corcyra", "attacker", "main")))


def test_a_sacrificed_cube_sends_two_more_units():
    s = at_commit(leaders=LEADERS)
    four = (("athens-t4-1", "Pylos", "attacker", "main"), ("athens-t4-2", "Pylos", "attacker", "main"),
            ("athens-t3-1", "Pylos", "attacker", "main"), ("athens-t3-2", "Pylos", "attacker", "main"))
    assert "without a sacrificed cube" in refused(s, send("P1", *four))
    assert "a city you lead" in refused(s, send("P1", *four, cube="sparta"))
    s = play(s, send("P1", *four, cube="athens"))
    assert len(s.commits) == 4 and s.cubes[0][0] == 1


def test_nobody_fights_on_both_sides_of_one_location():
    s = at_commit(leaders=LEADERS, commits=(Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),))
    assert "on both sides" in refused(s, send("P1", ("argos-h3-1", "Pylos", "defender", "main")))


def test_a_leader_attacking_a_city_may_not_defend_it_elsewhere():
    s = at_commit(leaders=LEADERS, locations=("Pylos", "Sicily", "Corcyra"),
                  commits=(Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),))
    assert "attacks sparta at Pylos" in refused(s, send("P1", ("athens-h3-1", "Sicily", "defender", "main")))
    s = play(s, send("P1", ("argos-h3-1", "Corcyra", "defender", "main")))
    assert s.request is not None and s.request.location == "Corcyra"


def test_allies_may_not_fight_each_other_and_cities_at_war_may_not_stand_together():
    # Athens and Thebes attack Pylos together: allies. Corinth defends Pylos: at war with both.
    commits = (Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
               Commit("thebes-h3-1", 2, "Pylos", "attacker", "ally"),
               Commit("megara-t3-1", 3, "Pylos", "defender", "ally"))
    s = at_commit(leaders=LEADERS, commits=commits + (Commit("sparta-h4-1", 1, "Pylos", "defender", "main"),),
                  actor=0, locations=("Pylos", "Delium", "Mantinea"))
    # Athens may not attack Delium (Thebes, its ally this turn).
    assert "are allies this turn" in refused(s, send("P1", ("athens-h3-1", "Delium", "attacker", "main")))
    # Athens may not defend Mantinea beside Megara, with which it is at war.
    s = play(s, send("P1", ("athens-h3-1", "Mantinea", "defender", "main")))
    s = play(s, send("P2", tile="any"))
    s3 = play(s, send("P3", tile="any"))
    assert "at war this turn" in refused(s3, send("P4", ("megara-h2-1", "Mantinea", "defender", "ally")))


def test_defending_as_main_another_leaders_city_needs_permission():
    s = at_commit(leaders=LEADERS, hands=(("any",), ("any", "any"), ("any",), ("any",)), actor=1)
    s = play(s, send("P2", ("sparta-h4-1", "Plataea", "defender", "main")))
    pending = RS.pending(s)
    assert isinstance(pending, Decision) and pending.player == "P1" and "Plataea" in pending.prompt
    assert "Permission (game help" in refused(s, PermissionGiven(player="P2", granted=True))
    assert option_text(RS, s, PermissionGiven(player="P1", granted=False)) == (
        "P1 refuses P2 leave to defend Plataea as main defender.")
    assert option_text(RS, s, PermissionGiven(player="P1", granted=True)).startswith(
        "P1 allows P2 to defend Plataea as main defender.")
    refused_state = play(s, PermissionGiven(player="P1", granted=False))
    assert refused_state.commits == () and RS.pending(refused_state).player == "P2"
    assert "refused" in refused(refused_state, send("P2", ("sparta-h4-1", "Plataea", "defender", "main")))
    granted = play(s, PermissionGiven(player="P1", granted=True))
    assert granted.commits[0].role == "main" and granted.hands[1] == ("any",)


def test_a_defender_of_a_leaderless_city_needs_no_permission():
    s = at_commit(leaders={"sparta": 1}, actor=1)
    s = play(s, send("P2", ("sparta-h4-1", "Plataea", "defender", "main")))
    assert s.commits and s.request is None


def test_players_who_lead_no_city_command_the_persians():
    s = at_commit(leaders={"athens": 0, "sparta": 1, "argos": 2, "corinth": 2, "thebes": 0, "megara": 1}, actor=3)
    assert "does not command" in refused(s, send("P4", ("athens-h3-1", "Pylos", "attacker", "main")))
    s = play(s, send("P4", ("persia-h3-1", "Pylos", "attacker", "main"), ("persia-t3-1", "Pylos", "attacker",
                                                                           "main")))
    assert {c.counter for c in s.commits} == {"persia-h3-1", "persia-t3-1"}
    assert "does not command" in refused(
        at_commit(leaders=LEADERS), send("P1", ("persia-h3-1", "Pylos", "attacker", "main")))


def test_persian_leaders_may_sacrifice_a_cube_of_any_city():
    s = at_commit(leaders={"athens": 0, "sparta": 1, "argos": 2, "corinth": 2, "thebes": 0, "megara": 1}, actor=3)
    four = tuple((f"persia-h3-{i}", "Pylos", "attacker", "main") for i in range(1, 5))
    s = play(s, send("P4", *four, cube="megara"))
    assert len(s.commits) == 4 and s.cubes[5][3] == 1


def test_the_battle_phase_begins_when_every_tile_is_spent():
    s = at_commit(leaders=LEADERS, hands=(("any",), (), (), ()))
    s = play(s, send("P1"))
    assert s.phase != "commit"
    assert s.phase in (BATTLE, "deal-locations")


def test_legal_commitments_all_pass_validation():
    s = at_commit(leaders=LEADERS, commits=(Commit("sparta-h4-1", 1, "Plataea", "attacker", "main"),))
    legal = RS.legal(s)
    assert len(legal) > 50
    for e in legal:
        assert RS.validate(s, e) is None, e

"""Setup, the influence phase, nominations and elections (perikles-game-help.pt.txt paragraphs 1-6)."""

from __future__ import annotations

import pytest

from agon.core.engine import Chance, Decision
from agon.core.games.perikles import RULESET as RS
from agon.core.games.perikles.state import COMMIT, DEAL_LOCATIONS, INFLUENCE, NOBODY, NOMINATE, replace
from agon.events.perikles import (
    CandidateNominated,
    DisplayRefilled,
    InfluenceDisplayed,
    InfluenceTileTaken,
    LocationsDealt,
    NominationPassed,
    SpecialTilesDealt,
    StartingCubePlaced,
)
from tests.perikles.helpers import fresh, play, refused

SPECIALS4 = ("perikles", "plague", "brasidas", "phormio")
DISPLAY = ("athens-2", "athens-2", "sparta-2", "athens-candidate", "sparta-assassin", "any", "any", "argos-2",
           "thebes-candidate", "megara-2")


def set_up(n: int = 4):
    s = play(fresh(n), SpecialTilesDealt(tiles=("perikles", "plague", "brasidas", "phormio", "alkibiades")[:n]))
    for _ in range(2):
        for p in s.players:
            s = play(s, StartingCubePlaced(player=p, city="corinth"))
    return s


def influence_phase(n: int = 4):
    s = set_up(n)
    locs = ("Amphipolis", "Plataea", "Pylos", "Mantinea", "Corcyra", "Delium", "Megara")
    return play(s, LocationsDealt(locations=locs), InfluenceDisplayed(tiles=DISPLAY))


def test_setup_gives_two_cubes_in_every_city_and_deals_special_tiles_by_chance():
    s = fresh(4)
    assert all(row == (2, 2, 2, 2) for row in s.cubes)
    pending = RS.pending(s)
    assert isinstance(pending, Chance) and pending.kind == "draw" and pending.count == 4
    assert "chance outcome is needed" in refused(s, StartingCubePlaced(player="P1", city="athens"))
    assert "each of the eight" in refused(s, SpecialTilesDealt(tiles=("plague", "plague", "brasidas", "phormio")))
    s = play(s, SpecialTilesDealt(tiles=SPECIALS4))
    assert s.specials == SPECIALS4


def test_the_two_setup_placements_go_round_in_turn_order():
    s = play(fresh(3), SpecialTilesDealt(tiles=("perikles", "plague", "brasidas")))
    order = []
    for _ in range(6):
        pending = RS.pending(s)
        assert isinstance(pending, Decision)
        order.append(pending.player)
        s = play(s, StartingCubePlaced(player=pending.player, city="megara"))
    assert order == ["P1", "P2", "P3", "P1", "P2", "P3"]
    assert s.cubes[s.data.city_index("megara")] == (4, 4, 4)
    assert s.phase == DEAL_LOCATIONS


def test_a_setup_cube_out_of_turn_is_refused():
    s = play(fresh(3), SpecialTilesDealt(tiles=("perikles", "plague", "brasidas")))
    assert "Setup (game help, 1st paragraph" in refused(s, StartingCubePlaced(player="P2", city="athens"))


def test_seven_locations_are_dealt_each_turn_and_ten_influence_tiles_displayed():
    s = set_up()
    pending = RS.pending(s)
    assert isinstance(pending, Chance) and pending.count == 7 and len(pending.items) == 21
    assert "cannot be dealt" in refused(s, LocationsDealt(locations=(
        "Atlantis", "Amphipolis", "Plataea", "Pylos", "Mantinea", "Corcyra", "Delium")))
    assert "7 tiles are dealt" in refused(s, LocationsDealt(locations=("Amphipolis",)))
    s = play(s, LocationsDealt(locations=("Amphipolis", "Plataea", "Pylos", "Mantinea", "Corcyra", "Delium",
                                          "Megara")))
    pending = RS.pending(s)
    assert isinstance(pending, Chance) and pending.count == 10 and len(pending.items) == 36
    assert "cannot be dealt" in refused(s, InfluenceDisplayed(tiles=("megara-candidate",) * 2 + DISPLAY[2:]))
    s = play(s, InfluenceDisplayed(tiles=DISPLAY))
    assert s.phase == INFLUENCE and len(s.deck) == 26


def test_taking_a_tile_out_of_turn_is_refused_and_nothing_changes():
    s = influence_phase()
    rule = refused(s, InfluenceTileTaken(player="P2", tile="athens-2"))
    assert "Influence tiles (game help, 2nd paragraph" in rule and "P1 must act now" in rule


def test_a_two_cube_tile_places_two_cubes_then_the_display_refills_by_chance():
    s = influence_phase()
    s = play(s, InfluenceTileTaken(player="P1", tile="athens-2"))
    assert s.cubes[0][0] == 4 and s.hands[0] == ("athens-2",)
    pending = RS.pending(s)
    assert isinstance(pending, Chance) and pending.count == 1
    assert "cannot be dealt" in refused(s, DisplayRefilled(tile="nowhere-2"))
    s = play(s, DisplayRefilled(tile="corinth-2"))
    assert len(s.display) == 10 and RS.pending(s).player == "P2"


def test_an_any_tile_needs_a_city_and_a_tile_not_on_display_is_refused():
    s = influence_phase()
    assert "name" in refused(s, InfluenceTileTaken(player="P1", tile="any"))
    assert "not on display" in refused(s, InfluenceTileTaken(player="P1", tile="corinth-2"))
    s = play(s, InfluenceTileTaken(player="P1", tile="any", city="thebes"))
    assert s.cubes[s.data.city_index("thebes")][0] == 3


def test_a_candidate_tile_must_nominate_and_refuses_a_nominee_without_a_cube():
    s = influence_phase()
    assert "in full" in refused(s, InfluenceTileTaken(player="P1", tile="athens-candidate"))
    s0 = replace(s, cubes=tuple((2, 0, 2, 2) if c == 1 else row for c, row in enumerate(s.cubes)))
    rule = refused(s0, InfluenceTileTaken(player="P1", tile="athens-candidate", nominee="P2",
                                          nominee_city="sparta", slot="A"))
    assert "no cube in sparta" in rule
    s = play(s, InfluenceTileTaken(player="P1", tile="athens-candidate", nominee="P2", nominee_city="sparta",
                                   slot="A"))
    assert s.candidates[1] == (1, NOBODY) and s.cubes[1][1] == 1 and s.cubes[0][0] == 3


def test_an_assassin_tile_removes_a_candidate():
    s = influence_phase()
    s = replace(s, candidates=((2, 3),) + s.candidates[1:])
    s = play(s, InfluenceTileTaken(player="P1", tile="sparta-assassin", target_city="athens", target_slot="B"))
    assert s.candidates[0] == (2, NOBODY) and s.cubes[1][0] == 3
    assert "only an assassin tile" in refused(
        replace(s, actor=0, refill=False), InfluenceTileTaken(player="P1", tile="athens-2", target_city="x"))
    s = replace(s, actor=0, refill=False, display=s.display + ("athens-assassin",))
    assert "no candidate in thebes" in refused(
        s, InfluenceTileTaken(player="P1", tile="athens-assassin", target_city="thebes", target_slot="A"))


def test_a_tile_is_refused_with_any_field_it_does_not_use():
    # The case: a candidate tile that also assassinates (accepted and verified before), and 'rome' as a
    # target city (a traceback in the narration before).
    s = influence_phase()
    s = replace(s, candidates=((2, 3),) + s.candidates[1:])
    nominate = {"nominee": "P2", "nominee_city": "sparta", "slot": "A"}
    for target in ("athens", "rome"):
        rule = refused(s, InfluenceTileTaken(player="P1", tile="athens-candidate", **nominate, target_city=target,
                                             target_slot="A"))
        assert "only an assassin tile removes a candidate" in rule and "game help" in rule
    assert "only a candidate tile nominates" in refused(
        s, InfluenceTileTaken(player="P1", tile="sparta-assassin", target_city="athens", target_slot="A", **nominate))
    assert "only a candidate tile nominates" in refused(s, InfluenceTileTaken(player="P1", tile="any", city="argos",
                                                                             slot="A"))
    assert "'rome' is not a city" in refused(
        s, InfluenceTileTaken(player="P1", tile="sparta-assassin", target_city="rome", target_slot="A"))
    assert "'rome' is not a city" in refused(
        s, InfluenceTileTaken(player="P1", tile="athens-candidate", nominee="P2", nominee_city="rome", slot="A"))
    for e in RS.legal(s):  # every option offered still passes
        assert RS.validate(s, e) is None


def test_a_version_1_game_keeps_its_candidate_tile_that_also_removed_a_candidate():
    """Version 1 accepted a candidate tile typed with a target too, and removed that candidate: a version-1 log
    holding one replays as played (influence.ONLY_AS_PRINTED); a target that does not stand is refused still."""
    s = influence_phase()
    s = replace(s, candidates=((2, 3),) + s.candidates[1:], version=1)
    both = InfluenceTileTaken(player="P1", tile="athens-candidate", nominee="P2", nominee_city="sparta", slot="A",
                              target_city="athens", target_slot="B")
    after = play(s, both)
    assert after.candidates[0] == (2, NOBODY) and after.candidates[1] == (1, NOBODY)
    for city, slot in (("rome", "A"), ("thebes", "A")):
        assert "no candidate in" in refused(s, InfluenceTileTaken(
            player="P1", tile="athens-candidate", nominee="P2", nominee_city="sparta", slot="A", target_city=city,
            target_slot=slot))
    assert "only an assassin tile removes a candidate" in refused(replace(s, version=2), both)
    assert "only an assassin tile removes a candidate" in refused(s, InfluenceTileTaken(
        player="P1", tile="athens-2", target_city="athens", target_slot="B"))


@pytest.mark.parametrize(("n", "quota"), [(3, 5), (4, 5), (5, 4)])
def test_each_player_takes_5_tiles_with_3_or_4_players_and_4_with_5(n, quota):
    s = influence_phase(n)
    while s.phase == INFLUENCE:
        pending = RS.pending(s)
        if isinstance(pending, Chance):
            s = play(s, DisplayRefilled(tile=pending.items[0]))
            continue
        s = play(s, next(e for e in RS.legal(s) if isinstance(e, InfluenceTileTaken)))
    assert s.taken == (quota,) * n and all(len(h) == quota for h in s.hands)
    assert s.phase in (NOMINATE, COMMIT)


def nominate_state():
    s = influence_phase(3)
    return replace(s, phase=NOMINATE, actor=0, passes=0, taken=(5, 5, 5))


def test_nominations_are_optional_and_go_round_until_everyone_passes():
    s = nominate_state()
    s = play(s, CandidateNominated(player="P1", city="athens", nominee="P3", slot="A"))
    assert s.candidates[0] == (2, NOBODY)
    s = play(s, NominationPassed(player="P2"), NominationPassed(player="P3"))
    assert s.phase == NOMINATE
    assert "Nominations (game help, 5th paragraph" in refused(s, NominationPassed(player="P3"))
    s = play(s, NominationPassed(player="P1"))
    assert s.phase == COMMIT


def test_a_nomination_in_a_city_where_the_nominee_has_no_cube_is_refused():
    s = nominate_state()
    s = replace(s, cubes=tuple((0, 2, 2) if c == 2 else row for c, row in enumerate(s.cubes)))
    assert "no cube in argos" in refused(s, CandidateNominated(player="P1", city="argos", nominee="P1", slot="A"))
    s2 = replace(s, candidates=((0, NOBODY),) + s.candidates[1:])
    assert "already a candidate" in refused(s2, CandidateNominated(player="P1", city="athens", nominee="P1",
                                                                   slot="B"))


def elect(cubes_a: int, cubes_b: int, a: int = 0, b: int = 1):
    s = nominate_state()
    row = [2, 2, 2]
    row[a], row[b] = cubes_a, cubes_b
    s = replace(s, cubes=(tuple(row),) + s.cubes[1:], candidates=((a, b),) + s.candidates[1:])
    return play(s, NominationPassed(player="P1"), NominationPassed(player="P2"), NominationPassed(player="P3"))


def test_election_by_cubes_the_winner_loses_four_more_cubes():
    s = elect(7, 3)
    assert s.leaders[0] == 0
    assert s.cubes[0] == (3, 3, 2)
    assert "P1 beats P2 in Athens (8 cubes to 4)" in s.elections[0]


def test_election_with_fewer_than_four_cubes_left_loses_them_all():
    s = elect(2, 1)
    assert s.leaders[0] == 0 and s.cubes[0][0] == 0


def test_election_tie_goes_to_candidate_a():
    s = elect(3, 3, a=1, b=0)
    assert s.leaders[0] == 1


def test_an_election_won_on_a_tie_says_that_a_tie_goes_to_candidate_a_in_the_log():
    """The log read "P2 beats P1 in Athens (4 cubes to 4)", which did not say why equal cubes elected P2."""
    s = nominate_state()
    s = replace(s, cubes=((3, 3, 2),) + s.cubes[1:], candidates=((1, 0),) + s.candidates[1:])
    s = play(s, NominationPassed(player="P1"), NominationPassed(player="P2"))
    last = NominationPassed(player="P3")
    said = RS.narrate(s, last)
    assert "Elections: P2 beats P1 in Athens (4 cubes to 4: a tie goes to candidate A, P2) and loses 3 more" in said
    assert "tie" not in elect(7, 3).elections[0]  # a win by more cubes says nothing of ties


def test_a_game_recorded_before_version_5_keeps_its_election_report_word_for_word():
    s = nominate_state()
    s = replace(s, cubes=((3, 3, 2),) + s.cubes[1:], candidates=((1, 0),) + s.candidates[1:], version=4)
    s = play(s, NominationPassed(player="P1"), NominationPassed(player="P2"), NominationPassed(player="P3"))
    assert s.elections[0] == "P2 beats P1 in Athens (4 cubes to 4) and loses 3 more"


def test_a_lone_candidate_wins_without_losing_four_cubes_and_a_city_without_candidates_has_no_leader():
    s = nominate_state()
    s = replace(s, candidates=((NOBODY, 2),) + s.candidates[1:])
    s = play(s, NominationPassed(player="P1"), NominationPassed(player="P2"), NominationPassed(player="P3"))
    assert s.leaders[0] == 2 and s.cubes[0] == (2, 2, 2)
    assert s.leaders[1] == NOBODY
    assert "unopposed" in s.elections[0] and "no leader" in s.elections[1]


def test_commitments_start_with_spartas_leader():
    s = nominate_state()
    s = replace(s, candidates=((0, NOBODY), (2, NOBODY)) + s.candidates[2:],
                hands=(("athens-2",), ("sparta-2",), ("argos-2",)))
    s = play(s, NominationPassed(player="P1"), NominationPassed(player="P2"), NominationPassed(player="P3"))
    assert s.phase == COMMIT and RS.pending(s).player == "P3"


def test_the_election_is_narrated_city_by_city():
    s = nominate_state()
    s = replace(s, candidates=((0, 1),) + s.candidates[1:], passes=2, actor=2)
    sentence = RS.narrate(s, NominationPassed(player="P3"))
    assert "Elections:" in sentence and "Athens" in sentence and "Megara has no candidate" in sentence

"""The score timeline, turning points, comparison and stats of the known pig game (see conftest.py)."""

from __future__ import annotations

from agon.analysis.compare import compare_lines, fork_point
from agon.analysis.stats import aggregate, game_summary, wilson
from agon.analysis.timeline import (
    final_leader,
    lead_taken,
    line_timeline,
    outcome_of,
    round_boundaries,
    swings,
    turning_points,
)


def test_timeline_has_one_row_per_event_with_its_sentence_and_the_scores_after_it(known):
    rows = line_timeline(known.svc.load(known.game))
    assert [r["n"] for r in rows] == list(range(15))
    assert rows[6] == {"n": 6, "round": 1, "in_round": 1, "actor": "Ana", "type": "toy.held",
                       "text": "Ana holds, banking 9.", "scores": {"Ana": 9.0, "Bruno": 0.0}}
    assert (rows[9]["round"], rows[9]["in_round"]) == (2, 1)  # Bruno's hold ends round 1, after which round 2 is on
    assert rows[11]["text"] == "Ana rolls a 1 and loses the turn's points."
    assert rows[11]["actor"] == "chance"
    assert rows[-1]["scores"] == {"Ana": 9.0, "Bruno": 11.0}
    assert [r["scores"]["Bruno"] for r in rows] == [0.0] * 9 + [5.0] * 5 + [11.0]


def test_round_boundaries_are_where_the_turn_comes_back_to_the_first_seat(known):
    """A round starts at its first event as the events number it (``in_round``): Bruno's hold (#9) ends round 1, so
    round 2 starts at #10, Ana's roll; the hold that ends the game (#14) starts no round 3."""
    rows = line_timeline(known.svc.load(known.game))
    assert round_boundaries(rows) == [{"n": 10, "round": 2}]


def test_turning_points_are_the_largest_swings_and_where_the_winner_took_the_lead(known):
    line = known.svc.load(known.game)
    rows = line_timeline(line)
    assert [(s["n"], s["player"], s["delta"]) for s in swings(rows)] == [
        (6, "Ana", 9.0), (14, "Bruno", 6.0), (9, "Bruno", 5.0)]
    assert final_leader(rows, outcome_of(line)["winners"]) == "Bruno"
    lead = lead_taken(rows, "Bruno")
    assert lead["n"] == 14 and lead["score"] == 11.0 and lead["text"] == "Bruno holds, banking 6."
    points = turning_points(rows, ["Bruno"])
    assert [(p["n"], p["kind"], p["label"]) for p in points] == [
        (6, "swing", "Ana +9"), (9, "swing", "Bruno +5"), (14, "lead", "Bruno takes the lead for good"),
        (14, "swing", "Bruno +6")]


def test_the_lucky_branch_has_ana_lead_for_good_from_her_first_hold(known):
    lucky = known.svc.load(known.game, "lucky")
    rows = line_timeline(lucky)
    assert outcome_of(lucky) == {"over": True, "winners": ["Ana"], "summary": "Ana won with 11 points"}
    lead = lead_taken(rows, final_leader(rows, ["Ana"]))
    assert lead["n"] == 6 and lead["player"] == "Ana"


def test_a_tie_at_the_end_has_no_final_leader():
    rows = [{"n": 0, "scores": {"A": 0.0, "B": 0.0}}, {"n": 1, "scores": {"A": 3.0, "B": 3.0}}]
    assert final_leader(rows) is None
    assert lead_taken(rows, None) is None


def test_setup_changes_before_any_decision_are_not_swings():
    rows = [
        {"n": 0, "actor": "setup", "text": "begins", "scores": {"A": 0.0, "B": 0.0}},
        {"n": 1, "actor": "chance", "text": "cards dealt", "scores": {"A": 12.0, "B": 10.0}},
        {"n": 2, "actor": "A", "text": "A plays", "scores": {"A": 14.0, "B": 10.0}},
    ]
    assert [(s["n"], s["delta"]) for s in swings(rows)] == [(2, 2.0)]


def test_compare_names_the_fork_the_first_different_events_and_the_score_differences(known):
    main, lucky = known.svc.load(known.game, "main"), known.svc.load(known.game, "lucky")
    assert fork_point(main, lucky) == 10
    c = compare_lines(main, lucky)
    assert c["fork"] == 10 and c["fork_text"] == "Ana rolls."
    differ = {"same": False, "reads_differently": False, "hidden_difference": False, "reads_alike": False,
              "reordered": False}
    assert c["after_fork"][0] == {"n": 11, "a": "Ana rolls a 1 and loses the turn's points.", "b": "Ana rolls a 2.",
                                  **differ}
    assert c["after_fork"][1] == {"n": 12, "a": "Bruno rolls.", "b": "Ana holds, banking 2.", **differ}
    assert c["after_fork"][2] == {"n": 13, "a": "Bruno rolls a 6.", "b": None, **differ}
    assert c["viewer"] is None
    assert c["players"] == [
        {"player": "Ana", "a": 9.0, "b": 11.0, "diff": 2.0, "at_fork": 9.0},
        {"player": "Bruno", "a": 11.0, "b": 5.0, "diff": -6.0, "at_fork": 5.0},
    ]
    assert c["a"]["winners"] == ["Bruno"] and c["b"]["winners"] == ["Ana"]
    assert c["a"]["events"] == 15 and c["b"]["events"] == 13 and c["a"]["last"] == 14
    assert c["outcome_changed"] is True and c["same_luck"] is True


def test_stats_count_wins_scores_and_length_over_finished_games(known):
    main, lucky = known.svc.load(known.game, "main"), known.svc.load(known.game, "lucky")
    s = game_summary(main)
    assert s["over"] and s["winners"] == ["Bruno"] and s["events"] == 15 and s["rounds"] == 3
    assert s["sides"] == {} and s["side_label"] is None
    result = aggregate([s, game_summary(lucky)])
    assert result["games"] == 2 and result["finished"] == 2
    assert result["avg_events"] == 14.0 and result["shortest"] == 13 and result["longest"] == 15
    assert result["by_side"] == []
    low, high = wilson(1, 2)
    assert result["by_seat"] == [
        {"seat": 1, "played": 2, "wins": 1, "win_rate": 0.5, "ci_low": low, "ci_high": high, "avg_score": 10.0},
        {"seat": 2, "played": 2, "wins": 1, "win_rate": 0.5, "ci_low": low, "ci_high": high, "avg_score": 8.0},
    ]
    assert result["lengths"] == [15, 13]


def test_wilson_interval_matches_the_textbook_values():
    # Wilson (1927); e.g. Newcombe (1998), table I: 81 of 263 -> 0.2553 to 0.3662; 0 of 10 -> 0 to 0.2775
    low, high = wilson(81, 263)
    assert round(low, 4) == 0.2553 and round(high, 4) == 0.3662
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    low, high = wilson(10, 10)
    assert round(low, 4) == 0.7225 and high == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_unfinished_games_count_as_games_but_not_towards_results(known):
    known.svc.branch(known.game, "early", at=7)
    early = game_summary(known.svc.load(known.game, "early"))
    assert early["over"] is False
    result = aggregate([early])
    assert result["games"] == 1 and result["finished"] == 0 and result["avg_events"] is None
    assert result["by_seat"] == []


def test_a_single_score_takes_no_lead():
    # a solo Adamastor voyage (or a crew's one shared score): its first points are no lead taken over anybody
    rows = [{"n": 0, "actor": "setup", "text": "sets out", "scores": {"Ana": 0.0}},
            {"n": 1, "actor": "Ana", "text": "sails", "scores": {"Ana": 6.7}},
            {"n": 2, "actor": "Ana", "text": "sails", "scores": {"Ana": 13.4}}]
    assert lead_taken(rows, final_leader(rows, ["Ana"])) is None
    assert [p["label"] for p in turning_points(rows, ["Ana"])] == ["Ana +6.7", "Ana +6.7"]

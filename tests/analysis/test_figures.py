"""The score figure of the known pig game: the right traces, values and annotations."""

from __future__ import annotations

from agon.analysis.figures import scores_figure
from agon.analysis.palette import PALETTE, marked_points, player_colors, player_marks


def _annotations(fig, name=None):
    return [a for a in fig.layout.annotations if name is None or a.name == name]


def test_players_keep_their_seat_colour():
    assert player_colors(["Ana", "Bruno"]) == {"Ana": PALETTE[0], "Bruno": PALETTE[1]}
    assert player_colors(["Ana", "Bruno"], ["team"])["team"] == PALETTE[2]


def test_score_figure_draws_one_line_per_player_with_the_scores_after_each_event(known):
    fig = scores_figure([known.svc.load(known.game)])
    assert [t.name for t in fig.data] == ["Ana", "Bruno"]
    ana, bruno = fig.data
    assert list(ana.x) == list(range(15))
    assert list(ana.y) == [0.0] * 6 + [9.0] * 9
    assert list(bruno.y) == [0.0] * 9 + [5.0] * 5 + [11.0]
    assert ana.line.color == PALETTE[0] and bruno.line.color == PALETTE[1]
    assert ana.line.dash == "solid" and ana.line.shape == "hv"
    # the hold that ends round 2 is round 2's, though round 3 follows it (the hover names the round the event is in)
    assert bruno.hovertext[14] == "#14 (round 2): Bruno holds, banking 6.<br>Bruno: 11"
    assert "Pig (test game): scores over the game" in fig.layout.title.text
    assert "branch main: Bruno won with 11 points" in fig.layout.title.text
    assert fig.layout.xaxis.title.text == "event number" and fig.layout.yaxis.title.text == "score"
    assert fig.layout.legend.title.text == "player"


def test_score_figure_marks_rounds_and_annotates_turning_points(known):
    fig = scores_figure([known.svc.load(known.game)])
    rounds = _annotations(fig, "round")
    # each round's line before its first event, as the hovers name the events' rounds: round 2 after #9, the hold that
    # ends round 1 (the lines stood before it, where its hover said round 1); no event is round 3's, the game over
    assert [(a.text, a.x) for a in rounds] == [("round 1", 0), ("round 2", 9.5)]
    assert [s.x0 for s in fig.layout.shapes] == [9.5]
    lead = _annotations(fig, "lead")
    assert [(a.text, a.x, a.y) for a in lead] == [("Bruno takes the lead for good", 14, 11.0)]
    assert lead[0].font.color == PALETTE[1]
    swings = {(a.text, a.x, a.y) for a in _annotations(fig, "swing")}
    assert swings == {("Ana +9", 6, 9.0), ("Bruno +5", 9, 5.0), ("Bruno +6", 14, 11.0)}


def test_each_player_has_their_own_marker_and_dash_besides_their_colour():
    marks = player_marks([f"p{i}" for i in range(len(PALETTE))])
    assert [m.color for m in marks.values()] == list(PALETTE)
    assert len({m.symbol for m in marks.values()}) == len({m.dash for m in marks.values()}) == len(PALETTE)
    assert "star" not in {m.symbol for m in marks.values()}  # a star means a card won (the auction plot)
    assert player_colors(["Ana", "Bruno"]) == {p: m.color for p, m in player_marks(["Ana", "Bruno"]).items()}


def test_markers_sit_where_a_line_changes_and_at_its_end():
    assert marked_points([0, 0, 9, 9, 5, 5]) == [2, 4, 5]
    assert marked_points([0, 0, 0]) == [2]  # a flat line: its end, where its name is written
    assert marked_points([None, 1, 2, None]) == [1, 2]  # where it starts after a gap, and its last point
    assert marked_points([]) == []
    steep = list(range(100))
    few = marked_points(steep, most=10)
    assert len(few) == 10 and few[-1] == 99 and all(b - a >= 10 for a, b in zip(few, few[1:-1]))
    assert marked_points(steep, most=10, phase=0.5) != few  # another player's markers fall between these


def test_score_lines_differ_by_marker_and_dash_and_say_whose_they_are_at_their_ends(known):
    fig = scores_figure([known.svc.load(known.game)])
    ana, bruno = fig.data
    assert (ana.marker.symbol, ana.line.dash) == ("circle", "solid")
    assert (bruno.marker.symbol, bruno.line.dash) == ("square", "dash")
    assert ana.mode == bruno.mode == "lines+markers" and fig.layout.legend.itemsizing == "constant"
    # markers where a score changes and at the end, none on the flat stretches between
    assert list(ana.selectedpoints) == [6, 14] and list(bruno.selectedpoints) == [9, 14]
    assert ana.unselected.marker.opacity == 0
    assert {a.text.split()[0] for a in _annotations(fig, "final")} == {"Ana", "Bruno"}


def test_overlaid_branch_keeps_the_players_marks_thinner_with_hollow_markers_from_where_it_parts(known):
    main, lucky = known.svc.load(known.game, "main"), known.svc.load(known.game, "lucky")
    fig = scores_figure([main, lucky])
    assert [t.name for t in fig.data] == ["Ana", "Bruno", "Ana (lucky)", "Bruno (lucky)"]
    ana, ana_lucky, bruno_lucky = fig.data[0], fig.data[2], fig.data[3]
    assert ana_lucky.line.color == PALETTE[0] and ana_lucky.line.dash == ana.line.dash == "solid"
    assert ana_lucky.marker.symbol == "circle-open" and bruno_lucky.marker.symbol == "square-open"
    assert ana_lucky.line.width < ana.line.width
    assert list(ana_lucky.x) == [10, 11, 12] and list(ana_lucky.y) == [9.0, 9.0, 11.0]
    assert fig.data[0].legendgroup == fig.data[2].legendgroup == "Ana"
    assert [a.text for a in fig.layout.annotations if "parts" in (a.text or "")] == ["lucky parts after #10"]
    assert "main: Bruno won; lucky: Ana won" in fig.layout.title.text


def test_a_plot_of_a_branch_shows_that_line_only(known):
    fig = scores_figure([known.svc.load(known.game, "lucky")])
    assert [t.name for t in fig.data] == ["Ana", "Bruno"]
    assert list(fig.data[0].x) == list(range(13))
    assert fig.data[0].y[-1] == 11.0 and fig.data[1].y[-1] == 5.0


def test_each_line_ends_with_its_final_value_written_in_its_colour(known):
    main, lucky = known.svc.load(known.game, "main"), known.svc.load(known.game, "lucky")
    fig = scores_figure([main, lucky])
    finals = {(a.text, a.x, a.y, a.font.color) for a in _annotations(fig, "final")}
    assert finals == {("Ana 9", 14, 9.0, PALETTE[0]), ("Bruno 11", 14, 11.0, PALETTE[1]),
                      ("Ana (lucky) 11", 12, 11.0, PALETTE[0]), ("Bruno (lucky) 5", 12, 5.0, PALETTE[1])}
    # the right margin holds the longest label at the right edge; the x axis ends at the last event
    assert fig.layout.xaxis.range == (0, 14) and fig.layout.margin.r >= 60


def test_round_labels_thin_out_evenly_when_they_would_crowd():
    from agon.analysis.labels import thin_every

    assert thin_every([0, 100, 200], [50, 50, 50]) == 1
    assert thin_every([0, 30, 60, 90, 120], [50] * 5) == 2  # every other one: 0, 60, 120
    assert thin_every([0, 10, 20, 30, 40, 50, 60], [50] * 7) == 6


def test_spread_moves_labels_apart_and_keeps_them_in_bounds():
    from agon.analysis.labels import spread

    got = spread([100, 101, 102], [16, 16, 16], 0, 500)
    assert sorted(got) == got and all(b - a >= 18 for a, b in zip(got, got[1:]))
    assert spread([495, 496], [16, 16], 0, 500)[1] <= 492
    assert spread([50, 300], [16, 16], 0, 500) == [50, 300]

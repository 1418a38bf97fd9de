"""The study page's data for the known pig game (tests/analysis/conftest.py): its lines as a tree, every event
once, notes in place, states stored as changes yet rebuilt exactly, one player's page holding only that player's
view; and ``agon view`` on the command line."""

from __future__ import annotations

import json
import re

from agon.analysis.palette import PALETTE
from agon.analysis.study import EVERYONE, FULL, build_study, diff, moment_anchor, patch, states_of, study_data
from agon.core.engine import PUBLIC
from agon.core.notes import add as add_note
from agon.core.notes import all_notes


def _notes(svc, gid):
    return {n.event_id: (n.glyph, n.text) for _, n in all_notes(svc, gid)[1]}


def test_every_line_is_a_path_through_events_stored_once(known):
    lines = known.svc.lines(known.game)
    data = study_data(lines)
    main, lucky = data["lines"]
    assert (main["name"], main["parent"], main["fork"]) == ("main", None, None)
    assert (lucky["name"], lucky["parent"], lucky["fork"]) == ("lucky", "main", 10)
    assert main["path"][:11] == lucky["path"][:11] and main["path"][11] != lucky["path"][11]
    assert len(data["nodes"]) == 15 + 2  # the two lines share events #0 to #10
    nodes = data["nodes"]
    assert [nodes[k]["n"] for k in lucky["path"]] == list(range(13))
    assert nodes[main["path"][6]] | {"parent": None} == {
        "n": 6, "round": 1, "in_round": 1, "actor": "Ana", "text": "Ana holds, banking 9.",
        "scores": {"Ana": 9.0, "Bruno": 0.0}, "parent": None}
    last = nodes[lucky["path"][12]]
    assert last["text"] == "Ana holds, banking 2." and last["scores"]["Ana"] == 11
    assert main["status"] == "over: Bruno won with 11 points" and lucky["status"] == "over: Ana won with 11 points"
    assert {"n": 14, "label": "Bruno takes the lead for good", "anchor": "right"} in main["moments"]
    assert data["colors"] == {"Ana": PALETTE[0], "Bruno": PALETTE[1]}
    assert data["marks"] == {"Ana": ["circle", "solid"], "Bruno": ["square", "dash"]}  # the page's marker and dash
    assert data["perspectives"] == [FULL, "Ana", "Bruno"] and data["current"] == "main"


def test_a_turning_points_label_ends_at_its_point_near_the_right_edge_and_starts_there_near_the_left(known):
    # the x axis runs from -0.5 to the last event + 0.5: a label in its last third is anchored at its right end, so
    # it ends at its point and cannot run past the plot's right edge; one in the first third starts at its point
    assert moment_anchor(14, 14) == "right" and moment_anchor(0, 14) == "left" and moment_anchor(7, 14) == "center"
    assert [moment_anchor(n, 29) for n in (9, 10, 19, 20)] == ["left", "center", "center", "right"]
    assert moment_anchor(0, 0) == "center"  # a line of one event: its label centred on it
    data = study_data(known.svc.lines(known.game))
    main, lucky = data["lines"]
    assert [(m["n"], m["label"], m["anchor"]) for m in main["moments"]] == [
        (6, "Ana +9", "center"), (9, "Bruno +5", "center"), (14, "Bruno takes the lead for good", "right"),
        (14, "Bruno +6", "right")]
    assert [m["anchor"] for m in lucky["moments"] if m["n"] == 12] == ["right"]  # its own last event, not main's
    # the labels say what they said before: the side they sit on is all that was added
    assert all(set(m) == {"n", "label", "anchor"} for ln in data["lines"] for m in ln["moments"])


def test_notes_and_glyphs_sit_on_their_events(known):
    svc, gid = known.svc, known.game
    add_note(svc, gid, 6, "too early?", "?!")
    add_note(svc, gid, 6, "a safe hold", "!")
    add_note(svc, gid, 12, "the lucky hold", branch="lucky")
    data = study_data(svc.lines(gid), _notes(svc, gid))
    main, lucky = data["lines"]
    assert (data["nodes"][main["path"][6]]["glyph"], data["nodes"][main["path"][6]]["note"]) == ("!", "a safe hold")
    assert data["nodes"][lucky["path"][12]]["note"] == "the lucky hold"
    assert data["nodes"][lucky["path"][12]]["glyph"] == ""
    assert "note" not in data["nodes"][main["path"][7]]


def test_states_are_stored_as_changes_and_rebuilt_exactly(known):
    lines = known.svc.lines(known.game)
    data = study_data(lines)
    for line in lines:
        path = next(ln["path"] for ln in data["lines"] if ln["name"] == line.branch.name)
        for who in data["perspectives"]:
            rebuilt = states_of(data, who)
            for st, k in zip(line.steps(), path):
                expected = line.ruleset.view(st.after, None if who == FULL else who)
                assert rebuilt[k] == json.loads(json.dumps(expected)), (line.branch.name, who, st.index)
    kinds = [kind for kind, _ in data["states"][FULL]]
    assert kinds[0] == 0 and kinds.count(1) > len(kinds) // 2  # most steps are stored as changes
    whole = sum(len(json.dumps(s)) for s in states_of(data, FULL))
    assert len(json.dumps(data["states"][FULL])) < whole


def test_diff_and_patch_turn_one_value_into_another():
    a = {"x": [1, 2, 3], "y": {"z": 1, "gone": 2}, "same": "s"}
    b = {"x": [1, 5, 3], "y": {"z": 2, "new": [1]}, "same": "s"}
    ops = diff(a, b)
    assert patch(a, ops) == b and a["x"] == [1, 2, 3]
    assert [["x", 1], 5] in ops and [["y", "gone"]] in ops
    assert patch([1, 2], diff([1, 2], [3])) == [3]
    assert diff(a, a) == []


def test_a_page_for_one_player_holds_only_that_players_view_and_record(known):
    lines = known.svc.lines(known.game)
    data = study_data(lines, as_player="Bruno", chances={"main": object()})
    assert data["perspectives"] == ["Bruno"] and list(data["states"]) == ["Bruno"]
    assert data["chances"] == {}  # win chances come from the full state
    rebuilt = states_of(data, "Bruno")
    line = lines[0]
    path = data["lines"][0]["path"]
    assert [rebuilt[k] for k in path] == [json.loads(json.dumps(line.ruleset.view(st.after, "Bruno")))
                                          for st in line.steps()]


def test_a_page_for_a_viewer_without_a_seat_holds_what_every_player_sees(known):
    lines = known.svc.lines(known.game)
    data = study_data(lines, as_player=PUBLIC, chances={"main": object()})
    assert data["as"] == PUBLIC and data["perspectives"] == [EVERYONE] and list(data["states"]) == [EVERYONE]
    assert data["chances"] == {}
    line = lines[0]
    path = data["lines"][0]["path"]
    assert [states_of(data, EVERYONE)[k] for k in path] == [json.loads(json.dumps(line.ruleset.view(st.after, PUBLIC)))
                                                            for st in line.steps()]
    assert [data["nodes"][k]["text"] for k in path] == [r.sentence for r in known.svc.log(line, PUBLIC)]
    assert "as every player sees it" in build_study(lines, as_player=PUBLIC)
    assert study_data(lines)["perspectives"] == [FULL, "Ana", "Bruno"]  # None: everything, for the store's owner


def test_the_page_is_one_offline_file_with_plotly_once(known):
    page = build_study(known.svc.lines(known.game))
    from plotly.offline import get_plotlyjs

    assert "<script src=" not in page  # nothing to fetch
    assert page.count(get_plotlyjs()[:2000]) == 1  # plotly.js, once
    raw = re.search(r'<script type="application/json" id="study-data">(.*?)</script>', page, re.S).group(1)
    assert "<" not in raw
    assert json.loads(raw) == json.loads(json.dumps(study_data(known.svc.lines(known.game))))


def test_agon_view_writes_every_line_or_the_ones_named(agon, tmp_path):
    gid = json.loads(agon("new", "toy", "--player", "Ana", "--player", "Bruno", "--seed", "2", "--json").stdout)["id"]
    for _ in range(3):
        agon("act", gid, "1")
    agon("branch", gid, "alt", "--at", "2")  # chance is due at #2: a seeded game draws it from its seed with it
    agon("note", gid, "2", "the first roll", "--glyph", "!")
    out = agon("view", gid, "-o", "all.html").stdout
    assert "2 lines (main: 8 events, alt: 4 events)" in out and "all.html" in out
    data = json.loads(re.search(r'id="study-data">(.*?)</script>', (tmp_path / "all.html").read_text(), re.S)[1])
    assert [ln["name"] for ln in data["lines"]] == ["main", "alt"] and data["current"] == "alt"
    assert any(n.get("note") == "the first roll" for n in data["nodes"])
    agon("view", gid, "-b", "main", "--as", "Bruno", "-o", "one.html")
    data = json.loads(re.search(r'id="study-data">(.*?)</script>', (tmp_path / "one.html").read_text(), re.S)[1])
    assert [ln["name"] for ln in data["lines"]] == ["main"] and data["perspectives"] == ["Bruno"]
    r = agon("view", gid, "-b", "ghost", ok=False)
    assert r.exit_code == 1 and "no branch 'ghost'" in r.stderr
    r = agon("view", gid, "--as", "Zoe", ok=False)
    assert r.exit_code == 1 and "no player 'Zoe'" in r.stderr


def test_tiles_and_cards_are_shown_by_name():
    from agon.analysis.games import adamastor, perikles
    from agon.core import registry

    cards = registry.get("perikles").default_cards()
    assert perikles.label("sparta-h3-2", cards) == "Sparta hoplite 3"
    assert perikles.label("persia-t2-1", cards) == "Persia trireme 2"
    assert perikles.label("argos-2", cards) == "Argos 2-cube"
    assert perikles.label("thebes-assassin", cards) == "Thebes assassin"
    assert perikles.label("slave-revolt", cards) == "Slave Revolt"
    assert perikles.label("Ana", cards) is None and perikles.label("athens", cards) is None
    crew = registry.get("adamastor").default_cards()
    first = crew["player_cards"][0]
    assert adamastor.label(f"c{first['number']}", crew) == first["title"]
    assert adamastor.label(f"c{first['number']} draw_two_keep_one", crew) == f"{first['title']} (draw two keep one)"
    assert adamastor.label("c999", crew) is None and adamastor.label("calm", crew) is None


def test_the_page_names_only_what_its_own_views_show(sqlite_svc):
    from agon.core.service import NewGame

    gid = sqlite_svc.new_game(NewGame("perikles", players=["Ana", "Bruno", "Chloe"], seed=1))
    for _ in range(200):  # to the commitments: Ana's counters at home are listed, their ids in the 'counter' column
        if sqlite_svc.load(gid).state.phase == "commit":
            break
        sqlite_svc.act(gid, "1")
    data = study_data(sqlite_svc.lines(gid), as_player="Ana")
    assert any(" hoplite " in name for name in data["names"].values()), data["names"]
    shown = json.dumps(states_of(data, "Ana"))
    assert all(json.dumps(text) in shown for text in data["names"])
    assert re.search(r'"display": \[[^]]*"[A-Z][a-z]+ (?:2-cube|candidate|assassin)"', shown)  # tiles by name


def test_where_an_analysis_exists_the_page_carries_its_win_chances(agon, tmp_path):
    gid = json.loads(agon("new", "toy", "--bot", "Ana:random", "--bot", "Bruno:random", "--seed", "3",
                          "--json").stdout)["id"]
    agon("view", gid, "-o", "before.html")
    before = json.loads(re.search(r'id="study-data">(.*?)</script>', (tmp_path / "before.html").read_text(), re.S)[1])
    assert before["chances"] == {}
    agon("analyse", gid, "--rollouts", "5", "--workers", "1")
    said = agon("view", gid, "-o", "after.html").stdout
    assert "to after.html: the state in full or as any player sees it and the win chances of main (open it" in said
    after = json.loads(re.search(r'id="study-data">(.*?)</script>', (tmp_path / "after.html").read_text(), re.S)[1])
    assert [t["name"] for t in after["chances"]["main"]["data"]] == ["Ana", "Bruno"]
    agon("view", gid, "--as", "Ana", "-o", "ana.html")
    ana = json.loads(re.search(r'id="study-data">(.*?)</script>', (tmp_path / "ana.html").read_text(), re.S)[1])
    assert ana["chances"] == {}

"""Notes on events: written with 'agon note', listed with 'agon notes', shown by 'agon log' beside their events;
append-only (a later note is shown, both are kept) and outside the events (no id, hash or state changes)."""

from __future__ import annotations

import json

import pytest

from agon.core.notes import add
from agon.core.service import ServiceError


def new_game(agon) -> str:
    gid = json.loads(agon("new", "toy", "--player", "ann", "--player", "bob", "--seed", "2", "--json").stdout)["id"]
    for _ in range(2):
        agon("act", gid, "1")
    return gid


def test_a_note_is_shown_beside_its_event_in_the_log(agon):
    gid = new_game(agon)
    before = json.loads(agon("log", gid, "--json").stdout)
    out = agon("note", gid, "2", "a bold start", "--glyph", "!?").stdout
    assert "Noted event #2 of branch main: !? a bold start" in out
    log = agon("log", gid).stdout.splitlines()
    at = next(i for i, ln in enumerate(log) if ln.lstrip().startswith("2. "))
    assert log[at].endswith("ann rolls. !?") and log[at + 1].strip() == "» a bold start"
    rows = json.loads(agon("log", gid, "--json").stdout)
    assert rows[2]["note"] == {"text": "a bold start", "glyph": "!?"}
    assert [{k: v for k, v in r.items() if k != "note"} for r in rows] == before  # the events are unchanged
    assert "OK:" in agon("verify", gid).stdout


def test_a_later_note_replaces_an_earlier_one_for_display_and_both_are_kept(agon, tmp_path):
    gid = new_game(agon)
    agon("note", gid, "2", "first thought")
    out = agon("note", gid, "2", "second thought", "--glyph", "?").stdout
    assert "replacing 1 earlier note, which is kept" in out
    listed = agon("notes", gid).stdout
    assert "main #2" in listed and "? second thought" in listed and "first thought" not in listed
    rows = json.loads(agon("notes", gid, "--json").stdout)
    assert rows == [{"branch": "main", "also_on": [], "n": 2, "event": rows[0]["event"], "text": "second thought",
                     "glyph": "?", "at": rows[0]["at"], "replaces": 1}]
    exported = agon("export", gid).stdout
    assert "first thought" in exported and "second thought" in exported


def test_notes_never_change_an_event_a_hash_or_the_state(sqlite_svc):
    from agon.core.service import NewGame

    gid = sqlite_svc.new_game(NewGame("toy", players=["ann", "bob"], seed=2))
    sqlite_svc.act(gid, "1")
    line = sqlite_svc.load(gid)
    events = sqlite_svc.store.all_events(gid)
    moves = sqlite_svc.store.head_moves(gid)
    add(sqlite_svc, gid, 1, "seats", "!")
    after = sqlite_svc.load(gid)
    assert sqlite_svc.store.all_events(gid) == events and after.state == line.state
    assert sqlite_svc.store.head_moves(gid) == moves
    assert sqlite_svc.verify(gid) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("99", "late"), "event #99 is not on branch main"),
        (("1", "x", "--glyph", "!!!"), "'!!!' is not a glyph"),
        (("1",), "a note needs a text or a --glyph"),
        (("1", "x", "-b", "ghost"), "no branch 'ghost'"),
    ],
)
def test_a_bad_note_is_refused_in_one_line(agon, args, message):
    gid = new_game(agon)
    r = agon("note", gid, *args, ok=False)
    assert r.exit_code == 1 and message in r.stderr and r.stderr.count("\n") == 1
    assert json.loads(agon("notes", gid, "--json").stdout) == []


def test_a_note_on_an_undone_event_is_listed_as_such(sqlite_svc):
    from agon.core.notes import all_notes
    from agon.core.service import NewGame

    gid = sqlite_svc.new_game(NewGame("toy", players=["ann", "bob"], seed=2))
    sqlite_svc.act(gid, "1")
    n = sqlite_svc.load(gid).head.depth
    add(sqlite_svc, gid, n, "gone soon")
    sqlite_svc.undo(gid)
    _, rows = all_notes(sqlite_svc, gid)
    assert [(b, nt.n, nt.text) for b, nt in rows] == [("", n, "gone soon")]
    with pytest.raises(ServiceError, match="a note holds at most"):
        add(sqlite_svc, gid, 1, "x" * 5000)


def test_a_one_line_export_says_that_the_line_s_notes_are_not_in_it(agon):
    gid = new_game(agon)
    out = agon("export", gid, "-b", "main", "-o", "line.jsonl").stdout
    assert "The" not in out  # no note yet: nothing to say
    agon("note", gid, "2", "a bold start")
    out = agon("export", gid, "-b", "main", "-o", "line.jsonl").stdout
    assert f"The 1 note on this line is not in a one-line file; `agon export {gid} -o FILE` writes the whole game" \
           " with its notes." in out
    r = agon("export", gid, "-b", "main")  # on stdout: the file alone there, the notice on stderr
    assert "a bold start" not in r.stdout and all(json.loads(ln) for ln in r.stdout.splitlines())
    assert r.stderr.startswith("The 1 note on this line is not in a one-line file")
    assert "a bold start" in agon("export", gid).stdout  # the whole game keeps it


def test_a_note_on_an_event_just_undone_says_it_was_undone_and_how_to_bring_it_back(agon):
    gid = new_game(agon)
    last = len(json.loads(agon("log", gid, "--json").stdout)) - 1
    agon("undo", gid)
    now = len(json.loads(agon("log", gid, "--json").stdout)) - 1
    r = agon("note", gid, str(last), "too late", ok=False)
    assert r.exit_code == 1 and r.stderr == (f"error: event #{last} was undone on branch main, which now has events"
                                             f" 0 to {now}; `agon redo {gid}` brings it back to note it\n")
    r = agon("note", gid, "99", "never was", ok=False)  # not an undone event: the line's events are named
    assert f"event #99 is not on branch main, which has events 0 to {now}" in r.stderr
    agon("redo", gid)
    assert f"Noted event #{last}" in agon("note", gid, str(last), "back again").stdout
    agon("branch", gid, "aside")
    agon("switch", gid, "main")
    agon("undo", gid, "-b", "aside")
    assert f"`agon redo {gid} -b aside` brings it back" in agon("note", gid, str(last), "x", "-b", "aside",
                                                                 ok=False).stderr
    assert f"(`agon log {gid} -b aside` numbers them)" in agon("note", gid, "99", "x", "-b", "aside", ok=False).stderr


def test_a_note_written_from_a_line_that_shares_the_event_is_listed_as_on_that_line_too(agon):
    gid = new_game(agon)
    agon("branch", gid, "whatif")
    assert "Noted event #2 of branch whatif: why?" in agon("note", gid, "2", "why?", "-b", "whatif").stdout
    assert agon("notes", gid).stdout == "main #2 (also on whatif)  why?\n"
    rows = json.loads(agon("notes", gid, "--json").stdout)
    assert [(r["branch"], r["also_on"], r["n"], r["text"]) for r in rows] == [("main", ["whatif"], 2, "why?")]
    for name in ("b3", "b4", "b5"):
        agon("branch", gid, name)
    assert "main #2 (also on whatif, b3 and 2 more lines)  why?" in agon("notes", gid).stdout


def test_a_note_of_several_lines_stands_under_its_event_as_written(agon, tmp_path):
    # 'agon notes' printed a note's later lines at the margin, where they read as other notes (and 'agon log' at the
    # margin of the event numbers); they stand under the note's first line, and --json and the study page keep the
    # text as written, its line breaks shown
    import re

    gid = new_game(agon)
    agon("note", gid, "2", "a bold start\nthough risky\n\nsee #3", "--glyph", "!?")
    agon("note", gid, "3", "one line")
    listed = agon("notes", gid).stdout.splitlines()
    at = next(i for i, ln in enumerate(listed) if ln.endswith("!? a bold start"))
    column = listed[at].index("!?")
    assert listed[at + 1:at + 4] == [" " * column + "though risky", "", " " * column + "see #3"]
    assert listed[at + 4].lstrip().startswith("main #3") and listed[at + 4].endswith("  one line")
    rows = json.loads(agon("notes", gid, "--json").stdout)
    assert rows[0]["text"] == "a bold start\nthough risky\n\nsee #3"
    log = agon("log", gid).stdout.splitlines()
    at = next(i for i, ln in enumerate(log) if ln.strip() == "» a bold start")
    assert log[at + 1:at + 4] == [" " * 9 + "though risky", "", " " * 9 + "see #3"]
    assert json.loads(agon("log", gid, "--json").stdout)[2]["note"]["text"] == "a bold start\nthough risky\n\nsee #3"
    agon("view", gid, "-o", str(tmp_path / "s.html"))
    page = (tmp_path / "s.html").read_text()
    data = json.loads(re.search(r'<script type="application/json" id="study-data">(.*?)</script>', page, re.S)[1])
    assert "a bold start\nthough risky\n\nsee #3" in [nd.get("note") for nd in data["nodes"]]
    for kind in ("#moves .note", "#narration .shown-note"):  # a browser shows the breaks, not one run-on line
        rule = re.search(re.escape(kind) + r" \{([^}]*)\}", page)[1]
        assert "white-space: pre-line" in rule, kind


def test_a_glyph_alone_marks_a_noted_move_without_taking_its_text_out_of_view(agon, tmp_path):
    gid = new_game(agon)
    agon("note", gid, "2", "the turning point")
    out = agon("note", gid, "2", "--glyph", "!!").stdout
    assert "Noted event #2 of branch main: !! the turning point" in out
    rows = json.loads(agon("log", gid, "--json").stdout)
    assert rows[2]["note"] == {"text": "the turning point", "glyph": "!!"}
    assert "!! the turning point" in agon("notes", gid).stdout
    agon("view", gid, "-o", str(tmp_path / "study.html"))
    assert '"the turning point"' in (tmp_path / "study.html").read_text()
    # a note with a text replaces both: its own text, and no glyph where it gives none
    agon("note", gid, "2", "on second thought, forced")
    rows = json.loads(agon("log", gid, "--json").stdout)
    assert rows[2]["note"] == {"text": "on second thought, forced", "glyph": ""}


def test_a_note_on_an_event_the_line_lacks_names_the_branches_that_have_it_and_the_command(agon):
    """`agon note G 9 x` on a line branched before event #9 said only which events the line has: the event the note
    was meant for, on main, went unnamed, and so did `-b main`."""
    gid = new_game(agon)
    for _ in range(3):
        agon("act", gid, "1")
    last = len(json.loads(agon("log", gid, "--json").stdout)) - 1
    agon("branch", gid, "aside", "--at", "1")  # now on aside, whose events are 0 and 1
    r = agon("note", gid, str(last), "the turn", ok=False)
    assert r.exit_code == 1
    said = (f"error: event #{last} is not on branch aside, which has events 0 to 1; branch main has an event #{last}:"
            f" `agon note {gid} {last} 'the turn' -b main` notes it there\n")
    assert r.stderr == said
    command = said.split("`")[1].split()
    assert command[:2] == ["agon", "note"]
    out = agon(*command[1:3], str(last), "the turn", *command[-2:]).stdout
    assert f"Noted event #{last} of branch main: the turn" in out
    r = agon("note", gid, str(last), "--glyph", "?", "--json", ok=False)  # a glyph alone, as JSON
    assert json.loads(r.stderr)["error"].endswith(f"`agon note {gid} {last} --glyph '?' -b main` notes it there")
    r = agon("note", gid, str(last), "it's\nlong", ok=False)  # a note no one-line command holds: a placeholder
    assert f"`agon note {gid} {last} TEXT -b main` notes it there" in r.stderr
    r = agon("note", gid, "99", "x", ok=False)  # on no branch: the line's events are named, as before
    assert r.stderr == (f"error: event #99 is not on branch aside, which has events 0 to 1 (`agon log {gid}` numbers"
                        " them)\n")


def test_several_branches_holding_the_event_are_named_and_many_are_counted(agon):
    gid = new_game(agon)
    for _ in range(3):
        agon("act", gid, "1")
    last = len(json.loads(agon("log", gid, "--json").stdout)) - 1
    agon("branch", gid, "long")  # at main's head: it has event #last too
    agon("branch", gid, "short", "--at", "1")
    r = agon("note", gid, str(last), "x", ok=False)
    assert (f"is not on branch short, which has events 0 to 1; branches main and long have an event #{last}:"
            f" `agon note {gid} {last} x -b main` notes it on main\n") in r.stderr
    for name in ("more", "most"):
        agon("branch", gid, name, "-b", "main")
    agon("switch", gid, "short")
    r = agon("note", gid, str(last), "x", ok=False)
    assert (f"which has events 0 to 1; 4 other branches have an event #{last} (`agon branches {gid}` lists them):"
            f" `agon note {gid} {last} x -b main` notes it on main\n") in r.stderr

"""Names and titles that look like rich markup print as written on every command, and names that would break a
one-line message (very long, with a newline or a terminal escape) are refused by the service itself."""

from __future__ import annotations

import json

import pytest

from agon.core.service import NewGame, ServiceError
from tests.test_cli_surface import one_line

MARKUP = ["[/x]", "[bold]B", "C]", "[link=x]D"]


def _no_markup_left(text: str) -> None:
    assert "Traceback" not in text
    for tag in ("[/]", "[bold]Pelop", "[dim]", "[red]"):
        assert tag not in text


def test_every_printing_command_shows_markup_like_names_as_written(agon, tmp_path):
    gid = agon("new", "peloponnes", "-p", MARKUP[0], "-p", MARKUP[1], "--bot", f"{MARKUP[2]}:greedy",
               "--bot", f"{MARKUP[3]}:random", "--seed", "5", "--title", "[/t] title").stdout.splitlines()[0]
    seen = []

    def run(*args: str, input: str | None = None, ok: bool = True) -> str:
        r = agon(*args, input=input, ok=ok)
        out = r.stdout + r.stderr
        _no_markup_left(out)
        seen.append(out)
        return out

    assert all(n in run("games") for n in ("[/x]", "[bold]B"))
    assert "[/x]" in run("options", gid)
    run("state", gid)
    run("state", gid, "--as", "[/x]")
    run("act", gid, "1")
    run("log", gid)
    assert "[/x]" in run("log", gid, "--as", "[/x]")
    run("log", gid, "--full")
    run("replay", gid, "--to", "3")
    run("play", gid, input="1\nq\n")
    run("undo", gid)
    run("redo", gid)
    run("branch", gid, "[w]", "--at", "2")
    run("branches", gid)
    run("compare", gid, "main", "[w]")
    run("switch", gid, "main")
    assert "[/x]" in run("view", gid, "--as", "[/x]", "-o", str(tmp_path / "v.html"))
    run("plot", "scores", gid, "-o", str(tmp_path / "s.html"))
    run("export", gid, "-o", str(tmp_path / "g.jsonl"))
    new = run("import", str(tmp_path / "g.jsonl")).splitlines()[0]
    run("verify", new)
    run("stats", "peloponnes")
    # an error about such a name prints it as written too
    assert "'[/nobody]'" in run("state", gid, "--as", "[/nobody]", ok=False)
    run("demo", "peloponnes")
    toy = run("new", "toy", "-p", "[/x]", "--bot", "[b]:random", "--seed", "2").splitlines()[0]
    run("act", toy, "2")
    assert "[/x]" in run("analyse", toy, "--rollouts", "3", "-w", "1")
    run("plot", "chances", toy, "-o", str(tmp_path / "c.html"))
    assert len(seen) > 20


@pytest.mark.parametrize("name, says", [
    ("A" * 100_000, "100,000 characters long; the most is 40"),
    ("Ana\nBob", "control or separator character (U+000A)"),
    ("Ana\x1b[31m", "control or separator character (U+001B)"),
    ("Ana\u202eboB", "(U+202E)"),
])
def test_names_too_long_or_with_control_characters_are_refused_by_the_service(sqlite_svc, name, says):
    with pytest.raises(ServiceError) as e:
        sqlite_svc.new_game(NewGame("toy", players=[name, "Bob"]))
    assert says in str(e.value)
    assert "\n" not in str(e.value) and len(str(e.value)) < 200
    assert sqlite_svc.games() == []


@pytest.mark.parametrize(("name", "says"), [
    (" Ana", "' Ana' cannot be a player name (it begins or ends with a space); leave the space out"),
    ("  ", "'  ' cannot be a player name (it is blank); give every seat a name"),
    ("chance", "'chance' cannot be a player name (the log uses chance and setup for what no player does); choose"),
    ("a:b", "'a:b' cannot be a player name (',' and ':' separate names, and a name from its bot's kind); leave"),
])
def test_a_name_that_cannot_be_a_players_says_why_and_what_to_do(sqlite_svc, name, says):
    """Once every such name got the same words, '(reserved, blank, or with ',' or ':')', whichever it was."""
    with pytest.raises(ServiceError) as e:
        sqlite_svc.new_game(NewGame("toy", players=[name, "Bob"]))
    assert str(e.value).startswith(says)


def test_titles_and_branch_names_are_checked_the_same_way(sqlite_svc):
    with pytest.raises(ServiceError, match="title"):
        sqlite_svc.new_game(NewGame("toy", players=["Ana", "Bob"], title="x" * 1000))
    gid = sqlite_svc.new_game(NewGame("toy", players=["Ana", "Bob"], title="Ana's [game]"))
    with pytest.raises(ServiceError, match="branch name"):
        sqlite_svc.branch(gid, "b" * 101)
    with pytest.raises(ServiceError, match="U\\+0007"):
        sqlite_svc.branch(gid, "bell\x07")


@pytest.mark.parametrize("title", [" ", "   "])
def test_a_new_game_titled_with_spaces_only_is_refused_in_one_line(agon, tmp_path, title):
    one_line(agon("new", "toy", "--player", "a", "--player", "b", "--title", title, ok=False), 1,
             "error: a title of spaces only names nothing; give it words, or leave the title out")
    assert not (tmp_path / "games.db").exists()  # refused before a store is made
    assert agon("new", "toy", "--player", "a", "--player", "b", "--title", " Finals ").stdout  # words: a title


def test_a_game_an_older_agon_stored_titled_with_spaces_only_is_still_imported_and_verified(sqlite_svc, elsewhere,
                                                                                            monkeypatch):
    """The check of a new title is not the check of a stored one: a file written before blank titles were refused
    is imported whole, its title as it was."""
    from agon.core import names
    from agon.core.transfer import export_game, import_data

    with monkeypatch.context() as m:  # as an older agon, which took any title without control characters
        m.setattr("agon.core.service.new_title_problem", names.title_problem)
        gid = sqlite_svc.new_game(NewGame("toy", players=["Ana", "Bob"], seed=2, title="   "))
    assert sqlite_svc.verify(gid) == []
    report = import_data(elsewhere, export_game(sqlite_svc, gid))
    assert (report.game_id, report.outcome) == (gid, "new")
    assert elsewhere.load(gid).game.title == "   "
    assert elsewhere.verify(gid) == []


def test_a_branch_name_is_one_word_a_command_line_reads_as_a_name(agon):
    """A branch is named as an argument (`agon switch GAME NAME`, and in every hint that names it): a name that
    begins with '-' was made, then every hint naming it (`agon switch 3f2a -x`) failed as an unknown option."""
    gid = agon("new", "toy", "--player", "Ana", "--bot", "Bo:random", "--seed", "3").stdout.split()[0]
    for name, says in (("-x", "branch name '-x' begins with '-', which a command line reads as an option"),
                       ("", "a branch needs a name"), ("a b", "one word without spaces")):
        r = agon("branch", gid, "--at", "1", "--", name, ok=False)
        lines = r.stderr.splitlines()
        assert r.exit_code == 1 and len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0]
    assert [b["name"] for b in json.loads(agon("branches", gid, "--json").stdout)] == ["main"]
    agon("branch", gid, "x-", "--at", "1")  # a '-' inside or after is only a character


def test_the_cli_refuses_a_long_name_in_one_line(agon, tmp_path):
    r = agon("new", "toy", "-p", "A" * 5000, "-p", "B", ok=False)
    assert r.exit_code == 1 and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "games.db").exists()  # nothing stored: not even the store AGON_DB names is made
    agon("new", "toy", "-p", "A", "-p", "B")
    r = agon("new", "toy", "-p", "A" * 5000, "-p", "B", ok=False)
    assert r.exit_code == 1 and len(r.stderr.strip().splitlines()) == 1
    assert len(json.loads(agon("games", "--json").stdout)) == 1  # in a store that is there, no game is added


def test_names_and_notes_that_look_like_the_study_pages_slots_stay_text(agon, tmp_path):
    """The study page is filled from a template with slots (@TITLE@, @PLOTLY@, @DATA@, @SCRIPT@): a player's name
    or a note that reads like one stays that text, and the page's data still parses."""
    import re

    gid = agon("new", "pergamemnon", "-p", "@SCRIPT@", "--bot", "@DATA@:random", "--seed", "3",
               "--title", "@TITLE@ @PLOTLY@").stdout.splitlines()[0]
    agon("note", gid, "1", "@PLOTLY@ and @SCRIPT@")
    out = tmp_path / "study.html"
    agon("view", gid, "-o", str(out))
    page = out.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="study-data">(.*?)</script>', page, re.S)
    assert found is not None
    data = json.loads(found.group(1))
    text = json.dumps(data)
    assert "@SCRIPT@" in text and "@DATA@" in text and "@PLOTLY@ and @SCRIPT@" in text
    assert page.count("<script") == 3  # plotly.js, the data and the page's own script: nothing pasted twice


def test_two_seats_whose_names_are_the_same_letters_written_two_ways_are_refused(agon, sqlite_svc):
    composed, decomposed = "Zo\u00eb", "Zoe\u0308"  # 'Zoë' both ways: they print alike
    with pytest.raises(ServiceError, match="two seats have the same name"):
        sqlite_svc.new_game(NewGame("toy", players=[composed, decomposed]))
    assert sqlite_svc.games() == []
    r = agon("new", "toy", "-p", composed, "-p", decomposed, ok=False)
    assert r.exit_code == 1 and r.stderr == "error: two seats have the same name; give every player a different name\n"
    gid = agon("new", "toy", "-p", composed, "-p", "Zoe", "--seed", "2").stdout.splitlines()[0]  # other names
    assert "Zoë" in agon("state", gid, "--as", composed).stdout


def test_as_finds_a_seat_however_the_letters_of_its_name_are_typed(agon, tmp_path):
    """Seats whose names differ only in Unicode form are refused as one name, so 'Zoë' typed either way names one
    seat: once, `--as` matched the code points as typed, and 'Zoe' + U+0308 found no player 'Zoë'."""
    composed, decomposed = "Zo\u00eb", "Zoe\u0308"
    gid = agon("new", "toy", "-p", composed, "-p", "Bob", "--seed", "2").stdout.splitlines()[0]
    assert f"#2    {composed} rolls." in agon("act", gid, "1", "--as", decomposed).stdout
    assert f"as {composed} sees it" in agon("state", gid, "--as", decomposed).stdout
    assert f"Shown: {composed}'s own record" in agon("log", gid, "--as", decomposed).stdout
    assert f"as {composed} sees it" in agon("replay", gid, "--as", decomposed).stdout
    agon("branch", gid, "aside")
    assert f"Told as {composed} may read it" in agon("compare", gid, "main", "aside", "--as", decomposed).stdout
    assert f"as {composed} sees it" in agon("view", gid, "--as", decomposed, "-o", str(tmp_path / "v.html")).stdout
    r = agon("state", gid, "--as", "Zoe", ok=False)  # other letters are another name still
    assert r.exit_code == 1 and r.stderr == f"error: no player 'Zoe' in this game; its players: {composed}, Bob\n"


def test_a_branch_is_found_however_the_letters_of_its_name_are_typed(agon):
    """'café' typed as one 'é' or as 'e' and an accent prints alike: either form finds the branch, and a second
    branch under the other form is refused as the same name (once both were made, and `agon switch` with the other
    form said there was no such branch)."""
    composed, decomposed = "caf\u00e9", "cafe\u0301"
    gid = agon("new", "toy", "-p", "Ana", "-p", "Bob", "--seed", "2").stdout.splitlines()[0]
    agon("branch", gid, decomposed)
    agon("switch", gid, "main")
    assert f"Now on branch {composed}" in agon("switch", gid, composed).stdout
    agon("switch", gid, "main")
    assert f"Now on branch {composed}" in agon("switch", gid, decomposed).stdout
    r = agon("branch", gid, composed, ok=False)
    assert r.exit_code == 1
    assert r.stderr == f"error: game {gid} already has a branch {composed!r}; choose another name\n"
    assert [b["name"] for b in json.loads(agon("branches", gid, "--json").stdout)] == ["main", composed]
    assert len(json.loads(agon("log", gid, "-b", decomposed, "--json").stdout)) == 2


def test_compare_refuses_one_branch_named_in_two_forms_as_the_same_branch_twice(agon):
    """Once, `agon compare G café café` (one 'é', then 'e' and an accent) compared the branch with itself: the names
    as typed differ, the branch found by both is one."""
    composed, decomposed = "caf\u00e9", "cafe\u0301"
    gid = agon("new", "toy", "-p", "Ana", "-p", "Bob", "--seed", "2").stdout.splitlines()[0]
    agon("branch", gid, composed)
    r = agon("compare", gid, composed, decomposed, ok=False)
    assert r.exit_code == 2
    assert r.stderr == (f"error: give two different branches to compare, not {composed} twice"
                        f" (`agon branches {gid}` lists them)\n")


def test_a_branch_stored_under_another_form_keeps_its_name_and_is_found_by_either(sqlite_svc):
    """A store written before names were kept in one form may hold 'e' and an accent: its name stays as stored."""
    composed, decomposed = "caf\u00e9", "cafe\u0301"
    gid = sqlite_svc.new_game(NewGame("toy", players=["Ana", "Bob"], seed=2))
    head = sqlite_svc.load(gid).head.id
    sqlite_svc.store.create_branch(gid, decomposed, head, 1, "main", switch=False)  # as an older agon stored it
    for typed in (composed, decomposed):
        assert sqlite_svc.load(gid, typed).branch.name == decomposed
        assert sqlite_svc.switch(gid, typed).branch.name == decomposed
        sqlite_svc.switch(gid, "main")
    with pytest.raises(ServiceError, match=f"already has a branch {decomposed!r}"):
        sqlite_svc.branch(gid, composed)
    with pytest.raises(ServiceError, match="has no branch 'cafe'"):
        sqlite_svc.load(gid, "cafe")


def test_as_finds_a_seat_typed_in_another_case_when_no_other_seat_is_so_named(agon):
    """A table switching who types writes 'dora' for Dora: `--as dora` was refused as no player; a name two seats
    share but for case still names neither."""
    gid = agon("new", "toy", "-p", "Dora", "-p", "Bob", "--seed", "2").stdout.splitlines()[0]
    assert "#2    Dora rolls." in agon("act", gid, "1", "--as", "dora").stdout
    assert "as Dora sees it" in agon("state", gid, "--as", "DORA").stdout
    gid = agon("new", "toy", "-p", "Ann", "-p", "ann", "--seed", "2").stdout.splitlines()[0]  # case alone differs
    r = agon("state", gid, "--as", "ANN", ok=False)  # either seat, so neither
    assert r.exit_code == 1 and r.stderr == "error: no player 'ANN' in this game; its players: Ann, ann\n"
    assert "as ann sees it" in agon("state", gid, "--as", "ann").stdout  # as written: that seat

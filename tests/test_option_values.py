"""Options given values that cannot work: one line saying what was wrong and what to type, never an internal error,
a library's own wording or a store that forgets what was recorded."""

from __future__ import annotations

import json

import pytest

from tests.test_cli import new_toy
from tests.test_cli_surface import one_line


@pytest.mark.parametrize(("args", "suffix"), [
    (("cards", "perikles", "-o", ""), ".toml"),
    (("plot", "scores", "GAME", "-o", ""), ".html"),
    (("plot", "scores", "GAME", "--png", "-o", ""), ".png"),
    (("view", "GAME", "-o", ""), ".html"),
    (("export", "GAME", "-o", ""), ".jsonl"),
])
def test_an_empty_output_file_is_refused_as_the_folder_it_names(agon, args, suffix):
    gid = new_toy(agon)
    args = tuple(gid if a == "GAME" else a for a in args)
    one_line(agon(*args, ok=False), 1, f". is a folder; give the file to write, e.g. out{suffix}")


def test_an_export_to_a_folder_with_a_dot_in_its_name_suggests_a_game_file_in_it(agon, tmp_path):
    # the folder's own "suffix" (mktemp's tmp.AbC123) is no kind of file to suggest
    gid = new_toy(agon)
    (tmp_path / "tmp.AbC123").mkdir()
    one_line(agon("export", gid, "-o", "tmp.AbC123", ok=False), 1,
             "error: tmp.AbC123 is a folder; give the file to write, e.g. tmp.AbC123/out.jsonl")


def test_a_file_name_without_its_suffix_is_suggested_with_it_added(agon):
    gid = new_toy(agon)
    one_line(agon("plot", "scores", gid, "-o", "v1.5", ok=False), 1, "name the file v1.5.html (or add --png")
    one_line(agon("view", gid, "-o", "notes.txt", ok=False), 1, "name the file notes.html")
    one_line(agon("cards", "perikles", "-o", "set.v2", ok=False), 1, "name the file set.v2.toml or set.v2.json")


def test_a_plot_a_ruleset_has_not_names_the_game_with_its_article(agon):
    gid = agon("new", "adamastor", "--player", "Ana", "--seed", "1").stdout.split()[0]
    one_line(agon("plot", "battles", gid, ok=False), 1, "error: an Adamastor game has no 'battles' plot")


# '\udcff': an argument's byte 0xff (a socket cannot encode it: an internal error), 'ü' * 64: an IDNA label too long
@pytest.mark.parametrize("host", ["", " 127.0.0.1", "\udcff", "ü" * 64])
def test_serve_on_no_address_is_a_usage_error(agon, host):
    said = one_line(agon("serve", "--host", host, ok=False), 2)
    assert said == (f"error: invalid value for '--host': {host!r} is no address; give one, e.g. 127.0.0.1 (this"
                    " machine only) or 0.0.0.0 (every network); see `agon serve --help`")


@pytest.mark.parametrize("args", [("log", "GAME"), ("export", "GAME"), ("plot", "scores", "GAME"),
                                  ("branch", "GAME", "whatif"), ("undo", "GAME")])
def test_an_empty_branch_name_is_a_usage_error_not_the_current_branch(agon, args):
    gid = new_toy(agon)
    args = tuple(gid if a == "GAME" else a for a in args)
    said = one_line(agon(*args, "-b", " ", ok=False), 2)
    assert said.startswith("error: invalid value for '--branch' / '-b': a branch name cannot be empty; leave -b out"
                           " for the game's current branch")
    assert "whatif" not in agon("branches", gid).stdout  # nothing was made


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:", "sqlite:///", "sqlite:///?mode=ro",
                                 "sqlite:///file::memory:?uri=true", "sqlite:///file:x?mode=memory&uri=true"])
def test_a_store_in_memory_is_refused_since_the_next_command_would_not_find_it(agon, url):
    one_line(agon("--db", url, "games", ok=False), 1, f"cannot use database {url}: it is a store in memory",
             "give a SQLite file's path")
    # nor is a game recorded there, said to be stored and gone as the command ends
    one_line(agon("--db", url, "new", "toy", "--player", "a", "--player", "b", ok=False), 1,
             f"cannot use database {url}: it is a store in memory")


def test_a_store_path_in_memory_by_its_options_is_refused_too(agon, tmp_path):
    one_line(agon("--db", "club.db?mode=memory", "new", "toy", "--player", "a", "--player", "b", ok=False), 1,
             "cannot use database club.db?mode=memory: it is a store in memory")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("db", "says"), [
    ("club.db?mode=bogus", "its mode 'bogus' is not one SQLite has"),
    ("sqlite:///club.db?mode=RO", "its mode 'RO' is not one SQLite has"),
    ("club.db?cache=weird", "its cache 'weird' is not one SQLite has"),
    ("club.db?mdoe=ro", "its option 'mdoe' is not one SQLite takes"),  # ignored, the store opened for writing
    ("sqlite:///club.db?mode=ro&bogus=1&x=2", "its options 'bogus', 'x' are not ones SQLite takes"),
    ("club.db?timeout=abc", "its timeout 'abc' is not a number of seconds"),
    ("club.db?vfs=nope", "no such vfs: nope"),  # SQLite's own words, as it opens the file
])
@pytest.mark.parametrize("args", [("games",), ("new", "toy", "--player", "a", "--player", "b")])
def test_a_sqlite_url_with_an_option_sqlite_refuses_is_told_to_correct_the_url_not_to_retry(agon, tmp_path, db, says,
                                                                                             args):
    """A permanent slip in the URL: retrying cannot help, so the line says what is wrong with it and which options
    SQLite takes, before a reading command would say there is no store there yet; nothing is made."""
    if "vfs" in db and args == ("games",):  # a store there: the file is opened, and SQLite refuses the option
        agon("--db", "club.db", "new", "toy", "--player", "a", "--player", "b")
    before = sorted(p.name for p in tmp_path.iterdir())
    said = one_line(agon("--db", db, *args, ok=False), 1, says, "correct the URL: SQLite takes mode=ro")
    assert "retry" not in said and "no store" not in said
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_sqlite_url_with_options_sqlite_takes_still_opens(agon, tmp_path):
    gid = new_toy(agon)
    for db in ("games.db?mode=rw&cache=private&timeout=2.5", "sqlite:///games.db?psow=1&nolock=0"):
        assert gid in agon("--db", db, "games").stdout


@pytest.mark.postgres
@pytest.mark.parametrize(("option", "says"), [
    ("sslmode=bogus", 'invalid sslmode value: "bogus"'),
    ("bogus=1", 'invalid connection option "bogus"'),
    ("options=-cbogus%3D1", 'unrecognized configuration parameter "bogus"'),
])
def test_a_postgresql_url_with_an_option_refused_is_told_to_correct_the_url(agon, pg_base, option, says):
    db = f"{pg_base}{'&' if '?' in pg_base else '?'}{option}"
    said = one_line(agon("--db", db, "games", ok=False), 1, says, "correct the URL: the options after '?' are libpq's")
    assert "retry" not in said


def test_a_key_that_is_not_one_is_named_in_a_few_words(agon, tmp_path):
    gid = new_toy(agon)
    (tmp_path / "junk.key").write_text("not a key\n")
    said = one_line(agon("export", gid, "--sign", "junk.key", "-o", "g.jsonl", ok=False), 1)
    assert said == ("error: junk.key is not a private key agon can sign with (Unable to load PEM file); `agon keygen"
                    " FILE` writes one")
    agon("export", gid, "-o", "g.jsonl")
    said = one_line(agon("import", "g.jsonl", "--trust", "junk.key", ok=False), 1)
    assert said == ("error: junk.key is not a public key (neither PEM nor hex digits); give the .pub file `agon"
                    " keygen` wrote")


def test_an_event_given_as_json_that_does_not_fit_says_why_in_words(agon):
    gid = agon("new", "pergamemnon", "--player", "a", "--player", "b", "--seed", "3").stdout.split()[0]
    who = json.loads(agon("options", gid, "--json").stdout)["pending"]["player"]

    def said(event: str) -> str:
        return one_line(agon("act", gid, event, "--as", who, ok=False), 1, "error: not an event of pergamemnon: ",
                        "; `agon schema pergamemnon` shows the event types")

    assert "write it as 'pergamemnon.attacked';" in said('{"type": "attacked"}')
    assert "write it as 'pergamemnon.creature_recruited';" in said('{"type": "creature-recruited"}')
    assert ": it has no event type 'zz'; `agon schema" in said('{"type": "zz"}')
    assert "did you mean 'pergamemnon.yielded'?" in said('{"type": "pergamemnon.battle_yielded"}')
    assert ": it has no 'type';" in said('{"player": "a"}')
    assert ": 'player' must be text, not a whole number;" in said('{"type": "pergamemnon.attacked", "player": 5}')
    assert ": field 'defender' is missing;" in said(f'{{"type": "pergamemnon.attacked", "player": "{who}"}}')


def test_an_empty_key_file_or_choice_is_named_as_such(agon):
    one_line(agon("keygen", "", ok=False), 1, "error: . is a folder; give the file to write, e.g. out.key")
    gid = new_toy(agon)
    for blank in (" ", ",,,", " , "):  # separators alone choose nothing (',,,' recorded the one legal decision)
        said = one_line(agon("act", gid, blank, ok=False), 1)
        assert said.startswith("error: no choice given: ann must decide (") and said.endswith(
            f"; give a choice number from `agon options {gid}`, or the event as JSON")


def test_help_shows_no_type_for_a_flag_and_wraps_each_paragraph_as_one(agon):
    out = agon("games", "--help").stdout
    flags = [line for line in out.splitlines() if "--json" in line or "--help" in line]
    assert flags and not any("<bool>" in line for line in flags), flags
    assert any("<int>" in line for line in out.splitlines() if "--limit" in line)  # a value's type is still shown
    words = out.split()
    # the docstring's line break after 'first,' no longer ends the help's line there
    assert "recomputed first, with a progress bar." in " ".join(words)
    assert not any(line.rstrip().endswith("recomputed first,") for line in out.splitlines())

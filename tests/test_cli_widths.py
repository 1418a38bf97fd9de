"""The command line at real terminal widths: 80 columns, and about 45 over ssh from a phone.

Rich reads the width from COLUMNS, as in a terminal. Every line fits, except a word or a command to copy that is
longer than a line by itself: such a command is never cut, it stands whole at the start of its own line. Folding
moves words to the next line and never drops any: the text read with its spaces joined is what a wide terminal
shows. Output piped without COLUMNS keeps each line whole, for scripts."""

from __future__ import annotations

import json
import re

import pytest

WIDTHS = (45, 80)


@pytest.fixture
def at(agon, monkeypatch):
    """``at(width, *args)``: the agon command line run in a terminal ``width`` columns wide."""

    def run(width: int, *args: str, ok: bool = True):
        monkeypatch.setenv("COLUMNS", str(width))
        return agon(*args, ok=ok)

    return run


def fits(text: str, width: int) -> None:
    """Every line of ``text`` fits ``width``, unless it holds one word alone after its indent, or begins with a
    command to copy (a command longer than the line: moved to a line of its own, whole); no colour codes."""
    assert "\x1b" not in text
    for line in text.splitlines():
        if len(line) <= width:
            continue
        words = line.strip().lstrip("│├└─ ")  # a tree's branches are its indent
        assert " " not in words or re.match(r"\(?`?agon ", words), f"{len(line)} > {width} columns: {line!r}"


def whole(text: str, command: str) -> None:
    """``command`` is on one line of ``text``, whole."""
    assert any(command in line for line in text.splitlines()), f"{command!r} is cut in:\n{text}"


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def game(agon) -> str:
    """A whole Pergamemnon game by bots: long sentences, long statuses."""
    return json.loads(agon("demo", "--json").stdout)["id"]


@pytest.mark.parametrize("width", WIDTHS)
def test_demo_games_and_the_log_fit_and_say_the_same_as_wide(at, game, width):
    wide = at(250, "games").stdout
    out = at(width, "games").stdout
    fits(out, width)
    assert "…" not in out  # nothing cut short, the id least of all
    row = json.loads(at(width, "games", "--json").stdout)[0]
    assert re.search(rf"^{game}\b", out, re.M)  # the id begins a line, to copy
    for part in (row["status"], row["ruleset"], "Ana 29, Bruno 6, Chloe 21"):
        assert flat(part) in flat(out) and flat(part) in flat(wide)
    log = at(width, "log", game).stdout
    fits(log, width)
    assert flat(log) == flat(at(250, "log", game).stdout)  # the same words, folded
    assert re.search(r"^ +12\. ", log, re.M)  # event numbers still begin their lines


@pytest.mark.parametrize("width", WIDTHS)
def test_hints_stay_whole_on_one_line(at, agon, tmp_path, width):
    db = str(tmp_path / "club.db")
    out = at(width, "--db", db, "demo").stdout
    fits(out, width)
    gid = re.search(r"game ([0-9a-f]{8})", out).group(1)
    whole(out, f"agon --db {db} branch {gid} whatif --at 10")
    out = at(width, "--db", db, "undo", gid).stdout
    fits(out, width)
    whole(out, f"agon --db {db} redo {gid}")
    gid = json.loads(agon("--db", db, "new", "pergamemnon", "--player", "Ana Maria de Souza", "--bot", "B:greedy",
                          "--json").stdout)["id"]
    out = at(width, "--db", db, "options", gid).stdout
    fits(out, width)
    position = json.loads(agon("--db", db, "options", gid, "--json").stdout)["position"]
    whole(out, f"agon --db {db} act {gid} N --expect {position}")
    out = at(width, "--db", db, "notes", gid).stdout
    fits(out, width)
    whole(out, f'agon --db {db} note {gid} N "text"')
    out = at(width, "cards", "peloponnes").stdout
    whole(out, "agon cards peloponnes -o cards.toml")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_command_with_a_quoted_db_stays_whole_in_a_folded_error(at, agon, tmp_path, width):
    """A --db that needs quotes (a space, '?', '&') is part of the command between backticks: folded as one."""
    db = f"sqlite:///{tmp_path}/my club.db?mode=rwc&cache=private"
    gid = agon("--db", db, "new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.split()[0]
    err = at(width, "--db", db, "act", gid, "99", ok=False).stderr
    fits(err, width)
    whole(err, f"`agon --db '{db}' options {gid}`")


@pytest.mark.parametrize("width", WIDTHS)
def test_errors_fold_with_their_hints_whole(at, width):
    err = at(width, "log", "0123abcd", ok=False).stderr  # no store yet
    fits(err, width)
    whole(err, "`agon new RULESET --player NAME...`")
    whole(err, "`agon demo`")
    at(width, "new", "toy", "--player", "ann", "--bot", "bob:random")
    err = at(width, "log", "0123abcd", ok=False).stderr
    fits(err, width)
    whole(err, "`agon games`")
    err = at(width, "games", "--limit", "0", ok=False).stderr
    fits(err, width)
    whole(err, "`agon games --help`")
    assert flat(err) == ("error: invalid value for '--limit': 0 is out of range (it takes 1 to 2147483647); see"
                         " `agon games --help`")
    err = at(width, "games", "--db", "x.db", ok=False).stderr
    whole(err, "agon --db FILE games ...")


@pytest.mark.parametrize("width", WIDTHS)
def test_tables_keep_every_word_whole(at, game, width):
    out = at(width, "rulesets").stdout
    fits(out, width)
    assert "…" not in out
    for word in ("pergamemnon", "provisional", "difficulty,", "less_luck"):
        assert word in out
    out = at(width, "state", game, "--at", "8", "--as", "Ana").stdout  # Ana's hand: a table of many columns
    fits(out, width)
    assert flat(out) .count("greece.") == flat(at(250, "state", game, "--at", "8", "--as", "Ana").stdout).count(
        "greece.")
    out = at(width, "stats", "pergamemnon").stdout
    fits(out, width)
    assert "…" not in out and "0%–79%" in out  # one finished game: a win rate's interval, whole


@pytest.mark.parametrize("width", WIDTHS)
def test_the_tree_and_a_comparison_fit(at, agon, game, width):
    agon("branch", game, "a-rather-long-branch-name-for-a-what-if-line", "--at", "20")
    agon("act", game, "2")  # another decision than main's: the lines part at #21
    out = at(width, "branches", game).stdout
    fits(out, width)
    assert "…" not in out and "a-rather-long-branch-name-for-a-what-if-line" in out
    out = at(width, "compare", game, "main", "a-rather-long-branch-name-for-a-what-if-line").stdout
    fits(out, width)
    assert "…" not in out and "#21" in out


def test_piped_output_keeps_each_line_whole(agon, game):
    """Without COLUMNS (the agon fixture unsets it) output that is no terminal is not folded: a script reads a
    line of the log, or an error, whole."""
    log = agon("log", game).stdout
    assert max(len(line) for line in log.splitlines()) > 120
    rows = json.loads(agon("log", game, "--json").stdout)
    assert f"{rows[-1]['n']:>5}. {rows[-1]['text']}" in log.splitlines()


@pytest.mark.parametrize("width", (45, 200))
def test_games_shows_a_game_s_title_wide_and_narrow(at, agon, width):
    """A game made with --title is listed with it (the title was only in --json); a store without titles keeps its
    columns as they were."""
    agon("new", "peloponnes", "--player", "Ana", "--player", "Bo")
    assert "title" not in at(200, "games").stdout
    gid = json.loads(agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--title", "Friday night",
                          "--json").stdout)["id"]
    out = at(width, "games").stdout
    fits(out, width)
    assert "Friday night" in flat(out)
    assert re.search(rf"^(│ )?{gid}\b", out, re.M)  # a row of the table, or a line of its own

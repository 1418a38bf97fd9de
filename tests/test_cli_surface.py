"""The command line's surface, driven as a person would: numbers out of range, usage errors, files written whole or
not at all, ranges of events, the hints it prints, a busy port, a reader that stops reading. Every error is one line
on stderr that says what was wrong and what to do, with exit status 2 for a usage error and 1 otherwise."""

from __future__ import annotations

import errno
import json
import os
import re
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli import new_toy

ROOT = Path(__file__).resolve().parent.parent
HUGE = "99999999999999999999"


def one_line(r, code: int, *says: str) -> str:
    """The error a person saw: one line on stderr, nothing on stdout, exit status ``code``, saying ``says``."""
    assert r.exit_code == code, (r.exit_code, r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    assert r.stdout == "" and "Traceback" not in r.stderr and "internal error" not in r.stderr
    for text in says:
        assert text in lines[0], lines[0]
    return lines[0]


# -- numbers have bounds ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "option", "takes"), [
    (("games", "--limit", HUGE), "--limit", "1 to 2147483647"),
    (("games", "--limit", "0"), "--limit", "1 to 2147483647"),
    (("games", "--limit", "-1"), "--limit", "1 to 2147483647"),
    (("stats", "toy", "--limit", HUGE), "--limit", "1 to 2147483647"),
    (("stats", "toy", "--limit", "0"), "--limit", "1 to 2147483647"),
    (("stats", "toy", "--limit", "-1"), "--limit", "1 to 2147483647"),
    (("plot", "stats", "toy", "--limit", HUGE), "--limit", "1 to 2147483647"),
    (("analyse", "g", "--seed", HUGE), "--seed", "0 to 2147483647"),
    (("plot", "chances", "g", "--seed", HUGE), "--seed", "0 to 2147483647"),
    (("analyse", "g", "--rollouts", HUGE), "--rollouts", "1 to 1000000"),
    (("analyse", "g", "--rollouts", "0"), "--rollouts", "1 to 1000000"),
    (("analyse", "g", "--alternatives", "1"), "--alternatives", "2 to 10000"),
    (("new", "toy", "--player", "a", "--seed", HUGE), "--seed", "0 to 2147483647"),
    (("demo", "toy", "--games", HUGE), "--games", "1 to 100000"),
    (("demo", "toy", "--players", "0"), "--players", "1 to 99"),
    (("state", "g", "--at", "-1"), "--at", "0 to 2147483647"),
    (("replay", "g", "--from", HUGE), "--from", "0 to 2147483647"),
    (("undo", "g", "--steps", "0"), "--steps", "1 to 2147483647"),
    (("branch", "g", "b", "--at", HUGE), "--at", "0 to 2147483647"),
    (("note", "g", HUGE, "hi"), "n", "0 to 2147483647"),
    (("plot", "scores", "g", "--top", "-1"), "--top", "0 to 1000"),
    (("serve", "--port", "0"), "--port", "1 to 65535"),
    (("serve", "--port", "65536"), "--port", "1 to 65535"),
    (("serve", "--max-body", "-1"), "--max-body", "1 to 1073741824"),
    (("serve", "--workers", "0"), "--workers", "1 to"),
])
def test_a_number_out_of_range_is_a_usage_error_naming_the_range(agon, args, option, takes):
    command = " ".join(args[:2] if args[0] == "plot" else args[:1])
    r = agon(*args, ok=False)
    one_line(r, 2, f"invalid value for '{option}'", "out of range", f"it takes {takes}",
             f"; see `agon {command} --help`")
    if args[0] != "serve":  # the one command without --json
        error = json.loads(agon(*args, "--json", ok=False).stderr)
        assert "out of range" in error["error"] and takes in error["error"]


def test_a_word_where_a_number_belongs_says_so(agon):
    line = one_line(agon("state", "g", "--at", "x", ok=False), 2)
    assert line == ("error: invalid value for '--at': 'x' is not a whole number (it takes 0 to 2147483647); see"
                    " `agon state --help`")
    one_line(agon("note", "g", "x", "hi", ok=False), 2, "'x' is not a whole number", "see `agon note --help`")


@pytest.mark.parametrize(("value", "problem"), [("x", "'x' is not a number"), ("1.5", "1.5 is out of range"),
                                              ("0", "0 is out of range"), ("100%", "100% is out of range")])
def test_a_threshold_is_a_share_between_0_and_1_as_a_decimal_or_a_percentage(agon, value, problem):
    line = one_line(agon("analyse", "g", "--threshold", value, ok=False), 2)
    assert line == (f"error: invalid value for '--threshold': {problem} (it takes a share of win chance between 0 and"
                    " 1, e.g. 0.1 or 10%); see `agon analyse --help`")


def test_a_threshold_given_as_a_percentage_marks_as_the_same_decimal_does(agon):
    gid = new_toy(agon)
    runs = [json.loads(agon("analyse", gid, "--rollouts", "8", "--workers", "1", "--threshold", t, "--fresh",
                            "--json").stdout) for t in ("25%", "0.25")]
    for run in runs:
        del run["seconds"]
    assert runs[0] == runs[1] and runs[0]["threshold"] == 0.25


@pytest.mark.parametrize(("given", "shown"), [("12.5%", "12.5%"), ("0.001", "0.1%"), ("1e-1", "10%")])
def test_analyse_names_the_threshold_as_given(agon, given, shown):
    gid = new_toy(agon)
    out = agon("analyse", gid, "--rollouts", "4", "--workers", "1", "--threshold", given, "--fresh").stdout
    assert f"lost more than {shown} of the win chance" in out


@pytest.mark.parametrize("workers", ["99999", "65", "0", "-1"])
def test_analyse_refuses_workers_it_cannot_use_before_starting_any(agon, monkeypatch, workers):
    from agon.core import analyse

    def no_pool(*a, **k):
        raise AssertionError("a worker process was started")

    monkeypatch.setattr(analyse, "_process_pool", no_pool)
    gid = new_toy(agon)
    r = agon("analyse", gid, "--workers", workers, "--fresh", ok=False)
    one_line(r, 2, "invalid value for '--workers'", "out of range (it takes 1 to ")
    assert "4 per core, and this machine has" in r.stderr or "only compete for the cores" in r.stderr


def test_games_and_stats_read_a_limit_alike(agon):
    gid = new_toy(agon)
    assert [g["id"] for g in json.loads(agon("games", "--limit", "1", "--json").stdout)] == [gid]
    for args in (("games",), ("stats", "toy")):
        one_line(agon(*args, "--limit", "0", ok=False), 2, "0 is out of range (it takes 1 to")


# -- usage errors are one line ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "says"), [
    (("state",), "error: missing argument GAME: the game id (any unique prefix of it); `agon games` lists the games;"
                 " see `agon state --help`"),
    (("games", "--bogus"), "error: no such option: --bogus; see `agon games --help`"),
    (("gams",), "error: no such command 'gams'; did you mean 'games'?; see `agon --help`"),
    (("note", "g", "-1", "hi"), "error: no such option: -1; to give -1 as a value, not an option, put -- before it;"
                                " see `agon note --help`"),
])
def test_a_usage_error_is_one_line_with_the_help_to_read(agon, args, says):
    r = agon(*args, ok=False)
    assert one_line(r, 2) == says
    assert "╭" not in r.stderr and "Usage:" not in r.stderr


def test_a_missing_ruleset_is_told_with_the_rulesets_to_give_those_with_stored_games_first(agon, tmp_path):
    """'agon stats' alone said only "missing argument 'ruleset'": the line now lists the rulesets, and for the
    commands that read stored games, those with games in the store first. No store is made to list them."""
    from agon.core import registry

    every = ", ".join(registry.names())
    for args in (("stats",), ("plot", "stats"), ("new",)):  # no store yet
        said = one_line(agon(*args, ok=False), 2)
        assert said == f"error: missing argument 'ruleset': give one of {every}; see `agon {' '.join(args)} --help`"
    assert not (tmp_path / "games.db").exists()
    agon("demo", "perikles", "--games", "1")
    rest = ", ".join(r for r in registry.names() if r != "perikles")
    for args in (("stats",), ("plot", "stats")):
        assert one_line(agon(*args, ok=False), 2) == (f"error: missing argument 'ruleset': give one of perikles (games"
                                                      f" stored) or {rest} (none stored yet); see `agon"
                                                      f" {' '.join(args)} --help`")
    said = one_line(agon("new", ok=False), 2)  # a command that starts a game: the rulesets in their usual order
    assert said == f"error: missing argument 'ruleset': give one of {every}; see `agon new --help`"


def test_a_negative_number_after_dashes_is_read_and_refused_by_its_range(agon):
    gid = new_toy(agon)
    one_line(agon("note", gid, "--", "-1", "hi", ok=False), 2, "-1 is out of range (it takes 0 to")


def test_agon_alone_still_prints_its_help(agon):
    r = agon(ok=False)
    assert r.exit_code == 2 and "Usage: agon" in r.stdout and r.stderr == ""


# -- no stray empty line on stderr ------------------------------------------------------------------------------


def test_commands_with_a_progress_bar_leave_stderr_empty_when_they_succeed(agon):
    gid = new_toy(agon)
    agon("act", gid, "2")
    for args in (("games",), ("verify",), ("rebuild",), ("analyse", gid, "--rollouts", "4", "--workers", "1"),
                 ("plot", "chances", gid, "--rollouts", "4", "--workers", "1")):
        r = agon(*args)
        assert r.stderr == "", (args, r.stderr)
    agon("demo", "adamastor", "--games", "2")
    assert agon("stats", "adamastor").stderr == ""


def test_an_error_after_a_progress_bar_is_one_line(agon):
    agon("demo", "adamastor")
    one_line(agon("stats", "perikles", ok=False), 1, "no stored perikles games")


# -- files are written whole or not at all ----------------------------------------------------------------------


def _no_space(*a, **k):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_an_export_cut_off_by_a_full_disk_leaves_the_old_file_as_it_was(agon, tmp_path, monkeypatch):
    gid = new_toy(agon)
    out = tmp_path / "out" / "game.jsonl"
    out.parent.mkdir()
    out.write_text("the old export\n")
    real = Path.write_bytes

    def half_then_full(self, data):  # the disk fills up half way through
        real(self, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    with monkeypatch.context() as m:
        m.setattr(Path, "write_bytes", half_then_full)
        line = one_line(agon("export", gid, "-o", str(out), ok=False), 1, "No space left on device")
    assert line == (f"error: No space left on device: {out}; free some space there, or give a path on another"
                    " disk")  # the file asked for, not the temporary one
    assert out.read_text() == "the old export\n"
    assert sorted(p.name for p in out.parent.iterdir()) == ["game.jsonl"]  # no temporary file left behind
    agon("export", gid, "-o", str(out))
    assert out.read_text().startswith('{"') and sorted(p.name for p in out.parent.iterdir()) == ["game.jsonl"]


@pytest.mark.parametrize("kind", ["export", "view", "plot", "cards"])
def test_a_file_that_cannot_be_finished_is_not_left_behind(agon, tmp_path, monkeypatch, kind):
    gid = new_toy(agon)
    folder = tmp_path / "out"
    name = {"export": "g.jsonl", "view": "v.html", "plot": "p.html", "cards": "c.toml"}[kind]
    args = {"export": ("export", gid), "view": ("view", gid), "plot": ("plot", "scores", gid),
            "cards": ("cards", "adamastor")}[kind]
    with monkeypatch.context() as m:
        m.setattr(os, "fsync", _no_space)  # the last step before the rename fails
        one_line(agon(*args, "-o", str(folder / name), ok=False), 1, "No space left on device")
        assert list(folder.iterdir()) == []  # neither the file nor a 0-byte or temporary one
        (folder / name).write_text("old")
        agon(*args, "-o", str(folder / name), ok=False)
        assert (folder / name).read_text() == "old" and [p.name for p in folder.iterdir()] == [name]
    agon(*args, "-o", str(folder / name))
    assert (folder / name).read_text() != "old" and [p.name for p in folder.iterdir()] == [name]


def test_a_new_file_gets_the_usual_permissions(agon, tmp_path):
    gid = new_toy(agon)
    mask = os.umask(0o022)
    try:
        agon("export", gid, "-o", "g.jsonl")
    finally:
        os.umask(mask)
    assert (tmp_path / "g.jsonl").stat().st_mode & 0o777 == 0o644


def test_an_output_that_is_a_link_is_written_through(agon, tmp_path):
    gid = new_toy(agon)
    (tmp_path / "real.jsonl").write_text("old")
    (tmp_path / "link.jsonl").symlink_to("real.jsonl")
    agon("export", gid, "-o", "link.jsonl")
    assert (tmp_path / "link.jsonl").is_symlink() and (tmp_path / "real.jsonl").read_text().startswith('{"')


def test_an_output_that_is_a_folder_is_refused(agon, tmp_path):
    gid = new_toy(agon)
    (tmp_path / "here").mkdir()
    one_line(agon("export", gid, "-o", "here", ok=False), 1, "here is a folder; give the file to write")


# -- keys are never overwritten ---------------------------------------------------------------------------------


def test_keygen_refuses_when_the_public_key_file_exists(agon, tmp_path):
    (tmp_path / "bob.pub").write_text("someone's key")
    one_line(agon("keygen", "bob", ok=False), 1, "bob.pub exists", "never overwritten")
    assert (tmp_path / "bob.pub").read_text() == "someone's key" and not (tmp_path / "bob").exists()
    agon("keygen", "ana")
    one_line(agon("keygen", "ana", ok=False), 1, "ana exists")


# -- ranges of events -------------------------------------------------------------------------------------------


def test_replay_refuses_a_range_the_line_does_not_have(agon):
    gid = new_toy(agon)
    last = json.loads(agon("state", gid, "--json").stdout)["event"]
    error = json.loads(agon("replay", gid, "--from", "500", "--json", ok=False).stderr)["error"]
    assert error == f"--from 500 is outside this line, which has events 0 to {last}"
    one_line(agon("replay", gid, "--to", "500", ok=False), 1, f"--to 500 is outside this line, which has events 0"
                                                             f" to {last}")
    one_line(agon("replay", gid, "--from", "1", "--to", "0", ok=False), 1, "--from 1 is after --to 0",
             f"events 0 to {last}")
    assert [s["n"] for s in json.loads(agon("replay", gid, "--from", "1", "--to", "1", "--json").stdout)] == [1]


def test_undo_refuses_to_and_steps_together_and_says_when_there_is_nothing_to_undo(agon):
    gid = new_toy(agon)
    agon("act", gid, "2")
    before = agon("export", gid).stdout
    one_line(agon("undo", gid, "--to", "0", "--steps", "2", ok=False), 2, "either --to N", "or --steps N",
             "not both")
    assert agon("export", gid).stdout == before
    agon("undo", gid, "--to", "0")
    one_line(agon("undo", gid, "--to", "0", ok=False), 1, "nothing to undo", "at event #0")


# -- files to read ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [("import", "."), ("new", "toy", "--player", "a", "--bot", "b:random", "--cards", "."),
                                  ("import", "x.jsonl", "--trust", ".")])
def test_a_folder_given_for_a_file_is_called_a_folder(agon, tmp_path, args):
    (tmp_path / "x.jsonl").write_text("")
    one_line(agon(*args, ok=False), 1, ". is a folder, not a file")


# -- suffixes say what a file holds -----------------------------------------------------------------------------


def test_a_plot_is_refused_a_suffix_that_does_not_match_its_format(agon, tmp_path):
    gid = new_toy(agon)
    agon("act", gid, "2")
    for args in (("plot", "scores", gid), ("view", gid)):
        one_line(agon(*args, "-o", "s.png", ok=False), 1, "names a PNG image", "s.html")
        one_line(agon(*args, "-o", "s.txt", ok=False), 1, "this writes an HTML page", "s.html")
    one_line(agon("plot", "stats", "toy", "-o", "s.png", ok=False), 1, "names a PNG image", "add --png")
    assert not (tmp_path / "s.png").exists() and not (tmp_path / "s.txt").exists()
    assert "Wrote" in agon("plot", "scores", gid, "-o", "s.htm").stdout


def test_cards_writes_toml_or_json_into_new_folders_and_nothing_else(agon, tmp_path):
    one_line(agon("cards", "toy", "-o", "x.yaml", ok=False), 1, "written as TOML (.toml) or JSON (.json)", "x.toml")
    assert not (tmp_path / "x.yaml").exists()
    assert "Wrote" in agon("cards", "adamastor", "-o", "newdir/deeper/c.toml").stdout
    assert (tmp_path / "newdir/deeper/c.toml").read_text()


# -- hints name the store they were printed for -----------------------------------------------------------------


def test_a_command_inside_a_sentence_stands_between_backticks(agon, tmp_path):
    """Where a sentence goes on after the command it names (the options' 'Choose:', a table's chance, the key pair,
    the way back from a branch), the command stands between backticks and splits in a shell as printed."""
    db = str(tmp_path / "club games.db")

    def named(out: str, start: str) -> list[str]:
        said = next(ln for ln in out.splitlines() if ln.startswith(start))
        found = re.findall(r"`(agon [^`]*)`", said)
        assert found and all(shlex.split(c)[:3] == ["agon", "--db", db] for c in found), said  # as a shell reads it
        return found

    gid = agon("--db", db, "new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.split()[0]
    assert named(agon("--db", db, "options", gid).stdout, "Choose:")[1] == f"agon --db {shlex.quote(db)} schema toy"
    table = agon("--db", db, "new", "toy", "--player", "ann", "--bot", "bob:random", "--table").stdout.split()[0]
    assert named(agon("--db", db, "options", table).stdout, "Enter") == [
        f"agon --db {shlex.quote(db)} act {table} '...'"]
    assert named(agon("--db", db, "branch", gid, "aside").stdout, "Play on with:") == [
        f"agon --db {shlex.quote(db)} options {gid}", f"agon --db {shlex.quote(db)} switch {gid} main"]
    assert len(named(agon("--db", db, "keygen", str(tmp_path / "my key")).stdout, "Sign with:")) == 2


def test_hints_carry_the_db_given_on_the_command_line(agon, tmp_path):
    db = str(tmp_path / "club games.db")
    quoted = f"'{db}'"
    out = agon("--db", db, "new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout
    gid = out.splitlines()[0]
    assert f"Next: agon --db {quoted} options {gid}" in out
    assert f"Choose: `agon --db {quoted} act {gid} N --expect" in agon("--db", db, "options", gid).stdout
    agon("--db", db, "act", gid, "2")
    assert f"Bring them back with: agon --db {quoted} redo {gid}" in agon("--db", db, "undo", gid).stdout
    out = agon("--db", db, "demo", "adamastor").stdout
    assert f"agon --db {quoted} log " in out and f"agon --db {quoted} view " in out
    # chosen by AGON_DB (as the agon fixture does) or by default: the same command finds the store anyway
    # (a seed whose game waits for ann: without one, about one game in 150 was over as made, pointing to its log)
    out = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout
    assert f"Next: agon options {out.splitlines()[0]}" in out


# -- serve ------------------------------------------------------------------------------------------------------


def test_serve_says_in_one_line_that_it_cannot_listen(agon):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        one_line(agon("serve", "--port", str(port), ok=False), 1, f"cannot listen on 127.0.0.1:{port}",
                 "the port is in use", "choose another --port")
    one_line(agon("serve", "--host", "nonexistent.invalid", ok=False), 1, "cannot listen on --host"
             " nonexistent.invalid: no such address")


# -- a reader that stops reading --------------------------------------------------------------------------------


def test_a_closed_output_ends_the_command_quietly(agon, tmp_path):
    gid = json.loads(agon("demo", "adamastor", "--json").stdout)["id"]
    for args in (("log", gid), ("log", gid, "--json")):  # the store: AGON_DB, as the agon fixture set it
        proc = subprocess.Popen([sys.executable, "-m", "agon", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=ROOT)
        proc.stdout.close()  # as 'agon log GAME | head -1' once head has its line: every write fails
        stderr = proc.stderr.read()
        assert proc.wait(timeout=60) == 1
        assert stderr == b""


# -- what a command's help promises is what it does --------------------------------------------------------------


def _option_help(command: tuple[str, ...], option: str) -> str:
    import typer.main

    from agon.cli.app import app

    cmd = typer.main.get_command(app)
    for name in command:
        cmd = cmd.commands[name]
    return next(p.help for p in cmd.params if option in p.opts)


def test_view_refuses_a_wrong_suffix_without_offering_a_png_it_cannot_write(agon, tmp_path):
    gid = new_toy(agon)
    said = one_line(agon("view", gid, "-o", "s.txt", ok=False), 1, "this writes an HTML page", "s.html")
    assert "--png" not in said  # 'agon view' has no --png: the hint must not send the user to it
    said = one_line(agon("view", gid, "-o", "s.png", ok=False), 1, "writes only an HTML page", "s.html")
    assert "--png" not in said
    assert not (tmp_path / "s.txt").exists() and not (tmp_path / "s.png").exists()


def test_view_without_a_branch_shows_every_line_as_its_help_says(agon):
    gid = new_toy(agon)
    agon("act", gid, "2")
    agon("branch", gid, "whatif", "--at", "1")
    assert "every line of the game" in _option_help(("view",), "--branch")
    said = agon("view", gid).stdout
    assert "of 2 lines" in said and "main:" in said and "whatif:" in said


def test_plot_stats_writes_where_its_help_says(agon, tmp_path):
    agon("demo", "toy", "--games", "2")
    assert "plots/<ruleset>-stats.html" in _option_help(("plot", "stats"), "--output")
    assert "plots/toy-stats.html" in agon("plot", "stats", "toy").stdout
    assert (tmp_path / "plots" / "toy-stats.html").is_file()


def test_demo_plays_the_player_count_its_help_names(agon):
    assert "e.g. 2 for adamastor" in _option_help(("demo",), "--players")
    out = json.loads(agon("demo", "adamastor", "--json").stdout)
    assert len(out["scores"]) == 2


def test_db_given_after_the_command_says_where_it_goes(agon):
    said = one_line(agon("games", "--db", "club.db", ok=False), 2)
    assert said == "error: --db goes before the command: `agon --db FILE games ...` (or set AGON_DB); see `agon --help`"
    one_line(agon("plot", "scores", "g", "--db=club.db", ok=False), 2, "agon --db FILE plot scores ...")


def test_an_option_of_a_command_given_before_it_says_where_it_goes(agon):
    said = one_line(agon("--json", "games", ok=False), 2)
    assert json.loads(said) == {"error": "--json is an option of `agon games`: put it after the command (`agon games"
                                         " --json ...`); see `agon games --help`"}
    one_line(agon("--as", "Ana", "log", "g", ok=False), 2, "--as is an option of `agon log`: put it after the command")
    said = one_line(agon("--nope", "games", ok=False), 2)  # no command has it: said as before
    assert said == "error: no such option: --nope; see `agon --help`"


# -- the store a person names -----------------------------------------------------------------------------------


def test_a_folder_given_as_the_store_is_called_a_folder(agon, tmp_path):
    (tmp_path / "club").mkdir()
    said = one_line(agon("--db", "club", "games", ok=False), 1, "is a folder")
    assert f"--db {tmp_path / 'club' / 'agon.db'}" in said


def test_an_empty_db_is_refused_rather_than_read_as_the_default_store(agon):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = str(s.getsockname()[1])
    for args in (("--db", "", "games"), ("--db", "", "where"), ("serve", "--db", "", "--port", free)):
        one_line(agon(*args, ok=False), 1, "--db is empty")


def test_a_database_agon_cannot_store_in_is_named_in_words(agon):
    for args in (("--db", "mysql://u@h/club", "games"), ("--db", "mysql+pymysql://u@h/club", "where")):
        one_line(agon(*args, ok=False), 1, "agon stores games in SQLite", "PostgreSQL", "not in mysql")


def test_a_postgresql_url_for_another_driver_names_the_one_agon_uses(agon):
    said = one_line(agon("--db", "postgresql+psycopg2://u@127.0.0.1/club", "games", ok=False), 1)
    assert said == ("error: cannot use database postgresql+psycopg2://u@127.0.0.1/club: agon reaches PostgreSQL"
                    " through psycopg (version 3), not psycopg2; write postgresql+psycopg://u@127.0.0.1/club")
    assert "No module" not in said


def test_a_url_that_cannot_be_used_is_named_without_its_password(agon):
    """A refused URL is named with its password hidden, an unencoded '@' in it too, and a port that is no number
    is said so in words (it was Python's own 'invalid literal for int()')."""
    for url, says in (("postgresql+psycopg2://ana:s3cret@127.0.0.1/club", "not psycopg2"),
                      ("mysql://ana:s3cret@h/club", "not in mysql"),
                      ("postgresql+psycopg://ana:s3cret@127.0.0.1:543x/club", "its port '543x' is not a number"),
                      ("postgresql+psycopg://ana:s3c@ret@127.0.0.1:notaport/club", "port 'notaport' is not a")):
        said = one_line(agon("--db", url, "games", ok=False), 1, says, "ana:***@")
        assert "s3c" not in said and "ret@" not in said and "int()" not in said, said


def test_a_postgresql_url_naming_no_database_is_refused_before_connecting(agon, monkeypatch):
    """Without a database after the host, PostgreSQL opens the one named as the user ('postgres', its
    administrator's) and agon would add its tables there: refused, naming what to write. The port is one nothing
    listens on, so a URL that tried to connect would say 'cannot connect' instead."""
    monkeypatch.delenv("PGDATABASE", raising=False)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    for url in (f"postgresql+psycopg://ana:s3cret@127.0.0.1:{free}/", f"postgres://127.0.0.1:{free}"):
        for command in (("games",), ("new", "toy", "--player", "ann", "--bot", "bob:random")):
            said = one_line(agon("--db", url, *command, ok=False), 1, "it names no database",
                            "postgresql+psycopg://user@host/dbname")
            assert "s3cret" not in said and "cannot connect" not in said
    monkeypatch.setenv("PGDATABASE", "club")  # libpq's own setting names it: tried, and said as libpq says it
    one_line(agon("--db", f"postgres://127.0.0.1:{free}", "games", ok=False), 1, "cannot connect")


@pytest.mark.postgres
def test_sentences_naming_a_postgresql_store_hide_its_password(agon, pg_base, monkeypatch):
    """'agon games' names the store it lists, and 'agon demo' where it stored the game: a password in AGON_DB (the
    trust authentication of the test server takes any) is not printed for anyone looking at the screen."""
    from tests.conftest import _pg_schema_url

    urls = _pg_schema_url(pg_base)
    url = next(urls).replace("://postgres@", "://postgres:s3cret@", 1)
    assert "s3cret" in url
    try:
        monkeypatch.setenv("AGON_DB", url)
        r = agon("games", ok=False)  # no agon table in the schema yet: none is made by a command that reads
        assert r.stderr.startswith("error: no store at postgresql+psycopg://postgres:***@"), r.stderr
        r2 = agon("demo", "toy")
        assert "Stored in: postgresql+psycopg://postgres:***@" in r2.stdout
        r3 = agon("games")
        assert "Games in postgresql+psycopg://postgres:***@" in r3.stdout
        assert all("s3cret" not in x.stdout + x.stderr for x in (r, r2, r3))
    finally:
        next(urls, None)


def test_serve_on_every_network_names_an_address_players_can_open(agon, monkeypatch):
    """'agon serve --host 0.0.0.0' announced http://0.0.0.0:8000/, which no browser opens; it now names this machine's
    address on its network (or, none known, what to put in its place), and 127.0.0.1 for this machine."""
    import uvicorn

    from agon.cli import serve_cmds

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)  # the banner is all this asks for
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]

    def banner(*args: str) -> str:
        return " ".join(agon("serve", "--port", str(free), *args).stdout.split())

    said = banner()  # this machine only: as before
    assert f"on http://127.0.0.1:{free}/ (1 worker); the API is described at /openapi.json" in said, said
    said = banner("--host", "0.0.0.0")  # this machine's own address, as the machine finds it
    assert "0.0.0.0" not in said and f"http://127.0.0.1:{free}/ on this machine" in said, said
    found = serve_cmds.this_machines_addresses(socket.AF_INET)
    assert all(not a.startswith("127.") for a in found), found
    if found:
        assert f"players open http://{found[0]}:{free}/" in said, said
    monkeypatch.setattr(serve_cmds, "this_machines_addresses", lambda family: ["192.0.2.7"])
    assert (f"on every network of this machine, port {free} (1 worker): players open http://192.0.2.7:{free}/ (or the"
            f" machine's address on their network; http://127.0.0.1:{free}/ on this machine); the API") \
        in banner("--host", "0.0.0.0")
    monkeypatch.setattr(serve_cmds, "this_machines_addresses", lambda family: [])  # no network, or loopback only
    said = banner("--host", "0.0.0.0")
    assert (f"players open http://ADDRESS:{free}/ with this machine's address on their network"
            f" (http://127.0.0.1:{free}/ on this machine)") in said and "0.0.0.0" not in said, said


def test_serve_under_a_proxys_path_hands_it_to_the_server_and_says_where_players_open_it(agon, monkeypatch):
    """'agon serve --root-path /agon' serves every link under /agon (tests/test_root_path.py follows them): uvicorn
    is given the path, and the banner names the proxy's address as the one to open; a path it cannot use is refused
    in one line before anything starts."""
    import uvicorn

    given: dict = {}
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: given.update(k))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    said = " ".join(agon("serve", "--port", str(free), "--root-path", "/agon/").stdout.split())
    assert given["root_path"] == "/agon"
    assert (f"on http://127.0.0.1:{free}/ under /agon/ behind a proxy (1 worker): players open the proxy's address,"
            " https://HOST/agon/, which passes requests on without /agon;") in said, said
    assert "the API is described at /agon/openapi.json." in said, said  # where the proxy has it
    given.clear()
    agon("serve", "--port", str(free))
    assert given["root_path"] == ""  # at the root of its host, as before
    for bad in ("agon", "/a b", "/agon?x=1", "/a//b"):
        given.clear()
        one_line(agon("serve", "--port", str(free), "--root-path", bad, ok=False), 2,
                 "invalid value for '--root-path'", "is no path to serve under; give one such as /agon")
        assert given == {}


@pytest.mark.postgres
def test_every_output_naming_a_postgresql_store_hides_its_password(agon, pg_base, monkeypatch):
    """'agon where' (its --json too), 'agon demo --json' and the banner of 'agon serve' name the store as the
    sentences do: the URL with '***' for its password, whether it came from --db or AGON_DB."""
    import uvicorn

    from tests.conftest import _pg_schema_url

    urls = _pg_schema_url(pg_base)
    url = next(urls).replace("://postgres@", "://postgres:s3cret@", 1)
    hidden = url.replace(":s3cret@", ":***@", 1)
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)  # the banner is all this asks for
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = str(s.getsockname()[1])
    try:
        assert agon("--db", url, "where").stdout.strip() == hidden
        assert json.loads(agon("--db", url, "where", "--json").stdout) == {"db": hidden}
        monkeypatch.setenv("AGON_DB", url)
        assert agon("where").stdout.strip() == hidden
        assert json.loads(agon("demo", "toy", "--json").stdout)["db"] == hidden
        assert [g["db"] for g in json.loads(agon("demo", "toy", "--games", "2", "--json").stdout)] == [hidden] * 2
        said = agon("serve", "--port", free).stdout
        assert f"agon serves {hidden} on http://127.0.0.1:{free}/" in " ".join(said.split())
        assert "s3cret" not in said
    finally:
        next(urls, None)


def test_a_hint_names_the_typed_postgresql_store_without_its_password(agon, pg_base):
    """A hint to copy ('Go on later with: agon --db URL ...') names the store as typed, its password left out (the
    driver reads it from PGPASSWORD or ~/.pgpass), and the command it prints reads the same store."""
    from tests.conftest import _pg_schema_url

    urls = _pg_schema_url(pg_base)
    url = next(urls).replace("://postgres@", "://postgres:s3cret@", 1)
    try:
        made = agon("--db", url, "new", "toy", "--player", "Ana", "--player", "Bo")
        assert "s3cret" not in made.stdout + made.stderr
        hinted = [w.strip("`'") for w in made.stdout.split() if w.strip("`'").startswith("postgresql+psycopg://")]
        assert hinted and all(w == url.replace(":s3cret@", "@", 1) for w in hinted)
        game = json.loads(agon("--db", hinted[0], "games", "--json").stdout)
        assert len(game) == 1
    finally:
        next(urls, None)


def test_postgres_url_spelling_is_read_as_postgresql_with_the_installed_driver():
    from agon.cli import common

    common.set_db("postgres://u@127.0.0.1/club", typed=True)
    try:
        assert common.db_url() == "postgresql+psycopg://u@127.0.0.1/club"
    finally:
        common.set_db(None)


def test_a_mistyped_agon_rulesets_module_is_one_line_naming_the_setting(tmp_path):
    """'agon serve' says so before it serves (it served, and answered each request listing the rulesets with a
    500); the port it is given is taken, so a server that did not check first says that instead."""
    import socket

    env = {**os.environ, "AGON_RULESETS": "toy=tests.toygme", "AGON_DB": str(tmp_path / "g.db")}
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = str(taken.getsockname()[1])
    for args in (("rulesets",), ("new", "toy", "--player", "a", "--bot", "b:random"), ("serve", "--port", port)):
        r = subprocess.run([sys.executable, "-m", "agon", *args], capture_output=True, text=True, env=env,
                           cwd=ROOT, timeout=60)
        assert r.returncode == 1 and r.stdout == "", (r.returncode, r.stdout, r.stderr)
        assert r.stderr.splitlines() == [
            "error: ruleset 'toy' is named by AGON_RULESETS as module 'tests.toygme', which gives no ruleset"
            " (ModuleNotFoundError: No module named 'tests.toygme'); correct or unset AGON_RULESETS"], args
    taken.close()


def test_a_relative_module_in_agon_rulesets_is_one_line_not_an_internal_error(tmp_path):
    env = {**os.environ, "AGON_RULESETS": "toy=..toygame", "AGON_DB": str(tmp_path / "g.db")}
    r = subprocess.run([sys.executable, "-m", "agon", "rulesets"], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=60)
    assert r.returncode == 1 and r.stdout == "", (r.returncode, r.stdout, r.stderr)
    [line] = r.stderr.splitlines()
    assert line.startswith("error: ruleset 'toy' is named by AGON_RULESETS as module '..toygame', which gives no"
                           " ruleset (TypeError: "), line
    assert line.endswith("; correct or unset AGON_RULESETS"), line


def test_hints_in_errors_carry_the_db_given_on_the_command_line(agon, tmp_path):
    db = str(tmp_path / "club.db")
    one_line(agon("--db", db, "log", "zzzz", ok=False), 1, f"`agon --db {db} demo`")  # no store there yet
    gid = agon("--db", db, "new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.split()[0]
    one_line(agon("--db", db, "log", "zzzz", ok=False), 1, f"`agon --db {db} games` lists the games")
    said = one_line(agon("--db", db, "act", gid, "99", "--json", ok=False), 1)
    assert f"`agon --db {db} options {gid}` lists" in json.loads(said)["error"]
    one_line(agon("log", "zzzz", ok=False), 1, "`agon demo`")  # AGON_DB: the same shell finds it
    agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3")
    one_line(agon("log", "zzzz", ok=False), 1, "`agon games` lists the games")


@pytest.mark.parametrize(("args", "says"), [
    (("games", "--status", "ovr"), "error: invalid value for '--status': 'ovr' is not one of: over, playing; see"
                                   " `agon games --help`"),
    (("games", "--order", "longst"), "error: invalid value for '--order': 'longst' is not one of: oldest, newest,"
                                     " longest, shortest; see `agon games --help`"),
    (("new", "toy", "--player", "ann", "--bot", "Bo"), "error: invalid value for '--bot': 'Bo': write it as"
                                                       " NAME:KIND, e.g. --bot Zeno:random; see `agon new --help`"),
    (("new", "toy", "--player", "ann", "--option", "difficulty"), "error: invalid value for '--option':"
     " 'difficulty': write it as KEY=VALUE, e.g. --option difficulty=hard; see `agon new --help`"),
])
def test_a_word_an_option_does_not_take_is_a_usage_error_like_a_number_out_of_range(agon, args, says):
    assert one_line(agon(*args, ok=False), 2) == says
    assert json.loads(one_line(agon(*args, "--json", ok=False), 2))["error"] == says.removeprefix("error: ")


# -- an option is given once ------------------------------------------------------------------------------------


def test_an_option_given_twice_is_refused_naming_it_and_nothing_is_done(agon, tmp_path):
    gid = agon("new", "toy", "--player", "ann", "--player", "bob", "--seed", "3").stdout.splitlines()[0]
    before = agon("log", gid, "--json").stdout
    one_line(agon("act", gid, "1", "--as", "ann", "--as", "bob", ok=False), 2,
             "--as is given twice; give it once; see `agon act --help`")
    assert agon("log", gid, "--json").stdout == before
    one_line(agon("--db", str(tmp_path / "a.db"), "--db", str(tmp_path / "b.db"), "games", ok=False), 2,
             "--db is given twice; give it once; see `agon --help`")
    assert not (tmp_path / "a.db").exists() and not (tmp_path / "b.db").exists()
    one_line(agon("log", gid, "-b", "main", "--branch", "main", ok=False), 2, "-b", "is given twice; give it once")
    one_line(agon("new", "toy", "--player", "a", "--player", "b", "--seed", "1", "--seed", "2", "--seed", "3",
                  ok=False), 2, "--seed is given 3 times; give it once; see `agon new --help`")
    r = agon("games", "--json", "--limit", "1", "--limit", "2", ok=False)
    assert r.exit_code == 2 and json.loads(r.stderr) == {
        "error": "--limit is given twice; give it once; see `agon games --help`"}


def test_options_meant_to_repeat_still_do_and_a_flag_twice_says_the_same(agon):
    gid = agon("new", "toy", "--player", "a", "--player", "b", "--bot", "c:random").stdout.splitlines()[0]
    assert json.loads(agon("games", "--json", "--json").stdout)[0]["players"] == ["a", "b", "c"]
    agon("branch", gid, "other", "--at", "0")
    r = agon("view", gid, "-b", "main", "-b", "other", "-o", "two.html")
    assert r.exit_code == 0 and "is given twice" not in r.stderr

"""What a newcomer typing agon for the first time gets wrong, and the one line each slip earns: what was wrong and
what to type instead."""

from __future__ import annotations

import json

from tests.test_cli import new_toy
from tests.test_cli_surface import one_line


def test_an_ambiguous_game_id_names_the_games_it_may_be(agon):
    ids: dict[str, list[str]] = {}
    while not any(len(v) > 1 for v in ids.values()):  # at most 17 games: two share a first digit
        gid = new_toy(agon)
        ids.setdefault(gid[0], []).append(gid)
    first, games = next((k, sorted(v)) for k, v in ids.items() if len(v) > 1)
    said = one_line(agon("options", first, ok=False), 1, f"error: game id '{first}' is ambiguous: it may be")
    assert f"it may be {', '.join(games)}; type more of it (see `agon games`)" in said


def test_an_option_left_without_its_value_names_the_help_of_its_command(agon):
    one_line(agon("new", "toy", "--player", ok=False), 2,
             "error: option '--player' requires an argument; see `agon new --help`")
    one_line(agon("plot", "scores", "abc", "-b", ok=False), 2, "requires an argument; see `agon plot scores --help`")
    one_line(agon("--db", ok=False), 2, "error: option '--db' requires an argument; see `agon --help`")


def test_a_listing_word_is_read_in_any_case_as_a_ruleset_is(agon):
    gid = new_toy(agon)
    assert gid in agon("games", "--status", "Playing", "--order", "NEWEST").stdout
    one_line(agon("games", "--status", "done", ok=False), 2, "'done' is not one of: over, playing")


def test_an_option_to_a_ruleset_that_takes_none_says_so(agon, tmp_path):
    said = one_line(agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--option", "speed=2", ok=False), 1)
    assert said == "error: peloponnes has no option 'speed'; it takes none", said
    assert not (tmp_path / "games.db").exists()  # refused before a store is made


def test_a_command_stopped_by_ctrl_c_says_so_in_one_line(agon, monkeypatch):
    def interrupted(url):
        raise KeyboardInterrupt

    monkeypatch.setattr("agon.cli.setup_cmds.without_password", interrupted)
    one_line(agon("where", ok=False), 130, "error: stopped (Ctrl-C); what was recorded before it stays recorded")
    said = json.loads(one_line(agon("where", "--json", ok=False), 130))
    assert said == {"error": "stopped (Ctrl-C); what was recorded before it stays recorded"}


def test_the_two_keys_of_a_pair_given_the_wrong_way_round_are_named_so(agon, tmp_path):
    gid = new_toy(agon)
    agon("keygen", "ana.key")
    said = one_line(agon("export", gid, "--sign", "ana.key.pub", "-o", "g.jsonl", ok=False), 1)
    assert said == ("error: ana.key.pub is a public key, which only checks signatures: sign with the private key"
                    " ana.key (`agon keygen` wrote both)")
    assert not (tmp_path / "g.jsonl").exists()
    agon("export", gid, "--sign", "ana.key", "-o", "g.jsonl")
    said = one_line(agon("import", "g.jsonl", "--trust", "ana.key", ok=False), 1)
    assert said == ("error: ana.key is a private key, which stays with whoever signs: give its public key"
                    " (ana.key.pub, written beside it by `agon keygen`)")
    assert "Signed by the trusted key" in agon("import", "g.jsonl", "--trust", "ana.key.pub").stdout


def test_players_listed_after_one_player_option_are_told_to_take_one_each(agon, tmp_path):
    one_line(agon("new", "toy", "--player", "Ana", "Bo", "Cy", ok=False), 2,
             "error: got unexpected extra argument(s) (Bo Cy): --player takes one value, so give it before each"
             " (`--player Ana --player Bo`); see `agon new --help`")
    said = one_line(agon("new", "toy", "--player", "Ana,Bo,Cy", ok=False), 1)
    assert said == ("error: 'Ana,Bo,Cy' cannot be a player name (',' separates names); give each player a seat of"
                    " their own, each as --player NAME or --bot NAME:KIND")  # not 'toy takes 2 to 4 players, not 1'
    said = one_line(agon("new", "toy", "zz", "--player", "Ana", ok=False), 2)  # after no option: no such advice
    assert said == "error: got unexpected extra argument(s) (zz); see `agon new --help`", said
    assert not (tmp_path / "games.db").exists()


def test_help_and_version_are_found_however_a_newcomer_first_types_them(agon):
    assert "Usage: agon new" in agon("new", "-h").stdout
    assert "Usage: agon plot scores" in agon("plot", "scores", "-h").stdout
    assert "Usage: agon [OPTIONS] COMMAND" in agon("-h").stdout
    one_line(agon("version", ok=False), 2, "error: no such command 'version': it is an option, `agon --version`")
    one_line(agon("help", ok=False), 2, "error: no such command 'help': it is an option, `agon --help`")
    one_line(agon("plot", "help", ok=False), 2, "it is an option, `agon plot --help`")
    one_line(agon("db", ok=False), 2, "error: no such command 'db'; see `agon --help`")  # --db takes a value


def test_a_store_named_by_spaces_only_is_refused_as_blank_and_no_file_is_made(agon, tmp_path, monkeypatch):
    one_line(agon("--db", " ", "new", "toy", "--player", "a", "--player", "b", ok=False), 1,
             "error: --db is blank: give a SQLite file's path or a postgresql+psycopg:// URL (leave --db out")
    monkeypatch.setenv("AGON_DB", "  ")
    one_line(agon("new", "toy", "--player", "a", "--player", "b", ok=False), 1,
             "error: AGON_DB is blank:", "(unset AGON_DB for the default store)")
    assert list(tmp_path.iterdir()) == []


def test_stats_of_games_none_of_which_is_finished_names_how_to_get_some(agon, tmp_path):
    new_toy(agon)
    out = agon("stats", "toy").stdout
    assert ("No game is finished yet, so there are no results to count; finish one, or record some with"
            " `agon demo toy --games 20`.") in out
    read_only = f"sqlite:///{tmp_path / 'games.db'}?mode=ro"  # where nothing can be recorded, no command to
    out = agon("--db", read_only, "stats", "toy").stdout
    assert "No game is finished yet, so there are no results to count." in out and "demo" not in out


def test_an_output_that_is_a_pipe_is_written_into_not_replaced_by_a_file(agon, tmp_path):
    # -o /dev/stdout, -o /dev/null or a FIFO: renaming a finished file onto it (as a regular file is written, whole
    # or not at all) would put a plain file where the device or the pipe was (and, as root, /dev/null's place)
    import os
    import stat
    import threading

    gid = new_toy(agon)
    fifo = tmp_path / "out.jsonl"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    agon("export", gid, "-o", str(fifo))
    reader.join(10)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert got and got[0] == agon("export", gid).stdout.encode()
    assert not [p.name for p in tmp_path.iterdir() if ".tmp-" in p.name]  # no temporary file left beside it


def test_an_output_that_is_the_standard_output_gets_the_data_alone(agon, tmp_path):
    # 'agon export G -o /dev/stdout | agon import -': the line saying what was written went into the pipe after the
    # file, and the import refused it; it goes to stderr, so whatever reads the output reads the file alone
    import os
    import subprocess
    import sys

    from tests.test_cli_surface import ROOT

    gid = new_toy(agon)
    env = {**os.environ, "AGON_DB": str(tmp_path / "games.db")}

    def run(*args: str) -> subprocess.CompletedProcess:
        r = subprocess.run([sys.executable, "-m", "agon", *args], capture_output=True, env=env, cwd=ROOT, timeout=120)
        assert r.returncode == 0, r.stderr
        return r

    exported = run("export", gid, "-o", "/dev/stdout")
    assert exported.stdout == agon("export", gid).stdout.encode()
    assert exported.stderr.decode().startswith("Wrote the whole game: ")
    into = str(tmp_path / "other.db")
    imported = subprocess.run([sys.executable, "-m", "agon", "--db", into, "import", "-"], input=exported.stdout,
                              capture_output=True, env=env, cwd=ROOT, timeout=120)
    assert imported.returncode == 0 and imported.stdout.decode().splitlines()[0] == gid, imported.stderr
    page = run("plot", "scores", gid, "-o", "/dev/stdout")  # a device is taken whatever its name: HTML unless --png
    assert page.stdout.lower().startswith(b"<!doctype html>") and page.stdout.rstrip().endswith(b"</html>")
    assert b"Wrote the score timeline" in page.stderr
    # a file named to -o that the output is redirected to as well: the message is not written into it either
    target = tmp_path / "g.jsonl"
    target.write_bytes(b"")
    with target.open("ab") as out:
        r = subprocess.run([sys.executable, "-m", "agon", "export", gid, "-o", str(target)], stdout=out,
                           stderr=subprocess.PIPE, env=env, cwd=ROOT, timeout=120)
    assert r.returncode == 0 and target.read_bytes() == exported.stdout and b"Wrote" in r.stderr


def test_a_file_the_system_refuses_says_what_to_do(agon, monkeypatch):
    import errno

    gid = new_toy(agon)

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr("agon.cli.file_cmds.write_file", full)
    one_line(agon("export", gid, "-o", "g.jsonl", ok=False), 1,
             "error: No space left on device: g.jsonl; free some space there, or give a path on another disk")

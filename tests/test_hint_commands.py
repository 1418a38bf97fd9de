"""The commands agon suggests are the commands to run: copied from a refusal, whatever ``--db`` was typed (a path with
a space, a URL with '?' and '&', a PostgreSQL URL with options), each one parses in a POSIX shell (``shlex``) and
does what its sentence says on the same store. A command inside a sentence stands between backticks, never between
quotes, which would nest with the quotes of its --db."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from tests.conftest import _pg_schema_url
from tests.test_environment_failures import one_line

SQLITE_DBS = ["my club/games.db", "sqlite:///{tmp}/a b & c.db?mode=rwc&cache=private"]


def commands(said: str) -> list[list[str]]:
    """The commands a sentence names between backticks, each as a shell splits it; a sentence that names one must
    name it so (a command between single quotes is not taken)."""
    found = re.findall(r"`(agon [^`]*)`", said)
    assert found, f"no command between backticks in: {said}"
    out = []
    for command in found:
        argv = shlex.split(command)  # the shell's reading: quotes balanced, one word a --db
        assert shlex.join(argv) == command, command  # quoted as the shell quotes it, nothing nested
        out.append(argv)
    return out


def on_db(argv: list[str], db: str) -> list[str]:
    """``argv`` (a suggested command) without 'agon', checked to name the store the refusal came from."""
    assert argv[:3] == ["agon", "--db", db], argv
    return argv[1:]


def over(run, gid: str) -> None:
    """Play the toy game on to its end: ann rolls, and holds once she has something to bank; bob is a bot."""
    for _ in range(200):
        data = json.loads(run("options", gid, "--json").stdout)
        if data["pending"]["kind"] != "decision":
            return
        hold = next(o for o in data["options"] if o["event"]["type"] == "toy.held")
        run("act", gid, str(hold["n"]) if hold["event"]["banked"] else "1")
    raise AssertionError("the toy game did not end")


def check_refusals(agon, db: str) -> None:
    def run(*args: str, ok: bool = True):
        return agon("--db", db, *args, ok=ok)

    gid = run("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.split()[0]

    # a choice out of range names the command that lists the choices, of this game, on this store
    said = one_line(run("act", gid, "99", ok=False), "out of range")
    (options,) = commands(said)
    assert options[3:] == ["options", gid]
    assert json.loads(agon(*on_db(options, db), "--json").stdout)["game"] == gid

    # an unknown game: the command that lists the games
    (games,) = commands(one_line(run("log", "0123abcd", ok=False), "no game"))
    assert gid in agon(*on_db(games, db)).stdout

    # an event that is not on the line: the command that numbers them
    (log,) = commands(one_line(run("note", gid, "999", "hi", ok=False), "is not on branch"))
    assert log[3:] == ["log", gid] and "0." in agon(*on_db(log, db)).stdout

    # a die typed in a game that draws its luck from its seed: how a game whose luck is typed in is made, with this
    # game's ruleset and NAME... for the players (filled in as a person would); that game takes the die
    seeded = run("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.split()[0]
    run("act", seeded, "1")
    run("branch", seeded, "drawn", "--at", "2")  # the die due there is drawn with the branch;
    run("undo", seeded, "--to", "2")  # taken back, the line waits for the die the seed draws
    said = one_line(run("act", seeded, "6", "-b", "drawn", ok=False), "draws every chance outcome from its seed")
    (new,) = commands(said)
    assert new[3:] == ["new", "toy", "--player", "NAME...", "--table"]
    made = agon(*[w for word in on_db(new, db) for w in (["ann", "--player", "bo"] if word == "NAME..." else [word])])
    table = made.stdout.split()[0]
    run("act", table, "bo ann")  # the seat order as drawn at the table, typed in
    last = json.loads(run("log", table, "--json").stdout)[-1]
    assert last["actor"] == "chance" and "bo" in last["text"]

    # a finished game: undo it (the command as printed), or branch from an earlier position (NAME and N filled in)
    over(run, gid)
    depth = len(json.loads(run("log", gid, "--json").stdout)) - 1
    said = one_line(run("act", gid, "1", ok=False), "the game is over")
    undo, branch = commands(said)
    assert undo[3:] == ["undo", gid]
    assert "Undid" in agon(*on_db(undo, db)).stdout
    assert len(json.loads(run("log", gid, "--json").stdout)) - 1 < depth  # the head moved back
    run("redo", gid)
    assert branch[3:] == ["branch", gid, "NAME", "--at", "N"]
    agon(*[{"NAME": "whatif", "N": "2"}.get(w, w) for w in on_db(branch, db)])
    assert "whatif" in run("branches", gid).stdout


@pytest.mark.parametrize("db", SQLITE_DBS)
def test_commands_copied_from_refusals_run_on_the_same_sqlite_store(agon, tmp_path, db):
    (tmp_path / "my club").mkdir()
    check_refusals(agon, db.format(tmp=tmp_path))


@pytest.mark.postgres
def test_commands_copied_from_refusals_run_on_the_same_postgresql_store(agon, pg_base):
    for url in _pg_schema_url(pg_base):
        check_refusals(agon, url + "&connect_timeout=10")  # '?' and '&', a '%' and '=' in its options


def test_a_command_printed_after_a_colon_is_the_command_to_run(agon, tmp_path):
    """Where a hint ends a line after a colon, the rest of the line is the command, quoted as a shell reads it."""
    (tmp_path / "my club").mkdir()
    db = "my club/games.db"
    gid = agon("--db", db, "new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.split()[0]
    agon("--db", db, "act", gid, "1")
    out = agon("--db", db, "undo", gid).stdout
    argv = shlex.split(re.search(r"Bring them back with: (.*)", out).group(1))
    assert argv[3:] == ["redo", gid]
    assert "Redid" in agon(*on_db(argv, db)).stdout

"""Hostile or odd input gets one clear line and a non-zero exit, never a traceback; what nothing expected is one
line saying an internal error happened (exit status 2), or the traceback with AGON_DEBUG=1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tamper import rewrite


def toy(agon) -> str:
    return agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.splitlines()[0]


def one_line_error(r, says: str, code: int = 1) -> None:
    assert r.exit_code == code, (r.stdout, r.stderr, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], r.stderr


@pytest.mark.parametrize("choice, says", [
    ("²", "give a choice number from `agon options "),
    ("٣", "give a choice number from `agon options "),
    ("9" * 5000, "choice 999999999999... is out of range"),
    ('{"a":' * 5000 + "1" + "}" * 5000, "nested too deeply"),
    ("{" + " " * 200_000 + "}", "200,002 characters long"),
    ('{"type":"toy.die_rolled","value":' + "9" * 5000 + "}", "holds a number of more than 4,300 digits"),
])
def test_odd_choices_get_one_line(agon, choice, says):
    gid = toy(agon)
    before = agon("export", gid).stdout
    one_line_error(agon("act", gid, choice, ok=False), says)
    assert agon("export", gid).stdout == before


def test_deep_json_that_parses_is_not_an_event(agon):
    gid = toy(agon)
    deep = '{"type":' + "[" * 900 + "]" * 900 + "}"
    one_line_error(agon("act", gid, deep, ok=False), "not an event of toy")


def _export(agon, tmp_path, gid: str) -> bytes:
    path = tmp_path / "g.jsonl"
    agon("export", gid, "-o", str(path))
    return path.read_bytes()


def _import(agon, tmp_path, data: bytes):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(data)
    return agon("import", str(path), ok=False)


@pytest.mark.parametrize("payload, says", [
    (b"[1, 2]", "is not a JSON object"),
    (b'"toy"', "is not a JSON object"),
    (b"17", "is not a JSON object"),
])
def test_a_creation_that_is_not_an_object_is_refused(agon, tmp_path, payload, says):
    gid = toy(agon)
    data = rewrite(_export(agon, tmp_path, gid), lambda evs: None, {0: payload})
    one_line_error(_import(agon, tmp_path, data), says)
    assert len(json.loads(agon("games", "--json").stdout)) == 1


def test_an_import_nested_100000_deep_is_refused_in_one_line(agon, tmp_path):
    gid = toy(agon)
    agon("act", gid, "2")
    deep = b'{"type":"toy.roll_chosen","x":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    data = rewrite(_export(agon, tmp_path, gid), lambda evs: None, {1: deep})
    r = _import(agon, tmp_path, data)
    one_line_error(r, "cannot import")
    assert len(json.loads(agon("games", "--json").stdout)) == 1


def test_an_unexpected_exception_is_one_line_with_exit_status_2(agon, monkeypatch):
    from agon.core.service import Service

    def broken(self, *a, **k):
        raise ZeroDivisionError("deep inside")

    toy(agon)  # a store to list
    monkeypatch.setattr(Service, "listing", broken)
    r = agon("games", ok=False)
    one_line_error(r, "internal error (ZeroDivisionError)", code=2)
    assert "AGON_DEBUG=1" in r.stderr and "report it" in r.stderr and "Traceback" not in r.stderr
    j = agon("games", "--json", ok=False)
    assert j.exit_code == 2 and "internal error" in json.loads(j.stderr)["error"]
    monkeypatch.setenv("AGON_DEBUG", "1")
    r = agon("games", ok=False)
    assert isinstance(r.exception, ZeroDivisionError)  # the traceback is shown, not hidden


NOT_UTF8 = "\udcff"  # what Python makes of an argument's byte 0xff, as a shell passes $'\xff'


@pytest.mark.parametrize("args, says", [
    (["log", NOT_UTF8], "no game '\\udcff' in this store"),
    (["export", NOT_UTF8], "no game '\\udcff' in this store"),
    (["log", "GAME", "-b", NOT_UTF8], "has no branch '\\udcff'; its branches: main"),
    (["switch", "GAME", NOT_UTF8], "has no branch '\\udcff'; its branches: main"),
    (["compare", "GAME", "main", NOT_UTF8], "has no branch '\\udcff'; its branches: main"),
    (["act", "GAME", "1", "-b", NOT_UTF8], "has no branch '\\udcff'; its branches: main"),
])
def test_a_game_or_branch_named_in_bytes_that_are_not_utf8_is_unknown(agon, args, says):
    gid = toy(agon)
    before = agon("export", gid).stdout
    one_line_error(agon(*[gid if a == "GAME" else a for a in args], ok=False), says)
    assert agon("export", gid).stdout == before


def test_an_option_value_in_bytes_that_are_not_utf8_is_refused_and_makes_no_game(agon, tmp_path):
    r = agon("new", "adamastor", "--player", "Ana", "--option", f"scenario={NOT_UTF8}", ok=False)
    one_line_error(r, "the value of option scenario '\\udcff' holds a control or separator character (U+DCFF)")
    assert not (tmp_path / "games.db").exists()  # refused before a store is made


def test_an_error_quoting_a_file_name_with_a_line_break_or_an_escape_stays_one_line(agon):
    gid = toy(agon)
    r = agon("export", gid, "--sign", "a\nb\x1b[31m", ok=False)
    one_line_error(r, "key file a\\nb\\x1b[31m does not exist")
    assert "\x1b" not in r.stderr


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_stream_is_refused_not_read_until_memory_runs_out(agon, monkeypatch, tmp_path):
    from agon.cli import file_cmds, setup_cmds

    monkeypatch.setattr(file_cmds, "MAX_GAME_FILE", 1024 * 1024)
    monkeypatch.setattr(setup_cmds, "MAX_CARD_FILE", 1024 * 1024)
    one_line_error(agon("import", "/dev/zero", ok=False), "game file /dev/zero holds more than 1 MiB")
    one_line_error(agon("import", "-", input="y\n" * 600_000, ok=False), "standard input holds more than 1 MiB")
    one_line_error(agon("new", "adamastor", "--player", "Ana", "--cards", "/dev/zero", ok=False),
                   "card file /dev/zero holds more than 1 MiB")
    assert not (tmp_path / "games.db").exists()  # nothing was made


def test_a_game_file_just_under_the_limit_is_read_whole(agon, monkeypatch, tmp_path):
    from agon.cli import file_cmds

    gid = toy(agon)
    data = _export(agon, tmp_path, gid)
    monkeypatch.setattr(file_cmds, "MAX_GAME_FILE", len(data))
    assert "nothing was imported" in agon("import", str(tmp_path / "g.jsonl")).stdout
    monkeypatch.setattr(file_cmds, "MAX_GAME_FILE", len(data) - 1)
    agon("import", str(tmp_path / "g.jsonl"), ok=False)


@pytest.mark.parametrize("choice", [
    '{"type":"toy.roll_chosen","player":"\\ud800"}',  # JSON's escape of a lone surrogate, typed as six characters
    '{"type":"toy.die_rolled","value":"\\udfff"}',
    '{"type":"toy.roll_chosen","\\ud800":1}',
])
def test_json_escaping_a_lone_surrogate_is_not_an_event(agon, choice):
    gid = toy(agon)
    before = agon("export", gid).stdout
    one_line_error(agon("act", gid, choice, ok=False), "not an event of toy: it holds a lone surrogate")
    assert agon("export", gid).stdout == before


def test_a_card_file_escaping_a_lone_surrogate_is_refused_and_makes_no_game(agon, tmp_path):
    cards = tmp_path / "cards.json"
    agon("cards", "adamastor", "--export", str(cards))
    cards.write_text(cards.read_text().replace('"tempest"', '"\\ud800"'))
    r = agon("new", "adamastor", "--player", "Ana", "--cards", str(cards), ok=False)
    one_line_error(r, "the card set holds a lone surrogate")
    assert not (tmp_path / "games.db").exists()


def test_a_card_file_with_a_number_python_will_not_read_is_refused_in_one_line(agon, tmp_path):
    cards = tmp_path / "cards.json"
    agon("cards", "adamastor", "--export", str(cards))
    cards.write_text(cards.read_text().replace('"empty": 2', '"empty": ' + "9" * 5000, 1))
    r = agon("new", "adamastor", "--player", "Ana", "--cards", str(cards), ok=False)
    one_line_error(r, "holds a number of more than 4,300 digits, which no card set needs")
    assert not (tmp_path / "games.db").exists()

"""The command line's conventions, over every command: help ends with examples that parse, one meaning per
option name, ``--json`` errors as JSON, messages with square brackets printed as written; and the code's own
convention: ``ruff check`` finds nothing."""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

import pytest
import typer.main

from agon.cli.app import app

ROOT = typer.main.get_command(app)


def _commands(group: Any = ROOT, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    out = [(path, group)]
    for name, cmd in getattr(group, "commands", {}).items():
        out += _commands(cmd, (*path, name))
    return out


COMMANDS = _commands()


def _example_lines(help_text: str) -> list[str]:
    head, sep, tail = help_text.rpartition("Examples:")
    assert sep, "the help has no 'Examples:'"
    return [ln.strip() for ln in tail.splitlines() if ln.strip()]


def _parse(example: str) -> tuple[str, ...]:
    """Parse an example command line as agon would, without running it (unknown options, a missing argument or a
    bad value raise Click's usage error); return the command it runs."""
    words = shlex.split(example.split("  #")[0].split(" > ")[0])
    assert words[0] == "agon", example
    args = words[1:]
    ctx = ROOT.make_context("agon", args)
    cmd: Any = ROOT
    path: tuple[str, ...] = ()
    while hasattr(cmd, "commands") and (getattr(ctx, "_protected_args", None) or ctx.args):
        first = getattr(ctx, "_protected_args", None) or getattr(ctx, "protected_args", [])
        rest = [*first, *ctx.args]
        name, cmd, rest = cmd.resolve_command(ctx, rest)
        ctx = cmd.make_context(name, rest, parent=ctx)
        path += (name,)
    return path


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "agon")
def test_every_help_ends_with_examples_that_parse(agon, path):
    text = agon(*path, "--help").stdout
    examples = _example_lines(text)
    assert 1 <= len(examples) <= 2, examples
    for ex in examples:
        assert ex.startswith("agon "), f"{ex!r} is cut or wrapped at 80 columns: keep examples short"
        runs = _parse(ex)
        assert runs[:len(path)] == path, f"the help of '{' '.join(path)}' shows an example of '{' '.join(runs)}'"


def _help_texts(cmd: Any) -> list[str]:
    """What a command's help says in words: its own text, its examples' comments, its arguments' and options'."""
    examples = [line.partition("  #")[2] for line in (cmd.epilog or "").splitlines()]
    return [cmd.help or "", *examples, *(getattr(p, "help", None) or "" for p in cmd.params)]


def test_help_names_a_command_between_backticks_never_between_quotes():
    quoted = [(" ".join(path) or "agon", text) for path, cmd in COMMANDS for text in _help_texts(cmd)
              if re.search(r"'agon\b", text)]
    assert quoted == []
    backticked = [text for _, cmd in COMMANDS for text in _help_texts(cmd) if "`agon " in text]
    assert len(backticked) > 10, backticked  # the sentences of the help do name commands


def test_no_sentence_agon_prints_names_an_option_between_quotes():
    """An option named in a sentence stands between backticks (`--as PLAYER`), as a command does; only click's own
    usage errors quote the option they are about (``invalid value for '--limit'``: a ``param_hint``). Read from the
    source: every string agon may print (a docstring is not, but for a command's help: read from the commands)."""
    import ast
    from pathlib import Path

    quoted = []
    for folder in ("cli", "core", "analysis", "server", "events"):
        for path in sorted((Path(__file__).parent.parent / folder).rglob("*.py")):
            tree = ast.parse(path.read_text())
            hints = {id(k.value) for k in ast.walk(tree) if isinstance(k, ast.keyword) and k.arg == "param_hint"}
            hints |= {id(e.value) for e in ast.walk(tree) if isinstance(e, ast.Expr)}  # docstrings: not printed
            quoted += [f"{path.name}:{node.lineno}: {node.value}" for node in ast.walk(tree)
                       if isinstance(node, ast.Constant) and isinstance(node.value, str)
                       and id(node) not in hints and re.search(r"'--[a-z]", node.value)]
    quoted += [f"{' '.join(path)}: {text}" for path, cmd in COMMANDS for text in _help_texts(cmd)
               if re.search(r"'--[a-z]", text)]
    assert quoted == []


def test_a_command_named_in_the_help_prints_with_its_backticks_without_colour(agon, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    out = agon("cards", "--help").stdout
    assert "to correct it and play with `agon new --cards FILE`." in out
    out = agon("note", "--help").stdout
    assert "The event, as numbered by `agon log`." in out
    assert "\x1b[" not in out


def test_short_options_have_one_long_spelling_everywhere():
    longs: dict[str, set[str]] = {}
    for _, cmd in COMMANDS:
        for p in cmd.params:
            shorts = [o for o in p.opts if len(o) == 2]
            for s in shorts:
                longs.setdefault(s, set()).update(o for o in p.opts if o.startswith("--"))
    assert {s: ls for s, ls in longs.items() if len(ls) != 1} == {}
    assert longs["-o"] == {"--output"} and longs["-b"] == {"--branch"}


def test_from_is_an_event_number_and_branch_takes_its_source_line_with_dash_b(agon):
    out = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout
    gid = out.split()[0]
    agon("act", gid, "1")
    agon("branch", gid, "side", "--at", "1", "-b", "main")
    assert "forks after #1 of main" in agon("branches", gid).stdout
    # the old spelling still works, hidden from the help
    agon("branch", gid, "side2", "--at", "1", "--from", "main")
    assert "--from" not in agon("branch", "--help").stdout
    r = agon("replay", gid, "--from", "main", ok=False)
    assert r.exit_code == 2 and "--from" in r.output


def test_cards_writes_with_dash_o_and_keeps_export_as_a_hidden_alias(agon, tmp_path):
    assert "Wrote" in agon("cards", "toy", "-o", str(tmp_path / "a.json")).stdout
    assert "Wrote" in agon("cards", "toy", "--export", str(tmp_path / "b.json")).stdout
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text()
    assert "--export" not in agon("cards", "--help").stdout


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("state", "nope", "--json"), 1, "no game 'nope' in this store"),
        (("new", "chess", "--player", "a", "--json"), 1, "unknown ruleset 'chess'"),
        (("state", "--json"), 2, "missing argument"),
        (("state", "nope", "--at", "x", "--json"), 2, "'--at'"),
        (("demo", "perikles", "--players", "9", "--json"), 1, "perikles is played by 3 to 5 players, not 9"),
    ],
)
def test_with_json_an_error_is_json_on_stderr_with_the_same_exit_code(agon, args, code, message):
    agon("new", "toy", "--player", "ann", "--bot", "bob:random")  # a store, where 'nope' is no game
    r = agon(*args, ok=False)
    assert r.exit_code == code
    assert r.stdout == ""
    error = json.loads(r.stderr)
    assert list(error) == ["error"] and message in error["error"]
    plain = agon(*(a for a in args if a != "--json"), ok=False)
    assert plain.exit_code == code and not plain.stderr.lstrip().startswith("{")


def test_a_message_with_square_brackets_prints_as_written(agon, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "kaleido", None)  # as where agon[png] is not installed
    out = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout
    r = agon("plot", "scores", out.split()[0], "--png", ok=False)
    assert r.exit_code == 1 and "pip install 'agon[png]'" in r.stderr


def test_demo_refuses_a_player_count_the_ruleset_does_not_have(agon, tmp_path):
    r = agon("demo", "perikles", "--players", "9", ok=False)
    assert r.exit_code == 1 and "choose --players 3, 4 or 5" in r.stderr  # values the option takes ('3-5' is none)
    r = agon("demo", "adamastor", "--players", "3", ok=False)
    assert r.exit_code == 1 and r.stderr.strip().endswith("choose --players 1 or 2")
    assert not (tmp_path / "games.db").exists()  # refused before the store AGON_DB names was made: nothing recorded


def test_demo_records_several_games(agon):
    rows = json.loads(agon("demo", "adamastor", "--games", "3", "--seed", "1", "--json").stdout)
    assert [r["seed"] for r in rows] == [1, 2, 3] and len({r["id"] for r in rows}) == 3
    out = agon("demo", "adamastor", "--games", "2").stdout
    assert "Recorded 2 Adamastor games" in out and "stats adamastor" in out
    assert len(json.loads(agon("games", "--json").stdout)) == 5


def test_ruff_finds_nothing_anywhere_in_the_project():
    """``ruff check`` with the rules in pyproject.toml ([tool.ruff]), over the whole checkout and excluding nothing
    of ours (ruff is in the ``test`` extra, so this runs wherever the tests do)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                       cwd=root, capture_output=True, text=True)
    assert "No module named ruff" not in r.stderr, "ruff is not installed: pip install -e '.[test]'"
    assert r.returncode == 0, r.stdout + r.stderr

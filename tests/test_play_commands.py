"""How agon play reads a line (cli/play_cmds.what_is): a command never swallows an entry."""

from __future__ import annotations

from types import SimpleNamespace

from agon.cli.play_cmds import what_is
from agon.core import steps


def test_a_command_word_that_is_the_full_name_of_a_value_asked_for_is_that_value():
    line = SimpleNamespace(pending=None, created=SimpleNamespace(table=True))
    asked = steps.Question("card", "which card", (steps.Choice("log"), steps.Choice("urn"), steps.Choice("quarry")))
    assert what_is(None, line, "log", asked, ()) == "entry"  # a card named 'log'
    assert what_is(None, line, "state", asked, ()) == "command"
    assert what_is(None, line, "u", asked, ()) == "command"  # a prefix of 'urn', but 'u' alone is undo
    assert what_is(None, line, "q", asked, ()) == "quit"
    assert what_is(None, line, "-", asked, ()) == "back"
    assert what_is(None, line, "u q", asked, ()) == "entry"  # not one word alone
    assert what_is(None, line, "branch x", asked, ()) == "branch"
    assert what_is(None, line, "-", None, ()) == "entry"  # nothing being built: no step to go back

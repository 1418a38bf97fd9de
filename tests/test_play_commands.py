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
    assert what_is(None, line, "- -", asked, ()) == "back"  # two steps back
    assert what_is(None, line, "- urn", asked, ()) == "entry"  # back, then urn: read as the step's words
    assert what_is(None, line, "u q", asked, ()) == "entry"  # not one word alone
    assert what_is(None, line, "branch x", asked, ()) == "branch"
    assert what_is(None, line, "-", None, ()) == "entry"  # nothing being built: no step to go back


def test_an_option_number_waits_only_for_a_value_that_begins_with_it(sqlite_svc):
    """'1' where the fleet's moves are listed may be the start of the sea space '1c' (typed in full it is that move,
    not option 1): it waits. A card that holds the digit as a later word (greece.bowman.1) does not make it wait:
    digits typed alone are never read as that card, so '1' of 3 options is taken at once."""
    from agon.cli.play_cmds import completion
    from agon.core.engine import Decision
    from agon.core.service import NewGame

    svc = sqlite_svc
    ada = svc.new_game(NewGame("adamastor", players=("Ana",), seed=3, table=True))
    for typed in ("r3", "0b", "c32 c19 c9 c1 c2 c3", "16"):  # the fleet on 0b, a sail of 5 points begun
        svc.act(ada, typed)
    moves = completion(svc.load(ada), None, ())
    assert moves("1") is None and moves("2") == ("2", True)  # 1b, 1c begin with 1; no space begins with 2
    per = svc.new_game(NewGame("pergamemnon", players=("Ana", "Bo"), seed=2))
    for _ in range(200):
        line = svc.load(per)
        legal = line.ruleset.legal(line.state)
        ask = steps.ask(line.ruleset, line.state) if isinstance(line.pending, Decision) else None
        # a decision names a copy alike by its kind (greece.bowman) since no seat may read its number (Pergamemnon's
        # RULES.md, 'Copies alike'): the hand of the seat deciding holds the first copy, which was the value offered
        hand = [c for p in line.state.players if p.name == getattr(line.pending, "player", None) for c in p.hand]
        if isinstance(ask, steps.Question) and len(legal) < 10 and any(v.endswith(".1") for v in hand):
            break
        svc.act(per, "1")
    else:
        raise AssertionError("no step offered a first copy of a card")
    assert completion(line, None, ())("1") == ("1", True)

"""A slip inside a word typed at a table: the misspelt word never falls away nor reads as another item. ``agon
play`` took ``e`` for Egypt at a Pergamemnon deal of three nations, then read the ``p`` of ``greece egpyt`` as the
start of the next word, Persia, and recorded Greece, Egypt and Persia without Enter. Now the word stands as typed
and is refused at Enter in one line naming it and what it may have meant; the log is unchanged."""

from __future__ import annotations

import pexpect

from agon.cli.keyread import Typing
from agon.cli.play_cmds import beginning, completion
from agon.core import entry, steps
from agon.core.service import NewGame, ServiceError
from tests.test_play_pty import PROMPT, spawn_play

NATIONS = ["carthage", "egypt", "greece", "persia", "rome"]


def deal(svc) -> str:
    """A three-player Pergamemnon table game at its first chance: the nation cards dealt, 3 of 5."""
    return svc.new_game(NewGame("pergamemnon", players=("Ana", "Bo", "Cy"), seed=1, table=True))


def typed(line, keys: str) -> tuple[Typing, tuple[str, bool] | None]:
    """``keys`` typed key by key as ``agon play`` reads them at ``line``'s prompt (cli.keyread, no terminal)."""
    t = Typing(completion(line, None, ()), begins=beginning(line, None, ()))
    for k in keys:
        _, done = t.key(k)
        if done is not None:
            return t, done
    return t, None


def test_a_slip_inside_a_word_taken_early_leaves_the_word_as_typed_and_ends_nothing(sqlite_svc):
    gid = deal(sqlite_svc)
    line = sqlite_svc.load(gid)
    t, done = typed(line, "greece egpyt")
    assert done is None and t.text == "greece egpyt"  # not 'greece egypt persia ', ended by itself
    assert t.key("\r")[1] == ("greece egpyt", False)
    t, done = typed(line, "greece e")  # the next word begun right after the one taken: as before
    assert done is None and t.text == "greece egypt "
    assert typed(line, "greece ep")[1] == ("greece egypt persia ", True)


def test_a_misspelt_item_is_refused_naming_it_and_what_it_may_have_meant_and_the_log_is_unchanged(sqlite_svc):
    gid = deal(sqlite_svc)
    try:
        sqlite_svc.act(gid, "greece egpyt rome")
    except ServiceError as e:
        said = str(e)
    else:
        raise AssertionError("recorded")
    assert "no item 'egpyt' here (did you mean egypt?); possible: carthage, egypt, greece, persia, rome" in said
    assert "\n" not in said
    assert len(sqlite_svc.load(gid).events) == 1


def test_play_refuses_the_misspelt_word_at_enter_and_records_nothing(sqlite_svc, tmp_path):
    gid = deal(sqlite_svc)
    child = spawn_play(tmp_path, gid)
    child.send("greece egpyt\r")  # read key by key, as typed
    child.expect("no item 'egpyt' here \\(did you mean egypt\\?\\)")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert len(sqlite_svc.load(gid).events) == 1


def test_near_names_a_slip_of_a_letter_or_two_swapped_and_nothing_far_or_short():
    assert entry.near("egpyt", NATIONS) == ["egypt"]
    assert entry.near("egpy", NATIONS) == ["egypt"]  # the start of a word, one swap away
    assert entry.near("grece", NATIONS) == ["greece"]
    assert entry.near("xyz", NATIONS) == [] and entry.near("eg", NATIONS) == [] and entry.near("123", NATIONS) == []
    assert entry.near("agamenon", ["greece.agamemnon", "greece.guard"]) == ["greece.agamemnon"]  # a later word
    assert entry.near("palisad", ["A02", "A06"], {"A02": "Palisade", "A06": "Sanctuary of Hera"}) == ["A02"]


def test_a_step_s_refusal_names_the_answer_a_misspelt_word_may_have_meant():
    question = steps.Question("card", "which card to lay face down for the attack",
                              (steps.Choice("persia.spearman"), steps.Choice("persia.war-rhino")))
    try:
        steps.pick(question, "sperman")
    except entry.EntryError as e:
        said = str(e)
    else:
        raise AssertionError("picked")
    assert said == ("which card to lay face down for the attack: 'sperman' is none of the answers (did you mean"
                    " persia.spearman?); possible: persia.spearman, persia.war-rhino")

"""scripts/keystrokes.py types the shortest input agon play takes: checked on its helpers (the whole measurement
replays every shipped game through a pty and takes minutes; the README states its figures)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from agon.core import entry

SCRIPT = Path(__file__).parent.parent / "scripts" / "keystrokes.py"


def load():
    spec = importlib.util.spec_from_file_location("keystrokes", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("keystrokes", mod)  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_the_shortest_input_names_the_item_and_no_shorter_one_does():
    ks = load()
    items = ["any", "argos-2", "argos-candidate", "athens-2", "athens-assassin", "athens-candidate", "sparta-2"]
    for item in items:
        short = ks.shortest_item(item, items)
        assert entry.resolve(short, items) == item
        for cut in range(1, len(short)):
            try:
                assert entry.resolve(short[:cut], items) != item or short[:cut] in ks.RESERVED
            except entry.EntryError:
                pass
    assert ks.shortest_item("athens-candidate", items) == "atc"  # at(hens) c(andidate): not ar(gos)


def test_a_command_word_is_never_typed_as_an_entry():
    ks = load()
    assert ks.shortest_item("bowman", ["bowman", "guard"]) == "b"  # 'b' alone is an entry, not a branch
    assert ks.shortest_item("rome", ["rome", "greece"]) == "ro"  # 'r' is redo


def test_a_number_is_typed_without_its_leading_zeros():
    ks = load()
    assert ks.shortest_item("A06", ["A01", "A06", "A16"]).lower() == "a6"  # "a0" may be A01


def test_each_word_is_typed_only_until_play_takes_it_and_enter_only_where_the_entry_does_not_end_by_itself():
    from agon.cli.play_cmds import guarded, settle_items
    from agon.core.engine import Chance

    ks = load()
    items = ("c2", "c20", "megara-2", "megara-candidate", "sparta-2")
    draw = Chance("draw", "display", lambda o: None, count=2, items=items)  # type: ignore[arg-type]
    complete = guarded(lambda text: settle_items(draw, text))

    def plan(*meant):
        def valid(words, i):
            try:
                return [entry.resolve(w, items) for w in words] == list(meant[:i + 1])
            except entry.EntryError:
                return False

        return ks.plan_keys(complete, [ks.spellings(m) for m in meant], valid)

    assert plan("megara-candidate", "c20") == ("mcc20", False)  # 'mc' is taken, then 'c20': recorded, no Enter
    assert plan("megara-candidate", "c2") == ("mcc2", True)  # 'c2' may still become 'c20': Enter ends it
    assert plan("sparta-2", "c2") in (("s c2", True), ("spc2", True))  # 's' alone may become 'state' or 'seed'
    typed, keys, took, ended = ks.type_word(ks.Typing(complete), "mc")
    assert (typed.text, keys, took, ended) == ("megara-candidate ", "mc", True, False)
    # keys that go on spelling the word just taken are held back as more of it ('sp' took sparta-2; 's' alone
    # may be state or seed), so the planner never counts them as the next word
    t, _, _, _ = ks.type_word(ks.Typing(complete), "sp")
    held, _, took, _ = ks.type_word(t, "ar")  # more of sparta-2: swallowed, nothing taken
    assert not took and held.text == "sparta-2 " and held.held == "ar"
    # the next prompt after an entry that ended by itself: keys that would spell its word on get a space first
    assert ks.carried(complete, "rta-2", "r", True) == (" r", None)
    assert ks.carried(complete, "rta-2", "c20", False) == ("c20", None)


def test_help_and_an_unknown_game_answer_without_measuring(capsys):
    ks = load()
    assert ks.main(["--help"]) == 0
    assert "pseudo-terminal" in capsys.readouterr().out
    assert ks.main(["perikles"]) == 2  # a ruleset, not a replay's name: said in one line, nothing measured
    err = capsys.readouterr().err
    assert err.startswith("error: no replay 'perikles' in replays/") and "perikles-4p" in err

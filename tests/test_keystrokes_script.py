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

"""cli.keyread.Typing's keys typed on, with no space, to the word that ended the entry before (``glued``): where the
words of the entry's tail that the rules bar only so (core.steps ``TypedOn``) may follow, they are held and refused
in one line (``AFTER``), never read as this prompt's answer; a key that leaves them begins the line with the keys
typed here. Without a terminal, as scripts/keystrokes.py plans keys."""

from __future__ import annotations

from agon.cli.keyread import AFTER, Typing
from agon.cli.play_cmds import begins_items, guarded, settle_items
from agon.core.engine import Chance
from agon.core.steps import TypedOn

TILES = ("any", "argos-2", "athens-2", "athens-candidate", "corinth-2", "lemnos-2", "sparta-2")
ALEX = TypedOn("which candidate to assassinate in Corinth: ...: Alex is no candidate in Corinth (A Chloe, B Bruno)")


def refill(tail: dict, glued: str | None = "a", rest: str | None = "") -> Typing:
    draw = Chance("draw", "display", lambda o: None, count=1, items=TILES)  # type: ignore[arg-type]
    return Typing(guarded(lambda text: settle_items(draw, text)), begins=begins_items(draw), tail=dict(tail),
                  enter_after_end=True, glued=glued, rest=rest)


def feed(t: Typing, keys: str):
    for ch in keys:
        _, done = t.key(ch)
        if done is not None:
            return done
    return None


def test_a_barred_name_typed_on_to_the_letter_is_refused_not_read_here():
    assert feed(refill({"alex": ALEX}), "lex\r") == (AFTER + "alex", False)
    assert feed(refill({"alex": ALEX}), "le ") == (AFTER + "alex", False)  # cut short: the word it begins


def test_keys_typed_on_that_leave_the_barred_names_begin_the_line():
    t = refill({"alex": ALEX})
    assert feed(t, "lq") is None and t.text == "lq"  # shown at this prompt, not taken for Alex
    t = refill({"alex": ALEX})
    assert feed(t, "n") is None and t.text == "n"


def test_after_a_space_the_barred_name_is_this_prompts_word_as_ever():
    t = refill({"alex": ALEX})
    assert feed(t, " le") == ("lemnos-2 ", True)  # the space ended the taken word: 'le' is read here
    t = refill({"alex": ALEX}, glued=None)
    assert feed(t, "le") == ("lemnos-2 ", True)  # no word typed on to: nothing held


def test_a_prefix_of_a_refused_tail_word_is_refused_by_that_word():
    """``an`` of ``ana`` (a word typed after the entry, apart) was refused as 'an', whose why the caller could not
    find: the refusal read "is not read: ; that entry stands"."""
    t = refill({"b": None, "ana": "Ana is no candidate in Athens"}, glued=None, rest=None)
    assert feed(t, "an\r") == (AFTER + "ana", False)

"""What ``agon play`` shows while keys are held (cli.keyread.Typing's echo): keys that may still spell the word
just taken, a word typed on to the entry before (its ``tail``) or a name refused as typed on to its last word were
shown only once the word was decided, so a person typing ``bru`` after ``cor`` saw nothing. They are now shown as
typed, and taken back on the screen when the word is swallowed or read otherwise; what is read is unchanged."""

from __future__ import annotations

from agon.cli.keyread import AFTER, Typing
from tests.test_keyread import feed, leaders, typing
from tests.test_keyread_tail import ALEX, refill


def screen(t: Typing, keys: str) -> list[str]:
    """The prompt's line as a terminal shows it after each key (``\\b \\b`` rubs out one character), checked
    against what ``t`` says it shows."""
    line, seen = t.shown, []
    for ch in keys:
        echo, done = t.key(ch)
        while echo:
            if echo.startswith("\b \b"):
                assert line, "a backspace with nothing on the line"
                line, echo = line[:-1], echo[3:]
            else:
                line, echo = line + echo[0], echo[1:]
        seen.append(line)
        if done is not None:
            break
        assert line == t.shown
    return seen


def test_a_word_typed_on_to_the_entry_before_is_shown_as_typed_and_taken_back_once_it_confirms_it():
    # 'b' can only confirm the entry ('b', 'bruno'): taken; 'runo' spells it on; the space ends it, swallowed
    assert screen(refill(), "bruno ") == ["b", "br", "bru", "brun", "bruno", ""]
    t = refill()
    assert screen(t, "bru\r") == ["b", "br", "bru", ""]  # the Enter after it is swallowed too, the line empty


def test_a_word_the_entry_before_refuses_stays_on_the_line_it_ends():
    assert screen(refill(), "ana\r")[-2:] == ["ana", "ana\n"]
    assert screen(refill({"alex": ALEX}, glued="a", rest=""), "lex ") == ["l", "le", "lex", "lex\n"]


def test_held_keys_that_begin_the_line_stay_shown_as_read():
    t = refill()
    assert screen(t, "an") == ["a", "an"]  # may still be 'ana'
    assert screen(t, "y") == ["any \n"]  # 'any' at the draw: taken, shown in full, and the entry ends
    t = refill({"alex": ALEX}, glued="a", rest="")
    assert screen(t, "lq") == ["l", "lq"]  # left Alex: the keys typed here are the line


def test_keys_spelling_the_taken_word_on_are_shown_and_taken_back_at_its_end():
    t = leaders()
    assert screen(t, "peri") == ["p", "pe", "per", "Perikles "]
    assert screen(t, "kles ") == ["Perikles k", "Perikles kl", "Perikles kle", "Perikles kles", "Perikles "]
    assert t.text == "Perikles "
    t = leaders()
    assert screen(t, "perik\x7f")[-2:] == ["Perikles k", "Perikles "]  # a backspace rubs a held key out
    # a key that leaves the spelling with keys that begin no name with it: a slip inside the word, which is shown
    # again as typed, with the keys held and the key
    assert screen(t, "kq") == ["Perikles k", "perikq"]
    assert t.text == "perikq"


def test_held_keys_that_begin_the_next_word_are_read_as_shown():
    t = typing(2)
    screen(t, "sp")
    assert screen(t, "hy") == ["creature.sphinx h", "creature.sphinx creature.hydra \n"]


def test_what_is_read_is_the_same_as_before():
    assert feed(refill(), "ana\r") == (AFTER + "ana", False)
    t = typing(3)
    assert feed(t, "creature.hydra pegasus s") == ("creature.hydra creature.pegasus creature.sphinx ", True)

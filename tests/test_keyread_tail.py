"""cli.keyread.Typing's ``tail``: the words that may be typed on to an entry that ended by itself (core.steps
``names_after``: a Perikles assassin's one candidate after the city) are read with that entry at the next prompt,
never as its answer; a key that leaves them begins the line as ever."""

from __future__ import annotations

from agon.cli.keyread import AFTER, Typing
from agon.cli.play_cmds import begins_items, guarded, settle_items
from agon.core.engine import Chance
from agon.core.steps import TypedOn
from tests.test_keyread import feed

TILES = ("any", "argos-2", "athens-2", "athens-candidate", "corinth-2", "lemnos-2", "sparta-2")
TAIL = {"b": None, "bruno": None, "a": "Athens has no candidate A", "ana": "Ana is no candidate in Athens"}
ALEX = TypedOn("which candidate to assassinate in Corinth: ...: Alex is no candidate in Corinth (A Chloe, B Bruno)")


def refill(tail: dict = TAIL, glued: str | None = None, rest: str | None = None) -> Typing:
    """The display's refill prompt after an entry that ended by itself with ``tail``; ``glued``: the word that ended
    it, to which keys may be typed on with no space (``rest``: what is left of it to swallow)."""
    draw = Chance("draw", "display", lambda o: None, count=1, items=TILES)  # type: ignore[arg-type]
    return Typing(guarded(lambda text: settle_items(draw, text)), begins=begins_items(draw), tail=dict(tail),
                  enter_after_end=True, glued=glued, rest=rest)


def test_the_candidates_name_typed_on_is_swallowed_and_the_prompt_then_reads_its_own_answer():
    t = refill()
    assert feed(t, "bruno ") is None and t.text == ""
    assert feed(t, "cor") == ("corinth-2 ", True)
    t = refill()
    assert feed(t, "bru\r") is None and t.text == ""  # 'bru' can only confirm: taken, the Enter after it swallowed
    assert feed(t, "sp") == ("sparta-2 ", True)


def test_a_word_the_rules_bar_there_is_refused_not_read_as_this_prompts_answer():
    assert feed(refill(), "ana\r") == (AFTER + "ana", False)
    assert feed(refill(), "a ") == (AFTER + "a", False)


def test_a_key_that_leaves_the_words_begins_the_line_with_the_keys_held():
    t = refill()
    assert feed(t, "an") is None and t.text == ""  # held: it may still be 'ana'
    assert feed(t, "y") == ("any ", True)  # 'any' at the draw
    assert feed(refill(), "ath") is None  # 'at' left the words: athens-2 or athens-candidate, not yet one

# Keys typed on, with no space, to the word that ended the entry before (``glued``): where the words of the entry's
# tail that the rules bar only so (core.steps ``TypedOn``) may follow, they are held and refused in one line
# (``AFTER``), never read as this prompt's answer; a key that leaves them begins the line with the keys typed here.


def test_a_barred_name_typed_on_to_the_letter_is_refused_not_read_here():
    assert feed(refill({"alex": ALEX}, glued="a", rest=""), "lex\r") == (AFTER + "alex", False)
    # cut short: refused as the word it begins
    assert feed(refill({"alex": ALEX}, glued="a", rest=""), "le ") == (AFTER + "alex", False)


def test_keys_typed_on_that_leave_the_barred_names_begin_the_line():
    t = refill({"alex": ALEX}, glued="a", rest="")
    assert feed(t, "lq") is None and t.text == "lq"  # shown at this prompt, not taken for Alex
    t = refill({"alex": ALEX}, glued="a", rest="")
    assert feed(t, "n") is None and t.text == "n"


def test_after_a_space_the_barred_name_is_this_prompts_word_as_ever():
    t = refill({"alex": ALEX}, glued="a", rest="")
    assert feed(t, " le") == ("lemnos-2 ", True)  # the space ended the taken word: 'le' is read here
    t = refill({"alex": ALEX}, rest="")
    assert feed(t, "le") == ("lemnos-2 ", True)  # no word typed on to: nothing held


def test_a_prefix_of_a_refused_tail_word_is_refused_by_that_word():
    """``an`` of ``ana`` (a word typed after the entry, apart) was refused as 'an', whose why the caller could not
    find: the refusal read "is not read: ; that entry stands". (``dar`` of ``dario`` here: ``an`` names the tile
    ``any`` at this draw, and is read so: the test below.)"""
    t = refill({"b": None, "dario": "Dario is no candidate in Athens"})
    assert feed(t, "dar\r") == (AFTER + "dario", False)


def test_a_word_the_entry_before_refuses_that_names_an_answer_here_is_read_here():
    """``an`` after ``meg-ass ath`` was held as the start of ``ana`` (no candidate in Athens) and refused so at its
    end, though at the refill draw on the screen it names the tile ``any`` alone: a person typing the tile drawn
    was told Ana is no candidate in Athens. A word refused as typed on to the entry before is refused only where it
    names nothing here; it is still held until its end, so ``ana`` typed on is never taken as ``any``."""
    t = refill()
    assert feed(t, "an") is None and t.text == ""  # held: it may still be 'ana'
    assert feed(t, "\r") == ("an", False)  # then Enter: the draw reads it (play takes it as 'any')
    assert feed(refill(), "an ") == ("an ", True)  # a space: the one item drawn is named, the entry ends
    assert feed(refill(), "ana\r") == (AFTER + "ana", False)  # names nothing here: refused as before
    assert feed(refill(), "a\r") == (AFTER + "a", False)  # 'a' names no one tile here
    t = refill({"any": "Any is no candidate in Athens"})  # a player named Any: the whole word names the tile too
    assert feed(t, "any ") == ("any ", True)


# At a step whose values are typed by who stands there (core.steps ``_typed_on``: after ``cor a`` took Chloe's A),
# the names are read typed on to the letter and after a space alike: plain reasons, not ``TypedOn``.
NAMED = {"chloe": None, "bruno": "...: the entry took A (Chloe); Bruno is B",
         "alex": "...: Alex is no candidate in Corinth (A Chloe, B Bruno)"}


def test_a_name_typed_after_a_space_after_the_letter_is_read_with_the_entry():
    assert feed(refill(NAMED, glued="a", rest=""), " alex\r") == (AFTER + "alex", False)
    assert feed(refill(NAMED, glued="a", rest=""), "lex ") == (AFTER + "alex", False)  # typed on, as before
    assert feed(refill(NAMED, glued="a", rest=""), " bruno ") == (AFTER + "bruno", False)
    t = refill(NAMED, glued="a", rest="")
    assert feed(t, " chloe ") is None and t.text == ""  # confirms the entry: swallowed
    assert feed(t, "sp") == ("sparta-2 ", True)


def test_after_a_space_a_key_that_leaves_the_names_begins_the_line():
    t = refill(NAMED, glued="a", rest="")
    assert feed(t, " a") is None and t.text == ""  # may still be 'alex'
    assert feed(t, "r") == ("argos-2 ", True)


# Where the entry filled in the city as well (``spaa``: Athens the one city with a candidate), the city is a word of
# its tail too, and the draw after it lists tiles that begin with the city's name.
CITY = {"athens": None, "a": None, "bruno": None}


def test_a_word_that_confirms_the_entry_and_begins_an_answer_here_waits_for_its_end():
    t = refill(CITY)
    assert feed(t, "ath ") is None and t.text == ""  # the city typed on: swallowed at the word's end
    assert feed(t, "sp") == ("sparta-2 ", True)
    assert feed(refill(CITY), "ath2") == ("athens-2 ", True)  # '2' left the city's name: the tile athens-2
    assert feed(refill(CITY), "athc") == ("athens-candidate ", True)
    t = refill(CITY)
    assert feed(t, "bru") is None and t.text == ""  # begins no tile here: swallowed at once, as before
    assert feed(t, "no co") == ("corinth-2 ", True)


def test_keys_that_may_confirm_the_entry_and_that_this_prompt_takes_at_once_are_its_answer():
    """A city the entry filled in, typed on, is swallowed at its end; but keys this prompt takes at once (``co``,
    the one Corinth tile drawn here) were held while they might still spell it, so the shortest entry of a tile
    waited for a key more: they are this prompt's, as where nothing was typed on before."""
    assert feed(refill({"corinth": None}), "co") == ("corinth-2 ", True)


def test_two_words_that_confirm_the_entry_are_both_read_with_it():
    """'spaa ath bru' (the city and the candidate an assassin's tile alone settled): 'ath' confirmed the entry and
    'bru' then began the draw's line ("no item 'bru' here"). Each word typed on that confirms it is swallowed."""
    t = refill(CITY)
    assert feed(t, "ath bru ") is None and t.text == ""
    assert feed(t, "an") == ("any ", True)
    t = refill(CITY)
    assert feed(t, "bruno a ") is None and t.text == ""
    assert feed(t, "sp") == ("sparta-2 ", True)

"""cli.keyread.Typing: a line typed key by key as ``agon play`` reads it in a terminal, without one: words taken as
soon as they can only mean one item, and a taken word that is typed on to its end swallowed, so a person who types
whole names records what they typed."""

from __future__ import annotations

from agon.cli.keyread import Typing
from agon.cli.play_cmds import begins_items, guarded, settle_items
from agon.core.engine import Chance

ITEMS = ("creature.hydra", "creature.medusa", "creature.pegasus", "creature.phoenix", "creature.sphinx")


def typing(count: int) -> Typing:
    draw = Chance("draw", "creatures", lambda o: None, count=count, items=ITEMS)  # type: ignore[arg-type]
    return Typing(guarded(lambda text: settle_items(draw, text)), begins=begins_items(draw))


def feed(t: Typing, keys: str):
    done = None
    for ch in keys:
        _, done = t.key(ch)
        if done is not None:
            return done
    return done


def test_whole_ids_and_later_words_typed_on_are_swallowed():
    # 'creature.hy' takes hydra, 'pe' takes pegasus by its later word: the rest of each, and the space after it,
    # are swallowed; 's' takes sphinx and ends the entry
    t = typing(3)
    assert feed(t, "creature.hydra pegasus s") == ("creature.hydra creature.pegasus creature.sphinx ", True)
    assert t.rest == "phinx"  # left for the next prompt to swallow if typed


def test_keys_that_leave_the_taken_word_begin_the_next_when_they_begin_a_name():
    t = typing(2)
    assert feed(t, "sp") is None and t.text == "creature.sphinx "
    # 'h' goes on spelling sphinx (held back); 'y' leaves it: 'hy' begins hydra, so the held 'h' and the 'y' are
    # the next word, which can only be hydra and ends the entry
    assert feed(t, "hy") == ("creature.sphinx creature.hydra ", True)


def test_a_key_that_leaves_the_taken_word_and_begins_no_name_with_the_held_keys_is_a_slip_inside_that_word():
    t = typing(2)
    assert feed(t, "m") is None and t.text == "creature.medusa "
    # 'e' goes on spelling medusa (held back); 'p' leaves it, and 'ep' begins no name: 'mep' is one word mistyped,
    # which stands as typed (it began the next word by itself: 'meph' recorded Medusa and Phoenix, no Enter)
    assert feed(t, "ep") is None and t.text == "mep"
    assert feed(t, "h") is None and t.text == "meph"
    assert feed(t, "\n") == ("meph", False)  # refused at Enter, naming the word (core.entry)
    t = typing(2)
    assert feed(t, "mph") == ("creature.medusa creature.phoenix ", True)  # the next word begun right after it


LEADERS = ("Perikles", "Persians", "Kerkyra", "Korinth")


def leaders() -> Typing:
    draw = Chance("draw", "leaders", lambda o: None, count=2, items=LEADERS)  # type: ignore[arg-type]
    return Typing(guarded(lambda text: settle_items(draw, text)), begins=begins_items(draw))


def test_a_key_that_begins_no_name_is_not_glued_to_the_keys_held_back():
    t = leaders()
    assert feed(t, "peri") is None and t.text == "Perikles "
    # 'k' goes on spelling Perikles; 'q' begins no name and goes on none: a slip inside the word, which stands as
    # typed ('perikq', to be mended or refused at Enter), neither 'Perikles q' nor 'Perikles kq'
    assert feed(t, "kq") is None and t.text == "perikq"
    assert feed(t, "\x7f") is None and t.text == "perik"
    # typed again with a name after it: 'ko' (the held 'k' and an 'o') begins Korinth, which it then takes
    t = leaders()
    assert feed(t, "perikor") == ("Perikles Korinth ", True)


def test_a_separator_ends_a_word_typed_partly_on():
    t = typing(2)
    assert feed(t, "hyd, phoe") == ("creature.hydra creature.phoenix ", True)


def test_the_rest_of_a_word_that_ended_the_entry_is_swallowed_at_the_next_prompt():
    first = typing(1)
    assert feed(first, "hy") == ("creature.hydra ", True)
    second = Typing(first.complete, rest=first.rest)
    assert feed(second, "dra ph") == ("creature.phoenix ", True)
    third = Typing(first.complete, rest=second.rest)  # 'oenix' left: Enter after a space-less 'oe' ends nothing
    assert feed(third, "oe\n") == ("", False)


def test_the_enter_after_an_entry_that_ended_by_itself_is_swallowed_without_a_line():
    """'hydra' typed whole and Enter, where 'hy' ended the entry: the Enter, after 'dra' spelled on at the next
    prompt, was returned as an empty line, which play ignored by printing its prompt a second time."""
    first = typing(1)
    assert feed(first, "hy") == ("creature.hydra ", True)
    nxt = Typing(first.complete, rest=first.rest, enter_after_end=True)
    # no line, so no second prompt; the keys spelling hydra on are shown as typed, and taken back at the Enter
    assert [nxt.key(ch) for ch in "dra\n"] == [("d", None), ("r", None), ("a", None), ("\b \b" * 3, None)]
    assert nxt.shown == ""
    assert feed(nxt, "\n") == ("", False)  # a second Enter is a line again
    fresh = Typing(first.complete, enter_after_end=True)
    assert feed(fresh, "ph\n") == ("creature.phoenix ", True)  # an entry typed first: the flag is spent


ROMANS = ("rome.ballista.1", "rome.caesar", "rome.centurion", "rome.praetorian", "rome.spearman.1", "rome.spearman.2")


def test_an_abbreviation_typed_on_after_it_was_taken_is_swallowed_at_the_next_prompt_too():
    """'rca' for rome.caesar, after 'rce' took rome.centurion: 'rc' can then only be Caesar, which ends the entry;
    the 'a' typed on began the next entry (Cy's draw was refused: "no item 'a' here")."""
    romans = Chance("draw", "Bo draws", lambda o: None, count=3, items=ROMANS)  # type: ignore[arg-type]
    first = Typing(guarded(lambda text: settle_items(romans, text)), begins=begins_items(romans))
    assert feed(first, "rsp1 rce rc") == ("rome.spearman.1 rome.centurion rome.caesar ", True)
    one = Chance("draw", "Bo draws", lambda o: None, count=1, items=ROMANS)  # type: ignore[arg-type]
    second = Typing(guarded(lambda text: settle_items(one, text)), rest=first.rest, begins=begins_items(one))
    assert feed(second, "a") is None and second.text == ""  # Caesar typed on: nothing begun
    assert feed(second, "rp") == ("rome.praetorian ", True)  # then the next entry
    third = Typing(second.complete, rest=second.rest, begins=second.begins)
    assert feed(third, "r ") is None and third.text == ""  # 'rpr' and its space: Praetorian typed on


def test_an_abbreviation_typed_on_into_a_later_word_is_swallowed_too():
    """'pwr' for persia.war-rhino: 'pw' takes it and ends Cy's draw; the 'r' goes on abbreviating it (rhino), and
    so does 'hino' after it, at the next prompt: nothing is begun there."""
    persians = ("persia.bowman.2", "persia.horseman", "persia.war-rhino")
    one = Chance("draw", "Cy draws", lambda o: None, count=1, items=persians)  # type: ignore[arg-type]
    first = Typing(guarded(lambda text: settle_items(one, text)), begins=begins_items(one))
    assert feed(first, "pw") == ("persia.war-rhino ", True)
    second = Typing(first.complete, rest=first.rest, begins=first.begins)
    assert feed(second, "rhino ") is None and second.text == ""
    assert feed(second, "ph") == ("persia.horseman ", True)  # the next entry, begun afresh
    third = Typing(first.complete, rest=first.rest, begins=first.begins)
    assert feed(third, "r\x7fph") == ("persia.horseman ", True)  # a key taken back, then another word

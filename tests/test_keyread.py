"""cli.keyread.Typing: a line typed key by key as ``agon play`` reads it in a terminal, without one: words taken as
soon as they can only mean one item, and a taken word that is typed on to its end swallowed, so a person who types
whole names records what they typed."""

from __future__ import annotations

from agon.cli.keyread import Typing
from agon.cli.play_cmds import guarded, settle_items
from agon.core.engine import Chance

ITEMS = ("creature.hydra", "creature.medusa", "creature.pegasus", "creature.phoenix", "creature.sphinx")


def typing(count: int) -> Typing:
    draw = Chance("draw", "creatures", lambda o: None, count=count, items=ITEMS)  # type: ignore[arg-type]
    return Typing(guarded(lambda text: settle_items(draw, text)))


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


def test_keys_that_leave_the_taken_word_begin_the_next():
    t = typing(2)
    assert feed(t, "m") is None and t.text == "creature.medusa "
    # 'e' goes on spelling medusa (held back); 'p' leaves it: the held 'e' and the 'p' begin the next word, which
    # names nothing: nothing is taken, and the line reads as typed
    assert feed(t, "ep") is None and t.text == "creature.medusa ep"


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

"""cli.keyread.Typing's ``tail``: the words that may be typed on to an entry that ended by itself (core.steps
``names_after``: a Perikles assassin's one candidate after the city) are read with that entry at the next prompt,
never as its answer; a key that leaves them begins the line as ever."""

from __future__ import annotations

from agon.cli.keyread import AFTER, Typing
from agon.cli.play_cmds import begins_items, guarded, settle_items
from agon.core.engine import Chance

TILES = ("any", "argos-2", "athens-2", "athens-candidate", "corinth-2", "sparta-2")
TAIL = {"b": None, "bruno": None, "a": "Athens has no candidate A", "ana": "Ana is no candidate in Athens"}


def refill() -> Typing:
    draw = Chance("draw", "display", lambda o: None, count=1, items=TILES)  # type: ignore[arg-type]
    return Typing(guarded(lambda text: settle_items(draw, text)), begins=begins_items(draw), tail=dict(TAIL),
                  enter_after_end=True)


def feed(t: Typing, keys: str):
    for ch in keys:
        _, done = t.key(ch)
        if done is not None:
            return done
    return None


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

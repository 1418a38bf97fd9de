"""The real ``agon play`` at a Perikles assassin tile taken where the city named has one candidate (Athens: B
Bruno): the city settles the whole decision and ends the entry by itself, and the candidate's name typed after it
(``ath bru``, as a table says it) answered the next prompt ("no item 'bru' here"). A word typed on to the entry is
now read with it: one that names that candidate (``bru``, ``b``, ``bruno``) confirms the entry recorded and is
swallowed, and any other that the rules bar there (``ana``, ``a``) is refused in one line naming the rule; neither
is carried into the next prompt, which is still asked."""

from __future__ import annotations

import re

import pytest

from tests.test_play_pty import PROMPT, spawn_play, type_keys
from tests.test_play_pty_candidate_names import RECORDED, table_game


@pytest.fixture
def athens(sqlite_svc, tmp_path):
    """Ana takes an influence tile; a Megara assassin is on display, and Athens' one candidate is B, Bruno."""
    svc = sqlite_svc
    game = table_game(svc, RECORDED)
    assert svc.load(game).state.candidates[0] == (-1, 1)  # Athens: A free, B Bruno
    return svc, game, spawn_play(tmp_path, game)


@pytest.mark.parametrize("keys", ["bru", "b", "bruno", "\r", "Bruno\r"])
def test_the_one_candidates_name_after_the_city_confirms_the_assassination(athens, keys):
    svc, game, child = athens
    type_keys(child, f"meg-ass ath {keys}")
    child.expect("assassinating Bruno, candidate B in Athens")
    child.expect("influence tile refilling the display")
    child.expect(PROMPT)
    child.sendline("q")  # nothing typed reached this prompt: 'q' alone quits ('bru' or 'no' before it would not)
    child.expect("Stopped")
    assert len(svc.load(game).events) == 29  # the setup, the 27, the tile taken


@pytest.mark.parametrize(("keys", "said"), [
    ("ana", "Ana is no candidate in Athens (A free, B Bruno)"),
    ("a", "Athens has no candidate A to assassinate (A free, B Bruno)"),
])
def test_another_word_typed_on_is_refused_naming_the_rule_and_answers_nothing(athens, keys, said):
    svc, game, child = athens
    type_keys(child, f"meg-ass ath {keys}\r")
    child.expect("assassinating Bruno, candidate B in Athens")  # the city ended the entry: recorded
    child.expect_exact(f"'{keys}', typed after the entry that ended by itself, is not read: which candidate to"
                       " assassinate in Athens: B (Bruno): ")
    folded = r"\s+".join(re.escape(w) for w in f"{said}; that entry stands as recorded ('u' takes it back)".split())
    child.expect(folded)  # folded to the terminal's width
    child.expect("Still: chance needed: influence tile refilling the display")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Stopped")
    assert len(svc.load(game).events) == 29  # the setup, the 27, the tile taken: the word answered no draw


def test_the_name_typed_on_is_shown_as_typed_and_taken_back_once_it_confirms_the_entry(athens):
    """Keys held while they may spell a word read with the entry before were shown only once it was decided: the
    person typing 'bruno' after 'ath' saw nothing. They are shown, then rubbed out at the word's end."""
    svc, game, child = athens
    type_keys(child, "meg-ass ath br")
    child.expect("influence tile refilling the display")
    child.expect(PROMPT)
    child.expect_exact("br")  # shown as typed, at the prompt that holds them (after the 'h' of 'ath' rubbed out)
    type_keys(child, "uno ")
    child.expect_exact("uno" + "\b \b" * 5)  # the word confirmed the entry: taken back, the line empty again
    child.sendline("q")
    child.expect("Stopped")
    assert len(svc.load(game).events) == 29


def test_a_word_refused_after_the_entry_that_names_the_tile_drawn_is_that_tile(athens):
    """``an`` typed at the refill draw after ``meg-ass ath`` was held as the start of ``ana`` (no candidate in
    Athens), and Enter refused it so: "'ana', typed after the entry that ended by itself, is not read: ... Ana is
    no candidate in Athens", though ``an`` names the one tile ``any`` at the draw on the screen. It is that tile."""
    svc, game, child = athens
    type_keys(child, "meg-ass ath")
    child.expect("influence tile refilling the display")
    child.expect(PROMPT)
    type_keys(child, "an\r")
    child.expect("any")
    child.expect(PROMPT)
    assert "not read" not in child.before
    child.sendline("q")
    child.expect("Stopped")
    events = svc.load(game).events
    assert len(events) == 30  # the setup, the 27, the tile taken, the tile drawn
    assert "any" in str(events[-1])

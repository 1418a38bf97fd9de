"""The real ``agon play`` at a Perikles assassin's last step, where a candidate is typed by position letter (A or B)
or by name, and a letter begins a name that is not its own position's: Bruno as A and Ana as B, ``ana`` typed for
Ana recorded Bruno (``a`` was taken at once as A) and carried ``na`` to the next prompt; Chloe as A and Ana as B,
``ana`` assassinated Chloe. A letter is now taken at once only where no other candidate's name begins with it, so
a name typed in full is always its own candidate, and a letter then a space its position. A player who stands
nowhere there (Alex, where ``a`` is Chloe's A at once) typed on to the letter is refused in one line, naming the
rule: the keys typed on never answer the next prompt. Typed after a space (``a alex``), the name answered the next
prompt (the draw: "no item 'alex' here"); it is now read with the entry as typed on: the candidate taken confirms
it, another name is refused in one line."""

from __future__ import annotations

import re

import pytest

from tests.test_play_pty import PROMPT, spawn_play, type_keys
from tests.test_play_pty_candidate_names import table_game


def _quit_after_one_event(svc, game, child) -> None:
    child.expect("influence tile refilling the display")
    child.expect(PROMPT)
    child.sendline("q")  # nothing typed reached this prompt: 'q' alone quits ('naq' or 'lexq' would not)
    child.expect("Stopped")
    assert len(svc.load(game).events) == 29  # the setup, the 27, the tile taken


@pytest.mark.parametrize(("names", "keys", "who"), [
    (("Chloe", "Ana", "Bruno", "Dario"), "ana", "Ana, candidate B"),  # the brief's repro: it was Chloe
    (("Bruno", "Ana", "Chloe", "Dario"), "ana", "Ana, candidate B"),  # it was Bruno, 'na' carried on
    (("Bruno", "Ana", "Chloe", "Dario"), "bru", "Bruno, candidate A"),  # it was Ana
    (("Bruno", "Ana", "Chloe", "Dario"), "a ", "Bruno, candidate A"),  # the letter, ended by a space
    (("Bruno", "Ana", "Chloe", "Dario"), "b\r", "Ana, candidate B"),
    (("Chloe", "Bruno", "Ana", "Dario"), "a", "Chloe, candidate A"),  # no other name begins with 'a': at once
    # the candidate's name typed after a space, after the letter that took it: read with the entry, swallowed
    (("Chloe", "Bruno", "Alex", "Dario"), "a chloe", "Chloe, candidate A"),
    (("Chloe", "Bruno", "Alex", "Dario"), "a ch", "Chloe, candidate A"),  # taken once it can only be Chloe
])
def test_a_name_typed_records_its_own_candidate_and_a_letter_its_position(sqlite_svc, tmp_path, names, keys, who):
    svc = sqlite_svc
    game = table_game(svc, names)
    assert svc.load(game).state.candidates[3] == (0, 1)  # Corinth: A the first seat, B the second
    child = spawn_play(tmp_path, game)
    type_keys(child, f"meg-ass cor {keys}")
    child.expect(f"assassinating {who} in Corinth")
    _quit_after_one_event(svc, game, child)


@pytest.mark.parametrize(("names", "keys", "who", "said"), [
    # Alex stands nowhere in Corinth: 'a' is Chloe's A at once, and 'lex' typed on is refused, not read at the draw
    (("Chloe", "Bruno", "Alex", "Dario"), "alex\r", "Chloe, candidate A", "Alex is no candidate in Corinth"),
    (("Chloe", "Ana", "Bruno", "Dario"), "bruno ", "Ana, candidate B", "Bruno is no candidate in Corinth"),
    # after a space too: the name is read with the entry the letter ended, never at the draw asked next
    (("Chloe", "Bruno", "Alex", "Dario"), "a alex\r", "Chloe, candidate A", "Alex is no candidate in Corinth"),
    (("Chloe", "Bruno", "Alex", "Dario"), "a dario ", "Chloe, candidate A", "Dario is no candidate in Corinth"),
    (("Chloe", "Bruno", "Alex", "Dario"), "a bruno\r", "Chloe, candidate A", "the entry took A (Chloe); Bruno is B"),
])
def test_a_name_typed_on_to_the_letter_that_ended_the_entry_is_refused_in_one_line(sqlite_svc, tmp_path, names,
                                                                                    keys, who, said):
    svc = sqlite_svc
    game = table_game(svc, names)
    child = spawn_play(tmp_path, game)
    type_keys(child, f"meg-ass cor {keys}")
    child.expect(f"assassinating {who} in Corinth")  # the letter ended the entry: recorded
    word = keys.split()[-1]
    child.expect_exact(f"'{word}', typed after the entry that ended by itself, is not read: which candidate to"
                       " assassinate in Corinth: ")
    folded = r"\s+".join(re.escape(w) for w in f"{said}".split())
    child.expect(folded)
    child.expect(re.escape("that entry stands as recorded ('u' takes it back)"))
    child.expect("Still: chance needed: influence tile refilling the display")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Stopped")
    assert len(svc.load(game).events) == 29  # the setup, the 27, the tile taken: the word answered no draw

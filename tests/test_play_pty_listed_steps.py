"""The real ``agon play`` where the options are listed (a Perikles nomination, 33 options) and a decision is typed
by its steps: ``meg ana``, Megara's B being Chloe, fills in the free position A and ends the entry by itself. The
position typed on (``meg ana a``, as a table says it) answered the next player's prompt: it is read with the entry,
as where the decision is built step by step, and one the rules bar there (``b``) is refused in one line."""

from __future__ import annotations

import pytest

from agon.core.engine import Chance, Decision
from agon.core.service import NewGame
from tests.test_play_pty import PROMPT, spawn_play, type_keys


@pytest.fixture
def nominating(sqlite_svc, tmp_path):
    """A four-player table game at Bruno's nomination, Megara's candidate B Chloe and A free."""
    svc = sqlite_svc
    game = svc.new_game(NewGame("perikles", players=("Ana", "Bruno", "Chloe", "Dario"), seed=21, table=True))
    while not (isinstance(p := svc.load(game).pending, Decision) and "nominat" in p.prompt):
        svc.act(game, "seed" if isinstance(p, Chance) else "1")
    svc.act(game, "meg chl b")
    assert svc.load(game).pending.player == "Bruno"
    return svc, game, spawn_play(tmp_path, game)


def test_the_position_typed_on_after_steps_that_filled_it_in_is_read_with_the_entry(nominating):
    svc, game, child = nominating
    type_keys(child, "meg ana")
    child.expect("Bruno nominates Ana as candidate A in Megara")
    child.expect(PROMPT)
    type_keys(child, " a ")
    child.sendline("q")  # nothing typed reached this prompt: 'q' alone quits ('a q' would not)
    child.expect("Stopped")
    assert svc.load(game).pending.player == "Chloe"


def test_a_position_the_rules_bar_there_is_refused_naming_the_rule(nominating):
    svc, game, child = nominating
    type_keys(child, "meg ana")
    child.expect("Bruno nominates Ana as candidate A in Megara")
    child.expect(PROMPT)
    type_keys(child, " b\r")
    child.expect_exact("'b', typed after the entry that ended by itself, is not read")
    child.expect("Megara's candidate B is Chloe already")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Stopped")
    assert svc.load(game).pending.player == "Chloe"

"""The real ``agon play`` at a Perikles assassin's last step where both candidates' names begin with a position's
letter (Ana as A, Anatole as B): ``a`` was taken at once as A, shown as its candidate's name (``Ana ``), and the
keys typed on were swallowed as more of that name (``na``) or carried to the next prompt (``t``), so ``anat`` typed
for Anatole assassinated Ana. Completion never eats keys the player goes on typing: the letter waits while another
candidate's name may still follow it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agon.core.service import NewGame
from tests.test_play_pty import PROMPT, spawn_play, type_keys

PERIKLES_4P = Path(__file__).resolve().parent / ".." / "replays" / "perikles-4p.jsonl"
RECORDED = ("Ana", "Bruno", "Chloe", "Dario")


def table_game(svc, names: tuple[str, ...]) -> str:
    """The recorded four-player game's first 27 events typed into a table game whose players are ``names`` (the
    recorded seats' in order): the first seat takes an influence tile, a Megara assassin on display, Corinth's
    candidates A the first seat and B the second."""
    game = svc.new_game(NewGame("perikles", players=names, seed=8, table=True))
    for line in PERIKLES_4P.read_text().splitlines():
        rec = json.loads(line)
        if 0 < rec.get("n", 0) <= 27:
            payload = {k: names[RECORDED.index(v)] if v in RECORDED else v for k, v in rec["payload"].items()}
            svc.act(game, json.dumps(payload))
    return game


@pytest.mark.parametrize(("names", "keys", "who"), [
    (("Ana", "Anatole", "Chloe", "Dario"), "anat", "Anatole, candidate B"),  # no Enter: 'anat' is Anatole alone
    (("Ana", "Anatole", "Chloe", "Dario"), "ana\r", "Ana, candidate A"),
    (("Ana", "Anatole", "Chloe", "Dario"), "a\r", "Ana, candidate A"),
    # where it begins the other candidate's name alone (Ana as B beside Chloe as A), it waits too: a space takes
    # the position ('a' alone took Chloe, and 'ana' typed for Ana assassinated Chloe: tests/test_play_pty_letters.py)
    (("Chloe", "Ana", "Bruno", "Dario"), "a ", "Chloe, candidate A"),
])
def test_a_position_letter_that_begins_a_candidates_name_waits_for_the_name(sqlite_svc, tmp_path, names, keys, who):
    svc = sqlite_svc
    game = table_game(svc, names)
    assert svc.load(game).state.candidates[3] == (0, 1)  # Corinth: A the first seat, B the second
    child = spawn_play(tmp_path, game)
    type_keys(child, f"meg-ass cor {keys}")
    child.expect(f"assassinating {who} in Corinth")
    child.expect("influence tile refilling the display")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Stopped")
    assert len(svc.load(game).events) == 29  # setup, the 27, the tile taken: no key typed on reached the next prompt


def test_a_letter_two_names_begin_waits_and_enter_on_the_start_of_both_is_refused_naming_them(sqlite_svc, tmp_path):
    svc = sqlite_svc
    game = table_game(svc, ("Ana", "Anatole", "Chloe", "Dario"))
    child = spawn_play(tmp_path, game)
    type_keys(child, "meg-ass cor an\r")
    child.expect("'an' is ambiguous: it may be A Ana, B Anatole; type more of it")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Stopped")
    assert len(svc.load(game).events) == 28  # the setup and the 27: nothing recorded

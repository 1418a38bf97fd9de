"""The real ``agon play`` at a Perikles assassin tile taken where one city alone has a candidate (Athens: A Bruno):
``spaa`` settles the whole decision, the city and the candidate filled in, and ends the entry by itself. The city
or the candidate typed on (``spaa ath``, as a table says it) answered the refill draw after it ("'ath' is
ambiguous: it may be athens-2, ..."): they are read with the entry, as where the city is typed (``meg-ass ath
bru``), while a tile typed at the draw (``ath2``, ``an`` for ``any``) is still the draw's."""

from __future__ import annotations

import pytest

from agon.core.service import NewGame
from tests.test_play_pty import PROMPT, spawn_play, type_keys
from tests.test_table_walk import PERIKLES_TO_ASSASSIN


@pytest.fixture
def assassin(sqlite_svc, tmp_path):
    svc = sqlite_svc
    game = svc.new_game(NewGame("perikles", players=("Ana", "Bruno", "Chloe", "Dario"), seed=12, table=True))
    for typed in PERIKLES_TO_ASSASSIN:
        svc.act(game, typed)
    return svc, game, spawn_play(tmp_path, game)


@pytest.mark.parametrize(("keys", "tile"), [
    ("ath an\r", "Any"), ("bruno an\r", "Any"), ("ath bru an\r", "Any"), ("athens ath2", "Athens 2-cube"),
    ("ath2", "Athens 2-cube"),
])
def test_the_city_typed_on_is_read_with_the_entry_and_the_draw_reads_its_tile(assassin, keys, tile):
    svc, game, child = assassin
    type_keys(child, "spaa")
    child.expect("assassinating Bruno, candidate A in Athens")
    child.expect("influence tile refilling the display")
    child.expect(PROMPT)
    type_keys(child, " " + keys)
    child.expect(f"The display is refilled with an? {tile} tile")
    child.expect(PROMPT)
    assert "not read" not in child.before and "ambiguous" not in child.before
    child.sendline("q")
    child.expect("Stopped")
    assert len(svc.load(game).events) == 16  # the setup, the 13, the tile taken, the tile drawn

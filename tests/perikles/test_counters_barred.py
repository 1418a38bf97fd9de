"""A counter the player may not send, typed at a commitment's counter step, is refused naming why: another city's
counters ('sparta-h1', or just 'spa'), or one of their own sent already. It was "'sparta-h1' is none of the answers",
which a table cannot tell from a typo."""

from __future__ import annotations

import pytest

from agon.core import entry, steps
from agon.core.engine import Decision
from agon.core.games.perikles import RULESET as PERIKLES
from agon.core.service import NewGame
from tests.test_play_pty import run_until

RULE = "Commitments (game help, 'mobilização de tropas')"


@pytest.fixture
def persian(sqlite_svc):
    """Seed 5, three players: Ana, who leads no city and so commands the Persians, commits first (Athens 2-cube
    tile; Plataea on the board)."""
    svc = sqlite_svc
    game = svc.new_game(NewGame("perikles", players=("Ana", "Bruno", "Chloe"), seed=5, table=True))
    run_until(svc, game, lambda p: isinstance(p, Decision) and "commit forces" in p.prompt)
    s = svc.load(game).state
    assert PERIKLES.pending(s).player == "Ana"
    return s


@pytest.mark.parametrize("typed", ["sparta-h1", "spa", "athens-h2-1"])
def test_another_citys_counters_are_refused_naming_who_commands_them(persian, typed):
    with pytest.raises(entry.EntryError) as refused:
        steps.build(PERIKLES, persian, f"ath pla a {typed}")
    city = "Athens" if typed.startswith("ath") else "Sparta"
    assert str(refused.value).startswith(
        f"which counter to send to Plataea (attacker): {RULE}: {city}'s counters are not Ana's to send; Ana commands"
        " only Persia; possible: persia-h2-1"), refused.value


def test_a_counter_sent_already_in_this_commitment_says_so(persian):
    with pytest.raises(entry.EntryError) as refused:
        steps.build(PERIKLES, persian, "ath pla a persia-h3-1 persia-h3-1")
    assert str(refused.value).startswith(
        f"another counter to Plataea, another location, or done: {RULE}: persia-h3-1 (Persia hoplite 3) is sent"
        " already in this commitment"), refused.value
    assert steps.build(PERIKLES, persian, "ath pla a persia-h3-1 persia-h3-2").placements[1].counter == "persia-h3-2"

"""Battles (perikles-game-help.pt.txt paragraphs 12-16; data facts 'Combat results table')."""

from __future__ import annotations

from fractions import Fraction

import pytest

from agon.core.engine import Chance
from agon.core.games.perikles import RULESET as RS
from agon.core.games.perikles.battle import column, strengths, targets
from agon.core.games.perikles.state import BATTLE, DEAL_LOCATIONS, Commit
from agon.events.perikles import BattleDiceRolled
from tests.perikles.helpers import at_battle, at_commit, play, refused

LEADERS = {"athens": 0, "sparta": 1, "corinth": 2, "megara": 3}
COLUMNS = ("1:2", "-2", "1:1", "+2", "2:1", "3:1")


def roll(a1: int, a2: int, d1: int, d2: int) -> BattleDiceRolled:
    return BattleDiceRolled(attacker=(a1, a2), defender=(d1, d2))


def battle_at(location: str, *commits: Commit):
    """A battle position where the special tiles are spent (nobody is asked to play one: these tests are about
    the dice; tests/perikles/test_specials.py and test_tile_asking.py ask)."""
    return at_battle(at_commit(leaders=LEADERS, locations=(location,), commits=commits), tiles_used=True)


# -- the combat results table ------------------------------------------------------------------------------------


def reference_column(a: int, d: int) -> str:
    """The column by the data facts' wording, read as ratios and differences (an independent restatement)."""
    ratio = Fraction(a, d)
    if ratio >= 3:
        return "3:1"
    if ratio >= 2:
        return "2:1"
    if a - d >= 2:
        return "+2"
    if a - d >= 0 or (a >= 2 and a - d >= -1):
        return "1:1"
    if ratio > Fraction(1, 2):
        return "-2"
    return "1:2"


def test_the_combat_table_column_for_every_strength_pair():
    for a in range(1, 41):
        for d in range(1, 41):
            assert COLUMNS[column(a, d)] == reference_column(a, d), (a, d)


@pytest.mark.parametrize(
    ("a", "d", "expected"),
    [(1, 1, "1:1"), (2, 1, "2:1"), (3, 1, "3:1"), (1, 2, "1:2"), (1, 3, "1:2"), (2, 3, "1:1"), (3, 4, "1:1"),
     (3, 5, "-2"), (4, 2, "2:1"), (6, 4, "+2"), (5, 4, "1:1"), (4, 9, "1:2"), (9, 3, "3:1"), (8, 3, "2:1"),
     (7, 5, "+2"), (1, 4, "1:2"), (2, 5, "1:2"), (3, 7, "1:2"), (4, 7, "-2")],
)
def test_combat_table_columns_worked_by_hand(a, d, expected):
    assert COLUMNS[column(a, d)] == expected


def test_game_help_example_attack_5_against_defence_3_uses_the_plus_2_column():
    s = battle_at("Pylos", Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
                  Commit("athens-t1-1", 0, "Pylos", "attacker", "main"),
                  Commit("sparta-t3-1", 1, "Pylos", "defender", "main"))
    assert strengths(s, "Pylos", "T") == (5, 3)
    assert targets(s.data, 5, 3) == ("+2", 7, 8)
    assert RS.view(s, None)["battle"]["column"] == "+2"


# -- dice and the battle token -----------------------------------------------------------------------------------


def pylos():
    return battle_at("Pylos", Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
                     Commit("athens-t1-1", 0, "Pylos", "attacker", "main"),
                     Commit("sparta-t3-1", 1, "Pylos", "defender", "main"),
                     Commit("sparta-t1-1", 1, "Pylos", "defender", "main"))


def test_battle_dice_are_one_chance_of_four_dice_and_a_die_outside_1_to_6_is_refused():
    s = pylos()
    pending = RS.pending(s)
    assert isinstance(pending, Chance) and pending.kind == "dice" and pending.count == 4
    assert pending.build((1, 2, 3, 4)) == roll(1, 2, 3, 4)
    assert "a die shows 1 to 6, not 7" in refused(s, roll(7, 1, 1, 1))
    assert "a die shows 1 to 6, not 0" in refused(s, roll(1, 1, 0, 1))


def test_a_lone_hit_moves_the_token_and_two_steps_win_the_battle():
    s = pylos()  # 5 vs 4: column 1:1, the attacker needs 8, the defender 7
    s = play(s, roll(5, 4, 1, 1))
    assert s.battle.token == 1 and s.phase == BATTLE
    s = play(s, roll(1, 1, 6, 6))
    assert s.battle.token == 0
    s = play(s, roll(6, 6, 1, 1), roll(6, 5, 2, 2))
    assert s.fought[0].winner == "attacker" and s.fought[0].tokens == (1, 0, 1, 2)


def test_when_both_hit_or_both_miss_the_dice_are_rolled_again():
    s = pylos()
    s = play(s, roll(6, 6, 6, 6))
    assert s.battle.token == 0 and s.battle.rolls == 1
    s = play(s, roll(1, 1, 1, 1))
    assert s.battle.token == 0 and s.battle.rolls == 2 and s.phase == BATTLE


def test_the_loser_loses_its_lowest_counter_of_that_kind_from_the_main_player():
    s = battle_at("Pylos", Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
                  Commit("sparta-t3-1", 1, "Pylos", "defender", "main"),
                  Commit("sparta-t2-1", 1, "Pylos", "defender", "main"),
                  Commit("corinth-t1-1", 2, "Pylos", "defender", "ally"))
    s = play(s, roll(6, 6, 1, 1), roll(6, 6, 1, 1))
    assert s.fought[0].lost == "sparta-t2-1"


def test_the_winner_of_a_locations_first_battle_starts_the_second_with_the_token():
    # Amphipolis: trireme battle, then hoplite battle (defender +1 in H).
    s = battle_at("Amphipolis", Commit("sparta-t3-1", 1, "Amphipolis", "attacker", "main"),
                  Commit("sparta-h4-1", 1, "Amphipolis", "attacker", "main"),
                  Commit("athens-t3-1", 0, "Amphipolis", "defender", "main"),
                  Commit("athens-h3-1", 0, "Amphipolis", "defender", "main"))
    s = play(s, roll(6, 6, 1, 1), roll(6, 6, 1, 1))
    assert s.fought[0].winner == "attacker" and s.battle.index == 1 and s.battle.token == 1
    assert strengths(s, "Amphipolis", "H") == (4, 4)
    s = play(s, roll(6, 6, 1, 1))
    assert s.fought[1].winner == "attacker" and s.fought[1].start == 1
    assert s.won[1] == ("Amphipolis",) and s.defeats[0] == 1


def test_a_battle_against_a_side_without_units_is_won_without_dice():
    # Corcyra (Corinth): H then T; the defenders brought only hoplites, so the trireme battle is automatic.
    s = battle_at("Corcyra", Commit("athens-h3-1", 0, "Corcyra", "attacker", "main"),
                  Commit("athens-t4-1", 0, "Corcyra", "attacker", "main"),
                  Commit("corinth-h3-1", 2, "Corcyra", "defender", "main"))
    s = play(s, roll(1, 1, 6, 6), roll(1, 1, 6, 6))
    assert s.fought[0].winner == "defender" and s.fought[0].lost == "athens-h3-1"
    assert s.fought[1].automatic and s.fought[1].winner == "attacker"
    assert s.won[0] == ("Corcyra",) and s.defeats[3] == 1


def test_grey_defence_symbols_defend_a_location_without_defending_units():
    # Plataea: hoplite battle, defender +1 in H; nobody defends.
    s = battle_at("Plataea", Commit("sparta-h2-1", 1, "Plataea", "attacker", "main"))
    assert isinstance(RS.pending(s), Chance)
    assert strengths(s, "Plataea", "H") == (2, 1)
    s = play(s, roll(1, 1, 6, 6), roll(1, 1, 6, 6))
    assert s.fought[0].winner == "defender" and s.fought[0].lost == "sparta-h2-1"
    assert s.won == ((), (), (), ()) and s.defeats[0] == 0


def test_purple_attack_symbols_do_not_attack_alone():
    # Lesbos: attacker +1 in H and T. Only defenders there: no battle, 2 cubes for the main defender.
    s = battle_at("Lesbos", Commit("athens-h1-1", 0, "Lesbos", "defender", "main"))
    assert s.fought == () and s.cubes[0][0] == 4


def test_an_attack_on_an_undefended_location_without_grey_symbols_wins_at_once():
    s = battle_at("Pylos", Commit("athens-t1-1", 0, "Pylos", "attacker", "main"))
    assert [f.automatic for f in s.fought] == [True]
    assert s.won[0] == ("Pylos",) and s.defeats[1] == 1


def test_a_defender_win_gives_the_tile_to_the_main_defender_and_no_defeat():
    s = pylos()
    s = play(s, roll(1, 1, 6, 6), roll(1, 1, 6, 6))
    assert s.won[1] == ("Pylos",) and s.defeats[1] == 0


def test_an_unattacked_defence_gives_the_main_defender_two_cubes_and_no_tile():
    s = battle_at("Megara", Commit("megara-t3-1", 3, "Megara", "defender", "main"))
    assert s.cubes[5][3] == 4 and s.won[3] == () and s.held[0].cubes == 2


def test_each_roll_is_narrated():
    s = pylos()
    text = RS.narrate(s, roll(5, 4, 1, 1))
    assert "attacker rolls 5+4=9 (needs 8: hit)" in text and "defender rolls 1+1=2 (needs 7: miss)" in text
    assert "roll again" in RS.narrate(s, roll(6, 6, 6, 6))


def test_the_battles_projection_has_rolls_hits_tokens_and_losses():
    from agon.core.engine import Step
    from agon.core.games.perikles.projections import battles

    s0 = pylos()
    s1 = play(s0, roll(6, 6, 1, 1))
    s2 = play(s1, roll(6, 6, 6, 6))
    s3 = play(s2, roll(6, 5, 1, 2))
    line = [Step(0, roll(1, 1, 1, 1), None, s0, "setup"), Step(1, roll(6, 6, 1, 1), s0, s1, "chance"),
            Step(2, roll(6, 6, 6, 6), s1, s2, "chance"), Step(3, roll(6, 5, 1, 2), s2, s3, "chance")]
    rows = battles(line)
    assert len(rows) == 1
    row = rows[0]
    assert row["location"] == "Pylos" and row["kind"] == "trireme" and row["column"] == "1:1"
    assert row["token_path"] == [0, 1, 1, 2] and row["attacker_hits"] == 3 and row["defender_hits"] == 1
    assert row["lost"] == "sparta-t1-1" and row["winner"] == "attacker" and row["index"] == 3


def test_the_turn_ends_after_the_last_location():
    s = pylos()
    s = play(s, roll(6, 6, 1, 1), roll(6, 6, 1, 1))
    assert s.phase == DEAL_LOCATIONS and s.commits == ()

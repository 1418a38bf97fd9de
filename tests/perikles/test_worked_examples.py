"""The worked examples, numbers and exceptions of the rule texts that no test played out yet, one test each.

Paragraphs of ../shared/rules/perikles-game-help.pt.txt ("help") are counted from its first ("Nós começamos...")
as 1; "facts" is ../shared/rules/perikles-data-facts.md. Each test sets up the text's position and reads the
outcome through the ruleset (apply, pending, legal, view, scores, outcome). Where the texts are loose the reading
tested is the one core/games/perikles/RULES.md records, and the docstring says so.
"""

from __future__ import annotations

import pytest

from agon.core.engine import Chance, Over
from agon.core.games.perikles import RULESET as RS
from agon.core.games.perikles.state import BATTLE, COMMIT, DEAL_LOCATIONS, INFLUENCE, NOMINATE, OVER, Commit, replace
from agon.events.perikles import (
    BattleDiceRolled,
    CandidateNominated,
    ForcesCommitted,
    InfluenceDisplayed,
    LocationsDealt,
    NominationPassed,
    Placement,
)
from tests.perikles.helpers import LOCS, at_battle, at_commit, fresh, play, refused

# P1 leads Athens and Argos, P2 Sparta, P3 Corinth and Thebes, P4 Megara.
LEADERS = {"athens": 0, "argos": 0, "sparta": 1, "corinth": 2, "thebes": 2, "megara": 3}
DISPLAY = ("athens-2", "athens-2", "sparta-2", "athens-candidate", "sparta-assassin", "any", "any", "argos-2",
           "thebes-candidate", "megara-2")


def roll(a1: int, a2: int, d1: int, d2: int) -> BattleDiceRolled:
    return BattleDiceRolled(attacker=(a1, a2), defender=(d1, d2))


def battle_at(locations: tuple[str, ...], *commits: Commit, leaders: dict[str, int] = LEADERS):
    """A battle position with every special tile spent, so the dice come at once."""
    return at_battle(at_commit(leaders=leaders, locations=locations, commits=commits), tiles_used=True)


def send(player: str, *placements: tuple[str, str, str, str], tile: str = "any") -> ForcesCommitted:
    return ForcesCommitted(player=player, tile=tile, placements=tuple(
        Placement(counter=c, location=lo, side=si, role=ro) for c, lo, si, ro in placements))


# -- battles -------------------------------------------------------------------------------------------------------


def test_help_example_attack_5_against_defence_3_is_rolled_on_the_plus_2_column():
    """Help, 12th paragraph: "se a soma do ataque der 5 e a soma da defesa der 3, vamos usar a coluna +2 da
    tabela"; each side's 2d6 sum is compared with its target there, "igual ou superior" being a hit (facts: in
    column +2 the attacker needs 7, the defender 8). Athenian triremes 4 + 1 attack Pylos, a Spartan 3 defends."""
    s = battle_at(("Pylos",), Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
                  Commit("athens-t1-1", 0, "Pylos", "attacker", "main"),
                  Commit("sparta-t3-1", 1, "Pylos", "defender", "main"))
    shown = RS.view(s, "P3")["battle"]
    assert (shown["attack"], shown["defence"], shown["column"]) == (5, 3, "+2")
    assert (shown["attacker_needs"], shown["defender_needs"]) == (7, 8)
    s = play(s, roll(4, 3, 4, 3))  # 7 reaches the attacker's 7; 7 falls short of the defender's 8
    assert s.battle.token == 1
    s = play(s, roll(3, 3, 4, 4))  # 6 misses; 8 hits: the token is back in the middle
    assert s.battle.token == 0 and s.phase == BATTLE
    s = play(s, roll(5, 2, 1, 1), roll(6, 1, 2, 5))
    assert s.fought[0].column == "+2" and s.fought[0].winner == "attacker" and s.fought[0].tokens == (1, 0, 1, 2)


def test_in_a_locations_second_battle_a_roll_both_sides_hit_is_rolled_again_and_the_second_battle_decides():
    """Help, 12th paragraph: in the second battle the first battle's winner "já tem o token do seu lado, então, em
    caso de empate na rolagem, ele já vence a batalha". The facts (which win where the two disagree, RULES.md 'The
    battle token') say both hitting together is rolled again, and a lone hit moves the token one step: the side
    holding the token after the first battle wins on its own next lone hit, not on a roll both sides hit. The
    location goes to the winner of its last battle (RULES.md): here the defenders, who lost the first.
    Amphipolis: a trireme battle (3 against 3), then a hoplite battle (4 against 3 + the grey +1)."""
    s = battle_at(("Amphipolis",), Commit("sparta-t3-1", 1, "Amphipolis", "attacker", "main"),
                  Commit("sparta-h4-1", 1, "Amphipolis", "attacker", "main"),
                  Commit("athens-t3-1", 0, "Amphipolis", "defender", "main"),
                  Commit("athens-h3-1", 0, "Amphipolis", "defender", "main"))
    s = play(s, roll(6, 6, 1, 1), roll(6, 6, 1, 1))
    assert s.fought[0].winner == "attacker" and s.fought[0].lost == "athens-t3-1"
    battle = RS.view(s, None)["battle"]
    assert (battle["kind"], battle["attack"], battle["defence"], battle["token"]) == ("hoplite", 4, 4, 1)
    s = play(s, roll(6, 6, 6, 6))  # both hit: no win for the token's holder, the dice are rolled again
    assert s.phase == BATTLE and s.battle.index == 1 and s.battle.token == 1 and len(s.fought) == 1
    s = play(s, roll(1, 1, 6, 6), roll(1, 1, 6, 6), roll(1, 1, 6, 6))
    assert s.fought[1].winner == "defender" and s.fought[1].tokens == (1, 0, -1, -2)
    assert s.won[0] == ("Amphipolis",) and s.won[1] == () and s.defeats[0] == 0


def test_grey_symbols_alone_beaten_give_the_main_attacker_the_tile_and_the_city_a_defeat():
    """Help, 14th paragraph: the attackers winning, the main attacker takes the location tile and the beaten city
    a defeat marker; with no defending troops the grey symbols make the defence. Plataea (one hoplite battle,
    defender +1): a Spartan hoplite 4 against the symbol's 1 is column 3:1 (facts: the attacker needs 5). Nobody
    defended, so nothing is lost; Athens' statue is still worth 5 after one defeat (facts: 5, 5, 3, 1)."""
    s = battle_at(("Plataea",), Commit("sparta-h4-1", 1, "Plataea", "attacker", "main"))
    battle = RS.view(s, None)["battle"]
    assert (battle["attack"], battle["defence"], battle["column"], battle["attacker_needs"]) == (4, 1, "3:1", 5)
    s = play(s, roll(3, 2, 1, 1), roll(4, 1, 2, 2))
    assert s.fought[0].winner == "attacker" and s.fought[0].lost == ""
    seen = RS.view(s, "P1")
    assert seen["players"]["P2"]["locations_won"] == ["Plataea"]
    assert seen["cities"]["athens"]["defeats"] == 1 and seen["cities"]["athens"]["statue_value"] == 5


def test_any_number_of_allies_join_one_side_behind_its_one_main_player():
    """Help, 9th paragraph: "Apenas um jogador pode ser o atacante ou defensor principal. Aliados podem ter
    quantos quiserem ajudar cada lado." Athens attacks Pylos as main; Corinth, Thebes and Megara join as allies;
    Sparta defends as main."""
    s = at_commit(leaders=LEADERS, locations=("Pylos", "Delium"), actor=0)
    s = play(s, send("P1", ("athens-t4-1", "Pylos", "attacker", "main")))
    s = play(s, send("P2", ("sparta-t3-1", "Pylos", "defender", "main")))
    s = play(s, send("P3", ("corinth-t3-1", "Pylos", "attacker", "ally"), ("thebes-t2-1", "Pylos", "attacker",
                                                                             "ally")))
    assert "already main attacker" in refused(s, send("P4", ("megara-t3-1", "Pylos", "attacker", "main")))
    s = play(s, send("P4", ("megara-t3-1", "Pylos", "attacker", "ally")))
    assert [(c.player, c.role) for c in s.commits] == [(0, "main"), (1, "main"), (2, "ally"), (2, "ally"),
                                                              (3, "ally")]
    assert s.phase == BATTLE
    battle = RS.view(s, None)["battle"]
    assert (battle["attack"], battle["defence"]) == (4 + 3 + 2 + 3, 3)


def test_a_fourth_defeat_of_sparta_ends_the_game_only_after_the_turns_remaining_battles():
    """Help, 18th paragraph: when Athens or Sparta has suffered its 4 defeats, "ao invés de começar um novo turno,
    o jogo acaba": the turn's remaining locations are still fought. Pylos (Sparta's) falls first, a fourth
    defeat; Mantinea is fought after it and its tile taken; then the game is over."""
    s = at_commit(leaders=LEADERS, locations=("Pylos", "Mantinea"),
                  commits=(Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
                           Commit("sparta-h4-1", 1, "Mantinea", "attacker", "main")))
    s = at_battle(replace(s, defeats=(0, 3, 0, 0, 0, 0)), tiles_used=True)
    assert [h.location for h in s.held] == ["Pylos", "Mantinea"]
    assert s.defeats[1] == 4 and s.defeats[2] == 1 and s.won[1] == ("Mantinea",)
    assert s.phase == OVER and isinstance(RS.pending(s), Over)


def test_a_fourth_defeat_of_another_city_does_not_end_the_game():
    """Help, 18th paragraph: only Athens' or Sparta's 4 defeats end the game early. Corinth's fourth (Corcyra
    falls undefended) leaves the game going: turn 2 is dealt."""
    s = at_commit(leaders=LEADERS, locations=("Corcyra",),
                  commits=(Commit("athens-h3-1", 0, "Corcyra", "attacker", "main"),))
    s = at_battle(replace(s, defeats=(0, 0, 0, 3, 0, 0)), tiles_used=True)
    assert s.defeats[3] == 4 and s.phase == DEAL_LOCATIONS
    pending = RS.pending(s)
    assert isinstance(pending, Chance) and pending.describe().startswith("turn 2 location tiles")


# -- the round sequence -------------------------------------------------------------------------------------------


def test_a_new_turn_deals_new_locations_and_a_whole_new_display_and_athens_last_leader_starts_it():
    """Help, 4th and 17th paragraphs: after the first turn the first player is Athens' previous leader; 19th: a
    new turn discards the influence tiles and locations left and deals new ones before the first player takes a
    tile. Turn 1's seven locations are never dealt again; the display comes from all 36 influence tiles."""
    s = at_commit(leaders={"athens": 2, "sparta": 1}, locations=LOCS)
    s = at_battle(s, tiles_used=True)  # nothing committed: every location is left unfought
    assert s.phase == DEAL_LOCATIONS and s.first == 2
    pending = RS.pending(s)
    assert isinstance(pending, Chance) and pending.count == 7
    assert len(pending.items) == 14 and not set(pending.items) & set(LOCS)
    assert "cannot be dealt" in refused(s, LocationsDealt(locations=("Pylos", *pending.items[:6])))
    s = play(s, LocationsDealt(locations=tuple(pending.items[:7])))
    pending = RS.pending(s)
    assert isinstance(pending, Chance) and pending.count == 10 and len(pending.items) == 36
    s = play(s, InfluenceDisplayed(tiles=DISPLAY))
    assert s.phase == INFLUENCE and s.turn == 2
    assert RS.pending(s).player == "P3" and RS.view(s, "P1")["first_player"] == "P3"


def test_with_athens_leaderless_the_first_player_stays_the_same():
    """Help, 4th paragraph names Athens' previous leader as the next first player; when Athens had none the
    first player stays who it was (a reading, RULES.md 'End of turn')."""
    s = replace(at_commit(leaders={"sparta": 0}, locations=("Pylos",)), first=1)
    s = at_battle(s, tiles_used=True)
    assert s.phase == DEAL_LOCATIONS and RS.view(s, None)["first_player"] == "P2"


def test_an_election_played_out_both_candidate_cubes_leave_and_only_a_contested_winner_pays_four():
    """Help, 5th paragraph: from the first player each nominates (any player's cube, raised to A or B) or passes;
    6th: the candidate with more cubes in the city wins, "os 2 cubos candidatos são removidos e o ganhador perde 4
    cubos adicionais", a lone candidate loses none of those 4; 7th: commitments start with Sparta's leader.
    Athens: P1 (5 cubes) against P2 (3 cubes); Sparta: P3 alone with 2."""
    s = fresh(3)
    cubes = ((5, 3, 2), (2, 2, 2)) + s.cubes[2:]
    s = replace(s, phase=NOMINATE, turn=1, actor=0, taken=(5, 5, 5), cubes=cubes,
                hands=(("any",), ("any",), ("any",)), specials=("perikles", "plague", "brasidas"))
    s = play(s, CandidateNominated(player="P1", city="athens", nominee="P1", slot="A"),
             CandidateNominated(player="P2", city="athens", nominee="P2", slot="B"),
             CandidateNominated(player="P3", city="sparta", nominee="P3", slot="A"))
    assert RS.view(s, None)["cities"]["athens"]["cubes"] == {"P1": 4, "P2": 2, "P3": 2}
    s = play(s, NominationPassed(player="P1"), NominationPassed(player="P2"), NominationPassed(player="P3"))
    assert s.phase == COMMIT
    seen = RS.view(s, "P2")
    assert seen["cities"]["athens"]["leader"] == "P1" and seen["cities"]["athens"]["cubes"] == {"P1": 0, "P2": 2,
                                                                                                 "P3": 2}
    assert seen["cities"]["sparta"]["leader"] == "P3" and seen["cities"]["sparta"]["cubes"] == {"P1": 2, "P2": 2,
                                                                                                 "P3": 1}
    assert "P1 beats P2 in Athens (5 cubes to 3) and loses 4 more" in seen["elections"]
    assert RS.pending(s).player == "P3"


# -- the end of the game ------------------------------------------------------------------------------------------

# Facts, 'Statue points per statue, by defeats suffered by the city (0, 1, 2, 3 defeats; beyond the list: 0)'.
STATUES = {"athens": (5, 5, 3, 1), "sparta": (5, 4, 3, 2), "argos": (6, 3), "corinth": (9, 7, 5, 3),
           "thebes": (7, 5, 3), "megara": (6, 3)}


@pytest.mark.parametrize("city", sorted(STATUES))
def test_a_statue_scores_the_highest_value_its_citys_defeat_markers_leave_uncovered(city):
    """Help, 17th and 20th paragraphs: each statue is worth the highest number under it not covered by a defeat
    marker (14th: each defeat covers the leftmost square still uncovered); facts: the values, 0 beyond the list."""
    s = fresh(3)
    c = s.data.city_index(city)
    no_cubes = tuple((0, 0, 0) for _ in s.cubes)
    statues = tuple(tuple(1 if (p, k) == (0, c) else 0 for k in range(6)) for p in range(3))
    for defeats in range(6):
        t = replace(s, phase=OVER, cubes=no_cubes, statues=statues,
                    defeats=tuple(defeats if k == c else 0 for k in range(6)))
        expected = STATUES[city][defeats] if defeats < len(STATUES[city]) else 0
        assert RS.scores(t)["P1"] == expected, defeats
        assert RS.view(t, "P2")["cities"][city]["statue_value"] == expected


def test_a_tie_that_location_tiles_and_statues_leave_is_a_shared_win():
    """Help, 21st paragraph: a tie goes to more location-tile points, then to more statues; when both are equal
    too the texts say nothing more and the win is shared (a reading, RULES.md 'Ties')."""
    s = fresh(3)
    s = replace(s, phase=OVER, won=(("Melos",), ("Cythera",), ()),
                statues=((1, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0), (0,) * 6),
                cubes=tuple((2, 2, 1) for _ in s.cubes))
    assert RS.scores(s) == {"P1": 20.0, "P2": 20.0, "P3": 6.0}  # 12 cubes + 3 (tile) + 5 (statue) each
    outcome = RS.outcome(s)
    assert outcome.winners == ("P1", "P2") and "share the win" in outcome.summary
    assert isinstance(RS.pending(s), Over) and RS.pending(s).outcome.winners == ("P1", "P2")


# -- the facts' tables, restated ----------------------------------------------------------------------------------

# Facts, 'Influence deck': (2-cube, candidate, assassin) tiles per city, plus 5 "Any".
DECK = {"athens": (3, 2, 1), "sparta": (3, 2, 1), "argos": (2, 2, 1), "corinth": (2, 2, 1), "thebes": (2, 2, 1),
        "megara": (2, 1, 1)}
# Facts, 'Military counters (strength x count)': hoplites, then triremes.
COUNTERS = {
    "athens": ({1: 2, 2: 2, 3: 2}, {1: 2, 2: 2, 3: 2, 4: 2}),
    "sparta": ({1: 2, 2: 3, 3: 3, 4: 2}, {1: 1, 2: 2, 3: 1}),
    "argos": ({1: 2, 2: 2, 3: 2}, {1: 1, 2: 1, 3: 1}),
    "corinth": ({1: 1, 2: 3, 3: 1}, {1: 2, 2: 2, 3: 1}),
    "thebes": ({1: 2, 2: 3, 3: 2}, {1: 1, 2: 1}),
    "megara": ({1: 1, 2: 1}, {1: 1, 2: 1, 3: 1}),
    "persia": ({2: 2, 3: 4}, {2: 2, 3: 2}),
}
# Facts, 'Location tiles': city, battles in the order fought, points, the +1 bonus (side, battles).
LOCATIONS = {
    "Amphipolis": ("athens", "TH", 6, "defender", "H"), "Lesbos": ("athens", "HT", 4, "attacker", "HT"),
    "Plataea": ("athens", "H", 4, "defender", "H"), "Naupactus": ("athens", "TH", 4, "", ""),
    "Potidea": ("athens", "TH", 5, "attacker", "H"), "Acarnania": ("athens", "TH", 3, "defender", "H"),
    "Attica": ("athens", "H", 4, "", ""), "Melos": ("sparta", "HT", 3, "defender", "HT"),
    "Epidaurus": ("sparta", "TH", 4, "", ""), "Pylos": ("sparta", "TH", 4, "", ""),
    "Sicily": ("sparta", "TH", 7, "defender", "HT"), "Cephallenia": ("sparta", "HT", 4, "", ""),
    "Cythera": ("sparta", "HT", 3, "", ""), "Spartolus": ("sparta", "TH", 4, "attacker", "H"),
    "Megara": ("megara", "TH", 5, "", ""), "Mantinea": ("argos", "H", 5, "", ""),
    "Delium": ("thebes", "TH", 5, "", ""), "Aetolia": ("thebes", "TH", 3, "", ""),
    "Corcyra": ("corinth", "HT", 3, "attacker", "HT"), "Leucas": ("corinth", "HT", 4, "", ""),
    "Solygeia": ("corinth", "HT", 4, "", ""),
}


def test_the_default_card_set_holds_the_facts_tables_exactly():
    """Facts, 'Influence deck', 'Military counters', 'Statue points', 'Location tiles', 'Combat results table' and
    'Special tiles', each restated here and compared whole with the card set a new game is created with."""
    from collections import Counter as Multiset

    data = fresh(4).data
    deck = Multiset(data.deck)
    assert deck["any"] == 5 and sum(deck.values()) == 36
    for city, (two, candidate, assassin) in DECK.items():
        assert (deck[f"{city}-2"], deck[f"{city}-candidate"], deck[f"{city}-assassin"]) == (two, candidate, assassin)
    for city, (hoplites, triremes) in COUNTERS.items():
        for kind, table in (("H", hoplites), ("T", triremes)):
            have = Multiset(c.strength for c in data.counters if c.city == city and c.kind == kind)
            assert dict(have) == table, (city, kind)
    assert len(data.counters) == sum(sum(t.values()) for pair in COUNTERS.values() for t in pair)
    assert {city: data.statues[data.city_index(city)] for city in STATUES} == STATUES
    assert {loc.name: (loc.city, loc.battles, loc.points, loc.bonus_side, loc.bonus_in)
            for loc in data.locations} == LOCATIONS
    assert (data.attacker_needs, data.defender_needs) == ((10, 9, 8, 7, 6, 5), (5, 6, 7, 8, 9, 10))
    assert data.columns == ("1:2", "-2", "1:1", "+2", "2:1", "3:1")
    assert sorted(data.specials) == sorted(("perikles", "persian-fleet", "slave-revolt", "brasidas",
                                            "thessalian-allies", "alkibiades", "phormio", "plague"))
    assert (data.starting_cubes, data.setup_placements, data.display_size, data.locations_per_turn, data.turns,
            data.fatal_defeats) == (2, 2, 10, 7, 3, 4)

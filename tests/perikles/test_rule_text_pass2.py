"""Second audit pass: points of the rule texts that no test stated yet, each one a test.

Paragraphs of ../shared/rules/perikles-game-help.pt.txt are counted from its first ("Nós começamos...") as 1;
"facts" is ../shared/rules/perikles-data-facts.md. Some tests pin a reading RULES.md records where the texts are
loose (said so in the test); the others state what a text says plainly.
"""

from __future__ import annotations

from agon.core.games.perikles.battle import strengths, targets
from agon.core.games.perikles.state import BATTLE, OVER, Commit, replace
from agon.events.perikles import BattleDiceRolled, ForcesCommitted, Placement
from tests.perikles.helpers import at_battle, at_commit, keep_tiles, play, refused

# P1 leads Athens and Argos, P2 Sparta, P3 Corinth and Thebes, P4 Megara.
LEADERS = {"athens": 0, "argos": 0, "sparta": 1, "corinth": 2, "thebes": 2, "megara": 3}


def roll(a1: int, a2: int, d1: int, d2: int) -> BattleDiceRolled:
    return BattleDiceRolled(attacker=(a1, a2), defender=(d1, d2))


def send(player: str, *placements: tuple[str, str, str, str], tile: str = "any", cube: str = "") -> ForcesCommitted:
    return ForcesCommitted(player=player, tile=tile, cube=cube,
                           placements=tuple(Placement(counter=c, location=lo, side=si, role=ro)
                                            for c, lo, si, ro in placements))


def battle_at(location: str, *commits: Commit):
    """A battle position with every special tile spent, so the dice come at once."""
    return at_battle(at_commit(leaders=LEADERS, locations=(location,), commits=commits), tiles_used=True)


def test_a_roll_equal_to_the_target_is_a_hit():
    # Help, 12th paragraph: "comparando com o valor mostrado na tabela ... Se for igual ou superior, ele move o
    # token para o seu lado". Pylos, 5 against 4: column 1:1, the attacker needs 8 and the defender 7.
    s = battle_at("Pylos", Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
                  Commit("athens-t1-1", 0, "Pylos", "attacker", "main"),
                  Commit("sparta-t3-1", 1, "Pylos", "defender", "main"),
                  Commit("sparta-t1-1", 1, "Pylos", "defender", "main"))
    assert targets(s.data, *strengths(s, "Pylos", "T")) == ("1:1", 8, 7)
    assert play(s, roll(4, 4, 3, 3)).battle.token == 1  # 8 against 8: the attacker hits; 6 against 7 misses
    assert play(s, roll(3, 4, 3, 4)).battle.token == -1  # 7 misses the attacker's 8; 7 hits the defender's 7


def test_the_loss_falls_on_an_ally_when_the_main_player_has_no_counter_of_that_kind():
    # Help, 13th paragraph: the loser loses its lowest counter of that kind, "retirada do lado principal sempre
    # que possível": when the main defender has no trireme there, an ally's trireme goes.
    s = battle_at("Pylos", Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),
                  Commit("sparta-h2-1", 1, "Pylos", "defender", "main"),
                  Commit("corinth-t3-1", 2, "Pylos", "defender", "ally"),
                  Commit("corinth-t1-1", 2, "Pylos", "defender", "ally"))
    s = play(s, roll(6, 6, 1, 1), roll(6, 6, 1, 1))
    assert s.fought[0].kind == "T" and s.fought[0].winner == "attacker" and s.fought[0].lost == "corinth-t1-1"


def test_the_game_ends_when_sparta_suffers_its_fourth_defeat():
    # Help, 18th paragraph: "Caso seja o terceiro turno ou as cidade de Athens ou Sparta tenham sofrido as 4
    # derrotas, ao invés de começar um novo turno, o jogo acaba". Sparta's fourth defeat in turn 1 ends the game.
    s = at_commit(leaders=LEADERS, locations=("Pylos",),
                  commits=(Commit("athens-t4-1", 0, "Pylos", "attacker", "main"),))
    s = replace(s, defeats=(0, 3, 0, 0, 0, 0))
    s = keep_tiles(at_battle(s))
    assert s.defeats[1] == 4 and s.turn == 1 and s.phase == OVER  # undefended Pylos falls without dice


def test_the_sacrificed_cube_comes_from_a_city_whose_counters_the_leader_sends():
    # Help, 11th paragraph: "sacrificar um cubo de influência seu da cidade que lidera e mandou a tropa". P1 leads
    # Athens and Argos; sending four Athenian triremes, a cube of Argos (led, but sending nothing) will not do.
    s = at_commit(leaders=LEADERS)
    four = tuple((f"athens-t{k}-{i}", "Pylos", "attacker", "main") for k in (4, 3) for i in (1, 2))
    assert "whose units you send" in refused(s, send("P1", *four, cube="argos"))
    s = play(s, send("P1", *four, cube="athens"))
    assert s.cubes[0][0] == 1 and s.cubes[2][0] == 2


def test_a_location_owner_counts_as_its_defending_city_for_wars():
    # A reading (RULES.md, 'Restrictions on commitments'): the facts make cities on opposite sides of a battle at
    # war; the city whose location is attacked counts as on the defending side even with no unit there (the facts
    # also speak of "the defending city"). Sparta attacks undefended Amphipolis (Athens): Athens and Sparta are at
    # war, so an Athenian unit may not stand beside Sparta's elsewhere.
    s = at_commit(leaders=LEADERS, locations=("Amphipolis", "Delium"), actor=0,
                  commits=(Commit("sparta-h4-1", 1, "Amphipolis", "attacker", "main"),
                           Commit("sparta-h3-1", 1, "Delium", "attacker", "main")))
    assert "at war this turn" in refused(s, send("P1", ("athens-h3-1", "Delium", "attacker", "ally")))


def test_grey_symbols_win_a_battle_the_attackers_bring_no_units_to():
    # A reading (RULES.md, 'Battles'): a battle where the attackers have no counter of its kind goes to the
    # defenders without dice, also when only grey symbols defend (help, 14th paragraph: grey symbols give the
    # defence its strength). Amphipolis (trireme then hoplite battle, defender +1 in hoplite battles) attacked by
    # triremes alone: the attackers take the trireme battle, the grey hoplite symbol the hoplite battle, which is
    # the location's last: it holds, nobody takes its tile, Athens suffers no defeat.
    s = battle_at("Amphipolis", Commit("sparta-t3-1", 1, "Amphipolis", "attacker", "main"))
    assert [(f.kind, f.winner, f.automatic) for f in s.fought] == [("T", "attacker", True), ("H", "defender", True)]
    assert s.phase != BATTLE or s.battle.loc >= 1
    assert s.won[1] == () and s.defeats[0] == 0 and s.held[-1].winner == "defender"


def test_an_attack_with_counters_of_a_kind_the_location_does_not_fight_fails():
    # A reading (RULES.md, 'Battles'): Attica fights one hoplite battle. Spartan triremes attack it, an Athenian
    # trireme defends: no battle can be fought, the location was attacked (no 2 cubes: help, 15th paragraph, is for
    # a location "não é atacado"), the attack fails and the main defender takes the tile.
    s = battle_at("Attica", Commit("sparta-t3-1", 1, "Attica", "attacker", "main"),
                  Commit("athens-t3-1", 0, "Attica", "defender", "main"))
    assert s.fought == () and s.won[0] == ("Attica",) and s.cubes[0][0] == 2
    assert s.held[-1].winner == "defender" and s.held[-1].cubes == 0 and s.defeats[0] == 0


def test_the_view_names_the_player_who_must_decide_now():
    # The view's "to_act" is the player the rules wait for: the leader asked for permission (help, 10th paragraph:
    # "precisa da permissão do líder"), the holder asked before a battle, nobody while the dice or a draw are due.
    # It named the acting committer during a request, and a player while the dice were due.
    import random

    from agon.core.engine import Chance, Decision, Over
    from agon.core.games.perikles import RULESET as RS
    from tests.perikles.helpers import created

    seen = set()
    for n, seed in ((3, 11), (4, 12), (5, 13)):
        rng = random.Random(seed)
        s = RS.initial_state(created(n, seed))
        while not isinstance(pending := RS.pending(s), Over):
            expected = pending.player if isinstance(pending, Decision) else None
            assert RS.view(s, "P1")["to_act"] == RS.view(s, None)["to_act"] == expected, (s.phase, pending)
            seen.add((s.phase, type(pending).__name__, s.request is not None))
            if isinstance(pending, Chance):
                items = list(pending.items)
                rng.shuffle(items)
                out = tuple(rng.randint(1, 6) for _ in range(pending.count)) if pending.kind == "dice" \
                    else tuple(items[: pending.count])
                s = RS.apply(s, pending.build(out))
            else:
                s = RS.apply(s, RS.sample_legal(s, rng))
    assert ("battle", "Decision", False) in seen and ("battle", "Chance", False) in seen
    # A request for permission: P2 (Sparta) asks P1, Athens' leader, to defend Plataea as main defender.
    s = at_commit(leaders=LEADERS, hands=(("any",), ("any", "any"), ("any",), ("any",)), actor=1)
    s = play(s, send("P2", ("sparta-h4-1", "Plataea", "defender", "main")))
    assert RS.pending(s).player == "P1" and RS.view(s, "P3")["to_act"] == "P1"

"""The supply phase: feeding inhabitants and finishing buildings under construction (rulebook, 'Suprimento',
'Bens de Luxo' 2)."""

from __future__ import annotations

from agon.core.games.peloponnes import flow
from agon.core.games.peloponnes.state import Slot, inhabitants, production
from agon.events.peloponnes import ConstructionPaid, PopulationFed
from tests.peloponnes.helpers import at, bare, coins, dealt, play, refused, replace, rs, slots


def feeding(civ_id="plain", **seat):
    s = bare(dealt(), "Alice", civ_id, **seat)
    return at(s, "supply", (("feed", "Alice"), ("construct", "Alice")))


def test_luxury_example_helena_gains_3_luxury_for_excess_grain():
    # "Helena produz 12 grãos. Ela tem 9 habitantes durante a fase de suprimento. Ela obtém 3 bens de luxo pelo
    # excesso de grãos."
    s = flow.advance(feeding("helena"))
    assert s.seat("Alice").luxury == 3


def test_inhabitants_on_the_luxury_card_need_no_grain():
    # The luxury card at 6 shows 2 inhabitants (test tables): they count for scoring, not for feeding.
    s = feeding("plain", luxury=6)
    from agon.core.games.peloponnes.state import population_points

    alice = flow.advance(s).seat("Alice")
    assert population_points(s.cat, alice) == 1 + 2
    assert alice.luxury == 6  # 1 inhabitant, 1 grain: nothing hungry, nothing in excess


def test_hungry_inhabitants_are_fed_by_grain_or_people_coins_or_luxury_exactly():
    # 1 + 4 inhabitants, 1 grain produced: 4 are hungry.
    s = feeding(lands=slots("T_VILLAGE"), hand=coins(grain=2, people=1), luxury=1)
    assert "4 inhabitants are not fed" in refused(s, PopulationFed(player="Alice", grain=2, people=1))
    assert "holds 2 grain" in refused(s, PopulationFed(player="Alice", grain=3, people=1))
    s = play(s, PopulationFed(player="Alice", grain=2, people=1, luxury=1))
    alice = s.seat("Alice")
    assert alice.hand.total() == 0 and alice.luxury == 0
    assert s.discard.grain == 2 and s.discard.people == 1


def test_the_log_counts_one_people_coin_card_in_the_singular():
    """The log read "feeds the hungry with 2 grain, 1 people coin cards, 1 luxury"."""
    s = feeding(lands=slots("T_VILLAGE"), hand=coins(grain=2, people=1), luxury=1)
    said = rs.narrate(s, PopulationFed(player="Alice", grain=2, people=1, luxury=1))
    assert said == "Alice feeds the hungry with 2 grain, 1 people coin card, 1 luxury.", said


def test_removing_cards_until_population_matches_grain():
    s = feeding(lands=slots("T_VILLAGE"))
    s = play(s, PopulationFed(player="Alice", removed=("T_VILLAGE",)))
    assert s.seat("Alice").lands == ()
    # A card not on the tableau cannot be removed.
    s = feeding(lands=slots("T_VILLAGE"))
    assert "tableau" in refused(s, PopulationFed(player="Alice", removed=("T_L1",)))


def test_canonical_feeding_options_validate():
    s = feeding(lands=slots("T_VILLAGE"), hand=coins(grain=3, people=3), luxury=2)
    options = rs.legal(s)
    assert PopulationFed(player="Alice", grain=3, people=1) in options
    assert any(o.removed for o in options)
    assert all(rs.validate(s, o) is None for o in options)


def test_buildings_under_construction_are_paid_against_their_summed_cost():
    # T_MILL costs 1 wood and produces 1; T_B4 costs 1 wood 1 stone. Production: 2 wood (civ) + 1 (Mill).
    s = feeding(
        "leonidas1",
        buildings=(Slot("T_STONE4", under="wood"), Slot("T_B4", under="grain")),
        hand=coins(stone=4),
    )
    s = flow.advance(s)  # Leonidas' polis feeds nobody: on to the construction
    p = rs.pending(s)
    assert p.player == "Alice" and "construction" in p.prompt
    # 4 + 1 stone needed, 1 produced: 4 missing; the wood is covered by production.
    assert "0 wood and 4 stone are missing" in refused(
        s, ConstructionPaid(player="Alice", finished=("T_STONE4", "T_B4"), stone=3)
    )
    s2 = play(s, ConstructionPaid(player="Alice", finished=("T_STONE4", "T_B4"), stone=4))
    alice = s2.seat("Alice")
    assert [b.under for b in alice.buildings] == ["", ""]
    assert s2.discard.wood == 1 and s2.discard.grain == 1 and s2.discard.stone == 4
    # Or finish one and lose the other: its coin card goes to the discard pile.
    s3 = play(s, ConstructionPaid(player="Alice", finished=("T_B4",)))
    assert [b.card for b in s3.seat("Alice").buildings] == ["T_B4"]
    assert s3.discard.wood == 1 and s3.discard.grain == 1


def test_no_luxury_is_gained_when_finishing_construction():
    s = feeding("leonidas2", buildings=(Slot("T_B4", under="wood"),))
    s = play(flow.advance(s), ConstructionPaid(player="Alice", finished=("T_B4",)))  # production pays 1+1
    alice = s.seat("Alice")
    assert alice.buildings == (Slot("T_B4"),)
    assert alice.luxury == 0


def test_finishing_a_construction_production_can_pay_is_still_a_choice():
    # "Se você não tiver (ou não quiser pagar) os recursos necessários, então o edifício é perdido" ('Suprimento').
    s = flow.advance(feeding("leonidas2", buildings=(Slot("T_B4", under="wood"),)))
    assert rs.pending(s).player == "Alice" and "construction" in rs.pending(s).prompt
    assert set(rs.legal(s)) == {
        ConstructionPaid(player="Alice", finished=("T_B4",)),
        ConstructionPaid(player="Alice", finished=()),
    }
    given_up = play(s, ConstructionPaid(player="Alice", finished=()))
    assert given_up.seat("Alice").buildings == () and given_up.discard.wood == 1


def test_the_log_names_the_buildings_under_construction_given_up_and_lost():
    """A building under construction not named to be finished is lost: the sentence says which, or the log would
    show it vanish (it read "Alice finishes nothing under construction" as the building went)."""
    s = flow.advance(feeding("leonidas1", buildings=(Slot("T_STONE4", under="wood"), Slot("T_B4", under="grain")),
                             hand=coins(stone=4)))
    name = s.cat.name
    one = rs.narrate(s, ConstructionPaid(player="Alice", finished=("T_B4",)))
    # the coin cards under both (the lost one's and the finished one's) go face up onto the discard pile, told by
    # their backs (RULES.md, 'Who is told what')
    pile = f"; Alice's 2 coin cards from {name('T_STONE4')}, {name('T_B4')} (1 wood, 1 grain) go face up onto the"
    assert one == (f"Alice finishes {name('T_B4')} under construction (0 wood, 0 stone, 0 luxury) and gives up"
                   f" {name('T_STONE4')}, which is lost{pile} discard pile.")
    both = rs.narrate(s, ConstructionPaid(player="Alice", finished=()))
    assert both == (f"Alice finishes nothing under construction (0 wood, 0 stone, 0 luxury) and gives up"
                    f" {name('T_STONE4')}, {name('T_B4')}, which are lost{pile} discard pile.")
    kept = rs.narrate(s, ConstructionPaid(player="Alice", finished=("T_STONE4", "T_B4"), stone=4))
    assert kept.endswith(f"under construction (0 wood, 4 stone, 0 luxury){pile} discard pile.") and "lost" not in kept


def test_the_shipped_replay_tells_the_treasury_bruno_gave_up(agon):
    import json
    from pathlib import Path

    replay = Path(__file__).resolve().parents[2] / "replays" / "peloponnes-3p.jsonl"
    gid = agon("import", str(replay)).stdout.split()[0]
    words = " ".join(agon("log", gid).stdout.split())
    assert (" 84. Bruno finishes nothing under construction (0 wood, 0 stone, 0 luxury) and gives up Treasury of"
            " Atreus, which is lost; Bruno's 1 coin card from Treasury of Atreus (1 wood) goes face up onto the discard"
            " pile. 85. ") in words
    for n, held in ((83, True), (84, False)):
        bruno = json.loads(agon("state", gid, "--at", str(n), "--json").stdout)["view"]["players"]["Bruno"]
        assert ("Treasury of Atreus" in [b["name"] for b in bruno["buildings"]]) is held


def test_feeding_without_a_shortfall_is_no_choice():
    # "Primeiro, use toda a sua capacidade de produção de grãos": cards are removed only "até que sua população
    # seja igual a capacidade de produção de grãos", so nobody hungry means nothing to decide (RULES.md).
    s = flow.advance(feeding("helena", hand=coins(people=2)))
    assert s.todo == () and s.seat("Alice").luxury == 3


def test_supply_example_7_inhabitants_but_only_4_grain_production():
    # The figure in 'Suprimento': "7 habitantes mas somente 4 produção de grão". Production feeds 4 ("Primeiro, use
    # toda a sua capacidade de produção de grãos"); the other 3 are paid with coin cards showing grain (or
    # inhabitants, or luxury goods), or cards are removed.
    s = feeding(lands=slots("T_VILLAGE", "T_FIELD"))  # 1 + 4 + 2 inhabitants; 1 + 0 + 3 grain
    alice = s.seat("Alice")
    assert inhabitants(s.cat, alice) == 7 and production(s.cat, alice)[2] == 4
    s = replace(s, seats=tuple(replace(x, hand=coins(grain=3, people=1)) if x.name == "Alice" else x for x in s.seats))
    assert "3 inhabitants are not fed" in refused(s, PopulationFed(player="Alice", grain=2))
    fed = play(s, PopulationFed(player="Alice", grain=3))
    assert fed.seat("Alice").hand == coins(people=1) and fed.seat("Alice").luxury == 0
    fed = play(s, PopulationFed(player="Alice", grain=2, people=1))
    assert fed.seat("Alice").hand == coins(grain=1)


def _hungry_by_2():
    # 1 + 4 + 2 + 1 + 2 = 10 inhabitants, 1 + 4 + 3 = 8 grain: 2 hungry. Removing Land 4 (2 inhabitants) or the
    # Village (4) feeds them; the Village then leaves 2 grain spare.
    return feeding(lands=slots("T_VILLAGE", "T_L4", "T_GRAIN4", "T_FIELD"))


def test_cards_are_removed_only_until_the_population_equals_the_grain_production():
    # "removendo cartas (cartas de poder e/ou sua carta de civilização) de sua mesa até que sua população seja igual
    # a capacidade de produção de grãos" ('Suprimento'): once nobody is hungry, no further card goes.
    s = _hungry_by_2()
    rule = refused(s, PopulationFed(player="Alice", removed=("T_L4", "T_VILLAGE")))
    assert "until the population equals the grain production" in rule and "'Suprimento'" in rule
    # One card that overshoots is still a removal until the population is fed; the grain then spare makes luxury
    # goods ('Bens de Luxo' 2: "Você produz mais grãos durante a fase de suprimento do que você precisa").
    alice = play(s, PopulationFed(player="Alice", removed=("T_VILLAGE",))).seat("Alice")
    assert [x.card for x in alice.lands] == ["T_L4", "T_GRAIN4", "T_FIELD"] and alice.luxury == 2
    # Any cards may go while someone is still hungry, one after the other: the Granary Land (1 inhabitant, 4 grain)
    # leaves 5 hungry, and then the Village 1, to pay for with a coin card showing grain.
    s = replace(s, seats=tuple(replace(x, hand=coins(grain=5)) if x.name == "Alice" else x for x in s.seats))
    assert rs.validate(s, PopulationFed(player="Alice", grain=5, removed=("T_GRAIN4",))) is None
    assert rs.validate(s, PopulationFed(player="Alice", grain=1, removed=("T_GRAIN4", "T_VILLAGE"))) is None
    assert all(rs.validate(s, o) is None for o in rs.legal(s))


def test_a_game_recorded_before_version_4_keeps_removing_cards_past_a_fed_population():
    # supply.REMOVE_ONLY_WHILE_HUNGRY: a version-3 game folds as it was played, the extra card gone and its spare
    # grain made luxury goods.
    s = replace(_hungry_by_2(), version=3)
    alice = play(s, PopulationFed(player="Alice", removed=("T_L4", "T_VILLAGE"))).seat("Alice")
    assert [x.card for x in alice.lands] == ["T_GRAIN4", "T_FIELD"] and alice.luxury == 4

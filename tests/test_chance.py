"""Chance outcomes: what the service draws and what a person types are checked by the same rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agon.core import chance
from agon.core.engine import Chance

ITEM = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789.-", min_size=1, max_size=8)


def spec(kind, count=1, sides=6, items=()):
    return Chance(kind, "test", lambda out: out, count=count, sides=sides, items=tuple(items))


@st.composite
def chances(draw):
    kind = draw(st.sampled_from(["dice", "draw", "shuffle"]))
    if kind == "dice":
        return spec("dice", count=draw(st.integers(1, 5)), sides=draw(st.integers(2, 20)))
    items = draw(st.lists(ITEM, min_size=1, max_size=12))
    if kind == "draw":
        return spec("draw", count=draw(st.integers(0, len(items))), items=items)
    return spec("shuffle", items=items)


@given(chances(), st.integers(0, 2**32), st.integers(0, 5), st.integers(0, 1000))
def test_every_drawn_outcome_is_possible_and_reads_back_when_typed(c, seed, luck, ordinal):
    outcome = chance.draw(c, chance.rng_for(seed, luck, ordinal))
    chance.check(c, outcome)
    typed = " ".join(str(x) for x in outcome)
    assert chance.parse(c, typed) == outcome
    assert chance.draw(c, chance.rng_for(seed, luck, ordinal)) == outcome  # the same position, the same luck


@given(st.lists(ITEM, min_size=2, max_size=8, unique=True), st.data())
def test_an_outcome_that_is_not_a_possible_draw_is_refused(items, data):
    c = spec("draw", count=1, items=items[1:])
    with pytest.raises(chance.BadOutcome, match="cannot be drawn here"):
        chance.check(c, (items[0],))
    order = data.draw(st.permutations(items))
    chance.check(spec("shuffle", items=items), tuple(order))
    with pytest.raises(chance.BadOutcome):
        chance.check(spec("shuffle", items=items), tuple(order[:-1]))


@pytest.mark.parametrize("typed", ["0", "7", "3 3 3", "x"])
def test_dice_typed_outside_the_die_or_miscounted_are_refused(typed):
    c = spec("dice", count=2, sides=6)
    with pytest.raises(chance.BadOutcome):
        chance.check(c, chance.parse(c, typed))


def test_fresh_luck_draws_differently():
    c = spec("shuffle", items=[f"c{i}" for i in range(20)])
    draws = {chance.draw(c, chance.rng_for(1, luck, 0)) for luck in range(5)}
    assert len(draws) == 5


def test_a_typed_outcome_that_names_too_many_copies_or_digits_says_so():
    draw = Chance("draw", "draw 3 tiles", lambda o: None, count=3, items=("alkibiades", "athens-2", "athens-2"))
    with pytest.raises(chance.BadOutcome) as e:
        chance.check(draw, chance.parse(draw, "alk alk alk"))
    assert "only so many copies" in str(e.value) and "alkibiades (typed 3 times, 1 left)" in str(e.value)
    dice = Chance("dice", "roll 4d6", lambda o: None, count=4, sides=6)
    for typed, count in (("123", 3), ("12345", 5)):
        with pytest.raises(chance.BadOutcome) as e:
            chance.parse(dice, typed)
        assert f"4 die values needed, {count} typed" in str(e.value)


@given(st.lists(st.integers(1, 6), min_size=4, max_size=4), st.data())
def test_the_dice_of_a_group_read_in_no_order_are_put_low_to_high_and_the_groups_stay_in_place(dice, data):
    roll = Chance("dice", "attacker 2d6, then defender 2d6", lambda o: o, count=4, unordered=(2, 2))
    attacker = tuple(data.draw(st.permutations(dice[:2])))
    defender = tuple(data.draw(st.permutations(dice[2:])))
    got = chance.canonical(roll, attacker + defender)
    assert got == (*sorted(dice[:2]), *sorted(dice[2:]))
    assert chance.canonical(roll, got) == got


def test_items_of_a_group_read_in_no_order_are_put_in_natural_order_and_the_rest_keeps_its_order():
    deal = Chance("draw", "strip, hands, shown", lambda o: o, count=7, items=tuple(f"c{i}" for i in range(1, 13)),
                  unordered=(3, 3))
    assert chance.canonical(deal, ("c10", "c2", "c7", "c12", "c1", "c3", "c9")) == (
        "c2", "c7", "c10", "c1", "c3", "c12", "c9")
    ordered = Chance("draw", "one per seat", lambda o: o, count=2, items=("a", "b", "c"))
    assert chance.canonical(ordered, ("c", "a")) == ("c", "a")  # nothing declared unordered: as typed


def test_a_refused_draw_lists_what_it_names_and_what_is_possible_as_counted_not_as_text_sorts():
    """The items a refused draw names, and those it may be, were listed as text sorts them (c1, c10, c11, c2), so a
    person looking a card up found c2 after c12; they come as counted, as every other list of items shown."""
    deck = tuple(f"c{i}" for i in range(1, 13))
    c = Chance("draw", "draw 2 cards", lambda o: o, count=2, items=deck)
    with pytest.raises(chance.BadOutcome) as e:
        chance.check(c, ("c10", "c9x"))
    assert str(e.value) == ("draw 2 cards: c9x cannot be drawn here;"
                            f" possible: {', '.join(f'c{i}' for i in range(1, 13))}"), str(e.value)
    with pytest.raises(chance.BadOutcome) as e:
        chance.check(c, ("c10x", "c2x"))
    assert "c2x, c10x cannot be drawn here" in str(e.value)
    twice = Chance("draw", "draw 4 cards", lambda o: o, count=4, items=("c10", "c2", "c3", "c4"))
    with pytest.raises(chance.BadOutcome) as e:
        chance.check(twice, ("c10", "c10", "c2", "c2"))
    assert str(e.value).endswith("c2 (typed 2 times, 1 left), c10 (typed 2 times, 1 left)"), str(e.value)
    coins = Chance("draw", "draw a coin", lambda o: o, count=1, items=("x",), unseen=("coin10", "coin2", "coin1"))
    with pytest.raises(chance.BadOutcome) as e:
        chance.check(coins, ("coin3",))
    assert str(e.value).endswith("possible: coin1, coin2, coin10"), str(e.value)


def test_a_power_card_typed_twice_in_one_draw_is_named_with_its_name_and_how_often_it_was_typed(tmp_path):
    """At a Peloponnes table 'well pal mark harb carp well' names A01 Well twice: the refusal names the card as
    every list of power cards does (A01 Well, not the bare id a table never sees) and says it was typed twice with
    one left, where it said only 'A01 (1 left)'; nothing is recorded."""
    from agon.core.service import NewGame, Service, ServiceError
    from agon.events.store import Store

    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = svc.new_game(NewGame("peloponnes", players=("Ana", "Bo"), seed=4, table=True))
    while not (isinstance(p := svc.load(gid).pending, Chance) and p.label.startswith("power")):
        svc.act(gid, "seed")
    depth = svc.load(gid).head.depth
    with pytest.raises(ServiceError) as e:
        svc.act(gid, "well pal mark harb carp well")
    said = str(e.value)
    assert "\n" not in said
    assert "only so many copies can be drawn here: A01 Well (typed 2 times, 1 left)" in said
    assert svc.load(gid).head.depth == depth

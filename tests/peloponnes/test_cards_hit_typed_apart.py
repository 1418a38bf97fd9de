"""The cards a catastrophe hits, typed as separate words (rulebook, 'Tempestade': "Você pode escolher quais terrenos
cobrir"): ``T_L1 T_L2 wood grain`` was refused ("what covers Land 2: 'T_L1' is none of the answers") while
``T_L2+T_L1`` was taken, so a player who typed the two cards as every other list is typed was told the cards were
not there. The words are read as the ``+`` form is, in the order typed: the covers typed after them go to the cards
in that order (catastrophe.covers); a refusal still names the rule or the answers."""

from __future__ import annotations

import pytest

from agon.core import steps
from agon.core.entry import EntryError
from tests.peloponnes.helpers import at, bare, coins, dealt, rs, slots


@pytest.fixture
def tempest():
    """Alice's four lands and her village; the Tempest hits two of them, which she chooses ('Land 2 + Land 1' is
    the choice listed)."""
    s = bare(dealt(), "Alice", "plain", lands=slots("T_L1", "T_L2", "T_L3", "T_L4", "T_VILLAGE"),
             hand=coins(wood=2, grain=1))
    return at(s, "catastrophe", (("face:tempest", "Alice"),))


@pytest.mark.parametrize(("typed", "cards", "covers"), [
    ("T_L1 T_L2 wood grain", ("T_L1", "T_L2"), ("wood", "grain")),
    ("T_L2 T_L1 wood grain", ("T_L2", "T_L1"), ("wood", "grain")),
    ("l1 l2 w none", ("T_L1", "T_L2"), ("wood", "")),
    ("land-3 village grain none", ("T_L3", "T_VILLAGE"), ("grain", "")),
])
def test_the_cards_hit_typed_apart_are_read_as_joined_by_plus_in_the_order_typed(tempest, typed, cards, covers):
    e = steps.build(rs, tempest, typed)
    assert (e.cards, e.coins) == (cards, covers)
    joined = steps.build(rs, tempest, typed.replace(" ", "+", 1))  # the '+' form, as it was taken before
    assert (joined.cards, joined.coins) == (cards, covers)


def test_at_plays_first_step_the_cards_typed_apart_ask_the_cover_of_the_first_typed(tempest):
    # play asks what covers Land 2 at once (the cards listed are one choice, filled in by themselves); the cards
    # typed there apart are the cards hit, and the next step asks for the first of them
    chosen, asked = steps.forward(rs, tempest, (), steps.ask(rs, tempest, ()))
    assert asked.prompt.startswith("what covers Land 2")
    chosen, now = steps.walk(rs, tempest, ["T_L1", "T_L2"], chosen)
    assert chosen == (("cards", "T_L1+T_L2"),) and now.prompt.startswith("what covers Land 1")
    assert steps.settle(rs, tempest, "T_L1 T_L2 w", ()) == ("T_L1 T_L2 wood ", False)


@pytest.mark.parametrize(("typed", "said"), [
    ("vil vil w w", "which cards the catastrophe hits: the catastrophe hits 2 cards, each named once, of Land 1,"),
    ("l1 stone", "'stone' is none of the answers; possible: grain, none, wood"),
])
def test_other_slips_are_still_refused_in_one_line_naming_why(tempest, typed, said):
    with pytest.raises(EntryError) as held:
        steps.build(rs, tempest, typed)
    assert said in str(held.value) and "\n" not in str(held.value)

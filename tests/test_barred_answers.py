"""A value the rules bar, typed as an answer, is refused naming the rule that bars it (core.steps ``barred_values``):
a Peloponnes power card the hand cannot pay, or one whose conquest-row bid cannot be outbid, a Perikles candidate's
position already taken. It was refused as "none of the answers" (or "the decision is complete before 'b'"), which
named no reason: a table that sees the card cannot tell a typo from a rule."""

from __future__ import annotations

import pytest

from agon.core.engine import Chance
from agon.core.games.peloponnes import auction
from agon.core.service import NewGame, Service, ServiceError
from agon.events.peloponnes import Coins
from agon.events.store import Store
from tests.test_cli_surface import one_line


@pytest.fixture
def conquest_dear(tmp_path):
    """A two-player table game (seed 4) at its first bid, the power cards revealed as typed: Palisade and the
    Sanctuary of Hera in the auction row, Well, Fishing Village, Carpenter's Workshop and Forest in the conquest row,
    where a card costs its value + 3 (Well and Fishing Village: 5). Bo, holding 4 coin cards, bids first."""
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = svc.new_game(NewGame("peloponnes", players=("Ana", "Bo"), seed=4, table=True))
    while not (isinstance(p := svc.load(gid).pending, Chance) and p.label.startswith("power")):
        svc.act(gid, "seed")
    svc.act(gid, "pal soh well fish carp forest")
    s = svc.load(gid).state
    assert auction.actor(s) == "Bo" and s.seat("Bo").hand == Coins(wood=2, grain=2) and s.seat("Bo").luxury == 0
    assert s.conquest == ("A01", "A14", "A07", "A11")
    return svc, gid


def _refused(svc: Service, gid: str, text: str) -> str:
    depth = svc.load(gid).head.depth
    with pytest.raises(ServiceError) as held:
        svc.act(gid, text)
    assert svc.load(gid).head.depth == depth  # nothing recorded
    said = str(held.value)
    assert "\n" not in said and "none of the answers" not in said
    return said


@pytest.mark.parametrize("typed", ["a14", "A14", "fish", "fishing-village", "a14 2w2g"])
def test_a_conquest_card_dearer_than_the_hand_says_its_price_and_what_the_hand_can_bid(conquest_dear, typed):
    svc, gid = conquest_dear
    said = _refused(svc, gid, typed)
    assert said.startswith("which power card to bid on: bid (rulebook, 'Leilão', conquest row): Fishing Village in"
                           " the conquest row costs 5 coin cards (value + 3, less Barracks/Palisade), a bid of 4 is"
                           " too low"), said
    assert "Bo holds 4 coin cards, so bids at most 4" in said
    assert "(or another kind of decision: passed); possible: 2: Bo bids 2 on A02 Palisade" in said  # agon's numbers


def test_a_conquest_card_that_holds_a_bid_says_it_cannot_be_outbid(conquest_dear):
    svc, gid = conquest_dear
    svc.act(gid, "forest")  # Bo's 4 coin cards, the one bid that stands there
    for typed in ("a11", "forest"):
        said = _refused(svc, gid, typed)
        assert said.startswith("which power card to bid on: bid (rulebook, 'Leilão', conquest row): Forest already"
                               " has Bo's bid, and a bid in the conquest row cannot be outbid"), said
        assert "holds" not in said  # no hand could bid there: the hand is not the reason


def test_a_power_card_of_another_round_says_it_is_not_this_rounds(conquest_dear):
    svc, gid = conquest_dear
    said = _refused(svc, gid, "b01")
    assert said.startswith("which power card to bid on: bid (rulebook, 'Leilão'): Agora is not one of this round's"
                           " power cards"), said


def test_a_displaced_bid_typed_onto_a_card_it_cannot_stand_on_says_why(conquest_dear):
    svc, gid = conquest_dear
    svc.act(gid, "pal 1w1g")
    svc.act(gid, "pal 3s")  # Ana outbids Bo, whose bid of 2 must move
    said = _refused(svc, gid, "fish")
    assert said.startswith("which power card to move the bid to"), said
    assert ("displaced bid (rulebook, 'Leilão', conquest row): Fishing Village in the conquest row costs 5 coin"
            " cards (value + 3, less Barracks/Palisade), a bid of 2 is too low") in said
    said = _refused(svc, gid, "pal")
    assert "displaced bid (rulebook, 'Leilão'): it must move to a different power card; possible:" in said


def test_agon_act_and_play_tell_the_price_where_a_card_dearer_than_the_hand_is_typed(agon):
    import json

    gid = json.loads(agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--seed", "4", "--table",
                          "--json").stdout)["id"]
    for _ in range(3):
        agon("act", gid, "seed")
    agon("act", gid, "pal soh well fish carp forest")
    said = one_line(agon("act", gid, "fish", ok=False), 1, "error: which power card to bid on: bid (rulebook,"
                    " 'Leilão', conquest row): Fishing Village in the conquest row costs 5 coin cards")
    assert "Bo holds 4 coin cards, so bids at most 4" in said and f"`agon options {gid}`" in said
    played = agon("play", gid, input="well\nq\n")
    assert "error: which power card to bid on: bid (rulebook, 'Leilão', conquest row): Well in the conquest row" \
           " costs 5 coin cards" in played.stderr.replace("\n", " ")
    assert "give its choice number from the options listed above" in played.stderr.replace("\n", " ")
    assert "Still: Bo to act" in played.stdout

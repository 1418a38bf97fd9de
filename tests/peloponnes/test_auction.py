"""The auction with its displacement chains, the conquest row, Market/Agora and Barracks/Palisade, and the new
turn order (rulebook, '3. Leilão', '4. Ordem do Turno', 'Edifícios Especiais')."""

from __future__ import annotations

import pytest

from agon.core.engine import Chance, Decision
from agon.core.games.peloponnes import auction
from agon.events.codec import Codec, DecodeError
from agon.events.peloponnes import EVENTS, BidMoved, BidPlaced, BidWithdrawn, Passed
from tests.peloponnes.helpers import AUCTION_ROW, auction_round, coins, play, refused, rs, seat, slots


def bid(player, card, n, **kw):
    return BidPlaced(player=player, card=card, coins=coins(wood=n), **kw)


def test_the_auction_goes_in_turn_order():
    s = auction_round()
    assert s.row == AUCTION_ROW[:3] and s.conquest == AUCTION_ROW[3:]
    assert "auction (rulebook, 'Leilão'): Alice acts now, not Bob" in refused(s, bid("Bob", "T_V2A", 2))
    assert "Alice acts now, not Bob" in rs.validate(s, bid("Bob", "T_V2A", 2))


def test_a_bid_below_the_cards_value_is_refused():
    s = auction_round()
    assert "minimum bid" in refused(s, bid("Alice", "T_V3", 2))
    assert "'Leilão'" in refused(s, bid("Alice", "T_V3", 2))


def test_a_payment_with_coins_not_held_is_refused():
    s = auction_round()
    assert "holds 6 wood, not 2 stone" in refused(s, BidPlaced(player="Alice", card="T_V2A", coins=coins(stone=2)))
    assert "luxury" in refused(s, bid("Alice", "T_V2A", 1, luxury=1))


def test_passing_draws_three_coin_cards():
    s = play(auction_round(), Passed(player="Alice"))
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.count == 3 and "Alice" in p.label
    assert s.passed == ("Alice",)


def test_outbidding_forces_the_outbid_player_to_move_at_once():
    s = play(auction_round(), bid("Alice", "T_V2A", 2), bid("Bob", "T_V2A", 3))
    p = rs.pending(s)
    assert isinstance(p, Decision) and p.player == "Alice" and "outbid" in p.prompt
    assert s.loose is not None and s.loose.count == 2
    # Nobody else acts until Alice has moved or taken back her bid.
    assert "Alice" in refused(s, bid("Carol", "T_V2B", 2))
    # A displaced bid keeps its amount and must meet the new card's minimum ...
    assert "minimum bid" in refused(s, BidMoved(player="Alice", card="T_V3"))
    # ... and be higher than a bid already there; the card it came from holds a higher bid.
    assert "different" in refused(s, BidMoved(player="Alice", card="T_V2A"))
    s = play(s, BidMoved(player="Alice", card="T_V2B"))
    assert auction.held(s, "T_V2B").player == "Alice"
    assert rs.pending(s).player == "Carol"


def test_a_moved_bid_must_be_higher_than_the_bid_where_it_goes():
    s = play(auction_round(), bid("Alice", "T_V2A", 3), bid("Bob", "T_V2B", 2), bid("Carol", "T_V2B", 3))
    # Bob's 2 cannot go where Alice bids 3.
    assert "must be higher" in refused(s, BidMoved(player="Bob", card="T_V2A"))


def test_a_displaced_bid_may_displace_a_third_player_in_a_chain():
    s = play(auction_round(), bid("Alice", "T_V2A", 2), bid("Bob", "T_V2B", 3), bid("Carol", "T_V2B", 4))
    assert rs.pending(s).player == "Bob"
    s = play(s, BidMoved(player="Bob", card="T_V2A"))  # Bob's 3 outbids Alice's 2
    p = rs.pending(s)
    assert p.player == "Alice" and s.loose.count == 2 and s.loose.player == "Alice"
    # Alice's 2 fits nowhere: only taking it back is listed.
    assert rs.legal(s) == [BidWithdrawn(player="Alice")]
    s = play(s, BidWithdrawn(player="Alice"))
    assert s.seat("Alice").hand.wood == 6  # the bid is back in hand ...
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.count == 3 and "Alice" in p.label  # ... plus 3 coin cards
    assert "Alice" in s.passed


def test_a_displaced_bid_may_move_to_the_conquest_row_when_it_meets_the_price():
    s = play(auction_round(), bid("Alice", "T_V2A", 4), bid("Bob", "T_V2A", 5))
    assert BidMoved(player="Alice", card="T_C1") in rs.legal(s)  # value 1 + 3 = 4
    assert "costs 5" in refused(s, BidMoved(player="Alice", card="T_C2"))


def test_conquest_row_costs_value_plus_three_and_cannot_be_outbid():
    s = auction_round()
    assert "costs 5" in refused(s, bid("Alice", "T_C2", 4))
    s = play(s, bid("Alice", "T_C2", 5))
    assert "cannot be outbid" in refused(s, bid("Bob", "T_C2", 6))


def test_barracks_and_palisade_lower_the_conquest_price_by_one_each():
    s = auction_round()
    s = seat(s, "Alice", buildings=slots("T_BARRACKS"))
    assert "costs 4" in refused(s, bid("Alice", "T_C2", 3))
    s = seat(s, "Alice", buildings=slots("T_BARRACKS", "T_PALISADE"))
    s = play(s, bid("Alice", "T_C2", 3))
    assert auction.held(s, "T_C2").player == "Alice"


def test_market_and_agora_add_half_a_coin_to_bids_but_not_to_turn_order():
    s = seat(auction_round(), "Bob", buildings=slots("T_MARKET"))
    s = play(s, bid("Alice", "T_V2A", 2), bid("Bob", "T_V2A", 2))  # 2.5 beats 2
    assert s.loose.player == "Alice"
    s = play(s, BidMoved(player="Alice", card="T_V2B"), Passed(player="Carol"))
    s = play(s, s_draw(s))
    # Equal bids of 2 coin cards: Alice stays ahead of Bob; the half coin does not count.
    assert s.last_bids == (("Alice", 2), ("Bob", 2), ("Carol", 0))
    assert s.order == ("Alice", "Bob", "Carol")
    # With both Market and Agora, a bid counts one more against another bid.
    s2 = seat(auction_round(), "Alice", buildings=slots("T_MARKET", "T_AGORA"))
    s2 = play(s2, bid("Alice", "T_V2A", 2))
    assert auction.effective(s2, "Alice", 2) == 3


def test_market_and_agora_do_not_lower_the_minimum_or_the_conquest_price():
    # The value is "a quantidade mínima de carta de moeda que deve ser usada para apostar na carta" ('Leilão'):
    # Market and Agora's half coins count only to beat another bid ('Mercado + Ágora').
    s = seat(auction_round(), "Alice", buildings=slots("T_MARKET", "T_AGORA"))
    rule = refused(s, bid("Alice", "T_V3", 2))
    assert "minimum bid in coin cards" in rule and "a bid of 2 is too low" in rule
    # "uma carta de valor 2 na fileira de conquista, então, seu lance deve ser 5": 4 coin cards do not do.
    assert "costs 5 coin cards" in refused(s, bid("Alice", "T_C2", 4))
    least = {"T_V2A": 2, "T_V2B": 2, "T_V3": 3, "T_C1": 4, "T_C2": 5, "T_C3": 6}
    offered = [e for e in rs.legal(s) if isinstance(e, BidPlaced)]
    assert {e.card for e in offered} == set(least)
    assert all(e.coins.total() + e.luxury >= least[e.card] for e in offered)
    assert bid("Alice", "T_V3", 3) in rs.legal(s) and bid("Alice", "T_C2", 5) in rs.legal(s)
    s = play(s, bid("Alice", "T_C2", 5))
    assert auction.held(s, "T_C2").player == "Alice"


def s_draw(s):
    p = rs.pending(s)
    assert isinstance(p, Chance)
    return p.build(tuple(p.items[: p.count]))


def test_new_turn_order_highest_bid_first_ties_keep_order_pass_counts_zero():
    s = play(auction_round(), Passed(player="Alice"))
    s = play(s, s_draw(s))
    s = play(s, bid("Bob", "T_V2A", 2), bid("Carol", "T_C2", 5))
    assert s.last_bids == (("Carol", 5), ("Bob", 2), ("Alice", 0))
    assert s.order == ("Carol", "Bob", "Alice")


def test_the_auction_ends_when_all_passed_or_hold_bids_and_unbid_cards_leave():
    s = play(auction_round(), bid("Alice", "T_V2A", 2), bid("Bob", "T_C1", 4), bid("Carol", "T_C2", 5))
    # Lands go to the right at once; the building waits for its payment; winning coins are discarded.
    assert [x.card for x in s.seat("Alice").lands] == ["T_V2A"]
    assert [x.card for x in s.seat("Bob").lands] == ["T_C1"]
    assert s.discard.wood == 11
    assert s.phase in ("build", "next", "reveal") or isinstance(rs.pending(s), Chance)
    for c in ("T_V2B", "T_V3", "T_C3"):
        assert c not in s.power_left
        assert all(c not in (x.card for x in seat_.slots()) for seat_ in s.seats)


def test_any_legal_payment_typed_as_json_is_accepted():
    s = auction_round(hands={"Alice": coins(wood=1, stone=1, grain=1, people=1)})
    codec = Codec(EVENTS)
    typed = codec.from_obj(
        {"type": "peloponnes.bid_placed", "player": "Alice", "card": "T_V3", "coins": {"stone": 1, "people": 2}}
    )
    assert "holds" in refused(s, typed)
    typed = codec.from_obj(
        {
            "type": "peloponnes.bid_placed",
            "player": "Alice",
            "card": "T_V3",
            "coins": {"stone": 1, "people": 1, "grain": 1},
        }
    )
    assert rs.validate(s, typed) is None
    assert typed not in rs.legal(s)  # not in the canonical list, yet legal


def test_legal_bids_are_a_short_canonical_list_that_validates():
    s = auction_round()
    options = rs.legal(s)
    assert Passed(player="Alice") in options
    assert len(options) < 25
    assert all(rs.validate(s, e) is None for e in options)


def test_a_mistyped_coin_in_a_bid_typed_as_json_is_refused_not_left_out():
    # 'gran' for 'grain': read without it, the bid would be 3 where 4 was meant
    codec = Codec(EVENTS)
    with pytest.raises(DecodeError, match=r"'coins.gran' is not one of its fields \(there: wood, stone, grain,"
                                          r" people\)"):
        codec.from_obj({"type": "peloponnes.bid_placed", "player": "Alice", "card": "T_V3",
                        "coins": {"stone": 3, "gran": 1}})

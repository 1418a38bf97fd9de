"""The coin discard pile is face up ('5. Ganhar Cartas de Poder': "adicionando-as em uma pilha de descarte virada
para cima"): the backs of the coin cards that go onto it are every seat's to see, and so is a new deck formed from
it until a card is drawn (RULES.md, 'Who is told what'). Hands, standing bids and the draw stay hidden."""

from __future__ import annotations

from agon.core.autoplay import play_out
from agon.core.engine import HIDDEN, PUBLIC, Chance, narrate_as, option_text
from agon.core.games.peloponnes import view
from agon.core.games.peloponnes.state import Slot
from agon.events.base import GameCreated, PlayerSeat
from agon.events.peloponnes import (
    BidPlaced,
    BuildingBuilt,
    CoinsDrawn,
    ConstructionPaid,
    Passed,
    PopulationFed,
)
from tests.peloponnes.helpers import (
    AUCTION_ROW,
    auction_round,
    bare,
    coins,
    dealt,
    play,
    refused,
    replace,
    reveal,
    rs,
    seat,
    slots,
)

HANDS = {"Alice": coins(wood=2, stone=2, grain=2), "Bob": coins(stone=3, people=3), "Carol": coins(grain=6)}
PILE = ", the winning bids' coin cards going face up onto the discard pile"


def _auction():
    """Alice and Bob bid in the middle; Carol's conquest-row bid ends the auction."""
    s = play(auction_round(HANDS), BidPlaced(player="Alice", card="T_V2A", coins=coins(wood=1, stone=1)),
             BidPlaced(player="Bob", card="T_V2B", coins=coins(stone=2)))
    return s, BidPlaced(player="Carol", card="T_C1", coins=coins(grain=4))


def test_the_auction_end_tells_every_seat_the_winning_bids_backs_as_they_go_onto_the_discard_pile():
    s, last = _auction()
    # while the bids stand, only their number of cards shows ('Leilão')
    assert narrate_as(rs, auction_round(HANDS), BidPlaced(player="Alice", card="T_V2A", coins=coins(wood=1, stone=1)),
                      "Bob") == "Alice bids 2 on Field A."
    for viewer in (PUBLIC, "Alice", "Bob", "Carol"):
        told = narrate_as(rs, s, last, viewer)
        assert (f"the auction ends (Alice wins Field A, Bob wins Field B, Carol wins Hill){PILE} (Alice: 1 wood,"
                " 1 stone; Bob: 2 stone; Carol: 4 grain); new turn order") in told
        assert view.view(s, viewer)["discard_pile_backs"] == {"wood": 0, "stone": 0, "grain": 0, "people": 0}
    after = play(s, last)
    for viewer in (None, "Alice", "Bob", "Carol"):
        seen = view.view(after, viewer)
        assert seen["discard_pile_backs"] == {"wood": 1, "stone": 3, "grain": 4, "people": 0}
        assert seen["discard_pile"] == 8
        # the hands stay their holders' own
        for name, shown in seen["players"].items():
            assert ("hand" in shown) == (viewer in (None, name))


def test_an_option_ending_the_auction_names_only_its_players_own_backs():
    """Offered before it is chosen, a decision that would end the auction must not tell the bids standing: the others'
    winning bids are told by count there, the chooser's own by back."""
    s, last = _auction()
    offered = option_text(rs, s, last)
    assert f"{PILE} (Alice: 2 coin cards; Bob: 2 coin cards; Carol: 4 grain)" in offered
    assert "wood" not in offered and "stone" not in offered


def test_a_standing_bid_stays_hidden_from_the_other_seats_after_an_auction_ended():
    s, last = _auction()
    s = play(s, last)
    while isinstance(rs.pending(s), Chance):  # income, then the next round's reveal
        p = rs.pending(s)
        s = play(s, p.build(tuple(p.items[: p.count])))
    bid = next(e for e in rs.legal(s) if isinstance(e, BidPlaced))
    s = play(s, bid)
    for viewer in ("Alice", "Bob", "Carol"):
        if viewer == bid.player:
            continue
        shown = view.view(s, viewer)
        standing = [c["bid"] for c in shown["auction_row"] + shown["conquest_row"] if c["bid"]]
        assert standing and all("coins" not in b for b in standing)
        assert all("hand" not in p for name, p in shown["players"].items() if name != viewer)


def test_a_decision_that_ends_the_auction_is_not_its_players_to_take_back():
    s, last = _auction()
    assert view.shows(s, last, play(s, last))
    standing = auction_round(HANDS)
    first = BidPlaced(player="Alice", card="T_V2A", coins=coins(wood=1, stone=1))
    assert not view.shows(standing, first, play(standing, first))


def test_the_covers_lifted_at_the_end_go_onto_the_pile_by_their_backs():
    s = bare(bare(bare(dealt(), "Bob"), "Carol"), "Alice", "plain", buildings=slots("T_WELL", "T_STOA"),
             luxury_card="declined", luxury_cover="wood")
    s = s.with_seat(replace(s.seat("Alice"), civ=Slot("plain", cover="grain", cause="plague")))
    s = flow_to_last_draw(replace(s, round=8, phase="build", todo=()))
    p = rs.pending(s)
    last = p.build(tuple(p.items[: p.count]))
    told = narrate_as(rs, s, last, "Bob")
    assert ("Alice's 2 coin cards from Plain polis, the luxury card (1 wood, 1 grain) go face up onto the discard"
            " pile; the game ends") in told
    assert view.view(play(s, last), "Bob")["discard_pile_backs"]["grain"] == s.discard.grain + 1


def flow_to_last_draw(s):
    from agon.core.games.peloponnes import flow

    s = flow.advance(s)
    while len(s.draws) > 1 or (s.draws and s.draws[0].count > s.deck.total()):
        p = rs.pending(s)
        s = play(s, p.build(tuple(p.items[: p.count])))
    return s


def _refill(discard):
    s = dealt()
    s = replace(s, power_left=AUCTION_ROW + s.cat.era_cards("B"), deck=coins(grain=2), discard=discard)
    s = seat(s, "Alice", hand=coins())
    return play(reveal(s, *AUCTION_ROW), Passed(player="Alice"))


def test_a_deck_formed_from_the_face_up_pile_is_known_to_all_until_a_card_is_drawn_from_it():
    s = _refill(coins(wood=2, people=3))
    assert view.view(s, "Bob")["coin_deck_backs"] == HIDDEN  # the deck left after the setup draws
    drawn = CoinsDrawn(player="Alice", coins=("grain", "grain"))
    told = narrate_as(rs, s, drawn, "Bob")
    assert told == ("Alice draws 2 coin cards (pass); the discard pile is shuffled into a new coin deck of 2 wood,"
                    " 3 people.")
    s = play(s, drawn)
    for viewer in (None, "Alice", "Bob", "Carol"):
        assert view.view(s, viewer)["coin_deck_backs"] == {"wood": 2, "stone": 0, "grain": 0, "people": 3}
        assert view.view(s, viewer)["discard_pile_backs"] == {"wood": 0, "stone": 0, "grain": 0, "people": 0}
    # the table still types the draw, from the four backs (RULES.md: a table confirms what it drew)
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.unseen == ("wood", "stone", "grain", "people")
    # and a back the known deck cannot give is refused naming what it holds, which every seat knows
    assert refused(s, CoinsDrawn(player="Alice", coins=("grain",))) == (
        "chance: the coin deck holds 2 wood, 3 people (the face-up discard pile it was formed from), so it cannot give"
        " 1 grain; check the backs of the coin cards drawn")
    s = play(s, CoinsDrawn(player="Alice", coins=("people",)))
    assert view.view(s, "Bob")["coin_deck_backs"] == HIDDEN  # 2 wood and 2 people, or 1 wood and 3 people


def test_a_known_deck_of_one_back_stays_known_after_a_draw():
    s = play(_refill(coins(people=5)), CoinsDrawn(player="Alice", coins=("grain", "grain")),
             CoinsDrawn(player="Alice", coins=("people",)))
    assert view.view(s, "Bob")["coin_deck_backs"] == {"wood": 0, "stone": 0, "grain": 0, "people": 4}


def _paid(e) -> object:
    match e:
        case BuildingBuilt() | ConstructionPaid():
            return coins(wood=e.wood, stone=e.stone)
        case PopulationFed():
            return coins(grain=e.grain, people=e.people)
    return coins()


def test_every_coin_card_that_reaches_the_pile_is_told_by_its_back():
    """Whole random games: what each step adds to the discard pile is a payment its sentence names, a winning bid or
    a tableau's coin cards, each named by back in the public record (or it went on into a new deck, told too)."""
    seen = 0
    for seed in (3, 4, 5):
        game = GameCreated(ruleset="peloponnes", ruleset_version=rs.version, seed=seed,
                           players=tuple(PlayerSeat(f"P{i}", "random") for i in range(3)), cards=rs.default_cards())
        events, _, _ = play_out(rs, game)
        s = rs.initial_state(game)
        for e in events[1:]:
            after = rs.apply(s, e)
            text = narrate_as(rs, s, e, PUBLIC)
            told = _paid(e)
            if s.auction_ended(after):
                for b in after.won:
                    told = told.plus(b.coins)
                    if b.coins.total():
                        assert f"{b.player}: {b.coins.describe()}" in text
            for player, _, c in view.off_tableaus(s, after):
                told = told.plus(c)
                assert f"({c.describe()}) go" in text and f"{player}'s" in text
            refilled = view.refill(s, after, e)
            if refilled is None:
                assert after.discard == s.discard.plus(told), (e, text)
            else:
                assert after.discard.total() == 0 and refilled == s.discard.plus(told), (e, text)
                assert f"new coin deck of {refilled.describe()}" in text
            seen += told.total() - _paid(e).total()
            s = after
    assert seen

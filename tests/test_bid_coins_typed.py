"""At a Peloponnes table a player bids the coin cards they choose: ``legal`` lists one canonical set for each size
(auction.pick_coins), but the words of a bid read any set the hand holds (``a02 1w2g``), so the record keeps in
the hand the backs the player really kept, and a later payment from them is accepted (core/games/peloponnes/
steps.py). Luxury goods used as coin cards go in the same word (``a09 1w1l``). A set the hand cannot pay, or
luxury goods the player has not got, is refused in one line naming the rule; the backs stay the bidder's own."""

from __future__ import annotations

import json

import msgspec
import pytest

from agon.core import entry, steps
from agon.core.engine import Chance
from agon.core.games.peloponnes import RULESET as PELOPONNES
from agon.core.games.peloponnes import auction
from agon.core.games.peloponnes.steps import KINDS, coins_word, read_coins
from agon.core.service import NewGame, Service, ServiceError
from agon.events.peloponnes import BidPlaced, BuildingBuilt, Coins
from agon.events.store import Store

PAY_PALISADE = {"type": "peloponnes.building_built", "player": "Bo", "card": "A02", "wood": 1}
"""Palisade (A02) costs Bo one wood coin card beyond production (seed 4)."""


@pytest.fixture
def auction_open(tmp_path):
    """A two-player table game (seed 4) at its first bid: Bo, holding 2 wood and 2 grain, bids first."""
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = svc.new_game(NewGame("peloponnes", players=("Ana", "Bo"), seed=4, table=True))
    while not (isinstance(p := svc.load(gid).pending, Chance) and p.label.startswith("power")):
        svc.act(gid, "seed")
    svc.act(gid, "pal soh well carp stonem forest")
    s = svc.load(gid).state
    assert auction.actor(s) == "Bo" and s.seat("Bo").hand == Coins(wood=2, grain=2)
    return svc, gid


def test_a_bid_typed_with_other_backs_keeps_them_and_a_payment_from_them_is_accepted(auction_open):
    svc, gid = auction_open
    before = svc.load(gid).state
    canonical = auction.pick_coins(before.seat("Bo").hand, 3)
    assert canonical == Coins(wood=2, grain=1)  # what `legal` lists for a bid of 3: it would leave Bo no wood
    bid = svc.act(gid, "pal 2g1w")[0].event  # in any order, each back by a prefix
    assert bid == BidPlaced(player="Bo", card="A02", coins=Coins(wood=1, grain=2))
    assert bid not in PELOPONNES.legal(before)  # not listed, yet recorded as typed
    svc.act(gid, "soh 1g1p")  # Ana keeps her 3 stone: the auction ends
    line = svc.load(gid)
    assert line.state.seat("Bo").hand == Coins(wood=1)
    paid = svc.act(gid, json.dumps(PAY_PALISADE))[0].event
    assert paid == BuildingBuilt(player="Bo", card="A02", wood=1)
    # had the canonical set been recorded, the table's payment would be refused: the record would hold no wood
    s = PELOPONNES.apply(before, BidPlaced(player="Bo", card="A02", coins=canonical))
    s = PELOPONNES.apply(s, BidPlaced(player="Ana", card="A06", coins=Coins(grain=1, people=1)))
    assert "wood" in (PELOPONNES.validate(s, paid) or "")
    # what Ana is told of Bo's bid names no back (RULES.md, "Who is told what")
    told = [r.sentence for r in svc.log(line, "Ana") if isinstance(r.event, BidPlaced) and r.event.player == "Bo"]
    assert told == ["Bo bids 3 on Palisade."]


def test_an_impossible_set_is_refused_in_one_line_naming_the_rule_and_nothing_is_recorded(auction_open):
    svc, gid = auction_open
    depth = svc.load(gid).head.depth
    with pytest.raises(ServiceError) as held:
        svc.act(gid, "a02 3w")
    said = str(held.value)
    assert "\n" not in said and said.startswith(
        "refused: bid (rulebook, 'Leilão'): Bo holds 2 wood, 2 grain, not 3 wood;")
    with pytest.raises(ServiceError, match=r"^refused: bid \(rulebook, 'Leilão'\): the value of Palisade is 2, the"):
        svc.act(gid, "a02 1g")
    with pytest.raises(ServiceError, match=r"conquest row costs 4 coin cards .* a bid of 3 is too low"):
        svc.act(gid, "forest 2w1g")  # the card's one listed set is forced, and still the set typed is read
    assert svc.load(gid).head.depth == depth


def test_the_coin_card_step_lists_what_legal_lists_and_reads_any_set_the_hand_holds(auction_open):
    svc, gid = auction_open
    s = svc.load(gid).state
    legal = PELOPONNES.legal(s)
    chosen, now = steps.walk(PELOPONNES, s, ["pal"])  # `agon play` asks the coin cards next
    assert isinstance(now, steps.Question) and now.field == "coins"
    assert now.values == ["1wood-1grain", "2wood-1grain", "2wood-2grain"]  # the listed bids, numbered as before
    assert [steps.pick(now, str(i)) for i in (1, 2, 3)] == now.values
    for typed in ("2g", "2grain", "g1w", "1w-1g", "w2g"):  # any set the hand holds, any order
        event = steps.walk(PELOPONNES, s, [typed], chosen)[1]
        assert event == BidPlaced(player="Bo", card="A02", coins=read_coins(typed).coins), typed
    assert steps.settled_value(now, "2g") is None  # typed on it may become 2g1w: never taken early
    # nor is a number: '1' may begin '1w1p', and taken at once it bid the listed set 1 and left '1p' to answer the
    # next player's prompt (a pass); at a space or Enter it is still the listed set
    assert steps.settled_value(now, "2") is None and steps.settled_value(now, "1") is None
    assert steps.settle(PELOPONNES, s, "pal 1") is None and steps.settle(PELOPONNES, s, "pal 1w1g") is None
    bid = BidPlaced(player="Bo", card="A02", coins=Coins(wood=2, grain=1))
    assert steps.walk(PELOPONNES, s, ["2"], chosen)[1] == bid
    with pytest.raises(steps.Refused, match="Bo holds 2 wood, 2 grain, not 1 wood, 1 stone$"):
        steps.walk(PELOPONNES, s, ["1s1w"], chosen)
    with pytest.raises(entry.EntryError, match="'zz' is none of the answers"):
        steps.walk(PELOPONNES, s, ["zz"], chosen)
    assert len(PELOPONNES.legal(s)) == len(legal) == 8  # what bots and analysis choose from is unchanged


def test_words_name_coin_cards_by_how_many_of_each_back_in_any_order():
    assert read_coins("2s1w") == read_coins("1w2s") == read_coins("1wood-2stone") == (Coins(wood=1, stone=2), 0)
    assert read_coins("w2s") == (Coins(wood=1, stone=2), 0)  # a back without a number is one card
    assert read_coins("3PEOPLE") == (Coins(people=3), 0)
    for word in ("zz", "2", "2w2w", "pal", "1234w", "", "w2", "2l1lux", "1w1x"):
        assert read_coins(word) is None, word


def test_the_same_word_takes_luxury_goods_by_any_prefix_and_reads_back_naming_them():
    two_wood_one_lux = (Coins(wood=2), 1)
    for word in ("2w1l", "1l2w", "2wood-1luxury", "2w-1lux", "l2w", "2W1LUX"):
        assert read_coins(word) == two_wood_one_lux, word
    assert read_coins("3l") == (Coins(), 3)  # luxury goods alone are a set too; the rules judge it
    assert coins_word(*two_wood_one_lux) == "2wood-1luxury"  # the value chosen and echoed says what is spent
    assert coins_word(Coins(grain=1)) == "1grain"
    assert len({k[0] for k in KINDS}) == len(KINDS) == 5  # no coin back begins as luxury does: 'l' is it alone


def _ana_with_luxury(svc: Service) -> str:
    """A two-player game (seed 4, not at a table) three decisions in: Ana, holding 2 wood, 2 grain, 1 people and one
    luxury good, bids first on Lion Gate (A04, value 3) or Wheat Field (A09, value 2); Bo holds no luxury good."""
    gid = svc.new_game(NewGame("peloponnes", players=("Ana", "Bo"), seed=4))
    for n in ("2", "5", "1"):
        svc.act(gid, n)
    s = svc.load(gid).state
    assert auction.actor(s) == "Ana" and s.phase == "auction" and s.loose is None
    assert (s.seat("Ana").hand, s.seat("Ana").luxury) == (Coins(wood=2, grain=2, people=1), 1)
    assert s.seat("Bo").luxury == 0 and s.row == ("A04", "A09")
    return gid


def test_a_bid_typed_with_a_luxury_good_is_recorded_as_typed_and_told_to_the_bidder_alone(tmp_path):
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = _ana_with_luxury(svc)
    bid = svc.act(gid, "wheat 1w1lux")[0].event
    assert bid == BidPlaced(player="Ana", card="A09", coins=Coins(wood=1), luxury=1)
    line = svc.load(gid)
    assert line.state.seat("Ana").luxury == 0 and line.state.seat("Ana").hand == Coins(wood=1, grain=2, people=1)
    told = {p: [r.sentence for r in svc.log(line, p) if r.event == bid][0] for p in ("Ana", "Bo")}
    said = "Ana bids 2 (counting 2.5 with Market/Agora) on Wheat Field"  # Ana holds the Agora (A03)
    assert told == {"Ana": said + " (1 wood, 1 luxury).", "Bo": said + "."}  # the backs are Ana's own


def test_a_luxury_good_the_hand_has_not_is_refused_in_one_line_naming_the_rule_and_nothing_is_recorded(tmp_path):
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = _ana_with_luxury(svc)
    depth = svc.load(gid).head.depth
    with pytest.raises(ServiceError) as held:
        svc.act(gid, "a04 1w2l")
    said = str(held.value)
    assert "\n" not in said and said.startswith(
        "refused: bid (rulebook, 'Bens de Luxo'): Ana has 1 luxury good, not 2;")
    with pytest.raises(ServiceError, match=r"^refused: bid \(rulebook, 'Leilão'\): the value of Lion Gate is 3"):
        svc.act(gid, "a04 1w1l")  # a luxury good counts as one coin card, no more
    assert svc.load(gid).head.depth == depth
    svc.act(gid, "a09 2g")  # Ana bids without it; Bo, who has none, then types one
    with pytest.raises(ServiceError) as held:
        svc.act(gid, "a04 2g1l")
    assert str(held.value).startswith("refused: bid (rulebook, 'Bens de Luxo'): Bo has 0 luxury goods, not 1;")
    assert svc.load(gid).head.depth == depth + 1


def test_the_listed_bid_topping_up_a_short_hand_with_luxury_goods_names_them(tmp_path):
    """A hand short of a card's least bid is offered the whole hand and luxury goods to make it up (``legal``): the
    value of that step names the luxury goods it spends, where it read as the coin cards alone before."""
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    s = svc.load(_ana_with_luxury(svc)).state
    s = s.with_seat(msgspec.structs.replace(s.seat("Ana"), hand=Coins(wood=2)))  # 2 coin cards, 1 luxury good
    chosen, now = steps.walk(PELOPONNES, s, ["a04"])  # Lion Gate's least bid is 3: the hand and the good
    assert now == BidPlaced(player="Ana", card="A04", coins=Coins(wood=2), luxury=1)
    assert chosen[-1] == ("coins", "2wood-1luxury")
    assert steps.walk(PELOPONNES, s, ["a04", "2wood-1luxury"])[1] == now
    assert steps.walk(PELOPONNES, s, ["a09", "1w1l"])[1] == BidPlaced(player="Ana", card="A09", coins=Coins(wood=1),
                                                                      luxury=1)
    with pytest.raises(steps.Refused, match=r"^bid \(rulebook, 'Leilão'\): the value of Lion Gate is 3"):
        steps.walk(PELOPONNES, s, ["a04", "2w"])  # the coin cards alone, no luxury good added unasked


def test_agon_play_records_a_bid_typed_with_the_coin_cards_after_the_card(agon):
    gid = json.loads(agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--seed", "4", "--table",
                          "--json").stdout)["id"]
    for _ in range(3):
        agon("act", gid, "seed")
    agon("act", gid, "pal soh well carp stonem forest")
    out = agon("play", gid, input="a02 2g\nq\n").stdout
    assert "Bo bids 2 on Palisade (2 grain)." in out
    refused = agon("act", gid, "a02 2p", ok=False)  # Ana holds one people coin card
    assert refused.exit_code != 0 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith(
        "error: refused: bid (rulebook, 'Leilão'): Ana holds 3 stone, 1 grain, 1 people, not 2")


def test_agon_play_and_act_take_a_luxury_good_in_the_word_of_coin_cards(agon):
    made = agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--seed", "4", "--json")
    gid = json.loads(made.stdout)["id"]
    for n in ("2", "5", "1"):  # to round 2's auction (``_ana_with_luxury``)
        agon("act", gid, n)
    refused = agon("act", gid, "a04 1w2l", ok=False)
    assert refused.exit_code != 0 and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith("error: refused: bid (rulebook, 'Bens de Luxo'): Ana has 1 luxury good, not 2;")
    out = agon("play", gid, input="a09 1w1l\nq\n").stdout
    assert "Ana bids 2 (counting 2.5 with Market/Agora) on Wheat Field (1 wood, 1 luxury)." in out


def test_coin_cards_typed_as_separate_words_are_refused_saying_they_go_in_one_word(auction_open):
    """A hurried table types 'pal 1w 1g' (space between the backs): the step reads '1w' alone, a bid of 1 under
    Palisade's value 2; the refusal says the coin cards go in one word, not only that the bid is too low, and
    nothing is recorded."""
    svc, gid = auction_open
    depth = svc.load(gid).head.depth
    with pytest.raises(ServiceError) as held:
        svc.act(gid, "pal 1w 1g")
    said = str(held.value)
    assert "\n" not in said and "a bid of 1 is too low" in said
    assert "every coin card of the bid goes in one word, as 1wood-1grain" in said
    assert svc.load(gid).head.depth == depth
    assert svc.act(gid, "pal 1w1g")[0].event == BidPlaced(player="Bo", card="A02", coins=Coins(wood=1, grain=1))

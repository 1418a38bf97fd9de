"""The auction and the new turn order (rulebook, "3. Leilão" and "4. Ordem do Turno"; "Mercado + Ágora",
"Quartel + Paliçada").

Players act once each in turn order: bid on a power card or pass (drawing 3 coin cards). Outbidding a bid in the
middle forces its owner to move the same bid at once to another card where it is higher than the bid there and
meets that card's minimum (which may displace a third player, and so on), or to take it back and pass, drawing 3.
A bid in the conquest row costs value + 3 and cannot be outbid. A card's minimum and the conquest price count coin
cards ("a quantidade minima de carta de moeda que deve ser usada para apostar na carta"); only when one bid is
compared with another are bids "effective": coin cards plus half a coin per Market and Agora ("seus lances contam
com 1/2 moeda a mais ... você pode efetivamente apostar o mesmo valor que outro jogador e ultrapassar seu lance").
The turn order reads coin cards only.

Games recorded under ruleset version 1 keep that version's reading (``MINIMUM_IN_COIN_CARDS``): there the half
coins also counted against the minimum and the conquest price (the effective bid met them), so a player with both
Market and Agora could bid one coin card less than the value.
"""

from __future__ import annotations

import math

from agon.core.games.peloponnes.state import Bid, Draw, State, bid_bonus, conquest_price, replace, specials
from agon.core.words import counted
from agon.events.peloponnes import COIN_KINDS, BidMoved, BidPlaced, BidWithdrawn, Coins, Passed

PASS_DRAW = 3

MINIMUM_IN_COIN_CARDS = 2
"""The ruleset version from which a card's minimum and the conquest price count coin cards alone: "a quantidade
minima de carta de moeda que deve ser usada para apostar na carta" ('Leilão'), and a conquest-row bid "deve ser 5"
for a card of value 2. Until then the effective bid (with Market and Agora's half coins) was compared with them,
and a game recorded then is folded so (RULES.md, 'Ruleset versions')."""


def actor(s: State) -> str | None:
    """Who acts in the auction now: the owner of a displaced bid, else the next player yet to act."""
    if s.loose is not None:
        return s.loose.player
    for p in s.order:
        if p not in s.acted:
            return p
    return None


def held(s: State, card: str) -> Bid | None:
    for b in s.bids:
        if b.card == card:
            return b
    return None


def effective(s: State, player: str, count: int) -> float:
    return count + bid_bonus(s.cat, s.seat(player))


def _name(s: State, card: str) -> str:
    return s.cat.name(card)


def placement_error(s: State, player: str, card: str, count: int, verb: str) -> str | None:
    """Why a bid of ``count`` coin cards by ``player`` may not stand on ``card`` now (None if it may).

    The minimum and the conquest price are met by the number of coin cards; Market and Agora's half coins count
    only against another player's bid (module docstring). In a game recorded before ``MINIMUM_IN_COIN_CARDS`` the
    effective bid meets them, as it did then."""
    eff = effective(s, player, count)
    old = s.version < MINIMUM_IN_COIN_CARDS  # version 1: the half coins met the minimum and the price too
    met = eff if old else count
    if card in s.conquest:
        taken = held(s, card)
        if taken is not None:
            return _conquest_taken(s, card, taken, verb)
        price = conquest_price(s.cat, s.seat(player), card)
        if met < price:
            era, unit, bid, why = _reading(s, player, old, eff, count)
            return (
                f"{verb} (rulebook, 'Leilão', conquest row{era}): {_name(s, card)} in the conquest row costs {price}"
                f"{unit} (value + 3, less Barracks/Palisade), a bid of {bid} is too low{why}"
            )
        return None
    if card not in s.row:
        return f"{verb} (rulebook, 'Leilão'): {_name(s, card)} is not one of this round's power cards"
    value = s.cat.power[card].value
    if met < value:
        era, unit, bid, why = _reading(s, player, old, eff, count)
        return (
            f"{verb} (rulebook, 'Leilão'{era}): the value of {_name(s, card)} is {value}, the minimum bid"
            f"{' in' + unit if unit else ''}; a bid of {bid} is too low{why}"
        )
    return _outbid_error(s, card, eff, verb)


def _reading(s: State, player: str, old: bool, eff: float, count: int) -> tuple[str, str, str, str]:
    """The words of a too-low bid under version 1's reading (``old``) or today's: the version named, the unit of
    the minimum, the bid as compared, and why the half coins do not count, said only to a player whose tableau
    shows Market or Agora (uncovered): to anyone else they are beside the point."""
    if old:
        return "; ruleset version 1", "", _fmt(eff), ""
    held = [name for name in ("market", "agora") if specials(s.cat, s.seat(player), name)]
    why = ""
    if held:
        named = " and ".join(name.capitalize() for name in held)
        why = f" ({named} {'count' if len(held) > 1 else 'counts'} only against another bid)"
    return "", " coin cards", str(count), why


def _conquest_taken(s: State, card: str, taken: Bid, verb: str) -> str:
    return (
        f"{verb} (rulebook, 'Leilão', conquest row): {_name(s, card)} already has {taken.player}'s bid,"
        " and a bid in the conquest row cannot be outbid"
    )


def _outbid_error(s: State, card: str, eff: float, verb: str) -> str | None:
    """Why an effective bid of ``eff`` cannot take ``card`` from the bid already there (None if it can, or if
    there is none)."""
    other = held(s, card)
    if other is not None:
        theirs = effective(s, other.player, other.count)
        if eff <= theirs:
            return (
                f"{verb} (rulebook, 'Leilão'): {other.player} bids {_fmt(theirs)} on {_name(s, card)};"
                f" a bid there must be higher, {_fmt(eff)} is not"
            )
    return None


def _fmt(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


def validate(s: State, e: BidPlaced | BidMoved | BidWithdrawn | Passed) -> str | None:
    who = actor(s)
    if who is None or s.phase != "auction":
        return "auction (rulebook, 'Leilão'): no auction is open now"
    if e.player != who:
        return f"auction (rulebook, 'Leilão'): {who} acts now, not {e.player}"
    seat = s.seat(e.player)
    if isinstance(e, BidPlaced | Passed) and s.loose is not None:
        return f"auction (rulebook, 'Leilão'): {who} was outbid and must move the bid or take it back"
    if isinstance(e, BidMoved | BidWithdrawn) and s.loose is None:
        return "auction (rulebook, 'Leilão'): only an outbid player moves a bid or takes it back"
    match e:
        case BidPlaced():
            c = e.coins
            if min(c.wood, c.stone, c.grain, c.people, e.luxury) < 0:
                return "bid (rulebook, 'Leilão'): coin counts cannot be negative"
            if not seat.hand.covers(c):
                return f"bid (rulebook, 'Leilão'): {e.player} holds {seat.hand.describe()}, not {c.describe()}"
            if e.luxury > seat.luxury:
                return (f"bid (rulebook, 'Bens de Luxo'): {e.player} has {counted(seat.luxury, 'luxury good')},"
                        f" not {e.luxury}")
            if c.total() + e.luxury < 1:
                return "bid (rulebook, 'Leilão'): a bid is at least one coin card"
            return placement_error(s, e.player, e.card, c.total() + e.luxury, "bid")
        case BidMoved():
            assert s.loose is not None
            if e.card == s.loose.card:
                return "displaced bid (rulebook, 'Leilão'): it must move to a different power card"
            return placement_error(s, e.player, e.card, s.loose.count, "displaced bid")
    return None


def _place(s: State, bid: Bid) -> State:
    """Put ``bid`` on its card; a bid already there becomes the loose (displaced) bid."""
    other = held(s, bid.card)
    bids = tuple(b for b in s.bids if b.card != bid.card) + (bid,)
    return replace(s, bids=bids, loose=other)


def apply(s: State, e: BidPlaced | BidMoved | BidWithdrawn | Passed) -> State:
    match e:
        case BidPlaced():
            seat = s.seat(e.player)
            s = s.with_seat(replace(seat, hand=seat.hand.minus(e.coins), luxury=seat.luxury - e.luxury))
            s = replace(s, acted=s.acted + (e.player,))
            return _place(s, Bid(e.player, e.card, e.coins, e.luxury))
        case BidMoved():
            assert s.loose is not None
            return _place(s, replace(s.loose, card=e.card))
        case BidWithdrawn():
            assert s.loose is not None
            seat = s.seat(e.player)
            s = s.with_seat(replace(seat, hand=seat.hand.plus(s.loose.coins), luxury=seat.luxury + s.loose.luxury))
            return replace(
                s, loose=None, passed=s.passed + (e.player,), draws=s.draws + (Draw(e.player, PASS_DRAW, "pass"),)
            )
        case Passed():
            return replace(
                s,
                acted=s.acted + (e.player,),
                passed=s.passed + (e.player,),
                draws=s.draws + (Draw(e.player, PASS_DRAW, "pass"),),
            )


def new_order(s: State) -> tuple[tuple[str, int], ...]:
    """Highest bid (coin cards, bonuses ignored) first; equal bids keep their order; a pass counts 0."""
    amount = {b.player: b.count for b in s.bids}
    ranked = sorted(s.order, key=lambda p: -amount.get(p, 0))
    return tuple((p, amount.get(p, 0)) for p in ranked)


# --- canonical choices ------------------------------------------------------------------------------------------


def pick_coins(hand: Coins, n: int) -> Coins:
    """A canonical set of ``n`` coin cards: one at a time from the back the hand holds most of (the first such
    back in ``COIN_KINDS`` order on a tie)."""
    counts = [hand.get(k) for k in COIN_KINDS]
    taken = [0] * len(COIN_KINDS)
    for _ in range(n):
        i = counts.index(max(counts))
        counts[i] -= 1
        taken[i] += 1
    return Coins(*taken)


def _picks(hand: Coins, upto: int) -> list[Coins]:
    """``pick_coins(hand, n)`` for every n from 0 to ``upto``: each is the one before plus one more card, so the
    whole run is made in one pass."""
    counts = [hand.get(k) for k in COIN_KINDS]
    taken = [0] * len(COIN_KINDS)
    out = [Coins(*taken)]  # the fields in COIN_KINDS order
    for _ in range(upto):
        i = counts.index(max(counts))
        counts[i] -= 1
        taken[i] += 1
        out.append(Coins(*taken))
    return out


MAX_BID = 39
"""The largest bid the canonical list considers (more coin cards than anyone holds)."""


def _least(s: State, player: str, card: str, bonus: float) -> int | None:
    """The fewest coin cards that may be bid on ``card`` (None when no bid can stand there): the smallest count
    that ``placement_error`` accepts, worked out from the same minimums instead of trying every count. ``bonus``
    is the player's Market and Agora bonus (``bid_bonus``); it lowers the minimum and the conquest price only in a
    game recorded before ``MINIMUM_IN_COIN_CARDS``."""
    off = bonus if s.version < MINIMUM_IN_COIN_CARDS else 0
    if card in s.conquest:
        if held(s, card) is not None:
            return None
        n = max(1, math.ceil(conquest_price(s.cat, s.seat(player), card) - off))
    elif card in s.row:
        n = max(1, math.ceil(s.cat.power[card].value - off))
        other = held(s, card)
        if other is not None:  # strictly higher than the bid there
            n = max(n, math.floor(effective(s, other.player, other.count) - bonus) + 1)
    else:
        return None
    return n if n <= MAX_BID else None


Layout = list[tuple[str, int, int, bool]]
"""The new bids of an auction turn, per card in list order: (card, least, how many counts from ``least`` are
listed, whether the bid that tops up the whole hand with luxury goods is listed)."""


def bid_layout(s: State, who: str) -> Layout:
    """What ``legal`` lists after the pass, without making the events: for each card the smallest bid and the two
    next larger ones the hand allows, and, when the hand is short of the least bid, the whole hand plus luxury."""
    seat = s.seat(who)
    have = seat.hand.total()
    bonus = bid_bonus(s.cat, seat)
    out: Layout = []
    for card in s.row + s.conquest:
        least = _least(s, who, card, bonus)
        if least is None:
            continue
        out.append((card, least, max(0, min(have, least + 2) - least + 1), have < least <= have + seat.luxury))
    return out


def legal(s: State) -> list:
    who = actor(s)
    if who is None:
        return []
    if s.loose is not None:
        moves: list = [
            BidMoved(player=who, card=c)
            for c in s.row + s.conquest
            if c != s.loose.card and placement_error(s, who, c, s.loose.count, "move") is None
        ]
        return moves + [BidWithdrawn(player=who)]
    seat = s.seat(who)
    out: list = [Passed(player=who)]
    have = seat.hand.total()
    picks = _picks(seat.hand, have)
    for card, least, counts, luxury in bid_layout(s, who):
        for n in range(least, least + counts):
            out.append(BidPlaced(player=who, card=card, coins=picks[n]))
        if luxury:
            out.append(BidPlaced(player=who, card=card, coins=seat.hand, luxury=least - have))
    return out


def sample_bid(s: State, r: float) -> BidPlaced | Passed:
    """``legal(s)[int(r * len(legal(s)))]`` in a turn with no displaced bid, without making the list: the same
    decision for the same ``r`` (core.rollout's random bot draws ``r`` once per decision)."""
    who = actor(s)
    assert who is not None and s.loose is None
    layout = bid_layout(s, who)
    i = int(r * (1 + sum(counts + luxury for _, _, counts, luxury in layout)))
    if i == 0:
        return Passed(player=who)
    i -= 1
    hand = s.seat(who).hand
    for card, least, counts, luxury in layout:
        if i < counts:
            return BidPlaced(player=who, card=card, coins=pick_coins(hand, least + i))
        i -= counts
        if luxury:
            if i == 0:
                return BidPlaced(player=who, card=card, coins=hand, luxury=least - hand.total())
            i -= 1
    raise AssertionError("index past the listed bids")

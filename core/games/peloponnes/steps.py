"""A bid's coin cards as a table bids them (core.steps): any set the hand holds, typed as how many of each back.

``legal`` lists for each power card the least bid and the two next larger ones, each with one canonical set of coin
cards (``auction.pick_coins``): that keeps the option list and the rollouts short. At a real table a player bids
the coin cards they choose ("a quantidade minima de carta de moeda que deve ser usada para apostar na carta",
'Leilão': how many is the rule, which backs is theirs), 2 stone rather than 2 wood, or more than the least + 2; a
record that kept the canonical backs would keep the wrong ones in the hand, and a later payment from that hand
could be refused although the table is right.

So the step that asks a bid's coin cards (after its power card) lists the canonical sets as before, by the same
values and numbers, and reads any other set typed (``Question.reads``): how many of each back, in any order, each
back by any prefix of its name, a back without a number being one card (``2s1w``, ``1wood-2stone``, ``w2s``). The
same word takes luxury goods used as coin cards ('Bens de Luxo'; ``BidPlaced.luxury``) as one more "back",
``luxury`` by any prefix (``2w1l``, ``1wood-1lux``, ``l``): no coin back begins with an l. Such a set reads as its
value with the luxury goods named (``1wood-1luxury``), the listed bid that tops up a short hand with luxury goods
too (``2wood-2grain-1luxury``), so what is chosen and echoed says what is spent. What it reads is checked by the
auction's own rule code (``auction.validate``), so nothing here is a second copy of the rules, and a set the hand
cannot pay, luxury goods the player does not have, or too small a bid is refused in one line naming the rule. The
first step (the power card) is left to core.steps, so ``agon play`` lists an auction's decisions exactly as before.

The step is asked of the bidding player only, and what it reads is told to them alone: the backs of a bid are its
owner's (RULES.md, "Who is told what"; ``view.secrets`` keeps them from every other seat).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import NamedTuple

import msgspec

from agon.core.entry import SEPARATORS, matches, quoted
from agon.core.games.peloponnes import auction, catastrophe
from agon.core.games.peloponnes.cards import CATASTROPHE_NAMES
from agon.core.games.peloponnes.state import State
from agon.core.steps import Choice, Question, Refused, key
from agon.core.words import counted
from agon.events.peloponnes import COIN_KINDS, BidPlaced, CatastropheFaced, Coins

TAG = "peloponnes.bid_placed"

DIGITS = re.compile(r"[0-9]*")

MAX_DIGITS = 3
"""A count of more digits than this reads as no set of coin cards (the whole deck is a few dozen)."""

LUXURY = "luxury"
"""Luxury goods used as coin cards, typed and shown beside the coin backs ('Bens de Luxo'): its first letter is
none of theirs (``COIN_KINDS``), so ``l`` names it alone."""

KINDS = (*COIN_KINDS, LUXURY)
"""What a word of a bid counts, each named by any prefix of its name (its first letter at least)."""


class Typed(NamedTuple):
    """What a word of a bid names: its coin cards and the luxury goods used as coin cards."""

    coins: Coins
    luxury: int = 0


def coins_word(coins: Coins, luxury: int = 0) -> str:
    """A bid's coin cards, and its luxury goods used as coin cards, as the step reads its value (core.steps.key):
    ``2wood-1grain``, ``1wood-1luxury``."""
    return key({**msgspec.to_builtins(coins), LUXURY: luxury})


def listed(s: State, who: str, card: str) -> list[str]:
    """The coin cards ``legal`` lists for a bid by ``who`` on ``card``, in its order, as the step's values."""
    hand = s.seat(who).hand
    for c, least, counts, luxury in auction.bid_layout(s, who):
        if c == card:
            sets = [auction.pick_coins(hand, n) for n in range(least, least + counts)]
            return [coins_word(x) for x in sets] + ([coins_word(hand, least - hand.total())] if luxury else [])
    return []


def read_coins(word: str) -> Typed | None:
    """The coin cards and luxury goods ``word`` names as how many of each back (and of ``luxury``), in any order
    (``2s1w``, ``1wood-2stone``, ``w2s``, ``2w1l``), or ``None`` when it names none (a back twice, a word that is no
    back, no back at all)."""
    text = SEPARATORS.sub("", word.strip().lower())
    counts: dict[str, int] = {}
    i = 0
    while i < len(text):
        digits = DIGITS.match(text, i).group()  # type: ignore[union-attr]
        i += len(digits)
        kind = next((k for k in KINDS if text[i:i + 1] == k[0]), None)
        if kind is None or kind in counts or len(digits) > MAX_DIGITS:
            return None
        i += len(os.path.commonprefix([text[i:], kind]))
        counts[kind] = int(digits) if digits else 1
    if not counts:
        return None
    luxury = counts.pop(LUXURY, 0)
    return Typed(Coins(**counts), luxury)


def _reader(s: State, who: str, card: str, values: list[str]) -> Callable[[str], str | None]:
    def reads(word: str) -> str | None:
        typed = read_coins(word)
        if typed is None:
            return None
        value = coins_word(*typed)
        if value not in values:
            why = auction.validate(s, BidPlaced(player=who, card=card, coins=typed.coins, luxury=typed.luxury))
            if why is not None:
                raise Refused(why + _one_word(typed, values))
        return value

    return reads


def _one_word(typed: Typed, values: list[str]) -> str:
    """What a refusal adds when the set typed is smaller than the least bid listed: the step reads one word, so
    coin cards typed as several (``pal 1w 1g``) bid the first alone, and the person is told to join them."""
    least = read_coins(values[0])
    if least is None or _count(typed) >= _count(least):
        return ""
    return f"; every coin card of the bid goes in one word, as {values[0]}"


def _count(typed: Typed) -> int:
    return sum(msgspec.to_builtins(typed.coins).values()) + typed.luxury


def bid_steps(s: State, chosen: tuple[tuple[str, str], ...], prompt: str) -> Question | BidPlaced | None:
    """The coin-card step of a bid once its power card is chosen (its listed values, reading any other set), or the
    bid made with a set it does not list or with luxury goods; ``None`` where core.steps builds the bid from
    ``legal`` as before (the power card, a listed set of coin cards alone, a decision that is no new bid)."""
    picked = dict(chosen)
    card, typed = picked.get("card"), picked.get("coins")
    who = auction.actor(s)
    if card is None or who is None or s.loose is not None or s.phase != "auction":
        return None
    values = listed(s, who, card)
    if not values:
        return None  # no bid may stand there: core.steps says so
    if typed is None:
        return Question("coins", prompt, tuple(Choice(v) for v in values), reads=_reader(s, who, card, values))
    read = read_coins(typed)
    if typed in values and read is not None and not read.luxury:
        return None  # a listed set of coin cards alone: the bid ``legal`` lists
    if read is None or coins_word(*read) != typed:
        raise Refused(f"{prompt}: {quoted(typed)} is no set of coin cards; type how many of each back, and of luxury"
                      " goods, e.g. 2s1w or 1w1l")
    bid = BidPlaced(player=who, card=card, coins=read.coins, luxury=read.luxury)
    why = auction.validate(s, bid)
    if why is not None:
        raise Refused(why)
    return bid


MOVED = "peloponnes.bid_moved"


def barred_cards(s: State, tag: str, field: str) -> list[dict[str, str]]:
    """The power cards a bid may not go to now, by id, each with the rule that bars it in one line (core.steps tells
    it where such a card is typed, 'a06' or 'fish', instead of "none of the answers"): first the cards on the table,
    then the others (``pal`` is the Palisade on the table, not also the Palace of era C). The auction's own rule code
    says why (``auction.placement_error``), for the largest bid the hand can make: a card of the conquest row that
    holds a bid already (it cannot be outbid), one whose conquest price or value the hand cannot meet, one whose bid
    the hand cannot top, or a card that is no power card of this round. A displaced bid keeps its count, and may
    not stay where it was. Only counts that every seat sees (coin cards held, luxury goods) are named."""
    who = auction.actor(s)
    if field != "card" or who is None or s.phase != "auction":
        return []
    out: dict[str, str] = {}
    if tag == MOVED and s.loose is not None:
        for card in s.cat.power:
            if card == s.loose.card:
                out[card] = "displaced bid (rulebook, 'Leilão'): it must move to a different power card"
            elif (why := auction.placement_error(s, who, card, s.loose.count, "displaced bid")) is not None:
                out[card] = why
    elif tag == TAG and s.loose is None:
        seat = s.seat(who)
        most = seat.hand.total() + seat.luxury
        held = counted(seat.hand.total(), "coin card") + (
            f" and {counted(seat.luxury, 'luxury good')}" if seat.luxury else "")
        for card in s.cat.power:
            why = auction.placement_error(s, who, card, most, "bid")
            if why is None:
                continue
            if auction.placement_error(s, who, card, auction.MAX_BID, "bid") is None:  # a larger hand could bid
                why += f"; {who} holds {held}, so bids at most {most}"
            out[card] = why
    table = set(s.row + s.conquest)
    return [{c: why for c, why in out.items() if c in table}, {c: why for c, why in out.items() if c not in table}]


FACED = "peloponnes.catastrophe_faced"

REMOVED = "none"
"""The answer that covers a card hit with nothing: it is removed (the event's ``""``, as ``key`` reads it)."""


def cover_steps(s: State, chosen: tuple[tuple[str, str], ...], prompts: dict[str, str]) -> Question | CatastropheFaced \
        | None:
    """A catastrophe faced, step by step: the cards it hits (a step of its own even when the player has no choice
    of them, so that ``hill grain`` names the card, then what covers it), then what covers each card hit, one step
    per card in the order ``legal`` lists them (``catastrophe.covers``: any back the hand still holds, ``luxury``,
    or ``none`` to remove it). One step per card, as every card takes its own: the covers of two cards as one value
    (``grain+wood``) read alike typed apart in either order (``grain wood``), which would name two decisions.
    ``None`` where core.steps builds it from ``legal`` (no catastrophe faced now)."""
    if s.phase != "catastrophe" or not s.todo or not s.todo[0][0].startswith("face:"):
        return None
    cat, player = s.todo[0][0][5:], s.todo[0][1]
    seat = s.seat(player)
    legal = catastrophe.legal(s)
    hit = {key(e.cards): e.cards for e in legal}
    cands, count = catastrophe.candidates(s, seat, cat)
    cards = dict(chosen).get("cards")
    if cards is None:
        # legal lists one choice of several: read any other typed; and cards hit typed in another order than listed
        # (``T_L1+T_L2``, or apart: ``T_L1 T_L2``), their covers then going to them in the order typed
        more = len(hit) == 1 and len(cands) > count or count > 1
        return Question("cards", prompts["cards"], tuple(Choice(v) for v in hit),
                        names=tuple((v, " + ".join(s.cat.name(c) for c in cs)) for v, cs in hit.items()),
                        reads=_cards_reader(s, cands, count, prompts["cards"]) if more else None)
    if cards not in hit:
        picked = tuple(cards.split("+"))
        if len(set(picked)) != count or not set(picked) <= set(cands):
            raise Refused(f"{prompts['cards']}: {quoted(cards)} is none of the answers; possible: {', '.join(hit)}")
        hit[cards] = picked
    covered = [v for f, v in chosen if f == "coins"]
    coins = tuple("" if v == REMOVED else v for v in covered)
    made = CatastropheFaced(player=player, catastrophe=cat, cards=hit[cards], coins=coins)
    if len(coins) == len(hit[cards]):
        return made
    ways = {w[:len(coins) + 1] for w in catastrophe.assignments(seat, cat, count) if w[:len(coins)] == coins}
    options = [c or REMOVED for c in catastrophe.covers(seat, cat) if (*coins, c) in ways]
    card = s.cat.name(hit[cards][len(coins)])
    return Question("coins", f"what covers {card}: a coin card's back, luxury or none (removed)",
                    tuple(Choice(v, "removed" if v == REMOVED else "") for v in options))


def barred_hits(s: State, field: str) -> list[dict[str, str]]:
    """The cards the catastrophe faced now may not hit, by id, each with why in one line naming the rule and the
    cards it may hit (core.steps tells it where such a card is typed, ``t_l3 wood grain`` naming Land 3, rather than
    "none of the answers" of the cover asked after the cards): the facing player's own cards first, then every other
    power card. Where it hits several cards and more than ``legal`` lists may be chosen, a card it may hit that no
    listed choice holds, typed alone, is said to be one of them, to be typed with the others. A card that a listed
    choice holds is left to core.steps, which names that choice. The tableaux lie open: nothing hidden is told."""
    if field != "cards" or s.phase != "catastrophe" or not s.todo or not s.todo[0][0].startswith("face:"):
        return []
    cat, player = s.todo[0][0][5:], s.todo[0][1]
    seat = s.seat(player)
    cands, count = catastrophe.candidates(s, seat, cat)
    where = f"{CATASTROPHE_NAMES[cat]} (rulebook, '{catastrophe.PLACE[cat]}')"
    may = ", ".join(f"{s.cat.name(c)} ({c})" for c in cands) or "none"
    listed = {c for e in catastrophe.legal(s) for c in e.cards}
    own = [x.card for x in seat.slots()]
    out: dict[str, str] = {}
    for card in dict.fromkeys([*own, *s.cat.power]):
        if card not in cands:
            out[card] = f"{where}: {s.cat.name(card)} ({card}) is not among the cards it may hit: {may}"
        elif count > 1 and card not in listed:
            out[card] = (f"{where}: it hits {counted(count, 'card')}, {s.cat.name(card)} ({card}) being one: type all"
                         f" {count} apart, each once, of {may}")
    return [{c: why for c, why in out.items() if c in own}, {c: why for c, why in out.items() if c not in own}]


def _cards_reader(s: State, cands: tuple[str, ...], count: int, prompt: str) -> Callable[[str], str | None]:
    """Where the cards hit may be chosen in more ways than ``legal`` lists (it lists the least valuable ones), any
    choice typed as one word, the cards joined by ``+`` (``fish+hill``), each by any prefix of its id or name: "Você
    pode escolher quais terrenos cobrir" ('Tempestade'; 'Terremoto' likewise). What the step reads is checked by
    ``catastrophe.validate`` when the decision is made."""
    names = {c: s.cat.name(c) for c in cands}

    def reads(word: str) -> str | None:
        parts = [p for p in word.split("+") if p]
        if len(parts) < 2 and count > 1:
            return None
        found = [matches(p, cands, names) for p in parts]
        if any(len(f) != 1 for f in found):
            return None
        picked = [f[0] for f in found]
        if len(picked) != count or len(set(picked)) != count:
            raise Refused(f"{prompt}: the catastrophe hits {counted(count, 'card')}, each named once, of"
                          f" {', '.join(names.values())}")
        return "+".join(picked)  # in the order typed: the covers typed after it go to the cards in that order

    return reads

"""Catastrophes (rulebook, "Catástrofes": Praga, Terremoto, Tempestade, Seca, Declínio, protection, and the
end-of-game recovery in "Final do Jogo").

Each unprotected player chooses the cards a catastrophe hits (where the text lets them choose) and, card by card,
covers it with a coin card from hand (or a luxury good used as one) or removes it from the game.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

from agon.core.games.peloponnes.cards import CATASTROPHE_NAMES, Catalog
from agon.core.games.peloponnes.state import Seat, Slot, State, protected, replace, thirds
from agon.core.words import counted
from agon.events.peloponnes import COIN_KINDS, CatastropheFaced, Coins

PLACE = {
    "plague": "Praga",
    "earthquake": "Terremoto",
    "tempest": "Tempestade",
    "drought": "Seca",
    "decline": "Declínio",
}


def candidates(s: State, seat: Seat, cat: str) -> tuple[tuple[str, ...], int]:
    """The cards ``cat`` may hit on this tableau, and how many of them it hits."""
    if cat == "plague":
        ok = seat.civ is not None and not seat.civ.cover
        return ((seat.civ.card,), 1) if ok and seat.civ else ((), 0)
    if cat in ("earthquake", "tempest"):
        slots = seat.buildings if cat == "earthquake" else seat.lands
        free = tuple(x.card for x in slots if not x.cover)
        return free, min(len(free), thirds(len(slots)))
    if cat == "drought":
        grains = {x.card: s.cat.power[x.card].grain for x in seat.buildings + seat.lands if not x.cover}
        top = max(grains.values(), default=0)
        if top <= 0:
            return (), 0
        return tuple(c for c, g in grains.items() if g == top), 1
    return (("luxury",), 1) if seat.luxury_card == "intact" else ((), 0)


def needs_decision(s: State, player: str, cat: str) -> bool:
    seat = s.seat(player)
    return not protected(s.cat, seat, cat) and candidates(s, seat, cat)[1] > 0


def validate(s: State, e: CatastropheFaced) -> str | None:
    head = s.todo[0] if s.todo and s.phase == "catastrophe" else None
    if head is None or not head[0].startswith("face:"):
        return "catastrophe (rulebook, 'Catástrofes'): no catastrophe is being faced now"
    cat, player = head[0][5:], head[1]
    where = f"{CATASTROPHE_NAMES[cat]} (rulebook, '{PLACE[cat]}')"
    if e.player != player or e.catastrophe != cat:
        return f"{where}: {player} faces the {CATASTROPHE_NAMES[cat]} now"
    seat = s.seat(player)
    cands, count = candidates(s, seat, cat)
    if len(e.cards) != count or len(e.coins) != count:
        return f"{where}: it hits {counted(count, 'card')}; name each with a coin card to cover it, or '' to remove it"
    if len(set(e.cards)) != count or not set(e.cards) <= set(cands):
        return f"{where}: the cards it may hit are {', '.join(s.cat.name(c) for c in cands)}"
    bad = [c for c in e.coins if c not in ("", "luxury", *COIN_KINDS)]
    if bad:
        return f"{where}: cover with a coin card (wood, stone, grain, people), a luxury good ('luxury') or '' to remove"
    need = Counter(c for c in e.coins if c in COIN_KINDS)
    have = seat.hand
    for k, n in need.items():
        if have.get(k) < n:
            return f"{where}: {player} holds {counted(have.get(k), f'{k} coin card')}, not {n}"
    lux = sum(1 for c in e.coins if c == "luxury")
    if cat == "decline" and lux:
        return f"{where}: the luxury goods are lost first, so they cannot cover the luxury card"
    if lux > seat.luxury:
        return f"{where}: {player} has {counted(seat.luxury, 'luxury good')}, not {lux}"
    return None


def _discard_slot(s: State, slot: Slot) -> State:
    """A removed card's coin cards (cover, under) go to the discard pile."""
    coins = [c for c in (slot.cover, slot.under) if c and c != "luxury"]
    return replace(s, discard=s.discard.plus(Coins.of(coins))) if coins else s


def apply(s: State, e: CatastropheFaced) -> State:
    seat = s.seat(e.player)
    if e.catastrophe == "decline":
        seat = replace(seat, luxury=0)
    paid = Coins.of([c for c in e.coins if c in COIN_KINDS])
    lux = sum(1 for c in e.coins if c == "luxury")
    seat = replace(seat, hand=seat.hand.minus(paid), luxury=seat.luxury - lux)
    hit = dict(zip(e.cards, e.coins, strict=True))
    if e.catastrophe == "decline":
        coin = hit["luxury"]
        seat = replace(seat, luxury_card="declined" if coin else "removed", luxury_cover=coin)
        return replace(s.with_seat(seat), todo=s.todo[1:])
    if seat.civ and seat.civ.card in hit:
        coin = hit[seat.civ.card]
        if coin:
            seat = replace(seat, civ=replace(seat.civ, cover=coin, cause=e.catastrophe))
        else:
            seat = replace(seat, civ=None)
    kept: dict[str, tuple[Slot, ...]] = {}
    for side in ("buildings", "lands"):
        out = []
        for slot in getattr(seat, side):
            if slot.card not in hit:
                out.append(slot)
            elif hit[slot.card]:
                out.append(replace(slot, cover=hit[slot.card], cause=e.catastrophe))
            else:
                s = _discard_slot(s, slot)
        kept[side] = tuple(out)
    seat = replace(seat, **kept)
    return replace(s.with_seat(seat), todo=s.todo[1:])


def worth(s: State, card: str) -> int:
    c = s.cat.power.get(card)
    return c.power + c.people + c.grain + c.wood + c.stone if c else 99


def covers(seat: Seat, cat: str) -> tuple[str, ...]:
    """What may cover one card hit: any coin card of the hand, whatever its back ("Cubra-os com cartas de moeda de
    sua mão", 'Terremoto', 'Tempestade'; "Cubra sua carta de civilização com uma carta de moeda de sua mão",
    'Praga'; likewise 'Seca' and 'Declínio': the text names no back), a luxury good used as one ('Bens de Luxo':
    "Você também pode usá-los para pagar por moedas exigidas por uma catástrofe"; not at Decline, whose goods are
    lost first), or nothing, the card then removed ("Se você não puder ou não quiser fazer isto, então remova").
    The backs the hand holds come first, most held first, then luxury, then ``""``."""
    held = sorted((k for k in COIN_KINDS if seat.hand.get(k)), key=lambda k: -seat.hand.get(k))
    lux = ["luxury"] if seat.luxury and cat != "decline" else []
    return (*held, *lux, "")


def assignments(seat: Seat, cat: str, count: int) -> list[tuple[str, ...]]:
    """Every way to cover ``count`` cards, card by card, that the hand and the luxury goods can pay."""
    options = covers(seat, cat)
    have = {k: seat.hand.get(k) for k in COIN_KINDS} | {"luxury": seat.luxury, "": count}
    out = [
        coins for coins in product(options, repeat=count)
        if all(n <= have[k] for k, n in Counter(coins).items())
    ]
    return sorted(out, key=lambda coins: -coins.count(""))  # the most cards removed first, as before


def legal(s: State) -> list[CatastropheFaced]:
    """Every cover the rule text allows for each card hit (``covers``). When the cards hit may be chosen in more than
    six ways, one canonical choice is listed (the least valuable cards); ``validate`` accepts any other."""
    cat, player = s.todo[0][0][5:], s.todo[0][1]
    seat = s.seat(player)
    cands, count = candidates(s, seat, cat)
    choices = list(combinations(cands, count))
    if len(choices) > 6:
        # The least valuable cards: a sensible canonical choice; validate accepts any other.
        choices = [tuple(sorted(cands, key=lambda c: (worth(s, c), c))[:count])]
    ways = assignments(seat, cat, count)
    out = []
    for cards in choices:
        ranked = tuple(sorted(cards, key=lambda c: -worth(s, c)))
        out += [CatastropheFaced(player=player, catastrophe=cat, cards=ranked, coins=coins) for coins in ways]
    return out


def recover(s: State) -> State:
    """End of game: a covered card whose catastrophe the player is now protected from is uncovered (repeated, as
    an uncovered building may protect again)."""
    for p in s.order:
        while True:
            seat = s.seat(p)
            freed: list[str] = []

            def lift(slot: Slot, seat: Seat = seat, freed: list[str] = freed, cat: Catalog = s.cat) -> Slot:
                if slot.cover and slot.cause and protected(cat, seat, slot.cause):
                    freed.append(slot.cover)
                    return replace(slot, cover="", cause="")
                return slot

            civ = lift(seat.civ) if seat.civ else None
            new = replace(seat, civ=civ, buildings=tuple(map(lift, seat.buildings)), lands=tuple(map(lift, seat.lands)))
            if seat.luxury_card == "declined" and protected(s.cat, seat, "decline"):
                freed.append(seat.luxury_cover)
                new = replace(new, luxury_card="intact", luxury_cover="")
            if not freed:
                break
            coins = Coins.of([c for c in freed if c in COIN_KINDS])
            s = replace(s.with_seat(new), discard=s.discard.plus(coins))
    return s

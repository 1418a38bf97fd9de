"""What a player sees, and the log's sentences (rulebook: coin cards are held so that only their owner sees their
backs; bids show how many coin cards they are; the discard pile is face up, '5. Ganhar Cartas de Poder'; everything
on the table is public). RULES.md, 'Who is told what', says what each seat is told and why.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from agon.core.engine import HIDDEN, PUBLIC, Decision
from agon.core.games.peloponnes import auction, flow
from agon.core.games.peloponnes.cards import CATASTROPHE_NAMES, CATASTROPHES, SPECIAL_TEXTS
from agon.core.games.peloponnes.rules import apply, pending
from agon.core.games.peloponnes.state import (
    Bid,
    Seat,
    Slot,
    State,
    inhabitants,
    population_points,
    power_points,
    production,
)
from agon.core.games.peloponnes.supply import under_construction
from agon.core.words import counted
from agon.events.base import Event, GameCreated
from agon.events.peloponnes import (
    COIN_KINDS,
    BidMoved,
    BidPlaced,
    BidWithdrawn,
    BuildingBuilt,
    BuildingLost,
    CatastropheFaced,
    CivilizationsDealt,
    Coins,
    CoinsDrawn,
    ConstructionPaid,
    ConstructionStarted,
    Passed,
    PopulationFed,
    PowerCardsRevealed,
)


def card_info(s: State, card: str) -> dict[str, Any]:
    c = s.cat.power[card]
    info: dict[str, Any] = {"id": c.id, "name": c.name, "kind": c.kind, "era": c.era, "value": c.value}
    if c.kind == "building":
        info["cost"] = {"wood": c.cost_wood, "stone": c.cost_stone}
    info.update(inhabitants=c.people, power=c.power, produce={"wood": c.wood, "stone": c.stone, "grain": c.grain})
    if c.income_coins or c.income_luxury:
        info["income"] = {"coins": c.income_coins, "luxury": c.income_luxury}
    if c.symbol:
        info["symbol"] = CATASTROPHE_NAMES.get(c.symbol, c.symbol)
    if c.special:
        info["special"] = SPECIAL_TEXTS.get(c.special, c.special)
    if c.protects:
        info["protects"] = CATASTROPHE_NAMES.get(c.protects, c.protects)
    if c.supply:
        info["supply"] = True
    return info


def _slot(s: State, slot: Slot, mine: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"id": slot.card, "name": s.cat.name(slot.card)}
    if slot.cover:
        out["covered_by"] = CATASTROPHE_NAMES.get(slot.cause, slot.cause)
    if slot.under:
        out["under_construction"] = True
    return out


def _bid(s: State, b: Bid, viewer: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {"player": b.player, "coin_cards": b.count}
    out["effective"] = auction.effective(s, b.player, b.count)
    out["luxury"] = b.luxury  # public: the luxury track moves down when goods are bid
    if viewer is None or viewer == b.player:
        out["coins"] = {k: b.coins.get(k) for k in ("wood", "stone", "grain", "people")}
    return out


def _seat(s: State, seat: Seat, viewer: str | None) -> dict[str, Any]:
    w, st, g = production(s.cat, seat)
    mine = viewer is None or viewer == seat.name
    out: dict[str, Any] = {
        "civilization": _slot(s, seat.civ, mine) if seat.civ else None,
        "buildings": [_slot(s, x, mine) for x in seat.buildings],
        "lands": [_slot(s, x, mine) for x in seat.lands],
        "hand_count": seat.hand.total(),
        "luxury": seat.luxury,
        "luxury_card": seat.luxury_card,
        "inhabitants": inhabitants(s.cat, seat),
        "production": {"wood": w, "stone": st, "grain": g},
        # with the inhabitants on the coin cards in hand, which only their holder sees (see scoring.scores)
        "population_points": population_points(s.cat, seat) if mine or s.phase == "over" else HIDDEN,
        "power_points": power_points(s.cat, seat) if mine or s.phase == "over" else HIDDEN,
    }
    if mine:
        out["hand"] = {k: seat.hand.get(k) for k in ("wood", "stone", "grain", "people")}
    return out


def _backs(coins: Coins) -> dict[str, int]:
    return {k: coins.get(k) for k in COIN_KINDS}


def view(s: State, viewer: str | None) -> dict[str, Any]:
    p = pending(s)
    row = []
    for c in s.row:
        b = auction.held(s, c)
        row.append({**card_info(s, c), "bid": _bid(s, b, viewer) if b else None})
    conquest = []
    for c in s.conquest:
        b = auction.held(s, c)
        conquest.append({**card_info(s, c), "bid": _bid(s, b, viewer) if b else None})
    return {
        "round": s.round,
        "phase": s.phase,
        "turn_order": list(s.order),
        "to_act": p.player if isinstance(p, Decision) else None,
        "prompt": p.prompt if isinstance(p, Decision) else None,
        "coin_deck": s.deck.total(),
        # known to all only while what the deck holds follows from what every seat saw (state.deck_known)
        "coin_deck_backs": _backs(s.deck) if s.deck_known else HIDDEN,
        "discard_pile": s.discard.total(),
        "discard_pile_backs": _backs(s.discard),  # face up ('5. Ganhar Cartas de Poder')
        "power_deck": len(s.power_left),
        "catastrophes": {
            c: {"marker": s.markers[i], "strikes_at": s.cat.catastrophe_steps, "struck": c in s.struck}
            for i, c in enumerate(CATASTROPHES)
        },
        "auction_row": row,
        "conquest_row": conquest,
        "displaced_bid": _bid(s, s.loose, viewer) if s.loose else None,
        "last_bids": [{"player": pl, "coin_cards": n} for pl, n in s.last_bids],
        "players": {seat.name: _seat(s, seat, viewer) for seat in s.seats},
    }


# --- narration ---------------------------------------------------------------------------------------------------


def _n(s: State, card: str, ids: bool = False) -> str:
    """A card by its name; ``ids``: by its id and name, as a table types it (``A02 Palisade``)."""
    return f"{card} {s.cat.name(card)}" if ids and card in s.cat.power else s.cat.name(card)


def _after(s: State, after: State, e: Event | None = None, backs_of: str | None = None) -> list[str]:
    """What happens by itself after event ``e``: placed cards, catastrophes, phases, the new turn order, a building
    production pays for and built without a decision (flow, 'build'), the coin cards that go to the face-up discard
    pile and a new coin deck formed from it. ``backs_of``: None once ``e`` is recorded (the pile is face up, so
    every seat sees those backs); a player's name where ``e`` is only offered to them (``option_text``), whose own
    backs alone may be named then: the others' are still in a standing bid or on a tableau."""
    out: list[str] = []
    if s.phase == "reveal" and after.round == s.round and after.phase != "reveal":
        for c in after.struck[len(s.struck) :]:
            out.append(f"the {CATASTROPHE_NAMES[c]} strikes")
        if after.supply_due:
            out.append("a supply phase follows")
    if s.auction_ended(after):
        bids = ", ".join(f"{p} {n}" for p, n in after.last_bids)
        won = ", ".join(f"{b.player} wins {_n(s, b.card)}" for b in after.won) or "nobody wins a card"
        # '5. Ganhar Cartas de Poder': "Remova todas as cartas de moeda usadas nas apostas vencedoras, adicionando-as
        # em uma pilha de descarte virada para cima": a bid is told by count while it stands ('Leilão'), its backs
        # once they lie on the pile
        paid = "; ".join(f"{b.player}: {_told(b.coins, backs_of in (None, b.player))}"
                         for b in after.won if b.coins.total())
        pile = f", the winning bids' coin cards going face up onto the discard pile ({paid})" if paid else ""
        out.append(f"the auction ends ({won}){pile}; new turn order by bids ({bids}): {', '.join(after.order)}")
    out += _built_by_itself(s, after, e)
    out += _luxury_by_itself(s, after, e)
    for player, cards, coins in off_tableaus(s, after):
        names = ", ".join("the luxury card" if c == LUXURY_CARD else _n(s, c) for c in cards)
        goes = "goes" if coins.total() == 1 else "go"
        backs = f" ({coins.describe()})" if backs_of in (None, player) else ""
        out.append(f"{player}'s {counted(coins.total(), 'coin card')} from {names}{backs} {goes} face up onto the"
                   " discard pile")
    refilled = refill(s, after, e)
    if refilled is not None:
        # "embaralhe a pilha de descarte e forme um novo baralho de compra": the pile was face up, so every seat
        # knows the new deck's backs until a card is drawn from it (state.deck_known); where ``e`` is only offered,
        # the pile may hold backs not yet told (a winning bid discarded in this same step), so by count
        out.append(f"the discard pile is shuffled into a new coin deck of {_told(refilled, backs_of is None)}")
    if after.round > s.round and s.round > 0:
        out.append(f"round {after.round} begins")
    if after.phase == "over" and s.phase != "over":
        out.append("the game ends and is scored")
    return out


LUXURY_CARD = ":luxury-card"
"""``off_tableaus``' name for a player's luxury card (its cover lifted at the end: 'Catástrofes', Declínio)."""


def _told(coins: Coins, backs: bool) -> str:
    """Coin cards by their backs (``2 wood, 1 stone``), or by their count alone."""
    return coins.describe() if backs else counted(coins.total(), "coin card")


def _tableau_coins(seat: Seat) -> dict[str, Counter[str]]:
    """The coin cards on a tableau, card by card: covers, the coin cards under buildings under construction and the
    luxury card's cover (luxury goods used as coin cards are no cards: RULES.md, 'Luxury goods as coin cards')."""
    out: dict[str, Counter[str]] = {}
    for slot in seat.slots():
        kinds = [c for c in (slot.cover, slot.under) if c in COIN_KINDS]
        if kinds:
            out[slot.card] = Counter(kinds)
    if seat.luxury_card == "declined" and seat.luxury_cover in COIN_KINDS:
        out[LUXURY_CARD] = Counter([seat.luxury_cover])
    return out


def off_tableaus(s: State, after: State) -> list[tuple[str, tuple[str, ...], Coins]]:
    """The coin cards that left a tableau between ``s`` and ``after``, seat by seat: (player, the cards they lay on
    or under, their backs). Every one goes to the discard pile: a lost or given-up building's coin card ('Suprimento':
    "Adicione a carta de moeda que estava sobre este edifício para a pilha de descarte"), the covers lifted at the end
    ('Final do Jogo': "adicionando as cartas de moeda na pilha de descarte"), and, as RULES.md reads it, a finished
    building's and a removed card's."""
    out = []
    for old, seat in _seat_pairs(s, after):
        before = _tableau_coins(old)
        if not before:
            continue
        now = _tableau_coins(seat)
        cards, gone = [], Counter[str]()
        for card, kinds in before.items():
            left = kinds - now.get(card, Counter())
            if left:
                cards.append(card)
                gone += left
        if cards:
            out.append((seat.name, tuple(cards), Coins.of(list(gone.elements()))))
    return out


def refill(s: State, after: State, e: Event | None) -> Coins | None:
    """The new coin deck formed from the discard pile between ``s`` and ``after`` (None when none was): a deck grows
    only so, and a refill is always followed by a draw from it, so ``after.deck`` is all of it."""
    drawn = len(e.coins) if isinstance(e, CoinsDrawn) else 0
    return after.deck if after.deck.total() > s.deck.total() - drawn else None


def _seat_pairs(s: State, after: State):
    """Each seat as it was in ``s`` and as it is in ``after`` (a seat of ``after`` alone is left out)."""
    before = {seat.name: seat for seat in s.seats}
    for seat in after.seats:
        if seat.name in before:
            yield before[seat.name], seat


def _built_by_itself(s: State, after: State, e: Event | None) -> list[str]:
    """The buildings that stand built after ``e`` without a decision saying so: a won building production pays for,
    its player holding no coin card or luxury good to put under it instead (or, under ruleset version 1, whenever
    production pays; and buildings under construction it finishes). Without this the log would show a building
    appear that no sentence built."""
    out: list[str] = []
    for old, seat in _seat_pairs(s, after):
        done = {x.card for x in old.buildings if not x.under}
        waiting = {x.card for x in old.buildings if x.under}
        if isinstance(e, BuildingBuilt) and e.player == seat.name:
            done.add(e.card)
        if isinstance(e, ConstructionPaid) and e.player == seat.name:
            done.update(e.finished)
        new = [x.card for x in seat.buildings if not x.under and x.card not in done]
        for card in new:
            verb = "finishes" if card in waiting else "builds"
            out.append(f"{seat.name} {verb} {_n(s, card)}, production paying for it")
    return out


def _luxury_by_itself(s: State, after: State, e: Event | None) -> list[str]:
    """Luxury goods gained or lost after ``e`` beyond what its own sentence spends or takes back: production left
    over by a building, grain left over by the supply, income, a catastrophe (rulebook, 'Bens de Luxo'). The
    luxury track is public, and without this the log would show it move with no sentence saying so."""
    out: list[str] = []
    for old, seat in _seat_pairs(s, after):
        own = getattr(e, "player", None) == seat.name
        spent = 0
        if own and isinstance(e, BidPlaced | BuildingBuilt | PopulationFed | ConstructionPaid):
            spent = e.luxury
        elif own and isinstance(e, ConstructionStarted):
            spent = int(e.coin == "luxury")
        elif own and isinstance(e, CatastropheFaced):
            spent = sum(1 for c in e.coins if c == "luxury")
        elif own and isinstance(e, BidWithdrawn) and s.loose is not None:
            spent = -s.loose.luxury  # the bid's goods come back with its coin cards
        n = seat.luxury - old.luxury + spent
        if n:
            out.append(f"{seat.name} {'gains' if n > 0 else 'loses'} {counted(abs(n), 'luxury good')}")
    return out


def secrets(s: State, e: Event) -> list[tuple[tuple[str | int, ...], str]]:
    """The parts of an event only its player sees: the backs of the coin cards drawn, bid, put under a
    construction or laid over a card a catastrophe hits (coin cards are held so that only their owner sees their
    backs, and a bid shows only how many cards it is: 'Leilão'). Luxury goods are public (their track moves)."""
    match e:
        case CoinsDrawn():
            return [(("coins",), e.player)]
        case BidPlaced():
            return [(("coins",), e.player)]
        case ConstructionStarted() if e.coin != "luxury":
            return [(("coin",), e.player)]
        case CatastropheFaced():
            return [(("coins", i), e.player) for i, c in enumerate(e.coins) if c and c != "luxury"]
    return []


def shows(s: State, e: Event, after: State | None = None) -> bool:
    """Whether decision ``e`` shows the other players the backs of coin cards from its player's hand: paying wood or
    stone for a building ('Pagando recursos': "cartas de moeda de sua mão mostrando a madeira e/ou pedra faltante";
    'Suprimento', buildings under construction: "mostrando madeira e/ou pedra") or grain and people for the
    inhabitants ('Suprimento': "mostrando os grãos faltantes", "mostrando habitantes"). The views tell a hand by its
    count alone (``_seat``), so the names they hold cannot say it: the undo policy asks this (core/seats.py). A bid,
    a coin card put under a construction or laid over a card hit shows no back ('Leilão': only how many cards)
    until it goes to the face-up discard pile: a decision (``s`` -> ``after``) that ends an auction won with coin
    cards, or that sends a tableau's coin cards there, shows their backs to every seat."""
    if after is not None:
        if s.auction_ended(after) and any(b.coins.total() for b in after.won):
            return True
        if off_tableaus(s, after):
            return True
    match e:
        case BuildingBuilt() | ConstructionPaid():
            return e.wood + e.stone > 0
        case PopulationFed():
            return e.grain + e.people > 0
    return False


def narrate(s: State, e: Event, viewer: str | None = PUBLIC) -> str:
    """``e`` told as ``viewer`` may read it (``PUBLIC``: every player; ``None``: everything)."""
    if isinstance(e, GameCreated):
        return f"A game of the Peloponnes Card Game begins for {', '.join(e.names)}."
    after = apply(s, e)  # type: ignore[arg-type]
    text = _sentence(s, e, viewer is None or viewer == getattr(e, "player", None))
    extra = _after(s, after, e)
    return text + ("; " + "; ".join(extra) if extra else "") + "."


def option_text(s: State, e: Event) -> str:
    """A decision as its player reads it among their options: as narrated to them, each power card by its id and
    name (``bids 2 on A06 Sanctuary of Hera``), the id being what a table may type. The cards a decision names are
    face up (the rows, a player's own city), so the ids tell nothing more than the names."""
    extra = _after(s, apply(s, e), e, backs_of=getattr(e, "player", None))  # type: ignore[arg-type]
    return _sentence(s, e, True, ids=True) + ("; " + "; ".join(extra) if extra else "") + "."


def value_names(s: State) -> dict[str, str]:
    """Each power card's name by its id: shown beside the id where a decision's step asks for a card, and typed
    for it at a table (``pal`` for ``A02`` Palisade). Power cards are face up when a decision names them."""
    return {cid: card.name for cid, card in s.cat.power.items()}


def _amount(s: State, player: str, n: int) -> str:
    eff = auction.effective(s, player, n)
    return str(n) if eff == n else f"{n} (counting {eff:g} with Market/Agora)"


def _coin(kind: str, own: bool) -> str:
    if kind == "luxury":
        return "a luxury good used as a coin card"
    return f"a {kind} coin card" if own else "a coin card"


def _sentence(s: State, e: Event, own: bool, ids: bool = False) -> str:
    """The event's own sentence; ``own``: told to its player (or in full), naming the backs of their coin cards;
    ``ids``: each power card by its id and name (``A02 Palisade``)."""
    match e:
        case CivilizationsDealt():
            dealt = ", ".join(f"{p} {s.cat.civs[c].name}" for p, c in zip(s.players, e.civilizations, strict=True))
            order = flow.setup(s, e.civilizations).order
            return f"Civilizations are dealt ({dealt}); the turn order by their arrows is {', '.join(order)}"
        case CoinsDrawn():
            why = s.draws[0].reason if s.draws else "draw"
            backs = f": {Coins.of(e.coins).describe()}" if own and e.coins else ""
            return f"{e.player} draws {counted(len(e.coins), 'coin card')} ({why}){backs}"
        case PowerCardsRevealed():
            return f"Round {s.round}: {', '.join(_n(s, c, ids) for c in e.cards)} revealed"
        case BidPlaced():
            where = " in the conquest row" if e.card in s.conquest else ""
            text = f"{e.player} bids {_amount(s, e.player, e.coins.total() + e.luxury)} on {_n(s, e.card, ids)}{where}"
            if own:
                parts = [e.coins.describe()] if e.coins.total() else []
                text += f" ({', '.join(parts + ([f'{e.luxury} luxury'] if e.luxury else []))})"
            other = auction.held(s, e.card)
            if other:
                text += f", outbidding {other.player}'s {other.count}, who must move that bid or take it back"
            return text
        case BidMoved():
            assert s.loose is not None
            n = _amount(s, e.player, s.loose.count)
            text = f"{e.player} moves the outbid {n} from {_n(s, s.loose.card, ids)} to {_n(s, e.card, ids)}"
            other = auction.held(s, e.card)
            if other:
                text += f", displacing {other.player}'s {other.count}"
            return text
        case BidWithdrawn():
            n = s.loose.count if s.loose else 0
            return f"{e.player} takes back the outbid {n} and passes, drawing 3 coin cards"
        case Passed():
            return f"{e.player} passes, drawing 3 coin cards"
        case BuildingBuilt():
            paid = f"{e.wood} wood, {e.stone} stone and {e.luxury} luxury from hand"
            return f"{e.player} builds {_n(s, e.card, ids)}, paying production plus {paid}"
        case ConstructionStarted():
            return f"{e.player} puts {_n(s, e.card, ids)} under construction with {_coin(e.coin, own)}"
        case BuildingLost():
            return f"{e.player} cannot pay for {_n(s, e.card, ids)} and loses it"
        case PopulationFed():
            text = (f"{e.player} feeds the hungry with {e.grain} grain, {counted(e.people, 'people coin card')},"
                    f" {e.luxury} luxury")
            if e.removed:
                text += f" and removes {', '.join(_n(s, c, ids) for c in e.removed)}"
            return text
        case ConstructionPaid():
            done = ", ".join(_n(s, c, ids) for c in e.finished) or "nothing"
            text = f"{e.player} finishes {done} under construction ({e.wood} wood, {e.stone} stone, {e.luxury} luxury)"
            # the ones not named are given up and lost (RULES.md, 'Buildings under construction'): said, or the log
            # would show a building vanish that no sentence took away
            lost = [c for c in under_construction(s.seat(e.player)) if c not in e.finished]
            if lost:
                names = ", ".join(_n(s, c, ids) for c in lost)
                text += f" and gives up {names}, which {'is' if len(lost) == 1 else 'are'} lost"
            return text
        case CatastropheFaced():
            parts = [
                f"covers {_n(s, c, ids)} with {'a luxury good' if coin == 'luxury' else _coin(coin, own)}"
                if coin
                else f"loses {_n(s, c, ids)}"
                for c, coin in zip(e.cards, e.coins, strict=False)
            ]
            return f"{e.player} faces the {CATASTROPHE_NAMES[e.catastrophe]} and {', '.join(parts)}"
    return f"{type(e).__name__} happens"

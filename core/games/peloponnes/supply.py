"""Paying for buildings, feeding, finishing construction, and luxury goods from excess production (rulebook,
"5. Ganhar Cartas de Poder", "Pagando recursos para cartas de edifícios", "Suprimento" and "Bens de Luxo").

Shortfalls are paid exactly: coin cards showing the missing resource, or luxury goods (1 each). Luxury goods come
from a new building's excess wood/stone (not when luxury goods helped pay for it) and from excess grain in supply.
"""

from __future__ import annotations

from agon.core.games.peloponnes.state import (
    Seat,
    Slot,
    State,
    gain_luxury,
    inhabitants,
    production,
    replace,
)
from agon.core.words import counted
from agon.events.peloponnes import (
    COIN_KINDS,
    BuildingBuilt,
    BuildingLost,
    Coins,
    ConstructionPaid,
    ConstructionStarted,
    PopulationFed,
)

BUILD = "building (rulebook, 'Pagando recursos para cartas de edifícios')"
FEED = "supply (rulebook, 'Suprimento')"
FINISH = "construction (rulebook, 'Suprimento', buildings under construction)"

REMOVE_ONLY_WHILE_HUNGRY = 4
"""The ruleset version from which a card is removed in supply only while inhabitants are still hungry: "removendo
cartas (cartas de poder e/ou sua carta de civilização) de sua mesa até que sua população seja igual a capacidade de
produção de grãos" ('Suprimento'). Until then any cards named were removed, and a population fed by the first ones
turned the grain the others left spare into luxury goods; a game recorded then is folded so (RULES.md, 'Ruleset
versions')."""


def _head(s: State, step: str, player: str) -> str | None:
    where = {"build": BUILD, "feed": FEED, "construct": FINISH}.get(step, step)
    if not s.todo or s.todo[0][0] != step or s.phase not in ("build", "supply", "final_supply"):
        return f"{where}: that decision is not due now"
    if s.todo[0][1] != player:
        return f"{where}: {s.todo[0][1]} decides now, not {player}"
    return None


# --- gaining a building ------------------------------------------------------------------------------------------


def shortfall(s: State, seat: Seat, card: str) -> tuple[int, int, int, int]:
    """Missing wood and stone for ``card`` against current production, and the excess wood and stone."""
    c = s.cat.power[card]
    w, st, _ = production(s.cat, seat)
    return max(0, c.cost_wood - w), max(0, c.cost_stone - st), max(0, w - c.cost_wood), max(0, st - c.cost_stone)


def _payment_error(seat: Seat, need_w: int, need_s: int, wood: int, stone: int, luxury: int, where: str) -> str | None:
    if min(wood, stone, luxury) < 0:
        return f"{where}: payments cannot be negative"
    if wood > seat.hand.wood or stone > seat.hand.stone:
        return f"{where}: {seat.name} holds {seat.hand.wood} wood and {seat.hand.stone} stone coin cards"
    if luxury > seat.luxury:
        return f"{where}: {seat.name} has {counted(seat.luxury, 'luxury good')}, not {luxury}"
    if wood > need_w or stone > need_s or wood + stone + luxury != need_w + need_s:
        return (
            f"{where}: {need_w} wood and {need_s} stone are missing after production; pay exactly that with coin"
            " cards showing them or luxury goods"
        )
    return None


def greedy_payment(seat: Seat, need_w: int, need_s: int) -> tuple[int, int, int] | None:
    w, st = min(need_w, seat.hand.wood), min(need_s, seat.hand.stone)
    lux = need_w + need_s - w - st
    return (w, st, lux) if lux <= seat.luxury else None


def validate_build(s: State, e: BuildingBuilt | ConstructionStarted | BuildingLost) -> str | None:
    err = _head(s, "build", e.player)
    if err:
        return err
    seat = s.seat(e.player)
    if e.card != seat.gained:
        return f"{BUILD}: {e.player} places {s.cat.name(seat.gained)} now, not {s.cat.name(e.card)}"
    match e:
        case BuildingBuilt():
            need_w, need_s, _, _ = shortfall(s, seat, e.card)
            return _payment_error(seat, need_w, need_s, e.wood, e.stone, e.luxury, BUILD)
        case ConstructionStarted():
            where = "construction (rulebook, 'Adicionando cartas de poder')"
            if e.coin == "luxury":
                return None if seat.luxury > 0 else f"{where}: {e.player} has no luxury good to use as a coin card"
            if e.coin not in COIN_KINDS:
                return f"{where}: name the coin card put under it: wood, stone, grain, people or luxury"
            if seat.hand.get(e.coin) < 1:
                return f"{where}: {e.player} holds no {e.coin} coin card"
            return None
        case BuildingLost():
            if seat.hand.total() or seat.luxury:
                return (
                    "building (rulebook, 'Adicionando cartas de poder'): a building is lost only without the resources"
                    " and without a coin card to put it under construction"
                )
            return None


def apply_build(s: State, e: BuildingBuilt | ConstructionStarted | BuildingLost) -> State:
    seat = s.seat(e.player)
    match e:
        case BuildingBuilt():
            _, _, extra_w, extra_s = shortfall(s, seat, e.card)
            paid = Coins(wood=e.wood, stone=e.stone)
            seat = replace(
                seat,
                hand=seat.hand.minus(paid),
                luxury=seat.luxury - e.luxury,
                buildings=seat.buildings + (Slot(e.card),),
            )
            if e.luxury == 0:
                seat = gain_luxury(seat, extra_w + extra_s)
            s = replace(s, discard=s.discard.plus(paid))
        case ConstructionStarted():
            if e.coin == "luxury":
                seat = replace(seat, luxury=seat.luxury - 1)
            else:
                seat = replace(seat, hand=seat.hand.minus(Coins.of([e.coin])))
            seat = replace(seat, buildings=seat.buildings + (Slot(e.card, under=e.coin),))
        case BuildingLost():
            seat = replace(seat, gained="")
    return replace(s.with_seat(seat), todo=s.todo[1:])


def legal_build(s: State) -> list:
    player = s.todo[0][1]
    seat = s.seat(player)
    out: list = []
    need_w, need_s, _, _ = shortfall(s, seat, seat.gained)
    pay = greedy_payment(seat, need_w, need_s)
    if pay:
        out.append(BuildingBuilt(player=player, card=seat.gained, wood=pay[0], stone=pay[1], luxury=pay[2]))
    for k in COIN_KINDS:
        if seat.hand.get(k):
            out.append(ConstructionStarted(player=player, card=seat.gained, coin=k))
    if seat.luxury:
        out.append(ConstructionStarted(player=player, card=seat.gained, coin="luxury"))
    if not out:
        out.append(BuildingLost(player=player, card=seat.gained))
    return out


# --- supply: feeding ---------------------------------------------------------------------------------------------


def _without(seat: Seat, removed: tuple[str, ...]) -> Seat:
    civ = None if seat.civ and seat.civ.card in removed else seat.civ
    return replace(
        seat,
        civ=civ,
        buildings=tuple(x for x in seat.buildings if x.card not in removed),
        lands=tuple(x for x in seat.lands if x.card not in removed),
    )


def deficit(s: State, seat: Seat) -> int:
    return inhabitants(s.cat, seat) - production(s.cat, seat)[2]


def validate_feed(s: State, e: PopulationFed) -> str | None:
    err = _head(s, "feed", e.player)
    if err:
        return err
    seat = s.seat(e.player)
    on_table = {x.card for x in seat.slots()}
    if len(set(e.removed)) != len(e.removed) or not set(e.removed) <= on_table:
        return f"{FEED}: only cards on {e.player}'s tableau can be removed, each once"
    if min(e.grain, e.people, e.luxury) < 0:
        return f"{FEED}: payments cannot be negative"
    if e.grain > seat.hand.grain or e.people > seat.hand.people:
        return f"{FEED}: {e.player} holds {seat.hand.grain} grain and {seat.hand.people} people coin cards"
    if e.luxury > seat.luxury:
        return f"{FEED}: {e.player} has {counted(seat.luxury, 'luxury good')}, not {e.luxury}"
    if e.removed and s.version >= REMOVE_ONLY_WHILE_HUNGRY and not removed_while_hungry(s, seat, e.removed):
        return (
            f"{FEED}: cards are removed only until the population equals the grain production; with"
            f" {', '.join(s.cat.name(c) for c in e.removed)} the inhabitants are fed before the last of them goes"
        )
    need = max(0, deficit(s, _without(seat, e.removed)))
    if e.grain + e.people + e.luxury != need:
        return (
            f"{FEED}: {counted(need, 'inhabitant')} {'is' if need == 1 else 'are'} not fed by grain production; pay"
            " exactly that with grain or people"
            " coin cards and luxury goods, or remove cards"
        )
    return None


def removed_while_hungry(s: State, seat: Seat, removed: tuple[str, ...]) -> bool:
    """Whether ``removed`` can go one card after the other, each while inhabitants are still hungry ("até que sua
    população seja igual a capacidade de produção de grãos", 'Suprimento'). A card's removal lowers the shortfall by
    its own inhabitants less its grain, so the best order takes the hungriest card last: the others gone, someone
    must still be hungry. (Coin cards then pay exactly what the removals leave hungry.)"""
    if not removed:
        return True
    d = deficit(s, seat)
    last = max(removed, key=lambda c: d - deficit(s, _without(seat, (c,))))
    return deficit(s, _without(seat, tuple(c for c in removed if c != last))) > 0


def _drop_coins(s: State, seat: Seat, removed: tuple[str, ...]) -> State:
    coins = [c for x in seat.slots() if x.card in removed for c in (x.cover, x.under) if c in COIN_KINDS]
    return replace(s, discard=s.discard.plus(Coins.of(coins)))


def apply_feed(s: State, e: PopulationFed) -> State:
    seat = s.seat(e.player)
    s = _drop_coins(s, seat, e.removed)
    paid = Coins(grain=e.grain, people=e.people)
    seat = _without(seat, e.removed)
    seat = replace(seat, hand=seat.hand.minus(paid), luxury=seat.luxury - e.luxury)
    seat = gain_luxury(seat, max(0, -deficit(s, seat)))
    return replace(s.with_seat(seat), discard=s.discard.plus(paid), todo=s.todo[1:])


def feed_automatically(s: State, player: str) -> State:
    """No inhabitant goes hungry: excess grain becomes luxury goods (rulebook, 'Bens de Luxo', 2)."""
    seat = s.seat(player)
    return s.with_seat(gain_luxury(seat, max(0, -deficit(s, seat))))


def legal_feed(s: State) -> list[PopulationFed]:
    player = s.todo[0][1]
    seat = s.seat(player)
    need = deficit(s, seat)
    out: list[PopulationFed] = []
    for order in (("grain", "people", "luxury"), ("people", "grain", "luxury"), ("luxury", "grain", "people")):
        left, pay = need, {}
        for k in order:
            have = seat.luxury if k == "luxury" else seat.hand.get(k)
            pay[k] = min(have, left)
            left -= pay[k]
        if left == 0:
            ev = PopulationFed(player=player, **pay)
            if ev not in out:
                out.append(ev)
    # Removing cards: the ones with most inhabitants per grain first, until what is held pays the rest.
    slots = sorted(seat.slots(), key=lambda x: _hunger(s, x), reverse=True)
    removed: list[str] = []
    for x in slots:
        if _hunger(s, x) <= 0:
            break
        removed.append(x.card)
        rest = max(0, deficit(s, _without(seat, tuple(removed))))
        if rest <= seat.hand.grain + seat.hand.people + seat.luxury:
            g = min(rest, seat.hand.grain)
            p = min(rest - g, seat.hand.people)
            out.append(PopulationFed(player=player, grain=g, people=p, luxury=rest - g - p, removed=tuple(removed)))
            break
    return out


def _hunger(s: State, slot: Slot) -> int:
    c = s.cat.power.get(slot.card)
    if c is None:
        civ = s.cat.civs[slot.card]
        return 0 if slot.cover else civ.people - civ.grain
    return c.people - (0 if slot.cover else c.grain)


# --- supply: buildings under construction ----------------------------------------------------------------------


def under_construction(seat: Seat) -> tuple[str, ...]:
    return tuple(x.card for x in seat.buildings if x.under)


def construction_need(s: State, seat: Seat, finished: tuple[str, ...]) -> tuple[int, int]:
    """Missing wood and stone for the summed cost of ``finished``, against production without the buildings that
    are given up."""
    lost = tuple(c for c in under_construction(seat) if c not in finished)
    w, st, _ = production(s.cat, _without(seat, lost))
    cw = sum(s.cat.power[c].cost_wood for c in finished)
    cs = sum(s.cat.power[c].cost_stone for c in finished)
    return max(0, cw - w), max(0, cs - st)


def validate_construction(s: State, e: ConstructionPaid) -> str | None:
    err = _head(s, "construct", e.player)
    if err:
        return err
    seat = s.seat(e.player)
    pending = under_construction(seat)
    if len(set(e.finished)) != len(e.finished) or not set(e.finished) <= set(pending):
        names = ", ".join(s.cat.name(c) for c in pending)
        return f"{FINISH}: only buildings under construction can be finished ({names})"
    need_w, need_s = construction_need(s, seat, e.finished)
    return _payment_error(seat, need_w, need_s, e.wood, e.stone, e.luxury, FINISH)


def apply_construction(s: State, e: ConstructionPaid) -> State:
    return replace(_finish(s, e.player, e.finished, e.wood, e.stone, e.luxury), todo=s.todo[1:])


def _finish(s: State, player: str, finished: tuple[str, ...], wood: int, stone: int, luxury: int) -> State:
    seat = s.seat(player)
    lost = tuple(c for c in under_construction(seat) if c not in finished)
    s = _drop_coins(s, seat, lost)
    under = [x.under for x in seat.buildings if x.card in finished and x.under in COIN_KINDS]
    paid = Coins(wood=wood, stone=stone)
    seat = _without(seat, lost)
    seat = replace(
        seat,
        hand=seat.hand.minus(paid),
        luxury=seat.luxury - luxury,
        buildings=tuple(replace(x, under="") if x.card in finished else x for x in seat.buildings),
    )
    return replace(s.with_seat(seat), discard=s.discard.plus(paid).plus(Coins.of(under)))


def finish_automatically(s: State, player: str) -> State | None:
    """In a game recorded under ruleset version 1 (flow.ASK_TO_FINISH): production alone pays every building under
    construction, so they are finished without a decision (None when it does not)."""
    seat = s.seat(player)
    pending = under_construction(seat)
    if construction_need(s, seat, pending) == (0, 0):
        return _finish(s, player, pending, 0, 0, 0)
    return None


def legal_construction(s: State) -> list[ConstructionPaid]:
    player = s.todo[0][1]
    seat = s.seat(player)
    pending = under_construction(seat)
    out: list[ConstructionPaid] = []
    for finished in (pending, *((c,) for c in pending), ()):
        pay = greedy_payment(seat, *construction_need(s, seat, finished))
        if pay:
            ev = ConstructionPaid(player=player, finished=finished, wood=pay[0], stone=pay[1], luxury=pay[2])
            if ev not in out:
                out.append(ev)
    return out

"""The course of a game: setup, the eight rounds and the end (rulebook, "Preparação", "Como jogar" 1-6 and
"Final do Jogo").

``advance`` runs everything that needs no decision and no luck (revealed cards reaching their places, catastrophe
markers, steps nobody has to choose in, the new turn order, income, the end), and stops where a player must decide
or a chance outcome is needed. ``apply`` calls it after every event.
"""

from __future__ import annotations

from itertools import takewhile

from agon.core.games.peloponnes import auction, catastrophe, supply
from agon.core.games.peloponnes.cards import CATASTROPHES, ERAS, ROUNDS, ROW_SIZE, table_row
from agon.core.games.peloponnes.state import Draw, Slot, State, gain_luxury, inhabitants, replace
from agon.events.peloponnes import Coins

ASK_TO_BUILD = 2
"""The ruleset version from which a player who holds a coin card or a luxury good is asked whether to build a new
building even when production pays for it ("Quando você puder (e quiser)"). Until then it was built without a
decision, and a game recorded then is folded so (RULES.md, 'Ruleset versions')."""

ASK_TO_FINISH = 2
"""The ruleset version from which finishing buildings under construction is always a decision ("ou não quiser
pagar"). Until then production that paid for all of them finished them without one, and a game recorded then is
folded so (RULES.md, 'Ruleset versions')."""


def setup(s: State, civs: tuple[str, ...]) -> State:
    """Civilizations dealt: turn order by their arrow numbers, coin cards dealt as each says."""
    seats = tuple(replace(seat, civ=Slot(c)) for seat, c in zip(s.seats, civs, strict=True))
    by_player = dict(zip(s.players, civs, strict=True))
    order = tuple(sorted(s.players, key=lambda p: s.cat.civs[by_player[p]].arrow))
    draws = tuple(Draw(p, s.cat.civs[by_player[p]].coins, "setup") for p in order)
    left = tuple(c for era in ERAS for c in s.cat.era_cards(era))
    return replace(s, seats=seats, order=order, draws=draws, phase="dealing", power_left=left)


def era_now(s: State) -> tuple[str, ...]:
    """The power cards left in the era on top of the deck (A over B over C): their order is drawn as they are
    revealed."""
    if not s.power_left:
        return ()
    era = s.cat.power[s.power_left[0]].era
    return tuple(takewhile(lambda c: s.cat.power[c].era == era, s.power_left))


def not_drawn_now(s: State) -> tuple[tuple[str, str, str], ...]:
    """The power cards a reveal does not draw from, each with its name and why, as every seat knows it (core.engine
    ``Chance.gone``): those revealed already, face up since, then those of a later era, under the era drawn now
    (rulebook, 'Preparação': the eras stacked A over B over C). A word is read against the nearest first (``pal``
    is the Palisade revealed, not also the Palace of era C)."""
    now = era_now(s)
    era = s.cat.power[now[0]].era if now else ""
    revealed = [(c, s.cat.name(c), "has already been revealed") for c in s.cat.power if c not in s.power_left]
    later = [(c, s.cat.name(c), f"is an era {s.cat.power[c].era} card, under the era {era} cards revealed now")
             for c in s.power_left if c not in now]  # era by era, as stacked
    return tuple(revealed + later)


def _start_round(s: State) -> State:
    return replace(
        s,
        round=s.round + 1,
        phase="reveal",
        revealed=(),
        row=(),
        conquest=(),
        bids=(),
        loose=None,
        acted=(),
        passed=(),
        supply_due=False,
    )


def _place_revealed(s: State) -> State:
    """Cards to the middle and the conquest row; catastrophe symbols of the first two cards, each moving its marker
    a space (the same symbol on both moves it two: RULES.md); a supply symbol on any of the six cards."""
    n = len(s.players)
    markers = list(s.markers)
    struck, striking = s.struck, s.striking
    for card in s.revealed[:2]:
        sym = s.cat.power[card].symbol
        if not sym or sym in struck:
            continue
        i = CATASTROPHES.index(sym)
        markers[i] += 1
        if markers[i] >= s.cat.catastrophe_steps:
            struck, striking = struck + (sym,), striking + (sym,)
    return replace(
        s,
        row=s.revealed[:n],
        conquest=s.revealed[n:ROW_SIZE],
        markers=tuple(markers),
        struck=struck,
        striking=striking,
        supply_due=any(s.cat.power[c].supply for c in s.revealed),
        phase="catastrophe",
        todo=(),
    )


def _supply_todo(s: State) -> tuple[tuple[str, str], ...]:
    return tuple((step, p) for p in s.order for step in ("feed", "construct"))


def _finish_auction(s: State) -> State:
    ranked = auction.new_order(s)
    order = tuple(p for p, _ in ranked)
    todo: list[tuple[str, str]] = []
    for p in order:
        bid = next((b for b in s.bids if b.player == p), None)
        if bid is None:
            continue
        card = s.cat.power[bid.card]
        seat = replace(s.seat(p), gained=bid.card)
        if card.kind == "land":
            seat = replace(seat, lands=seat.lands + (Slot(card.id),))
        else:
            todo.append(("build", p))
        s = replace(s.with_seat(seat), discard=s.discard.plus(bid.coins))
    return replace(
        s, order=order, last_bids=ranked, phase="build", todo=tuple(todo), won=s.bids, auction_round=s.round
    )


def _income(s: State) -> State:
    """One-time income of the new card and income by population (summary card); luxury goods at 11+."""
    draws = list(s.draws)
    for p in s.order:
        seat = s.seat(p)
        coins, lux = 0, 0
        on_table = {x.card for x in seat.slots()}
        if seat.gained in on_table:
            card = s.cat.power[seat.gained]
            coins, lux = card.income_coins, card.income_luxury
        pop = inhabitants(s.cat, seat)
        row = table_row(s.cat.income, pop)
        coins += row[1] if row else 0
        row = table_row(s.cat.luxury_income, pop)
        lux += row[1] if row else 0
        s = s.with_seat(gain_luxury(replace(seat, gained=""), lux))
        if coins:
            draws.append(Draw(p, coins, "income"))
    return replace(s, draws=tuple(draws))


def _auto_step(s: State) -> State | None:
    """Resolve the head of ``todo`` when it needs no decision (None when a player must decide)."""
    step, player = s.todo[0]
    rest = replace(s, todo=s.todo[1:])
    if step == "feed":
        if supply.deficit(s, s.seat(player)) <= 0:
            return supply.feed_automatically(rest, player)
        return None
    if step == "construct":
        # Finishing is a choice even when production pays: "Se você não tiver (ou não quiser pagar) os recursos
        # necessários, então o edifício é perdido" (rulebook, 'Suprimento').
        if not supply.under_construction(s.seat(player)):
            return rest
        if s.version < ASK_TO_FINISH:  # version 1: production that pays for them all finishes them
            return supply.finish_automatically(rest, player)
        return None
    if step == "build":
        # "Quando você puder (e quiser), você imediatamente paga ... Se você não puder (ou simplesmente não
        # quiser), então, ao invés, pegue uma carta de moeda" ('Adicionando cartas de poder'): a choice whenever
        # the player holds a coin card or a luxury good to put under it (version 1: never, when production pays).
        seat = s.seat(player)
        need_w, need_s, extra_w, extra_s = supply.shortfall(s, seat, seat.gained)
        if need_w or need_s or (s.version >= ASK_TO_BUILD and (seat.hand.total() or seat.luxury)):
            return None
        seat = replace(seat, buildings=seat.buildings + (Slot(seat.gained),))
        return rest.with_seat(gain_luxury(seat, extra_w + extra_s))
    if step.startswith("face:"):
        return None if catastrophe.needs_decision(s, player, step[5:]) else rest
    raise AssertionError(step)


def advance(s: State) -> State:
    while True:
        if s.draws:
            head = s.draws[0]
            if head.count <= 0:
                s = replace(s, draws=s.draws[1:])
                continue
            if s.deck.total() == 0:
                if s.discard.total() == 0:
                    s = replace(s, draws=s.draws[1:])
                else:
                    # "embaralhe a pilha de descarte e forme um novo baralho de compra": the pile was face up
                    s = replace(s, deck=s.discard, discard=Coins(), deck_known=True)
                continue
            return s
        if s.todo:
            nxt = _auto_step(s)
            if nxt is None:
                return s
            s = nxt
            continue
        match s.phase:
            case "setup" | "over":
                return s
            case "auction":
                if auction.actor(s) is not None:
                    return s
                s = _finish_auction(s)
            case "dealing":
                s = _start_round(s)
            case "reveal":
                if len(s.revealed) < ROW_SIZE and era_now(s):
                    return s
                s = _place_revealed(s)
            case "catastrophe":
                if s.striking:
                    cat = s.striking[0]
                    s = replace(s, striking=s.striking[1:], todo=tuple((f"face:{cat}", p) for p in s.order))
                else:
                    s = (
                        replace(s, phase="supply", todo=_supply_todo(s))
                        if s.supply_due
                        else replace(s, phase="auction")
                    )
            case "supply":
                s = replace(s, phase="auction")
            case "build":
                s = _income(s)
                if s.round >= ROUNDS:
                    s = replace(s, phase="final_supply", todo=_supply_todo(s))
                else:
                    s = replace(s, phase="next")
            case "next":
                s = _start_round(s)
            case "final_supply":
                s = replace(catastrophe.recover(s), phase="over")
            case _:
                raise AssertionError(s.phase)

"""Who acts, what is legal, validation and the fold (rulebook, "Como jogar"; the phases live in flow, auction,
supply and catastrophe).
"""

from __future__ import annotations

from collections import Counter
from typing import assert_never

from agon.core.engine import Chance, Decision, Over, Pending, recorded_version
from agon.core.games.peloponnes import auction, catastrophe, flow, supply
from agon.core.games.peloponnes.cards import CATASTROPHE_NAMES, ROW_SIZE, Catalog, parse
from agon.core.games.peloponnes.scoring import outcome
from agon.core.games.peloponnes.state import Seat, State, replace
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
    PeloponnesEvent,
    PopulationFed,
    PowerCardsRevealed,
)

PROMPTS = {
    "feed": "feed your inhabitants (supply)",
    "construct": "finish buildings under construction (supply)",
    "build": "pay for your new building, or put it under construction",
}


VERSION = "6"
"""The ruleset version new games are recorded under (``Peloponnes.version``). Version 1 games keep the rules they
were played with where version 2 changed them (RULES.md, 'Ruleset versions'). Version 3 plays as version 2 does:
it was raised when version-1 games began to fold by their own rules, so that the snapshots, summaries and analyses
made from them before, keyed by the ruleset version, are made again and not read. Version 4 removes cards in
supply only while inhabitants are still hungry (``supply.REMOVE_ONLY_WHILE_HUNGRY``); older games keep removing
whatever cards were named. Version 5 lists every catastrophe cover the hand can pay, of any back (version 4 listed
only the back the hand held most of): every event of an older game stays legal, so it folds as before, but bots
choose among more decisions, so analyses made under version 4 are made again and not read. Version 6 adds the
state's ``deck_known`` (the coin deck formed from the face-up discard pile is known to every seat until a card is
drawn from it); the rules are those of version 5, and the version was raised so that snapshots of version 5, which
lack it, are not read."""


def initial_state(created: GameCreated) -> State:
    cat: Catalog = parse(created.cards)
    players = created.names
    return State(
        cat=cat,
        players=players,
        version=recorded_version(created, VERSION),
        seats=tuple(Seat(name=p) for p in players),
        deck=Coins(*cat.coins),
    )


def coin_items(deck: Coins) -> tuple[str, ...]:
    """The deck's coin cards by their backs, in ``COIN_KINDS`` order."""
    return ("wood",) * deck.wood + ("stone",) * deck.stone + ("grain",) * deck.grain + ("people",) * deck.people


def coin_kinds(s: State) -> tuple[str, ...]:
    """The backs the card set's coin cards show: what a draw from the coin deck is typed from at a table. Which of
    them are left in the deck is hidden from every seat ('Who is told what' in RULES.md): the draw is ``unseen``."""
    return tuple(k for k, n in zip(COIN_KINDS, s.cat.coins, strict=True) if n)


def pending(s: State) -> Pending:
    if s.phase == "setup":
        return Chance(
            "draw",
            "civilization cards dealt in seat order",
            lambda out: CivilizationsDealt(civilizations=tuple(out)),
            count=len(s.players),
            items=tuple(sorted(s.cat.civs)),
        )
    if s.draws:
        head = s.draws[0]
        return Chance(
            "draw",
            f"coin cards drawn by {head.player} ({head.reason})",
            lambda out, p=head.player: CoinsDrawn(player=p, coins=tuple(out)),
            count=min(head.count, s.deck.total()),
            items=coin_items(s.deck),
            unseen=coin_kinds(s),
            unordered=(min(head.count, s.deck.total()),),  # a hand of coin cards is counted by kind (Coins.of)
        )
    if s.phase == "reveal":
        items = flow.era_now(s)
        return Chance(
            "draw",
            f"power cards revealed in round {s.round}",
            lambda out: PowerCardsRevealed(cards=tuple(out)),
            count=min(ROW_SIZE - len(s.revealed), len(items)),
            items=items,
            item_names=tuple((c, s.cat.name(c)) for c in items),  # typed at a table by the name a card shows
            gone=flow.not_drawn_now(s),
        )
    if s.phase == "over":
        return Over(outcome(s))
    if s.phase == "auction":
        who = auction.actor(s)
        assert who is not None
        if s.loose is not None:
            return Decision(who, f"move your outbid bid of {s.loose.count} or take it back and pass")
        return Decision(who, "bid on a power card or pass")
    step, player = s.todo[0]
    if step.startswith("face:"):
        return Decision(player, f"face the {CATASTROPHE_NAMES[step[5:]]}: cover the cards it hits or remove them")
    return Decision(player, PROMPTS[step])


def legal(s: State) -> list[Event]:
    p = pending(s)
    if not isinstance(p, Decision):
        return []
    return decisions(s)


def decisions(s: State) -> list[Event]:
    """``legal(s)`` where a player must decide (``pending(s)`` is a Decision)."""
    if s.phase == "auction":
        return auction.legal(s)
    step = s.todo[0][0]
    if step.startswith("face:"):
        return list(catastrophe.legal(s))
    if step == "feed":
        return list(supply.legal_feed(s))
    if step == "construct":
        return list(supply.legal_construction(s))
    return supply.legal_build(s)


def _validate_chance(s: State, p: Chance, e: Event) -> str | None:
    where = "chance"
    if isinstance(e, CivilizationsDealt) and p.label.startswith("civilization"):
        if len(e.civilizations) != len(s.players) or len(set(e.civilizations)) != len(e.civilizations):
            return "setup (rulebook, 'Preparação'): one different civilization card for each player, in seat order"
        if not set(e.civilizations) <= set(s.cat.civs):
            return f"setup (rulebook, 'Preparação'): the civilizations are {', '.join(sorted(s.cat.civs))}"
        return None
    if isinstance(e, CoinsDrawn) and p.label.startswith("coin"):
        head = s.draws[0]
        if e.player != head.player:
            return f"{where}: the coin cards drawn now are {head.player}'s"
        if len(e.coins) != p.count:
            drawn = "is drawn" if p.count == 1 else "are drawn"
            return f"{where}: {counted(p.count, 'coin card')} {drawn} now, not {len(e.coins)}"
        unknown = sorted(set(e.coins) - set(p.unseen))
        if unknown:
            return f"{where}: the coin cards' backs are {', '.join(p.unseen)}, not {', '.join(unknown)}"
        if Counter(e.coins) - Counter(p.items):
            if s.deck_known:  # formed from the face-up discard pile and not drawn from since: every seat knows it
                return (f"{where}: the coin deck holds {s.deck.describe()} (the face-up discard pile it was formed"
                        f" from), so it cannot give {Coins.of(e.coins).describe()}; check the backs of the coin cards"
                        " drawn")
            # which backs are left is hidden: not told (RULES.md)
            return (f"{where}: the coin deck as recorded cannot give {Coins.of(e.coins).describe()}; check the backs"
                    " of the coin cards drawn (which are left in the deck is not shown to anyone)")
        return None
    if isinstance(e, PowerCardsRevealed) and p.label.startswith("power"):
        if len(e.cards) != p.count or len(set(e.cards)) != len(e.cards):
            return f"reveal (rulebook, '1. Revele Cartas de Poder'): {p.count} different power cards are revealed now"
        if not set(e.cards) <= set(p.items):
            return (
                "reveal (rulebook, 'Preparação', power deck A over B over C): the cards on top of the deck now are"
                f" {', '.join(p.items)}"
            )
        return None
    return f"a chance outcome is needed now ({p.describe()})"


def validate(s: State, e: Event) -> str | None:
    p = pending(s)
    if isinstance(p, Over):
        return "the game is over (rulebook, 'Final do Jogo')"
    if isinstance(p, Chance):
        return _validate_chance(s, p, e)
    if isinstance(e, CivilizationsDealt | CoinsDrawn | PowerCardsRevealed):
        return f"{p.player} must decide now ({p.prompt}); no chance outcome is due"
    player = getattr(e, "player", None)
    if player not in s.players:
        return f"{player!r} is not a player of this game"
    match e:
        case BidPlaced() | BidMoved() | BidWithdrawn() | Passed():
            return auction.validate(s, e)
        case BuildingBuilt() | ConstructionStarted() | BuildingLost():
            return supply.validate_build(s, e)
        case PopulationFed():
            return supply.validate_feed(s, e)
        case ConstructionPaid():
            return supply.validate_construction(s, e)
        case CatastropheFaced():
            return catastrophe.validate(s, e)
    return "this event is not a decision of the Peloponnes Card Game"


def apply(s: State, e: PeloponnesEvent) -> State:
    match e:
        case CivilizationsDealt():
            s = flow.setup(s, e.civilizations)
        case CoinsDrawn():
            seat = s.seat(e.player)
            got = Coins.of(e.coins)
            s = s.with_seat(replace(seat, hand=seat.hand.plus(got)))
            head = s.draws[0]
            rest = head.count - len(e.coins)
            draws = ((replace(head, count=rest),) if rest > 0 else ()) + s.draws[1:]
            # a deck every seat knows stays known when what is left is certain: one back alone, or nothing
            known = s.deck_known and (sum(1 for k in COIN_KINDS if s.deck.get(k)) <= 1 or s.deck == got)
            s = replace(s, deck=s.deck.minus(got), draws=draws, deck_known=known)
        case PowerCardsRevealed():
            s = replace(
                s,
                revealed=s.revealed + e.cards,
                power_left=tuple(c for c in s.power_left if c not in e.cards),
            )
        case BidPlaced() | BidMoved() | BidWithdrawn() | Passed():
            s = auction.apply(s, e)
        case BuildingBuilt() | ConstructionStarted() | BuildingLost():
            s = supply.apply_build(s, e)
        case PopulationFed():
            s = supply.apply_feed(s, e)
        case ConstructionPaid():
            s = supply.apply_construction(s, e)
        case CatastropheFaced():
            s = catastrophe.apply(s, e)
        case _:
            assert_never(e)
    return flow.advance(s)


def round_of(s: State) -> int:
    return s.round

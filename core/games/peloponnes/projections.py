"""Projections for analysis: the auction chains and the turn order of every round (rulebook, "3. Leilão" and
"4. Ordem do Turno").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.core.engine import Step
from agon.core.games.peloponnes import auction
from agon.events.peloponnes import BidMoved, BidPlaced, BidWithdrawn, Passed


def auctions(line: Sequence[Step]) -> list[dict[str, Any]]:
    """One row per auction action (bid, move of a displaced bid, withdrawal, pass) and per card won.

    ``outbid`` names the player whose bid was displaced by this action; a ``move`` row says where that displaced
    bid went (``from_card`` to ``card``) and whom it displaced in turn; ``chain`` numbers the displacement chain
    an action belongs to within its round (0 for actions that displace nobody and are not moves).
    """
    rows: list[dict[str, Any]] = []
    chain = 0
    for st in line:
        e, s, after = st.event, st.before, st.after
        if s is None:
            continue
        base = {"index": st.index, "round": s.round}
        match e:
            case BidPlaced():
                other = auction.held(s, e.card)
                if other:
                    chain += 1
                n = e.coins.total() + e.luxury
                rows.append(
                    {
                        **base,
                        "action": "bid",
                        "player": e.player,
                        "card": e.card,
                        "card_name": s.cat.name(e.card),
                        "conquest": e.card in s.conquest,
                        "coin_cards": n,
                        "effective": auction.effective(s, e.player, n),
                        "outbid": other.player if other else None,
                        "outbid_coin_cards": other.count if other else None,
                        "from_card": None,
                        "chain": chain if other else 0,
                    }
                )
            case BidMoved():
                assert s.loose is not None
                other = auction.held(s, e.card)
                rows.append(
                    {
                        **base,
                        "action": "move",
                        "player": e.player,
                        "card": e.card,
                        "card_name": s.cat.name(e.card),
                        "conquest": e.card in s.conquest,
                        "coin_cards": s.loose.count,
                        "effective": auction.effective(s, e.player, s.loose.count),
                        "outbid": other.player if other else None,
                        "outbid_coin_cards": other.count if other else None,
                        "from_card": s.loose.card,
                        "chain": chain,
                    }
                )
            case BidWithdrawn() | Passed():
                withdrawn = isinstance(e, BidWithdrawn)
                rows.append(
                    {
                        **base,
                        "action": "withdraw" if withdrawn else "pass",
                        "player": e.player,
                        "card": None,
                        "card_name": None,
                        "conquest": False,
                        "coin_cards": s.loose.count if withdrawn and s.loose else 0,
                        "effective": None,
                        "outbid": None,
                        "outbid_coin_cards": None,
                        "from_card": s.loose.card if withdrawn and s.loose else None,
                        "chain": chain if withdrawn else 0,
                    }
                )
        if s.auction_ended(after):
            for b in after.won:
                rows.append(
                    {
                        **base,
                        "action": "won",
                        "player": b.player,
                        "card": b.card,
                        "card_name": s.cat.name(b.card),
                        "conquest": b.card in s.conquest,
                        "coin_cards": b.count,
                        "effective": auction.effective(s, b.player, b.count),
                        "outbid": None,
                        "outbid_coin_cards": None,
                        "from_card": None,
                        "chain": 0,
                    }
                )
    return rows


def turn_order(line: Sequence[Step]) -> list[dict[str, Any]]:
    """One row per player and round: the position in that round's turn order (1 first), the bid (coin cards, 0
    for a pass) and the position it gave for the next round."""
    rows: list[dict[str, Any]] = []
    for st in line:
        s, after = st.before, st.after
        if s is None or not s.auction_ended(after):
            continue
        nxt = {p: i + 1 for i, (p, _) in enumerate(after.last_bids)}
        bids = dict(after.last_bids)
        for i, p in enumerate(s.order):
            rows.append(
                {
                    "index": st.index,
                    "round": s.round,
                    "player": p,
                    "position": i + 1,
                    "bid": bids[p],
                    "next_position": nxt[p],
                }
            )
    return rows


PROJECTIONS = {"auctions": auctions, "turn_order": turn_order}

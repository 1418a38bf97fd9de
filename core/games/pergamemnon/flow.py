"""Turn flow: nation cards, who acts next, and the automatic steps between decisions.

Follows ../shared/rules/pergamemnon-rulebook.pt.txt, 'O que acontece depois do recrutamento de uma criatura?' and
'O que acontece depois de uma batalha?', and the player aid's 'Chacun retourne sa carte Nation côté actif si'.

- With 3 or more players, a player acts and can be attacked only while their nation card is active. The moment
  at most one nation card is still active (only the acting player's, or none), all flip back to active.
- With 2 players nation cards are not used; turns follow the same continuation rules (a recruit passes the turn,
  a battle's winner or, on a tie, the defender acts next).
- After a recruit or a battle, hands are drawn back to their size (a chance event per draw), then the next turn
  begins. Steps that need nobody (nothing to place, an empty hand to discard from, a full hand) are skipped here.
"""

from __future__ import annotations

import msgspec

from agon.core.games.pergamemnon.state import (
    State,
    card,
    hand_size,
    player,
    uses_nation_cards,
    with_player,
)

replace = msgspec.structs.replace


def set_active(s: State, name: str, active: bool) -> State:
    if not uses_nation_cards(s):
        return s
    return with_player(s, replace(player(s, name), active=active))


def reset_nation_cards(s: State) -> State:
    """When at most one nation card is active, every nation card flips back to active at once."""
    if not uses_nation_cards(s) or sum(p.active for p in s.players) > 1:
        return s
    return replace(s, players=tuple(replace(p, active=True) for p in s.players))


def next_active_after(s: State, i: int) -> int:
    """The next player clockwise (seat order) after seat ``i`` whose nation card is active."""
    n = len(s.players)
    for k in range(1, n + 1):
        j = (i + k) % n
        if s.players[j].active or not uses_nation_cards(s):
            return j
    return (i + 1) % n


def charisma_rank(s: State, name: str) -> tuple[int, int]:
    """How charismatic a player is at the start: the sum of the hand's charisma, then its best card."""
    values = [card(s, c).charisma for c in player(s, name).hand]
    return (sum(values), max(values, default=0))


def choose_starter(s: State) -> State:
    """The most charismatic player starts; a tie that remains is settled by lots (a chance event)."""
    ranks = {p.name: charisma_rank(s, p.name) for p in s.players}
    best = max(ranks.values())
    tied = tuple(name for name, r in ranks.items() if r == best)
    if len(tied) == 1:
        return begin_turn(replace(s, next_actor=[p.name for p in s.players].index(tied[0])))
    return replace(s, phase="starter", tied=tied)


def begin_turn(s: State) -> State:
    return replace(s, phase="turn", current=s.next_actor, turn=s.turn + 1, aftermath=None, tied=(), refill=())


def _needs_draw(s: State, name: str) -> bool:
    p = player(s, name)
    return len(p.hand) < hand_size(s, p) and bool(p.deck or p.discard)


def settle(s: State) -> State:
    """Take every step that needs no decision and no luck."""
    while True:
        if s.phase == "place" and s.aftermath is not None:
            captured = s.aftermath.captured
            if not any(card(s, c).charisma > 0 for c in captured):
                w = player(s, s.aftermath.winner)
                s = with_player(s, replace(w, discard=w.discard + captured))
                s = replace(s, phase="discard", aftermath=replace(s.aftermath, captured=()))
                continue
            return s
        if s.phase == "discard" and s.aftermath is not None:
            if not player(s, s.aftermath.loser).hand:
                s = replace(s, phase="refill")
                continue
            return s
        if s.phase in ("setup", "refill"):
            if s.phase == "setup" and not s.players[0].nation:
                return s
            while s.refill and not _needs_draw(s, s.refill[0]):
                s = replace(s, refill=s.refill[1:])
            if s.refill or s.reveal:
                return s
            return choose_starter(s) if s.phase == "setup" else begin_turn(s)
        return s

"""The battle as a chain of strikes, its result and its aftermath.

Follows ../shared/rules/pergamemnon-rulebook.pt.txt, 'A Batalha', 'O que acontece depois de uma batalha?',
'Habilidades Especiais' and 'Líderes Capturados', and the player aid's 'La bataille'. The reading of the chain
(RULES.md, "The battle chain") is:

1. The attacker declares a weapon and lays a card with that weapon face down; the defender lays a card; both are
   revealed. That is the first strike: the attacker's card against the defender's card.
2. The struck side repels a strike when the matching defence (helmet vs sword, armour vs spear, shield vs bow) of
   its last played card, plus at most one reinforcement from the hand played now, reaches the strike's value.
   A reinforcement may only be played when the last card alone is not enough, and is always optional.
3. After a repel: a defender's repel (with or without a new card) is followed by its strike with the weapon of
   its last played card; an attacker's repel with its last card alone ends the battle in a tie; an attacker's
   repel that needed a reinforcement is followed by its strike with that reinforcement's weapon.
4. A side that cannot or will not repel loses the battle.

A repel by the last card alone needs no decision, so it is resolved at once; a decision is asked only when the
struck side's last card is not enough and it still holds cards (reinforce, or yield).
"""

from __future__ import annotations

import msgspec

from agon.core.games.pergamemnon import flow
from agon.core.games.pergamemnon.cards import DEFENCE_OF
from agon.core.games.pergamemnon.state import (
    Aftermath,
    Battle,
    State,
    Strike,
    attack_of,
    card,
    card_name,
    defence_of,
    distinct,
    effects,
    flees,
    index,
    kind,
    player,
    take,
    with_player,
    without,
)
from agon.events.pergamemnon import Attacked, CapturesPlaced, DefenceCommitted, HandDiscarded, Reinforced, Yielded

replace = msgspec.structs.replace

BATTLE = "rulebook, 'A Batalha'"
AFTER = "rulebook, 'O que acontece depois de uma batalha?'"


def last_card(b: Battle, side: str) -> str:
    return (b.attacker_cards if side == b.attacker else b.defender_cards)[-1]


def new_strike(s: State, b: Battle, striker: str, struck: str) -> Strike:
    """``striker`` strikes with the weapon of its last played card at ``struck``'s last played card."""
    own = last_card(b, striker)
    target = last_card(b, struck)
    weapon = card(s, own).weapon
    return Strike(
        striker=striker,
        struck=struck,
        card=own,
        weapon=weapon,
        value=attack_of(s, player(s, striker), own),
        defence_card=target,
        defence=defence_of(s, player(s, struck), target, weapon),
    )


def _with_strike(b: Battle, st: Strike) -> Battle:
    return replace(b, strikes=b.strikes[:-1] + (st,))


def run_chain(s: State, b: Battle) -> State:
    """Resolve strikes until one needs a decision or the battle ends."""
    while True:
        st = b.strikes[-1]
        if not st.result:
            if st.defence >= st.value:
                st = replace(st, result="repelled")
            elif not player(s, st.struck).hand:
                st = replace(st, result="broken")
            else:
                return replace(s, battle=b)
            b = _with_strike(b, st)
        if st.result in ("broken", "yielded"):
            return conclude(s, b, "attacker" if st.striker == b.attacker else "defender")
        if st.struck == b.attacker and st.result == "repelled":
            return conclude(s, b, "tie")
        b = replace(b, strikes=b.strikes + (new_strike(s, b, st.struck, st.striker),))


# ---------------------------------------------------------------------------------------------------------------
# Events of the battle


def laid(s: State, who: str, cid: str) -> tuple[State, str]:
    """``who`` lays ``cid`` from the hand: the state after, and the copy laid (``take``: the first copy held of a
    kind named, as the decisions name copies alike; RULES.md, 'Copies alike')."""
    p = player(s, who)
    got = take(s, p.hand, (cid,)) or (cid,)  # apply trusts its input: a card not held is laid as named
    return with_player(s, replace(p, hand=without(p.hand, got))), got[0]


def open_battle(s: State, e: Attacked) -> State:
    s, cid = laid(s, e.player, e.card)
    b = Battle(number=s.battles + 1, attacker=e.player, defender=e.defender, weapon=e.weapon, attacker_cards=(cid,))
    return replace(s, phase="battle", battle=b, battles=s.battles + 1)


def commit(s: State, e: DefenceCommitted) -> State:
    assert s.battle is not None
    s, cid = laid(s, e.player, e.card)
    b = replace(s.battle, defender_cards=(cid,))
    b = replace(b, strikes=(new_strike(s, b, b.attacker, b.defender),))
    return run_chain(s, b)


def reinforce(s: State, e: Reinforced) -> State:
    b = s.battle
    assert b is not None
    p = player(s, e.player)
    s, cid = laid(s, e.player, e.card)
    st = b.strikes[-1]
    extra = defence_of(s, p, cid, st.weapon)
    held = st.defence + extra >= st.value
    st = replace(st, reinforcement=cid, reinforcement_defence=extra, result="reinforced" if held else "broken")
    if e.player == b.attacker:
        b = replace(b, attacker_cards=b.attacker_cards + (cid,))
    else:
        b = replace(b, defender_cards=b.defender_cards + (cid,))
    return run_chain(s, _with_strike(b, st))


def give_up(s: State, e: Yielded) -> State:
    b = s.battle
    assert b is not None
    return run_chain(s, _with_strike(b, replace(b.strikes[-1], result="yielded")))


def conclude(s: State, b: Battle, result: str) -> State:
    """The battle's result: cards, charisma, nation cards and who acts next ('O que acontece depois...')."""
    b = replace(b, result=result)
    s = replace(s, battle=b, refill=(b.attacker, b.defender))
    att, dfn = player(s, b.attacker), player(s, b.defender)
    if result == "tie":
        s = with_player(s, replace(att, discard=att.discard + b.attacker_cards))
        s = with_player(s, replace(dfn, discard=dfn.discard + b.defender_cards))
        s = _charisma_to(s, b.defender)
        s = flow.reset_nation_cards(flow.set_active(s, b.attacker, False))
        return flow.settle(replace(s, phase="refill", next_actor=index(s, b.defender)))
    winner, loser = (b.attacker, b.defender) if result == "attacker" else (b.defender, b.attacker)
    won_cards, lost_cards = (
        (b.attacker_cards, b.defender_cards) if result == "attacker" else (b.defender_cards, b.attacker_cards)
    )
    w, lo = player(s, winner), player(s, loser)
    to_discard, captured, secured, box = list(won_cards), [], [], list(s.box)
    for c in lost_cards:
        if flees(s, lo, c):
            (to_discard if effects(s, w).captures_flee else box).append(c)
        elif card(s, c).secured:
            secured.append(c)
        else:
            captured.append(c)
    s = with_player(s, replace(w, discard=w.discard + tuple(to_discard)))
    s = with_player(s, replace(lo, secured=lo.secured + tuple(secured)))
    s = replace(s, box=tuple(box))
    taken = [c for c in to_discard if c not in won_cards] + captured
    s = _leaders_captured(s, winner, taken)
    if result == "defender":
        s = _charisma_to(s, b.defender)
    s = flow.reset_nation_cards(flow.set_active(s, loser, False))
    s = replace(
        s,
        phase="place",
        next_actor=index(s, winner),
        aftermath=Aftermath(winner=winner, loser=loser, captured=tuple(captured)),
    )
    return flow.settle(s)


def _charisma_to(s: State, name: str) -> State:
    if s.supply <= 0:
        return s
    p = player(s, name)
    return replace(with_player(s, replace(p, charisma=p.charisma + 1)), supply=s.supply - 1)


def _leaders_captured(s: State, winner: str, taken: list[str]) -> State:
    """A captured leader flips its city card for good ('Líderes Capturados'); Egypt then loses its Flee cards."""
    for c in taken:
        nation = card(s, c).nation
        if not card(s, c).leader:
            continue
        for p in s.players:
            if p.nation != nation or p.name == winner or p.leader_captured:
                continue
            p = replace(p, leader_captured=True)
            if effects(s, p).loses_flee:
                gone = [x for x in p.hand + p.deck + p.discard if card(s, x).flee]
                p = replace(p, hand=without(p.hand, gone), deck=without(p.deck, gone), discard=without(p.discard, gone))
                s = replace(s, box=s.box + tuple(gone))
            s = with_player(s, p)
    return s


def place(s: State, e: CapturesPlaced) -> State:
    assert s.aftermath is not None
    w = player(s, e.player)
    under = take(s, s.aftermath.captured, e.under_city) or e.under_city
    rest = without(s.aftermath.captured, under)
    s = with_player(s, replace(w, under=w.under + under, discard=w.discard + rest))
    return flow.settle(replace(s, phase="discard", aftermath=replace(s.aftermath, captured=())))


def discard_hand(s: State, e: HandDiscarded) -> State:
    p = player(s, e.player)
    cards = take(s, p.hand, e.cards) or e.cards
    s = with_player(s, replace(p, hand=without(p.hand, cards), discard=p.discard + cards))
    return flow.settle(replace(s, phase="refill"))


# ---------------------------------------------------------------------------------------------------------------
# Validation and legal decisions of the battle and its aftermath


def struck_side(s: State) -> str:
    assert s.battle is not None
    return s.battle.defender if not s.battle.defender_cards else s.battle.strikes[-1].struck


_RESULTS = {"tie": "a tie", "attacker": "the attacker won", "defender": "the defender won"}


def validate(s: State, e: DefenceCommitted | Reinforced | Yielded) -> str | None:
    b = s.battle
    if b is not None and b.result and s.phase != "battle":
        if isinstance(e, Reinforced) and b.result == "tie":
            return (
                f"Reinforcement ({BATTLE}): battle {b.number} ended in a tie: the attacker's first card repelled the"
                ' counter-strike, and then "não é permitido ao atacante jogar uma carta de reforço"'
            )
        return f"Battle ({BATTLE}): battle {b.number} is over ({_RESULTS[b.result]}); no battle is being fought now"
    if s.phase != "battle" or b is None:
        return f"Battle ({BATTLE}): no battle is being fought now"
    if isinstance(e, DefenceCommitted):
        if b.defender_cards:
            return f"Battle ({BATTLE}): the defender's card is already laid; the strikes are being answered"
        if e.player != b.defender:
            return f"Battle ({BATTLE}): {b.defender}, the defender, lays the defending card, not {e.player}"
        if take(s, player(s, e.player).hand, (e.card,)) is None:
            return f"Battle ({BATTLE}): {card_name(s, e.card)} is not in {e.player}'s hand"
        return None
    if not b.defender_cards:
        return f"Battle ({BATTLE}): {b.defender} must first lay a defending card face down"
    st = b.strikes[-1]
    if e.player != st.struck:
        last = [x for x in b.strikes if x.struck == e.player]
        if isinstance(e, Reinforced) and last and last[-1].result == "repelled":
            prev = last[-1]
            return (
                f"Reinforcement ({BATTLE}, 'Nota'): your last card's {DEFENCE_OF[prev.weapon]} {prev.defence} "
                f"already repelled {prev.weapon} {prev.value}; a reinforcement may only be added when the last card "
                "played is not enough"
            )
        return f"Battle ({BATTLE}): {st.struck} is struck now and answers, not {e.player}"
    if isinstance(e, Reinforced):
        if take(s, player(s, e.player).hand, (e.card,)) is None:
            return f"Reinforcement ({BATTLE}): {card_name(s, e.card)} is not in {e.player}'s hand"
    return None


def legal(s: State) -> list[DefenceCommitted | Reinforced | Yielded]:
    b = s.battle
    assert b is not None
    if not b.defender_cards:
        return [DefenceCommitted(player=b.defender, card=c) for c in distinct(s, player(s, b.defender).hand)]
    st = b.strikes[-1]
    p = player(s, st.struck)
    out: list[DefenceCommitted | Reinforced | Yielded] = [
        Reinforced(player=p.name, card=c)
        for c in distinct(s, p.hand)
        if st.defence + defence_of(s, p, c, st.weapon) >= st.value
    ]
    return [*out, Yielded(player=p.name)]


def validate_after(s: State, e: CapturesPlaced | HandDiscarded) -> str | None:
    a = s.aftermath
    if isinstance(e, CapturesPlaced):
        if s.phase != "place" or a is None:
            return f"Captures ({AFTER}): no captured cards are waiting to be placed"
        if e.player != a.winner:
            return f"Captures ({AFTER}): {a.winner} won the battle and places the captured cards, not {e.player}"
        if len(set(e.under_city)) != len(e.under_city) and take(s, a.captured, e.under_city) is None:
            return f"Captures ({AFTER}): a card is named twice"
        for c in e.under_city:
            if take(s, a.captured, (c,)) is None:
                return f"Captures ({AFTER}): {card_name(s, c)} is not among the cards captured in this battle"
            if card(s, c).charisma <= 0:
                name = card(s, c).name
                return f"Captures ({AFTER}): {name} has no charisma value, so it can only go to the discard pile"
        if take(s, a.captured, e.under_city) is None:
            return f"Captures ({AFTER}): more copies are named than were captured in this battle"
        return None
    if s.phase != "discard" or a is None:
        return f"Discard ({AFTER}): only the loser of a battle may discard hand cards, right after it"
    if e.player != a.loser:
        return f"Discard ({AFTER}): {a.loser} lost the battle and may discard, not {e.player}"
    hand = player(s, e.player).hand
    if take(s, hand, e.cards) is None:
        return f"Discard ({AFTER}): every discarded card must be a different card of {e.player}'s hand"
    return None


def legal_after(s: State) -> list[CapturesPlaced | HandDiscarded]:
    a = s.aftermath
    assert a is not None
    if s.phase == "place":
        eligible = tuple(kind(c) for c in a.captured if card(s, c).charisma > 0)
        options = [(), eligible, *((c,) for c in eligible)]
        unique = list(dict.fromkeys(options))
        return [CapturesPlaced(player=a.winner, under_city=u) for u in unique]
    hand = player(s, a.loser).hand
    options = [(), tuple(kind(c) for c in hand), *((c,) for c in distinct(s, hand))]
    return [HandDiscarded(player=a.loser, cards=c) for c in dict.fromkeys(options)]

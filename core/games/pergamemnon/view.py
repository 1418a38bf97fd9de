"""What a player sees, one English sentence per event, and the battle-chain projection.

Follows ../shared/rules/pergamemnon-rulebook.pt.txt: hands are held "sem as mostrar aos adversários", decks are
face down, the attacker's card is laid face down until the defender's card is laid ('A Batalha'); discard piles,
creatures, the cards under the cities and the nation cards are open.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.core.engine import HIDDEN, PUBLIC, Over, Step
from agon.core.games.pergamemnon import rules, scoring
from agon.core.games.pergamemnon.cards import DEFENCE_OF
from agon.core.games.pergamemnon.state import (
    Battle,
    State,
    Strike,
    card,
    defence_of,
    kind,
    player,
    take,
    uses_nation_cards,
)
from agon.core.words import counted
from agon.events.base import Event, GameCreated
from agon.events.pergamemnon import (
    Attacked,
    CapturesPlaced,
    CardsDrawn,
    CreatureRecruited,
    CreaturesRevealed,
    DefenceCommitted,
    HandDiscarded,
    NationsDealt,
    Reinforced,
    StarterDrawn,
    Yielded,
)


def _card_view(s: State, cid: str, viewer: str | None = None) -> dict[str, Any]:
    """A card as ``viewer`` sees it: a seat (or ``PUBLIC``) reads a card of copies alike by its kind, not its copy's
    number, which nobody at a table can see (RULES.md, 'Copies alike'); ``None`` (everything) reads the copy."""
    c = card(s, cid)
    out: dict[str, Any] = {
        "id": c.id if viewer is None else kind(c.id),
        "name": c.name,
        "weapon": c.weapon,
        "attack": c.attack,
        "helmet": c.helmet,
        "armour": c.armour,
        "shield": c.shield,
        "charisma": c.charisma,
        "points": c.points,
    }
    if c.creature:
        out["cost"] = c.cost
    for flag in ("leader", "flee", "secured"):
        if getattr(c, flag):
            out[flag] = True
    return out


def _named(s: State, cids: tuple[str, ...], viewer: str | None = None) -> list[dict[str, str]]:
    """Open cards as a person reads them: each card's name beside its id (its kind, to a seat: ``_card_view``)."""
    return [{"id": c if viewer is None else kind(c), "name": card(s, c).name} for c in cids]


def _battle_view(s: State, b: Battle, viewer: str | None) -> dict[str, Any]:
    hidden = not b.defender_cards and viewer not in (None, b.attacker)
    return {
        "number": b.number,
        "attacker": b.attacker,
        "defender": b.defender,
        "weapon": b.weapon,
        "attacker_cards": ["face down"] if hidden else [_card_view(s, c, viewer) for c in b.attacker_cards],
        "defender_cards": [_card_view(s, c, viewer) for c in b.defender_cards],
        "strikes": [
            {
                "striker": st.striker,
                "struck": st.struck,
                "card": _name(s, st.card),
                "weapon": st.weapon,
                "value": st.value,
                "defence_card": _name(s, st.defence_card),
                "defence": st.defence,
                "reinforcement": _name(s, st.reinforcement) if st.reinforcement else None,
                "reinforcement_defence": st.reinforcement_defence,
                "result": st.result or "awaiting answer",
            }
            for st in b.strikes
        ],
        "result": b.result or None,
    }


def view(s: State, viewer: str | None) -> dict[str, Any]:
    scores = scoring.scores(s)
    p_next = rules.pending(s)
    players = []
    for p in s.players:
        sees = viewer is None or viewer == p.name
        nation = s.table.nations.get(p.nation)
        players.append(
            {
                "name": p.name,
                "nation": nation.name if nation else None,
                "city": nation.city if nation else None,
                # No nation cards with 2 players (RULES.md, 'Turns and nation cards'): nothing to report.
                "nation_card": ("active" if p.active else "inactive") if uses_nation_cards(s) else None,
                "leader_captured": p.leader_captured,
                # what the viewer may not see reads "hidden" (core.engine HIDDEN), not None: shown as "-" beside
                # its count, an empty hand would be read
                "hand": [_card_view(s, c, viewer) for c in p.hand] if sees else HIDDEN,
                "hand_count": len(p.hand),
                "deck_count": len(p.deck),
                "deck": _named(s, tuple(sorted(p.deck))) if viewer is None else HIDDEN,
                "discard": _named(s, p.discard, viewer),
                "charisma_cards": p.charisma,
                "under_city": _named(s, p.under, viewer),
                "secured": _named(s, p.secured, viewer),
                "score": scores[p.name],
            }
        )
    return {
        "phase": "over" if isinstance(p_next, Over) else s.phase,  # not the step it ended in (a discard not asked)
        "turn": s.turn,
        "to_act": getattr(p_next, "player", None),
        "next": getattr(p_next, "prompt", None) or getattr(p_next, "label", None),
        "creatures": [_card_view(s, c, viewer) for c in s.creatures],
        "creature_deck": s.creature_deck,
        "charisma_supply": s.supply,
        "players": players,
        "battle": _battle_view(s, s.battle, viewer) if s.battle is not None else None,
        "captured": _named(s, s.aftermath.captured, viewer) if s.aftermath is not None else [],
        "out_of_game": _named(s, s.box, viewer),
        "outcome": p_next.outcome.summary if isinstance(p_next, Over) else None,
    }


# ---------------------------------------------------------------------------------------------------------------
# Narration


def _name(s: State, cid: str) -> str:
    return card(s, cid).name


def describe_strike(s: State, st: Strike) -> str:
    guard = DEFENCE_OF[st.weapon]
    text = (
        f"{st.striker}'s {_name(s, st.card)} strikes with {st.weapon} {st.value} against {st.struck}'s "
        f"{_name(s, st.defence_card)} ({guard} {st.defence}"
    )
    if st.reinforcement:
        text += (
            f", reinforced by the {_name(s, st.reinforcement)}: {st.defence} + {st.reinforcement_defence} = {st.total}"
        )
    text += ")"
    outcome = {
        "repelled": "repelled",
        "reinforced": "repelled with the reinforcement",
        "broken": "not repelled",
        "yielded": f"{st.struck} yields",
        "": f"{st.struck} must reinforce or yield",
    }[st.result]
    return f"{text}, {outcome}"


def _chain(before: State, after: State) -> str:
    b = after.battle
    assert b is not None
    known = before.battle.strikes if before.battle is not None and before.battle.number == b.number else ()
    start = len(known) - 1 if known and not known[-1].result else len(known)
    parts = [describe_strike(after, st) for st in b.strikes[start:]]
    text = "; ".join(parts)
    if b.result == "tie":
        text += ": the battle ends in a tie"
    elif b.result:
        text += f": {b.attacker if b.result == 'attacker' else b.defender} wins the battle"
    return text


def option_text(s: State, e: Event) -> str:
    """An option as the acting player reads it before choosing: their own cards by name, and nothing that the
    decision would reveal (laying a defence turns the attacker's face-down card over: the option does not say
    what it is)."""
    if isinstance(e, DefenceCommitted):
        b = s.battle
        assert b is not None
        value = defence_of(s, player(s, e.player), e.card, b.weapon)
        return (
            f"{e.player} lays the {_name(s, e.card)} ({DEFENCE_OF[b.weapon]} {value}) against {b.attacker}'s"
            f" face-down card ({b.weapon}); both cards are then revealed."
        )
    return narrate(s, e, e.player if hasattr(e, "player") else PUBLIC)


def secrets(s: State, e: Event) -> list[tuple[tuple[str, ...], str]]:
    """The parts of an event only one player sees: the cards a player draws into the hand ('Preparação': held
    "sem as mostrar aos adversários") and the attacker's card laid face down ('A Batalha')."""
    if isinstance(e, CardsDrawn):
        return [(("cards",), e.player)]
    if isinstance(e, Attacked):
        return [(("card",), e.player)]
    return []


def shows(s: State, e: Event) -> bool:
    """Whether decision ``e`` shows the other players something hidden that no view names: an attack's weapon.
    'A Batalha': "o atacante indica claramente qual a arma (espada, lança ou arco) que ele deseja usar no ataque e
    coloca uma das suas 3 cartas de mão, de face para baixo", and only a card with that weapon may be laid: the
    declaration tells the defender, who then chooses a defence by it, what a card of the attacker's hand is. The
    rulebook has no taking back of a declared attack. The views tell the weapon as a word, not among the names the
    undo policy (core/seats.py) reads, so it asks this: the attacker may not take an attack back, the host may
    (RULES.md, 'Who is told what'). A card laid in defence or reinforcement, a recruit and a discard are named in
    the views, by their ids; but a card of copies alike is named there by its kind (``greece.bowman``), which the
    full view, naming copies, never shows, so the undo policy could not see it revealed: this says so."""
    if isinstance(e, Attacked):
        return True
    moved: tuple[str, ...] = ()
    if isinstance(e, DefenceCommitted) and s.battle is not None:
        moved = (e.card, *s.battle.attacker_cards)
    elif isinstance(e, Reinforced):
        moved = (e.card,)
    elif isinstance(e, HandDiscarded):
        moved = e.cards
    elif isinstance(e, CreatureRecruited):
        moved = player(s, e.player).hand
    return any(kind(c) != c or c not in s.table.cards for c in moved)


def narrate(s: State, e: Event, viewer: str | None = PUBLIC) -> str:
    """``e`` told as ``viewer`` may read it (``PUBLIC``: every player; ``None``: everything)."""
    match e:
        case GameCreated():
            return f"A game of Pergamemnon begins for {', '.join(e.names)}."
        case NationsDealt(nations=nations):
            deal = ", ".join(f"{p.name} leads the {s.table.nations[n].name}" for p, n in zip(s.players, nations))
            return f"The nation cards are dealt: {deal}."
        case CreaturesRevealed(cards=cards):
            return f"Creatures are revealed: {', '.join(_name(s, c) for c in cards)}."
        case CardsDrawn(player=who, cards=cards, reshuffled=reshuffled):
            shuffled = " shuffles the discard pile into a new deck and" if reshuffled else ""
            if viewer is None or viewer == who:
                return f"{who}{shuffled} draws {', '.join(_name(s, c) for c in cards) or 'nothing'}."
            return f"{who}{shuffled} draws {counted(len(cards), 'card')}."
        case StarterDrawn(player=who):
            return f"Lots are drawn among {', '.join(s.tied)}, the most charismatic: {who} starts."
        case CreatureRecruited():
            paid = [counted(e.charisma_cards, "charisma card")] if e.charisma_cards else []
            paid += [f"the captured {_name(s, c)}" for c in e.captured]
            return (
                f"{e.player} recruits the {_name(s, e.creature)} (cost {card(s, e.creature).cost}) with the "
                f"{_name(s, e.hand_card)} (charisma {card(s, e.hand_card).charisma}) and {' and '.join(paid)}."
            )
        case Attacked():
            # The card stays face down until the defender's card is laid; only the attacker knows it.
            if viewer is None or viewer == e.player:
                c = card(s, e.card)
                return (
                    f"{e.player} attacks {e.defender}, declaring a {e.weapon}, and lays the {c.name} "
                    f"({e.weapon} {c.attack}) face down."
                )
            return f"{e.player} attacks {e.defender}, declaring a {e.weapon}, and lays a card face down."
        case DefenceCommitted() | Reinforced() | Yielded():
            after = rules.apply(s, e)
            if isinstance(e, DefenceCommitted):
                lead = f"{e.player} lays the {_name(s, e.card)} and both cards are revealed: "
            elif isinstance(e, Reinforced):
                lead = f"{e.player} reinforces with the {_name(s, e.card)}: "
            else:
                lead = f"{e.player} does not reinforce: "
            return lead + _chain(s, after) + "."
        case CapturesPlaced(player=who, under_city=under):
            assert s.aftermath is not None
            rest = list(s.aftermath.captured)
            for c in take(s, s.aftermath.captured, under) or ():
                rest.remove(c)
            parts = []
            if under:
                parts.append(f"puts {', '.join(_name(s, c) for c in under)} under the city")
            if rest:
                parts.append(f"adds {', '.join(_name(s, c) for c in rest)} to the discard pile")
            return f"{who} {' and '.join(parts) or 'places nothing'}."
        case HandDiscarded(player=who, cards=cards):
            if not cards:
                return f"{who} keeps the hand."
            return f"{who} discards {', '.join(_name(s, c) for c in cards)}."
    return f"{type(e).__name__}."


# ---------------------------------------------------------------------------------------------------------------
# Projection: every battle as its sequence of strikes and repels


def battles(line: Sequence[Step]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for step in line:
        b = step.after.battle if step.after is not None else None
        if b is None or not b.result:
            continue
        before = step.before.battle if step.before is not None else None
        if before is not None and before.number == b.number and before.result:
            continue
        s = step.after
        for n, st in enumerate(b.strikes, start=1):
            rows.append(
                {
                    "battle": b.number,
                    "index": step.index,
                    "attacker": b.attacker,
                    "defender": b.defender,
                    "strike": n,
                    "striker": st.striker,
                    "struck": st.struck,
                    "card": _name(s, st.card),
                    "weapon": st.weapon,
                    "value": st.value,
                    "defence_card": _name(s, st.defence_card),
                    "defence_kind": DEFENCE_OF[st.weapon],
                    "defence": st.defence,
                    "reinforcement": _name(s, st.reinforcement) if st.reinforcement else None,
                    "reinforcement_defence": st.reinforcement_defence,
                    "total": st.total,
                    "result": st.result,
                    "battle_result": b.result,
                }
            )
    return rows

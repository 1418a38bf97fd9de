"""What a player sees, what is said, what is plotted (rulebook 4 'Moral', 5 'Como jogar', 6 'Ganhando ou perdendo').

The solo game has no points: ``scores`` is the voyage's progress in percent (columns sailed out of the columns
from the start to the final destination, 100 on a win), the same for both co-operating players. The ``voyage``
projection gives, after every event, morale, the distance still to sail and the icons in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.core.engine import PUBLIC, Step
from agon.core.games.adamastor import flow
from agon.core.games.adamastor.board import step_cost
from agon.core.games.adamastor.state import State, card_name, card_names, icons, map_name, skill_name, sort_strip
from agon.core.words import counted
from agon.events.adamastor import (
    ActionsEnded,
    BonusCardsDrawn,
    BonusCardsShared,
    CaptainChosen,
    CardsDrawn,
    CardSwapped,
    DrawChosen,
    DrawnCardKept,
    FleetMoved,
    FleetPlaced,
    HandTrimmed,
    IconIgnored,
    LandCardKept,
    LandCardsDrawn,
    MapCardRevealed,
    MoraleLost,
    PlayerCardsDealt,
    SailEnded,
    SailStarted,
    SkillDeclined,
    SkillLearned,
    StripRefilled,
    SunriseCardDrawn,
)
from agon.events.base import Event, GameCreated


def goal_col(s: State) -> float:
    """The column of the final destination's sea spaces (estimated from the card set while it is face down)."""
    last = s.maps[-1]
    if last:
        return min(sp.col for sp in s.board.spaces if sp.destination)
    widths = [s.cards.maps[m].width for m in s.maps if m]
    regular = [m.width for m in s.cards.maps.values() if m.kind == "regular"] or [4]
    final = [m.width for m in s.cards.maps.values() if m.kind == "final"] or [3]
    hidden_regular = len(s.maps) - 1 - len(widths)
    return sum(widths) + hidden_regular * sum(regular) / len(regular) + sum(final) / len(final)


def distance(s: State) -> float:
    if s.result == "won":
        return 0.0
    if not s.fleet:
        return goal_col(s) - (s.board.offsets[0] if s.board.offsets else 0)
    return max(0.0, goal_col(s) - s.board[s.fleet].col)


SCORE_UNIT = "% of the voyage sailed"
SHARED_SCORE = "crew"
"""Who holds the one score where several play: the crew wins or loses the voyage together (rulebook 9.3), so every
face tells a crew's score once, as the crew's."""
"""What a score is (the ruleset's ``score_unit`` and ``Outcome.score_unit``), solo or co-op: the game has no points
(rulebook 6 'Ganhando ou perdendo o jogo' names only a win or a loss, and 9.3 keeps 'as condições de vitória e de
derrota' for 2 players, who share everything but their hands), so its score is the voyage's progress in percent
(RULES.md, 'Scores and projections'), the crew's one number, which the number alone does not say; the view's
``progress`` says it so too ("66.7% of the voyage sailed")."""


def progress(s: State) -> float:
    if s.result == "won":
        return 100.0
    if not s.fleet:
        return 0.0
    total = goal_col(s) - s.start_col
    return round(100.0 * (s.board[s.fleet].col - s.start_col) / total, 1) if total > 0 else 0.0


def scores(s: State) -> dict[str, float]:
    p = progress(s)
    return dict.fromkeys(s.players, p)


def describe(s: State, cid: str) -> dict[str, Any]:
    """A player card as a person reads it (one table row): its id (what is typed), its title and number as every
    text and list names it ("Calafate (9)": one name wherever the card is, so a card moving from a hand to the
    discard is the same card to whoever reads both, core/seats.py ``revealed``), icons, navigation, land bonus,
    trauma or skill."""
    c = s.card(cid)
    return {
        "card": cid,
        "title": card_name(s, cid),
        "weather": c.weather,
        "threats": " ".join(f"{k} {n}" for k, n in c.threats) or "-",
        "motivation": c.motivation,
        "navigation": c.navigation,
        "land bonus": f"{c.bonus_kind} {c.bonus}",
        "back": f"trauma {c.trauma}" if c.trauma else f"skill {skill_name(c.skill, does=False)} (cost {c.skill_cost})",
    }


def _space(sp: Any) -> dict[str, Any]:
    return {
        "space": sp.id,
        "label": sp.label,
        "type": sp.type + (f" to {sp.current}" if sp.current else ""),
        "black clouds": sp.clouds,
        "island": sp.island,
        "destination": sp.destination,
        "edge": "next card face down" if sp.edge_of >= 0 else "",
        "links": " ".join(sp.links),
    }


def view(s: State, player: str | None) -> dict[str, Any]:
    hands: dict[str, Any] = {}
    for name, hand in zip(s.players, s.hands, strict=False):
        seen = player is None or player == name
        hands[name] = [describe(s, c) for c in hand] if seen else {"count": len(hand)}
    out: dict[str, Any] = {
        "round": s.round,
        "phase": s.phase,
        "result": s.result,
        "captain": s.captain_name,
        # who decides now, as the game's pending decision says (the captain places the fleet and ignores an icon,
        # each learns a skill in turn, a full hand is trimmed), not only whose co-op action turn it is; nobody once
        # the voyage has ended
        "to_act": None if s.result else flow.decider(s),
        "fleet": s.fleet,
        "distance": distance(s),
        "progress": f"{progress(s):g}{SCORE_UNIT}",  # as every score of the voyage is told: no bare 66.7
        "morale": s.morale,
        "weather": {"name": s.weather, "black_clouds": s.black, "suns": s.suns, "extra_cost": s.extra_cost},
        "cubes": s.cubes,
        "sail_points": s.sail_points,
        "strip": [describe(s, c) for c in s.strip],
        "hands": hands,
        "icons": icons(s),
        "traumas": [f"{card_name(s, c)}: {s.card(c).trauma}" for c in s.traumas],
        "skills": [f"{card_name(s, c)}: {skill_name(s.card(c).skill)}" for c in s.skills],
        "drawn": [describe(s, c) for c in s.drawn],
        "shown": [describe(s, s.shown)] if s.shown else [],
        "deck": _named(s, s.deck) if player is None else {"count": len(s.deck)},
        "deck_bottom_known": _named(s, s.bottom),
        "discard": _named(s, s.discard),
        "removed": _named(s, s.removed),
        "maps": [map_name(s, m) if m else "face down" for m in s.maps],
        "board": [_space(sp) for sp in s.board.spaces],
    }
    return out


def _named(s: State, cs: Sequence[str]) -> list[str]:
    return [card_name(s, c) for c in cs]


def secrets(s: State, e: Event) -> list[tuple[tuple[str | int, ...], str]]:
    """With 2 players everything is shared but each player's hand (rulebook 9.3): the hands dealt, and the card the
    draw action puts straight into the acting player's hand. Cards drawn to choose from lie open."""
    if len(s.players) < 2:
        return []
    if isinstance(e, PlayerCardsDealt):
        return [(("hands", i), p) for i, p in enumerate(s.players[: len(e.hands)])]
    if isinstance(e, CardsDrawn) and len(e.cards) == 1:
        return [(("cards",), s.acting)]
    return []


def shows(s: State, e: Event) -> bool:
    """Whether decision ``e`` shows the partner a card of its player's hand that no view names as that card: a skill
    is learned from the hand ('Aprende habilidade', rulebook 7: "podes ganhar 1 carta da tua mão que tenha uma
    habilidade. Coloca a habilidade ganha na tua zona de habilidades") into what both players share (9.3: "tudo é
    partilhado ... (o baralho, os traumas e as habilidades ganhas) excepto as cartas na mão"), and the view lists it
    as 'Title (n): skill', not by the name the hand row had. The undo policy asks this (core/seats.py)."""
    return isinstance(e, SkillLearned) and len(s.players) > 1


def _sees(s: State, viewer: str | None, player: str) -> bool:
    return viewer is None or viewer == player or len(s.players) < 2


def _main(s: State, e: Event, viewer: str | None = PUBLIC) -> str:
    who = s.acting
    match e:
        case GameCreated():
            difficulty, historical, _ = flow.option_flags(dict(e.options))
            # the historical map is its 3 cards whatever the difficulty (rulebook 9.1): none is named for it
            what = "the historical voyage" if historical else f"a voyage ({difficulty})"
            sets = "sets" if len(e.names) == 1 else "set"  # the present, as every sentence of the log
            return f"{' and '.join(e.names)} {sets} out on {what}"
        case CaptainChosen(player=p):
            return f"{p} takes the captain token"
        case MapCardRevealed(position=pos, card=c):
            return f"the {map_name(s, c)} is turned over at position {pos + 1}"
        case FleetPlaced(space=sp):
            return f"{s.captain_name} places the fleet on {sp}"
        case PlayerCardsDealt(strip=strip, hands=hands, shown=shown):
            extra = f"; {card_name(s, shown)} is shown beside the deck" if shown else ""
            dealt = "; ".join(
                f"{p} holds {card_names(s, h)}" if _sees(s, viewer, p) else f"{p} is dealt {counted(len(h), 'card')}"
                for p, h in zip(s.players, hands, strict=False)
            )
            return f"the adventure strip is {card_names(s, sort_strip(s, strip))}; {dealt}{extra}"
        case SunriseCardDrawn(card=c):
            joined = s.shown if s.less_luck else c
            extra = f" and {card_name(s, c)} is shown beside the deck" if s.less_luck else ""
            return f"{card_name(s, joined)} joins the adventure strip{extra}"
        case DrawChosen():
            return f"{who} takes the draw action"
        case CardsDrawn(cards=cs):
            if len(cs) == 1 and not _sees(s, viewer, who):
                return f"{who} draws a card into the hand"
            return f"{who} draws {card_names(s, cs)}"
        case DrawnCardKept(card=c):
            return f"{who} keeps {card_name(s, c)} and puts the other card under the deck"
        case CardSwapped(hand_card=h, strip_card=st):
            return f"{who} swaps {card_name(s, h)} from hand with {card_name(s, st)} from the strip"
        case SailStarted(cards=cs):
            pts = sum(s.card(c).navigation for c in cs) + s.skill_count("navigation_plus_one")
            return f"{who} sets sail, discarding {card_names(s, cs)} for {counted(pts, 'navigation point')}"
        case FleetMoved(to=to):
            cost = step_cost(s.cards, s.board, s.fleet, to, s.extra_cost)
            # a decision's sentence begins with who decided, as every ruleset's does: the log read a name then a
            # capital ('Ana: The fleet sails ...', cli/render.said), where other rulesets read 'Ana bids ...'
            left = s.sail_points - cost
            return f"{who} sails the fleet from {s.fleet} to {to} for {counted(cost, 'point')} ({left} left)"
        case SailEnded():
            return f"{who} ends the sail at {s.fleet}"
        case LandCardsDrawn(cards=cs):
            return f"the land discovery draws {card_names(s, cs)}"
        case LandCardKept(card=c, player=p, bonus=b):
            card = s.card(c)
            kept = f"keeps {card_name(s, c)}" if p == who else f"gives {card_name(s, c)} to {p}"
            return f"{who} {kept} and takes {b} of its {card.bonus} {card.bonus_kind} bonus"
        case BonusCardsDrawn(cards=cs):
            return f"the land bonus draws {card_names(s, cs)}"
        case BonusCardsShared(players=ps):
            shares = (f"{card_name(s, c)} to {p}" for c, p in zip(s.drawn, ps, strict=False))
            return f"{who} shares the bonus cards: " + ", ".join(shares)
        case ActionsEnded():
            return f"{who} ends the action phase with {counted(s.cubes, 'cube')} unused"
        case IconIgnored(card=c, icon=icon):
            return f"{s.captain_name} ignores a {icon} icon on {card_name(s, c)}"
        case SkillLearned(card=c):
            return f"{s.players[flow.learner(s)]} learns the skill {skill_name(s.card(c).skill)} from {card_name(s, c)}"
        case SkillDeclined():
            return f"{s.players[flow.learner(s)]} learns no skill this round"
        case StripRefilled(card=c):
            return f"{card_name(s, c)} joins the adventure strip after the revolt"
        case MoraleLost(cards=cs):
            where = "removed from the game" if s.loss_removes else "discarded"
            return f"the crew loses {len(cs)} morale: {card_names(s, cs)} {'is' if len(cs) == 1 else 'are'} {where}"
        case HandTrimmed(player=p, cards=cs):
            return f"{p} discards {card_names(s, cs)} to keep 3 cards"
    return type(e).__name__


def narrate(s: State, e: Event, viewer: str | None = PUBLIC) -> str:
    """``e`` told as ``viewer`` may read it (``PUBLIC``: both players; ``None``: everything)."""
    if isinstance(e, GameCreated):
        text = _main(s, e)
        return text[0].upper() + text[1:] + "."
    after = flow.apply(s, e)  # type: ignore[arg-type]
    text = _main(s, e, viewer)
    if after.notes:
        text += "; " + "; ".join(after.notes)
    if after.result and not s.result:
        text += "; " + ("the voyage is won" if after.result == "won" else "the voyage is lost")
    return text[0].upper() + text[1:] + "."


def voyage(line: Sequence[Step]) -> list[dict[str, Any]]:
    """After every event: morale, distance still to sail, threat and motivation icons in play, weather."""
    rows = []
    for st in line:
        s = st.after
        ic = icons(s)
        rows.append(
            {
                "index": st.index,
                "event": type(st.event).__struct_config__.tag,
                "round": s.round,
                "phase": s.phase,
                "morale": s.morale,
                "distance": distance(s),
                "progress": progress(s),
                "revolt": ic["revolt"],
                "disease": ic["disease"],
                "fatigue": ic["fatigue"],
                "threats": ic["revolt"] + ic["disease"] + ic["fatigue"],
                "motivation": ic["motivation"],
                "traumas": len(s.traumas),
                "skills": len(s.skills),
                "weather": s.weather,
                "result": s.result,
            }
        )
    return rows


def sails(line: Sequence[Step]) -> list[dict[str, Any]]:
    """Every move of the fleet with its cost and the weather's surcharge."""
    rows = []
    for st in line:
        if isinstance(st.event, FleetMoved) and st.before is not None:
            b = st.before
            rows.append(
                {
                    "index": st.index,
                    "round": b.round,
                    "from": b.fleet,
                    "to": st.event.to,
                    "cost": step_cost(b.cards, b.board, b.fleet, st.event.to, b.extra_cost),
                    "extra": b.extra_cost,
                    "points_left": st.after.sail_points,
                }
            )
    return rows

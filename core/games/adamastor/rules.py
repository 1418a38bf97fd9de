"""What must happen next in Adamastor, what is legal, and why an event is refused (rulebook 3 'Preparação',
5.2 'Fase acção', 5.3 'Eventos', 5.4 'Pôr-do-sol', 7 'Referência eventos', 9.3 'Jogo para 2 jogadores').
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, product

from agon.core.engine import Chance, Decision, Outcome, Over, Pending
from agon.core.games.adamastor import flow
from agon.core.games.adamastor.board import step_cost
from agon.core.games.adamastor.state import (
    State,
    card_name,
    card_names,
    draw_split,
    drawn_ok,
    icons,
    printed_names,
    skill_cost,
)
from agon.core.games.adamastor.view import SCORE_UNIT  # what a score is: words, beside the view that shows it
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
from agon.events.base import Event

CHANCE_EVENTS = (
    CaptainChosen,
    MapCardRevealed,
    PlayerCardsDealt,
    SunriseCardDrawn,
    CardsDrawn,
    LandCardsDrawn,
    BonusCardsDrawn,
    StripRefilled,
    MoraleLost,
)
CHANCE_PHASE = {
    CaptainChosen: "captain",
    MapCardRevealed: "reveal",
    PlayerCardsDealt: "deal",
    SunriseCardDrawn: "sunrise",
    CardsDrawn: "draw",
    LandCardsDrawn: "land_draw",
    BonusCardsDrawn: "bonus_draw",
    StripRefilled: "refill",
    MoraleLost: "morale_loss",
}


# --- what happens next -------------------------------------------------------------------------------------------


def outcome(s: State) -> Outcome:
    from agon.core.games.adamastor.view import scores

    names = " and ".join(s.players)
    solo = len(s.players) == 1
    if s.result == "won":
        verb = "reaches" if solo else "reach"
        return Outcome(s.players, scores(s), f"{names} {verb} the final destination in round {s.round}",
                       score_unit=SCORE_UNIT)
    why = "a tumult breaks out on board" if s.result == "lost_tumult" else "the crew's morale falls to 0"
    return Outcome((), scores(s), f"{names} {'loses' if solo else 'lose'} in round {s.round}: {why}",
                   score_unit=SCORE_UNIT)


def draw_count(s: State) -> int:
    """Cards the pending chance draws."""
    if s.phase == "draw":
        return 2 if s.skill_count("draw_two_keep_one") else 1
    if s.phase in ("sunrise", "refill"):
        return 1
    return s.need


def _deck_chance(s: State, label: str, make: Callable[[tuple[str, ...]], Event]) -> Chance:
    from_pool, known = draw_split(s, draw_count(s))
    return Chance("draw", label, lambda out: make(tuple(out) + known), count=from_pool, items=s.deck,
                  item_names=printed_names(s, s.deck))


def map_pool(s: State) -> tuple[str, ...]:
    kind = "final" if s.reveal_pos == len(s.maps) - 1 else "regular"
    return tuple(m for m in s.cards.maps_of(kind) if m not in s.maps)


def deal_size(s: State) -> int:
    return 3 + 3 * len(s.players) + (1 if s.less_luck else 0)


CO_OP_TURNS = ("co-op turns (rulebook 9.3 'Jogo para 2 jogadores': starting with the captain, 'os jogadores alternam"
               " fazendo 1 acção'; a sail, a draw or a land found is the acting player's until it ends)")
TURN_RULES = {
    "place": "setup (rulebook 3.2, 9.3: the captain places the fleet)",
    "ignore": "skill 'Ignora ícones em jogo' (rulebook 8, 9.3: the captain chooses)",
    "learn": "learn a skill (rulebook 7 'da tua mão', 9.3: the captain first, then the partner)",
    "trim": "sunset (rulebook 5.4: each hand over 3 cards is trimmed, the first player's first)",
}
"""Who decides now, by phase (the rest are the co-op turns): every refusal of a decision out of turn names it."""


def turn_rule(s: State) -> str:
    """The rule text section that says who must decide now (a refusal out of turn names it)."""
    return TURN_RULES.get(s.phase, CO_OP_TURNS)


def pending(s: State) -> Pending:
    ph = s.phase
    if s.result:
        return Over(outcome(s))
    if ph == "captain":
        return Chance("draw", "the captain", lambda out: CaptainChosen(player=out[0]), items=s.players)
    if ph == "reveal":
        pos = s.reveal_pos
        return Chance(
            "draw", f"map card {pos + 1}", lambda out: MapCardRevealed(position=pos, card=out[0]), items=map_pool(s)
        )
    if ph == "deal":
        n = len(s.players)

        def deal(out: tuple[str, ...]) -> Event:
            hands = tuple(tuple(out[3 + 3 * i : 6 + 3 * i]) for i in range(n))
            return PlayerCardsDealt(strip=tuple(out[:3]), hands=hands, shown=out[3 + 3 * n] if s.less_luck else "")

        items = tuple(sorted(s.cards.player, key=lambda c: s.card(c).number))
        # the strip is sorted by number (rulebook 3.4) and a hand is a set: only the shown card's place means more
        # what is typed goes to the strip, then each hand, in this order: the prompt says so, as a table needs it
        order = ", then ".join(["3 for the adventure strip", *(f"3 for {p}'s hand" for p in s.players),
                                *(["the card shown"] if s.less_luck else [])])
        return Chance("draw", order, deal, count=deal_size(s), items=items,
                      unordered=(3,) * (n + 1), item_names=printed_names(s, items))
    if ph == "sunrise":
        return _deck_chance(s, "sunrise card", lambda cs: SunriseCardDrawn(card=cs[0]))
    if ph == "draw":
        return _deck_chance(s, "card drawn", lambda cs: CardsDrawn(cards=cs))
    if ph == "land_draw":
        return _deck_chance(s, "land discovery", lambda cs: LandCardsDrawn(cards=cs))
    if ph == "bonus_draw":
        return _deck_chance(s, "land bonus cards", lambda cs: BonusCardsDrawn(cards=cs))
    if ph == "refill":
        return _deck_chance(s, "strip refill", lambda cs: StripRefilled(card=cs[0]))
    if ph == "morale_loss":
        return _deck_chance(s, "morale lost", lambda cs: MoraleLost(cards=cs))
    prompts = {
        "place": "place the fleet",
        "actions": f"choose an action ({s.cubes} left)",
        "sail": f"sail on or stop ({counted(s.sail_points, 'point')})",
        "draw_keep": "keep one drawn card",
        "land_keep": "keep a land card and its bonus",
        "bonus_share": "share the bonus cards",
        "ignore": "choose an icon to ignore",
        "learn": "learn a skill or not",
        "trim": "discard down to 3 cards",
    }
    return Decision(flow.decider(s), prompts[ph])


# --- legal decisions ----------------------------------------------------------------------------------------------


def sail_subsets(hand: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every sail: each non-empty set of hand cards that may be discarded (5.2 C 'Navegar'), for any hand size.
    Hands of more than 6 cards are rare (seeded bot games never reach one), so the list stays readable in play."""
    return [c for k in range(1, len(hand) + 1) for c in combinations(hand, k)]


def legal(s: State) -> list[Event]:
    ph = s.phase
    if ph == "place":
        return [FleetPlaced(space=sp.id) for sp in s.board.spaces if sp.col == s.board.offsets[0]]
    if ph == "actions":
        hand = s.hands[s.actor]
        out: list[Event] = [DrawChosen()]
        out += [CardSwapped(hand_card=h, strip_card=st) for h in hand for st in s.strip]
        out += [SailStarted(cards=c) for c in sail_subsets(hand)]
        out.append(ActionsEnded())
        return out
    if ph == "sail":
        here = s.board[s.fleet]
        moves: list[Event] = [
            FleetMoved(to=n)
            for n in here.links
            if step_cost(s.cards, s.board, s.fleet, n, s.extra_cost) <= s.sail_points
        ]
        return [*moves, SailEnded()]
    if ph == "draw_keep":
        return [DrawnCardKept(card=c) for c in s.drawn]
    if ph == "land_keep":
        # "Podes sempre decidir não ganhar o bónus (ou parte dele)" (5.2 C, 'Bónus descoberta terra'): every
        # amount from the whole bonus down to none.
        who = s.players if len(s.players) > 1 else (s.acting,)
        return [
            LandCardKept(card=c, player=p, bonus=b)
            for c in s.drawn
            for p in who
            for b in range(s.card(c).bonus, -1, -1)
        ]
    if ph == "bonus_share":
        return [BonusCardsShared(players=ps) for ps in product(s.players, repeat=len(s.drawn))]
    if ph == "ignore":
        icon = flow._ignore_queue(s)[len(s.ignored)]
        return [IconIgnored(card=c, icon=icon) for c in flow._ignorable(s, icon)]
    if ph == "learn":
        return [*(SkillLearned(card=c) for c in flow.learnable(s, flow.learner(s))), SkillDeclined()]
    if ph == "trim":
        hand = s.hands[flow.over_limit(s)]
        p = s.players[flow.over_limit(s)]
        return [HandTrimmed(player=p, cards=c) for c in combinations(hand, len(hand) - flow.HAND_LIMIT)]
    return []


# --- validation ------------------------------------------------------------------------------------------------


def _names(cards: tuple[str, ...]) -> str:
    return ", ".join(cards) or "none"


def validate(s: State, e: Event) -> str | None:
    if s.result:
        return "the game is over (rulebook 6 'Ganhando ou perdendo o jogo')"
    if isinstance(e, CHANCE_EVENTS):
        return _validate_chance(s, e)
    return _validate_decision(s, e)


def _validate_chance(s: State, e: Event) -> str | None:
    want = CHANCE_PHASE[type(e)]
    if s.phase != want:
        p = pending(s)
        what = p.describe() if isinstance(p, Chance) else f"{p.player} must decide: {p.prompt}"
        return f"this chance outcome does not belong here: {what}"
    match e:
        case CaptainChosen(player=pl):
            return None if pl in s.players else f"captain (rulebook 9.3): {pl} is not at the table"
        case MapCardRevealed(position=pos, card=card):
            if pos != s.reveal_pos:
                return f"setup (rulebook 3.2): the map card to turn over now is at position {s.reveal_pos}"
            pool = map_pool(s)
            if card not in pool:
                return f"setup (rulebook 3.1): map card {card} is not among the face-down cards ({_names(pool)})"
            return None
        case PlayerCardsDealt(strip=strip, hands=hands, shown=shown):
            every = (*strip, *(c for h in hands for c in h), *((shown,) if s.less_luck else ()))
            if len(strip) != 3 or len(hands) != len(s.players) or any(len(h) != 3 for h in hands):
                return "setup (rulebook 3.3-3.5): 3 cards go to the strip and 3 to each hand"
            if s.less_luck != bool(shown):
                return "setup (rulebook 9.2): one card is shown beside the deck exactly when playing 'less luck'"
            if len(set(every)) != len(every) or any(c not in s.cards.player for c in every):
                return "setup (rulebook 3.3): each dealt card must be a different player card of this game's set"
            return None
        case SunriseCardDrawn(card=c) | StripRefilled(card=c):
            if drawn_ok(s, (c,), 1):
                return None
            return f"deck (rulebook 4): {card_name(s, c)} cannot be the deck's top card now"
        case CardsDrawn(cards=cs) | LandCardsDrawn(cards=cs) | BonusCardsDrawn(cards=cs) | MoraleLost(cards=cs):
            n = draw_count(s)
            if drawn_ok(s, cs, n):
                return None
            return (f"deck (rulebook 4): {card_names(s, cs)} cannot be the {counted(n, 'card')} taken from the top of"
                    " the deck now")
    return "this chance outcome does not belong here"


def _action_error(s: State) -> str | None:
    if s.phase == "actions":
        return None
    if s.phase in ("ignore", "learn", "trim", "sunrise", "refill", "morale_loss"):
        return "action phase (rulebook 5.2): the action cubes are spent; no action can be taken until next round"
    p = pending(s)
    now = p.describe() if isinstance(p, Chance) else p.prompt  # type: ignore[union-attr]
    return f"action phase (rulebook 5.2): finish the current step first ({now})"


def _validate_decision(s: State, e: Event) -> str | None:
    match e:
        case FleetPlaced(space=sp):
            if s.phase != "place":
                return "setup (rulebook 3.2): the fleet is placed once, at the start"
            first = [x.id for x in s.board.spaces if x.col == s.board.offsets[0]]
            if sp not in first:
                return f"setup (rulebook 3.2): the fleet starts on a leftmost half space ({', '.join(first)})"
            return None
        case DrawChosen() | ActionsEnded():
            return _action_error(s)
        case CardSwapped(hand_card=h, strip_card=st):
            err = _action_error(s)
            if err:
                return err
            if h not in s.hands[s.actor]:
                return f"swap (rulebook 5.2 B 'Trocar 1 carta'): {card_name(s, h)} is not in {s.acting}'s hand"
            if st not in s.strip:
                return f"swap (rulebook 5.2 B 'Trocar 1 carta'): {card_name(s, st)} is not in the adventure strip"
            return None
        case SailStarted(cards=cards):
            err = _action_error(s)
            if err:
                return err
            if not cards:
                return "sail (rulebook 5.2 C 'Navegar'): discard at least one hand card to sail"
            wrong = _discard_problem(s, cards, s.hands[s.actor], s.acting)
            if wrong:
                return f"sail (rulebook 5.2 C 'Navegar'): {wrong}"
            return None
        case FleetMoved(to=to):
            if s.phase != "sail":
                return "sail (rulebook 5.2 C 'Navegar'): the fleet moves only during a sail action"
            here = s.board[s.fleet]
            if to not in here.links:
                return f"sail (rulebook 5.2 C 'Navegar'): {to} is not a sea space next to {here.name}"
            cost = step_cost(s.cards, s.board, s.fleet, to, s.extra_cost)
            if cost > s.sail_points:
                return (
                    f"sail (rulebook 5.2 C 'Navegar'): entering {to} costs {cost} navigation points,"
                    f" only {s.sail_points} are left"
                )
            return None
        case SailEnded():
            return None if s.phase == "sail" else "sail (rulebook 5.2 C): there is no sail to end"
        case DrawnCardKept(card=c):
            if s.phase != "draw_keep":
                return "skill 'Compra 2, fica com 1' (rulebook 8): there are no drawn cards to choose from"
            if c not in s.drawn:
                return f"skill 'Compra 2, fica com 1' (rulebook 8): {card_name(s, c)} was not drawn"
            return None
        case LandCardKept(card=c, player=pl, bonus=b):
            if s.phase != "land_keep":
                return "land discovery (rulebook 5.2 C): there are no land cards to choose from"
            if c not in s.drawn:
                drawn = card_names(s, s.drawn)
                return f"land discovery (rulebook 5.2 C): {card_name(s, c)} is not among the cards drawn ({drawn})"
            if pl not in s.players or (len(s.players) == 1 and pl != s.acting):
                return f"land discovery (rulebook 5.2 C, 9.3): {pl} cannot receive the card"
            full = s.card(c).bonus
            if not 0 <= b <= full:
                return f"land discovery (rulebook 5.2 C): {card_name(s, c)}'s bonus is {full}; take 0 to {full} of it"
            return None
        case BonusCardsShared(players=ps):
            if s.phase != "bonus_share":
                return "land bonus (rulebook 9.3): there are no bonus cards to share"
            if len(ps) != len(s.drawn) or any(p not in s.players for p in ps):
                return f"land bonus (rulebook 9.3): name a player at the table for each of {len(s.drawn)} cards"
            return None
        case IconIgnored(card=c, icon=icon):
            if s.phase != "ignore":
                return "skill 'Ignora ícones em jogo' (rulebook 8): icons are chosen at the start of the events phase"
            want = flow._ignore_queue(s)[len(s.ignored)]
            if icon != want:
                return f"skill 'Ignora ícones em jogo' (rulebook 8): this skill ignores a {want} icon"
            if c not in flow._ignorable(s, icon):
                return (f"skill 'Ignora ícones em jogo' (rulebook 8): {card_name(s, c)} shows no {icon} icon left to"
                        " ignore in play")
            return None
        case SkillLearned(card=c):
            if s.learned:
                return "learn a skill (rulebook 7 'Aprende habilidade'): only 1 skill can be learned per round"
            if s.phase != "learn":
                return "learn a skill (rulebook 7): skills are learned in the events phase, when the event fires"
            if s.holder(c) != flow.learner(s):
                # One refusal for a card in the partner's hand and one in the deck or anywhere else: the learner
                # sees neither (9.3 hands are not shared), so telling them apart would say where a hidden card is.
                who = s.players[flow.learner(s)]
                return (f"learn a skill (rulebook 7 'da tua mão', 9.3 hands are not shared): {card_name(s, c)} is not"
                        f" in {who}'s hand, and {who} decides now")
            card = s.card(c)
            if not card.skill:
                return f"learn a skill (rulebook 7): {card_name(s, c)} holds a trauma, not a skill"
            need, have = skill_cost(s, c), icons(s)["motivation"]
            if need > have:
                return (f"learn a skill (rulebook 7): {card_name(s, c)}'s skill needs {need} motivation icons in play,"
                        f" {have} are")
            return None
        case SkillDeclined():
            return None if s.phase == "learn" else "learn a skill (rulebook 7): there is no skill to decline now"
        case HandTrimmed(player=pl, cards=cards):
            if s.phase != "trim":
                return "sunset (rulebook 5.4): hands are trimmed to 3 only at the end of sunset"
            i = flow.over_limit(s)
            if pl != s.players[i]:
                return f"sunset (rulebook 5.4): {s.players[i]} must discard now"
            hand = s.hands[i]
            wrong = _discard_problem(s, cards, hand, pl)
            if wrong:
                return f"sunset (rulebook 5.4): {wrong}"
            if len(hand) - len(cards) != flow.HAND_LIMIT:
                return f"sunset (rulebook 5.4): discard {len(hand) - flow.HAND_LIMIT} cards to keep exactly 3"
            return None
    return "this event is not an Adamastor decision"


def _discard_problem(s: State, cards: Sequence[str], hand: Sequence[str], player: str) -> str | None:
    """Why ``cards`` are no discard from ``player``'s ``hand``, naming the card at fault (the sail's and the
    sunset's discards, 5.2 C and 5.4), or None."""
    twice = next((c for c in cards if cards.count(c) > 1), None)
    if twice is not None:
        return f"{card_name(s, twice)} is named twice: discard only cards in {player}'s hand, each once"
    missing = next((c for c in cards if c not in hand), None)
    if missing is not None:
        return f"{card_name(s, missing)} is not in {player}'s hand: discard only cards in it, each once"
    return None

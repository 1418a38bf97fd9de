"""How each Adamastor event moves the state (rulebook 3 'Preparação', 5 'Como jogar', 6 'Ganhando ou perdendo',
7 'Referência eventos', 9 'Variantes').

``apply`` trusts its input. After the event itself, whatever follows by rule alone runs at once (the events phase's
checks, sunset, a new round) until a decision or a chance outcome is needed; what it set off is kept in
``State.notes`` for narration.
"""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from agon.core.engine import recorded_version
from agon.core.games.adamastor.board import build_board, step_cost
from agon.core.games.adamastor.data import Cards, compile_cards
from agon.core.games.adamastor.state import (
    SETUP_PHASES,
    State,
    add_note,
    card_name,
    gain_morale,
    icons,
    skill_cost,
    sort_strip,
    take,
    weather_of,
    with_hand,
)
from agon.events.adamastor import (
    ActionsEnded,
    AdamastorEvent,
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
from agon.events.base import GameCreated

VERSION = "3"
"""The ruleset version new games are recorded under (``Adamastor.version``). Games of an older version keep the
rules they were played with where a later version changed them, each change gated on a named constant beside its
rule (RULES.md, 'Ruleset versions')."""
IGNORE_GOES_WITH_ITS_CARD = 3
"""From ruleset version 3, an icon ignored by 'Ignora ícones em jogo' (rulebook 8: 'em que carta esse ícone é
ignorado') stops counting when a revolt takes its card off the strip (rulebook 7 'Revolta'): tucked among the
traumas, the card shows only its trauma icon (5.4). Version 2 kept subtracting it from the icons in play, even
when the trauma showed no icon of that kind; a game recorded then is folded so."""
ASK_EVERY_PARTNER = 3
"""From ruleset version 3, in co-op 'Aprende habilidade' fires on what both players see: when the motivation icons
in play pay for the cheapest skill of the card set (rulebook 7: "Se estão 2 ou 3 ícones Motivação em jogo"), and
each player is asked in turn, the captain first, until one learns; a player with no affordable skill may only
decline. Hands are not shared in co-op (9.3), and version 2 asked only a player holding an affordable skill, so
being asked, or passed over, told the partner something of that hand; a game recorded then is folded so."""
EDGE_REVEALS_ONCE = 3
"""From ruleset version 3, entering a right-edge half space reveals the next card only while it is face down. A
card set of one's own may have a right-edge half space that no half space of the next card joins (the bundled
cards all share rows a-c at both edges), so it stays an edge after that card is revealed; version 2 revealed the
position again, putting another card over it. Bundled games never meet it."""
DESTINATION_ON_REVEAL = 3
"""From ruleset version 3, a space the fleet stands on when the next card is revealed is a final destination if the
revealed card's half space there is one (a card set of one's own may put a destination on a card's left edge; the
bundled ones have theirs inside the final cards): the fleet has reached it (rulebook 6). Version 2 never looked."""
MAP_COUNT = {"easy": 2, "regular": 3, "hard": 4}
"""Regular map cards per difficulty (rulebook 3.1); one final destination card is added."""
HISTORICAL_MAPS = ("H1", "H2", "H3")
THRESHOLD = 5
"""'5 ou mais ícones' for revolt, disease and fatigue (rulebook 7)."""
TUMULT = 3
"""'3 ou mais ícones Revolta, Doença e Fadiga' (rulebook 7)."""
TIRED_LOSS = 3
HAND_LIMIT = 3
IGNORE_SKILLS = {"ignore_revolt": "revolt", "ignore_disease": "disease", "ignore_fatigue": "fatigue"}


def option_flags(options: dict) -> tuple[str, bool, bool]:
    difficulty = str(options.get("difficulty", "regular"))
    historical = str(options.get("scenario", "variable")) == "historical"
    less_luck = str(options.get("less_luck", "false")).lower() in ("1", "true", "yes", "on")
    return difficulty, historical, less_luck


def initial_state(created: GameCreated, cards: Cards | None = None) -> State:
    cards = cards or compile_cards(created.cards)
    difficulty, historical, less_luck = option_flags(created.options)
    players = created.names
    maps = HISTORICAL_MAPS if historical else ("",) * (MAP_COUNT[difficulty] + 1)
    s = State(
        cards=cards,
        players=players,
        difficulty=difficulty,
        historical=historical,
        less_luck=less_luck,
        maps=maps,
        board=build_board(cards, maps),
        version=recorded_version(created, VERSION),
        phase="captain",
    )
    if historical:
        lisbon = next(sp for sp in s.board.spaces if sp.label == "Lisbon")
        s = replace(s, fleet=lisbon.id, start_col=lisbon.col)
    return _after_captain(s) if len(players) == 1 else s


def _after_captain(s: State) -> State:
    if s.historical:
        return replace(s, phase="deal")
    return replace(s, phase="reveal", reveal_pos=0, after_reveal="place")


# --- rounds ---------------------------------------------------------------------------------------------------


def _begin_actions(s: State) -> State:
    name, actions, extra, black, suns = weather_of(s)
    s = replace(
        s, weather=name, black=black, suns=suns, extra_cost=extra, cubes=actions, actor=s.captain, phase="actions"
    )
    cost = f", sailing costs {extra} more per space" if extra else ""
    sky = f"{suns} sun{'s' * (suns != 1)}, {black} black cloud{'s' * (black != 1)}"
    acts = f"{actions} action{'s' * (actions != 1)}"
    return add_note(s, f"round {s.round} sunrise: {name} ({sky}), {acts}{cost}")


def _action_done(s: State) -> State:
    if s.result:
        return s
    if s.cubes <= 0:
        return _start_events(replace(s, cubes=0))
    return replace(s, phase="actions", actor=(s.actor + 1) % len(s.players))


def _start_events(s: State) -> State:
    return _advance(replace(s, phase="events", event_step=0, ignored=()))


def _ignore_queue(s: State) -> list[str]:
    return [IGNORE_SKILLS[s.card(c).skill] for c in s.skills if s.card(c).skill in IGNORE_SKILLS]


def _ignorable(s: State, icon: str) -> list[str]:
    from agon.core.games.adamastor.state import icons_on

    out = []
    for c in (*s.strip, *s.traumas):
        already = sum(1 for x, i in s.ignored if x == c and i == icon)
        if icons_on(s, c, icon) > already:
            out.append(c)
    return out


def learnable(s: State, player: int | None = None) -> list[str]:
    """Hand cards whose skill the motivation icons in play pay for now (rulebook 7 'Aprende habilidade': "podes
    ganhar 1 carta da tua mão"), in the hands of ``player`` or of every player who has not declined this round."""
    if s.learned:
        return []
    motivation = icons(s)["motivation"]
    hands = [s.hands[player]] if player is not None else [h for i, h in enumerate(s.hands) if i not in s.declined]
    return [c for h in hands for c in h if s.card(c).skill and skill_cost(s, c) <= motivation and motivation >= 1]


def asks_every_partner(s: State) -> bool:
    return s.version >= ASK_EVERY_PARTNER and len(s.players) > 1


def fires(s: State) -> bool:
    """Whether 'Aprende habilidade' asks someone now (rulebook 7; in co-op on public facts, ``ASK_EVERY_PARTNER``)."""
    if not asks_every_partner(s):
        return bool(learnable(s))
    if s.learned or len(s.declined) >= len(s.players):
        return False
    costs = [skill_cost(s, cid) for cid, card in s.cards.player.items() if card.skill]
    return bool(costs) and icons(s)["motivation"] >= max(1, min(costs))


def learner(s: State) -> int:
    """Who may learn a skill now: each player from their own hand, since hands are not shared (9.3); the captain
    first, then the partner if the captain declines (version 2: or has none to learn)."""
    n = len(s.players)
    order = [(s.captain + k) % n for k in range(n)]
    if asks_every_partner(s):
        return next((i for i in order if i not in s.declined), s.captain)
    return next((i for i in order if i not in s.declined and learnable(s, i)), s.captain)


def _advance(s: State) -> State:
    """Run the events phase's checks in order from ``event_step`` (rulebook 5.3), then sunset."""
    while True:
        if s.result:
            return replace(s, phase="over")
        step = s.event_step
        if step == 0:
            queue = _ignore_queue(s)
            if len(s.ignored) < len(queue):
                icon = queue[len(s.ignored)]
                if _ignorable(s, icon):
                    return replace(s, phase="ignore")
                s = replace(s, ignored=(*s.ignored, ("", icon)))
                continue
            s = replace(s, event_step=1)
        elif step == 1:
            if fires(s):
                n = icons(s)["motivation"]
                return add_note(replace(s, phase="learn"), f"'learn a skill' fires ({n} motivation icons in play)")
            s = replace(s, event_step=2)
        elif step == 2:
            n = icons(s)["revolt"]
            if n >= THRESHOLD:
                s = add_note(s, f"'crew revolt' fires ({n} revolt icons)")
                if s.version >= IGNORE_GOES_WITH_ITS_CARD:
                    # The choice of 'Ignora ícones em jogo' fell on a card of the strip; it leaves with the card.
                    s = replace(s, ignored=tuple((c, i) for c, i in s.ignored if c != s.strip[-1]))
                s = _lose_lowest(s)
                return replace(s, phase="refill", event_step=3)
            s = replace(s, event_step=3)
        elif step == 3:
            n = icons(s)["disease"]
            if n >= THRESHOLD:
                sick = sum(1 for c in s.traumas if s.card(c).trauma == "disease")
                s = add_note(s, f"'disease spreads' fires ({n} disease icons): {sick} morale lost for good")
                if sick:
                    return replace(s, phase="morale_loss", need=sick, loss_removes=True, event_step=4)
            s = replace(s, event_step=4)
        elif step == 4:
            n = icons(s)["fatigue"]
            if n >= THRESHOLD:
                s = add_note(s, f"'tired crew' fires ({n} fatigue icons): {TIRED_LOSS} morale lost")
                return replace(s, phase="morale_loss", need=TIRED_LOSS, loss_removes=False, event_step=5)
            s = replace(s, event_step=5)
        elif step == 5:
            ic = icons(s)
            if all(ic[k] >= TUMULT for k in ("revolt", "disease", "fatigue")):
                s = add_note(
                    s, f"'tumult' fires ({ic['revolt']} revolt, {ic['disease']} disease, {ic['fatigue']} fatigue)"
                )
                return replace(s, result="lost_tumult", phase="over")
            return _sunset(replace(s, event_step=6))
        else:
            return _sunset(s)


def _lose_lowest(s: State) -> State:
    """The strip's rightmost (lowest) card becomes a trauma, or is discarded if it holds a skill."""
    low = s.strip[-1]
    card = s.card(low)
    s = replace(s, strip=s.strip[:-1])
    if card.trauma:
        return add_note(replace(s, traumas=(*s.traumas, low)), f"{card_name(s, low)} becomes a {card.trauma} trauma")
    return add_note(replace(s, discard=(*s.discard, low)), f"{card_name(s, low)} holds a skill and is discarded")


def _sunset(s: State) -> State:
    s = add_note(_lose_lowest(s), "sunset")
    return _trim_or_end(s)


def over_limit(s: State) -> int:
    """The first player holding more than 3 cards, or -1."""
    return next((i for i, h in enumerate(s.hands) if len(h) > HAND_LIMIT), -1)


def _trim_or_end(s: State) -> State:
    if over_limit(s) >= 0:
        return replace(s, phase="trim")
    captain = (s.captain + 1) % len(s.players)
    s = replace(
        s, captain=captain, actor=captain, round=s.round + 1, phase="sunrise", event_step=0, learned=False,
        declined=(), ignored=()
    )
    if len(s.players) > 1:
        s = add_note(s, f"the captain token passes to {s.players[captain]}")
    return s


# --- sailing --------------------------------------------------------------------------------------------------


def _arrived(s: State) -> State:
    """The fleet stands on a final destination: the game is won (rulebook 6)."""
    return add_note(replace(s, result="won", phase="over"), "the fleet reaches the final destination")


def _entered(s: State) -> State:
    sp = s.board[s.fleet]
    if sp.destination:
        return _arrived(s)
    if sp.edge_of >= 0 and (s.version < EDGE_REVEALS_ONCE or not s.maps[sp.edge_of]):
        return replace(s, phase="reveal", reveal_pos=sp.edge_of, after_reveal="sail")
    return _land_check(s)


def _land_check(s: State) -> State:
    sp = s.board[s.fleet]
    if sp.island and sp.id not in s.discovered:
        need = sp.island + s.skill_count("land_plus_one")
        s = add_note(s, f"land discovered at {sp.name} (numeral {sp.island})")
        return replace(s, discovered=(*s.discovered, sp.id), phase="land_draw", need=need)
    return replace(s, phase="sail")


# --- apply ----------------------------------------------------------------------------------------------------


def apply(s: State, e: AdamastorEvent) -> State:
    s = replace(s, notes=()) if s.notes else s
    s = _apply(s, e)
    if not s.result and s.phase not in SETUP_PHASES and s.phase not in ("land_keep", "draw_keep") and s.morale == 0:
        s = add_note(replace(s, result="lost_morale", phase="over"), "morale falls to 0: the deck is empty")
    return s


def _apply(s: State, e: AdamastorEvent) -> State:
    match e:
        case CaptainChosen(player=p):
            i = s.players.index(p)
            return _after_captain(replace(s, captain=i, actor=i))
        case MapCardRevealed(position=pos, card=card):
            maps = tuple(card if k == pos else m for k, m in enumerate(s.maps))
            s = replace(s, maps=maps, board=build_board(s.cards, maps))
            if s.after_reveal == "sail":
                if s.version >= DESTINATION_ON_REVEAL and s.board[s.fleet].destination:
                    return _arrived(s)
                return _land_check(s)
            return replace(s, phase=s.after_reveal)
        case FleetPlaced(space=sp):
            return replace(s, fleet=sp, start_col=s.board[sp].col, phase="deal")
        case PlayerCardsDealt(strip=strip, hands=hands, shown=shown):
            used = {*strip, *(c for h in hands for c in h), shown}
            deck = tuple(sorted((c for c in s.cards.player if c not in used), key=lambda c: s.card(c).number))
            s = replace(s, strip=sort_strip(s, strip), hands=tuple(hands), shown=shown, deck=deck, round=1)
            return _begin_actions(s)
        case SunriseCardDrawn(card=card):
            s = take(s, (card,))
            if s.less_luck:
                s = replace(s, strip=sort_strip(s, (*s.strip, s.shown)), shown=card)
            else:
                s = replace(s, strip=sort_strip(s, (*s.strip, card)))
            return _begin_actions(s)
        case DrawChosen():
            return replace(s, cubes=s.cubes - 1, phase="draw")
        case CardsDrawn(cards=cards):
            s = take(s, cards)
            if len(cards) > 1:
                return replace(s, drawn=cards, phase="draw_keep")
            return _action_done(with_hand(s, s.actor, (*s.hands[s.actor], *cards)))
        case DrawnCardKept(card=card):
            rest = tuple(c for c in s.drawn if c != card)
            s = with_hand(s, s.actor, (*s.hands[s.actor], card))
            return _action_done(replace(s, drawn=(), bottom=(*s.bottom, *rest)))
        case CardSwapped(hand_card=h, strip_card=st):
            hand = tuple(st if c == h else c for c in s.hands[s.actor])
            strip = sort_strip(s, tuple(h if c == st else c for c in s.strip))
            return _action_done(with_hand(replace(s, strip=strip, cubes=s.cubes - 1), s.actor, hand))
        case SailStarted(cards=cards):
            points = sum(s.card(c).navigation for c in cards) + s.skill_count("navigation_plus_one")
            hand = tuple(c for c in s.hands[s.actor] if c not in cards)
            s = with_hand(s, s.actor, hand)
            return replace(s, discard=(*s.discard, *cards), sail_points=points, cubes=s.cubes - 1, phase="sail")
        case FleetMoved(to=to):
            cost = step_cost(s.cards, s.board, s.fleet, to, s.extra_cost)
            return _entered(replace(s, fleet=to, sail_points=s.sail_points - cost))
        case SailEnded():
            return _action_done(replace(s, sail_points=0))
        case LandCardsDrawn(cards=cards):
            return replace(take(s, cards), drawn=cards, phase="land_keep")
        case LandCardKept(card=card, player=player, bonus=bonus):
            i = s.players.index(player)
            rest = tuple(c for c in s.drawn if c != card)
            s = with_hand(replace(s, drawn=(), bottom=(*s.bottom, *rest)), i, (*s.hands[i], card))
            kind = s.card(card).bonus_kind
            if kind == "morale":
                s = gain_morale(s, bonus)
            elif kind == "navigation":
                s = replace(s, sail_points=s.sail_points + bonus)
            elif kind == "action":
                s = replace(s, cubes=s.cubes + bonus)
            elif kind == "cards" and bonus > 0:
                return replace(s, need=bonus, phase="bonus_draw")
            return replace(s, phase="sail")
        case BonusCardsDrawn(cards=cards):
            s = take(s, cards)
            if len(s.players) > 1 and cards:
                return replace(s, drawn=cards, phase="bonus_share")
            return replace(with_hand(s, s.actor, (*s.hands[s.actor], *cards)), phase="sail")
        case BonusCardsShared(players=players):
            for c, p in zip(s.drawn, players, strict=True):
                i = s.players.index(p)
                s = with_hand(s, i, (*s.hands[i], c))
            return replace(s, drawn=(), phase="sail")
        case ActionsEnded():
            return _action_done(replace(s, cubes=0))
        case IconIgnored(card=card, icon=icon):
            return _advance(replace(s, ignored=(*s.ignored, (card, icon))))
        case SkillLearned(card=card):
            i = s.holder(card)
            s = with_hand(s, i, tuple(c for c in s.hands[i] if c != card))
            return _advance(replace(s, skills=(*s.skills, card), learned=True, event_step=2))
        case SkillDeclined():
            s = replace(s, declined=(*s.declined, learner(s)))
            if fires(s):
                return s
            return _advance(replace(s, event_step=2))
        case StripRefilled(card=card):
            s = take(s, (card,))
            return _advance(replace(s, strip=sort_strip(s, (*s.strip, card))))
        case MoraleLost(cards=cards):
            s = take(s, cards)
            if s.loss_removes:
                s = replace(s, removed=(*s.removed, *cards))
            else:
                s = replace(s, discard=(*s.discard, *cards))
            if s.morale == 0:
                return s
            return _advance(replace(s, need=0))
        case HandTrimmed(player=p, cards=cards):
            i = s.players.index(p)
            s = with_hand(s, i, tuple(c for c in s.hands[i] if c not in cards))
            return _trim_or_end(replace(s, discard=(*s.discard, *cards)))
        case _:
            assert_never(e)


def decider(s: State) -> str:
    """Who decides now: the learner, the captain placing the fleet or ignoring an icon, the hand trimmed, else the
    acting player of the co-op turns (the pending decision's player, and the view's ``to_act``)."""
    if s.phase == "learn":
        return s.players[learner(s)]
    if s.phase in ("ignore", "place"):
        return s.captain_name
    if s.phase == "trim":
        return s.players[over_limit(s)]
    return s.acting

"""Setup, turns and recruiting: what must happen next, what is legal, and how events move the state.

Follows ../shared/rules/pergamemnon-rulebook.pt.txt, 'Preparação' (setup), 'O jogo' (a turn is recruit or attack,
never pass), 'Recrutar uma criatura' and 'Atacar outro jogador'; the battle itself is in battle.py, the end and
the scores in scoring.py. Chance (nations dealt, creatures revealed, cards drawn, lots for the starting player)
is asked for with ``Chance`` and arrives as events.
"""

from __future__ import annotations

from typing import assert_never

import msgspec

from agon.core.engine import Chance, Decision, Over, Pending, recorded_version
from agon.core.games.pergamemnon import battle, flow, scoring
from agon.core.games.pergamemnon.cards import DEFENCE_OF, WEAPONS, build_table
from agon.core.games.pergamemnon.state import (
    PlayerState,
    State,
    alike,
    card,
    card_name,
    distinct,
    effects,
    hand_size,
    index,
    kind,
    player,
    take,
    uses_nation_cards,
    with_player,
    without,
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
    PergamemnonEvent,
    Reinforced,
    StarterDrawn,
    Yielded,
)

replace = msgspec.structs.replace

SETUP = "rulebook, 'Preparação'"
RECRUIT = "rulebook, 'Recrutar uma criatura'"
ATTACK = "rulebook, 'Atacar outro jogador'"
TURN = "rulebook, 'O jogo'"
CHANCE_EVENTS = (NationsDealt, CreaturesRevealed, CardsDrawn, StarterDrawn)


VERSION = "5"
"""The ruleset version new games are recorded under (``Pergamemnon.version``). Version 1 games keep the rules they
were played with where version 2 changed them (RULES.md, 'Ruleset versions'). Version 3 plays as version 2 does:
it was raised when version-1 games began to fold by their own rules, so that the snapshots, summaries and analyses
made from them before, keyed by the ruleset version, are made again and not read. Version 4 requires a charisma
card in every recruit (``CHARISMA_CARD_REQUIRED``); games of versions 1 to 3 keep the rule they were played with.
Version 5 asks nothing once a battle has ended the game: its loser is no longer asked to discard
(``scoring.ENDS_BEFORE_DISCARD``); games of versions 1 to 4 keep that decision, as recorded."""


def initial_state(created: GameCreated) -> State:
    table = build_table(created.cards)
    return State(
        table=table,
        players=tuple(PlayerState(name=n) for n in created.names),
        version=recorded_version(created, VERSION),
        supply=table.charisma_cards,
        creature_pool=table.creatures,
    )


# ---------------------------------------------------------------------------------------------------------------
# What happens next


def draw_source(p: PlayerState) -> tuple[tuple[str, ...], bool]:
    """The cards a draw comes from, and whether the discard pile is shuffled into a new deck first."""
    return (p.deck, False) if p.deck else (p.discard, True)


def pending(s: State) -> Pending:
    if not s.players[0].nation:
        n = len(s.players)
        return Chance(
            "draw", "nation cards dealt, one per player in seat order", lambda out: NationsDealt(nations=tuple(out)), n,
            items=tuple(s.table.nations),
        )
    if s.reveal:
        k = min(s.reveal, s.creature_deck, len(s.creature_pool))
        return Chance(
            "draw", "creatures revealed", lambda out: CreaturesRevealed(cards=tuple(out)), k, items=s.creature_pool,
            unordered=(k,),
        )
    why = scoring.game_over(s)
    if why:
        return Over(scoring.outcome(s, why))
    if s.refill and s.phase in ("setup", "refill"):
        p = player(s, s.refill[0])
        source, reshuffled = draw_source(p)
        k = min(hand_size(s, p) - len(p.hand), len(source))
        label = f"{p.name} draws" + (" from the reshuffled discard pile" if reshuffled else "")
        name = p.name
        return Chance(
            "draw", label, lambda out: CardsDrawn(player=name, cards=tuple(out), reshuffled=reshuffled), k,
            items=source, unordered=(k,), alike=tuple(alike(s, source)),
        )
    if s.phase == "starter":
        return Chance("draw", "lots for the starting player", lambda out: StarterDrawn(player=out[0]), 1, items=s.tied)
    if s.phase == "turn":
        return Decision(s.players[s.current].name, "recruit a creature or attack")
    if s.phase == "battle" and s.battle is not None:
        b = s.battle
        if not b.defender_cards:
            return Decision(b.defender, f"lay a card against {b.attacker}'s {b.weapon}")
        st = b.strikes[-1]
        # Read by every seat in the status line ('Ana to act: ...'): both sides named as the table sees them, the
        # striker's card and the struck card being open once the defender's card is laid ('A Batalha').
        striker, target = card(s, st.card).name, card(s, st.defence_card).name
        return Decision(
            st.struck,
            f"{st.striker}'s {striker} strikes with {st.weapon} {st.value} against {st.struck}'s {target}"
            f" ({DEFENCE_OF[st.weapon]} {st.defence}): reinforce or yield",
        )
    if s.phase == "place" and s.aftermath is not None:
        return Decision(s.aftermath.winner, "place the captured cards (discard pile or under the city)")
    if s.phase == "discard" and s.aftermath is not None:
        return Decision(s.aftermath.loser, "discard hand cards, or keep them")
    raise AssertionError(f"no next step in phase {s.phase}")


# ---------------------------------------------------------------------------------------------------------------
# Recruiting


CHARISMA_CARD_REQUIRED = 4
"""The ruleset version from which a recruit must add at least one charisma card from under the city, captured cards
there only adding to it (rulebook, 'Recrutar uma criatura': the player "adiciona pelo menos uma Carta de Carisma
que esteja parcialmente coberta pela sua Carta de Cidade" and "Se o jogador não tiver Cartas de Carisma debaixo da
sua Carta de Cidade, não lhe é possível recrutar uma criatura"; player aid: "au min 1 carte charisme"). Until then
a captured card alone could stand in for it, and a game recorded then is folded so (RULES.md, 'Ruleset versions')."""


def least_charisma_cards(s: State) -> int:
    """The charisma cards a recruit must add at the least: 1 from ``CHARISMA_CARD_REQUIRED``, else 0."""
    return 1 if s.version >= CHARISMA_CARD_REQUIRED else 0


def recruit_payments(s: State, p: PlayerState, cost: int, hand_value: int) -> list[tuple[int, tuple[str, ...]]]:
    """Canonical ways to pay from under the city: charisma cards only, and captured cards first (topped up with
    charisma cards, at least ``least_charisma_cards``)."""
    need = cost - hand_value - effects(s, p).recruit
    least = least_charisma_cards(s)
    out: list[tuple[int, tuple[str, ...]]] = []
    k = max(1, need)
    if k <= p.charisma:
        out.append((k, ()))
    used: list[str] = []
    paid = 0
    # From CHARISMA_CARD_REQUIRED on, when the one charisma card that must be added pays the rest, a captured card
    # would only be spent for nothing: no such payment is listed (validate still accepts it).
    spare = p.under if not (least and need <= least) else ()
    for c in sorted(spare, key=lambda x: -card(s, x).charisma):
        if paid >= need - least and used:
            break
        used.append(c)
        paid += card(s, c).charisma
    rest = max(least, need - paid)
    if used and rest <= p.charisma:
        out.append((rest, tuple(used)))
    return list(dict.fromkeys(out))


def legal_recruits(s: State, p: PlayerState) -> list[Event]:
    # Without a charisma card under the city no creature can be recruited (from CHARISMA_CARD_REQUIRED on).
    if not p.hand or (p.charisma < least_charisma_cards(s)) or (not p.charisma and not p.under):
        return []
    top = max(card(s, c).charisma for c in p.hand)
    hand_card = kind(next(c for c in p.hand if card(s, c).charisma == top))
    out: list[Event] = []
    for creature in s.creatures:
        for k, captured in recruit_payments(s, p, card(s, creature).cost, top):
            out.append(
                CreatureRecruited(
                    player=p.name, creature=creature, hand_card=hand_card, charisma_cards=k,
                    captured=tuple(kind(c) for c in captured),
                )
            )
    return out


def validate_recruit(s: State, e: CreatureRecruited) -> str | None:
    p = player(s, e.player)
    if e.creature not in s.creatures:
        return f"Recruit ({RECRUIT}): {card_name(s, e.creature)} is not among the face-up creatures"
    if take(s, p.hand, (e.hand_card,)) is None:
        return f"Recruit ({RECRUIT}): {card_name(s, e.hand_card)} is not in your hand"
    top = max(card(s, c).charisma for c in p.hand)
    played = card(s, e.hand_card)
    if played.charisma != top:
        best = next(card(s, c).name for c in p.hand if card(s, c).charisma == top)
        return (
            f"Recruit ({RECRUIT}): you play the hand card with the highest charisma ({best}, {top}), "
            f"not the {played.name} ({played.charisma})"
        )
    if not 0 <= e.charisma_cards <= p.charisma:
        have = counted(p.charisma, "charisma card")
        return f"Recruit ({RECRUIT}): you have {have} under your city, not {e.charisma_cards}"
    if take(s, p.under, e.captured) is None:
        return f"Recruit ({RECRUIT}): only captured cards kept under your city can pay, each once"
    used = e.charisma_cards + len(e.captured)
    if e.charisma_cards < least_charisma_cards(s):
        # 'Recrutar uma criatura': "adiciona pelo menos uma Carta de Carisma"; "Se o jogador não tiver Cartas de
        # Carisma debaixo da sua Carta de Cidade, não lhe é possível recrutar uma criatura" (CHARISMA_CARD_REQUIRED).
        have = f"you have {p.charisma}" if p.charisma else "you have none"
        return (
            f"Recruit ({RECRUIT}): at least one charisma card from under your city must be added to the hand card "
            f"({have}); captured cards kept there only add to it"
        )
    if used < 1:
        return (
            f"Recruit ({RECRUIT}): at least one charisma card or captured card from under your city must be added "
            "to the hand card"
        )
    bonus = effects(s, p).recruit
    total = played.charisma + e.charisma_cards + sum(card(s, c).charisma for c in e.captured) + bonus
    creature = card(s, e.creature)
    if total < creature.cost:
        extra = f" ({bonus:+d} from {s.table.nations[p.nation].city})" if bonus else ""
        return (
            f"Recruit ({RECRUIT}): your {played.name} (charisma {played.charisma}) plus {counted(used, 'card')} from"
            f" under your city make {total}{extra}, the {creature.name} costs {creature.cost}"
        )
    return None


def apply_recruit(s: State, e: CreatureRecruited) -> State:
    p = player(s, e.player)
    captured = take(s, p.under, e.captured) or e.captured
    p = replace(
        p,
        hand=(),
        discard=p.discard + p.hand + (e.creature,),
        charisma=p.charisma - e.charisma_cards,
        under=without(p.under, captured),
    )
    s = with_player(s, p)
    s = replace(
        s,
        creatures=without(s.creatures, (e.creature,)),
        supply=s.supply + e.charisma_cards,
        box=s.box + captured,
        reveal=1 if s.creature_deck and s.creature_pool else 0,
    )
    s = flow.reset_nation_cards(flow.set_active(s, e.player, False))
    s = replace(s, phase="refill", refill=(e.player,), next_actor=flow.next_active_after(s, index(s, e.player)))
    return flow.settle(s)


# ---------------------------------------------------------------------------------------------------------------
# Attacking


def attackable(s: State, attacker: str) -> list[str]:
    return [p.name for p in s.players if p.name != attacker and (p.active or not uses_nation_cards(s))]


def validate_attack(s: State, e: Attacked) -> str | None:
    names = [p.name for p in s.players]
    if e.defender not in names or e.defender == e.player:
        return f"Attack ({ATTACK}): choose another player to attack, not {e.defender!r}"
    if e.defender not in attackable(s, e.player):
        return (
            f"Attack ({ATTACK}): {e.defender}'s nation card is inactive; only a player whose nation card is still "
            "active can be attacked"
        )
    if take(s, player(s, e.player).hand, (e.card,)) is None:
        return f"Attack ({ATTACK}): {card_name(s, e.card)} is not in your hand"
    if e.weapon not in WEAPONS:
        return f"Attack ({battle.BATTLE}): the weapon is a sword, a spear or a bow, not {e.weapon!r}"
    c = card(s, e.card)
    if c.weapon != e.weapon:
        return f"Attack ({battle.BATTLE}): the {c.name} strikes with a {c.weapon}, so you cannot declare a {e.weapon}"
    return None


def legal_turn(s: State) -> list[Event]:
    p = s.players[s.current]
    attacks: list[Event] = [
        Attacked(player=p.name, defender=d, weapon=card(s, c).weapon, card=c)
        for d in attackable(s, p.name)
        for c in distinct(s, p.hand)
    ]
    return legal_recruits(s, p) + attacks


# ---------------------------------------------------------------------------------------------------------------
# Validation


def validate_chance(s: State, e: Event, p: Pending) -> str | None:
    if not isinstance(p, Chance):
        who = p.player if isinstance(p, Decision) else "nobody"
        return f"no chance outcome is expected now: {who} must decide"
    expected = p.build(p.items[: p.count])
    if type(e) is not type(expected):
        return f"a chance outcome is needed now ({p.describe()})"
    taken: tuple[str, ...]
    match e:
        case NationsDealt(nations=taken):
            what = "nation"
        case CreaturesRevealed(cards=taken):
            what = "creature"
        case CardsDrawn(player=who, cards=taken, reshuffled=reshuffled):
            assert isinstance(expected, CardsDrawn)
            if who != expected.player:
                return f"Draw ({SETUP}): {expected.player} draws now, not {who}"
            if reshuffled != expected.reshuffled:
                state = "empty, so the discard pile is reshuffled" if expected.reshuffled else "not empty"
                return f"Draw (rulebook, 'Recrutar uma criatura'): {who}'s deck is {state}"
            what = "card"
        case StarterDrawn(player=who):
            taken = (who,)
            what = "tied player"
        case _:
            return f"a chance outcome is needed now ({p.describe()})"
    if len(taken) != p.count:
        return f"{p.label}: {counted(p.count, what)} {'is' if p.count == 1 else 'are'} drawn, not {len(taken)}"
    if len(set(taken)) != len(taken) or any(x not in p.items for x in taken):
        return f"{p.label} ({SETUP}): each {what} must be one of {', '.join(p.items)}, once"
    return None


def validate(s: State, e: Event) -> str | None:
    p = pending(s)
    if isinstance(p, Over):
        return "the game is over (rulebook, 'Final do Jogo'): nothing can follow its end"
    if isinstance(e, CHANCE_EVENTS):
        return validate_chance(s, e, p)
    if isinstance(e, DefenceCommitted | Reinforced | Yielded) and s.battle is not None and s.battle.result:
        return battle.validate(s, e)  # the battle just ended (a tie, say): its rule, not the draws that follow
    if isinstance(p, Chance):
        return f"a chance outcome is needed now ({p.describe()})"
    actor = getattr(e, "player", None)
    if isinstance(e, CreatureRecruited | Attacked):
        if s.phase != "turn":
            return f"Turn ({TURN}): {p.player} must first {p.prompt}"
        if actor != p.player:
            return f"Turn ({TURN}): it is {p.player}'s turn, not {actor}'s"
        return validate_recruit(s, e) if isinstance(e, CreatureRecruited) else validate_attack(s, e)
    if isinstance(e, DefenceCommitted | Reinforced | Yielded):
        return battle.validate(s, e)
    if isinstance(e, CapturesPlaced | HandDiscarded):
        return battle.validate_after(s, e)
    return f"{type(e).__name__} is not a Pergamemnon event"


def legal(s: State) -> list[Event]:
    p = pending(s)
    if not isinstance(p, Decision):
        return []
    if s.phase == "turn":
        return legal_turn(s)
    if s.phase == "battle":
        return list(battle.legal(s))
    return list(battle.legal_after(s))


# ---------------------------------------------------------------------------------------------------------------
# Apply


def deal_nations(s: State, e: NationsDealt) -> State:
    players, supply = [], s.supply
    for p, nid in zip(s.players, e.nations, strict=True):
        nation = s.table.nations[nid]
        charisma = min(nation.start_charisma, supply)
        supply -= charisma
        players.append(replace(p, nation=nid, deck=nation.army, charisma=charisma))
    n = len(players)
    return replace(
        s,
        players=tuple(players),
        supply=supply,
        creature_deck=min(4 * n, len(s.creature_pool)),
        reveal=2 * n,
        refill=tuple(p.name for p in players),
    )


def reveal(s: State, e: CreaturesRevealed) -> State:
    left = s.creature_deck - len(e.cards)
    return flow.settle(
        replace(
            s,
            creatures=s.creatures + e.cards,
            creature_pool=without(s.creature_pool, e.cards),
            creature_deck=left,
            reveal=max(0, s.reveal - len(e.cards)) if left else 0,
        )
    )


def draw(s: State, e: CardsDrawn) -> State:
    p = player(s, e.player)
    if e.reshuffled:
        p = replace(p, deck=p.discard, discard=())
    p = replace(p, hand=p.hand + e.cards, deck=without(p.deck, e.cards))
    return flow.settle(with_player(s, p))


def apply(s: State, e: PergamemnonEvent) -> State:
    match e:
        case NationsDealt():
            return flow.settle(deal_nations(s, e))
        case CreaturesRevealed():
            return reveal(s, e)
        case CardsDrawn():
            return draw(s, e)
        case StarterDrawn():
            return flow.begin_turn(replace(s, next_actor=index(s, e.player)))
        case CreatureRecruited():
            return apply_recruit(s, e)
        case Attacked():
            return battle.open_battle(s, e)
        case DefenceCommitted():
            return battle.commit(s, e)
        case Reinforced():
            return battle.reinforce(s, e)
        case Yielded():
            return battle.give_up(s, e)
        case CapturesPlaced():
            return battle.place(s, e)
        case HandDiscarded():
            return battle.discard_hand(s, e)
        case _:
            assert_never(e)

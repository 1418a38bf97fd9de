"""Invariants of Pergamemnon checked over many seeded bot games and hypothesis-chosen decision sequences.

Each invariant is read from the rule text (../shared/rules/pergamemnon-rulebook.pt.txt, the errata facts and
RULES.md's readings) and checked at every step of every game, computed here from the state and the card data,
not with the ruleset's own scoring or turn-flow code:

- conservation: every army card of a dealt nation and every creature is in exactly one place (a hand, a deck, a
  discard pile, under a city, secured under a city, face up, not yet seen, in the battle under way, waiting to be
  placed, out of the game), and the 21 charisma cards are split between the supply and the cities; a card out of
  the game never comes back;
- hands: at the start of every turn each hand holds its hand size (3; Persia 4 while Xerxes is free);
- the creature deck: 4 x players creatures at most are ever seen, and 2 x players lie face up at the start;
- turn order and nation cards ('O jogo', 'O que acontece depois...'): tracked here from the events alone;
- each recruit pays as 'Recrutar uma criatura' says, and what it moves;
- each battle's chain of strikes follows 'A Batalha' (RULES.md's reading), and its aftermath ('O que acontece
  depois de uma batalha?', 'Habilidades Especiais'), and a city card flips when another player captures its leader
  ('Líderes Capturados');
- the end ('Final do Jogo') comes exactly when its condition first holds between turns, and the scores and the
  winner are those of 'Vencedor';
- the decisions offered: no pass; every attack on every attackable player with every hand card; a recruit for
  each creature some payment the text allows can pay, and none for the others; every reinforcement that holds.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.core import chance as chance_mod
from agon.core.engine import Chance, Decision
from agon.core.games.pergamemnon import RULESET as rs
from agon.core.games.pergamemnon.state import State, card, kind, take
from agon.events.base import GameCreated, PlayerSeat
from agon.events.pergamemnon import (
    Attacked,
    CreatureRecruited,
    DefenceCommitted,
    HandDiscarded,
    Reinforced,
    Yielded,
)
from tests.played import Step, chosen_by, to_the_end

DEFENCE = {"sword": "helmet", "spear": "armour", "bow": "shield"}
NAMES = ("Ana", "Bruno", "Clara", "Duarte", "Eva")


def created(n: int, seed: int, bots: tuple[str, ...]) -> GameCreated:
    players = tuple(PlayerSeat(NAMES[i], bots[i % len(bots)]) for i in range(n))
    return GameCreated(
        ruleset="pergamemnon", ruleset_version=rs.version, players=players, seed=seed, cards=rs.default_cards()
    )


# ---------------------------------------------------------------------------------------------------------------
# Facts read off the state and the card data (no rules code)


def eff(s: State, p):
    nation = s.table.nations[p.nation]
    return nation.captured if p.leader_captured else nation.free


def hand_size(s: State, p) -> int:
    return eff(s, p).hand_size


def attack(s: State, p, cid: str) -> int:
    return max(0, card(s, cid).attack + eff(s, p).attack)


def defence(s: State, p, cid: str, weapon: str) -> int:
    return max(0, getattr(card(s, cid), DEFENCE[weapon]) + eff(s, p).defence)


def who(s: State, name: str):
    return next(p for p in s.players if p.name == name)


def places(s: State) -> Counter:
    """Every card id in every place it is, counted."""
    held: list[str] = []
    for p in s.players:
        held += [*p.hand, *p.deck, *p.discard, *p.under, *p.secured]
    held += [*s.creatures, *s.creature_pool, *s.box]
    b = s.battle
    if b is not None and not b.result:
        held += [*b.attacker_cards, *b.defender_cards]
    if s.aftermath is not None:
        held += s.aftermath.captured
    return Counter(held)


def shape(s: State, cid: str) -> tuple:
    c = card(s, cid)  # a copy's id, or a decision's kind of copies alike (RULES.md, 'Copies alike')
    return (c.name, c.nation, c.weapon, c.attack, c.helmet, c.armour, c.shield, c.charisma, c.points, c.cost)


def game_ends(s: State) -> bool:
    """'Final do Jogo': fewer face-up creatures than players, or a nation with fewer cards to fight with (hand,
    deck, discard pile) than its hand size."""
    if len(s.creatures) < len(s.players):
        return True
    return any(len(p.hand) + len(p.deck) + len(p.discard) < hand_size(s, p) for p in s.players)


def final_scores(s: State) -> dict[str, float]:
    """'Vencedor': points on hand, deck, discard, Secured cards and creatures under the city; the Greeks' half
    point per card worth points while Agamemnon is free."""
    out = {}
    for p in s.players:
        cards = [*p.hand, *p.deck, *p.discard, *p.secured, *(c for c in p.under if not s.table.cards[c].nation)]
        pts = [s.table.cards[c].points for c in cards]
        total = float(sum(pts))
        if eff(s, p).half_points:
            total += 0.5 * sum(1 for x in pts if x > 0)
        out[p.name] = total
    return out


def payment_ok(s: State, p, creature: str, k: int, captured: tuple[str, ...]) -> bool:
    """'Recrutar uma criatura': the hand card of highest charisma, at least one charisma card, captured cards from
    under the city adding their charisma, plus the city effect, reach the cost."""
    top = max(s.table.cards[c].charisma for c in p.hand)
    total = top + k + sum(card(s, c).charisma for c in captured) + eff(s, p).recruit
    return 1 <= k <= p.charisma and total >= s.table.cards[creature].cost


# ---------------------------------------------------------------------------------------------------------------
# The checker


class Checker:
    """Follows a game event by event, keeping its own record of nation cards and who acts next."""

    def __init__(self, created: GameCreated):
        self.created = created
        self.n = len(created.players)
        self.active = {name: True for name in created.names}
        self.expected_next: str | None = None
        self.turn_started = 0
        self.dealt: set[str] = set()
        self.box: set[str] = set()
        self.faceup_at_start: int | None = None

    # nation cards, as the text says (only with 3 or more players)
    def flip_inactive(self, name: str) -> None:
        if self.n < 3:
            return
        self.active[name] = False
        if sum(self.active.values()) <= 1:
            self.active = dict.fromkeys(self.active, True)

    def next_clockwise(self, after: str) -> str:
        names = list(self.created.names)
        i = names.index(after)
        for k in range(1, self.n + 1):
            cand = names[(i + k) % self.n]
            if self.n < 3 or self.active[cand]:
                return cand
        raise AssertionError("no active nation card")

    def state(self, s: State) -> None:
        if not s.players[0].nation:
            return
        if not self.dealt:
            for p in s.players:
                self.dealt |= set(s.table.nations[p.nation].army)
            self.dealt |= set(s.table.creatures)
        # Conservation of cards and charisma.
        c = places(s)
        assert set(c) == self.dealt, set(c) ^ self.dealt
        assert max(c.values()) == 1, [k for k, v in c.items() if v > 1]
        assert s.supply + sum(p.charisma for p in s.players) == s.table.charisma_cards
        assert s.supply >= 0 and all(p.charisma >= 0 for p in s.players)
        assert self.box <= set(s.box), "a card out of the game came back"
        self.box = set(s.box)
        # Where cards may lie.
        for p in s.players:
            for cid in p.secured:
                card = s.table.cards[cid]
                assert card.secured and card.nation in (p.nation, ""), (p.name, cid)
            for cid in p.under:  # a captured card (a nation's own leader may be won back)
                assert s.table.cards[cid].charisma > 0, (p.name, cid)
        # The creature deck: 4 x players at most ever seen.
        seen = len(s.table.creatures) - len(s.creature_pool)
        assert seen <= 4 * self.n
        assert s.creature_deck + seen == min(4 * self.n, len(s.table.creatures))

    def turn_start(self, s: State) -> None:
        current = s.players[s.current]
        if self.faceup_at_start is None:
            self.faceup_at_start = len(s.creatures)
            assert self.faceup_at_start == 2 * self.n
            # 'O jogador mais carismático começa o jogo' (RULES.md: the sum of the hand's charisma, then its best)
            rank = {p.name: (sum(s.table.cards[c].charisma for c in p.hand),
                             max(s.table.cards[c].charisma for c in p.hand)) for p in s.players}
            assert rank[current.name] == max(rank.values())
        elif self.expected_next is not None:
            assert current.name == self.expected_next, (current.name, self.expected_next)
        assert not game_ends(s), "a turn began after the end condition held"
        for p in s.players:
            assert len(p.hand) >= hand_size(s, p), (p.name, p.hand)
            assert len(p.hand) <= 4
            if self.n >= 3:
                assert p.active == self.active[p.name], (p.name, p.active, self.active)
            else:
                assert p.active
        if self.n >= 3:
            assert self.active[current.name]
            assert sum(self.active.values()) >= 2

    def decision(self, s: State, legal: list) -> None:
        """What `legal` offers, against the text."""
        if s.phase == "turn":
            me = s.players[s.current]
            assert legal, "no pass: a turn always has a decision ('O jogo')"
            targets = [p.name for p in s.players if p.name != me.name and (self.n < 3 or self.active[p.name])]
            offered = {(e.defender, shape(s, e.card)) for e in legal if isinstance(e, Attacked)}
            for e in legal:
                if isinstance(e, Attacked):
                    assert e.weapon == card(s, e.card).weapon and take(s, me.hand, (e.card,))
            assert offered == {(d, shape(s, c)) for d in targets for c in me.hand}
            recruits = [e for e in legal if isinstance(e, CreatureRecruited)]
            for e in recruits:
                assert payment_ok(s, me, e.creature, e.charisma_cards, e.captured)
                top = max(s.table.cards[c].charisma for c in me.hand)
                assert card(s, e.hand_card).charisma == top
            payable = set()
            for creature in s.creatures:
                for k in range(1, me.charisma + 1):
                    for r in range(len(me.under) + 1):
                        if any(payment_ok(s, me, creature, k, combo) for combo in itertools.combinations(me.under, r)):
                            payable.add(creature)
            assert {e.creature for e in recruits} == payable
        elif s.phase == "battle":
            b = s.battle
            if not b.defender_cards:
                d = who(s, b.defender)
                assert {shape(s, e.card) for e in legal} == {shape(s, c) for c in d.hand}
                return
            st_ = b.strikes[-1]
            p = who(s, st_.struck)
            assert st_.defence < st_.value and p.hand
            assert Yielded(player=p.name) in legal
            holds = {shape(s, c) for c in p.hand if st_.defence + defence(s, p, c, st_.weapon) >= st_.value}
            assert {shape(s, e.card) for e in legal if isinstance(e, Reinforced)} == holds
        elif s.phase == "place":
            a = s.aftermath
            eligible = tuple(c for c in a.captured if s.table.cards[c].charisma > 0)
            unders = {tuple(sorted(e.under_city)) for e in legal}  # copies alike by their kind ('Copies alike')
            assert () in unders and tuple(sorted(kind(c) for c in eligible)) in unders
        elif s.phase == "discard":
            assert HandDiscarded(player=s.aftermath.loser, cards=()) in legal

    def event(self, before: State, e, after: State) -> None:
        if isinstance(e, CreatureRecruited):
            p = who(before, e.player)
            assert payment_ok(before, p, e.creature, e.charisma_cards, e.captured)
            q = who(after, e.player)
            for cid in (*p.hand, e.creature):
                assert cid in q.discard or cid in q.hand or cid in q.deck  # a reshuffle may follow at once
            assert q.charisma == p.charisma - e.charisma_cards
            assert {kind(c) for c in e.captured} <= {kind(c) for c in after.box}
            revealed = len(after.table.creatures) - len(after.creature_pool)
            revealed_before = len(before.table.creatures) - len(before.creature_pool)
            if before.creature_deck:
                assert revealed == revealed_before + 1 or after.reveal  # revealed at once (a chance event)
            self.flip_inactive(e.player)
            self.expected_next = self.next_clockwise(e.player)
        if isinstance(e, Attacked):
            assert self.n < 3 or self.active[e.defender]
            assert s_card(before, e.card).weapon == e.weapon
        if isinstance(e, DefenceCommitted | Reinforced | Yielded) and after.battle.result:
            self.battle_over(before, after)

    def battle_over(self, before: State, after: State) -> None:
        b = after.battle
        s = before
        att, dfn = who(s, b.attacker), who(s, b.defender)
        winner = loser = ""
        lost: tuple[str, ...] = ()
        cards = {b.attacker: list(b.attacker_cards[:1]), b.defender: list(b.defender_cards[:1])}
        played = {b.attacker: [*b.attacker_cards], b.defender: [*b.defender_cards]}
        striker, struck = b.attacker, b.defender
        assert s.table.cards[b.attacker_cards[0]].weapon == b.weapon
        for i, strike in enumerate(b.strikes):
            assert (strike.striker, strike.struck) == (striker, struck)
            assert strike.card == cards[striker][-1] and strike.defence_card == cards[struck][-1]
            assert strike.weapon == s.table.cards[strike.card].weapon
            assert strike.value == attack(s, who(s, striker), strike.card)
            assert strike.defence == defence(s, who(s, struck), strike.defence_card, strike.weapon)
            if strike.reinforcement:
                assert strike.defence < strike.value, "a reinforcement only when the last card is not enough"
                extra = defence(s, who(s, struck), strike.reinforcement, strike.weapon)
                assert strike.reinforcement_defence == extra
                assert strike.result == ("reinforced" if strike.defence + extra >= strike.value else "broken")
                cards[struck].append(strike.reinforcement)
            elif strike.result == "repelled":
                assert strike.defence >= strike.value
            elif strike.result == "broken":
                assert strike.defence < strike.value
            last = i == len(b.strikes) - 1
            if strike.result in ("broken", "yielded"):
                assert last
                assert b.result == ("attacker" if striker == b.attacker else "defender")
            elif strike.result == "repelled" and struck == b.attacker:
                assert last and b.result == "tie"
            else:
                assert not last
            striker, struck = struck, striker
        assert cards[b.attacker] == played[b.attacker] and cards[b.defender] == played[b.defender]
        # The aftermath ('O que acontece depois de uma batalha?').
        if b.result == "tie":
            for side, own in ((b.attacker, b.attacker_cards), (b.defender, b.defender_cards)):
                q = who(after, side)
                assert all(c in q.discard or c in q.deck or c in q.hand for c in own)
        else:
            winner, loser = (b.attacker, b.defender) if b.result == "attacker" else (b.defender, b.attacker)
            lost = b.defender_cards if b.result == "attacker" else b.attacker_cards
            w_after, lo_after, lo = who(after, winner), who(after, loser), who(s, loser)
            captured = set(after.aftermath.captured) if after.phase == "place" else set()
            for c in lost:
                card = s.table.cards[c]
                persian_flee = eff(s, lo).flee_all and card.nation == lo.nation and not card.secured
                if card.flee or persian_flee:
                    if eff(s, who(s, winner)).captures_flee:
                        assert c in w_after.discard or c in w_after.deck or c in w_after.hand
                    else:
                        assert c in after.box
                elif card.secured:
                    assert c in lo_after.secured
                else:
                    assert c in captured or c in w_after.discard or c in w_after.deck or c in w_after.hand
        # 'Líderes Capturados': a city card flips for good when another player captures its leader.
        taken = set()
        if b.result != "tie":
            taken = {c for c in lost if c not in after.box and c not in who(after, loser).secured}
        for p in s.players:
            leader = s.table.nations[p.nation].leader
            flips = leader in taken and p.name != winner
            assert who(after, p.name).leader_captured == (p.leader_captured or flips), p.name
        if b.result in ("tie", "defender"):
            gain = 1 if s.supply else 0
            assert who(after, b.defender).charisma == dfn.charisma + gain
        else:
            assert who(after, b.defender).charisma == dfn.charisma
        assert who(after, b.attacker).charisma == att.charisma
        self.flip_inactive({"tie": b.attacker, "attacker": b.defender, "defender": b.attacker}[b.result])
        self.expected_next = b.attacker if b.result == "attacker" else b.defender

    def over(self, s: State, outcome) -> None:
        assert game_ends(s), "the game ended without its end condition"
        table = final_scores(s)
        assert outcome.scores == pytest.approx(table)
        best = max(table.values())
        leaders = [p for p in s.players if table[p.name] == best]
        if len(leaders) > 1:
            def power(p):
                counted = [*p.hand, *p.deck, *p.discard, *p.secured, *p.under]
                return max(((s.table.cards[c].points, s.table.cards[c].cost) for c in counted
                            if not s.table.cards[c].nation), default=(-1, -1))
            top = max(power(p) for p in leaders)
            leaders = [p for p in leaders if power(p) == top]
        assert set(outcome.winners) == {p.name for p in leaders}


def s_card(s: State, cid: str):
    return card(s, cid)  # a copy's id, or a decision's kind of copies alike (RULES.md, 'Copies alike')


def play(created: GameCreated, choose=None) -> tuple[Checker, State]:
    """Play a game to its end, checking every step. ``choose(legal)`` picks decisions (else the seats' bots)."""
    checker = Checker(created)
    last_turn = 0

    def each(step: Step) -> None:
        nonlocal last_turn
        state = step.before
        checker.state(state)
        if state.phase == "turn" and state.turn != last_turn:
            last_turn = state.turn
            checker.turn_start(state)
        if step.legal is not None:
            checker.decision(state, step.legal)
        checker.event(state, step.event, step.after)

    state = to_the_end(rs, created, each, choose)
    checker.state(state)
    checker.over(state, rs.pending(state).outcome)
    return checker, state


GAMES = [(n, seed, bots) for n in range(2, 6) for seed in range(1, 6) for bots in (("random",), ("greedy",))]


@pytest.mark.parametrize(("n", "seed", "bots"), GAMES, ids=[f"{n}p-s{s}-{b[0]}" for n, s, b in GAMES])
def test_invariants_hold_over_a_bot_game(n, seed, bots):
    play(created(n, seed, bots))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 5), seed=st.integers(0, 10_000), data=st.data())
def test_invariants_hold_for_chosen_decisions(n, seed, data):
    """Hypothesis picks every decision (chance still comes from the seed), so odd choices are tried too."""

    play(created(n, seed, ("random",)), chosen_by(data))


def test_the_checker_sees_a_lost_charisma_card():
    """The conservation check is not vacuous: a charisma card taken out of the supply by hand is noticed."""
    from msgspec.structs import replace

    c = created(3, 1, ("random",))
    state = rs.initial_state(c)
    checker = Checker(c)
    while not isinstance(rs.pending(state), Decision):
        p = rs.pending(state)
        assert isinstance(p, Chance)
        state = rs.apply(state, p.build(chance_mod.draw(p, chance_mod.rng_for(c.seed, 0, 0))))
    checker.state(state)
    with pytest.raises(AssertionError):
        checker.state(replace(state, supply=state.supply - 1))

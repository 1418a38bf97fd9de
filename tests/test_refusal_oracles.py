"""A refusal is no oracle for hidden information, in every ruleset.

A player may submit any event as JSON, not only a listed option; the rules refuse it naming the rule. If the refusal
(its text, or refused against accepted) depended on something that player may not see, crafted events would probe
it: "X is in P2's hand" against "X is not in a hand". So: two states that differ only in what the submitting player
may not see (the ruleset's own ``view`` of both is the same for them), the same event, the same answer.

The generic test plays seeded bot games of each ruleset and, at sampled decisions, changes hidden things in ways
the submitting player cannot see (cards swapped between other players' hands and the decks, face-down counters
and special tiles exchanged, coin backs changed), then submits the legal options of the original state and events
naming hidden identifiers, as the player to act and (``agon act --as``) as every other player. The options the
player to act is offered, in words too, whether a decision accepted shows the others something (then its player may
not take it back: the undo button), and what every seat is shown whatever it may see (the status, the scores, the
round) are the same in both states.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import pytest

from agon.core import registry
from agon.core import steps as steps_mod
from agon.core.autoplay import play_out
from agon.core.engine import Decision, RuleViolation, check, describe_pending, option_text
from agon.events.base import GameCreated, PlayerSeat
from tests.hidden import hidden_identifiers

replace = msgspec.structs.replace


def _created(name: str, n: int, seed: int, options: dict | None = None) -> GameCreated:
    rs = registry.get(name)
    players = tuple(PlayerSeat(f"P{i + 1}", "random") for i in range(n))
    return GameCreated(ruleset=name, ruleset_version=rs.version, players=players, seed=seed, options=options or {},
                       cards=rs.default_cards())


def answer(rs, state, event, actor: str) -> str | None:
    """What the rules answer ``actor`` submitting ``event``: None (accepted) or the refusal's text."""
    try:
        check(rs, state, event, actor)
    except RuleViolation as e:
        return e.rule
    return None


def same_to(rs, a, b, viewer: str) -> bool:
    """``a`` and ``b`` differ only in what ``viewer`` may not see (and the same decision is pending)."""
    return rs.view(a, viewer) == rs.view(b, viewer) and rs.pending(a) == rs.pending(b)


# --- hidden changes, ruleset by ruleset ------------------------------------------------------------------------
# Each yields candidate states; only those the viewer cannot tell from the original (``same_to``) are used.

Pools = list[list[str]]


def _swaps(pools: Pools, rng: random.Random, k: int) -> Iterator[Pools]:
    """``k`` changes of ``pools``, each swapping two different values at two random places."""
    places = [(i, j) for i, pool in enumerate(pools) for j in range(len(pool))]
    for _ in range(k * 4):
        if len(places) < 2:
            return
        (a, i), (b, j) = rng.sample(places, 2)
        if pools[a][i] == pools[b][j]:
            continue
        new = [list(p) for p in pools]
        new[a][i], new[b][j] = new[b][j], new[a][i]
        yield new


def _pergamemnon(s, viewer: str, rng: random.Random, k: int) -> Iterator[Any]:
    others = [i for i, p in enumerate(s.players) if p.name != viewer]
    b = s.battle
    laid = [] if b is None else [f for f, who in (("attacker_cards", b.attacker), ("defender_cards", b.defender))
                                 if who != viewer]  # face down until both are laid (the view tells)
    pools = ([list(s.players[i].hand) for i in others] + [list(p.deck) for p in s.players] + [list(s.creature_pool)]
             + [list(getattr(b, f)) for f in laid])
    for new in _swaps(pools, rng, k):
        players = list(s.players)
        for n, i in enumerate(others):
            players[i] = replace(players[i], hand=tuple(new[n]))
        for n, p in enumerate(players):
            players[n] = replace(p, deck=tuple(new[len(others) + n]))
        rest = new[len(others) + len(players):]
        battle = b if b is None else replace(b, **{f: tuple(cards) for f, cards in zip(laid, rest[1:])})
        yield replace(s, players=tuple(players), creature_pool=tuple(rest[0]), battle=battle)


def _adamastor(s, viewer: str, rng: random.Random, k: int) -> Iterator[Any]:
    others = [i for i, p in enumerate(s.players) if p != viewer and i < len(s.hands)]
    pools = [list(s.hands[i]) for i in others] + [list(s.deck), list(s.bottom)]
    for new in _swaps(pools, rng, k):
        hands = list(s.hands)
        for n, i in enumerate(others):
            hands[i] = tuple(new[n])
        yield replace(s, hands=tuple(hands), deck=tuple(new[-2]), bottom=tuple(new[-1]))


def _perikles(s, viewer: str, rng: random.Random, k: int) -> Iterator[Any]:
    me = s.players.index(viewer)
    if s.specials:
        others = [i for i in range(len(s.players)) if i != me and not s.used[i]]
        pools = [[s.specials[i] for i in others], list(s.deck)]
        for new in _swaps(pools, rng, k):
            specials = list(s.specials)
            for n, i in enumerate(others):
                specials[i] = new[0][n]
            yield replace(s, specials=tuple(specials), deck=tuple(new[1]))
    theirs = [n for n, c in enumerate(s.commits) if c.player != me]
    busy = {c.counter for c in s.commits} | set(s.lost) | set(s.revolted)
    for _ in range(k):
        if not theirs:
            return
        n = rng.choice(theirs)
        city = s.data.counter(s.commits[n].counter).city
        at_home = [c.id for c in s.data.counters if c.city == city and c.id not in busy]
        swap = [m for m in theirs if m != n and s.data.counter(s.commits[m].counter).city == city]
        commits = list(s.commits)
        if at_home and rng.random() < 0.5:
            commits[n] = replace(commits[n], counter=rng.choice(at_home))
        elif swap:
            m = rng.choice(swap)
            commits[n], commits[m] = (replace(commits[n], counter=commits[m].counter),
                                      replace(commits[m], counter=commits[n].counter))
        yield replace(s, commits=tuple(commits))


COIN_KINDS = ("wood", "stone", "grain", "people")


def _coins_moved(coins, rng: random.Random):
    have = [kind for kind in COIN_KINDS if getattr(coins, kind) > 0]
    if not have:
        return coins
    a = rng.choice(have)
    b = rng.choice([kind for kind in COIN_KINDS if kind != a])
    return replace(coins, **{a: getattr(coins, a) - 1, b: getattr(coins, b) + 1})


def _peloponnes(s, viewer: str, rng: random.Random, k: int) -> Iterator[Any]:
    for _ in range(k):
        seats = [replace(seat, hand=_coins_moved(seat.hand, rng)) if seat.name != viewer and rng.random() < 0.7
                 else seat for seat in s.seats]
        bids = [replace(b, coins=_coins_moved(b.coins, rng)) if b.player != viewer and rng.random() < 0.7 else b
                for b in s.bids]
        yield replace(s, seats=tuple(seats), bids=tuple(bids))


MUTATORS: dict[str, Callable[..., Iterator[Any]]] = {
    "pergamemnon": _pergamemnon, "adamastor": _adamastor, "perikles": _perikles, "peloponnes": _peloponnes,
}


# --- crafted events ----------------------------------------------------------------------------------------------


def _renamed(event, names: list[str], rng: random.Random) -> Iterator[Any]:
    """``event`` with one string in it (a card, a tile, a counter) replaced by each of ``names`` in turn."""
    obj = msgspec.to_builtins(event)
    places: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            if isinstance(value, str) and key != "player":
                places.append((node, key))
            else:
                walk(value)

    walk(obj)
    if not places:
        return
    for name in names:
        node, key = rng.choice(places)
        old = node[key]
        node[key] = name
        try:
            yield msgspec.convert(obj, type(event))
        except msgspec.ValidationError:
            pass
        node[key] = old


def crafted(rs, s, hidden: list[str], rng: random.Random, chance: list[Any], limit: int = 12) -> list[Any]:
    """Some legal options, some of the game's chance events (a player may submit one as JSON too), and a few of
    each with a hidden identifier put in."""
    legal = list(rs.legal(s))
    picked = rng.sample(legal, min(limit, len(legal))) + rng.sample(chance, min(2, len(chance)))
    out = list(picked)
    for ev in picked[:4] + picked[-2:]:
        out += _renamed(ev, rng.sample(hidden, min(6, len(hidden))), rng)
    return out


def _steps_differ(rs, s, t, viewer: str, rng: random.Random) -> list[tuple]:
    """A decision built step by step (core.steps: 'agon play', the server's /steps) along a random path: each
    question asked, with its choices, is the same in both states."""
    chosen: steps_mod.Chosen = ()
    for _ in range(12):
        a, b = steps_mod.ask(rs, s, chosen), steps_mod.ask(rs, t, chosen)
        if a != b:
            return [("steps", viewer, a, b)]
        if not isinstance(a, steps_mod.Question) or not a.choices:
            return []
        value = rng.choice(a.values)
        chosen = (*chosen, (a.field_of(value), value))
    return []


def option_texts(rs, s) -> list[str]:
    """The options as the player to act reads them ('agon options', the seat page's buttons)."""
    return [option_text(rs, s, e) for e in rs.legal(s)]


def shows(rs, s, ev, player: str, names: tuple[str, ...]) -> bool:
    """Whether ``player``'s decision ``ev`` shows the others something hidden from them (core/seats.py: then it is
    not theirs to take back, and their page offers no undo)."""
    from agon.core.engine import PUBLIC
    from agon.core.seats import showed

    return showed(rs, s, ev, rs.apply(s, ev), [PUBLIC, *(p for p in names if p != player)])


def seen_by_all(rs, s) -> tuple:
    """What every seat is shown whatever it may see: the status, the scores (the seat page, 'agon state --as',
    'agon compare --as') and the round."""
    return describe_pending(rs.pending(s)), rs.scores(s), rs.round(s)


def differences(name: str, n: int, seed: int, positions: int, options: dict | None = None) -> list[tuple]:
    """Every (event, actor, answer in the original, answer in the changed state) where the two differ."""
    rs = registry.get(name)
    created = _created(name, n, seed, options)
    events, _, _ = play_out(rs, created)
    rng = random.Random(seed)
    states, chance = [], []
    s = rs.initial_state(created)
    for ev in events[1:]:
        if isinstance(rs.pending(s), Decision):
            states.append(s)
        else:
            chance.append(ev)
        s = rs.apply(s, ev)
    found: list[tuple] = []
    tried = 0
    for s in rng.sample(states, min(positions, len(states))):
        acting = rs.pending(s).player
        for viewer in created.names:
            hidden = sorted(hidden_identifiers(rs, s, viewer))
            changed = [t for t in MUTATORS[name](s, viewer, rng, 3) if t != s and same_to(rs, s, t, viewer)]
            if not changed:
                continue
            events_ = crafted(rs, s, hidden, rng, chance, 12 if viewer == acting else 5)
            for t in changed:
                if seen_by_all(rs, s) != seen_by_all(rs, t):
                    found.append(("seen by all", viewer, seen_by_all(rs, s), seen_by_all(rs, t)))
                if viewer == acting:  # the options offered (and so the steps typed, and a number's range)
                    tried += 1
                    if list(rs.legal(s)) != list(rs.legal(t)):
                        found.append(("legal", viewer, rs.legal(s), rs.legal(t)))
                    elif option_texts(rs, s) != option_texts(rs, t):  # as the options list them, in words
                        found.append(("option texts", viewer, option_texts(rs, s), option_texts(rs, t)))
                    found += _steps_differ(rs, s, t, viewer, rng)
                for ev in events_:
                    tried += 1
                    a, b = answer(rs, s, ev, viewer), answer(rs, t, ev, viewer)
                    if a != b:
                        found.append((ev, viewer, a, b))
                    elif a is None and viewer == acting and (shows(rs, s, ev, viewer, created.names)
                                                             != shows(rs, t, ev, viewer, created.names)):
                        found.append(("shows the others", ev, viewer))
    assert tried, "no hidden change was tried: the test could not fail"
    return found


GAMES = [
    pytest.param("pergamemnon", 3, 4, {}, id="pergamemnon-3p"),
    pytest.param("pergamemnon", 2, 5, {}, id="pergamemnon-2p"),
    pytest.param("pergamemnon", 4, 12, {}, id="pergamemnon-4p"),
    pytest.param("peloponnes", 3, 4, {}, id="peloponnes-3p"),
    pytest.param("peloponnes", 2, 13, {}, id="peloponnes-2p"),
    pytest.param("peloponnes", 4, 14, {}, id="peloponnes-4p"),
    pytest.param("perikles", 3, 4, {}, id="perikles-3p"),
    pytest.param("perikles", 4, 9, {}, id="perikles-4p"),
    pytest.param("adamastor", 2, 11, {}, id="adamastor-2p"),
    pytest.param("adamastor", 2, 12, {"less_luck": "true"}, id="adamastor-2p-less-luck"),
    pytest.param("adamastor", 1, 15, {}, id="adamastor-solo"),
]


@pytest.mark.parametrize(("name", "n", "seed", "options"), GAMES)
def test_no_refusal_depends_on_what_its_submitter_may_not_see(name, n, seed, options):
    found = differences(name, n, seed, positions=30, options=options)
    assert not found, found[:3]


# --- the oracles found, one by one --------------------------------------------------------------------------------


def _swapped_with_deck(s, card: str, deck_card: str):
    """Adamastor: ``card`` (in a hand) and ``deck_card`` (in the deck) change places."""
    hands = tuple(tuple(deck_card if c == card else c for c in h) for h in s.hands)
    deck = tuple(card if c == deck_card else c for c in s.deck)
    return replace(s, hands=hands, deck=deck)


def test_adamastor_learning_a_skill_from_a_hidden_card_does_not_tell_whether_the_partner_holds_it():
    """Co-op (9.3): P2 learns a skill and names c3, which P1 holds, or which lies in the deck: P2 sees neither, so
    the refusal is the same ("not in P2's hand"); it once said "not in a hand" for the deck."""
    from agon.events.adamastor import ActionsEnded, SkillLearned
    from tests.adamastor.test_coop_and_variants import coop

    rs = registry.get("adamastor")
    s = replace(coop(strip=("c40", "c37", "c36")), hands=(("c3", "c1", "c5"), ("c10", "c13", "c6")))
    s = rs.apply(s, ActionsEnded())
    assert rs.pending(s) == Decision("P2", "learn a skill or not")
    t = _swapped_with_deck(s, "c3", s.deck[0])
    assert "c3" in s.hands[0] and "c3" in t.deck and same_to(rs, s, t, "P2")
    ev = SkillLearned(card="c3")
    assert answer(rs, s, ev, "P2") == answer(rs, t, ev, "P2")
    assert "Piloto (3) is not in P2's hand, and P2 decides now" in answer(rs, t, ev, "P2")


# --- noticed, outside the files this audit may change -------------------------------------------------------------


def _table_game(svc, alter: str | None) -> tuple[str, Any]:
    """A Pergamemnon table game (seed 4) played to its first decision, every chance outcome the seed's draw except,
    with ``alter``, that player's cards drawn: the other cards of their deck instead (hidden from the others)."""
    from agon.core import chance as chance_mod
    from agon.core.service import NewGame
    from agon.events.pergamemnon import CardsDrawn

    gid = svc.new_game(NewGame(ruleset="pergamemnon", players=("Ana", "Bo", "Cy"), seed=4, table=True))
    while True:
        line = svc.load(gid)
        p = line.pending
        if isinstance(p, Decision):
            return gid, line
        ev = p.build(chance_mod.draw(p, chance_mod.rng_for(line.created.seed, line.branch.luck, line.chance_count)))
        if isinstance(ev, CardsDrawn) and ev.player == alter:
            ev = replace(ev, cards=tuple(c for c in p.items if c not in ev.cards)[:p.count])
        svc.record(gid, msgspec.json.encode(ev).decode())


def test_a_choice_typed_out_of_turn_is_not_read_against_the_hidden_options_of_the_player_to_act(tmp_path):
    """``agon act GAME 99 --as Ana`` while Bo must decide is refused for the turn order before the choice is read:
    read against Bo's options, 'choose 1 to N' counted them and a typed step that did not match listed their values,
    both depending on Bo's hand, which Ana cannot see. (The server refuses a seat out of turn the same way.)"""
    from agon.core.service import Service, ServiceError
    from agon.events.store import Store

    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    svc = Service(store)
    try:
        ga, la = _table_game(svc, None)
        gb, lb = _table_game(svc, "Bo")
        rs = la.ruleset
        assert la.pending == lb.pending == Decision("Bo", "recruit a creature or attack")
        assert la.state != lb.state and same_to(rs, la.state, lb.state, "Ana")
        told = []
        for gid in (ga, gb):
            with pytest.raises(ServiceError) as refused:
                svc.record(gid, "99", as_player="Ana")
            told.append(str(refused.value))
        assert told[0] == told[1], told
    finally:
        store.close()


# --- what a chance tells every seat ---------------------------------------------------------------------------------


def _deck_and_hands(s, viewer: str, rng: random.Random, k: int) -> Iterator[Any]:
    """Peloponnes: a back moved between the coin deck and a hand the viewer cannot see (the deck's count stays)."""
    for _ in range(k):
        others = [i for i, seat in enumerate(s.seats) if seat.name != viewer and seat.hand.total()]
        if not others:
            return
        i = rng.choice(others)
        give = rng.choice([kind for kind in COIN_KINDS if getattr(s.seats[i].hand, kind)])
        take = [kind for kind in COIN_KINDS if kind != give and getattr(s.deck, kind)]
        if not take:
            continue
        got = rng.choice(take)
        hand = replace(s.seats[i].hand, **{give: getattr(s.seats[i].hand, give) - 1,
                                           got: getattr(s.seats[i].hand, got) + 1})
        deck = replace(s.deck, **{give: getattr(s.deck, give) + 1, got: getattr(s.deck, got) - 1})
        seats = list(s.seats)
        seats[i] = replace(seats[i], hand=hand)
        yield replace(s, seats=tuple(seats), deck=deck)


def told(chance) -> tuple:
    """What every seat learns of a chance due: the status (its description), whether the service records it by
    itself at a table, and what a recorder is offered for an ``unseen`` draw."""
    return chance.describe(), chance.forced, getattr(chance, "unseen", ())


SMALL_COIN_DECK = {"wood": 27, "stone": 1, "grain": 1, "people": 1}
"""A Peloponnes coin deck that soon holds wood alone, where a draw once went by itself (the audit's find)."""


@pytest.mark.parametrize(("name", "n", "seed", "options"), [*GAMES, pytest.param(
    "peloponnes", 3, 21, {"coins": SMALL_COIN_DECK}, id="peloponnes-small-coin-deck")])
def test_no_chance_tells_a_seat_what_it_may_not_see(name, n, seed, options):
    """At every chance of a seeded game, the states a seat cannot tell apart from it (hidden cards swapped, coin
    backs moved between hands and the deck) give the same status and the same answer to whether the service records
    it by itself at a real table: a draw recorded by itself once told every seat that the coin deck held one kind of
    back alone."""
    rs = registry.get(name)
    options = dict(options)
    coins = options.pop("coins", None)
    created = _created(name, n, seed, options)
    if coins:
        created = replace(created, cards={**created.cards, "coins": coins})
    events, _, _ = play_out(rs, created)
    rng = random.Random(seed)
    mutate = [MUTATORS[name], *([_deck_and_hands] if name == "peloponnes" else [])]
    s, tried, found = rs.initial_state(created), 0, []
    for ev in events[1:]:
        chance = rs.pending(s)
        if not isinstance(chance, Decision):
            for viewer in created.names:
                for t in (t for m in mutate for t in m(s, viewer, rng, 2)):
                    if t == s or rs.view(t, viewer) != rs.view(s, viewer):
                        continue
                    tried += 1
                    if told(rs.pending(t)) != told(chance):
                        found.append((viewer, told(chance), told(rs.pending(t))))
        s = rs.apply(s, ev)
    assert tried, "no hidden change was tried: the test could not fail"
    assert not found, found[:3]

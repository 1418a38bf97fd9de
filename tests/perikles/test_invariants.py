"""Perikles: what must hold at every step of a game, by the rule texts, checked over seeded bot games.

Rule texts: ../shared/rules/perikles-game-help.pt.txt (the help) and perikles-data-facts.md (the facts, which win
where the two disagree); the readings chosen are in core/games/perikles/RULES.md. Each check below recomputes what
the text says from the state it can see (the facts' tables are written out here again, not read from the card
set), and compares it with what the rules code did.

Games: random bots at 3, 4 and 5 players over several seeds, and greedy bots at 3 and 5 players. Every step of every
game is checked, and a hypothesis test plays games whose every decision hypothesis chooses among those offered.
"""

from __future__ import annotations

from collections import Counter as Multiset

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.core.games.perikles import RULESET as RS
from agon.core.games.perikles.state import BATTLE, COMMIT, DEAL_LOCATIONS, INFLUENCE, NOBODY, NOMINATE, OVER, State
from agon.events.base import GameCreated, PlayerSeat
from agon.events.perikles import (
    BattleDiceRolled,
    BattleTilePlayed,
    CandidateNominated,
    ForcesCommitted,
    InfluenceTileTaken,
    NominationPassed,
    PermissionGiven,
    SlaveRevoltStruck,
)
from tests.played import chosen_by, played, to_the_end

# perikles-data-facts.md, "Statue points per statue" (0, 1, 2, 3 defeats; beyond the list: 0).
STATUE_POINTS = {
    "athens": (5, 5, 3, 1), "sparta": (5, 4, 3, 2), "argos": (6, 3),
    "corinth": (9, 7, 5, 3), "thebes": (7, 5, 3), "megara": (6, 3),
}
# perikles-data-facts.md, "Location tiles": points of each tile.
LOCATION_POINTS = {
    "Amphipolis": 6, "Lesbos": 4, "Plataea": 4, "Naupactus": 4, "Potidea": 5, "Acarnania": 3, "Attica": 4,
    "Melos": 3, "Epidaurus": 4, "Pylos": 4, "Sicily": 7, "Cephallenia": 4, "Cythera": 3, "Spartolus": 4,
    "Megara": 5, "Mantinea": 5, "Delium": 5, "Aetolia": 3, "Corcyra": 3, "Leucas": 4, "Solygeia": 4,
}
# perikles-data-facts.md, "Combat results table": what the attacker / defender needs on 2d6, by column.
ATTACKER_NEEDS = (10, 9, 8, 7, 6, 5)
DEFENDER_NEEDS = (5, 6, 7, 8, 9, 10)
# perikles-data-facts.md, "Influence deck": 36 tiles, of them 2-cube tiles per city.
TWO_CUBE_TILES = {"athens": 3, "sparta": 3, "argos": 2, "corinth": 2, "thebes": 2, "megara": 2}
COUNTERS = {  # "Military counters": hoplites + triremes per city
    "athens": 6 + 8, "sparta": 10 + 4, "argos": 6 + 3, "corinth": 5 + 5, "thebes": 7 + 2, "megara": 2 + 3,
    "persia": 6 + 4,
}


def column_of(a: int, d: int) -> int:
    """The facts' column choice, first match wins: 3:1, 2:1, +2, 1:1, -2, else 1:2 (index 5 down to 0)."""
    if a >= 3 * d:
        return 5
    if a >= 2 * d:
        return 4
    if a >= d + 2:
        return 3
    if a >= d or (a > 1 and a >= d - 1):
        return 2
    return 1 if 2 * a > d else 0


def created(players: int, seed: int, bot: str = "random") -> GameCreated:
    seats = tuple(PlayerSeat(f"P{i + 1}", bot) for i in range(players))
    return GameCreated(ruleset="perikles", ruleset_version=RS.version, players=seats, seed=seed,
                       cards=RS.default_cards())


# ---------------------------------------------------------------------------------------------------------------
# Checks on one step


def standing_counters(s: State) -> set[str]:
    return {cm.counter for cm in s.commits if cm.counter not in s.lost and cm.counter not in s.revolted}


def check_counters(s: State) -> None:
    """Every counter is in one place: home, committed once, lost (for the game, Persians for the turn) or revolted
    (for the turn); counter totals per city are the facts' table."""
    assert Multiset(c.city for c in s.data.counters) == Multiset(COUNTERS)
    ids = [cm.counter for cm in s.commits]
    assert len(ids) == len(set(ids)), "a counter committed twice"
    assert len(s.lost) == len(set(s.lost))
    assert not set(s.revolted) & set(s.lost)
    for x in s.revolted:  # Slave Revolt: "Remove 1 Spartan hoplite"
        c = s.data.counter(x)
        assert (c.city, c.kind) == ("sparta", "H")
    if s.phase not in (COMMIT, BATTLE):
        assert not s.commits and not s.revolted
        assert all(s.data.counter(x).city != "persia" for x in s.lost), "Persians return at the end of a turn"


def check_commitments(s: State, permitted: set | None = None) -> None:
    """The help's restrictions and the facts' alliances and wars hold among all counters committed this turn."""
    mains: dict[tuple[str, str], int] = {}
    sides: dict[str, tuple[set[str], set[str]]] = {}
    player_side: dict[tuple[int, str], str] = {}
    for cm in s.commits:
        counter = s.data.counter(cm.counter)
        loc = s.data.location(cm.location)
        assert cm.location in s.locations
        # Who commands the counter: a city's leader, or a player leading no city the Persians.
        if counter.city == "persia":
            assert cm.player not in s.leaders
        else:
            assert s.leaders[s.data.city_index(counter.city)] == cm.player
        # "um líder não pode atacar um local da cidade que ele lidera"; a unit may not attack its own city's location.
        if cm.side == "attacker":
            assert counter.city != loc.city
            assert s.leaders[s.data.city_index(loc.city)] != cm.player
        # "um líder não pode estar dos dois lados do mesmo local"
        assert player_side.setdefault((cm.player, cm.location), cm.side) == cm.side
        # "Apenas um jogador pode ser o atacante ou defensor principal"; an ally joins a side that has a main.
        if cm.role == "main":
            assert mains.setdefault((cm.location, cm.side), cm.player) == cm.player
            # "Você pode ser o defensor principal de uma cidade que não lidera, mas precisa da permissão do líder"
            leader = s.leaders[s.data.city_index(loc.city)]
            if cm.side == "defender" and leader not in (NOBODY, cm.player) and permitted is not None:
                assert (cm.player, cm.location) in permitted, "a main defender without the leader's permission"
        else:
            assert (cm.location, cm.side) in mains, "an ally before any main player"
        att, dfn = sides.setdefault(cm.location, (set(), {loc.city}))
        (att if cm.side == "attacker" else dfn).add(counter.city)
    allies: set[frozenset[str]] = set()
    wars: set[frozenset[str]] = set()
    for att, dfn in sides.values():
        assert not att & dfn, "a city on both sides of one location"
        for group in (att, dfn):
            allies |= {frozenset((x, y)) for x in group for y in group if x != y}
        wars |= {frozenset((x, y)) for x in att for y in dfn}
    assert not allies & wars, f"cities both allied and at war: {allies & wars}"
    # "Se um líder está atacando uma cidade em um local, ele não pode defendê-la em outro."
    for (p, loc_name), side in player_side.items():
        if side != "attacker":
            continue
        city = s.data.location(loc_name).city
        for (q, other), side2 in player_side.items():
            if q == p and side2 == "defender":
                assert s.data.location(other).city != city


def check_step(before: State, e, after: State, log: dict) -> None:
    check_counters(after)
    # Defeats only grow; lost city counters never come back ("tropas não descartadas" return).
    assert all(a >= b for a, b in zip(after.defeats, before.defeats, strict=True))
    ended = before.phase in (COMMIT, BATTLE) and after.phase in (DEAL_LOCATIONS, OVER)
    if not ended:
        assert set(before.lost) <= set(after.lost)
    else:
        assert {x for x in before.lost if before.data.counter(x).city != "persia"} <= set(after.lost)
    assert all(n >= 0 for row in after.cubes for n in row)
    # Location tiles: 7 a turn, never dealt twice; every won tile was dealt, and is held by one player.
    assert len(after.dealt) == len(set(after.dealt)) == 7 * after.turn
    won = [t for hand in after.won for t in hand]
    assert len(won) == len(set(won)) and set(won) <= set(after.dealt)

    match e:
        case InfluenceTileTaken():
            # One tile each in turn from the first player; the display is full (10) before each take.
            assert before.phase == INFLUENCE and len(before.display) == 10 and e.tile in before.display
            k = sum(before.taken)
            assert e.player == before.players[(before.first + k) % len(before.players)]
        case CandidateNominated() | NominationPassed():
            assert before.phase == NOMINATE
            check_nominations_offered(before)
            log["nominations"] += 1
        case ForcesCommitted():
            p = before.players.index(e.player)
            assert e.tile in before.hands[p]
            # "começando pelas de 2 cerâmicas": while any 2-cube tile is held, only 2-cube tiles are spent.
            if any(t.endswith("-2") for hand in before.hands for t in hand):
                assert e.tile.endswith("-2")
            n = len(e.placements)
            assert n <= (4 if e.cube else 2), "0 to 2 counters, up to 2 more with a sacrificed cube"
            assert len({pl.location for pl in e.placements}) <= 2, "to 1 or 2 locations"
            if e.cube:
                # "sacrificar um cubo de influência seu da cidade que lidera e mandou a tropa" (any city for a
                # player commanding the Persians, help 18th paragraph); for 2 counters or fewer it is pointless.
                assert n > 2
                c = before.data.city_index(e.cube)
                assert before.cubes[c][p] >= 1
                cities = {before.data.counter(pl.counter).city for pl in e.placements}
                assert before.leaders[c] == p and e.cube in cities or "persia" in cities and p not in before.leaders
                if after.request is None:
                    assert after.cubes[c][p] == before.cubes[c][p] - 1
        case PermissionGiven():
            if e.granted:
                r = before.request
                assert r is not None and e.player == before.players[r.leader]
                log["permitted"].add((r.player, r.location))
        case BattleDiceRolled():
            check_roll(before, e, after)
        case SlaveRevoltStruck():
            assert after.revolted == before.revolted + (e.counter,)
        case BattleTilePlayed():
            assert not before.used[before.players.index(e.player)], "a special tile is used once"

    # Tile quotas: when nominations start, every player holds exactly the facts' number of influence tiles.
    if before.phase == INFLUENCE and after.phase in (NOMINATE, COMMIT):
        quota = 5 if len(after.players) <= 4 else 4
        assert all(len(h) == quota for h in after.hands)
        assert Multiset(t for h in after.hands for t in h) + Multiset(after.display) + Multiset(after.deck) == \
            Multiset(after.data.deck)
        assert sum(1 for t in after.data.deck if t.endswith("-2")) == sum(TWO_CUBE_TILES.values())
        assert len(after.data.deck) == 36
    if before.phase != COMMIT and after.phase == COMMIT:
        check_elections(before, e, after)
    if after.phase in (COMMIT, BATTLE):
        check_commitments(after, log["permitted"])
    if ended:
        check_turn_end(before, after, log)


def check_nominations_offered(s: State) -> None:
    """Help, 5th paragraph: one may nominate anyone ("Não precisa indicar a sua cor") for A or B in any city by
    raising one of the nominee's cubes there, or pass; RULES.md: not one player in both A and B of one city. Every
    such nomination is offered, and nothing else."""
    me = s.players[s.actor]
    expect = {("pass",)}
    for c, city in enumerate(s.data.cities):
        for k, slot in enumerate(("A", "B")):
            if s.candidates[c][k] != NOBODY:
                continue
            for n, name in enumerate(s.players):
                if s.cubes[c][n] >= 1 and s.candidates[c][1 - k] != n:
                    expect.add((city, name, slot))
    offered = {("pass",) if isinstance(e, NominationPassed) else (e.city, e.nominee, e.slot) for e in RS.legal(s)}
    assert offered == expect
    assert all(e.player == me for e in RS.legal(s))


def check_roll(before: State, e: BattleDiceRolled, after: State) -> None:
    """Strengths from the counters standing and the location's +1, the facts' column, a lone hit moves the token
    one step, both or neither hitting rolls again; 2 steps win."""
    b = before.battle
    assert b is not None and b.stage == "dice"
    name = before.locations[b.loc]
    loc = before.data.location(name)
    kind = loc.battles[b.index]
    doubled = {("sparta", "H") if t == "brasidas" else ("athens", "T") for t in b.played if t in ("brasidas",
                                                                                                   "phormio")}
    strength = {}
    for side in ("attacker", "defender"):
        total = 0
        any_unit = False
        for cm in before.commits:
            if cm.location != name or cm.side != side or cm.counter in before.lost or cm.counter in before.revolted:
                continue
            c = before.data.counter(cm.counter)
            if c.kind == kind:
                any_unit = True
                total += c.strength * (2 if (c.city, c.kind) in doubled else 1)
        bonus = 1 if loc.bonus_side == side and kind in loc.bonus_in else 0
        # Purple symbols never attack alone; grey ones defend on their own (help, 17th paragraph).
        strength[side] = total + (bonus if any_unit or side == "defender" else 0)
        if side == "attacker":
            assert any_unit, "a battle rolled with no attacking counter"
    k = column_of(strength["attacker"], strength["defender"])
    hit_a = sum(e.attacker) >= ATTACKER_NEEDS[k]
    hit_d = sum(e.defender) >= DEFENDER_NEEDS[k]
    token = b.token + (1 if hit_a and not hit_d else -1 if hit_d and not hit_a else 0)
    if abs(token) < 2:
        assert after.battle is not None and after.battle.loc == b.loc and after.battle.index == b.index
        assert after.battle.token == token
    else:
        fought = after.fought[len(before.fought)]
        assert fought.location == name and fought.kind == kind
        assert fought.winner == ("attacker" if token > 0 else "defender")
        # The loser loses its lowest counter of that kind, the main player's when he has one.
        loser = "defender" if token > 0 else "attacker"
        pool = [(cm, before.data.counter(cm.counter)) for cm in before.commits
                if cm.location == name and cm.side == loser and cm.counter not in before.lost
                and cm.counter not in before.revolted and before.data.counter(cm.counter).kind == kind]
        main = [u for u in pool if u[0].role == "main"]
        if pool:
            lowest = min(c.strength for _, c in (main or pool))
            assert fought.lost and before.data.counter(fought.lost).strength == lowest
            assert fought.lost in {c.id for _, c in (main or pool)}
        else:
            assert not fought.lost


def check_elections(before: State, e, after: State) -> None:
    """Help, 6th paragraph with RULES.md: most cubes wins (tie to A), both candidate cubes leave, a contested winner
    loses 4 more (all he has if fewer), a lone candidate none; a city without candidates has no leader."""
    # The state just before the elections (the last nomination event's own change applied first).
    if isinstance(e, CandidateNominated):
        c = before.data.city_index(e.city)
        n = before.players.index(e.nominee)
        pair = list(before.candidates[c])
        pair[0 if e.slot == "A" else 1] = n
        cands = list(before.candidates)
        cands[c] = tuple(pair)
        cubes = [list(row) for row in before.cubes]
        cubes[c][n] -= 1
    elif isinstance(e, NominationPassed):
        cands = list(before.candidates)
        cubes = [list(row) for row in before.cubes]
    else:
        return  # the influence phase filled every position; checked through nominations in other games
    for c, _city in enumerate(before.data.cities):
        a, b = cands[c]
        if a == NOBODY and b == NOBODY:
            assert after.leaders[c] == NOBODY
            assert list(after.cubes[c]) == cubes[c]
        elif NOBODY in (a, b):
            assert after.leaders[c] == (a if a != NOBODY else b)
            assert list(after.cubes[c]) == cubes[c]
        else:
            w = a if cubes[c][a] >= cubes[c][b] else b
            assert after.leaders[c] == w
            expect = list(cubes[c])
            expect[w] -= min(4, expect[w])
            assert list(after.cubes[c]) == expect
    assert all(pair == (NOBODY, NOBODY) for pair in after.candidates)


def check_turn_end(before: State, after: State, log: dict) -> None:
    """Leaders become statues; the previous leader of Athens is the next first player; the game ends after the
    third turn or when Athens or Sparta has 4 defeats, and not otherwise."""
    statues = sum(n for row in after.statues for n in row)
    log["leaders"] += sum(1 for x in before.leaders if x != NOBODY)
    assert statues == log["leaders"]
    athens = before.leaders[before.data.city_index("athens")]
    assert after.first == (athens if athens != NOBODY else before.first)
    fatal = any(after.defeats[after.data.city_index(c)] >= 4 for c in ("athens", "sparta"))
    assert (after.phase == OVER) == (after.turn == 3 or fatal)
    assert all(x == NOBODY for x in after.leaders)
    assert not after.commits and not after.hands or all(not h for h in after.hands)


def check_final(s: State) -> None:
    """The help's final scoring, recomputed: 1 per cube, each location tile's points, each statue at its city's
    highest uncovered value; ties by location points, then statues; a persisting tie is shared."""
    keys = {}
    for p, name in enumerate(s.players):
        cubes = sum(row[p] for row in s.cubes)
        tiles = sum(LOCATION_POINTS[t] for t in s.won[p])
        statue_pts = 0
        count = 0
        for c, city in enumerate(s.data.cities):
            values = STATUE_POINTS[city]
            d = s.defeats[c]
            statue_pts += s.statues[p][c] * (values[d] if d < len(values) else 0)
            count += s.statues[p][c]
        total = cubes + tiles + statue_pts
        assert RS.scores(s)[name] == total
        keys[name] = (total, tiles, count)
    best = max(keys.values())
    outcome = RS.outcome(s)
    assert set(outcome.winners) == {n for n, k in keys.items() if k == best}
    # Defeats: one per location the attackers took, each such tile held by its main attacker.
    assert sum(s.defeats) == sum(1 for h in s.held if h.defeat)


def play_and_check(c: GameCreated) -> State:
    log: dict = {"leaders": 0, "permitted": set(), "nominations": 0}
    final = to_the_end(RS, c, lambda step: check_step(step.before, step.event, step.after, log))
    assert final.phase == OVER
    check_final(final)
    return final


GAMES = [(n, seed, "random") for n in (3, 4, 5) for seed in (11, 12)] + [(3, 21, "greedy"), (5, 22, "greedy")]


@pytest.mark.parametrize(("players", "seed", "bot"), GAMES, ids=[f"{b}-{n}p-s{s}" for n, s, b in GAMES])
def test_every_step_of_a_bot_game_keeps_the_rules(players, seed, bot):
    play_and_check(created(players, seed, bot))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(3, 5), seed=st.integers(0, 10_000))
def test_hypothesis_chosen_decisions_keep_the_rules(data, players, seed):
    """Every decision is one hypothesis picks among those ``legal`` offers; chance from the seed."""
    c = created(players, seed)
    log: dict = {"leaders": 0, "permitted": set(), "nominations": 0}
    s = to_the_end(RS, c, lambda step: check_step(step.before, step.event, step.after, log),
                   choose=chosen_by(data))
    assert s.phase == OVER
    check_final(s)


def test_no_seat_sees_another_players_unused_special_tile_or_face_down_counters():
    """RULES.md 'Views', from the texts: a special tile is hidden until used; committed counters lie face down until
    their location's battles begin. Checked against the texts directly (tests/test_hidden_information.py compares
    each seat's view with the ruleset's own full view, so it cannot see a view that both leave too open)."""
    import msgspec

    views = 0
    for s in (step.after for step in played(RS, created(4, 11))):
        started = s.battle.loc if s.phase == BATTLE and s.battle is not None else -1
        for p, name in enumerate(s.players):
            text = msgspec.json.encode(RS.view(s, name)).decode()
            views += 1
            for q, tile in enumerate(s.specials):
                if q != p and tile and not s.used[q]:
                    assert f'"{tile}"' not in text, (s.phase, name, tile)
            for cm in s.commits:
                if cm.player != p and s.locations.index(cm.location) > started:
                    assert cm.counter not in text, (s.phase, name, cm.counter)
    assert views > 500

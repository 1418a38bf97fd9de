"""The commitment of forces: influence tiles spent in order, counters sent to locations, alliances and wars.

Follows ../shared/rules/perikles-game-help.pt.txt, paragraphs 7-11 (starting with Sparta's leader, 2-cube tiles
first, 0-2 units to 1-2 locations, attacker/defender columns, main and allies, the permission rule, the
restrictions on attacking one's own city and on fighting on both sides, the sacrificed cube) and 16 (the
Persians); perikles-data-facts.md "Alliances and wars within a turn" and "Slave Revolt". Readings: RULES.md.
"""

from __future__ import annotations

from itertools import combinations

from agon.core.games.perikles.data import PERSIA, ROLES, SIDES, Counter, Data, city_name, counter_label, tile_name
from agon.core.games.perikles.state import (
    BATTLE,
    COMMIT,
    NOBODY,
    Battle,
    Commit,
    Request,
    State,
    add_cubes,
    at_home,
    commands,
    cube_count,
    eligible_tiles,
    home_counters,
    leader_of,
    leads_any,
    main_of,
    next_seat,
    pidx,
    replace,
    set_at,
    units,
)
from agon.events.perikles import ForcesCommitted, PermissionGiven, Placement, SlaveRevoltPlayed, SlaveRevoltStruck

R_COMMIT = "Commitments (game help, 'mobilização de tropas')"
R_OWN = "Commitments (game help, 'um líder não pode atacar um local da cidade que ele lidera')"
R_SIDES = "Alliances and wars (data facts, 'Alliances and wars within a turn')"
R_PERMISSION = "Permission (game help, 'precisa da permissão do líder')"
R_SACRIFICE = "Sacrifice (game help, 'sacrificar um cubo de influência')"
R_REVOLT = "Slave Revolt (data facts, 'Special tiles')"


# ---------------------------------------------------------------------------------------------------------------
# Turn order


def first_committer(s: State, start: int) -> int:
    """From ``start`` round the table, the first player holding a tile that may be spent now."""
    p = start
    for _ in range(len(s.players)):
        if eligible_tiles(s, p):
            return p
        p = next_seat(s, p)
    return start


def after_commitment(s: State, player: int) -> State:
    if not any(s.hands):
        return replace(s, phase=BATTLE, battle=Battle(), actor=s.first)
    return replace(s, actor=first_committer(s, next_seat(s, player)))


# ---------------------------------------------------------------------------------------------------------------
# Relations: cities on one side of a battle are allies, on opposite sides at war (owners defend their locations)


_RELATIONS: dict[tuple[int, tuple[Commit, ...]], tuple[Data, tuple[set[frozenset[str]], set[frozenset[str]]]]] = {}


def relations(s: State, commits: tuple[Commit, ...]) -> tuple[set[frozenset[str]], set[frozenset[str]]]:
    """(allied pairs, warring pairs) of cities, from the commitments so far (memoised: a pure function)."""
    key = (id(s.data), commits)
    found = _RELATIONS.get(key)
    if found is None or found[0] is not s.data:
        if len(_RELATIONS) > 512:
            _RELATIONS.clear()
        found = _RELATIONS[key] = (s.data, _relations(s, commits))
    return found[1]


def _relations(s: State, commits: tuple[Commit, ...]) -> tuple[set[frozenset[str]], set[frozenset[str]]]:
    sides: dict[str, tuple[set[str], set[str]]] = {}
    for cm in commits:
        att, dfn = sides.setdefault(cm.location, (set(), {s.data.location(cm.location).city}))
        (att if cm.side == "attacker" else dfn).add(s.data.counter(cm.counter).city)
    allies: set[frozenset[str]] = set()
    wars: set[frozenset[str]] = set()
    for att, dfn in sides.values():
        for group in (att, dfn):
            allies |= {frozenset((x, y)) for x in group for y in group if x != y}
        wars |= {frozenset((x, y)) for x in att for y in dfn if x != y}
    return allies, wars


def side_cities(s: State, commits: tuple[Commit, ...], location: str, side: str) -> set[str]:
    cities = {s.data.counter(c.counter).city for c in commits if c.location == location and c.side == side}
    if side == "defender":
        cities.add(s.data.location(location).city)
    return cities


# ---------------------------------------------------------------------------------------------------------------
# Checking one placement against the commitments so far


def placement_error(
    s: State, commits: tuple[Commit, ...], player: int, pl: Placement, used: set[str]
) -> tuple[str | None, int]:
    """(the broken rule or None, the leader whose permission is needed or NOBODY)."""
    if not s.data.has_counter(pl.counter):
        return f"{R_COMMIT}: {pl.counter!r} is not a military counter", NOBODY
    counter = s.data.counter(pl.counter)
    name = s.players[player]
    if not commands(s, player, counter.city):
        who = "lead no city" if counter.city == PERSIA else f"lead {city_name(counter.city)}"
        return f"{R_COMMIT}: {name} does not command the {counter_label(counter)} (only players who {who} do)", NOBODY
    if pl.counter in used or not at_home(s, counter):
        return f"{R_COMMIT}: that {counter_label(counter)} is not at home to be sent", NOBODY
    if pl.location not in s.locations:
        return f"{R_COMMIT}: {pl.location!r} is not one of this turn's locations", NOBODY
    if pl.side not in SIDES or pl.role not in ROLES:
        return f"{R_COMMIT}: a counter goes as attacker or defender, main or ally", NOBODY
    loc = s.data.location(pl.location)
    owner = loc.city
    other = "defender" if pl.side == "attacker" else "attacker"
    if any(c.player == player and c.location == pl.location and c.side == other for c in commits):
        return f"{R_SIDES}: {name} already fights as {other} at {loc.name} and cannot be on both sides", NOBODY
    if pl.side == "attacker":
        if counter.city == owner:
            return f"{R_OWN}: a {owner} unit may not attack {loc.name}, a location of its own city", NOBODY
        if leader_of(s, owner) == player:
            return f"{R_OWN}: {name} leads {owner} and may not attack its location {loc.name}", NOBODY
    for c in commits:
        if c.player == player and s.data.location(c.location).city == owner and c.side == other:
            verb = "defends" if other == "defender" else "attacks"
            return f"{R_SIDES}: {name} {verb} {owner} at {c.location} and may not fight it the other way", NOBODY
    allies, wars = relations(s, commits)
    x = counter.city
    enemies = side_cities(s, commits, pl.location, other)
    friends = side_cities(s, commits, pl.location, pl.side)
    if x in enemies:
        return f"{R_SIDES}: {x} already stands on the other side at {loc.name}", NOBODY
    for y in enemies:
        if frozenset((x, y)) in allies:
            return f"{R_SIDES}: {x} and {y} are allies this turn and may not fight each other at {loc.name}", NOBODY
    for y in friends:
        if frozenset((x, y)) in wars:
            return f"{R_SIDES}: {x} and {y} are at war this turn and may not stand together at {loc.name}", NOBODY
    main = main_of_in(commits, pl.location, pl.side)
    if pl.role == "main":
        if main not in (NOBODY, player):
            return f"{R_COMMIT}: {s.players[main]} is already main {pl.side} at {loc.name}; join as ally", NOBODY
        if pl.side == "defender" and main == NOBODY:
            leader = leader_of(s, owner)
            if leader not in (NOBODY, player):
                if (player, pl.location) in s.refused:
                    return f"{R_PERMISSION}: {s.players[leader]} refused {name} at {loc.name} this turn", NOBODY
                return None, leader
    else:
        if main == NOBODY:
            return f"{R_COMMIT}: nobody is main {pl.side} at {loc.name} yet; an ally joins a main", NOBODY
        if main == player:
            return f"{R_COMMIT}: {name} is main {pl.side} at {loc.name}; more counters go there as main", NOBODY
    return None, NOBODY


def main_of_in(commits: tuple[Commit, ...], location: str, side: str) -> int:
    for c in commits:
        if c.location == location and c.side == side and c.role == "main":
            return c.player
    return NOBODY


def commitment_error(s: State, e: ForcesCommitted) -> tuple[str | None, int, str]:
    """(the broken rule or None, the leader whose permission is needed, the location concerned)."""
    p = pidx(s, e.player)
    if e.tile not in s.hands[p]:
        held = tile_name(e.tile) if e.tile in s.data.deck else f"{e.tile!r} influence tile"
        return f"{R_COMMIT}: {e.player} holds no {held} to spend", NOBODY, ""
    if e.tile not in eligible_tiles(s, p):
        return f"{R_COMMIT}: 2-cube tiles are spent first, while any player still holds one", NOBODY, ""
    limit = s.data.units_per_commitment + (s.data.extra_units if e.cube else 0)
    if len(e.placements) > limit:
        return f"{R_COMMIT}: at most {limit} counters per tile" + ("" if e.cube else " without a sacrificed cube"), \
            NOBODY, ""
    if len({pl.location for pl in e.placements}) > 2:
        return f"{R_COMMIT}: one tile sends counters to 1 or 2 locations, not more", NOBODY, ""
    if e.cube:
        if len(e.placements) <= s.data.units_per_commitment:
            return f"{R_SACRIFICE}: a cube is sacrificed only to send more than 2 counters", NOBODY, ""
        if e.cube not in s.data.cities or cube_count(s, e.cube, p) < 1:
            return f"{R_SACRIFICE}: {e.player} has no cube in {e.cube!r} to sacrifice", NOBODY, ""
        if leads_any(s, p):
            sent = {s.data.counter(pl.counter).city for pl in e.placements if s.data.has_counter(pl.counter)}
            if leader_of(s, e.cube) != p or e.cube not in sent:
                return f"{R_SACRIFICE}: the cube comes from a city you lead and whose units you send", NOBODY, ""
    commits = s.commits
    used: set[str] = set()
    need, where = NOBODY, ""
    for pl in e.placements:
        err, leader = placement_error(s, commits, p, pl, used)
        if err:
            return err, NOBODY, ""
        if leader != NOBODY:
            if need not in (NOBODY, leader) or (where and where != pl.location):
                return f"{R_PERMISSION}: ask one leader at a time for one location", NOBODY, ""
            need, where = leader, pl.location
        used.add(pl.counter)
        commits = commits + (Commit(pl.counter, p, pl.location, pl.side, pl.role),)
    return None, need, where


def apply_commitment(s: State, e: ForcesCommitted) -> State:
    err, leader, where = commitment_error(s, e)
    p = pidx(s, e.player)
    if leader != NOBODY:
        raw = tuple((pl.counter, pl.location, pl.side, pl.role) for pl in e.placements)
        return replace(s, request=Request(p, e.tile, raw, e.cube, leader, where))
    return _carry_out(s, p, e.tile, e.placements, e.cube)


def _carry_out(s: State, p: int, tile: str, placements: tuple[Placement, ...], cube: str) -> State:
    hand = list(s.hands[p])
    hand.remove(tile)
    new = tuple(Commit(pl.counter, p, pl.location, pl.side, pl.role) for pl in placements)
    s = replace(s, hands=set_at(s.hands, p, tuple(hand)), commits=s.commits + new, request=None)
    if cube:
        s = replace(s, cubes=add_cubes(s, cube, p, -1))
    return after_commitment(s, p)


def apply_permission(s: State, e: PermissionGiven) -> State:
    r = s.request
    assert r is not None
    if not e.granted:
        return replace(s, request=None, refused=s.refused + ((r.player, r.location),), actor=r.player)
    placements = tuple(Placement(counter=c, location=lo, side=si, role=ro) for c, lo, si, ro in r.placements)
    return _carry_out(s, r.player, r.tile, placements, r.cube)


# ---------------------------------------------------------------------------------------------------------------
# Slave Revolt: on one's own commitment turn, one Spartan hoplite (drawn blind at the place named) is removed


def revolt_places(s: State) -> list[str]:
    """Where the Slave Revolt may be played: Sparta when it has a leader and counters at home, or a location where
    Spartan counters stand, of any kind. Which of those counters are hoplites is hidden (laid face down; at home only
    the count shows), so the places offered, and a refusal, may not depend on it (RULES.md, 'Slave Revolt')."""
    places = []
    if any(c.city == "sparta" and at_home(s, c) for c in s.data.counters) and leader_of(s, "sparta") != NOBODY:
        places.append("sparta")
    for loc in s.locations:
        if any(c.city == "sparta" for side in SIDES for _, c in units(s, loc, side)):
            places.append(loc)
    return places


def revolt_victims(s: State) -> tuple[str, ...]:
    if s.revolt_place == "sparta":
        return tuple(c.id for c in s.data.counters if c.city == "sparta" and c.kind == "H" and at_home(s, c))
    return tuple(c.id for side in SIDES for _, c in units(s, s.revolt_place, side)
                 if c.city == "sparta" and c.kind == "H")


def validate_revolt(s: State, e: SlaveRevoltPlayed) -> str | None:
    p = pidx(s, e.player)
    if s.phase != COMMIT or s.request is not None or s.revolt_place:
        return f"{R_REVOLT}: the Slave Revolt is played on your own turn while committing forces"
    if s.specials[p] != "slave-revolt" or s.used[p]:
        return f"{R_REVOLT}: {e.player} holds no unused Slave Revolt tile"
    if e.place not in revolt_places(s):
        return (f"{R_REVOLT}: no Spartan counter stands at {e.place!r}; possible:"
                f" {', '.join(revolt_places(s)) or 'none'}")
    return None


def apply_revolt(s: State, e: SlaveRevoltPlayed) -> State:
    p = pidx(s, e.player)
    s = replace(s, used=set_at(s.used, p, True), revolt_place=e.place)
    if not revolt_victims(s):  # only triremes there: the revolt finds no hoplite and removes nothing
        s = replace(s, revolt_place="")
    return s


def validate_struck(s: State, e: SlaveRevoltStruck) -> str | None:
    if e.counter not in revolt_victims(s):
        return f"{R_REVOLT}: {e.counter!r} is not a Spartan hoplite at {s.revolt_place}"
    return None


def apply_struck(s: State, e: SlaveRevoltStruck) -> State:
    return replace(s, revolted=s.revolted + (e.counter,), revolt_place="")


# ---------------------------------------------------------------------------------------------------------------
# A canonical list of commitments


def _kinds(counters: list[Counter]) -> list[Counter]:
    """One counter of each (city, kind, strength), the first by id."""
    seen: dict[tuple[str, str, int], Counter] = {}
    for c in counters:
        seen.setdefault((c.city, c.kind, c.strength), c)
    return list(seen.values())


def legal_commitments(s: State) -> list[ForcesCommitted]:
    """Spend each eligible tile: with no counter; one or two counters at one location and side (every distinct
    kind of counter); and, with a sacrificed cube, the four strongest counters of one city and kind."""
    p = s.actor
    player = s.players[p]
    tiles = sorted(set(eligible_tiles(s, p)))
    home = home_counters(s, p)
    kinds = _kinds(home)
    out: list[ForcesCommitted] = []
    wars = relations(s, s.commits)[1]
    for tile in tiles:
        out.append(ForcesCommitted(player=player, tile=tile))
    tile = tiles[0]
    for loc in s.locations:
        for side in SIDES:
            main = main_of(s, loc, side)
            role = "main" if main in (NOBODY, p) else "ally"
            singles = []
            for c in kinds:
                pl = Placement(counter=c.id, location=loc, side=side, role=role)
                if placement_error(s, s.commits, p, pl, set())[0] is None:
                    singles.append(c)
                    out.append(ForcesCommitted(player=player, tile=tile, placements=(pl,)))
            ok = {(k.city, k.kind, k.strength) for k in singles}
            pool = [c for c in home if (c.city, c.kind, c.strength) in ok]
            seen = set()
            for a, b in combinations(pool, 2):
                key = tuple(sorted(((a.city, a.kind, a.strength), (b.city, b.kind, b.strength))))
                # Two counters each valid alone are valid together unless their cities are at war.
                if key in seen or frozenset((a.city, b.city)) in wars:
                    continue
                seen.add(key)
                out.append(ForcesCommitted(player=player, tile=tile, placements=(
                    Placement(counter=a.id, location=loc, side=side, role=role),
                    Placement(counter=b.id, location=loc, side=side, role=role))))
            out += _sacrifices(s, p, tile, loc, side, role, pool)
    return out


def _sacrifices(s: State, p: int, tile: str, loc: str, side: str, role: str, pool: list[Counter]) -> list:
    out = []
    groups: dict[tuple[str, str], list[Counter]] = {}
    for c in pool:
        groups.setdefault((c.city, c.kind), []).append(c)
    for (city, _kind), group in groups.items():
        if len(group) <= s.data.units_per_commitment:
            continue
        best = sorted(group, key=lambda c: -c.strength)[: s.data.units_per_commitment + s.data.extra_units]
        cube = city if city != PERSIA else max(s.data.cities, key=lambda x: cube_count(s, x, p))
        ev = ForcesCommitted(player=s.players[p], tile=tile, cube=cube, placements=tuple(
            Placement(counter=c.id, location=loc, side=side, role=role) for c in best))
        if commitment_error(s, ev)[0] is None:
            out.append(ev)
    return out


def legal_permission(s: State) -> list[PermissionGiven]:
    assert s.request is not None
    leader = s.players[s.request.leader]
    return [PermissionGiven(player=leader, granted=True), PermissionGiven(player=leader, granted=False)]


def legal_revolt(s: State) -> list[SlaveRevoltPlayed]:
    p = s.actor
    if not s.specials or s.specials[p] != "slave-revolt" or s.used[p]:
        return []
    return [SlaveRevoltPlayed(player=s.players[p], place=place) for place in revolt_places(s)]

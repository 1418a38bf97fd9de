"""Setup, the influence phase, nominations and elections, and the special tiles played while taking influence.

Follows ../shared/rules/perikles-game-help.pt.txt, paragraphs 1-6 (setup cubes, taking influence tiles,
candidates and assassins, nominations, elections) and perikles-data-facts.md ("Setup", "Influence deck",
"Special tiles": Perikles, Alkibiades, Plague). Readings chosen are stated in RULES.md.
"""

from __future__ import annotations

from agon.core.games.perikles.commit import first_committer
from agon.core.games.perikles.data import (
    city_name,
    special_name,
    tile_city,
    tile_cubes,
    tile_kind,
    tile_name,
    tile_names,
)
from agon.core.games.perikles.state import (
    COMMIT,
    DEAL_LOCATIONS,
    INFLUENCE,
    NOBODY,
    NOMINATE,
    State,
    add_cubes,
    cube_count,
    next_seat,
    pidx,
    replace,
    set_at,
)
from agon.events.perikles import (
    AlkibiadesPlayed,
    CandidateNominated,
    CubeMove,
    InfluenceTileTaken,
    NominationPassed,
    PeriklesPlayed,
    PlaguePlayed,
    StartingCubePlaced,
)

SLOTS = ("A", "B")
R_SETUP = "Setup (game help, 1st paragraph)"
R_TAKE = "Influence tiles (game help, 2nd-3rd paragraphs)"
R_NOMINATE = "Nominations (game help, 5th paragraph)"
R_SPECIAL = "Special tiles (data facts, 'Special tiles')"
ONLY_AS_PRINTED = 2
"""From ruleset version 2 a taken tile does only what it prints. Version 1 also let a candidate tile that nominated
name a standing candidate to remove (typed as JSON; no option offered it), and removed it: a version-1 game keeps
that, so its log folds as it was played (RULES.md, 'Influence tiles')."""
TIE_TOLD = 5
"""From ruleset version 5 an election won on a tie says so in its report ("5 cubes to 5: a tie goes to candidate A,
Ana"): the texts do not say who wins a tie (RULES.md, 'Elections'), so a table reading "Ana beats Chloe (5 cubes to
5)" could not tell why. The report is kept in the state (``State.elections``), so a game recorded before keeps its
report word for word and folds to the state it was played to."""


# ---------------------------------------------------------------------------------------------------------------
# Setup placements


def validate_setup(s: State, e: StartingCubePlaced) -> str | None:
    if e.city not in s.data.cities:
        return f"{R_SETUP}: {e.city!r} is not a city; cities: {', '.join(s.data.cities)}"
    return None


def apply_setup(s: State, e: StartingCubePlaced) -> State:
    p = pidx(s, e.player)
    s = replace(s, cubes=add_cubes(s, e.city, p, 1), placed=s.placed + 1, actor=next_seat(s, p))
    if s.placed >= s.data.setup_placements * len(s.players):
        s = replace(s, phase=DEAL_LOCATIONS, actor=s.first)
    return s


def legal_setup(s: State) -> list[StartingCubePlaced]:
    return [StartingCubePlaced(player=s.players[s.actor], city=c) for c in s.data.cities]


# ---------------------------------------------------------------------------------------------------------------
# Nominations and assassinations (shared by candidate tiles and the nomination round)


def nomination_error(s: State, city: str, nominee: str, slot: str, rule: str) -> str | None:
    if city not in s.data.cities:
        return f"{rule}: {city!r} is not a city"
    if slot not in SLOTS:
        return f"{rule}: a candidate stands in position A or B, not {slot!r}"
    n = pidx(s, nominee)
    if n == NOBODY:
        return f"{rule}: {nominee!r} is not a player"
    c = s.data.city_index(city)
    pair = s.candidates[c]
    if pair[SLOTS.index(slot)] != NOBODY:
        return f"{rule}: position {slot} in {city} already has a candidate"
    if n in pair:
        return f"{rule}: {nominee} is already a candidate in {city}; an election needs two different players"
    if s.cubes[c][n] < 1:
        return f"{rule}: {nominee} has no cube in {city} to raise as candidate"
    return None


def nominations(s: State) -> list[tuple[str, str, str]]:
    """Every possible (city, nominee, slot)."""
    out = []
    for c, city in enumerate(s.data.cities):
        pair = s.candidates[c]
        for k, slot in enumerate(SLOTS):
            if pair[k] != NOBODY:
                continue
            for n, name in enumerate(s.players):
                if n not in pair and s.cubes[c][n] >= 1:
                    out.append((city, name, slot))
    return out


def nominate(s: State, city: str, nominee: str, slot: str) -> State:
    c = s.data.city_index(city)
    n = pidx(s, nominee)
    pair = list(s.candidates[c])
    pair[SLOTS.index(slot)] = n
    s = replace(s, cubes=add_cubes(s, city, n, -1))
    return replace(s, candidates=set_at(s.candidates, c, (pair[0], pair[1])))


def standing(s: State) -> list[tuple[str, str]]:
    """Every candidate that an assassin could remove: (city, slot)."""
    return [(city, slot) for c, city in enumerate(s.data.cities) for k, slot in enumerate(SLOTS)
            if s.candidates[c][k] != NOBODY]


def assassinate(s: State, city: str, slot: str) -> State:
    c = s.data.city_index(city)
    pair = list(s.candidates[c])
    pair[SLOTS.index(slot)] = NOBODY
    return replace(s, candidates=set_at(s.candidates, c, (pair[0], pair[1])))


# ---------------------------------------------------------------------------------------------------------------
# Taking influence tiles


def validate_take(s: State, e: InfluenceTileTaken) -> str | None:
    """A tile is carried out in full and only as printed (game help, 2nd-4th paragraphs): a field the tile does
    not use is refused before anything else, so a candidate tile never also removes a candidate, an assassin tile
    never nominates one, and a city that does not exist is named as such (never looked up)."""
    if e.tile not in s.display:
        named = tile_name(e.tile, article=True) if e.tile in s.data.deck else repr(e.tile)
        return f"{R_TAKE}: {named} is not on display; on display: {tile_names(sorted(set(s.display)))}"
    kind = tile_kind(e.tile)
    if kind == "any":
        if e.city not in s.data.cities:
            return f"{R_TAKE}: an Any tile puts its cube in a city you name ({', '.join(s.data.cities)})"
    elif e.city and e.city != tile_city(e.tile):
        return f"{R_TAKE}: the {tile_name(e.tile)} puts its cubes in {city_name(tile_city(e.tile))}, not {e.city}"
    if kind != "candidate" and (e.nominee or e.nominee_city or e.slot):
        return f"{R_TAKE}: only a candidate tile nominates a candidate; the {tile_name(e.tile)} names no nominee"
    old_target = s.version < ONLY_AS_PRINTED and kind == "candidate" and bool(e.nominee or e.nominee_city or e.slot)
    if kind != "assassin" and (e.target_city or e.target_slot) and not old_target:
        return f"{R_TAKE}: only an assassin tile removes a candidate; the {tile_name(e.tile)} names no target"
    after = place_tile_cubes(s, e)
    if kind == "candidate":
        if e.nominee or e.nominee_city or e.slot:
            problem = nomination_error(after, e.nominee_city, e.nominee, e.slot, R_TAKE + ", candidate tile")
            if problem is None and (e.target_city or e.target_slot) and (e.target_city, e.target_slot) not in (
                    standing(nominate(after, e.nominee_city, e.nominee, e.slot))):  # a version-1 game's removal
                return f"{R_TAKE}: there is no candidate in {e.target_city} position {e.target_slot} to remove"
            return problem
        if nominations(after):
            return f"{R_TAKE}: a candidate tile must be carried out in full: name a candidate (nominee, city, slot)"
    if kind == "assassin":
        if e.target_city or e.target_slot:
            if e.target_city not in s.data.cities:
                return f"{R_TAKE}, assassin tile: {e.target_city!r} is not a city ({', '.join(s.data.cities)})"
            if (e.target_city, e.target_slot) not in standing(after):
                return f"{R_TAKE}, assassin tile: there is no candidate in {e.target_city} position {e.target_slot}"
        elif standing(after):
            return f"{R_TAKE}: an assassin tile must be carried out in full: name the candidate removed"
    return None


def place_tile_cubes(s: State, e: InfluenceTileTaken) -> State:
    city = e.city if tile_kind(e.tile) == "any" else tile_city(e.tile)
    return replace(s, cubes=add_cubes(s, city, pidx(s, e.player), tile_cubes(e.tile)))


def apply_take(s: State, e: InfluenceTileTaken) -> State:
    p = pidx(s, e.player)
    display = list(s.display)
    display.remove(e.tile)
    s = place_tile_cubes(s, e)
    if e.nominee:
        s = nominate(s, e.nominee_city, e.nominee, e.slot)
    if e.target_city:
        s = assassinate(s, e.target_city, e.target_slot)
    s = replace(
        s,
        display=tuple(display),
        hands=set_at(s.hands, p, s.hands[p] + (e.tile,)),
        taken=set_at(s.taken, p, s.taken[p] + 1),
    )
    if min(s.taken) >= s.data.quota(len(s.players)):
        return replace(s, phase=NOMINATE, actor=s.first, passes=0, refill=False)
    return replace(s, actor=next_seat(s, p), refill=bool(s.deck))


def legal_take(s: State) -> list[InfluenceTileTaken]:
    player = s.players[s.actor]
    out: list[InfluenceTileTaken] = []
    for tile in sorted(set(s.display)):
        kind = tile_kind(tile)
        cities = s.data.cities if kind == "any" else ("",)
        for city in cities:
            base = InfluenceTileTaken(player=player, tile=tile, city=city)
            after = place_tile_cubes(s, base)
            if kind == "candidate":
                options = nominations(after)
                if not options:
                    out.append(base)
                for c, nominee, slot in options:
                    out.append(InfluenceTileTaken(player=player, tile=tile, nominee=nominee, nominee_city=c, slot=slot))
            elif kind == "assassin":
                targets = standing(after)
                if not targets:
                    out.append(base)
                for c, slot in targets:
                    out.append(InfluenceTileTaken(player=player, tile=tile, target_city=c, target_slot=slot))
            else:
                out.append(base)
    return out


# ---------------------------------------------------------------------------------------------------------------
# Special tiles played during the influence phase (on one's own turn, before taking a tile)


def validate_influence_special(s: State, e: PeriklesPlayed | AlkibiadesPlayed | PlaguePlayed) -> str | None:
    name = {PeriklesPlayed: "perikles", AlkibiadesPlayed: "alkibiades", PlaguePlayed: "plague"}[type(e)]
    p = pidx(s, e.player)
    if s.phase != INFLUENCE or s.refill:
        return f"{R_SPECIAL}: the {special_name(name)} is played in the influence phase, on your own turn"
    if s.specials[p] != name or s.used[p]:
        return f"{R_SPECIAL}: {e.player} holds no unused {special_name(name)}"
    if isinstance(e, PlaguePlayed) and e.city not in s.data.cities:
        return f"{R_SPECIAL}, Plague: {e.city!r} is not a city"
    if isinstance(e, AlkibiadesPlayed):
        if len(e.moves) != 2:
            return f"{R_SPECIAL}, Alkibiades: move exactly 2 cubes"
        t = s
        for m in e.moves:
            owner = pidx(t, m.owner)
            if owner == NOBODY:
                return f"{R_SPECIAL}, Alkibiades: {m.owner!r} is not a player"
            if m.source not in s.data.cities or m.target not in s.data.cities:
                return f"{R_SPECIAL}, Alkibiades: cubes move between cities ({', '.join(s.data.cities)})"
            if m.source == m.target:
                return f"{R_SPECIAL}, Alkibiades: a cube moves to another city, not back to {m.source}"
            if cube_count(t, m.source, owner) < 1:
                return f"{R_SPECIAL}, Alkibiades: {m.owner} has no cube left in {m.source} to move"
            t = _move(t, m)
    return None


def _move(s: State, m: CubeMove) -> State:
    owner = pidx(s, m.owner)
    s = replace(s, cubes=add_cubes(s, m.source, owner, -1))
    return replace(s, cubes=add_cubes(s, m.target, owner, 1))


def apply_influence_special(s: State, e: PeriklesPlayed | AlkibiadesPlayed | PlaguePlayed) -> State:
    p = pidx(s, e.player)
    s = replace(s, used=set_at(s.used, p, True))
    if isinstance(e, PeriklesPlayed):
        return replace(s, cubes=add_cubes(s, "athens", p, 2))
    if isinstance(e, PlaguePlayed):
        c = s.data.city_index(e.city)
        return replace(s, cubes=set_at(s.cubes, c, tuple(n - n // 2 for n in s.cubes[c])))
    for m in e.moves:
        s = _move(s, m)
    return s


def legal_influence_special(s: State) -> list[PeriklesPlayed | AlkibiadesPlayed | PlaguePlayed]:
    p = s.actor
    name = s.specials[p] if s.specials else ""
    if s.used[p] or name not in ("perikles", "alkibiades", "plague"):
        return []
    player = s.players[p]
    if name == "perikles":
        return [PeriklesPlayed(player=player)]
    if name == "plague":
        return [PlaguePlayed(player=player, city=c) for c in s.data.cities]
    out = []
    for o, owner in enumerate(s.players):
        for src in s.data.cities:
            if cube_count(s, src, o) < 2:
                continue
            for dst in s.data.cities:
                if dst != src:
                    m = CubeMove(owner=owner, source=src, target=dst)
                    out.append(AlkibiadesPlayed(player=player, moves=(m, m)))
    return out


# ---------------------------------------------------------------------------------------------------------------
# The nomination round and the elections


def validate_nomination(s: State, e: CandidateNominated) -> str | None:
    return nomination_error(s, e.city, e.nominee, e.slot, R_NOMINATE)


def apply_nomination(s: State, e: CandidateNominated | NominationPassed) -> State:
    p = pidx(s, e.player)
    if isinstance(e, CandidateNominated):
        s = replace(nominate(s, e.city, e.nominee, e.slot), passes=0)
    else:
        s = replace(s, passes=s.passes + 1)
    s = replace(s, actor=next_seat(s, p))
    return settle_nominations(s)


def settle_nominations(s: State) -> State:
    """Nominations go round until every player has passed in a row or no position can be filled."""
    if s.phase == NOMINATE and (s.passes >= len(s.players) or not nominations(s)):
        return hold_elections(s)
    return s


def legal_nomination(s: State) -> list[CandidateNominated | NominationPassed]:
    player = s.players[s.actor]
    return [NominationPassed(player=player)] + [
        CandidateNominated(player=player, city=c, nominee=n, slot=slot) for c, n, slot in nominations(s)
    ]


def hold_elections(s: State) -> State:
    """Every city elects: most cubes wins, a tie goes to candidate A (RULES.md, 'Elections': neither text says; from
    version 5 the report says so, ``TIE_TOLD``); a lone candidate wins."""
    leaders = list(s.leaders)
    cubes = list(s.cubes)
    report = []
    for c, city in enumerate(s.data.cities):
        a, b = s.candidates[c]
        row = list(cubes[c])
        if a == NOBODY and b == NOBODY:
            leaders[c] = NOBODY
            report.append(f"{city.capitalize()} has no candidate and no leader")
            continue
        if a == NOBODY or b == NOBODY:
            winner = a if a != NOBODY else b
            leaders[c] = winner
            report.append(f"{s.players[winner]} leads {city.capitalize()} unopposed")
            continue
        winner, loser = (a, b) if row[a] >= row[b] else (b, a)
        paid = min(s.data.contested_loss, row[winner])
        tie = f": a tie goes to candidate A, {s.players[a]}" if row[a] == row[b] and s.version >= TIE_TOLD else ""
        report.append(
            f"{s.players[winner]} beats {s.players[loser]} in {city.capitalize()} "
            f"({row[winner] + 1} cubes to {row[loser] + 1}{tie}) and loses {paid} more"
        )
        row[winner] -= paid
        cubes[c] = tuple(row)
        leaders[c] = winner
    s = replace(
        s,
        leaders=tuple(leaders),
        cubes=tuple(cubes),
        candidates=tuple((NOBODY, NOBODY) for _ in s.data.cities),
        elections=tuple(report),
        phase=COMMIT,
    )
    sparta = s.leaders[s.data.city_index("sparta")]
    start = sparta if sparta != NOBODY else s.first
    return replace(s, actor=first_committer(s, start))


def start_influence(s: State) -> State:
    return replace(s, phase=INFLUENCE, actor=s.first, taken=(0,) * len(s.players), refill=False)

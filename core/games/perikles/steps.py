"""A commitment of forces built step by step (core.steps): which tile, then where and on which side, then the
counters sent there (the next counter goes to the same place unless another location is named), then, for more
than two counters, the city whose cube is sacrificed: ``ath-2 pyl a ath-t4 ath-h3``, as a table tells it.

``legal`` lists a canonical subset of commitments (commit.py); this builds any legal one. Each step offers only
values that keep the commitment legal, checked by the same rule code (``commitment_error``, game help paragraphs
7-11), so nothing here is a second copy of the rules. A counter's role (main or ally) is not asked: it follows
from who is already main on that side (the first of a side is main; game help, paragraph 9). A step with one
possible value is still a question (core.steps answers it by itself), so typing that value too is never wrong:
the one eligible tile typed at "where counters go", which ``agon play`` asks at once, is read as the tile
(core.steps says how a word naming both the tile and a place is read).
"""

from __future__ import annotations

import msgspec

from agon.core import entry
from agon.core.entry import quoted
from agon.core.games.perikles.commit import R_COMMIT, commitment_error, main_of_in
from agon.core.games.perikles.data import PERSIA, SIDES, city_name, counter_label, tile_kind, tile_name
from agon.core.games.perikles.influence import (
    R_NOMINATE,
    R_TAKE,
    SLOTS,
    legal_influence_special,
    place_tile_cubes,
    validate_influence_special,
)
from agon.core.games.perikles.state import (
    NOBODY,
    Commit,
    State,
    commands,
    committed_ids,
    cube_count,
    eligible_tiles,
    home_counters,
)
from agon.core.steps import DONE, Choice, Question, Refused, key
from agon.core.words import counted
from agon.events.perikles import AlkibiadesPlayed, CubeMove, ForcesCommitted, InfluenceTileTaken, Placement


def _event(s: State, tile: str, placements: tuple[Placement, ...], cube: str = "") -> ForcesCommitted:
    return ForcesCommitted(player=s.players[s.actor], tile=tile, placements=placements, cube=cube)


def _cubes(s: State, tile: str, placements: tuple[Placement, ...]) -> list[str]:
    """The cities whose cube makes this commitment legal ('' alone when no cube is needed)."""
    if len(placements) <= s.data.units_per_commitment:
        return [""] if commitment_error(s, _event(s, tile, placements))[0] is None else []
    return [c for c in s.data.cities if cube_count(s, c, s.actor) >= 1
            and commitment_error(s, _event(s, tile, placements, c))[0] is None]


def _placement(s: State, placements: tuple[Placement, ...], counter: str, location: str, side: str) -> Placement:
    p = s.actor
    commits = s.commits + tuple(Commit(pl.counter, p, pl.location, pl.side, pl.role) for pl in placements)
    main = main_of_in(commits, location, side)
    return Placement(counter=counter, location=location, side=side, role="main" if main in (NOBODY, p) else "ally")


def _ok(s: State, tile: str, placements: tuple[Placement, ...]) -> bool:
    limit = s.data.units_per_commitment + s.data.extra_units
    return len(placements) <= limit and bool(_cubes(s, tile, placements))


def _sides(s: State, tile: str, placements: tuple[Placement, ...], counter: str, location: str) -> list[str]:
    return [side for side in SIDES
            if _ok(s, tile, placements + (_placement(s, placements, counter, location, side),))]


def _kinds(s: State, placements: tuple[Placement, ...]) -> dict[tuple[str, str, int], list[str]]:
    """The counters still at home, by (city, kind, strength): one of a kind is as good as another."""
    used = {pl.counter for pl in placements}
    kinds: dict[tuple[str, str, int], list[str]] = {}
    for c in home_counters(s, s.actor):
        if c.id not in used:
            kinds.setdefault((c.city, c.kind, c.strength), []).append(c.id)
    return kinds


def _reachable(s: State, tile: str, placements: tuple[Placement, ...], location: str) -> bool:
    return any(_sides(s, tile, placements, ids[0], location) for ids in _kinds(s, placements).values())


def commitment_steps(s: State, chosen: tuple[tuple[str, str], ...]) -> Question | ForcesCommitted:
    """The next step of a commitment by the acting player, after ``chosen`` ((field, value) pairs): the tile, then
    where (a location), attack or defend, and the counters sent there; after a counter, the next one goes to the
    same place unless another location is named (or ``done``)."""
    tiles = list(dict.fromkeys(sorted(eligible_tiles(s, s.actor))))
    steps = list(chosen)
    tile = steps.pop(0)[1] if steps and steps[0][0] == "tile" else ""
    if not tile:
        return Question("tile", "which influence tile to spend", tuple(Choice(t, tile_name(t)) for t in tiles))
    placements: tuple[Placement, ...] = ()
    location = side = ""
    here = 0  # counters sent to ``location`` since it was named
    finished = False
    cube = None

    for field, value in steps:
        if field in ("location", "counter") and value == DONE:
            finished = True
        elif field == "location":
            location, side, here = value, "", 0
        elif field == "side":
            side = value
        elif field == "counter":
            placements += (_placement(s, placements, value, location, side),)
            here += 1
        elif field == "cube":
            cube = value
    if not finished:
        can_end = bool(_cubes(s, tile, placements))
        sent = counted(len(placements), "counter") if placements else "no units"
        ending = (Choice(DONE, f"spend the {tile_name(tile)} sending {sent}"),) if can_end else ()
        if not location:
            locs = [loc for loc in s.locations if _reachable(s, tile, placements, loc)]
            return Question("location", "where counters go" + (" ('done': none)" if can_end else ""),
                            ending + tuple(Choice(loc) for loc in locs))
        kinds = _kinds(s, placements)
        if not side:
            sides = [x for x in SIDES if any(_ok(s, tile, placements + (
                _placement(s, placements, ids[0], location, x),)) for ids in kinds.values())]
            return Question("side", f"at {location}: attack or defend", tuple(Choice(x) for x in sides))
        counters, accepts = [], []
        for ids in kinds.values():
            if _ok(s, tile, placements + (_placement(s, placements, ids[0], location, side),)):
                counters.append(Choice(ids[0], f"{counter_label(s.data.counter(ids[0]))} ({len(ids)} at home)"))
                accepts += ids
        if not here:
            return Question("counter", f"which counter to send to {location} ({side})", tuple(counters),
                            tuple(accepts))
        elsewhere = [loc for loc in s.locations if loc != location and _reachable(s, tile, placements, loc)]
        return Question("counter", f"another counter to {location}, another location, or done",
                        tuple(counters) + ending + tuple(Choice(loc, "another location") for loc in elsewhere),
                        tuple(accepts), tuple((loc, "location") for loc in elsewhere))
    cubes = _cubes(s, tile, placements)
    if cube is None and cubes != [""]:
        return Question("cube", "the city whose cube is sacrificed", tuple(Choice(c) for c in cubes))
    return _event(s, tile, placements, cube or "")


# -- Alkibiades ------------------------------------------------------------------------------------------------

ALKIBIADES = "perikles.alkibiades_played"


def alkibiades_steps(s: State, chosen: tuple[tuple[str, str], ...], prompt: str) -> Question | AlkibiadesPlayed | None:
    """Alkibiades' two cube moves ("Move any 2 cubes to other cities", perikles-data-facts.md, 'Special tiles'):
    ``legal`` lists each move twice (RULES.md), so two different moves were reachable only as JSON. The step lists
    what ``legal`` lists and reads any two moves typed as ``owner:from:to+owner:from:to``, each part by a prefix
    (``bo:ath:spa+cy:cor:the``), checked by the tile's own rule (``validate_influence_special``). ``None`` where
    core.steps builds the decision from ``legal`` (a listed pair)."""
    listed = [key(msgspec.to_builtins(e.moves)) for e in legal_influence_special(s) if isinstance(e, AlkibiadesPlayed)]
    if not listed:
        return None
    typed = dict(chosen).get("moves")
    if typed is None:
        return Question("moves", prompt, tuple(Choice(v) for v in listed), reads=lambda word: _alkibiades(s, word))
    if typed in listed:
        return None
    event = _alkibiades_event(s, typed)
    if event is None:
        raise Refused(f"{prompt}: {quoted(typed)} is not two moves; type them as owner:from:to+owner:from:to,"
                      " e.g. bo:ath:spa+cy:cor:the")
    return event


def _alkibiades_event(s: State, word: str) -> AlkibiadesPlayed | None:
    moves = []
    for part in word.split("+"):
        fields = part.split(":")
        if len(fields) != 3:
            return None
        try:
            owner = entry.resolve(fields[0], s.players, "player")
            source, target = (entry.resolve(f, s.data.cities, "city") for f in fields[1:])
        except entry.EntryError as e:
            raise Refused(f"Alkibiades: {e}") from None
        moves.append(CubeMove(owner=owner, source=source, target=target))
    if len(moves) != 2:
        return None
    return AlkibiadesPlayed(player=s.players[s.actor], moves=tuple(moves))


def _alkibiades(s: State, word: str) -> str | None:
    """The value two moves typed stand for (their ids in full), or ``None`` when the word is not two moves."""
    if word.count("+") != 1 or word.count(":") != 4:
        return None
    event = _alkibiades_event(s, word)
    if event is None:
        return None
    why = validate_influence_special(s, event)
    if why is not None:
        raise Refused(why)
    return key(msgspec.to_builtins(event.moves))


# -- Candidates and assassins: the values the rules bar, and the words of each step --------------------------------

NOMINATED = "perikles.candidate_nominated"
COMMITTED = "perikles.forces_committed"
TAKEN = "perikles.influence_tile_taken"
CITY_OF = {NOMINATED: "city", TAKEN: "nominee_city"}
"""The field that names the city a candidate is nominated in, by kind of decision."""


def _board(s: State, tag: str, picked: dict[str, str]) -> tuple[State, str] | None:
    """The board a nomination or an assassination of ``tag`` is judged on, and the rule it follows: for a tile
    taken, after the tile's own cube is placed (a candidate tile's cube may give the nominee the cube they need);
    None when the kind, or the tile, names no candidate."""
    if tag == NOMINATED:
        return s, R_NOMINATE
    tile = picked.get("tile", "")
    if tag != TAKEN or tile not in s.display or tile_kind(tile) not in ("candidate", "assassin"):
        return None
    base = InfluenceTileTaken(player=s.players[s.actor], tile=tile)
    return place_tile_cubes(s, base), f"{R_TAKE}, {tile_kind(tile)} tile"


def _pair(s: State, city: str) -> str:
    """A city's candidates as the board shows them: "A Chloe, B Ana", "A free, B Bruno"."""
    pair = s.candidates[s.data.city_index(city)]
    return ", ".join(f"{slot} {s.players[n] if n != NOBODY else 'free'}" for slot, n in zip(SLOTS, pair, strict=True))


def barred_values(s: State, tag: str, chosen: tuple[tuple[str, str], ...], field: str) -> list[dict[str, str]]:
    """The values a tile's, a nomination's or an assassin's step may not take, each with the rule that bars it in one
    line (core.steps tells it where such a value is typed, instead of "none of the answers" or "the decision is
    complete before 'a'"): an influence tile not on display; a city both of whose positions are taken, a position
    taken (and by whom), a nominee who stands there already or has no cube there (game help, 4th-5th paragraphs); a
    city with no candidate to assassinate, or an empty position. The display, candidates and cubes lie open on the
    board: nothing hidden is told."""
    picked = dict(chosen)
    if tag == COMMITTED and field == "counter":
        return [_counters_barred(s, chosen)]
    if tag == TAKEN and field == "tile":  # the display lies open: a tile not on it cannot be taken
        return [{t: f"{R_TAKE}: no {tile_name(t)} is on display" for t in dict.fromkeys(s.data.deck)
                 if t not in s.display}]
    board = _board(s, tag, picked)
    if board is None:
        return []
    b, rule = board
    cities = b.data.cities
    city = picked.get("target_city" if field == "target_slot" else CITY_OF.get(tag, ""), "")
    out: dict[str, str] = {}
    if field == CITY_OF.get(tag):
        nominee = picked.get("nominee", "")
        n = b.players.index(nominee) if nominee in b.players else NOBODY
        for c in cities:
            i = b.data.city_index(c)
            pair = b.candidates[i]
            if NOBODY not in pair:
                out[c] = f"{rule}: {city_name(c)} has both its candidates already ({_pair(b, c)})"
            elif n != NOBODY and n in pair:
                out[c] = (f"{rule}: {nominee} is {city_name(c)}'s candidate {SLOTS[pair.index(n)]} already; an"
                          " election needs two different players")
            elif n != NOBODY and b.cubes[i][n] < 1:
                out[c] = f"{rule}: {nominee} has no cube in {city_name(c)} to raise as candidate"
    elif field == "slot" and city in cities:
        pair = b.candidates[b.data.city_index(city)]
        for slot, n in zip(SLOTS, pair, strict=True):
            if n != NOBODY:
                out[slot] = (f"{rule}: {city_name(city)}'s candidate {slot} is {b.players[n]} already; a candidate"
                             f" is raised to a free position ({_pair(b, city)})")
    elif field == "nominee" and city in cities:
        c = b.data.city_index(city)
        for n, name in enumerate(b.players):
            if n in b.candidates[c]:
                out[name] = (f"{rule}: {name} is {city_name(city)}'s candidate {SLOTS[b.candidates[c].index(n)]}"
                             " already; an election needs two different players")
            elif b.cubes[c][n] < 1:
                out[name] = f"{rule}: {name} has no cube in {city_name(city)} to raise as candidate"
    elif field == "target_city":
        for c in cities:
            if set(b.candidates[b.data.city_index(c)]) == {NOBODY}:
                out[c] = f"{rule}: {city_name(c)} has no candidate to assassinate"
    elif field == "target_slot" and city in cities:
        pair = b.candidates[b.data.city_index(city)]
        for slot, n in zip(SLOTS, pair, strict=True):
            if n == NOBODY:
                out[slot] = f"{rule}: {city_name(city)} has no candidate {slot} to assassinate ({_pair(b, city)})"
        for n, name in enumerate(b.players):  # a player typed by name who does not stand there
            if n not in pair:
                out[name] = f"{rule}: {name} is no candidate in {city_name(city)} ({_pair(b, city)})"
    return [out]


def _typed(standing: dict[str, str]) -> dict[str, str]:
    """The candidates' names that may be typed for their positions (``bru`` for B where Bruno stands as B): each
    one that names one candidate alone. A position's letter is taken at once in ``agon play`` only where no other
    position's candidate's name begins with it: Ana as B beside Chloe as A, ``a`` waits, so ``ana`` is Ana, and ``a``
    then a space or Enter is Chloe. Where ``a`` was taken at once for A as the other name was left out (``ana``
    typed for Ana as B assassinated Chloe, carrying ``na`` to the next prompt; Anatole as B beside Ana as A,
    ``anat`` assassinated Ana), a name typed in full recorded another candidate than the one it names."""
    return {slot: name for slot, name in standing.items()
            if sum(entry.name_word(n).lower() == entry.name_word(name).lower() for n in standing.values()) == 1}


def _counters_barred(s: State, chosen: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Every counter the acting player may not send now, with why: another city's ("sparta-h1-1 is Sparta's; Ana
    commands only Persia"), or one of their own already sent, committed, lost or struck by the Slave Revolt. Where
    another player's counters are is never said (committed counters lie face down); who leads which city, and so
    whose counters those are, lies open on the board."""
    p, name = s.actor, s.players[s.actor]
    own = [c for c in (*s.data.cities, PERSIA) if commands(s, p, c)]
    led = " and ".join(city_name(c) for c in own) or "no city"
    sent = {v for f, v in chosen if f == "counter"}
    committed = committed_ids(s)
    out: dict[str, str] = {}
    for c in s.data.counters:
        label = f"{c.id} ({counter_label(c)})"
        if c.city not in own:
            out[c.id] = (f"{R_COMMIT}: {city_name(c.city)}'s counters are not {name}'s to send; {name} commands"
                         f" only {led}")
        elif c.id in sent:
            out[c.id] = f"{R_COMMIT}: {label} is sent already in this commitment"
        elif c.id in committed:
            out[c.id] = f"{R_COMMIT}: {label} is committed already this turn"
        elif c.id in s.lost:
            out[c.id] = f"{R_COMMIT}: {label} was lost in a battle"
        elif c.id in s.revolted:
            out[c.id] = f"{R_COMMIT}: {label} was removed by the Slave Revolt"
    return out


def step_words(s: State, tag: str, chosen: tuple[tuple[str, str], ...],
               field: str) -> tuple[str, dict[str, str]] | tuple[str, dict[str, str], dict[str, str]] | None:
    """A candidate's or an assassin's step in the words of the board, once the steps ``chosen`` name the city (core.
    steps ``step_words``): "which candidate to assassinate in Corinth: A (Ana) or B (Bruno)", each position beside
    who stands there, each city beside its candidates ("A Ana, B free"), and the assassin's candidates' names that
    may be typed for them (``_typed``). None for the other steps (the ruleset's ``field_prompts``). Candidates lie
    open on the board: nothing hidden is told."""
    picked = dict(chosen)
    board = _board(s, tag, picked)
    if board is None:
        return None
    b = board[0]
    cities = b.data.cities
    if field in ("target_city", CITY_OF.get(tag)):
        return "", {c: f"candidates {_pair(b, c)}" for c in cities}
    city = picked.get("target_city" if field == "target_slot" else CITY_OF.get(tag, ""), "")
    if city not in cities:
        return None
    pair = b.candidates[b.data.city_index(city)]
    if field == "target_slot":
        standing = {slot: b.players[n] for slot, n in zip(SLOTS, pair, strict=True) if n != NOBODY}
        return (f"which candidate to assassinate in {city_name(city)}: "
                + " or ".join(f"{slot} ({name})" for slot, name in standing.items()), standing, _typed(standing))
    if field == "slot":
        nominee = picked.get("nominee", "")
        free = [slot for slot, n in zip(SLOTS, pair, strict=True) if n == NOBODY]
        return (f"{'as' if not nominee else nominee + ' as'} candidate {' or '.join(free)} in {city_name(city)}",
                {slot: "free" for slot in free})
    return None

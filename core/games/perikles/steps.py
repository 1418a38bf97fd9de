"""A commitment of forces built step by step (core.steps): which tile, then each counter with its location and
side, then, for more than two counters, the city whose cube is sacrificed.

``legal`` lists a canonical subset of commitments (commit.py); this builds any legal one. Each step offers only
values that keep the commitment legal, checked by the same rule code (``commitment_error``, game help paragraphs
7-12), so nothing here is a second copy of the rules. A counter's role (main or ally) is not asked: it follows
from who is already main on that side (the first of a side is main; game help, paragraph 9). A step with one
possible value is still a question (core.steps answers it by itself), so typing that value too is never wrong.
"""

from __future__ import annotations

from agon.core.games.perikles.commit import commitment_error, main_of_in
from agon.core.games.perikles.data import SIDES
from agon.core.games.perikles.state import NOBODY, Commit, State, cube_count, eligible_tiles, home_counters
from agon.core.steps import DONE, Choice, Question
from agon.events.perikles import ForcesCommitted, Placement

KINDS = {"H": "hoplite", "T": "trireme"}


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


def _locations(s: State, tile: str, placements: tuple[Placement, ...], counter: str) -> list[str]:
    return [loc for loc in s.locations if _sides(s, tile, placements, counter, loc)]


def commitment_steps(s: State, chosen: tuple[tuple[str, str], ...]) -> Question | ForcesCommitted:
    """The next step of a commitment by the acting player, after ``chosen`` ((field, value) pairs)."""
    tiles = list(dict.fromkeys(sorted(eligible_tiles(s, s.actor))))
    steps = list(chosen)
    tile = steps.pop(0)[1] if steps and steps[0][0] == "tile" else ""
    if not tile:
        return Question("tile", "which influence tile to spend", tuple(Choice(t) for t in tiles))
    placements: tuple[Placement, ...] = ()
    counter = location = ""
    finished = False
    cube = None

    for field, value in steps:
        if field == "counter" and value == DONE:
            finished = True
        elif field == "counter":
            counter = value
        elif field == "location":
            location = value
        elif field == "side":
            placements += (_placement(s, placements, counter, location, value),)
            counter = location = ""
        elif field == "cube":
            cube = value
    if counter and not location:
        locs = _locations(s, tile, placements, counter)
        return Question("location", f"where {counter} goes", tuple(Choice(loc) for loc in locs))
    if counter:
        sides = _sides(s, tile, placements, counter, location)
        return Question("side", f"{counter} at {location}: attack or defend", tuple(Choice(x) for x in sides))
    if not finished:
        used = {pl.counter for pl in placements}
        kinds: dict[tuple[str, str, int], list[str]] = {}
        for c in home_counters(s, s.actor):
            if c.id not in used:
                kinds.setdefault((c.city, c.kind, c.strength), []).append(c.id)
        choices = []
        if _cubes(s, tile, placements):
            sent = "no units" if not placements else f"{len(placements)} counter(s)"
            choices.append(Choice(DONE, f"spend {tile} sending {sent}"))
        accepts = []
        for (city, kind, strength), ids in kinds.items():
            if _locations(s, tile, placements, ids[0]):
                choices.append(Choice(ids[0], f"{city} {KINDS.get(kind, kind)} {strength} ({len(ids)} at home)"))
                accepts += ids
        return Question("counter", "which counter to send next" if placements else "which counter to send",
                        tuple(choices), tuple(accepts))
    cubes = _cubes(s, tile, placements)
    if cube is None and cubes != [""]:
        return Question("cube", "the city whose cube is sacrificed", tuple(Choice(c) for c in cubes))
    return _event(s, tile, placements, cube or "")

"""Drawing one legal Perikles decision at random without listing them all (for rollouts: core/rollout.py).

``sample_legal(s, rng)`` returns each decision of ``rules.legal(s)`` with the same probability, as the ``random``
bot picking from the list would, but in the commitment phase, whose canonical list (commit.legal_commitments)
holds up to ~2,000 commitments, it does not build the list. It draws from a larger, cheaply counted set of
candidates laid out like the list (every tile alone; per location and side, every kind of counter, every pair of
kinds, every city-and-kind group for a sacrifice) and keeps a candidate only when the list would hold it, checked
by the same rules the list uses (commit.placement_error, the war between the two counters' cities,
commit.commitment_error). Rejection sampling from a uniform draw keeps the draw uniform over the list. After
``TRIES`` rejections it falls back on the list itself, which is uniform as well.
"""

from __future__ import annotations

import random
from typing import Any

from agon.core.games.perikles import commit
from agon.core.games.perikles.data import PERSIA, SIDES, Counter
from agon.core.games.perikles.state import COMMIT, NOBODY, State, cube_count, eligible_tiles, home_counters, main_of
from agon.events.perikles import ForcesCommitted, Placement

TRIES = 400


def _key(c: Counter) -> tuple[str, str, int]:
    return (c.city, c.kind, c.strength)


class _Space:
    """The candidates of one commitment turn, counted; ``event(i)`` is the i-th one when the list holds it."""

    def __init__(self, s: State) -> None:
        self.s = s
        self.p = p = s.actor
        self.player = s.players[p]
        self.tiles = sorted(set(eligible_tiles(s, p)))
        self.home = home = home_counters(s, p)
        firsts: dict[tuple[str, str, int], list[Counter]] = {}
        for c in home:
            firsts.setdefault(_key(c), []).append(c)
        self.kinds = [group[0] for group in firsts.values()]
        self.by_key = firsts
        keys = list(firsts)
        self.pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i:] if a != b or len(firsts[a]) >= 2]
        groups: dict[tuple[str, str], int] = {}
        for c in home:
            groups[(c.city, c.kind)] = groups.get((c.city, c.kind), 0) + 1
        self.groups = [g for g, n in groups.items() if n > s.data.units_per_commitment]
        self.block = len(self.kinds) + len(self.pairs) + len(self.groups)
        self.places = [(loc, side) for loc in s.locations for side in SIDES]
        self.size = len(self.tiles) + len(self.places) * self.block
        self.wars = commit.relations(s, s.commits)[1]
        self._ok: dict[tuple[str, str, tuple[str, str, int]], bool] = {}
        self._roles: dict[tuple[str, str], str] = {}

    def role(self, loc: str, side: str) -> str:
        r = self._roles.get((loc, side))
        if r is None:
            main = main_of(self.s, loc, side)
            r = self._roles[(loc, side)] = "main" if main in (NOBODY, self.p) else "ally"
        return r

    def ok(self, loc: str, side: str, key: tuple[str, str, int]) -> bool:
        """Would the list hold this kind of counter alone here (its first counter by id, as the list takes)?"""
        found = self._ok.get((loc, side, key))
        if found is None:
            pl = Placement(counter=self.by_key[key][0].id, location=loc, side=side, role=self.role(loc, side))
            found = self._ok[(loc, side, key)] = commit.placement_error(self.s, self.s.commits, self.p, pl, set())[0] \
                is None
        return found

    def event(self, i: int) -> ForcesCommitted | None:
        if i < len(self.tiles):
            return ForcesCommitted(player=self.player, tile=self.tiles[i])
        i -= len(self.tiles)
        loc, side = self.places[i // self.block]
        i %= self.block
        role = self.role(loc, side)
        tile = self.tiles[0]

        def placed(*counters: Counter) -> tuple[Placement, ...]:
            return tuple(Placement(counter=c.id, location=loc, side=side, role=role) for c in counters)

        if i < len(self.kinds):
            c = self.kinds[i]
            return ForcesCommitted(player=self.player, tile=tile, placements=placed(c)) \
                if self.ok(loc, side, _key(c)) else None
        i -= len(self.kinds)
        if i < len(self.pairs):
            ka, kb = self.pairs[i]
            if not (self.ok(loc, side, ka) and self.ok(loc, side, kb)) or frozenset((ka[0], kb[0])) in self.wars:
                return None
            # The list keeps the first pair of counters (in the order of the counters at home) of these kinds.
            a, b = (self.by_key[ka][0], self.by_key[ka][1]) if ka == kb else (self.by_key[ka][0], self.by_key[kb][0])
            if self.home.index(b) < self.home.index(a):
                a, b = b, a
            return ForcesCommitted(player=self.player, tile=tile, placements=placed(a, b))
        city, kind = self.groups[i - len(self.pairs)]
        group = [c for c in self.home if c.city == city and c.kind == kind and self.ok(loc, side, _key(c))]
        if len(group) <= self.s.data.units_per_commitment:
            return None
        best = sorted(group, key=lambda c: -c.strength)[: self.s.data.units_per_commitment + self.s.data.extra_units]
        cube = city if city != PERSIA else max(self.s.data.cities, key=lambda x: cube_count(self.s, x, self.p))
        ev = ForcesCommitted(player=self.player, tile=tile, cube=cube, placements=placed(*best))
        return ev if commit.commitment_error(self.s, ev)[0] is None else None


def sample_commitment(s: State, rng: random.Random) -> Any:
    """One of ``legal_commitments(s) + legal_revolt(s)``, each as likely."""
    space = _Space(s)
    revolts = commit.legal_revolt(s)
    total = space.size + len(revolts)
    for _ in range(TRIES):
        i = int(rng.random() * total)
        if i >= space.size:
            return revolts[i - space.size]
        ev = space.event(i)
        if ev is not None:
            return ev
    options = [*commit.legal_commitments(s), *revolts]
    return options[int(rng.random() * len(options))]


def sample_legal(ruleset: Any, s: State, rng: random.Random) -> Any:
    """A legal decision drawn uniformly from ``ruleset.legal(s)``."""
    if s.phase == COMMIT and s.request is None and not s.revolt_place:
        return sample_commitment(s, rng)
    options = ruleset.legal(s)
    return options[int(rng.random() * len(options))]

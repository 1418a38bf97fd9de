"""The greedy bot plays from what its seat can see: a position that differs only in the kinds and strengths of
other players' face-down counters gets the same decision (game help: committed counters lie face down until the
battles). The last commitment of a turn starts the battles, and a battle fought without dice is decided by those
counters' kinds, so the bot looks at the position its commitment makes before any battle is settled."""

from __future__ import annotations

import random

from msgspec.structs import replace

from agon.core.autoplay import play_out
from agon.core.games.perikles import RULESET as RS
from agon.core.games.perikles.bots import greedy
from agon.core.games.perikles.state import COMMIT, commands, committed_ids, pidx
from agon.events.base import GameCreated, PlayerSeat
from agon.events.perikles import ForcesCommitted


def last_commitments(seed: int):
    """The positions of a 4-player greedy game where one commitment is left in the turn."""
    players = tuple(PlayerSeat(f"P{i + 1}", "greedy") for i in range(4))
    created = GameCreated(ruleset="perikles", ruleset_version=RS.version, players=players, seed=seed,
                          cards=RS.default_cards())
    events, _, _ = play_out(RS, created)
    s = RS.initial_state(created)
    for e in events[1:]:
        if s.phase == COMMIT and isinstance(e, ForcesCommitted) and sum(map(len, s.hands)) == 1:
            yield s
        s = RS.apply(s, e)


def disguised(s, viewer: int, rng: random.Random):
    """``s`` with every face-down counter of another player's city swapped for a counter of the same city that is
    still at home, so what ``viewer`` sees is unchanged and what lies face down is not (a city whose counters
    ``viewer`` commands too is left alone: its pool at home tells which of them went)."""
    busy = committed_ids(s) | set(s.lost) | set(s.revolted)
    spare = {}
    for c in s.data.counters:
        if c.id not in busy:
            spare.setdefault(c.city, []).append(c.id)
    commits = []
    for cm in s.commits:
        city = s.data.counter(cm.counter).city
        pool = spare.get(city, [])
        if cm.player != viewer and not commands(s, viewer, city) and pool:
            new = pool.pop(rng.randrange(len(pool)))
            pool.append(cm.counter)
            cm = replace(cm, counter=new)
        commits.append(cm)
    return replace(s, commits=tuple(commits))


def test_the_greedy_bot_decides_the_last_commitment_without_the_face_down_counters_of_others():
    checked = 0
    for seed in range(1, 9):
        for s in last_commitments(seed):
            legal = RS.legal(s)
            me = pidx(s, RS.pending(s).player)
            chosen = greedy(RS, s, legal, random.Random(seed))
            for k in range(4):
                other = disguised(s, me, random.Random(k))
                if RS.legal(other) == legal:
                    checked += 1
                    assert greedy(RS, other, legal, random.Random(seed)) == chosen, (seed, k)
    assert checked >= 20

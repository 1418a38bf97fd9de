"""`agon stats` counts its games column by column with the builtins (analysis/stats.py ``aggregate``), for speed
over thousands of games: what it gives is what a plain running tally, game by game and seat by seat, gives, to the
last digit of every sum (scores added in game order from 0.0), for any mix of finished and unfinished games, seat
counts, missing scores, ties, sides and setups, as stored summaries or as plain data."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agon.analysis.stats import _rates, _setup_row, _tallied, aggregate, aggregate_facts, from_summary
from agon.events import summary
from agon.events.store import BRANCH, GAME
from agon.events.summary import Summary


def tallied(summaries: list[Summary], together: bool) -> dict[str, Any]:
    """The figures as a running tally makes them (the loop ``aggregate`` was before it read columns)."""
    games = finished = no_winner = events_sum = rounds_sum = 0
    lengths, rounds_all, side_label = [], [], None
    by_side: dict[str, list] = {}
    by_seat: dict[int, list] = {}
    by_setup: dict[str, list] = {}
    crew = [0, 0, 0.0]
    for s in summaries:
        games += 1
        if not s.over:
            continue
        finished += 1
        events_sum += s.events
        rounds_sum += s.rounds
        lengths.append(s.events)
        rounds_all.append(s.rounds)
        no_winner += not s.winners
        side_label = side_label or s.side_label
        best = max(s.scores.values(), default=0.0)
        t = by_setup.setdefault(s.setup, [0, 0, 0.0, 0, 0, s.events, s.events, 0.0, 0])
        t[0] += 1
        t[1] += bool(s.winners)
        t[2] += best
        t[3] += s.events
        t[4] += s.rounds
        t[5], t[6] = min(t[5], s.events), max(t[6], s.events)
        t[7] += sum(s.scores.values())
        t[8] += len(s.scores)
        crew[0] += 1
        crew[1] += bool(s.winners)
        crew[2] += best
        for seat, (player, _) in enumerate(s.seats, start=1):
            won, score = player in s.winners, s.scores.get(player, 0.0)
            t = by_seat.setdefault(seat, [0, 0, 0.0])
            t[0], t[1], t[2] = t[0] + 1, t[1] + won, t[2] + score
            side = s.sides.get(player)
            if side is not None:
                t = by_side.setdefault(side, [0, 0, 0.0])
                t[0], t[1], t[2] = t[0] + 1, t[1] + won, t[2] + score
    return {
        "games": games, "finished": finished, "no_winner": no_winner,
        "avg_events": events_sum / finished if finished else None,
        "avg_rounds": rounds_sum / finished if finished else None,
        "fewest_rounds": min(rounds_all, default=None), "most_rounds": max(rounds_all, default=None),
        "shortest": min(lengths, default=None), "lengths": lengths, "longest": max(lengths, default=None),
        "side_label": side_label,
        "by_side": [{"side": k, **_rates(_tallied(v))} for k, v in sorted(by_side.items())],
        "by_seat": [] if together else [{"seat": k, **_rates(_tallied(v))} for k, v in sorted(by_seat.items())],
        "together": together,
        "crew": _rates(_tallied(crew)) if together else None,
        "by_setup": [_setup_row(k, v, together) for k, v in sorted(by_setup.items())],
    }


NAMES = ["Ana", "Bruno", "Chloe", "Dario", "Eva"]
score = st.one_of(st.integers(-5, 80), st.floats(-5, 100, allow_nan=False, allow_subnormal=False),
                  st.sampled_from([0.1, 0.2, 0.7, 66.7, -0.0]))


@st.composite
def summaries(draw) -> Summary:
    players = draw(st.lists(st.sampled_from(NAMES), max_size=5, unique=True))
    scores = {p: draw(score) for p in players if draw(st.booleans()) or draw(st.booleans())}
    winners = tuple(p for p in players if draw(st.integers(0, 3)) == 0)
    sides = {p: draw(st.sampled_from("ABC")) for p in players} if draw(st.booleans()) else {}
    return Summary("g", "main", "h", "1", draw(st.integers(1, 300)), draw(st.integers(0, 12)),
                   draw(st.integers(0, 4)) > 0, "s", winners, scores, tuple((p, "") for p in players),
                   draw(st.sampled_from([None, "", "nation"])), sides, {},
                   draw(st.sampled_from(["2 players", "3 players", "difficulty=hard, 1 player"])))


@given(st.lists(summaries(), max_size=30), st.booleans())
def test_counting_by_columns_gives_what_a_running_tally_gives(games, together):
    want = repr(tallied(games, together))  # repr: -0.0 and 0.0 told apart, as JSON tells them
    assert repr(aggregate(games, together)) == want
    assert repr(aggregate(iter(games), together)) == want
    assert repr(aggregate([from_summary(s) for s in games], together)) == want


# 'agon stats' reads the stored rows' facts column by column (events/summary.py ``main_facts``), without a Summary
# per game: what it counts is what the running tally counts over the same rows read as summaries (``from_row``,
# through ``main_lines``), and the rows it finds stale, unreadable or damaged are the same, for any store.
STANDING = ["fresh", "fresh", "fresh", "other head", "old layout", "old version", "no row", "unreadable", "damaged",
            "computed", "computed elsewhere"]
_stores = iter(range(10**6))


@st.composite
def stored_games(draw) -> list[tuple[Summary, str, int]]:
    """Games as (summary, how its row stands, creation time in seconds: ties are ordered by id)."""
    games = draw(st.lists(summaries(), max_size=25))
    return [(msgspec.structs.replace(s, game_id=f"g{i:03d}", head_id=f"h{i}"), draw(st.sampled_from(STANDING)),
             draw(st.integers(0, 5))) for i, s in enumerate(games)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stored_games(), st.booleans(), st.one_of(st.none(), st.integers(1, 30)))
def test_the_stored_rows_facts_count_as_their_summaries_do(store, games, together, limit):
    ruleset = f"rs{next(_stores)}"  # a ruleset of its own for each example: the store keeps the others' games
    kept, computed = [], {}
    with store._write() as c:
        for s, standing, at in games:
            game_id = f"{ruleset}-{s.game_id}"
            s = msgspec.structs.replace(s, game_id=game_id)
            c.execute(GAME.insert().values(id=game_id, ruleset=ruleset, title="", players="", root_id="",
                                           created_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=at)))
            c.execute(BRANCH.insert().values(game_id=game_id, name="main", head_id=s.head_id,
                                             created_at=datetime(2026, 1, 1, tzinfo=UTC)))
            if standing == "other head":
                s = msgspec.structs.replace(s, head_id="elsewhere")
            elif standing == "old version":
                s = msgspec.structs.replace(s, ruleset_version="0")
            elif standing == "unreadable":
                s = summary.unreadable(game_id, "main", s.head_id, "a broken line")
            elif standing == "damaged":
                s = summary.damaged(s, "damaged: a hash does not match")
            elif standing == "computed":  # made at the head and not kept (a store that may only be read): it stands
                computed[game_id] = {"main": s}  # for the stale row stored
                s = msgspec.structs.replace(s, head_id="elsewhere", events=s.events + 1, over=not s.over)
            elif standing == "computed elsewhere":  # made at another head: the row stored stands
                computed[game_id] = {"main": msgspec.structs.replace(s, head_id="elsewhere", events=s.events + 1)}
            if standing != "no row":
                kept.append(s)
        summary.write(c, kept)
        old = [f"{ruleset}-{s.game_id}" for s, standing, _ in games if standing == "old layout"]
        if old:
            c.execute(summary.SUMMARY.update().where(summary.SUMMARY.c.game_id.in_(old)).values(layout=3))
    listed, stale = summary.main_lines(store, ruleset, "1", limit, computed)
    facts, stale_too = summary.main_facts(store, ruleset, "1", limit, computed)
    assert stale_too == stale
    readable = [s for s in listed if s.readable]
    assert facts.games == len(readable)
    assert facts.unreadable == [(s.game_id, s.status) for s in listed if not s.readable]
    assert facts.read == len(listed)
    want = repr(tallied(readable, together))
    assert repr(aggregate_facts(facts, together)) == want
    assert repr(aggregate(readable, together)) == want

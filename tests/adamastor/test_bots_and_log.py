"""Seeded bot games, the log's narration, the voyage projection, views and replay speed."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from agon.core.autoplay import play_out
from agon.core.engine import Chance, Over, fold, steps
from agon.core.games.adamastor.state import card_name
from agon.events.adamastor import FleetMoved, MoraleLost
from agon.events.base import PlayerSeat
from tests.adamastor.support import RS, created
from tests.adamastor.winrate import win_rate


def bot_game(options: dict, seed: int = 3, players: int = 1):
    c = created(players, options, seed=seed)
    c = replace(c, players=tuple(PlayerSeat(p.name, "greedy") for p in c.players))
    return c, *play_out(RS, c, validate=True)


@pytest.mark.parametrize(
    "options",
    [
        {"difficulty": "easy"},
        {"difficulty": "regular"},
        {"difficulty": "hard"},
        {"scenario": "historical"},
        {"less_luck": "true"},
    ],
)
def test_greedy_games_reach_a_win_or_a_loss(options):
    for players in (1, 2):
        c, events, actors, final = bot_game(options, players=players)
        assert isinstance(RS.pending(final), Over)
        assert final.result in ("won", "lost_morale", "lost_tumult")
        assert fold(RS, events) == final


def test_win_rates_fall_with_difficulty_and_are_neither_0_nor_100_percent():
    rates = {d: win_rate({"difficulty": d}, games=20)[0] for d in ("easy", "regular", "hard")}
    assert 0 < rates["hard"] <= rates["regular"] <= rates["easy"] < 20


def test_log_narrates_weather_sails_with_costs_events_and_traumas():
    c, events, actors, final = bot_game({"difficulty": "regular"}, seed=5)
    state = RS.initial_state(c)
    lines = []
    for ev in events[1:]:
        lines.append(RS.narrate(state, ev))
        state = RS.apply(state, ev)
    text = "\n".join(lines).lower()
    assert "sunrise:" in text and "actions" in text
    assert any(isinstance(e, FleetMoved) for e in events)
    assert "sails the fleet from" in text and " point" in text and " left)" in text
    assert "trauma" in text
    assert "fires (" in text or not any(isinstance(e, MoraleLost) for e in events)
    assert lines[-1].endswith("the voyage is won.") or lines[-1].endswith("the voyage is lost.")


def test_voyage_projection_has_morale_distance_and_threats_after_every_event():
    c, events, actors, final = bot_game({"difficulty": "easy"}, seed=2)
    rows = RS.projections["voyage"](list(steps(RS, events, actors)))
    assert len(rows) == len(events)
    for key in ("morale", "distance", "revolt", "disease", "fatigue", "threats", "round"):
        assert key in rows[-1]
    dealt = next(r for r in rows if r["morale"] > 0)
    assert dealt["morale"] >= 30 and dealt["distance"] > 0
    if final.result == "won":
        assert rows[-1]["distance"] == 0 and RS.scores(final) == {"P1": 100.0}
    else:
        assert rows[-1]["morale"] == 0 or rows[-1]["result"] == "lost_tumult"
    sails = RS.projections["sails"](list(steps(RS, events, actors)))
    assert all(row["cost"] >= 1 for row in sails)


def test_scores_plot_progress_from_0_to_100():
    c, events, actors, final = bot_game({"difficulty": "easy"}, seed=2)
    state = RS.initial_state(c)
    values = []
    for ev in events[1:]:
        state = RS.apply(state, ev)
        values.append(RS.scores(state)["P1"])
    assert values[0] == 0.0 and all(0.0 <= v <= 100.0 for v in values)


def test_view_hides_the_deck_order_from_players():
    c, events, actors, final = bot_game({"difficulty": "easy"}, seed=2)
    state = fold(RS, events[:8])
    assert RS.view(state, "P1")["deck"] == {"count": len(state.deck)}
    assert RS.view(state, None)["deck"] == [card_name(state, c) for c in state.deck]


def test_the_view_names_who_decides_now_as_the_pending_decision_does_and_nobody_once_over():
    """A player reads 'to_act' beside the status line: in the learn, ignore, place and trim phases that is not
    the co-op turn's player (it named Bo while Ana was asked to learn a skill)."""
    c, events, _, _ = bot_game({}, seed=5, players=2)
    differs = 0
    for state in steps_states(c, events):
        pending = RS.pending(state)
        shown = RS.view(state, "P1")["to_act"]
        if isinstance(pending, Over):
            assert shown is None
        elif not isinstance(pending, Chance):
            assert shown == pending.player, (state.phase, shown, pending)
            differs += pending.player != state.acting
    assert differs  # the game went through decisions by someone other than the co-op turn's player


def steps_states(c, events):
    state = RS.initial_state(c)
    yield state
    for ev in events[1:]:
        state = RS.apply(state, ev)
        yield state


def test_the_log_tells_the_voyage_setting_out_in_the_present_as_every_event(agon):
    solo = agon("new", "adamastor", "--player", "Ana", "--seed", "1").stdout.split()[0]
    assert "0. Ana sets out on a voyage (regular)." in agon("log", solo).stdout
    crew = agon("new", "adamastor", "--player", "Ana", "--player", "Bo", "--option", "difficulty=hard",
                "--seed", "1").stdout.split()[0]
    assert "0. Ana and Bo set out on a voyage (hard)." in agon("log", crew).stdout

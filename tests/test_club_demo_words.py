"""`agon demo` as an organiser fills a store for `agon stats`: a solo game is 'by 1 greedy bot', and the games of
two runs of `--games N` are told apart in `agon games` by their titles, which name each game's seed (both runs'
first game was 'demo of adamastor (1 of 2)')."""

from __future__ import annotations

import json


def test_a_solo_demo_is_by_one_bot(agon):
    one = agon("demo", "adamastor", "--players", "1", "--seed", "3").stdout
    assert one.startswith("Recorded a game of Adamastor by 1 greedy bot: game "), one
    many = agon("demo", "adamastor", "--players", "1", "--seed", "3", "--games", "2").stdout
    assert many.startswith("Recorded 2 Adamastor games by 1 greedy bot (seeds 3 to 4), "), many


def test_two_runs_of_demo_games_have_titles_of_their_own(agon):
    agon("demo", "toy", "--seed", "10", "--games", "2")
    agon("demo", "toy", "--seed", "20", "--games", "2")
    titles = [g["title"] for g in json.loads(agon("games", "--json").stdout)]
    assert titles == ["demo of toy, seed 10 (1 of 2)", "demo of toy, seed 11 (2 of 2)",
                      "demo of toy, seed 20 (1 of 2)", "demo of toy, seed 21 (2 of 2)"]

"""A setup said one way: in `agon stats` by setup, in the log's first line, and as typed in `agon new --option`."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

HISTORICAL_HARD = Path(__file__).resolve().parent / "fixtures" / "historical-hard.jsonl"
"""A game of the historical scenario recorded with ``difficulty=hard``, before a new game refused that."""


def _new(agon, seed: int, *options: str) -> str:
    args = ["new", "adamastor", "--bot", "Ana:greedy", "--seed", str(seed)]
    for option in options:
        args += ["--option", option]
    return agon(*args).stdout.split()[0]


def _setups(agon) -> dict[str, int]:
    rows = json.loads(agon("stats", "adamastor", "--json").stdout)["by_setup"]
    return {r["setup"]: r["played"] for r in rows}


def test_a_default_typed_and_one_left_out_are_one_setup_in_stats(agon):
    """A club's stats split one setup in two: 'difficulty=regular, 1 player' for the game that typed it and
    '1 player' for the game that left it to its default; 'less_luck=false' made a third."""
    _new(agon, 1)
    _new(agon, 2, "difficulty=regular")
    _new(agon, 3, "less_luck=false")
    _new(agon, 4, "difficulty=hard", "less_luck=on")
    assert _setups(agon) == {"difficulty=regular, 1 player": 3, "difficulty=hard, less_luck=true, 1 player": 1}


def test_a_difficulty_or_scenario_is_read_in_any_case(agon):
    """`--option difficulty=Hard` was refused ("not 'Hard'") where a bot's kind `Greedy` is read in any case."""
    gid = _new(agon, 5, "difficulty=Hard", "scenario=Variable")
    assert "0. Ana sets out on a voyage (hard)." in agon("log", gid).stdout
    assert _setups(agon) == {"difficulty=hard, 1 player": 1}


def test_the_historical_voyage_names_no_difficulty_it_does_not_have(agon):
    """The historical map is its 3 cards whatever the difficulty (rulebook 9.1): the log said 'the historical voyage
    (regular)', or '(hard)' where one was typed, and stats split the same voyage by it. A new game now refuses a
    difficulty with the historical scenario (tests/adamastor/test_historical_difficulty.py); the game with one is
    ``agon new adamastor --bot Ana:greedy --seed 7 --option scenario=historical --option difficulty=hard`` as
    recorded by an agon that took it (fixtures/historical-hard.jsonl)."""
    plain = _new(agon, 6, "scenario=historical")
    hard = agon("import", str(HISTORICAL_HARD)).stdout.split()[0]
    for gid in (plain, hard):
        assert "0. Ana sets out on the historical voyage.\n" in agon("log", gid).stdout
    assert _setups(agon) == {"scenario=historical, 1 player": 2}
    told = json.loads(agon("rulesets", "--json").stdout)
    said = next(r for r in told if r["name"] == "adamastor")["options"]["scenario"]
    assert "whatever the difficulty" in said


def test_summaries_written_before_are_recomputed_with_the_setup_said_one_way(agon, tmp_path):
    """A store whose summaries were written by an agon that said the setup as typed is read right at once, not
    after `agon rebuild`: the rows of the older layout are stale."""
    _new(agon, 1)
    _new(agon, 2, "difficulty=regular")
    with sqlite3.connect(tmp_path / "games.db") as db:
        db.execute("UPDATE game_summary SET layout = 3, setup = '1 player' WHERE options = '{}'")
    assert _setups(agon) == {"difficulty=regular, 1 player": 2}


def test_a_sail_or_trim_of_a_card_not_held_names_that_card(agon):
    """`agon act G '{... sail_started, cards: [c40]}'` said only 'discard only cards in Ana's hand, each once':
    which card of several typed was wrong went unsaid. Seed 5 deals Ana Cozinheiro (6), Língua (23), Escrivão (11);
    Capitão-mor (40) lies on the strip."""
    gid = agon("new", "adamastor", "--player", "Ana", "--seed", "5").stdout.split()[0]
    agon("act", gid, "2")
    sail = '{"type": "adamastor.sail_started", "cards": [%s]}'
    r = agon("act", gid, sail % '"c6", "c40"', ok=False)
    assert r.exit_code == 1
    assert r.stderr.strip() == ("error: refused: sail (rulebook 5.2 C 'Navegar'): Capitão-mor (40) is not in Ana's"
                                " hand: discard only cards in it, each once")
    r = agon("act", gid, sail % '"c23", "c23"', ok=False)
    assert "Língua (23) is named twice: discard only cards in Ana's hand, each once" in r.stderr
    agon("act", gid, "1")  # the draw action: a fourth card, so sunset asks Ana to discard one
    trim = '{"type": "adamastor.hand_trimmed", "player": "Ana", "cards": ["c40"]}'
    r = agon("act", gid, trim, ok=False)
    assert "sunset (rulebook 5.4): Capitão-mor (40) is not in Ana's hand" in r.stderr

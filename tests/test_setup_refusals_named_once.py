"""A setup `agon new` refuses names its game once: the service says "cannot set up adamastor: ", and the ruleset's own
reason that follows it no longer names the game again ("cannot set up adamastor: Adamastor: difficulty must be ...",
"cannot set up perikles: Perikles takes 3 to 5 players, ..."), for every shipped ruleset's refusals of seats, options
and card sets."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from agon.core import registry


def _cards(ruleset: str, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    cards = copy.deepcopy(registry.get(ruleset).default_cards())
    change(cards)
    return cards


def _seats(n: int) -> list[str]:
    return [a for i in range(n) for a in ("--player", f"P{i}")]


def _without_commands(line: str) -> str:
    """The sentence without the commands it names (`agon cards peloponnes` names the ruleset as a word to type)."""
    return re.sub(r"`[^`]*`", "", line)


CASES = [
    ("adamastor", 1, ["--option", "difficulty=brutal"], None,
     "cannot set up adamastor: difficulty must be easy, regular or hard, not 'brutal'"),
    ("adamastor", 1, ["--option", "scenario=lost"], None,
     "cannot set up adamastor: scenario must be variable or historical, not 'lost'"),
    ("adamastor", 1, ["--option", "less_luck=maybe"], None, "cannot set up adamastor: less_luck must be true or false"),
    ("adamastor", 3, [], None, "cannot set up adamastor: it is played by 1 player or 2 co-operating players, not 3"),
    ("adamastor", 1, ["--option", "scenario=historical", "--option", "difficulty=hard"], None,
     "cannot set up adamastor: the historical voyage has its own 3 map cards"),
    ("adamastor", 1, [], lambda c: c.update(sea_costs="x"), "cannot set up adamastor: the card set is malformed"),
    ("adamastor", 1, [], lambda c: c.update(maps=[m for m in c["maps"] if m["kind"] != "final"]),
     "cannot set up adamastor: the card set has too few map cards: a regular game needs 3 regular and 1 final"),
    ("adamastor", 1, ["--option", "scenario=historical"],
     lambda c: c.update(maps=[m for m in c["maps"] if m["kind"] != "historical"]),
     "cannot set up adamastor: the card set lacks map cards H1, H2, H3, which the historical scenario needs"),
    ("peloponnes", 1, [], None,
     "cannot set up peloponnes: it is played by 2 to 5 players: the rule text has no rules"),
    ("peloponnes", 6, [], None,
     "cannot set up peloponnes: it is played by 2 to 5 players, not 6: the game has markers"),
    ("peloponnes", 2, [], lambda c: c.update(coins=None), "cannot set up peloponnes: the card set is malformed"),
    ("pergamemnon", 1, [], None, "cannot set up pergamemnon: it is played by 2 to 5 players, not 1"),
    ("pergamemnon", 2, [], lambda c: c.update(nations=dict(list(c["nations"].items())[:1])),
     "cannot set up pergamemnon: card set: 'nations' must list at least 2 nations"),
    ("perikles", 2, [], None, "cannot set up perikles: it is played by 3 to 5 players, not 2"),
    ("perikles", 3, [], lambda c: c.update(cities=None), "cannot set up perikles: the card set is malformed"),
]


@pytest.mark.parametrize(("ruleset", "seats", "options", "change", "said"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_refused_setup_names_its_game_once(agon, tmp_path, ruleset, seats, options, change, said):
    extra: list[str] = []
    if change is not None:
        path = tmp_path / "cards.json"
        path.write_text(json.dumps(_cards(ruleset, change)))
        extra = ["--cards", str(path)]
    r = agon("new", ruleset, *_seats(seats), *options, *extra, ok=False)
    line = r.stderr.strip()
    assert r.exit_code == 1 and "\n" not in line and r.stdout == "", (r.stdout, r.stderr)
    assert line.startswith(f"error: {said}"), line
    assert _without_commands(line).lower().count(ruleset) == 1, line


def test_the_brutal_difficulty_is_refused_in_one_sentence(agon):
    """The walk that found it: the game was named twice, once by the service and once by the ruleset."""
    r = agon("new", "adamastor", "--player", "Ana", "--option", "difficulty=brutal", ok=False)
    assert r.stderr == "error: cannot set up adamastor: difficulty must be easy, regular or hard, not 'brutal'\n"

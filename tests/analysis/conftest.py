"""A known line for the analysis tests: a game of pig (the test game) to 10 played at a "real table", so every
die is typed in and the whole game is known in advance.

    #0 created  #1 seats Ana, Bruno
    #2 Ana rolls  #3 a 6  #4 rolls  #5 a 3  #6 holds 9        -> Ana 9
    #7 Bruno rolls  #8 a 5  #9 holds 5                         -> Bruno 5, round 2 starts
    #10 Ana rolls  #11 a 1 (loses the turn)
    #12 Bruno rolls  #13 a 6  #14 holds 6                      -> Bruno 11: Bruno wins, round 3

The what-if branch ``lucky`` starts after #10 with Ana rolling a 2 and holding: Ana 11 wins instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from agon.core.service import NewGame, Service

MAIN = ["Ana Bruno", "1", "6", "1", "3", "2", "1", "5", "2", "1", "1", "1", "6", "2"]
LUCKY = ["2", "2"]


@dataclass
class Known:
    svc: Service
    game: str


def record_known(svc: Service) -> str:
    gid = svc.new_game(NewGame(ruleset="toy", players=["Ana", "Bruno"], table=True, options={"target": 10},
                               seed=1, title="known pig"))
    for choice in MAIN:
        svc.act(gid, choice)
    svc.branch(gid, "lucky", at=10)
    for choice in LUCKY:
        svc.act(gid, choice, branch="lucky")
    svc.switch(gid, "main")
    return gid


@pytest.fixture
def known(sqlite_svc) -> Known:
    return Known(sqlite_svc, record_known(sqlite_svc))

"""The attacker's comparison after an undo: an event's id is the hash of its parent's id and its payload, hidden
parts included, and entering an undone event again as it was walks back onto the undone line ('reenter') instead of
growing a new one. So whether a hidden decision entered after an undo is the same as the one undone shows in what
every seat reads: the line's position (the start of the head's id), whether the undone line is kept as a branch, and
the spectators' tree. Where the undone line had shown the hidden card (a Pergamemnon attack, revealed by the defence),
that tells the other seats the card laid face down now.

Known and not fixed (the test's reason): telling the two apart from the outside takes an id that does not follow
from the hidden parts alone, which changes what is hashed (see the report of this audit).
"""

from __future__ import annotations

import re
import warnings

import pytest

from agon.server.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def _attacks(client, gid, token) -> list[dict]:
    opts = client.get(f"/api/games/{gid}/options?token={token}").json()["options"]
    return [o for o in opts if o["event"]["type"] == "pergamemnon.attacked"]


def _twin(client, same: bool) -> tuple[str, str]:
    """A game where Ana attacks, Bo defends (so Ana's card is shown), the host takes both back and Ana attacks
    again with the same weapon: with the same card (``same``) or another. Bo's token and the game."""
    made = client.post("/api/games", json={"ruleset": "pergamemnon", "players": ["Ana", "Bo"], "seed": 11}).json()
    gid = made["game"]
    ana, bo, host = (made["seats"]["Ana"]["token"], made["seats"]["Bo"]["token"], made["host"]["token"])
    for _ in range(30):  # each plays its first option until Ana may attack Bo with two cards of one weapon
        state = client.get(f"/api/games/{gid}").json()
        p = state["pending"]["player"]
        attacks = _attacks(client, gid, ana) if p == "Ana" else []
        weapons = [a["event"]["weapon"] for a in attacks]
        pair = [a for a in attacks if weapons.count(a["event"]["weapon"]) > 1]
        if pair:
            break
        token = made["seats"][p]["token"]
        assert client.post(f"/api/games/{gid}/act?token={token}", json={"choice": 1}).status_code == 200
    else:
        raise AssertionError("Ana never had two cards of one weapon to attack with")
    first = pair[0]
    again = first if same else next(a for a in pair[1:] if a["event"]["weapon"] == first["event"]["weapon"]
                                    and a["event"]["card"] != first["event"]["card"])
    assert client.post(f"/api/games/{gid}/act?token={ana}", json={"choice": first["n"]}).status_code == 200
    assert client.post(f"/api/games/{gid}/act?token={bo}", json={"choice": 1}).status_code == 200
    assert client.post(f"/api/games/{gid}/undo?token={host}", json={"steps": 2}).status_code == 200
    n = next(a["n"] for a in _attacks(client, gid, ana) if a["event"] == again["event"])
    assert client.post(f"/api/games/{gid}/act?token={ana}", json={"choice": n}).status_code == 200
    return gid, bo


@pytest.mark.xfail(strict=True, reason="an event's id follows from its hidden parts: entering a hidden decision"
                   " again as it was undone reads differently to every seat from entering another")
def test_bo_cannot_tell_whether_ana_laid_the_card_he_saw_before_the_undo(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'club.db'}", poll=0.01)) as client:
        twins = [_twin(client, True), _twin(client, False)]

        def read(gid: str, token: str, path: str) -> str:
            sep = "&" if "?" in path else "?"
            text = client.get(f"/api/games/{gid}{path}{sep}token={token}").text.replace(gid, "GAME")
            return re.sub(r"\b[0-9a-f]{8}\b", "ID", text)  # positions differ between any two games

        told = [{path: read(gid, bo, path) for path in ("", "/branches", "/log")} for gid, bo in twins]
        assert told[0] == told[1]

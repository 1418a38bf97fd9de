"""The attacker's search for the seed: a seat of a game the server draws the luck of (not a table's) sees some
chance outcomes whole (a face-up deal, its own hand, dice) and knows how agon draws luck (``core.chance.rng_for``:
sha256 of the seed, the line's luck and the chance's ordinal). If that were all the draws depended on, the player
could try every seed on the outcomes they see and, with the one that fits, work out every draw they may not see:
the other players' hands, the order of every deck, from the first event on.

The seed agon draws for a game is below 2**31: some 5 hours of this search in plain Python on one core, minutes on
a few machines. Here the server's draw of the seed is made to fall among the first ``WINDOW`` seeds, so that the same
search, cut short, runs in a test: it found the seed and the hidden draws until a game whose seed agon draws got a
secret luck of its own besides (``NewSetup.luck``), which makes the search 2**31 times longer. A game whose seed is
given replays from the seed alone (its luck is 0), as before.
"""

from __future__ import annotations

import json
import secrets
import warnings

import msgspec
import pytest

from agon.core import chance as chance_mod
from agon.core.engine import HIDDEN, Chance
from agon.server.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

WINDOW = 3000
"""The seeds searched: the whole range (2**31) takes hours, not a test's seconds."""

SEED = 2718
"""The seed the server 'draws' here (any seed in the window)."""


def _hides(obj) -> bool:
    return obj == HIDDEN or (isinstance(obj, dict) and any(map(_hides, obj.values()))) or (
        isinstance(obj, list) and any(map(_hides, obj)))


def _plain(event) -> dict:
    return json.loads(msgspec.json.encode(event))


@pytest.mark.parametrize(("ruleset", "players"), [("pergamemnon", 3), ("peloponnes", 3), ("perikles", 3),
                                                  ("adamastor", 2)])
def test_a_seat_cannot_work_out_hidden_draws_by_searching_the_seed(tmp_path, monkeypatch, ruleset, players):
    names = ["Ana", "Bo", "Cy"][:players]
    real = secrets.randbelow
    monkeypatch.setattr(secrets, "randbelow", lambda n: SEED if n == 2**31 else real(n))
    app = create_app(f"sqlite:///{tmp_path / 'club.db'}", poll=0.01)
    with TestClient(app) as client:
        made = client.post("/api/games", json={"ruleset": ruleset, "players": names}).json()
        monkeypatch.setattr(secrets, "randbelow", real)
        gid, token = made["game"], made["seats"]["Bo"]["token"]
        # play on until Bo has seen five draws whole and one not, each seat choosing its first option
        for _ in range(200):
            rows = client.get(f"/api/games/{gid}/log?token={token}").json()["events"]
            hidden = [_hides(r["event"]) for r in rows if r["actor"] == "chance"]
            if any(hidden) and hidden.count(False) >= 5:
                break
            pending = client.get(f"/api/games/{gid}").json()["pending"]
            assert pending["kind"] == "decision", pending
            seat = made["seats"][pending["player"]]["token"]
            assert client.post(f"/api/games/{gid}/act?token={seat}", json={"choice": 1}).status_code == 200
        assert rows[0]["event"]["seed"] == HIDDEN  # the seed is not shown: it must be searched for
        chances = [r for r in rows if r["actor"] == "chance"]
        seen = [i for i, r in enumerate(chances) if not _hides(r["event"])]
        unseen = next(i for i, r in enumerate(chances) if _hides(r["event"]))
        assert seen, "Bo saw no draw whole"
        # what the rules ask at each draw is public (what a deal draws from); read here from the rules' own line
        line = app.state.service.load(gid)
        asked = [line.ruleset.pending(st.before) for st in line.steps() if st.actor == "chance"]
        assert all(isinstance(a, Chance) for a in asked)

        def drawn(seed: int, k: int) -> dict:  # the k-th draw from ``seed`` of a main line whose luck is 0
            return _plain(asked[k].build(chance_mod.draw(asked[k], chance_mod.rng_for(seed, 0, k))))

        fits = [s for s in range(WINDOW) if all(drawn(s, k) == chances[k]["event"] for k in seen)]
        truth = _plain(line.events[chances[unseen]["n"]])
        # Bo's search would tell the hidden draw: every seed that fits the draws Bo sees draws it
        worked_out = fits and all(drawn(s, unseen) == truth for s in fits)
        assert not worked_out, f"Bo worked out #{chances[unseen]['n']}: {truth}"


def test_a_game_whose_seed_is_given_replays_from_it_and_one_agon_seeds_keeps_its_luck_through_a_file(svc, tmp_path):
    """On each store (PostgreSQL's branch.luck is a 32-bit integer: the luck drawn stays below 2**31)."""
    from agon.core.service import NewGame, Service
    from agon.core.transfer import import_data
    from agon.events.store import Store

    given = [svc.load(svc.new_game(NewGame("pergamemnon", ["Ana", "Bo"], seed=SEED))) for _ in range(2)]
    assert [ln.branch.luck for ln in given] == [0, 0] and given[0].events[1:] == given[1].events[1:]
    drawn = svc.load(svc.new_game(NewGame("pergamemnon", ["Ana", "Bo"])))
    assert drawn.branch.luck > 0 and svc.verify(drawn.game.id) == []
    # at a table too: the recorder may type 'seed' for a draw, which is drawn from the seed and the luck
    table = svc.load(svc.new_game(NewGame("pergamemnon", ["Ana", "Bo"], table=True)))
    assert table.branch.luck > 0
    # one line as a file, taken to another store: the same luck draws on, and the check finds nothing amiss
    other = Service(Store(f"sqlite:///{tmp_path / 'b.db'}"))
    gid = import_data(other, svc.export(drawn.game.id, "main")).game_id
    assert other.load(gid).branch.luck == drawn.branch.luck and other.verify(gid) == []

"""``agon analyse --cluster``: the same analysis on a Dask cluster gives the same figures as on this machine.

Needs a running Dask scheduler named by AGON_DASK_SCHEDULER (tcp://HOST:PORT) with workers that can import agon.
.ci/run starts one (a scheduler and two workers on 127.0.0.1 that stop by themselves) and sets
AGON_REQUIRE_DASK=1, which makes this test required there; elsewhere it skips and says why.
"""

from __future__ import annotations

import json
import os

import pytest

from agon.core.analyse import Settings, analyse
from agon.core.service import NewGame


def _scheduler() -> str:
    address = os.environ.get("AGON_DASK_SCHEDULER", "")
    reason = ""
    try:
        import distributed
    except ImportError:
        reason = "the 'distributed' package is not installed (pip install -e '.[test]')"
    else:
        if not address:
            reason = "no Dask cluster named: set AGON_DASK_SCHEDULER=tcp://HOST:PORT (.ci/run starts one)"
        else:
            try:
                with distributed.Client(address, timeout="20s") as client:
                    client.wait_for_workers(2, timeout=60)
            except (OSError, TimeoutError) as e:
                reason = f"the Dask cluster at {address} does not answer with two workers ({e})"
    if reason:
        if os.environ.get("AGON_REQUIRE_DASK") == "1":
            pytest.fail(f"a Dask cluster is required here (AGON_REQUIRE_DASK=1): {reason}")
        pytest.skip(reason)
    return address


def test_an_analysis_on_a_dask_cluster_gives_the_figures_of_this_machine(agon):
    address = _scheduler()
    from agon.cli.common import service, set_db

    set_db(None)
    svc = service(starts=True)
    gid = svc.new_game(NewGame("pergamemnon", players=["Ana", "Bruno"], seed=11))
    svc.act(gid, "1")  # Ana's first decision; the game waits for Bruno
    line = svc.load(gid)
    here = analyse(svc, line, Settings(rollouts=12, seed=5, workers=1, max_alternatives=4))
    out = agon("analyse", gid, "--rollouts", "12", "--seed", "5", "--alternatives", "4", "--cluster", address,
               "--fresh", "--json").stdout
    there = json.loads(out)
    assert there["rollouts_played"] == here.computed > 0
    assert [r["chances"] for r in there["positions"]] == [p.chances for p in here.positions]
    assert [r["scores"] for r in there["positions"]] == [p.scores for p in here.positions]
    assert [[a["chance"] for a in d["alternatives"]] for d in there["decisions"]] == \
        [[a.chance for a in d.alternatives] for d in here.decisions] != []


def test_an_unreachable_cluster_is_one_clear_line(agon):
    pytest.importorskip("distributed", reason="the 'distributed' package is not installed (pip install -e '.[test]')")
    from agon.cli.common import service, set_db

    set_db(None)
    gid = service(starts=True).new_game(NewGame("pergamemnon", players=["Ana", "Bruno"], seed=11))
    r = agon("analyse", gid, "--rollouts", "5", "--cluster", "tcp://127.0.0.1:9", ok=False)
    assert r.exit_code == 1 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in r.stderr

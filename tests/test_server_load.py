"""The load and fault script (scripts/loadtest.py) at a small scale: PostgreSQL behind two workers of `agon serve`,
one of them killed with SIGKILL in the middle of play. uvicorn's supervisor starts a new worker, the players retry
what failed, every game is played to the end and verifies, and no acknowledged decision is lost or duplicated.
(The README's figures come from the same script at 200 players over 50 games.)"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import _pg_schema_url

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_url(pg_base):
    yield from _pg_schema_url(pg_base)


def test_a_worker_killed_mid_run_loses_no_acknowledged_event(pg_url):
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "loadtest.py"), "--db", pg_url, "--workers", "2", "--players", "12",
         "--games", "4", "--kill-after", "6", "--deadline", "300"],
        capture_output=True, text=True, timeout=420, env={**os.environ, "PYTHONPATH": str(ROOT)})
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert re.search(r"killed worker \d+ with SIGKILL", out), out
    assert "a new one started: True" in out, out
    assert "verify: 4 of 4 games pass; 4 played to the end" in out, out
    assert re.search(r"acknowledged decisions: 0 lost, 0 duplicated", out), out
    assert "5xx: 0" in out, out

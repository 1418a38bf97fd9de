"""Ctrl-C at any moment of a command ends it with status 130 and at most one line on stderr, never a traceback: the
half second or more of imports before the command's code runs printed Python's traceback of whichever import it
stopped (agon/__init__.py takes Ctrl-C in hand from agon's first line).

Not left to timing: the command is run as a person runs it (its installed script, or ``python -m agon``) with a
``sitecustomize`` of this test's on its path that holds one chosen import until the test has sent SIGINT: the
interrupt lands during that import, every time, on a loaded machine as on an idle one. The hold is the test's own:
nothing in agon waits or reads a setting for it.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.servers import agon_serve
from tests.test_play_pty import sigint_default

HOLD = textwrap.dedent('''
    import os, sys, time

    def _spawned():
        mp = sys.modules.get("multiprocessing")
        me = mp.current_process() if mp is not None else None
        return me is not None and (me.name != "MainProcess" or getattr(me, "_inheriting", False))

    class _Hold:
        """Holds the import of the module named in AGON_TEST_HOLD until the process is interrupted (with
        AGON_TEST_HOLD_IN=worker, only in a process the command spawned)."""
        def find_spec(self, name, path=None, target=None):
            if name == os.environ["AGON_TEST_HOLD"] and (os.environ.get("AGON_TEST_HOLD_IN") != "worker"
                                                         or _spawned()):
                sys.meta_path.remove(self)
                with open(f"{os.environ['AGON_TEST_HELD']}.{os.getpid()}", "w") as f:  # one file a process held
                    f.write(name)
                time.sleep(120)
            return None

    if os.environ.get("AGON_TEST_HOLD"):
        sys.meta_path.insert(0, _Hold())
''')


def _agon_script() -> str:
    script = Path(sys.executable).parent / "agon"
    return str(script) if script.exists() else shutil.which("agon") or ""


def _interrupted_during(tmp_path: Path, command: list[str], module: str, group: bool = False, held_by: int = 1,
                        **extra: str) -> subprocess.CompletedProcess:
    """Run ``command`` until it (or, ``group``, any process it started) begins to import ``module``, send it SIGINT
    there (``group``: to its whole process group, as a terminal's Ctrl-C), and what it did. ``held_by``: how many
    processes must be held in that import first (every worker the command starts, each importing afresh)."""
    hook = tmp_path / "hook"
    hook.mkdir(exist_ok=True)
    (hook / "sitecustomize.py").write_text(HOLD)
    held = tmp_path / f"held-{module}"
    path = os.pathsep.join(p for p in (str(hook), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONPATH": path,
           "AGON_TEST_HOLD": module, "AGON_TEST_HELD": str(held), "AGON_DB": str(tmp_path / "games.db"), **extra}
    env.pop("AGON_DEBUG", None)
    env.pop("AGON_RULESETS", None)  # the test ruleset imports from tests/, which is not on the path from tmp_path
    proc = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, stdin=subprocess.DEVNULL, preexec_fn=sigint_default, start_new_session=group)
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob(f"{held.name}.*"))) < held_by:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            out, err = proc.communicate()
            raise AssertionError(f"{module} was never imported (status {proc.returncode}): {err[-2000:]}")
        time.sleep(0.01)
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(command, proc.returncode, out, err)


@pytest.mark.parametrize("module", [
    "typer",  # the first import of agon's command line, right after agon's package
    "sqlalchemy",  # deep in the imports of the command modules
    "agon.core.games.peloponnes",  # a ruleset, read while the commands are put together
])
@pytest.mark.parametrize("how", ["script", "python -m agon"])
def test_ctrl_c_while_a_command_is_still_importing_ends_it_in_one_line_with_status_130(tmp_path, module, how):
    command = [_agon_script()] if how == "script" else [sys.executable, "-m", "agon"]
    if not command[0]:
        pytest.skip("the agon script is not installed beside this Python")
    r = _interrupted_during(tmp_path, [*command, "demo", "peloponnes"], module)
    lines = r.stderr.splitlines()
    assert r.returncode == 130, (r.returncode, r.stderr[-3000:])
    assert "Traceback" not in r.stderr and "KeyboardInterrupt" not in r.stderr, r.stderr[-3000:]
    assert len(lines) <= 1 and lines[0].startswith("error: stopped (Ctrl-C)"), lines
    assert r.stdout == ""
    assert not (tmp_path / "games.db").exists()  # nothing was begun: no store made


def test_ctrl_c_as_json_asked_for_is_one_json_line(tmp_path):
    command = [sys.executable, "-m", "agon", "games", "--json"]
    r = _interrupted_during(tmp_path, command, "typer")
    assert r.returncode == 130 and r.stderr.splitlines() == [
        '{"error": "stopped (Ctrl-C) before the command began; nothing was recorded"}'], r.stderr


def test_ctrl_c_while_the_command_runs_is_still_its_one_line(tmp_path):
    """'agon serve' imports uvicorn in its own code: an interrupt there is the command's, told as before."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = str(s.getsockname()[1])
    r = _interrupted_during(tmp_path, [sys.executable, "-m", "agon", "serve", "--port", free], "uvicorn")
    assert r.returncode == 130, (r.returncode, r.stderr[-3000:])
    assert r.stderr.splitlines()[-1:] == ["error: stopped (Ctrl-C); what was recorded before it stays recorded"], \
        r.stderr
    assert "Traceback" not in r.stderr


def test_ctrl_c_while_the_servers_workers_are_still_importing_prints_no_traceback_of_theirs(tmp_path):
    """'agon serve --workers 2' starts its workers afresh (uvicorn spawns them, each importing agon again): Ctrl-C,
    which a terminal sends to every process of the command, while they import printed each worker's traceback. A
    worker now ends without a word; what the command itself says (uvicorn's supervisor ends it) is all there is."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = str(s.getsockname()[1])
    r = _interrupted_during(tmp_path, [_agon_script() or sys.executable, *([] if _agon_script() else ["-m", "agon"]),
                                       "serve", "--port", free, "--workers", "2"], "sqlalchemy", group=True,
                            held_by=2, AGON_TEST_HOLD_IN="worker")  # both workers: one still starting Python
    # when the other was held took the interrupt in Python's own start-up, before any of agon's code could run
    assert "Traceback" not in r.stderr and "KeyboardInterrupt" not in r.stderr, r.stderr[-3000:]
    assert len(r.stderr.splitlines()) <= 1, r.stderr


def test_ctrl_c_once_the_server_runs_stops_it_and_says_so(tmp_path):
    """Ctrl-C is how 'agon serve' is stopped (its first line says so): once it serves, the interrupt shuts it down
    (status 0, a stop asked for) and a line says it stopped; it ended without a word."""
    db = tmp_path / "games.db"
    env = {k: v for k, v in os.environ.items() if k != "AGON_RULESETS"}  # the test ruleset imports from tests/
    proc, _, _ = agon_serve("--db", str(db), cwd=tmp_path, env=env, preexec_fn=sigint_default)  # once it answers
    try:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, (proc.returncode, err)
    assert out.splitlines()[-1] == f"agon serve stopped; the games stay in sqlite:///{db}.", out
    assert "Traceback" not in err, err


def test_ctrl_c_with_event_streams_open_ends_them_and_stops_without_a_traceback(tmp_path):
    """A club's pages hold event streams open, which end only when their browser goes: Ctrl-C then waited out
    uvicorn's graceful shutdown and cancelled each stream, printing 'timeout graceful shutdown exceeded' and a
    traceback per stream. The streams now end as the stop is asked for (each page's browser opens its stream again
    once the server is back), and the server stops as it does with none open."""
    import json

    db = tmp_path / "games.db"
    env = {k: v for k, v in os.environ.items() if k != "AGON_RULESETS"}
    proc, free, made = agon_serve("--db", str(db), probe="/api/games", cwd=tmp_path, env=env,
                                  preexec_fn=sigint_default,
                                  data=json.dumps({"ruleset": "perikles", "players": ["Ana", "Bo", "Cy"]}).encode())
    game = json.loads(made)["game"]
    streams: list[socket.socket] = []
    try:
        for _ in range(3):  # a seat's page, another's, a spectator's: each follows the game
            stream = socket.create_connection(("127.0.0.1", free), timeout=30)
            stream.sendall(f"GET /api/games/{game}/events?face=page HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            got = b""
            while b"event: status" not in got:  # the stream is open and waits for news
                chunk = stream.recv(65536)
                assert chunk, got
                got += chunk
            streams.append(stream)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        for stream in streams:
            stream.close()
    assert proc.returncode == 0, (proc.returncode, err)
    assert out.splitlines()[-1] == f"agon serve stopped; the games stay in sqlite:///{db}.", out
    assert "Traceback" not in err and "graceful shutdown exceeded" not in err and "ERROR" not in err, err

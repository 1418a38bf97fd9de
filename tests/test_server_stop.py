"""Ctrl-C on 'agon serve' said "stopped" at once, then the process took 0.3 s (an idle machine) to 2.4 s (a busy one)
more to end: Python tearing its interpreter down, freeing every module and object one by one, with nothing left to
write. Once the server has stopped and both stores are closed, the process now ends without that teardown: its output
flushed and its exit handlers run (cli/serve_cmds.py ``leave``).

Not timed: a ``sitecustomize`` of this test's on the server's path holds an object whose finalizer tells when the
interpreter's teardown reaches it, and an exit handler that tells when the exit handlers run.
"""

from __future__ import annotations

import json
import os
import signal
import textwrap

from tests.servers import agon_serve
from tests.test_play_pty import sigint_default

MARKERS = textwrap.dedent('''
    import atexit, os

    class _Torn:
        def __del__(self, write=os.write):
            write(2, b"interpreter torn down\\n")

    _torn = _Torn()
    atexit.register(lambda write=os.write: write(2, b"exit handlers ran\\n"))
''')


def test_ctrl_c_ends_agon_serve_once_stopped_without_tearing_the_interpreter_down(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(MARKERS)
    db = tmp_path / "games.db"
    env = {k: v for k, v in os.environ.items() if k != "AGON_RULESETS"}  # the test ruleset imports from tests/
    env["PYTHONPATH"] = os.pathsep.join([str(site), *filter(None, [env.get("PYTHONPATH")])])
    made = b'{"ruleset": "peloponnes", "players": ["Ana", "Bo"]}'  # a game made once it answers
    proc, _, answer = agon_serve("--db", str(db), probe="/api/games", data=made, cwd=tmp_path, env=env,
                                 preexec_fn=sigint_default)
    assert json.loads(answer)["game"]
    try:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, (proc.returncode, err)
    assert out.splitlines()[-1] == f"agon serve stopped; the games stay in sqlite:///{db}.", out
    assert "exit handlers ran" in err and "interpreter torn down" not in err and "Traceback" not in err, err
    # both stores were closed before: the game made is in the store's file, no -wal file beside it
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("games.db")) == ["games.db"]

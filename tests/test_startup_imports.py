"""A command imports what it uses: `agon state` (the benchmark's startup figure) does not load the analysis, the
rollouts, the game document or the process pool, nor look up agon's version among the installed packages; each
is loaded by the commands that need it."""

import json
import os
import subprocess
import sys

PROBE = """
import sys
sys.argv = ["agon", "state", sys.argv[1]]
from agon.cli.app import main
try:
    main()
except SystemExit:
    pass
import agon
loaded = [m for m in ("agon.core.analyse", "agon.core.rollout", "agon.core.document", "agon.core.transfer",
                      "concurrent.futures.process", "multiprocessing", "plotly") if m in sys.modules]
loaded += sorted(m for m in sys.modules if m.startswith("agon.analysis"))  # stats, figures: a crew's score too
if "__version__" in vars(agon):
    loaded.append("agon.__version__")
print("LOADED", ",".join(loaded))
"""


def _env(tmp_path):
    env = dict(os.environ)
    env["AGON_DB"] = str(tmp_path / "club.db")
    return env


def test_agon_state_loads_no_analysis_document_or_version(tmp_path):
    """The benchmark's game: a crew of two, whose one score 'agon state' tells once, as the crew's, with no analysis
    module loaded to learn that the crew shares it (the ruleset says so)."""
    env = _env(tmp_path)
    made = subprocess.run([sys.executable, "-m", "agon", "demo", "adamastor", "--json"], env=env,
                          capture_output=True, text=True, check=True)
    game = json.loads(made.stdout)["id"]
    out = subprocess.run([sys.executable, "-c", PROBE, game], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.startswith(f"Adamastor game {game}, branch main, after event #"), out.stdout
    assert "Scores: the crew " in out.stdout, out.stdout
    assert out.stdout.splitlines()[-1] == "LOADED ", out.stdout.splitlines()[-1]


def test_the_version_is_still_told(tmp_path):
    out = subprocess.run([sys.executable, "-m", "agon", "--version"], env=_env(tmp_path), capture_output=True,
                         text=True, check=True)
    assert out.stdout.startswith("agon ") and "store layout" in out.stdout, out.stdout
    assert out.stdout.split()[1][0].isdigit(), out.stdout

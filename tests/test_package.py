"""agon as an installed Python tool: one namespace, ``python -m agon``, ``--version``, shell completion."""

from __future__ import annotations

import subprocess
import sys

import agon
from agon.events.store import SCHEMA_VERSION


def test_version_names_the_package_and_the_store_layout(agon):  # noqa: F811 - the CLI fixture shadows the module
    out = agon("--version").stdout.strip()
    assert out.startswith("agon ") and f"(store layout {SCHEMA_VERSION})" in out


def test_python_dash_m_agon_runs_the_same_application():
    out = subprocess.run([sys.executable, "-m", "agon", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith(f"agon {agon.__version__}")


def test_python_dash_m_agon_in_a_checkout_agon_is_not_installed_for_says_so_in_one_line():
    # -S: no site-packages, so no installed agon: the checkout's folder agon/ is found, and nothing else of agon
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    r = subprocess.run([sys.executable, "-S", "-m", "agon", "--version"], capture_output=True, text=True, cwd=root)
    assert r.returncode == 1 and r.stdout == "", r
    assert r.stderr.splitlines() == [f"error: agon is not installed for this Python ({sys.executable}); install it"
                                     " with `python3 -m venv .venv && .venv/bin/pip install -e .`, then run"
                                     " `.venv/bin/agon`"], r.stderr


def test_shell_completion_is_offered():
    out = subprocess.run([sys.executable, "-m", "agon", "--help"], capture_output=True, text=True, check=True)
    assert "--install-completion" in out.stdout and "--show-completion" in out.stdout


def test_the_project_folders_are_subpackages_of_agon():
    import agon.analysis
    import agon.cli
    import agon.core
    import agon.events

    for module in (agon.core, agon.events, agon.cli, agon.analysis):
        assert module.__name__.startswith("agon.")

"""Shared fixtures: the test-only ruleset ``toy``, store URLs for SQLite and PostgreSQL, and a CLI runner.

PostgreSQL tests use AGON_TEST_PG_URL (default: the local server at 127.0.0.1:5432, database ``test``), each in a
fresh schema that is dropped afterwards. Where no server answers they skip and say so, unless AGON_REQUIRE_PG=1
(set by .ci/run), where they fail instead.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from functools import cache

import pytest
import typer.main
from hypothesis import HealthCheck, settings

from agon.core import registry
from tests.browser import browser, chromium_path, page, server  # noqa: F401  (the real-browser fixtures, Playwright)

registry.register("toy", "tests.toygame")

# Property tests judge what agon does, not how fast this machine generates inputs: with other work on the machine
# (CI and several test runs share two cores) Hypothesis's timing checks failed a correct test. Outcomes and the
# number of examples are unchanged.
# The default profile is also derandomized: each property test draws the same examples on every run, so a run of the
# README's test command (and CI) judges the change in front of it, not a new finding of a fresh seed. Exploring with
# fresh seeds each run is `pytest --hypothesis-profile=explore`; a failure it finds prints the seed that repeats it.
settings.register_profile("agon", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
settings.register_profile("explore", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("agon")
os.environ.setdefault("AGON_RULESETS", "toy=tests.toygame")

PG_URL = os.environ.get("AGON_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")

# The tests run in parallel (pytest-xdist, `-n auto` in pyproject.toml).
TERMINAL_SIZE = ("COLUMNS", "LINES")
MOST_WORKERS = 4
"""Each worker's tests hold a few PostgreSQL connections at once (a store pools them; the race tests open more): more
workers than this on a machine of many cores would crowd a server that allows 100."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config) -> int | None:
    """``-n auto``: one worker per core, at most ``MOST_WORKERS`` (PYTEST_XDIST_AUTO_NUM_WORKERS still decides)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return max(1, min(MOST_WORKERS, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                      else os.cpu_count() or 1))


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """What a worker must have as this process has it: the terminal's size variables (see ``pytest_configure``)."""
    node.workerinput["agon_terminal_size"] = {k: os.environ.get(k) for k in TERMINAL_SIZE}


def pytest_configure(config) -> None:
    """In a worker, COLUMNS and LINES as the command was started with. pytest imports readline early, and in a worker
    (its standard input a pipe) readline sets COLUMNS=80 and LINES=24; agon's output that is no terminal is folded to
    the width COLUMNS names, so a command the tests run in a child process folded a line that a run without workers
    keeps whole."""
    for name, value in getattr(config, "workerinput", {}).get("agon_terminal_size", {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def shipped_rulesets() -> list[str]:
    return [n for n in registry.names() if n != "toy"]


def _pg_unavailable() -> str | None:
    import sqlalchemy as sa

    try:
        eng = sa.create_engine(PG_URL)
        with eng.connect() as c:
            c.execute(sa.text("select 1"))
        eng.dispose()
    except Exception as e:  # noqa: BLE001
        return f"no PostgreSQL reachable at {PG_URL} ({type(e).__name__}); set AGON_TEST_PG_URL to run these tests"
    return None


@pytest.fixture(scope="session")
def pg_base() -> str:
    reason = _pg_unavailable()
    if reason:
        if os.environ.get("AGON_REQUIRE_PG") == "1":
            pytest.fail(f"PostgreSQL is required here (AGON_REQUIRE_PG=1): {reason}")
        pytest.skip(reason)
    return PG_URL


def _pg_schema_url(base: str) -> Iterator[str]:
    import sqlalchemy as sa

    schema = f"agon_test_{secrets.token_hex(4)}"
    eng = sa.create_engine(base)
    with eng.begin() as c:
        c.execute(sa.text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with eng.begin() as c:
            c.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        eng.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request, tmp_path) -> Iterator[str]:
    """A fresh, empty store: one run per backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'agon.db'}"
        return
    base = request.getfixturevalue("pg_base")
    yield from _pg_schema_url(base)


@pytest.fixture
def store(store_url):
    from agon.events.store import Store

    s = Store(store_url)
    yield s
    s.close()


@pytest.fixture
def svc(store):
    from agon.core.service import Service

    return Service(store)


@cache
def _cli_command(app):
    return typer.main.get_command(app)


@pytest.fixture
def agon(tmp_path, monkeypatch):
    """Run the real agon command line on a fresh store in a fresh working folder, as a person would.

    ``agon(*args)`` asserts success unless ``ok=False``; ``input`` is typed at the prompts."""
    import typer.testing
    from typer.testing import CliRunner

    from agon.cli.app import app

    monkeypatch.setenv("AGON_DB", str(tmp_path / "games.db"))
    # output that is not a terminal is folded only to a width COLUMNS names (tests/test_cli_widths.py): the tests
    # read whole lines, whatever the shell that runs them exports
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.chdir(tmp_path)
    # Typer rebuilds the click command from the functions' signatures on every invoke (a tenth of a second); the
    # command is the same every time, so build it once.
    monkeypatch.setattr(typer.testing, "_get_command", _cli_command)
    runner = CliRunner()

    def run(*args: str, input: str | None = None, ok: bool = True):
        result = runner.invoke(app, list(args), input=input)
        if ok:
            assert result.exit_code == 0, (args, result.output, result.stderr)
        return result

    return run


@pytest.fixture
def sqlite_svc(tmp_path):
    from agon.core.service import Service
    from agon.events.store import Store

    s = Store(f"sqlite:///{tmp_path / 'agon.db'}")
    yield Service(s)
    s.close()


@pytest.fixture
def elsewhere(tmp_path):
    """A second store (SQLite): where a game is taken by export and import, to be compared with the one it left."""
    from agon.core.service import Service
    from agon.events.store import Store

    s = Store(f"sqlite:///{tmp_path / 'elsewhere.db'}")
    yield Service(s)
    s.close()

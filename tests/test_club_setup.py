"""A club's keeper setting up a shared store, as the README's "Running it for a club" has them do it.

PostgreSQL's database and user are not agon's to make: a URL naming a database or a user the server does not have was
told only to 'check its server and the URL', though nothing was wrong with either but a step not taken. The refusal
now names the command PostgreSQL ships for that step, on the URL's own server."""

from __future__ import annotations

import secrets

import pytest
import sqlalchemy as sa

from tests.servers import free_port

pytestmark = pytest.mark.postgres


def _missing(pg_base: str, **parts: str) -> str:
    """``pg_base`` with another database or user, one the server does not have (nothing is made)."""
    return sa.engine.make_url(pg_base).set(**parts).render_as_string(hide_password=False)


def _one_line(r) -> str:
    assert r.exit_code == 1 and r.stdout == "" and "Traceback" not in r.stderr, (r.stdout, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    return r.stderr.strip()


@pytest.mark.parametrize("args", [("games",), ("demo", "adamastor"), ("serve",)], ids=" ".join)
def test_a_database_the_server_has_not_is_refused_naming_createdb(agon, pg_base, args):
    name = f"agon_club_missing_{secrets.token_hex(3)}"
    url = _missing(pg_base, database=name)
    u = sa.engine.make_url(url)
    if args[0] == "serve":
        args = ("serve", "--db", url, "--port", str(free_port()))
        r = agon(*args, ok=False)
    else:
        r = agon("--db", url, *args, ok=False)
    said = _one_line(r)
    assert f'database "{name}" does not exist' in said
    where = f" -h {u.host}" + (f" -p {u.port}" if u.port else "")
    owner = f" -O {u.username}" if u.username and u.username != "postgres" else ""
    assert said.endswith(f"; make the database once, as PostgreSQL's superuser (agon makes its tables in it):"
                         f" `createdb{where} -U postgres{owner} {name}`, or correct the URL"), said
    assert "check its server" not in said


def test_a_user_the_server_has_not_is_refused_naming_createuser(agon, pg_base):
    user = f"agon_club_nobody_{secrets.token_hex(3)}"
    url = _missing(pg_base, username=user, password=None)
    u = sa.engine.make_url(url)
    said = _one_line(agon("--db", url, "games", ok=False))
    if "password authentication failed" in said or "no password supplied" in said:
        pytest.skip("this server asks for a password before it says whether a user exists")
    where = f" -h {u.host}" + (f" -p {u.port}" if u.port else "")
    assert f'role "{user}" does not exist' in said
    assert said.endswith(f"; make the user once, as PostgreSQL's superuser: `createuser{where} -U postgres {user}`,"
                         " or correct the URL"), said

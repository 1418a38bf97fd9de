"""`agon verify` of a whole store that may only be read (a PostgreSQL user who may only SELECT, a SQLite file opened
with ``?mode=ro``) finds a damaged game: its last line said "`agon games` marks them DAMAGED", which no listing of that
store can do (the mark is a summary the store keeps, and it keeps none). It now says so, and what marks them."""

from __future__ import annotations

import json
import secrets
import sqlite3

import pytest
import sqlalchemy as sa

TAMPER = "UPDATE event SET payload = CAST(REPLACE(CAST(payload AS TEXT), 'roll', 'hold') AS BLOB) WHERE depth = 2"
PG_TAMPER = ("UPDATE event SET payload = convert_to(replace(convert_from(payload, 'UTF8'), 'roll', 'hold'), 'UTF8')"
             " WHERE depth = 2 AND game_id = :g")


def _two_games(run) -> str:
    """Two toy games; the first one's id (the one then damaged)."""
    first = run("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.split()[0]
    run("act", first, "1")
    run("new", "toy", "--player", "cy", "--bot", "di:random", "--seed", "8")
    return first


def _said_read_only(r, gid: str, db: str) -> None:
    assert r.exit_code == 1, (r.stdout, r.stderr)
    last = r.stdout.strip().splitlines()[-1]
    assert last.startswith(f"2 games checked: 1 damaged ({gid}); `agon --db "), last
    assert "games` marks them DAMAGED" not in last, last
    assert last.endswith(f"; this store is read-only, so no mark is kept and `agon --db {db} games` may still list"
                         f" them as sound (`agon --db {db} verify` marks them DAMAGED where agon may write to the"
                         " store)."), last


def test_verify_on_a_read_only_sqlite_file_says_the_damage_is_not_marked(agon, tmp_path):
    gid = _two_games(agon)
    db = sqlite3.connect(tmp_path / "games.db")
    with db:
        assert db.execute(TAMPER + " AND game_id = ?", (gid,)).rowcount == 1
    db.close()
    ro = f"sqlite:///{tmp_path / 'games.db'}?mode=ro"
    r = agon("--db", ro, "verify", ok=False)
    _said_read_only(r, gid, f"'{ro}'")
    data = json.loads(agon("--db", ro, "verify", "--json", ok=False).stdout)
    assert data["marked"] is False and [d["game"] for d in data["damaged"]] == [gid]
    # where agon may write, the same check marks it, and says so
    r = agon("verify", ok=False)
    assert r.stdout.strip().splitlines()[-1].endswith(" games` marks them DAMAGED."), r.stdout
    assert json.loads(agon("verify", "--json", ok=False).stdout)["marked"] is True
    assert "DAMAGED" in agon("--db", ro, "games").stdout  # the mark kept where it could be


@pytest.mark.postgres
def test_verify_by_a_select_only_postgresql_user_says_the_damage_is_not_marked(agon, pg_base):
    tag = secrets.token_hex(3)
    schema, role = f"agon_club2_{tag}", f"agon_club2_reader_{tag}"
    admin = sa.create_engine(pg_base)
    with admin.begin() as c:
        c.execute(sa.text(f"CREATE SCHEMA {schema}"))
        c.execute(sa.text(f"CREATE ROLE {role} LOGIN"))
    sep = "&" if "?" in pg_base else "?"
    owner = f"{pg_base}{sep}options=-csearch_path%3D{schema}"
    reader = sa.engine.make_url(owner).set(username=role, password=None).render_as_string(hide_password=False)
    try:
        gid = _two_games(lambda *a, ok=True: agon("--db", owner, *a, ok=ok))
        with admin.begin() as c:
            c.execute(sa.text(f"SET LOCAL search_path = {schema}"))
            assert c.execute(sa.text(PG_TAMPER), {"g": gid}).rowcount == 1
            c.execute(sa.text(f"GRANT USAGE ON SCHEMA {schema} TO {role}"))
            c.execute(sa.text(f"GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO {role}"))
        r = agon("--db", reader, "verify", ok=False)
        _said_read_only(r, gid, f"'{reader}'")
        assert "DAMAGED" not in agon("--db", reader, "games").stdout  # listed as sound, as the sentence says
    finally:
        with admin.begin() as c:
            c.execute(sa.text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = :r"),
                      {"r": role})
            c.execute(sa.text(f"DROP OWNED BY {role}"))
            c.execute(sa.text(f"DROP ROLE {role}"))
            c.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()

"""The store suite: the same tests against SQLite and PostgreSQL (see conftest.store_url)."""

from __future__ import annotations

import multiprocessing as mp
from datetime import UTC, datetime

import pytest

from agon.events.envelope import seal
from agon.events.store import Conflict, Store, StoreError

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def chain(n: int, start=None, label: str = "e"):
    out, parent = [], start
    for i in range(n):
        env = seal(parent, "toy.roll_chosen", 1, f"{label}{i}", b'{"type":"toy.roll_chosen"}', T0)
        out.append(env)
        parent = env
    return out


def new_game(store: Store, gid: str = "g1"):
    root = seal(None, "game.created", 1, "setup", b'{"type":"game.created"}', T0)
    store.create_game(gid, "toy", "", ["a", "b"], root)
    return root


def test_a_line_reads_back_in_order_with_its_hash_chain(store):
    root = new_game(store)
    envs = chain(5, root)
    store.append("g1", "main", root.id, envs)
    line = store.line("g1", envs[-1].id)
    assert [e.id for e in line] == [root.id, *[e.id for e in envs]]
    assert [e.depth for e in line] == list(range(6))
    assert all(e.expected_id() == e.id for e in line)
    assert store.branch("g1", "main").head_id == envs[-1].id
    assert [m.reason for m in store.head_moves("g1", "main")] == ["create", "act"]


def test_append_on_a_stale_head_is_a_conflict_and_writes_nothing(store):
    root = new_game(store)
    first = chain(1, root, "x")
    store.append("g1", "main", root.id, first)
    before = store.event_count("g1")
    with pytest.raises(Conflict, match="moved while this command ran"):
        store.append("g1", "main", root.id, chain(3, root, "y"))
    assert store.event_count("g1") == before
    assert store.branch("g1", "main").head_id == first[-1].id


def test_an_undo_or_redo_on_a_stale_head_is_a_conflict_that_says_nothing_was_undone_or_redone(store):
    """A head moved back (an undo) or forward (a redo) from a head that moved meanwhile records nothing and chooses
    nothing: its sentence says what was not done and to look at the game again, not to choose anew."""
    root = new_game(store)
    first = chain(2, root, "x")
    store.append("g1", "main", root.id, first)
    for reason, done in (("undo", "undone"), ("redo", "redone")):
        with pytest.raises(Conflict) as lost:
            store.move_head("g1", "main", root.id, first[0].id, reason)
        assert str(lost.value) == ("branch 'main' of game g1 moved while this command ran (someone else recorded,"
                                   f" took back or redid an event first); nothing was {done}: look at the game"
                                   " again and retry")
    assert store.branch("g1", "main").head_id == first[-1].id


def test_the_same_event_at_the_same_position_is_the_same_node(store):
    root = new_game(store)
    envs = chain(2, root)
    store.append("g1", "main", root.id, envs)
    store.move_head("g1", "main", envs[-1].id, root.id, "undo")
    store.append("g1", "main", root.id, envs)  # acting the same again after an undo
    assert store.event_count("g1") == 3
    assert [m.reason for m in store.head_moves("g1", "main")] == ["create", "act", "undo", "act"]


def test_branches_are_named_heads_and_names_are_unique_per_game(store):
    root = new_game(store)
    envs = chain(3, root)
    store.append("g1", "main", root.id, envs)
    store.create_branch("g1", "whatif", envs[0].id, 0, "main")
    assert [b.name for b in store.branches("g1")] == ["main", "whatif"]
    assert store.game("g1").current_branch == "whatif"
    with pytest.raises(StoreError, match="already has a branch"):
        store.create_branch("g1", "whatif", root.id, 0, "main")
    with pytest.raises(StoreError, match="no branch 'nope'"):
        store.branch("g1", "nope")
    # a game's id can be given by a unique prefix
    assert store.game("g").id == "g1"
    with pytest.raises(StoreError, match="no game"):
        store.game("zz")


def test_a_game_and_its_branch_are_read_together_as_game_and_branch_read_them(store):
    root = new_game(store)
    envs = chain(3, root)
    store.append("g1", "main", root.id, envs)
    store.create_branch("g1", "whatif", envs[0].id, 0, "main")
    for ref, name in (("g1", None), ("g1", "main"), ("g1", "whatif"), ("g", None), ("g", "main")):
        game, b = store.game_branch(ref, name)
        assert game == store.game(ref)
        assert b == store.branch("g1", name or game.current_branch)
    assert store.game_branch("g1")[1].name == "whatif" and store.game_branch("g1", "main")[1].head_id == envs[-1].id
    with pytest.raises(StoreError, match="no branch 'nope'"):
        store.game_branch("g1", "nope")
    with pytest.raises(StoreError, match="no game"):
        store.game_branch("zz")


def test_import_writes_a_whole_line_in_one_batch(store):
    root = seal(None, "game.created", 1, "setup", b'{"type":"game.created"}', T0)
    line = [root, *chain(200, root)]
    store.import_game("g2", "toy", "", ["a"], line)
    assert len(store.line("g2", line[-1].id)) == 201
    assert store.head_moves("g2")[0].reason == "import"


def _racer(url: str, head: str, label: str, barrier, results) -> None:
    store = Store(url, create=False)
    parent = store.event("g1", head)
    envs = chain(3, parent, label)
    barrier.wait()
    try:
        store.append("g1", "main", head, envs)
        results.put("ok")
    except Conflict:
        results.put("conflict")
    finally:
        store.close()


@pytest.mark.parametrize("labels", ["pq", "pp"], ids=["different-events", "the-same-events"])
def test_two_processes_appending_to_one_branch_exactly_one_wins(store, store_url, labels):
    root = new_game(store)
    ctx = mp.get_context("spawn")
    barrier, results = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_racer, args=(store_url, root.id, label, barrier, results)) for label in labels]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    outcomes = sorted(results.get(timeout=5) for _ in procs)
    assert outcomes == ["conflict", "ok"]
    assert store.event_count("g1") == 4  # the root and the winner's three: nothing lost or duplicated
    head = store.branch("g1", "main").head_id
    assert len(store.line("g1", head)) == 4


def test_a_database_that_cannot_be_opened_is_one_clear_error(tmp_path):
    with pytest.raises(StoreError, match="cannot open database"):
        Store(f"sqlite:///{tmp_path}/missing/dir/agon.db")
    with pytest.raises(StoreError, match="cannot"):
        Store("postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2")


def test_a_store_written_by_an_older_agon_is_upgraded_when_opened(store_url):
    import sqlalchemy as sa

    from agon.core.service import NewGame, Service
    from agon.events.store import SCHEMA_VERSION

    old = Store(store_url)
    gid = Service(old).new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=3))
    with old.engine.begin() as c:  # back to layout 1: no root_id, no layout version
        c.exec_driver_sql("ALTER TABLE game DROP COLUMN root_id")
        c.exec_driver_sql("DELETE FROM agon_schema")
    old.close()

    store = Store(store_url)
    svc = Service(store)
    with store.engine.connect() as c:
        assert c.execute(sa.text("SELECT version FROM agon_schema")).scalar() == SCHEMA_VERSION
    assert store.root(gid).depth == 0
    svc.act(gid, "1")
    svc.undo(gid)  # reads the game's first event through root_id
    assert svc.verify(gid) == []
    store.close()


def test_a_store_from_a_newer_agon_is_refused_with_a_clear_error(store_url):
    Store(store_url).close()
    s = Store(store_url)
    with s.engine.begin() as c:
        c.exec_driver_sql("INSERT INTO agon_schema (version) VALUES (99)")
    s.close()
    with pytest.raises(StoreError, match="written by a newer agon"):
        Store(store_url)


def test_undo_tails_give_every_branch_its_moves_since_its_last_entry_newest_first_in_one_query(store):
    """What a redo could bring back, for all of a game's branches at once ('agon branches'): the undos, redos and
    switches since each branch's last entry (or making), newest first; a branch with none since is left out."""
    root = new_game(store)
    envs = chain(3, root)
    store.append("g1", "main", root.id, envs)
    store.create_branch("g1", "b", envs[0].id, 0, "main")
    store.append("g1", "b", envs[0].id, chain(1, envs[0], "b"))
    store.move_head("g1", "main", envs[-1].id, envs[0].id, "undo")
    store.move_head("g1", "main", envs[0].id, envs[-1].id, "redo")
    store.move_head("g1", "main", envs[-1].id, envs[1].id, "undo")
    new_game(store, "g2")  # another game's moves are not read
    tails = store.undo_tails("g1")
    assert list(tails) == ["main"]
    assert [(m.reason, m.from_id, m.to_id) for m in tails["main"]] == [
        ("undo", envs[-1].id, envs[1].id), ("redo", envs[0].id, envs[-1].id), ("undo", envs[-1].id, envs[0].id)]
    assert store.undo_tails("nope") == {}

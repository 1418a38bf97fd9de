"""State snapshots (events/snapshots.py, core/snapshot.py) are a cache that never changes what agon says.

- every ruleset's state round-trips exactly through the snapshot encoding, at every position of a seeded game;
- every command that reads a line prints the same with snapshots in use, with them disabled and after they are
  dropped, for every ruleset, after acts, an undo and a branch (snapshots are taken every 4 events here, so short
  games hold many);
- a line read at its head folds only the events after the nearest snapshot, and a new ruleset version ignores the
  old snapshots;
- a damaged snapshot row is ignored (a digest that does not hold, bytes that do not decode); a forged one (digest
  recomputed) is found and dropped by 'agon verify', which folds every line from its first event; 'agon rebuild'
  drops them all.
"""

from __future__ import annotations

import json

import pytest

from agon.core import registry, snapshot
from agon.core import seats as seat_policy
from agon.core.autoplay import play_out
from agon.core.service import NewGame, Service, default_cards
from agon.events import snapshots as table
from agon.events.base import GameCreated, PlayerSeat
from tests.conftest import shipped_rulesets


@pytest.fixture
def every(monkeypatch):
    monkeypatch.setattr(table, "EVERY", 4)
    return 4


def seats(name: str) -> tuple[list[str], list[tuple[str, str]]]:
    rs = registry.get(name)
    n = max(rs.min_players, 2)
    return ["Ann"], [(f"Bot{i}", "random") for i in range(1, n)]


@pytest.mark.parametrize("name", [*shipped_rulesets(), "toy"])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_state_round_trips_exactly(name, seed):
    rs = registry.get(name)
    n = max(rs.min_players, 2)
    created = GameCreated(ruleset=rs.name, ruleset_version=rs.version, seed=seed, cards=default_cards(rs),
                          players=tuple(PlayerSeat(f"B{i}", "random") for i in range(n)))
    events = play_out(rs, created)[0]
    first = state = rs.initial_state(created)
    for ev in events[1:] if isinstance(events[0], GameCreated) else events:
        state = rs.apply(state, ev)
        data = snapshot.encode(state, first)
        assert data is not None, (name, ev)
        back = snapshot.decode(data, first)
        assert back == state and type(back) is type(state)
        assert snapshot.encode(back, first) == data  # what was decoded encodes the same again
    assert len(data) < len(snapshot._enc.encode(state))  # the card set shared with the first state is left out


def _play(agon, name: str, acts: int) -> str:
    players, bots = seats(name)
    args = ["new", name, "--seed", "5"] + [a for p in players for a in ("--player", p)]
    args += [a for b, k in bots for a in ("--bot", f"{b}:{k}")]
    gid = agon(*args).stdout.split()[0]
    for _ in range(acts):
        if agon("act", gid, "1", ok=False).exit_code:  # the game may end
            break
    return gid


READS = [
    ("state",), ("state", "--as", "Ann"), ("state", "--json"), ("state", "--at", "5", "--as", "Ann"),
    ("options",), ("options", "--json"), ("log",), ("log", "--as", "Ann", "--json"), ("log", "--full"),
    ("replay", "--from", "3", "--json"), ("replay", "--from", "9", "--to", "14", "--as", "Ann"), ("branches",),
]


def _reads(agon, gid: str, branch: str) -> dict[tuple[str, ...], str]:
    out = {}
    for cmd in READS:
        r = agon(cmd[0], gid, "-b", branch, *cmd[1:], ok=False)
        out[cmd] = f"{r.exit_code}\n{r.stdout}\n{r.stderr}"
    return out


def _snapshot_rows(tmp_path, drop: bool = False) -> int:
    from agon.events.store import Store

    s = Store(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        if drop:
            table.drop(s)
        return table.count(s)
    finally:
        s.close()


@pytest.mark.parametrize("name", shipped_rulesets())
def test_a_snapshot_never_changes_what_a_command_prints(agon, tmp_path, monkeypatch, every, name):
    gid = _play(agon, name, 6)
    agon("undo", gid)
    agon("act", gid, "2", ok=False)  # a new line beside the undone one (or a refusal: printed the same)
    agon("branch", gid, "side", "--at", "6", "-b", "main")
    agon("act", gid, "1", "-b", "side", ok=False)
    branches = [b["name"] for b in json.loads(agon("branches", gid, "--json").stdout)]
    assert len(branches) >= 2
    with_snapshots = {b: _reads(agon, gid, b) for b in branches}
    assert _snapshot_rows(tmp_path) > 0
    monkeypatch.setenv("AGON_SNAPSHOTS", "0")
    assert {b: _reads(agon, gid, b) for b in branches} == with_snapshots
    monkeypatch.delenv("AGON_SNAPSHOTS")
    assert _snapshot_rows(tmp_path, drop=True) == 0
    assert {b: _reads(agon, gid, b) for b in branches} == with_snapshots
    agon("rebuild")  # drops every snapshot (the summaries it recomputes write some again)
    assert {b: _reads(agon, gid, b) for b in branches} == with_snapshots
    assert "OK:" in agon("verify", gid).stdout


@pytest.mark.parametrize("name", shipped_rulesets())
def test_acting_prints_the_same_with_and_without_snapshots(agon, monkeypatch, every, name):
    gid = _play(agon, name, 5)
    agon("state", gid)  # the line is read: its snapshots are written
    acted = agon("act", gid, "1", "--json", ok=False)
    agon("undo", gid)
    monkeypatch.setenv("AGON_SNAPSHOTS", "0")
    again = agon("act", gid, "1", "--json", ok=False)
    assert (again.exit_code, again.stdout, again.stderr) == (acted.exit_code, acted.stdout, acted.stderr)


def _toy(svc: Service, acts: int) -> str:
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=3, options={"target": 10**6}))
    for _ in range(acts):
        svc.act(gid, "1")
    return gid


def _whole(svc: Service, gid: str, branch: str | None = None):
    return svc.load(gid, branch, whole=True)


def test_whether_a_seat_may_undo_is_told_from_the_tail_a_page_reads(svc, every):
    """Every state a seat page reads says whether that seat may undo (``may_undo``): told from the events after
    the nearest snapshot, not by reading the whole line, and the same answer as from the whole line."""
    gid = _toy(svc, 40)
    svc.load(gid)  # reading it keeps the snapshot nearest its head
    for seat in ("ann", "bob", seat_policy.HOST):
        line = svc.load(gid)
        assert not line.whole and line.base > 0
        allowed = seat_policy.may_undo(svc, line, seat)
        assert not line.whole, seat
        assert allowed == (seat_policy.undo_refusal(_whole(svc, gid), seat) is None), seat
    assert seat_policy.may_undo(svc, svc.load(gid), seat_policy.HOST)
    assert not seat_policy.may_undo(svc, svc.load(gid), "ann")


def test_a_line_is_read_from_its_last_snapshot(svc, every):
    gid = _toy(svc, 40)
    first = svc.load(gid)
    assert first.state == _whole(svc, gid).state  # reading it keeps the snapshot nearest its head
    line = svc.load(gid)
    assert not line.whole and 0 < line.base <= line.depth < line.base + every
    assert line.base % every == 0
    whole = _whole(svc, gid)
    assert (line.state, line.chance_count, line.depth, line.head) == (
        whole.state, whole.chance_count, whole.depth, whole.head)
    assert line.summary == whole.summary
    assert [e.id for e in line.envelopes] == [e.id for e in whole.envelopes]  # the rest is read when asked for
    for n in (0, 1, line.base - 1, line.base, line.depth):
        assert svc.load(gid).state_at(n) == whole.state_at(n)  # (a fresh line: not read whole yet)

    def told(steps):
        return [(st.index, st.event, st.before, st.after, st.actor) for st in steps]

    everything = told(whole.steps())
    for start, stop in ((1, 5), (line.base - 3, line.base + 2), (line.base, None), (line.depth - 1, None), (0, 3),
                        (7, 6), (line.base + 1, 10**6)):
        fresh = svc.load(gid)
        got = fresh.steps(start, stop)
        assert told(got) == everything[start : None if stop is None else stop + 1], (start, stop)
        assert not fresh.whole or start == 0  # a span is read alone, from the nearest snapshot before it
    svc.undo(gid)
    ann = [e.depth for e in _whole(svc, gid).envelopes if e.actor == "ann"]
    svc.branch(gid, "side", at=ann[-2] - 1)  # where ann decided: the branch starts with her decision due
    for _ in range(3):
        svc.act(gid, "1", branch="side")
        svc.act(gid, "1", branch="main")
    for b in ("main", "side"):
        got, whole = svc.load(gid, b), _whole(svc, gid, b)
        assert (got.state, got.chance_count, got.head, got.summary) == (
            whole.state, whole.chance_count, whole.head, whole.summary)
    assert svc.verify(gid) == []


def test_a_new_ruleset_version_ignores_old_snapshots(svc, every, monkeypatch):
    gid = _toy(svc, 30)
    _ = svc.load(gid).state  # reading the state keeps the snapshots
    assert not svc.load(gid).whole
    rs = registry.get("toy")
    monkeypatch.setattr(rs, "version", "2")
    line = svc.load(gid)
    assert line.whole  # no snapshot of version 2 near the head: read from the first event
    assert line.state == _whole(svc, gid).state
    again = svc.load(gid)  # version 2's own snapshot, written by the read before
    assert not again.whole and again.state == line.state
    with svc.store._read() as c:
        versions = {r[0] for r in c.exec_driver_sql("SELECT ruleset_version FROM state_snapshot")}
    assert versions == {"1", "2"}


def _rewrite(svc: Service, node: str, **values) -> None:
    with svc.store._write() as c:
        c.execute(table.SNAPSHOT.update().where(table.SNAPSHOT.c.event_id == node).values(**values))


def test_a_damaged_snapshot_is_ignored(svc, every):
    gid = _toy(svc, 30)
    _ = svc.load(gid).state  # reading the state keeps the snapshots
    line = svc.load(gid)
    truth = _whole(svc, gid)
    node = line.envelopes[line.base].id
    _rewrite(svc, node, state=b"\x00garbled")  # its digest no longer holds
    got = svc.load(gid)
    assert got.whole and got.state == truth.state and got.chance_count == truth.chance_count
    bad = table.Snapshot(node, "1", line.base, 0, b"\xc1")  # the digest holds, the bytes do not decode
    _rewrite(svc, node, state=bad.state, chance_count=0, digest=bad.digest())
    got = svc.load(gid)
    assert (got.state, got.chance_count) == (truth.state, truth.chance_count)


def test_a_forged_snapshot_is_found_and_dropped_by_verify(agon, tmp_path, every, monkeypatch):
    from agon.events.store import Store

    gid = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3", "--option",
               "target=1000000").stdout.split()[0]
    for _ in range(20):
        agon("act", gid, "1")
    truth = agon("state", gid, "--json").stdout
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    line = svc.load(gid)
    assert not line.whole
    node = line.envelopes[line.base]
    earlier = snapshot.encode(line.state_at(1), line.first_state)  # a real state, of another position
    assert earlier is not None
    forged = table.Snapshot(node.id, "1", node.depth, line._snapshot.chance_count, earlier)
    _rewrite(svc, node.id, state=forged.state, digest=forged.digest())
    svc.store.close()
    r = agon("verify", gid, ok=False)
    assert r.exit_code == 1 and f"state snapshot after event #{node.depth} differs" in r.stdout
    assert agon("state", gid, "--json").stdout == truth  # dropped: the command folds the events again
    assert "OK:" in agon("verify", gid).stdout


@pytest.mark.parametrize("name", shipped_rulesets())
def test_a_line_read_from_a_snapshot_sums_up_as_the_whole_line(sqlite_svc, every, name):
    svc = sqlite_svc
    rs = registry.get(name)
    gid = svc.new_game(NewGame(name, bots=[(f"Bot{i}", "random") for i in range(max(rs.min_players, 2))], seed=4))
    _ = svc.load(gid).state  # read whole (no snapshot yet): keeps a snapshot every 4 events
    line, whole = svc.load(gid), _whole(svc, gid)
    assert not line.whole and line.base > 0
    assert line.summary == whole.summary and line.sides == whole.sides
    assert not line.whole  # the sides came from the first events alone
    if whole.sides:
        assert line.sides

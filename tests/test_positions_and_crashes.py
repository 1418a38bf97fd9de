"""An option number never records a decision nobody chose (the position the options describe is checked), and
acting after an undo stores the new line and the undone line's name together or not at all."""

from __future__ import annotations

import json

import pytest

from agon.core.service import NewGame, ServiceError, position
from agon.events.store import Store


def two_people(agon) -> str:
    return agon("new", "toy", "--player", "ann", "--player", "bob", "--seed", "3").stdout.splitlines()[0]


def test_options_print_the_position_and_act_refuses_a_number_when_the_line_moved(agon):
    gid = two_people(agon)
    shown = json.loads(agon("options", gid, "--json").stdout)
    pos = shown["position"]
    assert f"(position {pos})" in agon("options", gid).stdout
    assert shown["pending"]["player"] == "ann" and shown["options"][1]["text"].startswith("ann holds")
    agon("act", gid, "2")  # someone else records ann's decision: now bob decides
    before = agon("log", gid, "--json").stdout
    r = agon("act", gid, "2", "--expect", pos, ok=False)
    assert r.exit_code == 1 and "the line has moved since position" in r.stderr and "nothing was recorded" in r.stderr
    assert agon("log", gid, "--json").stdout == before
    now = json.loads(agon("options", gid, "--json").stdout)["position"]
    assert "bob holds" in agon("act", gid, "2", "--expect", now).stdout


@pytest.mark.parametrize("bad", ["12", "x.abcd", "3.zz", "3.ab"])
def test_a_malformed_position_is_one_line(agon, bad):
    gid = two_people(agon)
    r = agon("act", gid, "1", "--expect", bad, ok=False)
    assert r.exit_code == 1 and "is not a position" in r.stderr


def test_play_refuses_a_number_typed_after_someone_else_moved(agon, tmp_path, monkeypatch):
    import typer

    gid = two_people(agon)
    answers = iter(["2", "q"])

    def prompt(*args, **kwargs):
        answer = next(answers)
        if answer == "2":  # meanwhile, at another terminal, ann's decision is recorded
            from agon.core.service import Service

            other = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
            other.act(gid, "2")
            other.store.close()
        return answer

    monkeypatch.setattr(typer, "prompt", prompt)
    r = agon("play", gid)
    assert "the line has moved since position" in r.stderr
    # play lists what is asked now itself: it names no command to run for the options (once: `agon options` again)
    assert r.stderr.rstrip().endswith("nothing was recorded: what the line asks now is shown below; choose anew")
    assert "agon options" not in r.stderr
    # what the other terminal recorded is told before the next prompt, as every prompt tells what happened since
    told = r.stdout.split("Recorded meanwhile elsewhere:\n", 1)[1].splitlines()
    assert told[0].split()[0] == "#2" and "ann holds" in told[0] and told[1].startswith("After #2: bob to act")
    texts = [row["text"] for row in json.loads(agon("log", gid, "--json").stdout)]
    assert sum(t.startswith("bob holds") for t in texts) == 0 and sum(t.startswith("ann holds") for t in texts) == 1


def test_the_service_refuses_a_stale_position_for_every_face(sqlite_svc):
    gid = sqlite_svc.new_game(NewGame("toy", players=["ann", "bob"], seed=3))
    pos = position(sqlite_svc.load(gid))
    sqlite_svc.act(gid, "2", expect=pos)
    with pytest.raises(ServiceError, match="has moved since position"):
        sqlite_svc.act(gid, "2", expect=pos)


class Killed(BaseException):
    """The process dying at this instant (nothing after it runs; an open transaction is rolled back)."""


def _die(*args, **kwargs):
    raise Killed


@pytest.mark.parametrize("trial", range(3))
def test_a_kill_while_acting_after_an_undo_never_hides_the_undone_line(sqlite_svc, monkeypatch, trial):
    svc = sqlite_svc
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=10 + trial))
    for _ in range(2 + trial):
        svc.act(gid, "1")
    tip = svc.load(gid).head.id
    svc.undo(gid)
    # the process dies when the undone line's name is being stored (before: a second transaction, after the new
    # events were committed; now: inside the one transaction that stores them)
    monkeypatch.setattr(Store, "create_branch", _die)
    monkeypatch.setattr(Store, "_add_branch", _die, raising=False)
    with pytest.raises(Killed):
        svc.act(gid, "2")
    monkeypatch.undo()
    fresh = type(svc)(Store(svc.store.url))
    heads = {b.head_id for b in fresh.store.branches(gid)}
    b = fresh.store.branch(gid, "main")
    reachable = heads | {fresh.redo_target(gid, "main", b.head_id)}
    assert tip in reachable, "the undone line is no longer reachable"
    fresh.act(gid, "2")  # acting again works, and names the undone line in the same transaction
    names = {b.name: b.head_id for b in fresh.store.branches(gid)}
    assert names.get("main-undone-1") == tip
    fresh.store.close()


def test_two_undos_then_an_act_keep_the_whole_undone_line(sqlite_svc):
    """Found by the kill test: after two undos in a row, acting named only the second undo's start, so the end
    of the undone line was reached by no branch."""
    svc = sqlite_svc
    gid = svc.new_game(NewGame("toy", players=["ann"], bots=[("bob", "random")], seed=4))
    for _ in range(4):
        svc.act(gid, "1")
    tip = svc.load(gid).head.id
    svc.undo(gid)
    svc.undo(gid)
    svc.act(gid, "2")
    assert tip in {b.head_id for b in svc.store.branches(gid)}


def test_the_http_api_records_the_option_it_listed_even_when_someone_records_meanwhile(sqlite_svc, monkeypatch):
    """The server reads the line, then records: a decision recorded in between makes the number stale."""
    from agon.core.service import RaceLost, Service

    gid = sqlite_svc.new_game(NewGame("toy", players=["ann", "bob"], seed=3))
    pos = position(sqlite_svc.load(gid))
    real = Service.load
    calls = {"n": 0}

    def load_then_someone_acts(self, *a, **k):
        line = real(self, *a, **k)
        calls["n"] += 1
        if calls["n"] == 1:
            sqlite_svc.act(gid, "2")  # someone else, between the read and the record
        return line

    monkeypatch.setattr(Service, "load", load_then_someone_acts)
    with pytest.raises(RaceLost):  # whether the check or the store's compare-and-swap sees it first
        sqlite_svc.record(gid, "2", expect=pos)
    monkeypatch.undo()
    with pytest.raises(RaceLost, match="has moved since position"):
        sqlite_svc.record(gid, "2", expect=pos)
    assert [e.actor for e in sqlite_svc.load(gid).envelopes].count("bob") == 0


def test_a_position_taken_back_or_put_forward_again_is_told_so_not_that_the_line_moved_on(agon):
    """Between reading the options and choosing, the line may have gone back (an undo) or forward again (a redo):
    the refusal says which, as the head's history tells it, not that someone played on."""
    gid = two_people(agon)
    agon("act", gid, "2")  # ann decides: bob reads his options here
    seen = json.loads(agon("options", gid, "--json").stdout)["position"]
    agon("undo", gid)  # ann's decision is taken back
    back = json.loads(agon("options", gid, "--json").stdout)["position"]
    r = agon("act", gid, "1", "--expect", seen, ok=False)
    assert r.exit_code == 1, r.stderr
    assert f"the line was taken back (an undo) since position {seen}: it is now at {back} (ann" in r.stderr
    assert r.stderr.rstrip().endswith(f"nothing was recorded: look at `agon options {gid}` again and choose anew")
    agon("redo", gid)  # and put back: ann, who read her options after the undo, is told so
    r = agon("act", gid, "1", "--expect", back, ok=False)
    assert f"the line was put forward again (a redo) since position {back}: it is now at {seen} (bob" in r.stderr
    agon("undo", gid)
    agon("act", gid, "1")  # taken back, and ann decides otherwise
    r = agon("act", gid, "1", "--expect", seen, ok=False)
    assert f"the line was taken back (an undo) and played on since position {seen}" in r.stderr
    # a position the line never stood at is told as before (nothing of another event's id is told)
    r = agon("act", gid, "1", "--expect", "1.0000abcd", ok=False)
    assert "the line has moved since position 1.0000abcd: it is now at" in r.stderr


def test_play_says_an_undo_made_at_another_terminal_took_the_line_back(agon, tmp_path, monkeypatch):
    import typer

    gid = two_people(agon)
    agon("act", gid, "2")  # ann's decision: bob decides next, in play
    answers = iter(["1", "q"])

    def prompt(*args, **kwargs):
        answer = next(answers)
        if answer == "1":  # meanwhile, at another terminal, ann's decision is taken back
            from agon.core.service import Service

            other = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
            other.undo(gid, 1)
            other.store.close()
        return answer

    monkeypatch.setattr(typer, "prompt", prompt)
    r = agon("play", gid)
    assert "the line was taken back (an undo) since position" in r.stderr, r.stderr
    assert "moved" not in r.stderr
    assert "nothing was recorded: what the line asks now is shown below; choose anew" in r.stderr


def test_an_undo_that_lost_its_race_says_what_the_other_did(sqlite_svc):
    """An undo expects the head its caller read (a player's page, a seat's 'undo' in play): someone else's undo or
    decision in between is told as what it was, not always as a decision."""
    from agon.core.service import RaceLost

    svc = sqlite_svc
    gid = svc.new_game(NewGame("toy", players=["ann", "bob"], seed=3))
    svc.act(gid, "2")
    svc.act(gid, "1")
    read = svc.load(gid).head.id
    svc.undo(gid)  # someone else's undo first
    with pytest.raises(RaceLost, match=r"moved while this command ran \(someone else took a step back \(an undo\)\);"
                                       " nothing was undone"):
        svc.undo(gid, expect_head=read)
    read = svc.load(gid).head.id
    svc.act(gid, "2")
    with pytest.raises(RaceLost, match=r"\(someone else recorded an event\)"):
        svc.undo(gid, expect_head=read)


def test_broken_json_typed_for_a_chance_says_what_a_chance_takes_not_an_option_number(sqlite_svc):
    from agon.core.engine import Chance

    gid = sqlite_svc.new_game(NewGame("adamastor", players=["Ana"], seed=2, table=True))
    line = sqlite_svc.load(gid)
    assert isinstance(line.pending, Chance)
    with pytest.raises(ServiceError) as e:
        sqlite_svc.act(gid, "{")
    said = str(e.value)
    assert said.startswith("the choice is not valid JSON") and "agon options" not in said, said
    assert said.endswith(f"; type the outcome ({line.pending.describe()}) or 'seed' or an event as JSON"), said


def _pos(agon, gid: str) -> str:
    return json.loads(agon("options", gid, "--json").stdout)["position"]


def test_undo_expect_refuses_a_line_that_moved_and_leaves_the_head_where_it_is(agon):
    """Two terminals recording at one table: an undo typed for the position one of them saw is refused once the
    other has recorded a decision since, not taken as an undo of that decision."""
    gid = two_people(agon)
    agon("act", gid, "2")  # ann decides
    seen = _pos(agon, gid)  # the first terminal reads this, to take ann's decision back
    agon("act", gid, "2")  # the second records bob's decision meanwhile
    now = _pos(agon, gid)
    before = agon("log", gid, "--json").stdout
    r = agon("undo", gid, "--expect", seen, ok=False)
    assert r.exit_code == 1 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1
    assert f"the line has moved since position {seen}: it is now at {now} (" in r.stderr
    assert r.stderr.rstrip().endswith("nothing was undone: look at the game as it stands and undo again if you"
                                      " still want to")
    assert agon("log", gid, "--json").stdout == before and _pos(agon, gid) == now
    r = agon("undo", gid, "--expect", seen, "--json", ok=False)  # --json: the error as the command's others
    assert r.exit_code == 1 and "nothing was undone" in json.loads(r.stderr)["error"]
    # the position as it stands now: the undo is done (bob's decision, the last one, taken back)
    out = agon("undo", gid, "--expect", now).stdout
    assert out.startswith("Undid 1 event:") and "bob" in out
    assert _pos(agon, gid) == seen


def test_undo_expect_says_someone_else_undid_first(agon):
    gid = two_people(agon)
    agon("act", gid, "2")
    agon("act", gid, "2")
    seen = _pos(agon, gid)  # both terminals see bob's decision recorded; both mean to take it back
    agon("undo", gid)  # the first does
    back = _pos(agon, gid)
    r = agon("undo", gid, "--expect", seen, ok=False)  # the second would take back ann's decision too
    assert r.exit_code == 1
    assert f"the line was taken back (an undo) since position {seen}: it is now at {back} (" in r.stderr
    assert "nothing was undone" in r.stderr and _pos(agon, gid) == back


@pytest.mark.parametrize("bad", ["12", "x.abcd", "3.zz", "3.ab"])
def test_undo_and_redo_refuse_a_malformed_position_as_act_does(agon, bad):
    gid = two_people(agon)
    agon("act", gid, "2")
    agon("undo", gid)
    now = _pos(agon, gid)
    said = agon("act", gid, "1", "--expect", bad, ok=False).stderr
    for command in ("undo", "redo"):
        r = agon(command, gid, "--expect", bad, ok=False)
        assert r.exit_code == 1 and "is not a position" in r.stderr and r.stderr == said
        assert _pos(agon, gid) == now


def test_redo_expect_refuses_a_second_redo_typed_for_a_position_someone_else_redid(agon):
    """After two undos both terminals see the line taken back; the first redoes: the second's redo, typed for what
    it saw, would bring back the other undo too, and is refused."""
    gid = two_people(agon)
    agon("act", gid, "2")
    agon("act", gid, "2")
    agon("undo", gid)
    agon("undo", gid)
    seen = _pos(agon, gid)
    agon("redo", gid)
    now = _pos(agon, gid)
    r = agon("redo", gid, "--expect", seen, ok=False)
    assert r.exit_code == 1
    assert f"the line was put forward again (a redo) since position {seen}: it is now at {now} (" in r.stderr
    assert r.stderr.rstrip().endswith("nothing was redone: look at the game as it stands and redo again if you"
                                      " still want to")
    assert _pos(agon, gid) == now
    assert agon("redo", gid, "--expect", now).stdout.startswith("Redid 1 event;")
    assert _pos(agon, gid) != now

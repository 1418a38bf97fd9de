"""Two people pass one game back and forth as whole-game files (`agon export`, `agon import`), each in a store of
their own: switching to another branch only to look at it changes which branch is current, not the game, so the
next file from the other side is still taken; acting, undoing or branching on one's own is still another history,
refused saying so, with nothing written."""

from __future__ import annotations

import json

import pytest

BO = ("--db", "bo.db")


def branches(agon, gid: str, *db: str) -> dict[str, dict]:
    return {r["name"]: r for r in json.loads(agon(*db, "branches", gid, "--json").stdout)}


def current(agon, gid: str, *db: str) -> str:
    return next(name for name, r in branches(agon, gid, *db).items() if r["current"])


def exported(agon, gid: str, name: str, *db: str) -> bytes:
    agon(*db, "export", gid, "-o", name)
    with open(name, "rb") as f:
        return f.read()


def imported(agon, name: str, *db: str) -> dict:
    return json.loads(agon(*db, "import", name, "--json").stdout)


@pytest.fixture
def shared(agon) -> str:
    """Ana's game (the default store) with a second branch, on main, exported as ana1.jsonl and imported by Bo."""
    gid = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3").stdout.splitlines()[0].strip()
    agon("act", gid, "1")
    agon("branch", gid, "whatif", "--at", "1")
    agon("act", gid, "2")
    agon("switch", gid, "main")
    exported(agon, gid, "ana1.jsonl")
    assert imported(agon, "ana1.jsonl", *BO)["outcome"] == "new"
    return gid


def test_a_receiver_who_only_switched_takes_the_next_export(agon, shared):
    gid = shared
    agon(*BO, "switch", gid, "whatif")  # Bo only looks
    agon("act", gid, "1")  # Ana plays on
    exported(agon, gid, "ana2.jsonl")

    said = agon(*BO, "import", "ana2.jsonl").stdout
    assert f"Game {gid} was already stored; added " in said
    ana, bo = branches(agon, gid), branches(agon, gid, *BO)
    assert {n: r["head"] for n, r in bo.items()} == {n: r["head"] for n, r in ana.items()}
    # the file went on playing main: Bo's store follows it there, as for any newer file
    assert current(agon, gid, *BO) == current(agon, gid) == "main"
    assert "OK:" in agon(*BO, "verify", gid).stdout
    assert imported(agon, "ana2.jsonl", *BO)["outcome"] == "unchanged"

    # Bo's store, his switch and all, is a whole game every other store takes
    bos = exported(agon, gid, "bo.jsonl", *BO)
    assert imported(agon, "bo.jsonl", "--db", "cy.db")["outcome"] == "new"
    assert "OK:" in agon("--db", "cy.db", "verify", gid).stdout
    assert exported(agon, gid, "cy.jsonl", "--db", "cy.db") == bos
    # and Ana's: his switch is nothing new to her
    assert imported(agon, "bo.jsonl")["outcome"] == "unchanged"


def test_the_receivers_switch_goes_back_as_nothing_new_and_his_play_goes_back_whole(agon, shared):
    gid = shared
    agon(*BO, "switch", gid, "whatif")
    exported(agon, gid, "bo1.jsonl", *BO)
    said = " ".join(agon("import", "bo1.jsonl").stdout.split())
    assert (f"Game {gid} is already stored (the same first event); the file is newer only by 1 switch between"
            " branches, passed over (which branch is current is each store's own), so nothing was imported") in said
    assert current(agon, gid) == "main"  # Bo's looking around does not move Ana
    said = imported(agon, "bo1.jsonl")  # the JSON counts what the sentence says was passed over
    assert (said["outcome"], said["passed_switches"]) == ("unchanged", 1)
    assert imported(agon, "ana1.jsonl")["passed_switches"] == 0
    said = " ".join(agon("import", "ana1.jsonl").stdout.split())  # a file with no switch she lacks
    assert "the file holds nothing new, so nothing was imported" in said and "switch" not in said

    agon(*BO, "act", gid, "1")  # now Bo plays, on the branch he switched to
    bos = exported(agon, gid, "bo2.jsonl", *BO)
    said = imported(agon, "bo2.jsonl")
    assert (said["outcome"], said["passed_switches"]) == ("extended", 0)  # his switch came with his play
    assert current(agon, gid) == "whatif"  # where the file went on playing
    assert exported(agon, gid, "ana.jsonl") == bos  # Ana holds Bo's game exactly, his switch with it
    assert "OK:" in agon("verify", gid).stdout


def test_a_store_that_only_received_holds_the_senders_switches_too(agon, shared):
    gid = shared
    agon("switch", gid, "whatif")
    exported(agon, gid, "ana2.jsonl")
    assert imported(agon, "ana2.jsonl", *BO)["outcome"] == "unchanged"  # a switch alone is nothing new
    assert current(agon, gid, *BO) == "main"

    agon("act", gid, "1", "-b", "whatif")
    agon("switch", gid, "main")
    agon("act", gid, "1")
    anas = exported(agon, gid, "ana3.jsonl")
    assert imported(agon, "ana3.jsonl", *BO)["outcome"] == "extended"
    assert exported(agon, gid, "bo.jsonl", *BO) == anas
    assert imported(agon, "ana3.jsonl", *BO)["outcome"] == "unchanged"


@pytest.mark.parametrize(
    ("own", "stored"),
    [(("act", "1"), "an act on branch 'whatif'"), (("undo",), "an undo on branch 'whatif'"),
     (("branch", "mine", "--at", "1"), "the start of branch 'mine'")],
    ids=["acted", "undid", "branched"],
)
def test_a_receiver_who_went_on_himself_is_refused_saying_so_and_nothing_is_written(agon, shared, own, stored):
    gid = shared
    agon(*BO, "switch", gid, "whatif")  # a switch first: it does not hide what he did after it
    agon(*BO, own[0], gid, *own[1:])
    agon("act", gid, "1")
    exported(agon, gid, "ana2.jsonl")
    before = exported(agon, gid, "before.jsonl", *BO)

    r = agon(*BO, "import", "ana2.jsonl", ok=False)
    said = r.stderr.strip()
    assert r.exit_code == 1 and "\n" not in said
    assert said.startswith(f"error: cannot import: the file contradicts stored game {gid}: its head move #")
    assert "(an act on branch 'main', " in said and f"from the stored one ({stored}, " in said
    assert "switches between branches aside" in said and "another history of this game" in said
    assert said.endswith("nothing was imported")
    assert exported(agon, gid, "after.jsonl", *BO) == before

    # the other way round too: Bo's file is of another history for Ana
    anas = exported(agon, gid, "ana3.jsonl")
    exported(agon, gid, "bo.jsonl", *BO)
    r = agon("import", "bo.jsonl", ok=False)
    assert r.exit_code == 1 and "its head move #" in r.stderr and f"({stored}, " in r.stderr
    assert exported(agon, gid, "ana4.jsonl") == anas


def test_a_file_that_adds_play_counts_the_switches_it_passed_over_in_its_json(agon, shared):
    gid = shared
    agon("switch", gid, "whatif")  # Ana looks around and comes back; Bo never gets a file of that alone
    agon("switch", gid, "main")
    agon(*BO, "act", gid, "1")
    exported(agon, gid, "bo1.jsonl", *BO)
    assert imported(agon, "bo1.jsonl")["outcome"] == "extended"  # Ana's history: her two switches, then Bo's act
    agon("act", gid, "1")
    exported(agon, gid, "ana2.jsonl")

    said = imported(agon, "ana2.jsonl", *BO)
    assert (said["outcome"], said["added"]["moves"], said["passed_switches"]) == ("extended", 1, 2)
    agon("act", gid, "1")
    exported(agon, gid, "ana3.jsonl")
    said = " ".join(agon(*BO, "import", "ana3.jsonl").stdout.split())
    assert "; passed over its 2 switches between branches" in said

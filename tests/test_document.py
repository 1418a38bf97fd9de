"""A whole game as a file: export then import gives back the same game (every line, branch, head move and note), on
SQLite and PostgreSQL, for every ruleset; importing again keeps one game; a newer file adds what is new; a broken
or contradicting file is refused whole."""

from __future__ import annotations

import json
import random
from contextlib import ExitStack, contextmanager

import pytest

from agon.core import document, registry
from agon.core.engine import Chance, Over
from agon.core.notes import add as add_note
from agon.core.service import NewGame, Service, ServiceError
from agon.core.transfer import export_game, import_data
from agon.events import summary as summary_table
from agon.events.store import Store
from tests.conftest import _pg_schema_url

RULESETS = registry.names()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def two(request, tmp_path):
    """Two fresh, empty stores of one backend: where a game is played, and where it is imported."""
    with ExitStack() as stack:
        if request.param == "sqlite":
            urls = [f"sqlite:///{tmp_path / 'here.db'}", f"sqlite:///{tmp_path / 'there.db'}"]
        else:
            base = request.getfixturevalue("pg_base")
            urls = [stack.enter_context(contextmanager(_pg_schema_url)(base)) for _ in range(2)]
        stores = [Store(u) for u in urls]
        for s in stores:
            stack.callback(s.close)
        yield tuple(Service(s) for s in stores)


def seats(rs) -> list[str]:
    return [f"P{i + 1}" for i in range(min(max(rs.min_players, 2), rs.max_players))]


def play(svc: Service, gid: str, k: int, pick: random.Random, branch: str | None = None) -> None:
    """``k`` decisions chosen at random among the legal ones (the seed draws chance)."""
    for _ in range(k):
        line = svc.load(gid, branch)
        if isinstance(line.pending, Over):
            return
        if isinstance(line.pending, Chance):  # a branch may start where chance is due
            svc.act(gid, "seed", branch=branch)
            continue
        legal = line.ruleset.legal(line.state)
        svc.act(gid, str(pick.randrange(len(legal)) + 1), branch=branch)


def studied_game(svc: Service, name: str) -> str:
    """A game with several branches (one made by acting after an undo, one with fresh luck), undos, a redo, a
    switch and notes (one replaced by a later one)."""
    rs = registry.get(name)
    gid = svc.new_game(NewGame(name, players=seats(rs), seed=11, title=f"study of {name}"))
    pick = random.Random(5)
    play(svc, gid, 5, pick)
    svc.undo(gid)
    add_note(svc, gid, 2, "a strong start", "!")
    play(svc, gid, 2, random.Random(99))
    svc.undo(gid)
    svc.redo(gid)
    svc.branch(gid, "alt", at=3, reseed=True)
    play(svc, gid, 3, pick, "alt")
    svc.switch(gid, "main")
    add_note(svc, gid, 2, "on second thought, dubious", "?!")
    add_note(svc, gid, svc.load(gid, "alt").head.depth, "where the fresh luck leads", branch="alt")
    return gid


def snapshot(svc: Service, gid: str) -> dict:
    """Everything a person can see of a game: its branches, every line's log, verify, head history and notes."""
    store = svc.store
    game = store.game(gid)
    return {
        "game": game,
        "branches": store.branches(gid),
        "logs": {b.name: [(r.n, r.actor, r.sentence, r.shown) for r in svc.log(svc.load(gid, b.name), None)]
                 for b in store.branches(gid)},
        "verify": svc.verify(gid),
        "moves": store.head_moves(gid),
        "notes": store.notes(gid),
        "events": sorted(e.id for e in store.all_events(gid)),
    }


@pytest.mark.parametrize("name", RULESETS)
def test_a_game_with_branches_undos_and_notes_survives_export_and_import(two, name):
    here, there = two
    gid = studied_game(here, name)
    before = snapshot(here, gid)
    assert len(before["branches"]) >= 3 and len(before["notes"]) == 3 and before["verify"] == []
    assert {m.reason for m in before["moves"]} >= {"create", "act", "undo", "redo", "branch", "switch"}
    data = export_game(here, gid)

    report = import_data(there, data)
    assert (report.game_id, report.outcome) == (gid, "new")
    assert snapshot(there, gid) == before
    # the branches' summaries are written with the import, as a fresh fold gives them
    assert summary_table.of_game(there.store, gid) == {
        b.name: there.load(gid, b.name).summary for b in there.store.branches(gid)}
    assert export_game(there, gid) == data  # the same bytes again: nothing lost, nothing added

    again = import_data(there, data)
    assert (again.game_id, again.outcome) == (gid, "unchanged")
    assert len(there.games()) == 1 and snapshot(there, gid) == before


def test_a_newer_file_of_a_stored_game_adds_what_is_new(two):
    here, there = two
    gid = studied_game(here, "toy")
    import_data(there, export_game(here, gid))
    play(here, gid, 2, random.Random(1), "alt")
    here.branch(gid, "later", at=2)
    add_note(here, gid, 1, "seats drawn")
    newer = export_game(here, gid)

    report = import_data(there, newer)
    assert report.outcome == "extended" and report.branches == 1 and report.notes == 1 and report.events >= 1
    assert summary_table.of_game(there.store, gid) == {
        b.name: there.load(gid, b.name).summary for b in there.store.branches(gid)}
    assert snapshot(there, gid) == snapshot(here, gid)
    assert export_game(there, gid) == newer
    # the older file, imported after the newer one, adds nothing
    assert len(there.games()) == 1


def test_an_older_file_of_a_stored_game_adds_nothing(two):
    here, there = two
    gid = studied_game(here, "toy")
    older = export_game(here, gid)
    play(here, gid, 2, random.Random(1))
    import_data(there, export_game(here, gid))
    assert import_data(there, older).outcome == "unchanged"
    assert snapshot(there, gid) == snapshot(here, gid)


def test_a_whole_game_is_not_added_to_a_game_a_one_line_file_made_and_says_why(two):
    here, there = two
    gid = studied_game(here, "toy")
    made = import_data(there, here.export(gid, "main")).game_id
    before = snapshot(there, made)
    with pytest.raises(ServiceError) as err:
        import_data(there, export_game(here, gid))
    said = str(err.value)
    assert said.startswith(f"cannot import: stored game {made} was made from a file of one line") and "\n" not in said
    assert "import the whole file into another store" in said and said.endswith("; nothing was imported")
    assert snapshot(there, made) == before


def test_a_file_that_contradicts_the_stored_game_is_refused_whole(two):
    here, there = two
    gid = studied_game(here, "toy")
    import_data(there, export_game(here, gid))
    add_note(here, gid, 1, "written here")
    add_note(there, gid, 1, "written there")
    before = snapshot(there, gid)
    with pytest.raises(ServiceError, match=f"contradicts stored game {gid}: its note #4 differs"):
        import_data(there, export_game(here, gid))
    assert snapshot(there, gid) == before
    moves = len(before["moves"])
    here.undo(gid)
    there.switch(gid, "alt")  # a switch is each store's own (tests/test_import_switch.py): it contradicts nothing
    there.branch(gid, "mine", at=2)
    before = snapshot(there, gid)
    told = rf"its head move #{moves + 1} \(an undo on branch 'main', .*\) differs from the stored one \(the start of"
    with pytest.raises(ServiceError, match=told + " branch 'mine', "):
        import_data(there, export_game(here, gid))
    assert snapshot(there, gid) == before


def test_a_switch_of_the_receivers_own_contradicts_nothing(two):
    """A switch moves no head: the receiver who switched takes the sender's newer file, keeping his switch, and
    sent back it is nothing new to the sender."""
    here, there = two
    gid = studied_game(here, "toy")  # its last head move is a switch, which the receiver already holds
    import_data(there, export_game(here, gid))
    there.switch(gid, "alt")
    own = there.store.head_moves(gid)[-1]
    play(here, gid, 2, random.Random(1))
    report = import_data(there, export_game(here, gid))
    assert (report.outcome, report.moves) == ("extended", 2)
    ours, theirs = snapshot(there, gid), snapshot(here, gid)
    assert {k: v for k, v in ours.items() if k != "moves"} == {k: v for k, v in theirs.items() if k != "moves"}
    assert [m for m in ours["moves"] if m != own] == theirs["moves"]
    assert import_data(here, export_game(there, gid)).outcome == "unchanged"
    assert snapshot(here, gid) == theirs


def _lines(svc: Service) -> list[bytes]:
    return export_game(svc, studied_game(svc, "toy")).splitlines(keepends=True)


def _swap(ls: list[bytes], kind: bytes) -> list[bytes]:
    i = next(i for i, ln in enumerate(ls) if ln.startswith(b'{"kind":"' + kind) and ls[i + 1].startswith(
        b'{"kind":"' + kind))
    return ls[:i] + [ls[i + 1], ls[i]] + ls[i + 2:]


def _edit(ls: list[bytes], kind: bytes, old: bytes, new: bytes) -> list[bytes]:
    i = next(i for i, ln in enumerate(ls) if ln.startswith(b'{"kind":"' + kind) and old in ln)
    return ls[:i] + [ls[i].replace(old, new, 1)] + ls[i + 1:]


@pytest.mark.parametrize(
    ("mangle", "message"),
    [
        (lambda ls: ls[:-1], "ends before its trailer"),
        (lambda ls: ls[:-3] + ls[-2:], "the trailer counts"),
        (lambda ls: ls[:7] + [ls[7][: len(ls[7]) // 2]], "not a line of an agon game"),
        (lambda ls: _swap(ls, b"move"), "does not start where the branch's head was"),
        (lambda ls: _swap(ls, b"branch"), "not listed before it|trailer's branch heads"),
        (lambda ls: [ls[0], ls[1], ls[3], ls[2], *ls[4:]], "follows no earlier event"),
        (lambda ls: [ls[-1], *ls[:-1]], "out of place"),
        (lambda ls: _edit(ls, b"event", b'"actor":"P1"', b'"actor":"P2"'), "does not match its hash"),
        (lambda ls: _edit(ls, b"note", b"strong", b"weak"), "digest does not match"),
        (lambda ls: _edit(ls, b"header", b'"version":2', b'"version":7'), "newer than this agon reads"),
        (lambda ls: [*ls, ls[-1]], "follows the end of the game"),
    ],
    ids=["no-trailer", "line-missing", "cut-mid-line", "moves-reordered", "branches-reordered", "events-reordered",
         "trailer-first", "event-tampered", "note-tampered", "newer-format", "after-the-end"],
)
def test_a_broken_file_is_refused_and_nothing_is_imported(sqlite_svc, tmp_path, mangle, message):
    lines = _lines(sqlite_svc)
    target = Service(Store(f"sqlite:///{tmp_path / 'target.db'}"))
    with pytest.raises(ServiceError, match=message) as e:
        import_data(target, b"".join(mangle(lines)))
    assert "\n" not in str(e.value) and str(e.value).endswith("nothing was imported")
    assert target.games() == []


def test_one_line_is_still_exported_and_imported_as_before(two):
    here, there = two
    gid = studied_game(here, "toy")
    alt = here.export(gid, "alt")
    assert not document.is_document(alt) and json.loads(alt.splitlines()[0])["tag"] == "game.created"
    report = import_data(there, alt)
    assert report.outcome == "new" and [e.id for e in there.load(report.game_id).envelopes] == [
        e.id for e in here.load(gid, "alt").envelopes]
    assert import_data(there, alt).outcome == "unchanged"
    # the whole game imported over the line is recognised by its first event: the same game, nothing duplicated
    main = here.export(gid, "main")
    extended = import_data(there, main)
    assert (extended.game_id, extended.outcome, extended.branches) == (report.game_id, "extended", 1)
    assert len(there.games()) == 1


def test_a_line_that_extends_a_stored_game_keeps_its_fork_and_its_luck(two):
    """A reseeded what-if exported as one line and imported where its game is stored (as far as the fork) becomes
    a branch forking from the stored line, with the luck it was drawn with: it verifies, and its next chance is
    the one the exported branch draws."""
    here, there = two
    pick = random.Random(5)
    gid = here.new_game(NewGame("peloponnes", players=["Ana"], bots=[("B", "greedy"), ("C", "random")], seed=4))
    play(here, gid, 3, pick)
    gid_there = import_data(there, here.export(gid, "main")).game_id
    here.branch(gid, "rs", at=here.load(gid).head.depth - 2, reseed=True)
    play(here, gid, 3, pick, "rs")
    report = import_data(there, here.export(gid, "rs"))
    assert report.outcome == "extended" and report.branches == 1
    new = next(b for b in there.store.branches(gid_there) if b.name.startswith("imported-"))
    source = here.store.branch(gid, "rs")
    assert (new.luck, new.parent_branch, new.fork_id) == (source.luck, "main", source.fork_id)
    assert there.verify(gid_there) == []
    line_here, line_there = here.load(gid, "rs"), there.load(gid_there, new.name)
    assert line_there.head.id == line_here.head.id and line_there.chance_count == line_here.chance_count


def test_the_file_format_has_a_published_schema_every_line_follows(agon):
    schema = json.loads(agon("schema", "--file-format").stdout)
    assert "agon-game version 2" in schema["title"]
    kinds = {d["properties"]["kind"]["enum"][0]: d for d in schema["$defs"].values() if "kind" in d["properties"]}
    assert set(kinds) == {"header", "cards", "event", "branch", "move", "note", "end"}
    gid = json.loads(agon("new", "toy", "--player", "ann", "--player", "bob", "--json").stdout)["id"]
    agon("act", gid, "1")
    agon("note", gid, "1", "who sits where", "--glyph", "!?")
    seen = set()
    for text in agon("export", gid).stdout.splitlines():
        obj = json.loads(text)
        d = kinds[obj["kind"]]
        seen.add(obj["kind"])
        assert set(d["required"]) <= set(obj) <= set(d["properties"]), obj
    assert seen == set(kinds) - {"cards"}  # the toy game has no card set (tests/test_card_sets.py has one)
    r = agon("schema", "toy", "--file-format", ok=False)
    assert r.exit_code == 2 and "not both" in r.stderr


def test_export_and_import_on_the_command_line(agon, tmp_path):
    gid = json.loads(agon("new", "toy", "--player", "ann", "--player", "bob", "--seed", "2", "--json").stdout)["id"]
    agon("act", gid, "1")
    agon("branch", gid, "alt", "--at", "1")
    agon("act", gid, "1")
    agon("note", gid, "1", "seats", "-b", "alt")
    path = tmp_path / "game.jsonl"
    out = agon("export", gid, "-o", str(path)).stdout
    assert "Wrote the whole game" in out and "2 branches" in out and "1 note" in out and "1 notes" not in out
    other = ["--db", str(tmp_path / "other.db")]
    out = agon(*other, "import", str(path)).stdout
    assert out.splitlines()[0] == gid and f"Imported game {gid}" in out
    for b in ("main", "alt"):
        assert agon(*other, "log", gid, "-b", b).stdout == agon("log", gid, "-b", b).stdout
    assert agon(*other, "branches", gid).stdout == agon("branches", gid).stdout
    assert "OK:" in agon(*other, "verify", gid).stdout
    again = json.loads(agon(*other, "import", str(path), "--json").stdout)
    assert again["outcome"] == "unchanged" and again["id"] == gid
    path.write_text(path.read_text().replace('"seats"', '"chairs"'))
    r = agon(*other, "import", str(path), ok=False)
    assert r.exit_code == 1 and r.stderr.count("\n") == 1 and "digest does not match" in r.stderr

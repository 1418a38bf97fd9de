"""Import runs every check 'agon new' runs: a rewritten file (hashes recomputed, so the chain checks) whose setup
'agon new' would refuse is refused whole, in one line. And 'export -o' creates missing folders."""

from __future__ import annotations

import json

import pytest

from tests.tamper import rewrite


def _game(agon, ruleset: str = "toy") -> str:
    if ruleset == "toy":
        args = ["--player", "ann", "--bot", "bob:random"]
    else:
        args = ["--bot", "Ana:random", "--bot", "Bo:random", "--bot", "Cy:random"]
    return agon("new", ruleset, *args, "--seed", "3").stdout.splitlines()[0]


def _seats(*names: str):
    def change(events):
        events[0]["payload"]["players"] = [{"name": n, "bot": None} for n in names]
    return change


def _created(field: str, value):
    def change(events):
        events[0]["payload"][field] = value
    return change


def _retag(events):
    ev = next(e for e in events if e["tag"] == "toy.roll_chosen")
    ev["tag"] = "toy.held"


CASES = {
    "three seats, one name": ("toy", _seats("ann", "ann", "ann"), "two seats have the same name"),
    "a player named chance": ("toy", _seats("ann", "chance"), "'chance' cannot be a player name"),
    "a player named setup": ("toy", _seats("setup", "ann"), "'setup' cannot be a player name"),
    "a blank player name": ("toy", _seats("ann", ""), "'' cannot be a player name"),
    "a 100,000-character name": ("toy", _seats("ann", "b" * 100_000), "100,000 characters long"),
    "one seat for Perikles": ("perikles", _seats("Ana"), "perikles is played by 3 to 5 players, not 1"),
    "ruleset version 999": ("toy", _created("ruleset_version", "999"), "version '999', which this agon does not"),
    "an unknown option": ("toy", _created("options", {"turbo": True}), "toy has no option 'turbo'"),
    "an unknown bot kind": ("toy", lambda evs: evs[0]["payload"]["players"][1].update(bot="oracle"),
                            "unknown bot kind 'oracle'"),
    "a tag that is not the payload's type": ("toy", _retag, "labelled 'toy.held' but its payload is"
                                             " 'toy.roll_chosen'"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_import_refuses_what_new_refuses(agon, tmp_path, case):
    ruleset, change, says = CASES[case]
    gid = _game(agon, ruleset)
    if ruleset == "toy":
        agon("act", gid, "1")
    path = tmp_path / "g.jsonl"
    agon("export", gid, "-o", str(path))
    path.write_bytes(rewrite(path.read_bytes(), change))
    r = agon("import", str(path), ok=False)
    assert r.exit_code == 1, (r.stdout, r.stderr, r.exception)
    line = r.stderr.strip()
    assert "\n" not in line and "cannot import" in line and says in line, line
    assert "nothing was imported" in line
    assert len(json.loads(agon("games", "--json").stdout)) == 1


def test_an_unchanged_rewrite_is_still_accepted(agon, tmp_path):
    """The rewriting helper itself changes nothing when asked to change nothing."""
    gid = _game(agon)
    agon("act", gid, "1")
    path = tmp_path / "g.jsonl"
    agon("export", gid, "-o", str(path))
    path.write_bytes(rewrite(path.read_bytes(), lambda evs: None))
    agon("import", str(path))


def test_export_creates_missing_folders(agon, tmp_path):
    gid = _game(agon)
    target = tmp_path / "out" / "deeper" / "g.jsonl"
    assert "Wrote" in agon("export", gid, "-o", str(target)).stdout
    assert target.is_file()


def _rehashed(text: str, change) -> str:
    """A whole-game file with ``change`` made to its lines and its trailer's digest recomputed (so only the
    import's own checks can refuse it)."""
    import hashlib

    lines = [json.loads(x) for x in text.splitlines()]
    change(lines)
    body = "".join(json.dumps(x, separators=(",", ":"), ensure_ascii=False) + "\n" for x in lines[:-1])
    lines[-1]["sha256"] = hashlib.sha256(body.encode()).hexdigest()
    return body + json.dumps(lines[-1], separators=(",", ":")) + "\n"


def _kind(kind: str, lines: list) -> dict:
    return next(x for x in lines if x.get("kind") == kind)


def _renamed(name: str):
    """Branch main renamed to ``name`` everywhere the file names it (so the file stays consistent)."""
    def change(lines: list) -> None:
        for x in lines:
            if x.get("kind") == "branch" and x["name"] == "main":
                x["name"] = name
            if x.get("kind") == "move" and x["branch"] == "main":
                x["branch"] = name
            if x.get("kind") == "end":
                x["heads"] = {name if k == "main" else k: v for k, v in x["heads"].items()}
        lines[0]["game"]["current_branch"] = name
    return change


DOCUMENT_CASES = {
    "a branch name with a newline": (_renamed("a\nb"), "one word"),
    "a branch name with a terminal escape": (_renamed("a\x1b[31m"), "control or separator character"),
    "a title with a terminal escape": (lambda ls: ls[0]["game"].update(title="x\x1b]0;pwned\x07"),
                                       "control or separator character"),
    "a note with a terminal escape": (lambda ls: _kind("note", ls).update(text="see \x1b[2J"),
                                      "control or separator character"),
    "a note of 100,000 characters": (lambda ls: _kind("note", ls).update(text="n" * 100_000), "at most 4000"),
    "a luck of 10**30": (lambda ls: _kind("branch", ls).update(luck=10**30), "luck"),
}


@pytest.mark.parametrize("case", list(DOCUMENT_CASES))
def test_a_whole_game_file_may_not_bring_names_or_notes_the_commands_refuse(agon, tmp_path, case):
    change, says = DOCUMENT_CASES[case]
    gid = _game(agon)
    agon("act", gid, "1")
    agon("note", gid, "1", "a fine roll")
    path = tmp_path / "g.agon"
    agon("export", gid, "-o", str(path))
    same = tmp_path / "same.agon"
    same.write_text(_rehashed(path.read_text(), lambda ls: None))
    agon("--db", str(tmp_path / "other.db"), "import", str(same))  # rewritten but unchanged: accepted
    path.write_text(_rehashed(path.read_text(), change))
    fresh = tmp_path / "fresh.db"
    r = agon("--db", str(fresh), "import", str(path), ok=False)
    assert r.exit_code == 1 and says in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert not fresh.exists()  # judged before the store opened: no store is made for a refused file


def test_a_note_may_not_hold_a_terminal_escape(agon):
    gid = _game(agon)
    r = agon("note", gid, "0", "x\x1b[31mRED", ok=False)
    assert r.exit_code == 1 and "control or separator character" in r.stderr
    agon("note", gid, "0", "two lines\nof a note")  # a line break is text


def test_a_file_that_is_no_export_is_told_apart_from_one_cut_short(agon, tmp_path):
    """A file of another kind (a password file, a shopping list in JSON lines) was refused as an export cut short
    or written by an older agon: it is said to be no export at all; a real export cut short is still told so."""
    gid = _game(agon)
    agon("export", gid, "-o", str(tmp_path / "g.jsonl"))
    whole = (tmp_path / "g.jsonl").read_bytes()
    (tmp_path / "cut.jsonl").write_bytes(b"\n".join(whole.splitlines()[:2]) + b"\n")
    (tmp_path / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534::/:/bin/false\n")
    (tmp_path / "list.jsonl").write_text('{"item": "bread"}\n{"item": "olives"}\n')
    for name, says in (("passwd", "it is not a game file that agon exported"),
                       ("list.jsonl", "it is not a game file that agon exported"),
                       ("cut.jsonl", "it is truncated")):
        r = agon("import", str(tmp_path / name), ok=False)
        line = r.stderr.strip()
        assert r.exit_code == 1 and "\n" not in line and says in line and "nothing was imported" in line, line
    assert len(json.loads(agon("games", "--json").stdout)) == 1


def test_a_byte_order_mark_an_editor_put_before_the_first_line_is_no_part_of_the_file(agon, tmp_path):
    """A file saved again by an editor that starts it with a UTF-8 byte-order mark (as some Windows editors do)
    was refused as 'not a game file': the mark is read as no part of the file, the digest of the trailer and a
    signature are over the bytes after it, as exported, so any other change is still refused."""
    gid = _game(agon)
    agon("keygen", str(tmp_path / "ana"))
    agon("branch", gid, "side")
    bom = "\ufeff".encode()
    for name, args in (("whole", ()), ("line", ("-b", "side")), ("signed", ("--sign", str(tmp_path / "ana")))):
        path = tmp_path / f"{name}.jsonl"
        agon("export", gid, *args, "-o", str(path))
        path.write_bytes(bom + path.read_bytes())
        trust = ("--trust", str(tmp_path / "ana.pub")) if name == "signed" else ()
        out = json.loads(agon("--db", str(tmp_path / f"{name}.db"), "import", str(path), *trust, "--json").stdout)
        assert out["outcome"] == "new" and (out["id"] == gid or name == "line"), out  # a line file names no game id
        assert out["signed_by"] if name == "signed" else out["signed_by"] is None
        edited = path.read_bytes().replace(b'"ann"', b'"amy"', 1)  # still refused with a mark before it
        path.with_name("e.jsonl").write_bytes(edited)
        r = agon("--db", str(tmp_path / "edited.db"), "import", str(path.with_name("e.jsonl")), ok=False)
        assert r.exit_code == 1 and "not a game file" not in r.stderr and "nothing was imported" in r.stderr, r.stderr

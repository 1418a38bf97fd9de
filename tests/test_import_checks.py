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


def _crlf(data: bytes) -> bytes:
    return data.replace(b"\n", b"\r\n")


@pytest.mark.parametrize("kind", ["whole", "line", "signed", "byte-order mark"])
def test_a_file_saved_on_windows_with_crlf_endings_imports_as_exported(agon, tmp_path, kind):
    """A file saved again by a Windows editor, every line ending in CRLF, was refused as edited (the trailer's
    digest did not match) or, a line file, read with its CRs: it is read as the LF file it was exported as. The
    events' hashes are over their fields and payloads, no line's ending, so the game stored is the same game (its
    export from the new store is byte for byte the original); the digest and a signature still check, and any
    other change is still refused."""
    gid = _game(agon)
    agon("act", gid, "1")
    agon("note", gid, "1", "a fine roll")
    agon("keygen", str(tmp_path / "ana"))
    agon("branch", gid, "side")
    args = {"line": ("-b", "side"), "signed": ("--sign", str(tmp_path / "ana"))}.get(kind, ())
    path = tmp_path / "g.jsonl"
    agon("export", gid, *args, "-o", str(path))
    exported = path.read_bytes()
    saved = _crlf(exported)
    assert saved.count(b"\r\n") == saved.count(b"\n") == exported.count(b"\n") > 3
    path.write_bytes(("\ufeff".encode() if kind == "byte-order mark" else b"") + saved)
    trust = ("--trust", str(tmp_path / "ana.pub")) if kind == "signed" else ()
    db = str(tmp_path / "other.db")
    out = json.loads(agon("--db", db, "import", str(path), *trust, "--json").stdout)
    assert out["outcome"] == "new" and (out["id"] == gid or kind == "line"), out  # a line file names no game id
    again = tmp_path / "again.jsonl"
    agon("--db", db, "export", out["id"], *(("-b", "main") if kind == "line" else args), "-o", str(again))
    if kind == "line":  # its events, the same bytes, are branch main of a game of its own
        assert again.read_bytes().splitlines()[:-1] == exported.splitlines()[:-1]
    else:
        assert again.read_bytes() == exported
    assert "every hash matches" in agon("--db", db, "verify", out["id"]).stdout
    path.write_bytes(saved.replace(b'"ann"', b'"amy"', 1))
    r = agon("--db", str(tmp_path / "edited.db"), "import", str(path), *trust, ok=False)
    assert r.exit_code == 1 and "line endings" not in r.stderr and "nothing was imported" in r.stderr, r.stderr


def _last_line_lf(data: bytes) -> bytes:
    """CRLF endings but the last line's: a line added (or edited) by an editor that writes LF."""
    head, _, last = data.rstrip(b"\n").rpartition(b"\n")
    return _crlf(head + b"\n") + last + b"\n"


REFUSED_ENDINGS = {
    "CRLF but the last line LF": (_last_line_lf, "the file's line endings are mixed (line 1 ends in CRLF, line"),
    "LF but one line CRLF": (lambda d: d.replace(b"\n", b"\r\n", 1),
                             "the file's line endings are mixed (line 1 ends in CRLF, line 2 in LF)"),
    "a CR alone in a CRLF file": (lambda d: _crlf(d).replace(b"\r\n", b"\r", 1),
                                  "the file's line endings are mixed (line 1 ends in a CR alone, line 2 in CRLF)"),
    "CR alone": (lambda d: d.replace(b"\n", b"\r"), "the file's lines end in CR alone"),
}


@pytest.mark.parametrize("case", list(REFUSED_ENDINGS))
@pytest.mark.parametrize("kind", ["whole", "line"])
def test_a_file_of_mixed_or_cr_line_endings_is_refused_in_one_line(agon, tmp_path, case, kind):
    """A file whose lines end in CRLF and in LF was changed after the export by a tool that writes other endings
    (it was read, a line file, or refused as edited, a whole game): refused in one line that names the endings and
    what to do. A file of CR alone (classic Mac OS) was read as one line, 'not a game file': it is told so. The
    store is unchanged."""
    change, says = REFUSED_ENDINGS[case]
    gid = _game(agon)
    agon("act", gid, "1")
    agon("branch", gid, "side")
    path = tmp_path / "g.jsonl"
    agon("export", gid, *(("-b", "side") if kind == "line" else ()), "-o", str(path))
    path.write_bytes(change(path.read_bytes()))
    before = agon("games", "--json").stdout
    r = agon("import", str(path), ok=False)
    line = r.stderr.strip()
    assert r.exit_code == 1 and "\n" not in line and line.startswith("error: cannot import: " + says), line
    assert "save it again with" in line and "or export the game again" in line and "nothing was imported" in line
    assert agon("games", "--json").stdout == before
    fresh = tmp_path / "fresh.db"
    assert agon("--db", str(fresh), "import", str(path), ok=False).exit_code == 1
    assert not fresh.exists()  # refused before a store is made


def test_lines_are_split_at_lf_only_not_at_unicode_line_breaks(agon, tmp_path):
    """A line file is split at LF alone: a payload whose text holds U+2028, U+2029 or U+0085 unescaped (JSON
    allows them in a string; ``str.splitlines`` would break the line there) is one line, whose bytes, and so its
    hash, are kept, with LF endings or CRLF."""
    from agon.events.envelope import read_line_file

    gid = _game(agon)
    agon("act", gid, "1")
    agon("branch", gid, "side")
    path = tmp_path / "g.jsonl"
    agon("export", gid, "-b", "side", "-o", str(path))
    text = "a\u2028b\u2029c\u0085d"
    data = path.read_bytes()
    payload = json.dumps(json.loads(data.splitlines()[1])["payload"] | {"said": text}, separators=(",", ":"),
                         ensure_ascii=False).encode()
    data = rewrite(data, lambda evs: None, {1: payload})
    assert text.encode() in data
    for saved in (data, _crlf(data)):
        envs, trailer, _ = read_line_file(saved)
        assert len(envs) == trailer.events == data.count(b"\n") - 1 and envs[1].payload == payload
        path.write_bytes(saved)
        out = json.loads(agon("--db", str(tmp_path / f"{len(saved)}.db"), "import", str(path), "--json").stdout)
        assert out["outcome"] == "new" and out["added"]["events"] == trailer.events, out

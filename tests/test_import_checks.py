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

"""A whole-game file's header (the first line) names the game's title and players outside the hash chain, and the
game imported takes them from there. A header edited, its trailer's digest recomputed, listed a game under a title or
player names its log never had (`agon games`, the server's listing) and passed them on in every export of it: it is
refused, as a header naming another ruleset than the first event is."""

from __future__ import annotations

import hashlib
import json

import pytest


def _with_header(data: bytes, edit) -> bytes:
    """``data`` with its header's game edited by ``edit`` and the trailer's digest recomputed, as a sender who
    knows the format would."""
    lines = data.splitlines(keepends=True)
    header = json.loads(lines[0])
    edit(header["game"])
    lines[0] = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
    body = b"".join(lines[:-1])
    end = json.loads(lines[-1]) | {"sha256": hashlib.sha256(body).hexdigest()}
    return body + json.dumps(end, separators=(",", ":")).encode() + b"\n"


def _title(game: dict) -> None:
    game["title"] = "club final 2026"


def _players(game: dict) -> None:
    game["players"] = ["Anna" if p == "ann" else p for p in game["players"]]


@pytest.fixture
def exported(agon, tmp_path) -> bytes:
    gid = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3", "--title", "friendly",
               ).stdout.split()[0]
    agon("export", gid, "-o", "game.jsonl")
    return (tmp_path / "game.jsonl").read_bytes()


@pytest.mark.parametrize(("edit", "said"), [
    (_title, "error: cannot import: the file's header names the title 'club final 2026', but its first event"
             " 'friendly': the header was edited after the export; export the game again; nothing was imported"),
    (_players, "error: cannot import: the file's header names the players Anna, bob, but its first event ann, bob:"
               " the header was edited after the export; export the game again; nothing was imported"),
], ids=["title", "players"])
def test_a_header_that_says_other_than_the_first_event_is_refused(agon, tmp_path, exported, edit, said):
    (tmp_path / "edited.jsonl").write_bytes(_with_header(exported, edit))
    r = agon("--db", "club.db", "import", "edited.jsonl", ok=False)
    assert r.exit_code == 1 and r.stdout == "" and r.stderr.strip() == said, (r.stdout, r.stderr)
    assert not (tmp_path / "club.db").exists()  # nothing imported, no store made


def test_the_same_file_unedited_imports_with_the_first_events_title_and_players(agon, tmp_path, exported):
    (tmp_path / "same.jsonl").write_bytes(_with_header(exported, lambda game: None))
    agon("--db", "club.db", "import", "same.jsonl")
    [listed] = json.loads(agon("--db", "club.db", "games", "--json").stdout)
    assert (listed["title"], listed["players"]) == ("friendly", ["ann", "bob"])

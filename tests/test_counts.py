"""Counts read as a person says them: '1 event', '2 branches', '1,411 events', never '1 events' or 'branch(es)'."""

from __future__ import annotations

import json
import re

import pytest

from agon.core.words import counted
from tests.words import texts

from .test_cli import new_toy


def test_a_count_names_one_thing_or_many_with_its_digits_grouped():
    assert [counted(n, "event") for n in (0, 1, 2, 12902)] == ["0 events", "1 event", "2 events", "12,902 events"]
    assert [counted(n, "branch") for n in (1, 3)] == ["1 branch", "3 branches"]
    assert counted(2, "head move") == "2 head moves" and counted(1, "finished game") == "1 finished game"


def _no_unnatural_count(text: str) -> None:
    assert "(s)" not in text and "(es)" not in text, text
    assert not re.search(r"\b1 [a-z ]*?(events|branches|notes|games|lines)\b", text), text
    assert not re.search(r"\b\d{4,} [a-z]", text), text  # '12,902 events', not '12902 events'


def test_export_verify_undo_and_note_count_in_words(agon, tmp_path):
    gid = new_toy(agon)
    agon("act", gid, "1")
    said = [agon("verify", gid).stdout]
    assert said[0].startswith("OK: ") and ", 1 branch;" in said[0]
    agon("note", gid, "1", "first")
    said.append(agon("export", gid, "-o", str(tmp_path / "g.jsonl")).stdout)
    assert ", 1 branch, " in said[-1] and ", 1 note to " in said[-1]
    said.append(agon("note", gid, "1", "second").stdout)
    assert "replacing 1 earlier note, which is kept" in said[-1]
    said.append(agon("undo", gid).stdout)
    assert "Undid 2 events:" in said[-1]
    said.append(agon("redo", gid).stdout)
    assert "Redid 2 events;" in said[-1]
    for text in said:
        _no_unnatural_count(text)


def test_many_recorded_games_count_their_events_with_grouped_digits(agon, tmp_path):
    out = agon("demo", "adamastor", "--games", "12").stdout
    events = sum(r["events"] for r in json.loads(agon("games", "--json").stdout))
    assert events >= 1000 and f", {events:,} events in all" in out
    one = agon("stats", "adamastor", "--limit", "1").stdout
    assert "1 game stored, 1 finished" in one
    wrote = agon("plot", "stats", "adamastor", "--limit", "1", "-o", str(tmp_path / "s.html")).stdout
    assert "the statistics of 1 finished game to" in wrote
    for text in (out, one, wrote):
        _no_unnatural_count(text)


def _bot_game(ruleset: str, seed: int):
    """A seeded game of ``ruleset`` as (its ruleset, its first event, decisions the rules refuse at a position)."""
    if ruleset == "adamastor":
        from tests.adamastor.support import RS, created
        from tests.adamastor.test_words import wrong_decisions
        return RS, created(2, {}, seed=seed), lambda s, _: wrong_decisions(s)
    if ruleset == "peloponnes":
        from tests.peloponnes.helpers import rs
        from tests.peloponnes.test_words import created, wrong
        return rs, created(3, seed), wrong
    if ruleset == "perikles":
        from tests.perikles.helpers import RS, created
        from tests.perikles.test_words import wrong
        return RS, created(4, seed), wrong
    from tests.pergamemnon.helpers import created, replace, rs
    from tests.pergamemnon.test_words import wrong
    return rs, replace(created(3), seed=seed), wrong


@pytest.mark.parametrize("ruleset", ["adamastor", "peloponnes", "perikles", "pergamemnon"])
def test_no_log_line_option_status_view_or_refusal_of_a_bot_game_counts_with_s_in_brackets(ruleset):
    rs, created, wrong = _bot_game(ruleset, 3)
    said = texts(rs, created, "greedy", wrong)
    assert [t for t in said if re.search(r"[a-z]\((s|es)\)", t)] == []
    assert [t for t in said if re.search(r"\b1 (cards|coin cards|creatures|tiles|counters|inhabitants)\b", t)] == []

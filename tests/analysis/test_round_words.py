"""Rounds are named as each ruleset's rules name them (``core.summary.round_word``) wherever a user reads them: the
score timeline's hover text and labels, ``agon plot scores --json`` and the study page's move list and step label.
A Perikles turn (a whole round of elections, commitments and battles) is a "turn"; a Peloponnes round a "round".

The JSON keys stay ``rounds`` and ``round`` for every ruleset, so a script reads any game alike; ``round_word``
says what they count. Each game is a bots' game recorded by ``agon demo``, looked at through the command line and,
for the study page, in a real browser (tests/browser.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

HEADINGS = "[...document.querySelectorAll('#moves [role=heading]')].map(e => e.textContent)"
LABEL = "document.getElementById('step-label').textContent"


def _demo(agon, ruleset: str, seed: int) -> str:
    return json.loads(agon("demo", ruleset, "--seed", str(seed), "--json").stdout)["id"]


def _scores_json(agon, gid: str) -> dict:
    (line,) = json.loads(agon("plot", "scores", gid, "--json").stdout)
    return line


def _scores_page(agon, gid: str, tmp_path) -> str:
    agon("plot", "scores", gid, "-o", "scores.html")
    return (tmp_path / "scores.html").read_text()


def _study(agon, page, gid: str, tmp_path) -> tuple[list[str], str, str]:
    """The study page's move-list headings, and its step label at the first and at the last move."""
    agon("view", gid, "-o", "study.html")
    page.goto((tmp_path / "study.html").as_uri())
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    first = page.evaluate(LABEL)
    last = page.eval_on_selector_all("#moves .move", "ms => ms.length") - 1
    page.click(f"#moves .move[data-step='{last}']")
    page.wait_for_function(f"document.body.dataset.step === '{last}'")
    return page.evaluate(HEADINGS), first, page.evaluate(LABEL)


@pytest.fixture
def perikles(agon) -> str:
    return _demo(agon, "perikles", 4)  # three turns: neither Athens nor Sparta suffers a fourth defeat


@pytest.fixture
def peloponnes(agon) -> str:
    return _demo(agon, "peloponnes", 1)


def test_the_score_timeline_of_a_perikles_game_is_told_in_turns(agon, perikles, tmp_path):
    line = _scores_json(agon, perikles)
    assert line["round_word"] == "turn"
    assert [b["round"] for b in line["rounds"]] == [2, 3]  # the keys every ruleset has
    assert {r["round"] for r in line["timeline"]} == {1, 2, 3}

    shown = _scores_page(agon, perikles, tmp_path)
    for turn in (1, 2, 3):
        assert f'"text":"turn {turn}"' in shown  # the labels above the plot
        assert f"(turn {turn}): " in shown  # the hover text of a point
    assert not re.search(r"\bround \d", shown)


@pytest.mark.browser
def test_the_study_page_of_a_perikles_game_is_told_in_turns(agon, perikles, page, tmp_path):
    headings, first, last = _study(agon, page, perikles, tmp_path)
    assert headings == ["Turn 1", "Turn 2", "Turn 3"]
    assert first.endswith(" · event 0 of 354 · turn 1") and last.endswith(" · event 354 of 354 · turn 3")


def test_the_score_timeline_of_a_peloponnes_game_is_told_in_rounds(agon, peloponnes, tmp_path):
    line = _scores_json(agon, peloponnes)
    assert line["round_word"] == "round"
    assert [b["round"] for b in line["rounds"]] == list(range(1, 9))  # the setup is round 0; eight rounds follow

    shown = _scores_page(agon, peloponnes, tmp_path)
    for rnd in range(1, 9):  # the plot starts where the setup is over, at round 1
        assert f'"text":"round {rnd}"' in shown
        assert f"(round {rnd}): " in shown
    assert not re.search(r"\bturn \d", shown)


@pytest.mark.browser
def test_the_study_page_of_a_peloponnes_game_is_told_in_rounds(agon, peloponnes, page, tmp_path):
    headings, first, last = _study(agon, page, peloponnes, tmp_path)
    assert headings == ["Setup"] + [f"Round {n}" for n in range(1, 9)]  # the setup is named as the hovers name it
    assert first.endswith(" · event 0 of 100 · setup") and last.endswith(" · event 100 of 100 · round 8")


@pytest.mark.browser
def test_the_study_pages_move_list_heads_each_event_with_the_round_it_happened_in(agon, page, tmp_path):
    """The shipped Peloponnes replay: the setup's coin cards are all the setup's, and the income that ends round 1
    ("round 2 begins") is round 1's last event, not round 2's first (the list was headed by the round after each
    event: Bruno's setup draw sat under "Round 1" apart from the other two, and each round opened with the
    last one's income)."""
    replay = Path(__file__).resolve().parents[2] / "replays" / "peloponnes-3p.jsonl"
    gid = agon("import", str(replay)).stdout.split()[0]
    agon("view", gid, "-o", "study.html")
    page.goto((tmp_path / "study.html").as_uri())
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    heads = page.evaluate("""() => { const out = {}; let head = null;
        document.querySelectorAll('#moves > div').forEach(e => {
          if (e.classList.contains('round')) head = e.textContent;
          else if (e.classList.contains('move')) out[e.querySelector('.num').textContent] = head; });
        return out; }""")
    assert [heads[f"{n}."] for n in range(6)] == ["Setup"] * 5 + ["Round 1"]  # #5: round 1's cards revealed
    assert heads["13."] == "Round 1" and heads["14."] == "Round 2"
    assert page.inner_text("#moves .move[data-step='13']").endswith("; round 2 begins.")
    assert page.page_errors == []

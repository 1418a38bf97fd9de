"""A word typed where a step filled itself in: at a Perikles location that may only be defended, ``a`` after the
place (``cor nau a``) was read as a counter to send and refused as "'a' is ambiguous" among Ana's Athens counters,
saying nothing of the attack it was typed for. The refusal now says which readings it had and why: the side there
has one answer, filled in by itself, so the word was read at the next step, and what it names there."""

from __future__ import annotations

import pytest

from agon.core import entry, steps
from agon.core.service import ServiceError
from tests.test_play_pty_slips import typed_game


@pytest.fixture
def naupactus(sqlite_svc):
    """The recorded four-player Perikles game typed in at a table up to Ana's commitment of forces (event #61),
    where Naupactus may only be defended with the Corinth tile."""
    svc = sqlite_svc
    gid = typed_game(svc, "perikles-4p.jsonl", 60)
    line = svc.load(gid)
    assert line.pending.player == "Ana" and steps.stepwise(line.ruleset, line.state)
    side = steps.ask(line.ruleset, line.state, (("tile", "corinth-2"), ("location", "Naupactus")))
    assert isinstance(side, steps.Question) and side.values == ["defender"]
    return svc, gid


def test_a_letter_read_past_a_side_filled_in_by_itself_says_so_and_what_it_names_there(naupactus):
    svc, gid = naupactus
    line = svc.load(gid)
    with pytest.raises(entry.EntryError) as e:
        steps.build(line.ruleset, line.state, "cor nau a")
    assert str(e.value).startswith(
        "at Naupactus: attack or defend: defender is the only answer here (filled in by itself), so 'a' was read at"
        " the next step: which counter to send to Naupactus (defender): 'a' is ambiguous: it may be athens-h1-1,")
    assert "\n" not in str(e.value)
    with pytest.raises(ServiceError, match="defender is the only answer here"):  # agon act, as play at Enter
        svc.act(gid, "cor nau a")
    assert len(svc.load(gid).events) == 61  # nothing recorded
    chosen, now = steps.walk(line.ruleset, line.state, ["cor", "nau", "d"])  # the side typed anyway: as before
    assert chosen[-1] == ("side", "defender") and isinstance(now, steps.Question) and now.field == "counter"


def test_a_word_that_names_an_answer_after_the_side_filled_in_is_read_there_as_before(naupactus):
    svc, gid = naupactus
    line = svc.load(gid)
    chosen, now = steps.walk(line.ruleset, line.state, ["cor", "nau", "ath-h1"])
    assert chosen[2:] == (("side", "defender"), ("counter", "athens-h1-1"))

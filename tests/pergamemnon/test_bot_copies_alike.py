"""A bot's decision names a card of copies alike by its kind, as a person's does (RULES.md, 'Copies alike').

The greedy bot placed captured cards under its city and discarded weak hand cards by the copies' ids
(``persia.bowman.2``): every seat read them renamed, but the log itself told copies apart that nobody at the table
can tell apart. ``fixtures/greedy-copies-v5.jsonl`` is a greedy game recorded at ef2179e (ruleset version 5), the
code before the bot named kinds, on the bundled card set with Carthage's Slingers at attack 4 (so that the bot,
which discards cards of strength 4 or less, discards copies alike); ``greedy-copies-v5.json`` beside it holds its
scores, outcome and final state as that code folded them. Such a game still imports and ends as recorded, and the
same game played today records the kinds, and ends in the very same state."""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec

from agon.core.autoplay import play_out
from agon.core.games.pergamemnon import RULESET as rs
from agon.core.games.pergamemnon.state import kind
from agon.core.transfer import import_data
from agon.events.pergamemnon import CapturesPlaced, HandDiscarded

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GAME = FIXTURES / "greedy-copies-v5.jsonl"
RECORD = json.loads(GAME.with_suffix(".json").read_text())
COPY = re.compile(r"^[a-z]+\.[a-z-]+\.[0-9]+$")


def _named(events) -> list[str]:  # noqa: ANN001
    """The cards the placements and discards of ``events`` name."""
    out: list[str] = []
    for e in events:
        if isinstance(e, CapturesPlaced):
            out += e.under_city
        elif isinstance(e, HandDiscarded):
            out += e.cards
    return out


def _final(state) -> dict:  # noqa: ANN001
    out = json.loads(msgspec.json.encode(state))
    del out["table"]
    return out


def test_a_game_whose_bots_named_copies_still_imports_verifies_and_ends_as_recorded(sqlite_svc):
    line = sqlite_svc.load(import_data(sqlite_svc, GAME.read_bytes()).game_id)
    assert line.created.ruleset_version == "5" and len(line.events) == RECORD["events"] == 129
    copies = [c for c in _named(line.events) if COPY.match(c)]
    assert copies == ["persia.bowman.2", "persia.bowman.3", "carthage.slinger.3", "carthage.slinger.1",
                      "carthage.slinger.1", "carthage.slinger.3", "persia.bowman.1"]  # what the fixture is for
    assert sqlite_svc.verify(line.game.id) == []
    assert rs.scores(line.state) == RECORD["scores"] == {"Ana": 5.0, "Bo": 22.0, "Cy": 27.0}
    assert rs.outcome(line.state).summary == RECORD["summary"]
    assert _final(line.state) == RECORD["final_state"]


def test_the_same_game_played_today_records_the_kinds_and_ends_in_the_same_state(sqlite_svc):
    line = sqlite_svc.load(import_data(sqlite_svc, GAME.read_bytes()).game_id)
    events, _, final = play_out(rs, line.created)
    named = _named(events)
    assert named and not [c for c in named if COPY.match(c)]  # no bot decision names a copy
    assert "persia.bowman" in named and "carthage.slinger" in named
    # event for event the game recorded before, each copy a placement or a discard named now told by its kind
    before = [*line.events]
    assert len(events) == len(before)
    for now, then in zip(events, before, strict=True):
        if isinstance(then, CapturesPlaced):
            then = msgspec.structs.replace(then, under_city=tuple(kind(c) for c in then.under_city))
        elif isinstance(then, HandDiscarded):
            then = msgspec.structs.replace(then, cards=tuple(kind(c) for c in then.cards))
        assert now == then
    assert _final(final) == RECORD["final_state"]  # the fold places and discards the very same copies

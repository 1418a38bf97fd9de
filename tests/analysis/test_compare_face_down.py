"""``agon compare --as`` and ``--public`` tell only what the viewer may read: whether two lines part at a face-down
commitment is what a player other than its maker may not see. A what-if line that commits Chloe's counters again,
the same ones or others that read alike to Bruno ("sends 2 counters to Potidea"), is told to Bruno in the same
words either way: in the JSON, the text and the study page. (Told as Bruno, main and a line that made the same
commitment were "the same line", and main and one that made another were "differs in what Bruno may not see".)"""

from __future__ import annotations

import json
import random
import re

import msgspec
import pytest

from agon.core.engine import PUBLIC, narrate_as


@pytest.fixture
def face_down(agon):
    """A Perikles game of three people, played by the greedy bot's choices up to Chloe's first commitment of
    counters (#n, main's last event), and branches ``again`` and ``swaps`` from #n-1: ``again`` makes the very
    commitment main made, ``swaps`` sends other counters to the same place as the same role, which reads alike to
    Bruno and leaves the table as he sees it alike."""
    from agon.cli.common import service
    from agon.core.rollout import chooser

    game = json.loads(agon("new", "perikles", "--player", "Ana", "--player", "Bruno", "--player", "Chloe", "--seed",
                           "3", "--json").stdout)["id"]
    svc = service()
    rng = random.Random(1)
    while True:
        main = svc.load(game, "main")
        if main.envelopes[-1].actor == "Chloe" and getattr(main.events[-1], "placements", ()):
            break
        svc.act(game, _json(chooser(main.ruleset, "greedy")(main.state, rng)))
    made = main.steps()[-1]
    rs = main.ruleset

    def seen(e):  # the sentence and the state after it, as Bruno sees them
        return narrate_as(rs, made.before, e, "Bruno"), _json(rs.view(rs.apply(made.before, e), "Bruno"))

    alike = next(e for e in rs.legal(made.before) if e != made.event and seen(e) == seen(made.event))
    for name, event in (("again", made.event), ("swaps", alike)):
        agon("branch", game, name, "--at", str(made.index - 1))
        agon("act", game, _json(event), "--branch", name)
    agon("switch", game, "main")
    return game, made.index


def _json(value) -> str:
    return msgspec.json.encode(value, enc_hook=str).decode()


def _neutral(text: str, name: str) -> str:
    return re.sub(rf"\b{name}\b", "WHATIF", text)


@pytest.mark.parametrize("viewer", [["--as", "Bruno"], ["--public"]])
def test_a_face_down_commitment_made_again_or_otherwise_reads_the_same_to_another_player(agon, face_down, viewer):
    game, n = face_down
    full = {b: json.loads(agon("compare", game, "main", b, "--json").stdout) for b in ("again", "swaps")}
    assert full["again"]["fork"] == n and full["swaps"]["fork"] == n - 1  # told in full, they part differently
    assert full["swaps"]["after_fork"][0]["a"] != full["swaps"]["after_fork"][0]["b"]
    told = {b: json.loads(agon("compare", game, "main", b, *viewer, "--json").stdout) for b in ("again", "swaps")}
    assert _neutral(json.dumps(told["again"]), "again") == _neutral(json.dumps(told["swaps"]), "swaps")
    assert told["swaps"]["fork"] >= n  # the commitment is told as reading alike, not as where the lines part
    for r in told["swaps"]["after_fork"]:
        assert r["same"] is None and r["hidden_difference"] is None and r["reads_differently"] is None
    text = {b: agon("compare", game, "main", b, *viewer).stdout for b in ("again", "swaps")}
    assert _neutral(text["again"], "again") == _neutral(text["swaps"], "swaps")
    assert "same line" not in text["swaps"] and "may not see" not in text["swaps"].replace(
        "nothing Bruno may not see is named", "")
    assert "read alike to" in text["swaps"]


def test_a_study_page_as_a_player_does_not_tell_where_a_face_down_commitment_parts_the_lines(agon, face_down):
    """The page's tree and variations: told as Bruno, both lines part from main where they first read differently to
    him, the same place for the line that made the same commitment and the one that made another."""
    from agon.analysis.study import study_data
    from agon.cli.common import service

    game, n = face_down
    svc = service()
    lines = [svc.load(game, b) for b in ("main", "again", "swaps")]
    for viewer in ("Bruno", PUBLIC):
        data = study_data(lines, as_player=viewer)
        forks = {ln["name"]: ln["fork"] for ln in data["lines"]}
        paths = {ln["name"]: ln["path"] for ln in data["lines"]}
        assert forks["again"] == forks["swaps"] >= n, forks
        assert paths["again"] == paths["swaps"]  # one line to the viewer, told once
    full = {ln["name"]: ln["fork"] for ln in study_data(lines)["lines"]}
    assert full["swaps"] == n - 1  # in full, the page still shows where it truly parts

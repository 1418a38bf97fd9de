"""Copies alike (``greece.bowman.1`` and ``.2``: one card of the card set with ``count = 2``) cannot be told apart at
a table, and the recorder types one of them (RULES.md, 'Copies alike'). Which one changes nothing in the game: a
whole game recorded with every pair of copies swapped is as legal, event for event, and every player reads the same
sentences, scores and winners. What differs is the copy's id, which the views show once a card is open: so the
prompt says the copies are alike and the person says which (either), rather than agon always taking the first."""

from __future__ import annotations

import json
import re

from agon.core.engine import PUBLIC, Chance, Over, fold
from agon.core.games.pergamemnon import RULESET as PERGAMEMNON
from agon.core.games.pergamemnon.state import alike
from agon.core.service import NewGame, Service
from agon.events.store import Store


def _swap(text: str, pairs: dict[str, str]) -> str:
    return re.sub(r'"([a-z-]+\.[a-z-]+\.[0-9]+)"', lambda m: json.dumps(pairs.get(m.group(1), m.group(1))), text)


def test_a_game_with_every_pair_of_copies_swapped_is_as_legal_and_reads_the_same_to_every_player(tmp_path):
    svc = Service(Store(f"sqlite:///{tmp_path / 'agon.db'}"))
    gid = svc.new_game(NewGame("pergamemnon", players=("Ana", "Bo", "Cy"), seed=7))
    for _ in range(400):
        line = svc.load(gid)
        if not PERGAMEMNON.legal(line.state) and not isinstance(line.pending, Chance):
            break
        svc.act(gid, "1")
    line = svc.load(gid)
    cards = line.state.table.cards
    groups = alike(line.state, list(cards))
    assert ("greece.bowman.1", "greece.bowman.2") in groups
    pairs = {}
    for g in groups:  # every copy of a group turned into the next one: .1 -> .2 -> .1, .1 -> .2 -> .3 -> .1
        pairs.update({a: b for a, b in zip(g, (*g[1:], g[0]), strict=True)})
    events = list(line.events)
    swapped = [events[0], *(line.codec.from_obj(json.loads(_swap(json.dumps(line.codec.to_obj(e)), pairs)))
                            for e in events[1:])]
    assert sum(a != b for a, b in zip(events, swapped, strict=True)) > 10  # the copies were drawn and played
    ours, theirs = fold(PERGAMEMNON, events[:1]), fold(PERGAMEMNON, swapped[:1])
    for mine, twin in zip(events[1:], swapped[1:], strict=True):
        if not isinstance(PERGAMEMNON.pending(ours), Chance):  # each decision of the twin game is legal there
            assert PERGAMEMNON.validate(theirs, twin) is None, twin
        for viewer in (None, PUBLIC, "Ana", "Bo", "Cy"):
            assert PERGAMEMNON.narrate_as(ours, mine, viewer) == PERGAMEMNON.narrate_as(theirs, twin, viewer)
        ours, theirs = PERGAMEMNON.apply(ours, mine), PERGAMEMNON.apply(theirs, twin)
        assert PERGAMEMNON.scores(ours) == PERGAMEMNON.scores(theirs)
    assert isinstance(PERGAMEMNON.pending(ours), Over)  # the game played to its end
    assert PERGAMEMNON.pending(ours).outcome == PERGAMEMNON.pending(theirs).outcome
    for viewer in ("Ana", "Bo", PUBLIC):  # the views differ by the copies' ids alone
        assert _swap(json.dumps(PERGAMEMNON.view(ours, viewer), sort_keys=True), pairs) == json.dumps(
            PERGAMEMNON.view(theirs, viewer), sort_keys=True)


def test_a_draw_of_copies_alike_says_so_and_takes_the_copy_the_person_names(agon):
    gid = json.loads(agon("new", "pergamemnon", "--player", "Ana", "--player", "Bo", "--seed", "2", "--table",
                          "--json").stdout)["id"]
    agon("act", gid, "greece rome")  # Ana leads the Greeks
    agon("act", gid, "cent mino cyc dry")
    shown = " ".join(agon("options", gid).stdout.split())
    assert ("Copies alike, told apart by their number only: greece.bowman.1 = greece.bowman.2; greece.chariot.1 ="
            " greece.chariot.2 = greece.chariot.3; greece.spearman.1 = greece.spearman.2. Type the one you record (any"
            " of them): which one changes nothing in the game, but the other players see its number once the card is"
            " open, so do not always type the first.") in shown
    refused = agon("act", gid, "gb gc herc", ok=False)
    assert "'gb' is ambiguous: it may be greece.bowman.1, greece.bowman.2; type more of it" in refused.stderr
    agon("act", gid, "gb2 gc3 herc")
    hand = json.loads(agon("state", gid, "--as", "Ana", "--json").stdout)["view"]["players"][0]["hand"]
    assert [c["id"] for c in hand] == ["greece.bowman.2", "greece.chariot.3", "greece.hercules"]

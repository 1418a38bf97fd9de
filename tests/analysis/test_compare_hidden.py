"""``agon compare`` on two lines that draw different hidden cards: told in full by default, the draws are named
and read differently; told as a player (``--as``), nothing that player may not see is named, and the lines part
where they first read differently to that player: two events that read alike to them are told as reading alike,
never as the same nor as differing in what they may not see (which told them what they may not see). The leak
finder (tests/hidden.py) checks each column against what the player may not be told on that line."""

from __future__ import annotations

import json
import re

import pytest

from tests.hidden import leaks, moments


@pytest.fixture
def reseeded(agon):
    """A Pergamemnon game of bots, and a branch ``whatif`` from #2 with fresh luck: #3 deals Ana other cards.

    Fresh luck is random, so now and then it deals Ana the very cards she drew on main (the comparison then starts
    at #4), or other copies of the same cards (#3 differs in the cards' ids, but it reads the same); the fixture
    then plays the game again until the draws at #3 read differently."""
    for _ in range(20):
        game = json.loads(agon("demo", "pergamemnon", "--seed", "3", "--json").stdout)["id"]
        agon("branch", game, "whatif", "--at", "2", "--reseed")  # the draw due there, from fresh luck
        agon("act", game, "bot", "--branch", "whatif")  # the bots play on
        agon("switch", game, "main")
        first = json.loads(agon("compare", game, "main", "whatif", "--json").stdout)["after_fork"][0]
        if first["n"] == 3 and first["a"] != first["b"]:
            return game
    raise AssertionError("20 fresh draws all dealt Ana her cards of main")


def _lines(game):
    from agon.cli.common import service

    svc = service()
    return svc.load(game, "main"), svc.load(game, "whatif")


def test_compare_names_the_hidden_draws_in_full_by_default(agon, reseeded):
    main, whatif = _lines(reseeded)
    data = json.loads(agon("compare", reseeded, "main", "whatif", "--json").stdout)
    assert data["fork"] == 2 and data["viewer"] is None
    first = data["after_fork"][0]
    assert first["n"] == 3 and first["a"].startswith("Ana draws ") and first["b"].startswith("Ana draws ")
    assert first["a"] != first["b"] and not first["same"] and not first["hidden_difference"]
    assert not re.match(r"Ana draws \d+ cards?\.", first["a"])  # the cards are named, not counted
    out = agon("compare", reseeded, "main", "whatif").stdout
    assert "Told in full: every hidden draw is named" in out
    words = set(out.split())
    assert set(first["a"].split()) <= words and set(first["b"].split()) <= words


@pytest.mark.parametrize("viewer", ["Bruno", "Ana"])
def test_compare_as_a_player_names_nothing_they_may_not_see(agon, reseeded, viewer):
    main, whatif = _lines(reseeded)
    players = list(main.created.names)
    seen_a = moments(main.ruleset, main.events, players)
    seen_b = moments(whatif.ruleset, whatif.events, players)
    data = json.loads(agon("compare", reseeded, "main", "whatif", "--as", viewer, "--json").stdout)
    assert data["viewer"] == viewer
    for r in data["after_fork"]:
        n = r["n"]
        assert leaks(r["a"] or "", seen_a[n].unnamable[viewer]) == [], (n, r["a"])
        assert leaks(r["b"] or "", seen_b[n].unnamable[viewer]) == [], (n, r["b"])
    first = data["after_fork"][0]
    for r in data["after_fork"]:  # neither the same nor differing in hidden parts: told only as the viewer reads it
        assert r["same"] is None and r["hidden_difference"] is None and r["reads_differently"] is None
    if viewer == "Bruno":  # Ana's cards: Bruno reads "Ana draws 3 cards." on both lines, so they part for him later
        assert data["fork"] >= 3 and first["n"] > 3
        assert main.events[3] != whatif.events[3]
        assert first["a"] != first["b"] or first["reads_alike"]
    else:  # Ana sees her own draw
        assert data["fork"] == 2 and first["n"] == 3 and first["a"] != first["b"] and not first["reads_alike"]
    assert leaks(data["fork_text"], seen_a[data["fork"]].unnamable[viewer]) == []
    # the what-if sentence tells the same tellings (checked above, each against its own line) and names nothing
    # hidden on both lines; the analysis's estimate (from the full state) is never given
    n = first["n"]
    assert first["b"].rstrip(".") in data["what_if"] and first["a"].rstrip(".") in data["what_if"]
    assert leaks(data["what_if"], seen_a[n].unnamable[viewer] & seen_b[n].unnamable[viewer]) == [], data["what_if"]
    assert data["estimate"] is None
    if viewer == "Bruno":  # not "the lines part in what is not told here: Ana draws 3 cards"
        assert not data["what_if"].startswith("At #3 ") and "Ana draws 3 card" not in data["what_if"]
    # the text tells exactly what the JSON (checked above) tells, word for word (the table may wrap its cells)
    out = agon("compare", reseeded, "main", "whatif", "--as", viewer).stdout
    words = set(out.split())
    for r in data["after_fork"]:
        assert set((r["a"] or "").split()) <= words and set((r["b"] or "").split()) <= words
    assert f"Told as {viewer} may read it" in out
    assert "may not see" not in out.replace(f"nothing {viewer} may not see is named", "")
    assert f"read alike to {viewer} from event 0 to #{data['fork']}" in " ".join(out.split())


def test_compare_as_someone_not_in_the_game_is_one_line(agon, reseeded):
    r = agon("compare", reseeded, "main", "whatif", "--as", "Zed", ok=False)
    assert r.exit_code == 1 and "no player 'Zed'" in r.stderr and "Traceback" not in r.output + r.stderr


def test_other_copies_of_the_same_cards_read_alike_in_full_and_are_marked_so(agon):
    """At a table the draws are typed by card: main deals Ana the first Chariot, the branch the second. Told in
    full the two sentences read alike; the row says the events differ though they read alike (it said "differs in
    what None may not see"); told as Bruno, who may not see the cards, the two lines read alike to their ends."""
    game = json.loads(agon("new", "pergamemnon", "--player", "Ana", "--player", "Bruno", "--player", "Chloe",
                           "--table", "--json").stdout)["id"]
    agon("act", game, "greece carthage persia")
    agon("act", game, "centaur triton pegasus siren chimera dryad")
    agon("act", game, "greece.chariot.1 greece.guard greece.horseman")
    agon("branch", game, "other", "--at", "2")
    agon("act", game, "greece.chariot.2 greece.guard greece.horseman", "-b", "other")
    first = json.loads(agon("compare", game, "main", "other", "--json").stdout)["after_fork"][0]
    assert first["a"] == first["b"] == "Ana draws Chariot, Guard, Horseman."
    assert not first["same"] and first["reads_alike"] and not first["hidden_difference"]
    out = agon("compare", game, "main", "other").stdout
    assert "None" not in out and {"differs,", "though", "reads", "alike"} <= set(out.split())
    # to Bruno, the two lines read alike to their ends: neither the same line nor differing in what he may not see
    as_bruno = json.loads(agon("compare", game, "main", "other", "--as", "Bruno", "--json").stdout)
    assert as_bruno["fork"] == 3 and as_bruno["after_fork"] == [] and as_bruno["fork_text"] == "Ana draws 3 cards."
    out = " ".join(agon("compare", game, "main", "other", "--as", "Bruno").stdout.split())
    assert "The two lines read alike to Bruno to their ends" in out and "same line" not in out


def test_compare_public_json_says_public_as_state_does(agon, reseeded):
    data = json.loads(agon("compare", reseeded, "main", "whatif", "--public", "--json").stdout)
    state = json.loads(agon("state", reseeded, "--public", "--json").stdout)
    assert data["viewer"] is None and data["public"] is True
    assert state["as"] is None and state["public"] is True
    full = json.loads(agon("compare", reseeded, "main", "whatif", "--json").stdout)
    assert full["viewer"] is None and full["public"] is False

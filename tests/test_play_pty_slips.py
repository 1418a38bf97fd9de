"""Slips at ``agon play``'s prompt, in a pseudo-terminal as a person types them: a line that may be a command never
ends by itself (``q `` is not a quit without Enter), and what a branch name may be where the line reads as no entry.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pexpect
import pytest

from agon.core.service import NewGame
from tests.test_play_pty import PROMPT, spawn_play

REPLAYS = Path(__file__).resolve().parent / ".." / "replays"


def typed_game(svc, replay: str, upto: int) -> str:
    """A table game of the recorded game's players, its first ``upto`` events typed in as a table records them."""
    records = [json.loads(line) for line in (REPLAYS / replay).read_text().splitlines()]
    created = records[0]["payload"]
    gid = svc.new_game(NewGame(created["ruleset"], players=tuple(p["name"] for p in created["players"]),
                               seed=created["seed"], table=True))
    for rec in records[1:upto + 1]:
        svc.act(gid, json.dumps(rec["payload"]))
    return gid


def _typed(child, keys: str) -> None:
    for k in keys:  # key by key, as a person types
        child.send(k)
        time.sleep(0.05)


@pytest.fixture
def quarry(sqlite_svc):
    """The recorded three-player Peloponnes game at Bruno's bid of round 4: 'q' names one option's card alone
    (Marble Quarry, the only card in the conquest row he may bid on)."""
    svc = sqlite_svc
    gid = typed_game(svc, "peloponnes-3p.jsonl", 36)
    return svc, gid


@pytest.mark.parametrize("keys", ["q ", "q,", "Q "])
def test_q_then_a_space_is_no_quit_without_enter_where_q_begins_a_card_s_name(quarry, tmp_path, keys):
    """'q' begins Marble Quarry, and a space after it made the line a whole bid, which ended by itself and was read
    as 'q': play stopped without Enter. Now it waits: rubbed out, the line takes the entry meant; 'q' then Enter
    stops."""
    svc, gid = quarry
    child = spawn_play(tmp_path, gid)
    _typed(child, keys)
    time.sleep(0.5)
    assert child.isalive()
    _typed(child, "\x7f\x7f1")  # a pass: the one option whose number is 1 (of 6), taken without Enter
    child.expect("Bruno passes")
    child.expect(PROMPT)
    assert "Stopped" not in child.before
    assert len(svc.load(gid).events) == 38  # the pass, and the coin cards it draws (one more prompt: its draw)
    child.sendline("q")
    child.expect("Stopped; every decision so far is recorded")
    child.expect(pexpect.EOF)


@pytest.fixture
def refill(sqlite_svc):
    """The recorded four-player Perikles game typed in at a table up to its display refill after Ana's Thebes
    assassin: a draw of one influence tile."""
    svc = sqlite_svc
    gid = typed_game(svc, "perikles-4p.jsonl", 28)
    assert svc.load(gid).pending.label == "influence tile refilling the display"
    return svc, gid


def test_b_and_a_number_or_an_item_s_start_at_a_draw_starts_no_branch_and_says_branch_name_does(refill, tmp_path):
    """'b 7' at a draw of one tile is no entry, and it made a branch named 7 and switched to it: a person typing
    there more likely meant an item or slipped. A name after 'b' that reads as a number or may name an item here is
    no branch's name: the line is refused saying so and that 'branch 7' starts one; 'b whatif' still branches."""
    svc, gid = refill
    child = spawn_play(tmp_path, gid)
    child.sendline("b 7")
    child.expect("'b 7' starts no branch: '7' is a number here, not taken for a branch's name after 'b' \\('branch 7'"
                 " starts a branch named so\\); nor is it an entry: influence tile refilling the display: no item 'b'"
                 " here")
    child.expect(PROMPT)
    child.sendline("b ath")
    child.expect("'b ath' starts no branch: 'ath' may name an item here")
    child.expect(PROMPT)
    assert [b.name for b in svc.store.branches(gid)] == ["main"] and len(svc.load(gid).events) == 29
    child.sendline("branch 7")
    child.expect("Now on branch 7")
    child.expect(PROMPT)
    child.sendline("b whatif")
    child.expect("Now on branch whatif")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert {b.name for b in svc.store.branches(gid)} == {"main", "7", "whatif"}
    assert len(svc.load(gid).events) == 29  # nothing recorded


@pytest.fixture
def bowman(sqlite_svc):
    """A Pergamemnon table game where Ana (the Greeks) drew greece.bowman.2, a Chariot and the Hercules, and Bo
    attacks her with the Caesar: she lays a card in defence, the options naming the Bowman by its kind."""
    svc = sqlite_svc
    gid = svc.new_game(NewGame("pergamemnon", players=("Ana", "Bo"), seed=2, table=True))
    for typed in ("greece rome", "cent mino cyc dry", "gb2 gc1 herc", "rome.spearman.1 rome.spearman.2 caesar"):
        svc.act(gid, typed)
    svc.act(gid, json.dumps({"type": "pergamemnon.attacked", "player": "Bo", "defender": "Ana", "weapon": "sword",
                             "card": "rome.caesar"}), as_player="Bo")
    return svc, gid


def test_the_copy_typed_at_the_draw_lays_its_kind_and_gb_waits_while_gb2_may_follow(bowman, tmp_path):
    """'gb2', the Bowman as the person typed it at the draw, was refused: the options name it greece.bowman. It is
    taken for the kind as soon as typed (the defence is then complete: no Enter), and recorded as the kind; 'gb'
    alone waits (the '2' of 'gb2' may follow), and Enter takes it."""
    svc, gid = bowman
    child = spawn_play(tmp_path, gid)
    _typed(child, "gb2")
    child.expect("Ana lays the Bowman and both cards are revealed")
    child.expect(PROMPT)
    assert svc.load(gid).events[-1].card == "greece.bowman"
    child.sendline("u")
    child.expect("Took back 1 event")
    child.expect(PROMPT)
    _typed(child, "gb")
    time.sleep(0.5)
    assert len(svc.load(gid).events) == 6  # not taken yet
    child.send("\r")
    child.expect("Ana lays the Bowman")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert svc.load(gid).events[-1].card == "greece.bowman"


@pytest.fixture
def assassins(sqlite_svc):
    """The recorded four-player Perikles game typed in at a table up to Ana's turn at event 36: an Athens assassin
    tile leaves five assassinations, shown as one numbered list (core.steps' short list): Bruno stands as B in Athens
    and in Corinth, Ana as A in Thebes only, Chloe as B in Thebes and in Megara."""
    svc = sqlite_svc
    gid = typed_game(svc, "perikles-4p.jsonl", 35)
    return svc, gid


def test_a_candidate_typed_by_name_at_the_short_list_of_assassinations_is_taken_or_told_what_tells_them_apart(
        assassins, tmp_path):
    """Step by step, 'bru' names Bruno where the city is chosen; at the list of the remaining assassinations it was
    refused as none of the answers. A name standing in one of them is that one ('an': Ana in Thebes, taken as soon as
    typed); one standing in several is refused naming them alone and the words that tell them apart."""
    svc, gid = assassins
    child = spawn_play(tmp_path, gid)
    child.sendline("athens-assassin")
    child.expect("which decision \\(so far: athens-assassin")
    child.expect(PROMPT)
    child.sendline("bru")
    child.expect("which decision: 'bru' names Bruno in 2 of them, not one: type what tells them apart \\(athens or"
                 " corinth\\); possible: 1: ")
    child.expect(PROMPT)
    said = " ".join(child.before.split())  # the line, folded to the terminal's width, unfolded
    assert said.endswith("Bruno, candidate B in Athens; 2: Ana takes an Athens assassin tile, placing a cube in"
                         " Athens and assassinating Bruno, candidate B in Corinth Still: Ana to act: take an influence"
                         " tile"), said
    assert len(svc.load(gid).events) == 36  # nothing recorded
    _typed(child, "cor")  # Bruno is Corinth's one candidate left: the city ends the entry
    child.expect("assassinating Bruno, candidate B in Corinth")
    child.expect(PROMPT)
    child.sendline("u")
    child.expect("Took back 1 event")
    child.expect(PROMPT)
    child.sendline("athens-assassin")
    child.expect(PROMPT)
    _typed(child, "an")  # 'a' may still be position A or Ana; 'an' is Ana, who stands in one of them: recorded
    child.expect("assassinating Ana, candidate A in Thebes")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    taken = svc.load(gid).events[-1]
    assert (taken.target_city, taken.target_slot) == ("thebes", "A")


def test_agon_act_reads_a_candidate_s_name_at_the_short_list_as_play_does(assassins):
    """The same words typed at once (``agon act``): a name standing in one assassination records it; one standing in
    several is refused naming those decisions by their numbers in ``agon options``, nothing recorded."""
    from agon.core.service import ServiceError

    svc, gid = assassins
    line = svc.load(gid)
    legal = line.ruleset.legal(line.state)
    with pytest.raises(ServiceError) as held:
        svc.act(gid, "athens-assassin chl")
    chloe = (("thebes", "B"), ("megara", "B"))
    numbers = [i for i, ev in enumerate(legal, start=1)
               if ev.tile == "athens-assassin" and (ev.target_city, ev.target_slot) in chloe]
    assert str(held.value).startswith("which decision: 'chl' names Chloe in 2 of them, not one: type what tells them"
                                      f" apart (thebes or megara); possible: {numbers[0]}: Ana takes an Athens")
    assert f"; {numbers[1]}: Ana takes an Athens assassin tile" in str(held.value)
    assert len(svc.load(gid).events) == 36
    svc.act(gid, "athens-assassin thebes chl")  # Thebes has two candidates: the name picks Chloe's position
    taken = svc.load(gid).events[-1]
    assert (taken.target_city, taken.target_slot) == ("thebes", "B")
    svc.undo(gid)
    svc.act(gid, "athens-assassin ana")
    taken = svc.load(gid).events[-1]
    assert (taken.target_city, taken.target_slot) == ("thebes", "A")

"""Copies alike (``greece.bowman.1`` and ``.2``: one card of the card set with ``count = 2``) cannot be told apart at
a table, and the recorder types one of them (RULES.md, 'Copies alike'). Which one changes nothing in the game: a
whole game recorded with every pair of copies swapped is as legal, event for event, and every player reads the same
sentences, scores and winners. What differs is the copy's id, which no seat is shown: the views, the log and the
options name such a card by its kind (``greece.bowman``), a decision names it so, and the fold lays the first copy
held, so that a card laid tells no other player which copies the hand held."""

from __future__ import annotations

import json
import re

from agon.core.engine import PUBLIC, Chance, Over, fold
from agon.core.games.pergamemnon import RULESET as PERGAMEMNON
from agon.core.games.pergamemnon.state import alike, take
from agon.core.service import NewGame, Service
from agon.events.pergamemnon import Attacked, DefenceCommitted
from agon.events.store import Store
from tests.pergamemnon.helpers import battle_game, play, refused


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
            " of them): which one changes nothing in the game, and no player is shown its number.") in shown
    refused = agon("act", gid, "gb gc herc", ok=False)
    assert ("'gb' names 2 copies alike (greece.bowman.1, greece.bowman.2): type one of them with its number (gb1,"
            " gb2); which one changes nothing in the game") in " ".join(refused.stderr.split())
    agon("act", gid, "gb2 gc3 herc")
    hand = json.loads(agon("state", gid, "--json").stdout)["view"]["players"][0]["hand"]  # the record, in full
    assert [c["id"] for c in hand] == ["greece.bowman.2", "greece.chariot.3", "greece.hercules"]
    hand = json.loads(agon("state", gid, "--as", "Ana", "--json").stdout)["view"]["players"][0]["hand"]
    assert [c["id"] for c in hand] == ["greece.bowman", "greece.chariot", "greece.hercules"]  # a seat: the kind


COPY = re.compile(r"\b[a-z]+\.[a-z-]+\.[0-9]+\b")
"""A copy's id (``greece.bowman.2``): what no seat is told (RULES.md, 'Copies alike')."""


def _bowman_game(agon, draw: str) -> str:
    """A table game where Ana (the Greeks) draws ``draw``, Bo (Rome) attacks her with the Caesar, she lays her
    Bowman and yields, and Bo is asked where the captured Bowman goes."""
    gid = json.loads(agon("new", "pergamemnon", "--player", "Ana", "--player", "Bo", "--seed", "2", "--table",
                          "--json").stdout)["id"]
    for typed in ("greece rome", "cent mino cyc dry", draw, "rome.spearman.1 rome.spearman.2 caesar"):
        agon("act", gid, typed)
    agon("act", gid, "--as", "Bo", json.dumps({"type": "pergamemnon.attacked", "player": "Bo", "defender": "Ana",
                                                "weapon": "sword", "card": "rome.caesar"}))
    return gid


def _told(agon, gid: str, seat: str | None) -> list[str]:
    """Everything ``seat`` (None: a spectator) is shown: the state and the log, and the options of the seat to act,
    as text and JSON."""
    who = ["--as", seat] if seat else ["--public"]
    out = [agon("state", gid, *who, "--json").stdout, agon("state", gid, *who).stdout,
           agon("log", gid, *(who if seat else []), "--json").stdout, agon("log", gid, *(who if seat else [])).stdout]
    out += [agon("options", gid, "--json").stdout, agon("options", gid).stdout]
    # a position names its event by its hash, the salted game's (every seat reads one per line: nothing to tell)
    return [re.sub(r"\b([0-9]+)\.[0-9a-f]{8}\b", r"\1.HASH", text.replace(gid, "GAME")) for text in out]


def test_a_card_laid_from_a_hand_of_copies_alike_tells_no_seat_which_copy_it_was(agon):
    """Ana's hand held greece.bowman.2 and no .1. When the first copy held was offered (``state.distinct``) and the
    views, the log and the options named copies, every other seat learnt from the .2 she laid that her hand held no
    .1: whatever was laid, a seat is told the Bowman by its kind, so the two games read the same to every seat."""
    told: dict[str, list[list[str]]] = {}
    for draw in ("gb1 gc1 herc", "gb2 gc1 herc"):
        gid = _bowman_game(agon, draw)
        defence = json.loads(agon("options", gid, "--json").stdout)["options"]
        assert [o["event"]["card"] for o in defence] == ["greece.bowman", "greece.chariot", "greece.hercules"]
        moments = [_told(agon, gid, seat) for seat in ("Ana", "Bo", None)]
        agon("act", gid, "--as", "Ana", "1")  # the Bowman, helmet 3 against sword 7
        agon("act", gid, "--as", "Ana", "2")  # she yields; Bo places the captured Bowman
        moments += [_told(agon, gid, seat) for seat in ("Ana", "Bo", None)]
        for text in (t for moment in moments for t in moment):
            assert not COPY.findall(text.replace("rome.spearman.1 rome.spearman.2", "")), text
        told[draw] = moments
        under = json.loads(agon("options", gid, "--json").stdout)["options"]
        assert {"greece.bowman"} in [set(o["event"]["under_city"]) for o in under]
        full = json.loads(agon("state", gid, "--json").stdout)["view"]["captured"]  # the record names the copy
        assert full == [{"id": f"greece.bowman.{draw[2]}", "name": "Bowman"}]
    for one, other in zip(told["gb1 gc1 herc"], told["gb2 gc1 herc"], strict=True):
        for x, y in zip(one, other, strict=True):
            assert x == y, "".join(__import__("difflib").unified_diff(x.splitlines(True), y.splitlines(True)))


def test_a_decision_naming_a_kind_lays_the_first_copy_held_and_one_naming_a_copy_lays_that_copy():
    """A decision names a card of copies alike by its kind, and the fold lays the first copy the hand holds (in the
    order drawn); a game recorded before names the copy, and the fold lays that one, as it did."""
    start = battle_game(hands={"Bob": ("recruit.2", "recruit.1", "leader")})
    attacked = play(start, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    offered = [e.card for e in PERGAMEMNON.legal(attacked)]
    assert offered == ["carthage.recruit", "carthage.leader"]
    by_kind = play(attacked, DefenceCommitted(player="Bob", card="carthage.recruit"))
    assert by_kind.battle.defender_cards == ("carthage.recruit.2",)
    by_copy = play(attacked, DefenceCommitted(player="Bob", card="carthage.recruit.1"))
    assert by_copy.battle.defender_cards == ("carthage.recruit.1",)
    assert PERGAMEMNON.view(by_kind, "Alice") == PERGAMEMNON.view(by_copy, "Alice")
    assert PERGAMEMNON.view(by_kind, None) != PERGAMEMNON.view(by_copy, None)
    hand = attacked.players[1].hand  # a copy named is that one; a kind, the first copy left (the order drawn)
    assert take(attacked, hand, ("carthage.recruit", "carthage.recruit.2")) == ("carthage.recruit.1",
                                                                                "carthage.recruit.2")
    assert take(attacked, hand, ("carthage.recruit",) * 2) == ("carthage.recruit.2", "carthage.recruit.1")
    assert take(attacked, hand, ("carthage.recruit",) * 3) is None
    rule = refused(attacked, DefenceCommitted(player="Bob", card="carthage.champion"))
    assert rule == "Battle (rulebook, 'A Batalha'): that Champion is not in Bob's hand"



def test_a_copy_typed_where_a_decision_names_its_kind_is_that_kind_whichever_copy_the_hand_holds(agon):
    """A decision names a card of copies alike by its kind, and 'gb2', the copy typed at the draw, was refused as
    none of the answers. It is that kind now, at each step that names one (a defence, the captures placed, a discard
    typed a card a word), and the record says the kind. A copy the hand does not hold is read alike ('gb2' where it
    holds .1): refusing it would tell the seat the number of its copy, which no seat is shown."""
    told = {}
    for draw in ("gb1 gc1 herc", "gb2 gc1 herc"):
        gid = _bowman_game(agon, draw)
        recorded = []
        for seat, typed in (("Ana", "gb2"), ("Ana", "2"), ("Bo", "greece.bowman.1"), ("Ana", "herc gc3")):
            recorded += json.loads(agon("act", gid, "--as", seat, typed, "--json").stdout)["recorded"]
        assert [r["event"] for r in recorded if r["actor"] != "chance"] == [
            {"type": "pergamemnon.defence_committed", "player": "Ana", "card": "greece.bowman"},
            {"type": "pergamemnon.yielded", "player": "Ana"},
            {"type": "pergamemnon.captures_placed", "player": "Bo", "under_city": ["greece.bowman"]},
            {"type": "pergamemnon.hand_discarded", "player": "Ana", "cards": ["greece.chariot", "greece.hercules"]},
        ]
        # the state and the log each seat reads (the options are the next draw's: of copies, as typed at a table)
        told[draw] = [_told(agon, gid, seat)[:4] for seat in ("Ana", "Bo", None)]
        leaks = [COPY.findall(text.replace("rome.spearman.1 rome.spearman.2", ""))
                 for moment in told[draw] for text in moment]
        assert not any(leaks), leaks
    assert told["gb1 gc1 herc"] == told["gb2 gc1 herc"]

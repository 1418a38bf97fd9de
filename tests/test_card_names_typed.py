"""At a Peloponnes table, power cards are seen by their names ("Palisade"), not their ids (A02): where a card is
drawn or asked for, the prompt shows both (``A02 Palisade``) and either may be typed, by a prefix or abbreviation as
any item (core.entry). What is recorded stays the ids, so games recorded before replay unchanged."""

from __future__ import annotations

import json

import pytest

from agon.core import entry, steps
from agon.core.engine import Chance, option_text
from agon.core.games.peloponnes import RULESET as PELOPONNES
from agon.core.service import NewGame, Service, ServiceError
from agon.events.peloponnes import BidMoved, BidPlaced, Coins, PowerCardsRevealed
from agon.events.store import Store

NAMES = {"A01": "Well", "A02": "Palisade", "A06": "Sanctuary of Hera", "A07": "Carpenter's Workshop",
         "A08": "Stonemason's Yard", "A11": "Forest"}


def test_an_item_is_typed_by_its_name_as_by_its_id_and_the_id_still_works():
    items = list(NAMES)
    assert entry.resolve("pal", items, names=NAMES) == "A02"
    assert entry.resolve("PALISADE", items, names=NAMES) == "A02"
    assert entry.resolve("soh", items, names=NAMES) == "A06"  # the name's words abbreviated
    assert entry.resolve("carp", items, names=NAMES) == "A07"
    assert entry.resolve("a2", items, names=NAMES) == "A02"
    with pytest.raises(entry.EntryError, match="'s' is ambiguous: it may be A06 Sanctuary of Hera, A08 Stonemason's"):
        entry.resolve("s", items, names=NAMES)
    with pytest.raises(entry.EntryError, match="no item 'xyz' here; possible: A01 Well, A02 Palisade"):
        entry.resolve("xyz", items, names=NAMES)
    with pytest.raises(entry.EntryError):
        entry.resolve("pal", items)  # without names, as before


def test_a_name_is_settled_as_the_word_of_the_name_and_only_among_the_items_offered():
    items = list(NAMES)
    assert entry.settled("pal", items, NAMES) == "Palisade"  # shown in full as typed on
    assert entry.settled("sanc", items, NAMES) == "Sanctuary-of-Hera"
    assert entry.settled("a2", items, NAMES) == "A02"
    assert entry.settled("w", items, NAMES) is None  # Well, or Carpenter's Workshop by a later word
    assert entry.reachable("pal", ["A01"], NAMES) == []  # Palisade not offered: its name names nothing


@pytest.fixture
def table(tmp_path):
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = svc.new_game(NewGame("peloponnes", players=("Ana", "Bo"), seed=4, table=True))
    while not (isinstance(p := svc.load(gid).pending, Chance) and p.label.startswith("power")):
        svc.act(gid, "seed")
    return svc, gid


def test_the_reveal_lists_each_card_with_its_name_and_records_the_ids_whichever_was_typed(table, tmp_path):
    svc, gid = table
    pending = svc.load(gid).pending
    assert ("A02", "Palisade") in pending.item_names and len(pending.item_names) == len(set(pending.items))
    typed = svc.record(gid, "pal soh well carp stonem forest")[1]
    assert typed.events[-1] == PowerCardsRevealed(cards=("A02", "A06", "A01", "A07", "A08", "A11"))
    svc.undo(gid)
    by_id = svc.record(gid, "A02 A06 A01 A07 A08 A11")[1]
    assert by_id.events[-1] == typed.events[-1]


def test_agon_options_shows_the_names_beside_the_ids_at_a_table_draw(agon, tmp_path):
    gid = json.loads(agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--seed", "4", "--table",
                          "--json").stdout)["id"]
    for _ in range(3):  # the civilizations, then each player's coin cards
        agon("act", gid, "seed")
    out = agon("options", gid).stdout
    assert "A02 Palisade" in out and "A06 Sanctuary of Hera" in out
    agon("act", gid, "pal soh well carp stonem forest")
    assert "A06 Sanctuary of Hera" in agon("options", gid).stdout  # the bids name the card by id and name


def test_a_step_asking_for_a_card_shows_its_name_and_takes_it_typed(table):
    svc, gid = table
    svc.record(gid, "pal soh well carp stonem forest")
    s = svc.load(gid).state
    question = steps.ask(PELOPONNES, s, ((steps.TYPE, "bid-placed"),))
    assert question.field == steps.OPTION  # few bids: listed in full, and the card may be named there
    assert steps.pick(question, "soh") == "A06" and question.field_of("A06") == "card"
    chosen, now = steps.walk(PELOPONNES, s, ["bid-placed", "soh"])
    assert chosen[-1] == ("card", "A06")
    cards = steps.Question("card", "which card", tuple(steps.Choice(c, NAMES[c]) for c in ("A02", "A06")),
                           names=(("A02", "Palisade"), ("A06", "Sanctuary of Hera")))
    assert steps.pick(cards, "pal") == "A02" and steps.pick(cards, "a02") == "A02"
    assert steps.settled_value(cards, "pali") == "Palisade"
    bid = next(ev for ev in PELOPONNES.legal(s) if isinstance(ev, BidPlaced) and ev.card == "A06")
    assert option_text(PELOPONNES, s, bid).startswith(f"{bid.player} bids 2 on A06 Sanctuary of Hera")
    assert PELOPONNES.narrate_as(s, bid, bid.player).startswith(f"{bid.player} bids 2 on Sanctuary")  # the log: names


def test_a_hidden_draw_of_coin_cards_offers_no_names(tmp_path):
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = svc.new_game(NewGame("peloponnes", players=("Ana", "Bo"), seed=4, table=True))
    svc.act(gid, "seed")
    pending = svc.load(gid).pending
    assert pending.unseen and pending.item_names == ()  # named by backs, which every name would be


def test_play_takes_a_card_by_its_name_as_soon_as_it_can_only_mean_one(table):
    from agon.cli.play_cmds import begins_items, settle_items

    svc, gid = table
    pending = svc.load(gid).pending
    assert settle_items(pending, "pal") == ("Palisade ", False)  # shown in full, the keys spelling it on swallowed
    assert settle_items(pending, "Palisade soh well carp stonem fore") == (
        "Palisade soh well carp stonem Forest ", True)
    assert begins_items(pending)("Palisade sanc")


def test_an_entry_that_names_an_id_names_it_as_without_names_and_waits_while_a_name_may_be_meant():
    names = {"A06": "Sanctuary of Hera", "B03": "Aqueduct"}
    assert entry.resolve("a", ["A06", "B03"], names=names) == "A06"  # as before names were typed
    assert entry.resolve("aq", ["A06", "B03"], names=names) == "B03"
    assert entry.settled("a", ["A06", "B03"], names) is None  # 'aqueduct' may be on its way


def test_the_host_is_told_the_names_of_the_cards_to_type_and_a_seat_neither_items_nor_names(table):
    from agon.server.api import HOST, pending_for

    svc, gid = table
    line = svc.load(gid)
    host = pending_for(line, HOST)
    assert host["names"]["A02"] == "Palisade" and set(host["names"]) == set(host["items"])
    seat = pending_for(line, "Ana")
    assert "items" not in seat and "names" not in seat


def test_a_word_that_may_begin_several_cards_where_the_kind_is_asked_is_refused_naming_them(table):
    """Bo may pass or bid, and the pass is one decision, so the kind is asked first; 'a0' begins A02 Palisade and
    A06 Sanctuary of Hera, the cards Bo may bid on. It was refused as no kind of decision ("which kind of decision:
    'a0' is none of the answers; possible: bid-placed, passed"), which says nothing of the cards it may mean."""
    svc, gid = table
    svc.record(gid, "pal soh well carp stonem forest")
    assert steps.ask(PELOPONNES, svc.load(gid).state).field == steps.TYPE
    before = svc.load(gid).head.id
    with pytest.raises(ServiceError) as refused:
        svc.record(gid, "a0")
    assert str(refused.value).startswith(
        "'a0' is ambiguous: it may be A02 Palisade, A06 Sanctuary of Hera; type more of it; or give a choice number")
    assert svc.load(gid).head.id == before  # nothing recorded
    with pytest.raises(ServiceError, match="which kind of decision: 'zz' is none of the answers"):
        svc.record(gid, "zz")  # a word no kind's first step may mean is still told the kinds
    assert svc.record(gid, "a06 2w1g")[1].events[-1] == BidPlaced(player="Bo", card="A06", coins=Coins(wood=2, grain=1))


def test_an_outbid_bid_is_moved_to_a_card_typed_by_its_name_beside_the_other_kind_of_decision(tmp_path):
    """Outbid, Bo is asked where to move the bid, or to take it back (another kind of decision): the cards offered
    kept their names only where the kind was not offered beside them, so 'pas' for A13 Pasture was refused and
    the refusal listed bare ids ('possible: A02, A13, bid-withdrawn')."""
    import random

    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = svc.new_game(NewGame("peloponnes", players=("Ana", "Bo", "Cy"), seed=1))
    for k in range(40):  # a random game until a bid is outbid (seed 1: within a few decisions)
        line = svc.load(gid)
        now = steps.ask(line.ruleset, line.state)
        if isinstance(now, steps.Question) and now.prompt.startswith("which power card to move the bid to"):
            break
        svc.act(gid, str(random.Random(100 + k).randint(1, len(line.ruleset.legal(line.state)))))
    else:
        raise AssertionError("no bid was outbid")
    assert "another kind of decision: take-back-bid" in now.prompt
    assert dict(now.names) == {"A02": "Palisade", "A13": "Pasture", "bid-moved": "move-bid",
                               "bid-withdrawn": "take-back-bid"}  # the kinds as the table says them
    with pytest.raises(entry.EntryError, match="possible: A02 Palisade, A13 Pasture, take-back-bid"):
        steps.walk(line.ruleset, line.state, ["zzz"])
    mover = line.pending.player
    assert svc.act(gid, "pas")[0].event == BidMoved(player=mover, card="A13")

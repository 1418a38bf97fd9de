"""At an Adamastor table, a player card is seen by what is printed on it (rulebook 2.1.1: '1) Título', '5) Número
carta'), not by its id (c9): where a card is drawn or asked for, the prompt shows both (``c9 9 Calafate``) and the
number, the title or both may be typed, by a prefix or an abbreviation as any item (core.entry). What is recorded
stays the ids, so games recorded before replay unchanged."""

from __future__ import annotations

import json

import pexpect
import pytest

from agon.core import entry
from agon.core.engine import Chance
from agon.core.games.adamastor import RULESET as ADAMASTOR
from agon.core.service import NewGame, Service, ServiceError
from agon.events.adamastor import CardSwapped, PlayerCardsDealt, SailStarted
from agon.events.store import Store
from tests.test_play_pty import PROMPT, spawn_play


@pytest.fixture
def dealt(tmp_path):
    """A solo table game at its deal: 3 cards for the strip, then 3 for Ana's hand, from the 40."""
    svc = Service(Store(f"sqlite:///{tmp_path / 'agon.db'}"))
    gid = svc.new_game(NewGame("adamastor", players=("Ana",), seed=3, table=True))
    svc.act(gid, "r3")
    svc.act(gid, "0b")
    assert isinstance(svc.load(gid).pending, Chance)
    return svc, gid


def test_a_card_is_typed_by_its_number_its_title_or_both_and_the_id_still_works(dealt):
    svc, gid = dealt
    pending = svc.load(gid).pending
    assert ("c9", "9 Calafate") in pending.item_names and ("c40", "40 Capitão-mor") in pending.item_names
    names, items = pending.named, pending.items
    for typed in ("9", "calafate", "CAL", "9cal", "9-cal", "9-calafate", "c9"):
        assert entry.resolve(typed, items, names=names) == "c9", typed
    assert entry.resolve("1", items, names=names) == "c1"  # card 1 whole, not also the start of 10 to 19
    assert entry.resolve("4", items, names=names) == "c4"  # nor of 40
    assert entry.resolve("capi", items, names=names) == "c40"
    with pytest.raises(entry.EntryError, match="'cap' is ambiguous: it may be c5 5 Capelão, c40 40 Capitão-mor"):
        entry.resolve("cap", items, names=names)
    line = svc.record(gid, "32 vigia 9cal 1 marinheiro c3")[1]
    assert line.events[-1] == PlayerCardsDealt(strip=("c9", "c19", "c32"), hands=(("c1", "c2", "c3"),))
    svc.undo(gid)
    with pytest.raises(ServiceError, match="'cap' is ambiguous: it may be c5 5 Capelão, c40 40 Capitão-mor; type"
                                           " more of it"):
        svc.act(gid, "cap 1 2 3 4 5")
    assert svc.load(gid).head.depth == 2  # nothing recorded


def test_agon_options_lists_each_card_with_what_it_shows_and_act_takes_a_title_in_a_listed_decision(agon):
    gid = json.loads(agon("new", "adamastor", "--player", "Ana", "--seed", "3", "--table", "--json").stdout)["id"]
    agon("act", gid, "r3")
    agon("act", gid, "0b")
    out = agon("options", gid).stdout
    assert "c1 1 Grumete, c2 2 Marinheiro" in out and "c40 40 Capitão-mor" in out
    agon("act", gid, "frade vigia calafate grumete marinheiro piloto")
    said = agon("act", gid, "card grum frade").stdout  # the swap, by the titles of the two cards
    assert "Ana swaps Grumete (1) from hand with Frade (32) from the strip" in said


def test_a_swap_typed_by_titles_records_the_ids(dealt):
    svc, gid = dealt
    svc.act(gid, "frade vigia calafate grumete marinheiro piloto")
    line = svc.record(gid, "card 1gr cal")[1]
    assert line.events[-1] == CardSwapped(hand_card="c1", strip_card="c9")
    assert ADAMASTOR.value_names(line.state)["c9"] == "9 Calafate"


def test_play_takes_a_card_typed_by_its_title_or_number_as_soon_as_it_can_only_mean_one(dealt, tmp_path):
    svc, gid = dealt
    child = spawn_play(tmp_path, gid)
    child.send("fr")  # only Frade begins so: shown in full
    child.expect("32-Frade ")
    child.send("9 ")  # 9 is card 9 alone: taken (no card 90)
    child.expect("9-Calafate ")
    child.send("1 ")  # 1 may begin 10 to 19: a space takes it (the strip's third card); then Ana's hand
    child.send("vig")
    child.expect("19-Vigia ")
    child.send("2 3 ")  # 3 may begin 30 to 39: the space takes it, the last card: recorded
    child.expect(r"The adventure strip is Frade \(32\), Calafate \(9\) and Grumete \(1\); Ana holds Marinheiro \(2\),"
                 r" Piloto \(3\) and Vigia \(19\)")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert svc.load(gid).events[-1] == PlayerCardsDealt(strip=("c1", "c9", "c32"), hands=(("c2", "c3", "c19"),))


def test_a_start_two_titles_share_names_the_one_left_once_the_other_was_named_before_it(dealt, tmp_path):
    """'40 cap ...' was refused as 'cap' being Capelão or Capitão-mor, though card 40 (Capitão-mor) was named
    before it in the same entry and only Capelão was left; a card named after it does not count ('cap 40 ...')."""
    svc, gid = dealt
    line = svc.record(gid, "40 cap 1 2 3 4")[1]
    assert line.events[-1] == PlayerCardsDealt(strip=("c1", "c5", "c40"), hands=(("c2", "c3", "c4"),))
    svc.undo(gid)
    with pytest.raises(ServiceError, match="'cap' is ambiguous: it may be c5 5 Capelão, c40 40 Capitão-mor"):
        svc.act(gid, "cap 40 1 2 3 4")
    assert svc.load(gid).head.depth == 2  # nothing recorded
    child = spawn_play(tmp_path, gid)  # agon play reads it alike while it is typed
    child.send("40")
    child.expect("40-Capitão-mor ")
    child.send("cap")
    child.expect("5-Capelão ")
    child.send("1 2 3 4")  # the last card ends the entry
    child.expect(r"The adventure strip is Capitão-mor \(40\), Capelão \(5\) and Grumete \(1\)")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_agon_act_takes_a_start_two_titles_share_once_one_was_named(agon):
    gid = json.loads(agon("new", "adamastor", "--player", "Ana", "--seed", "3", "--table", "--json").stdout)["id"]
    agon("act", gid, "r3")
    agon("act", gid, "0b")
    said = agon("act", gid, "40 cap 1 2 3 4").stdout
    assert "The adventure strip is Capitão-mor (40), Capelão (5) and Grumete (1)" in said, said


def test_a_title_is_typed_without_its_accents(agon):
    """'sail lingua' was refused as none of the answers: the card is Língua, and a person at a table types without
    accents (typed with them, it is taken as well)."""
    gid = json.loads(agon("new", "adamastor", "--player", "Ana", "--seed", "3", "--table", "--json").stdout)["id"]
    agon("act", gid, "r3")
    agon("act", gid, "0b")
    said = agon("act", gid, "capitao capelao meirinho cozinheiro lingua escrivao").stdout
    assert ("The adventure strip is Capitão-mor (40), Meirinho (29) and Capelão (5); Ana holds Cozinheiro (6), Escrivão"
            " (11) and Língua (23)") in said, said
    said = agon("act", gid, "sail lingua").stdout
    assert "Ana sets sail, discarding Língua (23) for 2 navigation points" in said, said
    agon("undo", gid)
    assert "discarding Língua (23)" in agon("act", gid, "sail LÍNG").stdout


@pytest.fixture
def sailing(tmp_path):
    """Ana's first action (seed 5): her hand is Cozinheiro (6), Língua (23) and Escrivão (11); a sail discards one,
    two or three of them."""
    svc = Service(Store(f"sqlite:///{tmp_path / 'agon.db'}"))
    gid = svc.new_game(NewGame("adamastor", players=("Ana",), seed=5))
    svc.act(gid, "2")
    return svc, gid


def test_a_sail_of_two_cards_is_typed_by_their_titles_or_ids_apart_and_the_list_names_them(agon):
    """'sail lín esc' was refused ('the decision is complete before 'esc''), as was 'sail c23 c11': only 'c23+c11'
    or the option number worked, and the step listed the pairs as bare ids (c6+c11)."""
    gid = json.loads(agon("new", "adamastor", "--player", "Ana", "--seed", "5", "--json").stdout)["id"]
    agon("act", gid, "2")
    for typed in ("sail lín esc", "sail c23 c11", "sail escrivao lingua", "sail c23+c11"):
        said = agon("act", gid, typed).stdout
        assert "Ana sets sail, discarding Língua (23) and Escrivão (11) for 5 navigation points" in said, (typed, said)
        agon("undo", gid)
    said = agon("act", gid, "sail coz lín esc").stdout
    assert "discarding Cozinheiro (6), Língua (23) and Escrivão (11) for 6 navigation points" in said, said
    agon("undo", gid)
    assert "discarding Língua (23) for 2 navigation points" in agon("act", gid, "sail lín").stdout  # one card alone
    agon("undo", gid)
    refused = agon("act", gid, "sail zzz", ok=False).stderr
    assert ("possible: c6 6 Cozinheiro, c6+c11 6 Cozinheiro + 11 Escrivão, c6+c23 6 Cozinheiro + 23 Língua,"
            " c6+c23+c11 6 Cozinheiro + 23 Língua + 11 Escrivão, c11 11 Escrivão, c23 23 Língua, c23+c11 23 Língua +"
            " 11 Escrivão") in " ".join(refused.split()), refused


def test_play_waits_after_a_card_that_more_may_join_and_records_the_cards_typed_apart(sailing, tmp_path):
    svc, gid = sailing
    child = spawn_play(tmp_path, gid)
    child.send("sail l")  # Língua, which Escrivão or Cozinheiro may join: shown, not recorded
    child.expect("23-Língua ")
    child.send("e")
    child.expect("11-Escrivão ")  # Cozinheiro may still join: Enter ends it
    child.sendline("")
    child.expect(r"Ana sets sail, discarding Língua \(23\) and Escrivão \(11\) for 5 navigation points")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert svc.load(gid).events[-1] == SailStarted(cards=("c23", "c11"))

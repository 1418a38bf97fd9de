"""Fast entry at a table (core.entry): items by prefix or abbreviation, dice as digits, natural order, groups."""

from __future__ import annotations

import json

import pytest

from agon.core import chance, entry
from agon.core.engine import Chance

INFLUENCE = ["any", "argos-2", "argos-candidate", "athens-2", "athens-assassin", "athens-candidate", "sparta-2"]


@pytest.mark.parametrize("typed, meant", [
    ("athens-candidate", "athens-candidate"),  # in full
    ("ATHENS-CA", "athens-candidate"),  # a prefix, any case
    ("athc", "athens-candidate"),  # prefixes of its words
    ("ath-as", "athens-assassin"),
    ("arc", "argos-candidate"),
    ("sp", "sparta-2"),
    ("any", "any"),
])
def test_an_item_is_named_by_any_unique_prefix_or_abbreviation(typed, meant):
    assert entry.resolve(typed, INFLUENCE) == meant


def test_an_ambiguous_prefix_is_refused_naming_the_candidates():
    with pytest.raises(entry.EntryError, match="'ath' is ambiguous: it may be athens-2, athens-assassin, "
                                              "athens-candidate; type more of it"):
        entry.resolve("ath", INFLUENCE)
    with pytest.raises(entry.EntryError, match="no item 'xyz' here; possible: any, argos-2"):
        entry.resolve("xyz", INFLUENCE)


def test_an_exact_name_wins_over_the_longer_names_it_begins():
    cards = [f"c{i}" for i in range(1, 41)]
    assert entry.resolve("c1", cards) == "c1"
    assert entry.resolve("c4", cards) == "c4"
    assert entry.resolve("C40", cards) == "c40"


def test_later_words_and_numbers_without_leading_zeros():
    hand = ["greece.bowman.1", "greece.bowman.2", "greece.hercules", "greece.guard"]
    assert entry.resolve("herc", hand) == "greece.hercules"
    assert entry.resolve("gb2", hand) == "greece.bowman.2"
    assert entry.resolve("a1", ["A01", "A10", "A11"]) == "A01"


@pytest.mark.parametrize("typed", ["4 6", "4,6", "46", " 4 ,6 "])
def test_dice_are_typed_with_spaces_commas_or_as_digits(typed):
    assert entry.dice(typed, 2, 6) == (4, 6)


def test_dice_typed_in_groups_are_a_die_a_digit():
    """A Perikles battle roll typed side by side ('65 12': the attacker's pair, then the defender's) is four dice;
    it was read as the numbers 65 and 12 and refused as '4 die values needed, 2 given', and '66 5', three dice
    typed in haste, was told it gave two."""
    from agon.core import chance
    from agon.core.engine import Chance

    assert entry.dice("65 12", 4, 6) == (6, 5, 1, 2)
    assert entry.dice("6 51,2", 4, 6) == (6, 5, 1, 2)
    roll = Chance("dice", "battle dice at Amphipolis (attacker 2d6, then defender 2d6)", lambda o: o, count=4)
    assert chance.parse(roll, "65 12") == (6, 5, 1, 2)
    with pytest.raises(chance.BadOutcome) as e:
        chance.parse(roll, "66 5")
    assert str(e.value) == ("battle dice at Amphipolis (attacker 2d6, then defender 2d6): 4 die values needed,"
                            " 3 typed (66 5)")


def test_dice_of_more_than_nine_sides_need_separators():
    assert entry.dice("12", 1, 12) == (12,)
    assert entry.dice("1 2", 2, 12) == (1, 2)
    with pytest.raises(entry.EntryError, match="type 2 die value"):
        entry.dice("x y", 2, 6)


def test_items_are_listed_in_natural_order_and_grouped_by_their_first_word():
    assert entry.natural(["c10", "c2", "c1", "c21"]) == ["c1", "c2", "c10", "c21"]
    assert entry.groups_text(INFLUENCE + ["athens-2"]) == [
        "any, sparta-2", "argos: argos-2, argos-candidate", "athens: athens-2 x2, athens-assassin, athens-candidate"]
    assert entry.groups_text(["c10", "c2", "c1"]) == ["c1, c2, c10"]


def test_a_chance_outcome_is_read_by_prefixes():
    c = Chance("draw", "display", lambda o: None, count=3, items=tuple(INFLUENCE))  # type: ignore[arg-type]
    assert chance.parse(c, "athc, arc sp") == ("athens-candidate", "argos-candidate", "sparta-2")
    with pytest.raises(chance.BadOutcome, match="display: 'a' is ambiguous"):
        chance.parse(c, "a athc sp")
    dice = Chance("dice", "battle dice", lambda o: None, count=4)  # type: ignore[arg-type]
    assert chance.parse(dice, "6512") == (6, 5, 1, 2)


def test_at_a_table_agon_act_takes_cards_by_prefix_and_options_lists_them_in_natural_order(agon):
    out = agon("new", "adamastor", "--player", "Ana", "--table", "--seed", "3", "--json").stdout
    game = json.loads(out)["id"]
    assert "R1, R2, R3, R4, R5, R6, R7" in agon("options", game).stdout
    assert "The regular map card R3 is turned over" in agon("act", game, "r3").stdout
    agon("act", game, "1")
    listing = agon("options", game).stdout
    assert ("c1 1 Grumete, c2 2 Marinheiro, c3 3 Piloto, c4 4 Cartógrafo, c5 5 Capelão, c6 6 Cozinheiro, c7 7"
            " Barbeiro, c8 8 Carpinteiro, c9 9 Calafate, c10 10 Despenseiro, c11 11 Escrivão") in " ".join(
                listing.split())  # each card with the number and title printed on it (what may be typed too)
    bad = agon("act", game, "c1 c1x c2 c3 c4 c5", ok=False)
    assert bad.exit_code != 0 and "no item 'c1x' here" in bad.stderr
    dealt = agon("act", game, "C10,c2 c1 c3 c4 c5").stdout
    assert "The adventure strip is Despenseiro (10), Marinheiro (2) and Grumete (1)" in dealt


@pytest.mark.parametrize("typed, meant", [
    ("atc", "athens-candidate"),  # at(hens) c(andidate): nothing else may follow from it
    ("ath-a", "athens-assassin"),
    ("sp", "sparta-2"),
    ("an", "any"),
    ("a", None),  # any, argos-..., athens-...
    ("at", None),  # the three of athens
    ("xyz", None),  # names nothing
])
def test_a_word_is_settled_once_it_can_only_name_one_item_whatever_is_typed_after_it(typed, meant):
    assert entry.settled(typed, INFLUENCE) == meant


def test_a_number_is_not_settled_while_a_longer_number_may_be_typed():
    assert entry.settled("c2", ["c2", "c20"]) is None  # c20 may be what is being typed
    assert entry.settled("c20", ["c2", "c20"]) == "c20"
    assert entry.settled("c2", ["c2", "c10"]) == "c2"  # no item goes on from c2
    assert entry.reachable("c1", ["c1", "c10", "c2"]) == ["c1", "c10"]


def test_a_number_without_its_leading_zeros_is_settled_only_when_no_other_number_may_follow():
    assert entry.settled("a1", ["A01", "A10"]) is None  # a1 names A01, but a10 is A10
    assert entry.settled("a2", ["A01", "A02"]) == "A02"
    assert entry.reachable("a0", ["A01", "A10", "B01"]) == ["A01", "A10"]  # a01, a010
    assert entry.settled("a01", ["A01", "A02"]) == "A01"


def test_a_word_that_names_an_item_only_by_a_later_word_is_settled_when_no_other_may_follow():
    hand = ["greece.bowman.1", "greece.bowman.2", "greece.hercules", "greece.guard"]
    assert entry.settled("herc", hand) == "greece.hercules"
    assert entry.settled("gb", hand) is None and entry.settled("gb2", hand) == "greece.bowman.2"
    assert entry.settled("g", hand) is None


def test_a_line_that_may_still_become_a_command_is_never_taken_by_itself():
    """agon play's guard over the settled words (cli.play_cmds): 'u' may be undo, 'r' redo, 's' state or seed,
    'b' a branch; once the line can no longer be a command the word is taken."""
    from agon.cli.play_cmds import guarded, settle_items

    items = ("rome", "sparta-2", "ulm", "bowman", "c2", "c20")
    draw = Chance("draw", "display", lambda o: None, count=2, items=items)  # type: ignore[arg-type]
    complete = guarded(lambda text: settle_items(draw, text))
    for typed in ("u", "r", "re", "s", "b", "b c2", "?sp", "-", "q", "lo"):
        assert complete(typed) is None, typed
    assert complete("ro") == ("rome ", False)  # no longer 'redo': taken, shown in full
    assert complete("ul") == ("ulm ", False)
    assert complete("sp") == ("sparta-2 ", False)
    assert complete("rome c2") is None  # c20 may follow
    assert complete("rome c2 ") == ("rome c2 ", True)  # a space takes it: the second item, the entry complete
    assert complete("rome c20") == ("rome c20 ", True)
    assert complete("rome ro") is None  # the one rome is taken: 'ro' names nothing left


@pytest.mark.parametrize("typed", ["-", "--", "_", ".", "-.-"])
def test_a_word_of_separators_alone_names_nothing(typed):
    """'-' abbreviated every item (no word letter to compare): where one item could be meant ('-- 1' at a step
    whose only other value is a kind's name) it was taken as that item, silently."""
    assert entry.matches(typed, ["skill-learned"]) == []
    assert entry.reachable(typed, INFLUENCE) == []
    with pytest.raises(entry.EntryError, match=f"no item '{typed}' here"):
        entry.resolve(typed, ["skill-learned"])


@pytest.mark.parametrize("typed, meant", [("ath-h1", "athens-h1-1"), ("ath-t1", "athens-t1-1"),
                                          ("spa h1", "sparta-h1-1"), ("ath-h3", "athens-h3-1")])
def test_words_typed_apart_name_the_item_whose_words_they_begin_in_place(typed, meant):
    """'ath-h1' was refused as ambiguous with athens-h2-1 and athens-h3-1 (read as 'ath', the 'h' of h2, the
    counter's '1'): the weakest counter of every Perikles city could not be typed as README shows counters typed."""
    counters = [f"{city}-{kind}{n}-1" for city in ("athens", "sparta") for kind, top in (("h", 3), ("t", 4))
                for n in range(1, top + 1)]
    assert entry.resolve(typed, counters) == meant
    together = typed.replace("-", "").replace(" ", "")  # typed together, read in the fewest words: the same item
    assert entry.resolve(together, counters) == meant


def test_an_abbreviation_read_in_fewer_words_names_no_item_an_entry_named_before_otherwise():
    """Of several items an abbreviation names, those it reads in the fewest words are meant ('athh1': ath, h1):
    only an entry refused as ambiguous before may now name an item; one that named an item names the same one."""
    counters = [f"{city}-{kind}{n}-{c}" for city in ("athens", "argos") for kind, top in (("h", 3), ("t", 4))
                for n in range(1, top + 1) for c in (1, 2)]
    assert entry.resolve("athh1", [c for c in counters if c.endswith("-1")]) == "athens-h1-1"
    with pytest.raises(entry.EntryError, match="'athh1' is ambiguous: it may be athens-h1-1, athens-h1-2;"):
        entry.resolve("athh1", counters)  # two counters of the kind: both read as ath, h1
    with pytest.raises(entry.EntryError, match="'ah1' is ambiguous: it may be argos-h1-1, athens-h1-1;"):
        entry.resolve("ah1", [c for c in counters if c.endswith("-1")])
    with pytest.raises(entry.EntryError, match="'gb2' is ambiguous"):  # both read in three words, as before
        entry.resolve("gb2", ["greece.bowman.2", "greece.bowman.20"])


def test_a_number_of_any_length_is_compared_without_int():
    """int() refuses a run of more than 4,300 digits: typed at a table, such a number was an internal error."""
    long = "9" * 5000
    assert entry.natural_key("c" + long) > entry.natural_key("c10") > entry.natural_key("c2")
    assert entry.natural_key("a0" + long) == entry.natural_key("a" + long)
    assert entry.matches(long, ["A01", "B02"]) == []


@pytest.mark.parametrize("typed", ["9" * 5000, "b-0" + "9" * 5000, "a" + "9" * 5000])
def test_a_table_entry_of_thousands_of_digits_is_refused_in_one_line(agon, typed):
    gid = agon("new", "toy", "--player", "ann", "--player", "bob", "--table").stdout.split()[0]
    r = agon("act", gid, typed, ok=False)
    assert r.exit_code == 1, (r.stderr, r.exception)
    assert len(r.stderr.strip().splitlines()) == 1 and r.stderr.startswith("error: "), r.stderr


def test_a_whole_number_id_that_is_gone_is_told_so_not_as_ambiguous():
    """'c2' typed for an Adamastor card drawn, when c2 lies in the discard pile and c20 to c29 are in the deck: it
    was refused as "ambiguous: it may be c20, c21, ...; type more of it", which reads as if c2 were among them."""
    left = ["c4", "c20", "c21", "c22", "c5"]
    with pytest.raises(entry.EntryError) as refused:
        entry.resolve("c2", left)
    assert str(refused.value) == "no item 'c2' here (c20, c21, c22 begin with it: type more of it for one of those)"
    with pytest.raises(entry.EntryError, match="'c' is ambiguous: it may be c4, c5, c20, c21, c22"):
        entry.resolve("c", left)
    assert entry.resolve("c22", left) == "c22"

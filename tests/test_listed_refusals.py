"""Words typed for a decision that stop at, or miss, a short list of whole decisions ('which decision') are refused
naming those decisions with the numbers `agon act` takes for them: the list's own 1 to 3 were shown alone, saying
nothing, and typed as told they recorded other decisions (a recruit instead of an attack)."""

from __future__ import annotations

import re

from agon.core import steps


def _game(agon):
    gid = agon("new", "pergamemnon", "--player", "Ana", "--player", "Dan", "--player", "Eve", "--seed", "2",
               "--json").stdout
    gid = re.search(r'"id": "(\w+)"', gid)[1]
    listed = agon("options", gid).stdout
    on_dan = re.findall(r"^ +(\d+)\. (Eve attacks Dan, .*)\.$", listed, re.M)
    assert len(on_dan) == 3 and int(on_dan[0][0]) > 3  # the short list's 1 to 3 are other decisions
    return gid, on_dan


def test_words_that_stop_at_a_short_list_name_its_decisions_by_their_option_numbers(agon):
    gid, on_dan = _game(agon)
    refused = agon("act", gid, "attacked dan", ok=False)
    named = "; ".join(f"{n}: {text}" for n, text in on_dan)
    assert refused.exit_code == 1
    assert refused.stderr.replace("\n", " ").startswith(
        f"error: the decision is not complete: next, which decision; possible: {named}; give its choice number")
    assert "Eve" in agon("log", gid).stdout and "attacks" not in agon("log", gid).stdout  # nothing recorded
    agon("act", gid, on_dan[0][0])  # the number named records that decision
    assert on_dan[0][1] in agon("log", gid, "--as", "Eve").stdout


def test_a_word_the_short_list_does_not_take_is_refused_naming_the_decisions_it_holds(agon):
    gid, on_dan = _game(agon)
    refused = agon("act", gid, "attacked dan sling", ok=False)
    told = refused.stderr.replace("\n", " ")
    assert "which decision: 'sling' is none of the answers; possible: " in told
    assert all(f"{n}: {text}" in told for n, text in on_dan)


def test_at_a_short_list_built_step_by_step_its_own_numbers_are_named_with_their_decisions():
    listed = steps.Question(steps.OPTION, "which decision", tuple(
        steps.Choice(str(i), f"decision {i}.") for i in range(1, 4)))
    try:
        steps.pick(listed, "x")
    except steps.Listed as e:
        assert str(e) == ("which decision: 'x' is none of the answers; possible: 1: decision 1; 2: decision 2;"
                          " 3: decision 3")
    else:
        raise AssertionError("refused")


def test_the_one_target_all_the_listed_decisions_share_may_be_typed_at_the_list(agon):
    """Two players: Ana can only attack Dan, so no step asks whom; 'attacked dan' was refused ("'dan' is none of
    the answers") where the words that name a value of the decisions listed are taken."""
    out = agon("new", "pergamemnon", "--player", "Ana", "--player", "Dan", "--seed", "2", "--json").stdout
    gid = re.search(r'"id": "(\w+)"', out)[1]
    listed = agon("options", gid).stdout
    on_dan = re.findall(r"^ +(\d+)\. (Ana attacks Dan, .*)\.$", listed, re.M)
    assert len(on_dan) > 1
    refused = agon("act", gid, "attacked dan", ok=False)
    assert refused.stderr.replace("\n", " ").startswith(
        "error: the decision is not complete: next, which decision; possible: "
        + "; ".join(f"{n}: {text}" for n, text in on_dan))
    card = re.search(r"lays the (\w+)", on_dan[-1][1])[1]
    agon("act", gid, f"attacked dan {card.lower()}")
    assert on_dan[-1][1] in agon("log", gid, "--as", "Ana").stdout


def test_the_one_target_typed_in_full_is_the_target_not_the_start_of_a_weapon(agon):
    """Ana can only attack Bo: 'attacked bo' recorded a bow attack with a card of agon's choosing ('bo' read as the
    start of 'bow', the step asked after the target). Bo's name in full is Bo: the weapon is then still asked."""
    out = agon("new", "pergamemnon", "--player", "Ana", "--player", "Bo", "--seed", "2", "--json").stdout
    gid = re.search(r'"id": "(\w+)"', out)[1]
    refused = agon("act", gid, "attacked bo", ok=False)
    assert "the decision is not complete: next, which decision; possible: " in refused.stderr.replace("\n", " ")
    assert "attacks" not in agon("log", gid, "--as", "Ana").stdout  # nothing recorded
    agon("act", gid, "attacked bo bow")
    assert "Ana attacks Bo, declaring a bow" in agon("log", gid, "--as", "Ana").stdout


def test_words_past_a_whole_decision_are_refused_saying_what_the_words_before_read_as(agon):
    """'sail c2' while the fleet sails on: 'sail' is already the whole decision to end the sail; the refusal said
    only "the decision is complete before 'c2'", which left the person wondering what 'sail' was taken for."""
    out = agon("new", "adamastor", "--player", "Ana", "--seed", "3", "--table", "--json").stdout
    gid = re.search(r'"id": "(\w+)"', out)[1]
    for typed in ("r3", "0b", "c32 c19 c9 c1 c2 c3", "16"):  # the fleet on 0b, a sail of 5 points begun
        agon("act", gid, typed)
    refused = agon("act", gid, "sail c2", ok=False)
    assert refused.stderr.replace("\n", " ").startswith(
        "error: the decision is complete before 'c2' (the words before it read as: Ana ends the sail at 0b); leave it"
        " out")


def test_cards_discarded_together_are_typed_apart_in_any_order(agon):
    """Discarding down to 3 cards at sunset: the answer is two cards, shown joined ('c17+c39'); 'c39 c17' was refused
    ("'c39' is ambiguous: it may be c39+c5, ...; type more of it"), and nothing said to join them with '+'."""
    out = agon("new", "adamastor", "--player", "Ana", "--seed", "11", "--json").stdout
    gid = re.search(r'"id": "(\w+)"', out)[1]
    for typed in ("1", "1", "1", "3"):  # the fleet placed, the draw action twice, no skill learned
        agon("act", gid, typed)
    listed = agon("options", gid).stdout
    assert "Ana to act: discard down to 3 cards" in listed
    first = re.search(r"^ +1\. (Ana discards \S+ \((\d+)\) and \S+ \((\d+)\) to keep 3 cards)\.$", listed, re.M)
    assert first is not None, listed
    one_card = agon("act", gid, f"c{first[3]}", ok=False).stderr.replace("\n", " ")
    assert f"'c{first[3]}' is one item of several answers (" in one_card
    assert "type every item of the one meant, apart" in one_card
    agon("act", gid, f"c{first[3]} c{first[2]}")  # the second card first
    assert first[1] in agon("log", gid).stdout

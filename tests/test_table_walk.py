"""Slips met recording real games at a table with ``agon act`` and ``agon play`` (a QA walk as four people typing
fast): each test is one place where what a person typed, as the options say it, was refused or read otherwise."""

from __future__ import annotations

import pytest

# A three-player Pergamemnon table game typed as a table types it, up to Chloé's discard after losing a battle:
# her hand holds the Horseman and the Spearman (one of two copies each).
PERGAMEMNON_TO_DISCARD = (
    "greece egypt rome", "hydra medusa pegasus sphinx cyclops talos", "agamemnon gb1 gc1",
    "mummy1 nefertiti camel", "caesar horseman1 spearman1", "recruit pegasus", "chimera",
    "mummy2 swordsman1 guard", "attack ana sword", "agamemnon", "bowman", "3", "2",
)


@pytest.fixture
def discard(agon):
    gid = agon("new", "pergamemnon", "-p", "Ana", "-p", "Bruno", "-p", "Chloé", "--table", "--seed", "11"
               ).output.split()[0]
    for typed in PERGAMEMNON_TO_DISCARD:
        agon("act", gid, typed)
    assert "Chloé to act: discard hand cards, or keep them" in agon("options", gid).output
    return gid


@pytest.mark.parametrize(("typed", "told"), [
    ("hor", "Chloé discards Horseman."), ("horseman", "Chloé discards Horseman."),
    ("spe", "Chloé discards Spearman."), ("hor spe", "Chloé discards Horseman, Spearman."),
])
def test_one_card_of_a_discard_typed_by_its_name_is_that_card_alone(agon, discard, typed, told):
    """'hor' at Pergamemnon's discard was refused: "'hor' is ambiguous: it may be rome.horseman,
    rome.horseman+rome.spearman; type more of it", though the cards of a discard are typed apart (README), and
    'hor spe' discards both: a card named alone is that card alone, as 'sail lín' is at Adamastor."""
    out = agon("act", discard, typed, ok=False)
    assert out.exit_code == 0, out.output + out.stderr
    assert told in out.output


@pytest.mark.parametrize(("typed", "told"), [
    ("discard hor", "Chloé discards Horseman."), ("dis spe hor", "Chloé discards Horseman, Spearman."),
    ("hand-discarded none", "Chloé keeps the hand."), ("1", "Chloé keeps the hand."),
])
def test_the_one_kind_legal_may_be_typed_first_as_its_options_say_it(agon, discard, typed, told):
    """'discard hor', as the options say it ('Chloé discards Horseman'), was refused: "'discard' is none of the
    answers", because a discard was the one kind of decision legal, so its word was not offered; where several
    kinds are legal the kind's word is typed so ('attack ana sword', 'recruit pegasus'). A number is still the
    option's."""
    out = agon("act", discard, typed, ok=False)
    assert out.exit_code == 0, out.output + out.stderr
    assert told in out.output


def test_a_defence_typed_with_its_kind_word(agon):
    gid = agon("new", "pergamemnon", "-p", "Ana", "-p", "Bruno", "-p", "Chloé", "--table", "--seed", "11"
               ).output.split()[0]
    for typed in PERGAMEMNON_TO_DISCARD[:9]:
        agon("act", gid, typed)
    assert "Ana lays the Agamemnon" in agon("act", gid, "defend aga").output


# A four-player Perikles table game typed as a table types it, to Bruno's first influence tile: a Sparta assassin
# is on display, and Athens is the one city with a candidate (A, Bruno), so 'spaa' alone settles the whole decision.
PERIKLES_TO_ASSASSIN = (
    "perikles alkibiades slave-revolt brasidas", "ath", "spa", "arg", "cor", "the", "meg", "ath", "spa",
    "pyl mel amp sic del nau pla", "any ath2 athc mc spa2 spaa arg2 corc thc the2", "athc bru ath a", "arg2",
)


@pytest.fixture
def assassin(agon):
    gid = agon("new", "perikles", "-p", "Ana", "-p", "Bruno", "-p", "Chloe", "-p", "Dario", "--table", "--seed",
               "12").output.split()[0]
    for typed in PERIKLES_TO_ASSASSIN:
        agon("act", gid, typed)
    assert "Bruno to act: take an influence tile" in agon("options", gid).output
    return gid


@pytest.mark.parametrize("typed", ["spaa", "spaa ath", "spaa ath bru", "spaa bruno", "spaa ath a"])
def test_the_candidate_of_the_one_city_an_assassin_may_strike_may_be_typed_by_name(agon, assassin, typed):
    """'spaa ath bru' was refused ("the decision is complete before 'bru'") though 'meg-ass ath bru' is read where
    the city is typed (README: a step filled in by itself may still be named): the candidate's names hung on the
    city chosen by a step, and here the city was filled in too."""
    out = agon("act", assassin, typed, ok=False)
    assert out.exit_code == 0, out.output + out.stderr
    assert "assassinating Bruno, candidate A in Athens" in out.output


def test_a_player_who_stands_nowhere_there_is_refused_naming_the_rule(agon, assassin):
    out = agon("act", assassin, "spaa ath ana", ok=False)
    assert out.exit_code == 1
    assert "Ana is no candidate in Athens (A Bruno, B free)" in out.stderr


def test_a_draw_of_copies_alike_typed_by_their_kind_says_they_are_alike(agon):
    """The draw's prompt says copies alike may be typed as any of them, and 'gb' was refused as if they differed:
    "'gb' is ambiguous: it may be greece.bowman.1, greece.bowman.2; type more of it". It says what to type."""
    gid = agon("new", "pergamemnon", "-p", "Ana", "-p", "Bruno", "-p", "Chloé", "--table", "--seed", "11"
               ).output.split()[0]
    for typed in PERGAMEMNON_TO_DISCARD[:2]:
        agon("act", gid, typed)
    out = agon("act", gid, "aga gb gc1", ok=False)
    assert out.exit_code == 1
    assert ("'gb' names 2 copies alike (greece.bowman.1, greece.bowman.2): type one of them with its number (gb1,"
            " gb2); which one changes nothing in the game") in " ".join(out.stderr.split())
    assert "Ana draws 3 cards" in agon("act", gid, "aga gb2 gc1").output


@pytest.mark.parametrize(("typed", "command"), [("u", "undo"), ("undo", "undo"), ("r", "redo")])
def test_plays_undo_typed_to_agon_act_says_which_command_does_it(agon, discard, typed, command):
    """'agon act GAME u', as 'u' is typed at play's prompt, was refused as an entry alone ("'u' is none of the
    answers; possible: none, ..."), naming nothing about taking back the last entry."""
    out = agon("act", discard, typed, ok=False)
    assert out.exit_code == 1
    told = " ".join(out.stderr.split())
    assert told.startswith("error: which hand cards to discard")
    assert told.endswith(f"; to {command} instead: agon {command} {discard}")

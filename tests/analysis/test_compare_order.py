"""``agon compare`` on a draw from the seed and the same cards typed at a table: a table records a hand in natural
order and the seed keeps its own, so the two events differ, yet they are the same draw. The comparison says so,
instead of telling a teacher who typed the cards main drew that the luck fell differently."""

from __future__ import annotations

import json


def _typed_again(agon) -> str:
    """A Pergamemnon table game whose #3 (Ana's first hand) was drawn from the seed, out of natural order, and a
    branch ``typed`` from #2 where the same three cards are typed at the table."""
    game = json.loads(agon("new", "pergamemnon", "--table", "--player", "Ana", "--bot", "Bruno:greedy", "--bot",
                           "Chloe:random", "--seed", "5", "--json").stdout)["id"]
    for _ in range(3):  # the nations, the creatures, Ana's hand
        agon("act", game, "seed")
    drawn = json.loads(agon("log", game, "--full", "--json").stdout)[3]["event"]["cards"]
    assert drawn != sorted(drawn), "the seed drew the hand in natural order: the check could not fail"
    agon("branch", game, "typed", "--at", "2")
    agon("act", game, " ".join(reversed(drawn)), "--branch", "typed")
    typed = json.loads(agon("log", game, "-b", "typed", "--full", "--json").stdout)[3]["event"]["cards"]
    assert typed != drawn and sorted(typed) == sorted(drawn)
    return game


def test_the_same_hand_in_another_order_is_told_as_the_same_draw(agon):
    game = _typed_again(agon)
    first = json.loads(agon("compare", game, "main", "typed", "--json").stdout)["after_fork"][0]
    assert first["n"] == 3 and first["reordered"] and not first["same"] and not first["reads_alike"]
    out = agon("compare", game, "main", "typed").stdout
    assert set("the same luck, in another order".split()) <= set(out.split())  # the note beside the row (wrapped)
    assert "differs" not in out
    what_if = " ".join(out.split("What if:")[1].split())
    assert what_if.startswith("At #3 the same luck falls in another order, which the rules do not read:")


def test_a_player_who_may_not_see_the_hand_is_not_told_it_is_the_same(agon):
    game = _typed_again(agon)
    # nor that it differs: to Bruno the two lines read alike to their ends ("Ana draws 3 cards." on both)
    told = json.loads(agon("compare", game, "main", "typed", "--as", "Bruno", "--json").stdout)
    assert told["fork"] == 3 and told["fork_text"] == "Ana draws 3 cards." and told["after_fork"] == []
    # her own hand she is told whole, and it reads alike to her too (the cards named in the same order, her hand
    # shown alike): the order the rules do not read parts nothing she reads
    own = json.loads(agon("compare", game, "main", "typed", "--as", "Ana", "--json").stdout)
    assert own["fork"] == 3 and own["fork_text"].startswith("Ana draws ") and own["after_fork"] == []

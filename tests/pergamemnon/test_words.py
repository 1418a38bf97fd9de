"""What a player reads names cards in words: a unit, leader or creature by its name ("Elephant", "Hannibal",
"Sphinx"), a nation by its people and city ("the Carthaginians", "Carthage"); never by an id
(``carthage.elephant.1``, ``creature.sphinx``) or a nation's code (``carthage``). Ids stay where a person types
them: the events' JSON, the chance outcomes typed at a table and the 'id' column beside a card's name."""

from __future__ import annotations

import re

import pytest

from agon.events.pergamemnon import Attacked, CapturesPlaced, CreatureRecruited, DefenceCommitted, Reinforced
from tests.pergamemnon.helpers import created, refused, replace, rs, setup
from tests.words import named_by_id, texts

TABLE = rs.initial_state(created(3)).table
CARDS = sorted(TABLE.cards)
IDS = re.compile(
    rf"(?<![\w.])(?:{'|'.join(re.escape(c) for c in CARDS)})(?![\w.-])"  # a card
    rf"|\b(?:{'|'.join(TABLE.nations)})\b"  # a nation's code (its people and city are capitalised)
)


def wrong(s, player: str) -> list:
    """Decisions naming cards that the rules refuse here, so that their refusals name those cards."""
    some = CARDS[::9]
    other = next(p.name for p in s.players if p.name != player)
    return [
        *(CreatureRecruited(player=player, creature=c, hand_card=c) for c in some),
        *(Attacked(player=player, defender=other, weapon="sword", card=c) for c in some),
        *(DefenceCommitted(player=player, card=c) for c in some),
        *(Reinforced(player=player, card=c) for c in some),
        *(CapturesPlaced(player=player, under_city=(c,)) for c in some),
    ]


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_no_option_log_line_status_view_or_refusal_of_a_bot_game_names_a_card_by_id(players, seed):
    said = texts(rs, replace(created(players), seed=seed), "greedy", wrong, typed=frozenset({"id"}))
    assert named_by_id(said, IDS) == []
    assert re.search(r"recruits the [A-Z]", "\n".join(said))  # cards are named


def test_the_full_view_names_each_deck_card_beside_its_id_and_a_refusal_names_the_card_typed():
    s = setup(("rome", "carthage"), starter="Alice")
    deck = rs.view(s, None)["players"][0]["deck"]
    assert deck and all(set(row) == {"id", "name"} for row in deck)
    assert {row["name"] for row in deck} <= {c.name for c in TABLE.cards.values()}
    alice = s.players[0]
    foreign = next(c for c in CARDS if c not in alice.hand)
    attack = Attacked(player="Alice", defender="Bob", weapon="sword", card=foreign)
    assert refused(s, attack).endswith(f"that {TABLE.cards[foreign].name} is not in your hand")
    assert refused(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="nothing")).endswith(
        "'nothing' is not in your hand")

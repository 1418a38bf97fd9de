"""What a player reads names cards in words: a power card or a civilization by its name ("Lion Gate", "Mycenae"), a
catastrophe by its name ("Tempest") and a special building's function by what it does (rulebook, 'Edifícios
Especiais'); never by an id (``A04``, ``mycenae``) or a code (``tempest``, ``market``). Ids stay where a person
types them: the events' JSON, the chance outcomes typed at a table, the 'id' column beside a card's name, and the
id just before the name in an option (``A04 Lion Gate``), which a table may type."""

from __future__ import annotations

import re

import pytest

from agon.core.games.peloponnes import RULESET as RS
from agon.core.games.peloponnes.cards import CATASTROPHES, SPECIALS
from agon.events.base import GameCreated, PlayerSeat
from agon.events.peloponnes import BidMoved, BidPlaced, BuildingBuilt, Coins
from tests.words import named_by_id, texts


def created(players: int, seed: int) -> GameCreated:
    names = ("Alice", "Bob", "Carol", "Dimitrios", "Helena")[:players]
    return GameCreated(ruleset="peloponnes", ruleset_version=RS.version, players=tuple(PlayerSeat(p) for p in names),
                       seed=seed, cards=RS.default_cards())


CAT = RS.initial_state(created(3, 1)).cat
POWER = sorted(CAT.power)
IDS = re.compile(
    rf"\b(?:{'|'.join(POWER)})\b"  # a power card
    rf"|\b(?:{'|'.join(CAT.civs)})\b"  # a civilization (its name is capitalised)
    rf"|\b(?:{'|'.join(s for s in SPECIALS if s)})\b"  # a special function's code
    rf"|\b(?:{'|'.join(CATASTROPHES)})\b"  # a catastrophe's code
)


def wrong(s, player: str) -> list:
    """Decisions naming power cards that the rules refuse here, so that their refusals name those cards."""
    some = POWER[::7]
    return [
        *(BidPlaced(player=player, card=c, coins=Coins(wood=1)) for c in some),
        *(BidMoved(player=player, card=c) for c in some),
        *(BuildingBuilt(player=player, card=c) for c in some),
    ]


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3), (5, 4)])
def test_no_option_log_line_status_view_or_refusal_of_a_bot_game_names_a_card_by_id_or_code(players, seed):
    said = texts(RS, created(players, seed), "greedy", wrong, typed=frozenset({"id"}))
    beside = re.compile("|".join(re.escape(f"{c.id} {c.name}") for c in CAT.power.values()))
    assert any(beside.search(t) for t in said)  # the options: each card's id before its name
    assert named_by_id([beside.sub("", t) for t in said], IDS) == []  # never an id alone
    joined = "\n".join(said)
    assert "Lion Gate" in joined and "Tempest" in joined  # cards and catastrophes are named


def test_a_card_of_the_view_tells_its_catastrophe_and_its_special_function_in_words():
    s = RS.initial_state(created(3, 1))
    market = next(c for c in CAT.power.values() if c.special == "market")
    from agon.core.games.peloponnes.view import card_info

    info = card_info(s, market.id)
    assert info["id"] == market.id and info["name"] == "Market" and info["symbol"] == "Tempest"
    assert info["special"] == "a bid counts half a coin more against another bid (1 more with both Market and Agora)"

"""The log names a power card as the options do: by its id and name (``A11 Forest``), never by its name alone, so a
table reading the log types what it reads (``a11``) and a card named twice reads alike wherever it appears."""

from __future__ import annotations

import re

import pytest

from agon.core.autoplay import play_out
from agon.core.engine import PUBLIC, narrate_as, option_text
from agon.core.games.peloponnes import RULESET as RS
from agon.events.base import GameCreated, PlayerSeat
from agon.events.peloponnes import BidPlaced

CARDS = RS.default_cards()
NAMES = sorted(((c["id"], c["name"]) for c in CARDS["power"]), key=lambda c: -len(c[1]))


def created(players: int, seed: int) -> GameCreated:
    names = ("Ana", "Bruno", "Chloe", "Dario", "Eva")[:players]
    return GameCreated(ruleset="peloponnes", ruleset_version=RS.version,
                       players=tuple(PlayerSeat(p, "greedy") for p in names), seed=seed, cards=CARDS)


def bare_names(text: str) -> list[str]:
    """The power cards ``text`` names without their id (longest names first: 'Pine Forest' is not 'Forest')."""
    text = text.replace("Market/Agora", "")  # the special function, not a card ('counting 3.5 with Market/Agora')
    found = []
    for cid, name in NAMES:
        text = text.replace(f"{cid} {name}", "#")
        if re.search(rf"\b{re.escape(name)}\b", text):
            found.append(name)
            text = text.replace(name, "#")
    return found


@pytest.mark.parametrize("players, seed", [(2, 4), (3, 7), (5, 2)])
def test_every_log_line_names_a_power_card_by_its_id_and_name_as_the_options_do(players, seed):
    game = created(players, seed)
    events, _, _ = play_out(RS, game, validate=True)
    state = RS.initial_state(game)
    lines = []
    for ev in events[1:]:
        lines += [narrate_as(RS, state, ev, v) for v in (PUBLIC, None, *game.names)]
        state = RS.apply(state, ev)
    named = [line for line in lines if any(f"{cid} {name}" in line for cid, name in NAMES)]
    assert len(named) > 20  # reveals, bids, auction ends, buildings
    assert [(line, bare_names(line)) for line in lines if bare_names(line)] == []


def test_a_bid_reads_alike_in_the_log_and_in_the_options():
    game = created(2, 4)
    events, _, _ = play_out(RS, game, validate=True)
    state = RS.initial_state(game)
    bid = next(ev for ev in events if isinstance(ev, BidPlaced))
    for ev in events[1:events.index(bid)]:
        state = RS.apply(state, ev)
    name = f"{bid.card} {state.cat.name(bid.card)}"
    assert f"{bid.player} bids {bid.coins.total() + bid.luxury} on {name}" in option_text(RS, state, bid)
    assert f"{bid.player} bids {bid.coins.total() + bid.luxury} on {name}" in narrate_as(RS, state, bid, PUBLIC)

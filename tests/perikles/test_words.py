"""What a player reads names tiles and counters in words, as perikles-data-facts.md does: an influence tile by its
city and kind ("a Megara 2-cube tile", "an Any tile"), a counter by its city, kind and strength ("Corinth hoplite 2"),
a special tile by its title ("the Persian Fleet tile"); never by an id (``megara-2``, ``corinth-h2-2``,
``persian-fleet``). Ids stay where a person types them: the events' JSON, the steps' values and the 'counter'
column of the state's tables."""

from __future__ import annotations

import re

import pytest

from agon.core.engine import option_text
from agon.core.games.perikles.data import default_cards, parse
from agon.core.games.perikles.state import pidx
from agon.events.perikles import (
    AlkibiadesPlayed,
    BattleTilePlayed,
    DisplayRefilled,
    ForcesCommitted,
    InfluenceDisplayed,
    InfluenceTileTaken,
    PeriklesPlayed,
    Placement,
    PlaguePlayed,
    SlaveRevoltPlayed,
    SpecialTilesDealt,
)
from tests.perikles.helpers import RS, at_commit, created, refused
from tests.words import named_by_id, texts

DATA = parse(default_cards())
IDS = re.compile(
    r"\b[a-z]+-[ht]\d+-\d+\b"  # a counter
    rf"|\b(?:{'|'.join(DATA.cities)})-(?:2|candidate|assassin)\b"  # an influence tile
    r"|\bany(?=[,.;)]|$)"  # the 'any' tile in a list (the word 'any' is followed by what it qualifies)
    rf"|\b(?:{'|'.join(DATA.specials)})\b"  # a special tile (its title is capitalised)
)
TILES = sorted(set(DATA.deck))
LEADERS = {"athens": 0, "sparta": 1, "corinth": 2, "megara": 3}
SAMPLE = tuple(next(c.id for c in DATA.counters if c.city == city) for city in (*DATA.cities, "persia"))


def wrong(s, player: str) -> list:
    """Decisions the rules refuse here that name tiles and counters, so that their refusals name them."""
    p = pidx(s, player)
    held = s.hands[p][0] if s.hands and s.hands[p] else "any"
    where = s.locations[0] if s.locations else "Pylos"
    return [
        *(InfluenceTileTaken(player=player, tile=t, city="nowhere") for t in TILES),
        *(InfluenceTileTaken(player=player, tile=t, nominee=player) for t in s.display),
        *(ForcesCommitted(player=player, tile=t) for t in TILES),
        *(ForcesCommitted(player=player, tile=held, placements=(Placement(c, where, "attacker", "main"),))
          for c in SAMPLE),
        *(BattleTilePlayed(player=player, tile=t) for t in DATA.specials),
        PeriklesPlayed(player=player), PlaguePlayed(player=player, city="athens"),
        AlkibiadesPlayed(player=player, moves=()), SlaveRevoltPlayed(player=player, place="sparta"),
    ]


@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2), (5, 3)])
def test_no_option_log_line_status_view_or_refusal_of_a_bot_game_names_a_tile_or_counter_by_id(players, seed):
    said = texts(RS, created(players, seed), "greedy", wrong, typed=frozenset({"counter"}))
    assert named_by_id(said, IDS) == []
    joined = "\n".join(said)
    assert re.search(r"\b[A-Z][a-z]+ (?:hoplite|trireme) \d\b", joined)  # counters are named
    assert re.search(r"\b(?:a|an) [A-Z][a-z]+ (?:2-cube|candidate|assassin) tile\b", joined)  # and tiles


def test_tiles_counters_and_special_tiles_read_as_the_facts_name_them():
    s = at_commit(leaders=LEADERS)
    assert RS.narrate(s, DisplayRefilled(tile="megara-2")) == "The display is refilled with a Megara 2-cube tile."
    assert RS.narrate(s, InfluenceDisplayed(tiles=("any", "argos-candidate", "thebes-assassin"))) == (
        "The influence display shows the tiles Any, Argos candidate, Thebes assassin.")
    sent = ForcesCommitted(player="P1", tile="any", placements=(Placement("athens-t4-1", "Pylos", "attacker", "main"),))
    assert option_text(RS, s, sent) == "P1 spends an Any tile: Athens trireme 4 to Pylos as main attacker."
    dealt = SpecialTilesDealt(tiles=("persian-fleet", "slave-revolt", "phormio", "plague"))
    assert RS.narrate_as(s, dealt, "P1").endswith(": P1 gets the Persian Fleet tile.")
    home = RS.view(s, "P1")["players"]["P1"]["forces_at_home"][0]
    assert home["counter"] == "athens-h1-1" and home["name"] == "Athens hoplite 1"
    assert "holds no Megara assassin tile to spend" in refused(s, ForcesCommitted(player="P1", tile="megara-assassin"))
    assert "holds no 'nothing' influence tile" in refused(s, ForcesCommitted(player="P1", tile="nothing"))

"""Every decision's line in an Adamastor log begins with who decided, as the other rulesets' lines do ('Ana bids
2 on ...'): the fleet's moves read 'Ana: The fleet sails from 0b to 1b ...' (a capital after a name, as the log puts
a sentence that does not begin with its actor after 'NAME: ') and a co-op share of bonus cards 'Bo: The bonus cards
go ...'."""

from __future__ import annotations

import re

from msgspec.structs import replace

from agon.events.adamastor import LandCardKept
from tests.adamastor.test_coop_and_variants import RS, coop

AFTER_A_NAME = re.compile(r"^\s*\d+\. [^ ]+: ", re.MULTILINE)
"""A log line that puts its sentence after its actor's name: 'Ana: The fleet sails ...'."""


def test_a_solo_log_names_the_captain_first_when_the_fleet_sails(agon):
    gid = agon("new", "adamastor", "--bot", "Ana:greedy", "--seed", "3").stdout.split()[0]
    log = agon("log", gid).stdout
    assert re.search(r"^\s*\d+\. Ana sails the fleet from 0[a-c] to 1[a-c] for \d points? \(\d+ left\)", log, re.M)
    assert AFTER_A_NAME.findall(log) == []


def test_a_coop_log_names_who_sails_and_who_shares_the_bonus_cards_first(agon):
    """Seed 3: Bo sails first and discovers land, whose bonus draws 2 cards that Bo shares (rulebook 9.3)."""
    gid = agon("new", "adamastor", "--bot", "Ana:greedy", "--bot", "Bo:greedy", "--seed", "3").stdout.split()[0]
    log = agon("log", gid).stdout
    assert "    6. Bo sails the fleet from 0b to 1b for 4 points (0 left); land discovered at 1b (numeral 1).\n" in log
    assert "   10. Bo shares the bonus cards: Cozinheiro (6) to Bo, Frade (32) to Bo.\n" in log
    assert "   21. Ana sails the fleet from 1b to 2b for 3 points (6 left).\n" in log
    assert AFTER_A_NAME.findall(log) == []


def test_a_land_card_kept_for_the_partner_names_who_gave_it_first():
    """In the co-op the player who discovered the land chooses whose hand its card goes into (rulebook 9.3): kept for
    the partner, the line read 'P1 keeps ...' for a decision of P2's, which the log put as 'P2: P1 keeps ...'."""
    s = replace(coop(), phase="land_keep", drawn=("c20",), actor=1)
    card = s.card("c20")
    bonus = f"takes 0 of its {card.bonus} {card.bonus_kind} bonus."
    assert RS.narrate(s, LandCardKept(card="c20", player="P1", bonus=0)) == f"P2 gives Timoneiro (20) to P1 and {bonus}"
    assert RS.narrate(s, LandCardKept(card="c20", player="P2", bonus=0)) == f"P2 keeps Timoneiro (20) and {bonus}"

"""Setup, revealing power cards, catastrophe markers and the supply trigger (rulebook, 'Preparação',
'1. Revele Cartas de Poder', '2. Catástrofe / Suprimento')."""

from __future__ import annotations

import pytest

from agon.core.engine import Chance, Decision
from agon.core.games.peloponnes.cards import CATASTROPHES
from agon.events.peloponnes import CivilizationsDealt, CoinsDrawn, PowerCardsRevealed
from tests.peloponnes.helpers import card_set, created, dealt, play, refused, replace, reveal, rs


@pytest.mark.parametrize("n", [1, 6, 7])
def test_check_setup_refuses_1_or_6_plus_players_with_a_sentence(n):
    with pytest.raises(ValueError) as err:
        rs.check_setup([f"P{i}" for i in range(n)], {}, rs.default_cards())
    text = str(err.value)
    assert "2 to 5 players" in text and "\n" not in text
    assert ("single player" in text) if n == 1 else ("5 colours" in text)


def test_check_setup_accepts_2_to_5_and_refuses_a_malformed_card_set():
    for n in range(2, 6):
        rs.check_setup([f"P{i}" for i in range(n)], {}, rs.default_cards())
    bad = card_set()
    bad["power"][0]["era"] = "D"
    with pytest.raises(ValueError, match="era must be A, B or C"):
        rs.check_setup(["a", "b"], {}, bad)


def test_bundled_card_set_has_the_stated_counts():
    cards = rs.default_cards()
    assert len(cards["power"]) == 48
    assert sum(c["kind"] == "building" for c in cards["power"]) == 24
    assert len(cards["civilizations"]) == 10
    assert sum(cards["coins"].values()) == 72
    supply = [c["era"] for c in cards["power"] if c["supply"]]
    assert sorted(supply) == ["B", "C"]
    civs = {c["id"]: c for c in cards["civilizations"]}
    assert civs["argos"]["coins"] == 3 and civs["arcadia"]["coins"] == 7
    assert civs["arcadia"]["produce"][2] == 0 and civs["messene"]["produce"][2] > 0
    assert all(1 <= c["people"] <= 5 for c in cards["civilizations"])
    assert rs.provisional is True


def test_civilizations_are_dealt_by_chance_and_set_the_turn_order_by_their_arrows():
    s = rs.initial_state(created(3))
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.count == 3
    s = play(s, CivilizationsDealt(civilizations=("sparta", "argos", "corinth")))
    assert s.order == ("Bob", "Carol", "Alice")  # arrows 1 (Argos), 2 (Corinth), 3 (Sparta)
    # Coin cards are dealt in turn order, as many as each civilization says, from the coin deck (chance).
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.count == 3 and "Bob" in p.label
    assert all(seat.luxury == 0 for seat in s.seats)
    assert s.markers == (0,) * len(CATASTROPHES)


def test_a_coin_draw_that_the_deck_cannot_give_is_refused():
    s = play(rs.initial_state(created(3)), CivilizationsDealt(civilizations=("argos", "corinth", "sparta")))
    assert "3 coin cards are drawn" in refused(s, CoinsDrawn(player="Alice", coins=("wood",) * 2))
    assert "Alice" in refused(s, CoinsDrawn(player="Bob", coins=("wood",) * 3))
    assert "backs are wood, stone, grain, people, not gold" in refused(s, CoinsDrawn(player="Alice",
                                                                                    coins=("gold",) * 3))
    # more people than the deck holds: refused without telling which backs are left there (hidden from everyone)
    s = replace(s, deck=replace(s.deck, people=2))
    told = refused(s, CoinsDrawn(player="Alice", coins=("people",) * 3))
    assert "cannot give 3 people" in told and "wood" not in told and "2" not in told
    assert "different civilization" in refused(
        rs.initial_state(created(3)), CivilizationsDealt(civilizations=("argos", "argos", "sparta"))
    )


def test_dealt_hands_follow_the_civilizations():
    s = dealt(hands={"Alice": "wsg", "Bob": "pppp"})
    assert s.seat("Alice").hand.total() == 3 and s.seat("Alice").hand.grain == 1
    assert s.seat("Bob").hand.people == 4
    assert s.seat("Carol").hand.wood == 4
    assert s.deck.total() == 72 - 11
    assert s.round == 1 and s.phase == "reveal"


def test_power_deck_is_era_a_over_b_over_c():
    s = dealt()
    p = rs.pending(s)
    assert isinstance(p, Chance) and p.count == 6
    assert all(rs_card(s, c).era == "A" for c in p.items)
    assert "A over B over C" in refused(s, PowerCardsRevealed(cards=("B01", "A01", "A02", "A03", "A04", "A05")))
    # With era A used up, the next cards are B.
    from tests.peloponnes.helpers import replace

    s = replace(s, power_left=("A01",) + s.cat.era_cards("B"), revealed=())
    p = rs.pending(s)
    assert p.items == ("A01",) and p.count == 1
    s = reveal(s, "A01")
    p = rs.pending(s)
    assert p.count == 5 and all(rs_card(s, c).era == "B" for c in p.items)


def rs_card(s, cid):
    return s.cat.power[cid]


def test_reveal_puts_as_many_cards_as_players_in_the_middle_and_the_rest_in_the_conquest_row():
    s = reveal(dealt(), "A01", "A02", "A03", "A04", "A05", "A06")
    assert s.row == ("A01", "A02", "A03")
    assert s.conquest == ("A04", "A05", "A06")
    assert s.phase == "auction"
    assert isinstance(rs.pending(s), Decision) and rs.pending(s).player == "Alice"


def test_only_the_first_two_cards_advance_catastrophe_markers():
    # A01 drought, A02 earthquake, A03 tempest (third: no effect).
    s = reveal(dealt(), "A01", "A02", "A03", "A04", "A05", "A06")
    marks = dict(zip(CATASTROPHES, s.markers, strict=True))
    assert marks == {"plague": 0, "earthquake": 1, "tempest": 0, "drought": 1, "decline": 0}


def test_a_marker_reaching_the_last_space_strikes_at_once_and_only_once():
    from tests.peloponnes.helpers import replace, seat, slots

    s = seat(dealt(), "Bob", lands=slots("T_FIELD"))  # a land producing grain: the drought hits it
    steps = s.cat.catastrophe_steps
    s = replace(s, markers=(0, 0, 0, steps - 1, 0))
    s = reveal(s, "A01", "A09", "A03", "A04", "A05", "A06")  # two drought symbols
    assert s.struck == ("drought",)
    assert s.markers[3] == steps  # the second symbol leaves the marker where it is
    assert s.phase == "catastrophe"
    p = rs.pending(s)
    assert p.player == "Bob" and p.prompt.startswith("face the Drought")


def test_a_supply_symbol_triggers_a_supply_phase_before_the_auction():
    from tests.peloponnes.helpers import replace

    s = dealt()
    s = replace(s, power_left=s.cat.era_cards("B"))
    s = reveal(s, "B09", "B10", "B11", "B12", "B13", "B14")  # B09 Plain shows the supply symbol
    assert s.supply_due
    assert s.phase == "supply"
    p = rs.pending(s)
    assert isinstance(p, Decision) and "feed" in p.prompt


def test_an_empty_coin_deck_is_refilled_from_the_discard_pile_mid_draw():
    from agon.events.peloponnes import Coins, Passed
    from tests.peloponnes.helpers import AUCTION_ROW, replace, seat

    s = dealt()
    s = replace(s, power_left=AUCTION_ROW + s.cat.era_cards("B"), deck=Coins(grain=2), discard=Coins(people=5))
    s = seat(s, "Alice", hand=Coins())
    s = reveal(s, *AUCTION_ROW)
    s = play(s, Passed(player="Alice"))
    p = rs.pending(s)
    assert p.count == 2 and set(p.items) == {"grain"}  # what is left in the deck first
    s = play(s, CoinsDrawn(player="Alice", coins=("grain", "grain")))
    p = rs.pending(s)
    assert p.count == 1 and set(p.items) == {"people"}  # then the reshuffled discard pile
    s = play(s, CoinsDrawn(player="Alice", coins=("people",)))
    assert s.seat("Alice").hand == Coins(grain=2, people=1)
    assert s.deck == Coins(people=4) and s.discard == Coins()

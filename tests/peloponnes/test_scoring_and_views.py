"""Scoring, the end of the game, views, narration and projections (rulebook, 'Final do Jogo', 'Pontuação')."""

from __future__ import annotations

import msgspec

from agon.core.autoplay import play_out
from agon.core.engine import Chance, Decision, Over, Step
from agon.core.games.peloponnes import flow, scoring
from agon.events.base import GameCreated, PlayerSeat
from agon.events.peloponnes import BidMoved, BidPlaced, BidWithdrawn, PopulationFed
from tests.peloponnes.helpers import (
    auction_round,
    bare,
    coins,
    created,
    dealt,
    play,
    replace,
    rs,
    slots,
)


def scoring_example_state():
    from agon.core.games.peloponnes.rules import initial_state
    from agon.events.peloponnes import CivilizationsDealt

    s = initial_state(created(2, names=("Dimitrios", "Helena")))
    s = play(s, CivilizationsDealt(civilizations=("plain", "helena")))
    s = replace(s, draws=())
    s = bare(s, "Dimitrios", "plain", buildings=slots("T_B4", "T_B4", "T_B3", "T_B2", "T_B1"), hand=coins(people=8))
    s = bare(s, "Helena", "helena", buildings=slots("T_B4", "T_B4", "T_B4"), hand=coins(people=8))
    return s


def test_scoring_example_dimitrios_10_helena_12_helena_wins():
    # "Dimitrios tem 10 pontos de população e 15 pontos de poder para uma pontuação final de 10. Helena tem 17
    # pontos de população e 12 pontos de poder, portanto, seu placar final é 12. Helena é a vencedora!"
    s = scoring_example_state()
    assert scoring.ranking_key(s, "Dimitrios")[:2] == (10, 15)
    assert scoring.ranking_key(s, "Helena")[:2] == (12, 17)
    assert scoring.exact_scores(s) == {"Dimitrios": 10.0, "Helena": 12.0}
    # before the end the 8 people coin cards in each hand are private: the running score counts them as coins
    assert rs.scores(s) == {"Dimitrios": 2.0, "Helena": 9.0}
    out = scoring.outcome(s)
    assert out.winners == ("Helena",)
    assert "Helena wins with 12" in out.summary


def test_six_coin_cards_or_luxury_goods_make_a_power_point_and_people_coins_count_as_population():
    s = bare(dealt(), "Alice", "plain", hand=coins(wood=3, stone=2, people=2), luxury=1)
    key = scoring.ranking_key(s, "Alice")
    # population 1 + 2 people cards; power 1 (civ) + (5 coin cards + 1 luxury) // 6 = 2.
    assert key == (2, 3, 1)


def test_ties_go_to_the_higher_other_total_then_to_luxury_goods():
    s = scoring_example_state()
    s = bare(s, "Dimitrios", "plain", buildings=slots("T_B4", "T_B4", "T_B3"), hand=coins(people=11))
    # Dimitrios: population 12, power 12; Helena: 12 and 17: Helena wins on the other total.
    assert scoring.outcome(s).winners == ("Helena",)
    s = bare(s, "Dimitrios", "helena", buildings=slots("T_B4", "T_B4", "T_B4"), hand=coins(people=8), luxury=2)
    assert scoring.outcome(s).winners == ("Dimitrios",)


def test_after_round_8_final_income_final_supply_recovery_then_scoring():
    s = bare(bare(bare(dealt(), "Bob"), "Carol"), "Alice", "plain", lands=slots("T_VILLAGE"))
    s = replace(s, round=8, phase="build", todo=())
    s = flow.advance(s)
    assert isinstance(rs.pending(s), Chance)  # the last income
    while isinstance(rs.pending(s), Chance):
        p = rs.pending(s)
        s = play(s, p.build(tuple(("wood",) * p.count)))
    assert s.phase == "final_supply"
    p = rs.pending(s)
    assert isinstance(p, Decision) and p.player == "Alice" and "feed" in p.prompt
    s = play(s, PopulationFed(player="Alice", removed=("T_VILLAGE",)))
    assert isinstance(rs.pending(s), Over)
    assert s.round == 8


def test_a_seeded_greedy_game_plays_8_rounds_and_uses_the_whole_power_deck():
    for n in (2, 3, 4, 5):
        game = GameCreated(
            ruleset="peloponnes",
            ruleset_version=rs.version,
            players=tuple(PlayerSeat(f"P{i}", "greedy") for i in range(n)),
            seed=7,
            cards=rs.default_cards(),
        )
        events, _, final = play_out(rs, game)
        assert final.round == 8 and final.phase == "over"
        assert final.power_left == ()
        assert max(rs.scores(final).values()) >= 3


def test_views_hide_other_hands_and_bid_coins_but_show_counts():
    s = play(auction_round(), BidPlaced(player="Alice", card="T_V2A", coins=coins(wood=2)))
    bob_view = rs.view(s, "Bob")
    assert "hand" not in bob_view["players"]["Alice"]
    assert bob_view["players"]["Alice"]["hand_count"] == 4
    assert bob_view["players"]["Bob"]["hand"]["wood"] == 6
    bid = bob_view["auction_row"][0]["bid"]
    assert bid["coin_cards"] == 2 and "coins" not in bid
    assert rs.view(s, "Alice")["auction_row"][0]["bid"]["coins"]["wood"] == 2
    everything = rs.view(s, None)
    assert all("hand" in p for p in everything["players"].values())
    msgspec.json.encode(everything)


def _steps(state, *events):
    out = []
    for i, e in enumerate(events, start=1):
        after = play(state, e)
        out.append(Step(i, e, state, after, getattr(e, "player", "")))
        state = after
    return out


def chain():
    s = auction_round()
    return s, _steps(
        s,
        BidPlaced(player="Alice", card="T_V2A", coins=coins(wood=2)),
        BidPlaced(player="Bob", card="T_V2B", coins=coins(wood=3)),
        BidPlaced(player="Carol", card="T_V2B", coins=coins(wood=4)),
        BidMoved(player="Bob", card="T_V2A"),
        BidWithdrawn(player="Alice"),
    )


def test_auctions_projection_shows_who_outbid_whom_and_where_displaced_bids_went():
    _, line = chain()
    rows = rs.projections["auctions"](line)
    actions = [(r["action"], r["player"], r["card"], r["outbid"], r["from_card"]) for r in rows]
    assert actions == [
        ("bid", "Alice", "T_V2A", None, None),
        ("bid", "Bob", "T_V2B", None, None),
        ("bid", "Carol", "T_V2B", "Bob", None),
        ("move", "Bob", "T_V2A", "Alice", "T_V2B"),
        ("withdraw", "Alice", None, None, "T_V2A"),
    ]
    assert {r["chain"] for r in rows[2:]} == {1}
    msgspec.json.encode(rows)


def test_turn_order_projection_gives_each_rounds_order_and_bids():
    s, line = chain()
    last = line[-1].after
    p = rs.pending(last)
    line += _steps(last, p.build(("wood",) * p.count))
    rows = rs.projections["turn_order"](line)
    assert [(r["player"], r["position"], r["bid"], r["next_position"]) for r in rows] == [
        ("Alice", 1, 0, 3),
        ("Bob", 2, 3, 2),
        ("Carol", 3, 4, 1),
    ]


def test_narration_names_the_chain_and_the_new_turn_order():
    s, line = chain()
    texts = [rs.narrate(st.before, st.event) for st in line]
    assert texts[2] == "Carol bids 4 on Field B, outbidding Bob's 3, who must move that bid or take it back."
    assert texts[3] == "Bob moves the outbid 3 from Field B to Field A, displacing Alice's 2."
    last = line[-1].after
    p = rs.pending(last)
    text = rs.narrate(last, p.build(("wood",) * p.count))
    assert "new turn order by bids (Carol 4, Bob 3, Alice 0): Carol, Bob, Alice" in text


def test_game_created_is_narrated():
    game = created(3)
    assert "Alice, Bob, Carol" in rs.narrate(rs.initial_state(game), game)


def test_an_auction_end_with_no_income_draw_after_it_stays_in_the_log_and_the_projections():
    # Only lands are won, nobody passes, the income table gives no coin card and no power card is left: the last
    # bid ends the auction, and the next round begins (and its empty auction opens) in the same step.
    s = auction_round()
    s = replace(s, power_left=(), cat=replace(s.cat, income=((0, 0),)))
    line = _steps(
        s,
        BidPlaced(player="Alice", card="T_V2A", coins=coins(wood=2)),
        BidPlaced(player="Bob", card="T_V2B", coins=coins(wood=3)),
        BidPlaced(player="Carol", card="T_C1", coins=coins(wood=4)),
    )
    last = line[-1]
    assert last.after.round == 2 and last.after.bids == ()
    text = rs.narrate(last.before, last.event)
    assert "the auction ends (Alice wins Field A, Bob wins Field B, Carol wins Hill)" in text
    assert "nobody wins" not in text and "round 2 begins" in text
    won = [(r["player"], r["card"], r["round"]) for r in rs.projections["auctions"](line) if r["action"] == "won"]
    assert won == [("Alice", "T_V2A", 1), ("Bob", "T_V2B", 1), ("Carol", "T_C1", 1)]
    rows = rs.projections["turn_order"](line)
    assert [(r["round"], r["player"], r["bid"], r["next_position"]) for r in rows] == [
        (1, "Alice", 2, 3),
        (1, "Bob", 3, 2),
        (1, "Carol", 4, 1),
    ]

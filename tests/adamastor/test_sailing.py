"""Sailing (rulebook 5.2 C 'Navegar'): costs by space type and current (Imagem 4), edges of the map cards, land
discovery and its bonuses, the weather's surcharge, winning at the final destination (rulebook 6)."""

from __future__ import annotations

from msgspec.structs import replace

from agon.core.engine import Chance, Over
from agon.core.games.adamastor.board import build_board, step_cost
from agon.core.games.adamastor.data import compile_cards
from agon.core.games.adamastor.state import State
from agon.events.adamastor import (
    BonusCardsDrawn,
    FleetMoved,
    LandCardKept,
    LandCardsDrawn,
    MapCardRevealed,
    SailEnded,
    SailStarted,
)
from tests.adamastor.support import RS, act, example_cards, find, label, on_example_map, pull, refused, started


def _sailing(s: State, points: int) -> State:
    """Give P1 a hand worth ``points`` navigation points and start sailing with all of it."""
    cards = []
    for c in find(s, lambda c: True, exclude=(*s.strip,)):
        if sum(s.card(x).navigation for x in cards) + s.card(c).navigation <= points:
            cards.append(c)
        if sum(s.card(x).navigation for x in cards) == points:
            break
    assert sum(s.card(x).navigation for x in cards) == points
    s = replace(s, hands=(tuple(cards),), deck=tuple(c for c in s.deck if c not in cards))
    return act(s, SailStarted(cards=tuple(cards)))


def _example(at: str = "A") -> State:
    return replace(on_example_map(started(cards=example_cards()), at), extra_cost=0)


def test_sailing_cost_example_imagem_4():
    s = _example()
    b = s.board

    def cost(*path: str) -> int:
        ids = [label(b, p) for p in path]
        return sum(step_cost(s.cards, b, x, y) for x, y in zip(ids, ids[1:], strict=False))

    assert cost("A", "B") == 3
    assert cost("A", "C") == 1  # entering C with its current
    assert cost("A", "C", "E") == 2  # carried by C's current
    assert cost("E", "D") == 3
    assert cost("D", "G") == 3
    assert cost("D", "E") == 2  # E's black cloud does not change its cost: an empty space
    assert cost("D", "F") == 4  # against F's current
    assert cost("A", "C", "D") == 4
    assert cost("A", "C", "F", "E") == 4


def test_sailing_cost_example_with_4_points_reaches_d_or_e_through_c_and_f():
    s = _example()
    b = s.board
    s1 = _sailing(s, 4)
    assert RS.narrate(s1, FleetMoved(to=label(b, "C"))) == "P1 sails the fleet from 0b to 1b for 1 point (3 left)."
    s1 = act(s1, FleetMoved(to=label(b, "C")))
    s1 = act(s1, FleetMoved(to=label(b, "D")))
    assert s1.sail_points == 0 and s1.fleet == label(b, "D")
    s2 = _sailing(s, 4)
    for p in ("C", "F", "E"):
        s2 = act(s2, FleetMoved(to=label(b, p)))
    assert s2.sail_points == 0 and s2.fleet == label(b, "E")
    assert s2.discard[-len(s.hands[0]) :] or s2.discard


def test_sailing_further_than_the_discarded_points_pay_for_is_refused():
    s = _example()
    b = s.board
    s = _sailing(s, 2)
    reason = refused(s, FleetMoved(to=label(b, "B")))
    assert "costs 3 navigation points, only 2 are left" in reason
    assert "Navegar" in reason
    assert FleetMoved(to=label(b, "B")) not in RS.legal(s)
    assert "not a sea space next to" in refused(s, FleetMoved(to=label(b, "G")))


def test_sail_discards_the_cards_and_adds_their_navigation_points():
    s = started(hand=("c1", "c2", "c3"))
    total = sum(s.card(c).navigation for c in ("c1", "c3"))
    s2 = act(s, SailStarted(cards=("c1", "c3")))
    assert s2.sail_points == total and s2.hands == (("c2",),) and s2.discard == ("c1", "c3")
    assert s2.cubes == s.cubes - 1
    assert "each once" in refused(s, SailStarted(cards=("c1", "c1")))
    assert "P1's hand" in refused(s, SailStarted(cards=("c9",)))


def test_a_hand_of_more_than_6_cards_lists_every_sail():
    hand = tuple(f"c{i}" for i in range(1, 8))
    s = started()
    s = replace(pull(s, *hand[3:]), hands=(hand,))  # four more cards drawn into the hand
    sails = {e.cards for e in RS.legal(s) if isinstance(e, SailStarted)}
    assert len(sails) == 2**7 - 1  # every non-empty set of the 7 cards
    assert ("c1", "c2", "c3", "c4") in sails and hand[1:] in sails


def test_bad_weather_makes_every_space_cost_one_more():
    s = replace(_example(), extra_cost=1)
    s = _sailing(s, 2)
    assert "costs 2 navigation points" not in refused(s, FleetMoved(to=label(s.board, "B")))
    s = act(s, FleetMoved(to=label(s.board, "C")))
    assert s.sail_points == 0


def test_land_discovery_example_d_draws_three_g_draws_one():
    s = _sailing(_example("C"), 4)
    s = act(s, FleetMoved(to=label(s.board, "D")))
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 3
    drawn = p.items[:3]
    s = act(s, LandCardsDrawn(cards=drawn))
    keep = drawn[1]
    bonus = s.card(keep).bonus
    s = act(s, LandCardKept(card=keep, player="P1", bonus=0))
    assert keep in s.hands[0] and s.bottom[-2:] == (drawn[0], drawn[2])
    assert s.phase == "sail" and bonus >= 1
    s = act(s, SailEnded())
    s = replace(s, phase="sail", sail_points=3)
    s = act(s, FleetMoved(to=label(s.board, "G")))
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 1


def test_land_bonus_kinds_morale_navigation_action_and_cards():
    base = _sailing(_example("C"), 4)
    base = act(base, FleetMoved(to=label(base.board, "D")))
    base = replace(base, discard=("c30", "c31", "c32"))
    for kind in ("morale", "navigation", "action", "cards"):
        pool = [c for c in find(base, lambda c, k=kind: c.bonus_kind == k) if c in base.deck]
        card = max(pool, key=lambda c: base.card(c).bonus)
        n = base.card(card).bonus
        others = [c for c in base.deck if c != card][:2]
        s = act(base, LandCardsDrawn(cards=(card, *others)))
        after = act(s, LandCardKept(card=card, player="P1", bonus=n))
        if kind == "morale":
            assert after.morale == s.morale + 2 + n  # the two others under the deck, n from the discard pile
            assert after.discard == ("c30", "c31", "c32")[: 3 - n]
        elif kind == "navigation":
            assert after.sail_points == s.sail_points + n
        elif kind == "action":
            assert after.cubes == s.cubes + n
        else:
            p = RS.pending(after)
            assert isinstance(p, Chance) and p.count == n
            got = act(after, BonusCardsDrawn(cards=p.items[:n]))
            assert set(p.items[:n]) <= set(got.hands[0]) and got.phase == "sail"
        assert f"take 0 to {n}" in refused(s, LandCardKept(card=card, player="P1", bonus=n + 1))


def test_part_of_a_land_bonus_may_be_taken_and_every_amount_is_offered():
    # "Podes sempre decidir não ganhar o bónus (ou parte dele)" (5.2 C, 'Bónus descoberta terra').
    base = _sailing(_example("C"), 4)
    base = act(base, FleetMoved(to=label(base.board, "D")))
    card = max((c for c in base.deck if base.card(c).bonus_kind == "cards"), key=lambda c: base.card(c).bonus)
    n = base.card(card).bonus
    assert n >= 2  # so that a part lies between none and all
    s = act(base, LandCardsDrawn(cards=(card, *[c for c in base.deck if c != card][:2])))
    offered = sorted(e.bonus for e in RS.legal(s) if isinstance(e, LandCardKept) and e.card == card)
    assert offered == list(range(n + 1))
    after = act(s, LandCardKept(card=card, player="P1", bonus=n - 1))
    p = RS.pending(after)
    assert isinstance(p, Chance) and p.count == n - 1


def test_an_island_is_discovered_once():
    s = _sailing(_example("C"), 4)
    s = act(s, FleetMoved(to=label(s.board, "D")))
    s = act(s, LandCardsDrawn(cards=s.deck[:3]))
    s = act(s, LandCardKept(card=s.drawn[0], player="P1", bonus=0))
    s = replace(s, sail_points=10)
    s = act(s, FleetMoved(to=label(s.board, "E")))
    s = act(s, FleetMoved(to=label(s.board, "D")))
    assert s.phase == "sail"


def test_reaching_a_right_edge_half_space_reveals_the_next_map_card():
    s = replace(started(first_map="R1"), fleet="3c", extra_cost=0)
    s = _sailing(s, 4)
    s = act(s, FleetMoved(to="4c"))
    p = RS.pending(s)
    assert isinstance(p, Chance) and "R1" not in p.items and set(p.items) <= {f"R{i}" for i in range(2, 8)}
    assert "face-down" in refused(s, MapCardRevealed(position=1, card="F1"))
    s = act(s, MapCardRevealed(position=1, card="R2"))
    assert s.maps[:2] == ("R1", "R2") and s.phase == "sail"
    # The two half spaces are one space: it now links into R2's spaces.
    assert any(n.startswith("5") for n in s.board["4c"].links)
    assert s.sail_points == 2  # points left after the edge can still be spent


def test_reaching_the_final_destination_wins_imagem_7():
    s = started(options={"difficulty": "easy"})
    maps = ("R1", "R2", "F1")
    s = replace(s, maps=maps, board=build_board(s.cards, maps), fleet="10b", extra_cost=0)
    assert s.board["11b"].destination
    s = _sailing(s, 2)
    s = act(s, FleetMoved(to="11b"))
    assert s.result == "won"
    over = RS.pending(s)
    assert isinstance(over, Over) and over.outcome.winners == ("P1",)
    assert RS.scores(s) == {"P1": 100.0}


def test_merged_half_spaces_share_one_column():
    cards = started().cards
    board = build_board(cards, ("R1", "R2", ""))
    assert board.offsets == (0, 4, 8)
    edge = [sp for sp in board.spaces if sp.col == 8]
    assert edge and all(sp.edge_of == 2 for sp in edge)
    assert all(sp.edge_of == -1 for sp in board.spaces if sp.col == 4)


def test_an_edge_space_whose_next_card_is_face_up_already_reveals_nothing():
    # A card set of one's own may have a card whose right-edge half space finds no half space on the next card (the
    # rulebook's Imagem 4 map, X, ends in row d; R1 begins in rows a-c). Entering it once R1 lies face up beside X
    # must not reveal R1's position again (it did, putting another card there).
    s = _example("D")
    maps = ("X", "R1", "F1")
    s = replace(s, maps=maps, board=build_board(s.cards, maps))
    g = label(s.board, "G")
    assert s.board[g].edge_of == 1  # X's right edge, with nothing of R1 to join
    s = act(_sailing(s, 3), FleetMoved(to=g))
    assert s.phase != "reveal" and s.maps == maps
    pending = RS.pending(s)
    assert not (isinstance(pending, Chance) and "map card" in pending.label)


def test_a_version_2_game_keeps_revealing_at_such_an_edge():
    s = _example("D")
    maps = ("X", "R1", "F1")
    s = replace(s, maps=maps, board=build_board(s.cards, maps), version=2)
    s = act(_sailing(s, 3), FleetMoved(to=label(s.board, "G")))
    assert s.phase == "reveal" and s.reveal_pos == 1


def test_a_destination_on_the_left_edge_of_a_card_revealed_under_the_fleet_wins():
    # A card set of one's own whose final card has its destination on its left edge, joining the half space the
    # fleet entered on the last regular card: revealing that card under the fleet reaches the destination
    # (rulebook 6: reaching the final destination wins).
    cards = example_cards()
    final = next(m for m in cards["maps"] if m["id"] == "F1")
    final["spaces"].append({"at": "0d", "type": "empty", "destination": True, "label": "Goa"})
    s = _example("D")
    maps = ("X", "")
    s = replace(s, cards=compile_cards(cards), maps=maps)
    s = replace(s, board=build_board(s.cards, maps))
    s = act(_sailing(s, 3), FleetMoved(to=label(s.board, "G")))
    assert s.phase == "reveal" and s.reveal_pos == 1
    won = act(s, MapCardRevealed(position=1, card="F1"))
    assert won.result == "won" and isinstance(RS.pending(won), Over)
    assert not act(replace(s, version=2), MapCardRevealed(position=1, card="F1")).result  # version 2 did not look


def test_the_sail_prompt_counts_its_points_in_words_a_player_reads():
    s = started()
    assert RS.pending(replace(s, phase="sail", sail_points=1)).prompt == "sail on or stop (1 point)"
    assert RS.pending(replace(s, phase="sail", sail_points=3)).prompt == "sail on or stop (3 points)"

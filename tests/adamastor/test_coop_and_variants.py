"""The 2-player co-op (rulebook 9.3), the historical scenario (9.1) and 'less luck' (9.2)."""

from __future__ import annotations

from msgspec.structs import replace

from agon.core.engine import Chance, Decision
from agon.events.adamastor import (
    ActionsEnded,
    BonusCardsDrawn,
    BonusCardsShared,
    CaptainChosen,
    CardsDrawn,
    CardSwapped,
    DrawChosen,
    FleetMoved,
    FleetPlaced,
    HandTrimmed,
    LandCardKept,
    MapCardRevealed,
    PlayerCardsDealt,
    SailStarted,
    SunriseCardDrawn,
)
from tests.adamastor.support import RS, act, created, refused, started


def coop(strip=("c40", "c39", "c38")):
    s = RS.initial_state(created(2))
    p = RS.pending(s)
    assert isinstance(p, Chance) and set(p.items) == {"P1", "P2"}
    s = act(s, CaptainChosen(player="P2"))
    s = act(s, MapCardRevealed(position=0, card="R1"))
    assert RS.pending(s) == Decision("P2", "place the fleet")
    s = act(s, FleetPlaced(space="0b"))
    p = RS.pending(s)
    assert isinstance(p, Chance) and p.count == 9
    return act(s, PlayerCardsDealt(strip=strip, hands=(("c1", "c2", "c3"), ("c4", "c5", "c6"))))


def test_coop_players_hold_separate_hands_and_share_the_deck():
    s = coop()
    assert s.hands == (("c1", "c2", "c3"), ("c4", "c5", "c6")) and s.morale == 31
    assert RS.view(s, "P1")["hands"]["P2"] == {"count": 3}
    assert [c["card"] for c in RS.view(s, "P1")["hands"]["P1"]] == ["c1", "c2", "c3"]


def test_coop_actions_alternate_from_the_captain():
    s = replace(coop(), cubes=3)
    assert RS.pending(s).player == "P2"
    assert "not in P2's hand" in refused(s, CardSwapped(hand_card="c1", strip_card="c40"))
    s = act(s, CardSwapped(hand_card="c4", strip_card="c40"))
    assert RS.pending(s).player == "P1"
    s = act(s, DrawChosen())
    s = act(s, CardsDrawn(cards=("c20",)))
    assert "c20" in s.hands[0] and RS.pending(s).player == "P2"


def test_coop_land_bonus_cards_are_shared_as_the_players_agree():
    s = replace(coop(), phase="land_keep", drawn=("c20",), actor=1)
    kind = s.card("c20").bonus_kind
    legal = RS.legal(s)
    assert {e.player for e in legal if isinstance(e, LandCardKept)} == {"P1", "P2"}
    s = act(s, LandCardKept(card="c20", player="P1", bonus=0))
    assert "c20" in s.hands[0] and kind
    s = replace(s, phase="bonus_draw", need=2)
    s = act(s, BonusCardsDrawn(cards=("c21", "c22")))
    assert s.phase == "bonus_share"
    text = RS.narrate(s, BonusCardsShared(players=("P2", "P1")))
    assert text == "P2 shares the bonus cards: Pajem (21) to P2, Feitor (22) to P1."
    s = act(s, BonusCardsShared(players=("P2", "P1")))
    assert "c21" in s.hands[1] and "c22" in s.hands[0]


def test_coop_captain_token_passes_at_sunset_and_both_hands_are_trimmed():
    s = coop()
    s = replace(s, hands=(("c1", "c2", "c3", "c7"), ("c4", "c5", "c6", "c8")), deck=s.deck[2:])
    s = act(s, ActionsEnded())
    assert s.phase == "trim" and RS.pending(s).player == "P1"
    s = act(s, HandTrimmed(player="P1", cards=("c7",)))
    assert RS.pending(s).player == "P2"
    assert "P2 must discard" in refused(s, HandTrimmed(player="P1", cards=("c1",)))
    s = act(s, HandTrimmed(player="P2", cards=("c8",)))
    assert s.phase == "sunrise" and s.captain_name == "P1"
    s = act(s, SunriseCardDrawn(card=s.deck[0]))
    assert RS.pending(s).player == "P1"


def test_historical_scenario_lays_three_historical_cards_from_lisbon():
    s = RS.initial_state(created(1, {"scenario": "historical"}))
    assert s.maps == ("H1", "H2", "H3")
    assert s.board[s.fleet].label == "Lisbon"
    assert isinstance(RS.pending(s), Chance) and s.phase == "deal"
    calicut = [sp for sp in s.board.spaces if sp.destination]
    assert calicut and all(sp.label == "Calicut" for sp in calicut)


def test_less_luck_shows_the_next_strip_card_beside_the_deck():
    s = started(options={"less_luck": "true"})
    assert s.shown == "c37" and s.morale == 33
    assert RS.view(s, "P1")["shown"][0]["card"] == "c37"
    s = act(s, ActionsEnded())
    while s.phase != "sunrise":
        s = act(s, RS.legal(s)[0])
    s2 = act(s, SunriseCardDrawn(card="c20"))
    assert "c37" in s2.strip and s2.shown == "c20" and "c20" not in s2.strip


def test_less_luck_deal_needs_the_shown_card():
    s = act(RS.initial_state(created(1, {"less_luck": "true"})), MapCardRevealed(position=0, card="R1"))
    s = act(s, FleetPlaced(space="0a"))
    assert "less luck" in refused(s, PlayerCardsDealt(strip=("c1", "c2", "c3"), hands=(("c4", "c5", "c6"),)))


def test_historical_scenario_is_won_on_reaching_calicut():
    s = act(
        RS.initial_state(created(1, {"scenario": "historical"})),
        PlayerCardsDealt(strip=("c40", "c39", "c38"), hands=(("c1", "c2", "c3"),)),
    )
    calicut = next(sp for sp in s.board.spaces if sp.label == "Calicut")
    before = next(n for n in calicut.links if not s.board[n].destination)
    s = replace(s, fleet=before, extra_cost=0, hands=(("c1", "c2", "c3", "c4"),), deck=s.deck[1:])
    s = act(s, SailStarted(cards=("c1", "c2", "c3", "c4")))
    s = act(s, FleetMoved(to=calicut.id))
    assert s.result == "won" and "reaches the final destination" in RS.pending(s).outcome.summary


def test_coop_the_public_log_tells_the_hands_by_count_and_each_player_reads_their_own():
    from agon.core.engine import PUBLIC, event_as, narrate_as

    s = coop()
    deal = PlayerCardsDealt(strip=("c40", "c39", "c38"), hands=(("c11", "c12", "c13"), ("c14", "c15", "c16")))
    s = replace(s, phase="deal", hands=(), strip=())
    public = RS.narrate(s, deal)
    assert "P1 is dealt 3 cards; P2 is dealt 3 cards" in public and "Escrivão" not in public and "(14)" not in public
    assert "P1 holds Escrivão (11), Mestre (12) and Contramestre (13); P2 is dealt 3 cards" in narrate_as(
        RS, s, deal, "P1")
    assert event_as(RS, s, deal, "P2")["hands"] == [["hidden"] * 3, ["c14", "c15", "c16"]]
    assert event_as(RS, s, deal, PUBLIC)["hands"] == [["hidden"] * 3] * 2
    s = replace(act(s, deal), cubes=3)
    s = act(act(s, DrawChosen()), CardsDrawn(cards=("c20",)))  # P2, the captain, draws into the hand
    assert RS.narrate(replace(s, phase="draw", actor=1), CardsDrawn(cards=("c20",))).startswith(
        "P2 draws a card into the hand")


def test_coop_each_player_learns_a_skill_only_from_their_own_hand_the_captain_first():
    from agon.events.adamastor import SkillDeclined, SkillLearned

    s = coop(strip=("c40", "c37", "c36"))  # 3 motivation icons
    s = replace(s, hands=(("c3", "c1", "c5"), ("c10", "c13", "c6")))
    s = act(s, ActionsEnded())
    assert RS.pending(s) == Decision("P2", "learn a skill or not")
    assert RS.legal(s) == [SkillLearned(card="c10"), SkillDeclined()]  # not P1's c3: P2 cannot see it
    assert "Piloto (3) is not in P2's hand, and P2 decides now" in refused(s, SkillLearned(card="c3"))
    s = act(s, SkillDeclined())
    assert RS.pending(s) == Decision("P1", "learn a skill or not")
    assert RS.legal(s) == [SkillLearned(card="c3"), SkillDeclined()]
    s = act(s, SkillLearned(card="c3"))
    assert s.skills == ("c3",) and "c3" not in s.hands[0]


def _asked(s):
    """The decisions 'learn a skill' asks, in order, each player declining: what both players see of it."""
    from agon.events.adamastor import SkillDeclined

    seen = []
    while s.phase == "learn":
        seen.append(RS.pending(s))
        s = act(s, SkillDeclined())
    return seen, s.notes[-3:]


def test_coop_learning_asks_both_players_whatever_their_hands_hold():
    # Hands are not shared (9.3), so whether a player holds an affordable skill must not show in who is asked:
    # 'Aprende habilidade' fires on the motivation icons in play (rulebook 7, "Se estão 2 ou 3 ícones Motivação em
    # jogo") and asks the captain, then the partner; one with nothing affordable may only decline.
    from agon.events.adamastor import SkillDeclined

    s = coop(strip=("c40", "c37", "c36"))  # 3 motivation icons
    skills = [c for c, card in s.cards.player.items() if card.skill and card.skill_cost <= 3]
    plain = [c for c, card in s.cards.player.items() if not card.skill and c not in s.strip]
    with_skill = act(replace(s, hands=((plain[0], plain[1]), (skills[0], plain[2]))), ActionsEnded())
    without = act(replace(s, hands=((plain[0], plain[1]), (plain[3], plain[2]))), ActionsEnded())
    assert RS.legal(without) == [SkillDeclined()]  # the captain P2 is asked, with nothing to learn
    assert _asked(with_skill) == _asked(without)
    assert [p.player for p in _asked(without)[0]] == ["P2", "P1"]


def test_coop_learning_in_a_version_2_game_asks_only_a_holder_of_an_affordable_skill():
    s = coop(strip=("c40", "c37", "c36"))  # 3 motivation icons
    plain = [c for c, card in s.cards.player.items() if not card.skill and c not in s.strip]
    old = replace(s, version=2, hands=((plain[0], plain[1]), (plain[3], plain[2])))
    assert act(old, ActionsEnded()).phase != "learn"  # nobody holds a skill, so nobody is asked
    assert act(replace(old, version=3), ActionsEnded()).phase == "learn"

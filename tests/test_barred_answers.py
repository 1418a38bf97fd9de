"""A value the rules bar, typed as an answer, is refused naming the rule that bars it (core.steps ``barred_values``):
a Peloponnes power card the hand cannot pay, or one whose conquest-row bid cannot be outbid, a Perikles candidate's
position already taken. It was refused as "none of the answers" (or "the decision is complete before 'b'"), which
named no reason: a table that sees the card cannot tell a typo from a rule."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from agon.core import entry, steps
from agon.core.engine import Chance
from agon.core.games.peloponnes import RULESET as PELOPONNES
from agon.core.games.peloponnes import auction
from agon.core.games.peloponnes.state import Slot
from agon.core.games.perikles import RULESET as PERIKLES
from agon.core.service import NewGame, Service, ServiceError
from agon.core.transfer import import_data
from agon.events.peloponnes import Coins
from agon.events.perikles import CandidateNominated, InfluenceTileTaken
from agon.events.store import Store
from tests.test_cli_surface import one_line


@pytest.fixture
def conquest_dear(tmp_path):
    """A two-player table game (seed 4) at its first bid, the power cards revealed as typed: Palisade and the
    Sanctuary of Hera in the auction row, Well, Fishing Village, Carpenter's Workshop and Forest in the conquest row,
    where a card costs its value + 3 (Well and Fishing Village: 5). Bo, holding 4 coin cards, bids first."""
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = svc.new_game(NewGame("peloponnes", players=("Ana", "Bo"), seed=4, table=True))
    while not (isinstance(p := svc.load(gid).pending, Chance) and p.label.startswith("power")):
        svc.act(gid, "seed")
    svc.act(gid, "pal soh well fish carp forest")
    s = svc.load(gid).state
    assert auction.actor(s) == "Bo" and s.seat("Bo").hand == Coins(wood=2, grain=2) and s.seat("Bo").luxury == 0
    assert s.conquest == ("A01", "A14", "A07", "A11")
    return svc, gid


def _refused(svc: Service, gid: str, text: str) -> str:
    depth = svc.load(gid).head.depth
    with pytest.raises(ServiceError) as held:
        svc.act(gid, text)
    assert svc.load(gid).head.depth == depth  # nothing recorded
    said = str(held.value)
    assert "\n" not in said and "none of the answers" not in said
    return said


@pytest.mark.parametrize("typed", ["a14", "A14", "fish", "fishing-village", "a14 2w2g"])
def test_a_conquest_card_dearer_than_the_hand_says_its_price_and_what_the_hand_can_bid(conquest_dear, typed):
    svc, gid = conquest_dear
    said = _refused(svc, gid, typed)
    assert said.startswith("which power card to bid on: bid (rulebook, 'Leilão', conquest row): Fishing Village in"
                           " the conquest row costs 5 coin cards (value + 3, less Barracks/Palisade), a bid of 4 is"
                           " too low"), said
    assert "Bo holds 4 coin cards, so bids at most 4" in said
    assert "(or another kind of decision: pass); possible: 2: Bo bids 2 on A02 Palisade" in said  # agon's numbers


def test_a_conquest_card_that_holds_a_bid_says_it_cannot_be_outbid(conquest_dear):
    svc, gid = conquest_dear
    svc.act(gid, "forest")  # Bo's 4 coin cards, the one bid that stands there
    for typed in ("a11", "forest"):
        said = _refused(svc, gid, typed)
        assert said.startswith("which power card to bid on: bid (rulebook, 'Leilão', conquest row): Forest already"
                               " has Bo's bid, and a bid in the conquest row cannot be outbid"), said
        assert "holds" not in said  # no hand could bid there: the hand is not the reason


def test_a_power_card_of_another_round_says_it_is_not_this_rounds(conquest_dear):
    svc, gid = conquest_dear
    said = _refused(svc, gid, "b01")
    assert said.startswith("which power card to bid on: bid (rulebook, 'Leilão'): Agora is not one of this round's"
                           " power cards"), said


def test_a_card_whose_value_or_standing_bid_the_hand_cannot_meet_says_so(conquest_dear):
    """The auction row's two other reasons: a value above what the hand holds, and a bid there the hand cannot top
    (the hand's size is public: every seat sees how many coin cards each holds)."""
    svc, gid = conquest_dear
    s = svc.load(gid).state
    short = s.with_seat(msgspec.structs.replace(s.seat("Bo"), hand=Coins(wood=1)))
    with pytest.raises(entry.EntryError) as refused:
        steps.build(PELOPONNES, short, "pal")
    assert str(refused.value) == (  # the pass is all that is legal, so no step is asked: it says so too
        "which power card to bid on: bid (rulebook, 'Leilão'): the value of Palisade is 2, the minimum bid in coin"
        " cards; a bid of 1 is too low; Bo holds 1 coin card, so"
        " bids at most 1; the decision is complete before 'pal' (the words before it read as: Bo passes, drawing 3"
        " coin cards); leave it out")
    svc.act(gid, "pal 2w2g")  # Bo bids 4 on Palisade; Ana, left with 4 coin cards, cannot top it
    s = svc.load(gid).state
    s = s.with_seat(msgspec.structs.replace(s.seat("Ana"), hand=Coins(stone=3, grain=1)))
    with pytest.raises(entry.EntryError) as refused:
        steps.build(PELOPONNES, s, "pal")
    assert str(refused.value).startswith(
        "which power card to bid on: bid (rulebook, 'Leilão'): Bo bids 4 on Palisade; a bid there must be higher, 4"
        " is not; Ana holds 4 coin cards, so bids at most 4"), refused.value


def test_a_displaced_bid_typed_onto_a_card_it_cannot_stand_on_says_why(conquest_dear):
    svc, gid = conquest_dear
    svc.act(gid, "pal 1w1g")
    svc.act(gid, "pal 3s")  # Ana outbids Bo, whose bid of 2 must move
    said = _refused(svc, gid, "fish")
    assert said.startswith("which power card to move the bid to"), said
    assert ("displaced bid (rulebook, 'Leilão', conquest row): Fishing Village in the conquest row costs 5 coin"
            " cards (value + 3, less Barracks/Palisade), a bid of 2 is too low") in said
    said = _refused(svc, gid, "pal")
    assert "displaced bid (rulebook, 'Leilão'): it must move to a different power card; possible:" in said


def test_agon_act_and_play_tell_the_price_where_a_card_dearer_than_the_hand_is_typed(agon):
    import json

    gid = json.loads(agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--seed", "4", "--table",
                          "--json").stdout)["id"]
    for _ in range(3):
        agon("act", gid, "seed")
    agon("act", gid, "pal soh well fish carp forest")
    said = one_line(agon("act", gid, "fish", ok=False), 1, "error: which power card to bid on: bid (rulebook,"
                    " 'Leilão', conquest row): Fishing Village in the conquest row costs 5 coin cards")
    assert "Bo holds 4 coin cards, so bids at most 4" in said and f"`agon options {gid}`" in said
    played = agon("play", gid, input="well\nq\n")
    assert "error: which power card to bid on: bid (rulebook, 'Leilão', conquest row): Well in the conquest row" \
           " costs 5 coin cards" in played.stderr.replace("\n", " ")
    assert "give its choice number from the options listed above" in played.stderr.replace("\n", " ")
    assert "Still: Bo to act" in played.stdout


def test_market_and_agora_are_named_in_a_refusal_only_to_a_player_whose_tableau_shows_them(conquest_dear):
    """A bid below a card's value in coin cards said "(Market and Agora count only against another bid)" to every
    player, one who has neither too: only the cards the bidder has built are named, and only to that bidder."""
    svc, gid = conquest_dear
    s = svc.load(gid).state
    bare = s.with_seat(msgspec.structs.replace(s.seat("Bo"), hand=Coins(wood=1)))
    assert "Market" not in auction.placement_error(bare, "Bo", "A02", 1, "bid")
    built = (Slot(card="A03"),)  # Bo's tableau shows a Market
    market = bare.with_seat(msgspec.structs.replace(bare.seat("Bo"), buildings=built))
    assert auction.placement_error(market, "Bo", "A02", 1, "bid") == (
        "bid (rulebook, 'Leilão'): the value of Palisade is 2, the minimum bid in coin cards; a bid of 1 is too low"
        " (Market counts only against another bid)")
    covered = bare.with_seat(msgspec.structs.replace(bare.seat("Bo"), buildings=(Slot(card="A03", cover="wood"),)))
    assert "Market" not in auction.placement_error(covered, "Bo", "A02", 1, "bid")  # a covered Market adds nothing
    with pytest.raises(entry.EntryError) as refused:
        steps.build(PELOPONNES, market, "pal")
    assert "a bid of 1 is too low (Market counts only against another bid); Bo holds 1 coin card" in str(refused.value)


# -- Perikles: candidates and assassins ----------------------------------------------------------------------------

PERIKLES_4P = Path(__file__).resolve().parent.parent / "replays" / "perikles-4p.jsonl"


def _before(svc: Service, event) -> object:
    """The state just before ``event`` in the recorded four-player game."""
    game = import_data(svc, PERIKLES_4P.read_bytes()).game_id
    return next(st.before for st in svc.load(game).steps() if st.event == event)


def test_a_nomination_to_a_position_taken_names_who_holds_it_and_what_the_words_read_as(sqlite_svc):
    """Dario nominates in turn; Sparta's candidate A is Chloe, Corinth's B is Bruno. 'spa ana a' was refused as "the
    decision is complete before 'a'", as if 'a' were a word too many; it is a position taken, and by whom."""
    s = _before(sqlite_svc, CandidateNominated(player="Dario", city="sparta", nominee="Ana", slot="B"))
    assert PERIKLES.pending(s).player == "Dario"
    with pytest.raises(entry.EntryError) as refused:
        steps.build(PERIKLES, s, "spa ana a")
    assert str(refused.value) == (
        "Ana as candidate B in Sparta: Nominations (game help, 5th paragraph): Sparta's candidate A is Chloe"
        " already; a candidate is raised to a free position (A Chloe, B free); the decision is complete before 'a' (the"
        " words before it read as: Dario nominates Ana as candidate B in Sparta); leave it out")
    assert steps.build(PERIKLES, s, "spa ana") == steps.build(PERIKLES, s, "spa ana b")  # what it says to type
    with pytest.raises(entry.EntryError, match=r"^which player to nominate: Nominations \(game help, 5th paragraph\):"
                       r" Bruno is Corinth's candidate B already; an election needs two different players; possible:"
                       r" Ana, Chloe, Dario$"):
        steps.build(PERIKLES, s, "cor bru")
    with pytest.raises(entry.EntryError, match=r"^in which city to nominate: Nominations \(game help, 5th paragraph\):"
                       r" Argos has both its candidates already \(A Bruno, B Chloe\) \(or another kind of decision:"
                       r" pass\); possible: "):
        steps.build(PERIKLES, s, "arg ana")


def test_the_assassins_step_names_the_city_and_who_stands_as_a_and_b(sqlite_svc):
    """The assassin's last step asked "which candidate to assassinate (A or B)" and listed 'A, B': which city, and
    who A and B are, the table sees on the board; the step names them, from the city chosen before it."""
    s = _before(sqlite_svc, InfluenceTileTaken(player="Ana", tile="thebes-assassin", target_city="corinth",
                                               target_slot="B"))
    chosen, now = steps.walk(PERIKLES, s, ["meg-ass", "cor"])
    assert isinstance(now, steps.Question) and now.field == "target_slot"
    assert now.prompt == "which candidate to assassinate in Corinth: A (Ana) or B (Bruno)"
    assert [(c.value, c.label) for c in now.choices] == [("A", "Ana"), ("B", "Bruno")]
    assert steps.walk(PERIKLES, s, ["b"], chosen)[1].target_slot == "B"
    chosen, now = steps.walk(PERIKLES, s, ["meg-ass", "meg"])  # one candidate there: B, filled in by itself
    assert now == InfluenceTileTaken(player="Ana", tile="megara-assassin", target_city="megara", target_slot="B")
    with pytest.raises(entry.EntryError, match=(
            r"^which candidate to assassinate in Megara: B \(Chloe\): Influence tiles \(game help, 2nd-3rd"
            r" paragraphs\), assassin tile: Megara has no candidate A to assassinate \(A free, B Chloe\); the decision"
            r" is complete before 'a' \(the words before it read as: Ana takes a Megara assassin tile, placing a cube"
            r" in Megara and assassinating Chloe, candidate B in Megara\); leave it out$")):
        steps.build(PERIKLES, s, "meg-ass meg a")


def test_the_assassins_candidate_may_be_typed_by_name(sqlite_svc):
    """The step names who stands as A and B; typing the name ('bru') was refused as none of the answers. A name is
    taken for its position, a player who does not stand there is told so, and the one candidate of a city with one
    may be typed by name too (the step is then answered by itself)."""
    s = _before(sqlite_svc, InfluenceTileTaken(player="Ana", tile="thebes-assassin", target_city="corinth",
                                               target_slot="B"))
    for typed, slot in (("bru", "B"), ("Bruno", "B"), ("an", "A"), ("a", "A"), ("b", "B")):
        assert steps.build(PERIKLES, s, f"meg-ass cor {typed}").target_slot == slot, typed
    with pytest.raises(entry.EntryError, match=(
            r"^which candidate to assassinate in Corinth: A \(Ana\) or B \(Bruno\): Influence tiles \(game help,"
            r" 2nd-3rd paragraphs\), assassin tile: Chloe is no candidate in Corinth \(A Ana, B Bruno\); possible:"
            r" A Ana, B Bruno$")):
        steps.build(PERIKLES, s, "meg-ass cor chl")
    assert steps.build(PERIKLES, s, "meg-ass meg chl").target_slot == "B"  # Chloe, Megara's one candidate


def test_a_name_that_a_position_begins_is_not_taken_for_the_other_position():
    """Where Bruno stands as A and Ana as B, 'a' stays A and 'b' B, and each name stays its own candidate's: both
    names are offered, so in agon play 'a' waits for a space or Enter ('ana' is Ana, B), and a letter is taken at
    once only where no other candidate's name begins with it (tests/test_play_pty_letters.py). Leaving Ana's name
    out made 'a' A at once, so 'ana' typed for Ana assassinated Bruno."""
    from agon.core.games.perikles.steps import _typed

    assert _typed({"A": "Ana", "B": "Bruno"}) == {"A": "Ana", "B": "Bruno"}
    assert _typed({"A": "Bruno", "B": "Ana"}) == {"A": "Bruno", "B": "Ana"}
    assert _typed({"A": "Chloe", "B": "Ana"}) == {"A": "Chloe", "B": "Ana"}
    assert _typed({"B": "Ana"}) == {"B": "Ana"}  # A free: 'ana' names B, as 'b' does


def test_an_influence_tile_not_on_display_is_told_so(sqlite_svc):
    """The display lies open: a tile typed that is not on it was "none of the answers", as a typo is."""
    s = _before(sqlite_svc, InfluenceTileTaken(player="Ana", tile="thebes-assassin", target_city="corinth",
                                               target_slot="B"))
    assert "athens-candidate" not in s.display and "athens-candidate" in s.data.deck
    with pytest.raises(entry.EntryError, match=r"^which influence tile to take: Influence tiles \(game help, 2nd-3rd"
                       r" paragraphs\): no Athens candidate tile is on display; possible: any, athens-2, "):
        steps.build(PERIKLES, s, "ath-c ana spa")
    with pytest.raises(entry.EntryError, match="which influence tile to take: 'zzz' is none of the answers"):
        steps.build(PERIKLES, s, "zzz")


def test_agon_act_names_the_assassins_city_and_candidates_and_a_city_with_none(agon):
    gid = agon("import", str(PERIKLES_4P)).stdout.split()[0]
    agon("undo", gid, "--to", "27")  # Ana to take an influence tile, a Megara assassin on display
    one_line(agon("act", gid, "meg-ass cor", ok=False), 1,
             "error: the decision is not complete: next, which candidate to assassinate in Corinth: A (Ana) or B"
             " (Bruno): A, B;")
    said = one_line(agon("act", gid, "meg-ass spa", ok=False), 1,
                    "error: in which city to assassinate a candidate: Influence tiles (game help, 2nd-3rd paragraphs),"
                    " assassin tile: Sparta has no candidate to assassinate; possible: ")
    assert "none of the answers" not in said

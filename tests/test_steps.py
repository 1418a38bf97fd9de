"""Decisions built step by step (core.steps): every legal decision reachable, each step offering only what remains
legal, a way back, and the whole decision typed at once by prefixes."""

from __future__ import annotations

from pathlib import Path

import pytest

from agon.core import entry, steps
from agon.core.engine import option_text
from agon.core.games.perikles import RULESET as PERIKLES
from agon.core.transfer import import_data
from agon.events.perikles import BattleTileKept, ForcesCommitted, Placement
from tests.perikles.helpers import at_commit, keep_tiles
from tests.perikles.test_specials import spartan_attack

PERIKLES_4P = Path(__file__).resolve().parent.parent / "replays" / "perikles-4p.jsonl"

LEADERS = {"athens": 0, "argos": 0, "sparta": 1, "corinth": 2, "thebes": 2, "megara": 3}


def commit_position():
    return at_commit(leaders=LEADERS, hands=(("athens-2", "argos-2"), ("sparta-2",), ("corinth-2",), ("megara-2",)))


def test_a_commitment_offers_every_eligible_tile_then_where_then_only_counters_that_can_go_there():
    s = commit_position()
    first = steps.ask(PERIKLES, s)
    assert isinstance(first, steps.Question) and first.field == "tile"
    assert first.values == ["argos-2", "athens-2"]  # today's list offers only the alphabetically first
    where = steps.ask(PERIKLES, s, (("tile", "athens-2"),))
    assert where.field == "location" and where.values[0] == steps.DONE and "Pylos" in where.values
    side = steps.ask(PERIKLES, s, (("tile", "athens-2"), ("location", "Pylos")))
    assert side.field == "side" and side.values == ["attacker", "defender"]
    counters = steps.ask(PERIKLES, s, (("tile", "athens-2"), ("location", "Pylos"), ("side", "attacker")))
    assert counters.field == "counter" and steps.DONE not in counters.values  # nothing sent there yet
    assert {v.split("-")[0] for v in counters.values} == {"athens", "argos"}  # only what P1 commands
    after = steps.ask(PERIKLES, s, (("tile", "athens-2"), ("location", "Pylos"), ("side", "attacker"),
                                    ("counter", "athens-t4-1")))
    assert steps.DONE in after.values and "athens-t4-2" in after.accepts
    assert "Corcyra" in after.values and after.field_of("Corcyra") == "location"  # another place
    assert "Pylos" not in after.values  # the next counter goes there unless another place is named


def test_a_split_between_two_locations_is_built_in_a_few_words_and_is_legal():
    s = commit_position()
    ev = steps.build(PERIKLES, s, "ath-2 pyl a ath-t4 corc att ath-h3")
    assert ev == ForcesCommitted(player="P1", tile="athens-2", placements=(
        Placement(counter="athens-t4-1", location="Pylos", side="attacker", role="main"),
        Placement(counter="athens-h3-1", location="Corcyra", side="attacker", role="main")))
    assert PERIKLES.validate(s, ev) is None
    assert ev not in PERIKLES.legal(s)  # the canonical list never offered it


def test_four_counters_with_a_sacrificed_cube_and_a_second_counter_of_a_kind_by_its_own_id():
    s = commit_position()
    ev = steps.build(PERIKLES, s, "ath-2 pyl a athens-t4-1 athens-t4-2 ath-t3 ath-t3")
    assert [p.counter for p in ev.placements] == ["athens-t4-1", "athens-t4-2", "athens-t3-1", "athens-t3-2"]
    assert {p.location for p in ev.placements} == {"Pylos"}
    assert ev.cube == "athens"  # the only city whose cube may be sacrificed: asked of nobody
    assert PERIKLES.validate(s, ev) is None


def test_each_step_lists_only_what_remains_legal_so_every_path_ends_in_a_legal_commitment():
    import random

    s = commit_position()
    rng = random.Random(4)
    seen = set()
    for _ in range(60):  # random paths: whatever is chosen at every step, the commitment is legal
        chosen: steps.Chosen = ()
        now = steps.ask(PERIKLES, s)
        while isinstance(now, steps.Question):
            assert now.choices, f"a step with nothing left to choose after {chosen}"
            chosen += (steps.answer(now, rng.choice(now.values)),)
            now = steps.ask(PERIKLES, s, chosen)
        assert PERIKLES.validate(s, now) is None, (chosen, now)
        seen.add((len(now.placements), len({p.location for p in now.placements})))
    assert {(0, 0), (2, 1), (4, 1), (4, 2)} <= seen, seen  # none, two, four with a cube in one place or two


def test_every_commitment_the_canonical_list_offers_is_reachable_step_by_step():
    s = commit_position()
    for ev in PERIKLES.legal(s)[::45]:
        words, at = [ev.tile], ""
        for pl in ev.placements:
            words += [pl.location, pl.side] if pl.location != at else []
            words.append(pl.counter)
            at = pl.location
        words += ["done", ev.cube] if len(ev.placements) > 2 else []
        if not ev.placements:
            words.append("done")
        assert steps.build(PERIKLES, s, " ".join(words)) == ev


def test_a_tile_alone_is_not_a_commitment_sending_no_units_but_words_that_stop_after_a_counter_end_it():
    """Words that run out end the decision by 'done' only in a list of counters begun: a tile alone (the rest
    not typed yet) is refused with the next step and what 'done' would do; 'done' typed sends none."""
    s = commit_position()
    with pytest.raises(entry.EntryError, match=r"not complete: next, where counters go \('done': none\): done,"
                       r" .*Pylos.* \('done' ends it here: spend the Athens 2-cube tile sending no units\)$"):
        steps.build(PERIKLES, s, "ath-2")
    assert steps.build(PERIKLES, s, "ath-2 done") == ForcesCommitted(player="P1", tile="athens-2", placements=())
    one = steps.build(PERIKLES, s, "ath-2 pyl a ath-t4")  # the counters' list begun: it ends with the words
    assert [(p.counter, p.location) for p in one.placements] == [("athens-t4-1", "Pylos")]
    where = steps.ask(PERIKLES, s, (("tile", "athens-2"),))
    assert steps.DONE in where.values and not steps.continues(where, (("tile", "athens-2"),))



def test_the_one_tile_filled_in_by_itself_may_be_typed_anyway_at_the_step_asked_after_it():
    """With one eligible tile, play asks "where counters go" at once (the tile is filled in, never shown); a person
    who types the tile anyway, as where several may be spent, has it taken as the tile and the rest read on, at
    that step as where the whole decision is typed. A word naming both the tile and exactly one place there is the
    place; the tile's number is never the tile."""
    s = at_commit(leaders={**LEADERS, "sparta": 0}, hands=(("sparta-2",), ("athens-2",), ("corinth-2",), ()),
                  locations=("Spartolus", "Pylos", "Megara", "Corcyra", "Delium", "Plataea", "Mantinea"))
    asked, where = steps.forward(PERIKLES, s, (), steps.ask(PERIKLES, s))
    assert asked == (("tile", "sparta-2"),) and where.field == "location"  # what play opens at
    pylos = (("tile", "sparta-2"), ("location", "Pylos"))
    for text in ("sparta pyl", "sparta-2 pyl", "pyl"):
        assert steps.walk(PERIKLES, s, entry.tokens(text), asked)[0][:2] == pylos, text
        assert steps.walk(PERIKLES, s, entry.tokens(text))[0][:2] == pylos, text
    assert steps.walk(PERIKLES, s, ["sparta"], asked) == (asked, where)  # the tile alone: where is asked still
    spartolus = (("tile", "sparta-2"), ("location", "Spartolus"))
    assert steps.walk(PERIKLES, s, ["spa"], asked)[0][:2] == spartolus  # names one place here: the place
    assert steps.walk(PERIKLES, s, ["spa"])[0][:2] == spartolus  # and so where the whole decision is typed
    assert steps.walk(PERIKLES, s, ["2"], asked)[0][:2] == spartolus  # a number is the step asked
    ev = steps.build(PERIKLES, s, "sparta-2 pyl d spa-h2")
    assert ev == steps.build(PERIKLES, s, "pyl d spa-h2") and ev.tile == "sparta-2" and len(ev.placements) == 1
    # typed key by key in play: a word that may still become the tile is not taken as a place early
    assert steps.settle(PERIKLES, s, "s", asked) is None and steps.begins(PERIKLES, s, "spar", asked)
    assert steps.settle(PERIKLES, s, "py", asked) == ("Pylos ", False)
    assert steps.settle(PERIKLES, s, "sparta-2 spart", asked) == ("sparta-2 Spartolus ", False)

def test_placements_in_any_order_are_reachable_going_back_to_a_location_named_before():
    s = commit_position()
    ev = steps.build(PERIKLES, s, "ath-2 pyl a athens-t4-1 corc a athens-h3-1 pyl athens-t4-2 ath-t3")
    assert [(p.counter, p.location) for p in ev.placements] == [
        ("athens-t4-1", "Pylos"), ("athens-h3-1", "Corcyra"), ("athens-t4-2", "Pylos"), ("athens-t3-1", "Pylos")]
    assert PERIKLES.validate(s, ev) is None


def test_an_ambiguous_or_unknown_step_is_refused_with_the_candidates():
    s = commit_position()
    with pytest.raises(entry.EntryError, match="'a' is ambiguous: it may be argos-2, athens-2"):
        steps.build(PERIKLES, s, "a")
    with pytest.raises(entry.EntryError, match="not complete: next, which counter to send to Pylos"):
        steps.build(PERIKLES, s, "ath-2 pyl a")


def test_other_decisions_are_built_from_the_legal_events_themselves(sqlite_svc):
    game = import_data(sqlite_svc, PERIKLES_4P.read_bytes()).game_id
    line = sqlite_svc.load(game)
    taken = next(st for st in line.steps() if steps.tag_of(st.event) == "perikles.influence_tile_taken")
    s = taken.before
    legal = PERIKLES.legal(s)
    assert len(legal) > steps.LIST_MAX and steps.stepwise(PERIKLES, s)
    first = steps.ask(PERIKLES, s)
    assert first.field == "tile"  # fields in the event's order; 'player' is the same for all, so never asked
    for ev in legal[::9]:
        chosen, now = steps.walk(PERIKLES, s, [ev.tile])
        while isinstance(now, steps.Question):  # follow the event's own values
            value = steps.key(getattr(ev, now.field))
            chosen, now = steps.walk(PERIKLES, s, [value], chosen)
        assert now == ev


def test_a_ruleset_may_name_the_order_of_its_fields(sqlite_svc):
    game = import_data(sqlite_svc, PERIKLES_4P.read_bytes()).game_id
    line = sqlite_svc.load(game)
    taken = next(st for st in line.steps() if steps.tag_of(st.event) == "perikles.influence_tile_taken")

    class CityFirst:  # Perikles, naming 'city' as the first field of taking a tile
        decision_fields = {"perikles.influence_tile_taken": ("city",)}

        def __getattr__(self, name):
            return getattr(PERIKLES, name)

    assert steps.ask(PERIKLES, taken.before).field == "tile"
    assert steps.ask(CityFirst(), taken.before).field == "city"


def test_when_few_decisions_remain_they_are_listed_in_full_and_taken_by_number(sqlite_svc):
    from agon.core.engine import option_text

    game = import_data(sqlite_svc, PERIKLES_4P.read_bytes()).game_id
    line = sqlite_svc.load(game)
    listed = None
    for st in line.steps():
        if listed is None and steps.tag_of(st.event) == "perikles.influence_tile_taken" \
                and steps.stepwise(PERIKLES, st.before):
            s = st.before
            for tile in steps.ask(PERIKLES, s).values:
                now = steps.ask(PERIKLES, s, (("tile", tile),))
                if isinstance(now, steps.Question) and now.field == steps.OPTION:
                    listed = (tile, now)
                    break
    assert listed is not None, "no tile left a short list: the test could not check it"
    tile, question = listed
    assert 1 < len(question.choices) <= steps.SHORT_LIST
    left = [ev for ev in PERIKLES.legal(s) if getattr(ev, "tile", None) == tile]
    assert [c.label for c in question.choices] == [option_text(PERIKLES, s, ev) for ev in left]
    assert steps.build(PERIKLES, s, f"{tile} 2") == left[1]


def test_the_usual_kind_of_decision_is_not_asked_for_and_the_others_are_offered_beside_its_first_step(sqlite_svc):
    game = import_data(sqlite_svc, PERIKLES_4P.read_bytes()).game_id
    line = sqlite_svc.load(game)
    at = next(st for st in line.steps() if steps.tag_of(st.event) == "perikles.influence_tile_taken"
              and steps.stepwise(PERIKLES, st.before)
              and len({steps.tag_of(ev) for ev in PERIKLES.legal(st.before)}) > 1)
    s, ev = at.before, at.event
    first = steps.ask(PERIKLES, s)
    assert first.field == "tile" and ev.tile in first.values  # no 'which kind of decision' first
    other = next(v for v in first.values if v.endswith("-played"))
    assert "another kind of decision" in first.prompt and first.field_of(other) == steps.TYPE
    chosen, now = steps.walk(PERIKLES, s, [other[:4]])  # by a prefix, as any value
    assert chosen[0] == (steps.TYPE, other)  # that kind starts afresh: its own steps follow
    assert isinstance(now, steps.Question) and other not in now.values
    # the whole decision typed with or without the kind's name first gives the same decision
    words = [ev.tile]
    chosen, now = steps.walk(PERIKLES, s, words)
    while isinstance(now, steps.Question):
        value = steps.key(getattr(ev, now.field)) if now.field != steps.OPTION else next(
            c.value for c in now.choices if steps.ask(PERIKLES, s, chosen + ((now.field, c.value),)) == ev)
        words.append(value)
        chosen, now = steps.walk(PERIKLES, s, [value], chosen)
    assert now == ev
    assert steps.build(PERIKLES, s, " ".join(words)) == ev
    assert steps.build(PERIKLES, s, " ".join(["influence-tile-taken", *words])) == ev


def test_another_kind_of_decision_that_is_one_decision_is_offered_in_its_own_words(sqlite_svc):
    """Beside the first step of the usual kind, another kind is offered by its name ('perikles-played'), which a
    newcomer at a seat's page (its button) or at 'agon play' cannot read: when that kind is one decision, its
    choice says what it does ("Ana plays Perikles and places 2 cubes in Athens.")."""
    game = import_data(sqlite_svc, PERIKLES_4P.read_bytes()).game_id
    told = {}
    for st in sqlite_svc.load(game).steps():
        if st.before is None or not steps.stepwise(PERIKLES, st.before):
            continue
        first = steps.ask(PERIKLES, st.before)
        if not isinstance(first, steps.Question) or first.field == steps.TYPE:
            continue
        for c in first.choices:
            if first.field_of(c.value) == steps.TYPE:
                kind = [e for e in PERIKLES.legal(st.before) if steps.tag_label(steps.tag_of(e)) == c.value]
                told[len(kind) == 1] = (c.label, option_text(PERIKLES, st.before, kind[0]))
        if len(told) == 2:
            break
    label, text = told[True]
    assert label == text and " plays Perikles " in label, label
    assert told[False][0] == "another kind of decision"  # many decisions of that kind: built after its name


def test_a_step_is_settled_once_its_word_can_only_name_one_value_and_the_last_step_ends_the_decision():
    s = commit_position()
    assert steps.settle(PERIKLES, s, "a") is None  # argos-2 or athens-2
    assert steps.settle(PERIKLES, s, "at") == ("athens-2 ", False)  # shown in full, a space after it
    assert steps.settle(PERIKLES, s, "2") == ("athens-2 ", False)  # its number: 2 of 2 choices
    assert steps.settle(PERIKLES, s, "athens-2 p") is None  # Pylos, Potidea, ...
    assert steps.settle(PERIKLES, s, "athens-2 py") == ("athens-2 Pylos ", False)
    counters = "athens-2 Pylos attacker athens-t4-1"
    assert steps.settle(PERIKLES, s, f"{counters} ath-t4") == (f"{counters} athens-t4-2 ", False)  # the one left
    four = f"{counters} athens-t4-2 athens-t3-1"
    assert steps.settle(PERIKLES, s, f"{four} ath-t3") == (f"{four} athens-t3-2 ", True)  # the fourth: complete
    assert steps.settle(PERIKLES, s, "athens-2 zz") is None  # names nothing: Enter tells what is wrong


def test_a_word_begins_a_value_when_it_may_name_one_of_the_step_it_answers_as_typed_or_typed_on():
    """What ``agon play`` asks before it lets keys held back after a word taken early begin the next word
    (cli.keyread: ``perik`` then ``q`` is not read as ``kq``)."""
    s = commit_position()
    assert steps.begins(PERIKLES, s, "a") and steps.begins(PERIKLES, s, "2")  # argos-2 or athens-2; 2 of 2
    assert not steps.begins(PERIKLES, s, "q") and not steps.begins(PERIKLES, s, "3")
    assert steps.begins(PERIKLES, s, "athens-2 p") and steps.begins(PERIKLES, s, "athens-2 py")
    assert not steps.begins(PERIKLES, s, "athens-2 zz") and not steps.begins(PERIKLES, s, "athens-2 yq")
    assert not steps.begins(PERIKLES, s, "nowhere py")  # the word before names nothing: no step to answer
    assert steps.begins(PERIKLES, s, "athens-2 ")  # a new word not begun yet


def test_an_option_number_is_settled_when_no_longer_number_is_listed():
    from agon.core.steps import Choice, Question

    q = Question("x", "which", tuple(Choice(f"v{i}") for i in range(1, 13)))  # 12 choices
    assert steps.settled_value(q, "1") is None  # 1, 10, 11 or 12
    assert steps.settled_value(q, "3") == "v3"
    assert steps.settled_value(q, "12") == "v12"
    assert steps.settled_value(q, "13") is None


def test_a_number_below_zero_names_no_option_and_no_value():
    """``-`` separates an id's words (``ath-2``), but ``-1`` is a number: typed at a short list it once recorded
    option 1 (in ``agon play`` without even an Enter), where ``agon act`` refused it."""
    from agon.core.steps import Choice, Question

    listed = Question(steps.OPTION, "which decision", tuple(Choice(str(i), f"decision {i}") for i in range(1, 4)))
    assert steps.settled_value(listed, "-1") is None  # never taken by itself
    with pytest.raises(entry.EntryError,
                       match="which decision: '-1' is none of the answers; possible: 1: decision 1; 2: decision 2;"):
        steps.pick(listed, "-1")
    named = Question("tile", "which tile", (Choice("argos-2"), Choice("athens-2")))
    with pytest.raises(entry.EntryError, match="which tile: choose 1 to 2, not -2"):
        steps.pick(named, "-2")
    assert steps.pick(listed, "1") == "1" and steps.pick(named, "ath-2") == "athens-2"


def test_a_pass_is_taken_for_each_person_asked_in_turn_whatever_their_tile_and_never_for_a_bots_seat():
    s = spartan_attack("brasidas")  # before the battle at Mantinea P1-P3 may only keep; P4 may play Brasidas
    everyone = ["P1", "P2", "P3", "P4"]
    assert steps.passes_in_turn(PERIKLES, s, everyone) == [(BattleTileKept(player=p), p) for p in everyone]
    assert steps.passes_in_turn(PERIKLES, s, ["P1", "P2", "P4"]) == [
        (BattleTileKept(player="P1"), "P1"), (BattleTileKept(player="P2"), "P2")]  # P3's bot decides for itself
    assert steps.passes_in_turn(PERIKLES, s, ["P1", "P3"]) == []  # a pass alone is the decision's own answer
    last = keep_tiles(s, until="P4")
    assert steps.passes_in_turn(PERIKLES, last, everyone) == []  # the dice come after P4: nobody else is asked


def _nomination_position(svc):
    game = import_data(svc, PERIKLES_4P.read_bytes()).game_id
    at = next(st for st in svc.load(game).steps() if steps.tag_of(st.event) == "perikles.candidate_nominated")
    nominations = [ev for ev in PERIKLES.legal(at.before) if steps.tag_of(ev) == "perikles.candidate_nominated"]
    assert steps.tag_of(PERIKLES.legal(at.before)[0]) == "perikles.nomination_passed"  # the pass is listed first
    return at.before, nominations


def _words(s, ev) -> list[str]:
    """The city, the nominee and the slot of a nomination, as a table says them (the slot only where both are free:
    a word past the decision's end is refused)."""
    words = [ev.city, ev.nominee]
    if isinstance(steps.walk(PERIKLES, s, ["candidate-nominated", *words])[1], steps.Question):
        words.append(ev.slot)
    return words


def test_a_short_list_still_takes_the_words_of_the_fields_it_numbers(sqlite_svc):
    """Once a few decisions are left they are numbered, yet a table types what it says: the city, the nominee,
    the slot ('cand arg ana a'), never a number it has not seen."""
    s, nominations = _nomination_position(sqlite_svc)
    listed = 0
    for ev in nominations:
        listed += isinstance(steps.ask(PERIKLES, s, (("type", "candidate-nominated"), ("city", ev.city))),
                             steps.Question) and steps.ask(
            PERIKLES, s, (("type", "candidate-nominated"), ("city", ev.city))).field == steps.OPTION
        assert steps.build(PERIKLES, s, " ".join(["candidate-nominated", *_words(s, ev)])) == ev
    assert listed, "no city left a short list: the test could not check it"
    with pytest.raises(entry.EntryError, match=r"which [\w ]+: 'x' is none of the answers"):
        steps.build(PERIKLES, s, f"candidate-nominated {nominations[0].city} x")


def test_a_value_of_one_kinds_first_step_typed_where_the_kinds_are_asked_starts_that_kind(sqlite_svc):
    """The pass listed first at a nomination is one decision, so the kind is asked; a city typed there ('arg ana
    a', as a table says it) was refused as 'no type'. It starts the nomination; a word no kind takes is refused."""
    s, nominations = _nomination_position(sqlite_svc)
    assert steps.ask(PERIKLES, s).field == steps.TYPE
    for ev in nominations:
        assert steps.build(PERIKLES, s, " ".join(_words(s, ev))) == ev
    assert steps.tag_of(steps.build(PERIKLES, s, "nomination-passed")) == "perikles.nomination_passed"
    with pytest.raises(entry.EntryError, match="which kind of decision: 'zzz' is none of the answers"):
        steps.build(PERIKLES, s, "zzz")


def test_a_value_left_to_one_decision_may_still_be_typed_after_it(sqlite_svc):
    """Where one slot is left free for a nominee the decision is settled before the slot, yet the table says it
    ('meg ana a'): the slot, the value a step answered by itself would have taken, is taken; any other word after
    the decision's end is refused, and so is the player deciding, the same in every decision of the kind."""
    s, nominations = _nomination_position(sqlite_svc)
    settled = [ev for ev in nominations if isinstance(steps.walk(PERIKLES, s, [ev.city, ev.nominee])[1], steps.Event)]
    assert settled, "no nomination was settled before its slot: the test could not check it"
    for ev in nominations:
        assert steps.build(PERIKLES, s, f"{ev.city} {ev.nominee} {ev.slot}") == ev
    ev = settled[0]
    other = "B" if ev.slot == "A" else "A"
    for extra in (other, "zzz", ev.player, f"{ev.slot} {ev.slot}"):
        with pytest.raises(entry.EntryError, match="the decision is complete before"):
            steps.build(PERIKLES, s, f"{ev.city} {ev.nominee} {extra}")


def test_a_refused_step_is_told_in_the_steps_own_words_never_by_an_event_field(sqlite_svc):
    """A permission typed wrong was refused as "no granted 'x' here", naming the event's field; the step asks
    its question as a table says it, and a refusal repeats that question."""
    game = import_data(sqlite_svc, PERIKLES_4P.read_bytes()).game_id
    s = next(st.before for st in sqlite_svc.load(game).steps()
             if steps.tag_of(st.event) == "perikles.permission_given")
    assert steps.ask(PERIKLES, s).prompt == "give the permission asked for"
    with pytest.raises(entry.EntryError) as refused:
        steps.build(PERIKLES, s, "x")
    assert str(refused.value) == "give the permission asked for: 'x' is none of the answers; possible: no, yes"
    assert "granted" not in str(refused.value)
    assert steps.build(PERIKLES, s, "y").granted is True

"""Every step of a decision built step by step asks its question in words a player at the table understands, from
the rule texts' own terms, never in an event's field names ("which nominee city"); a Peloponnes bid's coin cards
are named by how many of each back they show, so no two bids read alike and each may be typed."""

from __future__ import annotations

import re
from collections import defaultdict

import msgspec
import pytest

from agon.core import entry, registry, steps
from agon.core.autoplay import CHANCE_ACTOR, play_out
from agon.core.engine import Decision
from agon.core.games.peloponnes import RULESET as PELOPONNES
from agon.events.base import GameCreated, PlayerSeat
from agon.events.peloponnes import BidPlaced, Coins

SHIPPED = [n for n in registry.names() if type(registry.get(n)).__module__.startswith("agon.core.games.")]
"""The rulesets agon ships (core/games/*/), not a test's own."""


def _played(name: str):
    """Seeded games of every size and tested option set, every seat a random bot: (events, actors, states)."""
    rs = registry.get(name)
    for n in range(rs.min_players, rs.max_players + 1):
        for options in getattr(rs, "conformance_options", None) or [{}]:
            for seed in (1, 2, 5):  # 5: a Slave Revolt is played, and struck by chance
                players = tuple(PlayerSeat(f"P{i + 1}", "random") for i in range(n))
                created = GameCreated(ruleset=name, ruleset_version=rs.version, players=players, seed=seed,
                                      options=options, cards=rs.default_cards())
                events, actors, _ = play_out(rs, created, validate=False)
                yield events, actors, rs.initial_state(created)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_field_of_every_decision_asks_in_hand_written_words(name):
    """Every field of every event that is not a chance outcome may become a step (`agon act` builds any decision
    from its words), so each has its question written by hand: a new field that would fall back to "which" and its
    field name fails here. The deciding player's own name, the same in every decision it may take, is never asked."""
    rs = registry.get(name)
    chance: set[str] = set()
    decider_only: dict[str, bool] = defaultdict(lambda: True)  # tag: its 'player' is always the one deciding
    for events, actors, s in _played(name):
        for ev, actor in zip(events[1:], actors[1:], strict=True):
            if actor == CHANCE_ACTOR:
                chance.add(steps.tag_of(ev))
            pending = rs.pending(s)
            if isinstance(pending, Decision):
                for option in rs.legal(s):
                    tag = steps.tag_of(option)
                    decider_only[tag] &= getattr(option, "player", pending.player) == pending.player
            s = rs.apply(s, ev)
    missing = []
    for kind in rs.events:
        tag = kind.__struct_config__.tag
        if tag in chance:
            continue
        for field in kind.__struct_fields__:
            if field == "player" and tag in decider_only and decider_only[tag]:
                continue
            words = steps.prompt_of(rs, tag, field)
            if not words or words == f"which {field.replace('_', ' ')}":
                missing.append(f"{tag}.{field}")
    assert len(SHIPPED) == 4 and not missing, f"fields without a question in the table's words: {', '.join(missing)}"


def test_no_step_asked_in_play_falls_back_to_a_field_name():
    """The questions `play` asks, step after step along seeded games (a few answers of each step followed): each
    in the ruleset's own words."""
    asked: set[tuple[str, str]] = set()

    def follow(rs, s, chosen, budget):
        now = steps.ask(rs, s, chosen)
        if budget[0] <= 0 or not isinstance(now, steps.Question) or now.field in (steps.OPTION, steps.TYPE):
            return
        budget[0] -= 1
        asked.add((rs.name, now.field))
        assert now.prompt != f"which {now.field.replace('_', ' ')}", (rs.name, chosen, now.prompt)
        for value in now.values[:3]:
            follow(rs, s, chosen + (steps.answer(now, value),), budget)

    for name in SHIPPED:
        rs = registry.get(name)
        for events, _, s in list(_played(name))[:3]:
            for k, ev in enumerate(events[1:]):
                if k % 3 == 0 and isinstance(rs.pending(s), Decision):
                    for tag in dict.fromkeys(map(steps.tag_of, rs.legal(s))):
                        follow(rs, s, ((steps.TYPE, steps.tag_label(tag)),), [12])
                s = rs.apply(s, ev)
    assert {("peloponnes", "coins"), ("perikles", "nominee_city"), ("pergamemnon", "creature")} <= asked, asked


def _coin_steps():
    """Peloponnes bids whose coin cards are asked as a step, with the hand bidding: (state, card, question). A step
    with one listed set (the whole hand) is answered by itself, never asked."""
    for events, _, s in _played("peloponnes"):
        for ev in events[1:]:
            if isinstance(ev, BidPlaced):
                hand = s.seat(ev.player).hand
                for card in dict.fromkeys(e.card for e in PELOPONNES.legal(s) if isinstance(e, BidPlaced)):
                    now = steps.ask(PELOPONNES, s, ((steps.TYPE, "bid-placed"), ("card", card)))
                    if isinstance(now, steps.Question) and now.field == "coins" and len(now.choices) > 1:
                        yield s, card, now, hand
            s = PELOPONNES.apply(s, ev)


def test_a_bids_coin_cards_are_named_by_how_many_of_each_back_and_each_is_typed_unambiguously():
    """'which coins: 1:1, 2:1' told no player which backs, and '1:1' read alike for wood and grain or stone and
    people. Each bid now reads as the table counts it (2wood-1grain), leaving out a back it holds none of, and its
    value, its number in the list or the whole bid in one line names that bid alone."""
    checked = zero = 0
    for s, card, question, hand in _coin_steps():
        assert question.prompt.startswith("which coin cards to bid, as how many of each back")
        bids = [e for e in PELOPONNES.legal(s) if isinstance(e, BidPlaced) and e.card == card]
        assert len(set(question.values)) == len(question.values) == len(bids)
        for i, (value, bid) in enumerate(zip(question.values, bids, strict=True), start=1):
            said = {k: bid.coins.get(k) for k in ("wood", "stone", "grain", "people") if bid.coins.get(k)}
            assert value == "-".join(f"{n}{k}" for k, n in said.items())
            assert re.fullmatch(r"\d+(wood|stone|grain|people)(-\d+(wood|stone|grain|people))*", value)
            assert steps.pick(question, value) == value and steps.pick(question, str(i)) == value
            assert steps.build(PELOPONNES, s, f"bid-placed {card} {value}") == bid
            assert steps.build(PELOPONNES, s, f"bid-placed {card} {i}") == bid
        zero += any(hand.get(k) == 0 for k in ("wood", "stone", "grain", "people"))
        checked += 1
        if checked >= 20 and zero:
            break
    assert checked and zero, "no bid was asked step by step with a back missing from the hand: nothing checked"
    with pytest.raises(entry.EntryError, match=r"^which coin cards to bid, as how many of each back .*: 'zz' is none"):
        steps.pick(question, "zz")


def test_two_bids_of_as_many_cards_on_different_backs_never_read_alike():
    def said(coins: Coins) -> str:  # as a step reads a field: from the event's plain data (core.steps)
        return steps.key(msgspec.to_builtins(coins))

    assert said(Coins(wood=1, grain=1)) == "1wood-1grain"
    assert said(Coins(stone=1, people=1)) == "1stone-1people"  # both were '1:1'
    assert said(Coins(wood=2, stone=1)) != said(Coins(wood=2, grain=1))  # both were '2:1'
    assert said(Coins()) == "none"


@pytest.mark.parametrize("name", SHIPPED)
def test_each_ruleset_words_its_own_kinds_of_decision_and_steps_reads_them_from_it(name):
    """The table's words for the kinds of decision (bid, pass, recruit...) were one table in core/steps.py for every
    ruleset; each ruleset now keeps its own (``kind_words``), beside its steps' questions, and words no other's."""
    rs = registry.get(name)
    tags = {kind.__struct_config__.tag for kind in rs.events}
    assert rs.kind_words and set(rs.kind_words) <= tags
    for tag, word in rs.kind_words.items():
        assert steps.kind_word(tag, rs) == steps.kind_word(tag) == word


def test_the_kinds_are_named_in_refusals_as_the_ruleset_words_them(monkeypatch):
    rs = registry.get("peloponnes")
    monkeypatch.setattr(type(rs), "kind_words", {**rs.kind_words, "peloponnes.passed": "pass-on"})
    assert steps.kind_word("peloponnes.passed") == "pass-on"
    assert steps.kind_word("peloponnes.bid_placed") == "bid"


def test_a_ruleset_that_words_no_kinds_names_them_by_their_labels():
    toy = registry.get("toy")
    assert not getattr(toy, "kind_words", None)
    tag = next(iter(toy.events)).__struct_config__.tag
    assert steps.kind_word(tag, toy) == steps.kind_word(tag) == steps.tag_label(tag)

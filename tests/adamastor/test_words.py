"""What a player reads names cards and skills in words: a card by its title and number ("Calafate (9)", rulebook
2.1.1 and 5.4 'carta nº 9'), a skill by its name in rulebook 8 ("'+1 Acção'"), never by an id (``c9``) or a code
(``extra_action``). Ids stay only where a person types them: the events' JSON and the 'card' column of a table."""

from __future__ import annotations

import re

import pytest
from msgspec.structs import replace

from agon.core.games.adamastor.data import SKILLS
from agon.events.adamastor import CardSwapped, DrawnCardKept, IconIgnored, LandCardKept, SkillLearned
from tests.adamastor.support import RS, created, started
from tests.words import texts as said_in

BARE = re.compile(r"\bc\d+\b|" + "|".join(SKILLS))


def bare(text: str) -> list[str]:
    return BARE.findall(text)


def wrong_decisions(s) -> list:
    """Decisions naming cards of the set that the rules refuse here, so that their refusals name those cards (an id
    that names no card is told as typed)."""
    some = (*s.strip, *s.deck[:1])
    return [
        *(SkillLearned(card=c) for c in some),
        *(CardSwapped(hand_card=c, strip_card=c) for c in some),
        *(LandCardKept(card=c, player=s.players[0], bonus=9) for c in some),
        *(IconIgnored(card=c, icon="revolt") for c in some),
        *(DrawnCardKept(card=c) for c in some),
    ]


@pytest.mark.parametrize("players, options, seed", [
    (1, {"difficulty": "regular"}, 5),
    (1, {"scenario": "historical", "less_luck": "true"}, 2),
    (2, {"difficulty": "easy"}, 1),
    (2, {"difficulty": "hard", "less_luck": "true"}, 4),
])
def test_no_option_log_line_status_view_or_refusal_of_a_bot_game_names_a_card_id_or_a_skill_code(
        players, options, seed):
    played: list = []
    texts = said_in(RS, created(players, options, seed=seed), "greedy", lambda s, _: wrong_decisions(s),
                    frozenset({"card"}), played)  # the 'card' column: the id a person types in an event's JSON
    learned = any(isinstance(ev, SkillLearned) for ev in played)
    assert [(t, bare(t)) for t in texts if bare(t)] == []
    said = "\n".join(texts)
    assert re.search(r"[A-Z][^ ()]+ \(\d+\)", said)  # cards are named: a title and its number
    assert not learned or re.search(r"learns the skill '[^']+' \(", said)


def test_a_card_reads_by_title_and_number_and_a_skill_by_its_rule_text_name():
    s = started(strip=("c40", "c39", "c9"), hand=("c14", "c2", "c3"))
    text = RS.narrate(s, CardSwapped(hand_card="c14", strip_card="c9"))
    assert text == "P1 swaps Bombardeiro (14) from hand with Calafate (9) from the strip."
    learn = RS.narrate(replace(s, phase="learn"), SkillLearned(card="c14"))
    assert learn.startswith("P1 learns the skill '+1 Acção' (1 more action every round) from Bombardeiro (14)")
    row = RS.view(s, "P1")["hands"]["P1"][0]
    assert row["card"] == "c14" and row["title"] == "Bombardeiro (14)" and row["back"] == "skill '+1 Acção' (cost 3)"
    assert RS.validate(s, CardSwapped(hand_card="c9", strip_card="c40")).endswith(
        "Calafate (9) is not in P1's hand")
    assert RS.validate(s, CardSwapped(hand_card="c99", strip_card="c40")).endswith("c99 is not in P1's hand")

"""What a player reads names cards and skills in words: a card by its title and number ("Calafate (9)", rulebook
2.1.1 and 5.4 'carta nº 9'), a skill by its name in rulebook 8 ("'+1 Acção'"), never by an id (``c9``) or a code
(``extra_action``). Ids stay only where a person types them: the events' JSON and the 'card' column of a table."""

from __future__ import annotations

import re

import pytest

from agon.core.games.adamastor.data import SKILLS
from agon.events.adamastor import CardSwapped, DrawnCardKept, IconIgnored, LandCardKept, SkillLearned
from tests.adamastor.support import RS, created
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

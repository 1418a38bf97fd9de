"""Counts as a person reads them: '1 event', '2 events', '12,902 events', never '1 events' or '2 branch(es)'.

Every face (the CLI, import's sentence, the rulesets' narration) counts things through ``counted``, so one rule
decides the noun's form and the digits' grouping. It lives in core, the lowest layer that prints sentences, so
that the rulesets and the service may use it as well as the CLI. JSON output keeps its numbers as numbers.
"""

from __future__ import annotations

from collections.abc import Sequence


def plural(noun: str) -> str:
    """``noun``'s plural: 'event' -> 'events', 'branch' -> 'branches', 'head move' -> 'head moves'."""
    return noun + ("es" if noun.endswith(("ch", "sh", "s", "x")) else "s")


def listed(words: Sequence[str], last: str = "and") -> str:
    """Words in a sentence: 'a', 'a and b', 'a, b and c' (``last``: the word before the last, 'or' for a choice)."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def counted(n: int, noun: str, many: str = "") -> str:
    """``n`` of ``noun`` with thousands grouped: '1 event', '0 events', '12,902 events'.

    ``many`` names the plural where adding 's' or 'es' is wrong ('person', 'people')."""
    return f"{n:,} {noun if n == 1 else many or plural(noun)}"

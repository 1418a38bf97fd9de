"""Drawing and checking chance outcomes.

Luck is a pure function of the game's seed, the line's luck salt and the chance ordinal (how many chance events
came before on this line). A what-if branch therefore meets the same luck as the line it left, draw for draw,
unless it was created with fresh luck (a new salt). A person at a real table enters outcomes instead; they are
checked here against what the rules asked for.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from typing import Any

from agon.core import entry
from agon.core.engine import Chance
from agon.core.words import counted


def rng_for(seed: int, luck: int, ordinal: int, purpose: str = "chance") -> random.Random:
    digest = hashlib.sha256(f"{purpose}:{seed}:{luck}:{ordinal}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def draw(chance: Chance, rng: random.Random) -> tuple[Any, ...]:
    """The outcome of ``chance`` from ``rng``."""
    if chance.kind == "dice":
        return tuple(rng.randint(1, chance.sides) for _ in range(chance.count))
    if chance.kind == "draw":
        return tuple(rng.sample(list(chance.items), chance.count))
    items = list(chance.items)
    rng.shuffle(items)
    return tuple(items)


def canonical(chance: Chance, outcome: tuple[Any, ...]) -> tuple[Any, ...]:
    """``outcome`` with each group the rules read in no order (``Chance.unordered``) put in one order: dice low to
    high, items in natural order (``c2`` before ``c10``). Applied to outcomes typed at a table, so that the same
    dice or cards typed again in another order make the same event (and walk back onto an undone line); never to
    outcomes drawn from the seed, which stay as drawn (recorded games, and what ``agon verify`` recomputes)."""
    if not chance.unordered:
        return outcome

    def key(v: Any) -> Any:
        return (entry.natural_key(v), v) if isinstance(v, str) else v

    out: list[Any] = []
    at = 0
    for size in chance.unordered:
        out += sorted(outcome[at:at + size], key=key)
        at += size
    return (*out, *outcome[at:])


def outcome_of(chance: Chance, event: Any) -> tuple[Any, ...] | None:
    """The outcome ``event`` was built from at ``chance``, read back from its payload: its dice (whole numbers the
    dice may show) or its items (strings ``chance`` may draw), in the order the payload holds them; None unless
    building that outcome gives ``event`` again, so a value read wrongly is never taken for the outcome."""
    import msgspec

    leaves: list[Any] = []
    stack = [msgspec.to_builtins(event)]
    while stack:  # depth first, in the payload's own order
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(reversed(list(x.values())))
        elif isinstance(x, list | tuple):
            stack.extend(reversed(x))
        else:
            leaves.append(x)
    if chance.kind == "dice":
        found = [v for v in leaves if type(v) is int and 1 <= v <= chance.sides]
    else:
        items = set(chance.items)
        found = [v for v in leaves if isinstance(v, str) and v in items]
    try:
        rebuilt = chance.build(tuple(found))
    except Exception:  # not an outcome this chance can build: the payload was not read right
        return None
    return tuple(found) if msgspec.json.encode(rebuilt) == msgspec.json.encode(event) else None


def reordered(chance: Chance, a: Any, b: Any) -> bool:
    """Whether events ``a`` and ``b``, both outcomes of ``chance``, differ only in the order of a group the rules
    read in no order (a hand drawn, each side's dice): the same draw, held in another order, as a draw made from
    the seed (kept as drawn) and the same cards typed at a table (put in natural order) are."""
    if not chance.unordered:
        return False
    oa, ob = outcome_of(chance, a), outcome_of(chance, b)
    return oa is not None and ob is not None and oa != ob and canonical(chance, oa) == canonical(chance, ob)


class BadOutcome(ValueError):
    """An outcome typed by a person that cannot be what the rules asked for."""


def parse(chance: Chance, text: str) -> tuple[Any, ...]:
    """Read an outcome typed at a real table (``core.entry``): dice as ``3 5``, ``3,5`` or ``35``; items by any
    unique prefix or abbreviation (``c12 c7``, ``athc``), spaces or commas between them. An item of the set that is
    not here (``Chance.gone``: drawn already, on the display) is refused saying so."""
    try:
        if chance.kind == "dice":
            return entry.dice(text, chance.count, chance.sides)
        gone = None if chance.blind or chance.unseen else {item: (name, why) for item, name, why in chance.gone}
        for t in entry.tokens(text):
            _one_of_alike(chance, t)
        return entry.resolve_all(text, chance.names, "item", chance.named, gone)
    except entry.EntryError as e:
        raise BadOutcome(f"{chance.label}: {e}") from None


def _one_of_alike(chance: Chance, token: str) -> None:
    """Refuse ``token`` where it names several copies alike and nothing else (``gb``: greece.bowman.1 and .2),
    saying that they are alike and how to type one: 'is ambiguous ...; type more of it' read as if the copies
    differed, under a prompt that says any of them may be typed."""
    found = entry.matches(token, chance.names, chance.named)
    if len(found) < 2 or not any(set(found) <= set(group) for group in chance.alike):
        return
    copies = ", ".join(f"{token}{it.rsplit('.', 1)[-1]}" for it in found)
    raise entry.EntryError(f"{entry.quoted(token)} names {len(found)} copies alike ({', '.join(found)}): type one"
                           f" of them with its number ({copies}); which one changes nothing in the game")


def check(chance: Chance, outcome: tuple[Any, ...]) -> None:
    """Raise ``BadOutcome`` unless ``outcome`` is a possible result of ``chance``."""
    if chance.kind == "dice":
        if len(outcome) != chance.count:
            raise BadOutcome(f"{chance.label}: {counted(chance.count, 'die value')} needed, {len(outcome)} given")
        for v in outcome:
            if not isinstance(v, int) or not 1 <= v <= chance.sides:
                raise BadOutcome(f"{chance.label}: a die shows 1 to {chance.sides}, not {v}")
        return
    if chance.kind == "draw":
        if len(outcome) != chance.count:
            raise BadOutcome(f"{chance.label}: {counted(chance.count, 'item')} needed, {len(outcome)} given")
        have = Counter(chance.items)
        missing = Counter(outcome) - have
        if missing and chance.unseen:  # which items are left is hidden: neither listed nor counted
            unknown = entry.natural(set(map(str, outcome)) - set(chance.unseen))
            if unknown:
                raise BadOutcome(f"{chance.label}: {', '.join(unknown)} cannot be drawn here;"
                                 f" possible: {entry.possible(chance.unseen)}")
            raise BadOutcome(f"{chance.label}: what is recorded as left cannot give {' '.join(map(str, outcome))};"
                             " check what was drawn (which items are left is not shown to anyone)")
        if missing:
            # named too often; in counted order (c2 before c10), as every list of items shown to a person
            typed = Counter(outcome)
            over = [f"{entry.shown_item(x, chance.named)} (typed {typed[x]} times, {have[x]} left)"
                    for x in entry.natural(map(str, missing)) if have[x]]
            if over:
                raise BadOutcome(f"{chance.label}: only so many copies can be drawn here: {', '.join(over)}")
            raise BadOutcome(
                f"{chance.label}: {', '.join(entry.natural(set(map(str, missing))))} cannot be drawn here;"
                f" possible: {entry.possible(chance.items, chance.named)}"
            )
        return
    if Counter(outcome) != Counter(chance.items):
        raise BadOutcome(f"{chance.label}: give every one of the {len(chance.items)} items once, in their new order")

"""Fast entry at a real table: items by a unique prefix or abbreviation, dice as digits, items in natural order.

A person recording a game types what they see: the cards drawn, the dice rolled, the tile a player spends. Typing
``athens-candidate`` in full is slow, so every item is also accepted by

- any unique prefix, case-insensitive (``athens-c``, ``meg`` for ``Megara``);
- an abbreviation: prefixes of its words in order, words being split at ``-``, ``.``, ``_`` or a space
  (``athc`` or ``ath-c`` for ``athens-candidate``, ``gb2`` for ``greece.bowman.2``);
- a prefix of a later word, when nothing else matches (``hercules`` for ``greece.hercules``);
- numbers without their leading zeros (``a1`` for ``A01``);
- any of these without its accents (``lingua`` for ``Língua``: ``fold``), in any case;
- the name a card shows, where the ruleset gives one (``names``: ``pal`` or ``palisade`` for ``A02`` named
  "Palisade", ``soh`` for "Sanctuary of Hera"), by the same rules as an id, when the entry names no item by its
  id (so an entry that names an id names it as it did without names: ``a`` is ``A06`` beside ``B03`` Aqueduct).

An exact name always wins, then a prefix, then words typed apart each beginning the item's word in its place
(``ath-h1`` for ``athens-h1-1``, though ``athens-h2-1`` is also ``ath``, ``h``, ``1``), then an abbreviation (of
several, those read in the fewest words: ``athh1`` is ``ath``, ``h1``, so athens-h1-1 too), then a later word; when
the first of these that matches anything matches several items, the entry is refused and the candidates are
named. Nothing here knows a ruleset: the CLI and the HTTP server share it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from agon.core.names import shown as _shown
from agon.core.words import counted, listed

SEPARATORS = re.compile(r"[-._ ]+")


class EntryError(ValueError):
    """A typed entry that names no item, or several; the message says which and what to type instead."""


def fold(text: str) -> str:
    """``text`` as a typed word is matched: in lower case and without its accents (``Língua`` is ``lingua``,
    ``Capitão-mor`` ``capitao-mor``), as a person at a table types a card's title; an accent typed is matched as
    well (folded alike)."""
    return "".join(c for c in unicodedata.normalize("NFD", text.lower()) if not unicodedata.combining(c))


def _value(digits: str) -> str:
    """A run of ASCII digits without its leading zeros ('0' for zeros alone): what it is as a number, for a run of
    any length (``int`` refuses one of more than 4,300 digits, and a person may type one)."""
    return digits.lstrip("0") or "0"


def natural_key(text: str) -> tuple:
    """Sort key putting ``c2`` before ``c10`` (runs of digits compare as numbers), case-insensitive."""
    return tuple((0, len(_value(part)), _value(part)) if part.isascii() and part.isdigit() else (1, 0, fold(part))
                 for part in re.split(r"(\d+)", text) if part)


def natural(items: Iterable[str]) -> list[str]:
    return sorted(items, key=natural_key)


def words(item: str) -> list[str]:
    return [w for w in SEPARATORS.split(fold(item)) if w]


def _abbreviates(token: str, ws: Sequence[str]) -> bool:
    """``token`` is made of a non-empty prefix of each of ``ws[0]``, ``ws[1]``, ... in order (it may stop early)."""
    if not token:
        return True
    if not ws:
        return False
    first = ws[0]
    for k in range(min(len(token), len(first)), 0, -1):
        if token[:k] == first[:k] and _abbreviates(token[k:], ws[1:]):
            return True
    return False


Names = Mapping[str, str]
"""An item's name as a person sees it on the table, by item (``{"A02": "Palisade"}``): typed like the item itself
and shown beside it (``A02 Palisade``)."""


def name_word(name: str) -> str:
    """A name as one word that may be typed (no space or comma): ``Sanctuary-of-Hera``."""
    return "-".join(name.replace(",", " ").split())


def _words_of(items: Iterable[str], names: Names | None) -> dict[str, str]:
    """Every word that names an item, with the item it names: the items themselves, and the words of their names
    (a name that is also an item's id, in any case, or that two items share, is left to the ids). A name that
    begins with a number and goes on (an Adamastor card's ``9 Calafate``, number and title as printed) also gives
    that number alone, so that ``1`` names card 1 whole rather than begin ``10 Despenseiro`` too."""
    pool = list(dict.fromkeys(items))
    out = {it: it for it in pool}
    if names:
        ids = {fold(it) for it in pool}
        numbers = {it: m.group(1) for it in pool if (m := _NUMBERED.match(names.get(it, "")))}
        counts = Counter(fold(w) for it in pool for w in {name_word(names.get(it, "")), numbers.get(it, "")} if w)
        for it in pool:
            for word in (name_word(names.get(it, "")), numbers.get(it, "")):
                if word and fold(word) not in ids and counts[fold(word)] == 1:
                    out.setdefault(word, it)
    return out


_NUMBERED = re.compile(r"([0-9]+) +\S")


def shown_item(item: str, names: Names | None = None) -> str:
    """An item as a list shows it: its id, and its name after it when it has one (``A02 Palisade``)."""
    name = (names or {}).get(item, "")
    return f"{item} {name}" if name and name.lower() != item.lower() else item


def matches(token: str, items: Iterable[str], names: Names | None = None) -> list[str]:
    """The items ``token`` may name, from the first tier that names any (exact, prefix, abbreviation, later word),
    by their ids, else by their ``names``; distinct, in natural order."""
    pool = list(items)
    found = _matches(token, pool)
    if found or not names:
        return found
    by = {w: it for w, it in _words_of(pool, names).items() if w != it}
    return natural(set(by[w] for w in _matches(token, by)))


def _matches(token: str, items: Iterable[str]) -> list[str]:
    pool = natural(set(items))
    t = fold(token.strip())
    if not t:
        return []
    squeezed = SEPARATORS.sub("", t)
    parts = [p for p in SEPARATORS.split(t) if p]
    key = natural_key(t)
    tiers = (
        lambda it: it == token.strip(),
        lambda it: fold(it) == t,
        lambda it: natural_key(it) == key,  # 'a1' names 'A01'
        lambda it: fold(it).startswith(t),
        # the words as typed apart, each a prefix of the item's word in its place: 'ath-h1' is athens-h1-1, not
        # also athens-h2-1 (read as 'ath', 'h' of h2, '1')
        lambda it: len(parts) > 1 and len(parts) <= len(words(it))
        and all(w.startswith(p) for p, w in zip(parts, words(it), strict=False)),
        # a word of separators alone ('-', '--') abbreviates nothing: it would otherwise name every item
        lambda it: bool(squeezed) and _abbreviates(squeezed, words(it)),
        lambda it: bool(squeezed) and any(_abbreviates(squeezed, words(it)[i:]) for i in range(1, len(words(it)))),
    )
    for n, tier in enumerate(tiers):
        found = [it for it in pool if tier(it)]
        if len(found) > 1 and n == ABBREVIATION:  # 'athh1' read in the fewest words: ath, h1 (athens-h1-1)
            fewest = {it: _fewest(squeezed, words(it)) for it in found}
            least = min(v for v in fewest.values() if v is not None)
            found = [it for it in found if fewest[it] == least]
        if found:
            return found
    return []


ABBREVIATION = 5
"""The tier of ``_matches`` that reads an entry typed together as the prefixes of an item's words."""


def _fewest(token: str, ws: Sequence[str]) -> int | None:
    """The fewest of ``ws``'s words (from the first, in order) whose prefixes make ``token``, or None: ``athh1`` is
    two words of athens-h1-1 (``ath``, ``h1``) and three of athens-h2-1 (``ath``, ``h``, ``1``)."""
    if not token:
        return 0
    best = None
    for k in range(min(len(token), len(ws[0]) if ws else 0), 0, -1):
        if token[:k] == ws[0][:k]:
            rest = _fewest(token[k:], ws[1:])
            if rest is not None and (best is None or rest + 1 < best):
                best = rest + 1
    return best


def quoted(token: str) -> str:
    """A typed word as an error repeats it: quoted, and cut short (a 50,000-character word is not echoed whole)."""
    return _shown(token, 40)


Gone = Mapping[str, tuple[str, str]]
"""Items of the set that are not among those asked for, each with its name ('' if none) and what became of it, as
every seat knows it (``"corinth-assassin": ("", "has already been drawn (it is on the display)")``)."""


def resolve(token: str, items: Iterable[str], what: str = "item", names: Names | None = None,
            gone: Gone | None = None) -> str:
    """The one item ``token`` names (by its id or its name), or ``EntryError`` naming the candidates (or what may
    be typed); one that names none of them but one item ``gone`` says what became of that item."""
    pool = list(items)
    found = matches(token, pool, names)
    if len(found) == 1:
        return found[0]
    if found:
        shown = ", ".join(shown_item(it, names) for it in found[:12]) + (
            f" and {len(found) - 12} more" if len(found) > 12 else "")
        if _number_cut_short(token, found):  # 'c2' where c2 is gone and c20... are left: not a choice among them
            raise EntryError(f"no {what} {quoted(token)} here ({shown} begin with it: type more of it for one of"
                             " those)")
        raise EntryError(f"{quoted(token)} is ambiguous: it may be {shown}; type more of it")
    it = _gone_named(token, gone or {})
    if it is not None:
        assert gone is not None
        raise EntryError(f"no {what} {quoted(token)} here: {shown_item(it, {it: gone[it][0]})} {gone[it][1]};"
                         f" possible: {possible(pool, names)}")
    raise EntryError(f"no {what} {quoted(token)} here{meant(token, pool, names)}; possible: {possible(pool, names)}")


def near(token: str, items: Iterable[str], names: Names | None = None) -> list[str]:
    """The items ``token``, which names none of them, may have been meant for: those one slip away (a letter
    missing, added, changed, or two side by side swapped: ``egpyt`` for ``egypt``, ``agamenon`` for
    ``greece.agamemnon``) from the item's id, a word of it or its name, or from their start (``egpy``); two slips
    for a word of 7 letters or more. None for a word of fewer than 3 letters, a number, or one every item is far
    from; in natural order."""
    t = fold(token.strip())
    if len(t) < 3 or not t.isascii() or t.isdigit() or not SEPARATORS.sub("", t).isalnum():
        return []
    most = 2 if len(t) >= 7 else 1
    out = []
    for it in set(items):
        spellings = {fold(it), *words(it)}
        if names and names.get(it):
            spellings |= {fold(name_word(names[it])), *words(names[it])}
        if any(_slips(t, s, most) for s in spellings if s):
            out.append(it)
    return natural(out)


def _slips(token: str, word: str, most: int) -> bool:
    """Whether ``token`` is at most ``most`` slips (optimal string alignment: a letter left out, added or changed,
    two swapped) from ``word`` or from a start of it as long as ``token``, give or take one letter."""
    starts = {word} | {word[:n] for n in range(max(1, len(token) - 1), len(token) + 2) if n < len(word)}
    return any(_distance(token, s) <= most for s in starts if abs(len(s) - len(token)) <= most)


def _distance(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions and swaps of two letters side by
    side, each one."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[len(b)]


def meant(token: str, items: Iterable[str], names: Names | None = None) -> str:
    """What a refusal of ``token``, which names no item, adds for the items it may have been meant for (``near``):
    `` (did you mean egypt?)``, or '' when none is near; at most three are named."""
    found = near(token, items, names)
    if not found:
        return ""
    shown = [shown_item(it, names) for it in found[:3]]
    return f" (did you mean {listed(shown, 'or')}?)"


def _gone_named(token: str, gone: Gone) -> str | None:
    """The one item of ``gone`` that ``token`` names, reading the nearest first: ``gone`` is in runs of items alike
    (one thing became of them), the nearest at hand first, and a word that names one item of the runs read so far
    is that item (``pal`` is the Palisade revealed already, not also the Palace of a later era); None when it names
    none, or several of one run."""
    items = list(gone)
    away = {it: name for it, (name, _) in gone.items() if name}
    for end in [i for i in range(1, len(items)) if gone[items[i]][1] != gone[items[i - 1]][1]] + [len(items)]:
        found = matches(token, items[:end], away)
        if found:
            return found[0] if len(found) == 1 else None
    return None


def _number_cut_short(token: str, found: Sequence[str]) -> bool:
    """Whether ``token`` is a whole id ending in a number that every item ``found`` only begins, its number going on
    (``c2`` among ``c20`` to ``c29``): typed in full, it names an item that is not here, rather than several."""
    t = fold(token.strip())
    if not t[-1:].isdigit() or not t.isascii():
        return False
    number = t[len(t.rstrip("0123456789")):]
    if number.startswith("0"):  # 'a0' of zero-padded ids (A02, A06): only ever a start, never a whole number
        return False
    return all(fold(it).startswith(t) and fold(it)[len(t):len(t) + 1].isdigit() for it in found)


def possible(items: Iterable[str], names: Names | None = None) -> str:
    """What may be typed, as a refusal lists it: the first 20 items in natural order, each with its name."""
    choices = natural(set(items))
    return ", ".join(shown_item(it, names) for it in choices[:20]) + (", ..." if len(choices) > 20 else "")


def _canonical(text: str) -> str:
    """Lower case, each run of digits without its leading zeros: two texts with the same ``natural_key`` have the
    same canonical form."""
    return re.sub(r"[0-9]+", lambda m: _value(m.group()), fold(text))


def _natural_reach(t: str, item: str) -> bool:
    """Whether ``t`` followed by more typing may name ``item`` by its number without leading zeros (``a1`` for
    ``A01``): the text before the last run of digits is as the item's, and that run may still grow into the item's
    (``c2`` may become ``c20``; ``a0`` may become ``a01`` or ``a010``)."""
    m = re.search(r"[0-9]+$", t)
    head, digits = (t[:m.start()], m.group()) if m else (t, "")
    whole, start = _canonical(item), _canonical(head)
    if not whole.startswith(start):
        return False
    if not digits:
        return True
    run = re.match(r"[0-9]*", whole[len(start):]).group()  # type: ignore[union-attr]
    return bool(run) and (not digits.strip("0") or run.startswith(_value(digits)))


def reachable(token: str, items: Iterable[str], names: Names | None = None) -> list[str]:
    """The items that ``token``, or ``token`` followed by more typing, may name in any tier (a prefix, an
    abbreviation, a later word, a number without its leading zeros), by their ids or their ``names``; distinct, in
    natural order. Each tier that names an item after more typing also names it now, except a number (``c2`` may
    grow into ``c20``)."""
    if names:
        by = _words_of(items, names)
        return natural(set(by[w] for w in _reachable(token, by)))
    return _reachable(token, items)


def _reachable(token: str, items: Iterable[str]) -> list[str]:
    t = fold(token.strip())
    if not t:
        return []
    squeezed = SEPARATORS.sub("", t)

    def may(it: str) -> bool:
        ws = words(it)
        return (fold(it).startswith(t) or bool(squeezed) and (  # '-' alone abbreviates nothing
            _abbreviates(squeezed, ws) or any(_abbreviates(squeezed, ws[i:]) for i in range(1, len(ws))))
            or _natural_reach(t, it))

    return [it for it in natural(set(items)) if may(it)]


def settled(token: str, items: Iterable[str], names: Names | None = None) -> str | None:
    """The word ``token`` is taken for when it can only mean one item, whatever might still be typed after it; else
    ``None``: the item, or the word of its name when ``token`` is on the way to that (``pal`` is ``Palisade``, and
    ``a2`` is ``A02``). ``play`` then shows that word in full without a space or Enter (``c2`` is not settled while
    ``c20`` is an item: ``c20`` may be what is being typed)."""
    pool = list(items)
    may = reachable(token, pool, names)
    if len(may) != 1 or matches(token, pool, names) != may:
        return None
    if names:
        words = [w for w, it in _words_of(pool, names).items() if it == may[0] and w != it]
        if words and _reachable(token, words):
            return words[0]
    return may[0]


def tokens(text: str) -> list[str]:
    """Entries separated by spaces or commas."""
    return [p for p in text.replace(",", " ").split() if p]


def resolve_all(text: str, items: Iterable[str], what: str = "item", names: Names | None = None,
                gone: Gone | None = None) -> tuple[str, ...]:
    """The items of ``text``, one a word (``resolve``). A word that names several items names the one of them still
    left once the words before it took theirs (``40 cap``, after card 40 Capitão-mor, is Capelão), as ``agon play``
    reads it while it is typed; words after it do not count (``cap 40`` is refused as ambiguous)."""
    pool = list(items)
    left = Counter(pool)
    out = []
    for t in tokens(text):
        found = [it for it in matches(t, pool, names) if left[it] > 0]
        it = found[0] if len(found) == 1 else resolve(t, pool, what, names, gone)
        left[it] -= 1
        out.append(it)
    return tuple(out)


def dice(text: str, count: int, sides: int) -> tuple[int, ...]:
    """Dice typed as ``4 6``, ``4,6`` or, when every die has one digit, ``46``, also in groups (``65 12``, each
    side's pair of a Perikles battle roll): no die of up to 9 sides shows a number of two digits, so each digit of
    such a group is a die, and ``66 5`` is three dice, not two."""
    parts = tokens(text)
    if sides <= 9 and count > 1 and parts and all(p.isascii() and p.isdigit() for p in parts) and any(
            len(p) > 1 for p in parts):
        digits = "".join(parts)
        if len(digits) != count:  # '123' for four dice: the digits typed were three, not one number
            raise EntryError(f"{counted(count, 'die value')} needed, {len(digits)} typed ({' '.join(parts)})")
        parts = list(digits)
    try:
        return tuple(int(p) for p in parts)
    except ValueError:
        example = " ".join("3" for _ in range(count))
        short = f" or '{'3' * count}'" if sides <= 9 and count > 1 else ""
        raise EntryError(f"type {counted(count, 'die value')} as numbers, e.g. '{example}'{short}") from None


def groups(items: Iterable[str]) -> list[tuple[str, list[tuple[str, int]]]]:
    """Items grouped as the game names them (by the first word of ids like ``athens-2`` or ``greece.guard``), in
    natural order, each distinct item with how many of it there are: ``[(group, [(item, count), ...]), ...]``.
    Items without a shared first word stay in one group named ``""``."""
    counts = Counter(items)
    ordered = natural(counts)
    firsts = Counter(words(it)[0] for it in ordered if len(words(it)) > 1)
    out: dict[str, list[tuple[str, int]]] = {}
    for it in ordered:
        ws = words(it)
        key = ws[0] if len(ws) > 1 and firsts[ws[0]] > 1 else ""
        out.setdefault(key, []).append((it, counts[it]))
    if len(out) == 1:
        return [("", [x for v in out.values() for x in v])]
    loose = out.pop("", None)
    rows = sorted(out.items(), key=lambda kv: natural_key(kv[0]))
    return ([("", loose)] if loose else []) + rows


def groups_text(items: Iterable[str], names: Names | None = None) -> list[str]:
    """``groups`` as lines a person reads: ``athens: athens-2, athens-assassin, athens-candidate``; a repeated
    item shows its count (``grain x12``); an item with a name shows it after its id (``A02 Palisade``)."""
    lines = []
    for key, members in groups(items):
        shown = ", ".join(f"{shown_item(it, names)} x{n}" if n > 1 else shown_item(it, names) for it, n in members)
        lines.append(f"{key}: {shown}" if key else shown)
    return lines

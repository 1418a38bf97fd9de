"""Finding hidden information where it must not be: a helper for the conformance tests of every surface.

What a player may not see is read from the ruleset itself: the identifiers (card ids, card and tile names: see
``strings``) that the full view of a state has and that player's view lacks, each by its id and by the words the
texts use for it (``_other_names``: a view may list a deck in words only, a sentence names a card in words). A
text or JSON blob shown to that player leaks when it names one of them as a whole word::

    hidden = hidden_identifiers(ruleset, state, "Ana")       # what Ana may not see in ``state``
    assert not leaks(options_json, hidden)                   # [] when nothing hidden is named

``leaks`` takes a string or any JSON-able data (walked as its JSON text), so the same check serves a CLI's text,
its ``--json``, an HTML page or an HTTP response. What a surface shows about an event is checked against the state
*after* that event (what the event revealed may be named; what it hid may not): ``log_leaks`` does that for a
whole log, and ``moments`` gives, for every event of a line, what each player may not see and may not be told.
Identifiers that are part of the game's public data (the card set in ``game.created``: the contents of the box)
are exempt through ``public_setup``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from agon.core.engine import Ruleset, State
from agon.events.base import Event

NAMING_KEYS = frozenset({"id", "name", "card", "counter", "tile", "title", "special_tile"})
"""The keys under which a view names an item (a card's id and name, a counter, a tile); any other key holds an
attribute ("weapon": "spear", "weather": "cloud") that many items share and that names none of them."""


def strings(data: Any) -> set[str]:
    """Every string in plain nested data that names an item: each string in a list (a pile, a hand, a deck) and
    each string under a naming key (``NAMING_KEYS``)."""
    out: set[str] = set()
    stack: list[tuple[Any, bool]] = [(data, True)]
    while stack:
        x, naming = stack.pop()
        if type(x) is str:
            if naming:
                out.add(x)
        elif isinstance(x, dict):
            stack.extend((v, k in NAMING_KEYS) for k, v in x.items())
        elif isinstance(x, list | tuple | set | frozenset):
            stack.extend((v, True) for v in x)
    return out


def _identifier(text: str) -> bool:
    """An item's name or id: at least two characters with a letter (not a placeholder like "-" or a count)."""
    return len(text) >= 2 and not text.isdigit() and any(c.isalpha() for c in text)


def _other_names(ruleset: Ruleset, state: State) -> dict[str, frozenset[str]]:
    """The other names of what a view names one way: each card, tile or counter id with the words a player reads for
    it (Adamastor's "Piloto (3)" and its title, Perikles' "Persian Fleet tile" and "Corinth hoplite 2", a
    Pergamemnon or Peloponnes card's name), and each such wording that names one item alone with its id. A view
    that lists a hidden deck in words only ("Piloto (3)") then hides its ids too, and one that lists ids hides the
    words a sentence would use for them."""
    source: Any = {"adamastor": lambda: state.cards, "perikles": lambda: state.data,
                   "pergamemnon": lambda: state.table, "peloponnes": lambda: state.cat}.get(ruleset.name,
                                                                                           lambda: None)()
    if source is None:
        return {}
    kept = _NAMES.get(id(source))
    if kept is not None and kept[0] is source:
        return kept[1]
    forms: dict[str, set[str]] = {}

    def same(item: str, *words: str, unique: bool = True) -> None:
        """``words`` name ``item``; with ``unique``, the first of them names it alone (it names ``item`` back)."""
        forms.setdefault(item, set()).update(words)
        if unique:
            forms.setdefault(words[0], set()).update({item, *words[1:]})

    if ruleset.name == "adamastor":
        from agon.core.games.adamastor.state import card_name

        for cid, card in state.cards.player.items():
            same(cid, card_name(state, cid), card.title)
    elif ruleset.name == "perikles":
        from agon.core.games.perikles.data import counter_label, special_name, tile_label

        for sp in state.data.specials:
            same(sp, special_name(sp))
        for tile in set(state.data.deck):
            if " " in tile_label(tile):  # "Any" is a word of every sentence, no name
                same(tile, tile_label(tile))
        for c in state.data.counters:
            same(c.id, counter_label(c), unique=False)  # counters alike read alike
    elif ruleset.name == "pergamemnon":
        for cid, card in state.table.cards.items():
            same(cid, card.name, unique=False)  # copies read alike
    else:
        for cid in (*state.cat.power, *state.cat.civs):
            same(cid, state.cat.name(cid), unique=False)
    out = {k: frozenset(v) for k, v in forms.items()}
    _NAMES[id(source)] = (source, out)
    return out


_NAMES: dict[int, tuple[Any, dict[str, frozenset[str]]]] = {}
"""``_other_names`` by the card data they were read from (kept with it, so an id is never reused)."""


def visible(ruleset: Ruleset, state: State, viewer: str | None) -> frozenset[str]:
    """The identifiers ``ruleset.view(state, viewer)`` shows, by every name (``_other_names``)."""
    shown = strings(ruleset.view(state, viewer))
    names = _other_names(ruleset, state)
    shown |= {other for t in shown for other in names.get(t, ())}
    return frozenset(t for t in shown if _identifier(t))


def hidden_identifiers(ruleset: Ruleset, state: State, viewer: str) -> frozenset[str]:
    """The identifiers in ``ruleset.view(state, None)`` that ``ruleset.view(state, viewer)`` does not show."""
    return visible(ruleset, state, None) - visible(ruleset, state, viewer)


def unnamable(ruleset: Ruleset, before: State, after: State, viewer: str) -> frozenset[str]:
    """What may not be named to ``viewer`` about the event leading from ``before`` to ``after``: hidden from them
    after it, and not seen by them just before it (a card taken from an open row into a hidden hand was seen)."""
    return hidden_identifiers(ruleset, after, viewer) - visible(ruleset, before, viewer)


# A word: letters, digits and "_", with "." and "-" inside it ("rome.spearman.1", "athens-h1-1"), so an id is not
# found inside a longer one ("rome.spearman.1" holds no "spearman"), while "Elephant." ends a sentence.
_WORD = re.compile(r"\w(?:[\w.\-]*\w)?")


@lru_cache(maxsize=4096)
def _pattern(ident: str) -> re.Pattern[str]:
    """The same whole-word rule for an identifier of several words ("Nemean Lion")."""
    return re.compile(rf"(?<![\w.\-]){re.escape(ident)}(?![\w]|[.\-]\w)")


def leaks(blob: Any, hidden: Iterable[str]) -> list[str]:
    """The hidden identifiers that ``blob`` (a text, or JSON-able data) names as whole words, sorted; [] if none."""
    text = blob if isinstance(blob, str) else json.dumps(blob, ensure_ascii=False, default=str)
    words = set(_WORD.findall(text))
    return sorted(h for h in hidden if (h in words if _WORD.fullmatch(h) else h in text and _pattern(h).search(text)))


def public_setup(obj: dict[str, Any]) -> dict[str, Any]:
    """A ``game.created`` event's JSON object without its card set (public: every card of the box is listed)."""
    return {k: v for k, v in obj.items() if k != "cards"} if obj.get("type") == "game.created" else obj


def log_leaks(entries: Sequence[dict[str, Any]], hidden_at: Sequence[frozenset[str]]) -> list[str]:
    """Leaks in a log as printed (rows with ``n``, ``text`` and optionally ``event``): row n is checked against
    ``hidden_at[n]``, what its reader may not be told about event n (``unnamable``). Returns "#n: identifiers"
    per leaking row."""
    found = []
    for row in entries:
        n = row["n"]
        shown = [row.get("text", ""), public_setup(row["event"]) if "event" in row else ""]
        bad = leaks(shown, hidden_at[n])
        if bad:
            found.append(f"#{n}: {', '.join(bad)} in {row.get('text', '')!r}")
    return found


@dataclass(frozen=True)
class Moment:
    """What each player may not see just after event n of a line (``hidden``: no view, option or status shown
    then may name it) and may not be told about event n itself (``unnamable``); ``public``: what a record for
    everyone may not name about event n (unnamable to some player)."""

    hidden: dict[str, frozenset[str]]
    unnamable: dict[str, frozenset[str]]

    @property
    def public(self) -> frozenset[str]:
        return frozenset().union(*self.unnamable.values())


def moments(ruleset: Ruleset, events: Sequence[Event], players: Sequence[str]) -> list[Moment]:
    """One ``Moment`` per event of a line (``events[0]`` is ``game.created``), each view computed once."""
    out: list[Moment] = []
    state = None
    seen_before: dict[str, frozenset[str]] = dict.fromkeys(players, frozenset())
    for ev in events:
        state = ruleset.initial_state(ev) if state is None else ruleset.apply(state, ev)
        full = visible(ruleset, state, None)
        seen = {p: visible(ruleset, state, p) for p in players}
        hidden = {p: full - seen[p] for p in players}
        out.append(Moment(hidden, {p: hidden[p] - seen_before[p] for p in players}))
        seen_before = seen
    return out

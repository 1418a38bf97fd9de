"""A decision built step by step, one field at a time, each step offering only what remains legal.

A decision with many variants (a Perikles commitment of forces, an influence tile taken with a city and a
nominee) is hard to pick from a numbered list of hundreds. Here it is built field by field: the kind of decision
(when several are legal, the usual kind's first step offers the others beside its values, so the usual one is
never asked for), then each field whose value still differs between the legal decisions left,
in the order the ruleset names (``decision_fields``, optional) or else the event's own order. A field that only one
value can take is filled in without asking. Every step may be undone (``back``), and the whole decision may be
typed at once as the values of its steps in order (``athens-2 ath-h2 melos a``), each by any unique prefix
(``core.entry``).

A step filled in by itself is never shown, yet a person may type its value anyway (as they would where several
values are possible): a word that names it is taken as that step, and the words after it read on from there, both
where the whole decision is typed and at a step asked after it (``agon play`` asks "where counters go" at once
when one tile may be spent; ``athe pyl`` there is that tile, then Pylos). A word that names both the forced value
and a value of the step asked after it is read as the step asked when it names exactly one of its values there
(``spa``, with sparta-2 the only tile, is Spartolus where Spartolus is a place), and as the forced value when it
names several there or none (``sparta``, ``sparta-2``). A number is never the forced value: it is the step asked.

By default the steps come from the legal events themselves (``legal(state)``), so every ruleset gets them and
every listed decision is reachable. A ruleset whose ``legal`` is a canonical subset of a larger space (Perikles
lists only some commitments) defines ``decision_steps(state, tag, chosen)`` returning the next ``Question`` (only
values that can still lead to a legal decision), the finished event, or ``None`` to leave that kind of decision to
the default. A step whose answers are too many to list may also read typed words itself (``Question.reads``: a
Peloponnes bid lists one mix of coin cards for each size and reads any other the hand holds, ``a02 2s1w``). The
CLI (``agon play``, ``agon act``) and the HTTP server share this module.

Two more optional hooks word the steps as the table sees them. ``step_words(state, tag, chosen, field)`` gives a
step's question and the words beside its values once the steps ``chosen`` are known (a Perikles assassin's "which
candidate to assassinate in Corinth: A (Ana) or B (Bruno)"), and, as an optional third item, names that may be
typed for its values there (``bru`` for B). ``barred_values(state, tag, chosen, field)`` gives the
values the rules bar at a step, each with the rule in one line, in tiers nearest at hand first: a word that names
one of them, where it names no answer, is refused with that rule (a Peloponnes card the hand cannot pay, a Perikles
position already taken), not as "none of the answers" or as a word past the decision's end. ``value_aliases(state)``
gives other words typed for a value and read as it, never shown ({word: value}: a Pergamemnon copy's id for the
kind a step names, ``greece.bowman.2`` for ``greece.bowman``). ``kind_words`` ({tag: word}) names each kind of
decision as the table says it, in refusals and step prompts, and typed so (``bid``, ``pass``: ``kind_word``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from agon.core import entry, registry
from agon.core.engine import Decision, Ruleset, State, option_text
from agon.core.words import listed
from agon.events.base import Event

DONE = "done"
"""The value a ruleset's question offers when the decision may end at this step (Enter chooses it)."""

TYPE = "type"
OPTION = "option"
SHORT_LIST = 9
"""When this few decisions remain and they still differ in several fields, one numbered list of them is asked."""
LIST_MAX = 40
"""Up to this many legal decisions are shown as a numbered list (as many as `agon options` shows); more are
built step by step."""


@dataclass(frozen=True)
class Choice:
    value: str
    """What is typed (any unique prefix of it); never holds a space or a comma."""
    label: str = ""
    """What is shown beside it, when it says more than the value."""


@dataclass(frozen=True)
class Question:
    field: str
    prompt: str
    choices: tuple[Choice, ...]
    accepts: tuple[str, ...] = ()
    """Further values accepted when typed (e.g. every counter of a kind, where the list shows one of each)."""
    other: tuple[tuple[str, str], ...] = ()
    """Values that answer another field than ``field``: (value, field) pairs, e.g. the other kinds of decision
    offered beside the first step of the usual kind, or another location beside the next counter."""
    names: tuple[tuple[str, str], ...] = ()
    """(value, name) pairs: the name a value shows at the table (a Peloponnes power card's, ``("A02",
    "Palisade")``), which may be typed for it as the value itself may (``core.entry``)."""
    reads: Callable[[str], str | None] | None = dataclasses.field(default=None, compare=False)
    """The ruleset's own reading of a typed word, for a step whose legal answers are too many to list or accept one
    by one (a Peloponnes bid's coin cards: any mix the hand holds, ``2s1w``, where the list shows one mix of each
    size): the value the word stands for, ``None`` when it reads none (the word is then matched as usual), or
    ``Refused`` saying which rule forbids what it reads. A word it reads means exactly that value (``2w`` is two
    wood, not a listed ``2wood-1stone`` it begins); it is never taken before it is ended (``settled_value``)."""

    decisions: tuple[Event, ...] = dataclasses.field(default=(), compare=False)
    """At a short list of whole decisions (``OPTION``): the decisions its numbers name, in order."""
    aliases: tuple[tuple[str, str], ...] = ()
    """(word, value) pairs: other words that may be typed for a value and read as it, never shown (``pick``): a
    Pergamemnon copy's id for the kind the step names (``greece.bowman.2`` for ``greece.bowman``: the copy a person
    typed at the draw; the ruleset's ``value_aliases``), a candidate's name for the decisions of a short list that
    strike them (``_short_list_names``). A word may stand for several values: it is then refused naming them."""

    @property
    def named(self) -> dict[str, str]:
        return dict(self.names)

    def field_of(self, value: str) -> str:
        return dict(self.other).get(value, self.field)

    @property
    def values(self) -> list[str]:
        return [c.value for c in self.choices]


class Listed(entry.EntryError):
    """A word refused at a short list of whole decisions (``which decision``), or words that stop there: ``head``
    says what was wrong, ``question`` holds the decisions listed, which a caller that numbers the decisions otherwise
    (``agon act``, as ``agon options`` numbers them) names by its own numbers."""

    def __init__(self, head: str, question: Question) -> None:
        super().__init__(f"{head}; possible: {answers(question)}")
        self.head, self.question = head, question


class Refused(entry.EntryError):
    """A word that a step's ``reads`` reads as an answer that the rules forbid (a bid of coin cards the hand does not
    hold): the message names the rule. The word answers that step (``_names``), so the refusal is what is told."""


Chosen = tuple[tuple[str, str], ...]
"""The steps taken so far: (field, value) pairs, in order."""


def tag_of(event: Event) -> str:
    return type(event).__struct_config__.tag  # type: ignore[attr-defined,return-value]


def tag_label(tag: str) -> str:
    return tag.split(".", 1)[-1].replace("_", "-")


def kind_word(tag: str, ruleset: Ruleset | None = None) -> str:
    """The kind of decision ``tag`` as the table says it: the verb its options and step prompts use ('P3 bids 1 on
    A12 Quarry', 'P1 passes on nominating'), one word that may be typed for it, as its label may. Each ruleset words
    its own kinds in its optional ``kind_words`` ({tag: word}); a kind it does not word is named by its label
    (``tag_label``), which a step records and which may still be typed. ``ruleset``: the one deciding, else the
    one the tag names (``perikles.nomination_passed``)."""
    words = getattr(ruleset if ruleset is not None else _ruleset_of(tag), "kind_words", None) or {}
    return words.get(tag, tag_label(tag))


def _ruleset_of(tag: str) -> Ruleset | None:
    """The registered ruleset a tag names before its dot, if any."""
    name = tag.partition(".")[0]
    return registry.get(name) if name in registry.RULESETS else None


def _kind_names(ruleset: Ruleset, tags: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """(label, word) pairs for the kinds ``tags``: their words, typed for them (``Question.names``)."""
    return tuple((tag_label(t), kind_word(t, ruleset)) for t in tags)


def key(value: Any) -> str:
    """A field's value as one typeable word: '' and empty lists read 'none', booleans 'yes'/'no', lists join with
    '+', a mapping's values with ':'. A mapping of counts reads as how many of each, by name, leaving out the
    kinds it holds none of (a Peloponnes bid of coin cards, ``{"wood": 2, "grain": 1}``, is ``2wood-1grain``): its
    counts alone (``2:1``) would not say which kinds they are, and two bids could read alike."""
    if value is None or value == "" or value in ([], (), {}):
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return "+".join(key(v) for v in value)
    if isinstance(value, dict):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
            return "-".join(f"{n}{key(k)}" for k, n in value.items() if n) or "none"
        return ":".join(key(v) for v in value.values())
    return str(value).replace(" ", "_").replace(",", "_")


def _fields(ruleset: Ruleset, tag: str, obj: dict[str, Any]) -> list[str]:
    named = list(getattr(ruleset, "decision_fields", {}).get(tag, ()))
    return [f for f in named if f in obj] + [f for f in obj if f != TYPE and f not in named]


_LEGAL: list[tuple[Ruleset, State, list[Event]]] = []


def _legal(ruleset: Ruleset, state: State) -> list[Event]:
    """``legal(state)``, remembered for the last few states (a decision is built over several steps of one state,
    and listing every Perikles commitment takes a while)."""
    for rs, st, legal in _LEGAL:
        if rs is ruleset and st is state:
            return legal
    legal = list(ruleset.legal(state))
    _LEGAL.insert(0, (ruleset, state, legal))
    del _LEGAL[4:]
    return legal


def ask(ruleset: Ruleset, state: State, chosen: Chosen = ()) -> Question | Event:
    """The next question, or the decision once ``chosen`` settles it. Raises ``entry.EntryError`` when ``chosen``
    fits no legal decision.

    When several kinds of decision are legal, the usual one (the kind ``legal`` lists first) is not asked
    for: its first real step (one with several answers) also offers the other kinds by name, and a ``type`` step
    chosen anywhere starts that kind afresh. A kind is asked for on its own only when the usual kind has no real
    step (one decision of it) or its values clash with a kind's name; a word typed there that names no kind but a
    value of one kind's first step starts that kind (``_kind_named``)."""
    legal = _legal(ruleset, state)
    if not legal:
        raise entry.EntryError("no decision is legal now")
    tags = list(dict.fromkeys(tag_of(ev) for ev in legal))
    typed = [i for i, (f, _) in enumerate(chosen) if f == TYPE]
    if typed:
        label = chosen[typed[-1]][1]
        tag = next((t for t in tags if tag_label(t) == label), None)
        if tag is None:
            raise entry.EntryError(f"no {label!r} decision is legal now")
        return _ask_kind(ruleset, state, legal, tag, chosen[typed[-1] + 1:])
    if len(tags) == 1:
        return _ask_kind(ruleset, state, legal, tags[0], chosen)
    usual = tags[0]
    now = _ask_kind(ruleset, state, legal, usual, chosen)
    if not all(_forced(ruleset, state, legal, usual, chosen[:i]) for i in range(len(chosen))):
        return now  # a real step of the usual kind was taken: it is that kind
    others = [tag_label(t) for t in tags if t != usual]
    kinds = Question(TYPE, "which kind of decision",
                     tuple(Choice(tag_label(t), kind_word(t, ruleset)) for t in tags), names=_kind_names(ruleset, tags))
    if not isinstance(now, Question):
        return kinds  # one decision of the usual kind, all its steps forced: the kind is asked for
    if len(now.choices) == 1:
        return now  # answered by itself (forward), then the next step offers the other kinds
    if {v.lower() for v in now.values} & {k.lower() for k in others + [kind_word(t, ruleset) for t in tags]}:
        return kinds
    return Question(now.field, f"{now.prompt} (or another kind of decision:"
                               f" {', '.join(kind_word(t, ruleset) for t in tags if t != usual)})",
                    now.choices + tuple(Choice(tag_label(t), _kind_words(ruleset, state, legal, t))
                                        for t in tags if t != usual),
                    now.accepts + (tag_label(usual),),
                    now.other + tuple((k, TYPE) for k in [*others, tag_label(usual)]),
                    # its values keep their names ('soh' for A06 Sanctuary of Hera); the kinds are named as said
                    now.names + _kind_names(ruleset, tags), now.reads,
                    aliases=now.aliases)


def _kind_words(ruleset: Ruleset, state: State, legal: list[Event], tag: str) -> str:
    """Another kind of decision offered beside the usual kind's first step, in words: the decision itself when the
    kind is one (its name alone, 'perikles-played', tells a newcomer nothing), else that it is another kind."""
    kind = [ev for ev in legal if tag_of(ev) == tag]
    return option_text(ruleset, state, kind[0]) if len(kind) == 1 else "another kind of decision"


def _first_steps(ruleset: Ruleset, state: State, word: str) -> Iterator[tuple[str, Question | Event]]:
    """Each legal kind of decision (its label) and its first real step for ``word``: the first step with several
    answers, or one that ``word`` names."""
    for kind, _, now in _first_steps_after(ruleset, state, word):
        yield kind, now


def _first_steps_after(ruleset: Ruleset, state: State, word: str) -> Iterator[tuple[str, Chosen, Question | Event]]:
    """``_first_steps``, each with the steps taken before it (the kind, and the steps with one answer)."""
    for tag in dict.fromkeys(tag_of(ev) for ev in _legal(ruleset, state)):
        chosen: Chosen = ((TYPE, tag_label(tag)),)
        now = ask(ruleset, state, chosen)
        while _forced_step(now) and not _names(now, word):
            chosen = chosen + (answer(now, now.values[0]),)
            now = ask(ruleset, state, chosen)
        yield tag_label(tag), chosen, now


def _kind_named(ruleset: Ruleset, state: State, word: str) -> str | None:
    """The kind of decision whose first real step ``word`` names, when one kind's alone does: typed where the kinds
    are asked (the pass listed first at a Perikles nomination is one decision, so the kind is asked), 'arg' is the
    city of a nomination, not a kind refused as 'no type'."""
    found = [kind for kind, now in _first_steps(ruleset, state, word)
             if isinstance(now, Question) and _names(now, word)]
    return found[0] if len(found) == 1 else None


def _kind_doubt(ruleset: Ruleset, state: State, word: str) -> str | None:
    """Where the kinds are asked, why ``word`` names no kind when it may begin several answers of one kind's first
    step: a Peloponnes 'a0' may be A01 or A02 to bid on, which is said ('a0' is ambiguous: it may be A01 Well, A02
    Palisade), rather than that it is none of the kinds. None when no kind's first step, or several, so read it."""
    found = []
    for _, now in _first_steps(ruleset, state, word):
        if isinstance(now, Question) and any(len(entry.matches(word, words, now.named)) > 1
                                             for words in (now.values, now.accepts)):
            try:
                pick(now, word)
            except entry.EntryError as e:  # said where the kinds are asked: not after a step no one was asked
                found.append(str(e).removeprefix(f"{now.prompt}: "))
    return found[0] if len(found) == 1 else None


def _kind_of(ruleset: Ruleset, state: State, chosen: Chosen) -> tuple[str, Chosen]:
    """The kind of decision that ``chosen`` builds (the last kind typed, else the usual one) and its own steps."""
    tags = list(dict.fromkeys(tag_of(ev) for ev in _legal(ruleset, state)))
    typed = [i for i, (f, _) in enumerate(chosen) if f == TYPE]
    tag = next((t for t in tags if typed and tag_label(t) == chosen[typed[-1]][1]), tags[0] if tags else "")
    own = chosen[typed[-1] + 1:] if typed else chosen
    return tag, tuple((f, v) for f, v in own if f not in (TYPE, OPTION))


def _barred(ruleset: Ruleset, state: State, kind: tuple[str, Chosen], field: str, offered: Sequence[str],
            word: str) -> str | None:
    """Why the rules bar the value ``word`` names for ``field`` of a decision of ``kind`` (its tag, and the steps chosen
    of it), when it names no value ``offered`` there but one that the ruleset's optional ``barred_values(state, tag,
    chosen, field)`` bars (a Peloponnes card the hand cannot pay, a Perikles candidate's position already taken): its
    one line naming the rule, else ``None``. The hook gives tiers of {value: why}, nearest at hand first (the cards on
    the table, then those of other rounds): the word is read against the step's own values and each tier in turn, so
    ``pal`` is the Palisade on the table, not also the Palace of a later era. Only what the deciding player may know is
    said."""
    hook = getattr(ruleset, "barred_values", None)
    t = word.strip()
    if hook is None or field in (TYPE, OPTION) or not t or (t.isascii() and t.isdigit()):
        return None
    tag, own = kind
    names = _value_names(ruleset, state)
    pool = list(offered)
    for tier in hook(state, tag, own, field):
        barred = {v: why for v, why in tier.items() if v not in offered}
        pool += barred
        found = entry.matches(t, pool, names)
        if len(found) == 1 and found[0] in barred:
            return barred[found[0]]
        if found and all(f in barred for f in found) and len({barred[f] for f in found}) == 1:
            return barred[found[0]]  # several values barred for one reason (any of Sparta's counters)
        if found:
            return None  # a value offered, or several: the step says so itself
    return None


def _barred_at(ruleset: Ruleset, state: State, chosen: Chosen, question: Question, word: str) -> str | None:
    """``_barred`` at ``question``, asked after ``chosen``, in the step's own words: its question, then why. At a
    short list of whole decisions, the fields whose words it takes (``cand arg ana a``), each in its own words."""
    tag, own = _kind_of(ruleset, state, chosen)
    if question.field != OPTION:
        why = _barred(ruleset, state, (tag, own), question.field, [*question.values, *question.accepts], word)
        return None if why is None else f"{question.prompt}: {why}"
    for field in dict.fromkeys(f for _, f in question.other):
        why = _barred(ruleset, state, (tag, own), field, [v for v, f in question.other if f == field], word)
        if why is not None:
            return f"{_step_words(ruleset, state, tag, own, field)[0] or _prompt(ruleset, tag, field)}: {why}"
    return None


def _barred_first(ruleset: Ruleset, state: State, word: str) -> entry.EntryError | None:
    """Where the kinds of decision are asked, why ``word`` is none of them when it names a value the rules bar at
    one kind's first real step (a Peloponnes power card the hand cannot pay, where a pass is listed first): the
    refusal, naming what that step offers and the other kinds."""
    for kind, chosen, now in _first_steps_after(ruleset, state, word):
        others = ", ".join(kind_word(t, ruleset) for t in dict.fromkeys(tag_of(ev) for ev in _legal(ruleset, state))
                           if tag_label(t) != kind)
        if isinstance(now, Question) and (head := _barred_at(ruleset, state, chosen, now, word)) is not None:
            return _refused(now, head + (f" (or another kind of decision: {others})" if others else ""))
        if not isinstance(now, Question) and (head := _barred_settled(ruleset, state, chosen, now, word)):
            # the kind is one decision, settled without a step: name it, and the other kinds
            word_of = {tag_label(t): kind_word(t, ruleset) for t in (tag_of(ev) for ev in _legal(ruleset, state))}
            return entry.EntryError(f"{head}; possible: {word_of.get(kind, kind)}"
                                    f" ({option_text(ruleset, state, now).rstrip('.')})"
                                    + (f", or another kind of decision: {others}" if others else ""))
    return None


def _barred_settled(ruleset: Ruleset, state: State, chosen: Chosen, event: Event, word: str) -> str | None:
    """Why ``word``, typed after the words that settled ``event``, names a value the rules bar for a field no step
    asked (filled in once one decision remained: Sparta's free position B, where A is taken)."""
    tag, own = _kind_of(ruleset, state, chosen)
    taken = {f for f, _ in own}
    for f, v in msgspec.to_builtins(event).items():
        if f == TYPE or f in taken or isinstance(v, dict | list):
            continue
        known = _known(event, own, f)  # the city filled in, where the candidate's words hang on it
        why = _barred(ruleset, state, (tag, known), f, [key(v)], word)
        if why is not None:
            return f"{_step_words(ruleset, state, tag, known, f)[0] or _prompt(ruleset, tag, f)}: {why}"
    return None


def _barred_elsewhere(ruleset: Ruleset, state: State, word: str) -> str | None:
    """Why ``word``, typed where one decision is all that is legal (a Peloponnes hand too short for any bid: the
    pass), names a value the rules bar in a kind of decision that is not legal now (a power card the hand cannot
    pay): the kinds are those of the ruleset's events (``events``), asked before any step of theirs is chosen."""
    if getattr(ruleset, "barred_values", None) is None:
        return None
    legal = {tag_of(ev) for ev in _legal(ruleset, state)}
    for kind in getattr(ruleset, "events", ()):
        tag = kind.__struct_config__.tag
        if tag in legal:
            continue
        for f in kind.__struct_fields__:
            why = _barred(ruleset, state, (tag, ()), f, [], word)
            if why is not None:
                return f"{_prompt(ruleset, tag, f)}: {why}"
    return None


def _forced(ruleset: Ruleset, state: State, legal: list[Event], tag: str, chosen: Chosen) -> bool:
    now = _ask_kind(ruleset, state, legal, tag, chosen)
    return isinstance(now, Question) and len(now.choices) == 1


def _ask_kind(ruleset: Ruleset, state: State, legal: list[Event], tag: str, chosen: Chosen) -> Question | Event:
    """The next question of a decision of kind ``tag``, after ``chosen`` (its own steps)."""
    picked = dict(chosen)
    rest = tuple((f, v) for f, v in chosen if f not in (TYPE, OPTION))
    hook = getattr(ruleset, "decision_steps", None)
    if hook is not None:
        made = hook(state, tag, rest)
        if made is not None:
            return made
    candidates = [ev for ev in legal if tag_of(ev) == tag]
    objs = [msgspec.to_builtins(ev) for ev in candidates]
    for f, v in rest:
        keep = [i for i, o in enumerate(objs) if key(o.get(f)) == v]
        if not keep:
            raise entry.EntryError(f"{entry.quoted(str(v))} is no legal answer to '{_prompt(ruleset, tag, f)}' after"
                                   " the steps before it")
        candidates = [candidates[i] for i in keep]
        objs = [objs[i] for i in keep]
    if len(candidates) == 1:
        return candidates[0]
    if OPTION in picked:
        i = int(picked[OPTION]) - 1
        if not 0 <= i < len(candidates):
            raise entry.EntryError(f"choose 1 to {len(candidates)}, not {i + 1}")
        return candidates[i]
    fields = [f for f in _fields(ruleset, tag, objs[0]) if f not in picked]
    differing = [f for f in fields if len({key(o.get(f)) for o in objs}) > 1]
    if len(candidates) <= SHORT_LIST and len(differing) > 1:  # a few decisions left: one list, told in full
        accepts, other = _field_words(objs, differing)
        names = _short_list_names(ruleset, state, tag, rest, objs, differing)
        _, shared = _field_words(objs, [f for f in fields if f not in differing])  # a value all share (the one
        taken = {a.lower() for a in accepts} | {w.lower() for w, _ in names}  # target) too, unless a name says more
        shared = tuple((v, f) for v, f in shared if v.lower() not in taken)  # ('Ana', deciding: Ana the candidate)
        accepts, other = accepts + tuple(v for v, _ in shared), other + shared
        named = _value_names(ruleset, state)
        return Question(OPTION, "which decision", tuple(
            Choice(str(i), option_text(ruleset, state, ev)) for i, ev in enumerate(candidates, start=1)),
            accepts, other, names=tuple((v, named[v]) for v in accepts if named.get(v)), decisions=tuple(candidates),
            aliases=_aliases(ruleset, state, accepts) + names)
    for f in _fields(ruleset, tag, objs[0]):
        if f in picked:
            continue
        values = list(dict.fromkeys(key(o.get(f)) for o in objs))
        if len(values) > 1:
            named = _value_names(ruleset, state)
            prompt, labels, typed = _step_words(ruleset, state, tag, rest, f)
            named.update(typed)
            return Question(f, prompt or _prompt(ruleset, tag, f),
                            tuple(Choice(v, labels.get(v) or named.get(v, "") or _items_named(v, named))
                                  for v in values),
                            names=tuple((v, named[v]) for v in values if named.get(v)),
                            aliases=_aliases(ruleset, state, values))
    return candidates[0]  # the rest differ only in fields already chosen: alike


def _items_named(value: str, named: Mapping[str, str]) -> str:
    """A value of several items (``c6+c11``: an Adamastor sail's two cards) in the words its items show at the
    table, joined as the value joins them (``6 Cozinheiro + 11 Escrivão``), when each has a name; else ''. Shown
    beside the value, never typed for it: the items are typed apart (``_items_typed_apart``)."""
    items = value.split("+")
    return " + ".join(named[i] for i in items) if len(items) > 1 and all(named.get(i) for i in items) else ""


def prompt_of(ruleset: Ruleset, tag: str, field: str) -> str | None:
    """The question a step asks as the ruleset words it, in the table's and the rule text's terms: its
    ``field_prompts``, by ``tag.field`` and then by field (Perikles' ``granted`` is "give the permission asked
    for"); ``None`` when it has none. Every field of every decision of the shipped rulesets has words
    (tests/test_step_words.py)."""
    prompts = getattr(ruleset, "field_prompts", {})
    return prompts.get(f"{tag}.{field}") or prompts.get(field)


def _prompt(ruleset: Ruleset, tag: str, field: str) -> str:
    """The question a step asks (``prompt_of``), else, for a ruleset that words none, "which" and the field's
    words."""
    return prompt_of(ruleset, tag, field) or f"which {field.replace('_', ' ')}"


def _step_words(ruleset: Ruleset, state: State, tag: str, chosen: Chosen,
                field: str) -> tuple[str | None, dict[str, str], dict[str, str]]:
    """A step's question and the words shown beside its values as the table sees them once the steps ``chosen``
    are taken, from the ruleset's optional ``step_words(state, tag, chosen, field)``: (prompt or None, {value:
    label}, {value: name typed for it}). Where the state alone cannot say it (``value_names``): a Perikles assassin's
    "which candidate (A or B)" names the city chosen before it and who stands as A and B there. The optional third
    item of the hook's answer gives names that may be typed for the values (``bru`` for B where Bruno stands as B);
    a value typed as itself that begins another value's name (``a`` beside Ana as B) waits in ``agon play`` for the
    name or a space, and is taken at once only where no such name begins with it. Only what the deciding player may
    see."""
    hook = getattr(ruleset, "step_words", None)
    made = hook(state, tag, chosen, field) if hook is not None else None
    if not made:
        return None, {}, {}
    return made[0], dict(made[1]), dict(made[2]) if len(made) > 2 else {}


def _step_names(ruleset: Ruleset, state: State, tag: str, chosen: Chosen, field: str) -> dict[str, str]:
    """The names that may be typed for a step's values once the steps ``chosen`` are taken (``_step_words``)."""
    return _step_words(ruleset, state, tag, chosen, field)[2]


def _value_names(ruleset: Ruleset, state: State) -> dict[str, str]:
    """The names the values of a step show at the table, from the ruleset's optional ``value_names(state)`` (a
    Peloponnes power card's name by its id): shown beside a value and typed for it. Only names every player may
    see: a step's values are told to its player, and the name tells no more than the id."""
    hook = getattr(ruleset, "value_names", None)
    return dict(hook(state)) if hook is not None else {}


def _short_list_names(ruleset: Ruleset, state: State, tag: str, rest: Chosen, objs: list[dict[str, Any]],
                      differing: list[str]) -> tuple[tuple[str, str], ...]:
    """At a short list of whole decisions, the names their steps would take for their values, asked one by one
    (``_step_names``: a Perikles assassin's candidate, ``bru`` for B where Bruno stands as B in Corinth), each with
    the number of a decision whose value it names: (name, number) pairs, as ``Question.aliases``. A name found in
    several decisions (Bruno, candidate in Athens and in Corinth) stands for each of them."""
    out: list[tuple[str, str]] = []
    for i, o in enumerate(objs, start=1):
        for n, f in enumerate(differing):
            before = rest + tuple((g, key(o.get(g))) for g in differing[:n])  # the steps asked before it
            name = _step_names(ruleset, state, tag, before, f).get(key(o.get(f)))
            if name:
                out.append((entry.name_word(name), str(i)))
    return tuple(dict.fromkeys(out))


def _aliases(ruleset: Ruleset, state: State, values: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The words the ruleset's optional ``value_aliases(state)`` ({word: value}) reads as one of ``values`` or as an
    item of one of several (``greece.bowman`` of ``greece.bowman+greece.chariot``): a Pergamemnon copy's id typed
    for its kind. The hook gives words for every value that may be offered, whatever a hand holds, so a word it
    reads tells nothing of what is hidden."""
    hook = getattr(ruleset, "value_aliases", None)
    if hook is None:
        return ()
    offered = {*values, *(item for v in values if "+" in v for item in v.split("+"))}
    return tuple((w, v) for w, v in hook(state).items() if v in offered and w not in offered)


def _aliased(question: Question, token: str, among: Collection[str]) -> list[str]:
    """The values of ``among`` that ``token`` names by an alias (``Question.aliases``), as ``core.entry`` reads a
    word (a prefix, an abbreviation: ``gb2`` for ``greece.bowman.2``), in order; several when the word found
    stands for several."""
    words = [w for w, v in question.aliases if v in among]
    found = set(entry.matches(token, words))
    return list(dict.fromkeys(v for w, v in question.aliases if w in found and v in among))


def _named_in_several(question: Question, token: str, numbers: list[str]) -> Listed:
    """At a short list, a name that stands in several of its decisions (``bru``: Bruno, candidate B in Athens and in
    Corinth), refused listing those alone, and naming what tells them apart where the list takes those words
    (``athens or corinth``: typed, the list narrows to the decisions of that city, or to the one decision, whose
    candidate may then be typed by name where several are left)."""
    decisions = tuple(question.decisions[int(v) - 1] for v in numbers)
    objs = [msgspec.to_builtins(ev) for ev in decisions]
    apart = [f for f in dict.fromkeys(f for _, f in question.other) if len({key(o.get(f)) for o in objs}) > 1]
    accepted = {a.lower() for a in question.accepts}
    ways = list(dict.fromkeys(" ".join(key(o.get(f)) for f in apart) for o in objs))
    how = f": type what tells them apart ({', '.join(ways[:-1])} or {ways[-1]})" if apart and all(
        key(o.get(f)).lower() in accepted for o in objs for f in apart) else ""
    word = next(w for w, v in question.aliases if v in numbers and w in entry.matches(token, [w]))
    head = f"{question.prompt}: {entry.quoted(token)} names {word} in {len(numbers)} of them, not one{how}"
    return Listed(head, dataclasses.replace(question, choices=tuple(c for c in question.choices if c.value in numbers),
                                            decisions=decisions))


def _typeable(question: Question) -> list[str]:
    """Every word typed as a whole for a value of ``question``: its values, the values it also accepts and their
    aliases (which ``core.entry`` reads with the values' names)."""
    return [*question.values, *question.accepts, *(w for w, _ in question.aliases)]


def _field_words(objs: list[dict[str, Any]], fields: list[str]) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """What a short list of decisions also accepts besides its numbers: the values of the fields still differing
    (``agon act GAME 'cand arg ana a'`` names the nominee and the slot where the list numbers them), each answering
    its own field; a value two fields share, or a number, is left to the list's numbers."""
    owner: dict[str, str | None] = {}
    for f in fields:
        for v in dict.fromkeys(key(o.get(f)) for o in objs):
            owner[v] = f if owner.get(v, f) == f else None
    words = tuple((v, f) for v, f in owner.items() if f is not None and not v.isdigit())
    return tuple(v for v, _ in words), words


def answer(question: Question, value: str) -> tuple[str, str]:
    """The step taken by answering ``question`` with ``value``: (field, value)."""
    return question.field_of(value), value


def answers(question: Question) -> str:
    """What may be typed at ``question``, as a refusal names it: its values (the first 20, each with its name), or,
    at a short list of whole decisions (``which decision``), each number with the decision it records: ``agon play``
    lists the decisions at the start, not this list, so its numbers alone would say nothing."""
    if question.field == OPTION:
        return "; ".join(f"{c.value}: {c.label.rstrip('.')}" for c in question.choices)
    named = question.named
    kinds = {v for v in question.values if question.field_of(v) == TYPE}  # said in the table's words alone
    values = [named.get(v, v) if v in kinds else v for v in question.values]
    shown = {v: n for v, n in named.items() if v not in kinds}
    shown.update({c.value: c.label for c in question.choices  # several items, by their names ('6 Cozinheiro + ...')
                  if "+" in c.value and c.label and c.value not in shown})
    return entry.possible(values, shown)


def _refused(question: Question, head: str) -> entry.EntryError:
    """The refusal ``head`` at ``question``, naming what may be typed there."""
    if question.field == OPTION:
        return Listed(head, question)
    return entry.EntryError(f"{head}; possible: {answers(question)}")


def negative(token: str) -> bool:
    """``-1``: a number below zero, which names no value and no option (``-`` separates an id's words elsewhere, so
    it would otherwise abbreviate ``1``)."""
    t = token.strip()
    return t[:1] == "-" and t[1:].isascii() and t[1:].isdigit()


def pick(question: Question, token: str) -> str:
    """The value ``token`` names among the question's choices: the value itself, its number in the list (unless the
    values are numbers), what the ruleset reads it as (``Question.reads``), or any unique prefix or abbreviation."""
    values = question.values
    t = token.strip()
    if t in values:
        return t
    if negative(t):
        if any(v.isdigit() for v in values):
            raise _refused(question, f"{question.prompt}: {entry.quoted(t)} is none of the answers")
        raise entry.EntryError(f"{question.prompt}: choose 1 to {len(values)}, not {t}")
    if t.isascii() and t.isdigit() and len(t) < 10 and not any(v.isdigit() for v in values):  # not '²'
        n = int(t)
        if 1 <= n <= len(values):
            return values[n - 1]
        raise entry.EntryError(f"{question.prompt}: choose 1 to {len(values)}, not {n}")
    if question.reads is not None and (read := question.reads(t)) is not None:
        return read
    if question.accepts and not entry.matches(t, values, question.named) \
            and entry.matches(t, question.accepts, question.named):
        return _resolved(question, t, question.accepts)
    if not entry.matches(t, values, question.named):  # said as the step asks, not by the event's field name
        meant = _aliased(question, t, {*values, *question.accepts}) if question.aliases else []
        if len(meant) == 1:  # another word for one value ('gb2', the copy typed at the draw, for its kind)
            return meant[0]
        if meant and question.field == OPTION and question.decisions:
            raise _named_in_several(question, t, meant)
        if meant:
            raise _refused(question, f"{question.prompt}: {entry.quoted(t)} is ambiguous: it may be"
                                     f" {', '.join(meant)}; type more of it")
        raise _refused(question, f"{question.prompt}: {entry.quoted(t)} is none of the answers"
                                 f"{_meant(question, t)}")
    found = entry.matches(t, values, question.named)
    alone = [v for v in found if "+" not in v]
    if len(found) > 1 and len(alone) == 1 and all(alone[0] in v.split("+") for v in found):
        return alone[0]  # one item named by a later word of it ('hor' of rome.horseman): that item alone, not
        # also every answer that holds it with others (a Pergamemnon discard, as 'sail lín' at Adamastor)
    if len(found) > 1 and all("+" in v for v in found):  # one item of answers that hold several
        found = [v for v in values if "+" in v and entry.matches(t, v.split("+"))] or found
        raise entry.EntryError(f"{question.prompt}: {entry.quoted(t)} is one item of several answers"
                               f" ({', '.join(found[:8])}{', ...' if len(found) > 8 else ''}): type every item of"
                               f" the one meant, apart ({' '.join(found[0].split('+'))})")
    return _resolved(question, t, values)


def _meant(question: Question, token: str) -> str:
    """What a refusal of ``token``, none of the answers of ``question``, adds for the answers it may have been meant
    for (``core.entry.near``: ``sperman`` for ``persia.spearman``), each as the step lists it (a kind of decision by
    its word): `` (did you mean persia.spearman?)``, or ''."""
    named = question.named
    found = entry.near(token, [*question.values, *question.accepts], named)
    if not found:
        return ""
    shown = [named.get(v, v) if question.field_of(v) == TYPE else entry.shown_item(v, named) for v in found[:3]]
    return f" (did you mean {listed(shown, 'or')}?)"


def _resolved(question: Question, token: str, items: Sequence[str]) -> str:
    """The item of ``items`` that ``token`` names (``entry.resolve``); one it may not name alone (a start two
    candidates' names share) is refused after the step's question, as every refusal of a step is."""
    try:
        return entry.resolve(token, items, names=question.named)
    except entry.EntryError as e:
        if str(e).startswith(question.prompt):
            raise
        raise entry.EntryError(f"{question.prompt}: {e}") from None


def _names(question: Question, word: str) -> bool:
    """Whether ``word`` names one of the question's values by the value itself (a prefix, an abbreviation), not by
    its number: a step answered by itself is never shown, so a number typed there is meant for the next step."""
    if word.strip().isdigit() and not any(v.isdigit() for v in question.values):
        return False
    try:
        pick(question, word)
    except Refused:
        return True  # read as this step's answer, which the rules refuse: the refusal is told there
    except entry.EntryError:
        return False
    return True


def forward(ruleset: Ruleset, state: State, chosen: Chosen, now: Question | Event) -> tuple[Chosen, Question | Event]:
    """Answer every question that has only one possible answer."""
    while isinstance(now, Question) and len(now.choices) == 1:
        chosen = chosen + (answer(now, now.values[0]),)
        now = ask(ruleset, state, chosen)
    return chosen, now


def walk(ruleset: Ruleset, state: State, words: Sequence[str], chosen: Chosen = ()) -> tuple[Chosen, Question | Event]:
    """Answer one step per word from ``chosen`` on; returns the steps taken and what comes next (a question, or the
    finished decision). A step with one possible answer is answered by itself, unless the word names that answer.
    A word past the end of the decision is refused."""
    chosen, now = _walk(ruleset, state, words, chosen)
    return forward(ruleset, state, chosen, now)


def shown(ruleset: Ruleset, state: State, chosen: Chosen) -> list[str]:
    """The steps ``chosen`` as the questions that asked them list their values: a value with a name shows it after
    it (a Peloponnes power card: ``A11 Forest``), a kind of decision shows its word alone (``bid``), as the options
    say them; a bare id (``A11``) is not what the table reads."""
    out = []
    for i, (field, value) in enumerate(chosen):
        try:
            asked = ask(ruleset, state, chosen[:i])
        except entry.EntryError:
            asked = None
        named = asked.named if isinstance(asked, Question) else {}
        out.append(named.get(value) or value if field == TYPE else entry.shown_item(value, named))
    return out


def typed(ruleset: Ruleset, state: State, chosen: Chosen, now: Question | Event) -> str:
    """The steps ``chosen`` as ``agon act`` and ``POST /act`` take them typed: their values in order. A decision
    settled before any step was asked (the only one legal: a Perikles holder whose one answer is to keep the tile)
    has no value to type, and its option number stands for it; an empty entry is refused."""
    if chosen or isinstance(now, Question):
        return " ".join(v for _, v in chosen)
    return str(_legal(ruleset, state).index(now) + 1)


def _asked(ruleset: Ruleset, state: State, chosen: Chosen) -> Chosen:
    """``chosen`` without the steps at its end that had one possible answer (filled in by themselves, never shown):
    words typed at the step asked after them may still name them."""
    while chosen and _forced_step(ask(ruleset, state, chosen[:-1])):
        chosen = chosen[:-1]
    return chosen


def _forced_step(now: Question | Event) -> bool:
    return isinstance(now, Question) and len(now.choices) == 1


def _walk(ruleset: Ruleset, state: State, words: Sequence[str], chosen: Chosen) -> tuple[Chosen, Question | Event]:
    """``walk`` without answering the one-answer steps after the last word."""
    chosen = _asked(ruleset, state, chosen)
    now = ask(ruleset, state, chosen)
    named: set[str] = set()  # fields of the finished decision named after it was settled
    skip = 0  # words read already, with the one before them, as one value of several items
    for at, w in enumerate(words):
        if skip:
            skip -= 1
            continue
        if not chosen and (kind := _only_kind(ruleset, state, now, w)) is not None:
            chosen = ((TYPE, kind),)  # 'discard hor' where a discard is the one kind legal: as where several are
            now = ask(ruleset, state, chosen)
            continue
        if not isinstance(now, Question) and (field := _settled_field(ruleset, state, now, chosen, named, w)):
            named.add(field)  # the value a field was left with once one decision remained, typed anyway
            continue
        passed: list[tuple[Chosen, Question]] = []  # the steps with one answer this word let fill themselves in
        if _forced_step(now) and _items_typed_apart(now, words[at:]) is None:
            past, ahead = forward(ruleset, state, chosen, now)
            if isinstance(ahead, Question) and _names(ahead, w):  # the step asked names it: read there
                chosen, now = past, ahead
        # a step with one answer of several items is taken where its items are typed apart (the two cards a
        # Peloponnes catastrophe hits, 'T_L1 T_L2 wood grain', as 'T_L2+T_L1' is), not filled in before them
        while _forced_step(now) and not _names(now, w) and _items_typed_apart(now, words[at:]) is None:
            passed.append((chosen, now))
            chosen = chosen + (answer(now, now.values[0]),)
            now = ask(ruleset, state, chosen)
        if isinstance(now, Question) and now.field == TYPE and not _names(now, w) \
                and (kind := _kind_named(ruleset, state, w)) is not None:  # that kind's own first step typed
            chosen = chosen + ((TYPE, kind),)
            now = ask(ruleset, state, chosen)
            while _forced_step(now) and not _names(now, w):
                passed.append((chosen, now))
                chosen = chosen + (answer(now, now.values[0]),)
                now = ask(ruleset, state, chosen)
        elif isinstance(now, Question) and now.field == TYPE and not _names(now, w) \
                and (doubt := _kind_doubt(ruleset, state, w)) is not None:
            raise entry.EntryError(doubt)  # the word begins several answers of a kind's first step: say which
        elif isinstance(now, Question) and now.field == TYPE and not _names(now, w) \
                and (barred := _barred_first(ruleset, state, w)) is not None:
            raise barred  # a value the rules bar at a kind's first step: say which rule
        if not isinstance(now, Question):
            read = option_text(ruleset, state, now).rstrip('.')
            why = _barred_settled(ruleset, state, chosen, now, w) or (
                (at_passed := _barred_passed(ruleset, state, passed, w)) and at_passed[1]) or (
                not chosen and _barred_elsewhere(ruleset, state, w))  # the one decision legal, no step asked
            raise entry.EntryError(f"{why + '; ' if why else ''}the decision is complete before {entry.quoted(w)}"
                                   f" (the words before it read as: {read}); leave it out")
        joined = _items_typed_apart(now, words[at:])
        if joined is not None and _alone(ruleset, state, chosen, now, words[at:]):
            joined = None
        if joined is not None:
            value, skip = joined[0], joined[1] - 1
        else:
            if not _names(now, w):  # a value the rules bar here: say which rule, not "none of the answers"
                if (head := _barred_at(ruleset, state, chosen, now, w)) is not None:
                    raise _refused(now, head)
                if (at_passed := _barred_passed(ruleset, state, passed, w)) is not None:
                    raise _refused(*at_passed)
                if (apart := _one_item_passed(passed, w)) is not None:
                    # a word after it, among those that would be the answer's other items, that the rules bar
                    # there and the step asked does not take ('t_l1 t_l3 wood grain', Land 3 covered) is what was
                    # wrong: said first
                    for later in words[at + 1:at + apart.items]:
                        if not _names(now, later) and (at_passed := _barred_passed(ruleset, state, passed, later)):
                            raise _refused(*at_passed)
                    raise apart
            if (other := _other_player(ruleset, state, now, w)) is not None:
                raise _refused(now, f"{now.prompt}: {other}")
            try:
                value = pick(now, w)
            except entry.EntryError as e:
                if passed and type(e) is entry.EntryError:  # read past steps filled in by themselves: say so
                    raise entry.EntryError(_read_past(passed, w) + str(e)) from None
                raise
        chosen = chosen + (answer(now, value),)
        now = ask(ruleset, state, chosen)
    return chosen, now


def _others(ruleset: Ruleset, state: State, question: Question) -> tuple[str, list[str]]:
    """Who decides now, and the other players of the game whose names answer nothing at ``question`` (not a
    defender to attack, nor a candidate typed by name): the names a word typed there may not name."""
    asked = getattr(ruleset.pending(state), "player", None)
    names = [getattr(p, "name", p) for p in getattr(state, "players", ())]
    if not isinstance(asked, str):
        return "", []
    answers = {entry.fold(w) for w in (*_typeable(question), *question.named.values())}
    return asked, [n for n in names if isinstance(n, str) and n != asked and entry.fold(n) not in answers]


def _other_player(ruleset: Ruleset, state: State, question: Question, word: str) -> str | None:
    """Why ``word`` is refused at ``question`` when it names a player who is not the one deciding (by a reading as
    near as any answer's: ``chl``, or ``ch`` beside ``carthage.hannibal``, which it abbreviates, for Chloe, who may
    not be attacked): the decision is the asked player's, and whose turn it is is said, rather than the word read
    as an answer or the decision recorded as the asked player's. ``None`` for a word of one letter (``c`` for a
    card: too short to name anyone) or one that names an answer at least as nearly."""
    if len(entry.fold(word.strip())) < 2:
        return None
    asked, others = _others(ruleset, state, question)
    if not others:
        return None
    found = entry.matches(word, [*_typeable(question), *others], question.named)
    named = [n for n in found if n in others]
    if not named or len(named) != len(found):
        return None
    who = listed(named, "or")
    return f"{entry.quoted(word)} names {who}, but it is {asked}'s turn to decide, not {who}'s"


def _read_past(passed: Sequence[tuple[Chosen, Question]], word: str) -> str:
    """Why ``word`` was read at the step after ``passed``, steps with one answer that filled themselves in (never
    shown), where it names no answer or several: the one answer each step had, said before that step's refusal, so
    that a word meant for one of them is told it (``ath pyl a`` where Pylos may only be defended: ``a`` is no
    attack there, and reads as a counter to send)."""
    said = "; ".join(f"{q.prompt}: {entry.shown_item(q.values[0], q.named)} is the only answer here (filled in by"
                     " itself)" for _, q in passed if q.field != TYPE)
    return f"{said}, so {entry.quoted(word)} was read at the next step: " if said else ""


def _only_kind(ruleset: Ruleset, state: State, now: Question | Event, word: str) -> str | None:
    """The label of the one kind of decision legal, where ``word``, typed first, names it (its word, ``discard``, or
    a prefix of it, or its label) and may begin no value of the step asked: the kind typed first as the options say
    it ('Chloé discards Horseman': ``discard hor``) is read as where several kinds are legal and it is asked or
    offered, not refused as none of the answers. ``None`` for a number, or where several kinds are legal."""
    tags = list(dict.fromkeys(tag_of(ev) for ev in _legal(ruleset, state)))
    t = word.strip()
    if len(tags) != 1 or not t or t.isdigit() or isinstance(now, Question) and (
            _names(now, t) or entry.reachable(t, _typeable(now), now.named)):
        return None
    kinds = Question(TYPE, "which kind of decision", (Choice(tag_label(tags[0]), kind_word(tags[0], ruleset)),),
                     names=_kind_names(ruleset, tags))
    return tag_label(tags[0]) if _names(kinds, t) else None


def _barred_passed(ruleset: Ruleset, state: State, passed: Sequence[tuple[Chosen, Question]],
                   word: str) -> tuple[Question, str] | None:
    """``_barred_at`` at the steps with one answer that ``word`` let fill themselves in (never shown): the word may
    have been meant for one of them, naming a value the rules bar there. The step, and why."""
    for chosen, q in passed:
        if (head := _barred_at(ruleset, state, chosen, q, word)) is not None:
            return q, head
    return None


class OneItem(entry.EntryError):
    """A word naming one item of an answer of several items, typed alone (``_one_item_passed``); ``items``: how many
    the answer holds."""

    def __init__(self, message: str, items: int) -> None:
        super().__init__(message)
        self.items = items


def _one_item_passed(passed: Sequence[tuple[Chosen, Question]], word: str) -> OneItem | None:
    """Where ``word`` names no answer of the step asked but one item of the answer a step with one answer filled in
    by itself (never shown) holds: a Peloponnes catastrophe's two cards hit, ``t_l1 wood grain`` typed with one of
    them. The refusal at that step, saying how many items its answer holds and which, not that the word is none of
    the answers of the step after it."""
    for _, q in passed:
        items = [v.split("+") for v in q.values]
        if not any(len(i) > 1 for i in items):
            continue
        every = list(dict.fromkeys(x for i in items for x in i))
        if len(entry.matches(word, every)) != 1:
            continue
        n = max(len(i) for i in items)
        named = q.named
        shown = ", ".join(f"{named[v]}: {' '.join(i)}" if named.get(v) else " ".join(i)
                          for v, i in zip(q.values[:4], items, strict=False)) + (", ..." if len(items) > 4 else "")
        return OneItem(f"{q.prompt}: {entry.quoted(word)} is one of {n} taken together here ({shown});"
                       f" type all {n} apart, each once, before what follows", n)
    return None


def _items_typed_apart(question: Question, words: Sequence[str]) -> tuple[str, int] | None:
    """A value of several items (``c17+c39``: two cards discarded together) typed as its items apart, in any order
    (``c17 c39``, ``c39 c17``): the value and how many words it took, the most words that name the items of exactly
    one value, each word one item of it; ``None`` when the first word names a value by itself and no item (or is a
    number) or no words name one so. A step that reads typed words itself (``Question.reads``) reads the words
    joined by ``+`` first, in the order typed, as it reads ``T_L1+T_L2``: where the order of the items matters to
    the rules (a Peloponnes catastrophe's covers go to the cards hit in their order) the ruleset keeps it; else the
    value listed is taken, whatever order the words came in."""
    lists = [v for v in question.values if "+" in v]
    first = words[0].strip()
    if not lists or (first.isascii() and first.isdigit()):
        return None
    most = min(len(words), max(v.count("+") + 1 for v in lists))
    if question.reads is not None and "+" not in "".join(words[:most]):
        for n in range(most, 1, -1):
            read = question.reads("+".join(w.strip() for w in words[:n]))  # Refused: each word one item, not so
            if read is not None:  # many, or one twice: the ruleset's rule, said as the '+' form would hear it
                return read, n
    items = {item for v in lists for item in v.split("+")}
    named = question.named
    if first in question.values and first not in items or len(entry.matches(first, question.values, named)) == 1 \
            and not entry.matches(first, items, named):
        return None  # a word that names a value by itself, and none of its items ('T_L2' names T_L2 of T_L2+T_L1)
    for n in range(most, 1, -1):
        found = [v for v in lists if v.count("+") + 1 == n and _one_each(words[:n], v.split("+"), question)]
        if len(found) == 1:
            return found[0], n
    return None


def _alone(ruleset: Ruleset, state: State, chosen: Chosen, question: Question, words: Sequence[str]) -> bool:
    """Whether the first of ``words``, which names a value of ``question`` by itself and is also an item of a value
    of several (an Adamastor sail of Língua alone, or with Escrivão: ``lín esc``), is meant alone: the word after it
    is read by a step that the value alone leads to. Else the words name the items of the longer value."""
    try:
        value = pick(question, words[0])
        if "+" in value or len(words) < 2:
            return False
        taken = chosen + (answer(question, value),)
        return any(_names(q, words[1]) for q in _through_forced(ruleset, state, taken, ask(ruleset, state, taken)))
    except entry.EntryError:
        return False


def _one_each(words: Sequence[str], items: list[str], question: Question | None = None) -> bool:
    """Whether each word names exactly one of ``items``, each item named once (by the name the ``question`` gives
    it too, ``lín`` for an Adamastor card c23 23 Língua, or by its alias: ``gb2`` for the ``greece.bowman`` of
    ``greece.bowman+greece.chariot``)."""
    left = list(items)
    named = question.named if question is not None else None
    for w in words:
        found = entry.matches(w, left, named) or (_aliased(question, w, left) if question is not None else [])
        if len(found) != 1:
            return False
        left.remove(found[0])
    return not left


def _settled_field(ruleset: Ruleset, state: State, event: Event, chosen: Chosen, named: set[str],
                   word: str) -> str | None:
    """The field of the finished ``event`` that ``word`` names by its value, among those no step chose (filled in
    once one decision remained, never asked: the card a Pergamemnon attack lays when one card has the weapon, the
    slot left free for a nominee): the value of a step answered by itself may still be typed, as may a name the step
    would take for it (``step_words``: the one candidate an assassin may strike, by name). Only plain values
    (not a list of counters) that differ between decisions of the kind (not the player deciding), each once."""
    taken = {f for f, _ in chosen} | named
    kind = [msgspec.to_builtins(ev) for ev in _legal(ruleset, state) if tag_of(ev) == tag_of(event)]
    for f, v in msgspec.to_builtins(event).items():
        if f == TYPE or f in taken or not isinstance(v, str) or not v or len({o.get(f) for o in kind}) < 2:
            continue
        if entry.matches(word, [v]) == [v]:
            return f
        own = _known(event, tuple((g, x) for g, x in chosen if g not in (TYPE, OPTION)), f)
        if entry.matches(word, [v], _step_names(ruleset, state, tag_of(event), own, f)) == [v]:
            return f  # by the name the step would take for it (the one candidate an assassin may strike)
    return None


def _known(event: Event, own: Chosen, field: str) -> Chosen:
    """The steps ``own`` and the other plain values of the finished ``event`` that no step chose, as the board shows
    them once it is settled: where a step's words hang on a value filled in by itself (the candidates an assassin
    may strike in the one city that has any, ``spaa`` where only Athens has a candidate), they are found."""
    taken = {g for g, _ in own}
    return own + tuple((g, x) for g, x in msgspec.to_builtins(event).items()
                       if g not in (TYPE, field) and g not in taken and isinstance(x, str) and x)


def settled_value(question: Question, token: str) -> str | None:
    """The value ``token`` names at ``question`` when it can only mean that one, whatever might still be typed
    after it (``core.entry.settled``); a number in the list is settled when no longer number is in it (``3`` of 12
    choices, not ``1``)."""
    values = question.values
    t = token.strip()
    if negative(t) and t not in values:
        return None
    if question.reads is not None:  # typed on, the word may still read as another value (2s as 2s1w, 1 as 1w1p)
        return None
    if t.isascii() and t.isdigit() and len(t) < 10 and not any(v.isdigit() for v in values):
        n = int(t)
        longer = any(str(m).startswith(t) for m in range(1, len(values) + 1) if m != n)
        return values[n - 1] if 1 <= n <= len(values) and not longer else None
    found = entry.settled(t, _typeable(question), question.named)  # 'gb' waits while 'gb2' may follow
    try:
        return found if found is not None and pick(question, t) == pick(question, found) else None
    except entry.EntryError:
        return None


def settle(ruleset: Ruleset, state: State, text: str, chosen: Chosen = ()) -> tuple[str, bool] | None:
    """What ``agon play`` makes of ``text`` typed so far for a decision built step by step (``cli.keyread``): when
    its last word can only name one value of the step it answers, the text with that value in full and a space
    after it, and whether that finishes the decision; ``None`` while the last word may still mean several values
    (or names none). Text that ends with a space or a comma is finished when it builds the whole decision (a name
    typed on after it: ``names_after``)."""
    words = entry.tokens(text)
    if not words:
        return None
    try:
        if text[-1] in " ,":
            taken, now = _walk(ruleset, state, words, chosen)
            if _more_items(ruleset, state, taken, words[-1]) is not None:
                return None  # another item may still be typed for the last step ('lín esc' after 'lín')
            return (text, True) if not isinstance(forward(ruleset, state, taken, now)[1], Question) else None
        *head, last = words
        taken, now = _walk(ruleset, state, head, chosen)
        if head and (more := _more_items(ruleset, state, taken, head[-1])) is not None:
            question, items, left = more
            word = entry.settled(last, left, question.named)
            if word is None:
                if entry.reachable(last, left, question.named):
                    return None  # the word may still name an item to add
            else:
                after, end = _walk(ruleset, state, [*head, word], chosen)
                added = {*items.split("+"), entry.resolve(word, left, names=question.named)}
                if after[:-1] == taken[:-1] and after[-1][0] == taken[-1][0] and set(after[-1][1].split("+")) == added:
                    end = forward(ruleset, state, after, end)[1]
                    return text[:len(text) - len(last)] + word + " ", not isinstance(end, Question) and _more_items(
                        ruleset, state, after, word) is None
        while isinstance(now, Question) and len(now.choices) == 1:
            if entry.reachable(last, _typeable(now), now.named) and not (last.isdigit() and not any(
                    v.isdigit() for v in now.values)):
                return None  # the word may name the one answer of this step, or a value of the next one
            taken = taken + (answer(now, now.values[0]),)
            now = ask(ruleset, state, taken)
        if not isinstance(now, Question):
            return None
        if len(entry.fold(last)) > 1 and any(entry.reachable(last, [n]) for n in _others(ruleset, state, now)[1]):
            return None  # 'ch' may still become Chloe, who does not decide now: refused at its end, never taken
        value = settled_value(now, last)
        if value is None:
            return None
        after, end = _walk(ruleset, state, [*head, value], chosen)
        if after != taken + (answer(now, pick(now, value)),):
            return None  # the value in full would be read otherwise: leave the word as it is
        end = forward(ruleset, state, after, end)[1]
    except entry.EntryError:
        return None
    return text[:len(text) - len(last)] + value + " ", not isinstance(end, Question) and _more_items(
        ruleset, state, after, last) is None


def _more_items(ruleset: Ruleset, state: State, taken: Chosen, word: str) -> tuple[Question, str, list[str]] | None:
    """Where the last step of ``taken`` was answered with items, ``word`` the last typed for it, that a value of
    several items of that step holds with more (an Adamastor sail of Língua alone, where Língua and Escrivão may be
    discarded together, typed apart: ``lín esc``): the step, its value, and the items that may still be added;
    ``agon play`` then waits for them or Enter. ``None`` otherwise, and where ``word`` chose the whole value (its
    number in the list, or its items joined by ``+``)."""
    if not taken or "+" in word or word.isascii() and word.isdigit():
        return None
    field, value = taken[-1]
    question = ask(ruleset, state, taken[:-1])
    if not isinstance(question, Question) or question.field_of(value) != field or len(question.choices) < 2:
        return None
    have = set(value.split("+"))
    left = [i for v in question.values if have < set(v.split("+")) for i in v.split("+") if i not in have]
    return (question, value, list(dict.fromkeys(left))) if left else None


def _unasked(ruleset: Ruleset, state: State, chosen: Chosen,
             event: Event) -> Iterator[tuple[str, str, dict[str, str], Chosen]]:
    """The fields of the finished ``event`` that no step chose (filled in once one decision remained) and that the
    ruleset's ``step_words`` words (the candidate an assassin strikes, where one stands in the city named, and that
    city where it is the one with a candidate): each field, its value, the names typed for the values there
    ({value: name}), and the steps and values the board shows then (``_known``)."""
    tag, own = _kind_of(ruleset, state, chosen)
    taken = {f for f, _ in own}
    kind = [msgspec.to_builtins(ev) for ev in _legal(ruleset, state) if tag_of(ev) == tag_of(event)]
    for f, v in msgspec.to_builtins(event).items():
        if f == TYPE or f in taken or not isinstance(v, str) or not v or len({o.get(f) for o in kind}) < 2:
            continue
        known = _known(event, own, f)
        _, labels, names = _step_words(ruleset, state, tag_of(event), known, f)
        if names.get(v) or labels.get(v):
            yield f, v, names, known


def names_after(ruleset: Ruleset, state: State, text: str, chosen: Chosen = ()) -> dict[str, str | None]:
    """The words a person may type on after ``text`` finished a decision (``agon play`` ended the entry by itself),
    lower-cased: ``{word: None}`` for a word that confirms the decision recorded, ``{word: why}`` for one the rules
    bar there, why in one line naming the rule. They mean a field no step asked (``_unasked``: the one candidate an
    assassin strikes in the city named, ``cor`` where Bruno alone stands in Corinth: ``b`` and ``bruno`` confirm,
    ``ana`` is no candidate there), or the step the last word answered (``_typed_on``: after ``cor a`` took Chloe's
    A, ``chloe`` confirms, ``alex`` is no candidate there). ``cli.keyread`` holds such keys at the next prompt, so
    that they never answer it. Empty when the words do not finish a decision, or leave no such field."""
    try:
        taken, now = walk(ruleset, state, entry.tokens(text), chosen)
    except entry.EntryError:
        return {}
    if isinstance(now, Question):
        return {}
    out: dict[str, str | None] = {}
    hook = getattr(ruleset, "barred_values", None)
    tag, own = _kind_of(ruleset, state, taken)
    unasked = list(_unasked(ruleset, state, taken, now))
    for f, v, names, _ in unasked:
        out.update({v.lower(): None, **({entry.name_word(names[v]).lower(): None} if names.get(v) else {})})
        # the words the rules bar there only where one field was filled in: after 'spaa' (city and candidate filled
        # in) the refill draw's tiles begin with the cities' names, and a city or name barred there would hold the
        # keys of a tile this prompt takes at once ('m' of megara, the tile megara-2; 'an' of 'ana', 'any')
        for tier in hook(state, tag, own, f) if hook is not None and len(unasked) == 1 else ():
            for word in tier:
                if word.lower() not in out and (why := _barred_settled(ruleset, state, taken, now, word)):
                    out[word.lower()] = why
    for word, why in _typed_on(ruleset, state, text, chosen).items():
        out.setdefault(word, why)
    return out


class TypedOn(str):
    """Why the rules bar a word of ``names_after`` that is read only as keys typed on to the last word of the entry,
    with no space between (``ath-2`` then ``spa-h1``, a counter Ana does not command, typed on to the counter that
    ended her commitment): a word typed after a space begins the next entry, as ever. A word whose why is a plain
    string is read so either way."""


def _typed_on(ruleset: Ruleset, state: State, text: str, chosen: Chosen) -> dict[str, str | None]:
    """The words that may be typed on to the step the last word of ``text`` answered (asked, not filled in by
    itself), lower-cased, each with why the rules bar it (``TypedOn``): a counter of a city the player does not
    command, typed on to the last counter sent. At a step whose values are typed by the names of who stands there
    (``step_words``: a Perikles assassin's candidates) those names are read after a space too, as a name typed on
    to a step filled in by itself is (``_unasked``): after ``cor a`` took Chloe's A, ``chloe`` confirms it,
    ``bruno`` (Corinth's B) is refused saying what ``a`` took, and ``alex``, who stands nowhere there, is refused
    naming the rule, typed on to the ``a`` or after a space. ``cli.keyread`` holds keys typed on while they may
    spell one, and refuses a barred one in one line, so that they never answer the next prompt."""
    words = entry.tokens(text)
    if not words:
        return {}
    *head, last = words
    try:
        taken, now = _walk(ruleset, state, head, chosen)
        while _forced_step(now) and not _names(now, last):
            taken = taken + (answer(now, now.values[0]),)
            now = ask(ruleset, state, taken)
        if not isinstance(now, Question) or now.field in (TYPE, OPTION) or not _names(now, last):
            return {}
        picked = pick(now, last)
    except entry.EntryError:
        return {}
    tag, own = _kind_of(ruleset, state, taken)
    named = _step_names(ruleset, state, tag, own, now.field)
    out: dict[str, str | None] = {}
    if named.get(picked):  # who stands where, typed by name: the one taken confirms, another is refused
        for value, name in named.items():
            out[entry.name_word(name).lower()] = None if value == picked else (
                f"{now.prompt}: the entry took {picked} ({named[picked]}); {name} is {value}")
    hook = getattr(ruleset, "barred_values", None)
    offered = {w.lower() for w in (*_typeable(now), *(entry.name_word(n) for n in now.named.values()))}
    for tier in hook(state, tag, own, now.field) if hook is not None else ():
        for word, why in tier.items():
            w = entry.name_word(word).lower()
            if w not in offered and w not in out:
                out[w] = f"{now.prompt}: {why}" if named.get(picked) else TypedOn(f"{now.prompt}: {why}")
    return out


def begins(ruleset: Ruleset, state: State, text: str, chosen: Chosen = ()) -> bool:
    """Whether the last word of ``text`` may name, as typed or typed on (``core.entry.reachable``), a value of the
    step it answers or, past steps with one answer (not asked), of a step after them; a number, one of the step's
    numbered values. ``agon play`` lets keys held back after a word taken early begin the next word only if so
    (``cli.keyread``)."""
    words = entry.tokens(text)
    if not words or text[-1] in " ,":
        return True
    *head, last = words
    try:
        taken, now = _walk(ruleset, state, head, chosen)
    except entry.EntryError:
        return False
    return any(entry.reachable(last, _typeable(q), q.named)
               or last.isascii() and last.isdigit() and len(last) < 10 and 1 <= int(last) <= len(q.values)
               for q in _through_forced(ruleset, state, taken, now))


def digits_begin_a_value(ruleset: Ruleset, state: State, digits: str) -> bool:
    """Whether ``digits``, typed where the pending decision's options are listed by number, may be the start of a
    value of its first step asked (or of one after steps with one answer) that begins with digits and is no number
    itself (an Adamastor sea space, ``15a``): so they are not yet an option number. A value that holds the digits
    only as a later word (``greece.bowman.1``) does not count: digits typed alone are never read as that."""
    try:
        now = ask(ruleset, state)
    except entry.EntryError:
        return False
    return any(v.startswith(digits) for q in _through_forced(ruleset, state, (), now)
               for v in (*q.values, *q.accepts) if not v.isdigit())


def _through_forced(ruleset: Ruleset, state: State, taken: Chosen, now: Question | Event) -> Iterator[Question]:
    """The step ``now`` asks after ``taken`` and, while a step has one possible answer (filled in by itself, never
    shown), the step after it: where a word typed now may still name a value (``begins``,
    ``digits_begin_a_value``). Ends at the first step with several answers, or at the finished decision."""
    while isinstance(now, Question):
        yield now
        if len(now.choices) != 1:
            return
        taken = taken + (answer(now, now.values[0]),)
        now = ask(ruleset, state, taken)


def continues(question: Question, chosen: Chosen) -> bool:
    """Whether ``question`` goes on with a list already begun: a step of its field was taken since the kind of
    decision was (one more counter, or ``done``). Only there do words that run out end the decision by ``done``
    (``build``): a ``done`` offered before the list begins ends the decision having added nothing (a commitment
    sending no units), which is legal but rarely meant, so it is taken only when chosen (typed, or Enter alone at
    that step in ``agon play``)."""
    typed = [i for i, (f, _) in enumerate(chosen) if f == TYPE]
    own = chosen[typed[-1] + 1:] if typed else chosen
    return any(f == question.field for f, _ in own)


def build(ruleset: Ruleset, state: State, text: str) -> Event:
    """The whole decision typed at once as its steps' values in order (``agon act GAME 'ath-2 ath-h2 melos a'``);
    a step that may end the decision ends it when the words run out, once it goes on with a list begun
    (``continues``: ``ath-2 pyl a ath-t4`` sends one counter; ``ath-2`` alone is refused, ``ath-2 done`` sends
    none)."""
    words = entry.tokens(text)
    if (why := option_first(ruleset, state, words)) is not None:
        raise entry.EntryError(why)
    chosen, now = walk(ruleset, state, words)
    while isinstance(now, Question) and DONE in now.values and continues(now, chosen):
        chosen, now = walk(ruleset, state, [DONE], chosen)
    if isinstance(now, Question):
        if now.field == OPTION:
            raise Listed(f"the decision is not complete: next, {now.prompt}", now)
        shown = ", ".join(c.value for c in now.choices[:15]) + (", ..." if len(now.choices) > 15 else "")
        ending = next((c for c in now.choices if c.value == DONE), None)
        end = f" ('{DONE}' ends it here: {ending.label or 'done'})" if ending is not None else ""
        raise entry.EntryError(f"the decision is not complete: next, {now.prompt}: {shown}{end}")
    return now


def option_first(ruleset: Ruleset, state: State, words: Sequence[str]) -> str | None:
    """Why ``words``, a decision typed at once, cannot be read when they begin with a number followed by more words
    and the first step's values are not numbers: a number typed where the options are numbered is an option's
    number (README, 'Recording a game at a table'), and the first step's own list, which would number its values
    otherwise, is not on the screen (a Peloponnes bid: ``3`` is option 3, ``bids 2 on Quarry``; ``3 grain`` read
    the third power card, or was refused as 'choose 1 to 2', the kinds of decision). None when they may be read."""
    if len(words) < 2 or not (words[0].isascii() and words[0].isdigit()) or len(words[0]) > 9:
        return None
    first = ask(ruleset, state)
    if not isinstance(first, Question) or first.field == OPTION or any(v.isdigit() for v in first.values) or (
            entry.matches(words[0], first.values, first.named)):
        return None
    legal = _legal(ruleset, state)
    n = int(words[0])
    said = option_text(ruleset, state, legal[n - 1]).split(";")[0].rstrip(".") if 1 <= n <= len(legal) else ""
    option = f"option {n}: {said}" if said else f"the options are 1 to {len(legal)}"
    return (f"{entry.quoted(' '.join(words))}: a number here is an option's number, typed alone ({option}); type"
            f" the number alone, or the decision by its steps' values, first {first.prompt}: {answers(first)}")


TOGETHER = "0"
"""Typed at ``agon play``'s prompt: the pending pass, and the same pass by every player asked in turn after
(``passes_in_turn``), as one entry."""


def passes_in_turn(ruleset: Ruleset, state: State, people: Collection[str]) -> list[tuple[Event, str]]:
    """The pending decision's pass and the same pass by each player asked in turn after it, with who decides each:
    what a table says as one ("nobody plays a tile", "everyone passes"). A pass is a kind of decision the ruleset
    names in ``passes``: one that every player it asks may always take, whatever they hold, so that taking it for
    them tells nothing hidden (a Perikles holder keeping a special tile before a battle, a nomination passed).
    The run stops at the first decision that is not that pass, at a player met before in it, at a player not among
    ``people`` (a bot's seat decides for itself) and at chance. Empty unless it holds two decisions or more (one is
    the decision's own answer)."""
    kinds = getattr(ruleset, "passes", ())
    run: list[tuple[Event, str]] = []
    s = state
    while True:
        pending = ruleset.pending(s)
        if not isinstance(pending, Decision) or pending.player not in people or any(
                pending.player == p for _, p in run):
            break
        found = [ev for ev in (_legal(ruleset, s) if s is state else ruleset.legal(s)) if tag_of(ev) in kinds]
        if len(found) != 1 or (run and tag_of(found[0]) != tag_of(run[0][0])):
            break
        run.append((found[0], pending.player))
        s = ruleset.apply(s, found[0])
    return run if len(run) > 1 else []


def stepwise(ruleset: Ruleset, state: State) -> bool:
    """Whether ``agon play`` builds the pending decision step by step rather than listing it: the ruleset builds it
    itself, or more than ``LIST_MAX`` decisions are legal."""
    if not isinstance(ruleset.pending(state), Decision):
        return False
    legal = _legal(ruleset, state)
    if len(legal) > LIST_MAX:
        return True
    hook = getattr(ruleset, "decision_steps", None)
    return hook is not None and any(hook(state, t, ()) is not None for t in dict.fromkeys(map(tag_of, legal)))

"""What a branch of a game comes to, in plain data: the summary that listings and statistics read.

``summarise(line)`` computes it from a line the service already holds (its state is folded once); the service
stores it with the events it summarises (events/summary.py holds the table). ``refresh`` recomputes the rows that
are missing or stale, so a listing never shows a summary that differs from a fresh fold.

Sides (what each player plays as: a nation, a civilization) come from a ruleset's optional ``side_label`` and
``sides(state) -> {player: side}``: a player's side is the one the state first names for every player (a
civilization lost to a catastrophe later is still the one the player was dealt).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from agon.core.engine import Over, Ruleset, State, describe_pending
from agon.core.words import counted
from agon.events.summary import Summary


def setup_label(options: dict[str, Any], seats: int, rs: Ruleset | None = None) -> str:
    """A game's setup in words: its options and seat count ("difficulty=hard, 1 player"). A ruleset's optional
    ``setup_options(options)`` names each setup one way, so a default typed and one left out group together; a flag
    reads as typed (``less_luck=true``)."""
    said: Callable[[dict[str, Any]], dict[str, Any]] | None = getattr(rs, "setup_options", None)
    if said is not None:
        options = said(dict(options))
    parts = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(options.items())]
    parts.append(counted(seats, "player"))
    return ", ".join(parts)


def round_word(rs: Ruleset) -> str:
    """What ``rs.round`` counts, as its rules call it (a Perikles turn is a whole round of the table and its battles,
    three at most; a Pergamemnon turn is one player's recruit or attack)."""
    return getattr(rs, "round_word", "round")


def score_unit(rs: Ruleset) -> str:
    """What ``rs.scores`` counts where its numbers are not the rules' points, written right after each number (the
    ruleset's optional ``score_unit``: Adamastor's ``"% of the voyage sailed"``); empty for points. Every face that
    shows a score reads it here, so a score says what it is in a game going on as at its end."""
    return getattr(rs, "score_unit", "")


def shared_name(ruleset: str) -> str | None:
    """Who holds the one score of a ruleset whose players win or lose together (the ruleset's optional
    ``shared_score``: Adamastor's ``"crew"``), or None where each player has a score of their own, or where agon has
    no such ruleset. Read from the ruleset, which every command has loaded, so that telling a crew's score once
    loads nothing more ('agon state' of a crew's game starts as fast as any other)."""
    from agon.core import registry

    try:
        return getattr(registry.get(ruleset), "shared_score", None)
    except registry.UnknownRuleset:
        return None


def shared(ruleset: str, scores: Mapping[str, float]) -> float | None:
    """The one score the players of a game share where they win or lose together (an Adamastor crew's progress:
    the ruleset names who holds it, ``shared_name``), or None where each player has a score of their own."""
    values = set(scores.values())
    if len(values) != 1:  # checked first: most games' scores differ
        return None
    return next(iter(values)) if shared_name(ruleset) else None


def scores_shown(ruleset: str, scores: Mapping[str, float]) -> dict[str, float]:
    """``scores`` as a listing shows them (``agon games``, ``agon branches``): a crew's one score once, as the
    crew's (``{"the crew": 66.7}``), not once for each player; a solo player's score, and each player's own, as
    they are."""
    if len(scores) > 1 and (value := shared(ruleset, scores)) is not None:
        return {f"the {shared_name(ruleset)}": value}
    return dict(scores)


def unit_of(ruleset: str) -> str:
    """``score_unit`` of the ruleset named ``ruleset`` (as a game stores it), or "" where agon has no such ruleset (a
    store's game of a ruleset that ``AGON_RULESETS`` no longer names is listed all the same)."""
    from agon.core import registry

    try:
        return score_unit(registry.get(ruleset))
    except registry.UnknownRuleset:
        return ""


def side_label(rs: Ruleset) -> str | None:
    return getattr(rs, "side_label", None) if getattr(rs, "sides", None) else None


def sides_at(rs: Ruleset, state: State, players: Iterable[str]) -> dict[str, str] | None:
    """Every player's side in ``state``, or None while the state does not name one for every player."""
    fn: Callable[[State], dict[str, str]] | None = getattr(rs, "sides", None)
    if fn is None:
        return {}
    found = fn(state)
    return found if all(p in found for p in players) else None


def sides_of(line: Any, initial: State | None = None) -> dict[str, str]:
    """Each player's side in ``line``: read from the first state that names one for every player (a few events
    into the game), or from the head's state if none does yet (``initial``: the line's first state, if known)."""
    rs = line.ruleset
    if getattr(rs, "sides", None) is None:
        return {}
    names = line.created.names
    state = rs.initial_state(line.created) if initial is None else initial
    found = sides_at(rs, state, names)
    for ev in line.events[1:]:
        if found is not None:
            return found
        state = rs.apply(state, ev)
        found = sides_at(rs, state, names)
    return found if found is not None else rs.sides(line.state)


def summarise(line: Any, sides: dict[str, str] | None = None) -> Summary:
    """The summary of ``line`` at its head (``sides``: when already known, e.g. carried from an earlier head)."""
    rs = line.ruleset
    state = line.state
    pending = rs.pending(state)
    over = isinstance(pending, Over)
    created = line.created
    return Summary(
        game_id=line.game.id, branch=line.branch.name, head_id=line.head.id, ruleset_version=rs.version,
        events=line.depth + 1, rounds=rs.round(state), over=over, status=describe_pending(pending),
        winners=tuple(pending.outcome.winners) if over else (),
        scores=dict(rs.scores(state)),
        seats=tuple((p.name, p.bot or "") for p in created.players), side_label=side_label(rs),
        sides=sides if sides is not None else sides_of(line), options=dict(created.options),
        setup=setup_label(dict(created.options), len(created.players), rs),
    )

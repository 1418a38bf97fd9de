"""Everything a player reads in a seeded bot game, for the tests that no text names a card, tile or counter by id.

``texts`` plays a game whose every seat is a bot and gathers, at each step, the status line, every option's text,
the refusals of some wrong decisions (the test names them: ``wrong(state, player)``), the event's sentence for
every viewer (no seat, everything, each player: ``agon log``, ``--full``, ``--as``) and every text of every viewer's
view but the columns that hold what a person types (``typed``: a card's id beside its name).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from msgspec.structs import replace

from agon.core.autoplay import play_out
from agon.core.engine import PUBLIC, Decision, Ruleset, describe_pending, narrate_as, option_text
from agon.events.base import Event, GameCreated, PlayerSeat


def shown(view: Any, typed: frozenset[str], key: str = "") -> list[str]:
    """Every text of a view a player reads, but those under the keys in ``typed``."""
    if isinstance(view, dict):
        return [t for k, v in view.items() if k not in typed for t in shown(v, typed, k)]
    if isinstance(view, list):
        return [t for v in view for t in shown(v, typed, key)]
    return [view] if isinstance(view, str) else []


def texts(
    rs: Ruleset,
    created: GameCreated,
    bot: str,
    wrong: Callable[[Any, str], Iterable[Event]] = lambda s, p: (),
    typed: frozenset[str] = frozenset(),
    played: list[Event] | None = None,
) -> list[str]:
    """What the players of ``created`` (every seat the bot ``bot``) read over the whole game (``played``: a list
    the game's events are added to, for a test that asks what happened too)."""
    created = replace(created, players=tuple(PlayerSeat(p.name, bot) for p in created.players))
    events, _, _ = play_out(rs, created, validate=True)
    if played is not None:
        played.extend(events)
    viewers = (PUBLIC, None, *created.names)
    state = rs.initial_state(created)
    out: list[str] = []
    for ev in events[1:]:
        pending = rs.pending(state)
        out.append(describe_pending(pending))
        if isinstance(pending, Decision):
            out += [option_text(rs, state, e) for e in rs.legal(state)]
            out += [r for e in wrong(state, pending.player) if (r := rs.validate(state, e))]
        out += [narrate_as(rs, state, ev, v) for v in viewers]
        out += [t for v in viewers for t in shown(rs.view(state, v), typed)]
        state = rs.apply(state, ev)
    out.append(describe_pending(rs.pending(state)))
    return out


def named_by_id(said: list[str], ids: re.Pattern[str]) -> list[tuple[str, list[str]]]:
    """The texts that name something by id, with the ids found ([] when none does)."""
    return [(t, ids.findall(t)) for t in said if ids.search(t)]

"""Seats over a network: who a token opens, and the undo policy (``agon serve``; issue 16).

Creating a game for the server issues one secret token per person's seat and one for the host (the table's
recorder, who enters chance outcomes at a real table and may undo more). Only hashes are stored
(events/seats.py). A request without a token sees what every player sees (``PUBLIC``).

The undo policy, as Board Game Arena's: a player may take back their own last decision, one at a time, only while
nobody else has acted since (a bot included) and nothing hidden has been revealed since it: no chance outcome
drawn after it, and the decision itself showed nobody a thing they could not see before (a card played from a
hand, named in the views; or what a ruleset's ``shows`` says a decision showed though no view names it, such as
the kinds of the coin cards a Peloponnes payment takes from a hand). The host may undo any number of decisions at
any time.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from typing import Any

from agon.core.autoplay import CHANCE_ACTOR
from agon.core.engine import PUBLIC, Ruleset, State, shows
from agon.core.service import SETUP_ACTOR, Line, NotFound, Service, ServiceError
from agon.events import seats as table
from agon.events.hints import again

HOST = ":host"
"""The host's seat (no player may be named with a ':')."""


class WrongToken(ServiceError):
    """A token that opens no seat of the game (the server answers 403)."""


class UndoRefused(ServiceError):
    """An undo the policy does not allow this seat (the server answers 403: the host's token would be allowed)."""


def issue(service: Service, game_id: str, only: Collection[str] | None = None) -> dict[str, str]:
    """New tokens for every person's seat of ``game_id`` and its host (seat -> token; bots get none). Issuing
    again replaces the old tokens. ``only``: those seats alone (players' names as the game stores them, or
    ``HOST``); the other seats keep theirs."""
    line = service.load(game_id)
    people = [p.name for p in line.created.players if not p.bot]
    tokens = {seat: secrets.token_urlsafe(32) for seat in [*people, HOST] if only is None or seat in only}
    table.put(service.store, line.game.id, tokens)
    return tokens


def seat_of(service: Service, game_id: str, token: str | None) -> str | None:
    """The seat ``token`` opens in ``game_id`` (a player's name or ``HOST``); None without a token. A token that
    opens nothing raises ``WrongToken``."""
    if not token:
        return None
    seat = table.seat_of(service.store, game_id, token)
    if seat is None:
        raise WrongToken("this token opens no seat of this game; use the newest link you were given for it, whole"
                         " (a link given later replaces the one before; one cut short or mistyped opens nothing)")
    return seat


def import_new(service: Service, data: bytes) -> str:
    """Import a file written by 'agon export' as a new game (its id); a game already stored is refused, so that an
    import over the network never changes a game that others play (the CLI's 'agon import' may extend one)."""
    from agon.core.transfer import import_file, read_export

    service.writable()
    file = read_export(data)  # read and judged once, the rules replayed, before the store is asked
    stored = service.store.game_by_root(file.events[0].id)
    if stored is not None:
        # a game made or imported at the command line has no links until its keeper gives them ('agon links')
        opens = ("its host's link opens it" if HOST in table.seats(service.store, stored.id) else
                 "it has no seat links yet (it was made or imported where the games are kept): ask whoever keeps"
                 " the games for them")
        raise AlreadyStored(f"game {stored.id} is already on this server (the same first event); nothing was"
                            f" imported: {opens}")
    return import_file(service, file).game_id


class AlreadyStored(ServiceError):
    """An import of a game the store has (the server answers 409)."""


def head_of(service: Service, game_ref: str, branch: str | None) -> tuple[str, str, str]:
    """(game id, branch name, head id) of ``branch`` (default: the game's current one): a cheap look for news,
    without reading the line."""
    from agon.events.store import StoreError, Unknown

    try:
        game, b = service.game_branch(game_ref, branch)
    except Unknown as e:
        raise again(e, NotFound) from None
    except StoreError as e:
        raise again(e, ServiceError) from None
    return game.id, b.name, b.head_id


def signatures(service: Service, game_ids: list[str]) -> dict[str, Any]:
    """A value per game that changes whenever the game moves (any branch head, or its current branch) and whenever
    one of its links is replaced (``issue``: a stream opened with the old link is then refused at once)."""
    heads = service.store.heads_of(game_ids)
    tokens = table.issued(service.store, game_ids)
    return {g: (h, tokens.get(g, ())) for g, h in heads.items()}


NAMING = frozenset({"id", "name", "card", "counter", "tile", "title", "special_tile"})
"""The keys under which a view names an item (a Perikles player's ``special_tile`` too: shown once played)."""


def _names(data: Any) -> set[str]:
    """The strings a view names items with: every string in a list and under an id-like key."""
    out: set[str] = set()
    stack: list[tuple[Any, bool]] = [(data, True)]
    while stack:
        x, naming = stack.pop()
        if isinstance(x, str):
            if naming and len(x) > 1 and not x.isdigit():
                out.add(x)
        elif isinstance(x, dict):
            stack.extend((v, k in NAMING) for k, v in x.items())
        elif isinstance(x, list | tuple):
            stack.extend((v, True) for v in x)
    return out


def revealed(rs: Ruleset, before: State, after: State, viewers: list[str]) -> bool:
    """Whether going from ``before`` to ``after`` showed one of ``viewers`` something hidden from them before."""
    full = _names(rs.view(before, None))
    for v in viewers:
        seen = _names(rs.view(before, v))
        if (_names(rs.view(after, v)) - seen) & (full - seen):
            return True
    return False


def showed(rs: Ruleset, before: State, event: Any, after: State, viewers: list[str]) -> bool:
    """Whether the decision ``event`` (``before`` -> ``after``) showed one of ``viewers`` something hidden from them:
    named in their views (``revealed``), or what the ruleset's ``shows`` says it showed though no view names it."""
    return shows(rs, before, event, after) or revealed(rs, before, after, viewers)


REVEALED = object()
"""``_blocker``: the seat's last decision showed the others something (in the views, or by the ruleset's
``shows``)."""


def _blocker(line: Line, seat: str) -> object:
    """What stands between ``seat`` (a player) and taking back their last decision, found walking back from the
    head only as far as the first event that settles it (so within the tail a line read from a snapshot holds,
    on every state a page reads): ``CHANCE_ACTOR`` (a chance drawn since), another player's name (they acted
    since), ``REVEALED``, ``SETUP_ACTOR`` (no decision on the line at all), or None: nothing, they may."""
    for env in line.newest_first():
        if env.depth == 0 or env.actor == SETUP_ACTOR:
            return SETUP_ACTOR
        if env.actor != seat:
            return env.actor
        others = [PUBLIC, *(p for p in line.created.names if p != seat)]
        step = line.steps(env.depth, env.depth)[0]  # the decision with the state before it (as ``state_at``)
        return REVEALED if showed(line.ruleset, step.before, step.event, step.after, others) else None
    return SETUP_ACTOR


def may_undo(service: Service, line: Line, seat: str) -> bool:
    """Whether ``seat`` may undo one decision on ``line`` now: the host while something on it was entered (not on a
    new game's or a new branch's events that no person entered: ``Service.undoable``), a player their own last
    decision while nobody acted, nothing was drawn and nothing was revealed since; nobody in a store read-only as it
    opened (``Service.writable`` would refuse the undo: a page shows no undo it would be refused)."""
    if service.store.read_only_as_opened:
        return False
    if seat == HOST:
        return service.undoable(line)
    return _blocker(line, seat) is None


def may_redo(service: Service, line: Line, seat: str | None) -> bool:
    """Whether ``seat`` may redo on ``line`` now: the host only (nobody else redoes), while a redo would bring
    something back (``Service.redoable``); nobody in a store read-only as it opened (a page shows no redo it would
    be refused). A player's or a spectator's answer reads no head move."""
    if seat != HOST or service.store.read_only_as_opened:
        return False
    return service.redoable(line)


def undo_refusal(line: Line, seat: str) -> str | None:
    """Why ``seat`` may not undo one decision on ``line`` now (None: they may). The host always may."""
    if seat == HOST:
        return None
    blocker = _blocker(line, seat)
    if blocker is None:
        return None
    if blocker == SETUP_ACTOR:
        return "you have no decision to take back on this line"
    if blocker is REVEALED:
        return ("your last decision showed the other players something they could not see before, so it"
                " cannot be taken back; the host may undo it")
    if not any(env.actor == seat for env in line.newest_first()):  # a refusal only: it may read the whole line
        return "you have made no decision yet on this line, so there is nothing of yours to take back"
    if blocker == CHANCE_ACTOR:
        return "a chance outcome was drawn after your last decision, so it cannot be taken back; the host may undo it"
    return f"{blocker} has acted since your last decision, so it cannot be taken back; the host may undo it"


def undo(service: Service, line: Line, seat: str, steps: int = 1) -> tuple[Any, int]:
    """Undo as ``seat`` under the policy above, on the line the caller read (a race is lost, not misapplied)."""
    service.writable()  # a store that may only be read says so first, as to every request that records
    if seat != HOST and steps != 1:
        # how one decision is asked for is the face's to say (the API's field; a page's button sends no count)
        raise UndoRefused("a player may take back only their own last decision", "{one_back}; the host may undo more")
    why = undo_refusal(line, seat)
    if why:
        raise UndoRefused(f"cannot undo: {why}")
    return service.undo(line.game.id, steps, line.branch.name, expect_head=line.head.id)

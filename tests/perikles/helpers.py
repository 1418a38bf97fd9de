"""Building Perikles positions for the rule tests (given a state / when an event / then the state or the rule)."""

from __future__ import annotations

from agon.core.engine import RuleViolation, check
from agon.core.games.perikles import RULESET as RS
from agon.core.games.perikles.state import COMMIT, NOBODY, Battle, Commit, State, replace
from agon.events.base import GameCreated, PlayerSeat
from agon.events.perikles import BattleTileKept


def created(n: int = 4, seed: int = 1) -> GameCreated:
    players = tuple(PlayerSeat(f"P{i + 1}") for i in range(n))
    return GameCreated(ruleset="perikles", ruleset_version=RS.version, players=players, seed=seed,
                       cards=RS.default_cards())


def fresh(n: int = 4) -> State:
    return RS.initial_state(created(n))


def play(s: State, *events) -> State:
    """Apply events after checking each one as the service does."""
    for e in events:
        check(RS, s, e, getattr(e, "player", None))
        s = RS.apply(s, e)
    return s


def refused(s: State, e) -> str:
    """The rule an event breaks (it must break one)."""
    try:
        check(RS, s, e, getattr(e, "player", None))
    except RuleViolation as v:
        return v.rule
    raise AssertionError(f"{e!r} was accepted")


LOCS = ("Amphipolis", "Plataea", "Pylos", "Mantinea", "Corcyra", "Delium", "Megara")


def at_commit(
    n: int = 4,
    leaders: dict[str, int] | None = None,
    hands: tuple[tuple[str, ...], ...] | None = None,
    locations: tuple[str, ...] = LOCS,
    actor: int = 0,
    commits: tuple[Commit, ...] = (),
    specials: tuple[str, ...] | None = None,
) -> State:
    """A commitment-phase position: leaders by city, influence tiles in hand, the turn's locations."""
    s = fresh(n)
    leaders = leaders or {}
    lead = tuple(leaders.get(c, NOBODY) for c in s.data.cities)
    hands = hands if hands is not None else tuple(("any",) for _ in range(n))
    return replace(
        s, phase=COMMIT, turn=1, leaders=lead, hands=hands, locations=locations, dealt=locations, actor=actor,
        commits=commits, specials=specials or ("perikles", "plague", "alkibiades", "slave-revolt", "phormio")[:n],
    )


def at_battle(s: State, loc: int = 0, tiles_used: bool = False) -> State:
    """Move a commitment position to the battle phase at location ``loc`` (hands emptied) and settle it.
    ``tiles_used``: every special tile is spent already, so nobody is asked before a battle (for the dice)."""
    from agon.core.games.perikles.battle import settle

    s = replace(s, hands=tuple(() for _ in s.players), phase="battle", battle=Battle(loc=loc))
    if tiles_used:
        s = replace(s, used=(True,) * len(s.players))
    return settle(s)


def keep_tiles(s: State, until: str | None = None) -> State:
    """Every holder asked before the battle now keeps their special tile, up to (not including) ``until``."""
    while s.phase == "battle" and s.battle is not None and s.battle.stage == "tiles":
        pending = RS.pending(s)
        if pending.player == until:
            break
        s = play(s, BattleTileKept(player=pending.player))
    return s

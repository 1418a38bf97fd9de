"""Battles, location by location, and the end of a turn.

Follows ../shared/rules/perikles-game-help.pt.txt, paragraphs 12-16 (strengths with the location's modifiers,
the combat results table column, simultaneous 2d6 rolls, the battle token and re-rolls, the token carried into a
location's second battle, losses, automatic wins, grey defence symbols, tiles won, defeat markers, 2 cubes for an
unattacked defence, the Persians' return) and 17-19 (statues, units home, end of the game);
perikles-data-facts.md "Combat results table" and "Special tiles" (Brasidas, Phormio, Persian Fleet, Thessalian
Allies). Readings chosen (what "2 steps" means, battles nobody can fight...) are stated in RULES.md.
"""

from __future__ import annotations

from agon.core.games.perikles.data import KIND_NAMES, PERSIA, Data, special_name
from agon.core.games.perikles.state import (
    BATTLE,
    DEAL_LOCATIONS,
    NOBODY,
    OVER,
    Battle,
    Fought,
    Held,
    State,
    add_cubes,
    main_of,
    next_seat,
    pidx,
    replace,
    set_at,
    units,
)
from agon.events.perikles import BattleDiceRolled, BattleTileKept, BattleTilePlayed

R_TILES = "Special tiles (data facts, 'Special tiles')"
R_DICE = "Battle dice (game help, 'rolam dois dados cada simultaneamente')"
TILE_KIND = {"brasidas": "H", "thessalian-allies": "H", "phormio": "T", "persian-fleet": "T"}
DOUBLED = {"brasidas": ("sparta", "H"), "phormio": ("athens", "T")}
ASK_EVERY_HOLDER = 4
"""The ruleset version from which every holder of an unused special tile is asked before every battle."""
TOKEN_ON_HOLDERS_SIDE = 2
"""The ruleset version from which Thessalian Allies and Persian Fleet put the battle token on the holder's side
("Start a hoplite battle with 1 battle token"), also in a location's second battle. Until then the token moved one
step toward the holder from where it started (back to the middle when the first battle's winner held it), and a
game recorded then is folded so (RULES.md, 'Special tiles')."""
UNATTACKED_NEEDS_DEFENDERS = 6
"""The ruleset version from which an unattacked location gives its main defender 2 cubes only while a defending
counter still stands there (game help, 15th paragraph: "Se um local tem defensores mas não é atacado"). Until then a
main defender whose counters the Slave Revolt had all removed placed the 2 cubes all the same, and a game recorded
then is folded so (RULES.md, 'Battles')."""
STRUCK_COUNTERS_OUT = 6
"""The ruleset version from which a counter the Slave Revolt struck no longer keeps its player at the location for
Thessalian Allies and Persian Fleet, which need the holder to have counters there (RULES.md, 'Special tiles'): the
revolt removes it for the turn (data facts, 'Special tiles'). Until then a holder left with only struck counters
there could still play the tile, and a game recorded then is folded so."""


# ---------------------------------------------------------------------------------------------------------------
# The combat results table


def column(attack: int, defence: int) -> int:
    """The column index (0 = "1:2" ... 5 = "3:1"); the first rule that matches wins (data facts)."""
    a, d = attack, defence
    if a >= 3 * d:
        return 5
    if a >= 2 * d:
        return 4
    if a >= d + 2:
        return 3
    if a >= d or (a > 1 and a >= d - 1):
        return 2
    if 2 * a > d:
        return 1
    return 0


def targets(data: Data, attack: int, defence: int) -> tuple[str, int, int]:
    """(column name, what the attacker needs on 2d6, what the defender needs)."""
    k = column(attack, defence)
    return data.columns[k], data.attacker_needs[k], data.defender_needs[k]


# ---------------------------------------------------------------------------------------------------------------
# The battle now


def current(s: State) -> tuple[str, str]:
    """(location name, battle kind) of the battle in progress."""
    b = s.battle
    assert b is not None
    name = s.locations[b.loc]
    return name, s.data.location(name).battles[b.index]


def strengths(s: State, location: str, kind: str, played: tuple[str, ...] = ()) -> tuple[int, int]:
    """Attack and defence strength: counters (doubled by Brasidas/Phormio) plus the location's bonus. Purple
    (attacker) symbols count only with attacking units there; grey (defender) symbols defend on their own."""
    loc = s.data.location(location)
    doubled = {DOUBLED[t] for t in played if t in DOUBLED}
    out = []
    for side in ("attacker", "defender"):
        here = units(s, location, side, kind)
        total = sum(c.strength * (2 if (c.city, c.kind) in doubled else 1) for _, c in here)
        bonus = loc.bonus(side, kind)
        if here or side == "defender":
            total += bonus
        out.append(total)
    return out[0], out[1]


def side_of(s: State, location: str, player: int) -> str:
    """The side ``player`` fights on at ``location`` with a counter still there ("" when none is): lost counters are
    gone, and from ``STRUCK_COUNTERS_OUT`` those the Slave Revolt struck too."""
    struck = s.revolted if s.version >= STRUCK_COUNTERS_OUT else ()
    for cm in s.commits:
        if cm.location == location and cm.player == player and cm.counter not in s.lost and cm.counter not in struck:
            return cm.side
    return ""


def tile_usable(s: State, player: int) -> bool:
    """May ``player`` play their special tile before the battle now to be fought?"""
    b = s.battle
    if b is None or b.stage != "tiles" or s.used[player]:
        return False
    tile = s.specials[player]
    if tile not in TILE_KIND:
        return False
    location, kind = current(s)
    if TILE_KIND[tile] != kind or tile in b.played:
        return False
    if tile in DOUBLED:
        city, _ = DOUBLED[tile]
        return any(c.city == city for side in ("attacker", "defender") for _, c in units(s, location, side, kind))
    side = side_of(s, location, player)
    if not side:
        return False
    toward = 1 if side == "attacker" else -1
    return b.token * toward <= 0


def to_ask(s: State, player: int) -> bool:
    """Is ``player`` asked to play or keep their special tile before the battle now to be fought?

    From ruleset version 4 (``ASK_EVERY_HOLDER``) every holder of an unused tile is asked, whatever its kind, and
    one whose tile cannot serve here may only keep it: asking only those whose tile could serve told every player
    the kind of a face-down tile (RULES.md, 'Special tiles'). Games recorded before keep the old asking."""
    if s.version >= ASK_EVERY_HOLDER:
        b = s.battle
        return b is not None and b.stage == "tiles" and bool(s.specials[player]) and not s.used[player]
    return tile_usable(s, player)


def tile_chooser(s: State) -> int:
    """The next player (from the first player round the table) still to say whether they play a tile."""
    b = s.battle
    assert b is not None
    p = s.first
    for _ in range(len(s.players)):
        if p not in b.asked and to_ask(s, p):
            return p
        p = next_seat(s, p)
    return NOBODY


def validate_tile(s: State, e: BattleTilePlayed | BattleTileKept) -> str | None:
    p = pidx(s, e.player)
    if s.battle is None or s.battle.stage != "tiles" or tile_chooser(s) != p:
        return f"{R_TILES}: {e.player} has no special tile to play before this battle"
    if isinstance(e, BattleTilePlayed) and e.tile != s.specials[p]:
        typed = f"the {special_name(e.tile)}" if e.tile in s.data.specials else repr(e.tile)
        return f"{R_TILES}: {e.player} holds the {special_name(s.specials[p])}, not {typed}"
    if isinstance(e, BattleTilePlayed) and not tile_usable(s, p):
        location, kind = current(s)
        return (f"{R_TILES}: the {special_name(e.tile)} cannot serve in the {KIND_NAMES[kind]} battle at {location}; it"
                " may only be kept")
    return None


def apply_tile(s: State, e: BattleTilePlayed | BattleTileKept) -> State:
    p = pidx(s, e.player)
    b = s.battle
    assert b is not None
    b = replace(b, asked=b.asked + (p,))
    if isinstance(e, BattleTilePlayed):
        s = replace(s, used=set_at(s.used, p, True))
        if e.tile in DOUBLED:
            b = replace(b, played=b.played + (e.tile,))
        else:
            # "Start a ... battle with 1 battle token" (data facts, 'Special tiles'): the holder starts with the
            # token on its side, also in a location's second battle, wherever the first battle left it. A game
            # recorded before TOKEN_ON_HOLDERS_SIDE moved it one step toward the holder instead.
            location, _ = current(s)
            toward = 1 if side_of(s, location, p) == "attacker" else -1
            token = toward if s.version >= TOKEN_ON_HOLDERS_SIDE else b.token + toward
            b = replace(b, played=b.played + (e.tile,), token=token, start=token)
    return settle(replace(s, battle=b))


def validate_dice(s: State, e: BattleDiceRolled) -> str | None:
    if s.battle is None or s.battle.stage != "dice":
        return f"{R_DICE}: no battle is being rolled now"
    for v in (*e.attacker, *e.defender):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
            return f"{R_DICE}: a die shows 1 to 6, not {v!r}"
    return None


def roll_outcome(s: State, e: BattleDiceRolled) -> tuple[bool, bool, int]:
    """(attacker hits, defender hits, token after) for a roll of the battle now."""
    b = s.battle
    assert b is not None
    location, kind = current(s)
    att, dfn = strengths(s, location, kind, b.played)
    _, need_a, need_d = targets(s.data, att, dfn)
    hit_a = sum(e.attacker) >= need_a
    hit_d = sum(e.defender) >= need_d
    token = b.token + (1 if hit_a and not hit_d else -1 if hit_d and not hit_a else 0)
    return hit_a, hit_d, token


def apply_dice(s: State, e: BattleDiceRolled) -> State:
    b = s.battle
    assert b is not None
    _, _, token = roll_outcome(s, e)
    b = replace(b, token=token, rolls=b.rolls + 1, dice=b.dice + ((*e.attacker, *e.defender),),
                tokens=b.tokens + (token,))
    s = replace(s, battle=b)
    if abs(token) >= 2:
        s = finish_battle(s, "attacker" if token > 0 else "defender")
    return settle(s)


# ---------------------------------------------------------------------------------------------------------------
# Running the battle phase until a person or the dice are needed


def finish_battle(s: State, winner: str) -> State:
    """The loser of a battle loses its lowest counter of that kind, from the main player's when possible."""
    b = s.battle
    assert b is not None
    location, kind = current(s)
    att, dfn = strengths(s, location, kind, b.played)
    loser = "defender" if winner == "attacker" else "attacker"
    here = units(s, location, loser, kind)
    victim = ""
    if here:
        main = main_of(s, location, loser)
        pool = [u for u in here if u[0].player == main] or here
        victim = min(pool, key=lambda u: u[1].strength)[1].id
        s = replace(s, lost=s.lost + (victim,))
    record = Fought(turn=s.turn, location=location, index=b.index, kind=kind, attack=att, defence=dfn,
                    column=targets(s.data, att, dfn)[0] if dfn else "", dice=b.dice, tokens=b.tokens,
                    start=b.start, winner=winner, lost=victim, automatic=not b.dice, played=b.played)
    return replace(s, fought=s.fought + (record,),
                   battle=Battle(loc=b.loc, index=b.index + 1, winners=b.winners + (winner,)))


def _finish_location(s: State) -> State:
    b = s.battle
    assert b is not None
    name = s.locations[b.loc]
    loc = s.data.location(name)
    fought = [w for w in b.winners if w]
    winner = fought[-1] if fought else "defender"
    main = main_of(s, name, winner)
    if main != NOBODY:
        s = replace(s, won=set_at(s.won, main, s.won[main] + (name,)))
    if winner == "attacker":
        c = s.data.city_index(loc.city)
        s = replace(s, defeats=set_at(s.defeats, c, s.defeats[c] + 1))
    held = Held(turn=s.turn, location=name, winner=winner, player=main, defeat=winner == "attacker", cubes=0)
    return replace(s, held=s.held + (held,), battle=Battle(loc=b.loc + 1))


def settle(s: State) -> State:
    while s.phase == BATTLE:
        b = s.battle
        assert b is not None
        if b.loc >= len(s.locations):
            return end_turn(s)
        name = s.locations[b.loc]
        loc = s.data.location(name)
        if b.stage == "start" and b.index == 0 and not units(s, name, "attacker"):
            main = main_of(s, name, "defender")
            defended = s.version < UNATTACKED_NEEDS_DEFENDERS or bool(units(s, name, "defender"))
            if main != NOBODY and defended:
                s = replace(s, cubes=add_cubes(s, loc.city, main, s.data.unattacked_cubes),
                            held=s.held + (Held(turn=s.turn, location=name, winner="defender", player=main,
                                                defeat=False, cubes=s.data.unattacked_cubes),))
            s = replace(s, battle=Battle(loc=b.loc + 1))
            continue
        if b.index >= len(loc.battles):
            s = _finish_location(s)
            continue
        if b.stage == "start":
            kind = loc.battles[b.index]
            att = units(s, name, "attacker", kind)
            dfn = units(s, name, "defender", kind)
            grey = loc.bonus("defender", kind) > 0
            if not att and not dfn and not grey:
                s = replace(s, battle=replace(b, index=b.index + 1, winners=b.winners + ("",)))
                continue
            if not att:
                s = finish_battle(s, "defender")
                continue
            if not dfn and not grey:
                s = finish_battle(s, "attacker")
                continue
            fought = [w for w in b.winners if w]
            token = 0 if not fought else (1 if fought[-1] == "attacker" else -1)
            s = replace(s, battle=replace(b, stage="tiles", token=token, start=token))
            b = s.battle
        if b.stage == "tiles":
            if tile_chooser(s) != NOBODY:
                return s
            s = replace(s, battle=replace(b, stage="dice"))
        return s
    return s


def end_turn(s: State) -> State:
    """Leaders become statues, units go home (lost Persians too), tiles are discarded; the game may end."""
    statues = list(s.statues)
    for c, leader in enumerate(s.leaders):
        if leader != NOBODY:
            statues[leader] = set_at(statues[leader], c, statues[leader][c] + 1)
    athens = s.leaders[s.data.city_index("athens")]
    lost = tuple(x for x in s.lost if s.data.counter(x).city != PERSIA)
    s = replace(
        s,
        statues=tuple(statues),
        leaders=tuple(NOBODY for _ in s.data.cities),
        commits=(),
        lost=lost,
        revolted=(),
        hands=tuple(() for _ in s.players),
        display=(),
        deck=(),
        refused=(),
        request=None,
        battle=None,
        first=athens if athens != NOBODY else s.first,
    )
    fatal = any(s.defeats[s.data.city_index(c)] >= s.data.fatal_defeats for c in ("athens", "sparta"))
    if s.turn >= s.data.turns or fatal:
        return replace(s, phase=OVER)
    return replace(s, phase=DEAL_LOCATIONS, actor=s.first)

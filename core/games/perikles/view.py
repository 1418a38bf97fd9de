"""What each player sees, and one sentence per event.

Hidden from others (../shared/rules/perikles-game-help.pt.txt, 1st paragraph: the special tile is one's own;
'tropas ... posicionadas' face down until the battle): unused special tiles, the counters a player commands at home
(their count is public) and the kind and strength of counters committed to locations whose battles have not been
fought yet. Counts and cities stay visible.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agon.core.engine import PUBLIC
from agon.core.games.perikles.battle import current, roll_outcome, strengths, targets
from agon.core.games.perikles.commit import commitment_error
from agon.core.games.perikles.data import (
    KIND_NAMES,
    counter_label,
    special_name,
    tile_city,
    tile_kind,
    tile_label,
    tile_name,
    tile_names,
)
from agon.core.games.perikles.scoring import breakdown
from agon.core.games.perikles.state import BATTLE, COMMIT, NOBODY, OVER, State, home_counters, pidx
from agon.events.base import GameCreated
from agon.events.perikles import (
    AlkibiadesPlayed,
    BattleDiceRolled,
    BattleTileKept,
    BattleTilePlayed,
    CandidateNominated,
    DisplayRefilled,
    ForcesCommitted,
    InfluenceDisplayed,
    InfluenceTileTaken,
    LocationsDealt,
    NominationPassed,
    PeriklesPlayed,
    PermissionGiven,
    PlaguePlayed,
    SlaveRevoltPlayed,
    SlaveRevoltStruck,
    SpecialTilesDealt,
    StartingCubePlaced,
)

Apply = Callable[[State, Any], State]
"""The ruleset's ``apply``."""


def revealed(s: State, location: str) -> bool:
    """Counters at a location are turned face up when its battles begin."""
    if s.phase == OVER:
        return True
    if s.phase != BATTLE or s.battle is None:
        return False
    return s.locations.index(location) <= s.battle.loc


AFTER_ELECTIONS = (COMMIT, BATTLE, OVER)
"""The phases of a turn after its elections (the view shows their report then)."""


def view(s: State, player: str | None, to_act: str | None = None) -> dict[str, Any]:
    """What ``player`` may see (everything with None). ``to_act`` is the player the rules wait for (``pending``'s
    decision: the leader asked for a permission, the holder asked before a battle), None while chance is due."""
    me = pidx(s, player) if player is not None else NOBODY
    everything = player is None
    cities = s.data.cities
    out: dict[str, Any] = {
        "turn": s.turn,
        "phase": s.phase,
        "first_player": s.players[s.first],
        "to_act": to_act,
        "cities": {
            city: {
                "cubes": {name: s.cubes[c][p] for p, name in enumerate(s.players)} if s.cubes else {},
                "candidates": {
                    slot: (s.players[s.candidates[c][k]] if s.candidates and s.candidates[c][k] != NOBODY else None)
                    for k, slot in enumerate("AB")
                },
                "leader": s.players[s.leaders[c]] if s.leaders and s.leaders[c] != NOBODY else None,
                "defeats": s.defeats[c] if s.defeats else 0,
                "statue_value": s.data.statue_value(city, s.defeats[c] if s.defeats else 0),
            }
            for c, city in enumerate(cities)
        },
        "display": [tile_label(t) for t in s.display],
        "deck_count": len(s.deck),
        "locations": [],
        "players": {},
        # this turn's elections, from them until the turn ends (its leaders leave office then; kept when the game
        # ends): not the last turn's while the next one deals, takes influence and nominates
        "elections": list(s.elections) if s.phase in AFTER_ELECTIONS else [],
        "permission_asked": (
            {"by": s.players[s.request.player], "of": s.players[s.request.leader], "location": s.request.location}
            if s.request is not None else None
        ),
    }
    for name in s.locations:
        loc = s.data.location(name)
        sides: dict[str, list[dict[str, Any]]] = {"attacker": [], "defender": []}
        for cm in s.commits:
            if cm.location != name:
                continue
            counter = s.data.counter(cm.counter)
            row: dict[str, Any] = {"player": s.players[cm.player], "role": cm.role, "city": counter.city}
            if everything or cm.player == me or revealed(s, name):
                row |= {"counter": counter.id, "name": counter_label(counter), "kind": KIND_NAMES[counter.kind],
                        "strength": counter.strength,
                        "lost": counter.id in s.lost, "revolted": counter.id in s.revolted}
            else:
                row["face_down"] = True
            sides[cm.side].append(row)
        out["locations"].append({"name": name, "city": loc.city, "battles": loc.battles, "points": loc.points,
                                 "bonus": f"{loc.bonus_side} +1 in {loc.bonus_in}" if loc.bonus_side else "",
                                 **sides})
    for p, name in enumerate(s.players):
        mine = everything or p == me
        used = bool(s.used[p]) if s.used else False
        special = s.specials[p] if s.specials else None
        info: dict[str, Any] = {
            "influence_tiles": [tile_label(t) for t in s.hands[p]] if s.hands else [],
            "locations_won": list(s.won[p]) if s.won else [],
            "statues": {city: s.statues[p][c] for c, city in enumerate(cities) if s.statues and s.statues[p][c]},
            "score": breakdown(s, p) if s.cubes else {},
            "special_tile": special_name(special) if special and (mine or used) else ("hidden" if special else None),
            "special_used": used,
        }
        if s.cubes:
            home = home_counters(s, p)
            info["forces_at_home"] = (
                [{"counter": c.id, "name": counter_label(c), "kind": KIND_NAMES[c.kind], "strength": c.strength}
                 for c in home]
                if mine else {"count": len(home)}
            )
        out["players"][name] = info
    if s.battle is not None and s.phase == BATTLE and s.battle.loc < len(s.locations):
        location, kind = current(s)
        att, dfn = strengths(s, location, kind, s.battle.played)
        col, need_a, need_d = targets(s.data, att, dfn)
        out["battle"] = {"location": location, "kind": KIND_NAMES[kind], "attack": att, "defence": dfn,
                         "column": col, "attacker_needs": need_a, "defender_needs": need_d,
                         "token": s.battle.token, "played": [special_name(t) for t in s.battle.played]}
    return out


# ---------------------------------------------------------------------------------------------------------------
# Narration


def _tile_text(tile: str) -> str:
    return tile_name(tile, article=True)


def secrets(s: State, e: Any) -> list[tuple[tuple[str | int, ...], str]]:
    """The parts of an event only one player sees: each special tile dealt (its holder), each counter committed
    face down (its commander), and the hoplite the Slave Revolt draws blind (nobody, until its battle)."""
    if isinstance(e, SpecialTilesDealt):
        return [(("tiles", i), p) for i, p in enumerate(s.players[: len(e.tiles)])]
    if isinstance(e, ForcesCommitted):
        return [(("placements", i, "counter"), e.player) for i in range(len(e.placements))]
    if isinstance(e, SlaveRevoltStruck):
        return [(("counter",), PUBLIC)]
    return []


def narrate(s: State, e: Any, apply: Apply | None, viewer: str | None = PUBLIC) -> str:
    """One sentence for event ``e`` at state ``s``, told as ``viewer`` may read it (``PUBLIC``: every player;
    ``None``: everything). ``apply`` is the ruleset's own (given by rules.py, so this module never imports the
    rules): what follows an event by itself, such as elections or a battle's end, is told from the state after it."""
    match e:
        case GameCreated():
            return f"A game of Perikles begins for {', '.join(e.names)}."
        case SpecialTilesDealt(tiles=tiles):
            mine = [f"{p} gets the {special_name(t)}" for p, t in zip(s.players, tiles)
                    if viewer is None or viewer == p]
            return (f"Special tiles are dealt face down to {', '.join(s.players)} ({len(tiles)} tiles)"
                    + (f": {', '.join(mine)}." if mine else "."))
        case StartingCubePlaced(player=p, city=city):
            return f"{p} places a starting cube in {city.capitalize()}."
        case LocationsDealt(locations=locs):
            return f"Turn {s.turn + 1}: the locations to fight over are {', '.join(locs)}."
        case InfluenceDisplayed(tiles=tiles):
            return f"The influence display shows the tiles {tile_names(tiles)}."
        case DisplayRefilled(tile=tile):
            return f"The display is refilled with {tile_name(tile, article=True)}."
        case InfluenceTileTaken():
            return _narrate_take(s, e)
        case CandidateNominated(player=p, city=city, nominee=n, slot=slot):
            return f"{p} nominates {n} as candidate {slot} in {city.capitalize()}." + _elections_after(s, e, apply)
        case NominationPassed(player=p):
            return f"{p} passes on nominating." + _elections_after(s, e, apply)
        case ForcesCommitted():
            if e.placements and (viewer is None or viewer == e.player) and not _asks_leave(s, e):
                return _commit_text(s, e) + _aftermath(s, e, apply)
            return _narrate_commit(s, e) + _aftermath(s, e, apply)
        case PermissionGiven(player=p, granted=g):
            r = s.request
            who = s.players[r.player] if r else "the requester"
            where = r.location if r else "the location"
            return (f"{p} {'allows' if g else 'refuses'} {who} {'' if g else 'leave '}to defend {where} as main"
                    " defender."
                    + _aftermath(s, e, apply))
        case PeriklesPlayed(player=p):
            return f"{p} plays Perikles and places 2 cubes in Athens."
        case AlkibiadesPlayed(player=p, moves=moves):
            return f"{p} plays Alkibiades and moves {_cube_moves(moves)}."
        case PlaguePlayed(player=p, city=city):
            return f"{p} plays the Plague on {city.capitalize()}: every player loses half their cubes there."
        case SlaveRevoltPlayed(player=p, place=place):
            found = "" if apply is None or apply(s, e).revolt_place else (
                " No Spartan hoplite stands there: the revolt removes nothing.")
            return f"{p} plays the Slave Revolt against the Spartan hoplites at {place.capitalize()}.{found}"
        case SlaveRevoltStruck():
            where = "at home in Sparta" if s.revolt_place == "sparta" else f"at {s.revolt_place}"
            return f"The revolt takes one Spartan hoplite {where} out of this turn (drawn face down)."
        case BattleTilePlayed(player=p, tile=tile):
            location, kind = current(s)
            return (f"{p} plays the {special_name(tile)} before the {KIND_NAMES[kind]} battle at {location}."
                    + _aftermath(s, e, apply))
        case BattleTileKept(player=p):
            return f"{p} keeps their special tile for later." + _aftermath(s, e, apply)
        case BattleDiceRolled():
            return _narrate_roll(s, e) + _aftermath(s, e, apply)
    return f"{type(e).__name__} happens."


def _narrate_take(s: State, e: InfluenceTileTaken) -> str:
    city = (e.city or tile_city(e.tile)).capitalize()
    cubes = "2 cubes" if tile_kind(e.tile) == "2" else "a cube"
    text = f"{e.player} takes {_tile_text(e.tile)}, placing {cubes} in {city}"
    if e.nominee:
        text += f" and nominating {e.nominee} as candidate {e.slot} in {e.nominee_city.capitalize()}"
    if e.target_city:
        c = s.data.city_index(e.target_city)
        victim = s.candidates[c]["AB".index(e.target_slot)]
        name = s.players[victim] if victim != NOBODY else "a candidate"
        text += f" and assassinating {name}, candidate {e.target_slot} in {e.target_city.capitalize()}"
    return text + "."


def _elections_after(s: State, e: Any, apply: Apply | None) -> str:
    if apply is None:  # an option, read before it is chosen: no look ahead
        return ""
    after = apply(s, e)
    if after.phase != s.phase and after.elections:
        return " Elections: " + "; ".join(after.elections) + "."
    return ""


def _asks_leave(s: State, e: ForcesCommitted) -> bool:
    return commitment_error(s, e)[1] != NOBODY


def _narrate_commit(s: State, e: ForcesCommitted) -> str:
    _, leader, where = commitment_error(s, e)
    if leader != NOBODY:
        return (f"{e.player} asks {s.players[leader]}, leader of {s.data.location(where).city.capitalize()}, "
                f"for leave to defend {where} as main defender.")
    if not e.placements:
        return f"{e.player} spends {_tile_text(e.tile)} and sends no units."
    by_loc: dict[tuple[str, str, str], int] = {}
    for pl in e.placements:
        by_loc[(pl.location, pl.side, pl.role)] = by_loc.get((pl.location, pl.side, pl.role), 0) + 1
    parts = [f"{n} counter{'s' if n > 1 else ''} to {loc} as {role} {side}" for (loc, side, role), n in by_loc.items()]
    cube = f", sacrificing a cube in {e.cube.capitalize()}," if e.cube else ""
    return f"{e.player} spends {_tile_text(e.tile)}{cube} and sends " + " and ".join(parts) + "."


def _narrate_roll(s: State, e: BattleDiceRolled) -> str:
    location, kind = current(s)
    b = s.battle
    assert b is not None
    att, dfn = strengths(s, location, kind, b.played)
    col, need_a, need_d = targets(s.data, att, dfn)
    hit_a, hit_d, token = roll_outcome(s, e)
    a, d = sum(e.attacker), sum(e.defender)
    head = (f"{KIND_NAMES[kind].capitalize()} battle at {location} ({att} vs {dfn}, column {col}): attacker rolls "
            f"{e.attacker[0]}+{e.attacker[1]}={a} (needs {need_a}: {'hit' if hit_a else 'miss'}), defender rolls "
            f"{e.defender[0]}+{e.defender[1]}={d} (needs {need_d}: {'hit' if hit_d else 'miss'})")
    if hit_a == hit_d:
        return head + f"; {'both hit' if hit_a else 'neither hits'}, roll again."
    side = "attacker" if token > b.token else "defender"
    if abs(token) >= 2:
        return head + f"; the token reaches the {side}'s side."
    if token == 0:
        return head + f"; the {side} hit moves the token back to the middle."
    return head + f"; the token moves toward the {side} (position {token:+d})."


def _aftermath(s: State, e: Any, apply: Apply | None) -> str:
    """What follows by itself: battles lost or won without dice, losses, locations decided, the turn's end.
    Nothing for an option (``apply`` None): what would follow is worked out from the face-down counters, so
    telling it before the choice would show them (a battle 'won without dice' names the kinds on both sides)."""
    if apply is None:
        return ""
    after = apply(s, e)
    parts = []
    for f in after.fought[len(s.fought):]:
        how = " without dice" if f.automatic else ""
        loser = "defender" if f.winner == "attacker" else "attacker"
        lost = f", and the {loser}s lose {_counter_text(s, f.lost)}" if f.lost else ""
        parts.append(f"the {f.winner}s win the {KIND_NAMES[f.kind]} battle at {f.location}{how}{lost}")
    for h in after.held[len(s.held):]:
        who = after.players[h.player] if h.player != NOBODY else "nobody"
        if h.cubes:
            parts.append(f"{h.location} is not attacked: {who} places {h.cubes} cubes in its city")
        elif h.defeat:
            parts.append(f"{who} takes {h.location} and its city suffers a defeat")
        else:
            parts.append(f"{h.location} holds" + (f" and {who} takes its tile" if h.player != NOBODY else ""))
    if after.turn == s.turn and after.phase != s.phase and after.phase in ("deal-locations", "over"):
        statues = [f"{after.players[p]} in {city.capitalize()}" for c, city in enumerate(s.data.cities)
                   for p in [s.leaders[c]] if p != NOBODY]
        parts.append("the turn ends with statues for " + (", ".join(statues) or "nobody"))
        if after.phase == "over":
            parts.append("the game is over")
    return (" Then " + "; ".join(parts) + ".") if parts else ""


def _counter_text(s: State, cid: str) -> str:
    """A counter as a sentence names it: its city, kind and strength, e.g. 'Corinth hoplite 2' (data.counter_label);
    the id is what is typed, not what is read."""
    return counter_label(s.data.counter(cid))


def _commit_text(s: State, e: ForcesCommitted) -> str:
    """The commitment with its counters named. Counters alike (two 'Argos hoplite 1', perikles-data-facts.md's
    counter table counts them) sent to the same place in the same role are told once with their count ("2 counters,
    each Argos hoplite 1, to Attica as main attacker"), as Alkibiades' same move made twice is (``_cube_moves``), not
    the same words twice."""
    counts: dict[tuple[str, str, str, str], int] = {}
    for pl in e.placements:
        key = (_counter_text(s, pl.counter), pl.location, pl.role, pl.side)
        counts[key] = counts.get(key, 0) + 1
    sent = ", ".join(f"{name if n == 1 else f'{n} counters, each {name},'} to {location} as {role} {side}"
                     for (name, location, role, side), n in counts.items())
    cube = f", sacrificing a cube in {e.cube.capitalize()}" if e.cube else ""
    return f"{e.player} spends {_tile_text(e.tile)}{cube}: {sent}."


def _cube_moves(moves: Any) -> str:
    """Alkibiades' moves ("Move any 2 cubes to other cities", perikles-data-facts.md, 'Special tiles') in words:
    the same move made twice told once with its count ("2 of Bruno's cubes from Athens to Argos"), not repeated."""
    counts: dict[Any, int] = {}
    for m in moves:
        key = (m.owner, m.source, m.target)
        counts[key] = counts.get(key, 0) + 1
    told = []
    for (owner, source, target), n in counts.items():
        cubes = f"{owner}'s cube" if n == 1 else f"{n} of {owner}'s cubes"
        told.append(f"{cubes} from {source.capitalize()} to {target.capitalize()}")
    return "; ".join(told)


def option_text(s: State, e: Any) -> str:
    """A decision as the acting player reads it among their options: a commitment names its counters (which the
    public log, being face down, does not)."""
    if isinstance(e, ForcesCommitted) and e.placements:
        return _commit_text(s, e)
    return narrate(s, e, None, getattr(e, "player", PUBLIC))  # None: the decision alone, nothing it would bring

"""Who is asked to play or keep a special tile before a battle (RULES.md, 'Special tiles', ruleset version 4).

Who must act is public (every view, the server's game state, the log). Until version 3 only the holders whose tile
could serve in the battle were asked, so being asked told everyone the face-down tile's kind. From version 4 every
holder of an unused tile is asked before every battle fought with dice, and one whose tile cannot serve may only
keep it: nothing another player reads differs between the two. Games recorded under versions 1 to 3 keep the old
asking and replay unchanged.
"""

from __future__ import annotations

import hashlib
import random

import msgspec
import pytest

from agon.core.autoplay import play_out
from agon.core.engine import PUBLIC, Chance, Decision, Over, event_as, fold, narrate_as, option_text
from agon.core.games.perikles import RULESET as RS
from agon.core.games.perikles.battle import ASK_EVERY_HOLDER, settle, tile_usable
from agon.core.games.perikles.state import Commit, State, replace
from agon.events.base import GameCreated, PlayerSeat
from agon.events.perikles import BattleTileKept, BattleTilePlayed
from tests.perikles.helpers import at_battle, at_commit, play, refused

LEADERS = {"athens": 0, "sparta": 1, "corinth": 2, "megara": 3}


def mantinea(specials: tuple[str, ...], used: tuple[bool, ...] = (False,) * 4) -> State:
    """Sparta (P2) attacks Mantinea with hoplites, Megara (P4) as ally, Athens (P1) defends: a hoplite battle in
    which Spartan hoplites fight, so Brasidas could serve and Phormio, Perikles or the Plague could not."""
    commits = (Commit("sparta-h3-1", 1, "Mantinea", "attacker", "main"),
               Commit("megara-h2-1", 3, "Mantinea", "attacker", "ally"),
               Commit("athens-h3-1", 0, "Mantinea", "defender", "main"))
    s = at_commit(leaders=LEADERS, commits=commits, specials=specials, locations=("Mantinea",))
    return at_battle(replace(s, used=used))


def window(s: State) -> list[tuple[str, list]]:
    """Everyone asked keeps their tile: (who was asked, their options) in order, until the dice."""
    asked = []
    while isinstance(pending := RS.pending(s), Decision):
        options = RS.legal(s)
        asked.append((pending.player, options))
        s = play(s, BattleTileKept(player=pending.player))
    assert isinstance(RS.pending(s), Chance)
    return asked


def test_the_state_knows_the_ruleset_version_its_game_was_recorded_under():
    assert RS.version == "6" and ASK_EVERY_HOLDER == 4 and int(RS.version) >= ASK_EVERY_HOLDER
    for version in ("1", "2", "3", "4", "5", "6"):
        created = GameCreated(ruleset="perikles", ruleset_version=version, seed=1, cards=RS.default_cards(),
                              players=tuple(PlayerSeat(f"P{i + 1}") for i in range(3)))
        assert RS.initial_state(created).version == int(version)


def test_every_holder_of_an_unused_tile_is_asked_before_a_battle_and_one_whose_tile_cannot_serve_may_only_keep():
    s = mantinea(("perikles", "brasidas", "alkibiades", "phormio"))
    asked = window(s)
    assert [p for p, _ in asked] == ["P1", "P2", "P3", "P4"]  # turn order from the first player
    options = dict(asked)
    assert options["P2"] == [BattleTilePlayed(player="P2", tile="brasidas"), BattleTileKept(player="P2")]
    for p in ("P1", "P3", "P4"):
        assert options[p] == [BattleTileKept(player=p)]
    # A tile that cannot serve here is refused if typed (told to its holder only, who knows the tile).
    s = play(s, BattleTileKept(player="P1"), BattleTilePlayed(player="P2", tile="brasidas"),
             BattleTileKept(player="P3"))
    assert not tile_usable(s, 3)
    assert "the Phormio tile cannot serve in the hoplite battle at Mantinea" in refused(
        s, BattleTilePlayed(player="P4", tile="phormio"))
    assert isinstance(RS.pending(play(s, BattleTileKept(player="P4"))), Chance)


def test_a_player_whose_tile_is_used_is_not_asked():
    used = mantinea(("perikles", "brasidas", "alkibiades", "phormio"), used=(False, True, False, False))
    assert [p for p, _ in window(used)] == ["P1", "P3", "P4"]
    spent = mantinea(("perikles", "brasidas", "alkibiades", "phormio"), used=(True,) * 4)
    assert isinstance(RS.pending(spent), Chance)


VIEWERS = (PUBLIC, "P1", "P3", "P4")
"""Everyone but P2, whose tile differs between the two positions compared."""


def told(s: State) -> list:
    """Everything the players other than P2 read while everyone asked keeps their tile, and after: who must act and
    the prompt, each one's view, the keep option's text, the event's sentence and JSON as each may read them."""
    out: list = []
    while True:
        pending = RS.pending(s)
        out.append([{v: RS.view(s, v) for v in VIEWERS},
                    (pending.player, pending.prompt) if isinstance(pending, Decision) else type(pending).__name__])
        if not isinstance(pending, Decision):
            return out
        keep = BattleTileKept(player=pending.player)
        out.append([option_text(RS, s, keep), RS.narrate(s, keep),
                    *((narrate_as(RS, s, keep, v), event_as(RS, s, keep, v)) for v in VIEWERS)])
        s = play(s, keep)


def test_keeping_a_tile_that_could_not_serve_reads_to_others_as_keeping_one_that_could():
    could = mantinea(("perikles", "brasidas", "alkibiades", "phormio"))
    could_not = mantinea(("perikles", "plague", "alkibiades", "phormio"))
    assert tile_usable(replace(could, battle=replace(could.battle, asked=(0,))), 1)
    assert told(could) == told(could_not)
    public = [row for row in told(could) if not isinstance(row[0], dict)]
    assert "P2 keeps their special tile for later." in [row[1] for row in public]
    assert not any("brasidas" in repr(row) for row in public)  # the public narration of keeping names no tile


def test_who_is_asked_in_a_whole_game_does_not_depend_on_the_kinds_of_face_down_tiles():
    """At the start of every battle's asking in a seeded game, swap two unused tiles (a deal nobody else can tell
    apart): with everyone keeping, who is asked and what they are told is the same. Under version 3 it was not."""
    def differences(version: str) -> tuple[int, int]:
        created = GameCreated(ruleset="perikles", ruleset_version=version, seed=4, cards=RS.default_cards(),
                              players=tuple(PlayerSeat(f"P{i + 1}", "random") for i in range(3)))
        events, _, _ = play_out(RS, created)
        s, windows, differ = RS.initial_state(created), 0, 0
        for e in events[1:]:
            s = RS.apply(s, e)
            b = s.battle
            if s.phase != "battle" or b is None or b.stage != "tiles" or b.asked:
                continue
            holders = [p for p in range(3) if not s.used[p]]
            for i, p in enumerate(holders):
                for q in holders[i + 1:]:
                    specials = list(s.specials)
                    specials[p], specials[q] = specials[q], specials[p]
                    swapped = settle(replace(s, specials=tuple(specials)))  # under v3 nobody may be left to ask
                    windows += 1
                    differ += [(who, len(o) > 0) for who, o in window(s)] != \
                        [(who, len(o) > 0) for who, o in window(swapped)]
        return windows, differ

    windows, differ = differences("4")
    assert windows > 5 and differ == 0
    windows, differ = differences("3")
    assert windows and differ  # the check has teeth: the old asking told the tiles' kinds


def test_a_game_recorded_under_version_3_keeps_the_old_asking():
    s = replace(mantinea(("perikles", "brasidas", "alkibiades", "phormio")), version=3)
    s = at_battle(replace(s, battle=None), 0)
    assert s.version == 3
    assert [p for p, _ in window(s)] == ["P2"]


# Seeded all-bot games created under version 3: their events and final states, recorded with the code before
# version 4 (commit f526b4d). Replayed today they must be the same, event for event.
RECORDED_V3 = [
    pytest.param(3, "random", 1, 245, "adab04b2f7f3e80d", "575031dbb014c456", id="3p-random-1"),
    pytest.param(4, "greedy", 3, 365, "6b9649bb4994aab9", "a45286f82ca0d8af", id="4p-greedy-3"),
]


@pytest.mark.parametrize(("n", "bot", "seed", "count", "events_digest", "state_digest"), RECORDED_V3)
def test_a_game_recorded_under_version_3_replays_as_it_did(n, bot, seed, count, events_digest, state_digest):
    created = GameCreated(ruleset="perikles", ruleset_version="3", seed=seed, cards=RS.default_cards(),
                          players=tuple(PlayerSeat(f"P{i + 1}", bot) for i in range(n)))
    events, _, final = play_out(RS, created, validate=True)
    assert len(events) == count
    assert hashlib.sha256(msgspec.json.encode(events[1:])).hexdigest()[:16] == events_digest
    folded = fold(RS, events)
    assert folded == final and folded.version == 3
    fields = {k: v for k, v in msgspec.structs.asdict(folded).items() if k not in ("version", "data")}
    assert hashlib.sha256(msgspec.json.encode(fields)).hexdigest()[:16] == state_digest
    # The same game created under version 4 asks more (every holder), so it is not the same game.
    now, _, _ = play_out(RS, msgspec.structs.replace(created, ruleset_version=RS.version))
    assert msgspec.json.encode(now[1:]) != msgspec.json.encode(events[1:])


def test_the_greedy_bot_keeps_a_tile_that_cannot_serve_and_plays_one_that_helps():
    greedy = RS.bots["greedy"]
    s = mantinea(("plague", "perikles", "alkibiades", "brasidas"))
    assert RS.legal(s) == [BattleTileKept(player="P1")]
    assert greedy(RS, s, RS.legal(s), random.Random(0)) == BattleTileKept(player="P1")
    s = play(s, BattleTileKept(player="P1"), BattleTileKept(player="P2"), BattleTileKept(player="P3"))
    # P4 attacks beside Sparta's hoplites: doubling them helps P4's side.
    assert greedy(RS, s, RS.legal(s), random.Random(0)) == BattleTilePlayed(player="P4", tile="brasidas")


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_five_player_bot_game_asks_holders_whose_tiles_cannot_serve_and_ends(bot):
    created = GameCreated(ruleset="perikles", ruleset_version=RS.version, seed=6, cards=RS.default_cards(),
                          players=tuple(PlayerSeat(f"P{i + 1}", bot) for i in range(5)))
    events, _, final = play_out(RS, created, validate=True)
    assert isinstance(RS.pending(final), Over)
    s, kept_only = RS.initial_state(created), 0
    for e in events[1:]:
        if isinstance(e, BattleTileKept):
            kept_only += not tile_usable(s, s.players.index(e.player))
        s = RS.apply(s, e)
    assert kept_only > 5

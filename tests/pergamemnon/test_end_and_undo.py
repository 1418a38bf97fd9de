"""Nothing is asked once a battle has ended the game (rulebook, 'Final do Jogo': "o jogo termina imediatamente";
ruleset version 5), games recorded before still replay as played, and a declared attack cannot be taken back by
the attacker ('A Batalha': "o atacante indica claramente qual a arma"). Through the service, as a player sees it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agon.cli.play_cmds import options_data
from agon.core import seats
from agon.core.games.pergamemnon import scoring, view
from agon.core.service import NewGame, ServiceError
from agon.core.transfer import import_data
from agon.events.pergamemnon import Attacked, CapturesPlaced, DefenceCommitted, HandDiscarded, Yielded
from tests.pergamemnon.helpers import (
    NATIONS,
    army,
    battle_game,
    card_set,
    play,
    replace,
    rs,
    unit,
    with_state_player,
)

REPLAY = Path(__file__).resolve().parents[2] / "replays" / "pergamemnon-3p.jsonl"
ENDED = "the game ended because Bob has only 2 cards left to fight with, fewer than a hand of 3"


def _short_army() -> list[dict]:
    """Three cards: all of a hand, so one card lost in a battle ends the game ('Final do Jogo': "menos de 3")."""
    return [
        unit("Leader", "sword", 2, 2, 2, 2, leader=True, charisma=3, points=3),
        unit("Weakling", "sword", 1, 1, 1, 1, charisma=2, points=1),
        unit("Shieldbearer", "bow", 3, 1, 1, 6, charisma=0, points=0),
    ]


def _act(svc, gid: str, event: dict) -> None:  # noqa: ANN001
    svc.act(gid, json.dumps(event))


def _battle_that_ends_the_game(svc) -> str:  # noqa: ANN001
    """A table game: Alice (Rome) attacks Bob (Carthage, three cards in all) with sword 9; Bob lays his Weakling
    (helmet 1) and yields; Alice has captured it and must place it. Bob has 2 cards left."""
    cards = card_set({**{n: army() for n in NATIONS}, "carthage": _short_army()})
    gid = svc.new_game(NewGame(ruleset="pergamemnon", players=["Alice", "Bob"], table=True, cards=cards))
    _act(svc, gid, {"type": "pergamemnon.nations_dealt", "nations": ["rome", "carthage"]})
    pending = svc.load(gid).pending
    _act(svc, gid, {"type": "pergamemnon.creatures_revealed", "cards": list(pending.items[: pending.count])})
    _act(svc, gid, {"type": "pergamemnon.cards_drawn", "player": "Alice",
                    "cards": ["rome.champion", "rome.weakling", "rome.leader"]})
    _act(svc, gid, {"type": "pergamemnon.cards_drawn", "player": "Bob",
                    "cards": ["carthage.leader", "carthage.weakling", "carthage.shieldbearer"]})
    assert svc.load(gid).pending.player == "Alice"  # charisma 6 in hand against Bob's 5
    _act(svc, gid, {"type": "pergamemnon.attacked", "player": "Alice", "defender": "Bob", "weapon": "sword",
                    "card": "rome.champion"})
    _act(svc, gid, {"type": "pergamemnon.defence_committed", "player": "Bob", "card": "carthage.weakling"})
    _act(svc, gid, {"type": "pergamemnon.yielded", "player": "Bob"})
    return gid


def test_a_battle_that_ends_the_game_asks_the_loser_nothing(sqlite_svc):
    gid = _battle_that_ends_the_game(sqlite_svc)
    shown = options_data(sqlite_svc.load(gid))
    # The winner still places the captured card (that choice changes the score: 'A Batalha', "ele escolhe")...
    assert shown["pending"]["player"] == "Alice" and shown["status"].startswith("Alice to act: place the captured")
    assert {o["event"]["type"] for o in shown["options"]} == {"pergamemnon.captures_placed"}
    _act(sqlite_svc, gid, {"type": "pergamemnon.captures_placed", "player": "Alice",
                           "under_city": ["carthage.weakling"]})
    # ...and then the game is over: Bob, who lost the battle, is not asked to discard his 2 cards.
    line = sqlite_svc.load(gid)
    shown = options_data(line)
    assert shown["status"].startswith("over: Alice wins") and shown["status"].endswith(ENDED)
    assert shown["pending"]["kind"] == "over" and shown["options"] == []
    assert len(line.state.players[1].hand) == 2
    seen = line.ruleset.view(line.state, "Bob")
    assert seen["phase"] == "over" and seen["to_act"] is None and seen["outcome"].endswith(ENDED)
    assert isinstance(line.events[-1], CapturesPlaced)
    with pytest.raises(ServiceError, match="the game is over"):
        _act(sqlite_svc, gid, {"type": "pergamemnon.hand_discarded", "player": "Bob", "cards": []})


def test_a_game_recorded_before_version_5_asks_the_loser_to_discard_as_it_did():
    # The same position folded as a version-4 game: its loser was asked, and answering ended it.
    s = battle_game(nations=("rome", "carthage"), hands={"Bob": ("weakling", "leader", "runner")})
    s = replace(with_state_player(s, "Bob", deck=(), discard=()), version=4)
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"),
             DefenceCommitted(player="Bob", card="carthage.weakling"), Yielded(player="Bob"),
             CapturesPlaced(player="Alice", under_city=("carthage.weakling",)))
    assert rs.pending(s).player == "Bob" and all(isinstance(e, HandDiscarded) for e in rs.legal(s))
    assert rs.pending(play(s, HandDiscarded(player="Bob"))).outcome.summary.endswith(ENDED)


def test_the_version_1_replay_that_ends_with_a_discard_after_the_last_battle_still_verifies(agon):
    # replays/pergamemnon-3p was recorded under version 1: its last event is Chloe's discard after the battle that
    # left her 2 cards. It imports (checked event by event), verifies and ends as recorded.
    last = json.loads(REPLAY.read_text().splitlines()[-2])
    assert last["tag"] == "pergamemnon.hand_discarded" and last["payload"]["player"] == "Chloe"
    gid = agon("import", str(REPLAY)).stdout.splitlines()[0]
    assert "OK:" in agon("verify", gid).stdout
    shown = json.loads(agon("options", gid, "--json").stdout)
    assert shown["event"] == last["n"] and shown["options"] == []
    assert shown["status"] == json.loads(REPLAY.with_suffix("").with_suffix(".expected.json").read_text())["status"]


def test_the_gate_is_what_keeps_the_version_1_replay_s_last_discard(sqlite_svc, monkeypatch):
    # Without the gate the game is over before Chloe's discard, which is then refused: the import names it.
    monkeypatch.setattr(scoring, "ENDS_BEFORE_DISCARD", 1)
    with pytest.raises(ServiceError) as e:
        import_data(sqlite_svc, REPLAY.read_bytes())
    assert "event #175 breaks a rule" in str(e.value) and "the game is over" in str(e.value)


def test_an_attacker_may_not_take_back_the_attack_whose_weapon_the_defender_was_told(sqlite_svc, monkeypatch):
    svc = sqlite_svc
    gid = svc.new_game(NewGame(ruleset="pergamemnon", players=["Ana", "Bo"], seed=3))
    line = svc.load(gid)
    attacker = line.pending.player
    attack = next(o for o in options_data(line)["options"] if o["event"]["type"] == "pergamemnon.attacked")
    svc.act(gid, str(attack["n"]))
    line = svc.load(gid)
    assert line.pending.player != attacker  # the defender is asked, told the weapon
    assert f"declaring a {attack['event']['weapon']}" in svc.log(line)[-1].sentence
    assert not seats.may_undo(svc, line, attacker)  # no undo is offered to the attacker's seat
    with pytest.raises(seats.UndoRefused, match="showed the other players something they could not see before"):
        seats.undo(svc, line, attacker)
    # the weapon is what was shown (the card stays face down): without ``shows`` the undo would have been allowed
    monkeypatch.setattr(view, "shows", lambda s, e: False)
    assert seats.may_undo(svc, line, attacker)
    monkeypatch.undo()
    # the host may still take it back, and the attacker is asked again
    assert seats.may_undo(svc, line, seats.HOST)
    seats.undo(svc, line, seats.HOST)
    assert svc.load(gid).pending.player == attacker

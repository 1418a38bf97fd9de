"""Games recorded under older ruleset versions replay as they were played.

The log is the truth: a stored or imported game is folded again with today's code, so a rule changed in a later
ruleset version is gated on the version the game was recorded under (``GameCreated.ruleset_version``, the state's
``version``). The files in tests/fixtures/old-versions/ are whole bot games played with the version-1 code
(e500d8b^, by ``record_v1.py`` there) and hold the situations the version-2 changes are about; beside each, the
winners, the scores and the final state as that code folded them, and where each situation happens. Two more were
played with a later version's code and hold the situation the next version changed: ``adamastor-2p`` with
Adamastor's version 2 (6253a0f, by ``record_adamastor_v2.py``) and ``peloponnes-3p-v3`` with Peloponnes' version 3
(de5e1fe, by ``record_v3.py``).

Each game must import (the import replays it against the rules), verify clean and end in the same state. Each
gate must matter: with one gate moved back to version 1 (so version-1 games get version-2 rules there), the game
holding its situation breaks at that situation's event or ends differently. A later change is gated the same way
(Pergamemnon version 4's charisma card in every recruit: the 4-player version-1 game holds a recruit paid without
one). (The tests' names say version 1, the version most of the games were recorded under.)
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from agon.core import registry
from agon.core.autoplay import CHANCE_ACTOR
from agon.core.engine import Chance, RuleViolation, check
from agon.core.games.adamastor import flow as adamastor_flow
from agon.core.games.peloponnes import auction, flow, supply
from agon.core.games.pergamemnon import rules as pergamemnon_rules
from agon.core.games.pergamemnon import state as pergamemnon_state
from agon.core.games.perikles import battle as perikles_battle
from agon.core.service import ServiceError
from agon.core.transfer import import_data

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "old-versions"
GAMES = sorted(FIXTURES.glob("*.jsonl"))

CARD_DATA = {"peloponnes": "cat", "pergamemnon": "table", "perikles": "data", "adamastor": "cards"}
"""The state field with the compiled card set (it comes from the first event; the records leave it out)."""
NEW_FIELDS = {"peloponnes": {"version", "won", "auction_round", "deck_known"}, "pergamemnon": {"version"},
              "perikles": {"version"}, "adamastor": {"version"}}
"""State fields added since the recorded version: the recorded version, Peloponnes' record of an auction's end and
whether every seat knows its coin deck's backs (version 6: what the views show, never what the rules read)."""
RECORDED_UNDER = {"adamastor-2p": "2", "peloponnes-3p-v3": "3"}
"""The fixtures recorded under a version other than 1."""


def record(path: Path) -> dict:
    return json.loads(path.with_suffix(".json").read_text())


def fixture(name: str) -> Path:
    return FIXTURES / f"{name}.jsonl"


def final_state(state: object, ruleset: str) -> dict:
    """The state as the records hold it: without the card data and the fields added since version 1."""
    out = json.loads(msgspec.json.encode(state))
    del out[CARD_DATA[ruleset]]
    return {k: v for k, v in out.items() if k not in NEW_FIELDS[ruleset]}


def first_problem(line, created=None) -> tuple[int, str] | None:  # noqa: ANN001
    """Fold ``line``'s events from ``created`` (default: its own first event) checking each against the rules, as
    an import does: (event number, what is wrong) at the first event that does not fit, else None."""
    rs = line.ruleset
    state = rs.initial_state(created or line.created)
    for env, ev in zip(line.envelopes[1:], line.events[1:]):
        pending = rs.pending(state)
        if (env.actor == CHANCE_ACTOR) != isinstance(pending, Chance):
            return env.depth, f"recorded as {env.actor}, but {pending!r} is due"
        try:
            check(rs, state, ev, None if env.actor == CHANCE_ACTOR else env.actor)
        except RuleViolation as e:
            return env.depth, e.rule
        state = rs.apply(state, ev)
    return None


def test_every_fixture_is_an_old_version_game_with_its_situations():
    assert {record(p)["ruleset"] for p in GAMES} == set(CARD_DATA)
    assert set(RECORDED_UNDER) <= {p.stem for p in GAMES}
    for path in GAMES:
        rec = record(path)
        version = RECORDED_UNDER.get(path.stem, "1")
        assert rec["ruleset_version"] == version
        # the first event (today's export puts the card set's line before it)
        created = next(o for o in map(json.loads, path.read_text().splitlines()) if "payload" in o)
        assert created["payload"]["ruleset_version"] == version
        assert rec["situations"], path.name


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_an_old_version_game_imports_verifies_and_ends_as_it_was_played(sqlite_svc, path):
    rec = record(path)
    gid = import_data(sqlite_svc, path.read_bytes()).game_id
    assert sqlite_svc.verify(gid) == []
    line = sqlite_svc.load(gid)
    assert line.state.version == int(rec["ruleset_version"])
    assert len(line.events) == rec["events"]
    assert line.status() == rec["status"]
    outcome = line.ruleset.pending(line.state).outcome
    assert list(outcome.winners) == rec["winners"]
    assert outcome.scores == rec["scores"]
    assert final_state(line.state, rec["ruleset"]) == rec["final_state"]


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_the_same_log_under_the_current_version_does_not_replay_as_played(sqlite_svc, path):
    # The gates read the version the game was recorded under: the same events, folded as a game of today's
    # version, break a rule or end differently.
    rec = record(path)
    line = sqlite_svc.load(import_data(sqlite_svc, path.read_bytes()).game_id)
    current = msgspec.structs.replace(line.created, ruleset_version=line.ruleset.version)
    assert registry.get(rec["ruleset"]).initial_state(current).version > int(rec["ruleset_version"])
    if first_problem(line, current) is None:  # every event still fits: the end differs
        rs = line.ruleset
        state = rs.initial_state(current)
        for ev in line.events[1:]:
            state = rs.apply(state, ev)
        assert final_state(state, rec["ruleset"]) != rec["final_state"]


# --- each gate, one at a time -----------------------------------------------------------------------------------


def _refusal(svc, name: str) -> str:  # noqa: ANN001
    with pytest.raises(ServiceError) as e:
        import_data(svc, fixture(name).read_bytes())
    assert "nothing was imported" in str(e.value)
    return str(e.value)


@pytest.mark.parametrize("name", ["peloponnes-2p", "peloponnes-5p-moved", "peloponnes-5p-random"])
def test_peloponnes_minimum_bid_gate(sqlite_svc, monkeypatch, name):
    # Version 1: Market and Agora's half coins met the minimum too. Without the gate, the first bid below the
    # minimum in coin cards is refused by today's minimum ("the minimum bid in coin cards").
    monkeypatch.setattr(auction, "MINIMUM_IN_COIN_CARDS", 1)
    at, (kind, player, card, where, count, least) = record(fixture(name))["situations"]["bid_below_coin_minimum"][0]
    error = _refusal(sqlite_svc, name)
    assert f"event #{at} breaks a rule" in error
    assert "Market and Agora count only against another bid" in error
    assert f"a bid of {count} is too low" in error


def test_the_peloponnes_games_hold_a_moved_bid_and_a_conquest_row_bid_below_the_minimum():
    found = record(fixture("peloponnes-5p-moved"))["situations"]["bid_below_coin_minimum"]
    assert any(kind == "BidMoved" for _, (kind, *_) in found)
    assert any(where == "conquest row" for _, (_, _, _, where, *_) in record(fixture("peloponnes-2p"))["situations"][
        "bid_below_coin_minimum"])


def test_peloponnes_lists_version_1_minimums_for_a_version_1_game(sqlite_svc):
    # The listed bids (and the random bot's sampled one) follow the same minimum: at the first cheap bid of a
    # version-1 game, that bid is among today's options, as it was among version 1's.
    from agon.core.games.peloponnes import sample

    name = "peloponnes-2p"
    at, _ = record(fixture(name))["situations"]["bid_below_coin_minimum"][0]
    line = sqlite_svc.load(import_data(sqlite_svc, fixture(name).read_bytes()).game_id)
    before, bid = line.state_at(at - 1), line.events[at]
    options = line.ruleset.legal(before)
    assert bid in options
    layout = {card: least for card, least, _, _ in auction.bid_layout(before, bid.player)}
    assert layout[bid.card] == bid.coins.total() + bid.luxury
    n = len(options)
    assert [sample.sample_legal(before, _Fixed((i + 0.5) / n)) for i in range(n)] == options


class _Fixed:
    """A random source that draws one given number (sample_legal draws one per decision)."""

    def __init__(self, r: float) -> None:
        self.r = r

    def random(self) -> float:
        return self.r


@pytest.mark.parametrize("name", ["peloponnes-2p", "peloponnes-5p-moved", "peloponnes-5p-random"])
def test_peloponnes_build_gate(sqlite_svc, monkeypatch, name):
    # Version 1: production that paid built the new building without a decision, coin cards in hand or not.
    # Without the gate, the next event is recorded where a player must decide whether to build.
    monkeypatch.setattr(flow, "ASK_TO_BUILD", 1)
    at, (player, _) = record(fixture(name))["situations"]["built_by_production_holding_coins"][0]
    error = _refusal(sqlite_svc, name)
    assert f"event #{at + 1} " in error
    assert f"{player} to act: pay for your new building, or put it under construction" in error


@pytest.mark.parametrize("name", ["peloponnes-5p-moved", "peloponnes-5p-random"])
def test_peloponnes_finish_gate(sqlite_svc, monkeypatch, name):
    # Version 1: production that paid for every building under construction finished them without a decision.
    monkeypatch.setattr(flow, "ASK_TO_FINISH", 1)
    at, (player, _) = record(fixture(name))["situations"]["construction_finished_by_production"][0]
    error = _refusal(sqlite_svc, name)
    # the next player's supply decision comes while this one's construction is due
    assert f"event #{at + 1} breaks a rule: supply (rulebook, 'Suprimento'): that decision is not due now" in error
    assert json.loads(fixture(name).read_text().splitlines()[at + 1])["payload"]["player"] != player


def test_peloponnes_removal_gate(sqlite_svc, monkeypatch):
    # Version 3: a feeding removed every card named, even after the population was fed ('Suprimento': "até que sua
    # população seja igual a capacidade de produção de grãos" is kept from version 4). Without the gate, the
    # removal past a fed population is refused.
    name = "peloponnes-3p-v3"
    (at, (player, cards)), = record(fixture(name))["situations"]["removed_past_a_fed_population"]
    line = sqlite_svc.load(import_data(sqlite_svc, fixture(name).read_bytes()).game_id)
    removal = line.events[at]
    assert removal.player == player and [line.state.cat.name(c) for c in removal.removed] == cards
    before, after = line.state_at(at - 1), line.state_at(at)
    assert supply.deficit(before, before.seat(player)) > 0
    assert after.seat(player).luxury > before.seat(player).luxury  # the spare grain of the extra card

    monkeypatch.setattr(supply, "REMOVE_ONLY_WHILE_HUNGRY", 3)
    error = _refusal(sqlite_svc, name)
    assert f"event #{at} breaks a rule" in error
    assert "cards are removed only until the population equals the grain production" in error


@pytest.mark.parametrize("name", ["pergamemnon-2p", "pergamemnon-4p"])
def test_pergamemnon_secured_flee_gate(sqlite_svc, monkeypatch, name):
    # Version 1: after Xerxes' capture the Persian Guard (Secured) fled when defeated. Without the gate every event
    # still fits, but the Guard goes under Babylon with its Secured points and the game ends differently.
    rec = record(fixture(name))
    (_, (persian, card)), = rec["situations"]["secured_card_fled"]
    gid = import_data(sqlite_svc, fixture(name).read_bytes()).game_id
    kept = sqlite_svc.load(gid).state
    assert card not in next(p for p in kept.players if p.name == persian).secured

    monkeypatch.setattr(pergamemnon_state, "SECURED_NEVER_FLEES", 1)
    line = sqlite_svc.load(gid)
    rs = line.ruleset
    state = rs.initial_state(line.created)
    for ev in line.events[1:]:
        state = rs.apply(state, ev)
    assert card in next(p for p in state.players if p.name == persian).secured
    assert final_state(state, "pergamemnon") != rec["final_state"]


def test_pergamemnon_charisma_card_gate(sqlite_svc, monkeypatch):
    # Versions 1 to 3: a captured card under the city could pay for a creature without a charisma card. The 4-player
    # game holds such a recruit (found here, not in the record: the rule changed after the record was made). It
    # imports as played; without the gate, version 4's rule refuses it ("pelo menos uma Carta de Carisma").
    name = "pergamemnon-4p"
    lines = [json.loads(x) for x in fixture(name).read_text().splitlines()]
    found = [
        (x["n"], x["payload"]) for x in lines
        if x.get("tag") == "pergamemnon.creature_recruited" and x["payload"].get("charisma_cards", 0) == 0
    ]
    assert found and all(payload["captured"] for _, payload in found)
    at, payload = found[0]
    line = sqlite_svc.load(import_data(sqlite_svc, fixture(name).read_bytes()).game_id)
    assert set(payload["captured"]) <= set(line.state_at(at).box)

    monkeypatch.setattr(pergamemnon_rules, "CHARISMA_CARD_REQUIRED", 1)
    error = _refusal(sqlite_svc, name)
    assert f"event #{at} breaks a rule" in error
    assert "at least one charisma card from under your city must be added" in error


def test_perikles_token_gate(sqlite_svc, monkeypatch):
    # Version 1: Thessalian Allies / Persian Fleet moved the token one step toward the holder, so in a location's
    # second battle, after the holder's side lost the first, the battle started with the token in the middle.
    name = "perikles-4p"
    found = record(fixture(name))["situations"]["token_tile_in_second_battle"]
    assert {tile for _, (_, tile, _, _) in found} == {"thessalian-allies", "persian-fleet"}
    at, (player, tile, location, token) = found[0]
    line = sqlite_svc.load(import_data(sqlite_svc, fixture(name).read_bytes()).game_id)
    assert line.state_at(at - 1).battle.token == token
    assert line.state_at(at).battle.start == 0

    monkeypatch.setattr(perikles_battle, "TOKEN_ON_HOLDERS_SIDE", 1)
    problem = first_problem(line)
    assert problem is not None and problem[0] > at


def test_adamastor_ignored_icon_gate(sqlite_svc, monkeypatch):
    # Version 2: an icon ignored by 'Ignora ícones em jogo' kept counting off after a revolt took its card into the
    # traumas, where the card shows only its trauma icon. In this game the revolt takes c33 (a disease icon ignored
    # on it, a fatigue trauma); the strip refill then brings the third disease icon, so without the gate the tumult
    # breaks out at once (rulebook 7), and the game's next event comes after the game is over.
    name = "adamastor-2p"
    (at, (card, icon, trauma, count)), = record(fixture(name))["situations"]["ignored_icon_taken_by_revolt"]
    assert (icon, trauma) == ("disease", "fatigue")
    line = sqlite_svc.load(import_data(sqlite_svc, fixture(name).read_bytes()).game_id)
    assert card in line.state_at(at).traumas and (card, icon) in line.state_at(at).ignored
    assert not line.state_at(at + 1).result

    monkeypatch.setattr(adamastor_flow, "IGNORE_GOES_WITH_ITS_CARD", 2)
    problem = first_problem(line)
    assert problem is not None and problem[0] == at + 2
    assert "lose in round 10: a tumult breaks out on board" in problem[1]  # version 2 played on to round 11


def test_adamastor_coop_asking_gate(sqlite_svc, monkeypatch):
    # Version 2: co-op 'Aprende habilidade' asked only a player holding an affordable skill. Without the gate the
    # version-2 game breaks at its first events phase where a player without one would now be asked.
    line = sqlite_svc.load(import_data(sqlite_svc, fixture("adamastor-2p").read_bytes()).game_id)
    assert first_problem(line) is None
    monkeypatch.setattr(adamastor_flow, "ASK_EVERY_PARTNER", 2)
    problem = first_problem(line)
    assert problem is not None and "learn a skill" in problem[1]

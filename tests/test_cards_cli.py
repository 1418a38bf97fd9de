"""Card sets: export the bundled set, play with a corrected one, and refuse files that cannot be a card set."""

from __future__ import annotations

import json
import tomllib

import msgspec
import pytest

from agon.core import registry
from agon.core.service import NewGame, ServiceError
from agon.core.transfer import import_data
from agon.events.base import GameCreated, PlayerSeat
from agon.events.envelope import seal, to_jsonl
from agon.events.store import now
from tests.conftest import shipped_rulesets


def seats(name: str) -> list[str]:
    rs = registry.get(name)
    out: list[str] = []
    for i in range(rs.min_players):
        out += ["--bot", f"B{i}:random"]
    return out


@pytest.mark.parametrize("name", shipped_rulesets())
@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_an_exported_card_set_plays_and_the_game_records_it(agon, tmp_path, name, suffix):
    path = tmp_path / f"cards{suffix}"
    assert "Wrote" in agon("cards", name, "--export", str(path)).stdout
    data = tomllib.loads(path.read_text()) if suffix == ".toml" else json.loads(path.read_text())
    assert data == registry.get(name).default_cards()
    gid = agon("new", name, *seats(name), "--seed", "3", "--cards", str(path)).stdout.splitlines()[0]
    lines = [json.loads(line) for line in agon("export", gid).stdout.splitlines()]
    cards, first = lines[1], lines[2]  # after the header: the card set, then the first event naming it
    assert cards["kind"] == "cards" and cards["body"] == data
    assert first["payload"]["card_set"] == cards["hash"] and first["payload"]["cards"] == {}


@pytest.mark.parametrize("name", shipped_rulesets())
def test_a_malformed_card_set_is_refused_and_nothing_is_stored(agon, tmp_path, name):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"nonsense": [1, 2, 3]}))
    r = agon("new", name, *seats(name), "--cards", str(bad), ok=False)
    assert r.exit_code == 1 and "cannot set up" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    broken = tmp_path / "broken.toml"
    broken.write_text("this is = = not toml")
    r = agon("new", name, *seats(name), "--cards", str(broken), ok=False)
    assert r.exit_code == 1 and "cannot be read" in r.stderr
    assert not (tmp_path / "games.db").exists()  # nothing stored: not even the store AGON_DB names is made


def test_peloponnes_says_why_it_cannot_be_played_by_one_or_six(agon):
    one = agon("new", "peloponnes", "--player", "Ana", ok=False)
    assert one.exit_code == 1 and "no rules for a single player" in one.stderr
    six = agon("new", "peloponnes", *[arg for n in "ABCDEF" for arg in ("--player", n)], ok=False)
    assert six.exit_code == 1 and "only 5 colours" in six.stderr


def test_an_import_of_a_ruleset_this_agon_does_not_know_is_refused(sqlite_svc):
    created = GameCreated(ruleset="chess", ruleset_version="1", players=(PlayerSeat("a"), PlayerSeat("b")), seed=1)
    root = seal(None, "game.created", 1, "setup", msgspec.json.encode(created), now())
    with pytest.raises(ServiceError, match="unknown ruleset 'chess'"):
        import_data(sqlite_svc, to_jsonl([root]))
    assert sqlite_svc.games() == []
    with pytest.raises(ServiceError):
        sqlite_svc.new_game(NewGame("chess"))

"""Card sets stored once per store by content hash (issue 13): a new game's first event names its set's hash, the
store and every export hold the set once; import checks the hash; a changed set is refused, in a file or a store;
games recorded before (their set embedded in their first event) keep working, in stores and in files."""

from __future__ import annotations

import hashlib
import json
from contextlib import ExitStack, contextmanager
from pathlib import Path

import msgspec
import pytest
import sqlalchemy as sa

from agon.core import document, registry
from agon.core.service import NewGame, Service, ServiceError
from agon.core.transfer import export_game, import_data
from agon.events.card_sets import digest
from agon.events.store import SCHEMA_VERSION, Store
from tests.conftest import _pg_schema_url, shipped_rulesets

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def urls(request, tmp_path):
    """Three fresh store URLs of one backend."""
    with ExitStack() as stack:
        if request.param == "sqlite":
            yield [f"sqlite:///{tmp_path / f'{i}.db'}" for i in range(3)]
        else:
            base = request.getfixturevalue("pg_base")
            yield [stack.enter_context(contextmanager(_pg_schema_url)(base)) for _ in range(3)]


@contextmanager
def opened(url: str):
    store = Store(url)  # a fresh Store: what a new command sees (no card set read earlier in this process)
    try:
        yield Service(store)
    finally:
        store.close()


def people(name: str) -> list[str]:
    return [f"P{i}" for i in range(registry.get(name).min_players)]


def bots(name: str) -> list[tuple[str, str]]:
    return [(f"B{i}", "random") for i in range(registry.get(name).min_players)]


def payloads(store: Store) -> tuple[int, int, int]:
    """(card set rows, bytes of the card sets, bytes of every event payload)."""
    with store.engine.connect() as c:
        rows, sets = c.execute(sa.text("SELECT count(*), coalesce(sum(length(body)), 0) FROM card_set")).one()
        events = c.execute(sa.text("SELECT sum(length(payload)) FROM event")).scalar()
    return rows, sets, events


def test_many_games_store_their_card_set_once(urls):
    """A store of many games of one ruleset holds the card set once, and each first event is a small fraction of
    it: the payload bytes of a 1,000-game-like store shrink by the set's size for every game but one."""
    name = "peloponnes"
    with opened(urls[0]) as svc:
        games = [svc.new_game(NewGame(name, players=people(name), seed=k)) for k in range(40)]
        rows, set_bytes, event_bytes = payloads(svc.store)
        assert rows == 1
        with svc.store.engine.connect() as c:
            roots = c.execute(sa.text("SELECT e.payload FROM event e JOIN game g ON e.id = g.root_id")).scalars().all()
        assert len(roots) == 40
        assert all(len(bytes(p)) * 10 < set_bytes for p in roots)  # each first event names the set, no more
        # what the same store held when every first event embedded the set (4-18 KB each)
        largest_root = max(len(bytes(p)) for p in roots)
        embedded = event_bytes - sum(len(bytes(p)) for p in roots) + 40 * (set_bytes + largest_root)
        assert event_bytes + set_bytes < embedded / 2
        assert all(json.loads(bytes(p))["card_set"] == digest(svc.store.card_sets(
            [json.loads(bytes(p))["card_set"]]).popitem()[1]) for p in roots)
    with opened(urls[0]) as svc:  # a later command reads the set back by its hash
        for gid in games[:3]:
            line = svc.load(gid)
            assert line.created.cards == registry.get(name).default_cards()
            assert svc.verify(gid) == []


def test_every_ruleset_with_cards_names_its_set_and_plays(urls):
    with opened(urls[0]) as svc:
        for name in shipped_rulesets():
            gid = svc.new_game(NewGame(name, bots=bots(name), seed=5))
            line = svc.load(gid)
            assert line.created.card_set and line.created.cards == registry.get(name).default_cards()
            assert svc.verify(gid) == []
            svc.new_game(NewGame(name, bots=bots(name), seed=6))
        assert payloads(svc.store)[0] == len(shipped_rulesets())  # one set per ruleset, however many games


def test_export_then_import_carries_the_card_set_once_and_checks_it(urls):
    name = "pergamemnon"
    with opened(urls[0]) as here:
        gid = here.new_game(NewGame(name, players=people(name)[:1], bots=bots(name)[1:], seed=11))
        here.act(gid, "1")
        whole = export_game(here, gid)
        line = here.export(gid, "main")
        expected = here.load(gid)
    sets = [json.loads(x) for x in whole.splitlines() if b'"kind":"cards"' in x]
    assert len(sets) == 1 and sets[0]["hash"] == expected.created.card_set
    assert sum(1 for x in line.splitlines() if x.startswith(b'{"kind":"cards"')) == 1
    with opened(urls[1]) as there:
        report = import_data(there, whole)
        assert report.outcome == "new"
        got = there.load(report.game_id)
        assert [e.id for e in got.envelopes] == [e.id for e in expected.envelopes]
        assert got.created == expected.created and got.state == expected.state
        assert there.verify(report.game_id) == []
        assert import_data(there, whole).outcome == "unchanged"
        other = there.new_game(NewGame(name, players=people(name), seed=12))  # the same set: not stored again
        assert payloads(there.store)[0] == 1
        assert there.load(other).created.card_set == expected.created.card_set
    with opened(urls[2]) as third:  # one line
        report = import_data(third, line)
        assert third.load(report.game_id).state == expected.state
        assert payloads(third.store)[0] == 1
        assert third.verify(report.game_id) == []


def _edit_set(data: bytes, rehash: bool) -> bytes:
    out = []
    for raw in data.splitlines():
        if raw.startswith(b'{"kind":"cards"'):
            obj = json.loads(raw)
            body = obj["body"]
            key = next(iter(body))
            body[key] = "changed"  # a card set changed in the file
            obj["body"] = body
            if rehash:  # and its hash recomputed to match
                obj["hash"] = digest(msgspec.json.encode(body))
            raw = msgspec.json.encode(obj)
        out.append(raw)
    if rehash:  # and the file's digest too: only the hash chain still tells
        trailer = json.loads(out.pop())
        trailer["sha256"] = hashlib.sha256(b"".join(x + b"\n" for x in out)).hexdigest()
        out.append(msgspec.json.encode(trailer))
    return b"\n".join(out) + b"\n"


@pytest.mark.parametrize("rehash", [False, True], ids=["set-changed", "set-and-hash-changed"])
@pytest.mark.parametrize("whole", [True, False], ids=["document", "line"])
def test_a_file_with_a_changed_card_set_is_refused_and_nothing_is_imported(urls, rehash, whole):
    name = "peloponnes"
    with opened(urls[0]) as here:
        gid = here.new_game(NewGame(name, players=people(name), seed=3))
        data = export_game(here, gid) if whole else here.export(gid, "main")
    bad = _edit_set(data, rehash)
    with opened(urls[1]) as there:
        with pytest.raises(ServiceError) as err:
            import_data(there, bad)
        message = str(err.value)
        assert message.startswith("cannot import") and len(message.splitlines()) == 1
        if rehash:  # the set no longer has the hash the (unchanged, hash-chained) first event names
            assert "but its first event names card set" in message and "was changed or added" in message
        else:
            assert "does not match its hash" in message
        assert there.games() == [] and payloads(there.store)[0] == 0


def test_a_card_set_changed_in_the_store_is_refused_as_damage(urls):
    name = "adamastor"
    with opened(urls[0]) as svc:
        gid = svc.new_game(NewGame(name, players=people(name), seed=4))
    store = Store(urls[0])
    with store.engine.begin() as c:
        body = bytes(c.execute(sa.text("SELECT body FROM card_set")).scalar())
        c.execute(sa.text("UPDATE card_set SET body = :b"), {"b": body.replace(b"1", b"2", 1)})
    store.close()
    with opened(urls[0]) as svc:
        with pytest.raises(ServiceError, match=f"game {gid} is damaged: its card set .* does not match its hash"):
            svc.load(gid)
        assert any("card set" in p for p in svc.verify(gid))
        with pytest.raises(ServiceError, match="damaged"):
            export_game(svc, gid)
    store = Store(urls[0])
    with store.engine.begin() as c:
        c.execute(sa.text("DELETE FROM card_set"))
    store.close()
    with opened(urls[0]) as svc:
        with pytest.raises(ServiceError, match="its card set .* is not stored"):
            svc.load(gid)


def test_games_that_embed_their_card_set_keep_working_beside_new_ones(urls):
    """A game recorded by an older agon (its whole set in its first event, in its hash chain) is kept as it is:
    it loads, verifies, exports (format 2 without a card set line) and imports, beside games that name their set;
    an old store (layout 2, no card_set table) is upgraded when opened."""
    replay = (REPLAYS / "peloponnes-3p.jsonl").read_bytes()
    assert b'"kind":"cards"' not in replay  # an export written before card sets were stored by hash
    with opened(urls[0]) as old:
        old_id = import_data(old, replay).game_id
        old_line = old.load(old_id)
        assert not old_line.created.card_set and old_line.created.cards
    store = Store(urls[0])
    with store.engine.begin() as c:  # back to layout 2: no card_set table
        c.exec_driver_sql("DROP TABLE card_set")
        c.exec_driver_sql("UPDATE agon_schema SET version = 2")
    store.close()
    with opened(urls[0]) as svc:
        with svc.store.engine.connect() as c:
            assert c.execute(sa.text("SELECT version FROM agon_schema")).scalar() == SCHEMA_VERSION
        assert svc.load(old_id).state == old_line.state and svc.verify(old_id) == []
        new_id = svc.new_game(NewGame("peloponnes", players=["a", "b", "c"], seed=1))
        assert svc.load(new_id).created.card_set
        whole = export_game(svc, old_id)
        assert b'"kind":"cards"' not in whole and document.read(whole).card_sets == {}
    with opened(urls[1]) as there:
        got = import_data(there, whole).game_id
        assert there.load(got).state == old_line.state and payloads(there.store)[0] == 0


def test_a_version_1_document_still_imports(urls):
    """A whole-game file written before card set lines (format version 1) is read as it was."""
    with opened(urls[0]) as here:
        gid = import_data(here, (REPLAYS / "perikles-4p.jsonl").read_bytes()).game_id
        data = export_game(here, gid).replace(b'"version":2', b'"version":1', 1)
    head, rest = data.split(b"\n", 1)
    body, trailer = rest.rstrip(b"\n").rsplit(b"\n", 1)
    digest_ = hashlib.sha256(head + b"\n" + body + b"\n").hexdigest()
    old_trailer = json.loads(trailer)
    old_trailer["sha256"] = digest_
    v1 = head + b"\n" + body + b"\n" + msgspec.json.encode(old_trailer) + b"\n"
    with opened(urls[1]) as there:
        report = import_data(there, v1)
        assert report.outcome == "new" and there.verify(report.game_id) == []


def test_the_file_schema_describes_the_card_set_line(urls):
    schema = document.json_schema()
    kinds = {d["properties"]["kind"]["enum"][0]: d for d in schema["$defs"].values() if "kind" in d["properties"]}
    with opened(urls[0]) as svc:
        gid = svc.new_game(NewGame("perikles", players=people("perikles"), seed=2))
        line = json.loads(export_game(svc, gid).splitlines()[1])
    assert line["kind"] == "cards"
    assert set(kinds["cards"]["required"]) <= set(line) <= set(kinds["cards"]["properties"])


def test_a_game_without_cards_is_created_as_before(urls):
    """A ruleset without cards names no set, and its first event is encoded as before sets were stored by hash
    (no card_set field), with the salt every new game's first event has."""
    with opened(urls[0]) as svc:
        gid = svc.new_game(NewGame("toy", players=["ann", "bob"], seed=3))
        root = svc.store.root(gid)
        assert b"card_set" not in root.payload and json.loads(root.payload)["cards"] == {}
        assert len(json.loads(root.payload)["salt"]) == 32
        assert svc.verify(gid) == [] and payloads(svc.store)[0] == 0


def test_a_card_set_no_game_can_be_played_with_is_refused_when_the_game_is_made(tmp_path):
    """A set of one's own is checked as a whole: a malformed section, a value the ruleset knows to be wrong, and a
    set whose first game stops (a trial game with random bots) are each refused in one line; nothing is stored."""
    svc = Service(Store(f"sqlite:///{tmp_path / 'g.db'}"))
    three = ["Ana", "Bo", "Cy"]

    def refused(ruleset: str, players: list[str], change) -> str:
        cards = registry.get(ruleset).default_cards()
        change(cards)
        with pytest.raises(ServiceError) as e:
            svc.new_game(NewGame(ruleset, players=players, cards=cards))
        assert "\n" not in str(e.value)
        return str(e.value)

    assert "card set is malformed" in refused("adamastor", ["Ana"], lambda c: c.update(sea_costs="x"))
    assert "card set is malformed" in refused("peloponnes", ["Ana", "Bo"], lambda c: c.update(coins=None))
    assert "display_size must be at least 1" in refused(
        "perikles", three, lambda c: c["rules"].update(display_size=-1))
    # each value well formed, but three players cannot each be dealt more tiles than the bag holds
    assert "a trial game with random bots failed" in refused(
        "perikles", three, lambda c: c["rules"]["tiles_per_player"].update({"3": 500}))
    assert svc.store.all_branches() == []
    svc.store.close()


def test_a_store_keeps_a_bounded_number_of_card_sets_and_reads_again_those_it_let_go(urls, monkeypatch):
    """A server fed many sets of its players' own keeps only the most recent in memory (by count and by bytes);
    every game still reads its own set, by its hash, and verifies."""
    from agon.events import store as store_mod

    name = "perikles"
    monkeypatch.setattr(store_mod, "CARD_SETS_KEPT", 3, raising=False)
    sets = []
    for k in range(6):
        cards = registry.get(name).default_cards()
        cards["comment"] = f"the club's copy {k}"  # a set of one's own: another hash
        sets.append(cards)
    with opened(urls[0]) as svc:
        games = [svc.new_game(NewGame(name, players=people(name), cards=cards, seed=k)) for k, cards in enumerate(sets)]
        assert len(svc.store._card_sets) == 3
        for gid, cards in zip(games, sets, strict=True):
            assert svc.load(gid).created.cards == cards
            assert svc.verify(gid) == []
            assert len(svc.store._card_sets) <= 3
        one = len(msgspec.json.encode(sets[0]))
        monkeypatch.setattr(store_mod, "CARD_SET_BYTES_KEPT", 2 * one + one // 2, raising=False)  # room for two sets
        for gid, cards in zip(games, sets, strict=True):
            assert svc.load(gid).created.cards == cards
            assert len(svc.store._card_sets) <= 2
        assert payloads(svc.store)[0] == 6


def test_perikles_keeps_a_bounded_number_of_parsed_card_sets_and_parses_again_those_it_let_go():
    from agon.core.games.perikles import data

    sets = []
    for k in range(data._parse_frozen.cache_info().maxsize or 100):
        cards = registry.get("perikles").default_cards()
        cards["comment"] = f"copy {k}"
        sets.append(cards)
    sets.append(registry.get("perikles").default_cards())
    parsed = [data.parse_cached(cards) for cards in sets]
    info = data._parse_frozen.cache_info()
    assert info.maxsize is not None and info.currsize <= info.maxsize
    assert data.parse_cached(sets[0]) == parsed[0] == data.parse(sets[0])  # let go of, and parsed again alike
    assert data.parse_cached(sets[-1]) is parsed[-1]  # the most recent kept

"""Every face that imports judges a file the same way (core/transfer.py): the Python API (``import_data``), the
command line (``agon import``) and the server (``POST /api/import``). A file that leaves out its card set imports
through each when the set is agon's own; when the set is neither agon's own nor in the store, each refuses it with
the same one sentence, and nothing is stored."""

from __future__ import annotations

import json
import warnings

import pytest

from agon.core import registry
from agon.core.service import NewGame, Service, ServiceError, default_cards
from agon.core.transfer import export_game, import_data
from agon.events.store import Store
from agon.server.app import create_app
from tests.tamper import rewrite

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its test client; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

NAME = "peloponnes"
SEATS = ["Ana", "Bo", "Cy"]


def without_sets(data: bytes) -> bytes:
    """``data`` with its card set line left out, its trailer recomputed as if written so."""
    kept = b"".join(raw + b"\n" for raw in data.splitlines() if not raw.startswith(b'{"kind":"cards"'))
    return rewrite(kept, lambda events: None)


@pytest.fixture
def made(tmp_path) -> dict[str, bytes]:
    """Files without their card set: of a game with agon's own set, and of one with a set of the user's own, each
    as a whole game and as one line."""
    own = default_cards(registry.get(NAME))
    own["power"][0]["name"] = "Deep Well"
    store = Store(f"sqlite:///{tmp_path / 'here.db'}")
    here = Service(store)
    out = {}
    for kind, cards in (("bundled", None), ("own", own)):
        gid = here.new_game(NewGame(NAME, bots=[(n, "random") for n in SEATS], seed=4, cards=cards))
        for shape, data in (("whole", export_game(here, gid)), ("line", here.export(gid, "main"))):
            assert b'"kind":"cards"' in data
            out[f"{kind}-{shape}"] = without_sets(data)
    store.close()
    return out


def by_python(tmp_path, name: str, data: bytes) -> tuple[str | None, str | None, int]:
    """(the new game's id or None, the refusal or None, how many games the store holds after)."""
    store = Store(f"sqlite:///{tmp_path / f'py-{name}.db'}")
    svc = Service(store)
    try:
        gid, said = import_data(svc, data).game_id, None
        assert svc.verify(gid) == []
    except ServiceError as e:
        gid, said = None, str(e)
    n = len(svc.games())
    store.close()
    return gid, said, n


def by_cli(agon, tmp_path, name: str, data: bytes) -> tuple[str | None, str | None, int]:
    (tmp_path / f"{name}.jsonl").write_bytes(data)
    db = str(tmp_path / f"cli-{name}.db")
    r = agon("--db", db, "import", f"{name}.jsonl", ok=False)
    if r.exit_code == 0:
        gid = r.stdout.split()[0]
        assert "every hash matches" in agon("--db", db, "verify", gid).stdout
        return gid, None, len(json.loads(agon("--db", db, "games", "--json").stdout))
    assert r.exit_code == 1 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stderr.startswith("error: ")
    made = [p.name for p in tmp_path.iterdir() if p.name.startswith(f"cli-{name}.db")]
    assert made == [], made  # judged before a store is opened: none is made
    return None, r.stderr.strip().removeprefix("error: "), 0


def by_http(tmp_path, name: str, data: bytes) -> tuple[str | None, str | None, int]:
    app = create_app(f"sqlite:///{tmp_path / f'http-{name}.db'}", max_body=1024 * 1024, poll=0.05)
    with TestClient(app) as client:
        r = client.post("/api/import", content=data)
        if r.status_code == 201:
            gid, said = r.json()["game"], None
        else:
            assert r.status_code == 400, r.text
            gid, said = None, r.json()["error"]
        n = len(client.get("/api/games").json())
    app.state.service.store.close()
    return gid, said, n


def test_a_file_without_agons_own_card_set_imports_through_every_face(made, agon, tmp_path):
    for name in ("bundled-whole", "bundled-line"):
        data = made[name]
        for face in (by_python(tmp_path, name, data), by_cli(agon, tmp_path, name, data),
                     by_http(tmp_path, name, data)):
            gid, said, games = face
            assert said is None and gid and games == 1, (name, face)


def test_a_file_without_a_card_set_no_one_has_is_refused_in_the_same_words_by_every_face(made, agon, tmp_path):
    for name in ("own-whole", "own-line"):
        data = made[name]
        faces = [by_python(tmp_path, name, data), by_cli(agon, tmp_path, name, data), by_http(tmp_path, name, data)]
        said = {s for _, s, _ in faces}
        assert len(said) == 1, said
        (words,) = said
        assert words is not None and "\n" not in words
        assert words.startswith("cannot import: its card set ") and words.endswith("; nothing was imported")
        assert "is neither in the file nor bundled with agon nor in this store" in words
        assert [(gid, games) for gid, _, games in faces] == [(None, 0)] * 3  # nothing stored (the CLI: no store made)

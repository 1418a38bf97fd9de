"""`agon compare`: an event one line has where the other has ended is no event that differs. Told 'differs' beside
'(line ends)', a line played on past a shorter one's end read as a change made at every one of its events."""

from __future__ import annotations

import json

from agon.core.service import Service
from agon.events.store import Store
from tests.analysis.conftest import record_known


def _known(tmp_path) -> str:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        return record_known(Service(store))  # main ends at #14; lucky parts after #10 and ends sooner
    finally:
        store.close()


def test_an_event_past_the_other_lines_end_is_only_on_one_line(agon, tmp_path, monkeypatch):
    gid = _known(tmp_path)
    monkeypatch.setenv("COLUMNS", "160")  # each row on one line
    rows = json.loads(agon("compare", gid, "main", "lucky", "--json").stdout)["after_fork"]
    ended = [r for r in rows if r["b"] is None]
    assert ended and all(r["a"] for r in ended)
    last = json.loads(agon("compare", gid, "main", "lucky", "--json").stdout)["b"]["last"]
    for args in (("main", "lucky"), ("lucky", "main"), ("main", "lucky", "--as", "Ana")):
        out = agon("compare", gid, *args).stdout
        line = next(ln for ln in out.splitlines() if ln.strip().startswith(f"{ended[0]['n']} "))
        assert "(line ends)" in line and f"only on main (lucky ends at #{last})" in line
        assert "differs" not in line and "reads differently" not in line

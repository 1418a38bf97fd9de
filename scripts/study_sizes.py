"""The size of the study page (``agon view``) of every shipped replay: the whole file, plotly.js (included once),
and the page's own data. Run: ``python scripts/study_sizes.py``; the README quotes its output."""

from __future__ import annotations

import tempfile
from pathlib import Path

from agon.analysis.study import build_study
from agon.core.service import Service
from agon.core.transfer import import_data
from agon.events.store import Store

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    from plotly.offline import get_plotlyjs

    plotly = len(get_plotlyjs().encode())
    print(f"plotly.js: {plotly / 1e6:.2f} MB (once per page)")
    with tempfile.TemporaryDirectory() as tmp:
        svc = Service(Store(f"sqlite:///{tmp}/sizes.db"))
        for path in sorted((ROOT / "replays").glob("*.jsonl")):
            gid = import_data(svc, path.read_bytes()).game_id
            lines = svc.lines(gid)
            size = len(build_study(lines).encode())
            print(f"{path.stem}: {len(lines[0].events)} events, page {size / 1e6:.2f} MB, of which the game's own"
                  f" data and the page's code {(size - plotly) / 1e3:.0f} kB")
        svc.store.close()


if __name__ == "__main__":
    main()

"""Per-ruleset figures and facts, one module per ruleset: the only place that knows a ruleset's projection rows.

A module here may define
- ``FIGURES``: plot kind (``battles``, ``auction``...) -> ``fn(line) -> plotly Figure`` (plotly imported inside);
- ``ROWS``: the same plot kinds -> ``fn(line)`` -> the plain rows the figure draws (for ``--json``, through
  ``rows_for``, which names each event number ``n``);
- ``SCORE``: what the ruleset's score is, in a few words (for axis titles);
- ``SIDE`` and ``sides(line) -> {player: side}``: what each player played as (a nation, a civilization), for
  stats;
- ``label(text, cards) -> str | None``: a readable name for an identifier a view shows (a tile, a card number),
  from the game's card set; None when ``text`` is not one (the study page shows names, not ids).

Modules are imported only when a command needs them, so the CLI never loads another ruleset's code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

MODULES: dict[str, str] = {
    "pergamemnon": "agon.analysis.games.pergamemnon",
    "peloponnes": "agon.analysis.games.peloponnes",
    "perikles": "agon.analysis.games.perikles",
    "adamastor": "agon.analysis.games.adamastor",
}


def register(ruleset: str, module: str) -> None:
    """Add the figure module of a ruleset (tests use it for the test game)."""
    MODULES[ruleset] = module


def module_for(ruleset: str) -> ModuleType | None:
    name = MODULES.get(ruleset)
    return importlib.import_module(name) if name else None


def figures_for(ruleset: str) -> dict[str, Callable[[Any], Any]]:
    mod = module_for(ruleset)
    return dict(getattr(mod, "FIGURES", {})) if mod else {}


def rows_for(ruleset: str) -> dict[str, Callable[[Any], Any]]:
    """The rows each plot kind draws, as ``--json`` gives them: each event's number under ``n``, as ``agon log``
    numbers it and as ``plot scores``, ``analyse`` and ``compare`` give it (``numbered``)."""
    mod = module_for(ruleset)
    rows = dict(getattr(mod, "ROWS", {})) if mod else {}
    return {kind: (lambda line, fn=fn: numbered(fn(line))) for kind, fn in rows.items()}


def numbered(rows: Any) -> Any:
    """``rows`` with each event number the projections call ``index`` under ``n``, the key every other --json of
    agon's gives it under (``plot voyage --json`` read ``index`` where ``plot scores --json`` read ``n``)."""
    if isinstance(rows, list):
        return [numbered(r) for r in rows]
    if isinstance(rows, dict):
        return {("n" if k == "index" else k): numbered(v) for k, v in rows.items()}
    return rows


def sides_of(ruleset: str, line: Any) -> tuple[str, dict[str, str]] | None:
    """(what a side is called, each player's side), or None for a ruleset without sides."""
    mod = module_for(ruleset)
    fn = getattr(mod, "sides", None) if mod else None
    if fn is None:
        return None
    return getattr(mod, "SIDE", "side"), fn(line)


def labeller(ruleset: str) -> Callable[[str, Any], str | None] | None:
    mod = module_for(ruleset)
    return getattr(mod, "label", None) if mod else None


def plot_kinds() -> dict[str, list[str]]:
    """Every plot kind with the rulesets that draw it (imports each module: for help and error messages)."""
    kinds: dict[str, list[str]] = {}
    for rs in MODULES:
        for kind in figures_for(rs):
            kinds.setdefault(kind, []).append(rs)
    return kinds

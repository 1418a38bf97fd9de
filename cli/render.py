"""Generic rendering of a ruleset's view (plain nested data) for a terminal."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.tree import Tree


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, str | int | float | bool)


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, list | tuple):
        return ", ".join(_fmt(x) for x in v) if v else "(none)"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_fmt(x)}" for k, x in v.items()) if v else "(none)"
    return str(v)


def _flat(v: Any) -> bool:
    if _scalar(v):
        return True
    if isinstance(v, list | tuple):
        return all(_scalar(x) for x in v)
    if isinstance(v, dict):
        return all(_scalar(x) for x in v.values())
    return False


def _table(rows: list[dict[str, Any]]) -> Table:
    cols: list[str] = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    t = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    for c in cols:
        t.add_column(str(c))
    for r in rows:
        t.add_row(*(_fmt(r.get(c)) for c in cols))
    return t


def _add(tree: Tree, key: str, value: Any) -> None:
    label = f"[bold]{key}[/]"
    if _flat(value):
        tree.add(f"{label}: {_fmt(value)}")
    elif isinstance(value, list) and value and all(isinstance(x, dict) and _flat(x) for x in value):
        tree.add(label).add(_table(value))
    elif isinstance(value, dict):
        sub = tree.add(label)
        for k, v in value.items():
            _add(sub, str(k), v)
    elif isinstance(value, list):
        sub = tree.add(label)
        for i, v in enumerate(value, start=1):
            _add(sub, str(i), v)
    else:
        tree.add(f"{label}: {_fmt(value)}")


def view_tree(title: str, view: dict[str, Any]) -> Tree:
    tree = Tree(title)
    for k, v in view.items():
        _add(tree, str(k), v)
    return tree


def scores_text(scores: dict[str, float]) -> str:
    return ", ".join(f"{p} {_fmt(v)}" for p, v in scores.items())

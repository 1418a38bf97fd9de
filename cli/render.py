"""Generic rendering of a ruleset's view (plain nested data) as indented text for a terminal.

Plain text, not a rich Tree: a big view (a map, a deck) renders in a few milliseconds, reads well when piped,
and never mistakes a value in brackets for markup.
"""

from typing import Any

from rich.text import Text


def _scalar(v: Any) -> bool:
    return v is None or isinstance(v, str | int | float | bool)


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
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


def _table(rows: list[dict[str, Any]], indent: str) -> list[str]:
    cols: list[str] = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    cells = [[str(c) for c in cols]] + [[_fmt(r.get(c)) for c in cols] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cols))]
    return [indent + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in cells]


def _lines(key: str, value: Any, indent: str, out: list[str]) -> None:
    if _flat(value):
        out.append(f"{indent}{key}: {_fmt(value)}")
    elif isinstance(value, list | tuple) and all(isinstance(x, dict) and _flat(x) for x in value):
        out.append(f"{indent}{key}:")
        out.extend(_table(list(value), indent + "  "))
    elif isinstance(value, dict):
        out.append(f"{indent}{key}:")
        for k, v in value.items():
            _lines(str(k), v, indent + "  ", out)
    elif isinstance(value, list | tuple):
        out.append(f"{indent}{key}:")
        for i, v in enumerate(value, start=1):
            _lines(str(i), v, indent + "  ", out)
    else:
        out.append(f"{indent}{key}: {_fmt(value)}")


def view_text(title: str, view: dict[str, Any]) -> Text:
    out = [title]
    for k, v in view.items():
        _lines(str(k), v, "  ", out)
    return Text("\n".join(out))


def scores_text(scores: dict[str, float]) -> str:
    return ", ".join(f"{p} {_fmt(v)}" for p, v in scores.items())


def said(actor: str, sentence: str) -> str:
    """An event's line in a log: its sentence after who decided it, unless the sentence already begins with that
    name ('Ana bids 2 on ...', not 'Ana: Ana bids 2 on ...'); chance and the setup are nobody's."""
    if actor in ("chance", "setup") or sentence.startswith(f"{actor} "):
        return sentence
    return f"{actor}: {sentence}"

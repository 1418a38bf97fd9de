"""Generic rendering of a ruleset's view (plain nested data) as indented text for a terminal, and the folding of
long lines to the terminal's width.

Plain text, not a rich Tree: a big view (a map, a deck) renders in a few milliseconds, reads well when piped,
and never mistakes a value in brackets for markup.
"""

import re
from collections.abc import Iterable, Mapping
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from agon.core.engine import Over, Pending


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


def _table(rows: list[dict[str, Any]], indent: str, width: int | None) -> list[str]:
    """A list of records as a table, a column per key; where the table is wider than ``width``, each record as one
    line of its own instead ('- key: value; key: value'), for the terminal to fold (``fold``)."""
    cols: list[str] = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    cells = [[str(c) for c in cols]] + [[_fmt(r.get(c)) for c in cols] for r in rows]
    widths = [max(cell_len(row[i]) for row in cells) for i in range(len(cols))]
    if width is not None and len(indent) + sum(widths) + 2 * (len(cols) - 1) > width:
        return [f"{indent}- " + "; ".join(f"{c}: {_fmt(r.get(c))}" for c in cols if c in r) for r in rows]
    return [indent + "  ".join(cell + " " * (w - cell_len(cell)) for cell, w in zip(row, widths)).rstrip()
            for row in cells]


def _lines(key: str, value: Any, indent: str, out: list[str], width: int | None) -> None:
    if _flat(value):
        out.append(f"{indent}{key}: {_fmt(value)}")
    elif isinstance(value, list | tuple) and all(isinstance(x, dict) and _flat(x) for x in value):
        out.append(f"{indent}{key}:")
        out.extend(_table(list(value), indent + "  ", width))
    elif isinstance(value, dict):
        out.append(f"{indent}{key}:")
        for k, v in value.items():
            _lines(str(k), v, indent + "  ", out, width)
    elif isinstance(value, list | tuple):
        out.append(f"{indent}{key}:")
        for i, v in enumerate(value, start=1):
            _lines(str(i), v, indent + "  ", out, width)
    else:
        out.append(f"{indent}{key}: {_fmt(value)}")


def view_text(title: str, view: dict[str, Any], width: int | None = None) -> Text:
    """``view`` under ``title``; ``width``: the terminal's, where a table too wide for it lists its rows one by
    one instead (None: tables as wide as they are, as when the output is piped)."""
    out = [title]
    for k, v in view.items():
        _lines(str(k), v, "  ", out, width)
    return Text("\n".join(out))


def scores_text(scores: dict[str, float], unit: str = "") -> str:
    """``Ana 57, Bruno 64``; each number followed by ``unit`` where it says what the number is (``Ana 46.7% of the
    voyage sailed``)."""
    return ", ".join(f"{p} {_fmt(v)}{unit}" for p, v in scores.items())


def scores_line(pending: Pending, scores: Mapping[str, float], unit: str | None = None,
                ruleset: str | None = None) -> str | None:
    """The line ``Scores: Ana 57, Bruno 64`` shown under the status of a line whose ``pending`` is this, or None
    where the game is over with an outcome whose summary tells every total (``Outcome.totals_told``: a Perikles game
    over from version 5 names each total and how it was made, and the totals shown twice read as two results). An
    outcome that does not (Perikles before version 5, "Chloe wins with 63 points"), and a game going on, keep the
    line. Read from the outcome's flag, not from the status's text: a name and a number in it are no total. Totals
    that are no points say what they are: ``unit`` (the ruleset's, ``core.summary.score_unit``), else an outcome's
    ``score_unit``: an Adamastor voyage, solo or co-op, shows ``Scores: Ana 46.7% of the voyage sailed`` under way
    and at its end, where ``Ana 46.7`` read as points. ``ruleset`` (its name): where its players win or lose
    together, a crew's one score is told once, as the crew's, as ``agon games`` lists it (``Scores: the crew 66.7%
    of the voyage sailed``, not once per player); a solo voyage keeps its player's name."""
    shown = dict(scores)
    if ruleset is not None and len(shown) > 1:
        from agon.core.summary import scores_shown  # the ruleset says whether its players share one score

        shown = scores_shown(ruleset, shown)
    if not isinstance(pending, Over):
        return f"Scores: {scores_text(shown, unit or '')}"
    outcome = pending.outcome
    return None if outcome.totals_told else f"Scores: {scores_text(shown, unit or outcome.score_unit)}"


def said(actor: str, sentence: str) -> str:
    """An event's line in a log: its sentence after who decided it, unless the sentence already begins with that
    name ('Ana bids 2 on ...', not 'Ana: Ana bids 2 on ...'); chance and the setup are nobody's."""
    if actor in ("chance", "setup") or sentence.startswith(f"{actor} "):
        return sentence
    return f"{actor}: {sentence}"


# -- folding long lines -------------------------------------------------------------------------------------------
# A line longer than the terminal is folded at spaces, never inside a word: an id, a path or a position stays whole,
# and so does a command to copy (``keep``, and any `agon ...` between backticks), which moves to the next line whole
# instead, standing past the edge only where it is longer than a line. The lines after the first are indented
# (``hang``) so that a folded line reads as one: under the text after a number ('  12. ...', '#6  ...'), after the
# first column of a two-column line ('u, undo    take back ...'), else two more than the line's own indent.

_LABEL = re.compile(r"(#\d+\.?|\d+\.|[-*•]|[?!]{1,2}(?= #\d))\s+")
_COLUMN = re.compile(r"\S.*?\s{2,}(?=\S)")
_QUOTED = re.compile(r"`agon [^`]*`")
_WORD = re.compile(r"\S+")


def hang_of(line: str, width: int) -> int:
    """How far the lines folded from ``line`` are indented."""
    lead = len(line) - len(line.lstrip(" "))
    rest = line[lead:]
    label = _LABEL.match(rest)
    column = _COLUMN.match(rest)
    if label is not None:
        hang = lead + label.end()
    elif column is not None and lead + column.end() <= width // 2:
        hang = lead + column.end()
    else:
        hang = lead + 2
    return min(hang, width // 2)


def _kept(line: str, keep: Iterable[str]) -> list[tuple[int, int]]:
    if "agon" not in line:  # every command to keep names agon (a log's lines never do: no search for them)
        return []
    spans = [m.span() for m in _QUOTED.finditer(line)]
    for k in keep:
        if " " not in k:
            continue
        at = line.find(k)
        while at >= 0:
            spans.append((at, at + len(k)))
            at = line.find(k, at + len(k))
    return spans


Hang = int | str | None
"""How lines folded from a line begin: that many spaces, or that text (a tree's '│   '); None: ``hang_of``."""


def breaks(line: str, width: int, keep: Iterable[str] = (), hang: Hang = None) -> tuple[list[tuple[int, int]], str]:
    """Where to fold ``line`` (no newline in it) to ``width`` columns: the runs of spaces to replace by a newline
    and the beginning of a folded line (returned too)."""
    measure = len if line.isascii() else cell_len  # most lines: a character a column
    if measure(line) <= width:
        return [], ""
    lead = " " * hang_of(line, width) if hang is None else " " * hang if isinstance(hang, int) else hang
    hang = cell_len(lead)
    spans = _kept(line, keep)
    words = [m.span() for m in _WORD.finditer(line)]
    if spans:  # a command to keep whole is one word
        joined: list[tuple[int, int]] = []
        for start, end in words:
            if joined and any(a < joined[-1][1] and start < b for a, b in spans):
                joined[-1] = (joined[-1][0], end)
            else:
                joined.append((start, end))
        words = joined
    cuts: list[tuple[int, int]] = []
    col = measure(line[:words[0][1]]) if words else 0
    for (_, end), (start, nxt) in zip(words, words[1:]):
        size = nxt - start if measure is len else cell_len(line[start:nxt])
        if col + start - end + size <= width or col <= hang:  # it fits, or the line holds only its indent so far
            col += start - end + size
        else:
            cuts.append((end, start))
            col = hang + size
    return cuts, lead


def fold(text: str, width: int, keep: Iterable[str] = (), hang: Hang = None) -> str:
    """``text`` (one line or several) folded to ``width`` columns (``breaks``)."""
    out = []
    for line in text.split("\n"):
        cuts, h = breaks(line, width, keep, hang)
        at = 0
        for a, b in cuts:
            out.append(line[at:a])
            out.append("\n" + h)
            at = b
        out.append(line[at:])
        out.append("\n")
    return "".join(out[:-1])


def fold_text(text: Text, width: int, keep: Iterable[str] = (), hang: Hang = None) -> Text:
    """A rich ``Text`` folded as ``fold`` folds a string, its styles kept."""
    plain = text.plain
    cuts: list[tuple[int, int, str]] = []
    offset = 0
    for line in plain.split("\n"):
        found, h = breaks(line, width, keep, hang)
        cuts.extend((offset + a, offset + b, h) for a, b in found)
        offset += len(line) + 1
    if not cuts:
        return text
    out = text.blank_copy()
    at = 0
    for a, b, h in cuts:
        out.append_text(text[at:a])
        out.append("\n" + h)
        at = b
    out.append_text(text[at:])
    return out

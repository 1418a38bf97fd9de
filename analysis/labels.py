"""Placing labels on a figure so that none covers another, the legend or an axis title.

Plotly places annotations where it is told and never moves them apart, so the figures here decide where each label goes
before drawing it. Every figure is laid out for ``WIDTH`` pixels by its height, with fixed margins, so a data coordinate
maps to a pixel (``Frame``), and a label's box is known from its text (``text_size``: plotly's default font is at most
about 0.55 em wide per character). ``spread`` moves labels that would stack on one another apart along one axis;
``place`` tries a few positions around a point and takes the first that is free.

tests/analysis/test_label_layout.py checks the result where it counts: in a real browser, on the shipped replays, from
the boxes plotly actually drew.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

WIDTH = 1200
"""Every figure's width in pixels (the PNG's, and the HTML page's)."""

EM = 0.55
"""Average character width of plotly's default font, in font sizes (slightly generous)."""


@dataclass(frozen=True)
class Box:
    """A rectangle in pixels, y growing downwards (as on screen)."""

    x0: float
    y0: float
    x1: float
    y1: float

    def hits(self, other: Box, pad: float = 2.0) -> bool:
        return not (self.x1 + pad <= other.x0 or other.x1 + pad <= self.x0 or self.y1 + pad <= other.y0
                    or other.y1 + pad <= self.y0)

    def inside(self, other: Box) -> bool:
        return self.x0 >= other.x0 and self.x1 <= other.x1 and self.y0 >= other.y0 and self.y1 <= other.y1


def text_size(text: str, size: float) -> tuple[float, float]:
    """Width and height in pixels of a label (HTML tags such as <b> and <br> understood), with its padding."""
    lines = [re.sub(r"<[^>]+>", "", part) for part in re.split(r"<br\s*/?>", text)]
    width = max((len(s) for s in lines), default=0) * size * EM
    return width + 8, len(lines) * size * 1.25 + 6


@dataclass(frozen=True)
class Frame:
    """The plot area of a figure with one x and one y axis: data coordinates to pixels."""

    width: float
    height: float
    left: float
    right: float
    top: float
    bottom: float
    x_range: tuple[float, float]
    y_range: tuple[float, float]

    @property
    def area(self) -> Box:
        return Box(self.left, self.top, self.width - self.right, self.height - self.bottom)

    def px(self, x: float) -> float:
        a, b = self.x_range
        return self.left + (x - a) / ((b - a) or 1) * (self.width - self.left - self.right)

    def py(self, y: float) -> float:
        a, b = self.y_range
        return self.height - self.bottom - (y - a) / ((b - a) or 1) * (self.height - self.top - self.bottom)


def spread(wanted: Sequence[float], sizes: Sequence[float], lo: float, hi: float, gap: float = 2.0) -> list[float]:
    """Centres as close as possible to ``wanted`` with no two of the intervals (centre ± size/2) closer than
    ``gap``, kept within [lo, hi] where there is room. Works in any order; returns the centres in input order."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    pos = {i: wanted[i] for i in order}
    prev_end = lo
    for i in order:  # push down (towards larger values) past the previous label
        start = max(pos[i] - sizes[i] / 2, prev_end + (gap if prev_end > lo else 0))
        pos[i] = start + sizes[i] / 2
        prev_end = start + sizes[i]
    next_start = hi
    for i in reversed(order):  # then back up from the far end where the labels ran past it
        end = min(pos[i] + sizes[i] / 2, next_start - (gap if next_start < hi else 0))
        pos[i] = end - sizes[i] / 2
        next_start = end - sizes[i]
    return [pos[i] for i in range(len(wanted))]


def centred_box(cx: float, cy: float, w: float, h: float) -> Box:
    return Box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def place(x: float, y: float, w: float, h: float, taken: Iterable[Box], within: Box,
          offsets: Sequence[tuple[float, float]]) -> tuple[float, float, Box] | None:
    """The first offset (dx, dy) from the point (x, y) at which a w×h label centred there is inside ``within``
    and clear of every box in ``taken``; None when no offset is free."""
    taken = list(taken)
    for dx, dy in offsets:
        box = centred_box(x + dx, y + dy, w, h)
        if box.inside(within) and not any(box.hits(t) for t in taken):
            return dx, dy, box
    return None


AROUND = [(0, -40), (0, 40), (-60, -40), (60, -40), (-60, 40), (60, 40), (0, -75), (0, 75), (-110, -60),
          (110, -60), (-110, 60), (110, 60), (0, -110), (0, 110)]
"""Where an arrowed label may sit relative to the point it marks, in order of preference (pixels)."""


def thin_every(positions: Sequence[float], widths: Sequence[float], gap: float = 6.0) -> int:
    """The smallest k such that labelling every k-th position (the first, then every k-th after it) leaves no two
    labels (left-aligned at their positions, ``widths`` wide) touching: labels thin out evenly, never at random."""
    n = len(positions)
    for k in range(1, n + 1):
        kept = list(range(0, n, k))
        if all(positions[b] - positions[a] >= widths[a] + gap for a, b in zip(kept, kept[1:])):
            return k
    return max(n, 1)

"""Player marks: each player's colour, marker symbol and line dash, fixed by seat order, so a player is drawn the same
way in every plot of a game, and told apart from the others by more than colour (a black-and-white print, a reader
who does not see the colours: WCAG 1.4.1)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# Colour-blind-friendly qualitative colours (Okabe and Ito's set, black left out), then a few more.
PALETTE = (
    "#0072B2",  # blue
    "#D55E00",  # vermilion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#8C6D31",  # brown
    "#7F7F7F",  # grey
)

SYMBOLS = ("circle", "square", "diamond", "triangle-up", "triangle-down", "pentagon", "hexagon", "cross")
"""Marker shapes by seat, each filled or open (``-open``); no star, which a plot may use for a meaning (a card won)."""

PLAYER_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot", "8px,3px,2px,3px,2px,3px", "2px,6px")
"""Line styles by seat: the first player's line solid, the others' dashed each their own way."""

DASHES = ("dash", "dot", "dashdot", "longdash", "longdashdot")
"""Line styles of the marks where what-if lines part from the first line, one per overlaid branch."""


@dataclass(frozen=True)
class Mark:
    """How one player is drawn: ``color`` and ``symbol`` for markers, ``color`` and ``dash`` for lines."""

    color: str
    symbol: str
    dash: str

    def line(self, width: float = 2.5, **more: object) -> dict[str, object]:
        """The player's line style for plotly (``shape`` and the like in ``more``)."""
        return {"color": self.color, "dash": self.dash, "width": width, **more}

    def marker(self, size: float = 9, *, hollow: bool = False, **more: object) -> dict[str, object]:
        """The player's marker for plotly: filled, or ``hollow`` (an outline in the player's colour)."""
        if hollow:
            return {"color": self.color, "symbol": f"{self.symbol}-open", "size": size,
                    "line": {"color": self.color, "width": 2}, **more}
        return {"color": self.color, "symbol": self.symbol, "size": size, "line": {"color": "white", "width": 1},
                **more}


def player_marks(players: Sequence[str], extra: Iterable[str] = ()) -> dict[str, Mark]:
    """A mark per player by seat (``GameCreated.players`` order); other series (``extra``) follow."""
    names = list(players) + [x for x in extra if x not in players]
    return {name: Mark(PALETTE[i % len(PALETTE)], SYMBOLS[i % len(SYMBOLS)], PLAYER_DASHES[i % len(PLAYER_DASHES)])
            for i, name in enumerate(names)}


def player_colors(players: Sequence[str], extra: Iterable[str] = ()) -> dict[str, str]:
    """A colour per player by seat: ``player_marks``' colours."""
    return {name: m.color for name, m in player_marks(players, extra).items()}


def branch_dash(k: int) -> str:
    """The line style of the ``k``-th line of a plot's fork marks: the first solid, later ones dashed."""
    return "solid" if k == 0 else DASHES[(k - 1) % len(DASHES)]


def marked_points(ys: Sequence[float | None], most: int = 24, phase: float = 0.0) -> list[int]:
    """Which points of a line carry its player's marker: where its value changes, and its last point, thinned evenly
    to about ``most``. ``phase`` (0 to 1, a fraction of the gap between markers) staggers the players' markers when a
    line has to be thinned, so lines that change at the same events do not hide one another's markers.
    A marker on every point of a long line would blur it."""
    last = max((i for i, y in enumerate(ys) if y is not None), default=None)
    if last is None:
        return []
    changes = [i for i in range(1, last) if ys[i] is not None and ys[i] != ys[i - 1]]
    if len(changes) >= most:
        gap = len(changes) / (most - 1)
        changes = sorted({changes[min(len(changes) - 1, int((j + phase) * gap))] for j in range(most - 1)})
    return [*changes, last]


def sparse_markers(points: Sequence[int]) -> dict[str, object]:
    """A scatter trace's arguments that draw its markers at ``points`` only (``marked_points``); its line, hover
    text and legend entry are as they were."""
    return {"selectedpoints": list(points), "unselected": {"marker": {"opacity": 0}}}

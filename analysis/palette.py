"""Player colours: fixed by seat order, so a player has the same colour in every plot of a game."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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

DASHES = ("dash", "dot", "dashdot", "longdash", "longdashdot")
"""Line styles for what-if lines overlaid on a solid main line, one per overlaid branch."""


def player_colors(players: Sequence[str], extra: Iterable[str] = ()) -> dict[str, str]:
    """A colour per player by seat (``GameCreated.players`` order); other series (``extra``) follow."""
    names = list(players) + [x for x in extra if x not in players]
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)}


def branch_dash(k: int) -> str:
    """The line style of the ``k``-th line of a plot: the first solid, overlays dashed."""
    return "solid" if k == 0 else DASHES[(k - 1) % len(DASHES)]

"""The laid-out map and what sailing costs (rulebook 5.2 C 'Navegar': 'Tipos de espaços marítimos', Imagem 4,
'Espaços no limite das cartas', 'Bónus descoberta terra', 'Impacto do tempo').

Map cards lie in a row; card k starts at the column where card k-1 ends, so card k-1's right half spaces and
card k's left half spaces share a column and row and are one sea space. A merged space takes the costlier type,
a current from either half, both halves' black clouds, the larger island numeral (RULES.md).

Costs (Imagem 4): an empty space costs 2, a rough one 3; a current space costs 1 entered with its flow, 4 against
it, ``current_across`` otherwise; leaving a current space along its flow costs 1 whatever the next space is
('navegar no sentido da corrente'). Black clouds never change a cost ('Nuvens pretas têm apenas impacto ao
determinar o tempo').
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from functools import cached_property

from agon.core.games.adamastor.data import ROWS, Cards

OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E", "NE": "SW", "SW": "NE", "SE": "NW", "NW": "SE"}
_RANK = {"empty": 0, "current": 1, "rough": 2}


@dataclass(frozen=True)
class Space:
    id: str
    col: int
    row: int
    type: str
    current: str
    clouds: int
    island: int
    destination: bool
    label: str
    links: tuple[str, ...]
    edge_of: int = -1
    """The map position of the face-down card to the right of this right half space, or -1."""

    @property
    def name(self) -> str:
        return f"{self.id} ({self.label})" if self.label else self.id


def space_id(col: int, row: int) -> str:
    return f"{col}{ROWS[row]}"


@dataclass(frozen=True)
class Board:
    """The revealed part of the map. Equality compares the spaces."""

    spaces: tuple[Space, ...]
    offsets: tuple[int, ...] = field(default=())

    @cached_property
    def index(self) -> dict[str, Space]:
        return {s.id: s for s in self.spaces}

    def __contains__(self, sid: str) -> bool:
        return sid in self.index

    def __getitem__(self, sid: str) -> Space:
        return self.index[sid]


def build_board(cards: Cards, maps: tuple[str, ...]) -> Board:
    """Lay out the revealed map cards (``maps[k]`` is '' while position k is face down)."""
    merged: dict[tuple[int, int], dict] = {}
    links: dict[tuple[int, int], set[tuple[int, int]]] = {}
    offsets: list[int] = []
    offset = 0
    for pos, mid in enumerate(maps):
        offsets.append(offset)
        if not mid:
            break
        card = cards.maps[mid]
        local = {}
        for s in card.spaces:
            key = (offset + s.col, s.row)
            local[s.at] = key
            mine = {
                "type": s.type,
                "current": s.current,
                "clouds": s.clouds,
                "island": s.island,
                "destination": s.destination,
                "label": s.label,
                "edge_of": pos + 1 if (s.col == card.width and card.kind != "final" and pos + 1 < len(maps)) else -1,
            }
            old = merged.get(key)
            if old is None:
                merged[key] = mine
            else:
                merged[key] = {
                    "type": max(old["type"], mine["type"], key=_RANK.__getitem__),
                    "current": old["current"] or mine["current"],
                    "clouds": old["clouds"] + mine["clouds"],
                    "island": max(old["island"], mine["island"]),
                    "destination": old["destination"] or mine["destination"],
                    "label": old["label"] or mine["label"],
                    "edge_of": mine["edge_of"],
                }
                if merged[key]["type"] != "current":
                    merged[key]["current"] = ""
                elif not merged[key]["current"]:
                    merged[key]["type"] = "empty"
            links.setdefault(key, set())
        for a, b in card.links:
            ka, kb = local[a], local[b]
            links[ka].add(kb)
            links[kb].add(ka)
        offset += card.width
    spaces = tuple(
        Space(
            id=space_id(*key),
            col=key[0],
            row=key[1],
            links=tuple(sorted(space_id(*k) for k in links[key])),
            **attrs,
        )
        for key, attrs in sorted(merged.items())
    )
    return Board(spaces=spaces, offsets=tuple(offsets))


def direction(a: Space, b: Space) -> str:
    dx, dy = b.col - a.col, b.row - a.row
    ns = "N" if dy < 0 else "S" if dy > 0 else ""
    ew = "E" if dx > 0 else "W" if dx < 0 else ""
    return ns + ew


def step_cost(cards: Cards, board: Board, frm: str, to: str, extra: int = 0) -> int:
    """Navigation points to sail from ``frm`` into the adjacent space ``to`` (plus the weather's ``extra``)."""
    a, b = board[frm], board[to]
    d = direction(a, b)
    costs = cards.costs
    if b.type == "current":
        if d == b.current:
            base = costs["current_with"]
        elif d == OPPOSITE[b.current]:
            base = costs["current_against"]
        elif a.type == "current" and d == a.current:
            base = costs["current_with"]
        else:
            base = costs["current_across"]
    elif a.type == "current" and d == a.current:
        base = costs["current_with"]
    else:
        base = costs[b.type]
    return base + extra


def cheapest(cards: Cards, board: Board, start: str, extra: int = 0, budget: int | None = None) -> dict[str, int]:
    """Least cost from ``start`` to every space reachable (within ``budget``); a path stops at a right edge whose
    next card is still face down, since the card must be revealed first."""
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        c, sid = heapq.heappop(heap)
        if c > best.get(sid, 1 << 30):
            continue
        if sid != start and board[sid].edge_of >= 0:
            continue
        for nxt in board[sid].links:
            nc = c + step_cost(cards, board, sid, nxt, extra)
            if budget is not None and nc > budget:
                continue
            if nc < best.get(nxt, 1 << 30):
                best[nxt] = nc
                heapq.heappush(heap, (nc, nxt))
    return best

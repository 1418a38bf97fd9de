"""Perikles' pictures: every battle's dice, hits and battle token (from the ruleset's ``battles`` projection) and the
losses at each location (with ``locations``, which says who took the location's tile).

The upper panel has one row per battle, named with the players on each side: each roll is a mark whose shape says
who hit (attacker, defender, both, nobody; colours are kept for players) and labelled with the battle token's
position after it (attacker side positive: two steps win); the result and the counter lost, named with the side that
lost it, follow the last roll. The lower panel counts, per location, the counters each side lost and names the player
who took the location's tile.
Rows read ``battles``: index, turn, location, battle, kind, attack, defence, column, attacker_needs, defender_needs,
token_start, rolls (n, attacker, defender, attacker_hit, defender_hit, token), attacker_hits, defender_hits,
token_path, winner, lost (the counter's id) and lost_name (it in words, as the hovers name it), automatic, attackers
and defenders (the players on each side, as the figure names them);
and ``locations``: turn, location, winner, player. A battle's number (index, ``n`` in --json) is the event that
settles it, a roll's its own (``battle_rows``); every hover of a battle or a roll starts with it.
"""

from __future__ import annotations

import re
from typing import Any

from agon.analysis.figures import style
from agon.analysis.palette import player_colors
from agon.core.words import counted

SCORE = "points so far"

_TILE = re.compile(r"^([a-z]+)-(?:([ht])(\d+)-\d+|(\d+)|(assassin|candidate))$")


def label(text: str, cards: Any) -> str | None:
    """Tiles and counters by name, as the ruleset's sentences name them (core.games.perikles.data): ``sparta-h3-2``
    is "Sparta hoplite 3", ``argos-2`` "Argos 2-cube", ``thebes-assassin`` "Thebes assassin"; a special tile
    (``slave-revolt``) by its title."""
    if any(sp.get("name") == text for sp in (cards or {}).get("specials", ())):
        return text.replace("-", " ").title()
    m = _TILE.match(text)
    if m is None:
        return None
    city, kind, strength, influence, role = m.groups()
    if kind:
        return f"{city.title()} {'hoplite' if kind == 'h' else 'trireme'} {strength}"
    if influence:
        return f"{city.title()} {influence}-cube"
    return f"{city.title()} {role}"


def battle_rows(line: Any) -> list[dict[str, Any]]:
    """The ruleset's battle rows, each numbered (``index``, ``n`` in --json) by the event that settles the battle, the
    one whose sentence in ``agon log`` says who wins it: its last roll, or, for a battle won without dice, the event
    after which it is won (the roll that settles the battle before it, or the decision before it). Each roll carries
    ``n`` too: its own event, the dice rolled (``perikles.battle_dice_rolled``), as the log numbers it. ``attackers``
    and ``defenders`` name the players on each side (``battle_sides``), as the figure's row and hovers name them
    ("Ana vs Bruno", "Bruno (defender) lost ..."); the rows named none, so --json could not say who fought.
    ``lost_name`` names the counter lost (``lost``: ``thebes-h3-1``) as the hovers do ("Thebes hoplite 3")."""
    from agon.events.perikles import BattleDiceRolled

    steps = list(line.steps())
    rolled = iter([st.index for st in steps if isinstance(st.event, BattleDiceRolled)])
    # every roll of the line belongs to one battle, in the order they were rolled (a line that stops mid-battle has
    # rolls left over, of no row yet)
    rows = [{**r, "rolls": [{"n": next(rolled), **roll} for roll in r["rolls"]]}
            for r in line.ruleset.projections["battles"](steps)]
    return [{**_named_loss(line, r), "attackers": sd["attacker"], "defenders": sd["defender"]}
            for r, sd in zip(rows, battle_sides(steps, rows))]


def _named_loss(line: Any, row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with ``lost_name`` right after ``lost``: the counter lost in words, or None where none was."""
    out: dict[str, Any] = {}
    for k, v in row.items():
        out[k] = v
        if k == "lost":
            out["lost_name"] = counter_name(line, v) if v else None
    return out


def location_rows(line: Any) -> list[dict[str, Any]]:
    return line.ruleset.projections["locations"](line.steps())


def counter_name(line: Any, cid: str) -> str:
    """A lost counter in words ("Megara hoplite 1": city, kind, strength) from its id ("megara-h1-1")."""
    data = line.state.data
    if not data.has_counter(cid):
        return cid
    c = data.counter(cid)
    kind = {"H": "hoplite", "T": "trireme"}.get(c.kind, c.kind)
    return f"{c.city.title()} {kind} {c.strength}"


def hit_kind(roll: dict[str, Any]) -> str:
    a, d = roll["attacker_hit"], roll["defender_hit"]
    return "both hit" if a and d else "attacker hits" if a else "defender hits" if d else "no hit"


def battle_label(r: dict[str, Any]) -> str:
    return f"t{r['turn']} {r['location']} {r['kind']} {r['battle']}"


def losses(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per location and turn (in the order fought): battles won and counters lost by each side."""
    out: dict[tuple[int, str], dict[str, Any]] = {}
    for r in rows:
        k = (r["turn"], r["location"])
        t = out.setdefault(k, {"turn": r["turn"], "location": r["location"], "attacker_wins": 0,
                               "defender_wins": 0, "attacker_lost": [], "defender_lost": []})
        t[f"{r['winner']}_wins"] += 1
        if r["lost"]:
            loser = "defender" if r["winner"] == "attacker" else "attacker"
            t[f"{loser}_lost"].append(r["lost"])
    return list(out.values())


def battle_sides(steps: Any, rows: list[dict[str, Any]]) -> list[dict[str, list[str]]]:
    """For each battle row, the players on each side: whoever had counters of the battle's kind standing there
    as it began its last roll (a side without counters is the location's own defence, no player). ``steps``: the
    line's, by event number."""
    from agon.core.games.perikles.data import KIND_NAMES
    from agon.core.games.perikles.state import units

    code = {name: k for k, name in KIND_NAMES.items()}
    out = []
    for r in rows:
        s = steps[r["index"]].before or steps[r["index"]].after
        sides = {}
        for side in ("attacker", "defender"):
            seats = [cm.player for cm, _ in units(s, r["location"], side, code.get(r["kind"]))]
            sides[side] = [s.players[p] for p in dict.fromkeys(seats) if 0 <= p < len(s.players)]
        out.append(sides)
    return out


def _who(names: list[str], side: str = "defender") -> str:
    if names:
        return " and ".join(names)
    return "the location" if side == "defender" else "no attacker"


GAP_PX = 100
"""Pixels between the two panels: the battles' roll ticks and axis title, then the losses panel's title."""

ROLL_MARKS = {
    "attacker hits": {"symbol": "triangle-right", "color": "#222222", "size": 14},
    "defender hits": {"symbol": "triangle-left-open", "color": "#222222", "size": 14, "line": {"width": 2}},
    "both hit": {"symbol": "diamond", "color": "#777777", "size": 13},
    "no hit": {"symbol": "circle-open", "color": "#999999", "size": 10, "line": {"width": 1.5}},
}
"""Rolls by who hit: the side by the marker's shape (pointing at the side it hits), never by a player's colour."""

LOSS_BARS = {"attacker": {"color": "#444444"},
             "defender": {"color": "#BBBBBB", "pattern": {"shape": "/", "fgcolor": "#444444", "solidity": 0.3}}}
"""Losses by side: solid dark for the attacker, hatched light for the defender (player colours mean players)."""


def battles_figure(line: Any) -> Any:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    from agon.analysis.labels import WIDTH, text_size

    rows = [{**r, "lost": r["lost_name"]} for r in battle_rows(line)]
    sides = [{"attacker": r["attackers"], "defender": r["defenders"]} for r in rows]
    held = {(h["turn"], h["location"]): h for h in location_rows(line)}
    colors = player_colors(line.created.names)
    labels = [f"{battle_label(r)}: {_who(sd['attacker'], 'attacker')} vs {_who(sd['defender'])}"
              for r, sd in zip(rows, sides)]
    per_loc = losses(rows)
    height = max(720, 420 + 24 * len(rows))
    # at least GAP_PX between the panels, for the upper panel's tick labels and axis title and the lower one's title
    # (a tenth of a short figure's height left the 'roll' title over 'Counters lost at each location')
    fig = make_subplots(rows=2, cols=1, row_heights=[0.7, 0.3], vertical_spacing=max(0.1, GAP_PX / (height - 260)),
                        subplot_titles=("Battles: each roll (▶ attacker hits, ◁ defender hits; label: battle token"
                                        " after it, ±2 wins)",
                                        "Counters lost at each location (and who took its tile)"))
    for kind, mark in ROLL_MARKS.items():
        xs, ys, text, hover = [], [], [], []
        for lab, r in zip(labels, rows):
            for i, roll in enumerate(r["rolls"], start=1):
                if hit_kind(roll) != kind:
                    continue
                xs.append(i)
                ys.append(lab)
                text.append(f"{roll['token']:+d}")
                hover.append(f"#{roll['n']}: {lab}, roll {i}: attacker {sum(roll['attacker'])} (needs"
                             f" {r['attacker_needs']}),"
                             f" defender {sum(roll['defender'])} (needs {r['defender_needs']}); token"
                             f" {roll['token']:+d}")
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="markers+text", name=kind, marker=mark,
                                 text=text, textposition="middle right", textfont={"size": 10, "color": "#555"},
                                 hovertext=hover, hoverinfo="text"), row=1, col=1)
    auto = [(lab, r) for lab, r in zip(labels, rows) if r["automatic"]]
    if auto:
        fig.add_trace(go.Scatter(x=[0] * len(auto), y=[lab for lab, _ in auto], mode="markers",
                                 name="won without dice", marker={"color": "#222", "size": 10, "symbol": "square"},
                                 hovertext=[f"#{r['index']}: {lab}: the {r['winner']} wins without dice"
                                            for lab, r in auto],
                                 hoverinfo="text"), row=1, col=1)
    most = max([r["roll_count"] for r in rows] + [1])
    results = []
    for r, sd in zip(rows, sides):
        # The counter is the losing side's: named with that side, never read as the winner's loss.
        loser = "defender" if r["winner"] == "attacker" else "attacker"
        lost = f"; {_who(sd[loser], loser)} ({loser}) lost {r['lost']}" if r["lost"] else ""
        results.append(f"{_who(sd[r['winner']], r['winner'])} ({r['winner']}) wins{lost}")
    # Fixed margins, so the results column can be given the room its longest line needs inside the plot.
    left = max([text_size(lab, 12)[0] for lab in labels] + [100]) + 40
    right = 30
    plot_px = WIDTH - left - right
    result_px = max([text_size(t, 10)[0] for t in results] + [60]) + 8
    start, per_roll = -0.5, max(8.0, (plot_px - result_px) / (most + 1.5))
    x_max = most + 1.0 + result_px / per_roll
    for lab, text, r in zip(labels, results, rows):
        fig.add_annotation(x=most + 1.0, y=lab, text=text, showarrow=False, xanchor="left",
                           hovertext=f"#{r['index']}: {lab}: {text}",  # the event in `agon log` that settles it
                           font={"size": 10, "color": "#333"}, xref="x", yref="y", name="battle result")
    fig.update_yaxes(type="category", categoryorder="array", categoryarray=labels, autorange="reversed",
                     title_text="battle: attacker vs defender", row=1, col=1)
    fig.update_xaxes(range=[start, x_max], tickvals=list(range(0, most + 1)), title_text="roll", row=1, col=1)
    locs = [f"t{t['turn']} {t['location']}" for t in per_loc]
    for side, bar in LOSS_BARS.items():
        fig.add_trace(go.Bar(x=locs, y=[len(t[f"{side}_lost"]) for t in per_loc], name=f"{side} losses",
                             marker=bar,
                             hovertext=[f"{lab}: {side} lost {', '.join(t[f'{side}_lost']) or 'nothing'};"
                                        f" won {counted(t[f'{side}_wins'], 'battle')}"
                                        for lab, t in zip(locs, per_loc)],
                             hoverinfo="text"), row=2, col=1)
    for lab, t in zip(locs, per_loc):
        h = held.get((t["turn"], t["location"]))
        if h and h["player"]:
            fig.add_annotation(x=lab, y=max(len(t["attacker_lost"]), len(t["defender_lost"])), yshift=14,
                               text=h["player"], showarrow=False, font={"size": 11, "color": colors[h["player"]]},
                               xref="x2", yref="y2", name="tile taken")
    top = max([max(len(t["attacker_lost"]), len(t["defender_lost"])) for t in per_loc] + [1])
    fig.update_yaxes(title_text="counters lost", dtick=1, range=[0, top + 0.6], row=2, col=1)
    fig.update_xaxes(title_text="location (turn)", row=2, col=1)
    fig.update_layout(barmode="group", height=height)
    style(fig, f"{line.ruleset.title}: battles", "roll", "battle: attacker vs defender",
          subtitle=f"game {line.game.id}, branch {line.branch.name}: {len(rows)} battles at {len(per_loc)}"
          " locations")
    fig.update_layout(margin={"l": left, "r": right, "t": 150, "b": 110}, legend_title_text="",
                      legend={"orientation": "h", "xref": "container", "x": 0.01, "xanchor": "left",
                              "entrywidth": 120, "yref": "container", "y": 1 - 62 / height, "yanchor": "top"})
    fig.update_yaxes(automargin=False, row=1, col=1)
    return fig


FIGURES = {"battles": battles_figure}
ROWS = {"battles": lambda line: {"battles": battle_rows(line), "locations": location_rows(line)}}

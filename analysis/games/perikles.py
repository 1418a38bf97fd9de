"""Perikles' pictures: every battle's dice, hits and battle token (from the ruleset's ``battles`` projection) and
the losses at each location (with ``locations``, which says who took the location's tile).

The upper panel has one row per battle: each roll is a dot coloured by who hit (attacker, defender, both, nobody)
and labelled with the battle token's position after it (attacker side positive: two steps win); the result and the
counter lost follow the last roll. The lower panel counts, per location, the counters each side lost and names the
player who took the location's tile. Rows read ``battles``: index, turn, location, battle, kind, attack, defence,
column, attacker_needs, defender_needs, token_start, rolls (attacker, defender, attacker_hit, defender_hit, token),
attacker_hits, defender_hits, token_path, winner, lost, automatic; and ``locations``: turn, location, winner,
player.
"""

from __future__ import annotations

from typing import Any

from agon.analysis.figures import style
from agon.analysis.palette import player_colors

SCORE = "points so far"

HIT_COLORS = {"attacker hits": "#D55E00", "defender hits": "#0072B2", "both hit": "#CC79A7", "no hit": "#AAAAAA"}


def battle_rows(line: Any) -> list[dict[str, Any]]:
    return line.ruleset.projections["battles"](line.steps())


def location_rows(line: Any) -> list[dict[str, Any]]:
    return line.ruleset.projections["locations"](line.steps())


def counter_name(line: Any, cid: str) -> str:
    """A lost counter in words ("Megara hoplite of strength 1") from its id ("megara-h1-1")."""
    data = line.state.data
    if not data.has_counter(cid):
        return cid
    c = data.counter(cid)
    kind = {"H": "hoplite", "T": "trireme"}.get(c.kind, c.kind)
    return f"{c.city.title()} {kind} of strength {c.strength}"


def hit_kind(roll: dict[str, Any]) -> str:
    a, d = roll["attacker_hit"], roll["defender_hit"]
    return "both hit" if a and d else "attacker hits" if a else "defender hits" if d else "no hit"


def battle_label(r: dict[str, Any]) -> str:
    return f"turn {r['turn']} · {r['location']} · {r['kind']} {r['battle']}"


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


def battles_figure(line: Any) -> Any:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    rows = [{**r, "lost": counter_name(line, r["lost"]) if r["lost"] else None} for r in battle_rows(line)]
    held = {(h["turn"], h["location"]): h for h in location_rows(line)}
    colors = player_colors(line.created.names)
    labels = [battle_label(r) for r in rows]
    per_loc = losses(rows)
    fig = make_subplots(rows=2, cols=1, row_heights=[0.7, 0.3], vertical_spacing=0.1,
                        subplot_titles=("Battles: each roll (label: battle token after it; ±2 wins)",
                                        "Counters lost at each location (and who took its tile)"))
    for kind, colour in HIT_COLORS.items():
        xs, ys, text, hover = [], [], [], []
        for lab, r in zip(labels, rows):
            for i, roll in enumerate(r["rolls"], start=1):
                if hit_kind(roll) != kind:
                    continue
                xs.append(i)
                ys.append(lab)
                text.append(f"{roll['token']:+d}")
                hover.append(f"{lab}, roll {i}: attacker {sum(roll['attacker'])} (needs {r['attacker_needs']}),"
                             f" defender {sum(roll['defender'])} (needs {r['defender_needs']}); token"
                             f" {roll['token']:+d}")
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="markers+text", name=kind, marker={"color": colour, "size": 14},
                                 text=text, textposition="middle right", textfont={"size": 10},
                                 hovertext=hover, hoverinfo="text", legendgroup="rolls",
                                 legendgrouptitle_text="rolls"), row=1, col=1)
    auto = [(lab, r) for lab, r in zip(labels, rows) if r["automatic"]]
    if auto:
        fig.add_trace(go.Scatter(x=[0] * len(auto), y=[lab for lab, _ in auto], mode="markers",
                                 name="won without dice", marker={"color": "#333", "size": 11, "symbol": "square"},
                                 hovertext=[f"{lab}: the {r['winner']} wins without dice" for lab, r in auto],
                                 hoverinfo="text", legendgroup="rolls"), row=1, col=1)
    most = max([r["roll_count"] for r in rows] + [1])
    for lab, r in zip(labels, rows):
        lost = f", lost {r['lost']}" if r["lost"] else ""
        fig.add_annotation(x=most + 0.6, y=lab, text=f"{r['winner']} wins{lost}", showarrow=False, xanchor="left",
                           font={"size": 10, "color": HIT_COLORS[f"{r['winner']} hits"]}, xref="x", yref="y",
                           name="battle result")
    fig.update_yaxes(type="category", categoryorder="array", categoryarray=labels, autorange="reversed",
                     title_text="battle", row=1, col=1)
    fig.update_xaxes(range=[-0.5, most + 3.5], tickvals=list(range(0, most + 1)), title_text="roll", row=1, col=1)
    locs = [f"t{t['turn']} {t['location']}" for t in per_loc]
    for side, colour in (("attacker", HIT_COLORS["attacker hits"]), ("defender", HIT_COLORS["defender hits"])):
        fig.add_trace(go.Bar(x=locs, y=[len(t[f"{side}_lost"]) for t in per_loc], name=f"{side} losses",
                             marker={"color": colour}, legendgroup="losses", legendgrouptitle_text="losses",
                             hovertext=[f"{lab}: {side} lost {', '.join(t[f'{side}_lost']) or 'nothing'};"
                                        f" won {t[f'{side}_wins']} battle(s)" for lab, t in zip(locs, per_loc)],
                             hoverinfo="text"), row=2, col=1)
    for lab, t in zip(locs, per_loc):
        h = held.get((t["turn"], t["location"]))
        if h and h["player"]:
            fig.add_annotation(x=lab, y=max(len(t["attacker_lost"]), len(t["defender_lost"])), yshift=14,
                               text=h["player"], showarrow=False, font={"size": 11, "color": colors[h["player"]]},
                               xref="x2", yref="y2", name="tile taken")
    fig.update_yaxes(title_text="counters lost", dtick=1, row=2, col=1)
    fig.update_xaxes(title_text="location (turn)", row=2, col=1)
    fig.update_layout(barmode="group", height=max(720, 420 + 24 * len(rows)))
    style(fig, f"{line.ruleset.title}: battles", "roll", "battle",
          subtitle=f"game {line.game.id}, branch {line.branch.name}: {len(rows)} battles at {len(per_loc)}"
          " locations")
    fig.update_layout(legend_title_text="")
    return fig


FIGURES = {"battles": battles_figure}
ROWS = {"battles": lambda line: {"battles": battle_rows(line), "locations": location_rows(line)}}

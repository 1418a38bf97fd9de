"""Peloponnes' pictures: the auctions (from the ruleset's ``auctions`` projection) and the turn order across the
rounds as a bump chart (from ``turn_order``).

The auction panel has one row per card offered, grouped by round, and events left to right. A bid is a marker in
the bidder's marks (``palette.player_marks``: colour and shape, as in every plot of the game) labelled with its coin
cards; a bid that outbids someone crosses out the displaced player's marker on that card, and an arrow carries the
displaced bid to the card it moved to (a hollow marker) or along its row to where it is taken back (named); a card
won is a large marker, its label starred, and "unpaid: lost" where its player then could not pay for it. The turn
order's lines keep the players' marks and dashes, each named at its end, so nothing in the figure is told by colour
alone. Rows read ``auctions``: index, round, action (bid, move, withdraw, pass, won), player, card, card_name,
conquest, coin_cards, effective, outbid, outbid_coin_cards, from_card, chain, and ``lost_at`` (added here); and
``turn_order``: index, round, player, position, bid, next_position.
"""

from __future__ import annotations

from typing import Any

from agon.analysis.figures import style
from agon.analysis.palette import player_marks

SIDE = "civilization"
SCORE = "lower of population and power"


def sides(line: Any) -> dict[str, str]:
    """Each player's civilization as dealt at the start (a catastrophe may take it from the tableau later)."""
    rs = line.ruleset
    s = rs.initial_state(line.created)
    for ev in line.events[1:]:
        if s.seats and all(seat.civ is not None for seat in s.seats):
            break
        s = rs.apply(s, ev)
    return {seat.name: s.cat.name(seat.civ.card) for seat in s.seats if seat.civ is not None}


def auction_rows(line: Any) -> list[dict[str, Any]]:
    """The ruleset's ``auctions`` rows, each with ``lost_at``: for a card won that its player then could neither pay
    for nor put under construction (``BuildingLost``: it goes back to the box), the number of that event; else
    None. The auction was won, the card never held."""
    from agon.events.peloponnes import BuildingLost

    rows = [{**r, "lost_at": None} for r in line.ruleset.projections["auctions"](line.steps())]
    for st in line.steps():
        if isinstance(st.event, BuildingLost):
            won = [r for r in rows if r["action"] == "won" and r["index"] < st.index
                   and (r["player"], r["card"]) == (st.event.player, st.event.card)]
            if won:
                won[-1]["lost_at"] = st.index
    return rows


def turn_order_rows(line: Any) -> list[dict[str, Any]]:
    return line.ruleset.projections["turn_order"](line.steps())


def card_rows(rows: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """The (round, card) rows of the auction panel, in the order the cards were first bid on in each round."""
    seen: list[tuple[int, str]] = []
    for r in rows:
        for card in (r["card"], r["from_card"]):
            if card and (r["round"], card) not in seen:
                seen.append((r["round"], card))
    seen.sort(key=lambda rc: rc[0])
    return seen


def action_steps(rows: list[dict[str, Any]]) -> dict[int, int]:
    """Each auction row's place on the x axis: its action's number within the round's auction (1 first); the
    cards won sit one place after the round's last action."""
    out: dict[int, int] = {}
    count: dict[int, int] = {}
    for r in rows:
        if r["action"] == "won":
            out[id(r)] = count.get(r["round"], 0) + 1
        elif r["action"] != "pass":
            count[r["round"]] = count.get(r["round"], 0) + 1
            out[id(r)] = count[r["round"]]
    return out


def auction_figure(line: Any) -> Any:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    rows = auction_rows(line)
    order = turn_order_rows(line)
    players = list(line.created.names)
    marks = player_marks(players)
    colors = {p: m.color for p, m in marks.items()}
    cards = card_rows(rows)
    names = {r["card"]: r["card_name"] for r in rows if r["card"]}
    ypos = {rc: i for i, rc in enumerate(cards)}
    rounds = sorted({r["round"] for r in order} | {r["round"] for r in rows})
    fig = make_subplots(rows=2, cols=1, row_heights=[0.68, 0.32], vertical_spacing=0.12,
                        subplot_titles=("Auctions: bids, displaced bids (crossed out) and where they went (→,"
                                        " hollow), cards won (large, ★)",
                                        "Turn order by round (1 = first)"))
    step = action_steps(rows)
    for p in players:
        mine = [r for r in rows if r["player"] == p and r["action"] in ("bid", "move", "won")]
        if mine:
            fig.add_trace(go.Scatter(
                x=[step[id(r)] for r in mine], y=[ypos[(r["round"], r["card"])] for r in mine],
                mode="markers+text", name=p, legendgroup=p,
                marker={**marks[p].marker(13), "size": [_SIZE[r["action"]] for r in mine],
                        "symbol": [marks[p].symbol + _VARIANT[r["action"]] for r in mine],
                        "line": {"width": [_EDGE[r["action"]][0] for r in mine],
                                 "color": [_EDGE[r["action"]][1] or colors[p] for r in mine]}},
                text=[("★" if r["action"] == "won" else "") + str(r["coin_cards"]) for r in mine],
                textposition="middle right",
                textfont={"color": colors[p], "size": 11},
                hovertext=[_say(r) for r in mine], hoverinfo="text",
            ), row=1, col=1)
        for r in mine:
            if r["lost_at"] is not None:  # won, then neither paid for nor put under construction: never held
                fig.add_annotation(x=step[id(r)], y=ypos[(r["round"], r["card"])], text="unpaid: lost",
                                   showarrow=False, xanchor="left", xshift=40, name="unpaid",
                                   font={"color": colors[p], "size": 11}, hovertext=_say(r))
        hit = [r for r in rows if r["outbid"] == p]
        if hit:
            fig.add_trace(go.Scatter(
                x=[step[id(r)] - 0.25 for r in hit], y=[ypos[(r["round"], r["card"])] for r in hit],
                mode="markers+text", name=f"{p} outbid", legendgroup=p, showlegend=False,
                marker=marks[p].marker(15, hollow=True), text=["✕"] * len(hit), textposition="middle center",
                textfont={"color": colors[p], "size": 13},
                hovertext=[f"#{r['index']}: {p}'s bid of {r['outbid_coin_cards']} on {r['card_name']} is displaced by"
                           f" {r['player']}" for r in hit], hoverinfo="text",
            ), row=1, col=1)
    # Arrows: where each displaced bid went, from the moment it was displaced.
    displaced_at: dict[tuple[str, str], float] = {}
    for r in rows:
        if r["outbid"]:
            displaced_at[(r["outbid"], r["card"])] = step[id(r)] - 0.25
        if r["action"] in ("move", "withdraw") and r["from_card"]:
            start = displaced_at.get((r["player"], r["from_card"]), step[id(r)])
            from_y = ypos[(r["round"], r["from_card"])]
            to_y = ypos[(r["round"], r["card"])] if r["action"] == "move" else from_y
            if r["action"] == "withdraw":
                fig.add_annotation(x=step[id(r)], y=to_y, text=f"taken back by {r['player']}", showarrow=False,
                                   xanchor="left",
                                   xshift=4, font={"size": 11, "color": colors[r["player"]]}, name="taken back")
            fig.add_annotation(
                x=step[id(r)], y=to_y, ax=start, ay=ypos[(r["round"], r["from_card"])], xref="x", yref="y",
                axref="x", ayref="y", showarrow=True, arrowhead=3, arrowwidth=1.8, arrowcolor=colors[r["player"]],
                text="", hovertext=_say(r), name="displacement",
            )
    ticks = [f"round {rnd}: {names.get(c, c)}" for rnd, c in cards]
    for i in range(1, len(cards)):
        if cards[i][0] != cards[i - 1][0]:
            fig.add_hline(y=i - 0.5, line={"color": "#ccc", "width": 1}, row=1, col=1)
    fig.update_yaxes(tickvals=list(range(len(ticks))), ticktext=ticks, autorange="reversed", row=1, col=1,
                     title_text="card offered")
    most = max(step.values(), default=1)
    fig.update_xaxes(title_text="action in the round's auction (★: won when the auction closes)", row=1, col=1,
                     tickvals=list(range(1, most + 1)), range=[0.5, most + 0.8])
    # Bump chart of the turn order.
    for p in players:
        mine = [r for r in order if r["player"] == p]
        if not mine:
            continue
        xs = [r["round"] for r in mine]
        ys = [r["position"] for r in mine]
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="lines+markers+text", name=f"{p} (turn order)", legendgroup=p, showlegend=False,
            line=marks[p].line(3), marker=marks[p].marker(12),
            text=[f"{r['bid']}" for r in mine], textposition="middle right",
            textfont={"color": colors[p], "size": 10},
            hovertext=[f"#{r['index']} (round {r['round']}): {p} acts {_ordinal(r['position'])} and bids {r['bid']}"
                       f" coin cards → {_ordinal(r['next_position'])} next round" for r in mine],
            hoverinfo="text",
        ), row=2, col=1)
        fig.add_annotation(x=xs[-1], y=ys[-1], text=p, showarrow=False, xanchor="left", xshift=26,
                           font={"color": colors[p], "size": 11}, xref="x2", yref="y2", name="final")
    n = len(players)
    fig.update_yaxes(tickvals=list(range(1, n + 1)), ticktext=[_ordinal(i) for i in range(1, n + 1)],
                     range=[n + 0.4, 0.6], title_text="position", row=2, col=1)
    fig.update_xaxes(tickvals=rounds, range=[min(rounds, default=1) - 0.3, max(rounds, default=1) + 1.2],
                     title_text="round (labels: coin cards bid)",
                     row=2, col=1)
    fig.update_layout(height=max(700, 420 + 24 * len(ticks)))
    chains = len({(r["round"], r["chain"]) for r in rows if r["chain"]})
    won = sum(1 for r in rows if r["action"] == "won")
    unpaid = sum(1 for r in rows if r["lost_at"] is not None)
    style(fig, f"{line.ruleset.title}: auctions and turn order", fig.layout.xaxis.title.text, "card offered",
          subtitle=f"game {line.game.id}, branch {line.branch.name}: {len(rounds)} rounds, {won} cards won"
          + (f" ({unpaid} of them lost unpaid)" if unpaid else "") + f", {chains} displacement chains")
    return fig


_VARIANT = {"bid": "", "move": "-open", "won": ""}
_SIZE = {"bid": 13, "move": 13, "won": 18}
_EDGE = {"bid": (1, "white"), "move": (2, None), "won": (2, "#222222")}
"""Each action in the player's own marker shape: a bid filled, a displaced bid moved hollow (outlined in the
player's colour), a card won large and ringed in black."""


def _say(r: dict[str, Any]) -> str:
    what = "conquers" if r["conquest"] else "buys"
    match r["action"]:
        case "bid":
            out = f" outbidding {r['outbid']} ({r['outbid_coin_cards']})" if r["outbid"] else ""
            return f"#{r['index']}: {r['player']} bids {r['coin_cards']} on {r['card_name']}{out}"
        case "move":
            out = f", displacing {r['outbid']} ({r['outbid_coin_cards']})" if r["outbid"] else ""
            return f"#{r['index']}: {r['player']} moves the displaced bid of {r['coin_cards']} to {r['card_name']}{out}"
        case "withdraw":
            return f"#{r['index']}: {r['player']} takes back the displaced bid of {r['coin_cards']}"
        case "won":
            won = f"#{r['index']}: {r['player']} {what} {r['card_name']} for {r['coin_cards']} coin cards"
            if r.get("lost_at") is not None:
                won += f"; #{r['lost_at']}: cannot pay for it and loses it"
            return won
    return f"#{r['index']}: {r['player']} passes"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


FIGURES = {"auction": auction_figure}
ROWS = {"auction": lambda line: {"auctions": auction_rows(line), "turn_order": turn_order_rows(line)}}

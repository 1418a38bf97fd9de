"""Pergamemnon's pictures: every battle as its chain of strikes (from the ruleset's ``battles`` projection).

Each strike is one row of a tug-of-war chart: the striker's weapon value to the right, the struck card's defence
and any reinforcement to the left, so a strike that beats the defence is a longer bar on the right. Strikes of one
battle follow one another (a counter-strike comes right after the strike it answers) and the battle's result is
written after its last strike. Rows read ``battles`` rows: battle, attacker, defender, strike, striker, struck,
card, weapon, value, defence_card, defence_kind, defence, reinforcement, reinforcement_defence, total, result,
battle_result.
"""

from __future__ import annotations

from typing import Any

from agon.analysis.figures import style
from agon.analysis.palette import player_marks

SIDE = "nation"
SCORE = "points held"


def sides(line: Any) -> dict[str, str]:
    """Each player's nation (chosen at setup, kept all game)."""
    state = line.state
    nations = state.table.nations
    return {p.name: nations[p.nation].name if p.nation in nations else p.nation for p in state.players if p.nation}


def battle_rows(line: Any) -> list[dict[str, Any]]:
    """The ruleset's battle rows, each strike numbered by the event that resolved it, as the log tells it: the
    projection numbers every strike of a battle by the event that ended the battle (the Sphinx's strike, told at #95
    'repelled with the reinforcement', was hovered and given as #97, the Spearman's that ended it)."""
    steps = list(line.steps())
    told: dict[tuple[int, int], int] = {}  # (battle, strike) -> the first event after which it has a result
    for st in steps:
        b = getattr(st.after, "battle", None)
        for k, strike in enumerate(b.strikes if b is not None else (), start=1):
            if strike.result:
                told.setdefault((b.number, k), st.index)
    return [{**r, "index": told.get((r["battle"], r["strike"]), r["index"])}
            for r in line.ruleset.projections["battles"](steps)]


def battle_result(row: dict[str, Any]) -> str:
    """The battle's result in words, from one of its rows."""
    r = row["battle_result"]
    if r == "attacker":
        return f"{row['attacker']} (attacking) wins"
    if r == "defender":
        return f"{row['defender']} (defending) wins"
    if r == "tie":
        return "a tie"
    return str(r)


def strike_label(row: dict[str, Any]) -> str:
    return f"battle {row['battle']} · {row['strike']}. {row['striker']} → {row['struck']}"


def battles_figure(line: Any) -> Any:
    import plotly.graph_objects as go

    rows = battle_rows(line)
    players = list(line.created.names)
    marks = player_marks(players)
    colors = {p: m.color for p, m in marks.items()}
    labels = [strike_label(r) for r in rows]
    fig = go.Figure()
    for p in players:
        mine = [(lab, r) for lab, r in zip(labels, rows) if r["striker"] == p]
        if mine:
            fig.add_trace(go.Bar(
                y=[lab for lab, _ in mine], x=[r["value"] for _, r in mine], orientation="h",
                name=f"{p} strikes", legendgroup=p, marker={"color": colors[p]},
                text=[f"{r['card']}: {r['weapon']} {r['value']}" for _, r in mine], textposition="inside",
                insidetextanchor="start",
                hovertext=[f"#{r['index']}: {r['striker']}'s {r['card']} strikes with {r['weapon']} {r['value']}"
                           for _, r in mine], hoverinfo="text",
            ))
        struck = [(lab, r) for lab, r in zip(labels, rows) if r["struck"] == p]
        if struck:
            fig.add_trace(go.Bar(
                y=[lab for lab, _ in struck], x=[-r["defence"] for _, r in struck], orientation="h",
                name=f"{p} defends", legendgroup=p, marker={"color": colors[p], "opacity": 0.55},
                text=[f"{r['defence_card']}: {r['defence_kind']} {r['defence']}" for _, r in struck],
                textposition="inside", insidetextanchor="end", textfont={"size": 10},
                hovertext=[f"#{r['index']}: {r['struck']}'s {r['defence_card']} defends with {r['defence_kind']}"
                           f" {r['defence']}" for _, r in struck], hoverinfo="text",
            ))
        helped = [(lab, r) for lab, r in struck if r["reinforcement"]]
        if helped:
            fig.add_trace(go.Bar(
                y=[lab for lab, _ in helped], x=[-r["reinforcement_defence"] for _, r in helped], orientation="h",
                name=f"{p} reinforces", legendgroup=p,
                marker={"color": colors[p], "opacity": 0.35, "pattern": {"shape": "/"}},
                text=[f"+{r['reinforcement']} {r['reinforcement_defence']}" for _, r in helped],
                textposition="inside", insidetextanchor="end", textfont={"size": 10},
                hovertext=[f"#{r['index']}: {r['struck']} reinforces with {r['reinforcement']}"
                           f" (+{r['reinforcement_defence']}): {r['total']} in all" for _, r in helped],
                hoverinfo="text",
            ))
        # the player's marker at the outer end of each of their bars (the strike's, or the defence's with any
        # reinforcement): the player's shape, as in every plot of the game, and the legend entry that names it
        ends = [(lab, r["value"]) for lab, r in mine] + [(lab, -r["total"]) for lab, r in struck]
        if ends:
            fig.add_trace(go.Scatter(
                y=[lab for lab, _ in ends], x=[x for _, x in ends], mode="markers", name=p, legendgroup=p,
                marker=marks[p].marker(10), hoverinfo="skip", cliponaxis=False,
            ))
    right = max([r["value"] for r in rows] + [1])
    for lab, r in zip(labels, rows):
        fig.add_annotation(x=right + 0.3, y=lab, text=r["result"], showarrow=False, xanchor="left",
                           font={"size": 11, "color": "#444"}, name="strike result")
    for i, r in enumerate(rows):
        if i + 1 == len(rows) or rows[i + 1]["battle"] != r["battle"]:
            fig.add_annotation(x=right + 3.2, y=labels[i], text=f"<b>{battle_result(r)}</b>", showarrow=False,
                               xanchor="left", font={"size": 11}, name="battle result")
    fig.update_layout(barmode="relative", bargap=0.25, height=max(420, 150 + 26 * len(rows)),
                      yaxis={"autorange": "reversed", "type": "category", "categoryorder": "array",
                             "categoryarray": labels},
                      uniformtext={"minsize": 9, "mode": "hide"},
                      xaxis={"range": [-(max([r["total"] for r in rows] + [1]) + 1), right + 9],
                             "zeroline": True, "zerolinecolor": "#333"})
    fig.add_vline(x=0, line={"color": "#333", "width": 1})
    n = len({r["battle"] for r in rows})
    style(fig, f"{line.ruleset.title}: battle chains", "← defence (and reinforcement)   ·   strike value →",
          "battle and strike", subtitle=f"game {line.game.id}, branch {line.branch.name}: {n} battles,"
          f" {len(rows)} strikes")
    # who struck whom is written in each row's name, the striker's bar right of the axis and the struck card's left
    # of it, each bar ending in its player's marker: a player is never told by the bar's colour alone
    fig.update_layout(legend_title_text="player (rows: striker → struck)")
    return fig


FIGURES = {"battles": battles_figure}
ROWS = {"battles": battle_rows}

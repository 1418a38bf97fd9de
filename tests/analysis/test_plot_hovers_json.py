"""A plot's hovers and its `--json` rows tell the same events alike: each hover starts with its event's number, and
the round, phase and players it names are those its row gives, on the seed-3 demo of each ruleset."""

from __future__ import annotations

import json
import re

from agon.analysis.timeline import round_of


def _line(agon, ruleset: str):
    """The seed-3 demo of ``ruleset``: its id and its main line, loaded from the store the commands wrote to."""
    from agon.cli.common import service, set_db

    gid = json.loads(agon("demo", ruleset, "--seed", "3", "--json").stdout)["id"]
    set_db(None)
    return gid, service().load(gid)


def _hovers(fig, suffix: str) -> list[str]:
    return [h for t in fig.data if t.name.endswith(suffix) for h in t.hovertext]


def test_voyage_rows_name_rounds_as_the_score_timeline_does_and_give_the_hovers_round_and_phase(agon):
    """`agon plot voyage --json` gave the state after each event under ``round``, where its hover names the round the
    event happened in (row n 4, the setup's last deal: round 1, actions; hover '#4 (setup, deal)'); a later change
    moved the event's own round to ``round`` and the state's after it to ``round_after``, where `plot scores --json`
    keeps ``round`` for the round after the event and ``in_round`` for its own. The voyage rows now name them as the
    timeline does: ``round`` and ``phase`` after the event, ``in_round`` and ``in_phase`` the event's, as its hover."""
    from agon.analysis.games.adamastor import voyage_figure

    gid, line = _line(agon, "adamastor")
    rows = {r["n"]: r for r in json.loads(agon("plot", "voyage", gid, "--json").stdout)}
    (scores,) = json.loads(agon("plot", "scores", gid, "--json").stdout)
    log = {e["n"]: e for e in json.loads(agon("log", gid, "--json").stdout)}
    assert log[4]["type"] == "adamastor.player_cards_dealt"
    assert {k: rows[4][k] for k in ("round", "phase", "in_round", "in_phase")} == {
        "round": 1, "phase": "actions", "in_round": 0, "in_phase": "deal"}
    assert not {"round_after", "phase_after"} & set(rows[4])
    for t in scores["timeline"]:  # the two plots' rows name the same rounds alike
        assert (rows[t["n"]]["round"], rows[t["n"]]["in_round"]) == (t["round"], t["in_round"]), t["n"]
    hovers = _hovers(voyage_figure(line), "morale")
    assert len(hovers) >= 80
    said = re.compile(r"#(\d+) \(([^,]+), ([a-z_]+)\): morale (\d+), ([\d.]+) to sail")
    for h in hovers:
        n, rnd, phase, morale, distance = said.match(h).groups()
        r = rows[int(n)]
        assert (rnd, phase) == (round_of(r, "round"), r["in_phase"]), (h, r)
        assert (int(morale), float(distance)) == (r["morale"], r["distance"]), (h, r)  # the figures after it
    ends = [n for n, r in rows.items() if r["round"] != r["in_round"] and r["in_round"] >= 1]
    assert ends and all(rows[n + 1]["in_round"] == rows[n]["round"] for n in ends if n + 1 in rows)


def test_pergamemnon_defence_and_reinforcement_hovers_start_with_their_strikes_number(agon):
    """A strike's hover began '#11: Ana's Chariot strikes', but the defence and reinforcement on the same row named no
    event: each now starts with the strike's n and names the struck player its row gives."""
    from agon.analysis.games.pergamemnon import battles_figure

    gid, line = _line(agon, "pergamemnon")
    rows = json.loads(agon("plot", "battles", gid, "--json").stdout)
    fig = battles_figure(line)
    said = re.compile(r"#(\d+): (\w+)(?:'s| reinforces)")
    defended = [said.match(h).groups() for h in _hovers(fig, " defends")]
    reinforced = [said.match(h).groups() for h in _hovers(fig, " reinforces")]
    assert sorted((int(n), p) for n, p in defended) == sorted((r["n"], r["struck"]) for r in rows)
    assert sorted((int(n), p) for n, p in reinforced) == sorted((r["n"], r["struck"]) for r in rows
                                                                if r["reinforcement"])
    struck = [said.match(h).groups() for h in _hovers(fig, " strikes")]
    assert sorted((int(n), p) for n, p in struck) == sorted((r["n"], r["striker"]) for r in rows)


def test_peloponnes_displaced_bid_and_turn_order_hovers_name_their_event_and_round(agon):
    """'Bruno's bid of 3 on Lion Gate is displaced by Chloe' and 'round 1: Bruno acts 1st...' named no event, while
    their rows give n 7 and n 11: each now starts with it, the turn order's with its round as the score hovers do."""
    from agon.analysis.games.peloponnes import auction_figure

    gid, line = _line(agon, "peloponnes")
    data = json.loads(agon("plot", "auction", gid, "--json").stdout)
    fig = auction_figure(line)
    displaced = [re.match(r"#(\d+): (\w+)'s bid of \d+ on .* is displaced by (\w+)$", h).groups()
                 for h in _hovers(fig, " outbid")]
    assert displaced and sorted((int(n), p, by) for n, p, by in displaced) == sorted(
        (r["n"], r["outbid"], r["player"]) for r in data["auctions"] if r["outbid"])
    order = [re.match(r"#(\d+) \(round (\d+)\): (\w+) acts", h).groups() for h in _hovers(fig, " (turn order)")]
    assert len(order) >= 20 and sorted((int(n), int(rnd), p) for n, rnd, p in order) == sorted(
        (r["n"], r["round"], r["player"]) for r in data["turn_order"])
    timeline = {r["n"]: r for r in json.loads(agon("plot", "scores", gid, "--json").stdout)[0]["timeline"]}
    assert all(timeline[r["n"]]["in_round"] == r["round"] for r in data["turn_order"] + data["auctions"])


def test_perikles_battle_rows_name_the_players_on_each_side_as_the_hovers_do(agon):
    """The battles plot names each battle's players ('t1 Attica hoplite 1: Ana vs Bruno', 'Bruno (defender) lost
    Thebes hoplite 3'), but `--json`'s rows named none, only 'attacker' and 'defender': each row now gives attackers
    and defenders, and every battle's result hover and every roll's agree with its row's n, turn and players."""
    from agon.analysis.games.perikles import ROLL_MARKS, battles_figure

    gid, line = _line(agon, "perikles")
    rows = json.loads(agon("plot", "battles", gid, "--json").stdout)["battles"]
    assert rows[0]["attackers"] == ["Ana"] and rows[0]["defenders"] == ["Bruno"]

    def told(r) -> str:
        return (f"t{r['turn']} {r['location']} {r['kind']} {r['battle']}:"
                f" {' and '.join(r['attackers']) or 'no attacker'} vs {' and '.join(r['defenders']) or 'the location'}")

    fig = battles_figure(line)
    results = [a.hovertext for a in fig.layout.annotations if a.name == "battle result"]
    assert len(results) == len(rows) >= 10
    for h, r in zip(results, rows):
        assert h.startswith(f"#{r['n']}: {told(r)}: "), (h, r)
        loser = "defender" if r["winner"] == "attacker" else "attacker"
        if r["lost"]:
            assert f"{' and '.join(r[loser + 's']) or 'the location'} ({loser}) lost " in h
    rolls = sorted(h.split(", roll ")[0] for t in fig.data if t.name in ROLL_MARKS for h in t.hovertext)
    assert rolls == sorted(f"#{roll['n']}: {told(r)}" for r in rows for roll in r["rolls"])


def test_perikles_battle_rows_name_the_counter_lost_as_the_hovers_do(agon):
    """`agon plot battles --json` on the seed-3 Perikles demo gave the counter lost by its id alone ('lost':
    'thebes-h3-1') where the battle's hover names it ('Bruno (defender) lost Thebes hoplite 3'): each row now gives its
    name beside the id, as the hover says it, and the id stays."""
    from agon.analysis.games.perikles import battles_figure

    gid, line = _line(agon, "perikles")
    rows = json.loads(agon("plot", "battles", gid, "--json").stdout)["battles"]
    assert (rows[0]["lost"], rows[0]["lost_name"]) == ("thebes-h3-1", "Thebes hoplite 3")
    results = [a.hovertext for a in battles_figure(line).layout.annotations if a.name == "battle result"]
    assert len(results) == len(rows) and sum(bool(r["lost"]) for r in rows) >= 5
    for h, r in zip(results, rows):
        if r["lost"]:
            assert f") lost {r['lost_name']}" in h and r["lost"] not in h, (h, r)
        else:
            assert r["lost_name"] is None and " lost " not in h, (h, r)

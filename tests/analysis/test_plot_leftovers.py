"""What `agon plot` tells: the round an event's hover names, the event numbers in every plot's --json under one key,
and a branch given twice to `plot scores` refused as `agon compare` refuses it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from agon.analysis.figures import scores_figure
from agon.core.transfer import import_data

REPLAYS = Path(__file__).resolve().parents[2] / "replays"


def _hovers(fig) -> dict[int, str]:
    """Each event's hover on the score timeline's first line, by event number."""
    trace = fig.data[0]
    return dict(zip(trace.x, trace.hovertext))


def test_a_score_hover_names_the_round_the_event_belongs_to_and_the_setup_as_setup(sqlite_svc):
    """Peloponnes' timeline starts at the setup's last deal (#4), whose hover read '(round 1)'; the income that ends
    round 1 (#13, 'round 2 begins') read '(round 2)'. The move list of the study page heads both as they belong."""
    gid = import_data(sqlite_svc, (REPLAYS / "peloponnes-3p.jsonl").read_bytes()).game_id
    hovers = _hovers(scores_figure([sqlite_svc.load(gid)]))
    assert hovers[4].startswith("#4 (setup): Bruno draws 5 coin cards (setup).")
    assert hovers[5].startswith("#5 (round 1): Round 1:")
    assert hovers[13].startswith("#13 (round 1): Ana draws 5 coin cards (income); round 2 begins.")
    assert hovers[14].startswith("#14 (round 2): Round 2:")


def test_an_adamastor_hover_names_the_setup_and_the_sunset_that_ends_a_round(sqlite_svc):
    gid = import_data(sqlite_svc, (REPLAYS / "adamastor-solo-regular.jsonl").read_bytes()).game_id
    hovers = _hovers(scores_figure([sqlite_svc.load(gid)]))
    first = min(hovers)
    assert hovers[first].startswith(f"#{first} (setup): ")
    assert hovers[16].startswith("#16 (round 1): Ana ends the sail at 4b;") and "sunset" in hovers[16]


def test_a_perikles_hover_counts_turns(sqlite_svc):
    gid = import_data(sqlite_svc, (REPLAYS / "perikles-4p.jsonl").read_bytes()).game_id
    hovers = _hovers(scores_figure([sqlite_svc.load(gid)]))
    assert hovers[100].startswith("#100 (turn 1): Hoplite battle at Solygeia")


def _numbers(rows) -> set[str]:
    """The keys that number events anywhere in ``rows`` ('n' or 'index')."""
    found: set[str] = set()
    if isinstance(rows, list):
        for r in rows:
            found |= _numbers(r)
    elif isinstance(rows, dict):
        found |= {k for k in rows if k in ("n", "index")}
        for v in rows.values():
            found |= _numbers(v)
    return found


def test_every_plot_gives_its_event_numbers_as_n_in_json(agon):
    """`plot voyage --json` numbered its rows 'index' where `plot scores --json` gives 'n' (as `agon log`, `analyse`
    and `compare` do): every plot's rows now say 'n', and the number is the event's."""
    for replay, kind in (("adamastor-solo-regular", "voyage"), ("peloponnes-3p", "auction"),
                         ("pergamemnon-3p", "battles"), ("perikles-4p", "battles")):
        gid = agon("import", str(REPLAYS / f"{replay}.jsonl")).stdout.split()[0]
        rows = json.loads(agon("plot", kind, gid, "--json").stdout)
        assert _numbers(rows) == {"n"}, (kind, replay)
        scores = json.loads(agon("plot", "scores", gid, "--json").stdout)[0]
        assert _numbers(scores["timeline"]) == {"n"}
        if kind == "voyage":
            log = {e["n"]: e for e in json.loads(agon("log", gid, "--json").stdout)}
            assert all(log[r["n"]]["type"] == r["event"] for r in rows)


def test_plot_scores_refuses_a_branch_given_twice_as_compare_does(agon):
    """`plot scores -b main -b main` drew main once without a word, while `compare G main main` refuses it."""
    gid = agon("import", str(REPLAYS / "peloponnes-3p.jsonl")).stdout.split()[0]
    said = agon("plot", "scores", gid, "-b", "main", "-b", "main", ok=False)
    assert said.exit_code == 2
    assert said.stderr.strip().splitlines() == [
        f"error: give each branch to draw once, not main twice (`agon branches {gid}` lists them)"]
    assert not Path("plots").exists()
    compared = agon("compare", gid, "main", "main", ok=False)
    assert compared.exit_code == said.exit_code
    as_json = agon("plot", "scores", gid, "-b", "main", "-b", "main", "--json", ok=False)
    assert as_json.exit_code == 2 and json.loads(as_json.stderr)["error"].startswith("give each branch to draw once")


def test_each_pergamemnon_strike_is_numbered_by_the_event_that_tells_it(agon):
    """Every strike of a battle was numbered by the event that ended the battle: in `agon demo pergamemnon --seed 3`
    the Sphinx's bow 5, repelled at #95 by the Chariot's reinforcement, was hovered and given as #97. Each strike's
    number is now the event whose sentence in `agon log` tells it resolved, in the shipped replay and a fresh demo."""
    made = agon("import", str(REPLAYS / "pergamemnon-3p.jsonl")).stdout.split()[0]
    demo = json.loads(agon("demo", "pergamemnon", "--seed", "3", "--json").stdout)["id"]
    for gid in (made, demo):
        log = {e["n"]: e["text"] for e in json.loads(agon("log", gid, "--json").stdout)}
        rows = json.loads(agon("plot", "battles", gid, "--json").stdout)
        assert len(rows) >= 20
        for r in rows:
            told = f"{r['striker']}'s {r['card']} strikes with {r['weapon']} {r['value']}"
            assert told in log[r["n"]], (gid, r, log[r["n"]])
        if gid == demo:
            sphinx = next(r for r in rows if r["card"] == "Sphinx")
            assert (sphinx["n"], sphinx["weapon"], sphinx["value"]) == (95, "bow", 5)


def _round_in_hover(text: str) -> str:
    """'#16 (round 1): ...' -> 'round 1'; '#14 (round 1, trim): ...' -> 'round 1'."""
    return text.split("(", 1)[1].split(")", 1)[0].split(",")[0]


def test_each_round_line_stands_before_the_first_event_its_hover_names_of_that_round(agon):
    """`agon demo peloponnes --seed 3`: the line and label 'round 2' on `plot scores` stood before #16 (Bruno's
    income, 'round 2 begins'), whose hover says round 1, and `--json`'s `rounds` gave n 16; Adamastor's voyage plot
    did the same before the trim that ends a round, and its hovers named the round after each event ('#4 (round 1,
    actions)' for the setup's last deal). Each round's line now stands before its first event as the events number
    it, which is where the hovers change, and `rounds` gives that event."""
    from agon.analysis.games.adamastor import voyage_figure
    from agon.cli.common import service, set_db

    gid = json.loads(agon("demo", "peloponnes", "--seed", "3", "--json").stdout)["id"]
    (line,) = json.loads(agon("plot", "scores", gid, "--json").stdout)
    log = {e["n"]: e["text"] for e in json.loads(agon("log", gid, "--json").stdout)}
    assert log[16].endswith("; round 2 begins.") and log[17].startswith("Round 2: ")
    assert line["rounds"][:2] == [{"n": 5, "round": 1}, {"n": 17, "round": 2}]
    rows = {r["n"]: r for r in line["timeline"]}
    for b in line["rounds"]:
        assert rows[b["n"]]["in_round"] == b["round"] and rows[b["n"] - 1]["in_round"] == b["round"] - 1
    set_db(None)
    svc = service()  # the store the commands above wrote to
    voyage = json.loads(agon("demo", "adamastor", "--seed", "3", "--json").stdout)["id"]
    for rs, game in (("peloponnes", gid), ("adamastor", voyage)):
        ln = svc.load(game)
        fig = scores_figure([ln]) if rs == "peloponnes" else voyage_figure(ln)
        hovers = dict(zip(fig.data[0].x, fig.data[0].hovertext))
        first = min(hovers)
        assert _round_in_hover(hovers[first]) == "setup", (rs, hovers[first])
        lines = sorted({s.x0 for s in fig.layout.shapes if s.line.dash == "dot"})  # one a panel
        changes = [n - 0.5 for n in sorted(hovers) if n > first
                   and _round_in_hover(hovers[n]) != _round_in_hover(hovers[n - 1])]
        assert lines == changes and len(lines) >= 5, rs
        labels = [a.text for a in fig.layout.annotations if a.name == "round"]
        assert labels[0] == "round 1" and "round 0" not in labels and "setup" not in labels



def test_each_perikles_battle_is_numbered_by_the_event_that_settles_it_and_each_roll_by_its_own(agon):
    """`agon plot battles` on `agon demo perikles --seed 3`: a battle row's `n` is the event whose sentence in `agon
    log` says who wins it (Epidaurus' trireme battle, won without dice, is settled at #64 with Attica's last roll);
    each roll now carries its own event's `n` (the rolls of Epidaurus' hoplite battle are #67 to #70), and every
    hover of the figure starts with the event's number, as the other plots' do: the figure named no event."""
    from agon.analysis.games.perikles import battles_figure
    from agon.cli.common import service, set_db

    gid = json.loads(agon("demo", "perikles", "--seed", "3", "--json").stdout)["id"]
    log = {e["n"]: e["text"] for e in json.loads(agon("log", gid, "--json").stdout)}
    rows = json.loads(agon("plot", "battles", gid, "--json").stdout)["battles"]
    assert len(rows) >= 10 and any(r["automatic"] for r in rows)
    for r in rows:
        assert f"win the {r['kind']} battle at {r['location']}" in log[r["n"]], (r["n"], log[r["n"]])
        for roll in r["rolls"]:
            a, d = roll["attacker"], roll["defender"]
            told = log[roll["n"]]
            assert told.startswith(f"{r['kind'].capitalize()} battle at {r['location']} "), (roll["n"], told)
            assert f"attacker rolls {a[0]}+{a[1]}=" in told and f"defender rolls {d[0]}+{d[1]}=" in told
        if r["rolls"]:
            assert r["rolls"][-1]["n"] == r["n"]  # a battle fought with dice is settled by its last roll
    epidaurus = [r for r in rows if r["location"] == "Epidaurus"]
    assert [(r["kind"], r["n"], r["automatic"]) for r in epidaurus] == [("trireme", 64, True), ("hoplite", 70, False)]
    assert [roll["n"] for roll in epidaurus[1]["rolls"]] == [67, 68, 69, 70]
    set_db(None)
    fig = battles_figure(service().load(gid))
    hovers = [h for t in fig.data if t.hovertext and t.yaxis == "y" for h in t.hovertext]
    assert hovers and all(re.match(r"#\d+: t\d ", h) for h in hovers), hovers[:3]
    assert "#64: t1 Epidaurus trireme 1: " in " ".join(hovers)
    results = [a.hovertext for a in fig.layout.annotations if a.name == "battle result"]
    assert results[0].startswith("#64: t1 Attica hoplite 1: ") and len(results) == len(rows)

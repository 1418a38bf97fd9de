"""What an analyst or a teacher reads in the plots of real games: each figure says what happened as the log does."""

from __future__ import annotations

import json

import pytest

from agon.analysis.games import figures_for
from agon.core.service import NewGame


def demo_line(svc, ruleset: str, seed: int = 3, players: int = 3):
    names = ("Ana", "Bruno", "Chloe")[:players]
    gid = svc.new_game(NewGame(ruleset=ruleset, bots=[(n, "greedy") for n in names], seed=seed))
    return svc.load(gid)


def test_a_perikles_battle_result_names_who_lost_the_counter_not_the_winner(sqlite_svc):
    """The log says 'the defenders lose Thebes hoplite 3'; the plot read 'Ana (attacker) wins; lost Thebes hoplite 3',
    as if Ana had lost it. The counter is named with the side that lost it, whose player sent it."""
    line = demo_line(sqlite_svc, "perikles")
    rows = line.ruleset.projections["battles"](line.steps())
    fig = figures_for("perikles")["battles"](line)
    results = [a.text for a in fig.layout.annotations if a.name == "battle result"]
    steps = line.steps()
    checked = 0
    for r, text in zip(rows, results):
        if not r["lost"]:
            assert " lost " not in text
            continue
        before = steps[r["index"]].before
        sender = next(before.players[cm.player] for cm in before.commits if cm.counter == r["lost"])
        loser = "defender" if r["winner"] == "attacker" else "attacker"
        won, lost = text.split("; ")
        assert won.endswith(f"({r['winner']}) wins")
        assert lost.startswith(f"{sender}") and f"({loser}) lost " in lost, text
        checked += 1
    assert checked >= 3
    assert fig.layout.yaxis.title.text == "battle: attacker vs defender"  # how each row's 'Ana vs Bruno' reads


def test_a_what_if_that_parts_in_the_setup_is_marked_where_the_plot_can_show_it(sqlite_svc):
    """A Pergamemnon line reseeded after #2 (the first hands drawn anew) parts before play starts (#5), where the
    timeline begins: its mark stood at #2, off the axis, and plotly hid it, so nothing said where it parted."""
    from agon.analysis.figures import scores_figure

    main = demo_line(sqlite_svc, "pergamemnon")
    gid = main.game.id
    sqlite_svc.branch(gid, "early", at=2, reseed=True)
    sqlite_svc.act(gid, "bot", branch="early")  # the hands drawn anew with the branch; the bots play on
    early = sqlite_svc.load(gid, "early")
    fig = scores_figure([sqlite_svc.load(gid, "main"), early])
    lo, hi = fig.layout.xaxis.range
    forks = [a for a in fig.layout.annotations if a.name == "fork"]
    assert [a.text for a in forks] == ["early parts after #2, in the setup"]
    assert lo <= forks[0].x <= hi
    assert all(lo <= s.x0 <= hi for s in fig.layout.shapes if s.line.color == "#555")
    assert [t.name for t in fig.data if t.name.endswith("(early)")]  # the line itself is drawn from the start


def test_a_what_if_that_parts_in_play_is_marked_at_its_fork(sqlite_svc):
    from agon.analysis.figures import scores_figure

    main = demo_line(sqlite_svc, "pergamemnon")
    gid = main.game.id
    sqlite_svc.branch(gid, "later", at=40, reseed=True)
    sqlite_svc.act(gid, "bot", branch="later")
    fig = scores_figure([sqlite_svc.load(gid, "main"), sqlite_svc.load(gid, "later")])
    (fork,) = [a for a in fig.layout.annotations if a.name == "fork"]
    assert fork.x >= 40 and fork.text == f"later parts after #{fork.x}"


@pytest.mark.parametrize(("ruleset", "kind", "words"), [("pergamemnon", "battles", "no battle has been fought"),
                                                        ("perikles", "battles", "no battle has been fought"),
                                                        ("peloponnes", "auction", "no auction has been held")])
def test_a_plot_of_a_game_with_no_moves_says_why_it_is_empty(agon, tmp_path, ruleset, kind, words):
    """A new game's battles or auction plot was an empty frame with axes, which reads as a broken plot: the page and
    the command say there is nothing to draw yet, and where the line stops."""
    gid = agon("new", ruleset, "--player", "Ana", "--player", "Bo", "--player", "Cy", "--seed", "1").stdout.split()[0]
    out = agon("plot", kind, gid).stdout
    said = [ln for ln in out.splitlines() if ln.startswith("Nothing to draw yet")]
    assert len(said) == 1 and f"{words} on branch main, which stops at #" in said[0]
    page = (tmp_path / f"plots/{gid}-main-{kind}.html").read_text()
    assert f"Nothing to draw yet: {words} on branch main" in page


def test_a_plot_with_something_to_draw_says_nothing_of_the_kind(agon, tmp_path):
    gid = agon("demo", "perikles", "--seed", "3", "--json").stdout
    gid = json.loads(gid)["id"]
    out = agon("plot", "battles", gid).stdout
    assert "Nothing to draw" not in out
    assert "Nothing to draw" not in (tmp_path / f"plots/{gid}-main-battles.html").read_text()


def test_analyse_json_gives_where_the_game_turned_as_the_text_tells_it(agon):
    """`agon analyse` ends its text with '--json gives every row', but the JSON left out 'Where the game turned',
    the rows a teacher quotes first: `turned` holds them, each event told as the text tells it."""
    from tests.analysis.test_teaching_words import _pig

    gid = _pig(agon)
    args = ("analyse", gid, "--rollouts", "50", "--workers", "1")
    text = agon(*args).stdout
    rows = json.loads(agon(*args, "--json").stdout)["turned"]
    told = text.split("Where the game turned")[1].split("\nDecisions")[0].strip().splitlines()[1:]
    assert rows and len(rows) == len(told)
    for r, line in zip(rows, told):
        assert line.strip().startswith(f"#{r['n']} {'luck: ' if r['luck'] else ''}{r['text']}")
        assert line.strip().endswith(f"{round(100 * r['before'])}% -> {round(100 * r['after'])}%")
        assert set(r) >= {"n", "text", "actor", "luck", "player", "before", "after", "delta"}


def test_a_peloponnes_card_won_but_not_paid_for_is_not_shown_as_held(sqlite_svc):
    """Bruno bid 9 on the Temple of Zeus, won the auction, then could not pay and lost it (the log: 'Bruno cannot
    pay for Temple of Zeus and loses it'); the plot showed it as any card won, its hover 'Bruno conquers Temple of
    Zeus for 9 coin cards'. A card so lost is labelled 'unpaid: lost', its hover says when, and the rows say so."""
    from agon.analysis.games import rows_for
    from agon.events.peloponnes import BuildingLost

    line = demo_line(sqlite_svc, "peloponnes")
    lost = [(st.index, st.event.player, st.event.card) for st in line.steps() if isinstance(st.event, BuildingLost)]
    assert lost  # this game has some
    rows = rows_for("peloponnes")["auction"](line)["auctions"]
    unpaid = {(r["lost_at"], r["player"], r["card"]) for r in rows if r["lost_at"] is not None}
    assert unpaid == set(lost)
    assert all(r["lost_at"] is None for r in rows if r["action"] != "won")
    fig = figures_for("peloponnes")["auction"](line)
    flagged = sorted((a for a in fig.layout.annotations if a.name == "unpaid"), key=lambda a: a.hovertext)
    assert len(flagged) == len(lost)
    for (n, player, _card), a in zip(sorted(lost), flagged):
        assert a.text == "unpaid: lost" and f"#{n}: cannot pay for it and loses it" in a.hovertext
        assert a.hovertext.split(": ")[1].startswith(player)
    hovers = [h for t in fig.data if t.hovertext is not None for h in t.hovertext]
    assert sum("cannot pay for it and loses it" in h for h in hovers) == len(lost)  # the won marker's own hover
    assert f"({len(lost)} of them lost unpaid)" in fig.layout.title.text


def test_a_line_of_one_event_is_plotted_on_an_axis_of_whole_events(sqlite_svc):
    """A branch made at #0 holds one position: its win-chance chart had the axis range [0, 0], which plotly widened
    to -1..1 with ticks at -0.5 and 0.5 (no such events), and its labels were placed for a frame of no width."""
    from agon.analysis.chances import figure
    from agon.analysis.figures import scores_figure
    from agon.core.analyse import Settings, analyse

    main = demo_line(sqlite_svc, "pergamemnon")
    sqlite_svc.branch(main.game.id, "one", at=0)
    sqlite_svc.undo(main.game.id, branch="one", to=0)  # the setup's chance drawn with the branch, taken back
    one = sqlite_svc.load(main.game.id, "one")
    for fig in (figure(analyse(sqlite_svc, one, Settings(rollouts=2, workers=1))), scores_figure([one])):
        lo, hi = fig.layout.xaxis.range
        assert lo == 0 and hi >= 1
        assert (fig.layout.xaxis.tick0, fig.layout.xaxis.dtick) == (0, 1)


def test_compare_of_a_crews_lines_gives_the_crews_chance_not_the_movers(agon):
    """Adamastor's crew wins or loses together and `agon analyse` says 'the crew 83%'; compare said 'Bruno 0% on
    main, 100% on better-3', as if the chance were Bruno's own."""
    gid = json.loads(agon("demo", "adamastor", "--players", "2", "--seed", "3", "--json").stdout)["id"]
    agon("branch", gid, "short", "--at", "3", "-b", "main")
    agon("analyse", gid, "-b", "short", "--rollouts", "2", "--workers", "1")
    agon("branch", gid, "other", "--at", "2", "-b", "main")
    made = json.loads(agon("log", gid, "-b", "main", "--json").stdout)
    made = next(e for e in (made["events"] if isinstance(made, dict) else made) if e["n"] == 3)
    options = json.loads(agon("options", gid, "--json").stdout)["options"]
    other = next(o for o in options if o["text"].rstrip(".") not in made["text"])
    agon("act", gid, str(other["n"]))
    out = agon("compare", gid, "short", "other").stdout
    said = next(ln for ln in out.splitlines() if ln.startswith("The chance the voyage succeeds right after #3"))
    assert said.split(": ")[-1].startswith("the crew ") and " on short, " in said and " on other." in said
    assert not any(f"{name} " in said.split("points): ")[1] for name in ("Ana", "Bruno")), said


def test_one_noisy_estimate_at_a_lines_end_makes_no_turning_point():
    """`agon analyse` of a new Pergamemnon game from 4 games a position (±49 points) named '#5 luck: Cy draws 3
    cards. Cy 33% -> 100%': the window after #5 is cut short by the line's end to one estimate, 4 games of 4, which
    its own share (100%) called nearly certain. Judged by the errors the estimates would have had the chance not
    moved, one estimate is none; the same rise held by three estimates still is one."""
    from types import SimpleNamespace

    from agon.analysis.chances import swings
    from tests.analysis.test_teaching_words import _positions

    lone = [0.25, 0.25, 0.5, 0.25, 0.25, 1.0]
    a = SimpleNamespace(players=("Ana", "Bruno"), positions=_positions(lone, {5: "chance"}, rollouts=4))
    assert swings(a) == []
    lasting = [0.25] * 3 + [1.0] * 3
    a.positions = _positions(lasting, {3: "chance"}, rollouts=4)
    assert [(r["n"], r["luck"]) for r in swings(a)] == [(3, True)]


def test_an_empty_plot_of_a_finished_game_does_not_say_yet():
    """A game over without a battle has none to come: 'Nothing to draw: no battle was fought ... which ended at'."""
    from types import SimpleNamespace

    import plotly.graph_objects as go

    from agon.analysis.figures import nothing_yet
    from agon.core.engine import Outcome, Over

    over = Over(Outcome(("Ana",), {"Ana": 1.0}, "Ana wins"))
    line = SimpleNamespace(branch=SimpleNamespace(name="main"), head=SimpleNamespace(depth=9), state=None,
                           status=lambda: "over: Ana wins", ruleset=SimpleNamespace(pending=lambda _s: over))
    fig = go.Figure()
    said = nothing_yet(fig, line, "battles")
    assert said == "Nothing to draw: no battle was fought on branch main, which ended at #9 (over: Ana wins)"
    assert [a.text for a in fig.layout.annotations] == [said]
    assert nothing_yet(go.Figure(go.Scatter(x=[1], y=[1])), line, "battles") is None

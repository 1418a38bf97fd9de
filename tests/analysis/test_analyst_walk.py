"""What an analyst or a teacher reads in the plots of real games: each figure says what happened as the log does."""

from __future__ import annotations

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

"""``agon plot``, ``compare``, ``view`` and ``stats`` driven as a person would, on the known pig game."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agon.core.service import Service
from agon.events.store import Store
from tests.analysis.conftest import record_known

ROOT = Path(__file__).resolve().parents[2]




@pytest.fixture
def game(agon, tmp_path) -> str:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        return record_known(Service(store))
    finally:
        store.close()


def test_plot_scores_writes_a_self_contained_page_under_plots_and_says_where(agon, game, tmp_path):
    out = agon("plot", "scores", game).stdout
    path = f"plots/{game}-main-scores.html"
    assert f"Wrote the score timeline to {path}" in out and "opens offline" in out
    page = (tmp_path / path).read_text()
    assert "Bruno takes the lead for good" in page and "Ana holds, banking 9." in page
    assert '<script src="http' not in page


def test_plot_scores_overlays_branches_and_names_the_file_after_them(agon, game, tmp_path):
    out = agon("plot", "scores", game, "-b", "main", "-b", "lucky").stdout
    assert f"plots/{game}-main-scores-vs-lucky.html" in out
    assert "lucky parts after #10" in (tmp_path / f"plots/{game}-main-scores-vs-lucky.html").read_text()


def test_plot_scores_help_tells_how_overlaid_lines_are_drawn_as_the_figure_draws_them(agon, game, tmp_path):
    # a what-if line is drawn thinner with hollow markers (each player keeps their own dash), never "dashed"
    page = (tmp_path / agon("plot", "scores", game, "-b", "main", "-b", "lucky").stdout.split(" to ")[1].split()[0])
    assert '"symbol":"circle-open"' in page.read_text().replace(" ", "")
    words = " ".join(agon("plot", "scores", "--help").stdout.replace("│", " ").split())
    assert "overlay what-if lines on the first: thinner, with hollow markers, from where they part" in words
    assert "dashed" not in words


def test_plot_scores_json_gives_the_timeline_and_turning_points(agon, game):
    data = json.loads(agon("plot", "scores", game, "-b", "main", "-b", "lucky", "--json").stdout)
    assert [d["branch"] for d in data] == ["main", "lucky"]
    main, lucky = data
    assert main["winners"] == ["Bruno"] and main["final_leader"] == "Bruno"
    assert main["rounds"] == [{"n": 10, "round": 2}]  # round 2's first event; no event is round 3's
    assert {"n": 14, "kind": "lead"}.items() <= next(p for p in main["turning_points"] if p["kind"] == "lead").items()
    assert len(main["timeline"]) == 15 and lucky["timeline"][-1]["scores"] == {"Ana": 11.0, "Bruno": 5.0}


def test_output_option_chooses_the_file(agon, game, tmp_path):
    out = agon("plot", "scores", game, "-o", "pictures/pig.html").stdout
    assert "pictures/pig.html" in out and (tmp_path / "pictures/pig.html").stat().st_size > 100_000


def test_png_without_kaleido_says_what_is_missing(agon, game, monkeypatch):
    monkeypatch.setitem(sys.modules, "kaleido", None)
    r = agon("plot", "scores", game, "--png", ok=False)
    assert r.exit_code == 1
    assert "cannot write a PNG on this machine: kaleido is not installed" in r.stderr


def test_png_needs_a_png_file_name(agon, game):
    r = agon("plot", "scores", game, "--png", "-o", "pig.html", ok=False)
    assert r.exit_code == 1 and "name the file pig.png" in r.stderr


def test_a_ruleset_plot_on_a_game_without_it_says_which_plots_there_are(agon, game):
    r = agon("plot", "battles", game, ok=False)
    assert r.exit_code == 1
    assert "a Pig (test game) game has no 'battles' plot" in r.stderr and "its plots: scores, chances" in r.stderr
    r = agon("plot", "auction", game, ok=False)
    assert "no 'auction' plot" in r.stderr


def test_the_plots_a_game_is_said_to_have_are_every_plot_command_that_draws_it(agon, game):
    from agon.cli.plot_cmds import plot_app

    said = agon("plot", "auction", game, ok=False).stderr
    listed = said.rsplit("its plots: ", 1)[1].strip().split(", ")
    assert "chances" in listed  # a plot command of another module (agon analyse's) is not left out
    for info in plot_app.registered_commands:
        name = info.name or info.callback.__name__
        if name == "stats":
            continue  # draws a ruleset's stored games, not a game
        drawn = agon("plot", name, game, "--json", *(("--rollouts", "4") if name == "chances" else ()), ok=False)
        assert (drawn.exit_code == 0) == (name in listed), (name, listed, drawn.stderr)


def test_json_with_a_file_to_write_is_refused_not_the_file_left_unwritten(agon, game, tmp_path):
    """--json prints a plot's data and writes no file: asked for a file as well (-o, --png), every plot command said
    nothing and wrote none (exit status 0); it refuses the two together in one line, a usage error."""
    from agon.cli.plot_cmds import plot_app

    for info in plot_app.registered_commands:
        name = info.name or info.callback.__name__
        subject = "toy" if name == "stats" else game
        r = agon("plot", name, subject, "--json", "-o", f"{name}.html", ok=False)
        assert r.exit_code == 2 and r.stdout == "", (name, r.stdout)
        assert r.stderr == ('{"error": "--json prints the plot\'s data and writes no file; give --json or -o, not'
                            ' both"}\n'), (name, r.stderr)
        assert not (tmp_path / f"{name}.html").exists()
    r = agon("plot", "scores", game, "--json", "--png", ok=False)
    assert r.exit_code == 2 and "give --json or --png, not both" in r.stderr
    assert not (tmp_path / "plots").exists()


def test_unknown_game_or_branch_is_one_line_not_a_traceback(agon, game):
    r = agon("plot", "scores", "nosuchgame", ok=False)
    assert r.exit_code == 1 and "Traceback" not in r.output + r.stderr and r.stderr.startswith("error:")
    r = agon("plot", "scores", game, "-b", "nosuchbranch", ok=False)
    assert r.exit_code == 1 and "nosuchbranch" in r.stderr


def test_compare_prints_where_lines_part_and_how_scores_differ(agon, game):
    out = agon("compare", game, "main", "lucky").stdout
    assert "main and lucky share events 0 to #10 (last shared: Ana rolls.)" in out
    flat = " ".join(w for w in out.split() if w != "│")
    assert "Ana rolls a 1 and" in flat and "Ana rolls a 2." in flat and "differs" in flat
    assert "Told in full: every hidden draw is named (`--as PLAYER` tells it as one player may read it)." in flat
    assert "main: 15 events (to #14), Bruno won with 11 points" in out
    assert "lucky: 13 events (to #12), Ana won with 11 points" in out
    assert "The outcome differs." in out
    ana = next(line for line in out.splitlines() if line.strip().startswith("Ana "))
    assert [c for c in ana.split() if c != "│"] == ["Ana", "9", "9", "11", "+2"]
    data = json.loads(agon("compare", game, "main", "lucky", "--json").stdout)
    assert data["fork"] == 10 and data["outcome_changed"] is True


def _table_rows(out: str) -> dict[str, list[str]]:
    """The rows of the table rich printed (cells wrapped over several lines joined back), by their first cell."""
    rows: dict[str, list[list[str]]] = {}
    cur = None
    for line in out.splitlines():
        if "│" not in line:
            cur = None
            continue
        cells = [c.strip() for c in line.split("│")]
        if cells[0]:
            cur = rows.setdefault(cells[0], [[] for _ in cells])
        if cur is not None:
            for k, c in enumerate(cells):
                if c:
                    cur[k].append(c)
    return {n: [" ".join(c) for c in cells] for n, cells in rows.items()}


def test_compare_marks_an_equal_event_that_reads_differently_instead_of_calling_it_the_same(agon, game):
    # what if the seats had been drawn the other way round: the first roll and its 6 are the same events, but
    # Bruno's here; "same" beside two different sentences told the analyst they were alike
    agon("branch", game, "swapped", "--at", "0")
    for entry in ("Bruno Ana", "1", "6"):
        agon("act", game, entry)
    out = agon("compare", game, "main", "swapped").stdout
    assert "The first 3 events after the fork" in out
    rows = _table_rows(out)
    assert rows["1"][2] == "Seats are drawn: Bruno, Ana." and rows["1"][3] == "differs"
    assert rows["2"][1:] == ["Ana rolls.", "Bruno rolls.", "same event, from another position"]
    assert rows["3"][1:] == ["Ana rolls a 6.", "Bruno rolls a 6.", "same event, from another position"]
    data = json.loads(agon("compare", game, "main", "swapped", "--json").stdout)
    assert [(r["n"], r["same"], r["reads_differently"]) for r in data["after_fork"]] == [
        (1, False, False), (2, True, True), (3, True, True)]


def test_compare_needs_two_branches_and_says_when_they_are_one_line(agon, game):
    r = agon("compare", game, "main", "main", ok=False)
    assert r.exit_code == 2 and "two different branches" in r.stderr
    agon("branch", game, "copy")
    out = agon("compare", game, "main", "copy").stdout
    assert "The two lines are the same line: both end at #14." in out and "The outcome is the same." in out


def test_view_writes_the_replay_page(agon, game, tmp_path):
    out = agon("view", game).stdout
    assert f"plots/{game}-main-view.html" in out and "15 events" in out
    page = (tmp_path / f"plots/{game}-main-view.html").read_text()
    assert "Bruno holds, banking 6." in page and 'id="as"' in page
    out = agon("view", game, "--as", "Ana", "-b", "lucky").stdout
    assert f"plots/{game}-lines=lucky-view-as-Ana.html" in out and "as Ana sees it" in out
    r = agon("view", game, "--as", "Zoe", ok=False)
    assert r.exit_code == 1 and "no player 'Zoe' in this game; its players: Ana, Bruno" in r.stderr


def test_the_pages_made_for_two_players_never_share_a_file(agon, tmp_path):
    # names with no letter a file name keeps, and names alike but for case (one file on macOS or Windows): each
    # player's page, to hand to that player, is a file of its own
    import re

    for names in (("🎲", "👑"), ("Жора", "Йосип"), ("Ana", "ana")):
        gid = agon("new", "toy", "-p", names[0], "-p", names[1], "--seed", "2").stdout.split()[0]
        written = []
        for name in names:
            out = agon("view", gid, "--as", name).stdout
            written.append(re.search(r"to (plots/\S+\.html)", out)[1])
            assert f'"perspectives":["{name}"]' in (tmp_path / written[-1]).read_text(encoding="utf-8").replace(" ", "")
        assert written[0].lower() != written[1].lower(), written
        assert all((tmp_path / w).exists() for w in written)
    assert agon("view", gid, "--as", "Ana", "-b", "main").stdout.count("view-as-Ana-") == 1


def test_stats_reads_every_game_of_a_ruleset(agon, game, tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        record_known(Service(store))
    finally:
        store.close()
    out = agon("stats", "toy").stdout
    assert "Pig (test game): 2 games stored, 2 finished" in out
    assert "Average length: 15.0 events, 3.0 rounds" in out
    assert "By seat" in out
    data = json.loads(agon("stats", "toy", "--json").stdout)
    assert data["by_seat"][1] == {"seat": 2, "played": 2, "wins": 2, "win_rate": 1.0, "avg_score": 11.0,
                                  "ci_low": pytest.approx(0.3424, abs=1e-4), "ci_high": 1.0}
    r = agon("stats", "chess", ok=False)
    assert r.exit_code == 1 and "unknown ruleset 'chess'" in r.stderr


def test_stats_without_games_says_how_to_record_some(agon):
    agon("new", "adamastor", "--player", "ana")  # a store, without a toy game
    r = agon("stats", "toy", ok=False)
    assert r.exit_code == 1 and "no stored toy games" in r.stderr


def test_starting_the_cli_does_not_import_plotly_or_analysis():
    code = "import sys, cli.app; print(sorted(m for m in sys.modules if m.split('.')[0] in ('plotly', 'analysis')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_stats_report_the_win_rate_per_setup_such_as_adamastor_difficulty(agon, tmp_path):
    from agon.core.service import NewGame

    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    won = {"easy": 0, "hard": 0}
    try:
        svc = Service(store)
        for difficulty, seeds in (("easy", (1, 2, 3)), ("hard", (4, 5))):
            for seed in seeds:
                gid = svc.new_game(NewGame("adamastor", bots=[("Ana", "greedy")], seed=seed,
                                           options={"difficulty": difficulty}))
                won[difficulty] += "reaches the final destination" in svc.load(gid).status()
    finally:
        store.close()
    rows = {r["setup"]: r for r in json.loads(agon("stats", "adamastor", "--json").stdout)["by_setup"]}
    assert rows["difficulty=easy, 1 player"]["played"] == 3
    assert rows["difficulty=easy, 1 player"]["wins"] == won["easy"]
    assert rows["difficulty=hard, 1 player"]["played"] == 2
    assert rows["difficulty=hard, 1 player"]["wins"] == won["hard"]
    assert "By setup" in agon("stats", "adamastor").stdout


def test_compare_of_lines_still_being_played_claims_no_outcome(agon, game):
    agon("branch", game, "early", "--at", "5")
    agon("branch", game, "earlier", "--at", "3", "-b", "main")
    out = agon("compare", game, "early", "earlier").stdout
    assert "Neither line is over yet, so there is no outcome to compare." in out
    assert "The outcome is the same." not in out
    out = agon("compare", game, "main", "early").stdout
    assert "Only one line is over: early is still being played" in out and "The outcome" not in out


def test_the_plot_groups_help_says_what_its_commands_offer_read_from_them(agon):
    """`agon plot`'s help named its plots in fixed words (and not the JSON every one gives): it is read from the
    commands, so a plot added, or a form one gives, is told where the group is."""
    from agon.cli.plot_cmds import plot_app

    said = " ".join(agon("plot", "--help").stdout.split())
    assert ("Draw a recorded game: scores, battles (Pergamemnon, Perikles), auction (Peloponnes Card Game), voyage"
            " (Adamastor), chances; or a ruleset's stored games: stats. Each as an HTML page, a PNG image (--png) or"
            " its figures as JSON (--json).") in said
    listed = " ".join(agon("--help").stdout.split())
    assert "plot Draw a recorded game: scores, battles (Pergamemnon, Perikles)," in listed

    @plot_app.command("tempo")
    def tempo(game: str, png: bool = False) -> None:
        """The time each decision took."""

    try:
        said = " ".join(agon("plot", "--help").stdout.split())
        assert "voyage (Adamastor), chances, tempo; or a ruleset's stored games: stats." in said
        assert "a PNG image (--png) or its figures as JSON (--json) (scores, battles, auction, voyage, stats," in said
    finally:
        plot_app.registered_commands.pop()


def test_the_plot_groups_help_is_worked_out_only_when_a_help_is_shown(agon, monkeypatch):
    """Every command read the plot group's help as the lines of the helps were joined, importing every ruleset to
    name them: a sixth of `agon state`'s own time on a game of one ruleset. It is worked out for a help only."""
    from agon.cli import plot_cmds

    asked = []
    real = plot_cmds.group_help
    monkeypatch.setattr(plot_cmds, "group_help", lambda: asked.append(1) or real())
    gid = json.loads(agon("new", "adamastor", "--player", "Ana", "--json").stdout)["id"]
    agon("state", gid)
    agon("games")
    assert asked == []
    said = " ".join(agon("plot", "--help").stdout.split())
    assert asked and "Draw a recorded game: scores, battles (Pergamemnon, Perikles)," in said


def test_stats_name_the_turns_a_perikles_game_lasted_as_its_rules_call_them(agon):
    # 'agon stats perikles' after 'agon demo perikles --seed 3' read '115 events, 1.0 rounds', which looked wrong: the
    # figure is right (Athens suffers its fourth defeat in the first turn, and the game ends with that turn: RULES.md
    # 'End of turn'), but a Perikles turn is a whole round of elections, commitments and battles, three at most
    gid = json.loads(agon("demo", "perikles", "--seed", "3", "--json").stdout)["id"]
    view = json.loads(agon("state", gid, "--json").stdout)["view"]
    assert view["cities"]["athens"]["defeats"] == 4 and view["turn"] == 1
    out = agon("stats", "perikles").stdout
    assert "Average length: 115.0 events, 1.0 turns (shortest 115, longest 115 events; 1 turn)" in out, out
    data = json.loads(agon("stats", "perikles", "--json").stdout)
    assert (data["avg_rounds"], data["fewest_rounds"], data["most_rounds"], data["round_word"]) == (1.0, 1, 1, "turn")
    agon("demo", "perikles", "--seed", "4")
    assert re.search(r"turns \(shortest \d+, longest \d+ events; 1 to [23] turns\)", agon("stats", "perikles").stdout)

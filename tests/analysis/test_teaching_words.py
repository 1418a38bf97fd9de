"""What a teacher or an analyst reads: ``agon analyse`` says how sure its figures are, in words without the
internals, names as turning points only moves that last (one noisy estimate is none) and marks luck as luck;
``agon compare`` answers "what if she had done that instead?" in a sentence, with the analysis's estimate of the
two moves where one exists."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

from agon.analysis.chances import margin, readable, seconds_text, swings
from agon.core.analyse import Position
from tests.test_rollout import pig


def _positions(ana: list[float], actors: dict[int, str] | None = None, rollouts: int = 100) -> list[Position]:
    return [Position(n, f"id{n}", (actors or {}).get(n, "Ana"), f"event {n}", {"Ana": p, "Bruno": 1 - p},
                     {"Ana": 0.0, "Bruno": 0.0}, rollouts) for n, p in enumerate(ana)]


def test_a_lasting_move_is_a_turning_point_and_one_noisy_estimate_is_not():
    # Ana's chance: even, one estimate off by 30 points at #4 (and back at #5), then a lasting rise at #10 (luck)
    ana = [0.5] * 4 + [0.8] + [0.5] * 5 + [0.9] * 6
    a = SimpleNamespace(players=("Ana", "Bruno"), positions=_positions(ana, {10: "chance"}))
    rows = swings(a)
    assert [(r["n"], r["luck"], round(100 * r["before"]), round(100 * r["after"])) for r in rows] == [
        (10, True, 50, 90)]


def test_moves_within_the_estimates_noise_make_no_turning_point():
    # the same rise, estimated from 4 games a position: it could be noise, and is not named
    ana = [0.5] * 10 + [0.75] * 6
    a = SimpleNamespace(players=("Ana", "Bruno"), positions=_positions(ana, rollouts=4))
    assert swings(a) == []
    a.positions = _positions(ana, rollouts=400)
    assert [r["n"] for r in swings(a)] == [10]


def test_the_numbers_read_as_a_person_reads_them():
    assert [margin(n) for n in (100, 400, 20)] == [10, 5, 22]
    assert [seconds_text(s) for s in (0.04, 31.4, 267.9)] == ["0.0 s", "31 s", "4 min 28 s"]


def test_ids_in_a_sentence_read_as_names_and_the_logs_own_sentences_stay_as_the_log_gives_them(agon):
    """Analysis names the card ids a sentence holds by their titles and leaves the rest as it is. The sentence this
    was shown with was made up ('the fleet sails from 0b to 1b'), where the log reads 'Bruno sails the fleet from 0b
    to 1b ...': the sentences are now those `agon log` gives for the seed-3 demo, and the ids those its events
    record."""
    from agon.cli.common import service, set_db

    gid = json.loads(agon("demo", "adamastor", "--seed", "3", "--json").stdout)["id"]
    log = {e["n"]: e for e in json.loads(agon("log", gid, "--full", "--json").stdout)}
    set_db(None)
    a = SimpleNamespace(line=service().load(gid))  # the store the commands above wrote to
    sail, deal = log[6]["text"], log[4]
    assert sail == "Bruno sails the fleet from 0b to 1b for 4 points (0 left); land discovered at 1b (numeral 1)."
    assert readable(a, sail) == sail  # the positions 0b and 1b are no cards
    assert "Ana holds Boticário (27), Meirinho (29) and Cartógrafo (4);" in deal["text"]
    assert readable(a, deal["text"]) == deal["text"]  # cards the log names by title stay as it names them
    hand = deal["event"]["hands"][0]  # Ana's hand as the event records it: by id
    assert hand == ["c27", "c29", "c4"]
    assert readable(a, f"Ana holds {', '.join(hand)}; {sail}") == f"Ana holds Boticário, Meirinho, Cartógrafo; {sail}"


def _pig(agon) -> str:
    from agon.cli.common import service, set_db

    set_db(None)  # the store of this test's AGON_DB
    return pig(service(starts=True))


def test_agon_analyse_says_how_sure_it_is_in_plain_words(agon):
    gid = _pig(agon)
    out = agon("analyse", gid, "--rollouts", "40", "--workers", "1").stdout
    first = out.splitlines()[0]
    assert first == (f"Pig (test game) game {gid}, branch main: each position is judged by 40 games played on to"
                     " the end by random bots (seed 0).")
    assert "good to about ±15 points either way" in out
    assert "see every hidden card" in out and "not to a player during it" in out
    # no internals: no "rollouts" but the option's name, no long decimals, no position ids
    assert "rollout" not in out.replace("--rollouts", "").lower()
    assert re.search(r"\d\.\d\d", out) is None
    assert "Where the game turned" in out and "?! lost up to 20 points, ? up to 30, ?? more" in out
    assert "the game is not over on this line: it stops at #11" in out  # Bruno is still to play


def test_a_refused_analysis_prints_its_one_line_and_nothing_of_what_it_was_about_to_do(agon):
    gid = _pig(agon)
    for option in (("--bot", "nosuch"), ("--cluster", "foo")):
        r = agon("analyse", gid, *option, "--rollouts", "2", "--workers", "1", ok=False)
        assert r.exit_code == 1 and r.stdout == "", (option, r.stdout)
        assert len(r.stderr.splitlines()) == 1, r.stderr
    assert "unknown bot kind 'nosuch' for toy; choose one of: " in agon(
        "analyse", gid, "--bot", "nosuch", ok=False).stderr


def test_analyse_reads_a_bot_kind_in_any_case_as_agon_new_does(agon):
    gid = _pig(agon)
    out = agon("analyse", gid, "--bot", "Random", "--rollouts", "2", "--workers", "1").stdout
    assert "played on to the end by random bots (seed 0)" in out.splitlines()[0]


def test_the_commands_that_play_a_better_move_work_again_once_a_branch_holds_it(agon):
    """``agon analyse`` prints the commands that play the better move on a branch ``better-N``; run again once that
    name is taken, it names another branch (the same commands were refused: the name is taken), and once a branch
    plays the better move from there it names the comparison instead."""
    gid = _pig(agon)
    run = ("analyse", gid, "-b", "main", "--rollouts", "50", "--seed", "1", "--workers", "1")
    assert f"agon branch {gid} better-10 --at 9 -b main && agon act {gid} 2" in agon(*run).stdout
    agon("branch", gid, "better-10", "--at", "9", "-b", "main")
    agon("act", gid, "1")  # a branch of that name that plays another move
    out = agon(*run).stdout
    assert f"agon branch {gid} better-10-2 --at 9 -b main && agon act {gid} 2" in out
    agon("branch", gid, "better-10-2", "--at", "9", "-b", "main")
    agon("act", gid, "2")
    out = agon(*run).stdout
    assert f"     agon compare {gid} main better-10-2" in out.splitlines()
    assert f"agon branch {gid} better-10" not in out
    data = json.loads(agon(*run, "--json").stdout)
    assert [d["branch_command"] for d in data["decisions"] if d["n"] == 10] == [f"agon compare {gid} main better-10-2"]


def test_analyse_from_one_game_a_position_says_one_game(agon):
    gid = _pig(agon)
    out = agon("analyse", gid, "--rollouts", "1", "--workers", "1").stdout
    assert f"game {gid}, branch main: each position is judged by 1 game played on to the end by random bots" in out
    agon("plot", "chances", gid, "--rollouts", "1", "-o", "chances.html")
    assert "branch main: each point from 1 game played on by random bots" in Path("chances.html").read_text()
    agon("branch", gid, "held", "--at", "9", "-b", "main")
    agon("act", gid, "2")
    out = " ".join(agon("compare", gid, "main", "held").stdout.split())
    assert "as `agon analyse` estimated it (1 game played on from each position by random bots" in out


def test_analyse_of_a_game_just_created_tells_its_one_position_once(agon):
    gid = agon("new", "toy", "--player", "Ana", "--player", "Bruno", "--table").stdout.split()[0]
    out = agon("analyse", gid, "--rollouts", "2", "--workers", "1").stdout
    assert out.count("  at the start: Ana ") == 1 and "after #0" not in out
    assert "(the game is not over on this line: it stops at #0)" in out


def test_compare_answers_what_if_in_words_with_the_analysis_estimate(agon):
    gid = _pig(agon)
    agon("branch", gid, "held", "--at", "9", "-b", "main")
    agon("act", gid, "2")  # Ana holds at 24 instead of rolling again
    out = agon("compare", gid, "main", "held").stdout
    words = " ".join(out.split())
    assert "What if: At #10 on held: Ana holds, banking 24, instead of (on main): Ana rolls." in words
    assert "the outcome is not known yet, since one line is not over" in words
    assert f"`agon analyse {gid} -b main` estimates the chances after both moves" in words
    agon("analyse", gid, "-b", "main", "--rollouts", "20", "--workers", "1")
    out = " ".join(agon("compare", gid, "main", "held").stdout.split())
    m = re.search(r"The win chance right after #10, as `agon analyse` estimated it \(20 games played on from each"
                  r" position by random bots, seed 0, good to about ±22 points\): Ana (\d+)% on main, 100% on held\.",
                  out)
    assert m is not None and int(m.group(1)) < 100, out
    data = json.loads(agon("compare", gid, "main", "held", "--json").stdout)
    assert data["estimate"]["b"]["Ana"] == 1.0 and data["what_if"].startswith("At #10 on held: Ana holds")
    # told as a player, no estimate: it comes from the full state
    assert "right after #10" not in agon("compare", gid, "main", "held", "--as", "Bruno").stdout
    as_bruno = json.loads(agon("compare", gid, "main", "held", "--as", "Bruno", "--json").stdout)
    assert as_bruno["estimate"] is None and as_bruno["what_if"] == data["what_if"]  # the pig hides nothing


def test_compare_gives_the_re_checked_chance_that_analyse_gave_for_the_better_move(agon):
    """`agon analyse` plays the alternative that looked best on again with a fresh batch of games (the first figure
    is biased upwards: it was picked as the best of several) and prints that figure; `agon compare`, which it points
    to once a branch plays that move, gives the same figure, not the first batch's."""
    gid = _pig(agon)
    run = ("analyse", gid, "--rollouts", "20", "--threshold", "0.01", "--workers", "1")
    judged = {d["n"]: d for d in json.loads(agon(*run, "--json").stdout)["decisions"]}
    # at #8 Ana rolled at 18; holding was the best of the first batch (all 20 games won), 95% by the second
    assert judged[8]["summary"] == "#8 Ana rolls: 75% (best: Ana holds, banking 18, 95%)"
    assert judged[8]["best"]["chance"] == 1.0 and judged[8]["best"]["checked"] == 0.95
    agon("branch", gid, "held", "--at", "7", "-b", "main")
    agon("act", gid, "2")  # Ana holds at 18
    out = " ".join(agon("compare", gid, "main", "held").stdout.split())
    assert ("The win chance right after #8, as `agon analyse` estimated it (20 games played on from each position by"
            " random bots, seed 0, good to about ±22 points): Ana 75% on main, 95% on held.") in out, out
    estimate = json.loads(agon("compare", gid, "main", "held", "--json").stdout)["estimate"]
    assert estimate["a"]["Ana"] == 0.75 and estimate["b"]["Ana"] == 0.95


def test_analyse_names_a_power_card_as_the_log_does_not_by_the_id_a_table_types(agon):
    """`agon options` shows a Peloponnes power card as `A03 Market`, the id being what a table types; `agon analyse`
    told the better bids so ('best: Ana bids 5 on A03 Market') under a log and a 'Where the game turned' saying
    'Market'."""
    gid = json.loads(agon("new", "peloponnes", "--player", "Ana", "--bot", "Bo:random", "--seed", "4",
                          "--json").stdout)["id"]
    assert "A03 Market" in agon("options", gid).stdout  # where a table types the id
    while json.loads(agon("options", gid, "--json").stdout)["pending"]["kind"] != "over":
        agon("act", gid, "1")  # Ana passes at each auction: a bid was better, and the analysis says which
    out = agon("analyse", gid, "--rollouts", "10", "--workers", "1", "--threshold", "0.01").stdout
    bids = re.findall(r"best: Ana bids \d+ on ([^(,;]+?) \(", out)
    assert bids, out
    # the cards as the log names them where they are revealed ("Round 1: Pasture, Market, ... revealed.")
    shown = {c for row in re.findall(r"Round \d+: (.*?) revealed\b", agon("log", gid).stdout) for c in row.split(", ")}
    for card in bids:
        assert any(card == c or card.startswith(c + " ") for c in shown), (card, shown)
    assert not re.search(r"\b[A-C]\d\d [A-Z]", out), out
    rows = json.loads(agon("analyse", gid, "--rollouts", "10", "--workers", "1", "--threshold", "0.01",
                           "--json").stdout)
    assert not re.search(r"\b[A-C]\d\d [A-Z]", json.dumps(rows)), "an id beside a name in --json"

"""The agon command line, driven as a person would, asserting on what they see."""

from __future__ import annotations

import json
import os
import threading

import pytest


def new_toy(agon, *extra: str) -> str:
    out = agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3", *extra).stdout
    return out.splitlines()[0].strip()


def test_rulesets_lists_the_test_game_with_its_players_and_data(agon):
    out = agon("rulesets").stdout
    assert "toy" in out and "2-4" in out and "exact" in out
    rows = json.loads(agon("rulesets", "--json").stdout)
    toy = next(r for r in rows if r["name"] == "toy")
    assert toy["min_players"] == 2 and toy["provisional"] is False and "random" in toy["bots"]


def test_a_person_plays_a_game_through_the_commands(agon):
    gid = new_toy(agon)
    assert len(gid) == 8
    out = agon("options", gid).stdout
    assert "ann to act: roll or hold" in out and "1. ann rolls." in out
    opts = json.loads(agon("options", gid, "--json").stdout)
    assert opts["pending"] == {"kind": "decision", "player": "ann", "prompt": "roll or hold", "bot": None}
    out = agon("act", gid, "1").stdout
    assert "#2    ann rolls." in out and "ann: " not in out and "ann rolls a" in out
    out = agon("log", gid).stdout
    assert "0. A game of pig to 20 begins for ann, bob." in out
    state = json.loads(agon("state", gid, "--json", "--at", "1").stdout)
    assert state["event"] == 1 and set(state["scores"]) == {"ann", "bob"}
    assert "after event #1 as ann sees it" in agon("state", gid, "--at", "1", "--as", "ann").stdout
    out = agon("replay", gid, "--to", "2").stdout
    assert "#0" in out and "#2" in out
    games = json.loads(agon("games", "--json").stdout)
    assert games[0]["id"] == gid and games[0]["status"].startswith("ann to act")


def test_undo_redo_branch_switch_and_branches(agon):
    gid = new_toy(agon)
    agon("act", gid, "1")
    out = agon("undo", gid).stdout
    assert "Undid 2 events" in out and f"agon redo {gid}" in out
    assert "Redid 2 events" in agon("redo", gid).stdout
    out = agon("branch", gid, "whatif", "--at", "1").stdout
    assert "Branch whatif starts after event #1 of main with the same luck; now on whatif" in out
    tree = agon("branches", gid).stdout
    assert "main" in tree and "whatif (current): forks after #1 of main" in tree
    rows = json.loads(agon("branches", gid, "--json").stdout)
    assert [r["name"] for r in rows] == ["main", "whatif"]
    assert "Now on branch main" in agon("switch", gid, "main").stdout


def test_export_import_and_verify(agon, tmp_path):
    gid = new_toy(agon)
    agon("act", gid, "2")
    path = tmp_path / "game.jsonl"
    said = agon("export", gid, "-b", "main", "-o", str(path)).stdout
    lines = path.read_text().splitlines()
    events = sum(1 for x in lines if "tag" in json.loads(x))  # not the card set or the trailer
    assert f"Wrote {events} events of branch main to" in said and json.loads(lines[-1])["events"] == events
    assert json.loads(lines[0])["tag"] == "game.created"
    other = ["--db", str(tmp_path / "other.db")]
    new = agon(*other, "import", str(path)).stdout.splitlines()[0]
    assert new != gid  # a line carries no game id: a new one is given
    assert "OK:" in agon(*other, "verify", new).stdout
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines[:-2] + [lines[-2].replace('"actor":"', '"actor":"z'), lines[-1]]) + "\n")
    r = agon("import", str(broken), ok=False)
    assert r.exit_code == 1 and "does not match its hash" in r.stderr
    assert "already stored" in agon("import", str(path)).stdout
    assert len(json.loads(agon("games", "--json").stdout)) == 1


def test_a_line_imported_into_a_store_that_has_its_game_tells_the_branch_it_went_onto(agon, tmp_path):
    """The whole game is there, on another current branch: the report names the branch the line extended and tells
    that branch's state, not the current one's."""
    gid = new_toy(agon)
    agon("act", gid, "1")
    agon("branch", gid, "whatif", "--at", "1")
    agon("act", gid, "2")  # whatif holds where main rolled
    agon("export", gid, "-o", "game.jsonl")
    agon("act", gid, "1")
    agon("export", gid, "-b", "whatif", "-o", "whatif.jsonl")
    other = ["--db", str(tmp_path / "other.db")]
    agon(*other, "import", "game.jsonl")
    agon(*other, "switch", gid, "main")
    out = agon(*other, "import", "whatif.jsonl").stdout
    said = json.loads(agon(*other, "import", "whatif.jsonl", "--json").stdout)
    rows = {r["name"]: r for r in json.loads(agon(*other, "branches", gid, "--json").stdout)}
    assert rows["main"]["current"] and rows["whatif"]["head"] == json.loads(
        agon("branches", gid, "--json").stdout)[1]["head"]
    assert "was already stored; added " in out and f", branch whatif: {rows['whatif']['status']}" in out
    assert (said["outcome"], said["branch"], said["status"]) == ("unchanged", "whatif", rows["whatif"]["status"])


def test_schema_and_where(agon, tmp_path):
    schema = json.loads(agon("schema", "toy").stdout)
    text = json.dumps(schema)
    assert "toy.held" in text and "game.created" in text
    assert str(tmp_path / "games.db") in agon("where").stdout


def test_play_prompts_records_and_quits(agon):
    gid = new_toy(agon)
    out = agon("play", gid, input="state\n1\n9\nq\n").stdout
    assert "`state` shows what ann sees" in out and "as ann sees it" in out and "ann rolls." in out
    assert "Stopped; every decision so far is recorded" in out
    assert len(json.loads(agon("log", gid, "--json").stdout)) > 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("state", "nope"), "no game 'nope' in this store"),
        (("new", "chess", "--player", "a"), "unknown ruleset 'chess'"),
        (("new", "toy", "--player", "a"), "played by 2 to 4 players, not 1"),
        (("schema", "chess"), "unknown ruleset 'chess'"),
        (("cards", "toy", "--export", "cards.yaml"), "a card set is written as TOML (.toml) or JSON (.json)"),
        (("import", "."), "is a folder, not a file"),
    ],
)
def test_bad_input_gets_one_line_and_a_non_zero_exit(agon, args, message):
    new_toy(agon)  # a store with a game: 'nope' is looked for in it
    r = agon(*args, ok=False)
    assert r.exit_code == 1
    assert message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.output


def test_an_empty_listing_names_the_store_it_read(agon, tmp_path):
    from agon.events.store import Store

    agon("new", "toy", "--player", "ann", "--bot", "bob:random", "--seed", "3")
    empty = tmp_path / "empty.db"
    Store(f"sqlite:///{empty}").close()  # a store with no game in it (a mistyped path is refused: test_missing_store)
    out = agon("--db", str(empty), "games").stdout
    assert out.strip() == (f"No games yet in sqlite:///{empty}. Create one: agon --db {empty} new RULESET --player NAME"
                           " --bot NAME:random")
    assert "No games yet" not in agon("games").stdout  # the store meant


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("act", "{gid}", "5"), "choice 5 is out of range"),
        (("act", "{gid}", "--", "-1"), "choice -1 is out of range: choose 1 to 2"),
        (("act", "{gid}", "{{nope"), "not valid JSON"),
        (("act", "{gid}", "1", "--as", "bob"), "turn order: ann must act now"),
        (("state", "{gid}", "--branch", "nope"), "has no branch 'nope'"),
        (("state", "{gid}", "--as", "zed"), "no player 'zed'"),
        (("state", "{gid}", "--at", "99"), "--at 99 is outside this line"),
        (("redo", "{gid}"), "nothing to redo"),
    ],
)
def test_bad_input_on_a_game_leaves_it_unchanged(agon, args, message):
    gid = new_toy(agon)
    before = agon("export", gid).stdout
    r = agon(*(a.format(gid=gid) for a in args), ok=False)
    assert r.exit_code == 1 and message in r.stderr
    assert agon("export", gid).stdout == before


def test_a_database_path_that_cannot_be_opened(agon, tmp_path):
    r = agon("--db", str(tmp_path / "no" / "such" / "dir.db"), "games", ok=False)
    assert r.exit_code == 1 and "folder" in r.stderr and "does not exist" in r.stderr


def test_long_option_lists_are_cut_and_can_be_narrowed(agon, monkeypatch):
    import agon.cli.play_cmds as play_cmds

    monkeypatch.setattr(play_cmds, "SHOWN", 1)
    gid = new_toy(agon)
    out = agon("options", gid).stdout
    assert "1. ann rolls." in out and "2. ann holds" not in out
    assert "... and 1 more: narrow them with --match TEXT" in out
    out = agon("options", gid, "--match", "HOLDS").stdout
    assert "2. ann holds, banking 0." in out and "1. ann rolls." not in out
    assert "2. ann holds" in agon("options", gid, "--all").stdout
    assert (f"(none of the 2 options mentions 'fly': `agon options {gid}` lists them all)"
            in agon("options", gid, "--match", "fly").stdout)


def test_a_branch_made_where_chance_is_due_draws_it_from_the_seed_with_the_same_luck(agon):
    gid = new_toy(agon)
    rolled = agon("act", gid, "1").stdout  # '#2 ann rolls.' then '#3 ann rolls a N.'
    roll = next(line for line in rolled.splitlines() if line.strip().startswith("#3")).split(None, 1)[1]
    made = agon("branch", gid, "again", "--at", "2").stdout  # the roll due there is drawn with the branch
    assert "agon drew the chance due there (event #3); now on again: ann to act" in made, made
    assert roll in agon("log", gid).stdout.splitlines()[3]
    agon("undo", gid, "--to", "2")  # a line taken back to where chance is due: it waits for 'seed'
    out = agon("options", gid).stdout
    assert f"This game draws its luck from its seed: `agon act {gid} seed`" in out
    assert roll in agon("act", gid, "seed").stdout


def test_the_tree_of_lines_is_never_cut_at_the_terminal_width(agon):
    gid = new_toy(agon)
    agon("branch", gid, "a-rather-long-branch-name-for-a-what-if-line", "--at", "1")
    out = agon("branches", gid).stdout
    line = next(x for x in out.splitlines() if "a-rather-long" in x)
    assert line.strip().startswith("└── a-rather-long-branch-name-for-a-what-if-line (current): forks after #1 of main")
    assert line.endswith("(ann 0, bob 0)")


def test_export_of_one_line_counts_its_events_not_its_card_set(agon, tmp_path):
    gid = json.loads(agon("new", "adamastor", "--bot", "A:random", "--seed", "2", "--json").stdout)["id"]
    path = tmp_path / "line.jsonl"
    said = agon("export", gid, "-b", "main", "-o", str(path)).stdout
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    events = sum(1 for x in lines if "tag" in x)
    assert lines[0].get("kind") == "cards" and f"Wrote {events} events of branch main" in said


def test_commands_printed_for_a_line_that_is_not_the_current_one_name_it(agon):
    gid = new_toy(agon)
    agon("act", gid, "1")
    agon("branch", gid, "w", "--at", "1")
    agon("switch", gid, "main")
    assert f"agon act {gid} -b w N --expect" in agon("options", gid, "-b", "w").stdout
    agon("act", gid, "1", "-b", "w")
    assert f"agon redo {gid} -b w" in agon("undo", gid, "-b", "w").stdout
    assert f"agon redo {gid}\n" in agon("undo", gid).stdout + "\n"  # the current line needs no -b


def test_an_export_piped_into_import_on_another_store(agon, tmp_path):
    gid = new_toy(agon)
    agon("act", gid, "2")
    exported = agon("export", gid).stdout
    other = ["--db", str(tmp_path / "other.db")]
    out = agon(*other, "import", "-", input=exported).stdout
    assert out.splitlines()[0] == gid and "Imported game" in out
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)  # what 'agon import <(agon export G)' and '/dev/stdin' are: no regular file, yet a file to read
    writer = threading.Thread(target=pipe.write_text, args=(exported,))
    writer.start()
    out = agon("--db", str(tmp_path / "third.db"), "import", str(pipe)).stdout
    writer.join()
    assert "Imported game" in out
    r = agon(*other, "import", "-", input="", ok=False)
    assert r.exit_code == 1 and r.stderr.strip() == "error: standard input is empty; give what `agon export GAME` wrote"


def test_seed_typed_when_a_person_must_decide_says_who_decides(agon):
    gid = new_toy(agon, "--table")
    agon("act", gid, "seed")  # the seat order, a chance outcome: 'seed' draws it
    r = agon("act", gid, "seed", ok=False)
    assert r.exit_code == 1 and r.stderr.strip() == (
        "error: 'seed' draws a chance outcome, but none is needed now: ann must decide (roll or hold); give a"
        f" choice number from `agon options {gid}`, or the event as JSON")
    assert "ann rolls." in agon("act", gid, "1").stdout  # nothing was recorded by the refused entry


def test_play_refuses_a_number_or_an_entry_naming_the_options_it_listed_not_another_command(agon):
    """Once, `agon play` answered a number out of range with "(`agon options G` lists them)", though it lists the
    options itself, just above its prompt."""
    gid = new_toy(agon)
    r = agon("play", gid, input="9\nzzz\nq\n")
    assert "1. ann rolls." in r.stdout and "agon options" not in r.stderr
    assert "error: choice 9 is out of range: choose 1 to 2 (the options listed above)" in r.stderr
    assert "or give a choice number from the options listed above, or the event as JSON" in r.stderr
    said = agon("act", gid, "9", ok=False).stderr  # a command, which lists none: the one that does
    assert said == f"error: choice 9 is out of range: choose 1 to 2 (`agon options {gid}` lists them)\n"


def test_play_at_a_seeded_chance_asks_for_seed_here_not_for_another_command(agon):
    gid = new_toy(agon)
    agon("act", gid, "1")
    rolls = next(e["n"] for e in json.loads(agon("log", gid, "--json").stdout) if e["text"] == "ann rolls.")
    agon("undo", gid, "--to", str(rolls))  # the die is still to be drawn from the seed
    out = agon("play", gid, input="seed\nq\n").stdout
    said = next(ln for ln in out.splitlines() if ln.startswith("This game draws its luck from its seed"))
    assert said.startswith("This game draws its luck from its seed: type 'seed' here") and "agon act" not in said
    assert "ann rolls a" in out


def test_hints_for_a_line_that_is_not_the_current_one_name_it(agon):
    gid = new_toy(agon)
    for _ in range(12):
        if "is over" in agon("options", gid).stdout or "over:" in agon("options", gid).stdout:
            break
        agon("act", gid, "1")
    agon("branch", gid, "aside", "--at", "1")  # now the current line; main is not
    out = agon("play", gid, "-b", "main", input="log\nq\n").stdout
    assert f"Go on later with: agon play {gid} -b main" in out
    assert f"events; all of them: `agon log {gid} -b main`)" in out
    out = agon("play", gid, "-b", "main", input="").stdout  # Ctrl-D at the first prompt
    assert f"Stopped; every decision so far is recorded. Go on later with: agon play {gid} -b main" in out
    out = agon("analyse", gid, "-b", "main", "--rollouts", "2", "--workers", "1").stdout
    assert f"`agon plot chances {gid} -b main --rollouts 2` draws the chart" in out


def test_analyse_names_the_plot_chances_that_draws_this_analysis_not_another(agon, tmp_path):
    gid = new_toy(agon)
    agon("act", gid, "1")
    out = agon("analyse", gid, "--rollouts", "3", "--seed", "5", "--bot", "Random", "--all", "--workers", "1").stdout
    hint = f"agon plot chances {gid} --rollouts 3 --seed 5 --all"  # the toy's judging bot is random: no --bot
    assert f"`{hint}` draws the chart" in out
    data = json.loads(agon(*hint.split()[1:], "--json").stdout)
    assert data["rollouts_played"] == 0 and data["positions_cached"] > 0  # this analysis, read from the cache
    assert f"`agon plot chances {gid}` draws" in agon("analyse", gid, "--workers", "1").stdout


def test_a_refused_choice_on_a_line_that_is_not_the_current_one_names_that_line_in_its_hints(agon):
    out = agon("new", "toy", "--bot", "ann:random", "--bot", "bob:random", "--seed", "3").stdout
    gid = out.splitlines()[0].strip()  # played by its bots to the end
    agon("branch", gid, "early", "--at", "1")
    agon("switch", gid, "early")  # main, over, is no longer the current line
    said = agon("act", gid, "1", "-b", "main", ok=False).stderr
    assert f"take the last step back with `agon undo {gid} -b main` (a slip)" in said  # not the current line's undo
    assert f"`agon branch {gid} NAME --at N -b main` to play on" in said
    agon("switch", gid, "main")
    said = agon("act", gid, "99", "-b", "early", ok=False).stderr
    assert f"(`agon options {gid} -b early` lists them)" in said
    assert f"take the last step back with `agon undo {gid}` (a slip)" in agon("act", gid, "1", ok=False).stderr


def test_a_branch_where_the_game_is_over_says_so_instead_of_asking_to_play_on(agon):
    out = agon("new", "toy", "--bot", "ann:random", "--bot", "bob:random", "--seed", "3").stdout
    gid = out.splitlines()[0].strip()
    over = json.loads(agon("games", "--json").stdout)[0]
    assert over["status"].startswith("over")
    out = agon("branch", gid, "late").stdout
    assert "Play on with" not in out and "options" not in out
    assert (f"Nothing to play here: the game is over at this position; branch from an earlier one with"
            f" `agon branch {gid} NAME --at N` to play on (back: `agon switch {gid} main`)") in " ".join(out.split())
    assert f"Play on with: `agon options {gid}`   (back: `agon switch {gid} late`)" in agon(
        "branch", gid, "early", "--at", "1").stdout


def test_replay_pause_ends_its_prompt_line_when_the_input_ends(agon):
    gid = new_toy(agon)
    out = agon("replay", gid, "--pause", "--to", "1", input="").stdout  # Ctrl-D at the first prompt
    assert out.endswith("Enter for the next step (q to stop): \n")
    assert "#1" not in out

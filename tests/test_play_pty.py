"""The real ``agon play`` driven in a pseudo-terminal (pexpect), as a person recording a game at a table types:
prefixes, a commitment built step by step, an ambiguous prefix refused with its candidates, a typed die undone."""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
import time
from pathlib import Path

import pexpect
import pytest

from agon.core.engine import Chance, Decision
from agon.core.service import NewGame
from agon.events.perikles import BattleTileKept

PROMPT = "Your choice"


def agon_command() -> list[str]:
    exe = shutil.which("agon", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "agon"]


def sigint_default() -> None:
    """For a child's ``preexec_fn``: Ctrl-C (SIGINT) handled as a terminal's user would have it. A shell starts a
    background job with SIGINT ignored (``cmd &`` without job control, as a CI script may run the tests), a child
    inherits that, and Python then never turns SIGINT into KeyboardInterrupt: the Ctrl-C tests below would test
    how the tests were started, not agon."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def table(sqlite_svc, tmp_path):
    """A 3-player Perikles game at a table, and a way to open ``agon play`` on it in a pty."""
    svc = sqlite_svc
    game = svc.new_game(NewGame("perikles", players=("Ana", "Bruno", "Chloe"), seed=5, table=True))

    def play() -> pexpect.spawn:
        return spawn_play(tmp_path, game)

    return svc, game, play


def spawn_play(tmp_path, game: str, hand_over: str | None = None) -> pexpect.spawn:
    """``agon play GAME`` on the store under ``tmp_path`` in a pty, at its first prompt; ``hand_over``: the person
    the terminal is handed to first (several people's seats at one terminal), whose Enter is typed first."""
    cmd = agon_command()
    # a terminal wide enough that no message asserted on below is folded (tests/test_cli_widths.py folds them)
    env = dict(os.environ, AGON_DB=str(tmp_path / "agon.db"), COLUMNS="250", NO_COLOR="1")
    child = pexpect.spawn(cmd[0], [*cmd[1:], "play", game], env=env, encoding="utf-8", timeout=60,
                          dimensions=(60, 250), preexec_fn=sigint_default)
    if hand_over is not None:
        child.expect(f"{hand_over}, press Enter")
        child.send("\r")
    child.expect(PROMPT)
    return child


def type_keys(child: pexpect.spawn, keys: str) -> None:
    """``keys`` sent to ``agon play`` one by one, as a person types them."""
    for k in keys:
        child.send(k)
        time.sleep(0.05)


def run_until(svc, game, stop) -> None:
    """Record the game with seeded luck and first options (units sent when forces are committed) until
    ``stop(pending)``."""
    for _ in range(3000):
        pending = svc.load(game).pending
        if stop(pending):
            return
        commit = isinstance(pending, Decision) and "commit forces" in pending.prompt
        svc.act(game, "seed" if isinstance(pending, Chance) else "2" if commit else "1")  # units go to battle
    raise AssertionError("the position never came")


def test_chance_items_by_prefix_and_an_ambiguous_prefix_refused_with_its_candidates(table):
    svc, game, play = table
    child = play()  # special tiles are dealt first: 3 of alkibiades, brasidas, perikles, persian-fleet, ...
    child.sendline("p br alk")
    child.expect("'p' is ambiguous: it may be perikles, persian-fleet, phormio, plague; type more of it")
    child.expect(PROMPT)
    assert len(svc.load(game).events) == 1  # nothing recorded
    child.send("peri")  # perikles alone may follow: taken, shown in full with a space after it
    child.expect("perikles ")
    child.send("b")
    child.expect("brasidas ")
    child.send("alk")  # 'al' may still be thessalian-allies; 'alk' names the third tile: the entry ends, no Enter
    child.expect("Special tiles are dealt")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    dealt = svc.load(game).events[1]
    assert dealt.tiles == ("perikles", "brasidas", "alkibiades")


def test_whole_names_typed_on_after_play_took_them_record_the_same(table):
    """A person who types every name in full: play takes 'peri' as perikles and 'alk' as alkibiades (the entry
    then ends), and the rest of each name, the spaces and the Enter typed after it are swallowed, even once the
    next prompt is up: nothing else is recorded."""
    svc, game, play = table
    child = play()
    child.sendline("perikles brasidas alkibiades")
    child.expect("Special tiles are dealt")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    after = svc.load(game)
    assert after.events[1].tiles == ("perikles", "brasidas", "alkibiades")
    assert len(after.events) == 2  # the next entry (the locations dealt) was not touched


def test_keys_that_leave_a_taken_word_begin_the_next_one(table):
    """'sl' takes slave-revolt; the 'a' typed next may be more of it (sla...) or the start of alkibiades: the 'l'
    after it leaves slave-revolt's spelling, so 'al' begins the next word and 'alk' takes alkibiades."""
    svc, game, play = table
    child = play()
    child.send("sl")
    child.expect("slave-revolt ")
    child.send("alk")
    child.expect("alkibiades ")
    child.send("b")  # the third tile: the entry ends by itself
    child.expect("Special tiles are dealt")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert svc.load(game).events[1].tiles == ("slave-revolt", "alkibiades", "brasidas")


def test_a_commitment_built_step_by_step_with_a_step_back(table):
    from agon.core import steps

    svc, game, play = table
    run_until(svc, game, lambda p: isinstance(p, Decision) and "commit forces" in p.prompt)
    line = svc.load(game)
    player = line.pending.player
    child = play()
    before = len(line.events)
    rs, s = line.ruleset, line.state
    chosen, now = steps.forward(rs, s, (), steps.ask(rs, s))
    if now.field == "tile":  # several tiles: the first (by its number: it may be taken before Enter)
        child.sendline("1")
        child.expect("where counters go")
        child.expect(PROMPT)
        chosen, now = steps.walk(rs, s, [now.values[0]], chosen)
    assert now.field == "location"
    place = next(v for v in now.values if v != steps.DONE)
    number = str(now.values.index(place) + 1)
    child.sendline(number)
    child.expect(f"at {place}: attack or defend|which counter to send to {place}")
    child.expect(PROMPT)
    child.sendline("-")  # one step back: where is asked again
    child.expect("where counters go")
    child.expect(PROMPT)
    child.sendline(number)
    child.expect(f"at {place}: attack or defend|which counter to send to {place}")
    child.expect(PROMPT)
    chosen, now = steps.walk(rs, s, [place], chosen)
    if now.field == "side":
        child.sendline("1")
        child.expect(f"which counter to send to {place}")
        child.expect(PROMPT)
        chosen, now = steps.walk(rs, s, ["1"], chosen)
    counter = now.values[0]
    child.sendline("1")
    child.expect(f"another counter to {place}, another location, or done")
    child.expect(PROMPT)
    child.sendline("")  # Enter ends the decision here
    child.expect(f"#[0-9]+ +{player} spends")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    after = svc.load(game)
    assert len(after.events) > before
    run_until(svc, game, lambda p: isinstance(p, Decision) and "commit forces" in p.prompt)
    cmd = agon_command()
    listing = pexpect.run(" ".join([*cmd, "options", game]), env=child.env, encoding="utf-8")
    assert "Or build any legal one step by step" in listing  # 'agon options' tells of the steps too
    committed = after.events[before]
    assert [(p.counter, p.location) for p in committed.placements] == [(counter, place)]


def test_a_decision_built_step_by_step_ends_by_itself_once_its_last_step_is_named(table):
    """Taking an influence tile: each step's number names one value (fewer than 10 listed), shown in full as it is
    taken; the last one records the decision without Enter."""
    from agon.core import steps

    svc, game, play = table
    run_until(svc, game, lambda p: isinstance(p, Decision) and "influence tile" in p.prompt)
    line = svc.load(game)
    rs, s = line.ruleset, line.state
    before = len(line.events)
    chosen, now = steps.forward(rs, s, (), steps.ask(rs, s))
    assert steps.stepwise(rs, s) and isinstance(now, steps.Question)
    child = play()
    asked = 0
    while isinstance(now, steps.Question):
        assert len(now.values) < 10, now.values  # one digit names the value: nothing longer may follow
        child.send("1")
        child.expect(re.escape(now.values[0]) + " ")
        asked += 1
        chosen, now = steps.walk(rs, s, [now.values[0]], chosen)
    child.expect(f"#[0-9]+ +{line.pending.player} takes")
    child.expect(PROMPT)
    assert asked > 1 and svc.load(game).events[before] == now
    child.sendline("")  # an Enter typed after it out of habit is ignored: no line, no second prompt
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert PROMPT not in child.before
    assert len(svc.load(game).events) == before + 1


def test_a_word_that_may_become_a_command_never_ends_the_entry_by_itself(table):
    """'s' names only slave-revolt among the special tiles, but may become 'state' or 'seed'; 'u' may be undo: such
    a line waits for Enter, and a command typed in full is the command."""
    svc, game, play = table
    child = play()
    child.sendline("state")
    child.expect("as every player sees it")
    child.expect(PROMPT)
    child.sendline("u")
    child.expect("cannot undo")
    child.expect(PROMPT)
    child.send("s")
    child.send("l")  # 'sl' may only be slave-revolt: taken
    child.expect("slave-revolt ")
    child.sendline("q")  # no entry: 'q' is a word of the line, not a command
    child.expect("no item 'q' here")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert len(svc.load(game).events) == 1


def test_a_mistyped_die_is_taken_back_with_u_and_typed_again(table):
    svc, game, play = table
    run_until(svc, game, lambda p: isinstance(p, Chance) and p.kind == "dice")
    before = len(svc.load(game).events)
    child = play()
    child.send("6612")  # four dice as digits: recorded without Enter
    child.expect("attacker rolls 6\\+6=12")
    child.expect(PROMPT)
    assert len(svc.load(game).events) == before + 1
    child.sendline("")  # an Enter typed after them out of habit is ignored, whatever the next prompt is
    child.sendline("u")
    child.expect("Took back 1 event")
    assert PROMPT not in child.before  # the Enter answered nothing: the prompt was not printed a second time
    child.expect(PROMPT)
    assert len(svc.load(game).events) == before
    child.sendline("5,6 1 2")
    child.expect("attacker rolls 5\\+6=11")
    child.expect(PROMPT)
    child.sendline("?")
    child.expect("Commands")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert svc.load(game).events[before].attacker == (5, 6)


def test_play_shows_a_person_only_their_own_view(sqlite_svc, tmp_path):
    """Pergamemnon hides hands: what play prints to Ana (her state, the log, what happened) names none of them."""
    from agon.core import registry
    from tests.hidden import leaks, moments

    svc = sqlite_svc
    game = svc.new_game(NewGame("pergamemnon", players=("Ana",), bots=(("Bruno", "greedy"), ("Chloe", "greedy")),
                                seed=21))
    before = svc.load(game)
    cmd = agon_command()
    env = dict(os.environ, AGON_DB=str(tmp_path / "agon.db"), COLUMNS="250", NO_COLOR="1")  # as in ``table``
    child = pexpect.spawn(cmd[0], [*cmd[1:], "play", game], env=env, encoding="utf-8", timeout=60,
                          dimensions=(60, 250), preexec_fn=sigint_default)
    child.logfile_read = seen = io.StringIO()
    for typed in ("state", "log", "1", "state", "log", "q"):
        child.expect(PROMPT)
        child.sendline(typed)
    child.expect(pexpect.EOF)
    shown = seen.getvalue()
    after = svc.load(game)
    assert len(after.events) > len(before.events) and "as Ana sees it" in shown
    at = moments(registry.get("pergamemnon"), after.events, after.created.names)
    hidden = at[len(before.events) - 1].hidden["Ana"] & at[len(after.events) - 1].hidden["Ana"]
    assert hidden, "nothing was hidden from Ana: the check could not fail"
    assert not leaks(shown, hidden), leaks(shown, hidden)


def test_an_entry_starting_with_b_is_an_entry_and_b_name_a_branch_only_when_it_is_no_entry(table):
    """'b' names brasidas among the special tiles: 'b peri alk' records them and starts no branch; 'b whatif' is
    no entry here, so it starts a branch; 'branch NAME' always does; 'u' alone is always undo."""
    svc, game, play = table
    child = play()
    child.sendline("b peri alk")
    child.expect("read as an entry here")
    child.expect(PROMPT)
    assert svc.load(game).events[1].tiles == ("brasidas", "perikles", "alkibiades")
    assert [b.name for b in svc.store.branches(game)] == ["main"]
    child.sendline("b")  # alone: not a branch without a name, and no entry for 7 location tiles
    child.expect("give the new branch a name: branch NAME")
    child.expect(PROMPT)
    child.sendline("b whatif")
    child.expect("Now on branch whatif")
    child.expect(PROMPT)
    child.sendline("branch two")
    child.expect("Now on branch two")
    child.expect(PROMPT)
    child.sendline("?")
    child.expect("branch NAME")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert {b.name for b in svc.store.branches(game)} == {"main", "whatif", "two"}
    assert len(svc.load(game, "two").events) == 2


def test_a_filter_lists_the_options_of_a_decision_built_step_by_step_and_takes_their_number(table):
    """'?TEXT' lists the legal decisions that mention TEXT, by their numbers, even where play builds the decision
    step by step; the number typed next records that decision."""
    from agon.core.engine import option_text

    svc, game, play = table
    run_until(svc, game, lambda p: isinstance(p, Decision) and "commit forces" in p.prompt)
    line = svc.load(game)
    legal = line.ruleset.legal(line.state)
    n = len(legal) // 2
    text = option_text(line.ruleset, line.state, legal[n])
    child = play()
    child.sendline(f"?{text}")
    child.expect(re.escape(text[:40]))
    child.expect(PROMPT)
    child.sendline(str(n + 1))
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert svc.load(game).events[len(line.events)] == legal[n]


def test_the_line_offering_0_names_one_other_holder_in_the_singular(table, capsys):
    """'So does Bruno' where one other holder is asked after the first, 'So do Bruno and Chloe' for two."""
    from agon.cli.play_cmds import print_in_turn
    from agon.core import steps

    svc, game, _ = table
    run_until(svc, game, lambda p: isinstance(p, Decision) and "special tile" in p.prompt)
    line = svc.load(game)
    run = steps.passes_in_turn(line.ruleset, line.state, ["Ana", "Bruno", "Chloe"])
    first, second = run[0][1], run[1][1]
    assert len(run) == 3  # every holder is asked before the first battle
    print_in_turn(line, run[:2])
    said = capsys.readouterr().out
    assert f"{first} keeps their special tile for later. So does {second}, asked in turn after" in said
    print_in_turn(line, run)
    assert f"So do {second} and {run[2][1]}, asked" in capsys.readouterr().out


def test_0_records_the_pass_of_every_holder_asked_in_turn_as_one_entry_that_one_undo_takes_back(table):
    svc, game, play = table
    run_until(svc, game, lambda p: isinstance(p, Decision) and "special tile" in p.prompt)
    line = svc.load(game)
    before, first = len(line.events), line.pending.player
    holders = []
    state = line.state
    while isinstance(p := line.ruleset.pending(state), Decision):  # the holders asked before this battle
        holders.append(p.player)
        state = line.ruleset.apply(state, BattleTileKept(player=p.player))
    assert len(holders) >= 2
    child = play()
    others = holders[1:]
    named = ", ".join(others[:-1]) + (" and " if len(others) > 1 else "") + others[-1]
    said = f"0: {first} keeps their special tile for later. So {'does' if len(others) == 1 else 'do'} {named}, asked"
    assert " ".join(child.before.split()).count(said) == 1  # 'So does P2', 'So do P2 and P3'
    child.send("0")  # no Enter: nothing else starts with it
    for name in holders:
        child.expect(f"{name} keeps their special tile for later")
    child.expect(PROMPT)
    line = svc.load(game)
    assert len(line.events) == before + len(holders) and isinstance(line.pending, Chance)
    child.sendline("u")  # one entry, one undo
    child.expect(f"Took back {len(holders)} event")
    child.expect(PROMPT)
    assert len(svc.load(game).events) == before
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_a_tile_typed_and_enter_asks_where_counters_go_and_enter_alone_there_sends_none(table):
    """A person who types only the tile and Enter means to go on choosing where units go: play asks that next,
    at a step's prompt as where the options are listed (after '?TEXT'), and records nothing yet; Enter on an
    empty line at that step still ends the commitment sending no units. 'agon act' with the tile alone is
    refused, naming the next step and what 'done' does."""
    from agon.core import steps
    from agon.core.service import ServiceError

    svc, game, play = table
    for _ in range(20):  # a commitment where several tiles may be spent: the tile is asked, not answered by itself
        run_until(svc, game, lambda p: isinstance(p, Decision) and "commit forces" in p.prompt)
        line = svc.load(game)
        first = steps.ask(line.ruleset, line.state)
        if first.field == "tile" and len(first.values) > 1:
            break
        svc.act(game, "2")
    assert first.field == "tile" and len(first.values) > 1
    tile, player, before = first.values[-1], line.pending.player, len(line.events)
    with pytest.raises(ServiceError, match="not complete: next, where counters go .*'done' ends it here: spend"):
        svc.act(game, tile)
    child = play()
    for way in ("steps", "listed"):
        if way == "listed":
            child.sendline("-")  # back to the tile: the steps' prompt again
            child.expect(PROMPT)
            child.sendline("?a")  # the options listed instead of the steps
            child.expect("Type a number here, or the decision's steps by prefix")
            child.expect(PROMPT)
        child.sendline(tile)
        child.expect(f"where counters go \\('done': none\\) \\(so far: {tile};")
        child.expect("Enter ends the decision here")
        child.expect(PROMPT)
        assert len(svc.load(game).events) == before  # nothing recorded
    child.sendline("")  # Enter alone at that step: done
    child.expect(f"#[0-9]+ +{player} spends .* and sends no units")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert svc.load(game).events[before].placements == ()


def test_the_one_tile_play_fills_in_by_itself_may_be_typed_anyway_where_counters_go_is_asked(table):
    """With one eligible tile play opens at "where counters go"; a person who types the tile there anyway (as where
    several may be spent) has it taken as the tile, and the place after it as the place."""
    from agon.core import steps

    svc, game, play = table
    for _ in range(40):  # a commitment where one tile may be spent: it is filled in by itself
        run_until(svc, game, lambda p: isinstance(p, Decision) and "commit forces" in p.prompt)
        line = svc.load(game)
        first = steps.ask(line.ruleset, line.state)
        if first.field == "tile" and len(first.values) == 1:
            break
        svc.act(game, "2")
    assert first.field == "tile" and len(first.values) == 1
    tile = first.values[0]
    rs, s = line.ruleset, line.state
    chosen, where = steps.forward(rs, s, (), first)
    assert where.field == "location"
    place = next(v for v in where.values if v != steps.DONE)
    child = play()
    child.sendline(f"{tile} {place}")
    child.expect(f"at {place}: attack or defend|which counter to send to {place}")
    child.expect(f"so far: {tile} {place}")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert len(svc.load(game).events) == len(line.events)  # nothing recorded yet


STOPPED = "error: stopped (Ctrl-C); every decision so far is recorded. Go on later with: agon play "


def test_ctrl_c_at_the_prompt_ends_play_with_status_130_and_one_line_while_q_ends_it_with_0(table):
    """Ctrl-C ends ``play`` as it ends every other command (status 130, one line saying what is kept), so a script
    or a shell can tell a game stopped by it from one quit with ``q``; what was recorded before it stays."""
    svc, game, play = table
    child = play()
    child.sendline("perikles brasidas alkibiades")
    child.expect("Special tiles are dealt")
    child.expect(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130, child.before
    said = [re.sub(r"\x1b\[[0-9;]*m", "", ln) for ln in child.before.splitlines() if ln.strip()]
    assert said[-1].strip() == STOPPED + game, said  # one line, the last one
    assert sum("stopped" in ln.lower() for ln in said) == 1, said
    assert len(svc.load(game).events) == 2  # the entry typed before Ctrl-C is kept
    child = play()
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_at_a_prompt_read_from_a_pipe_ends_play_with_status_130_too(table, tmp_path):
    """Without a terminal (stdin a pipe, as a script drives it) the prompt is read otherwise; Ctrl-C (SIGINT) still
    ends ``play`` with 130 and the one line, and the end of the input (Ctrl-D) still quits as ``q`` does."""
    import signal
    import subprocess

    svc, game, _ = table
    cmd = agon_command()
    env = dict(os.environ, AGON_DB=str(tmp_path / "agon.db"), COLUMNS="250", NO_COLOR="1")
    proc = subprocess.Popen([*cmd, "play", game], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, text=True, preexec_fn=sigint_default)
    out = ""
    while PROMPT not in out:
        ch = proc.stdout.read(1)
        assert ch, out
        out += ch
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out + rest, err)
    assert err.strip() == STOPPED + game, err
    done = subprocess.run([*cmd, "play", game], input="", capture_output=True, env=env, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Stopped; every decision so far is recorded" in done.stdout


def test_ctrl_c_at_replay_pause_ends_it_with_status_130_and_the_line_every_command_says(table, tmp_path):
    """'agon replay --pause' waits for Enter after each step: Ctrl-C there ends it as it ends every command (it
    ended with status 0 and no word, as Ctrl-D does), while Ctrl-D still ends it quietly."""
    import signal
    import subprocess

    svc, game, _ = table
    cmd = [*agon_command(), "replay", game, "--pause"]
    env = dict(os.environ, AGON_DB=str(tmp_path / "agon.db"), COLUMNS="250", NO_COLOR="1")
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            text=True, preexec_fn=sigint_default)
    out = ""
    while "Enter for the next step" not in out:
        ch = proc.stdout.read(1)
        assert ch, out
        out += ch
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out + rest, err)
    assert err.strip() == "error: stopped (Ctrl-C); what was recorded before it stays recorded", err
    done = subprocess.run(cmd, input="", capture_output=True, env=env, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")


def test_digits_that_begin_a_sea_space_typed_in_full_are_not_taken_as_an_option_number(sqlite_svc, tmp_path):
    """Adamastor's sea spaces begin with their column's digits: '1' of '1c' typed where the fleet's moves are listed
    by number is not option 1 (the fleet sailing elsewhere) but the start of the space, recorded once named."""
    svc = sqlite_svc
    game = svc.new_game(NewGame("adamastor", players=("Ana",), seed=3, table=True))
    for typed in ("r3", "0b", "c32 c19 c9 c1 c2 c3", "16"):  # the map, the fleet, the deal; a sail of 5 points
        svc.act(game, typed)
    line = svc.load(game)
    moves = [ev for ev in line.ruleset.legal(line.state) if getattr(ev, "to", "").startswith("1")]
    first = line.ruleset.legal(line.state)[0]
    assert len(line.ruleset.legal(line.state)) < 10 and [ev.to for ev in moves] == ["1b", "1c"]
    assert first.to == "0a"  # what '1' alone would have recorded
    child = spawn_play(tmp_path, game)
    child.send("1c")
    child.expect("Ana sails the fleet from 0b to 1c for 3 points")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert svc.load(game).events[len(line.events)] == moves[1]


def test_a_listed_decision_s_first_step_typed_and_enter_asks_its_next_step(sqlite_svc, tmp_path):
    """Where a Peloponnes bid's options are listed, a power card typed alone and Enter asks for the coin cards (as a
    step-by-step decision's first steps do), rather than refusing the decision as not complete."""
    from agon.events.peloponnes import BidPlaced, Coins

    svc = sqlite_svc
    game = svc.new_game(NewGame("peloponnes", players=("Ana", "Bo", "Cy"), seed=3))
    line = svc.load(game)
    assert line.pending.player == "Bo" and "A04" in line.state.row
    child = spawn_play(tmp_path, game, hand_over="Bo")  # three people at one terminal: it is handed to each
    child.send("lion\r")
    child.expect("Bo: which coin cards to bid")
    child.expect(PROMPT)
    assert svc.load(game).head.depth == line.head.depth  # nothing recorded yet, nothing refused
    child.send("2w2s\r")
    child.expect("Bo bids 4 on (A04 )?Lion Gate")
    child.expect("Cy, press Enter")
    child.send("\r")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert svc.load(game).events[len(line.events)] == BidPlaced(player="Bo", card="A04", coins=Coins(wood=2, stone=2))


def test_a_key_that_is_no_die_face_does_not_count_toward_the_dice_and_keys_after_it_stay_in_the_entry(table):
    """'7' is no face of a d6: '7651' for four dice is not taken as the roll (it was, refused, and the '2' typed
    next answered the next prompt); the entry waits for Enter and is refused whole, nothing recorded. A slip
    rubbed out with backspace leaves four faces, taken without Enter."""
    svc, game, play = table
    run_until(svc, game, lambda p: isinstance(p, Chance) and p.kind == "dice" and p.count == 4)
    before = len(svc.load(game).events)
    child = play()
    child.send("76512")
    child.send("\r")
    child.expect(re.escape("4 die values needed, 5 typed (76512)"))
    child.expect(PROMPT)
    assert len(svc.load(game).events) == before
    child.send("0651")  # no die shows 0: the entry waits; four backspaces take it back
    child.send("\x7f" * 4)
    child.send("5612")
    child.expect("attacker rolls 5\\+6=11")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert "error" not in child.before
    after = svc.load(game)
    assert len(after.events) == before + 1 and after.events[before].attacker == (5, 6)


def test_a_dash_first_on_the_line_goes_back_before_the_steps_after_it_and_one_elsewhere_is_refused_saying_where(
        table):
    """'-' goes back one step. First on a line, the steps after it replace the one taken back ('- meg' where
    Plataea was taken: Megara), taken as typed at that step; after a step typed on the same line it would take back
    a step not yet taken, and at a prompt that builds no decision there is no step: both are refused in one line
    saying what to type (they were refused as "'-' is none of the answers", or "no item '-' here")."""
    from agon.core import steps

    svc, game, play = table
    child = play()  # the special tiles dealt: no decision is built here
    child.sendline("peri - alk bras")
    child.expect("'-' goes back one step while a decision is built step by step, and none is being built here: 'u'"
                 " takes back the last entry; else type the entry without '-'")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    run_until(svc, game, lambda p: isinstance(p, Decision) and "commit forces" in p.prompt)
    line = svc.load(game)
    rs, s = line.ruleset, line.state
    chosen, now = steps.forward(rs, s, (), steps.ask(rs, s))
    assert now.field == "location" and {"Plataea", "Megara"} <= set(now.values), now  # the one tile taken by itself
    child = play()
    child.sendline("pla")
    child.expect("at Plataea: attack or defend")
    child.expect(PROMPT)
    child.send("- meg")  # back one step, then Megara, taken as soon as it can only be Megara
    child.expect("Megara ")
    child.send("\r")
    child.expect(r"at Megara: attack or defend \(so far: athens-2 Megara")
    child.expect(PROMPT)
    child.sendline("att - def")
    child.expect(re.escape("'-' goes back one step already taken, so it stands alone or first on the line ('- def':"
                           " back one step, then the rest); a step typed on this line is not taken yet: type the"
                           " line again without it"))
    child.expect(PROMPT)
    child.sendline("- -")  # two steps back: where counters go, the tile having had no other answer
    child.expect(r"where counters go \('done': none\) \(so far: athens-2;")
    child.expect(PROMPT)
    child.sendline("-")  # the first step asked: nothing before it to go back to, said (it was silent)
    child.expect("Nothing to go back to: this is the first step asked of this decision. 'u' takes back the last"
                 " entry recorded")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert len(svc.load(game).events) == len(line.events)  # nothing recorded

"""scripts/keystrokes.py types the shortest input agon play takes: checked on its helpers (the whole measurement
types every shipped replay's game, played anew at today's ruleset version, through a pty and takes minutes; the
README states its figures)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from agon.core import entry, registry, steps
from agon.core.transfer import import_data

SCRIPT = Path(__file__).parent.parent / "scripts" / "keystrokes.py"


def load():
    spec = importlib.util.spec_from_file_location("keystrokes", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("keystrokes", mod)  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


def test_the_shortest_input_names_the_item_and_no_shorter_one_does():
    ks = load()
    items = ["any", "argos-2", "argos-candidate", "athens-2", "athens-assassin", "athens-candidate", "sparta-2"]
    for item in items:
        short = ks.shortest_item(item, items)
        assert entry.resolve(short, items) == item
        for cut in range(1, len(short)):
            try:
                assert entry.resolve(short[:cut], items) != item or short[:cut] in ks.RESERVED
            except entry.EntryError:
                pass
    assert ks.shortest_item("athens-candidate", items) == "atc"  # at(hens) c(andidate): not ar(gos)


def test_a_command_word_is_never_typed_as_an_entry():
    ks = load()
    assert ks.shortest_item("bowman", ["bowman", "guard"]) == "b"  # 'b' alone is an entry, not a branch
    assert ks.shortest_item("rome", ["rome", "greece"]) == "ro"  # 'r' is redo


def test_a_number_is_typed_without_its_leading_zeros():
    ks = load()
    assert ks.shortest_item("A06", ["A01", "A06", "A16"]).lower() == "a6"  # "a0" may be A01


def test_each_word_is_typed_only_until_play_takes_it_and_enter_only_where_the_entry_does_not_end_by_itself():
    from agon.cli.play_cmds import guarded, settle_items
    from agon.core.engine import Chance

    ks = load()
    items = ("c2", "c20", "megara-2", "megara-candidate", "sparta-2")
    draw = Chance("draw", "display", lambda o: None, count=2, items=items)  # type: ignore[arg-type]
    complete = guarded(lambda text: settle_items(draw, text))

    def plan(*meant):
        def valid(words, i):
            try:
                return [entry.resolve(w, items) for w in words] == list(meant[:i + 1])
            except entry.EntryError:
                return False

        return ks.plan_keys(complete, [ks.spellings(m) for m in meant], valid)

    assert plan("megara-candidate", "c20") == ("mcc20", False)  # 'mc' is taken, then 'c20': recorded, no Enter
    assert plan("megara-candidate", "c2") == ("mcc2", True)  # 'c2' may still become 'c20': Enter ends it
    assert plan("sparta-2", "c2") in (("s c2", True), ("spc2", True))  # 's' alone may become 'state' or 'seed'
    typed, keys, took, ended = ks.type_word(ks.Typing(complete), "mc")
    assert (typed.text, keys, took, ended) == ("megara-candidate ", "mc", True, False)
    # keys that go on spelling the word just taken are held back as more of it ('sp' took sparta-2; 's' alone
    # may be state or seed), so the planner never counts them as the next word
    t, _, _, _ = ks.type_word(ks.Typing(complete), "sp")
    held, _, took, _ = ks.type_word(t, "ar")  # more of sparta-2: swallowed, nothing taken
    assert not took and held.text == "sparta-2 " and held.held == "ar"
    # the next prompt after an entry that ended by itself: keys that would spell its word on get a space first
    assert ks.carried(complete, "rta-2", "r", True) == (" r", None)
    assert ks.carried(complete, "rta-2", "c20", False) == ("c20", None)


def test_help_and_an_unknown_game_answer_without_measuring(capsys):
    ks = load()
    assert ks.main(["--help"]) == 0
    assert "pseudo-terminal" in capsys.readouterr().out
    assert ks.main(["perikles"]) == 2  # a ruleset, not a replay's name: said in one line, nothing measured
    err = capsys.readouterr().err
    assert err.startswith("error: no replay 'perikles' in replays/") and "perikles-4p" in err


def table_game(svc, created):
    from agon.core.service import NewGame

    return svc.load(svc.new_game(NewGame(created.ruleset, players=created.names, seed=created.seed,
                                         cards=created.cards, table=True, options=dict(created.options))))


def test_a_replay_that_today_s_rules_play_otherwise_is_refused_at_the_event_where_it_diverges(sqlite_svc):
    ks = load()
    # perikles-4p was recorded under Perikles version 1: from version 4 every tile holder is asked before a battle
    recorded = _recorded(sqlite_svc, ks)
    assert recorded.created.ruleset_version == "1" and recorded.ruleset.version != "1"
    table = table_game(sqlite_svc, recorded.created)
    problem = ks.divergence(table, recorded.events, [e.actor for e in recorded.envelopes])
    assert problem.startswith("event #80 (battle-tile-kept by Bruno) cannot follow: ")
    assert "Ana must act now" in problem and "\n" not in problem


def test_the_game_measured_is_the_replay_s_setup_played_at_today_s_version_and_can_be_typed_at_a_table(sqlite_svc):
    ks = load()
    today = ks.played_today(sqlite_svc, "perikles-4p")
    assert today.created.ruleset_version == registry.get("perikles").version
    assert [p.name for p in today.created.players] == ["Ana", "Bruno", "Chloe", "Dario"] and today.created.seed == 8
    # the file drew its influence display from the seed (event #11); the game measured holds it as a table records
    # it, in natural order (core.chance.canonical), and version 4 would part from the file at #80 anyway
    assert today.recorded_version == "1" and today.differs_at == 11
    recorded = _recorded(sqlite_svc, ks)
    shown, drawn = today.events[11].tiles, recorded.events[11].tiles
    assert shown != drawn and sorted(shown) == sorted(drawn)
    assert list(shown) == sorted(shown, key=entry.natural_key)
    table = table_game(sqlite_svc, today.created)
    assert ks.divergence(table, today.events, today.actors) is None
    # while typing: an event play did not record as meant is named in one line, with what play said last
    n = len(table.events)
    with pytest.raises(ks.Diverged) as e:
        ks.check_progress("perikles-4p", sqlite_svc, table.game.id, today.events, n, "error: no such item\nYour choice")
    assert str(e.value) == (f"perikles-4p: the game typed through play diverged at event #{n}: play recorded nothing"
                            f" where the game has {steps.tag_label(steps.tag_of(today.events[n]))}"
                            " (play said: 'error: no such item')")


def test_the_baseline_filters_a_long_option_list_by_as_many_of_its_words_as_single_it_out(sqlite_svc):
    from agon.core.engine import option_text

    ks = load()
    today = ks.played_today(sqlite_svc, "perikles-4p")
    rs = _recorded(sqlite_svc, ks).ruleset
    state, seen = rs.initial_state(today.created), 0
    for event in today.events[1:]:
        if steps.tag_of(event) == "perikles.forces_committed":
            seen += 1
            if seen == 2:  # hundreds of commitments: no one or two of its words bring this one among the 40 shown
                break
        state = rs.apply(state, event)
    legal = list(rs.legal(state))
    n = legal.index(event) + 1
    assert len(legal) > n > ks.SHOWN
    typed = ks.today_decision(rs, state, legal, event, ks.event_obj_of(event))
    words, number = typed[1:].split("\n")
    assert typed.startswith("?") and number == str(n) and len(words.split()) > 2, typed
    shown = [i + 1 for i, ev in enumerate(legal) if words in option_text(rs, state, ev).lower()][:ks.SHOWN]
    assert n in shown


def _recorded(svc, ks):
    """The shipped perikles-4p replay, imported into ``svc``, as its line."""
    return svc.load(import_data(svc, (ks.ROOT / "replays" / "perikles-4p.jsonl").read_bytes()).game_id)


def test_the_shortest_replay_types_through_play_as_the_readme_table_says():
    """The whole measurement on the shortest replay, through the real ``agon play`` in a pty: the game typed is
    recorded event for event (the script exits 1 where play diverges, as when an Enter after an entry that ended
    by itself was swallowed by both the key reader and play, so the one legal decision waited for a third), and its
    events and keystrokes are the README table's."""
    import re
    import subprocess

    done = subprocess.run([sys.executable, str(SCRIPT), "adamastor-solo-regular"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr + done.stdout
    events, keys = re.search(r"^adamastor-solo-regular +(\d+) +\d+ +(\d+) ", done.stdout, re.M).groups()
    readme = (SCRIPT.parent.parent / "README.md").read_text()
    row = re.search(r"^\| adamastor-solo-regular \| ([\d,]+) \| ([\d,]+) \|", readme, re.M)
    assert row is not None and (row[1].replace(",", ""), row[2].replace(",", "")) == (events, keys)

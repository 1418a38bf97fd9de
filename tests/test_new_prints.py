"""What `agon new` prints, as README's command table says it: the id alone on the first line (a script reads it with
`head -1`), then the game in a sentence and the next command; with --json, an object whose fields README names."""

from __future__ import annotations

import json
import re
from pathlib import Path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def _row() -> str:
    return next(line for line in README.splitlines() if line.startswith("| `agon new RULESET"))


def test_agon_new_prints_the_id_alone_first_then_a_sentence_and_the_next_command(agon):
    lines = agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--seed", "4").stdout.splitlines()
    gid = lines[0]
    assert re.fullmatch(r"[0-9a-f]{8}", gid)
    assert re.fullmatch(r"Peloponnes Card Game for Ana, Bo \(seed 4\); \d+ events so far; .+\.", lines[1])
    assert lines[2] == f"Next: agon options {gid}"
    row = _row()
    assert "its id alone on the first line" in row and "`Next: agon options ID`" in row


def test_a_game_of_bots_alone_played_out_at_once_names_its_log_next_not_its_options(agon):
    """`agon new adamastor --bot Ana:greedy` is over as it is made: 'Next: agon options ID' led to no option at all."""
    lines = agon("new", "adamastor", "--bot", "Ana:greedy", "--seed", "1").stdout.splitlines()
    assert "; over: " in lines[1]
    assert lines[2] == f"Next: agon log {lines[0]}"
    assert "(`agon log ID` for a game of bots alone" in _row()


def test_agon_new_json_has_the_fields_readme_names(agon):
    data = json.loads(agon("new", "peloponnes", "--player", "Ana", "--bot", "Bo:random", "--json").stdout)
    assert set(data) == {"id", "ruleset", "title", "seed", "luck", "players", "events", "status"}
    assert data["luck"] > 0  # agon drew the seed: a secret luck comes with it
    assert data["players"] == [{"name": "Ana", "bot": None}, {"name": "Bo", "bot": "random"}]
    row = _row()
    assert all(f"`{field}`" in row for field in [*data, "name", "bot"])


def test_agon_new_without_a_seed_does_not_print_one_that_would_not_replay_it(agon):
    """A seed agon draws comes with a secret luck: the seed alone replays another game, so it is not shown as one."""
    line = agon("new", "peloponnes", "--player", "Ana", "--player", "Bo").stdout.splitlines()[1]
    assert re.fullmatch(r"Peloponnes Card Game for Ana, Bo \(seed and luck drawn by agon\); \d+ events so far; .+\.",
                        line)


def test_agon_new_names_the_title_given_in_its_sentence_and_its_json(agon):
    lines = agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--seed", "4",
                 "--title", "Friday club №1").stdout.splitlines()
    assert lines[1].startswith('Peloponnes Card Game "Friday club №1" for Ana, Bo (seed 4); '), lines[1]
    data = json.loads(agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--title", "Ü", "--json").stdout)
    assert data["title"] == "Ü"
    assert "its title if given" in _row()

"""The real ``agon play`` of a game whose people's seats are played by turns at one terminal (a hot seat), in a
pseudo-terminal: when the person to decide changes, the terminal is handed over (whose turn it is, their Enter, the
screen cleared), and from there on the screen holds nothing of what the person before saw that the next may not:
no card of their hand, nor the card they laid face down."""

from __future__ import annotations

import os
import re

import pexpect

from agon.core import registry
from agon.core.engine import Decision
from agon.core.service import NewGame
from tests.hidden import hidden_identifiers, leaks
from tests.test_play_pty import PROMPT, agon_command, sigint_default

CLEAR = "\x1b[H\x1b[2J\x1b[3J"


def after_clear(before: str) -> str:
    """What the screen holds from its last clearing on, without the styles (dim) rich writes."""
    assert CLEAR in before, "the screen was not cleared"
    return re.sub(r"\x1b\[[0-9;]*m", "", before.rsplit(CLEAR, 1)[1])


def spawn(tmp_path, game: str) -> pexpect.spawn:
    cmd = agon_command()
    env = dict(os.environ, AGON_DB=str(tmp_path / "agon.db"), COLUMNS="250", NO_COLOR="1")
    return pexpect.spawn(cmd[0], [*cmd[1:], "play", game], env=env, encoding="utf-8", timeout=60,
                         dimensions=(60, 250), preexec_fn=sigint_default)


def test_the_next_persons_screen_holds_nothing_of_the_hand_or_face_down_card_before(sqlite_svc, tmp_path):
    svc = sqlite_svc
    game = svc.new_game(NewGame("pergamemnon", players=("Chloé", "Ana"), seed=3))
    rs = registry.get("pergamemnon")
    assert svc.load(game).pending == Decision("Ana", "recruit a creature or attack")
    child = spawn(tmp_path, game)

    # play begins with a hand-over too: whoever started it may not be the person to decide
    child.expect("Ana decides first: pass the terminal to Ana.")
    child.expect(r"Ana, press Enter\.")
    child.send("\r")
    child.expect(PROMPT)
    assert "Slinger, Spearman, Elephant" in child.before  # Ana's hand, to Ana
    child.send("1")  # Ana recruits the Siren: option 1 of 4 ends by itself

    child.expect(r"Chloé decides next: pass the terminal to Chloé\.")
    child.expect(r"Chloé, press Enter \(what Ana was shown is cleared from the screen\)\.")
    # the Enter Ana types after her entry by habit is swallowed, as at a prompt: the next one is Chloé's
    child.send("\r")
    child.send("\r")
    child.expect(PROMPT)
    chloe_screen = after_clear(child.before)
    line = svc.load(game)
    hidden = hidden_identifiers(rs, line.state, "Chloé")
    assert hidden, "Ana holds nothing hidden from Chloé: the check could not fail"
    assert not leaks(chloe_screen, hidden), leaks(chloe_screen, hidden)
    assert "the last events:" in chloe_screen and "#7    Ana draws 3 cards." in chloe_screen  # as Chloé may see it
    assert "Still:" not in chloe_screen  # neither Enter answered Chloé's prompt

    child.send("1")  # Chloé attacks Ana and lays the Chariot face down
    child.expect("lays the Chariot \\(spear 7\\) face down")  # told to Chloé, who chose it
    child.expect(r"Ana, press Enter \(what Chloé was shown is cleared from the screen\)\.")
    child.send("\r")
    child.send("\r")
    child.expect(PROMPT)
    ana_screen = after_clear(child.before)
    line = svc.load(game)
    hidden = hidden_identifiers(rs, line.state, "Ana")
    assert any("Chariot" in h or "chariot" in h for h in hidden), hidden
    assert not leaks(ana_screen, hidden), leaks(ana_screen, hidden)
    assert "Chloé attacks Ana, declaring a spear, and lays a card face down." in ana_screen
    assert "Ana lays the Horseman (armour 3) against Chloé's face-down card (spear)" in ana_screen
    child.sendline("q")
    child.expect("Stopped")
    child.expect(pexpect.EOF)

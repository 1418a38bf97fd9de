"""Words that name a player who does not decide now. At a three-player Pergamemnon table where Ana is to act and
Chloe's nation card is inactive (she may not be attacked), ``att chl spear aga`` was recorded as Ana's attack on Bo
with the Hannibal: ``ch`` abbreviates carthage.hannibal, and ``agon play`` took it at once, before the ``l``. A word
that names a player who is not the one asked (and no answer as nearly) is refused naming whose turn it is; the log
is unchanged."""

from __future__ import annotations

import pexpect
import pytest

from agon.cli.keyread import Typing
from agon.cli.play_cmds import beginning, completion
from agon.core.engine import Chance
from agon.core.service import NewGame, ServiceError
from tests.test_play_pty import PROMPT, spawn_play

TURN = "names Chloe, but it is Ana's turn to decide, not Chloe's"


@pytest.fixture
def chloe_out(sqlite_svc):
    svc = sqlite_svc
    gid = svc.new_game(NewGame("pergamemnon", players=("Ana", "Bo", "Chloe"), seed=2, table=True))
    for _ in range(8):  # luck drawn from the seed, the first option at each decision
        svc.act(gid, "seed" if isinstance(svc.load(gid).pending, Chance) else "1")
    line = svc.load(gid)
    assert line.pending.player == "Ana"
    assert [p.active for p in line.state.players] == [True, True, False]  # Chloe may not be attacked
    return svc, gid


@pytest.mark.parametrize("typed", ["att chl spear aga", "att ch", "att chloe"])
def test_a_word_naming_another_player_is_refused_naming_whose_turn_it_is(chloe_out, typed):
    svc, gid = chloe_out
    with pytest.raises(ServiceError) as e:
        svc.act(gid, typed)
    said = str(e.value)
    # the decisions named by their numbers in `agon options`
    assert f"which decision: '{typed.split()[1]}' {TURN}; possible: 3: Ana attacks Bo" in said, said
    assert "\n" not in said
    assert len(svc.load(gid).events) == 9  # nothing recorded


def test_the_defender_named_is_read_as_before(chloe_out):
    svc, gid = chloe_out
    svc.act(gid, "att bo spear")
    assert svc.load(gid).events[-1].defender == "Bo"


def test_play_waits_while_a_word_may_still_name_another_player_and_refuses_it_at_enter(chloe_out, tmp_path):
    svc, gid = chloe_out
    line = svc.load(gid)
    t = Typing(completion(line, None, ()), begins=beginning(line, None, ()))
    for k in "att chl spear aga":
        assert t.key(k)[1] is None  # 'ch' is not taken for carthage.hannibal: it may be Chloe
    child = spawn_play(tmp_path, gid)
    child.send("att chl spear aga\r")  # read key by key, as typed
    child.expect(f"'chl' {TURN}")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert len(svc.load(gid).events) == 9

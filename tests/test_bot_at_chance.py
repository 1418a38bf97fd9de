"""``agon act GAME bot`` where a table game needs a chance outcome (dice typed as rolled): the refusal says that
``bot`` lets only a bot's seat decide, not only how the dice are typed, as if ``bot`` were dice typed wrong."""

from __future__ import annotations

from agon.core.engine import Chance
from agon.core.service import NewGame
from tests.test_play_pty import run_until


def test_bot_at_a_tables_dice_says_it_lets_only_a_bots_seat_decide(sqlite_svc, agon, tmp_path, monkeypatch):
    monkeypatch.setenv("AGON_DB", str(tmp_path / "agon.db"))
    svc = sqlite_svc
    game = svc.new_game(NewGame("perikles", players=("Ana", "Bo", "Cy"), seed=5, table=True))
    run_until(svc, game, lambda p: isinstance(p, Chance) and p.kind == "dice")
    depth = svc.load(game).head.depth
    said = agon("act", game, "bot", ok=False).stderr.strip()
    assert said.startswith("error: 'bot' works only when a bot's seat must decide; a chance outcome is needed now:"
                           " battle dice at "), said
    assert said.endswith("type 4 die values as numbers, e.g. '3 3 3 3' or '3333'; or type 'seed' to let agon"
                         " draw it"), said
    assert svc.load(game).head.depth == depth  # nothing recorded

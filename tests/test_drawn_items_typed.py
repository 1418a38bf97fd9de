"""At a table a card is typed as it is seen. One that is not where the draw comes from, because it was drawn already
(a Perikles tile now on the display, a Peloponnes power card revealed in an earlier round) or lies under the era
drawn now, was refused as "no item 'corinth-assassin' here" and a list: the table, which sees the card, could not
tell a typo from a card drawn twice. The refusal says what became of it, as every seat knows it (Chance.gone)."""

from __future__ import annotations

import pytest

from agon.core import chance
from agon.core.engine import Chance
from agon.core.service import NewGame, Service, ServiceError
from agon.events.store import Store
from tests.test_cli_surface import one_line


def _until(svc: Service, gid: str, label: str, pick: str = "1") -> Chance:
    """Play on (luck from the seed, each decision the first listed) until a draw whose label begins so."""
    while not (isinstance(p := svc.load(gid).pending, Chance) and p.label.startswith(label)):
        svc.act(gid, "seed" if isinstance(p, Chance) else pick)
    return p


def _refused(svc: Service, gid: str, typed: str) -> str:
    depth = svc.load(gid).head.depth
    with pytest.raises(ServiceError) as held:
        svc.act(gid, typed)
    assert svc.load(gid).head.depth == depth
    said = str(held.value)
    assert "\n" not in said
    return said


def test_a_perikles_tile_typed_at_a_refill_that_is_on_the_display_is_told_so(tmp_path):
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = svc.new_game(NewGame("perikles", players=("Ana", "Bo", "Cy"), seed=3, table=True))
    _until(svc, gid, "influence tiles displayed")
    svc.act(gid, "cor-ass spa-ass arg-ass meg-2 the-2 cor-2 any spa-c spa-2 ath-c")  # the display, as the table sees it
    refill = _until(svc, gid, "influence tile refilling")
    line = svc.load(gid)
    shown = [t for t in ("corinth-assassin", "sparta-assassin", "argos-assassin") if t in line.state.display]
    assert shown and all(t not in refill.items for t in shown), line.state.display
    said = _refused(svc, gid, shown[0])
    assert said.startswith(f"influence tile refilling the display: no item '{shown[0]}' here: {shown[0]} has already"
                           " been drawn (it is on the display); possible: "), said
    said = _refused(svc, gid, "xyz")  # a typo is still a typo
    assert "no item 'xyz' here; possible: " in said and "drawn" not in said


def test_a_peloponnes_power_card_already_revealed_or_of_a_later_era_is_told_so(tmp_path, agon):
    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = svc.new_game(NewGame("peloponnes", players=("Ana",), bots=(("Bo", "greedy"),), seed=4, table=True))
    _until(svc, gid, "power cards revealed in round 1")
    said = _refused(svc, gid, "agora")
    assert "no item 'agora' here: B01 Agora is an era B card, under the era A cards revealed now; possible: " in said
    svc.act(gid, "pal soh well fish carp forest")
    _until(svc, gid, "power cards revealed in round 2", pick="1")
    for typed in ("a02", "palisade", "pal"):
        said = _refused(svc, gid, typed)
        assert f"no item '{typed}' here: A02 Palisade has already been revealed; possible: " in said, said


def test_an_item_of_a_blind_or_unseen_draw_says_nothing_of_what_is_gone():
    gone = (("c1", "", "has already been drawn"),)
    for hidden in ({"blind": True}, {"unseen": ("c2", "c3")}):
        c = Chance("draw", "test", lambda o: o, items=("c2", "c3"), gone=gone, **hidden)  # type: ignore[arg-type]
        with pytest.raises(chance.BadOutcome) as held:
            chance.parse(c, "c1")
        assert "drawn" not in str(held.value)


def test_agon_act_at_a_table_names_a_tile_drawn_already(agon):
    import json

    gid = json.loads(agon("new", "perikles", "--player", "Ana", "--player", "Bo", "--player", "Cy", "--seed", "3",
                          "--table", "--json").stdout)["id"]
    for _ in range(30):
        said = agon("options", gid).stdout
        if "influence tiles displayed" in said.splitlines()[0]:
            break
        agon("act", gid, "seed" if "chance needed" in said.splitlines()[0] else "1")
    agon("act", gid, "cor-ass spa-ass arg-ass meg-2 the-2 cor-2 any spa-c spa-2 ath-c")
    agon("act", gid, "cor-ass")  # Ana takes the Corinth assassin: the display is refilled next
    one_line(agon("act", gid, "spa-ass", ok=False), 1, "error: influence tile refilling the display: no item"
             " 'spa-ass' here: sparta-assassin has already been drawn (it is on the display); possible: ")


def test_a_perikles_location_dealt_in_an_earlier_turn_is_told_so(sqlite_svc):
    from pathlib import Path

    from agon.core.games.perikles import RULESET as PERIKLES
    from agon.core.transfer import import_data
    from agon.events.perikles import LocationsDealt

    replay = Path(__file__).resolve().parent.parent / "replays" / "perikles-4p.jsonl"
    game = import_data(sqlite_svc, replay.read_bytes()).game_id
    s = [st.before for st in sqlite_svc.load(game).steps() if isinstance(st.event, LocationsDealt)][1]
    deal = PERIKLES.pending(s)
    assert deal.label == "turn 2 location tiles" and "Melos" in s.dealt and "Melos" not in deal.items
    with pytest.raises(chance.BadOutcome) as held:
        chance.parse(deal, "melos")
    assert str(held.value).startswith("turn 2 location tiles: no item 'melos' here: Melos was dealt in an earlier"
                                      " turn; possible: Acarnania, "), held.value

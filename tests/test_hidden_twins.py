"""Twin games: two games at a table that differ only in what one player may not see read the same to that player,
byte for byte, on every surface made for them.

The leak finder (tests/hidden.py) looks for hidden identifiers by name; a twin catches what it cannot: a hidden card
told by the length of a sentence, a coin back told by a marker's place in a plot, the order a hand was typed in, a
run of questions that is longer for one hand than another. Two table games start alike; at each chance outcome and
at each decision of a player other than the viewer, the second game may record another event than the first, where
the two differ only in what the viewer may not see (hidden identifiers, or the parts of the event the ruleset keeps
secret from them) and leave the viewer's view the same. The viewer's own decisions are the same event in both. The
twins stop where no such pair is left (a face-down card revealed, a hand played that the other game does not hold).

Then, as the viewer: the study page (``agon view --as``: every event's sentence, every state, the score timeline's
players, marks and end labels, the lines and key moments), the spectators' page data (what every player sees), the
plots (the score timeline, the auction, the battles, the voyage: each draws only what every player sees, so the
twins' plots are the same), the player's record (``agon log --as``), ``agon play``'s ``0`` (the passes of the
holders asked in turn, narrated to the first of them) and every answer ``agon serve`` gives the viewer's seat must
read the same in both games once the game's id is left out.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from agon.analysis.study import build_study, page_data
from agon.core import chance as chance_mod
from agon.core.engine import PUBLIC, Chance, Decision, Over
from agon.core.games.perikles.battle import tile_usable
from agon.core.service import NewGame, Service
from agon.events.store import Store
from tests.hidden import hidden_identifiers

VIEWER = "P1"


def _leaves(x: Any, path: tuple = ()) -> dict[tuple, Any]:
    """Every leaf of plain nested data by its path; a list's length is a leaf of its own (path ending in "#")."""
    out: dict[tuple, Any] = {}
    if isinstance(x, dict):
        for k, v in x.items():
            out.update(_leaves(v, (*path, k)))
    elif isinstance(x, list | tuple):
        out[(*path, "#")] = len(x)
        for i, v in enumerate(x):
            out.update(_leaves(v, (*path, i)))
    else:
        out[path] = x
    return out


def _apart(line, a, b) -> int:
    """How many leaves of events ``a`` and ``b`` differ."""
    la, lb = _leaves(line.codec.to_obj(a)), _leaves(line.codec.to_obj(b))
    return sum(la[k] != lb.get(k) for k in la)


def unseen_difference(line, a, b, viewer: str) -> bool:
    """Whether events ``a`` and ``b``, each possible at ``line``'s head, differ only in what ``viewer`` may not see:
    in identifiers hidden from them before or after (tests/hidden.py), or under a part of the event the ruleset keeps
    secret from them (``secrets``: a coin card's back), never in a list's length."""
    rs, state = line.ruleset, line.state
    la, lb = _leaves(line.codec.to_obj(a)), _leaves(line.codec.to_obj(b))
    if la.keys() != lb.keys():
        return False
    before = hidden_identifiers(rs, state, viewer)
    hid_a = before | hidden_identifiers(rs, rs.apply(state, a), viewer)
    hid_b = before | hidden_identifiers(rs, rs.apply(state, b), viewer)
    secret = [tuple(p) for p, who in getattr(rs, "secrets", lambda s, e: [])(state, a) if who != viewer]
    if _told_later(line, a) != _told_later(line, b):
        return False
    return all(la[k] == lb[k] or (la[k] in hid_a and lb[k] in hid_b)
               or (k[-1] != "#" and any(k[:len(p)] == p for p in secret)) for k in la)


def _told_later(line, event) -> Any:
    """What of a hidden event the rules tell everyone later, though no view may ever hold it: a Peloponnes coin card's
    back that may go onto the face-up discard pile (a bid's, a construction's, a cover's); the kinds of the
    counters a Perikles commitment lays face down at each location and side are told as the location's battles begin,
    even where every battle there is won without dice and the counters are home again before any view shows them
    (perikles/RULES.md, 'Views'; a battle won without dice names the kinds on both sides)."""
    if line.ruleset.name == "peloponnes":
        # the backs a bid, a coin card under a construction or a cover may take onto the face-up discard pile
        # (peloponnes/RULES.md, 'Who is told what': a winning bid's as its auction ends, a construction's as it is
        # finished or lost, a cover's as it is lifted at the end or its card removed)
        if type(event).__name__ == "CoinsDrawn":  # a drawn card's back is told only as it is paid or discarded
            return None
        return repr(getattr(event, "coins", getattr(event, "coin", None)))
    if line.ruleset.name != "perikles" or not hasattr(event, "placements"):
        return None
    data = line.state.data
    return sorted((p.location, p.side, data.counter(p.counter).kind) for p in event.placements)


def twins(svc: Service, ruleset: str, players: int, seed: int, until=None) -> tuple[str, str, int]:
    """Two table games of ``ruleset`` for P1..Pn that differ only in what ``VIEWER`` may not see (module docstring):
    their ids and how many events differ. Played until no such pair of events is left, the game ends, or
    ``until(line)`` holds for the first game."""
    names = tuple(f"P{i + 1}" for i in range(players))
    games = [svc.new_game(NewGame(ruleset, players=names, seed=seed, table=True)) for _ in range(2)]
    rng = random.Random(seed)
    differ = 0
    for _ in range(600):
        la, lb = (svc.load(g) for g in games)
        rs, pa, pb = la.ruleset, la.pending, lb.pending
        if isinstance(pa, Over) or type(pa) is not type(pb) or (until is not None and until(la)):
            break
        if isinstance(pa, Chance):  # typed at the table as people type it: the second game's groups in reverse
            r = rng.random()
            outcome = chance_mod.draw(pa, random.Random(r))
            tries = [((pa.build(outcome), _typed(outcome, pa)),
                      [(pb.build(o), _typed(o, pb, backwards=True))
                       for o in (chance_mod.draw(pb, random.Random(r + j)) for j in range(40))])]
        else:
            mine, theirs = list(rs.legal(la.state)), list(rs.legal(lb.state))
            rng.shuffle(mine)
            rng.shuffle(theirs)
            tries = [((a, _json(la, a)), [(a, _json(lb, a))] if pa.player == VIEWER else [(b, _json(lb, b))
                                                                                          for b in theirs])
                     for a in mine[:12]]
        fits: list = []
        for first, candidates in tries:
            a, typed_a = first
            seen = rs.view(rs.apply(la.state, a), VIEWER)
            fits = [(b, typed) for b, typed in candidates
                    if rs.view(rs.apply(lb.state, b), VIEWER) == seen and unseen_difference(la, a, b, VIEWER)]
            if fits:
                break
        if not fits:
            break
        others = [f for f in fits if f[0] != a]
        far = max(others, key=lambda f: _apart(la, a, f[0]), default=None)  # as unlike the first game's as may be
        b, typed_b = far if far is not None and rng.random() < 0.5 else next((f for f in fits if f[0] == a), fits[0])
        differ += b != a
        who = pa.player if isinstance(pa, Decision) else None
        svc.act(games[0], typed_a, as_player=who)
        svc.act(games[1], typed_b, as_player=who)
    return games[0], games[1], differ


def _json(line, event) -> str:
    return json.dumps(line.codec.to_obj(event))


def _typed(outcome: tuple, chance: Chance, backwards: bool = False) -> str:
    """A chance outcome as a person types it at the table; ``backwards``: each group whose order the rules do not read
    (``Chance.unordered``) typed the other way round."""
    out, at = list(outcome), 0
    for size in chance.unordered if backwards else ():
        out[at:at + size] = reversed(out[at:at + size])
        at += size
    return " ".join(map(str, out))


def alike(one: Any, other: Any, ids: tuple[str, str]) -> tuple[str, str]:
    """Two answers as text (JSON for data), each game's id replaced by the same word."""
    def text(x: Any, gid: str) -> str:
        x = x if isinstance(x, str) else json.dumps(x, ensure_ascii=False, sort_keys=True, default=str)
        return x.replace(gid, "GAME")

    return text(one, ids[0]), text(other, ids[1])


def figures(line) -> dict[str, str]:
    """Every plot of the line as plotly's JSON."""
    import plotly.io as pio

    from agon.analysis.figures import scores_figure
    from agon.analysis.games import figures_for

    made = {"scores": scores_figure([line]), **{k: f(line) for k, f in figures_for(line.ruleset.name).items()}}
    return {k: pio.to_json(fig, validate=False) for k, fig in made.items()}


TWINS = [
    pytest.param("pergamemnon", 2, 2, id="pergamemnon-2p"),
    pytest.param("pergamemnon", 3, 10, id="pergamemnon-3p"),
    pytest.param("perikles", 3, 12, id="perikles-3p"),
    pytest.param("peloponnes", 3, 7, id="peloponnes-3p"),
    pytest.param("adamastor", 2, 5, id="adamastor-2p"),
]


@pytest.mark.parametrize(("ruleset", "players", "seed"), TWINS)
def test_the_study_page_and_the_plots_read_the_same_whatever_the_others_hold(sqlite_svc, ruleset, players, seed):
    svc = sqlite_svc
    ga, gb, differ = twins(svc, ruleset, players, seed)
    la, lb = svc.load(ga), svc.load(gb)
    ids = (ga, gb)
    assert differ and la.head.depth >= 20, (differ, la.head.depth)  # the twins did differ, over a game's stretch
    # the checks below can fail: told in full, the twins differ
    full = alike(page_data([la]), page_data([lb]), ids)
    assert full[0] != full[1]

    mine = alike(page_data([la], as_player=VIEWER), page_data([lb], as_player=VIEWER), ids)
    assert mine[0] == mine[1]
    page = alike(build_study([la], as_player=VIEWER, plotly_src="plotly.js"),
                 build_study([lb], as_player=VIEWER, plotly_src="plotly.js"), ids)
    assert page[0] == page[1]
    spectators = alike(page_data([la], as_player=PUBLIC), page_data([lb], as_player=PUBLIC), ids)
    assert spectators[0] == spectators[1]
    record = alike([(r.sentence, r.shown) for r in svc.log(la, VIEWER)],
                   [(r.sentence, r.shown) for r in svc.log(lb, VIEWER)], ids)
    assert record[0] == record[1]
    plots_a, plots_b = figures(la), figures(lb)
    for kind in plots_a:
        drawn = alike(plots_a[kind], plots_b[kind], ids)
        assert drawn[0] == drawn[1], kind


def _first_holder_asked(line) -> bool:
    """P1 is asked to play or keep a special tile before a battle, and another player holds an unused one (from
    ruleset version 4 every such holder is asked after P1, whatever their tile)."""
    pending, s = line.pending, line.state
    return (isinstance(pending, Decision) and pending.player == VIEWER and "special tile" in pending.prompt
            and not all(s.used[1:]))


@pytest.mark.parametrize("seed", [26, 78])
def test_0_at_a_table_tells_the_first_holder_nothing_of_the_tiles_the_others_keep(agon, tmp_path, seed):
    """A Perikles table whose players differ only in the special tiles P2 and P3 were dealt face down: at P1's
    question before a battle, ``agon play`` offers ``0`` (P1 keeps, and so do the holders asked after), and what it
    prints, records and tells P1 (the narration of the others' passes included) reads the same in both games."""
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")  # the store the command line records in (AGON_DB)
    try:
        ga, gb, differ = twins(Service(store), "perikles", 3, seed, until=_first_holder_asked)
        lines = [Service(store).load(g) for g in (ga, gb)]
    finally:
        store.close()
    assert differ and all(_first_holder_asked(ln) for ln in lines)
    specials = [ln.state.specials for ln in lines]
    assert specials[0][0] == specials[1][0] and specials[0] != specials[1]  # P1's own tile alike, another's not
    # a holder asked after P1 could play their tile in one game and may only keep it in the other
    assert [tile_usable(lines[0].state, p) for p in (1, 2)] != [tile_usable(lines[1].state, p) for p in (1, 2)]
    ids = (ga, gb)
    played = alike(agon("play", ga, input="0\nq\n").stdout, agon("play", gb, input="0\nq\n").stdout, ids)
    assert "0: P1 keeps their special tile for later. So do" in played[0]
    assert played[0] == played[1]
    record = alike(agon("log", ga, "--as", VIEWER).stdout, agon("log", gb, "--as", VIEWER).stdout, ids)
    assert "P2 keeps their special tile for later." in record[0]
    assert record[0] == record[1]


@pytest.mark.parametrize(("ruleset", "players", "seed"), [TWINS[1], TWINS[3]])
def test_the_server_answers_a_seat_the_same_whatever_the_others_hold(tmp_path, ruleset, players, seed):
    """``agon serve`` on the twins' store: every answer to P1's seat (the state, the options, the record, the lines),
    to a spectator and to the watch page's data reads the same in both games, once the game's id and position (its
    head's id, a hash of events that differ) are left out."""
    import re
    import warnings

    from agon.core import seats
    from agon.server.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    url = f"sqlite:///{tmp_path / 'club.db'}"
    store = Store(url)
    try:
        svc = Service(store)
        ga, gb, differ = twins(svc, ruleset, players, seed)
        tokens = [seats.issue(svc, g)[VIEWER] for g in (ga, gb)]
    finally:
        store.close()
    assert differ
    app = create_app(url, poll=0.05)
    with TestClient(app) as c:
        answers = []
        for gid, token in zip((ga, gb), tokens):
            mine = {"Authorization": f"Bearer {token}"}
            got = [c.get(f"/api/games/{gid}{route}", headers=mine).text
                   for route in ("", "/options", "/log", "/branches")]
            got += [c.get(f"/api/games/{gid}{route}").text for route in ("", "/log")]
            got.append(c.get(f"/games/{gid}/watch.json").text)
            shown = re.sub(r'"position":"\d+\.[0-9a-f]+"', '"position":"P"', "\n".join(got))
            answers.append(shown.replace(gid, "GAME"))
    app.state.service.store.close()
    assert '"you":"P1"' in answers[0]
    assert answers[0] == answers[1]

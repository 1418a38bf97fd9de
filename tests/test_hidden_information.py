"""Hidden information is kept at every surface, for every ruleset (a conformance suite; helper: tests/hidden.py).

What a player may not see is read from the ruleset's own views: the identifiers its full view has and that player's
view lacks. In seeded games, at every decision, none may appear in the options offered to the acting player (text
and JSON) or in the prompt; no event's sentence or JSON object names to a player what that player may not be told
(their own record), nor to anyone what some player may not be told (the public record). Then the same games are
played through the command line by a person against bots, and `agon options`, `agon act --json`, `agon play`,
`agon state --as`, `agon log` (public, `--as`, text and `--json`) and `agon view --as` are checked, the commands
with `--as` for every player, and `agon state`, `agon replay` and `agon view` `--public` (what a spectator sees: no
state, sentence or part of the page's HTML names what some player may not see).
"""

from __future__ import annotations

import json
import random
import re

import msgspec
import pytest

from agon.analysis.study import states_of
from agon.core import registry
from agon.core.autoplay import play_out
from agon.core.engine import HIDDEN, PUBLIC, Decision, event_as, narrate_as, option_text
from agon.core.service import Service
from agon.events.base import GameCreated, PlayerSeat
from agon.events.store import Store
from agon.server.api import HOST, pending_for
from tests.hidden import hidden_identifiers, leaks, log_leaks, moments, visible

# Seeded games with hidden information: every ruleset, at a table size where something is hidden from someone.
GAMES = [
    pytest.param("pergamemnon", 3, {}, 4, id="pergamemnon-3p"),
    pytest.param("pergamemnon", 2, {}, 5, id="pergamemnon-2p"),
    pytest.param("peloponnes", 3, {}, 4, id="peloponnes-3p"),
    pytest.param("perikles", 3, {}, 4, id="perikles-3p"),
    pytest.param("adamastor", 2, {}, 4, id="adamastor-2p"),
    pytest.param("adamastor", 2, {"less_luck": "true"}, 7, id="adamastor-2p-less-luck"),
]

COIN_WORDS = re.compile(r"\b(wood|stone|grain|people)\b")
ON_THE_PILE = re.compile(r", the winning bids' coin cards going face up onto the discard pile \([^)]*\)"
                         r"|; \S+'s \d+ coin cards? from [^;]*? go(?:es)? face up onto the discard pile"
                         r"|; the discard pile is shuffled into a new coin deck of [^;.]*")
"""Peloponnes: the clauses telling the coin cards that go onto the face-up discard pile (a winning bid's, a
tableau's) and the new deck formed from it, which name backs every seat sees (peloponnes/RULES.md, 'Who is told
what'; what they name is checked against the state in tests/peloponnes/test_discard_pile.py)."""


def off_the_pile(text: str) -> str:
    """``text`` without the clauses that tell the face-up discard pile (``ON_THE_PILE``)."""
    return ON_THE_PILE.sub("", text)


def _created(name: str, n: int, options: dict, seed: int) -> GameCreated:
    rs = registry.get(name)
    players = tuple(PlayerSeat(f"P{i + 1}", "random") for i in range(n))
    return GameCreated(ruleset=name, ruleset_version=rs.version, players=players, seed=seed, options=options,
                       cards=rs.default_cards())


@pytest.mark.parametrize(("name", "n", "options", "seed"), GAMES)
def test_options_sentences_and_payloads_name_nothing_their_reader_may_not_see(name, n, options, seed):
    rs = registry.get(name)
    created = _created(name, n, options, seed)
    events, _, _ = play_out(rs, created)
    at = moments(rs, events, created.names)
    state = rs.initial_state(created)
    hidden_somewhere = False
    for k, ev in enumerate(events[1:], start=1):
        before = at[k - 1]
        pending = rs.pending(state)
        if isinstance(pending, Decision):
            p = pending.player
            legal = rs.legal(state)
            texts = "\n".join([pending.prompt, *(option_text(rs, state, o) for o in legal)])
            assert not leaks(texts, before.hidden[p]), (k, p, leaks(texts, before.hidden[p]))
            # The options' JSON (as `agon options --json` prints it): the player's own decisions, in full.
            assert not leaks(msgspec.json.encode(legal).decode(), before.hidden[p]), (k, p)
        for p in created.names:
            told = [narrate_as(rs, state, ev, p), event_as(rs, state, ev, p)]
            assert not leaks(told, at[k].unnamable[p]), (k, p, told, leaks(told, at[k].unnamable[p]))
        public = [rs.narrate(state, ev), narrate_as(rs, state, ev, PUBLIC), event_as(rs, state, ev, PUBLIC)]
        assert not leaks(public, at[k].public), (k, public, leaks(public, at[k].public))
        hidden_somewhere |= bool(at[k].public) or bool(getattr(rs, "secrets", lambda s, e: [])(state, ev))
        if name == "peloponnes":
            _coin_backs_stay_with_their_owner(rs, state, ev, created.names)
        state = rs.apply(state, ev)
    assert hidden_somewhere  # the game did hide something, so the checks above could fail


def _hidden_items(name: str, s, viewer: str) -> list[tuple[str, str]]:
    """Items ``viewer`` may not see in ``s``, each as (its id, the words a sentence names it with)."""
    if name == "adamastor":
        from agon.core.games.adamastor.state import card_name

        return [(c, card_name(s, c)) for c in s.deck[:3]]
    if name == "perikles":
        from agon.core.games.perikles.data import counter_label, special_name

        me = s.players.index(viewer)
        out = [(sp, special_name(sp)) for i, sp in enumerate(s.specials) if i != me and not s.used[i]]
        return out + [(c.counter, counter_label(s.data.counter(c.counter))) for c in s.commits if c.player != me][:3]
    mine = next(p for p in s.players if p.name == viewer)
    return [(c, s.table.cards[c].name) for p in s.players if p is not mine for c in p.hand][:3]


@pytest.mark.parametrize(("name", "n", "seed"), [("adamastor", 2, 4), ("perikles", 3, 4), ("pergamemnon", 3, 4)])
def test_the_leak_finder_knows_a_hidden_item_by_its_id_and_by_its_words(name, n, seed):
    """The views name some items in words only (Adamastor's deck "Piloto (3)", a Perikles special tile "Persian
    Fleet tile") and others by id and words; the sentences use the words, events and typed choices the ids. What a
    player may not see (tests/hidden.py) holds both, so a text naming a hidden item either way is found."""
    rs = registry.get(name)
    created = _created(name, n, {}, seed)
    events, _, _ = play_out(rs, created)
    state, checked = rs.initial_state(created), 0
    for ev in events[1:]:
        state = rs.apply(state, ev)
        items = _hidden_items(name, state, "P1")
        if not items:
            continue
        hidden = hidden_identifiers(rs, state, "P1")
        for ident, words in items:
            if words in visible(rs, state, "P1"):  # a counter or card alike to one P1 sees reads alike
                continue
            checked += 1
            assert {ident, words} <= hidden, (ident, words)
            assert leaks(f"P2 takes {ident}.", hidden) == [ident] and words in leaks(f"P2 takes {words}.", hidden)
    assert checked > 20


@pytest.mark.parametrize(("name", "n", "options", "seed"), [g for g in GAMES if g.values[0] != "peloponnes"])
def test_a_decision_showing_another_player_a_hidden_item_is_not_its_players_to_take_back(name, n, options, seed):
    """The undo policy (core/seats.py): a player may take back their last decision unless it showed another player
    something hidden from them before (hand cards discarded to sail, a special tile played, a card laid face up),
    or the others would have seen it and the player have it back. ``revealed`` reads the names in the views; since
    the views name some cards in words ('Mercador (30)' in the discard) it missed an Adamastor sail and a trimmed
    hand (the hand row said 'Mercador'), and it never saw a Perikles special tile played (under ``special_tile``).
    Here it agrees at every decision with what a player may not see by every name (tests/hidden.py)."""
    from agon.core.seats import revealed

    rs, shown = registry.get(name), 0
    for k, _, state, ev, after, others in _decisions(name, n, options, seed):
        truth = any(visible(rs, after, v) & hidden_identifiers(rs, state, v) for v in others)
        assert revealed(rs, state, after, others) == truth, (k, ev, truth)
        shown += truth
    assert shown  # some decision did show something: the check could fail


def _decisions(name: str, n: int, options: dict, seed: int):
    """Each decision of a seeded game played out by random bots: its event number, who decided, the state before,
    the event, the state after, and the viewers besides the decider (``PUBLIC`` and the other players)."""
    rs = registry.get(name)
    created = _created(name, n, options, seed)
    events, _, _ = play_out(rs, created)
    state = rs.initial_state(created)
    for k, ev in enumerate(events[1:], start=1):
        pending = rs.pending(state)
        after = rs.apply(state, ev)
        if isinstance(pending, Decision):
            yield k, pending.player, state, ev, after, [PUBLIC, *(p for p in created.names if p != pending.player)]
        state = after


@pytest.mark.parametrize("seed", [4, 5])
def test_a_peloponnes_decision_is_its_players_to_take_back_unless_the_log_told_coin_cards_from_the_hand(seed):
    """Peloponnes hides no named item, only which coin cards (wood, stone, grain, people) a hand holds; the views
    tell a hand by its count. A decision whose public record tells how many of a kind left the player's hand (a
    payment: 'Pagando recursos', 'Suprimento', "mostrando ...") showed the others that much of a hidden hand; one
    that tells no kind (a bid, a coin card put under a construction or over a card hit) did not, unless its public
    record tells coin cards going onto the face-up discard pile ('5. Ganhar Cartas de Poder': the winning bids'
    when it ends an auction, a tableau's coin cards), whose backs were hidden until then. The undo policy (the names
    in the views, and the ruleset's ``shows``) agrees at every decision of whole games."""
    from agon.core.seats import showed

    rs, told = registry.get("peloponnes"), 0
    for k, p, state, ev, after, others in _decisions("peloponnes", 3, {}, seed):
        hand, left = state.seat(p).hand, after.seat(p).hand
        public = event_as(rs, state, ev, PUBLIC)
        truth = any(public.get(kind) == hand.get(kind) - left.get(kind) > 0 for kind in COIN_KINDS)
        said = narrate_as(rs, state, ev, PUBLIC)
        truth |= any(COIN_WORDS.search(m[0]) and "new coin deck" not in m[0] for m in ON_THE_PILE.finditer(said))
        refused = showed(rs, state, ev, after, others)
        assert refused == truth, (k, ev)
        told += truth
    assert told  # some payment did tell coin cards: the check could fail


COIN_KINDS = ("wood", "stone", "grain", "people")


def test_an_adamastor_player_cannot_take_back_a_sail_that_showed_the_partner_their_cards(tmp_path):
    """Co-op Adamastor (9.3: hands are not shared): setting sail discards hand cards face up. Taken back, the
    partner would have seen them and the sailor have them again; the seat page and 'agon undo --as' refuse it."""
    from agon.core import seats
    from agon.core.service import NewGame
    from agon.events.adamastor import SailStarted

    svc = Service(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    gid = svc.new_game(NewGame(ruleset="adamastor", players=("Ana", "Bo"), seed=4))
    for _ in range(200):
        line = svc.load(gid)
        sail = [k for k, e in enumerate(line.ruleset.legal(line.state), start=1) if isinstance(e, SailStarted)]
        if sail:
            break
        svc.record(gid, "1", as_player=line.pending.player)
    sailor = line.pending.player
    svc.record(gid, str(sail[0]), as_player=sailor)
    line = svc.load(gid)
    assert isinstance(line.events[-1], SailStarted) and line.envelopes[-1].actor == sailor
    assert seats.undo_refusal(line, sailor) == ("your last decision showed the other players something they could"
                                                " not see before, so it cannot be taken back; the host may undo it")
    svc.store.close()


def _coin_backs_stay_with_their_owner(rs, state, ev, players) -> None:
    """Peloponnes hides no named item, only the backs of coin cards (wood, stone, grain, people): whatever names
    them in a player's coin cards (drawn, bid, under a construction, over a card hit) is told to its owner only."""
    owner = getattr(ev, "player", None)
    secret = [path for path, who in rs.secrets(state, ev)]
    for viewer in [PUBLIC, *players]:
        if viewer == owner:
            continue
        obj = event_as(rs, state, ev, viewer)
        for path in secret:
            value = obj
            for key in path:
                value = value[key]
            assert value == HIDDEN or value == [HIDDEN] * len(value), (ev, viewer, obj)
        if secret:  # what went onto the face-up discard pile in the same step is every seat's to read
            assert not COIN_WORDS.search(off_the_pile(narrate_as(rs, state, ev, viewer))), (ev, viewer)


# --- the command line: a person against bots ---------------------------------------------------------------------

PEOPLE = [
    pytest.param("pergamemnon", ["--bot", "Bruno:greedy", "--bot", "Chloe:random"], 4, False, id="pergamemnon"),
    pytest.param("peloponnes", ["--bot", "Bruno:greedy", "--bot", "Chloe:random"], 4, False, id="peloponnes"),
    pytest.param("perikles", ["--bot", "Bruno:greedy", "--bot", "Chloe:random"], 4, False, id="perikles"),
    pytest.param("adamastor", ["--bot", "Bruno:greedy"], 4, False, id="adamastor-2p"),
    pytest.param("pergamemnon", ["--bot", "Bruno:greedy", "--table"], 6, True, id="pergamemnon-table"),
]
DECISIONS = 8
"""Ana's decisions played through the CLI per game (the pure test above covers every decision of whole games)."""


def _text_log(out: str) -> list[dict]:
    return [{"n": int(m[1]), "text": m[2]} for m in re.finditer(r"^\s*(\d+)\. (.*)$", out, re.M)]


COIN_EVENTS = ("peloponnes.coins_drawn", "peloponnes.bid_placed", "peloponnes.construction_started",
               "peloponnes.catastrophe_faced")


def _coin_backs(rows: list[dict], viewer: str) -> int:
    """Peloponnes: no row shown to ``viewer`` names the backs of another player's coin cards, in its sentence or
    its JSON; returns how many such rows were checked."""
    checked = 0
    for row in rows:
        ev = row["event"]
        if ev["type"] not in COIN_EVENTS or ev["player"] == viewer:
            continue
        checked += 1
        assert not COIN_WORDS.search(off_the_pile(row["text"])), (viewer, row)
        kinds = [ev.get("coins"), ev.get("coin")] if ev["type"] != "peloponnes.catastrophe_faced" else ev["coins"]
        assert not COIN_WORDS.search(json.dumps(kinds)), (viewer, row)
    return checked


def _viewer_data(html: str, element: str):
    m = re.search(rf'<script type="application/json" id="{element}">(.*?)</script>', html, re.S)
    assert m, element
    return json.loads(m[1])


@pytest.mark.parametrize(("name", "bots", "seed", "table"), PEOPLE)
def test_a_person_against_bots_is_shown_only_what_they_may_see(agon, tmp_path, name, bots, seed, table):
    rs = registry.get(name)
    gid = json.loads(agon("new", name, "--player", "Ana", *bots, "--seed", str(seed), "--json").stdout)["id"]
    rng = random.Random(seed)
    shown: list[tuple[int, object]] = []  # (event after which it was shown, what Ana was shown)
    replies: list[tuple[str, dict]] = []  # (whose reply, the act --json reply)
    decisions = 0
    while decisions < DECISIONS:
        opts = json.loads(agon("options", gid, "--json").stdout)
        kind = opts["pending"]["kind"]
        if kind == "over":
            break
        if kind == "chance":  # at a real table a person types what they drew; here agon draws it from the seed
            replies.append((PUBLIC, json.loads(agon("act", gid, "seed", "--json").stdout)))
            continue
        assert opts["pending"]["player"] == "Ana"
        # The hint "agon schema perikles" names the ruleset, not Perikles' special tile of that name.
        hint = f"agon schema {name}"
        shown.append((opts["event"], [opts, agon("options", gid, "--all").stdout.replace(hint, "")]))
        if decisions == 0:
            shown.append((opts["event"], agon("play", gid, input="state\nlog\nq\n").stdout.replace(hint, "")))
        choice = str(rng.randint(1, len(opts["options"])))
        replies.append(("Ana", json.loads(agon("act", gid, choice, "--json").stdout)))
        decisions += 1

    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    line = Service(store).load(gid)
    store.close()
    names = line.created.names
    at = moments(rs, line.events, names)
    head = len(line.events) - 1
    # Peloponnes hides no named item, only coin backs: checked event by event below.
    assert any(m.public for m in at) or name == "peloponnes", "nothing was hidden: the checks could not fail"

    for n, blob in shown:
        assert not leaks(blob, at[n].hidden["Ana"]), (n, leaks(blob, at[n].hidden["Ana"]))
    for who, reply in replies:
        rows = reply["recorded"]
        limit = [m.public if who == PUBLIC else m.unnamable[who] for m in at]
        assert not log_leaks(rows, limit), log_leaks(rows, limit)
        assert not leaks(reply["status"], at[rows[-1]["n"]].hidden["Ana"])

    public = [m.public for m in at]
    rows = json.loads(agon("log", gid, "--json").stdout)
    assert not log_leaks(rows, public)
    assert not log_leaks(_text_log(agon("log", gid).stdout), public)
    secret = _coin_backs(rows, PUBLIC)
    for p in names:
        own = [m.unnamable[p] for m in at]
        rows = json.loads(agon("log", gid, "--as", p, "--json").stdout)
        assert not log_leaks(rows, own), p
        assert not log_leaks(_text_log(agon("log", gid, "--as", p).stdout), own), p
        secret += _coin_backs(rows, p)
    for who, reply in replies:
        secret += _coin_backs(reply["recorded"], who)
    if name == "peloponnes":
        assert secret, "no coin card was drawn or bid: the check could not fail"
    for p in names:
        state = [json.loads(agon("state", gid, "--as", p, "--json").stdout), agon("state", gid, "--as", p).stdout]
        assert not leaks(state, at[head].hidden[p]), (p, leaks(state, at[head].hidden[p]))

    # The study page made for each player: each event's sentence and state, the lines and their key moments.
    for p in names:
        html = (tmp_path / f"{p}.html")
        agon("view", gid, "--as", p, "-o", str(html))
        data = _viewer_data(html.read_text(encoding="utf-8"), "study-data")
        assert data["perspectives"] == [p] and list(data["states"]) == [p] and data["chances"] == {}
        assert not log_leaks(data["nodes"], [m.unnamable[p] for m in at]), p
        for node, view in zip(data["nodes"], states_of(data, p)):
            assert not leaks(view, at[node["n"]].hidden[p]), (p, node["n"])
        never_seen = frozenset.intersection(*(m.hidden[p] for m in at))
        assert not leaks([{k: v for k, v in ln.items() if k != "path"} for ln in data["lines"]], never_seen), p

    # As a spectator sees it (--public: the page a teacher projects while the game goes on, and the commands beside
    # it): nothing that some player may not see, in any state, sentence, or anywhere in the page's HTML.
    some_hide = [frozenset().union(*m.hidden.values()) for m in at]
    state = [json.loads(agon("state", gid, "--public", "--json").stdout), agon("state", gid, "--public").stdout]
    assert not leaks(state, some_hide[head]), leaks(state, some_hide[head])
    steps = json.loads(agon("replay", gid, "--public", "--json").stdout)
    assert [r["n"] for r in steps] == list(range(head + 1))
    assert not log_leaks(steps, public)
    for r in steps:
        assert not leaks(r["view"], some_hide[r["n"]]), (r["n"], leaks(r["view"], some_hide[r["n"]]))
    assert not log_leaks(_text_log(agon("replay", gid, "--public").stdout), public)
    rows_public = json.loads(agon("log", gid, "--public", "--json").stdout)
    assert rows_public == json.loads(agon("log", gid, "--json").stdout)
    html = tmp_path / "class.html"
    said = agon("view", gid, "--public", "-o", str(html)).stdout
    assert "only what every player sees" in said
    page = html.read_text(encoding="utf-8")
    data = _viewer_data(page, "study-data")
    assert data["perspectives"] == ["(every player)"] and data["chances"] == {}
    assert not log_leaks(data["nodes"], public)
    # the public record's sentences (their coin backs checked above) and the states `replay --public` shows
    assert [nd["text"] for nd in data["nodes"]] == [r["text"] for r in rows_public]
    assert states_of(data, "(every player)") == [r["view"] for r in steps]
    for node, view in zip(data["nodes"], states_of(data, "(every player)")):
        assert not leaks(view, some_hide[node["n"]]), node["n"]
    every_sees, folded = set(), None  # what every player saw at some moment of the line
    for ev, hid in zip(line.events, some_hide):
        folded = rs.initial_state(ev) if folded is None else rs.apply(folded, ev)
        every_sees |= visible(rs, folded, None) - hid
    ever_hidden = frozenset().union(*some_hide)
    told = leaks([r["text"] for r in rows_public], ever_hidden)  # named to all by the public record (checked above)
    never_public = ever_hidden - every_sees - set(told)  # hidden from someone whenever it was there, never told
    # Peloponnes hides no named item, only coin backs and points (no hand in the public states, checked above)
    assert never_public or name == "peloponnes", "nothing stayed hidden: the check of the page's HTML could not fail"
    from plotly.offline import get_plotlyjs

    without_plotly = page.replace(get_plotlyjs(), "")  # plotly.js: 4.8 MB of code that names no card
    assert len(without_plotly) < len(page) / 2
    assert not leaks(without_plotly, never_public), leaks(without_plotly, never_public)


# --- what each command says about whose view it shows ------------------------------------------------------------


def test_the_log_is_public_unless_asked_for_one_players_record_or_everything(agon):
    gid = json.loads(agon("new", "pergamemnon", "--player", "Ana", "--bot", "Bruno:greedy", "--bot",
                          "Chloe:random", "--seed", "4", "--json").stdout)["id"]
    public = agon("log", gid).stdout
    assert "3. Ana draws 3 cards." in public and "Shown: what every player sees" in public
    assert "10. Chloe attacks Ana, declaring a spear, and lays a card face down." in public
    rows = json.loads(agon("log", gid, "--json").stdout)
    assert rows[3]["event"] == {"type": "pergamemnon.cards_drawn", "player": "Ana", "cards": [HIDDEN] * 3,
                                "reshuffled": False}
    ana = agon("log", gid, "--as", "Ana").stdout
    assert "3. Ana draws Elephant, Elite, Spearman." in ana and "4. Bruno draws 3 cards." in ana
    assert "Shown: Ana's own record" in ana
    assert json.loads(agon("log", gid, "--as", "Ana", "--json").stdout)[3]["event"]["cards"][0].startswith("carthage.")
    full = agon("log", gid, "--full").stdout
    assert "and lays the Chariot (spear 7) face down." in full and "Bruno draws 3 cards" not in full
    assert "everything" in agon("log", "--help").stdout.lower()
    refused = agon("log", gid, "--as", "Ana", "--full", ok=False)
    assert refused.exit_code == 2 and "not both" in refused.stderr
    assert "no player 'Zoe'" in agon("log", gid, "--as", "Zoe", ok=False).stderr


def test_public_shows_what_every_player_sees_wherever_as_shows_one_players_view(agon, tmp_path):
    """A teacher projecting a game still being played: `--public` (a flag: any word may be a player's name) shows
    the state, the replay, the study page and a comparison as a spectator sees them, and says so."""
    gid = json.loads(agon("new", "pergamemnon", "--player", "Ana", "--bot", "Bruno:greedy", "--bot",
                          "Chloe:random", "--seed", "4", "--json").stdout)["id"]
    state = agon("state", gid, "--public").stdout
    assert f"game {gid}, branch main, after event #10 as every player sees it" in state
    assert "Elephant" in agon("state", gid, "--as", "Ana").stdout and "Elephant" not in state  # Ana's own card
    shown = json.loads(agon("state", gid, "--public", "--json").stdout)
    assert shown["public"] is True and shown["as"] is None and shown["view"]["players"][0]["hand"] == HIDDEN
    assert json.loads(agon("state", gid, "--as", "Ana", "--json").stdout)["public"] is False
    replay = agon("replay", gid, "--public", "--from", "3", "--to", "3").stdout
    assert "Ana draws 3 cards." in replay and "after #3, as every player sees it" in replay
    assert "Elephant" not in replay
    assert "Shown: what every player sees" in agon("log", gid, "--public").stdout
    said = agon("view", gid, "--public").stdout
    assert f"plots/{gid}-main-view-public.html: only what every player sees (no hand, deck order or hidden draw)" \
        in said
    assert "as every player sees it" in (tmp_path / "plots" / f"{gid}-main-view-public.html").read_text()
    agon("branch", gid, "whatif", "--at", "10")
    agon("act", gid, "2", "-b", "whatif")
    compared = agon("compare", gid, "main", "whatif", "--public").stdout
    assert "Told as every player may read it: nothing hidden from any player is named." in compared
    for args in (["state", gid], ["replay", gid], ["view", gid], ["compare", gid, "main", "whatif"]):
        refused = agon(*args, "--as", "Ana", "--public", ok=False)
        assert refused.exit_code == 2 and refused.stderr.strip().endswith("not both"), args
    refused = agon("log", gid, "--public", "--full", ok=False)
    assert refused.exit_code == 2 and "not both --public and --full" in refused.stderr


def test_the_seed_is_shown_only_with_everything(agon):
    """With the seed, every shuffle, draw and bot's choice of a seeded game can be worked out (core.chance): it is
    shown by 'agon log --full' (and kept in exports), never in a player's or the public record."""
    seed = "918273645"
    gid = json.loads(agon("new", "pergamemnon", "--player", "Ana", "--bot", "Bruno:greedy", "--seed", seed,
                          "--json").stdout)["id"]
    for args in (["log", gid], ["log", gid, "--json"], ["log", gid, "--as", "Ana", "--json"],
                 ["replay", gid, "--as", "Ana", "--to", "2"], ["state", gid, "--as", "Ana", "--json"],
                 ["options", gid, "--json"]):
        assert seed not in agon(*args).stdout, args
    assert json.loads(agon("log", gid, "--json").stdout)[0]["event"]["seed"] == HIDDEN
    assert json.loads(agon("log", gid, "--full", "--json").stdout)[0]["event"]["seed"] == int(seed)


def test_an_option_does_not_name_the_face_down_card_it_would_reveal(agon):
    """The issue's case: at event #10 Ana must lay a card against Chloe's face-down card."""
    gid = json.loads(agon("new", "pergamemnon", "--player", "Ana", "--bot", "Bruno:greedy", "--bot",
                          "Chloe:random", "--seed", "4", "--json").stdout)["id"]
    out = agon("options", gid).stdout
    assert "1. Ana lays the Elephant (armour 6) against Chloe's face-down card (spear)" in out
    assert "Chariot" not in out
    played = agon("play", gid, input="state\n1\nq\n").stdout
    assert "Pergamemnon, event #10, as Ana sees it" in played
    assert "Chariot" not in played.split("both cards are revealed")[0]  # nothing named before it is revealed
    assert "Ana lays the Elephant and both cards are revealed: Chloe's Chariot strikes" in played  # after choosing


def test_an_entry_refused_at_a_bots_seat_in_play_names_nothing_of_the_bots_hand(agon, tmp_path):
    """At a bot's seat 'agon play' lists no option (they would show the bot's hand); a mistyped entry there was
    refused naming what might be typed: the bot's cards."""
    gid = json.loads(agon("new", "pergamemnon", "--player", "Ana", "--bot", "Bruno:greedy", "--bot",
                          "Chloe:random", "--seed", "4", "--json").stdout)["id"]
    for _ in range(6):
        agon("act", gid, "1")
    rows = json.loads(agon("log", gid, "--json").stdout)
    at = next(r["n"] - 1 for r in rows if r["text"].startswith("Bruno lays the"))  # Bruno's bot to lay a card
    agon("branch", gid, "aside", "--at", str(at))
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    line = Service(store).load(gid)
    store.close()
    assert isinstance(line.pending, Decision) and line.pending.player == "Bruno"
    hidden = hidden_identifiers(registry.get("pergamemnon"), line.state, "Ana")
    assert hidden, "Bruno holds nothing hidden from Ana: the check could not fail"
    out = agon("play", gid, input="zzz\nq\n")
    said = out.stdout + out.stderr
    assert "type `bot` to let Bruno's bot move" in said
    assert not leaks(said, hidden), leaks(said, hidden)
    assert "error: 'zzz' is not a decision Bruno may make now; what Bruno may choose is not shown to Ana ('bot' lets" \
           " the bot decide)" in said
    assert len(json.loads(agon("log", gid, "--json").stdout)) == at + 1  # nothing recorded


# --- what a real table records by itself --------------------------------------------------------------------------


def _coin_table(agon, tmp_path, first_draw: str) -> str:
    """A 2-player Peloponnes table game with a small coin deck (17 wood and one each of the other backs), its
    civilizations dealt and Ana's 3 setup coin cards typed as ``first_draw``; Bo's 4 are due next."""
    cards = json.loads(agon("cards", "peloponnes", "--json").stdout)
    cards["coins"] = {"wood": 17, "stone": 1, "grain": 1, "people": 1}
    path = tmp_path / f"coins-{first_draw.replace(' ', '-')}.json"
    path.write_text(json.dumps(cards), encoding="utf-8")
    gid = json.loads(agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--table", "--cards",
                          str(path), "--json").stdout)["id"]
    agon("act", gid, "argos corinth")
    agon("act", gid, first_draw)
    return gid


def test_a_table_waits_for_a_coin_draw_even_when_the_deck_holds_one_kind_of_back(agon, tmp_path):
    """Which backs are left in the coin deck is hidden from every seat (Peloponnes RULES.md, 'Who is told what').
    Ana drew the stone, the grain and the people, so only wood is left: the service once recorded Bo's draw by
    itself (one outcome possible), telling every seat that the deck held wood alone. Now the table is asked, as
    when Ana drew three wood and the deck still holds every kind, and everything shown is the same."""
    alone = _coin_table(agon, tmp_path, "stone grain people")
    mixed = _coin_table(agon, tmp_path, "wood wood wood")
    shown = {}
    for gid in (alone, mixed):
        log = json.loads(agon("log", gid, "--json").stdout)
        assert [r["event"]["type"] for r in log][-1] == "peloponnes.coins_drawn" and len(log) == 3  # Bo's not yet
        opts = json.loads(agon("options", gid, "--json").stdout)
        assert opts["status"] == "chance needed: coin cards drawn by Bo (setup): draw 4 of 17"
        played = agon("play", gid, input="q\n").stdout
        refused = [agon("act", gid, typed, ok=False).stderr for typed in ("people people wood wood", "x")]
        seen = {k: v for k, v in json.loads(agon("state", gid, "--as", "Bo", "--json").stdout).items() if k != "game"}
        store = Store(f"sqlite:///{tmp_path / 'games.db'}")
        try:  # what the server offers the table's recorder (its host) to type from
            host = pending_for(Service(store).load(gid), HOST)
        finally:
            store.close()
        shown[gid] = (opts["pending"], opts["status"], seen, played.replace(gid, "GAME"), refused, host)
    assert shown[alone] == shown[mixed]
    pending, _, _, played, refused, host = shown[alone]
    assert pending["items"] == ["wood", "stone", "grain", "people"] and "wood x" not in played
    assert host["items"] == ["grain", "people", "stone", "wood"]
    assert "check what was drawn" in refused[0] and "possible: grain, people, stone, wood" in refused[1]
    # the outcome typed is recorded as any draw is, told by count
    out = agon("act", alone, "wood wood wood wood").stdout
    assert "Bo draws 4 coin cards (setup)." in out

"""The words of a refusal that reaches a player: what the face they use offers (a seat's page has buttons, a step
panel and a typed decision, never an event as JSON), the kinds of decision as the table says them (never an event's
tag), and a missing argument of the command line named as its usage names it, with what lists its values."""

from __future__ import annotations

import random

import pytest

from agon.core import registry, steps
from agon.core.entry import EntryError
from tests.played import played
from tests.test_cli_surface import one_line
from tests.test_conformance import created_for
from tests.test_server_api import bearer
from tests.test_server_api import client as _client

client = _client  # the API's test client (a fixture)

PAGE = {"Agon-Face": "page"}


def _seat(client, ruleset: str, players: list[str]) -> tuple[str, str]:
    g = client.post("/api/games", json={"ruleset": ruleset, "players": players, "seed": 3}).json()
    who = client.get(f"/api/games/{g['game']}").json()["pending"]["player"]
    return g["game"], g["seats"][who]["token"]


def test_words_a_page_cannot_read_are_refused_naming_what_the_page_offers_not_json(client):
    gid, tok = _seat(client, "peloponnes", ["Ana", "Bo"])
    before = client.get(f"/api/games/{gid}").json()["event"]
    for typed in ("qqq", "{", "seed"):
        r = client.post(f"/api/games/{gid}/act", json={"choice": typed}, headers={**bearer(tok), **PAGE})
        assert r.status_code == 400, r.text
        said = r.json()["error"]
        assert ("JSON" not in said or typed == "{") and "/api/" not in said, said
        assert "event as JSON" not in said and "an event" not in said, said
        assert said.endswith("choose a decision among those your page lists (a decision of many variants is built"
                             " there a step at a time), or type its steps in order, as the buttons name them"), said
    # a program calling the API may send the event as JSON, and is told so
    said = client.post(f"/api/games/{gid}/act", json={"choice": "qqq"}, headers=bearer(tok)).json()["error"]
    assert said.endswith(f"or give a choice number from GET /api/games/{gid}/options, or the event as JSON"), said
    assert client.get(f"/api/games/{gid}").json()["event"] == before  # nothing recorded


def test_the_command_line_keeps_offering_the_options_and_json(agon):
    gid = agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--seed", "4").stdout.split()[0]
    said = one_line(agon("act", gid, "qqq", ok=False), 1)
    assert said == ("error: which kind of decision: 'qqq' is none of the answers; possible: bid, pass; or give a"
                    f" choice number from `agon options {gid}`, or the event as JSON")


def test_the_kinds_of_decision_are_named_in_the_tables_words_and_typed_so(agon):
    gid = agon("new", "peloponnes", "--player", "Ana", "--player", "Bo", "--seed", "4").stdout.split()[0]
    said = one_line(agon("act", gid, "qqq", ok=False), 1)
    assert "bid-placed" not in said and "passed" not in said
    assert "Bo passes, drawing 3 coin cards." in agon("act", gid, "pass").stdout  # the word the refusal named


@pytest.mark.parametrize(("name", "n"), [("pergamemnon", 2), ("peloponnes", 3), ("perikles", 4), ("adamastor", 1),
                                         ("adamastor", 2)])
def test_every_kind_of_decision_a_ruleset_offers_beside_another_has_a_tables_word(name, n):
    """Wherever several kinds of decision are legal, a word that is none of them is refused naming each kind in the
    table's words, never by its event's tag, and each such word, typed, is that kind."""
    rs = registry.get(name)
    pick = random.Random(1)
    seen = 0
    for st in played(rs, created_for(name, n, {}, 1), choose=lambda legal: pick.choice(list(legal))):
        tags = list(dict.fromkeys(steps.tag_of(e) for e in st.legal or ()))
        if len(tags) < 2:
            continue
        seen += 1
        assert all(t in rs.kind_words for t in tags), tags
        with pytest.raises(EntryError) as said:
            steps.build(rs, st.before, "qqq")
        asked = steps.ask(rs, st.before)
        # the kinds asked for, or those offered beside the usual kind's first step (which its answers stand for)
        named = tags if asked.field == steps.TYPE else [t for t in tags if asked.field_of(steps.tag_label(t))
                                                          == steps.TYPE and steps.tag_label(t) in asked.values]
        for t in named:
            assert steps.kind_word(t) in str(said.value), (t, str(said.value))
            if steps.kind_word(t) not in steps.tag_label(t):
                assert steps.tag_label(t) not in str(said.value), (t, str(said.value))
            chosen, _ = steps.walk(rs, st.before, [steps.kind_word(t)])
            assert (steps.TYPE, steps.tag_label(t)) in chosen or steps.tag_of(_) == t, (t, chosen)
    assert seen


@pytest.mark.parametrize(("args", "says"), [
    (("compare", "g1", "main"), "error: missing argument BRANCH_B: compare needs two branches of the game, and one"
                                " was given: `agon compare g1 main BRANCH_B`; `agon branches g1` lists them; see"
                                " `agon compare --help`"),
    (("compare", "g1"), "error: missing argument BRANCH_A: compare needs two branches of the game: `agon compare g1"
                        " BRANCH_A BRANCH_B`; `agon branches g1` lists them; see `agon compare --help`"),
    (("note", "g1"), "error: missing argument N: the event to note, `agon note g1 N TEXT`, N its number as `agon log"
                     " g1` shows it; see `agon note --help`"),
    (("switch", "g1"), "error: missing argument NAME: the branch to switch to, `agon switch g1 NAME`; `agon branches"
                       " g1` lists them; see `agon switch --help`"),
    (("act", "g1"), "error: missing argument CHOICE: the decision to record, `agon act g1 CHOICE`, CHOICE a number"
                    " from `agon options g1`; see `agon act --help`"),
    (("options",), "error: missing argument GAME: the game id (any unique prefix of it); `agon games` lists the"
                   " games; see `agon options --help`"),
])
def test_a_missing_argument_is_named_as_the_usage_names_it_with_what_lists_its_values(agon, args, says):
    said = one_line(agon(*args, ok=False), 2)
    assert said == says
    assert "branch_b" not in said and "'n'" not in said


def test_an_ambiguous_candidate_is_refused_after_the_steps_question(agon, tmp_path):
    """'an' where Ana and Anatole are the candidates was refused without the question it answered."""
    from agon.core.service import Service
    from agon.events.store import Store
    from tests.test_play_pty_candidate_names import table_game

    store = Store(f"sqlite:///{tmp_path / 'games.db'}")  # the store the agon fixture's command line reads
    gid = table_game(Service(store), ("Ana", "Anatole", "Chloe", "Dario"))
    store.close()
    said = one_line(agon("act", gid, "meg-ass cor an", ok=False), 1)
    assert said.startswith("error: which candidate to assassinate in Corinth: A (Ana) or B (Anatole): 'an' is"
                           " ambiguous: it may be A Ana, B Anatole; type more of it"), said


def _tempest(covered: bool = False):
    """A Tempest for Alice, holding wood twice and grain, to face with four lands and a village open, or with Land 3
    and Land 4 covered already (by wood and stone): the cards it may hit are then Land 1 and Land 2 alone."""
    from agon.core.games.peloponnes.state import Slot
    from tests.peloponnes.helpers import at, bare, coins, dealt, slots

    lands = ((Slot("T_L1"), Slot("T_L2"), Slot("T_L3", cover="wood"), Slot("T_L4", cover="stone")) if covered
             else slots("T_L1", "T_L2", "T_L3", "T_L4", "T_VILLAGE"))
    return at(bare(dealt(), "Alice", "plain", lands=lands, hand=coins(wood=2, grain=1)), "catastrophe",
              (("face:tempest", "Alice"),))


def test_a_catastrophe_that_hits_two_cards_typed_with_one_says_two_are_hit_and_which():
    from tests.peloponnes.helpers import rs

    s = _tempest()
    with pytest.raises(EntryError) as said:
        steps.build(rs, s, "t_l1 wood grain")
    assert str(said.value) == ("which cards the catastrophe hits: 't_l1' is one of 2 taken together here (Land 2 +"
                               " Land 1: T_L2 T_L1); type all 2 apart, each once, before what follows")
    assert steps.build(rs, s, "t_l1 t_l2 wood grain").cards == ("T_L1", "T_L2")  # as the refusal says


def test_a_card_the_catastrophe_may_not_hit_typed_where_it_hits_two_says_which_card_and_which_it_may_hit():
    """'t_l3 wood grain', Land 3 covered already, was refused as none of the answers of the cover asked next."""
    from tests.peloponnes.helpers import rs

    s = _tempest(covered=True)
    with pytest.raises(EntryError) as said:
        steps.build(rs, s, "t_l3 wood grain")
    assert str(said.value) == ("which cards the catastrophe hits: Tempest (rulebook, 'Tempestade'): Land 3 (T_L3) is"
                               " not among the cards it may hit: Land 1 (T_L1), Land 2 (T_L2); possible: T_L2+T_L1"
                               " Land 2 + Land 1")
    chosen, cover = steps.forward(rs, s, (), steps.ask(rs, s))  # agon play asks the cover at once: typed there
    assert cover.prompt.startswith("what covers Land 2")
    with pytest.raises(EntryError) as there:
        steps.walk(rs, s, ["t_l3", "wood", "grain"], chosen)
    assert str(there.value) == str(said.value)
    with pytest.raises(EntryError) as said:
        steps.build(rs, s, "t_b1 wood grain")  # a card of no tableau of hers: said alike
    assert "House 1 (T_B1) is not among the cards it may hit: Land 1 (T_L1), Land 2 (T_L2)" in str(said.value)


def test_two_cards_typed_where_the_second_may_not_be_hit_name_that_card_not_the_first():
    """'t_l1 t_l3 wood grain', Land 3 covered already, was refused saying 't_l1' is one of two cards listed together,
    as if one card had been typed: what was wrong is Land 3."""
    from tests.peloponnes.helpers import rs

    s = _tempest(covered=True)
    land3 = ("which cards the catastrophe hits: Tempest (rulebook, 'Tempestade'): Land 3 (T_L3) is not among the"
             " cards it may hit: Land 1 (T_L1), Land 2 (T_L2); possible: T_L2+T_L1 Land 2 + Land 1")
    for typed in ("t_l1 t_l3 wood grain", "t_l3 t_l1 wood grain"):
        with pytest.raises(EntryError) as said:
            steps.build(rs, s, typed)
        assert str(said.value) == land3, typed
    chosen, _ = steps.forward(rs, s, (), steps.ask(rs, s))  # agon play asks the cover at once: typed there
    with pytest.raises(EntryError) as there:
        steps.walk(rs, s, ["t_l1", "t_l3", "wood", "grain"], chosen)
    assert str(there.value) == land3
    with pytest.raises(EntryError) as said:  # a cover after the one card is still a cover, not a card barred
        steps.build(rs, s, "t_l1 wood grain")
    assert "'t_l1' is one of 2 taken together here" in str(said.value)


def test_a_card_it_may_hit_that_no_listed_choice_holds_typed_alone_says_how_many_it_hits_and_of_which():
    from tests.peloponnes.helpers import rs

    s = _tempest()
    with pytest.raises(EntryError) as said:
        steps.build(rs, s, "t_l3 wood grain")
    assert str(said.value).startswith("which cards the catastrophe hits: Tempest (rulebook, 'Tempestade'): it hits 2"
                                      " cards, Land 3 (T_L3) being one: type all 2 apart, each once, of Land 1"
                                      " (T_L1), Land 2 (T_L2), Land 3 (T_L3), Land 4 (T_L4), Village (T_VILLAGE)")
    assert steps.build(rs, s, "t_l3 t_l4 wood grain").cards == ("T_L3", "T_L4")  # as the refusal says


def test_the_step_panel_shows_and_takes_the_kinds_in_the_tables_words(client):
    gid, tok = _seat(client, "peloponnes", ["Ana", "Bo"])
    page = {**bearer(tok), **PAGE}
    asked = client.get(f"/api/games/{gid}/steps", headers=page).json()["question"]
    assert [c["value"] for c in asked["choices"]] == ["pass", "bid"], asked
    done = client.get(f"/api/games/{gid}/steps", params={"chosen": "pass"}, headers=page).json()
    assert done["complete"] and done["chosen"] == [{"field": "type", "value": "pass", "shown": "pass"}], done
    assert client.post(f"/api/games/{gid}/act", json={"choice": done["choice"]}, headers=page).status_code == 200

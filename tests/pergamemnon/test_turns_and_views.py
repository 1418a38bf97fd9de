"""Turns (rulebook, 'O jogo': recruit or attack, never pass) and hidden information in views."""

from __future__ import annotations

import msgspec

from agon.core.autoplay import play_out
from agon.core.engine import Chance
from agon.core.games.pergamemnon.state import player
from agon.events.base import GameCreated, PlayerSeat
from agon.events.pergamemnon import Attacked, CreatureRecruited, DefenceCommitted, Reinforced, Yielded
from tests.pergamemnon.helpers import battle_game, created, play, refused, rs, setup


def test_a_turn_is_recruit_or_attack_and_never_a_pass():
    s = setup(["rome", "egypt", "greece"], starter="Alice")
    legal = rs.legal(s)
    assert legal and all(isinstance(e, CreatureRecruited | Attacked) for e in legal)
    assert {e.defender for e in legal if isinstance(e, Attacked)} == {"Bob", "Carol"}
    for e in legal:
        assert rs.validate(s, e) is None


def test_decisions_out_of_turn_or_while_luck_is_due_are_refused():
    s = setup(["rome", "egypt"], starter="Alice")
    e = Attacked(player="Bob", defender="Alice", weapon="sword", card=player(s, "Bob").hand[0])
    assert "it is Alice's turn" in refused(s, e)
    assert "no battle is being fought" in refused(s, Yielded(player="Alice"))
    fresh = rs.initial_state(created(2))
    assert "a chance outcome is needed now" in refused(fresh, Yielded(player="Alice"))


def test_views_hide_hands_decks_and_the_face_down_attacking_card():
    s = battle_game()
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion"))
    bob_view = rs.view(s, "Bob")
    alice = bob_view["players"][0]
    assert alice["hand"] == "hidden" and alice["hand_count"] == 2  # "hidden", not None: shown as '-', read as empty
    assert alice["deck"] == "hidden" and alice["deck_count"] == 7
    assert bob_view["players"][1]["hand"] is not None
    assert bob_view["battle"]["attacker_cards"] == ["face down"] and bob_view["battle"]["weapon"] == "sword"
    assert [c["id"] for c in rs.view(s, "Alice")["battle"]["attacker_cards"]] == ["rome.champion"]
    everything = rs.view(s, None)
    assert everything["players"][1]["hand"] is not None and everything["players"][1]["deck"]
    assert [c["id"] for c in everything["battle"]["attacker_cards"]] == ["rome.champion"]
    # Once the defender's card is laid, both are revealed to everyone.
    s = play(s, DefenceCommitted(player="Bob", card="carthage.champion"))
    assert [c["id"] for c in rs.view(s, "Carol")["battle"]["attacker_cards"]] == ["rome.champion"]
    for who in (None, "Alice", "Bob", "Carol"):
        msgspec.json.encode(rs.view(s, who))


def test_chance_is_asked_for_draws_not_drawn_inside_the_rules():
    s = setup(["rome", "egypt"], starter="Alice")
    s = play(s, Attacked(player="Alice", defender="Bob", weapon="sword", card=player(s, "Alice").hand[0]))
    s = play(s, DefenceCommitted(player="Bob", card=player(s, "Bob").hand[0]))
    while s.phase in ("battle", "place", "discard"):
        s = play(s, rs.legal(s)[-1] if s.phase == "battle" else rs.legal(s)[0])
    assert isinstance(rs.pending(s), Chance)


def test_every_listed_decision_passes_validation_throughout_bot_games():
    for n, bot in ((3, "random"), (5, "greedy")):
        players = tuple(PlayerSeat(f"P{i + 1}", bot) for i in range(n))
        g = GameCreated(
            ruleset="pergamemnon", ruleset_version=rs.version, players=players, seed=11, cards=rs.default_cards()
        )
        events, _, _ = play_out(rs, g)
        s = rs.initial_state(g)
        for e in events[1:]:
            for option in rs.legal(s):
                assert rs.validate(s, option) is None, (option, rs.validate(s, option))
            s = rs.apply(s, e)


def test_the_log_keeps_the_attacking_card_face_down_while_the_attackers_options_name_it():
    from agon.core.engine import option_text

    s = battle_game()
    attack = Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.champion")
    public = rs.narrate(s, attack)
    private = option_text(rs, s, attack)
    assert "lays a card face down" in public
    assert "Champion" not in public and "Champion" in private


def test_a_two_player_game_reports_no_nation_card():
    # With 2 players nation cards are not used (RULES.md, 'Turns and nation cards'): the state says none.
    s = setup(["rome", "egypt"], starter="Alice")
    for who in (None, "Alice", "Bob"):
        assert [p["nation_card"] for p in rs.view(s, who)["players"]] == [None, None]
    three = setup(["rome", "egypt", "greece"], starter="Alice")
    assert [p["nation_card"] for p in rs.view(three, None)["players"]] == ["active"] * 3


def test_an_out_of_turn_decision_with_as_names_the_rule_as_the_json_does(agon):
    import json

    gid = json.loads(agon("new", "pergamemnon", "--player", "Ana", "--player", "Bruno", "--seed", "5",
                          "--json").stdout)["id"]
    while json.loads(agon("options", gid, "--json").stdout)["pending"]["kind"] == "chance":
        agon("act", gid, "seed")
    opts = json.loads(agon("options", gid, "--json").stdout)
    acting = opts["pending"]["player"]
    other = "Bruno" if acting == "Ana" else "Ana"
    typed = agon("act", gid, "1", "--as", other, ok=False)
    event = dict(opts["options"][0]["event"], player=other)
    as_json = agon("act", gid, json.dumps(event), ok=False)
    assert typed.exit_code == as_json.exit_code == 1
    assert f"it is {acting}'s turn, not {other}'s" in typed.stderr and "(rulebook, 'O jogo')" in typed.stderr
    assert typed.stderr == as_json.stderr


def test_the_prompt_to_reinforce_names_whose_card_was_struck_for_everyone_who_reads_the_status():
    """The status line ('Bob to act: ...') is read by every seat and the host: its prompt said 'against your 3',
    which the attacker read as their own card. It names the struck player instead."""
    start = battle_game()
    struck = []  # a card struck but not beaten yet: its owner is asked to reinforce or yield
    for attack in (e for e in rs.legal(start) if isinstance(e, Attacked)):
        laid = play(start, attack)
        for defence in rs.legal(laid):
            s = play(laid, defence)
            if s.phase == "battle" and not isinstance(rs.pending(s), Chance):
                struck.append(rs.pending(s))
    assert struck
    pending = struck[0]
    assert pending.prompt.endswith(": reinforce or yield")
    assert "your" not in pending.prompt and f"against {pending.player}'s " in pending.prompt


def test_the_prompts_to_reinforce_name_both_sides_of_the_strike_as_the_table_sees_them():
    """The struck side's prompt read 'Bob to act: sword 2 against Bob's 1: reinforce or yield': who strikes, and with
    which card, was left out. Both cards are open once the defender's card is laid, so it names them; so does the
    counter-strike's prompt, the defender striking the attacker."""
    start = battle_game(hands={"Bob": ("weakling", "shieldbearer", "champion")})
    s = play(start, Attacked(player="Alice", defender="Bob", weapon="sword", card="rome.leader"),
             DefenceCommitted(player="Bob", card="carthage.weakling"))
    assert rs.pending(s).player == "Bob"
    assert rs.pending(s).prompt == (
        "Alice's Leader strikes with sword 2 against Bob's Weakling (helmet 1): reinforce or yield")
    s = play(s, Reinforced(player="Bob", card="carthage.champion"))  # helmet 1 + 9 holds; Bob's Champion strikes
    assert rs.pending(s).player == "Alice"
    assert rs.pending(s).prompt == (
        "Bob's Champion strikes with sword 9 against Alice's Leader (helmet 2): reinforce or yield")
    assert rs.view(s, "Carol")["next"] == rs.pending(s).prompt  # the status every seat reads

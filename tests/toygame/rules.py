"""Pig: on your turn roll a die as often as you like; a 1 loses the turn's points, holding banks them.
The first to ``target`` points (option, default 20) wins. Seat order is shuffled at the start (chance)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from agon.core.engine import Chance, Decision, Outcome, Over, Pending, Step
from agon.events.base import Event, GameCreated


class SeatsShuffled(Event, tag="toy.seats_shuffled"):
    order: tuple[str, ...]


class RollChosen(Event, tag="toy.roll_chosen"):
    pass


class DieRolled(Event, tag="toy.die_rolled"):
    value: int


class Held(Event, tag="toy.held"):
    """Version 2 renamed v1's ``points`` to ``banked``; the upcaster below reads v1 payloads."""

    version = 2
    banked: int


ToyEvent = SeatsShuffled | RollChosen | DieRolled | Held


class State(msgspec.Struct, frozen=True):
    players: tuple[str, ...]
    target: int
    order: tuple[str, ...] = ()
    turn: int = 0
    totals: tuple[int, ...] = ()
    running: int = 0
    rolling: bool = False
    rounds: int = 1


def _current(s: State) -> str:
    return s.order[s.turn]


class Toy:
    name = "toy"
    title = "Pig (test game)"
    version = "1"
    min_players = 2
    max_players = 4
    provisional = False
    events = (SeatsShuffled, RollChosen, DieRolled, Held)
    upcasters = {("toy.held", 1): lambda raw: {"type": raw["type"], "banked": raw["points"]}}
    bots: dict[str, Any] = {}
    option_names = {"target": "points needed to win (default 20)"}

    def default_cards(self) -> dict[str, Any]:
        return {}

    def check_setup(self, players: Sequence[str], options: Any, cards: Any) -> None:
        if "target" in options and int(options["target"]) < 1:
            raise ValueError("target must be at least 1")

    def initial_state(self, created: GameCreated) -> State:
        return State(players=created.names, target=int(created.options.get("target", 20)))

    def pending(self, s: State) -> Pending:
        if not s.order:
            return Chance("shuffle", "seat order", lambda out: SeatsShuffled(order=tuple(out)), items=s.players)
        if max(s.totals) >= s.target:
            return Over(self.outcome(s))
        if s.rolling:
            return Chance("dice", f"{_current(s)}'s roll", lambda out: DieRolled(value=out[0]), count=1)
        return Decision(_current(s), "roll or hold")

    def outcome(self, s: State) -> Outcome:
        best = max(s.totals)
        winners = tuple(p for p, t in zip(s.order, s.totals) if t == best)
        return Outcome(winners, self.scores(s), f"{' and '.join(winners)} won with {best} points")

    def legal(self, s: State) -> list[Event]:
        return [RollChosen(), Held(banked=s.running)]

    def validate(self, s: State, e: Event) -> str | None:
        p = self.pending(s)
        if isinstance(p, Chance):
            if isinstance(e, SeatsShuffled) and p.kind == "shuffle":
                return None if sorted(e.order) == sorted(s.players) else "setup: the order must seat every player"
            if isinstance(e, DieRolled) and p.kind == "dice":
                return None if 1 <= e.value <= 6 else f"roll: a die shows 1 to 6, not {e.value}"
            return f"a chance outcome is needed now ({p.describe()})"
        if isinstance(e, RollChosen):
            return None
        if isinstance(e, Held):
            return None if e.banked == s.running else f"hold: you bank exactly your running {s.running} points"
        return "this event is not a decision of this game"

    def apply(self, s: State, e: Event) -> State:
        match e:
            case SeatsShuffled(order=order):
                return msgspec.structs.replace(s, order=order, totals=(0,) * len(order))
            case RollChosen():
                return msgspec.structs.replace(s, rolling=True)
            case DieRolled(value=v):
                if v == 1:
                    return self._next(msgspec.structs.replace(s, running=0, rolling=False))
                return msgspec.structs.replace(s, running=s.running + v, rolling=False)
            case Held(banked=b):
                totals = list(s.totals)
                totals[s.turn] += b
                return self._next(msgspec.structs.replace(s, totals=tuple(totals), running=0))
            case _:
                raise TypeError(f"not a toy event: {e!r}")

    def _next(self, s: State) -> State:
        turn = (s.turn + 1) % len(s.order)
        return msgspec.structs.replace(s, turn=turn, rounds=s.rounds + (turn == 0))

    def scores(self, s: State) -> dict[str, float]:
        if not s.order:
            return {p: 0 for p in s.players}
        return {p: float(t) for p, t in zip(s.order, s.totals)}

    def round(self, s: State) -> int:
        return s.rounds

    def view(self, s: State, player: str | None) -> dict[str, Any]:
        return {
            "order": list(s.order),
            "scores": self.scores(s),
            "to_act": _current(s) if s.order else None,
            "running": s.running,
            "target": s.target,
        }

    def narrate(self, s: State, e: Event) -> str:
        match e:
            case GameCreated():
                return f"A game of pig to {e.options.get('target', 20)} begins for {', '.join(e.names)}."
            case SeatsShuffled(order=order):
                return f"Seats are drawn: {', '.join(order)}."
            case RollChosen():
                return f"{_current(s)} rolls."
            case DieRolled(value=v):
                lost = " and loses the turn's points" if v == 1 else ""
                return f"{_current(s)} rolls a {v}{lost}."
            case Held(banked=b):
                return f"{_current(s)} holds, banking {b}."
        return repr(e)

    @staticmethod
    def _rolls(line: Sequence[Step]) -> list[dict[str, Any]]:
        return [
            {"index": st.index, "player": _current(st.before), "value": st.event.value}
            for st in line
            if isinstance(st.event, DieRolled)
        ]

    projections = {"rolls": _rolls}


RULESET = Toy()

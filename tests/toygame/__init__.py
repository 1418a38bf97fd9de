"""A tiny test-only game ("pig", a dice race) for the engine tests: a shuffle for the seat order, a die per roll,
and two decisions (roll or hold). Registered by the tests as the ruleset ``toy``; never shipped to users."""

from tests.toygame.rules import RULESET

__all__ = ["RULESET"]

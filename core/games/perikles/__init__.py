"""Perikles (Martin Wallace): elections in six Greek cities, then dice battles over seven locations a turn.

Rule texts: ../shared/rules/perikles-game-help.pt.txt and perikles-data-facts.md. Readings chosen: RULES.md.
"""

from agon.core.games.perikles.rules import RULESET, Perikles

__all__ = ["RULESET", "Perikles"]

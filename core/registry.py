"""The registry of rulesets: one line per ruleset, imported only when used (so ``agon state`` of one game never
loads the other rulesets).

Adding a ruleset = one folder under ``core/games/`` exposing ``RULESET``, its events module, and one line here.
"""

from __future__ import annotations

import importlib
import os
from functools import cache

from agon.core.engine import Ruleset
from agon.events.hints import Hinted

RULESETS: dict[str, str] = {
    "adamastor": "agon.core.games.adamastor",
    "peloponnes": "agon.core.games.peloponnes",
    "pergamemnon": "agon.core.games.pergamemnon",
    "perikles": "agon.core.games.perikles",
}


_FROM_ENV: set[str] = set()  # the rulesets AGON_RULESETS registers: a mistyped module there is a setting to correct


def _extra() -> None:
    """``AGON_RULESETS="name=package.module,..."`` adds rulesets under development (and the tests' test game)."""
    for item in os.environ.get("AGON_RULESETS", "").split(","):
        name, sep, module = item.strip().partition("=")
        if sep and name and module:
            RULESETS[name] = module
            _FROM_ENV.add(name)


_extra()


class UnknownRuleset(Hinted, LookupError):
    """No ruleset of that name; the step it names ('agon rulesets') is kept apart (events/hints.py)."""


def register(name: str, module: str) -> None:
    """Register a ruleset module at run time (used by tests for their test-only game)."""
    RULESETS[name] = module
    get.cache_clear()


def names() -> list[str]:
    return sorted(RULESETS)


@cache
def get(name: str) -> Ruleset:
    try:
        module = RULESETS[name]
    except KeyError:
        known = ", ".join(names()) or "none"
        raise UnknownRuleset(f"unknown ruleset {name!r}; known rulesets: {known}", " (see {rulesets})") from None
    try:
        return importlib.import_module(module).RULESET
    except (ImportError, AttributeError) as e:
        if name not in _FROM_ENV:  # a shipped ruleset that does not import is a broken install, not a setting
            raise
        raise UnknownRuleset(f"ruleset {name!r} is named by AGON_RULESETS as module {module!r}, which gives no"
                             f" ruleset ({type(e).__name__}: {e}); correct or unset AGON_RULESETS") from None

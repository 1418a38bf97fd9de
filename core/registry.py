"""The registry of rulesets: one line per ruleset, imported only when used (so ``agon state`` of one game never
loads the other rulesets).

Adding a ruleset = one folder under ``core/games/`` exposing ``RULESET``, its events module, and one line here.
"""

from __future__ import annotations

import importlib
import os
import unicodedata
from functools import cache

from agon.core.engine import Ruleset
from agon.core.names import shown
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
    _get.cache_clear()


def names() -> list[str]:
    return sorted(RULESETS)


def _key(text: str) -> str:
    """A name as a person may type it, reduced to what tells rulesets apart: its letters and digits, without case
    or accents ('Periklês', 'PERIKLES' and 'perikles' are one; 'Peloponnes Card Game' and 'peloponnes-card-game')."""
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain.casefold() if c.isalnum() and not unicodedata.combining(c))


def canonical(name: str) -> str:
    """The registered name ``name`` means: itself, else the one it is typed for (``_key``: any case, accents or
    punctuation), else the one whose title it is ('Peloponnes Card Game'). Raises ``UnknownRuleset``."""
    if name in RULESETS:
        return name
    key = _key(name)
    found = [n for n in names() if _key(n) == key] if key else []
    if not found and key:  # the titles, read only now: a name typed as it is registered never loads another ruleset
        found = [n for n in names() if _key(_title(n)) == key]
    if len(found) == 1:
        return found[0]
    if found:
        raise UnknownRuleset(f"ruleset {name!r} could mean {', '.join(found)}; give one of these names exactly")
    known = ", ".join(names()) or "none"
    close = _close_to(key)
    guess = f" (did you mean {close}?)" if close else ""
    raise UnknownRuleset(f"unknown ruleset {shown(name)}{guess}; known rulesets: {known}", " (see {rulesets})")


def _close_to(key: str) -> str | None:
    """The one registered name ``key`` (a typed name, ``_key``) is a slip of: a letter wrong, missing, extra or two
    swapped ('perikels', 'pergamenon'), else None. Names only, never titles: a slip loads no ruleset."""
    import difflib

    keys = {_key(n): n for n in names()}
    close = difflib.get_close_matches(key, list(keys), n=2, cutoff=0.8) if key else []
    return keys[close[0]] if len(close) == 1 else None


def _title(name: str) -> str:
    try:
        return get(name).title
    except Exception:  # noqa: BLE001 - a ruleset that does not import (AGON_RULESETS) has no title to match
        return ""


def get(name: str) -> Ruleset:
    """The ruleset ``name`` means (``canonical``: case and accents do not matter); its ``name`` is the canonical
    one, the one a game stores."""
    return _get(canonical(name))


def recorded(name: str) -> Ruleset:
    """The ruleset a game's first event names, exactly as agon writes it (a file that spells it otherwise was
    written by hand or changed, and a game stored under it would not read back)."""
    rs = get(name)
    if rs.name != name:
        raise UnknownRuleset(f"the game names ruleset {name!r}, which agon writes as {rs.name!r}")
    return rs


@cache
def _get(name: str) -> Ruleset:
    module = RULESETS[name]
    try:
        return importlib.import_module(module).RULESET
    except (ImportError, AttributeError, TypeError, ValueError) as e:  # TypeError: a relative name ('..x')
        if name not in _FROM_ENV:  # a shipped ruleset that does not import is a broken install, not a setting
            raise
        raise UnknownRuleset(f"ruleset {name!r} is named by AGON_RULESETS as module {module!r}, which gives no"
                             f" ruleset ({type(e).__name__}: {e}); correct or unset AGON_RULESETS") from None

"""What a player name, a branch name, a title or a note may be, and the other bounds of what a person may ask for,
checked in the service so every face (the CLI, the HTTP server, import) refuses the same things. Kept free of the
modules that use them, so a face can state them (in an option's help or parser) without importing those at startup.

A name is printed in one-line errors, in tables and in narration: it is kept short and free of control and
format characters (a newline, a tab, a terminal escape, a right-to-left override), which would break a line or
change what a terminal shows. Brackets and other punctuation are allowed: the faces print names as text, never
as markup.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

MAX_NAME = 40
MAX_BRANCH = 100
MAX_TITLE = 200
MAX_NOTE = 4000
MAX_LUCK = 2**62
"""The largest luck a branch may have (``--reseed`` draws below 2**31; a file may not bring more than the store's
integer columns hold)."""
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
"""The usual annotation marks a note may carry: good, mistake, brilliant, blunder, interesting, dubious."""
MAX_ROLLOUTS = 1_000_000
"""The most rollouts a position an analysis is asked for (100, the default, already gives a win chance to within
about 10 points either way)."""


def shown(text: str, limit: int = MAX_NAME) -> str:
    """``text`` quoted for a one-line message: control characters escaped, cut to ``limit`` characters."""
    cut = text if len(text) <= limit else text[:limit] + "..."
    return repr(cut)


def _bad_char(text: str) -> str | None:
    for ch in text:
        if ch == " ":
            continue
        if unicodedata.category(ch)[0] in "CZ":  # control, format, unassigned, private use; separators but ' '
            return f"U+{ord(ch):04X}"
    return None


def text_problem(text: str, what: str, limit: int) -> str | None:
    """Why ``text`` cannot be ``what`` (a length limit, no control characters), or None when it can."""
    if len(text) > limit:
        return f"{what} {shown(text)} is {len(text):,} characters long; the most is {limit}"
    bad = _bad_char(text)
    if bad:
        return f"{what} {shown(text)} holds a control or separator character ({bad}); use letters, digits, spaces"
    return None


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or None when it can (see also the service's reserved names)."""
    return text_problem(name, "player name", MAX_NAME)


def title_problem(title: str) -> str | None:
    """Why ``title`` cannot be a stored game's title (too long, a control character), or None: what import and
    verify judge, so that a game an older agon stored keeps its title."""
    return text_problem(title, "title", MAX_TITLE)


def new_title_problem(title: str) -> str | None:
    """Why ``title`` cannot be a new game's title, or None: what ``title_problem`` refuses, and a title of spaces
    only, which would show as no title at all ('' is none: the ruleset's name is shown). Games stored with one
    before it was refused are read and imported as they are (``title_problem``)."""
    if title and not title.strip(" "):
        return "a title of spaces only names nothing; give it words, or leave the title out"
    return title_problem(title)


def note_problem(text: str) -> str | None:
    """Why ``text`` cannot be a note: too long, or a control character other than a line break (a terminal escape
    in a shared file would otherwise reach whoever lists its notes)."""
    if len(text) > MAX_NOTE:
        return f"a note holds at most {MAX_NOTE} characters; this one has {len(text):,}"
    for part in text.split("\n"):
        bad = _bad_char(part)
        if bad:
            return f"the note {shown(text)} holds a control or separator character ({bad}); write plain text"
    return None


def name_key(name: str) -> str:
    """A name (a branch's, a player's) as it is compared: in Unicode's composed form (NFC), so that a letter typed
    as one character ('é') or as a letter and an accent ('e' + U+0301), which look alike and which keyboards and
    file systems give either way, names the same branch or seat. A new branch is stored under this form; one stored
    before is kept as it is and still found by either form."""
    return unicodedata.normalize("NFC", name)


def player_named(name: str, players: Sequence[str]) -> str | None:
    """The one of a game's ``players`` that ``name`` names, as the game stores it: the player so written, or else
    the one whose name is the same letters in another Unicode form (``name_key``), so that either typing of 'Zoë'
    finds the seat, or else the one seat whose name is the same letters in another case ('dora' for Dora); None
    when none (or, in a game stored before such seats were refused, or in another case, more than one) is so
    named."""
    if name in players:
        return name
    key = name_key(name)
    found = [p for p in players if name_key(p) == key]
    if not found:  # 'dora' for Dora, as a table types names in any case: when no other seat is so named
        found = [p for p in players if name_key(p).casefold() == key.casefold()]
    return found[0] if len(found) == 1 else None


def branch_problem(name: str) -> str | None:
    """Why ``name`` cannot be a branch's name: a branch is named as an argument on a command line (``agon switch
    GAME NAME``, and in every hint that names it), so it is one word, and never one a command line reads as an
    option."""
    if not name:
        return "a branch needs a name: one word, such as whatif"
    if any(c.isspace() for c in name):
        return "a branch name must be one word without spaces"
    if name.startswith("-"):
        return (f"branch name {shown(name)} begins with '-', which a command line reads as an option; begin it with"
                " a letter or a digit")
    return text_problem(name, "branch name", MAX_BRANCH)


def derived_branch(source: str, suffix: str) -> str:
    """The name of a branch made from the line ``source`` (``whatif`` and ``better-14`` make ``whatif-better-14``),
    always one that ``branch_problem`` takes, however long or odd ``source`` is: ``suffix`` (a valid name itself) is
    kept whole, ``source`` is cut to fit ``MAX_BRANCH`` and never leaves the name beginning with '-', and a space or
    a control character that a name stored before the rules may hold becomes '-'."""
    kept = "".join("-" if ch.isspace() or _bad_char(ch) else ch for ch in source)
    head = kept[:max(0, MAX_BRANCH - len(suffix) - 1)].lstrip("-")
    return f"{head}-{suffix}" if head else suffix

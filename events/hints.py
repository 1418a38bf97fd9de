"""What a message tells a person to do next, kept apart from what went wrong, so that each face of the service says
it its own way: the command line names its commands (`agon games`), the server its routes (server/api.py).

A message that ends with such a step is raised as a ``Hinted`` exception: ``said`` (what went wrong) and ``then``
(the step, a template naming the steps below in braces, e.g. ``"; {games} lists the games"``). Its text, ``str(e)``,
is the command line's; ``e.told(words)`` is the same message in another face's words (``core.service.Words``).
Raised below the service (the store, the registry), it keeps its parts when the service passes it on (``again``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

CLI: dict[str, str] = {
    "options": "`agon options {game}{b}`",
    "anew": "look at `agon options {game}{b}` again and choose anew",
    "listed": " (`agon options {game}{b}` lists them)",
    "play_on": ("take the last step back with `agon undo {game}{b}` (a slip), or branch from an earlier position with"
                " `agon branch {game} NAME --at N{b}` to play on"),
    "schema": "`agon schema {ruleset}` shows the event types",
    "table": "made with `agon new {ruleset} --player NAME... --table`",
    "verify": "; `agon verify {game}` lists what is broken",
    "games": "`agon games`",
    "rulesets": "`agon rulesets`",
    "seats": ", each as --player NAME or --bot NAME:KIND",
    "new": "`agon new`",
    "asking": "command",
    "read_only": ("give a store agon may write to (`agon export {game} -o FILE` copies a game out of this one), or"
                  " read this one (`agon log {game}`)"),
    "store": "the store {store}",
    "cause": " ({cause})",
    "one_back": ", one step at a time",
    "several": ("; write each game to a file of its own (`agon --db STORE export -o FOLDER` writes every game of a"
                " store so) and import them together (`agon import FOLDER/*.jsonl`)"),
    "decide": "give {a} choice number from {options}, or the event as JSON",
    "json_too": " or an event as JSON",
    "not_json": "the choice is not valid JSON ({why})",
}
"""Each step as the command line names it: a command between backticks, never between quotes, which would nest with
the quotes of a --db that the command line adds to it (cli/common.py ``with_db_quoted``). What stands between the
backticks runs as printed, but for a word in capitals, which the person fills in (``NAME``, ``N``, ``FILE``; ``NAME...``
one or more, as the README's list of commands writes them). A step a face may have no word for (``verify``) carries
its own leading separator, so that leaving it out leaves no dangling clause. ``{game}`` and ``{ruleset}`` are the
message's own (and ``{b}``: `` -b NAME`` when it speaks of a line that is not the game's current one, else
nothing), as are ``{store}`` (where the store is) and ``{cause}`` (a database driver's words) in an unavailable
store's message."""


def say(then: str, words: Mapping[str, str], about: Mapping[str, str]) -> str:
    """``then`` with each step in ``words`` and then the message's own ``about`` (game id, ruleset) filled in."""
    if not then:
        return ""
    return then.format_map(words).format_map({"game": "", "ruleset": "", "b": "", **about})


class Hinted(Exception):
    def __init__(self, said: str = "", then: str = "", **about: str) -> None:
        super().__init__(said + say(then, CLI, about))
        self.said, self.then, self.about = said, then, about

    def told(self, words: Mapping[str, str]) -> str:
        """The message with its step named in ``words`` (each step of ``CLI`` by name)."""
        return self.said + say(self.then, words, self.about) if self.then else str(self)


E = TypeVar("E", bound=Exception)


def again(e: BaseException, kind: type[E], before: str = "", after: str = "") -> E:
    """``e``'s message as a ``kind`` (a ``Hinted``) with ``before`` and ``after`` around it, its step kept (so a
    face still names it its way), and the exception first raised kept as its ``origin``."""
    if isinstance(e, Hinted) and e.then:
        then = e.then + after.replace("{", "{{").replace("}", "}}")
        out = kind(before + e.said, then, **e.about)  # type: ignore[call-arg]
    else:
        out = kind(before + str(e) + after)
    out.origin = getattr(e, "origin", e)  # what was raised first (the store's Unavailable: the server's 503)
    return out

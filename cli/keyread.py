"""One line typed at ``agon play``'s prompt, which may end by itself before Enter when it can only mean one thing.

At a table the dice are typed as digits (``6512``), and how many dice are asked is known: once that many digits are
typed the entry is complete, so ``play`` takes it without Enter. Items and the steps of a decision work alike: once
a word can only name one item (``mc`` when ``megara-candidate`` is the only item it may still become), it is shown
in full with a space after it, and once the last item or step is named the entry ends (``cli.play_cmds.completion``
says when); the keys typed next belong to the next word or entry. This needs the terminal's keys one by one
(``termios`` cbreak mode, echoing what is typed, with backspace, Ctrl-U and Ctrl-D as a terminal line has them);
anything else (``6 5 1 2``, ``u``, ``seed``) ends with Enter as usual. When standard input is not a terminal (a
pipe, a test runner) the line is read as ``typer.prompt`` reads it and nothing ends early.

A word taken before it was typed in full may still be typed to its end, as a person who types whole names does:
the keys that go on spelling it (``os`` after ``mel`` took ``Melos``) and the space, comma or Enter after them are
swallowed, also at the next prompt when the word ended the entry. A key that leaves the spelling starts the next
word with the keys held back (after ``n`` took ``Naupactus``, ``ae`` is the start of ``Aetolia``, not a slip)."""

from __future__ import annotations

import codecs
import os
import sys
from collections.abc import Callable

import typer

PROMPT = "Your choice (q to quit)"

Complete = Callable[[str], tuple[str, bool] | None]
"""Given the text typed so far: ``None`` while it goes on as typed, else the text it becomes (the last word shown in
full, a space after it) and whether the entry is complete (it then ends without Enter)."""


def read(complete: Complete | None = None) -> tuple[str, bool]:
    """The line typed, and whether it ended by itself (``complete`` said it was complete before Enter)."""
    try:
        import termios
        import tty
    except ImportError:  # no POSIX terminal (Windows): lines end with Enter
        termios = None  # type: ignore[assignment]
    if complete is None or termios is None or not _is_tty():
        return typer.prompt(PROMPT, default="", show_default=False), False

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    out = sys.stdout
    out.write(f"{PROMPT}: ")
    out.flush()
    decode = codecs.getincrementaldecoder("utf-8")(errors="replace")
    text = ""
    global _carry
    rest, held, _carry = _carry, "", None  # the rest of the word taken last, and the keys typed on it so far
    try:
        tty.setcbreak(fd, termios.TCSANOW)  # keys one by one; nothing typed ahead is thrown away
        while True:
            byte = os.read(fd, 1)
            if not byte:
                raise EOFError
            for ch in decode.decode(byte):
                if rest is not None and ch not in "\x7f\b":
                    if rest and ch.lower() == rest[0]:  # the taken word, typed on: nothing new
                        rest, held = rest[1:], held + ch
                        continue
                    spelled, back = not rest, held
                    rest, held = None, ""
                    if ch in " ,":  # the word's end: the space after it is there already
                        continue
                    if not spelled and back and ch not in "\r\n":  # another word: the keys held back begin it
                        text += back
                        out.write(back)
                if ch in "\r\n":
                    out.write("\n")
                    return text, False
                if ch in "\x7f\b":
                    if held:
                        rest, held = held[-1].lower() + (rest or ""), held[:-1]
                    elif text:
                        rest = None
                        text = text[:-1]
                        out.write("\b \b")
                elif ch == "\x15":  # Ctrl-U: the whole line
                    out.write("\b \b" * len(text))
                    text, rest, held = "", None, ""
                elif ch == "\x04":
                    if not text:
                        raise EOFError
                elif ch >= " ":
                    typed = text + ch
                    text += ch
                    out.write(ch)
                    settled = complete(text)
                    if settled is not None:
                        now, ended = settled
                        same = len(os.path.commonprefix([text, now]))
                        out.write("\b \b" * (len(text) - same) + now[same:])
                        text = now
                        rest = _rest_of(typed, now)
                        if ended:
                            out.write("\n")
                            _carry = rest
                            return text, True
                out.flush()
    except KeyboardInterrupt:
        raise typer.Abort() from None
    finally:
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


_carry: str | None = None
"""The rest of the word that ended the last entry by itself, still to be swallowed if it is typed on."""


def _rest_of(typed: str, now: str) -> str | None:
    """What of the word just taken the person has not typed (``os`` when ``mel`` took ``Melos``): its rest when
    the word typed is the start of the word shown, else None (an abbreviation, ``mc``, is not spelled on)."""
    words_typed, words_now = typed.split(), now.split()
    if not words_typed or not words_now:
        return None
    last, shown = words_typed[-1].lower(), words_now[-1].lower()
    if not shown.startswith(last):
        return None
    return shown[len(last):]


def _is_tty() -> bool:
    try:
        return os.isatty(sys.stdin.fileno()) and os.isatty(sys.stdout.fileno())
    except (AttributeError, ValueError, OSError):
        return False

"""One line typed at ``agon play``'s prompt, which may end by itself before Enter when it can only mean one thing.

At a table the dice are typed as digits (``6512``), and how many dice are asked is known: once that many digits are
typed the entry is complete, so ``play`` takes it without Enter. Items and the steps of a decision work alike: once
a word can only name one item (``mc`` when ``megara-candidate`` is the only item it may still become), it is shown
in full with a space after it, and once the last item or step is named the entry ends (``cli.play_cmds.completion``
says when); the keys typed next belong to the next word or entry. This needs the terminal's keys one by one
(``termios`` cbreak mode, echoing what is typed, with backspace, Ctrl-U and Ctrl-D as a terminal line has them);
anything else (``6 5 1 2``, ``u``, ``seed``) ends with Enter as usual. When standard input is not a terminal (a
pipe, a test runner) the line is read as ``typer.prompt`` reads it and nothing ends early."""

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
    try:
        tty.setcbreak(fd, termios.TCSANOW)  # keys one by one; nothing typed ahead is thrown away
        while True:
            byte = os.read(fd, 1)
            if not byte:
                raise EOFError
            for ch in decode.decode(byte):
                if ch in "\r\n":
                    out.write("\n")
                    return text, False
                if ch in "\x7f\b":
                    if text:
                        text = text[:-1]
                        out.write("\b \b")
                elif ch == "\x15":  # Ctrl-U: the whole line
                    out.write("\b \b" * len(text))
                    text = ""
                elif ch == "\x04":
                    if not text:
                        raise EOFError
                elif ch >= " ":
                    text += ch
                    out.write(ch)
                    settled = complete(text)
                    if settled is not None:
                        now, ended = settled
                        same = len(os.path.commonprefix([text, now]))
                        out.write("\b \b" * (len(text) - same) + now[same:])
                        text = now
                        if ended:
                            out.write("\n")
                            return text, True
                out.flush()
    except KeyboardInterrupt:
        raise typer.Abort() from None
    finally:
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def _is_tty() -> bool:
    try:
        return os.isatty(sys.stdin.fileno()) and os.isatty(sys.stdout.fileno())
    except (AttributeError, ValueError, OSError):
        return False

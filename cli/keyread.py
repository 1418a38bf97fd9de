"""One line typed at ``agon play``'s prompt, which may end by itself before Enter when it can only mean one thing.

At a table the dice are typed as digits (``6512``), and how many dice are asked is known: once that many digits are
typed the entry is complete, so ``play`` takes it without Enter. Items and the steps of a decision work alike: once
a word can only name one item (``mc`` when ``megara-candidate`` is the only item it may still become), it is shown
in full with a space after it, and once the last item or step is named the entry ends (``cli.play_cmds.completion``
says when); the keys typed next belong to the next word or entry. This needs the terminal's keys one by one
(``termios`` cbreak mode, echoing what is typed, with backspace, Ctrl-U and Ctrl-D as a terminal line has them);
anything else (``6 5 1 2``, ``u``, ``seed``) ends with Enter as usual. When standard input is not a terminal (a
pipe, a test runner) the line is read as ``typer.prompt`` reads it and nothing ends early.

A word taken before it was typed in full may still be typed to its end, as a person who types whole names does: the keys
that go on spelling it (``os`` after ``mel`` took ``Melos``; ``a`` of ``rca`` after ``rc``, an abbreviation, took
``rome.caesar``) and the space, comma or Enter after them are swallowed, also at the next prompt when the word ended the
entry. A key that leaves the spelling starts the next word with the keys held back when together they begin a name
(after ``n`` took ``Naupactus``, ``ae`` is the start of ``Aetolia``, not a slip); else a letter is a slip inside the
taken word, which stands as typed again and is taken no more (``egpyt`` after ``e`` took ``egypt``, refused at Enter;
``perikq``, never ``Perikles q``), and any other key starts the next word alone, as if the word had been typed in full
(``vig2``: Vigia, then card 2), whether or not it begins a name (``begins`` says which do); at the next prompt, the
entry recorded, a key starts it alone too. A word typed on to an entry that ended by itself, naming a step it filled in
by itself (``Typing.tail``: a Perikles assassin's one candidate after the city, ``cor bru``) or a name of who stands
where its last word chose (``cor a alex``), is read with that entry at the next prompt, never as its answer; one the
entry refuses is refused only where it names nothing at the prompt on the screen (``an``, begun as ``ana``, is the tile
``any`` at a Perikles display's refill). Keys held so are shown as typed after the line (``Typing.shown``), and taken
back on the screen once they are swallowed or read otherwise."""

import codecs
import dataclasses
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass

import typer

from agon.core.entry import fold
from agon.core.steps import TypedOn

PROMPT = "Your choice (q to quit)"

Complete = Callable[[str], tuple[str, bool] | None]
"""Given the text typed so far: ``None`` while it goes on as typed, else the text it becomes (the last word shown in
full, a space after it) and whether the entry is complete (it then ends without Enter)."""

Begins = Callable[[str], bool]
"""Given a text typed so far: whether its last word may name something asked here, as typed or typed on."""


def line(prompt: str) -> str:
    """One line typed after ``prompt``, as ``typer.prompt`` reads it (Enter alone: ''). The end of the input
    (Ctrl-D) raises ``EOFError`` and Ctrl-C ``KeyboardInterrupt``: Click says ``Abort`` for both, so a command that
    stops quietly at the one could not end the other as every command stopped by Ctrl-C ends (status 130)."""
    try:
        return typer.prompt(prompt, default="", show_default=False)
    except typer.Abort as e:  # told apart again by what Click caught
        if isinstance(e.__context__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise EOFError from None


def read(complete: Complete | None = None, begins: Begins | None = None, after_ended: bool = False,
         tail: "Tail | None" = None) -> tuple[str, bool]:
    """The line typed, and whether it ended by itself (``complete`` said it was complete before Enter);
    ``begins``: which words may name something here (``None``: any may); ``after_ended``: the last entry ended by
    itself, so an Enter typed first here is the one typed after it, swallowed without a new prompt; ``tail``: the
    words that may still be typed on to it (``Typing.tail``). A word of ``tail`` that it refuses is returned as
    ``AFTER`` and the word. The end of the input (Ctrl-D on an empty line) raises ``EOFError``, Ctrl-C
    ``KeyboardInterrupt``, with or without a terminal."""
    try:
        import termios
        import tty
    except ImportError:  # no POSIX terminal (Windows): lines end with Enter
        termios = None  # type: ignore[assignment]
    if complete is None or termios is None or not _is_tty():
        return line(PROMPT), False

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    out = sys.stdout
    out.write(f"{PROMPT}: ")
    out.flush()
    decode = codecs.getincrementaldecoder("utf-8")(errors="replace")
    global _carry, _glued
    typing = Typing(complete, rest=_carry, begins=begins, enter_after_end=after_ended, tail=tail, glued=_glued)
    _carry = _glued = None
    try:
        tty.setcbreak(fd, termios.TCSANOW)  # keys one by one; nothing typed ahead is thrown away
        while True:
            byte = os.read(fd, 1)
            if not byte:
                raise EOFError
            for ch in decode.decode(byte):
                echo, done = typing.key(ch)
                out.write(echo)
                if done is not None:
                    if done[1]:
                        _carry, _glued = typing.rest, typing.word
                    return done
                out.flush()
    finally:
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def hand_over(after_ended: bool = False) -> bool:
    """At a terminal, wait for the Enter of the person the terminal is handed to (``agon play`` of several people's
    seats at one terminal): whether it waited (not when standard input is no terminal: a script hands nothing over).
    No key is echoed, and every key but Enter is ignored, so nothing the person before typed on shows. ``after_ended``:
    their last entry ended by itself, so the keys up to the first Enter are theirs (the word spelled on, the Enter
    typed after it, as the next prompt swallows them): that Enter hands nothing over. The end of the input (Ctrl-D)
    raises ``EOFError``, Ctrl-C ``KeyboardInterrupt``, as at the prompt."""
    global _carry, _glued
    _carry = _glued = None  # the word the entry before took is not spelled on at the next person's prompt
    try:
        import termios
        import tty
    except ImportError:  # no POSIX terminal (Windows): the Enter read as a line
        termios = None  # type: ignore[assignment]
    if not is_terminal_in():
        return False
    if termios is None:
        line("")
        return True
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    swallow = after_ended
    try:
        tty.setcbreak(fd, termios.TCSANOW)  # keys one by one, not echoed
        while True:
            byte = os.read(fd, 1)
            if not byte or byte == b"\x04":
                raise EOFError
            if byte in b"\r\n":
                if not swallow:
                    return True
                swallow = False
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


@dataclass
class Typing:
    """A line typed key by key, as ``read`` takes it, without a terminal (``scripts/keystrokes.py`` plans its keys
    with it): ``key`` takes one key and says what to echo and, once the line ends, the line and whether it ended by
    itself. ``rest``: what of the word taken last has not been typed (``None``: no word to spell on); ``held``:
    the keys typed since that go on spelling it; ``begins``: which words may name something (``None``: any may,
    so the keys held back always begin the next word)."""

    complete: Complete
    text: str = ""
    rest: "str | Abbreviated | None" = None
    held: str = ""
    took: bool = False  # the last key had a word taken
    begins: Begins | None = None
    enter_after_end: bool = False  # the last entry ended by itself: an Enter typed first is swallowed, not a line
    tail: "Tail | None" = None
    """Words that may be typed on to the entry that ended by itself before this line (a Perikles assassin's one
    candidate after the city, ``cor bru``; a name after the letter that took a candidate, ``cor a alex``): the
    first word of the line is held back while it may become one, and taken as it once a space, comma or Enter ends
    it: one that confirms the entry is swallowed (and the next word is read so too: ``spaa ath bru``), one it
    refuses ends the line as ``AFTER`` and the word unless it names an answer here (``an`` of ``ana``, the tile
    ``any`` at the draw: this prompt's, as on the screen); a key that leaves them all begins the line with the keys
    held. Its words that the rules bar only as keys typed on to
    the entry's last word (``TypedOn``) are read only so (``glued``)."""
    tail_held: str = ""
    glued: str | None = None
    """The last word typed for the entry that ended by itself before this line (lower-cased), while the keys typed
    here go on from it with no space between: keys that spell with it a word ``tail`` refuses (``alex``, where
    ``a`` took Corinth's candidate A and Alex stands nowhere there) are held while they may, and refused as
    ``AFTER`` and the word once a space, comma or Enter ends it; a key that leaves those words begins the line with
    the keys held that went beyond the taken word. Such keys never answer this prompt."""
    on: "Tail" = dataclasses.field(default_factory=dict)
    on_held: str = ""
    on_from: int = 0  # where, in ``on_held``, the keys that left the taken word's spelling begin
    word: str | None = None  # the last word typed when a word was taken (without a space after it): ``glued`` next
    shown: str = ""
    """What the screen shows after the prompt: the line, and after it the keys held (``pending``), each shown as
    typed while it may still spell a word, so that a person sees what they type; taken back on the screen once the
    word is swallowed (the taken word typed on, a word that confirms the entry before) or the keys go into the
    line as read."""
    pending: str = ""
    kept: int = 0  # keys of a word of ``tail`` that confirmed the entry before, shown until the word's end
    as_typed: str | None = None
    """The line as typed when its last word was taken before its end (``mc``, not yet ``megara-candidate``): what
    the line becomes again when keys typed on leave that word's spelling and begin no name (a slip inside it)."""
    glued_from: str = ""  # ``glued`` as given: typed at the prompt before, so never shown here

    def __post_init__(self) -> None:
        self.glued_from = self.glued or ""
        if self.tail is not None:
            self.on = {w: why for w, why in self.tail.items() if why is not None}  # refused typed on, or apart
            self.tail = {w: why for w, why in self.tail.items() if not isinstance(why, TypedOn)} or None

    def key(self, ch: str) -> tuple[str, tuple[str, bool] | None]:
        if self.enter_after_end and ch in "\r\n" and not (self.text or self.tail_held or self.on_held):  # the Enter
            self.enter_after_end = False  # typed after an entry that ended by itself (and after the keys spelling
            self.pending, self.kept = "", 0  # its word on): no line, no prompt, and those keys no longer shown
            return self._show(self.text), None
        done = self._key(ch)
        self.enter_after_end = self.enter_after_end and not (self.text or self.tail_held or self.on_held)
        if self.text:
            self.tail = None  # the line has begun: no word of it is typed on to the entry before
        if done is not None and done[0].startswith(AFTER):  # refused as typed on to the entry before: the word
            self.pending = self.shown = ""  # stays on the line as typed, and the line ends
            return "\n", done
        self.pending = _held_shown(self.pending, ch, self._holding())
        echo = self._show(self.text + self.pending)
        return (echo + "\n", done) if done is not None else (echo, None)

    def _holding(self) -> int:
        """How many keys typed at this prompt are held now (not in ``text``): while they may still spell the word
        taken, a word of ``tail``, or a word refused as typed on to the entry before (``on_held`` holds the word
        ``glued`` too, typed at the prompt before)."""
        typed_on = len(self.on_held) - len(self.glued_from) if self.on_held else 0
        return typed_on + len(self.tail_held) + len(self.held) + self.kept

    def _show(self, line: str) -> str:
        """What to write for the screen to show ``line`` after the prompt where it shows ``shown``: backspaces over
        what differs, then the rest of ``line``."""
        same = len(os.path.commonprefix([self.shown, line]))
        echo = "\b \b" * (len(self.shown) - same) + line[same:]
        self.shown = line
        return echo

    def _key(self, ch: str) -> tuple[str, bool] | None:
        """Take one key: the line and whether it ended by itself once it ends, else None."""
        self.took = False
        if self.on_held:
            handled, done = self._on_key(ch)
            if handled:
                return done
        glued, self.glued = self.glued, None
        if self.rest is not None and ch not in "\x7f\b":
            if isinstance(self.rest, Abbreviated):  # an abbreviation typed on, its word or a later one's start
                on = self.rest.on(ch)
                if on is not None:
                    self.rest, self.held, self.glued = on, self.held + ch, glued
                    return None
            elif self.rest and fold(ch) == self.rest[0]:  # the taken word, typed on: nothing new
                self.rest, self.held, self.glued = self.rest[1:], self.held + ch, glued
                return None
            spelled, back = not self.rest, self.held
            self.rest, self.held, self.kept = None, "", 0
            if ch in " ,":  # the word's end: the space after it is there already (and after this one, any more)
                self.rest = ""
                return None
            if glued is not None and self._typed_on(glued + back.lower(), ch):
                return None
            if not spelled and back and ch >= " " and (self.begins is None or self.begins(self.text + back + ch)):
                self.text += back  # another word, which the keys held back begin
            elif not spelled and back and ch.isalpha() and self.as_typed is not None:
                # the keys held went on spelling the word taken and this letter leaves it, beginning no name with
                # them: a slip inside that word ('egpyt' after 'e' took egypt), never the start of the next one (the
                # 'p' took persia): the word stands as typed, taken no more, and is refused at Enter unless mended.
                # Any other key begins the next word alone ('vig2': Vigia, then card 2)
                self.text = self.as_typed + back
        elif glued is not None and not self.text and self._typed_on(glued, ch):
            return None
        if self.tail is not None and not self.text and self.rest is None:
            handled, done = self._tail_key(ch)
            if handled:
                return done
        if ch in "\r\n":
            return self.text, False
        if ch in "\x7f\b":
            if self.held and isinstance(self.rest, Abbreviated):
                self.rest, self.held = self.rest.back(), self.held[:-1]
            elif self.held:
                self.rest, self.held = fold(self.held[-1]) + (self.rest or ""), self.held[:-1]
            elif self.kept:
                self.kept -= 1  # a key of a word that confirmed the entry before, rubbed out on the screen
            elif self.text:
                self.rest, self.text = None, self.text[:-1]
            return None
        if ch == "\x15":  # Ctrl-U: the whole line
            self.text, self.rest, self.held, self.kept = "", None, "", 0
            return None
        if ch == "\x04":
            if not self.text:
                raise EOFError
            return None
        if ch < " ":
            return None
        typed = self.text + ch
        self.text += ch
        settled = self.complete(self.text)
        if settled is None:
            return None
        now, ended = settled
        self.text, self.rest, self.took = now, _rest_of(typed, now), True
        self.as_typed = typed if ch not in " ," else None
        self.word = typed.replace(",", " ").split()[-1].lower() if ch not in " ," else None
        return (self.text, True) if ended else None

    def _typed_on(self, prefix: str, ch: str) -> bool:
        """Whether ``ch``, typed on to ``prefix`` (the word that ended the entry before, and the keys typed here
        that went on spelling the word taken for it), may spell a word the entry's ``tail`` refuses so: it is then
        held."""
        word = prefix + ch.lower()
        if not (ch > " " and ch != "," and any(w.startswith(word) for w in self.on)):
            return False
        self.on_held, self.on_from = word, len(prefix)
        return True

    def _on_key(self, ch: str) -> tuple[bool, tuple[str, bool] | None]:
        """A key while ``on_held`` may still spell a word refused as typed on to the entry before: whether it was
        taken so, and the line if it ended; not taken once it leaves them (the keys held that went beyond the taken
        word are then the line's text, and the key goes on as any)."""
        held = self.on_held
        if ch in "\x7f\b":
            self.on_held = held[:-1] if len(held) > self.on_from + 1 else ""
            return True, None
        if ch in " ,\r\n":  # the word's end: refused in one line, never read here
            word = held if held in self.on else sorted(w for w in self.on if w.startswith(held))[0]
            self.on_held, self.on = "", {}
            return True, (AFTER + word, False)
        if ch > " " and any(w.startswith(held + ch.lower()) for w in self.on):
            self.on_held = held + ch.lower()
            return True, None
        self.text, self.on_held, self.on = held[self.on_from:], "", {}
        return False, None

    def _answers(self, word: str) -> bool:
        """Whether ``word`` alone on the line names one answer at this prompt (``an``, the tile ``any`` at a Perikles
        display's refill): a word the entry before refuses is then this prompt's, as the person reading it meant."""
        return self.complete(word) is not None or self.complete(word + " ") is not None

    def _confirms(self, keys: str) -> bool:
        """Whether every word of ``tail`` that ``keys`` may still become confirms the entry before."""
        assert self.tail is not None
        return all(why is None for w, why in self.tail.items() if w.startswith(keys.lower()))

    def _tail_key(self, ch: str) -> tuple[bool, tuple[str, bool] | None]:
        """A key of the line's first word while it may still be a word of ``tail``: whether it was taken so, and
        the line if it ended; not taken once the word is none of them (the keys held back are then the line's
        text, and the key goes on as any)."""
        assert self.tail is not None
        held = self.tail_held
        if ch in "\x7f\b" and held:
            self.tail_held = held[:-1]
            return True, None
        if ch in " ,\r\n" and held:
            found = {w: why for w, why in self.tail.items() if w.startswith(held)}
            whys = {self.tail[held]} if held in self.tail else set(found.values())  # 'a' itself, not also 'ana'
            if found and whys == {None}:  # the value typed on, or its name: the entry stands as recorded, and
                self.tail_held = ""  # the next word may be another ('spaa ath bru': the city, then the candidate)
                return True, None
            if len(whys) == 1 and None not in whys and not self._answers(held):  # a value the rules bar there
                self.tail, self.tail_held = None, ""  # and naming nothing here: said, nothing read here, by the
                return True, (AFTER + (held if held in found else min(found)), False)  # word it begins ('ana')
        elif ch > " " and ch != "," and any(w.startswith(held + ch.lower()) for w in self.tail) and not (
                self._confirms(held + ch) and self.complete(held + ch) is not None):
            held = self.tail_held = held + ch.lower()
            # can only confirm the entry ('bru' of bruno): taken, and the keys spelling it on, and the space after,
            # swallowed (shown until then); not while the keys may also begin an answer here ('ath' of athens, the
            # city an assassin's entry filled in, at a draw of athens-2): held to the word's end, or to a key that
            # leaves the words ('ath2'), and never once this prompt takes them at once (the tile athens-2 where no
            # other Athens tile is drawn: the key above goes on as any)
            if self._confirms(held) and not (self.begins is not None and self.begins(held)):
                found = [w for w in self.tail if w.startswith(held)]
                self.tail_held = ""  # (the tail kept for a next word, as above)
                self.rest, self.kept = max(found, key=len)[len(held):], len(held)
            return True, None
        elif not held and ch in " ,\r\n":
            return False, None
        self.tail, self.tail_held, self.text = None, "", held
        return False, None


def _held_shown(shown: str, ch: str, holding: int) -> str:
    """The keys held shown after the line, once ``ch`` is taken: the last ``holding`` keys typed (``ch`` among
    them unless it rubbed one out), none once nothing is held (the keys went into the line, or were swallowed)."""
    if not holding:
        return ""
    keys = shown[:-1] if ch in "\x7f\b" else shown + ch if ch >= " " else shown
    return keys[-holding:]


AFTER = "\x00after "
"""Begins the line ``read`` gives for a word typed on to the entry before it that the entry's ``tail`` refuses."""

Tail = dict[str, "str | None"]
"""Words that may be typed on to an entry that ended by itself (lower-cased): ``None`` for one that confirms it,
else why the rules refuse it (core.steps.names_after)."""

_carry: str | None = None
"""The rest of the word that ended the last entry by itself, still to be swallowed if it is typed on."""

_glued: str | None = None
"""The last word typed for the entry that ended by itself, as typed (``Typing.glued``)."""


def _rest_of(typed: str, now: str) -> "str | Abbreviated | None":
    """What of the word just taken the person has not typed: its rest when the word typed is the start of the word
    shown (``os`` when ``mel`` took ``Melos``) or of one of its later parts (``asus`` when ``peg`` took
    ``creature.pegasus``); for an abbreviation of its words, what may go on abbreviating them (``Abbreviated``: the
    ``a`` of ``rca`` after ``rc`` took ``rome.caesar``, the ``r`` of ``pwr`` after ``pw`` took
    ``persia.war-rhino``); else None."""
    words_typed, words_now = typed.split(), now.split()
    if not words_typed or not words_now:
        return None
    last, shown = fold(words_typed[-1]), fold(words_now[-1])  # 'lingua' spells Língua on
    for at in [0, *(m.end() for m in _PARTS.finditer(shown))]:
        if shown[at:].startswith(last):
            return shown[at + len(last):]
    typed_on = Abbreviated(_PARTS.sub("", last), tuple(w for w in _PARTS.split(shown) if w))
    return typed_on if typed_on.token and typed_on.fits(typed_on.token) else None


@dataclass(frozen=True)
class Abbreviated:
    """A word taken from an abbreviation of its words (``rc`` for ``rome.caesar``): the keys typed for it, and its
    words. A key goes on with it while all typed still abbreviates the words (prefixes of them in order, from the
    first or a later one, as core.entry reads an abbreviation): ``a`` after ``rc``, then ``esar``."""

    token: str
    words: tuple[str, ...]

    def fits(self, token: str) -> bool:
        return any(_abbreviates(token, self.words[i:]) for i in range(len(self.words)))

    def on(self, ch: str) -> "Abbreviated | None":
        token = self.token + fold(ch)
        return Abbreviated(token, self.words) if ch.isalnum() and self.fits(token) else None

    def back(self) -> "Abbreviated":
        return Abbreviated(self.token[:-1], self.words)

    def __bool__(self) -> bool:  # never spelled to its end: a key that leaves it may begin the next word
        return True


def _abbreviates(token: str, words: tuple[str, ...]) -> bool:
    """``token`` is made of a non-empty prefix of each of ``words[0]``, ``words[1]``, ... in order (it may stop
    early)."""
    if not token:
        return True
    if not words:
        return False
    first = words[0]
    return any(token[:k] == first[:k] and _abbreviates(token[k:], words[1:])
               for k in range(min(len(token), len(first)), 0, -1))


_PARTS = re.compile(r"[-._ ]+")


def is_terminal_in() -> bool:
    """Whether standard input is a terminal (a person types there, not a script)."""
    try:
        return os.isatty(sys.stdin.fileno())
    except (AttributeError, ValueError, OSError):
        return False


def _is_tty() -> bool:
    try:
        return os.isatty(sys.stdin.fileno()) and os.isatty(sys.stdout.fileno())
    except (AttributeError, ValueError, OSError):
        return False

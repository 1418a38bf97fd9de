"""agon: record, replay, branch and plot tabletop games as immutable event logs.

The installed package is one namespace: ``agon.core``, ``agon.events``, ``agon.cli``, ``agon.analysis`` and
``agon.server`` are the project's top-level folders of the same names, mapped under ``agon`` by setup.py.

It is also the first of agon's code the ``agon`` command runs (its script imports ``agon.cli.app``, which imports
this package first), so Ctrl-C is taken in hand here (``_ctrl_c_before``): the imports of a command take half a
second or more, and an interrupt during them printed Python's traceback of whichever import it stopped.
"""

import os
import signal
import sys

INTERRUPTED = 130
"""The exit status of agon stopped by Ctrl-C (128 + SIGINT, as shells report it), whenever it comes."""

_taken = False
"""Whether this process is the ``agon`` command with Ctrl-C taken in hand (``_ctrl_c_before``)."""


def _ctrl_c_before(signum: int, frame: object) -> None:
    """Ctrl-C before the command begins (its imports): one line and status 130, nothing to undo (nothing was opened
    or printed). Written straight to the file descriptor: Python's streams may be half set up, or mid-write."""
    said = "stopped (Ctrl-C) before the command began; nothing was recorded"
    line = f'{{"error": "{said}"}}\n' if "--json" in sys.argv[1:] else f"error: {said}\n"
    try:
        os.write(2, line.encode())
    finally:
        os._exit(INTERRUPTED)


def _ctrl_c_again(signum: int, frame: object) -> None:
    """Ctrl-C once the command has been stopped by one (it is saying so, or closing its store) or has ended: no
    further line, and status 130 at once, with what it printed so far flushed (``command_ended``)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - interrupted mid-write, or closed: nothing more to save
            pass
    os._exit(INTERRUPTED)


def _ctrl_c_once(signum: int, frame: object) -> None:
    """Ctrl-C while the command runs: ``KeyboardInterrupt``, which Typer and the command turn into their one line
    and status 130 (cli/app.py); a second one while that is said ends the process without another."""
    signal.signal(signal.SIGINT, _ctrl_c_again)
    raise KeyboardInterrupt


def command_starts() -> None:
    """The command's own code begins (cli/app.py ``main``): Ctrl-C raises ``KeyboardInterrupt`` for it to handle."""
    if _taken:
        signal.signal(signal.SIGINT, _ctrl_c_once)


def command_ended() -> None:
    """The command has ended (its line said, its store closed): Ctrl-C while Python shuts down ends it at once with
    status 130, instead of a traceback from wherever the interpreter was."""
    if _taken:
        signal.signal(signal.SIGINT, _ctrl_c_again)


def _ctrl_c_in_worker(signum: int, frame: object) -> None:
    """Ctrl-C in a worker the command started (uvicorn's, for ``agon serve --workers N``) while it still imports,
    before its server takes SIGINT: it ends without a word, the command's own process says what happened."""
    os._exit(INTERRUPTED)


def _which_process() -> str:
    """'command': this process is the ``agon`` command (its script, or ``python -m agon``, whose argv[0] reads '-m'
    while the package is imported); 'worker': a process it started afresh (spawned: uvicorn's workers), given its
    argv and importing agon again; '': a program importing agon as a library (a test runner)."""
    spawner = sys.modules.get("multiprocessing")
    me = spawner.current_process() if spawner is not None else None
    child = me is not None and (me.name != "MainProcess" or getattr(me, "_inheriting", False))
    first = sys.argv[0] if sys.argv else ""
    script = os.path.basename(first).removesuffix(".exe").removesuffix("-script.py") == "agon"
    if child:
        return "worker" if script or first.endswith(os.path.join("agon", "__main__.py")) else ""
    return "command" if script or first == "-m" else ""


_PROCESS = _which_process()
if _PROCESS and signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not ignored (nohup, a '&' job)
    try:
        signal.signal(signal.SIGINT, _ctrl_c_before if _PROCESS == "command" else _ctrl_c_in_worker)
        _taken = _PROCESS == "command"
    except ValueError:  # not the main thread: signals are not this thread's to take
        pass


def __getattr__(name: str) -> str:
    """``agon.__version__``, read from the installed package's metadata when first asked for (``agon --version``,
    the server's API document): finding it scans the installed distributions, about 3 ms that every other command
    would pay at startup."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("agon")
    except PackageNotFoundError:  # a checkout used without installing it
        found = "0+unknown"
    globals()["__version__"] = found
    return found

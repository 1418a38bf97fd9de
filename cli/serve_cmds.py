"""agon serve: the game service over HTTP for players in different places (issue 16)."""

import errno
import os
import re
import socket
from typing import Annotated

import typer

from agon.cli.common import (
    WORKERS,
    Fail,
    console,
    db_url,
    every_ruleset,
    examples,
    friendly,
    service,
    set_db,
    whole,
)
from agon.events.store import without_password

app = typer.Typer()

MAX_BODY = 2**30  # 1 GiB: a request is read whole into memory, and a game file of a long game is a few MB


def _address(value: str) -> str:
    """``--host``: an address, not an empty word (which the server would read as every network's), and one a
    socket can encode (a name not in ASCII is encoded as IDNA, which refuses a label over 63 characters or bytes of
    the argument that were not UTF-8)."""
    try:
        idna = str(value).isascii() or bool(str(value).encode("idna"))
    except UnicodeError:
        idna = False
    if not str(value).strip() or str(value) != str(value).strip() or not idna:
        raise typer.BadParameter(f"{str(value)!r} is no address; give one, e.g. 127.0.0.1 (this machine only) or"
                                 " 0.0.0.0 (every network)")
    return str(value)


def _root_path(value: str) -> str:
    """``--root-path``: a path under which a proxy serves agon, such as /agon (a trailing slash is let go); plain
    letters, digits and ``-._~`` in each part, so that it stands in every link and page as typed."""
    text = str(value).strip().rstrip("/")
    if text and not re.fullmatch(r"(/[A-Za-z0-9._~-]+)+", text):
        raise typer.BadParameter(f"{str(value)!r} is no path to serve under; give one such as /agon (letters, digits"
                                 " and -._~ between its slashes)")
    return text


def _check_listen(host: str, port: int) -> None:
    """Bind ``host:port`` as uvicorn will (its family, SO_REUSEADDR) and let go: a busy port or an address this
    machine does not have is agon's one-line error, where uvicorn logs its own and exits with status 3."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except socket.gaierror as e:
            raise Fail(f"cannot listen on --host {host}: no such address ({e.strerror}); give an address of this"
                       " machine, e.g. 127.0.0.1 (this machine only) or 0.0.0.0 (every network)") from None
        except OSError as e:
            what = ("the port is in use (another program, or another agon serve, listens there); choose another"
                    " --port" if e.errno == errno.EADDRINUSE else f"{e.strerror}; choose another --host or --port")
            raise Fail(f"cannot listen on {host}:{port}: {what}") from None


EVERY_NETWORK = {"0.0.0.0": socket.AF_INET, "::": socket.AF_INET6}
"""The addresses that mean every network of this machine: a server listening there is opened at one of the
machine's own addresses, never at this one (a browser cannot open http://0.0.0.0:8000/ from another machine)."""


def this_machines_addresses(family: socket.AddressFamily) -> list[str]:
    """This machine's address on its network in ``family``: the one its traffic leaves from, found by pointing a UDP
    socket at a documentation address (RFC 5737, 3849), which sends nothing and asks no name server. None found (no
    network, loopback only): an empty list."""
    far = "192.0.2.1" if family == socket.AF_INET else "2001:db8::1"
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((far, 9))
            address = s.getsockname()[0]
    except OSError:
        return []
    if address.startswith("127.") or address in ("::1", "0.0.0.0", "::") or address.startswith("fe80:"):
        return []
    return [address]


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def where_to_open(host: str, port: int) -> tuple[str, str]:
    """Where the server listening on ``host`` is, and where players open it: that address; or for every network
    (0.0.0.0, ::) this machine's own address on the network, with 127.0.0.1 for this machine, or what to look up
    when none is known."""
    if host not in EVERY_NETWORK:
        return f"on {_url(host, port)}", ""
    families = [socket.AF_INET] if host == "0.0.0.0" else [socket.AF_INET6, socket.AF_INET]  # '::' takes IPv4 too
    found = [_url(a, port) for f in families for a in this_machines_addresses(f)]
    here = _url("127.0.0.1" if host == "0.0.0.0" else "::1", port)
    where = f"on every network of this machine, port {port}"
    if not found:
        return where, (f": players open http://ADDRESS:{port}/ with this machine's address on their network ({here} on"
                       " this machine)")
    return where, (f": players open {' or '.join(found)} (or the machine's address on their network; {here} on this"
                   " machine)")


@app.command(epilog=examples("agon serve --db club.db", "agon serve --db postgresql+psycopg://agon@db/agon"
                             " --host 0.0.0.0 --workers 2"))
@friendly
def serve(
    db: Annotated[str | None, typer.Option("--db", help="The store (as agon --db; default: AGON_DB, else agon.db"
                                           " in your data directory).")] = None,
    host: Annotated[str, typer.Option(help="The address to listen on (0.0.0.0: every network).",
                                      parser=_address)] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.", parser=whole(1, 65535))] = 8000,
    workers: Annotated[int, typer.Option(help="Worker processes (several need PostgreSQL to share the work"
                                         " well; SQLite serialises writers).", parser=WORKERS)] = 1,
    max_body: Annotated[int, typer.Option("--max-body", help="The largest request body, in bytes.",
                                          parser=whole(1, MAX_BODY))] = 4 * 1024 * 1024,
    root_path: Annotated[str, typer.Option("--root-path", help="The path a proxy serves agon under (/agon for"
                                           " https://HOST/agon/), which it takes off before passing a request on:"
                                           " every link, page and script address is made under it.",
                                           parser=_root_path)] = "",
) -> None:
    """Serve the games over HTTP: a JSON API (/openapi.json), seat links that only their players can open, and
    live event streams. Creating a game answers one secret link per person's seat and one for the host."""
    import uvicorn

    if db is not None:
        set_db(db, typed=True)  # as 'agon --db': an empty one is refused, not read as the default store
    every_ruleset()  # an AGON_RULESETS module that does not import: said now, not as each request's 500
    _check_listen(host, port)  # first: a server that cannot listen creates no store either
    url = db_url()
    store = service(starts=True).store  # opens (and if needed creates) the store once, before any worker starts
    os.environ["AGON_DB"] = url
    os.environ["AGON_MAX_BODY"] = str(max_body)
    workers_said = f"{workers} worker{'s' * (workers > 1)}"
    where, players_open = where_to_open(host, port)
    if root_path:  # the players open the proxy's address: what this machine listens on is the proxy's to reach
        where, players_open = f"{where} under {root_path}/ behind a proxy", (
            f": players open the proxy's address, https://HOST{root_path}/, which passes requests on without"
            f" {root_path}")
    console.print(f"agon serves {without_password(url)} {where} ({workers_said}){players_open};"
                  f" the API is described at {root_path}/openapi.json. Ctrl-C stops it.", markup=False)
    if store.read_only_as_opened:  # said before anyone is sent a link: every game it would start or play is refused
        console.print(f"The store is read-only ({store.read_only_why}): its games can be watched and read, not"
                      " created or played on.", markup=False)
    try:
        uvicorn.run("agon.server.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                    root_path=root_path,
                    log_level="warning", timeout_graceful_shutdown=3,
                    http="agon.server.protocol:HeaderDeadline")  # a request's headers must arrive within 30 s
    except SystemExit as e:
        # uvicorn exits with status 3 when it cannot start (the port taken since the check above); it has logged
        # why, so this adds the one line and the status agon gives every failure
        if e.code == 3:
            raise Fail(f"the server could not start on {host}:{port} (see uvicorn's message above)") from None
        raise
    # uvicorn returns once Ctrl-C (or SIGTERM) has shut it down, its requests answered: a stop asked for, status 0,
    # said in a line (it ended without a word, which read as a crash or a hang)
    console.print(f"agon serve stopped; the games stay in {without_password(url)}.", markup=False)
    global stopped
    stopped = True


stopped = False
"""Whether 'agon serve' stopped as asked, its server shut down and its store closed: the process then ends without
tearing its interpreter down (cli/app.py ``main``, ``leave``)."""


def leave(code: int) -> None:
    """End this process at once, once 'agon serve' has stopped: its output flushed and the exit handlers run (logging,
    what the libraries registered), but not the interpreter's teardown, which freed every module and object one by
    one: 0.3 to 1 s after 'stopped' was said on an idle machine, 2.4 s on a busy one, with nothing left to write (the
    server's store and the command's are closed by then)."""
    import atexit
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a pipe the reader closed: nothing more to tell it
            pass
    atexit._run_exitfuncs()
    os._exit(code)

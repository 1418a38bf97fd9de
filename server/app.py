"""The ASGI application of ``agon serve``: routes, the body size limit, JSON errors and the OpenAPI document.

Every worker is stateless: it holds one ``Service`` over the store named by ``--db``, and the store's
compare-and-swap on branch heads keeps one winner per race, so several workers (or machines) can share one
PostgreSQL database. ``create_app`` builds the app for a store URL; ``app_from_env`` is uvicorn's factory for
workers, reading the URL from ``AGON_DB``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import threading
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agon.core.service import Service
from agon.events.store import Store, Unavailable
from agon.events.summary import ORDERS
from agon.server import api, decide, pages, schemas
from agon.server.schemas import BRANCH, EVENT_NUMBER, QUERY_LIMIT, QUERY_WAIT, STR, Answer, Op, Param

THREADS = 8
"""Worker threads for the service's (blocking) calls per worker process."""
MAX_BODY = 4 * 1024 * 1024
"""The largest request body accepted (an exported game of a few thousand events fits)."""

ACT_HINTS = {"branch": "play goes on the game's current branch; the host switches branches"}
"""What a field /act does not take is for: said when a client sends it."""


def _post(path: str, fn: Any, summary: str, who: str, answer: Answer, errors: tuple[int, ...] = (), *,
          body: dict[str, Any], hints: dict[str, str] | None = None, **kw: Any) -> Op:
    """A POST route whose JSON body is held to ``body`` (server/bodies.py): the schema the document declares for
    it, so what the route takes and what the document says it takes are one."""
    return Op("POST", path, api.route(fn, body=body, hints=hints), summary, who, answer, errors, body=body, **kw)


def _get(path: str, fn: Any, summary: str, who: str, answer: Answer, errors: tuple[int, ...] = (),
         query: tuple[Param, ...] = (), **kw: Any) -> Op:
    """A GET route whose query is held to the parameters ``query`` declares (server/queries.py): a parameter it
    does not declare (but ``token``), or a value outside its schema, is a 400 naming it."""
    return Op("GET", path, api.route(fn, query=query), summary, who, answer, errors, query, **kw)


def _enum(values: list[str]) -> dict[str, Any]:
    return {"type": "string", "enum": values}


EVENTS_QUERY = (BRANCH, Param("since", EVENT_NUMBER,
                                     "the last event the client has; the Last-Event-ID header (the id of the last"
                                     " message read, such as 12.a1b2c3d4) is preferred: it also tells an event"
                                     " taken back and played again another way ('moved')"),
                Param("wait", QUERY_WAIT,
                      f"seconds until the stream ends (default {schemas.WAIT_MAX})"),
                Param("seat", STR, "a page's own seat, by the key POST /stream-seat answered: the seat is named"
                                   " by the cookie that route set, so the address carries no token"),
                Param(api.FACE_PARAM, _enum(list(api.FACES)),
                      "'page': refusals name what a seat's page shows, not routes (the header 'Agon-Face' does"
                      " this elsewhere; a browser's EventSource cannot send it)"))

ROUTES: list[Op] = [
    _get("/api/rulesets", api.list_rulesets, "The rulesets a game can be created with.", "anyone",
         Answer("Rulesets")),
    _get("/api/games", api.list_games, "Every game with its status, as `agon games` lists them.",
         "anyone", Answer("Games"),
         query=(Param("ruleset", STR, "only this ruleset's games"), Param("status", _enum(["over", "playing"])),
                Param("order", _enum(list(ORDERS)), "default: oldest"),
                Param("limit", QUERY_LIMIT, "at most this many games (default: all)"))),
    _post("/api/games", api.create_game,
          "Create a game: answers one secret link per person's seat and the host's.", "anyone", Answer("Created", 201),
          body=schemas.CREATE, example={"ruleset": "pergamemnon", "players": ["Ana", "Bo"],
                                        "bots": [{"name": "Cy", "kind": "random"}], "seed": 7}),
    Op("POST", "/api/import", api.route(api.import_game, raw_body=True),
       "A new game from a file written by `agon export` (the body); answers its links; 409 if already stored.",
       "anyone", Answer("Created", 201), (409,), body=STR, body_media=schemas.NDJSON,
       notes={409: "the game is already stored on this server"}),
    _get("/api/games/{game}", api.get_state, "The game now as the caller's seat sees it.",
         "anyone (a seat's token: that seat's view)", Answer("State"), (403,), (BRANCH,)),
    _get("/api/games/{game}/options", api.get_options,
         "Who acts now; the legal decisions for that player's own seat only.", "anyone", Answer("Options"), (403,),
         (BRANCH, Param("brief", _enum(list(api.BRIEF)), "with 'stepwise': leave the long list out"))),
    _get("/api/games/{game}/steps", decide.next_step,
         "The acting seat's decision built step by step: the next step's choices after the steps 'chosen' (their"
         " values, separated by spaces), or the finished decision; 'choice' is what /act takes.", "the acting seat",
         Answer("Steps"), (401, 403, 409), (BRANCH, Param("chosen", STR, "the values of the steps taken so far")),
         notes={409: "no decision is pending now (a chance outcome is due, or the game is over)"}),
    _post("/api/games/{game}/act", api.act,
          "Record a decision (the acting seat) or a chance outcome (the host of a table game).", "a seat",
          Answer("Acted"), (401, 403, 409, 422), body=schemas.ACT, hints=ACT_HINTS,
          example={"choice": 3, "expect": "12.a1b2c3d4"},
          notes={409: "someone else recorded first, the game moved on since 'expect', or the game is over (the host"
                      " may branch from an earlier position to play on)"}),
    _post("/api/games/{game}/undo", api.undo,
          "Take back a decision: a player their own last one while nobody acted since and nothing was revealed;"
          " the host any number; with 'expect', only while the game stands where the caller saw it.", "a seat",
          Answer("Undone"), (401, 403, 409), body=schemas.UNDO, example={"expect": "12.a1b2c3d4"},
          notes={403: "the token does not allow it: the undo policy refuses this player's undo (the sentence says"
                      " why: nothing of theirs to take back, someone acted since, a chance was drawn, the decision"
                      " showed something hidden, or more than 1 step), or a player named a branch not played; the"
                      " host may",
                 409: "someone else moved the line first, the game moved since 'expect' (nothing was undone), or"
                      " the host's undo finds nothing to take back on it"}),
    _post("/api/games/{game}/redo", api.redo,
          "Redo the last undo; with 'expect', only while the game stands where the caller saw it.", "the host",
          Answer("Redone"), (401, 403, 409), body=schemas.REDO, example={"expect": "12.a1b2c3d4"},
          notes={409: "nothing to redo (the sentence says why, and where the line goes on), the game moved since"
                      " 'expect' (nothing was redone), or someone else moved the line first"}),
    _get("/api/games/{game}/branches", api.list_branches, "The game's lines.", "anyone", Answer("Branches"),
         (403,)),
    _post("/api/games/{game}/branch", api.make_branch, "A new line, made the one played.", "the host",
          Answer("Head"), (401, 403, 409), body=schemas.MAKE_BRANCH,
          notes={409: "the game already has a branch of that name, or someone else moved the line first"}),
    _post("/api/games/{game}/switch", api.switch, "Play on another line.", "the host", Answer("Head"), (401, 403),
          body=schemas.SWITCH),
    _get("/api/games/{game}/log", api.get_log,
         "The line's events from 'from', told as the caller's seat may read them.", "anyone", Answer("Log"), (403,),
         (BRANCH, Param("from", EVENT_NUMBER, "the first event (default 0)"))),
    _get("/api/games/{game}/export", api.export,
         "The whole game as `agon export` writes it (with ?branch=NAME: that line only).", "the host",
         Answer(STR, media=schemas.NDJSON), (401, 403), (Param("branch", STR, "that line only"),)),
    _post("/api/games/{game}/stream-seat", api.stream_seat,
          "Name the caller's seat to this game's event stream in a cookie sent to that stream alone (HttpOnly,"
          " SameSite=Strict), so a page opens its stream as /events?seat=KEY, no token in its address.", "a seat",
          Answer("StreamSeat"), (401, 403), body=schemas.STREAM_SEAT),
    Op("GET", "/api/games/{game}/events", api.streaming(EVENTS_QUERY),
       "Server-sent events: each new event ('recorded'), 'moved' after an undo or switch, and 'status'; each"
       " message's data is JSON, of the shape 'x-events' names for its kind.",
       "anyone (?token= for a seat's own record)", Answer(STR, media=schemas.SSE), (403,), EVENTS_QUERY,
       extra={"x-events": {kind: schemas.ref(shape) for kind, shape in schemas.STREAM_EVENTS.items()}}),
]
"""The API's routes: what each does, who may call it, what it takes and answers (server/schemas.py)."""


def openapi(root: str = "") -> dict[str, Any]:
    """The OpenAPI document, from the route table above; ``root``: the path the server is served under behind a
    proxy (``api.root_of``), named as the document's server, so that a client of the document finds its routes
    there (its paths are the routes' own, from the root)."""
    from agon import __version__

    document = schemas.document(ROUTES, __version__)
    return {**document, "servers": [{"url": root}]} if root else document


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes with a 413 line, before the route reads them whole."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = JSONResponse({"error": f"the request body is larger than {self.limit} bytes"}, status_code=413)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await too_big(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooBig
            return message

        try:
            await self.app(scope, limited, send)
        except _TooBig:
            await too_big(scope, receive, send)


class _TooBig(Exception):
    pass


_ABSOLUTE = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*")
_ABSOLUTE_RAW = re.compile(rb"[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*")


class RequestTarget:
    """A request's target read as HTTP/1.1 says (RFC 9112, 3.2): a path, or a whole address (``GET
    http://HOST/api/games``, the absolute form a client configured to reach the server as a proxy sends, which a
    server must accept), read as its path; any other (``api/games`` with no '/', ``*``, a CONNECT's ``HOST:PORT``)
    is a 400 sentence. Before, such a target was a 404 naming a path the server does serve
    (``no such page or endpoint: /api/games``), or a whole address as if a path (``/http://HOST/api/games``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        root, path = str(scope.get("root_path", "")), str(scope["path"])
        target = path[len(root):] if root and path.startswith(root) else path
        if not target.startswith("/"):
            whole = _ABSOLUTE.match(target)
            if whole is None:
                shown = target if len(target) <= 40 else target[:40] + "..."
                await JSONResponse({"error": f"the request's target {shown!r} is no path; give one that begins with"
                                             f" '/', such as {root}/api/games"}, status_code=400)(scope, receive, send)
                return
            raw = bytes(scope.get("raw_path") or b"")
            raw_target = raw[len(root.encode()):] if root and raw.startswith(root.encode()) else raw
            raw_whole = _ABSOLUTE_RAW.match(raw_target)
            rest = target[whole.end():] or "/"
            raw_rest = (raw_target[raw_whole.end():] if raw_whole else rest.encode()) or b"/"
            scope = {**scope, "path": root + rest, "raw_path": root.encode() + raw_rest}
        await self.app(scope, receive, send)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    path = request.url.path if len(request.url.path) <= 100 else request.url.path[:100] + "..."
    if exc.status_code == 404 and len(path) > 1 and path.endswith("/"):
        # no redirect to the path without it: a client that follows one (a token in its query) might follow it
        # to plain http behind a TLS proxy, and one that does not is answered with nothing it can read
        message = f"no such page or endpoint: {path} (leave out the trailing slash: {path.rstrip('/') or '/'})"
    elif exc.status_code == 404:  # the API's document named under the path the request came under (a proxy's)
        message = f"no such page or endpoint: {path} (the API is listed at {api.api_document(request)})"
    elif exc.status_code == 405:
        message = f"{request.method[:20]} is not allowed on {path} (see {api.api_document(request)})"
    else:
        message = str(exc.detail)
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


def _api_routes() -> list[Route]:
    """One route a path of ``ROUTES``, taking each method the table gives it: a method the path does not take is
    then a 405 whose ``Allow`` names every method it does (a route a method, as before, named only the first's:
    DELETE /api/games answered 'Allow: HEAD, GET', leaving out POST)."""
    by_path: dict[str, dict[str, Any]] = {}
    for op in ROUTES:
        by_path.setdefault(op.path, {})[op.method] = op.handler
    return [Route(path, _by_method(handlers), methods=list(handlers)) for path, handlers in by_path.items()]


def _by_method(handlers: dict[str, Any]) -> Any:
    """An endpoint calling the handler of the request's method (HEAD: GET's, as Starlette adds it for GET)."""
    if len(handlers) == 1:
        return next(iter(handlers.values()))

    async def endpoint(request: Request) -> Any:
        return await handlers["GET" if request.method == "HEAD" else request.method](request)

    return endpoint


def create_app(url: str, *, max_body: int = MAX_BODY, poll: float = 0.5) -> Starlette:
    """The app over the store at ``url``; ``poll`` is how often (seconds) an event stream looks for news."""
    routes = _api_routes()
    routes.append(Route("/openapi.json", lambda request: JSONResponse(openapi(api.root_of(request))), methods=["GET"]))
    routes += pages.routes()
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        import anyio.to_thread

        # Few threads for the service's calls: more only fight over the GIL and starve the event loop.
        anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
        _streams_end_on_stop(app)
        task = asyncio.create_task(app.state.watcher.run())
        try:
            yield
        finally:
            task.cancel()
            # the worker's store closed as it stops, not left to the interpreter's end ('agon serve' ends without
            # tearing the interpreter down, cli/app.py ``main``): SQLite's last connection writes its -wal file into
            # the store's file, so a copy of that file alone holds every game recorded
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), 5)
            with contextlib.suppress(Exception):
                app.state.service.store.close()

    app = Starlette(routes=routes, exception_handlers={HTTPException: _http_error}, lifespan=lifespan)
    app.router.redirect_slashes = False  # '/api/games/' is a 404 saying so, not a 307 (``_http_error``)
    try:
        store = Store(url)
    except Unavailable:
        # the database away as this worker starts ('agon serve' reached it before starting any; uvicorn starts a
        # worker anew after one dies): the worker serves, and each request is a 503 in one sentence until the
        # database answers, rather than the worker dying with a traceback and its requests finding nobody
        store = Store(url, create=False)
    app.state.service = Service(store)
    app.state.poll = poll
    app.state.wakeups = {}
    app.state.stopping = False
    app.state.watcher = api.Watcher(app, poll)
    app.state.feed = api.Feed(app)
    app.state.lines = api.Lines()
    app.state.studies = pages.Studies()
    app.add_middleware(BodyLimit, limit=max_body)
    app.add_middleware(RequestTarget)
    return app


def _streams_end_on_stop(app: Starlette) -> None:
    """Have this worker's event streams end as a stop is asked for (Ctrl-C, SIGTERM), before uvicorn's own handler
    of the signal begins its graceful shutdown. That waits for every open response to end, and a stream ends only
    when its client goes: 'agon serve' with a page open waited its 3 seconds, then cancelled each stream, logging
    'timeout graceful shutdown exceeded' and a traceback per stream. Ended, a page's stream is opened again by the
    browser, at this server once it is started again. Only where uvicorn listens for signals (its main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        before = signal.getsignal(sig)
        if not callable(before):
            continue

        def stop(signum: int, frame: Any, before: Any = before) -> None:
            loop.call_soon_threadsafe(api.end_streams, app)  # in the loop, not inside whatever the signal cut into
            before(signum, frame)

        signal.signal(sig, stop)


def app_from_env() -> Starlette:
    """uvicorn's factory in each worker: the store from ``AGON_DB``, the limit from ``AGON_MAX_BODY``."""
    return create_app(os.environ["AGON_DB"], max_body=int(os.environ.get("AGON_MAX_BODY", MAX_BODY)))

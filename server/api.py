"""The JSON API: what the CLI does for a game, over HTTP, each answer shaped for the seat that asked.

Every route calls the core service (core/service.py) and the seat rules (core/seats.py); nothing here knows a
ruleset's rules or the store's tables. A request names its seat with its token: ``Authorization: Bearer TOKEN``
(or ``?token=TOKEN``, for links and the event stream, which a browser cannot give headers). Without a token a
request sees what every player sees.

Errors are ``{"error": "one sentence"}``: 400 a bad request (a body its route's schema refuses included:
server/bodies.py; and a query its route's declared parameters refuse: server/queries.py), 401 a token is needed
or an Authorization header is not ``Bearer TOKEN`` (``token_of``), 403 the token does not allow it (a player's undo
the undo policy refuses included: the host's would be allowed), 404 no such game, branch or route, 409 someone else
recorded first (the CLI's message), the game moved since the position a request ``expect``s, or the game as it
stands refuses the request (nothing to undo or redo, the game is over, a branch name taken: ``NotNow``), 413 a body
too large, 422 a decision the rules refuse (naming the rule).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from agon.core import entry, registry, seats
from agon.core import steps as steps_mod
from agon.core.bots import bots_of
from agon.core.engine import PUBLIC, Chance, Decision, Step, option_text
from agon.core.service import (
    EVENT_RANGE,
    REDO_ANEW,
    UNDO_ANEW,
    Line,
    Mark,
    NewGame,
    NotFound,
    NotNow,
    RaceLost,
    Recorded,
    Service,
    ServiceError,
    Words,
    position,
    store_trouble,
    told,
)
from agon.core.summary import shared
from agon.server import bodies, queries
from agon.server.schemas import WAIT_MAX, Param, under

HOST = seats.HOST
BODY_WAIT = 30.0
"""Seconds a route waits for a request's whole body (a client that stops sending gets a 408, not a held slot)."""


class Lines:
    """The lines this worker read lately, by (game, branch, head id). A line up to a given head never changes (an
    event's id is its chain hash), so a line found here is the line the store holds: the many readers of one
    position (every seat's page and stream) fold it once. A line read anew that continues one held here (the
    same branch, moved on by another worker or the CLI) is folded from that one's state: only its new events are
    applied. Each worker keeps its own; nothing is shared, and every answer starts from the head the store holds.

    ``size``: a club's games in play, each at the few heads its readers stand at, fit many times over; the lobby
    reads every game, so with more games than ``size`` each entry may be a game of its own: a finished game's line
    held 0.16-0.3 MB, 0.25-0.45 MB with its steps (what streams and logs read), some 230 MB at most per worker."""

    def __init__(self, size: int = 512) -> None:
        self.items: OrderedDict[tuple[str, str, str], Line] = OrderedDict()
        self.latest: dict[tuple[str, str], tuple[str, str, str]] = {}  # (game, branch) -> the key last put
        self.size = size
        self.lock = threading.Lock()

    def get(self, svc: Service, game: str, branch: str | None) -> Line:
        key = seats.head_of(svc, game, branch)
        with self.lock:
            line = self.items.get(key)
            if line is not None:
                self.items.move_to_end(key)
                return line
            base = self.items.get(self.latest.get(key[:2], key))
        line = svc.load(key[0], key[1])
        if base is not None:
            carry(base, line)
        self.put(line)
        return line

    def put(self, line: Line) -> None:
        key = (line.game.id, line.branch.name, line.head.id)
        with self.lock:
            self.items[key] = line
            self.latest[key[:2]] = key
            while len(self.items) > self.size:
                old = self.items.popitem(last=False)[0]
                if self.latest.get(old[:2]) == old:
                    del self.latest[old[:2]]


def carry(base: Line, line: Line) -> None:
    """Give ``line`` its state and steps (what the server reads of a line) from ``base``'s, carried over its new
    events, when ``line`` continues ``base`` (``base``'s head is on ``line``): what ``line`` would fold to from
    the start, at the cost of its new events only."""
    need_state = "state" not in line.__dict__
    steps = base.__dict__.get("_steps")
    need_steps = steps is not None and "_steps" not in line.__dict__
    if not (need_state or need_steps) or line.depth < base.depth:
        return
    new = line.since(base.head.id)
    if new is None:
        return
    rs = line.ruleset
    state = base.state
    steps = list(steps) if need_steps else None
    for env, event in new:
        after = rs.apply(state, event)
        if steps is not None:
            steps.append(Step(env.depth, event, state, after, env.actor))
        state = after
    if need_state:
        line.__dict__["state"] = state
    if steps is not None:
        line.__dict__["_steps"] = steps


def steps_of(line: Line) -> list:
    """``line.steps()``, computed once per line object (lines are cached by head, and carried on)."""
    cached = line.__dict__.get("_steps")
    if cached is None:
        cached = line.__dict__["_steps"] = line.steps()
    return cached


class HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


HTTP_WORDS = Words(
    options="GET /api/games/{game}/options",
    listed=" (GET /api/games/{game}/options lists them)",
    anew="look at GET /api/games/{game}/options again and choose anew",
    play_on="the host may undo the last step (a slip) or branch from an earlier position to play on",
    schema="each option of GET /api/games/{game}/options carries its event as JSON",
    table='created with "table": true (POST /api/games)',
    verify="",  # nothing a caller of the API can do: the server's host checks the store
    games="GET /api/games",
    rulesets="GET /api/rulesets",
    seats=" in 'players' and 'bots'",
    new="POST /api/games",
    asking="request",
    read_only="the games of this server may be read, not played on",
    store="the store",  # where the database is, and its driver's words, are the host's, not a player's
    cause="",
    one_back=' ("steps": 1, or no "steps" at all)',
    several="; send each game's export in a request of its own",
)
"""What the service's refusals tell a caller of this API to do next (the command line's words name commands): a
route, or nothing where the API has none; a web player is never told to run a command."""

PAGE_WORDS = Words(
    options="the decisions your page lists",
    listed=" (your page lists them)",
    anew="your page now shows the game as it stands; choose again from what it offers",
    play_on="the host may take the last step back with the undo on their page (a slip), one at a time, and play"
            " on from there",
    schema="type the outcome as the page asks (numbers, card ids or 'seed'), not an event as JSON",
    table="created with 'played at a real table' ticked in the lobby",
    verify="",
    games="the lobby",
    rulesets="the lobby",
    seats=" in the lobby's form",
    new="the lobby's form",
    asking="action",
    read_only="the games of this server may be read, not played on",
    store="the store",
    cause="",
    one_back=", one at a time, with the undo on their page",
    several="; import each game's export on its own",
    decide="choose {a} decision among those your page lists (a decision of many variants is built there a step at a"
           " time), or type its steps in order, as the buttons name them",
    json_too="",
    not_json="nothing your page takes begins with '{{' (it takes no JSON)",
)
"""The same steps for a person at a seat's page (server/pages.py), whose requests say so (``FACE``): the page's own
buttons and lists, never a route to request (nor a command to run)."""

FACE = "Agon-Face"
"""The header a request names its face with: ``page`` (a seat's page sends it with every request) is told in
``PAGE_WORDS``; any other request, a program calling the API, in ``HTTP_WORDS``."""

FACES = {"page": PAGE_WORDS}

FACE_PARAM = "face"
"""The event stream's query parameter naming its face, as ``FACE`` does for other requests: a browser's
EventSource sends no header of its own, so the pages add ``?face=page`` to their stream's address (only there: the
pages themselves take no query)."""


def words_of(request: Request, query: dict[str, Any] | None = None) -> Words:
    """The words a request's refusals are told in: its face's (``FACE``, or on the event stream ``FACE_PARAM`` in
    its ``query``, as read), else the API's, each route they name under the path the request came under."""
    face = request.headers.get(FACE, "")
    if query and isinstance(query.get(FACE_PARAM), str):
        face = query[FACE_PARAM]
    words = FACES.get(face.strip().lower(), HTTP_WORDS)
    return http_words(root_of(request)) if words is HTTP_WORDS else words


def root_of(request: Request) -> str:
    """The path the server is served under behind a proxy that takes it off (``agon serve --root-path /agon``:
    uvicorn's root_path), without its trailing '/'; "" at the root of its host. Every path a page, a link or a
    refusal names is put under it, so that a person or a program following it goes through the proxy."""
    return str(request.scope.get("root_path", "")).rstrip("/")


@lru_cache(maxsize=8)  # one root a server, as started; a few at most behind several proxies
def http_words(root: str) -> Words:
    """``HTTP_WORDS`` with each route they name under ``root`` (``root_of``): a program behind a proxy that serves
    agon under a path is sent to a route that exists there."""
    if not root:
        return HTTP_WORDS
    return replace(HTTP_WORDS, **{f.name: under(getattr(HTTP_WORDS, f.name), root) for f in fields(HTTP_WORDS)})


def api_document(request: Request) -> str:
    """Where the API's document is for this request: /openapi.json under the path it came under."""
    return f"{root_of(request)}/openapi.json"


@dataclass
class Call:
    """One request as a route reads it."""

    svc: Service
    game: str
    token: str | None
    body: dict[str, Any]
    query: dict[str, Any]
    raw: bytes = b""
    lines: Lines | None = None
    posted: bool = False
    """Whether the route's fields come in its JSON body (held to its schema: ``route``'s ``body``), not the query
    (held to the route's declared parameters: ``route``'s ``query``, each value of its type)."""
    words: Words = HTTP_WORDS
    """How refusals name what to do next: the API's words, or a seat page's (``words_of``)."""
    root: str = ""
    """The path the server is served under behind a proxy (``agon serve --root-path``), before the links it gives."""
    secure: bool = False
    """Whether the request came over HTTPS (a cookie set in the answer is then sent back over HTTPS alone)."""


def token_of(request: Request) -> str | None:
    """The seat's token a request names: its ``Authorization: Bearer TOKEN`` header, else its ``?token=``. An
    Authorization header of another kind (``Token ...``, a token without ``Bearer``, an empty ``Bearer``) is a 401
    saying so, unless the query names the token: read as no token, the request would be told that its route needs
    one, or shown what every player sees, though a token was sent. A Bearer token and a ``?token=`` that differ are
    a 400 (the header was taken silently, answering the caller as a seat it may not have meant). Nothing of the
    header but a scheme's name is echoed back (the rest may be a password). The schemes a proxy in front of the
    server asks a browser for (``PROXY_SCHEMES``: ``Basic ...``) are the proxy's, passed on with every request: they
    name no seat and are read as no header, so that spectators and the lobby still work behind such a proxy."""
    auth = request.headers.get("authorization")
    scheme, _, rest = (auth or "").strip().partition(" ")
    query = request.query_params.get("token") or None
    if scheme.lower() == "bearer" and rest.strip():
        if query is not None and query != rest.strip():  # two seats' tokens, or an old link's and a new one's
            raise HttpError(400, "the Authorization header and ?token= name two different tokens, so which seat"
                                 " asks is not known; send your seat's token once")
        return rest.strip()
    if auth is None or query is not None or scheme.lower() in PROXY_SCHEMES and rest.strip():
        return query
    if scheme.lower() == "bearer":
        what = "gives no token after 'Bearer'"
    elif not scheme:
        what = "is empty"
    elif not rest.strip():
        what = "gives a token without 'Bearer ' before it"
    elif _SCHEME.fullmatch(scheme):
        what = f"is of the scheme {scheme!r}, not 'Bearer'"
    else:
        what = "is not 'Bearer TOKEN'"
    raise HttpError(401, f"the Authorization header {what}: send your seat's token as 'Authorization: Bearer TOKEN',"
                         " or as ?token=TOKEN")


PROXY_SCHEMES = frozenset({"basic", "digest", "negotiate", "ntlm"})
"""HTTP's own authentication schemes, which a password-protected site's proxy asks a browser for and passes on."""

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,19}")
"""An Authorization scheme's name that a refusal may name back ('Basic', 'Token'), not a credential."""


def route(fn: Callable[[Call], Any], *, raw_body: bool = False, body: dict[str, Any] | None = None,
          hints: dict[str, str] | None = None, query: tuple[Param, ...] = ()) -> Callable[[Request], Any]:
    """An endpoint around ``fn(call)``, which runs in a worker thread (the service blocks on the store): the
    body is read as a JSON object held to the schema ``body`` (server/bodies.py; ``hints``: what to do instead of
    sending a field it does not name), or kept as bytes (``raw_body``); a route with neither takes no body. The
    fields of a route with a ``body`` come from that body alone: its query names the seat (``token``), nothing
    else; a route without one reads the parameters ``query`` declares, held to them (server/queries.py), and
    ``token``. Every error becomes one JSON line."""

    async def endpoint(request: Request) -> Response:
        try:
            raw = await asyncio.wait_for(request.body(), BODY_WAIT)
        except TimeoutError:
            return error(408, f"the request body did not arrive within {BODY_WAIT:.0f} seconds; send it again")
        except ClientDisconnect:  # the client went away mid-body: nobody reads an answer, nothing was done
            return Response(status_code=400)
        try:
            fields: dict[str, Any] = {}
            asked: dict[str, Any] = {}
            if body is not None:
                fields = read_body(raw, body, hints, request)
            else:
                asked = read_query(request, query)
                if raw.strip() and not raw_body:
                    raise HttpError(400, f"{request.method} {request.url.path} takes no body; send its parameters"
                                         " in the query")
            call = Call(request.app.state.service, request.path_params.get("game", ""), token_of(request), fields,
                        asked, raw, request.app.state.lines, posted=body is not None, words=words_of(request),
                        root=root_of(request), secure=request.url.scheme == "https")
            result = await run_in_threadpool(fn, call)
        except Exception as e:  # noqa: BLE001 - every failure is one line for the client
            return failure(e, words_of(request))
        if request.method == "POST" and isinstance(result, dict) and "game" in result:
            changed(request.app, result["game"])
        if isinstance(result, Response):
            return result
        return JSONResponse(result)

    endpoint.__doc__ = fn.__doc__
    return endpoint


def read_body(raw: bytes, schema: dict[str, Any], hints: dict[str, str] | None, request: Request) -> dict[str, Any]:
    """The JSON object of a request's body (none: ``{}``), held to its route's ``schema``; a field given in the
    query instead is refused, not read from there."""
    asked = sorted(set(request.query_params) - {"token"})
    for key in asked:
        if hints and key in hints:
            raise HttpError(400, f"{request.method} {request.url.path} takes no {key!r}: {hints[key]}")
    if asked:
        names = ", ".join(repr(k) for k in asked)
        raise HttpError(400, f"{request.method} {request.url.path} takes its fields in the JSON body, not in the"
                             f" query ({names}); only 'token' may be given there")
    found: Any = {}
    if raw.strip():
        try:
            found = json.loads(raw, parse_constant=_no_constant, parse_int=_whole, object_pairs_hook=_once)
        except _Twice as e:  # which one was meant? (a query's parameter given twice is refused alike)
            raise HttpError(400, f"the request body gives {e.args[0][:40]!r} more than once; give each field"
                                 " once") from None
        except _TooLong:
            raise HttpError(400, f"a number in the request body has more than {LONGEST:,} digits; no field takes"
                                 " one that long") from None
        except (ValueError, UnicodeDecodeError) as e:
            raise HttpError(400, f"the request body is not valid JSON ({e}); send a JSON object") from None
        except RecursionError:
            raise HttpError(400, "the request body nests too deeply; send a flat JSON object") from None
    if not isinstance(found, dict):
        raise HttpError(400, "the request body must be a JSON object")
    try:
        return bodies.check(schema, found, hints, root=root_of(request))
    except bodies.BadBody as e:  # a page's person is not sent to the API's document (they filled in a form)
        raise HttpError(400, str(e) if words_of(request) is PAGE_WORDS else f"{e} (see {api_document(request)})"
                        ) from None


def read_query(request: Request, params: tuple[Param, ...], page: bool = False) -> dict[str, Any]:
    """The request's query held to its route's declared ``params`` (server/queries.py): each value of its type;
    a parameter not declared, given twice or out of its range is a 400 naming it. ``page``: the request is a page's
    (its event stream's ``?face=page``), whose person sees no route and no API document: the refusal names the
    page's stream and says what the page offers (``PAGE_STREAM``)."""
    route = "the page's event stream" if page else f"{request.method} {request.url.path}"
    try:
        return queries.check(route, params, request.query_params.multi_items())
    except queries.BadQuery as e:
        raise HttpError(400, f"{e}; {PAGE_STREAM}" if page else f"{e} (see {api_document(request)})") from None


PAGE_STREAM = "reload the page to follow the game again"
"""What a page's person does when its event stream was asked for otherwise than the page asks (an address edited
by hand, a 'since' the page never sends): reloading opens the stream as the page does, from the game as it stands."""


def page_stream(request: Request) -> bool:
    """Whether the request is a page's event stream: its query's ``face`` (``FACE_PARAM``), given only as 'page'."""
    faces = request.query_params.getlist(FACE_PARAM)
    return bool(faces) and all(FACES.get(f.strip().lower()) is PAGE_WORDS for f in faces)


LONGEST = 4000
"""The most digits a whole number in a request body may have (Python reads no more than 4,300 into an ``int``)."""


class _Twice(ValueError):
    """A JSON object that gives one key twice (``args[0]``), which ``json.loads`` would read as its last value."""


class _TooLong(ValueError):
    """A whole number of more than ``LONGEST`` digits in a request body."""


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``'s hook for an object: its keys, each given once (``_Twice`` else)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Twice(key)
        out[key] = value
    return out


def _whole(text: str) -> int:
    """``json.loads``'s hook for a whole number: one of at most ``LONGEST`` digits (``_TooLong`` else)."""
    if len(text.lstrip("-")) > LONGEST:
        raise _TooLong
    return int(text)


def _no_constant(name: str) -> Any:
    """``json.loads``'s hook for NaN and Infinity, which Python reads and JSON does not have."""
    raise ValueError(f"{name} is not a JSON number")


def failure(e: Exception, words: Words = HTTP_WORDS) -> JSONResponse:
    """The status and sentence for an exception raised while answering, a step it names in ``words``."""
    if isinstance(e, HttpError):
        return error(e.status, str(e))
    down = store_trouble(e)
    if down is not None:  # the store, not the request: the same request may succeed later
        return error(503, said(down, words))
    if isinstance(e, seats.WrongToken | seats.UndoRefused):
        return error(403, said(e, words))
    if isinstance(e, NotFound):
        return error(404, said(e, words))
    if isinstance(e, RaceLost | NotNow | seats.AlreadyStored):  # a conflict with the game (or store) as it stands
        return error(409, said(e, words))
    if isinstance(e, ServiceError):
        return error(422 if str(e).startswith("refused:") else 400, said(e, words))
    import logging

    logging.getLogger("agon.server").exception("unexpected error")
    return error(500, f"the server failed ({type(e).__name__}); nothing was recorded, retry or tell the host")


# -- reading a request -----------------------------------------------------------------------------------------


def _field(call: Call, key: str, default: Any) -> Any:
    """A field of the request: from its JSON body (already held to its schema) or, for a route without one, its
    query."""
    return (call.body if call.posted else call.query).get(key, default)


def _str(call: Call, key: str, default: str | None = None) -> str | None:
    v = _field(call, key, default)
    if v is not None and not isinstance(v, str):
        raise HttpError(400, f"{key!r} must be a string")
    return v


def _int(call: Call, key: str, default: int | None = None) -> int | None:
    """A whole number: a JSON number in a body (a body's "7" is refused by its schema), or a query parameter
    declared an integer (read as one by ``read_query``)."""
    v = _field(call, key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise HttpError(400, f"{key!r} must be a whole number")
    return v


def load(call: Call, *, branched: bool = True) -> tuple[Line, str | None]:
    """The line asked for (``branch``, default the game's current one; ``branched`` false: the current one, for a
    route that takes no branch) and the caller's seat."""
    branch = _str(call, "branch") if branched else None
    line = call.lines.get(call.svc, call.game, branch) if call.lines else call.svc.load(call.game, branch)
    return line, seats.seat_of(call.svc, line.game.id, call.token)


def said(e: BaseException, words: Words = HTTP_WORDS) -> str:
    """An exception's message as a caller of the API is told it (a step it names, named in ``HTTP_WORDS``), or
    a person at a page (``PAGE_WORDS``)."""
    return words.told(e)


def viewer_of(seat: str | None) -> str:
    """Whose view a seat gets: a player their own; the host and nobody what every player sees."""
    return seat if seat not in (None, HOST) else PUBLIC


def need_host(seat: str | None, what: str) -> None:
    if seat is None:
        raise HttpError(401, f"only the host may {what}: send the host's token")
    if seat != HOST:
        raise HttpError(403, f"only the host may {what}")


# -- what a seat is shown --------------------------------------------------------------------------------------


def pending_for(line: Line, seat: str | None) -> dict[str, Any]:
    p = line.pending
    if isinstance(p, Decision):
        return {"kind": "decision", "player": p.player, "prompt": p.prompt, "bot": line.bot_of(p.player)}
    if isinstance(p, Chance):
        out: dict[str, Any] = {"kind": "chance", "chance": p.kind, "label": p.label, "count": p.count,
                               "sides": p.sides, "entered_by": "host" if line.created.table else "seed"}
        if seat == HOST:  # the recorder types what was drawn at the table
            # as counted (c2 before c10), as a refused entry lists them: the host looks a card up here
            out["items"] = entry.natural(set(p.names)) if p.kind == "draw" else list(p.items)
            if p.item_names:
                out["names"] = p.named
        return out
    return {"kind": "over", "winners": list(p.outcome.winners), "scores": dict(p.outcome.scores),
            "summary": p.outcome.summary}


def game_title(title: str, ruleset: str) -> str:
    """A game's title as every answer of the API and every page gives it: the title given, else its ruleset's
    ('Pergamemnon'), so a game is named the same in the games' list, on its own and in a page's tab title ("" only
    for a ruleset this server does not know)."""
    if title:
        return title
    try:
        return registry.get(ruleset).title
    except registry.UnknownRuleset:
        return ""


def game_head(svc: Service, line: Line) -> dict[str, Any]:
    """Where a line stands, as every answer about it starts. Its ``position`` is keyed (``Service.shown_position``):
    nothing the server shows is a part of an event's chain hash, from which a hidden card could be searched for."""
    return {"game": line.game.id, "ruleset": line.ruleset.name, "title": game_title(line.game.title, line.ruleset.name),
            "branch": line.branch.name, "event": line.head.depth, "position": svc.shown_position(line),
            "status": line.status()}


def state_data(svc: Service, line: Line, seat: str | None) -> dict[str, Any]:
    rs = line.ruleset
    scores = rs.scores(line.state)
    return {**game_head(svc, line), **you(seat), "table": line.created.table,
            "players": [{"name": p.name, "bot": p.bot} for p in line.created.players],
            "pending": pending_for(line, seat), "round": rs.round(line.state), "scores": scores,
            # where the players win or lose together (an Adamastor crew), their one score, as `agon games --json`
            # says it (else null)
            "shared_score": shared(rs.name, scores),
            "view": rs.view(line.state, viewer_of(seat)), "may_undo": may_undo(svc, line, seat),
            # the host's alone: whether a player's undo was redone is the host's to know, and a redo theirs to make
            **({"may_redo": seats.may_redo(svc, line, seat)} if seat == HOST else {})}


def may_undo(svc: Service, line: Line, seat: str | None) -> bool:
    """Whether ``seat`` may undo now (the undo policy, core/seats.py ``may_undo``); a spectator never."""
    return seat is not None and seats.may_undo(svc, line, seat)


def seat_name(seat: str | None) -> str | None:
    return "host" if seat == HOST else seat


def you(seat: str | None) -> dict[str, Any]:
    """Who the caller is, as every answer about a line says it: ``you`` names the seat ('host' for the host's link)
    and ``host`` tells the host's link from a player named 'host'."""
    return {"you": seat_name(seat), "host": seat == HOST}


def options_data(svc: Service, line: Line, seat: str | None, brief: bool = False) -> dict[str, Any]:
    """Who acts and, for the acting seat, its numbered decisions; ``stepwise`` says the decision is better built
    step by step (``/steps``: many variants), and ``brief`` then leaves the long list out."""
    p = line.pending
    out: dict[str, Any] = {**game_head(svc, line), **you(seat), "pending": pending_for(line, seat),
                           "options": []}
    if isinstance(p, Decision) and seat == p.player:
        out["stepwise"] = steps_mod.stepwise(line.ruleset, line.state)
        if not (brief and out["stepwise"]):
            out["options"] = [{"n": i, "text": option_text(line.ruleset, line.state, ev),
                               "event": line.codec.to_obj(ev)}
                              for i, ev in enumerate(line.ruleset.legal(line.state), 1)]
    elif isinstance(p, Decision):
        out["note"] = (f"{p.player} decides now; only their seat sees their options" if seat != HOST else
                       f"{p.player} decides now with their own link" + (
                           "; the host enters chance outcomes" if line.created.table else ""))
    elif isinstance(p, Chance) and line.created.table:
        out["note"] = ("enter the outcome: dice as numbers ('3 5'), cards by id, or 'seed' to let agon draw it"
                       if seat == HOST else "the host enters this chance outcome")
    return out


def told_from(line: Line, viewer: str, start: int) -> list[Recorded]:
    """Events ``start`` onwards of ``line`` as ``viewer`` may read them (``Service.log``, telling only those)."""
    out = []
    for st in steps_of(line)[max(0, start):]:
        if st.index >= start:
            state = st.before if st.before is not None else st.after
            out.append(told(line.ruleset, st.index, st.actor, state, st.event, viewer))
    return out


def recorded_rows(recorded: list[Recorded]) -> list[dict[str, Any]]:
    return [{"n": r.n, "actor": r.actor, "text": r.sentence, "event": r.shown} for r in recorded]


# -- routes ----------------------------------------------------------------------------------------------------


def list_rulesets(call: Call) -> Any:
    """The rulesets a game can be created with."""
    out = []
    for name in registry.names():
        rs = registry.get(name)
        out.append({"name": rs.name, "title": rs.title, "min_players": rs.min_players,
                    "max_players": rs.max_players, "bots": sorted(bots_of(rs)), "options": dict(rs.option_names)})
    return out


DAMAGED_STATUS = ("damaged: this game's record in the store is broken (an event changed, lost or breaking a rule);"
                  " the host's check of the store says what is wrong")
"""The status of a game 'agon verify' found damaged, as anyone who lists the games reads it. The mark kept in its
summary says what is broken for the store's keeper: the rule an event breaks, told as the rules tell the player
who made it (the cards a deck held, say), and the command to run; neither is for everyone."""


def list_games(call: Call) -> Any:
    """The games: id, ruleset, title, players, events and status (as every player sees them), read from the game
    summaries as 'agon games' reads them (no game is replayed; a summary missing or stale is computed first).
    ``?ruleset=``, ``?status=over|playing``, ``?order=oldest|newest|longest|shortest`` and ``?limit=N`` as
    'agon games' takes them (the last three held to their declared values: server/app.py ``ROUTES``)."""
    status, order, limit = _str(call, "status"), _str(call, "order") or "oldest", _int(call, "limit")
    ruleset = _str(call, "ruleset")
    if ruleset is not None:
        try:
            ruleset = registry.get(ruleset).name
        except registry.UnknownRuleset as e:
            raise HttpError(400, said(e, call.words)) from None
    rows = []
    for g in call.svc.listing(ruleset=ruleset, over=None if status is None else status == "over", order=order,
                              limit=limit, count_branches=False):
        s = g.summary
        row: dict[str, Any] = {"game": g.id, "ruleset": g.ruleset, "title": game_title(g.title, g.ruleset),
                               "players": list(g.players),
                               "created_at": g.created_at.isoformat(timespec="seconds"), "branch": g.current_branch}
        if s.readable:
            # a crew's one score (an Adamastor crew's, who win or lose together), as `agon games --json` says it
            row.update(event=s.events - 1, status=s.status, over=s.over, shared_score=shared(g.ruleset, s.scores))
        elif s.status.startswith("unreadable"):
            row.update(event=None, status=s.status, over=False, shared_score=None)
        else:
            row.update(event=None, status=DAMAGED_STATUS, over=False, shared_score=None)
        rows.append(row)
    return rows


def _tokens_answer(call: Call, game_id: str, status: int = 201) -> JSONResponse:
    tokens = seats.issue(call.svc, game_id)
    line = call.svc.load(game_id)
    seat_rows = {name: {"token": tok, "link": f"{call.root}/games/{game_id}/seat#token={tok}"}
                 for name, tok in tokens.items() if name != HOST}
    host = tokens[HOST]
    return JSONResponse({**game_head(call.svc, line), "seats": seat_rows,
                         "host": {"token": host, "link": f"{call.root}/games/{game_id}/seat#token={host}"},
                         "spectate": f"{call.root}/games/{game_id}/watch",
                         "note": "each link opens one seat: give it to that player only; the host's link"
                                 " enters chance outcomes at a table and may undo"}, status_code=status)


def create_game(call: Call) -> Any:
    """Create a game; answers one secret token and link per person's seat, and the host's."""
    b = call.body  # held to schemas.CREATE: each field, where given, of its declared type
    spec = NewGame(ruleset=b["ruleset"], players=b.get("players", []),
                   bots=[(x["name"], x["kind"]) for x in b.get("bots", [])], seed=b.get("seed"),
                   table=b.get("table", False), options=b.get("options", {}), title=b.get("title", ""))
    return _tokens_answer(call, call.svc.new_game(spec))


def get_state(call: Call) -> Any:
    """The game now, as the caller's seat sees it (without a token: as every player sees it)."""
    line, seat = load(call)
    return state_data(call.svc, line, seat)


def get_options(call: Call) -> Any:
    """Who must act and, for that player's own seat only, the legal decisions numbered as 'act' takes them."""
    brief = BRIEF[call.query.get("brief", "0")]  # held to the declared values: BRIEF's
    line, seat = load(call)
    return options_data(call.svc, line, seat, brief=brief)


BRIEF = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}
"""What ``?brief=`` takes (as /openapi.json declares it), and what each says."""


def act(call: Call) -> Any:
    """Record the caller's decision (or, for the host of a table game, a chance outcome); bots that follow move."""
    choice = call.body["choice"]  # held to schemas.ACT: a string, a whole number or an object
    if isinstance(choice, int):
        choice = str(choice)
    elif isinstance(choice, dict):
        choice = json.dumps(choice)
    if not choice.strip():
        raise HttpError(400, "'choice' is blank: send a number from the options, an event as JSON, or a chance"
                             " outcome")
    line, seat = load(call)
    if seat is None:
        raise HttpError(401, "acting needs your seat's token (the link you were given)")
    expect = expected(call, line)
    pending = line.pending
    if isinstance(pending, Decision):
        if seat == HOST:
            raise HttpError(403, f"{pending.player} decides now, with their own link" + (
                "; the host enters chance outcomes" if line.created.table else ""))
        if seat != pending.player:
            raise ServiceError(f"refused: turn order: {pending.player} must act now ({pending.prompt}), not {seat}")
        recorded, now = _record(call, line, choice, expect, as_player=seat)
    elif isinstance(pending, Chance):
        if seat != HOST:
            raise HttpError(403, "the host enters chance outcomes; wait for them")
        recorded, now = _record(call, line, choice, expect, tell=PUBLIC)
    else:
        raise NotNow(f"the game is over ({pending.outcome.summary}); {call.words.play_on}")
    if call.lines is not None:
        carry(line, now)
        call.lines.put(now)
    return {**game_head(call.svc, now), "recorded": recorded_rows(recorded), "scores": now.ruleset.scores(now.state),
            "pending": pending_for(now, seat)}


def expected(call: Call, line: Line, anew: str | None = None) -> str | None:
    """The body's ``expect`` (held to its schema: a position as the server shows it, or an event number), checked
    against ``line`` as read: a game moved since is a lost race (409) before anything else is judged; else the
    line's keyed position, or None when no ``expect`` was given. ``anew``: how the refusal ends where the request
    is an undo or a redo (``UNDO_ANEW``, ``REDO_ANEW``: nothing was undone or redone), not a decision."""
    expect = call.body.get("expect")
    if isinstance(expect, int):  # an event number: this line's position then
        call.svc.check_event_number(line, expect, call.words, anew)
        return call.svc.shown_position(line)
    if isinstance(expect, str):
        call.svc.check_position(line, expect, call.words, keyed=True, anew=anew)
        return expect
    return None


def _record(call: Call, line: Line, choice: str, expect: str | None, **kw: Any) -> tuple[list[Recorded], Line]:
    """The service's ``record`` on the line the route read, at the position the caller saw (``expect``): the
    store's compare-and-swap expects that line's head, so a race lost in between is a ``RaceLost`` (409). The
    position is the server's keyed one (``Service.shown_position``)."""
    return call.svc.record(line.game.id, choice, branch=line.branch.name, expect=expect, line=line,
                           words=call.words, keyed=True, **kw)


def undo(call: Call) -> Any:
    """Take back a decision: a player their own last one while nobody acted since and nothing was revealed; the
    host any number (``steps``). With ``expect`` (as /act takes it: the position the caller saw, or its event
    number), only while the game still stands there: a click on undo just as another seat's move lands is refused
    (409), not taken as an undo of that move."""
    line, seat = load(call)
    if seat is None:
        raise HttpError(401, "undo needs your seat's token")
    if seat != HOST and line.branch.name != call.svc.game(line.game.id).current_branch:  # not a held line's
        raise HttpError(403, "a player takes back decisions on the game's current branch only; the host switches"
                             " branches")
    expected(call, line, UNDO_ANEW)  # the game moved since the position the caller saw: 409, nothing undone
    # held to schemas.UNDO (a whole number, at least 1); a player's undo the policy refuses is a 403 saying why
    # (seats.undo takes the step back only while the head is still the one read and checked here)
    _, n = seats.undo(call.svc, line, seat, call.body.get("steps", 1))
    now = call.svc.load(line.game.id, line.branch.name)
    return {**game_head(call.svc, now), "undone": n}


def redo(call: Call) -> Any:
    """Redo the last undo (host only). With ``expect`` (as /undo takes it), only while the game still stands where
    the caller saw it: a click on redo just after another redo (the host's other page) or a move is refused (409),
    not taken as a redo of a second undo the caller did not see undone."""
    line, seat = load(call)
    need_host(seat, "redo")
    checked = expected(call, line, REDO_ANEW)  # the game moved since the position the caller saw: 409
    # the line just read: not read again to check; with 'expect', the head moves only from the one checked here
    _, n = call.svc.redo(line.game.id, line.branch.name, line=line,
                         expect_head=None if checked is None else line.head.id)
    # the line redone continues the one read: the line cache folds only the events brought back
    now = call.lines.get(call.svc, line.game.id, line.branch.name) if call.lines else call.svc.load(
        line.game.id, line.branch.name)
    return {**game_head(call.svc, now), "redone": n}


def list_branches(call: Call) -> Any:
    """The game's lines: name, parent, head event, status; which one is played."""
    line, _ = load(call, branched=False)  # every line: the route takes no branch
    out = []
    for ln in call.svc.lines(line.game.id):
        out.append({"name": ln.branch.name, "parent": ln.branch.parent_branch, "event": ln.head.depth,
                    "status": ln.status(), "current": ln.branch.name == ln.game.current_branch})
    return out


def make_branch(call: Call) -> Any:
    """A new line from event ``at`` (default: the head) of the current line, made current (host only)."""
    line, seat = load(call)
    need_host(seat, "make a branch")
    body = call.body  # held to schemas.MAKE_BRANCH
    b = call.svc.branch(line.game.id, body["name"], body.get("at"), line.branch.name, body.get("reseed", False))
    # Over HTTP nobody plays a bot's turn by hand: the new line moves on by itself to where a person (or, at a
    # table, the host) must act, as it does after every decision (svc.branch drew the chance due where it starts).
    _, now = call.svc.advance(call.svc.load(line.game.id, b.name), tell=False)
    return game_head(call.svc, now)


def switch(call: Call) -> Any:
    """Make another line the one played (host only)."""
    line, seat = load(call)
    need_host(seat, "switch branches")
    return game_head(call.svc, call.svc.switch(line.game.id, call.body["name"]))  # held to schemas.SWITCH


STREAM_COOKIE = "agon-seat-"
"""The name of the cookie that names a seat to a game's event stream, before the stream's key (``stream_seat``)."""
STREAM_KEY = re.compile(r"[0-9a-f]{16}")
"""A stream's key as ``stream_seat`` gives it: the first 16 hex digits of the SHA-256 of the seat's token."""


def stream_seat(call: Call) -> Any:
    """Name the caller's seat (its token, sent in the Authorization header) to this game's event stream in a cookie
    that only that stream is sent (HttpOnly, SameSite=Strict, its path the stream's), so that a page's stream names
    no token in its address, where a proxy's access log would keep it: the page opens it as
    ``/events?seat=KEY``, KEY its answer's ``stream``. A browser opening it again after a drop sends the cookie
    again. Each seat's cookie has a name of its own, so two seats' pages of one game in one browser (a player's
    and the host's) each follow their own."""
    if call.token is None:
        raise HttpError(401, "a seat's event stream needs your seat's token (the link you were given)")
    game = call.svc.game(call.game)
    seat = seats.seat_of(call.svc, game.id, call.token)
    key = hashlib.sha256(call.token.encode()).hexdigest()[:16]
    answer = JSONResponse({**you(seat), "stream": key}, headers={"Cache-Control": "no-store"})
    answer.set_cookie(STREAM_COOKIE + key, call.token, path=f"{call.root}/api/games/{game.id}/events", httponly=True,
                      samesite="strict", secure=call.secure)
    return answer


def stream_token(request: Request, query: dict[str, Any]) -> str | None:
    """The token an event stream names its seat by: the request's own (``token_of``), else, given ``seat`` (a
    page's stream: ``stream_seat``), the cookie of that key; such a cookie gone (cleared, or never set here) is a
    401 saying to reload the page, which sets it again."""
    token = token_of(request)
    key = query.get("seat")
    if token is not None or key is None:
        return token
    found = request.cookies.get(STREAM_COOKIE + key) if STREAM_KEY.fullmatch(key) else None
    if not found:
        raise HttpError(401, f"the seat's event stream found no cookie naming its seat; {PAGE_STREAM}")
    return found


def get_log(call: Call) -> Any:
    """The line's events from ``from`` (default 0), told as the caller's seat may read them."""
    line, seat = load(call)
    start = _int(call, "from", 0) or 0  # held to 0 or more
    rows = told_from(line, viewer_of(seat), start)
    return {**game_head(call.svc, line), **you(seat), "events": recorded_rows(rows)}


def export(call: Call) -> Any:
    """The whole game as 'agon export' writes it, or with ``branch`` one line (host only: it holds every hidden
    card)."""
    from agon.core.transfer import export_game

    line, seat = load(call)
    need_host(seat, "export the game (the file holds every hidden card)")
    branch = _str(call, "branch")
    data = call.svc.export(line.game.id, branch) if branch else export_game(call.svc, line.game.id)
    return Response(data, media_type="application/x-ndjson")


def import_game(call: Call) -> Any:
    """A new game from a file written by 'agon export' (the request body); answers the new game's links. A game
    already on the server is refused (409)."""
    if not call.raw.strip():
        raise HttpError(400, "send the exported file (JSON Lines) as the request body")
    return _tokens_answer(call, seats.import_new(call.svc, call.raw))


# -- the event stream ------------------------------------------------------------------------------------------


def streaming(query: tuple[Param, ...]) -> Callable[[Request], Any]:
    """The event stream's endpoint, its query held to the parameters ``query`` declares (``read_query``)."""

    async def endpoint(request: Request) -> Response:
        try:
            raw = await asyncio.wait_for(request.body(), BODY_WAIT)
        except TimeoutError:
            return error(408, f"the request body did not arrive within {BODY_WAIT:.0f} seconds; send it again")
        except ClientDisconnect:  # the client went away mid-body: nobody reads an answer
            return Response(status_code=400)
        page = page_stream(request)  # told in the page's words: ?since=abc ended '(see /openapi.json)'
        try:
            asked = read_query(request, query, page)
            if raw.strip() and page:  # an EventSource sends no body
                raise HttpError(400, f"the page's event stream takes no body; {PAGE_STREAM}")
            if raw.strip():  # 'since' sent in a body would be ignored: the client would be sent every event
                raise HttpError(400, f"{request.method} {request.url.path} takes no body; send its parameters in the"
                                     " query")
        except HttpError as e:
            return error(e.status, str(e))
        return await stream(request, asked)

    endpoint.__doc__ = stream.__doc__
    return endpoint


async def stream(request: Request, query: dict[str, Any]) -> Response:
    """Server-sent events: every new event of the line as the caller's seat may read it (``recorded``), a
    ``moved`` when the head went back (an undo or a switch), and the status after each change. ``since`` (or
    Last-Event-ID: a message's id, the ``position`` of the line up to its event, ``_LAST_ID``) is the last event the
    client has; ``wait`` (seconds) ends the stream after that long; ``face``
    'page' (``FACE_PARAM``) tells its refusals in ``PAGE_WORDS``. ``query``: the request's query, held to the
    route's declared parameters (``streaming``)."""
    svc: Service = request.app.state.service
    game = request.path_params["game"]
    words = words_of(request, query)  # a page's stream says so in its query (``FACE_PARAM``)
    last = request.headers.get("last-event-id")
    given = _LAST_ID.fullmatch(last) if last else None
    if last and (given is None or int(given[1]) > EVENT_RANGE[1]):  # the event numbers ``since`` takes
        if words is PAGE_WORDS:  # a browser sends back the ids it was given: the person can only reload the page
            return error(400, f"the page's event stream was sent a Last-Event-ID it never gave ({last[:40]!r});"
                              f" {PAGE_STREAM}")
        return error(400, f"the Last-Event-ID header must be an event's id as the stream gave it (such as 12.a1b2c3d4)"
                          f" or its number, from {EVENT_RANGE[0]} to {EVENT_RANGE[1]:,}, not {last[:40]!r}")
    since = int(given[1]) if given else query.get("since", -1)
    mark = given[2] if given else None  # the start of the client's last event's id: is it still on the line?
    wait = query.get("wait", float(WAIT_MAX))
    branch = query.get("branch")

    lines: Lines = request.app.state.lines
    try:
        token = stream_token(request, query)  # a page's: from the cookie its 'seat' names, never its address
    except HttpError as e:
        return failure(e, words)

    def first() -> tuple[Line, str | None, bool, Mark]:
        line = lines.get(svc, game, branch)
        shows = svc.mark_of(line.game.id)  # the game's key: read once, it never changes
        # the client's last event is on the line still, as far as its id says (a number alone: as far as known)
        kept = 0 <= since <= line.head.depth and (mark is None or shows(line.envelopes[since].id) == mark)
        return line, seats.seat_of(svc, line.game.id, token), kept, shows

    try:
        line, seat, kept, shows = await run_in_threadpool(first)
    except Exception as e:  # noqa: BLE001
        return failure(e, words)
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    if request.method == "HEAD":  # the headers a stream would start with, and no stream held open
        return Response(media_type="text/event-stream", headers=headers)
    viewer = viewer_of(seat)
    game_id = line.game.id
    follow = branch  # None: the game's current branch, whichever it is

    def batch(ln: Line, after: int, last_id: str | None) -> tuple[str, str | None, int]:
        """What changed on ``ln`` since the client's event #after (whose id is ``last_id``, when known). A seat's
        token is asked about again first: one replaced since the stream opened (``agon links``: a link lost, or seen
        by someone else) ends the stream with its refusal, so a stream held open tells nothing more of the seat.
        A replacement alone, the game standing still, wakes the stream too (``seats.signatures``), which asks
        again then: the page open on the old link is told at once, not at the game's next move."""
        if seat is not None:
            seats.seat_of(svc, game_id, token)  # WrongToken once the seat's link was replaced
        grows = last_id is None or ln.since(last_id) is not None
        out = []
        if grows:
            for row in recorded_rows(told_from(ln, viewer, after + 1)):
                out.append(_sse("recorded", row, event_id(ln, row["n"], shows)))
        else:  # an undo, a switch, or a new line after an undo: the client reads the game again
            out.append(_sse("moved", game_head(svc, ln), position(ln, shows)))
        out.append(_sse("status", {**game_head(svc, ln), "pending": pending_for(ln, seat)}, position(ln, shows)))
        return "".join(out), ln.head.id, ln.head.depth

    async def events():
        loop = asyncio.get_running_loop()
        end = loop.time() + wait  # held to 0 to WAIT_MAX seconds
        if kept:
            after, last_id = since, None
        else:
            after, last_id = line.head.depth, line.head.id
            if since >= 0:  # the client has events this line no longer has (an undo, then play on another way)
                yield _sse("moved", game_head(svc, line), position(line, shows))
            yield _sse("status", {**game_head(svc, line), "pending": pending_for(line, seat)}, position(line, shows))
        watcher: Watcher = request.app.state.watcher
        feed: Feed = request.app.state.feed
        wakeups = request.app.state.wakeups
        watcher.follow(game_id)
        try:
            while not request.app.state.stopping:
                wake = wakeups.setdefault(game_id, asyncio.Event())  # before reading: no change slips between
                try:
                    ln = await feed.line(game_id, follow)
                    if ln.head.id != last_id:
                        text, last_id, after = await run_in_threadpool(batch, ln, after, last_id)
                        yield text
                    elif seat is not None:  # no move: perhaps the seat's link was replaced (the Watcher sees that)
                        await run_in_threadpool(seats.seat_of, svc, game_id, token)  # WrongToken: said, and ends
                except Exception as e:  # noqa: BLE001 - the stream ends with one line
                    down = store_trouble(e)
                    yield _sse("error", {"error": said(down or e, words)}, None)
                    if down is None:
                        return
                    # the store is down for a moment: the stream stays open (a browser that reconnected would
                    # meet a 503, and EventSource gives up on that) and reads again at the next news or look
                left = end - loop.time()
                if left <= 0:
                    return
                try:
                    await asyncio.wait_for(wake.wait(), min(15.0, left))
                except TimeoutError:
                    feed.changed(game_id)  # quiet for long: read the store again anyway
                    yield ": waiting\n\n"  # a comment line: keeps proxies from closing an idle stream
                if request.app.state.stopping:  # the server is stopping (``end_streams``): the client reconnects
                    return
        finally:
            if not watcher.unfollow(game_id):  # the last stream of the game here: nothing is kept for it
                feed.forget(game_id)
                wakeups.pop(game_id, None)

    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)


_LAST_ID = re.compile(r"([0-9]{1,18})(?:\.([0-9a-f]{8}))?")
"""An event's id as the stream's ``id:`` lines give it and a browser sends it back in Last-Event-ID: its number and
its keyed mark, as a ``position`` reads (``12.a1b2c3d4``), so that a client whose events were taken back and
played again another way is told so (``moved``); its number alone is taken too."""


def event_id(line: Line, n: int, shows: Mark) -> str:
    """The stream's id of event ``n`` of ``line``: what ``position`` reads for the line up to that event, keyed
    (``shows``: ``Service.mark_of`` the game), never a part of the event's chain hash."""
    return f"{n}.{shows(line.envelopes[n].id)}"


def end_streams(app: Any) -> None:
    """End this worker's event streams (the server is stopping): each is woken, and ends instead of reading on."""
    app.state.stopping = True
    for woken in list(app.state.wakeups.values()):
        woken.set()


def changed(app: Any, game_id: str) -> None:
    """Wake this worker's streams of ``game_id`` (after a change made here, or seen by the ``Watcher``)."""
    app.state.feed.changed(game_id)
    woken = app.state.wakeups.pop(game_id, None)
    if woken is not None:
        woken.set()


class Feed:
    """The line that this worker's streams of a game read after each change announced (``changed``): read from
    the store once per announcement, however many streams follow the game (each stream then tells it as its
    seat may read it). A reading starts after the announcement it answers, so it is as new as every stream
    woken by it needs; a later change is announced again and read again."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.announced: dict[str, int] = {}  # game -> changes announced (in this worker) while streams follow it
        self.reading: dict[tuple[str, str | None], tuple[int, asyncio.Future]] = {}

    def changed(self, game_id: str) -> None:
        # Only a followed game has readings to renew (the first stream of a game reads it anew): a server that runs
        # for weeks sees every game change, and must not keep a count for each.
        if game_id in self.app.state.watcher.follows:
            self.announced[game_id] = self.announced.get(game_id, 0) + 1

    def forget(self, game_id: str) -> None:
        self.announced.pop(game_id, None)
        for key in [k for k in self.reading if k[0] == game_id]:
            del self.reading[key]

    def line(self, game_id: str, branch: str | None) -> asyncio.Future:
        """The line (``branch``, None: the current one), read since the last change announced."""
        now = self.announced.get(game_id, 0)
        key = (game_id, branch)
        got = self.reading.get(key)
        if got is None or got[0] < now:
            app = self.app
            fut = asyncio.ensure_future(run_in_threadpool(app.state.lines.get, app.state.service, game_id, branch))
            self.reading[key] = got = (now, fut)

            def failed(f: asyncio.Future) -> None:  # a failure is not kept: the next reader tries again
                if (f.cancelled() or f.exception() is not None) and self.reading.get(key, (0, None))[1] is f:
                    del self.reading[key]

            fut.add_done_callback(failed)
        return asyncio.shield(got[1])


class Watcher:
    """One look at the store per poll interval for all the games this worker's streams follow (two queries however
    many streams: the heads, and the seat tokens), waking the streams of the games that moved or whose links were
    replaced (``seats.signatures``), through any worker or the CLI."""

    def __init__(self, app: Any, poll: float) -> None:
        self.app, self.poll = app, poll
        self.follows: dict[str, int] = {}
        self.seen: dict[str, Any] = {}

    def follow(self, game_id: str) -> None:
        self.follows[game_id] = self.follows.get(game_id, 0) + 1

    def unfollow(self, game_id: str) -> bool:
        """One stream less follows ``game_id``; whether any still does."""
        n = self.follows.get(game_id, 0) - 1
        if n > 0:
            self.follows[game_id] = n
            return True
        self.follows.pop(game_id, None)
        self.seen.pop(game_id, None)
        return False

    async def run(self) -> None:
        import logging

        log = logging.getLogger("agon.server")
        failing = False  # said once when the store stops answering, and once when it answers again
        while True:
            await asyncio.sleep(self.poll)
            games = list(self.follows)
            if not games:
                continue
            try:
                now = await run_in_threadpool(seats.signatures, self.app.state.service, games)
            except Exception as e:  # noqa: BLE001 - the store is down for a moment: look again next time
                down = store_trouble(e)
                if down is None:
                    log.warning("could not look for news", exc_info=True)
                elif not failing:
                    log.warning("could not look for news, trying every %g s: %s", self.poll, down)
                failing = down is not None
                continue
            if failing:
                log.warning("the store answers again")
                failing = False
            for game_id, sig in now.items():
                if game_id in self.follows and self.seen.get(game_id) != sig:
                    self.seen[game_id] = sig
                    changed(self.app, game_id)


def _sse(kind: str, data: Any, n: str | None) -> str:
    head = f"id: {n}\n" if n is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"

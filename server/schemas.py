"""The published contract of the JSON API (``/openapi.json``): what each route takes and answers, as JSON Schema.

Club members write small clients from this document, so it says what the server really sends: each answer's
status, its media type and its fields (no field is left out, none is sent that is not here:
``additionalProperties`` is false on every object the server shapes itself), and each error status a route can
give. The route table
(server/app.py ``ROUTES``) names, per route, the shapes below; ``document`` builds the OpenAPI document from it.
tests/test_server_contract.py plays a game of every ruleset over HTTP and checks every answer against this.

What a ruleset decides (a view's fields, an event's fields) is an object here: its shape is the ruleset's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agon.core.service import EVENT_RANGE, INT_MAX, LIMIT_RANGE, SEED_MAX

_ROUTE_NAMED = re.compile(r"\b(GET|POST) /")
"""Where a route is named in the server's own words ('GET /api/games'), to put a root path before it."""


def under(text: str, root: str) -> str:
    """``text``, words of the server's own (never ones holding what a client sent), with each route it names
    ('GET /api/...', 'POST /api/...', as this document names them from the root) under ``root``: the path the server
    is served under behind a proxy (``agon serve --root-path``), so that a reader is sent to a route that exists."""
    return _ROUTE_NAMED.sub(lambda m: f"{m[1]} {root}/", text) if root else text

JSON = "application/json"
NDJSON = "application/x-ndjson"
SSE = "text/event-stream"


def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def obj(props: dict[str, Any], *optional: str, description: str = "") -> dict[str, Any]:
    """An answer's object: every property required but those named ``optional``, no other property."""
    out: dict[str, Any] = {"type": "object", "properties": props,
                           "required": [k for k in props if k not in optional], "additionalProperties": False}
    if description:
        out["description"] = description
    return out


def array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


STR = {"type": "string"}
INT = {"type": "integer"}
COUNT = {"type": "integer", "minimum": 0}
EVENT_NUMBER = {"type": "integer", "minimum": EVENT_RANGE[0], "maximum": EVENT_RANGE[1]}
"""An event number given in a query (``from``, ``since``) or a body (``expect``, ``at``): the range the command line's
``--from`` and ``--at`` take (``core.service.EVENT_RANGE``), so the document states it and a number past it (2**31) is
refused naming it, not read as an event the line was taken back from."""
QUERY_LIMIT = {"type": "integer", "minimum": LIMIT_RANGE[0], "maximum": LIMIT_RANGE[1]}
"""How many games to read at most (``limit``): the range 'agon games --limit' takes (``core.service.LIMIT_RANGE``)."""
WAIT_MAX = 3600
"""The longest a stream of events stays open, in seconds (``wait``; its default too)."""
QUERY_WAIT = {"type": "number", "minimum": 0, "maximum": WAIT_MAX}
"""Seconds until a stream of events ends (``wait``)."""
BOOL = {"type": "boolean"}
NUM = {"type": "number"}

HEAD = {
    "game": {"type": "string", "description": "the game's id"},
    "ruleset": STR,
    "title": STR,
    "branch": {"type": "string", "description": "the line read (a game's first line is 'main')"},
    "event": {"type": "integer", "minimum": 0, "description": "the line's last event number"},
    "position": {"type": "string", "pattern": r"^[0-9]+\.[0-9a-f]{8}$",
                 "description": "where the line stands: what /act takes as 'expect' (its event number and a keyed"
                                " digest of its id, never a part of the id)"},
    "status": {"type": "string", "description": "who must act now, or how the game ended, in words"},
}
"""The fields every answer about one line of a game starts with."""

YOU = {"you": {**nullable(STR), "description": "the caller's seat: a player's name, 'host', or null (no token)"},
       "host": {**BOOL, "description": "whether the caller holds the host's link (a player may be named 'host' too:"
                                       " this tells the two apart)"}}

SCHEMAS: dict[str, dict[str, Any]] = {
    "Error": obj({"error": {"type": "string", "minLength": 1, "pattern": r"^[^\n]*$",
                            "description": "one sentence: what was wrong and what to do"}}),
    "Event": {"type": "object", "required": ["type"], "properties": {"type": STR},
              "description": "an event as the ruleset records it, as the caller's seat may read it (what it may not"
                             " see reads \"hidden\"); its other fields are the ruleset's"},
    "Scores": {"type": "object", "additionalProperties": NUM,
               "description": "each player's score as every player can work it out now, the same for every seat:"
                              " what one player alone sees (a hand) counts once the game is over"},
    "SharedScore": {**nullable(NUM),
                    "description": "where the players win or lose together (an Adamastor crew), the one score they"
                                   " share, as 'agon games --json' gives it; null where each player has their own"},
    "Head": obj(HEAD),
    "Pending": {"oneOf": [
        obj({"kind": {"const": "decision"}, "player": STR, "prompt": STR,
             "bot": {**nullable(STR), "description": "the bot's kind, if a bot plays this seat"}},
            description="a player must decide"),
        obj({"kind": {"const": "chance"}, "chance": {"enum": ["dice", "draw", "shuffle"]}, "label": STR,
             "count": COUNT, "sides": INT, "entered_by": {"enum": ["host", "seed"]},
             "items": {**array(STR), "description": "what an outcome is typed from (the host only)"},
             "names": {"type": "object", "additionalProperties": STR,
                       "description": "the name a card shows, by item, where it has one; typed like the item (the"
                                      " host only)"}},
            "items", "names",
            description="a chance outcome is due: at a table the host enters it, else the seed draws it"),
        obj({"kind": {"const": "over"}, "winners": array(STR), "scores": ref("Scores"), "summary": STR},
            description="the game is over"),
    ]},
    "Recorded": obj({"n": COUNT, "actor": STR, "text": {"type": "string", "description": "the event in words"},
                     "event": ref("Event")}),
    "State": obj({**HEAD, **YOU, "table": BOOL,
                  "players": array(obj({"name": STR, "bot": nullable(STR)})),
                  "pending": ref("Pending"), "round": INT, "scores": ref("Scores"),
                  "shared_score": ref("SharedScore"),
                  "view": {"type": "object", "description": "the game as the caller's seat sees it (the ruleset's"
                                                            " fields)"},
                  "may_undo": {"type": "boolean", "description": "whether the caller may undo now"},
                  "may_redo": {"type": "boolean", "description": "the host's answer only: whether a redo would bring"
                                                                 " back what an undo took back now"}}, "may_redo"),
    "Options": obj({**HEAD, **YOU, "pending": ref("Pending"),
                    "options": array(obj({"n": {"type": "integer", "minimum": 1}, "text": STR,
                                          "event": ref("Event")})),
                    "stepwise": {"type": "boolean", "description": "the decision is better built at /steps"},
                    "note": STR}, "stepwise", "note"),
    "Steps": obj({**HEAD, **YOU, "chosen": array(obj({"field": STR, "value": STR, "shown": STR})),
                  "choice": {"type": "string", "description": "the steps so far, as /act takes them"},
                  "complete": BOOL,
                  "question": obj({"field": STR, "prompt": STR, "may_end": BOOL,
                                   "choices": array(obj({"value": STR, "label": STR}))}),
                  "decision": obj({"text": STR, "event": ref("Event")})}, "question", "decision"),
    "StreamSeat": obj({**YOU, "stream": {"type": "string", "pattern": r"^[0-9a-f]{16}$",
                                         "description": "the key the event stream takes as ?seat= (with the cookie"
                                                        " this answer sets, which names the seat to that stream)"}}),
    "Acted": obj({**HEAD, "recorded": array(ref("Recorded")), "scores": ref("Scores"), "pending": ref("Pending")}),
    "Undone": obj({**HEAD, "undone": COUNT}),
    "Redone": obj({**HEAD, "redone": COUNT}),
    "Branches": array(obj({"name": STR, "parent": nullable(STR), "event": COUNT, "status": STR,
                           "current": BOOL})),
    "Log": obj({**HEAD, **YOU, "events": array(ref("Recorded"))}),
    "Created": obj({**HEAD,
                    "seats": {"type": "object", "additionalProperties": ref("Link"),
                              "description": "each person's seat: give each link to its player only"},
                    "host": ref("Link"), "spectate": STR, "note": STR}),
    "Link": obj({"token": STR, "link": STR}),
    "Rulesets": array(obj({"name": STR, "title": STR, "min_players": COUNT, "max_players": COUNT,
                           "bots": array(STR),
                           "options": {"type": "object", "additionalProperties": STR}})),
    "Games": array(obj({"game": STR, "ruleset": STR, "title": STR, "players": array(STR),
                        "created_at": {"type": "string", "format": "date-time"}, "branch": STR,
                        "event": nullable(COUNT), "status": STR, "over": BOOL,
                        "shared_score": ref("SharedScore")})),
    "Status": obj({**HEAD, "pending": ref("Pending")}),
}
"""The shapes of the answers, named as the route table names them."""

STREAM_EVENTS = {"recorded": "Recorded", "moved": "Head", "status": "Status", "error": "Error"}
"""The event stream's kinds of message, and the shape of each one's ``data``."""

# The shapes of the request bodies. A body is held to its shape before it is read (server/bodies.py): a field not
# named here, a value of another type (a number in quotes included) or null is refused with a 400, so what this
# says a route takes is all it takes. Leave a field out for its default.
def body(props: dict[str, Any], *required: str) -> dict[str, Any]:
    """A request body's object: the fields ``props``, those named ``required`` needed, no other field."""
    return {"type": "object", "required": list(required), "properties": props, "additionalProperties": False}


CREATE = body({
    "ruleset": {"type": "string", "minLength": 1, "description": "a name from GET /api/rulesets"},
    "players": {**array(STR), "description": "the people's seats, in order"},
    "bots": {**array(body({"name": STR, "kind": {"type": "string", "description": "from GET /api/rulesets"}},
                          "name", "kind")),
             "description": "the bots' seats, each an object {\"name\": ..., \"kind\": ...}"},
    "seed": {"type": "integer", "minimum": 0, "maximum": SEED_MAX,
             "description": "the seed chance is drawn from (default: a random one)"},
    "table": {"type": "boolean", "description": "played at a real table: the host enters chance"},
    "options": {"type": "object", "additionalProperties": {"type": ["string", "number", "boolean"]},
                "description": "the ruleset's options (GET /api/rulesets names them)"},
    "title": STR}, "ruleset")
BRANCH_FIELD = {"type": "string", "description": "the line (default: the one played)"}
EXPECT = [STR, EVENT_NUMBER]
"""What 'expect' takes: a position as the server shows it ('12.a1b2c3d4'), or an event number."""
CHOICE_NUMBER = {"type": "integer", "description": "read as the text typed ('35': dice showing 3 and 5 at a table)"}
"""A choice sent as a number: the one integer of a body without bounds, being text for the service to read (an
option's number, or dice typed together: ten dice showing 3 are past 2**31), not a quantity; one past the options
is refused there (400, naming the options' range)."""
ACT = body({
    "choice": {"anyOf": [{"type": "string", "minLength": 1}, CHOICE_NUMBER, {"type": "object"}],
               "description": "a number from the options, an event (as JSON), or a chance outcome"},
    "expect": {"anyOf": EXPECT,
               "description": "the 'position' the options were read at, or their event number: 409 if the game"
                              " moved on"}}, "choice")
UNDO = body({"steps": {"type": "integer", "minimum": 1, "maximum": INT_MAX,
                       "description": "the host only: more than 1"},
             "branch": BRANCH_FIELD,
             "expect": {"anyOf": EXPECT,
                        "description": "the 'position' the game was seen at (as /act takes it), or its event number:"
                                       " 409 and nothing undone if the game moved since"}})
REDO = body({"branch": BRANCH_FIELD,
             "expect": {"anyOf": EXPECT,
                        "description": "the 'position' the game was seen at (as /undo takes it), or its event number:"
                                       " 409 and nothing redone if the game moved since"}})
MAKE_BRANCH = body({
    "name": {"type": "string", "minLength": 1, "description": "the new branch's name"},
    "at": {**EVENT_NUMBER, "description": "the event it starts after (default: the head)"},
    "reseed": {"type": "boolean", "description": "draw chance anew on it"},
    "branch": {"type": "string", "description": "the line it starts from (default: the one played)"}}, "name")
STREAM_SEAT = body({})
"""The body of POST /stream-seat: none (the seat's token comes in the Authorization header)."""
SWITCH = body({"name": {"type": "string", "minLength": 1, "description": "the branch to play on"}}, "name")

ERRORS = {
    400: "a bad request: its JSON, a field or a parameter (the sentence says which); a body the request schema"
         " refuses (a field it does not name, a value of another type, null) included, and two different tokens"
         " (a Bearer header and ?token=)",
    401: "a seat's token is needed, or the Authorization header is not 'Bearer TOKEN' (the sentence says which)",
    403: "the token does not allow it (or is no seat's token)",
    404: "no such game or branch",
    408: "the request's body stopped arriving",
    409: "a conflict with the game as it stands: someone else recorded first, the game moved on since 'expect', or"
         " the request cannot be done now (the sentence says why); read the game again",
    413: "the request's body is too large",
    422: "the rules refuse the decision (the sentence names the rule)",
    503: "the store is unavailable for a moment: the same request may be retried",
}
ALWAYS = (400, 401, 408, 413, 503)
"""What any route may answer: a body that is not JSON or too large or too slow, an Authorization header that is not
'Bearer TOKEN' (without ?token=), the store away for a moment."""


@dataclass(frozen=True)
class Param:
    name: str
    schema: dict[str, Any]
    description: str = ""


BRANCH = Param("branch", STR, "the line to read (default: the one played)")


@dataclass(frozen=True)
class Answer:
    """What a route answers when it works: the status, the media type and the shape of the body."""

    shape: str | dict[str, Any]
    status: int = 200
    media: str = JSON


@dataclass(frozen=True)
class Op:
    """One route of the API, as the app serves it and the document tells it."""

    method: str
    path: str
    handler: Any
    summary: str
    who: str
    answer: Answer
    errors: tuple[int, ...] = ()
    query: tuple[Param, ...] = ()
    body: dict[str, Any] | None = None
    body_media: str = JSON
    example: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    notes: dict[int, str] = field(default_factory=dict)
    """What an error status means on this route, where it says more than ``ERRORS``."""


def operation(op: Op) -> dict[str, Any]:
    statuses = sorted(set(op.errors) | set(ALWAYS) | ({404} if "{game}" in op.path else set()))
    shape = op.answer.shape
    content = {op.answer.media: {"schema": ref(shape) if isinstance(shape, str) else shape, **op.extra}}
    responses: dict[str, Any] = {str(op.answer.status): {"description": "OK", "content": content}}
    for status in statuses:
        responses[str(status)] = {"description": op.notes.get(status, ERRORS[status]),
                                  "content": {JSON: {"schema": ref("Error")}}}
    params = [{"name": p.name, "in": "query", "required": False, "schema": p.schema,
               **({"description": p.description} if p.description else {})} for p in op.query]
    if "{game}" in op.path:
        params.append({"name": "game", "in": "path", "required": True, "schema": STR})
    out: dict[str, Any] = {
        "summary": op.summary,
        "description": f"Who may call it: {op.who}. A seat is named by its token: 'Authorization: Bearer TOKEN'"
                       " or '?token=TOKEN' (an Authorization header of another kind is a 401, unless the query"
                       " names the token; a Bearer token and a different ?token= are a 400). Errors are"
                       " {\"error\": \"one sentence\"}.",
        "parameters": params, "responses": responses,
        "security": [{}, {"seat": []}, {"seatQuery": []}],
    }
    if op.body is not None:
        media: dict[str, Any] = {"schema": op.body}
        if op.example is not None:
            media["example"] = op.example
        out["requestBody"] = {"required": op.body_media != JSON or bool(op.body.get("required")),
                              "content": {op.body_media: media}}
    return out


def document(ops: list[Op], version: str) -> dict[str, Any]:
    """The OpenAPI document of the routes ``ops``."""
    paths: dict[str, Any] = {}
    for op in ops:
        paths.setdefault(op.path, {})[op.method.lower()] = operation(op)
    return {"openapi": "3.1.0",
            "info": {"title": "agon", "version": version,
                     "description": "Tabletop games as event logs, played over HTTP. Every error is"
                                    " {\"error\": \"one sentence\"} with a 4xx status (a 503: the store is away for"
                                    " a moment). Without a token a request sees what every player sees. A"
                                    " refusal names the routes to call next; with the header 'Agon-Face: page'"
                                    " (the pages send it; their event streams, '?face=page') it names what"
                                    " that page shows instead."},
            "paths": paths,
            "components": {"schemas": SCHEMAS,
                           "securitySchemes": {
                               "seat": {"type": "http", "scheme": "bearer",
                                        "description": "a seat's token (from POST /api/games)"},
                               "seatQuery": {"type": "apiKey", "in": "query", "name": "token",
                                             "description": "the same token as a query parameter"}}}}

"""The HTTP/1.1 connection handling ``agon serve`` runs: uvicorn's h11 protocol with a deadline on a request's
headers.

uvicorn closes a connection that stays silent for its keep-alive time, but every byte that arrives resets that
timer, so a client sending its request line and headers a byte at a time holds a connection (and a file
descriptor) without end; a few hundred such clients fill a worker. Here a connection has ``HEADER_WAIT`` seconds,
from when it opens or its previous response ends, to deliver a whole request line and headers; otherwise it is
answered 408 with one sentence and closed. A request's body has its own limit (``api.BODY_WAIT``), and a response
being streamed (the event stream) is not a request still arriving, so neither is cut by this.
"""

from __future__ import annotations

import asyncio
import json
import os

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


def _header_wait() -> float:
    try:
        wait = float(os.environ.get("AGON_HEADER_WAIT", ""))
    except ValueError:
        return 30.0
    return wait if 0 < wait <= 3600 else 30.0


HEADER_WAIT = _header_wait()
"""Seconds a request's line and headers may take to arrive: 30, or ``AGON_HEADER_WAIT`` (more than 0, at most
3600; e.g. for a test)."""


def _timeout_response(wait: float) -> bytes:
    """The 408 as every error of the API reads: ``{"error": "one sentence"}``."""
    unit = "second" if wait == 1 else "seconds"
    body = json.dumps({"error": f"the request's headers did not arrive within {wait:g} {unit}; send the request"
                                " again"}).encode()
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


BAD_REQUEST = ("the request is not valid HTTP/1.1 (its request line, a header or its Content-Length is"
               " malformed); nothing was done: send it again as HTTP/1.1")
"""What a request h11 cannot read is told, in the API's one-line JSON (uvicorn answers it in plain text)."""


class HeaderDeadline(H11Protocol):
    """uvicorn's h11 protocol, with a deadline on each request's line and headers (module docstring), and a
    request that is not HTTP answered as every error of the API is (``send_400_response``)."""

    wait = HEADER_WAIT

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # a whole request line and headers have arrived
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm()  # the next request on this connection gets the same time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request h11 refuses (a malformed Content-Length, a header line without a colon),
        as JSON: ``{"error": BAD_REQUEST}``, and the connection closed."""
        body = json.dumps({"error": BAD_REQUEST}).encode()
        headers = [(b"content-type", b"application/json"), (b"connection", b"close"),
                   (b"content-length", str(len(body)).encode())]
        for event in (h11.Response(status_code=400, headers=headers), h11.Data(data=body), h11.EndOfMessage()):
            self.transport.write(self.conn.send(event))
        self.transport.close()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.wait, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self.conn.our_state is h11.IDLE:  # nothing of a response was sent on this cycle
            self.transport.write(_timeout_response(self.wait))
        self.transport.close()

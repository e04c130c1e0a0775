"""Limits on a request for the server's HTTP parser: its head's size and time, its body's size
and time.

Why here and not in a library's setting: a replica reached directly (not through HAProxy,
which enforces both) had none. uvicorn's default parser, httptools, buffers a header of any
size (four requests with 50 MB headers took a worker from 109 MB to 389 MB and were answered
200), and uvicorn has no timeout for reading a request's head or body: its keep-alive timer
stops at the first byte, so a client that trickles headers, or a body, holds a connection
open for ever. gunicorn's ``limit_request_*`` settings apply only to gunicorn's own parser,
which uvicorn workers do not use. h11, uvicorn's other parser, has a size limit
(``h11_max_incomplete_event_size``), but answers it with 400, has no timeouts either, and is
pure Python (slower per request than httptools). So this is a minimal subclass of uvicorn's
httptools protocol: it counts the bytes received while a head is incomplete, times the head
and the body, checks a body's size, and leaves everything else to uvicorn.

- More than ``max_header_bytes`` (``FOURSQUARE_MAX_HEADER_BYTES``) received before a head is
  complete: ``431 Request Header Fields Too Large`` (problem+json) and the connection closes.
  The check runs after each chunk read from the socket, so a worker buffers at most the limit
  plus one read (256 KiB), never the header sent.
- A head not complete ``header_timeout`` seconds (``FOURSQUARE_HEADER_TIMEOUT_SECONDS``)
  after the connection opened, or after the first byte of a later request on it: the
  connection closes (no answer: the client may not be reading).
- A body declared (``Content-Length``) or received (chunked) larger than ``max_body_bytes``
  (``FOURSQUARE_MAX_BODY_BYTES``): ``413`` (problem+json, ``payload_too_large``, as the app's
  own check answers) and the connection closes at once, without reading the rest: the app's
  check (api/ops/middleware.py) answered as well, but uvicorn then read the whole body (50 MB
  of it) to keep the connection alive. The app never sees such a request.
- A body not complete ``body_timeout`` seconds (``FOURSQUARE_BODY_TIMEOUT_SECONDS``) after
  its head: the connection closes (the request's handler, waiting for the body, is told the
  client went away).
"""

from __future__ import annotations

import asyncio
import http
import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

TOO_LARGE = http.HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
BODY_TOO_LARGE = http.HTTPStatus.REQUEST_ENTITY_TOO_LARGE


class HeadLimitedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a size limit and a deadline on each request's head
    and body."""

    max_header_bytes = 32 * 1024
    header_timeout = 10.0
    max_body_bytes = 4096
    body_timeout = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reading_head = True
        self.head_bytes = 0  # received since the head began (a bound on what is buffered)
        self.parsed_bytes = 0  # of the request line's URL and the headers parsed
        self.body_bytes = 0  # of the current request's body, parsed
        # Why the request is refused (answered once the parser returns, the connection then
        # closed); the app never sees it, nor the rest of its body.
        self.refusal: http.HTTPStatus | None = None
        self.head_deadline: asyncio.TimerHandle | None = None
        self.body_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arm_head_deadline()  # a connection that sends nothing is held no longer

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm_head_deadline()
        self.disarm_body_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.refusal is not None:
            return  # refused and closing: nothing more is read
        if self.reading_head:
            self.head_bytes += len(data)
            self.arm_head_deadline()
        super().data_received(data)
        # A head completed in this chunk was measured as parsed; one still incomplete after it
        # by the bytes received.
        if self.reading_head and self.head_bytes > self.max_header_bytes:
            self.refusal = TOO_LARGE
        if self.refusal is not None and not self.transport.is_closing():
            self.refuse()

    def on_message_begin(self) -> None:
        self.parsed_bytes = 0
        self.body_bytes = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self.parsed_bytes += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.parsed_bytes += len(name) + len(value) + 4  # ": " and CRLF
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.reading_head = False
        self.disarm_head_deadline()
        if self.parsed_bytes > self.max_header_bytes:
            self.refusal = TOO_LARGE
            return
        declared, chunked = self.declared_body()
        if declared > self.max_body_bytes:
            self.refusal = BODY_TOO_LARGE
            return
        super().on_headers_complete()
        if declared or chunked:
            self.arm_body_deadline()

    def declared_body(self) -> tuple[int, bool]:
        """The head's Content-Length (0 if none), and whether the body is chunked (httptools
        has already refused a malformed or doubled Content-Length with 400)."""
        length, chunked = 0, False
        for name, value in self.headers:
            if name == b"content-length" and value.strip().isdigit():
                length = int(value)
            elif name == b"transfer-encoding" and b"chunked" in value.lower():
                chunked = True
        return length, chunked

    def on_body(self, body: bytes) -> None:
        if self.refusal is not None:
            return
        self.body_bytes += len(body)
        if self.body_bytes > self.max_body_bytes:  # a chunked body, past the limit
            self.refusal = BODY_TOO_LARGE
            return
        super().on_body(body)

    def on_message_complete(self) -> None:
        if self.refusal is not None:
            return
        self.disarm_body_deadline()
        super().on_message_complete()
        # The next bytes on this connection are the next request's head.
        self.reading_head = True
        self.head_bytes = 0

    def arm_head_deadline(self) -> None:
        if self.head_deadline is None:
            self.head_deadline = self.loop.call_later(self.header_timeout, self.head_too_slow)

    def disarm_head_deadline(self) -> None:
        if self.head_deadline is not None:
            self.head_deadline.cancel()
            self.head_deadline = None

    def arm_body_deadline(self) -> None:
        self.disarm_body_deadline()
        self.body_deadline = self.loop.call_later(self.body_timeout, self.body_too_slow)

    def disarm_body_deadline(self) -> None:
        if self.body_deadline is not None:
            self.body_deadline.cancel()
            self.body_deadline = None

    def head_too_slow(self) -> None:
        self.head_deadline = None
        answering = self.cycle is not None and not self.cycle.response_complete
        # A response still being computed for the previous request is not cut off: the
        # connection closes after it instead (uvicorn's keep-alive handling).
        if self.reading_head and not answering and not self.transport.is_closing():
            self.transport.close()
        elif answering and self.cycle is not None:
            self.cycle.keep_alive = False

    def body_too_slow(self) -> None:
        # No answer: the client is not sending, and may not be reading either. uvicorn tells
        # the request's handler that the client went away (http.disconnect).
        self.body_deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def refuse(self) -> None:
        """Answer the refusal (unless a response has begun on this connection) and close."""
        self.disarm_head_deadline()
        self.disarm_body_deadline()
        status = self.refusal
        assert status is not None
        if status is TOO_LARGE:
            detail = f"the request line and headers exceed {self.max_header_bytes} bytes"
            code = None
        else:
            detail = f"request bodies are limited to {self.max_body_bytes} bytes"
            code = "payload_too_large"
        cycle = self.cycle
        # A response begun (its handler answered before reading the body) cannot be followed
        # by another on the same connection: the connection just closes.
        if cycle is None or not cycle.response_started or cycle.response_complete:
            problem: dict[str, object] = {
                "type": "about:blank",
                "title": status.phrase,
                "status": status.value,
                "detail": detail,
            }
            if code is not None:
                problem["code"] = code
            body = json.dumps(problem).encode()
            self.transport.write(
                b"".join(
                    [
                        f"HTTP/1.1 {status.value} {status.phrase}\r\n".encode(),
                        b"content-type: application/problem+json\r\n",
                        b"content-length: %d\r\n" % len(body),
                        b"connection: close\r\n\r\n",
                        body,
                    ]
                )
            )
        self.transport.close()


def head_limited_protocol(
    max_header_bytes: int,
    header_timeout: float,
    max_body_bytes: int = HeadLimitedProtocol.max_body_bytes,
    body_timeout: float = HeadLimitedProtocol.body_timeout,
) -> type[HttpToolsProtocol]:
    """The protocol class a worker's uvicorn ``Config(http=...)`` takes, with these limits."""

    class Configured(HeadLimitedProtocol):
        pass

    Configured.max_header_bytes = max_header_bytes
    Configured.header_timeout = header_timeout
    Configured.max_body_bytes = max_body_bytes
    Configured.body_timeout = body_timeout
    return Configured

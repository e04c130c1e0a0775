"""Limits on a request's head for the server's HTTP parser: its size, and how long it may take.

Why here and not in a library's setting: a replica reached directly (not through HAProxy,
which enforces both) had none. uvicorn's default parser, httptools, buffers a header of any
size (four requests with 50 MB headers took a worker from 109 MB to 389 MB and were answered
200), and uvicorn has no timeout for reading a request's head: its keep-alive timer stops at
the first byte, so a client that trickles headers holds a connection open for ever. gunicorn's
``limit_request_*`` settings apply only to gunicorn's own parser, which uvicorn workers do not
use. h11, uvicorn's other parser, has a size limit (``h11_max_incomplete_event_size``), but
answers it with 400, has no head timeout either, and is pure Python (slower per request than
httptools). So this is a minimal subclass of uvicorn's httptools protocol: it counts the bytes
received while a head is incomplete and times the head, and leaves everything else to uvicorn.

- More than ``max_header_bytes`` (``FOURSQUARE_MAX_HEADER_BYTES``) received before a head is
  complete: ``431 Request Header Fields Too Large`` (problem+json) and the connection closes.
  The check runs after each chunk read from the socket, so a worker buffers at most the limit
  plus one read (256 KiB), never the header sent.
- A head not complete ``header_timeout`` seconds (``FOURSQUARE_HEADER_TIMEOUT_SECONDS``)
  after the connection opened, or after the first byte of a later request on it: the
  connection closes (no answer: the client may not be reading).
"""

from __future__ import annotations

import asyncio
import http
import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

TOO_LARGE = http.HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE


class HeadLimitedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a size limit and a deadline on each request head."""

    max_header_bytes = 32 * 1024
    header_timeout = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reading_head = True
        self.head_bytes = 0  # received since the head began (a bound on what is buffered)
        self.parsed_bytes = 0  # of the request line's URL and the headers parsed
        self.too_large = False
        self.head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arm_head_deadline()  # a connection that sends nothing is held no longer

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm_head_deadline()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.reading_head:
            self.head_bytes += len(data)
            self.arm_head_deadline()
        super().data_received(data)
        # A head completed in this chunk was measured as parsed; one still incomplete after it
        # by the bytes received.
        incomplete_too_large = self.reading_head and self.head_bytes > self.max_header_bytes
        if (self.too_large or incomplete_too_large) and not self.transport.is_closing():
            self.refuse_too_large()

    def on_message_begin(self) -> None:
        self.parsed_bytes = 0
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
            self.too_large = True  # refused once the parser returns; the app never sees it
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self.too_large:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self.too_large:
            return
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

    def head_too_slow(self) -> None:
        self.head_deadline = None
        answering = self.cycle is not None and not self.cycle.response_complete
        # A response still being computed for the previous request is not cut off: the
        # connection closes after it instead (uvicorn's keep-alive handling).
        if self.reading_head and not answering and not self.transport.is_closing():
            self.transport.close()
        elif answering and self.cycle is not None:
            self.cycle.keep_alive = False

    def refuse_too_large(self) -> None:
        self.disarm_head_deadline()
        body = json.dumps(
            {
                "type": "about:blank",
                "title": TOO_LARGE.phrase,
                "status": TOO_LARGE.value,
                "detail": f"the request line and headers exceed {self.max_header_bytes} bytes",
            }
        ).encode()
        self.transport.write(
            b"".join(
                [
                    f"HTTP/1.1 {TOO_LARGE.value} {TOO_LARGE.phrase}\r\n".encode(),
                    b"content-type: application/problem+json\r\n",
                    b"content-length: %d\r\n" % len(body),
                    b"connection: close\r\n\r\n",
                    body,
                ]
            )
        )
        self.transport.close()


def head_limited_protocol(max_header_bytes: int, header_timeout: float) -> type[HttpToolsProtocol]:
    """The protocol class a worker's uvicorn ``Config(http=...)`` takes, with these limits."""

    class Configured(HeadLimitedProtocol):
        pass

    Configured.max_header_bytes = max_header_bytes
    Configured.header_timeout = header_timeout
    return Configured

"""Limits for the server's HTTP parser: on a request, its head's size and time and its body's
size and time; on connections, how many one client address and the process hold open.

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
  check (the request edge, api/ops/observer.py) answered as well, but uvicorn then read the
  whole body (50 MB of it) to keep the connection alive. The app never sees a request whose
  declared body is too large; one whose chunked body grows too large has reached its route's
  handler, which is told the client went away (below).
- A body not complete ``body_timeout`` seconds (``FOURSQUARE_BODY_TIMEOUT_SECONDS``) after
  its head: the connection closes (the request's handler, waiting for the body, is told the
  client went away).
- A connection opened while its client address holds ``max_connections_per_client``
  (``FOURSQUARE_MAX_CONNECTIONS_PER_CLIENT``) already on this process: ``429
  too_many_connections``; while the process holds as many as its open-file limit allows
  (:func:`admit_connections`, from api/ops/files.py): ``503 connections_full``. Either is
  written as soon as the connection is accepted, before anything is read, and the connection
  closes. The addresses of FOURSQUARE_TRUSTED_PROXIES have no cap of their own.

  Why: every open connection holds a descriptor, and a half-open one (a head begun and never
  finished) holds it until the head timeout. 1,000 of them from one address, under a limit of
  1,024 open files, took every descriptor of a worker: accept failed with EMFILE, the kernel
  dropped what waited in the backlog, and ``/healthz`` and ``/readyz`` were reset for ten
  seconds, with nothing logged. uvicorn's ``limit_concurrency`` does not prevent it: it
  answers 503 once a request's head is complete, so a connection that never completes one is
  never counted against it; gunicorn's ``worker_connections`` applies only to its eventlet
  and gevent workers. A cap in ``connection_made`` is the first point where a connection is
  seen, and closing it there gives its descriptor back at once.

A request httptools cannot parse gets ``400 bad_request`` (uvicorn answered it in plain text).

A request cut off while its body is read (too large, a malformed chunk, the body deadline) has
a running handler: it is told the client went away, and the request's scope says what
happened (``CUT_SCOPE_KEY``, :meth:`HeadLimitedProtocol.tell_handler`), so that the app's edge
counts and logs it once under what the client was answered (``413``, ``400``) or, with no
answer, as ``client_closed``: never as a 500 of the app's.

Every refusal made here is the service's own: problem+json with its ``code``, a
``request_id`` (the client's ``X-Request-ID`` if the head got that far and it is sane, else a
new one) also sent as ``X-Request-ID``, a line in the access log (api.ops.logs) and a count in
``/metrics`` (api.ops.metrics), as the app's refusals have (api.ops.observer); the app never
sees these requests, so its observer cannot do it.
"""

from __future__ import annotations

import asyncio
import http
import ipaddress
import logging
import re
import time
import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import IPvAnyNetwork
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api.core.context import CLIENT_CLOSED, CUT_SCOPE_KEY, UNMATCHED
from api.core.errors import RETRY_AFTER_SECONDS
from api.core.problems import PROBLEM_MEDIA_TYPE, problem_bytes
from api.ops.logs import log_refusal
from api.ops.settings import OpsSettings

TOO_LARGE = http.HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
BODY_TOO_LARGE = http.HTTPStatus.REQUEST_ENTITY_TOO_LARGE

log = logging.getLogger("foursquare.http")

# As api.ops.observer reads them: a client's request id is kept if sane, a method named if
# it is one of these.
_SANE_REQUEST_ID = re.compile(rb"[\x21-\x7e]{1,128}")
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# A warning that a connection cap refuses is logged at most this often (each refusal has its
# access-log line and its count already; the warning is for whoever reads warnings only).
WARN_EVERY_SECONDS = 10.0


class Connections:
    """This process's open connections (one such object per process: :data:`CONNECTIONS`),
    in all and by client address, and the cap in all."""

    def __init__(self) -> None:
        self.limit: int | None = None  # None: not capped (an unlimited open-file limit)
        self.open = 0
        self.by_client: Counter[str] = Counter()
        self.refused_since_warning = 0
        self.warned_at = 0.0

    def admit(self, client: str | None, per_client: int | None) -> str | None:
        """Count a new connection in, or say which cap refuses it ("client", "total")."""
        if client is not None and per_client is not None and self.by_client[client] >= per_client:
            return "client"
        if self.limit is not None and self.open >= self.limit:
            return "total"
        self.open += 1
        if client is not None:
            self.by_client[client] += 1
        return None

    def release(self, client: str | None) -> None:
        self.open -= 1
        if client is not None:
            self.by_client[client] -= 1
            if self.by_client[client] <= 0:
                del self.by_client[client]

    def refused(self, limit: str, client: str | None) -> None:
        self.refused_since_warning += 1
        moment = time.monotonic()
        if moment - self.warned_at >= WARN_EVERY_SECONDS:
            log.warning(
                "open connections capped: %d refused since the last warning, the last by the "
                "%s cap (%s); %d open",
                self.refused_since_warning,
                limit,
                f"client {client}" if limit == "client" else f"at most {self.limit}",
                self.open,
                extra={"fields": {"cap": limit, "refused": self.refused_since_warning}},
            )
            self.refused_since_warning = 0
            self.warned_at = moment


CONNECTIONS = Connections()


def admit_connections(limit: int | None) -> None:
    """Cap this process's open connections at ``limit`` (from api/ops/files.py, as its app
    starts: the cap depends on the descriptors it holds and its pools)."""
    CONNECTIONS.limit = limit
    if limit is not None:
        from api.ops import metrics  # imported by the app already; see metrics_on

        metrics.connections_limit(limit)


def request_id_of(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The client's ``X-Request-ID`` if sane (as api.ops.observer keeps it), else a new one."""
    for name, value in headers:
        if name == b"x-request-id":
            if _SANE_REQUEST_ID.fullmatch(value):
                return value.decode("ascii")
            break
    return uuid.uuid4().hex


def refusal_bytes(
    status: http.HTTPStatus,
    code: str,
    title: str,
    detail: str,
    request_id: str,
    headers: Sequence[tuple[str, str]] = (),
) -> bytes:
    """A whole HTTP/1.1 response closing its connection, with a problem+json body."""
    body = problem_bytes(status.value, code, title, detail, request_id)
    lines = [
        f"HTTP/1.1 {status.value} {status.phrase}",
        f"content-type: {PROBLEM_MEDIA_TYPE}",
        f"content-length: {len(body)}",
        f"x-request-id: {request_id}",
        *(f"{name}: {value}" for name, value in headers),
        "connection: close",
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class HeadLimitedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a size limit and a deadline on each request's head
    and body."""

    max_header_bytes = 32 * 1024
    header_timeout = 10.0
    max_body_bytes = 4096
    body_timeout = 10.0
    max_connections_per_client: int | None = None
    trusted_proxies: tuple[IPvAnyNetwork, ...] = ()
    refusal_log = False  # (not "access_log": uvicorn's protocol has its own)
    metrics_on = False

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
        self.peer: str | None = None  # the client address counted, while counted
        self.counted = False
        self.in_body = False  # between a head that announced a body and that body's end

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = self.client[0] if self.client else None
        capped = None if peer is None or self.trusted(peer) else peer
        limit = CONNECTIONS.admit(capped, self.max_connections_per_client)
        if limit is not None:
            self.refuse_connection(limit, peer)
            return
        self.peer, self.counted = capped, True
        self.arm_head_deadline()  # a connection that sends nothing is held no longer

    def connection_lost(self, exc: Exception | None) -> None:
        if self.counted:
            self.counted = False
            CONNECTIONS.release(self.peer)
        self.disarm_head_deadline()
        self.disarm_body_deadline()
        super().connection_lost(exc)

    def trusted(self, peer: str) -> bool:
        if not self.trusted_proxies:
            return False
        try:
            address = ipaddress.ip_address(peer)
        except ValueError:
            return False
        return any(address in network for network in self.trusted_proxies)

    def refuse_connection(self, limit: str, peer: str | None) -> None:
        """Answer a connection past a cap at once, before reading anything, and close it."""
        if limit == "client":
            status, code, title = (
                http.HTTPStatus.TOO_MANY_REQUESTS,
                "too_many_connections",
                "Too many connections",
            )
            detail = (
                f"this address holds {self.max_connections_per_client} connections to this "
                "server already; close one, or retry later"
            )
        else:
            status, code, title = (
                http.HTTPStatus.SERVICE_UNAVAILABLE,
                "connections_full",
                "Connections full",
            )
            detail = "this server holds as many connections as it may; retry shortly"
        self.refusal = status  # nothing it sends is parsed (or handed to the app)
        request_id = uuid.uuid4().hex
        self.transport.write(
            refusal_bytes(
                status,
                code,
                title,
                detail,
                request_id,
                [("retry-after", str(RETRY_AFTER_SECONDS))],
            )
        )
        self.transport.close()
        CONNECTIONS.refused(limit, peer)
        self.observe_refusal(request_id, "OTHER", status, code)
        if self.metrics_on:
            from api.ops import metrics

            metrics.connection_refused(limit)

    def observe_refusal(
        self, request_id: str, method: str, status: http.HTTPStatus, code: str
    ) -> None:
        """The access-log line and the request count of a refusal made here."""
        if self.refusal_log:
            log_refusal(request_id, method, UNMATCHED, status.value, code)
        if self.metrics_on and code not in ("too_many_connections", "connections_full"):
            from api.ops import metrics

            metrics.request_refused_early(method, UNMATCHED, status.value)

    def method(self) -> str:
        try:
            method = self.parser.get_method().decode("ascii", "replace")
        except Exception:  # no request line parsed yet
            return "OTHER"
        return method if method in _METHODS else "OTHER"

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
        self.in_body = False
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
            self.in_body = True
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
        self.in_body = False
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
            self.tell_handler(CLIENT_CLOSED, "body_timeout", None)
            self.transport.close()

    def tell_handler(self, label: int | str, reason: str, request_id: str | None) -> bool:
        """Whether the request being cut off (while its body is read) is one the app is
        handling: then its scope says what happened (:data:`CUT_SCOPE_KEY`) and the app's edge
        counts and logs it, with its route, once (its handler is told the client went away);
        otherwise the app never sees it and the refusal is observed here.

        Why: a chunked body past the limit, a malformed chunk or a body deadline each reached
        the route's handler as a disconnect, which it took for a fault: a traceback and a
        500 counted for every one, false alerts anyone could cause on demand."""
        cycle = self.cycle
        if not self.in_body or cycle is None or cycle.response_started:
            return False
        if any(waiting is cycle for waiting, _ in self.pipeline):
            return False  # pipelined behind another request: its handler has not started
        cycle.scope[CUT_SCOPE_KEY] = (label, reason, request_id)  # type: ignore[literal-required]
        self.in_body = False
        return True

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request httptools cannot parse (a text/plain 400), in the
        service's voice like the other refusals made here."""
        del msg  # uvicorn's "Invalid HTTP request received." (it logs it as a warning)
        self.disarm_head_deadline()
        self.disarm_body_deadline()
        status = http.HTTPStatus.BAD_REQUEST
        code = "bad_request"
        request_id = request_id_of(self.headers)
        detail = "the request is not well-formed HTTP/1.1"
        self.transport.write(refusal_bytes(status, code, "Bad request", detail, request_id))
        self.transport.close()
        if not self.tell_handler(status.value, code, request_id):
            self.observe_refusal(request_id, self.method(), status, code)

    def refuse(self) -> None:
        """Answer the refusal (unless a response has begun on this connection) and close."""
        self.disarm_head_deadline()
        self.disarm_body_deadline()
        status = self.refusal
        assert status is not None
        if status is TOO_LARGE:
            detail = f"the request line and headers exceed {self.max_header_bytes} bytes"
            code, title = "headers_too_large", "Request headers too large"
        else:
            detail = f"request bodies are limited to {self.max_body_bytes} bytes"
            code, title = "payload_too_large", "Payload too large"
        cycle = self.cycle
        # A response begun (its handler answered before reading the body) cannot be followed
        # by another on the same connection: the connection just closes.
        if cycle is None or not cycle.response_started or cycle.response_complete:
            request_id = request_id_of(self.headers)
            self.transport.write(refusal_bytes(status, code, title, detail, request_id))
            if not self.tell_handler(status.value, code, request_id):
                self.observe_refusal(request_id, self.method(), status, code)
        self.transport.close()


def head_limited_protocol(settings: OpsSettings) -> type[HttpToolsProtocol]:
    """The protocol class a worker's uvicorn ``Config(http=...)`` takes, with the limits
    ``settings`` name."""

    class Configured(HeadLimitedProtocol):
        pass

    Configured.max_header_bytes = settings.max_header_bytes
    Configured.header_timeout = settings.header_timeout_seconds
    Configured.max_body_bytes = settings.max_body_bytes
    Configured.body_timeout = settings.body_timeout_seconds
    Configured.max_connections_per_client = settings.max_connections_per_client
    Configured.trusted_proxies = tuple(settings.trusted_proxies)
    Configured.refusal_log = settings.access_log
    Configured.metrics_on = settings.metrics
    return Configured

"""The request's edge: the one ASGI layer every HTTP request crosses; and ``/metrics``.

:class:`RequestEdge` does, once per request and with one ``send`` wrapper, what five layers
did each with its own (a ``send`` wrapper, a coroutine level and a look through the headers
each: py-spy put some 40 % of a read's samples in them). In order:

- The request id: the client's ``X-Request-ID`` if it is a sane value (1-128 visible ASCII
  characters), or a new uuid4 hex; sent back in ``X-Request-ID``, written in the request's log
  line, and put in every problem+json body (:mod:`api.core.problems` reads it from the
  request's :class:`api.core.context.RequestContext`, which this layer sets).
- Refusals before the app reads anything: a body declared (``Content-Length``) larger than
  ``FOURSQUARE_MAX_BODY_BYTES`` gets 413 ``payload_too_large``; a body that is not JSON gets
  415 ``unsupported_media_type`` (FastAPI would read it as a string and answer a 422 about
  dictionaries; a request without a body passes). A body that grows past the limit while it
  is read (chunked, or with no length declared) gets 413 then, and the app is told the client
  went away; a declared length is the most the server delivers, so such a body is not
  counted again.
- ``HEAD`` wherever ``GET`` is answered (RFC 9110 section 9.3.2: the same status and headers,
  no body; FastAPI routes declare GET alone), in a copy of the scope that says so
  (:data:`HEAD_SCOPE_KEY`: an event stream answers its headers alone).
- The ``RateLimit`` fields the route's limit decided (:mod:`api.ops.ratelimit`), whatever the
  route returned: routes return ready-made ``Response`` objects, whose headers a dependency
  cannot reach.
- Where the time went: ``Server-Timing`` (W3C) on every answer unless
  ``FOURSQUARE_SERVER_TIMING`` is off, ``pool``, ``turn``, ``db`` and ``total`` in
  milliseconds (what :mod:`api.core.database` counted into the request's context; ``total``
  up to the answer's head); an event stream's are those of its opening, its life being
  open-ended.
- One log line and the HTTP metrics of every request, the 500s included.

The log line names the route *template* (``/games/{game_id}``) and never the path or query
string as sent: a token in a query string (refused, but sent all the same) or any other value
there never reaches a log.

Why one hand-written layer: Starlette's ``BaseHTTPMiddleware`` (``@app.middleware("http")``)
runs the app in another task and buffers streamed bodies (the event streams); a FastAPI
dependency runs after routing and cannot see a 404, a 500 or the body's bytes as they come;
FastAPI's ``max_body_size`` (Starlette's ``RequestBodyLimitMiddleware``) is two more layers
with a ``send`` wrapper of their own and refuses a declared length only once the route reads
the body; nothing there answers HEAD for FastAPI's routes or gives request ids. It sits around
the *whole* app, outside Starlette's ``ServerErrorMiddleware`` (see :func:`install_edge`), so
that it also sees, counts and tags the 500 answers that middleware sends; its refusals go
through the app's CORS layer when there is one, as the app's own answers do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import uuid
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from time import perf_counter
from typing import Any

from fastapi import FastAPI, Response
from sqlalchemy.pool import QueuePool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.core.context import (
    CLIENT_CLOSED,
    CUT_SCOPE_KEY,
    REQUEST,
    UNMATCHED,
    RequestContext,
    route_template,
)
from api.core.database import Database
from api.core.problems import problem_response
from api.ops import metrics
from api.ops.settings import OpsSettings

log = logging.getLogger("foursquare.access")
gone_log = logging.getLogger("foursquare.http")

_SANE_REQUEST_ID = re.compile(rb"[\x21-\x7e]{1,128}")
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
_JSON_TYPES = (b"application/json", b"application/problem+json")
_RATE_LIMIT_FIELDS = (b"ratelimit", b"ratelimit-policy")
POOL_SAMPLE_SECONDS = 1.0

# Set in a HEAD request's scope: a route whose answer never ends (an event stream) answers
# its headers alone instead.
HEAD_SCOPE_KEY = "foursquare.head"

Refusals = Callable[[ASGIApp], ASGIApp]


def _is_event_stream(headers: Iterable[tuple[bytes, bytes]]) -> bool:
    for name, value in headers:
        if name == b"content-type":
            return value.startswith(b"text/event-stream")
    return False


def server_timing(request: RequestContext, total: float) -> bytes:
    """The ``Server-Timing`` field of a request: its figures so far, in milliseconds."""
    return b"pool;dur=%.3f, turn;dur=%.3f, db;dur=%.3f, total;dur=%.3f" % (
        request.pool * 1000,
        request.turn * 1000,
        request.db * 1000,
        total * 1000,
    )


class RequestEdge:
    """Request id, refusals, HEAD, rate-limit fields, timing, log line and metrics of every
    HTTP request (see the module docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        openapi_paths: Callable[[], Iterable[str]],
        *,
        max_body_bytes: int,
        metrics_on: bool,
        access_log: bool,
        timing_header: bool,
        refusals: Refusals | None = None,
    ) -> None:
        self.app = app
        self.openapi_paths = openapi_paths
        self._templates: list[tuple[re.Pattern[str], str]] | None = None
        self.max_body_bytes = max_body_bytes
        self.metrics_on = metrics_on
        self.access_log = access_log
        self.timing_header = timing_header
        # What a refusal is answered through (the app's CORS layer), as the app's answers are.
        self.refusals = refusals
        # Label children by their label values: prometheus_client's ``labels()`` validates and
        # locks on every call; these are looked up once per label set.
        self._requests: dict[tuple[str, str, str], Any] = {}
        self._durations: dict[tuple[str, str], Any] = {}
        self._phases: dict[tuple[str, str], list[Any]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = perf_counter()
        request_id: str | None = None
        seen_id = too_large = chunked = False
        length: bytes | None = None  # the declared length as sent (the last one)
        declared: int | None = None  # and as a number, when it is one
        media_type = b""
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = value
                try:
                    declared = int(value)
                except ValueError:
                    declared = None
                else:
                    too_large = too_large or declared > self.max_body_bytes
            elif name == b"content-type":
                media_type = value
            elif name == b"transfer-encoding":
                chunked = True
            elif name == b"x-request-id" and not seen_id:
                seen_id = True  # the first one decides
                if _SANE_REQUEST_ID.fullmatch(value):
                    request_id = value.decode("ascii")
        if request_id is None:
            request_id = uuid.uuid4().hex
        request = RequestContext(request_id)
        id_header = (b"x-request-id", request_id.encode("ascii"))
        method = scope["method"]
        head = method == "HEAD"
        inner = {**scope, "method": "GET", HEAD_SCOPE_KEY: True} if head else scope
        status = 500  # if the app fails before it answers, the server answers 500
        answered: float | None = None  # when an event stream's headers went
        at_head: tuple[float, float, float] | None = None  # and its figures then
        responded = refused = False
        timing_header = self.timing_header

        async def send_edge(message: Message) -> None:
            nonlocal status, answered, at_head, responded
            if refused:
                return  # a 413 has been sent; drop whatever the app answers
            kind = message["type"]
            if kind == "http.response.start":
                responded = True
                status = message["status"]
                headers = list(message.get("headers", ()))
                fields = request.rate_limit
                if fields:
                    headers = [h for h in headers if h[0].lower() not in _RATE_LIMIT_FIELDS]
                    headers += fields
                headers.append(id_header)
                now = perf_counter()
                if _is_event_stream(headers):
                    answered = now
                    at_head = (request.pool, request.turn, request.db)
                if timing_header:
                    headers.append((b"server-timing", server_timing(request, now - started)))
                message = {**message, "headers": headers}
            elif head and kind == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        received = 0

        async def limited_receive() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:
                    # Answer 413 now and tell the app the client went away.
                    if not responded:
                        await self._too_large(inner, receive, send_edge)
                    refused = True
                    return {"type": "http.disconnect"}
            return message

        reset = REQUEST.set(request)
        try:
            if too_large:
                await self._too_large(inner, receive, send_edge)
            elif (
                method in _BODY_METHODS
                and ((length is not None and length != b"0") or chunked)
                and not _is_json(media_type)
            ):
                await self._refuse(
                    problem_response(
                        415,
                        "unsupported_media_type",
                        "Unsupported media type",
                        "request bodies must be JSON (Content-Type: application/json)",
                        instance=scope.get("path"),
                    ),
                    inner,
                    receive,
                    send_edge,
                )
            else:
                # A declared length (within the limit) bounds what the server delivers.
                counted = receive if declared is not None and not chunked else limited_receive
                await self.app(inner, counted, send_edge)
        finally:
            REQUEST.reset(reset)
            ended = perf_counter()
            label: int | str = status
            why: str | None = None
            cut = scope.get(CUT_SCOPE_KEY)
            if cut is not None:
                # Cut off by the HTTP protocol while its body was read: what it answered, or
                # client_closed, and with the request id that answer carried.
                label, why, cut_id = cut
                request.id = cut_id or request.id
            elif request.gone and not refused:
                label, why = CLIENT_CLOSED, "disconnected"
            self._observe(
                inner, method, request, label, (answered or ended) - started, ended - started,
                at_head, why,
            )  # fmt: skip

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = problem_response(
            413,
            "payload_too_large",
            "Payload too large",
            f"request bodies are limited to {self.max_body_bytes} bytes",
            instance=scope.get("path"),
        )
        await self._refuse(response, scope, receive, send)

    async def _refuse(self, response: Response, scope: Scope, receive: Receive, send: Send) -> None:
        answer: ASGIApp = response if self.refusals is None else self.refusals(response)
        await answer(scope, receive, send)

    def _observe(
        self,
        scope: Scope,
        method: str,
        request: RequestContext,
        status: int | str,
        seconds: float,
        lasted: float,
        at_head: tuple[float, float, float] | None,
        gone: str | None = None,
    ) -> None:
        """``seconds`` is the request's latency for the duration histogram: to the end of the
        response, or for an event stream to its headers (a stream lasts as long as its watcher
        stays, minutes or hours, which says nothing of how fast the service answers and would
        swamp every latency quantile; its phases are those of its opening too, ``at_head``);
        ``lasted`` is its whole life, for the log line, with its phases so far.

        ``gone`` says why a request's client went away before it was answered (``status`` is
        then what the HTTP protocol answered, or ``client_closed``): such a request gets one
        line at info, the access log's when it is on, else one of its own."""
        method = method if method in _METHODS else "OTHER"
        route = scope.get("route")
        if route is not None:
            template: str | None = route_template(route)
            path_params = scope.get("path_params")
        else:
            # Not routed: a 404, or a request this layer or CORS answered (413, 415, a
            # preflight).
            template, path_params = self._match(scope)
        template = template or UNMATCHED
        if self.metrics_on:
            key = (method, template, str(status))
            counter = self._requests.get(key)
            if counter is None:
                counter = self._requests[key] = metrics.HTTP_REQUESTS.labels(*key)
            counter.inc()
            timing_key = (method, template)
            histogram = self._durations.get(timing_key)
            if histogram is None:
                histogram = metrics.HTTP_DURATION.labels(method, template)
                self._durations[timing_key] = histogram
            histogram.observe(seconds)
            if request.connections or request.db:
                pool, turn, db = at_head or (request.pool, request.turn, request.db)
                phases = self._phases.get(timing_key)
                if phases is None:
                    phases = self._phases[timing_key] = [
                        metrics.HTTP_PHASE.labels(phase, method, template)
                        for phase in ("pool", "turn", "db")
                    ]
                phases[0].observe(pool)
                if request.turns:
                    phases[1].observe(turn)
                phases[2].observe(db)
        if self.access_log and log.isEnabledFor(logging.INFO):
            fields: dict[str, object] = {
                "request_id": request.id,
                "method": method,
                "route": template,
                "status": status,
                "duration_ms": round(lasted * 1000, 2),
                "pool_ms": round(request.pool * 1000, 2),
                "turn_ms": round(request.turn * 1000, 2),
                "db_ms": round(request.db * 1000, 2),
            }
            game_id = (path_params or {}).get("game_id")
            if game_id is not None:
                # Only a well-formed id: the path segment is whatever the client sent.
                with contextlib.suppress(ValueError, TypeError, AttributeError):
                    fields["game_id"] = str(uuid.UUID(game_id))
            if gone is not None:
                fields["gone"] = gone
            log.info("%s %s %s", method, template, status, extra={"fields": fields})
        elif gone is not None and gone_log.isEnabledFor(logging.INFO):
            gone_log.info(
                "%s %s: the client went away, or was cut off, before its body was read (%s)",
                method,
                template,
                gone,
                extra={"fields": {"request_id": request.id, "status": status, "gone": gone}},
            )

    def _match(self, scope: Scope) -> tuple[str | None, dict[str, str]]:
        """The documented route template (and its parameters) a path fits, if any.

        FastAPI nests included routers, so the app's routes cannot simply be matched again
        here; the OpenAPI document names every API route's template."""
        if self._templates is None:
            self._templates = [
                (
                    re.compile(
                        "^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(path)) + "$"
                    ),
                    path,
                )
                for path in self.openapi_paths()
            ]
        for pattern, template in self._templates:
            matched = pattern.match(scope["path"])
            if matched:
                return template, matched.groupdict()
        return None, {}


def _is_json(media_type: bytes) -> bool:
    media_type = media_type.split(b";")[0].strip().lower()
    return media_type in _JSON_TYPES or media_type.endswith(b"+json")


def _pools(database: Database) -> dict[str, QueuePool]:
    read, write = database.read_engine.pool, database.write_engine.pool
    # PostgreSQL: the tools' reads and writes share one pool, the requests' reads and writes
    # have the asyncio engines'; SQLite: a pool each for reads and writes.
    pools = {"main": read} if read is write else {"read": read, "write": write}
    if database.async_read_engine is not None:
        pools["requests"] = database.async_read_engine.pool
    if database.async_engine is not None:
        pools["request_writes"] = database.async_engine.pool
    return {name: pool for name, pool in pools.items() if isinstance(pool, QueuePool)}


async def _sample_pools(database: Database) -> None:
    pools = _pools(database)
    while True:
        metrics.sample_pools(pools)
        await asyncio.sleep(POOL_SAMPLE_SECONDS)


@asynccontextmanager
async def observing(settings: OpsSettings, database: Database) -> AsyncIterator[None]:
    """For the app's lifespan: sample the database pools into their gauges every second
    while the app runs; then drop this process's live gauges."""
    if not settings.metrics:
        yield
        return
    sampler = asyncio.create_task(_sample_pools(database))
    try:
        yield
    finally:
        sampler.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sampler
        metrics.process_exited(os.getpid())


def install_edge(app: FastAPI, settings: OpsSettings, refusals: Refusals | None = None) -> None:
    """Wrap the app in :class:`RequestEdge` and serve ``/metrics`` (unless metrics are off,
    or served on a port of their own by ``foursquare serve``). ``refusals`` wraps the edge's
    refusals as the app's middleware (CORS) wraps its answers."""
    if settings.metrics and settings.metrics_port is None:

        @app.get("/metrics", include_in_schema=False)
        def prometheus_metrics() -> Response:
            body, media_type = metrics.exposition()
            return Response(body, media_type=media_type)

    build_stack = app.build_middleware_stack

    def build_edged_stack() -> ASGIApp:
        # Outside the stack Starlette builds (ServerErrorMiddleware first), not in it as
        # app.add_middleware would put it: the 500s that middleware answers are observed too.
        return RequestEdge(
            build_stack(),
            lambda: app.openapi()["paths"],
            max_body_bytes=settings.max_body_bytes,
            metrics_on=settings.metrics,
            access_log=settings.access_log,
            timing_header=settings.server_timing,
            refusals=refusals,
        )

    app.build_middleware_stack = build_edged_stack  # type: ignore[method-assign]

"""Every request observed: a request id, one log line, and the HTTP metrics; ``/metrics``.

:class:`RequestObserver` is a plain ASGI middleware (no ``BaseHTTPMiddleware``: that one
runs the app in another task and buffers streaming bodies) wrapped around the *whole* app,
outside Starlette's ``ServerErrorMiddleware`` too (see :func:`install_observability`), so that
it also sees, counts and tags the 500 answers that middleware sends.

The request id is the client's ``X-Request-ID`` if it is a sane value (1-128 visible ASCII
characters), or a new uuid4 hex; it is sent back in ``X-Request-ID``, written in the request's
log line, and put in every problem+json body (:mod:`api.core.problems` reads it from
:func:`api.core.context.current_request_id`).

The log line names the route *template* (``/games/{game_id}``) and never the path or query
string as sent: a token in a query string (refused, but sent all the same) or any other
value there never reaches a log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Response
from sqlalchemy.pool import QueuePool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.core.context import REQUEST_ID, UNMATCHED, route_template
from api.core.database import Database
from api.core.settings import Settings
from api.ops import metrics

log = logging.getLogger("foursquare.access")

_SANE_REQUEST_ID = re.compile(rb"[\x21-\x7e]{1,128}")
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
POOL_SAMPLE_SECONDS = 1.0


def _is_event_stream(headers: Iterable[tuple[bytes, bytes]]) -> bool:
    return any(
        name == b"content-type" and value.startswith(b"text/event-stream")
        for name, value in headers
    )


class RequestObserver:
    """Request id, log line and metrics of every HTTP request (see the module docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        openapi_paths: Callable[[], Iterable[str]],
        *,
        metrics_on: bool,
        access_log: bool,
    ) -> None:
        self.app = app
        self.openapi_paths = openapi_paths
        self._templates: list[tuple[re.Pattern[str], str]] | None = None
        self.metrics_on = metrics_on
        self.access_log = access_log
        # Label children by their label values: prometheus_client's ``labels()`` validates and
        # locks on every call; these are looked up once per label set.
        self._requests: dict[tuple[str, str, int], Any] = {}
        self._durations: dict[tuple[str, str], Any] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        request_id = None
        for name, value in scope["headers"]:
            if name == b"x-request-id":
                if _SANE_REQUEST_ID.fullmatch(value):
                    request_id = value.decode("ascii")
                break
        if request_id is None:
            request_id = uuid.uuid4().hex
        id_header = (b"x-request-id", request_id.encode("ascii"))
        status = 500  # if the app fails before it answers, the server answers 500
        answered: float | None = None  # when an event stream's headers went

        async def send_with_id(message: Message) -> None:
            nonlocal status, answered
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = message.get("headers", ())
                if _is_event_stream(headers):
                    answered = time.perf_counter()
                message = {**message, "headers": [*headers, id_header]}
            await send(message)

        reset = REQUEST_ID.set(request_id)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            REQUEST_ID.reset(reset)
            ended = time.perf_counter()
            self._observe(scope, request_id, status, (answered or ended) - started, ended - started)

    def _observe(
        self, scope: Scope, request_id: str, status: int, seconds: float, lasted: float
    ) -> None:
        """``seconds`` is the request's latency for the duration histogram: to the end of the
        response, or for an event stream to its headers (a stream lasts as long as its watcher
        stays, minutes or hours, which says nothing of how fast the service answers and would
        swamp every latency quantile); ``lasted`` is its whole life, for the log line."""
        method = scope["method"] if scope["method"] in _METHODS else "OTHER"
        route = scope.get("route")
        if route is not None:
            template: str | None = route_template(route)
            path_params = scope.get("path_params")
        else:
            # Not routed in this scope: a 404, or a request some middleware answered (413,
            # a CORS preflight) or routed in a copy of the scope (HEAD, answered as GET).
            template, path_params = self._match(scope)
        template = template or UNMATCHED
        if self.metrics_on:
            key = (method, template, status)
            counter = self._requests.get(key)
            if counter is None:
                counter = self._requests[key] = metrics.HTTP_REQUESTS.labels(*map(str, key))
            counter.inc()
            timing_key = (method, template)
            histogram = self._durations.get(timing_key)
            if histogram is None:
                histogram = metrics.HTTP_DURATION.labels(method, template)
                self._durations[timing_key] = histogram
            histogram.observe(seconds)
        if self.access_log and log.isEnabledFor(logging.INFO):
            fields: dict[str, object] = {
                "request_id": request_id,
                "method": method,
                "route": template,
                "status": status,
                "duration_ms": round(lasted * 1000, 2),
            }
            game_id = (path_params or {}).get("game_id")
            if game_id is not None:
                # Only a well-formed id: the path segment is whatever the client sent.
                with contextlib.suppress(ValueError, TypeError, AttributeError):
                    fields["game_id"] = str(uuid.UUID(game_id))
            log.info("%s %s %s", method, template, status, extra={"fields": fields})

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
async def observing(settings: Settings, database: Database) -> AsyncIterator[None]:
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


def install_observability(app: FastAPI, settings: Settings) -> None:
    """Wrap the app in :class:`RequestObserver` and serve ``/metrics`` (unless metrics are
    off, or served on a port of their own by ``foursquare serve``)."""
    if settings.metrics and settings.metrics_port is None:

        @app.get("/metrics", include_in_schema=False)
        def prometheus_metrics() -> Response:
            body, media_type = metrics.exposition()
            return Response(body, media_type=media_type)

    build_stack = app.build_middleware_stack

    def build_observed_stack() -> ASGIApp:
        # Outside the stack Starlette builds (ServerErrorMiddleware first), not in it as
        # app.add_middleware would put it: the 500s that middleware answers are observed too.
        return RequestObserver(
            build_stack(),
            lambda: app.openapi()["paths"],
            metrics_on=settings.metrics,
            access_log=settings.access_log,
        )

    app.build_middleware_stack = build_observed_stack  # type: ignore[method-assign]

"""What the request being answered is: its id, its route's template, and where its time went.

One :class:`RequestContext` per request, set by the edge layer
(:class:`api.ops.observer.RequestEdge`) around it and read by the problem responses (every
problem body names its request's id), by the database (:mod:`api.core.database` adds the time
a unit of work waited for its connection and its write turn, and spent in statements) and by
the rate limits (the ``RateLimit`` fields the edge adds to the answer). A context variable
rather than the ASGI scope: the database's work runs far from the scope (in SQLAlchemy's
greenlet, or a worker thread on SQLite; both carry the context variables over), and the HEAD
answered as a GET runs in a copy of the scope.

Logs name the route template and never the path as sent.
"""

from __future__ import annotations

from contextvars import ContextVar

from starlette.routing import BaseRoute, Mount
from starlette.types import Scope

UNMATCHED = "unmatched"  # the route label of a request no route matched (a 404)
# The status label of a request whose client went away before it was answered (it closed
# the connection, or was cut off while its body was read): no answer reached anyone, and no
# fault of the server's is counted.
CLIENT_CLOSED = "client_closed"
# Set in a request's ASGI scope by the HTTP protocol (api/ops/http_limits.py) when it answers
# or closes a request whose handler is already running, while the body is read: a tuple of
# the status it counts under (``413``, ``400``, or :data:`CLIENT_CLOSED`), why
# (``payload_too_large``, ``bad_request``, ``body_timeout``) and the request id the refusal
# sent. The handler is then told the client went away; the edge (api/ops/observer.py) counts
# and logs the request once, as this says.
CUT_SCOPE_KEY = "foursquare.cut"


class RequestContext:
    """One request's id and the seconds it has spent so far: waiting for pooled database
    connections (``pool``, ``connections`` of them checked out), waiting for write turns
    (``turn``, ``turns`` of them taken) and in the database (``db``: statements, and the
    commits of write transactions). Each unit of work adds to it: a request that reads twice
    waits for two connections."""

    __slots__ = ("connections", "db", "gone", "id", "pool", "rate_limit", "turn", "turns")

    def __init__(self, request_id: str) -> None:
        self.id = request_id
        self.pool = 0.0
        self.connections = 0
        self.turn = 0.0
        self.turns = 0
        self.db = 0.0
        # The RateLimit fields api.ops.ratelimit decided, encoded, for the answer's head.
        self.rate_limit: list[tuple[bytes, bytes]] | None = None
        # Set when the handler learned that the client went away (starlette's
        # ClientDisconnect, api.core.problems): the request is counted as CLIENT_CLOSED.
        self.gone = False


REQUEST: ContextVar[RequestContext | None] = ContextVar("foursquare_request", default=None)


def current_request() -> RequestContext | None:
    """The request being answered (None outside a request: the tools, the lifespan's loops;
    a task a request starts inherits its request, as asyncio copies the context)."""
    return REQUEST.get()


def current_request_id() -> str | None:
    """The id of the request being answered (None outside a request)."""
    request = REQUEST.get()
    return request.id if request is not None else None


def route_template(route: BaseRoute) -> str:
    path: str = getattr(route, "path", UNMATCHED)
    return f"{path}/{{path}}" if isinstance(route, Mount) else path


def route_of(scope: Scope) -> str:
    """The template of the route that answers a request, for logs that must not quote the
    path as sent (``unmatched`` before routing or for a 404)."""
    route = scope.get("route")
    return route_template(route) if route is not None else UNMATCHED

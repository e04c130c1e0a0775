"""What the request being answered is: its id and its route's template.

Set by :class:`api.ops.observer.RequestObserver` around each request; read by the problem
responses (every problem body names its request's id) and by logs, which must name the
route template and never the path as sent.
"""

from __future__ import annotations

from contextvars import ContextVar

from starlette.routing import BaseRoute, Mount
from starlette.types import Scope

REQUEST_ID: ContextVar[str | None] = ContextVar("foursquare_request_id", default=None)
UNMATCHED = "unmatched"  # the route label of a request no route matched (a 404)


def current_request_id() -> str | None:
    """The id of the request being answered (None outside a request)."""
    return REQUEST_ID.get()


def route_template(route: BaseRoute) -> str:
    path: str = getattr(route, "path", UNMATCHED)
    return f"{path}/{{path}}" if isinstance(route, Mount) else path


def route_of(scope: Scope) -> str:
    """The template of the route that answers a request, for logs that must not quote the
    path as sent (``unmatched`` before routing or for a 404)."""
    route = scope.get("route")
    return route_template(route) if route is not None else UNMATCHED

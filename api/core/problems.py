"""The one place that turns errors into RFC 9457 problem+json responses."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect
from starlette.routing import BaseRoute, Match, Mount

from api.core.context import current_request, current_request_id, route_of
from api.core.errors import (
    RETRY_AFTER_SECONDS,
    ApiError,
    InvalidPlayerName,
    ServiceUnavailable,
    echo,
    problem_type,
)
from api.core.schemas import FieldError, Problem

log = logging.getLogger("foursquare.api")

PROBLEM_MEDIA_TYPE = "application/problem+json"


def json_response(
    body: BaseModel, status_code: int = 200, headers: Mapping[str, str] | None = None
) -> Response:
    """A typed body serialised by Pydantic once (returning the model instead would make
    FastAPI dump it, validate it again against the route's response model and encode it)."""
    return Response(
        body.model_dump_json(),
        status_code=status_code,
        headers=dict(headers) if headers else None,
        media_type="application/json",
    )


def problem_bytes(
    status: int, code: str, title: str, detail: str, request_id: str, **extra: Any
) -> bytes:
    """A problem's JSON body, for answers written below the app (api/ops/http_limits.py),
    which has no request context: the same fields as :func:`problem_response`'s."""
    body = Problem(
        type=problem_type(code),
        title=title,
        status=status,
        detail=detail,
        code=code,
        request_id=request_id,
        **extra,
    )
    return body.model_dump_json(exclude_none=True).encode()


def problem_response(
    status: int,
    code: str,
    title: str,
    detail: str,
    *,
    instance: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    body = Problem(
        type=problem_type(code),
        title=title,
        status=status,
        detail=detail,
        code=code,
        instance=None if instance is None else echo(instance),
        request_id=current_request_id(),
        **extra,
    )
    return JSONResponse(
        body.model_dump(mode="json", exclude_none=True),
        status_code=status,
        headers=headers,
        media_type=PROBLEM_MEDIA_TYPE,
    )


def api_error_response(exc: ApiError, instance: str | None) -> JSONResponse:
    """The problem response of an :class:`ApiError`."""
    return problem_response(
        exc.status,
        exc.code,
        exc.title,
        exc.detail,
        instance=instance,
        headers=exc.headers,
        **exc.extra,
    )


_HTTP_CODES = {
    404: ("not_found", "Not found"),
    405: ("method_not_allowed", "Method not allowed"),
    413: ("payload_too_large", "Payload too large"),
    415: ("unsupported_media_type", "Unsupported media type"),
}


def install_error_handlers(app: FastAPI) -> None:
    """Map every error the app can raise to a problem+json response, with no internals."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return api_error_response(exc, request.url.path)

    @app.exception_handler(RequestValidationError)
    async def _invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        # Each part of a location is echoed: a field's name is the client's, of any length.
        errors = [
            FieldError(
                loc=[echo(str(part)) for part in error.get("loc", ())],
                message=str(error.get("msg", "invalid")),
                type=str(error.get("type", "value_error")),
            )
            for error in exc.errors()
        ]
        if errors and all(error.type == InvalidPlayerName.code for error in errors):
            # A name the rule refuses (api.core.names.PlayerName) is refused as every route
            # that takes a name refuses it: the rule in words, whatever the route.
            return api_error_response(InvalidPlayerName(errors[0].message), request.url.path)
        fields = ", ".join(".".join(e.loc) for e in errors) or "the request"
        return problem_response(
            422,
            "invalid_request",
            "Invalid request",
            f"invalid: {echo(fields)}",
            instance=request.url.path,
            errors=errors,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # FastAPI's "error parsing the body" (e.g. JSON nested too deeply to decode): the
            # same malformed-input answer as any other.
            return problem_response(
                422,
                "invalid_request",
                "Invalid request",
                "the body could not be parsed",
                instance=request.url.path,
                errors=[FieldError(loc=["body"], message=str(exc.detail), type="body_parse")],
            )
        code, title = _HTTP_CODES.get(exc.status_code, ("http_error", "HTTP error"))
        headers = dict(getattr(exc, "headers", None) or {})
        if exc.status_code == 405:
            # Starlette names only the methods of the first route whose path matched.
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return problem_response(
            exc.status_code,
            code,
            title,
            str(exc.detail),
            instance=request.url.path,
            headers=headers or None,
        )

    @app.exception_handler(PoolTimeoutError)
    async def _pool_timeout(request: Request, exc: PoolTimeoutError) -> JSONResponse:
        log.warning("database pool exhausted on %s", route_of(request.scope))
        return _busy(request)

    @app.exception_handler(DBAPIError)
    async def _database_error(request: Request, exc: DBAPIError) -> JSONResponse:
        if isinstance(exc, OperationalError):
            # Lock timeouts (SQLite under load), a server restarting, a dropped connection:
            # all worth retrying.
            log.warning("database unavailable on %s: %s", route_of(request.scope), exc.orig)
            return _busy(request)
        log.error("database error on %s", route_of(request.scope), exc_info=exc)
        return _internal(request)

    @app.exception_handler(ClientDisconnect)
    async def _client_gone(request: Request, exc: ClientDisconnect) -> Response:
        # Not a fault: the client went away while its body was read, or the HTTP protocol cut
        # it off (a body too large, malformed or too slow: api/ops/http_limits.py, which has
        # answered it if it could). Nothing can reach the client now. The edge
        # (api.ops.observer) counts and logs the request once, under what happened to it,
        # without a traceback; a traceback and a 500 are for the server's own faults.
        answering = current_request()
        if answering is not None:
            answering.gone = True
        return Response(status_code=400)  # never delivered: the connection is gone

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error on %s", route_of(request.scope), exc_info=exc)
        return _internal(request)


# The methods a route may declare (HEAD is answered wherever GET is: see below).
_ROUTE_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _allowed_methods(request: Request) -> list[str]:
    """Every method this request's path is served with: each route's whose path matches it,
    documented or not (the web page, /docs, /metrics), the files under a mount (GET), and HEAD
    wherever GET is (api/ops/observer.py answers it). The app's own routes are asked, one
    method at a time, as the router would (FastAPI's included routers keep their routes to
    themselves): the OpenAPI document leaves out the routes it does not describe, and
    Starlette's own 405 names only the methods of the first route whose path matched. Only a
    405 pays for this."""
    # The path from the app's root: a mount (the static files) has moved its own scope's
    # root_path past its prefix.
    root = {
        "type": "http",
        "path": request.scope["path"],
        "root_path": request.scope.get("app_root_path", ""),
    }
    methods: set[str] = set()
    for method in _ROUTE_METHODS:
        probe = {**root, "method": method}
        for route in request.app.router.routes:
            if isinstance(route, Mount):
                # A mount matches whatever the method; its static files are GET's alone.
                served = method == "GET" and route.matches(probe)[0] is Match.FULL
            else:
                served = isinstance(route, BaseRoute) and route.matches(probe)[0] is Match.FULL
            if served:
                methods.add(method)
                break
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods)


def _busy(request: Request) -> JSONResponse:
    return problem_response(
        503,
        ServiceUnavailable.code,
        ServiceUnavailable.title,
        "the database is busy; retry shortly",
        instance=request.url.path,
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


def _internal(request: Request) -> JSONResponse:
    return problem_response(
        500,
        "internal_error",
        "Internal server error",
        "an unexpected error occurred; it has been logged",
        instance=request.url.path,
    )

"""One error hierarchy and the one place that turns errors into RFC 9457 problem responses."""

from __future__ import annotations

import logging
import re
import sqlite3
from typing import Any

import psycopg
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.schemas import FieldError, Problem
from engine import EngineError, GameOver

log = logging.getLogger("foursquare.api")

PROBLEM_MEDIA_TYPE = "application/problem+json"
RETRY_AFTER_SECONDS = 1


def problem_type(code: str) -> str:
    """The problem ``type`` URI of an error code."""
    return f"urn:foursquare:problem:{code}"


class ApiError(Exception):
    """An error the API reports to its client. Subclasses fix status, code and title."""

    status = 500
    code = "internal_error"
    title = "Internal server error"

    def __init__(
        self,
        detail: str,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra


class GameNotFound(ApiError):
    status, code, title = 404, "game_not_found", "Game not found"


class MissingToken(ApiError):
    status, code, title = 401, "missing_token", "Missing token"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"WWW-Authenticate": 'Bearer realm="foursquare"'})


class InvalidToken(ApiError):
    status, code, title = 403, "invalid_token", "Invalid token"


class VersionConflict(ApiError):
    status, code, title = 409, "version_conflict", "Version conflict"


class IllegalMove(ApiError):
    """A placement the rules forbid (the code is the engine's)."""

    status, title = 422, "Illegal placement"

    def __init__(self, error: EngineError) -> None:
        super().__init__(error.message)
        self.code = error.code


class GameIsOver(ApiError):
    status, code, title = 409, "game_over", "Game over"


class PreconditionFailed(ApiError):
    status, code, title = 412, "precondition_failed", "Precondition failed"


class IdempotencyKeyReused(ApiError):
    status, code, title = 422, "idempotency_key_reused", "Idempotency key reused"


class RequestInProgress(ApiError):
    status, code, title = 409, "request_in_progress", "Request in progress"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


class ServiceUnavailable(ApiError):
    status, code, title = 503, "database_busy", "Database busy"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


def engine_error(error: EngineError) -> ApiError:
    """The API error for an engine error raised by a placement."""
    if isinstance(error, GameOver):
        return GameIsOver(error.message)
    return IllegalMove(error)


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
        instance=instance,
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
        errors = [
            FieldError(
                loc=[str(part) for part in error.get("loc", ())],
                message=str(error.get("msg", "invalid")),
                type=str(error.get("type", "value_error")),
            )
            for error in exc.errors()
        ]
        fields = ", ".join(".".join(e.loc) for e in errors) or "the request"
        return problem_response(
            422,
            "invalid_request",
            "Invalid request",
            f"invalid: {fields}",
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
        log.warning("database pool exhausted on %s", request.url.path)
        return _busy(request)

    # The same, raised by the drivers themselves under the public reads (api.reads), and
    # api.pg_loop.LoopPoolTimeout, an OperationalError.
    @app.exception_handler(psycopg.OperationalError)
    @app.exception_handler(sqlite3.OperationalError)
    async def _driver_unavailable(request: Request, exc: Exception) -> JSONResponse:
        log.warning("database unavailable on %s: %s", request.url.path, exc)
        return _busy(request)

    @app.exception_handler(DBAPIError)
    async def _database_error(request: Request, exc: DBAPIError) -> JSONResponse:
        if isinstance(exc, OperationalError):
            # Lock timeouts (SQLite under load), a server restarting, a dropped connection:
            # all worth retrying.
            log.warning("database unavailable on %s: %s", request.url.path, exc.orig)
            return _busy(request)
        log.error("database error on %s", request.url.path, exc_info=exc)
        return _internal(request)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected error on %s", request.url.path, exc_info=exc)
        return _internal(request)


def _allowed_methods(request: Request) -> list[str]:
    """Every method the API documents for this request's path (from its OpenAPI paths)."""
    table: list[tuple[re.Pattern[str], set[str]]] | None = getattr(
        request.app.state, "allowed_methods", None
    )
    if table is None:
        table = [
            (
                re.compile("^" + re.sub(r"\\{[^/]+?\\}", "[^/]+", re.escape(path)) + "$"),
                {method.upper() for method in operations},
            )
            for path, operations in request.app.openapi()["paths"].items()
        ]
        request.app.state.allowed_methods = table
    methods: set[str] = set()
    for pattern, path_methods in table:
        if pattern.match(request.url.path):
            methods |= path_methods
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

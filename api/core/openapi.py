"""OpenAPI helpers shared by the routes."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from api.core.errors import ApiError, Example, problem_type
from api.core.problems import PROBLEM_MEDIA_TYPE
from api.core.schemas import Problem


def header(description: str, schema_type: str = "string") -> dict[str, Any]:
    """An OpenAPI response header."""
    return {"description": description, "schema": {"type": schema_type}}


# The headers of problems, by name (what each error sends: ApiError.answer_headers).
_HEADERS = {
    "WWW-Authenticate": header('`Bearer realm="foursquare"`'),
    "Retry-After": header("Seconds to wait before retrying.", "integer"),
    "RateLimit-Policy": header(
        "The limits counted (draft-ietf-httpapi-ratelimit-headers): "
        '`"place-credential";q=120;w=60`, one item per limit. Sent on every answer of a '
        "limited route."
    ),
    "RateLimit": header(
        'What is left of each: `"place-credential";r=0;t=12` (requests left, seconds until '
        "one frees up)."
    ),
}


def problems(
    *errors: type[ApiError], examples: dict[type[ApiError], Example] | None = None
) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` entry of a route that can answer with these errors: one
    problem+json response per status, whose description, examples and headers are the
    errors' own (see :class:`ApiError`). ``examples`` shows an error as this route words
    it, where its own example is another route's."""
    by_status: dict[int, list[type[ApiError]]] = {}
    for error in errors:
        by_status.setdefault(error.status, []).append(error)
    shown = examples or {}
    return {status: _problem_response(by_status[status], shown) for status in sorted(by_status)}


def _problem_response(
    errors: list[type[ApiError]], shown: dict[type[ApiError], Example]
) -> dict[str, Any]:
    content: dict[str, Any] = {"schema": {"$ref": "#/components/schemas/Problem"}}
    # An error's subclasses answer with the codes it declares for them (NameReserved is a
    # NameTaken): their examples are shown beside its own.
    examples = {
        kind.code: _example(kind, example)
        for error in errors
        for kind in (error, *error.__subclasses__())
        if kind.code in error.codes() and (example := shown.get(kind, kind.example)) is not None
    }
    if examples:
        content["examples"] = examples
    response: dict[str, Any] = {
        "model": Problem,
        "description": "\n\n".join(_meaning(error) for error in errors),
        "content": {PROBLEM_MEDIA_TYPE: content},
    }
    headers = {name: _HEADERS[name] for error in errors for name in error.answer_headers}
    if headers:
        response["headers"] = headers
    return response


def _meaning(error: type[ApiError]) -> str:
    codes = ", ".join(f"`{code}`" for code in error.codes())
    return f"{codes}: {' '.join((error.__doc__ or '').split())}"


def _example(error: type[ApiError], example: Example) -> dict[str, Any]:
    return {
        "summary": error.title,
        "value": {
            "type": problem_type(error.code),
            "title": error.title,
            "status": error.status,
            "detail": example.detail,
            "code": error.code,
            "instance": example.instance,
        },
    }


def install_openapi(app: FastAPI) -> None:
    """The app's OpenAPI document without the responses that never happen: FastAPI lists a
    ``422 HTTPValidationError`` on every route with parameters, but this service answers
    malformed input with its own problem (declared by the routes where it can happen)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title,
                version=app.version,
                summary=app.summary,
                description=app.description,
                routes=app.routes,
            )
            for item in document.get("paths", {}).values():
                for operation in item.values():
                    responses = operation.get("responses", {})
                    if "HTTPValidationError" in json.dumps(responses.get("422", {})):
                        del responses["422"]
            schemas = document.get("components", {}).get("schemas", {})
            for unused in ("HTTPValidationError", "ValidationError"):
                if unused not in json.dumps(document["paths"]):
                    schemas.pop(unused, None)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

"""Typed bodies serialised by Pydantic directly.

Returning a model from a route makes FastAPI dump it to Python objects, validate those against
the response model again and encode them; a route that has already built its typed body sends
it with :func:`json_response` instead (the OpenAPI document still comes from the route's
``response_model``).
"""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import Response
from pydantic import BaseModel


def json_response(
    body: BaseModel, status_code: int = 200, headers: Mapping[str, str] | None = None
) -> Response:
    return Response(
        body.model_dump_json(),
        status_code=status_code,
        headers=dict(headers) if headers else None,
        media_type="application/json",
    )

"""Typed request parameters that several features' routes share: paging, credentials,
conditional requests and idempotency keys; and :class:`DirectRoute`, which hands the hot
routes their parameters without FastAPI's dependency solving."""

from __future__ import annotations

import collections.abc
import copy
import dataclasses
import functools
import inspect
import re
import typing
from collections.abc import Awaitable, Callable, Coroutine
from typing import Annotated, Any

from fastapi import Depends, Header, Query, Request, Response, params
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from fastapi.security import HTTPBearer
from pydantic import AfterValidator, BaseModel, StringConstraints, WithJsonSchema

# FastAPI's field of a Dependant's parameter (``Dependant.query_params`` and the like): its
# class lives in a private module, so it is typed by what the code uses of it, not imported.
ModelField = Any

# The two parameters of every paged listing (the leaderboards, a player's games).
PageLimit = Annotated[int, Query(ge=1, le=100, description="Entries per page.")]
PageCursor = Annotated[
    str | None, Query(max_length=300, description="`next_cursor` of the previous page.")
]


def service(name: str) -> Any:
    """The dependency that hands a route the app's ``state.<name>``: a feature's service,
    made once in the app's lifespan (``Annotated[GameService, service("games")]``)."""

    async def dependency(request: Request) -> Any:
        return getattr(request.app.state, name)

    return Depends(dependency)


class BearerSecret(HTTPBearer):
    """A bearer credential as its secret string (None when absent or not a bearer): FastAPI's
    ``HTTPBearer``, so the OpenAPI document declares the security scheme ("Authorize" in
    /docs, generated clients), in one dependency rather than two (it is resolved on every
    request, and each level of dependencies costs as much as a small route)."""

    async def __call__(self, request: Request) -> str | None:  # type: ignore[override]
        credentials = await super().__call__(request)
        return credentials.credentials if credentials is not None else None


# A missing or malformed header is left to the service, which answers 401 missing_token.
game_token = BearerSecret(
    scheme_name="GameToken",
    description="The `token` returned when the game was created, or the `key` of the "
    "registered player whose game it is.",
    auto_error=False,
)
player_key = BearerSecret(
    scheme_name="PlayerKey",
    description="A registered player's `key` (from `POST /players` or a rotation).",
    auto_error=False,
)

TokenDep = Annotated[str | None, Depends(game_token)]
PlayerKeyDep = Annotated[str | None, Depends(player_key)]

IfMatch = Annotated[
    str | None,
    Header(description="Place only if the game's ETag is still this one (else `412`)."),
]
IfNoneMatch = Annotated[
    str | None, Header(description="An ETag from an earlier read; `304` if unchanged.")
]

_KEY = StringConstraints(min_length=1, max_length=255, pattern=r"^[\x21-\x7e]+$")


# A UUID of version 4 (random) and the RFC 4122 variant, in its canonical form.
UUID4_PATTERN = (
    r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$"
)


def _uuid4(value: str) -> str:
    # The document's pattern with JSON Schema's meaning (a search: "$" may precede a final
    # newline, which no HTTP header value can hold anyway).
    if re.search(UUID4_PATTERN, value) is None:
        raise ValueError(
            "this request's Idempotency-Key must be a random UUID (version 4): its answer "
            "carries a secret shown once, and nobody else may guess the key and be replayed it"
        )
    return value


PlacementKey = Annotated[
    Annotated[str, _KEY] | None,
    Header(
        description="Any unique string of 1-255 visible ASCII characters (a UUID is best) "
        "naming this request. A retry with the same key and body returns the original "
        "response with `Idempotent-Replayed: true` and changes nothing; the same key with "
        "another body is `422 idempotency_key_reused`; a retry while the first is still "
        "running is `409 request_in_progress`. Kept 24 hours.",
    ),
]
CreationKey = Annotated[
    Annotated[str, AfterValidator(_uuid4)] | None,
    # An absent header is None; a sent one is never null, so the document says just this.
    WithJsonSchema({"type": "string", "format": "uuid", "pattern": UUID4_PATTERN}),
    Header(
        description="A random UUID (version 4) naming this request; anything else is "
        "`422 invalid_request`. A retry with the same key and body returns the original "
        "response, its secret (token or key) included, with `Idempotent-Replayed: true`; "
        "the same key with "
        "another body is `422 idempotency_key_reused`; a retry while the first is still "
        "running is `409 request_in_progress`. Kept 24 hours.",
    ),
]


# ---------------------------------------------------------------- routes without solving


class DirectRoute(APIRoute):
    """A FastAPI route whose requests skip FastAPI's dependency solving when every dependency
    (the route's own ``dependencies=[...]`` and its ``Depends`` parameters) is an ``async``
    callable of the request alone, with nothing below it: they are called one after the
    other, in FastAPI's order (the route's own first), rather than solved level by level.

    - When every other parameter is a path parameter or a header, both plain strings (a
      header optional), which no value can fail, the arguments are taken straight from the
      request and the endpoint called with them.
    - Otherwise (a JSON body, a constrained header, a query) each parameter is validated by
      its own FastAPI field, as FastAPI would, and the endpoint called with them; a request
      whose parameters are not all valid (or not of a kind read this way) is handed to
      FastAPI's own handler, for the route without its dependencies, which refuses it with
      its usual ``422``. Either way the dependencies run once the parameters are valid,
      just before the endpoint (a request refused as invalid is not counted by the rate
      limits, nor its credential looked at).

    Any other route, or any request while the app has ``dependency_overrides``, is handled
    by FastAPI as usual.

    Why: ``solve_dependencies`` walks every dependency level for path, query, header and
    cookie parameters alike; for ``GET /games/{id}`` (a rate limit, the service, the bearer
    credential, the path and one header: sixteen passes) that was a fifth of the request's
    instructions (``bench/request_cost.py``); for ``GET /leaderboard``'s seven query
    parameters, FastAPI's reading of them (each field's kind looked up again on every
    request) cost more than the cached page it answers. The route, and so its OpenAPI
    operation, is FastAPI's own, built from the same signature: only the handling is
    shorter."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        solved = super().get_route_handler()
        # The app includes each feature's router as it is (no router-level dependencies), so
        # the route's own dependant is the one its requests solve.
        route = self
        dependant: Dependant = route.dependant
        steps = _request_steps(dependant)
        if steps is None:
            return solved
        endpoint = dependant.call
        assert endpoint is not None
        overrides = self.dependency_overrides_provider
        plain = _plain_parameters(dependant)
        if plain is None:
            checked = self._checked_handler(route, steps)
            fields = _ValidatedFields.of(dependant)

            async def handle_checked(request: Request) -> Response:
                if overrides is not None and getattr(overrides, "dependency_overrides", None):
                    return await solved(request)
                values = None if fields is None else await fields.values_of(request)
                if values is None:
                    return await checked(request)
                values.update(await _run_steps(steps, request))
                response: Response = await endpoint(**values)
                return response

            return handle_checked
        path, headers = plain

        async def handle(request: Request) -> Response:
            if overrides is not None and getattr(overrides, "dependency_overrides", None):
                return await solved(request)
            values = await _run_steps(steps, request)
            path_params, sent = request.path_params, request.headers
            for name, alias in path:
                values[name] = path_params[alias]
            for name, alias in headers:
                values[name] = sent.get(alias)
            response: Response = await endpoint(**values)
            return response

        return handle

    def _checked_handler(
        self, route: Any, steps: list[_Step]
    ) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        """FastAPI's handler for ``route`` without its dependencies, whose endpoint runs
        ``steps`` before the route's own (built by FastAPI, as for any route, from a copy of
        the route's dependant; the route keeps its own, which the OpenAPI document is made
        from)."""
        dependant: Dependant = route.dependant
        endpoint = dependant.call
        assert endpoint is not None

        @functools.wraps(endpoint)
        async def run(**values: Any) -> Any:
            request = values.pop(_REQUEST)
            values.update(await _run_steps(steps, request))
            return await endpoint(**values)

        route.dependant = dataclasses.replace(
            dependant, dependencies=[], request_param_name=_REQUEST, call=run
        )
        try:
            return super().get_route_handler()
        finally:
            route.dependant = dependant


_Step = tuple[str | None, Callable[..., Awaitable[Any]], str | None]
_REQUEST = "direct_route_request"  # the request, for a checked route's dependencies


async def _run_steps(steps: list[_Step], request: Request) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, dependency, request_name in steps:
        value = await dependency(**{request_name: request} if request_name else {})
        if name is not None:
            values[name] = value
    return values


def _request_steps(dependant: Dependant) -> list[_Step] | None:
    """A route's dependencies as calls of the request, or None if any needs FastAPI (see
    :class:`DirectRoute`)."""
    if dependant.call is None or not inspect.iscoroutinefunction(dependant.call):
        return None
    if _special(dependant) or dependant.request_param_name is not None:
        return None
    steps: list[_Step] = []
    for sub in dependant.dependencies:
        call = sub.call
        if call is None:
            return None
        # A dependency is a function, or an instance (a security scheme) called through its type.
        runs = call if inspect.isfunction(call) else type(call).__call__
        plain = not (
            sub.dependencies
            or sub.path_params
            or sub.query_params
            or sub.header_params
            or sub.cookie_params
            or sub.body_params
            or _special(sub)
        )
        if not plain or not inspect.iscoroutinefunction(runs):
            return None
        steps.append((sub.name, call, sub.request_param_name))
    return steps


def _plain_parameters(
    dependant: Dependant,
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]] | None:
    """The path parameters and headers of a route that has only plain ones, by name and
    alias; None if any other parameter is there, or any that a value can fail."""
    if dependant.query_params or dependant.cookie_params or dependant.body_params:
        return None
    for field in [*dependant.path_params, *dependant.header_params]:
        info = field.field_info
        if info.metadata or info.annotation not in (str, str | None):
            return None
    path = [(field.name, field.alias) for field in dependant.path_params]
    headers = [(field.name, field.alias) for field in dependant.header_params]
    return path, headers


_IMMUTABLE_DEFAULTS = (type(None), bool, int, float, str, bytes)
_SEQUENCES = (list, set, frozenset, tuple, collections.abc.Sequence, collections.abc.Set)


@dataclasses.dataclass(frozen=True)
class _ValidatedFields:
    """A route's path, query, header and JSON body parameters, each validated by its own
    FastAPI field (its type adapter, as FastAPI validates it), without the machinery around
    it: what a request whose parameters are all valid gets from FastAPI, in one pass.
    :meth:`values_of` gives None for any request it does not take as valid (an invalid
    value, a missing one that is required, a body that is not JSON); FastAPI's own handler
    then reads that request, and refuses it with its own ``422``."""

    path: list[tuple[str, str]]
    query: list[tuple[ModelField, str]]
    headers: list[tuple[ModelField, str]]
    body: ModelField | None

    @classmethod
    def of(cls, dependant: Dependant) -> _ValidatedFields | None:
        """The route's fields, or None if any is of a kind FastAPI reads otherwise (a
        cookie, a sequence, a parameter model, an alias choice, a form, an embedded or
        second body field, a path parameter that is not a plain string)."""
        if dependant.cookie_params or len(dependant.body_params) > 1:
            return None
        for field in dependant.path_params:
            info = field.field_info
            if info.metadata or info.annotation is not str:
                return None
        scalars = [*dependant.query_params, *dependant.header_params]
        if not all(_scalar(field) for field in scalars):
            return None
        body = dependant.body_params[0] if dependant.body_params else None
        if body is not None:
            info = body.field_info
            if not isinstance(info, params.Body) or isinstance(info, params.Form) or info.embed:
                return None
        return cls(
            [(field.name, field.alias) for field in dependant.path_params],
            [(field, field.alias) for field in dependant.query_params],
            [(field, field.alias) for field in dependant.header_params],
            body,
        )

    async def values_of(self, request: Request) -> dict[str, Any] | None:
        values: dict[str, Any] = {}
        path_params = request.path_params
        for name, alias in self.path:
            values[name] = path_params[alias]
        for fields, sent, where in (
            (self.query, request.query_params, "query"),
            (self.headers, request.headers, "header"),
        ):
            for field, key in fields:
                raw = sent.get(key)
                if raw is None:
                    if not _default_of(field, values):
                        return None
                    continue
                value, errors = field.validate(raw, values, loc=(where, key))
                if errors:
                    return None
                values[field.name] = value
        if self.body is not None:
            raw_body = await request.body()
            if not raw_body:
                return values if _default_of(self.body, values) else None
            media_type = request.headers.get("content-type", "").partition(";")[0].strip()
            if media_type.lower() != "application/json":
                return None
            try:
                sent_body = await request.json()
            except Exception:  # not JSON, or nested too deep: FastAPI refuses it its way
                return None
            value, errors = self.body.validate(sent_body, values, loc=("body",))
            if errors:
                return None
            values[self.body.name] = value
        return values


def _scalar(field: ModelField) -> bool:
    """A query or header parameter that FastAPI reads as one value, by its alias."""
    info = field.field_info
    return info.validation_alias in (None, field.alias) and _one_value(info.annotation)


def _one_value(annotation: Any) -> bool:
    """No sequence (but a string) and no model anywhere in ``annotation``."""
    origin = typing.get_origin(annotation) or annotation
    many = isinstance(origin, type) and issubclass(origin, (*_SEQUENCES, BaseModel))
    if many and origin not in (str, bytes):
        return False
    return all(_one_value(arg) for arg in typing.get_args(annotation))


def _default_of(field: ModelField, values: dict[str, Any]) -> bool:
    """Put an absent parameter's default in ``values`` as FastAPI does; False if it is
    required (or its default is validated: left to FastAPI)."""
    info = field.field_info
    if info.is_required() or info.validate_default:
        return False
    default = field.default
    values[field.name] = default if type(default) in _IMMUTABLE_DEFAULTS else copy.deepcopy(default)
    return True


def _special(dependant: Dependant) -> bool:
    """Whether a dependency asks for what only FastAPI hands over (a websocket, the
    response, background tasks, security scopes)."""
    return any(
        name is not None
        for name in (
            dependant.websocket_param_name,
            dependant.http_connection_param_name,
            dependant.response_param_name,
            dependant.background_tasks_param_name,
            dependant.security_scopes_param_name,
        )
    )

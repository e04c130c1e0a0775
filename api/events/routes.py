"""Live events: server-sent event streams of a game and of the site, and the games being
played (to choose one to watch)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Header, Query, Request, Response
from pydantic import BaseModel
from sse_starlette import EventSourceResponse

from api.core.errors import InvalidCursor, InvalidRequest, ServiceUnavailable, echo
from api.core.openapi import header, problems
from api.core.params import PageCursor, PageLimit, TokenDep, service
from api.core.problems import json_response
from api.events import render
from api.events.errors import EventStreamsFull, InvalidLastEventId, TooManyEventStreams
from api.events.schemas import (
    BestEvent,
    ChallengeEvent,
    GameEndEvent,
    GameListedEvent,
    GamesInProgress,
    ReconnectEvent,
    WinEvent,
)
from api.events.service import EventService
from api.games import ChallengeGamePrivate, GameNotFound, PlacementOut, RaceGamePrivate
from api.ops.errors import RateLimited
from api.ops.observer import HEAD_SCOPE_KEY
from api.ops.ratelimit import client_address, limited_by

MAX_PLACEMENTS = 40


Events = Annotated[EventService, service("events")]

LastEventId = Annotated[
    str | None,
    Header(
        alias="Last-Event-ID",
        description="The `id` of the last event received (a browser's EventSource sends it "
        "when it reconnects): only the events after it are sent, 0 to 40 (a game's "
        "placements).",
        pattern=r"^\s*[0-9]{1,3}\s*$",
    ),
]

router = APIRouter(tags=["live"])


class EventStream(EventSourceResponse):
    """``text/event-stream``, declared as the class's media type so that the OpenAPI
    document names it."""

    media_type = "text/event-stream"


_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def stream_of(request: Request, events: Any) -> Response:
    if request.scope.get(HEAD_SCOPE_KEY):
        # The stream's headers alone: a HEAD never opens it (the unread stream gives its
        # place back when it is collected, see EventService.game_stream).
        return Response(media_type=EventStream.media_type, headers=_HEADERS)
    heartbeat = request.app.state.settings.events_heartbeat_seconds
    return EventStream(
        events,
        headers=_HEADERS,
        # The hub's heartbeat pings every idle stream (EventHub.ping): no timer task in each.
        ping=0,
        # A client that has read nothing for this long, its buffers full, is let go.
        send_timeout=max(30.0, 4 * heartbeat),
        # On SIGTERM the hub ends every stream within half a second (EventHub.heartbeat_loop):
        # sse-starlette waits up to this long for the stream to end cleanly before cutting it.
        shutdown_grace_period=3.0,
        sep="\n",
    )


def client_of(request: Request) -> str:
    client = request.scope.get("client")
    return client_address(
        client[0] if client else None,
        request.headers.getlist("x-forwarded-for"),
        request.app.state.settings.trusted_proxies,
    )


def event_kind(
    name: str, model: type[BaseModel], with_id: bool, about: str, id_about: str = ""
) -> dict[str, Any]:
    """One kind of event in an OpenAPI 3.2 ``itemSchema``: its name, id and JSON data."""
    properties: dict[str, Any] = {
        "event": {"const": name},
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": {"$ref": f"#/components/schemas/{model.__name__}"},
        },
    }
    if with_id:
        properties["id"] = {"type": "string", "description": id_about or "The placement's number."}
    return {
        "type": "object",
        "description": about,
        "properties": properties,
        "required": ["event", "data", *(["id"] if with_id else [])],
    }


_STREAM_HEADERS = {
    "Cache-Control": header("`no-cache`."),
    "X-Accel-Buffering": header("`no`: proxies that buffer (nginx) pass each event on at once."),
}
_STREAM_BODY = {
    "type": "string",
    "description": "Server-sent events (HTML's text/event-stream), and a comment line "
    "`: ping` every `FOURSQUARE_EVENTS_HEARTBEAT_SECONDS` (15) while idle.",
}


def streamed(description: str, events: list[dict[str, Any]]) -> dict[str, Any]:
    """A stream's ``200`` in the OpenAPI document: its headers and its kinds of event."""
    content = {"schema": _STREAM_BODY, "itemSchema": {"oneOf": events}}
    return {
        "description": description,
        "headers": _STREAM_HEADERS,
        "content": {"text/event-stream": content},
    }


# Every stream answers these when it is refused.
STREAM_REFUSALS = (TooManyEventStreams, RateLimited, EventStreamsFull, ServiceUnavailable)
GAME_EVENTS = [
    event_kind(
        "placement",
        PlacementOut,
        True,
        "A placement as it is stored: what `GET /games/{id}/placements` lists.",
    ),
    event_kind("end", GameEndEvent, False, "The game is over; the stream closes after it."),
    event_kind(
        "reconnect",
        ReconnectEvent,
        False,
        "This watcher fell behind and is closed: reconnect with `Last-Event-ID`.",
    ),
]
SITE_EVENTS = [
    event_kind("win", WinEvent, False, "A win was recorded."),
    event_kind("best", BestEvent, False, "A win took rank 1 on a board."),
    event_kind("challenge", ChallengeEvent, False, "A daily challenge's counts changed."),
    event_kind("game", GameListedEvent, False, "A game began, moved or ended (no card)."),
    event_kind("reconnect", ReconnectEvent, False, "This watcher fell behind and is closed."),
]
EVENT_MODELS: tuple[type[BaseModel], ...] = (
    PlacementOut,
    GameEndEvent,
    ReconnectEvent,
    WinEvent,
    BestEvent,
    ChallengeEvent,
    GameListedEvent,
)


def _last_event_id(raw: str | None, most: int = MAX_PLACEMENTS) -> int:
    if raw is None or not raw.strip():
        return 0
    try:
        number = int(raw.strip())
    except ValueError:
        number = -1
    if not 0 <= number <= most:
        raise InvalidLastEventId(
            f"Last-Event-ID {echo(raw)!r} is no event number: send the id of the last event "
            f"received, 0 to {most}"
        )
    return number


@router.get(
    "/games/{game_id}/events",
    response_class=EventStream,
    summary="Watch a game",
    openapi_extra={"security": [{}]},
    responses={
        200: streamed("The game's events.", GAME_EVENTS),
        **problems(
            ChallengeGamePrivate,
            RaceGamePrivate,
            GameNotFound,
            InvalidLastEventId,
            *STREAM_REFUSALS,
        ),
    },
    dependencies=[limited_by("read")],
)
async def watch_game(
    game_id: str,
    request: Request,
    events: Events,
    token: TokenDep,
    last_event_id: LastEventId = None,
) -> Response:
    """The game's placements as server-sent events, as they are stored: `event: placement`
    (its `id` is the placement's number, its data what `GET /games/{id}/placements` lists),
    then `event: end` when the game is over, and the stream closes. A finished game's stream
    is its whole history and its end. With `Last-Event-ID: n` only the placements after `n`
    are sent, then the stream goes on live: no gap, nothing twice. A watcher too slow to keep
    up gets `event: reconnect` and is closed. Reading rules are `GET /games/{id}`'s: a daily
    challenge game is its player's only (their token or key) until its day closes."""
    after = _last_event_id(last_event_id)
    stream = await events.game_stream(game_id, token, after, client_of(request))
    return stream_of(request, stream)


@router.get(
    "/events",
    response_class=EventStream,
    summary="Watch the site",
    responses={
        200: streamed("The site's events.", SITE_EVENTS),
        **problems(*STREAM_REFUSALS),
    },
    dependencies=[limited_by("read")],
)
async def watch_site(request: Request, events: Events) -> Response:
    """Server-sent events about the whole site, as they are recorded: `event: win` for every
    win (as the leaderboard lists it at once, daily challenge games included), `event: best`
    when a win takes rank 1 on the all-time, day or week board (games played without hints),
    `event: challenge` when a daily challenge's played or won count changes, and `event: game`
    when a game begins, moves (at most once a second) or ends (guests' games included, no card;
    daily challenge games once their day has closed only, race games never), for the list of
    games being played. These events have no id:
    a client that reconnects reads the leaderboard, the challenge and the list again."""
    return stream_of(request, events.site_stream(client_of(request)))


@router.get(
    "/games",
    response_model=GamesInProgress,
    summary="List the games in progress",
    responses=problems(InvalidRequest, InvalidCursor, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("read")],
)
async def list_games(
    events: Events,
    status: Annotated[
        Literal["in_progress"],
        Query(description="Which games: `in_progress` (the only listing there is)."),
    ],
    limit: PageLimit = 20,
    cursor: PageCursor = None,
) -> Response:
    """Games being played, the most recently changed first, a page at a time (pass
    `next_cursor` back as `cursor`): games in progress that moved (began, took a card or a
    hint) within `FOURSQUARE_LIVE_MOVED_WITHIN_MINUTES` (10 by default; a game moved again is
    listed again). Daily challenge games are left out until their day closes. `event: game`
    on `GET /events` tells when a game begins, moves or ends. Watch one with
    `GET /games/{id}/events`."""
    del status  # one listing for now: the parameter names it, for the listings to come
    page = await events.in_progress(limit, cursor)
    return json_response(render.games_in_progress(page))


def install_event_schemas(app: FastAPI, models: tuple[type[BaseModel], ...] = EVENT_MODELS) -> None:
    """Put the data models of streams' events (``models``: this feature's by default) in the
    OpenAPI document's components, which the streams' ``itemSchema`` refers to (FastAPI adds
    only the models of JSON responses)."""
    from pydantic.json_schema import models_json_schema

    build = app.openapi

    def openapi() -> dict[str, Any]:
        document = build()
        schemas = document.setdefault("components", {}).setdefault("schemas", {})
        if not all(model.__name__ in schemas for model in models):
            _, definitions = models_json_schema(
                [(model, "serialization") for model in models],
                ref_template="#/components/schemas/{model}",
            )
            for name, schema in definitions.get("$defs", {}).items():
                schemas.setdefault(name, schema)
        return document

    app.openapi = openapi  # type: ignore[method-assign]

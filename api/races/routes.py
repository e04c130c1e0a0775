"""Races: open, join, leave, start, read, watch and rematch. A race's games are played
through `POST /games/{id}/placements`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, Request, Response, status

from api.accounts import InvalidToken, NameTaken, PlayerNameMismatch, PlayerNotFound
from api.core.errors import InvalidCursor, InvalidPlayerName, InvalidRequest, ServiceUnavailable
from api.core.openapi import header, problems
from api.core.params import (
    BearerSecret,
    CreationKey,
    PageCursor,
    PageLimit,
    PlacementKey,
    PlayerKeyDep,
    service,
)
from api.core.problems import json_response
from api.events import (
    STREAM_REFUSALS,
    EventStream,
    InvalidLastEventId,
    client_of,
    event_kind,
    stream_of,
    streamed,
)
from api.idempotency import (
    REPLAYED_HEADER,
    IdempotencyKeyReused,
    RequestInProgress,
    answer_response,
)
from api.ops.errors import RateLimited
from api.ops.ratelimit import limited_by
from api.races.errors import RaceNotFound, RaceNotOpen
from api.races.open_list import POSITION_MAX
from api.races.schemas import (
    CountdownEvent,
    OpenRaceClosed,
    OpenRaceOut,
    OpenRaces,
    PlayerRaces,
    RaceClosedEvent,
    RaceCreate,
    RaceCreated,
    RaceOut,
    RaceResultEvent,
    RacerEvent,
    RacerIn,
    RematchEvent,
)
from api.races.service import RaceService
from api.races.stream import POSITION

Races = Annotated[RaceService, service("races")]
racer = BearerSecret(
    scheme_name="RacerToken",
    description="A guest racer's `racer_token`, or a registered racer's `key`.",
    auto_error=False,
)
RacerDep = Annotated[str | None, Depends(racer)]
RaceEventId = Annotated[
    str | None,
    Header(
        alias="Last-Event-ID",
        description="The `id` of the last event received (a browser's EventSource sends it "
        "when it reconnects): the stream sends what came after it.",
        pattern=rf"^\s*({POSITION.pattern})?\s*$",
        max_length=64,
    ),
]

OpenEventId = Annotated[
    str | None,
    Header(
        alias="Last-Event-ID",
        description="The `id` of the last event received: the stream sends what changed since.",
        max_length=POSITION_MAX,
    ),
]
_OPEN_ID = "Where the stream stands after this event; send it back as `Last-Event-ID`."

router = APIRouter(prefix="/races", tags=["races"])
_CREATED: dict[int | str, dict[str, Any]] = {
    201: {"headers": {"Location": header("/races/{id}"), **REPLAYED_HEADER}}
}
_JOIN_ERRORS = (
    InvalidToken,
    NameTaken,
    PlayerNameMismatch,
    InvalidPlayerName,
    RequestInProgress,
    InvalidRequest,
    IdempotencyKeyReused,
    RateLimited,
    ServiceUnavailable,
)


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=RaceCreated,
    summary="Open a race",
    openapi_extra={"security": [{}]},
    responses={**_CREATED, **problems(*_JOIN_ERRORS)},
    dependencies=[limited_by("create")],
)
async def open_race(
    races: Races,
    key: PlayerKeyDep,
    idempotency_key: CreationKey = None,
    body: Annotated[RaceCreate | None, Body()] = None,
) -> Response:
    """Opens a race, in its lobby: a shared deal whose `deck_commitment` is published now and
    revealed when the race is over. The opener is its first racer (a guest gets its
    `racer_token`, shown only in this response and in its replays under the same
    `Idempotency-Key`; an account sends its key, as for `POST /games`), and the computer its
    second with `computer: true`. Others join with `POST /races/{id}/racers` until it is
    full (it then starts by itself) or the opener starts it."""
    answer, replayed = await races.open(body or RaceCreate(), key, idempotency_key)
    return answer_response(answer, replayed)


@router.get(
    "/open",
    response_model=OpenRaces,
    summary="List the open races",
    responses=problems(InvalidRequest, InvalidCursor, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("read")],
)
async def list_open_races(
    races: Races, limit: PageLimit = 20, cursor: PageCursor = None
) -> Response:
    """The public races (opened with `public: true`) in their lobby with a free seat, newest
    first, a page at a time (pass `next_cursor` back as `cursor`): what a joiner needs to
    choose one, then `POST /races/{id}/racers`. A private race is never listed; a race leaves
    the list when it starts, fills or closes. `GET /races/open/events` tells as it changes."""
    return json_response(await races.open_races(limit, cursor))


OPEN_EVENTS = [
    event_kind(
        "opened", OpenRaceOut, True, "A race joined the list (or the stream's newest).", _OPEN_ID
    ),
    event_kind("changed", OpenRaceOut, True, "A racer joined or left a listed race.", _OPEN_ID),
    event_kind("closed", OpenRaceClosed, True, "The race left the list.", _OPEN_ID),
]


@router.get(
    "/open/events",
    response_class=EventStream,
    summary="Watch the open races",
    tags=["live"],
    responses={
        200: streamed("The open races' events.", OPEN_EVENTS),
        **problems(InvalidLastEventId, *STREAM_REFUSALS),
    },
    dependencies=[limited_by("read")],
)
async def watch_open_races(
    request: Request, races: Races, last_event_id: OpenEventId = None
) -> Response:
    """The open races as they change, for a list kept live: first `opened` for each of the
    newest 30 open races (oldest first), then `opened` when a public race is opened,
    `changed` when a racer joins or leaves one, and `closed` when one starts, fills or
    closes (or falls out of the newest 30). Each event's `id` says where the stream stands:
    with `Last-Event-ID` only what changed since is sent. Anyone may watch."""
    stream = await races.open_stream(last_event_id, client_of(request))
    return stream_of(request, stream)


@router.post(
    "/{race_id}/racers",
    status_code=status.HTTP_201_CREATED,
    response_model=RaceCreated,
    summary="Join a race",
    openapi_extra={"security": [{}]},
    responses={
        **_CREATED,
        **problems(RaceNotFound, RaceNotOpen, *_JOIN_ERRORS, ServiceUnavailable),
    },
    dependencies=[limited_by("create")],
)
async def join_race(
    race_id: str,
    races: Races,
    key: PlayerKeyDep,
    idempotency_key: CreationKey = None,
    body: Annotated[RacerIn | None, Body()] = None,
) -> Response:
    """Joins a race in its lobby (`409 race_not_open` once it has started or is full; `409
    name_taken` for a name racing in it already). The race starts by itself when this fills
    its last seat. A guest's `racer_token` is shown only in this response and in its replays:
    with an `Idempotency-Key`, a retry of a join whose answer was lost gets the same seat and
    token rather than `409 name_taken`."""
    answer, replayed = await races.join(race_id, body or RacerIn(), key, idempotency_key)
    return answer_response(answer, replayed)


@router.post(
    "/{race_id}/start",
    response_model=RaceOut,
    summary="Start a race",
    responses=problems(RaceNotFound, RaceNotOpen, InvalidToken, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("create")],
)
async def start_race(race_id: str, races: Races, credential: RacerDep) -> Response:
    """Starts a race from its lobby, with two racers at least: its opener's only (`403`
    otherwise). A countdown of a few seconds follows, to `starts_at`, when each racer's game
    of the deal is dealt; from then on `GET /races/{id}` shows each racer its `your_game`."""
    return json_response(await races.start(race_id, credential))


@router.get(
    "/{race_id}",
    response_model=RaceOut,
    summary="Read a race",
    openapi_extra={"security": [{}]},
    responses=problems(RaceNotFound, InvalidToken, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("read")],
)
async def read_race(race_id: str, races: Races, credential: RacerDep) -> Response:
    """A race as anyone may see it: its status, times and racers with counts only (placements
    made, face-down piles, cards left, state), ranked once it is over, with the deal's
    `reveal`. A racer who sends their credential also gets `you` and, once the race has
    started, `your_game`: play it through `POST /games/{id}/placements` as any game. Until
    the race ends every racer's game is its racer's only (`403 race_game_private` to anybody
    else) and gets no hints."""
    return json_response(await races.read(race_id, credential))


@router.post(
    "/{race_id}/rematch",
    response_model=RaceOut,
    summary="Ask for a rematch",
    responses={
        200: {
            "description": "The rematch another racer opened already.",
            "headers": {"Location": header("/races/{id}"), **REPLAYED_HEADER},
        },
        **_CREATED,
        **problems(
            RaceNotFound,
            RaceNotOpen,
            InvalidToken,
            RequestInProgress,
            InvalidRequest,
            IdempotencyKeyReused,
            RateLimited,
            ServiceUnavailable,
        ),
    },
    dependencies=[limited_by("create")],
)
async def rematch_race(
    race_id: str, races: Races, credential: RacerDep, idempotency_key: PlacementKey = None
) -> Response:
    """Opens the next race for the same racers, with a new deal, once this one is over (a
    racer's credential): `201` for the racer who opened it, `200` with the same race for
    the others; the old race's `next_race` names it. Its racers are in its lobby, with the
    same credentials. A retry with the same `Idempotency-Key` and credential gets the
    original answer (`201` to its opener) with `Idempotent-Replayed: true`."""
    answer, replayed = await races.rematch(race_id, credential, idempotency_key)
    return answer_response(answer, replayed)


players_router = APIRouter(prefix="/players", tags=["players"])


@players_router.get(
    "/{name}/races",
    response_model=PlayerRaces,
    summary="List a player's races",
    responses=problems(PlayerNotFound, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("read")],
)
async def list_player_races(name: str, races: Races) -> Response:
    """A registered player's races: how many they finished (`races_played`) and won
    (`races_won`, ranked first against another racer at least), and their last 100 races,
    newest first, with their rank in each finished one. The name matches in any case or
    width."""
    return json_response(await races.of_player(name))


@router.post(
    "/{race_id}/leave",
    response_model=RaceOut,
    summary="Leave a race's lobby",
    responses=problems(RaceNotFound, RaceNotOpen, InvalidToken, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("create")],
)
async def leave_race(race_id: str, races: Races, credential: RacerDep) -> Response:
    """Leaves a race in its lobby (a racer's credential; `409 race_not_open` once it has
    started). If the opener leaves, the next racer to have joined may start it; if the last
    person leaves, the race is `closed`. Its stream tells the others with `event: left`."""
    return json_response(await races.leave(race_id, credential))


_ID = "Where the stream stands after this event; send it back as `Last-Event-ID`."
RACE_EVENTS = [
    event_kind("joined", RacerEvent, True, "A racer joined the race's lobby.", _ID),
    event_kind("left", RacerEvent, True, "A racer left the race's lobby.", _ID),
    event_kind("countdown", CountdownEvent, True, "The race starts at `starts_at`.", _ID),
    event_kind("started", CountdownEvent, True, "The games are dealt: `your_game` is there.", _ID),
    event_kind("progress", RacerEvent, True, "A racer's counts after its placements.", _ID),
    event_kind("finished", RacerEvent, True, "A racer's game is over.", _ID),
    event_kind("result", RaceResultEvent, True, "The race is over: its ranking.", _ID),
    event_kind("rematch", RematchEvent, True, "The next race; the stream closes after it.", _ID),
    event_kind(
        "closed", RaceClosedEvent, True, "The idle lobby closed; the stream closes after it.", _ID
    ),
]
EVENT_MODELS = (
    RacerEvent,
    CountdownEvent,
    RaceResultEvent,
    RematchEvent,
    RaceClosedEvent,
    OpenRaceOut,
    OpenRaceClosed,
)


@router.get(
    "/{race_id}/events",
    response_class=EventStream,
    summary="Watch a race",
    tags=["live"],
    responses={
        200: streamed("The race's events.", RACE_EVENTS),
        **problems(RaceNotFound, InvalidLastEventId, *STREAM_REFUSALS),
    },
    dependencies=[limited_by("read")],
)
async def watch_race(
    race_id: str, request: Request, races: Races, last_event_id: RaceEventId = None
) -> Response:
    """A race's events, from its opening: `joined` and `left` in its lobby, `countdown`,
    `started` when the games are dealt, a racer's `progress` as it places and `finished`
    when its game is over (counts only, never a card), `result` when the race is over, and
    `rematch` when a racer opens the next race; the stream closes after it (or after `closed`,
    when a lobby nobody joined or left for a while is closed). Each event's
    `id` says where the stream stands: with `Last-Event-ID` only what came after it is sent
    (each racer's counts as they are now), then the stream goes on live. Anyone may watch."""
    stream = await races.stream(race_id, last_event_id, client_of(request))
    return stream_of(request, stream)

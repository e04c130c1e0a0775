"""Tournaments: the operators' create, edit and cancel; join, leave, deal the next deal, read,
list, the standings and the stream. A tournament's games are played through
`POST /games/{id}/placements`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response, status

from api.accounts import InvalidToken, MissingToken, NameTaken, PlayerNameMismatch, PlayerNotFound
from api.core.errors import InvalidCursor, InvalidPlayerName, InvalidRequest, ServiceUnavailable
from api.core.openapi import header, problems
from api.core.params import BearerSecret, CreationKey, PlayerKeyDep, service
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
from api.fairplay import NotAModerator, OperatorKey
from api.idempotency import (
    REPLAYED_HEADER,
    IdempotencyKeyReused,
    RequestInProgress,
    answer_response,
)
from api.ops.errors import RateLimited
from api.ops.ratelimit import limited_by
from api.tournaments.errors import (
    AllDealsPlayed,
    AlreadyEntered,
    DealInProgress,
    EntrantLeft,
    GuestsNotAllowed,
    InvalidTournament,
    NotAnEntrant,
    TournamentFull,
    TournamentNotFound,
    TournamentNotOpen,
    TournamentNotRunning,
    TournamentStarted,
)
from api.tournaments.schemas import (
    CancelledEvent,
    DealDealt,
    DealFinishedEvent,
    EndedEvent,
    EntrantIn,
    EntryEvent,
    FinalEvent,
    Joined,
    PlayerTournaments,
    Standings,
    StandingsEvent,
    TimesEvent,
    TournamentCreate,
    TournamentOut,
    TournamentPage,
    TournamentPatch,
)
from api.tournaments.service import TournamentService
from api.tournaments.stream import POSITION

Tournaments = Annotated[TournamentService, service("tournaments")]
entrant = BearerSecret(
    scheme_name="EntrantToken",
    description="A guest entrant's tournament `token`, or a registered entrant's `key`.",
    auto_error=False,
)
EntrantDep = Annotated[str | None, Depends(entrant)]
TournamentEventId = Annotated[
    str | None,
    Header(
        alias="Last-Event-ID",
        description="The `id` of the last event received: the stream sends what came after.",
        pattern=rf"^\s*({POSITION.pattern})?\s*$",
        max_length=64,
    ),
]
_STATUS = "announced|running|ending|finished|cancelled"

router = APIRouter(prefix="/tournaments", tags=["tournaments"])
_LOCATION = {"Location": header("/tournaments/{id}")}
_OPERATOR = (MissingToken, NotAModerator, RateLimited, ServiceUnavailable)


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=TournamentOut,
    summary="Create a tournament",
    responses={
        201: {"headers": _LOCATION},
        **problems(InvalidTournament, InvalidRequest, *_OPERATOR),
    },
    dependencies=[limited_by("create")],
)
async def create_tournament(
    tournaments: Tournaments, key: OperatorKey, body: TournamentCreate
) -> Response:
    """An operator's new tournament (`Authorization: Bearer` a key of
    `FOURSQUARE_OPERATOR_KEYS`), `announced` with its deals committed (`commitments`); a
    `starts_at` already past starts it at once (`running`)."""
    created = await tournaments.create(key, body)
    return json_response(created, 201, {"Location": f"/tournaments/{created.id}"})


@router.get(
    "",
    response_model=TournamentPage,
    summary="List tournaments",
    responses=problems(InvalidCursor, InvalidRequest, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("read")],
)
async def list_tournaments(
    tournaments: Tournaments,
    status_: Annotated[
        str | None,
        Query(
            alias="status",
            pattern=rf"^({_STATUS})(,({_STATUS}))*$",
            max_length=100,
            description="Comma-separated statuses (default `announced,running`, the soonest "
            "start first); `finished` alone is the archive, the latest end first.",
        ),
    ] = None,
    cursor: Annotated[
        str | None, Query(max_length=300, description="`next` of the previous page.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
) -> Response:
    """Tournaments: those announced and running by default; the archive (`status=finished`)
    with each one's `winners`."""
    statuses = status_.split(",") if status_ else None
    return json_response(await tournaments.listing(statuses, cursor, limit))


@router.get(
    "/{tournament_id}",
    response_model=TournamentOut,
    summary="Read a tournament",
    openapi_extra={"security": [{}]},
    responses=problems(TournamentNotFound, InvalidToken, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("read")],
)
async def read_tournament(
    tournament_id: str, tournaments: Tournaments, credential: EntrantDep
) -> Response:
    """A tournament as anyone may see it, and `you` (your entry, your next deal and your game
    in progress) for an entrant's credential."""
    return json_response(await tournaments.read(tournament_id, credential))


@router.patch(
    "/{tournament_id}",
    response_model=TournamentOut,
    summary="Edit a tournament",
    responses=problems(
        TournamentNotFound, TournamentStarted, InvalidTournament, InvalidRequest, *_OPERATOR
    ),
    dependencies=[limited_by("create")],
)
async def edit_tournament(
    tournament_id: str, tournaments: Tournaments, key: OperatorKey, body: TournamentPatch
) -> Response:
    """Changes any of an announced tournament's fields (an operator's; `409
    tournament_started` once it has started). New `deals` are committed anew."""
    return json_response(await tournaments.edit(key, tournament_id, body))


@router.post(
    "/{tournament_id}/cancel",
    response_model=TournamentOut,
    summary="Cancel a tournament",
    responses=problems(TournamentNotFound, TournamentStarted, *_OPERATOR),
    dependencies=[limited_by("create")],
)
async def cancel_tournament(
    tournament_id: str, tournaments: Tournaments, key: OperatorKey
) -> Response:
    """Cancels an announced tournament (an operator's; `409 tournament_started` once it has
    started); its stream tells its entrants with `event: cancelled`."""
    return json_response(await tournaments.cancel(key, tournament_id))


@router.post(
    "/{tournament_id}/entrants",
    status_code=status.HTTP_201_CREATED,
    response_model=Joined,
    summary="Join a tournament",
    openapi_extra={"security": [{}]},
    responses={
        201: {"headers": {**_LOCATION, **REPLAYED_HEADER}},
        **problems(
            TournamentNotFound,
            GuestsNotAllowed,
            TournamentFull,
            TournamentNotOpen,
            AlreadyEntered,
            InvalidPlayerName,
            NameTaken,
            PlayerNameMismatch,
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
async def join_tournament(
    tournament_id: str,
    tournaments: Tournaments,
    key: PlayerKeyDep,
    idempotency_key: CreationKey = None,
    body: Annotated[EntrantIn | None, Body()] = None,
) -> Response:
    """Enters a tournament while it is announced or running: an account with its key, or a
    guest with `{"name": ...}` where `guests` is true (`403 guests_not_allowed` otherwise).
    A guest's `token` is shown only here and to a retry with the same `Idempotency-Key`."""
    answer, replayed = await tournaments.join(
        tournament_id, body or EntrantIn(), key, idempotency_key
    )
    return answer_response(answer, replayed)


@router.delete(
    "/{tournament_id}/entrants/me",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Leave a tournament",
    responses={
        204: {"description": "Left."},
        **problems(
            TournamentNotFound,
            NotAnEntrant,
            TournamentNotOpen,
            MissingToken,
            InvalidToken,
            RateLimited,
            ServiceUnavailable,
        ),
    },
    dependencies=[limited_by("create")],
)
async def leave_tournament(
    tournament_id: str, tournaments: Tournaments, credential: EntrantDep
) -> Response:
    """Leaves a tournament: before its start the entry goes; while it runs it stays in the
    standings with what it has, `left`, its game in progress ended (lost), and plays no
    more."""
    await tournaments.leave(tournament_id, credential)
    return Response(status_code=204)


@router.post(
    "/{tournament_id}/games",
    status_code=status.HTTP_201_CREATED,
    response_model=DealDealt,
    summary="Deal your next deal",
    responses=problems(
        TournamentNotFound,
        TournamentNotRunning,
        DealInProgress,
        AllDealsPlayed,
        NotAnEntrant,
        EntrantLeft,
        MissingToken,
        InvalidToken,
        RateLimited,
        ServiceUnavailable,
    ),
    dependencies=[limited_by("create")],
)
async def play_tournament_deal(
    tournament_id: str, tournaments: Tournaments, credential: EntrantDep
) -> Response:
    """Deals the entrant its next deal, in order, each once: an ordinary game, played through
    `POST /games/{game_id}/placements` with the same credential, sealed (its player's only)
    until the tournament ends, its deadline the tournament's end."""
    dealt = await tournaments.play(tournament_id, credential)
    return json_response(dealt, 201, {"Location": f"/games/{dealt.game_id}"})


@router.get(
    "/{tournament_id}/standings",
    response_model=Standings,
    summary="Read a tournament's standings",
    responses=problems(
        TournamentNotFound, InvalidCursor, InvalidRequest, RateLimited, ServiceUnavailable
    ),
    dependencies=[limited_by("read")],
)
async def tournament_standings(
    tournament_id: str,
    tournaments: Tournaments,
    cursor: Annotated[
        str | None, Query(max_length=300, description="`next` of the previous page.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    around: Annotated[
        str | None,
        Query(max_length=64, description="An entrant's name: the page with it in the middle."),
    ] = None,
) -> Response:
    """The standings: score (descending), cards placed, the earlier last finish, then the
    joining order; `provisional` while it runs (every finished deal counts), `final` once
    the fair-play review has had its word (a flagged win scores 0), with each entry's
    `place` and `games`."""
    return json_response(await tournaments.standings(tournament_id, cursor, limit, around))


_ID = "Where the stream stands after this event; send it back as `Last-Event-ID`."
TOURNAMENT_EVENTS = [
    event_kind("announced", TimesEvent, True, "Announced (or edited): its times.", _ID),
    event_kind("joined", EntryEvent, True, "An entrant joined.", _ID),
    event_kind("left", EntryEvent, True, "An entrant left.", _ID),
    event_kind("started", TimesEvent, True, "Its deals may be played.", _ID),
    event_kind("deal_finished", DealFinishedEvent, True, "An entrant's deal is over.", _ID),
    event_kind("standings", StandingsEvent, True, "The first ten, after a change.", _ID),
    event_kind("ended", EndedEvent, True, "Time is up: the review has its word.", _ID),
    event_kind("final", FinalEvent, True, "The final standings; the stream closes.", _ID),
    event_kind("cancelled", CancelledEvent, True, "Cancelled; the stream closes.", _ID),
]
EVENT_MODELS = (
    TimesEvent,
    EntryEvent,
    DealFinishedEvent,
    StandingsEvent,
    EndedEvent,
    FinalEvent,
    CancelledEvent,
)


@router.get(
    "/{tournament_id}/events",
    response_class=EventStream,
    summary="Watch a tournament",
    tags=["live"],
    responses={
        200: streamed("The tournament's events.", TOURNAMENT_EVENTS),
        **problems(TournamentNotFound, InvalidLastEventId, *STREAM_REFUSALS),
    },
    dependencies=[limited_by("read")],
)
async def watch_tournament(
    tournament_id: str,
    request: Request,
    tournaments: Tournaments,
    last_event_id: TournamentEventId = None,
) -> Response:
    """A tournament's events from its announcement: `joined`, `left`, `started`,
    `deal_finished` (an entrant's standing, never a card), `standings` (the first ten) after
    each change, `ended`, then `final` (the stream closes) or `cancelled`. With
    `Last-Event-ID` only what came after it is sent."""
    stream = await tournaments.stream(tournament_id, last_event_id, client_of(request))
    return stream_of(request, stream)


players_router = APIRouter(prefix="/players", tags=["players"])


@players_router.get(
    "/{name}/tournaments",
    response_model=PlayerTournaments,
    summary="List a player's tournaments",
    responses=problems(PlayerNotFound, InvalidCursor, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("read")],
)
async def list_player_tournaments(
    name: str,
    tournaments: Tournaments,
    cursor: Annotated[
        str | None, Query(max_length=300, description="`next` of the previous page.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
) -> Response:
    """A registered player's finished tournaments, the latest end first, with their place
    and score in each."""
    return json_response(await tournaments.of_player(name, cursor, limit))

import datetime
from http import HTTPStatus
from typing import Any, Literal

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.leaderboard import Leaderboard
from ...models.problem import Problem
from ...models.read_leaderboard_period import ReadLeaderboardPeriod
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    include_assisted: bool | Unset = False,
    period: ReadLeaderboardPeriod | Unset = "all",
    date: datetime.date | None | Unset = UNSET,
    per_player: Literal["best"] | None | Unset = UNSET,
    challenge: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params["include_assisted"] = include_assisted

    json_period: str | Unset = UNSET
    if not isinstance(period, Unset):
        json_period = period

    params["period"] = json_period

    json_date: None | str | Unset
    if isinstance(date, Unset):
        json_date = UNSET
    elif isinstance(date, datetime.date):
        json_date = date.isoformat()
    else:
        json_date = date
    params["date"] = json_date

    json_per_player: Literal["best"] | None | Unset
    if isinstance(per_player, Unset):
        json_per_player = UNSET
    else:
        json_per_player = per_player
    params["per_player"] = json_per_player

    json_challenge: None | str | Unset
    if isinstance(challenge, Unset):
        json_challenge = UNSET
    else:
        json_challenge = challenge
    params["challenge"] = json_challenge

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/leaderboard",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Leaderboard | Problem | None:
    if response.status_code == 200:
        response_200 = Leaderboard.from_dict(response.json())

        return response_200

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Leaderboard | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    include_assisted: bool | Unset = False,
    period: ReadLeaderboardPeriod | Unset = "all",
    date: datetime.date | None | Unset = UNSET,
    per_player: Literal["best"] | None | Unset = UNSET,
    challenge: None | str | Unset = UNSET,
) -> Response[Leaderboard | Problem]:
    """Read the leaderboard

     Won games, best score first and, on equal scores, earlier finish first. Page with
    `next_cursor`: paging never skips or repeats an entry, even while new wins arrive.
    `period=day` or `week` lists the games won on one UTC day or ISO week (today's, or the one
    holding `date`); `per_player=best` each player's best game once. Games whose player asked
    for a hint are left out unless `include_assisted=true`; a cursor belongs to the listing it
    came from (else `422 invalid_cursor`). With `challenge=YYYY-MM-DD`, the board of that
    day's daily challenge: its won games ranked the same way, paged with cursors of that day's
    board (no `period`, `date` or `per_player` then).

    Args:
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.
        include_assisted (bool | Unset): Also list games in which the player asked for hints.
            Default: False.
        period (ReadLeaderboardPeriod | Unset): `all` (every won game), `day` (won on one UTC
            calendar day) or `week` (won in one ISO week, Monday to Sunday, UTC). Default: 'all'.
        date (datetime.date | None | Unset): `YYYY-MM-DD`, with `period=day` or `week`: the day,
            or a day of the week, to list (default: today, UTC). Not after today.
        per_player (Literal['best'] | None | Unset): `best`: each player's best game only (a
            player is a name, compared ignoring case and width), ties to the earlier finish.
        challenge (None | str | Unset): `YYYY-MM-DD` from 2026-01-01 (or `today`): that day's
            daily challenge board instead (its won games; challenge games have no hints).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Leaderboard | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        include_assisted=include_assisted,
        period=period,
        date=date,
        per_player=per_player,
        challenge=challenge,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    include_assisted: bool | Unset = False,
    period: ReadLeaderboardPeriod | Unset = "all",
    date: datetime.date | None | Unset = UNSET,
    per_player: Literal["best"] | None | Unset = UNSET,
    challenge: None | str | Unset = UNSET,
) -> Leaderboard | Problem | None:
    """Read the leaderboard

     Won games, best score first and, on equal scores, earlier finish first. Page with
    `next_cursor`: paging never skips or repeats an entry, even while new wins arrive.
    `period=day` or `week` lists the games won on one UTC day or ISO week (today's, or the one
    holding `date`); `per_player=best` each player's best game once. Games whose player asked
    for a hint are left out unless `include_assisted=true`; a cursor belongs to the listing it
    came from (else `422 invalid_cursor`). With `challenge=YYYY-MM-DD`, the board of that
    day's daily challenge: its won games ranked the same way, paged with cursors of that day's
    board (no `period`, `date` or `per_player` then).

    Args:
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.
        include_assisted (bool | Unset): Also list games in which the player asked for hints.
            Default: False.
        period (ReadLeaderboardPeriod | Unset): `all` (every won game), `day` (won on one UTC
            calendar day) or `week` (won in one ISO week, Monday to Sunday, UTC). Default: 'all'.
        date (datetime.date | None | Unset): `YYYY-MM-DD`, with `period=day` or `week`: the day,
            or a day of the week, to list (default: today, UTC). Not after today.
        per_player (Literal['best'] | None | Unset): `best`: each player's best game only (a
            player is a name, compared ignoring case and width), ties to the earlier finish.
        challenge (None | str | Unset): `YYYY-MM-DD` from 2026-01-01 (or `today`): that day's
            daily challenge board instead (its won games; challenge games have no hints).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Leaderboard | Problem
    """

    return sync_detailed(
        client=client,
        limit=limit,
        cursor=cursor,
        include_assisted=include_assisted,
        period=period,
        date=date,
        per_player=per_player,
        challenge=challenge,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    include_assisted: bool | Unset = False,
    period: ReadLeaderboardPeriod | Unset = "all",
    date: datetime.date | None | Unset = UNSET,
    per_player: Literal["best"] | None | Unset = UNSET,
    challenge: None | str | Unset = UNSET,
) -> Response[Leaderboard | Problem]:
    """Read the leaderboard

     Won games, best score first and, on equal scores, earlier finish first. Page with
    `next_cursor`: paging never skips or repeats an entry, even while new wins arrive.
    `period=day` or `week` lists the games won on one UTC day or ISO week (today's, or the one
    holding `date`); `per_player=best` each player's best game once. Games whose player asked
    for a hint are left out unless `include_assisted=true`; a cursor belongs to the listing it
    came from (else `422 invalid_cursor`). With `challenge=YYYY-MM-DD`, the board of that
    day's daily challenge: its won games ranked the same way, paged with cursors of that day's
    board (no `period`, `date` or `per_player` then).

    Args:
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.
        include_assisted (bool | Unset): Also list games in which the player asked for hints.
            Default: False.
        period (ReadLeaderboardPeriod | Unset): `all` (every won game), `day` (won on one UTC
            calendar day) or `week` (won in one ISO week, Monday to Sunday, UTC). Default: 'all'.
        date (datetime.date | None | Unset): `YYYY-MM-DD`, with `period=day` or `week`: the day,
            or a day of the week, to list (default: today, UTC). Not after today.
        per_player (Literal['best'] | None | Unset): `best`: each player's best game only (a
            player is a name, compared ignoring case and width), ties to the earlier finish.
        challenge (None | str | Unset): `YYYY-MM-DD` from 2026-01-01 (or `today`): that day's
            daily challenge board instead (its won games; challenge games have no hints).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Leaderboard | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        include_assisted=include_assisted,
        period=period,
        date=date,
        per_player=per_player,
        challenge=challenge,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    include_assisted: bool | Unset = False,
    period: ReadLeaderboardPeriod | Unset = "all",
    date: datetime.date | None | Unset = UNSET,
    per_player: Literal["best"] | None | Unset = UNSET,
    challenge: None | str | Unset = UNSET,
) -> Leaderboard | Problem | None:
    """Read the leaderboard

     Won games, best score first and, on equal scores, earlier finish first. Page with
    `next_cursor`: paging never skips or repeats an entry, even while new wins arrive.
    `period=day` or `week` lists the games won on one UTC day or ISO week (today's, or the one
    holding `date`); `per_player=best` each player's best game once. Games whose player asked
    for a hint are left out unless `include_assisted=true`; a cursor belongs to the listing it
    came from (else `422 invalid_cursor`). With `challenge=YYYY-MM-DD`, the board of that
    day's daily challenge: its won games ranked the same way, paged with cursors of that day's
    board (no `period`, `date` or `per_player` then).

    Args:
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.
        include_assisted (bool | Unset): Also list games in which the player asked for hints.
            Default: False.
        period (ReadLeaderboardPeriod | Unset): `all` (every won game), `day` (won on one UTC
            calendar day) or `week` (won in one ISO week, Monday to Sunday, UTC). Default: 'all'.
        date (datetime.date | None | Unset): `YYYY-MM-DD`, with `period=day` or `week`: the day,
            or a day of the week, to list (default: today, UTC). Not after today.
        per_player (Literal['best'] | None | Unset): `best`: each player's best game only (a
            player is a name, compared ignoring case and width), ties to the earlier finish.
        challenge (None | str | Unset): `YYYY-MM-DD` from 2026-01-01 (or `today`): that day's
            daily challenge board instead (its won games; challenge games have no hints).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Leaderboard | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            cursor=cursor,
            include_assisted=include_assisted,
            period=period,
            date=date,
            per_player=per_player,
            challenge=challenge,
        )
    ).parsed

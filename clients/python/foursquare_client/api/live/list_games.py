from http import HTTPStatus
from typing import Any, Literal

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.games_in_progress import GamesInProgress
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    status: Literal["in_progress"],
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["status"] = status

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/games",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> GamesInProgress | Problem | None:
    if response.status_code == 200:
        response_200 = GamesInProgress.from_dict(response.json())

        return response_200

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
) -> Response[GamesInProgress | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    status: Literal["in_progress"],
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> Response[GamesInProgress | Problem]:
    """List the games in progress

     Games being played, the most recently changed first, a page at a time (pass
    `next_cursor` back as `cursor`): games in progress that moved (began, took a card or a
    hint) within `FOURSQUARE_LIVE_MOVED_WITHIN_MINUTES` (10 by default; a game moved again is
    listed again). Daily challenge games are left out until their day closes. `event: game`
    on `GET /events` tells when a game begins, moves or ends. Watch one with
    `GET /games/{id}/events`.

    Args:
        status (Literal['in_progress']): Which games: `in_progress` (the only listing there is).
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GamesInProgress | Problem]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    status: Literal["in_progress"],
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> GamesInProgress | Problem | None:
    """List the games in progress

     Games being played, the most recently changed first, a page at a time (pass
    `next_cursor` back as `cursor`): games in progress that moved (began, took a card or a
    hint) within `FOURSQUARE_LIVE_MOVED_WITHIN_MINUTES` (10 by default; a game moved again is
    listed again). Daily challenge games are left out until their day closes. `event: game`
    on `GET /events` tells when a game begins, moves or ends. Watch one with
    `GET /games/{id}/events`.

    Args:
        status (Literal['in_progress']): Which games: `in_progress` (the only listing there is).
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GamesInProgress | Problem
    """

    return sync_detailed(
        client=client,
        status=status,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    status: Literal["in_progress"],
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> Response[GamesInProgress | Problem]:
    """List the games in progress

     Games being played, the most recently changed first, a page at a time (pass
    `next_cursor` back as `cursor`): games in progress that moved (began, took a card or a
    hint) within `FOURSQUARE_LIVE_MOVED_WITHIN_MINUTES` (10 by default; a game moved again is
    listed again). Daily challenge games are left out until their day closes. `event: game`
    on `GET /events` tells when a game begins, moves or ends. Watch one with
    `GET /games/{id}/events`.

    Args:
        status (Literal['in_progress']): Which games: `in_progress` (the only listing there is).
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GamesInProgress | Problem]
    """

    kwargs = _get_kwargs(
        status=status,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    status: Literal["in_progress"],
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> GamesInProgress | Problem | None:
    """List the games in progress

     Games being played, the most recently changed first, a page at a time (pass
    `next_cursor` back as `cursor`): games in progress that moved (began, took a card or a
    hint) within `FOURSQUARE_LIVE_MOVED_WITHIN_MINUTES` (10 by default; a game moved again is
    listed again). Daily challenge games are left out until their day closes. `event: game`
    on `GET /events` tells when a game begins, moves or ends. Watch one with
    `GET /games/{id}/events`.

    Args:
        status (Literal['in_progress']): Which games: `in_progress` (the only listing there is).
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GamesInProgress | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            status=status,
            limit=limit,
            cursor=cursor,
        )
    ).parsed

from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_player_games_status_type_0 import ListPlayerGamesStatusType0
from ...models.player_games import PlayerGames
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    name: str,
    *,
    status: ListPlayerGamesStatusType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, str):
        json_status = status
    else:
        json_status = status
    params["status"] = json_status

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
        "url": "/players/{name}/games".format(
            name=quote(str(name), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PlayerGames | Problem | None:
    if response.status_code == 200:
        response_200 = PlayerGames.from_dict(response.json())

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
) -> Response[PlayerGames | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    status: ListPlayerGamesStatusType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> Response[PlayerGames | Problem]:
    """List a player's games

     The player's games, newest first, optionally only those of one `status`. Page with
    `next_cursor`, passing the same `status`: a cursor belongs to the listing it came from
    (else `422 invalid_cursor`).

    Args:
        name (str):
        status (ListPlayerGamesStatusType0 | None | Unset): Only games of this status.
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerGames | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        status=status,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    status: ListPlayerGamesStatusType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> PlayerGames | Problem | None:
    """List a player's games

     The player's games, newest first, optionally only those of one `status`. Page with
    `next_cursor`, passing the same `status`: a cursor belongs to the listing it came from
    (else `422 invalid_cursor`).

    Args:
        name (str):
        status (ListPlayerGamesStatusType0 | None | Unset): Only games of this status.
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerGames | Problem
    """

    return sync_detailed(
        name=name,
        client=client,
        status=status,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    status: ListPlayerGamesStatusType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> Response[PlayerGames | Problem]:
    """List a player's games

     The player's games, newest first, optionally only those of one `status`. Page with
    `next_cursor`, passing the same `status`: a cursor belongs to the listing it came from
    (else `422 invalid_cursor`).

    Args:
        name (str):
        status (ListPlayerGamesStatusType0 | None | Unset): Only games of this status.
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerGames | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        status=status,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    status: ListPlayerGamesStatusType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> PlayerGames | Problem | None:
    """List a player's games

     The player's games, newest first, optionally only those of one `status`. Page with
    `next_cursor`, passing the same `status`: a cursor belongs to the listing it came from
    (else `422 invalid_cursor`).

    Args:
        name (str):
        status (ListPlayerGamesStatusType0 | None | Unset): Only games of this status.
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerGames | Problem
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            status=status,
            limit=limit,
            cursor=cursor,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.open_races import OpenRaces
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

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
        "url": "/races/open",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OpenRaces | Problem | None:
    if response.status_code == 200:
        response_200 = OpenRaces.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OpenRaces | Problem]:
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
) -> Response[OpenRaces | Problem]:
    """List the open races

     The public races (opened with `public: true`) in their lobby with a free seat, newest
    first, a page at a time (pass `next_cursor` back as `cursor`): what a joiner needs to
    choose one, then `POST /races/{id}/racers`. A private race is never listed; a race leaves
    the list when it starts, fills or closes. `GET /races/open/events` tells as it changes.

    Args:
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenRaces | Problem]
    """

    kwargs = _get_kwargs(
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
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> OpenRaces | Problem | None:
    """List the open races

     The public races (opened with `public: true`) in their lobby with a free seat, newest
    first, a page at a time (pass `next_cursor` back as `cursor`): what a joiner needs to
    choose one, then `POST /races/{id}/racers`. A private race is never listed; a race leaves
    the list when it starts, fills or closes. `GET /races/open/events` tells as it changes.

    Args:
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenRaces | Problem
    """

    return sync_detailed(
        client=client,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> Response[OpenRaces | Problem]:
    """List the open races

     The public races (opened with `public: true`) in their lobby with a free seat, newest
    first, a page at a time (pass `next_cursor` back as `cursor`): what a joiner needs to
    choose one, then `POST /races/{id}/racers`. A private race is never listed; a race leaves
    the list when it starts, fills or closes. `GET /races/open/events` tells as it changes.

    Args:
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OpenRaces | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
) -> OpenRaces | Problem | None:
    """List the open races

     The public races (opened with `public: true`) in their lobby with a free seat, newest
    first, a page at a time (pass `next_cursor` back as `cursor`): what a joiner needs to
    choose one, then `POST /races/{id}/racers`. A private race is never listed; a race leaves
    the list when it starts, fills or closes. `GET /races/open/events` tells as it changes.

    Args:
        limit (int | Unset): Entries per page. Default: 20.
        cursor (None | str | Unset): `next_cursor` of the previous page.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OpenRaces | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            cursor=cursor,
        )
    ).parsed

from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.race_out import RaceOut
from ...types import Response


def _get_kwargs(
    race_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/races/{race_id}/leave".format(
            race_id=quote(str(race_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | RaceOut | None:
    if response.status_code == 200:
        response_200 = RaceOut.from_dict(response.json())

        return response_200

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | RaceOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    race_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | RaceOut]:
    """Leave a race's lobby

     Leaves a race in its lobby (a racer's credential; `409 race_not_open` once it has
    started). If the opener leaves, the next racer to have joined may start it; if the last
    person leaves, the race is `closed`. Its stream tells the others with `event: left`.

    Args:
        race_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RaceOut]
    """

    kwargs = _get_kwargs(
        race_id=race_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    race_id: str,
    *,
    client: AuthenticatedClient,
) -> Problem | RaceOut | None:
    """Leave a race's lobby

     Leaves a race in its lobby (a racer's credential; `409 race_not_open` once it has
    started). If the opener leaves, the next racer to have joined may start it; if the last
    person leaves, the race is `closed`. Its stream tells the others with `event: left`.

    Args:
        race_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RaceOut
    """

    return sync_detailed(
        race_id=race_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    race_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | RaceOut]:
    """Leave a race's lobby

     Leaves a race in its lobby (a racer's credential; `409 race_not_open` once it has
    started). If the opener leaves, the next racer to have joined may start it; if the last
    person leaves, the race is `closed`. Its stream tells the others with `event: left`.

    Args:
        race_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RaceOut]
    """

    kwargs = _get_kwargs(
        race_id=race_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    race_id: str,
    *,
    client: AuthenticatedClient,
) -> Problem | RaceOut | None:
    """Leave a race's lobby

     Leaves a race in its lobby (a racer's credential; `409 race_not_open` once it has
    started). If the opener leaves, the next racer to have joined may start it; if the last
    person leaves, the race is `closed`. Its stream tells the others with `event: left`.

    Args:
        race_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RaceOut
    """

    return (
        await asyncio_detailed(
            race_id=race_id,
            client=client,
        )
    ).parsed

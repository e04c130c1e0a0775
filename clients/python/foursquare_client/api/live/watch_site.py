from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/events",
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | str]:
    """Watch the site

     Server-sent events about the whole site, as they are recorded: `event: win` for every
    win (as the leaderboard lists it at once, daily challenge games included), `event: best`
    when a win takes rank 1 on the all-time, day or week board (games played without hints),
    `event: challenge` when a daily challenge's played or won count changes, and `event: game`
    when a game begins, moves (at most once a second) or ends (guests' games included, no card;
    daily challenge games once their day has closed only, race games never), for the list of
    games being played. These events have no id:
    a client that reconnects reads the leaderboard, the challenge and the list again.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | str | None:
    """Watch the site

     Server-sent events about the whole site, as they are recorded: `event: win` for every
    win (as the leaderboard lists it at once, daily challenge games included), `event: best`
    when a win takes rank 1 on the all-time, day or week board (games played without hints),
    `event: challenge` when a daily challenge's played or won count changes, and `event: game`
    when a game begins, moves (at most once a second) or ends (guests' games included, no card;
    daily challenge games once their day has closed only, race games never), for the list of
    games being played. These events have no id:
    a client that reconnects reads the leaderboard, the challenge and the list again.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | str]:
    """Watch the site

     Server-sent events about the whole site, as they are recorded: `event: win` for every
    win (as the leaderboard lists it at once, daily challenge games included), `event: best`
    when a win takes rank 1 on the all-time, day or week board (games played without hints),
    `event: challenge` when a daily challenge's played or won count changes, and `event: game`
    when a game begins, moves (at most once a second) or ends (guests' games included, no card;
    daily challenge games once their day has closed only, race games never), for the list of
    games being played. These events have no id:
    a client that reconnects reads the leaderboard, the challenge and the list again.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | str | None:
    """Watch the site

     Server-sent events about the whole site, as they are recorded: `event: win` for every
    win (as the leaderboard lists it at once, daily challenge games included), `event: best`
    when a win takes rank 1 on the all-time, day or week board (games played without hints),
    `event: challenge` when a daily challenge's played or won count changes, and `event: game`
    when a game begins, moves (at most once a second) or ends (guests' games included, no card;
    daily challenge games once their day has closed only, race games never), for the list of
    games being played. These events have no id:
    a client that reconnects reads the leaderboard, the challenge and the list again.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed

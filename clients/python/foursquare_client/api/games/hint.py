from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.hint import Hint
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    game_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/games/{game_id}/hint".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Hint | Problem | None:
    if response.status_code == 200:
        response_200 = Hint.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Hint | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Hint | Problem]:
    """Ask the computer player for a hint

     Where the computer player would put the current card, with its estimated chance to win
    and expected score (a loss counts 0) for that placement and every other legal one. It
    decides from the public state only, like the player. Needs the game's token. A game that
    asked for a hint is marked `assisted` (its version goes up once) and its win is left off
    the default leaderboard. A client (an address, a token) holds at most its share of the
    hint workers; beyond it, or when they are all taken, `503 hints_busy`, which does not
    count against its rate limit.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Hint | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient,
) -> Hint | Problem | None:
    """Ask the computer player for a hint

     Where the computer player would put the current card, with its estimated chance to win
    and expected score (a loss counts 0) for that placement and every other legal one. It
    decides from the public state only, like the player. Needs the game's token. A game that
    asked for a hint is marked `assisted` (its version goes up once) and its win is left off
    the default leaderboard. A client (an address, a token) holds at most its share of the
    hint workers; beyond it, or when they are all taken, `503 hints_busy`, which does not
    count against its rate limit.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Hint | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Hint | Problem]:
    """Ask the computer player for a hint

     Where the computer player would put the current card, with its estimated chance to win
    and expected score (a loss counts 0) for that placement and every other legal one. It
    decides from the public state only, like the player. Needs the game's token. A game that
    asked for a hint is marked `assisted` (its version goes up once) and its win is left off
    the default leaderboard. A client (an address, a token) holds at most its share of the
    hint workers; beyond it, or when they are all taken, `503 hints_busy`, which does not
    count against its rate limit.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Hint | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient,
) -> Hint | Problem | None:
    """Ask the computer player for a hint

     Where the computer player would put the current card, with its estimated chance to win
    and expected score (a loss counts 0) for that placement and every other legal one. It
    decides from the public state only, like the player. Needs the game's token. A game that
    asked for a hint is marked `assisted` (its version goes up once) and its win is left off
    the default leaderboard. A client (an address, a token) holds at most its share of the
    hint workers; beyond it, or when they are all taken, `503 hints_busy`, which does not
    count against its rate limit.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Hint | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
        )
    ).parsed

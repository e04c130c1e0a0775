from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.analysis_out import AnalysisOut
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    game_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/games/{game_id}/analysis".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AnalysisOut | Problem | None:
    if response.status_code == 200:
        response_200 = AnalysisOut.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = AnalysisOut.from_dict(response.json())

        return response_202

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[AnalysisOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[AnalysisOut | Problem]:
    """Ask for a finished game's analysis

     Queues the analysis of a finished game: each placement judged from what the player
    could see at that moment by the computer player (the placement made and the best one, the
    loss, a label), and an accuracy for the game. Computed once, in the background, by one
    server process; this request never waits for it. `202` with `Location` while it is queued
    or running, `200` if it is already done (asking again never computes it twice; a `failed`
    one is queued again). Anyone may ask: a finished game's deck is public. A game in progress
    is `409 game_in_progress`, a daily-challenge game before its day closes
    `409 challenge_day_open`; nothing is queued.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AnalysisOut | Problem]
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
    client: AuthenticatedClient | Client,
) -> AnalysisOut | Problem | None:
    """Ask for a finished game's analysis

     Queues the analysis of a finished game: each placement judged from what the player
    could see at that moment by the computer player (the placement made and the best one, the
    loss, a label), and an accuracy for the game. Computed once, in the background, by one
    server process; this request never waits for it. `202` with `Location` while it is queued
    or running, `200` if it is already done (asking again never computes it twice; a `failed`
    one is queued again). Anyone may ask: a finished game's deck is public. A game in progress
    is `409 game_in_progress`, a daily-challenge game before its day closes
    `409 challenge_day_open`; nothing is queued.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AnalysisOut | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[AnalysisOut | Problem]:
    """Ask for a finished game's analysis

     Queues the analysis of a finished game: each placement judged from what the player
    could see at that moment by the computer player (the placement made and the best one, the
    loss, a label), and an accuracy for the game. Computed once, in the background, by one
    server process; this request never waits for it. `202` with `Location` while it is queued
    or running, `200` if it is already done (asking again never computes it twice; a `failed`
    one is queued again). Anyone may ask: a finished game's deck is public. A game in progress
    is `409 game_in_progress`, a daily-challenge game before its day closes
    `409 challenge_day_open`; nothing is queued.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AnalysisOut | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
) -> AnalysisOut | Problem | None:
    """Ask for a finished game's analysis

     Queues the analysis of a finished game: each placement judged from what the player
    could see at that moment by the computer player (the placement made and the best one, the
    loss, a label), and an accuracy for the game. Computed once, in the background, by one
    server process; this request never waits for it. `202` with `Location` while it is queued
    or running, `200` if it is already done (asking again never computes it twice; a `failed`
    one is queued again). Anyone may ask: a finished game's deck is public. A game in progress
    is `409 game_in_progress`, a daily-challenge game before its day closes
    `409 challenge_day_open`; nothing is queued.

    Args:
        game_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AnalysisOut | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
        )
    ).parsed

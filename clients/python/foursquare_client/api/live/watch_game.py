from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    last_event_id: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/games/{game_id}/events".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | str]:
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
    last_event_id: None | str | Unset = UNSET,
) -> Response[Problem | str]:
    """Watch a game

     The game's placements as server-sent events, as they are stored: `event: placement`
    (its `id` is the placement's number, its data what `GET /games/{id}/placements` lists),
    then `event: end` when the game is over, and the stream closes. A finished game's stream
    is its whole history and its end. With `Last-Event-ID: n` only the placements after `n`
    are sent, then the stream goes on live: no gap, nothing twice. A watcher too slow to keep
    up gets `event: reconnect` and is closed. Reading rules are `GET /games/{id}`'s: a daily
    challenge game is its player's only (their token or key) until its day closes.

    Args:
        game_id (str):
        last_event_id (None | str | Unset): The `id` of the last event received (a browser's
            EventSource sends it when it reconnects): only the events after it are sent, 0 to 40 (a
            game's placements).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Problem | str | None:
    """Watch a game

     The game's placements as server-sent events, as they are stored: `event: placement`
    (its `id` is the placement's number, its data what `GET /games/{id}/placements` lists),
    then `event: end` when the game is over, and the stream closes. A finished game's stream
    is its whole history and its end. With `Last-Event-ID: n` only the placements after `n`
    are sent, then the stream goes on live: no gap, nothing twice. A watcher too slow to keep
    up gets `event: reconnect` and is closed. Reading rules are `GET /games/{id}`'s: a daily
    challenge game is its player's only (their token or key) until its day closes.

    Args:
        game_id (str):
        last_event_id (None | str | Unset): The `id` of the last event received (a browser's
            EventSource sends it when it reconnects): only the events after it are sent, 0 to 40 (a
            game's placements).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Response[Problem | str]:
    """Watch a game

     The game's placements as server-sent events, as they are stored: `event: placement`
    (its `id` is the placement's number, its data what `GET /games/{id}/placements` lists),
    then `event: end` when the game is over, and the stream closes. A finished game's stream
    is its whole history and its end. With `Last-Event-ID: n` only the placements after `n`
    are sent, then the stream goes on live: no gap, nothing twice. A watcher too slow to keep
    up gets `event: reconnect` and is closed. Reading rules are `GET /games/{id}`'s: a daily
    challenge game is its player's only (their token or key) until its day closes.

    Args:
        game_id (str):
        last_event_id (None | str | Unset): The `id` of the last event received (a browser's
            EventSource sends it when it reconnects): only the events after it are sent, 0 to 40 (a
            game's placements).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Problem | str | None:
    """Watch a game

     The game's placements as server-sent events, as they are stored: `event: placement`
    (its `id` is the placement's number, its data what `GET /games/{id}/placements` lists),
    then `event: end` when the game is over, and the stream closes. A finished game's stream
    is its whole history and its end. With `Last-Event-ID: n` only the placements after `n`
    are sent, then the stream goes on live: no gap, nothing twice. A watcher too slow to keep
    up gets `event: reconnect` and is closed. Reading rules are `GET /games/{id}`'s: a daily
    challenge game is its player's only (their token or key) until its day closes.

    Args:
        game_id (str):
        last_event_id (None | str | Unset): The `id` of the last event received (a browser's
            EventSource sends it when it reconnects): only the events after it are sent, 0 to 40 (a
            game's placements).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            last_event_id=last_event_id,
        )
    ).parsed

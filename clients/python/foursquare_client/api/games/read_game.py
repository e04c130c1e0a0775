from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.game_out import GameOut
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    if_none_match: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["if-none-match"] = if_none_match

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/games/{game_id}".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | GameOut | Problem | None:
    if response.status_code == 200:
        response_200 = GameOut.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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
) -> Response[Any | GameOut | Problem]:
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
    if_none_match: None | str | Unset = UNSET,
) -> Response[Any | GameOut | Problem]:
    """Read a game

     The game as anyone may see it: piles, current card, legal placements, status and
    score. Reading is public; the order of the stock is never shown while the game is in
    progress. Send the `ETag` back in `If-None-Match` to get `304` while nothing changed. A
    daily challenge game is its player's only (their token or key) until its day closes, and
    shows its `reveal` only from then on (its ETag ends in `-sealed` while it is over but
    sealed; `Cache-Control: private, no-cache`).

    Args:
        game_id (str):
        if_none_match (None | str | Unset): An ETag from an earlier read; `304` if unchanged.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | GameOut | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    if_none_match: None | str | Unset = UNSET,
) -> Any | GameOut | Problem | None:
    """Read a game

     The game as anyone may see it: piles, current card, legal placements, status and
    score. Reading is public; the order of the stock is never shown while the game is in
    progress. Send the `ETag` back in `If-None-Match` to get `304` while nothing changed. A
    daily challenge game is its player's only (their token or key) until its day closes, and
    shows its `reveal` only from then on (its ETag ends in `-sealed` while it is over but
    sealed; `Cache-Control: private, no-cache`).

    Args:
        game_id (str):
        if_none_match (None | str | Unset): An ETag from an earlier read; `304` if unchanged.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | GameOut | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    if_none_match: None | str | Unset = UNSET,
) -> Response[Any | GameOut | Problem]:
    """Read a game

     The game as anyone may see it: piles, current card, legal placements, status and
    score. Reading is public; the order of the stock is never shown while the game is in
    progress. Send the `ETag` back in `If-None-Match` to get `304` while nothing changed. A
    daily challenge game is its player's only (their token or key) until its day closes, and
    shows its `reveal` only from then on (its ETag ends in `-sealed` while it is over but
    sealed; `Cache-Control: private, no-cache`).

    Args:
        game_id (str):
        if_none_match (None | str | Unset): An ETag from an earlier read; `304` if unchanged.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | GameOut | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    if_none_match: None | str | Unset = UNSET,
) -> Any | GameOut | Problem | None:
    """Read a game

     The game as anyone may see it: piles, current card, legal placements, status and
    score. Reading is public; the order of the stock is never shown while the game is in
    progress. Send the `ETag` back in `If-None-Match` to get `304` while nothing changed. A
    daily challenge game is its player's only (their token or key) until its day closes, and
    shows its `reveal` only from then on (its ETag ends in `-sealed` while it is over but
    sealed; `Cache-Control: private, no-cache`).

    Args:
        game_id (str):
        if_none_match (None | str | Unset): An ETag from an earlier read; `304` if unchanged.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | GameOut | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            if_none_match=if_none_match,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.game_create import GameCreate
from ...models.game_created import GameCreated
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: GameCreate | None,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/games",
    }

    if isinstance(body, GameCreate):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GameCreated | Problem | None:
    if response.status_code == 201:
        response_201 = GameCreated.from_dict(response.json())

        return response_201

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

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
) -> Response[GameCreated | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: GameCreate | None,
    idempotency_key: str | Unset = UNSET,
) -> Response[GameCreated | Problem]:
    """Start a game

     Deals a fresh, secretly shuffled deck and draws the first card. The answer holds the
    game and its `token`, which authorises placements and is shown only in this response (and
    in replays of it under the same `Idempotency-Key`). The `Location` header points at the
    new game. `deck_commitment` fixes the deal: the deck and the salt behind it are revealed
    when the game ends. With a registered player's key as `Authorization: Bearer <key>`, the
    game is that player's (its `player` is the account's name, and the key also authorises
    its placements and hints); without one it is a guest's, under any name that is no
    account's. `{"challenge": "daily"}` (with a player's key) deals today's daily challenge
    instead: the same deal for every player, whose `deck_commitment` is the day's
    (`GET /challenges/today`); one attempt per player per UTC day, played without hints,
    finished before the day closes, private to its player and without its reveal until then.

    Args:
        idempotency_key (str | Unset):
        body (GameCreate | None):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameCreated | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: GameCreate | None,
    idempotency_key: str | Unset = UNSET,
) -> GameCreated | Problem | None:
    """Start a game

     Deals a fresh, secretly shuffled deck and draws the first card. The answer holds the
    game and its `token`, which authorises placements and is shown only in this response (and
    in replays of it under the same `Idempotency-Key`). The `Location` header points at the
    new game. `deck_commitment` fixes the deal: the deck and the salt behind it are revealed
    when the game ends. With a registered player's key as `Authorization: Bearer <key>`, the
    game is that player's (its `player` is the account's name, and the key also authorises
    its placements and hints); without one it is a guest's, under any name that is no
    account's. `{"challenge": "daily"}` (with a player's key) deals today's daily challenge
    instead: the same deal for every player, whose `deck_commitment` is the day's
    (`GET /challenges/today`); one attempt per player per UTC day, played without hints,
    finished before the day closes, private to its player and without its reveal until then.

    Args:
        idempotency_key (str | Unset):
        body (GameCreate | None):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameCreated | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: GameCreate | None,
    idempotency_key: str | Unset = UNSET,
) -> Response[GameCreated | Problem]:
    """Start a game

     Deals a fresh, secretly shuffled deck and draws the first card. The answer holds the
    game and its `token`, which authorises placements and is shown only in this response (and
    in replays of it under the same `Idempotency-Key`). The `Location` header points at the
    new game. `deck_commitment` fixes the deal: the deck and the salt behind it are revealed
    when the game ends. With a registered player's key as `Authorization: Bearer <key>`, the
    game is that player's (its `player` is the account's name, and the key also authorises
    its placements and hints); without one it is a guest's, under any name that is no
    account's. `{"challenge": "daily"}` (with a player's key) deals today's daily challenge
    instead: the same deal for every player, whose `deck_commitment` is the day's
    (`GET /challenges/today`); one attempt per player per UTC day, played without hints,
    finished before the day closes, private to its player and without its reveal until then.

    Args:
        idempotency_key (str | Unset):
        body (GameCreate | None):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameCreated | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: GameCreate | None,
    idempotency_key: str | Unset = UNSET,
) -> GameCreated | Problem | None:
    """Start a game

     Deals a fresh, secretly shuffled deck and draws the first card. The answer holds the
    game and its `token`, which authorises placements and is shown only in this response (and
    in replays of it under the same `Idempotency-Key`). The `Location` header points at the
    new game. `deck_commitment` fixes the deal: the deck and the salt behind it are revealed
    when the game ends. With a registered player's key as `Authorization: Bearer <key>`, the
    game is that player's (its `player` is the account's name, and the key also authorises
    its placements and hints); without one it is a guest's, under any name that is no
    account's. `{"challenge": "daily"}` (with a player's key) deals today's daily challenge
    instead: the same deal for every player, whose `deck_commitment` is the day's
    (`GET /challenges/today`); one attempt per player per UTC day, played without hints,
    finished before the day closes, private to its player and without its reveal until then.

    Args:
        idempotency_key (str | Unset):
        body (GameCreate | None):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameCreated | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed

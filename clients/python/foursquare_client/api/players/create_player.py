from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.player_create import PlayerCreate
from ...models.player_created import PlayerCreated
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PlayerCreate,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/players",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PlayerCreated | Problem | None:
    if response.status_code == 201:
        response_201 = PlayerCreated.from_dict(response.json())

        return response_201

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
) -> Response[PlayerCreated | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PlayerCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[PlayerCreated | Problem]:
    """Register a player

     Registers a name and answers with the player, their secret `key` (named `key_name`)
    and ten one-time `recovery_codes`, shown only in this response (they are stored hashed)
    and in its replays: send an `Idempotency-Key`, and a retry of a registration whose answer
    was lost (a dropped connection, a `502`) gets the same account, key and codes rather than
    `409 name_taken`. Send the key as `Authorization: Bearer <key>` on `POST /games` to play
    as this player. A name is 3 to 24 ASCII letters, digits, `_` or `-`, at least one of them
    a letter, and one name with no other account's or reserved name (see `name`); a guest can
    no longer play under it.

    Args:
        idempotency_key (str | Unset):
        body (PlayerCreate): The name to register.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerCreated | Problem]
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
    body: PlayerCreate,
    idempotency_key: str | Unset = UNSET,
) -> PlayerCreated | Problem | None:
    """Register a player

     Registers a name and answers with the player, their secret `key` (named `key_name`)
    and ten one-time `recovery_codes`, shown only in this response (they are stored hashed)
    and in its replays: send an `Idempotency-Key`, and a retry of a registration whose answer
    was lost (a dropped connection, a `502`) gets the same account, key and codes rather than
    `409 name_taken`. Send the key as `Authorization: Bearer <key>` on `POST /games` to play
    as this player. A name is 3 to 24 ASCII letters, digits, `_` or `-`, at least one of them
    a letter, and one name with no other account's or reserved name (see `name`); a guest can
    no longer play under it.

    Args:
        idempotency_key (str | Unset):
        body (PlayerCreate): The name to register.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerCreated | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PlayerCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[PlayerCreated | Problem]:
    """Register a player

     Registers a name and answers with the player, their secret `key` (named `key_name`)
    and ten one-time `recovery_codes`, shown only in this response (they are stored hashed)
    and in its replays: send an `Idempotency-Key`, and a retry of a registration whose answer
    was lost (a dropped connection, a `502`) gets the same account, key and codes rather than
    `409 name_taken`. Send the key as `Authorization: Bearer <key>` on `POST /games` to play
    as this player. A name is 3 to 24 ASCII letters, digits, `_` or `-`, at least one of them
    a letter, and one name with no other account's or reserved name (see `name`); a guest can
    no longer play under it.

    Args:
        idempotency_key (str | Unset):
        body (PlayerCreate): The name to register.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerCreated | Problem]
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
    body: PlayerCreate,
    idempotency_key: str | Unset = UNSET,
) -> PlayerCreated | Problem | None:
    """Register a player

     Registers a name and answers with the player, their secret `key` (named `key_name`)
    and ten one-time `recovery_codes`, shown only in this response (they are stored hashed)
    and in its replays: send an `Idempotency-Key`, and a retry of a registration whose answer
    was lost (a dropped connection, a `502`) gets the same account, key and codes rather than
    `409 name_taken`. Send the key as `Authorization: Bearer <key>` on `POST /games` to play
    as this player. A name is 3 to 24 ASCII letters, digits, `_` or `-`, at least one of them
    a letter, and one name with no other account's or reserved name (see `name`); a guest can
    no longer play under it.

    Args:
        idempotency_key (str | Unset):
        body (PlayerCreate): The name to register.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerCreated | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed

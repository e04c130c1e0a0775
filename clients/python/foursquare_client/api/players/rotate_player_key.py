from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.player_key import PlayerKey
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    name: str,
    *,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/players/{name}/key".format(
            name=quote(str(name), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PlayerKey | Problem | None:
    if response.status_code == 200:
        response_200 = PlayerKey.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PlayerKey | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Response[PlayerKey | Problem]:
    """Rotate a player's key

     Replaces the secret of the key sent as `Authorization: Bearer <key>` (one of the
    player's keys) with a new one, shown only in this response (and in its replays under the
    same `Idempotency-Key`, sent with the same key); the key keeps its name and id. The old
    secret keeps working until the new one is first used (by any request that changes
    something with it, or `GET /players/me`), then is refused: a rotation whose answer was
    lost never strands the account, and a rotation sent again with the old secret before
    then answers a fresh one (the unread one is refused from then on). The player's other
    keys and game tokens are not affected.

    Args:
        name (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerKey | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> PlayerKey | Problem | None:
    """Rotate a player's key

     Replaces the secret of the key sent as `Authorization: Bearer <key>` (one of the
    player's keys) with a new one, shown only in this response (and in its replays under the
    same `Idempotency-Key`, sent with the same key); the key keeps its name and id. The old
    secret keeps working until the new one is first used (by any request that changes
    something with it, or `GET /players/me`), then is refused: a rotation whose answer was
    lost never strands the account, and a rotation sent again with the old secret before
    then answers a fresh one (the unread one is refused from then on). The player's other
    keys and game tokens are not affected.

    Args:
        name (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerKey | Problem
    """

    return sync_detailed(
        name=name,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> Response[PlayerKey | Problem]:
    """Rotate a player's key

     Replaces the secret of the key sent as `Authorization: Bearer <key>` (one of the
    player's keys) with a new one, shown only in this response (and in its replays under the
    same `Idempotency-Key`, sent with the same key); the key keeps its name and id. The old
    secret keeps working until the new one is first used (by any request that changes
    something with it, or `GET /players/me`), then is refused: a rotation whose answer was
    lost never strands the account, and a rotation sent again with the old secret before
    then answers a fresh one (the unread one is refused from then on). The player's other
    keys and game tokens are not affected.

    Args:
        name (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerKey | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
) -> PlayerKey | Problem | None:
    """Rotate a player's key

     Replaces the secret of the key sent as `Authorization: Bearer <key>` (one of the
    player's keys) with a new one, shown only in this response (and in its replays under the
    same `Idempotency-Key`, sent with the same key); the key keeps its name and id. The old
    secret keeps working until the new one is first used (by any request that changes
    something with it, or `GET /players/me`), then is refused: a rotation whose answer was
    lost never strands the account, and a rotation sent again with the old secret before
    then answers a fresh one (the unread one is refused from then on). The player's other
    keys and game tokens are not affected.

    Args:
        name (str):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerKey | Problem
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed

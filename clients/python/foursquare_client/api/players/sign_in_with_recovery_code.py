from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.new_key_out import NewKeyOut
from ...models.problem import Problem
from ...models.recovery_code_sign_in import RecoveryCodeSignIn
from ...types import Response


def _get_kwargs(
    *,
    body: RecoveryCodeSignIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/sign-in/recovery-code",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> NewKeyOut | Problem | None:
    if response.status_code == 201:
        response_201 = NewKeyOut.from_dict(response.json())

        return response_201

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[NewKeyOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RecoveryCodeSignIn,
) -> Response[NewKeyOut | Problem]:
    """Sign in with a recovery code

     Spends one of the player's recovery codes for a new key (named `key_name`), shown
    only in this response; the code is refused from then on. Failed attempts are limited per
    account and per address (`429 sign_in_limited`); a wrong name answers as the player's
    public page does (`404`).

    Args:
        body (RecoveryCodeSignIn): A recovery code of the named player, spent for a new key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NewKeyOut | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: RecoveryCodeSignIn,
) -> NewKeyOut | Problem | None:
    """Sign in with a recovery code

     Spends one of the player's recovery codes for a new key (named `key_name`), shown
    only in this response; the code is refused from then on. Failed attempts are limited per
    account and per address (`429 sign_in_limited`); a wrong name answers as the player's
    public page does (`404`).

    Args:
        body (RecoveryCodeSignIn): A recovery code of the named player, spent for a new key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NewKeyOut | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RecoveryCodeSignIn,
) -> Response[NewKeyOut | Problem]:
    """Sign in with a recovery code

     Spends one of the player's recovery codes for a new key (named `key_name`), shown
    only in this response; the code is refused from then on. Failed attempts are limited per
    account and per address (`429 sign_in_limited`); a wrong name answers as the player's
    public page does (`404`).

    Args:
        body (RecoveryCodeSignIn): A recovery code of the named player, spent for a new key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[NewKeyOut | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: RecoveryCodeSignIn,
) -> NewKeyOut | Problem | None:
    """Sign in with a recovery code

     Spends one of the player's recovery codes for a new key (named `key_name`), shown
    only in this response; the code is refused from then on. Failed attempts are limited per
    account and per address (`429 sign_in_limited`); a wrong name answers as the player's
    public page does (`404`).

    Args:
        body (RecoveryCodeSignIn): A recovery code of the named player, spent for a new key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        NewKeyOut | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

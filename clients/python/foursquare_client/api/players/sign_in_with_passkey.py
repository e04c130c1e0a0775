from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.new_key_out import NewKeyOut
from ...models.passkey_sign_in import PasskeySignIn
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: PasskeySignIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/sign-in/passkey",
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
    body: PasskeySignIn,
) -> Response[NewKeyOut | Problem]:
    """Sign in with a passkey

     A new key (named `key_name`) for the account whose passkey answered the options of
    `POST /sign-in/passkey/options`, shown only in this response. Failed attempts are limited
    per passkey and per address (`429 sign_in_limited`).

    Args:
        body (PasskeySignIn): A passkey's answer to the sign-in options, and the name of the key
            it yields.

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
    body: PasskeySignIn,
) -> NewKeyOut | Problem | None:
    """Sign in with a passkey

     A new key (named `key_name`) for the account whose passkey answered the options of
    `POST /sign-in/passkey/options`, shown only in this response. Failed attempts are limited
    per passkey and per address (`429 sign_in_limited`).

    Args:
        body (PasskeySignIn): A passkey's answer to the sign-in options, and the name of the key
            it yields.

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
    body: PasskeySignIn,
) -> Response[NewKeyOut | Problem]:
    """Sign in with a passkey

     A new key (named `key_name`) for the account whose passkey answered the options of
    `POST /sign-in/passkey/options`, shown only in this response. Failed attempts are limited
    per passkey and per address (`429 sign_in_limited`).

    Args:
        body (PasskeySignIn): A passkey's answer to the sign-in options, and the name of the key
            it yields.

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
    body: PasskeySignIn,
) -> NewKeyOut | Problem | None:
    """Sign in with a passkey

     A new key (named `key_name`) for the account whose passkey answered the options of
    `POST /sign-in/passkey/options`, shown only in this response. Failed attempts are limited
    per passkey and per address (`429 sign_in_limited`).

    Args:
        body (PasskeySignIn): A passkey's answer to the sign-in options, and the name of the key
            it yields.

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

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.race_create import RaceCreate
from ...models.race_created import RaceCreated
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: None | RaceCreate,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/races",
    }

    if isinstance(body, RaceCreate):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | RaceCreated | None:
    if response.status_code == 201:
        response_201 = RaceCreated.from_dict(response.json())

        return response_201

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | RaceCreated]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: None | RaceCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | RaceCreated]:
    """Open a race

     Opens a race, in its lobby: a shared deal whose `deck_commitment` is published now and
    revealed when the race is over. The opener is its first racer (a guest gets its
    `racer_token`, shown only in this response and in its replays under the same
    `Idempotency-Key`; an account sends its key, as for `POST /games`), and the computer its
    second with `computer: true`. Others join with `POST /races/{id}/racers` until it is
    full (it then starts by itself) or the opener starts it.

    Args:
        idempotency_key (str | Unset):
        body (None | RaceCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RaceCreated]
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
    body: None | RaceCreate,
    idempotency_key: str | Unset = UNSET,
) -> Problem | RaceCreated | None:
    """Open a race

     Opens a race, in its lobby: a shared deal whose `deck_commitment` is published now and
    revealed when the race is over. The opener is its first racer (a guest gets its
    `racer_token`, shown only in this response and in its replays under the same
    `Idempotency-Key`; an account sends its key, as for `POST /games`), and the computer its
    second with `computer: true`. Others join with `POST /races/{id}/racers` until it is
    full (it then starts by itself) or the opener starts it.

    Args:
        idempotency_key (str | Unset):
        body (None | RaceCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RaceCreated
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: None | RaceCreate,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | RaceCreated]:
    """Open a race

     Opens a race, in its lobby: a shared deal whose `deck_commitment` is published now and
    revealed when the race is over. The opener is its first racer (a guest gets its
    `racer_token`, shown only in this response and in its replays under the same
    `Idempotency-Key`; an account sends its key, as for `POST /games`), and the computer its
    second with `computer: true`. Others join with `POST /races/{id}/racers` until it is
    full (it then starts by itself) or the opener starts it.

    Args:
        idempotency_key (str | Unset):
        body (None | RaceCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RaceCreated]
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
    body: None | RaceCreate,
    idempotency_key: str | Unset = UNSET,
) -> Problem | RaceCreated | None:
    """Open a race

     Opens a race, in its lobby: a shared deal whose `deck_commitment` is published now and
    revealed when the race is over. The opener is its first racer (a guest gets its
    `racer_token`, shown only in this response and in its replays under the same
    `Idempotency-Key`; an account sends its key, as for `POST /games`), and the computer its
    second with `computer: true`. Others join with `POST /races/{id}/racers` until it is
    full (it then starts by itself) or the opener starts it.

    Args:
        idempotency_key (str | Unset):
        body (None | RaceCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RaceCreated
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed

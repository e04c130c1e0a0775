from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.race_created import RaceCreated
from ...models.racer_in import RacerIn
from ...types import UNSET, Response, Unset


def _get_kwargs(
    race_id: str,
    *,
    body: None | RacerIn,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/races/{race_id}/racers".format(
            race_id=quote(str(race_id), safe=""),
        ),
    }

    if isinstance(body, RacerIn):
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
    race_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: None | RacerIn,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | RaceCreated]:
    """Join a race

     Joins a race in its lobby (`409 race_not_open` once it has started or is full; `409
    name_taken` for a name racing in it already). The race starts by itself when this fills
    its last seat. A guest's `racer_token` is shown only in this response and in its replays:
    with an `Idempotency-Key`, a retry of a join whose answer was lost gets the same seat and
    token rather than `409 name_taken`.

    Args:
        race_id (str):
        idempotency_key (str | Unset):
        body (None | RacerIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RaceCreated]
    """

    kwargs = _get_kwargs(
        race_id=race_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    race_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: None | RacerIn,
    idempotency_key: str | Unset = UNSET,
) -> Problem | RaceCreated | None:
    """Join a race

     Joins a race in its lobby (`409 race_not_open` once it has started or is full; `409
    name_taken` for a name racing in it already). The race starts by itself when this fills
    its last seat. A guest's `racer_token` is shown only in this response and in its replays:
    with an `Idempotency-Key`, a retry of a join whose answer was lost gets the same seat and
    token rather than `409 name_taken`.

    Args:
        race_id (str):
        idempotency_key (str | Unset):
        body (None | RacerIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RaceCreated
    """

    return sync_detailed(
        race_id=race_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    race_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: None | RacerIn,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | RaceCreated]:
    """Join a race

     Joins a race in its lobby (`409 race_not_open` once it has started or is full; `409
    name_taken` for a name racing in it already). The race starts by itself when this fills
    its last seat. A guest's `racer_token` is shown only in this response and in its replays:
    with an `Idempotency-Key`, a retry of a join whose answer was lost gets the same seat and
    token rather than `409 name_taken`.

    Args:
        race_id (str):
        idempotency_key (str | Unset):
        body (None | RacerIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RaceCreated]
    """

    kwargs = _get_kwargs(
        race_id=race_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    race_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: None | RacerIn,
    idempotency_key: str | Unset = UNSET,
) -> Problem | RaceCreated | None:
    """Join a race

     Joins a race in its lobby (`409 race_not_open` once it has started or is full; `409
    name_taken` for a name racing in it already). The race starts by itself when this fills
    its last seat. A guest's `racer_token` is shown only in this response and in its replays:
    with an `Idempotency-Key`, a retry of a join whose answer was lost gets the same seat and
    token rather than `409 name_taken`.

    Args:
        race_id (str):
        idempotency_key (str | Unset):
        body (None | RacerIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RaceCreated
    """

    return (
        await asyncio_detailed(
            race_id=race_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed

from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.entrant_in import EntrantIn
from ...models.joined import Joined
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    tournament_id: str,
    *,
    body: EntrantIn | None,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/tournaments/{tournament_id}/entrants".format(
            tournament_id=quote(str(tournament_id), safe=""),
        ),
    }

    if isinstance(body, EntrantIn):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Joined | Problem | None:
    if response.status_code == 201:
        response_201 = Joined.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Joined | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tournament_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: EntrantIn | None,
    idempotency_key: str | Unset = UNSET,
) -> Response[Joined | Problem]:
    """Join a tournament

     Enters a tournament while it is announced or running: an account with its key, or a
    guest with `{"name": ...}` where `guests` is true (`403 guests_not_allowed` otherwise).
    A guest's `token` is shown only here and to a retry with the same `Idempotency-Key`.

    Args:
        tournament_id (str):
        idempotency_key (str | Unset):
        body (EntrantIn | None):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Joined | Problem]
    """

    kwargs = _get_kwargs(
        tournament_id=tournament_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tournament_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: EntrantIn | None,
    idempotency_key: str | Unset = UNSET,
) -> Joined | Problem | None:
    """Join a tournament

     Enters a tournament while it is announced or running: an account with its key, or a
    guest with `{"name": ...}` where `guests` is true (`403 guests_not_allowed` otherwise).
    A guest's `token` is shown only here and to a retry with the same `Idempotency-Key`.

    Args:
        tournament_id (str):
        idempotency_key (str | Unset):
        body (EntrantIn | None):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Joined | Problem
    """

    return sync_detailed(
        tournament_id=tournament_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    tournament_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: EntrantIn | None,
    idempotency_key: str | Unset = UNSET,
) -> Response[Joined | Problem]:
    """Join a tournament

     Enters a tournament while it is announced or running: an account with its key, or a
    guest with `{"name": ...}` where `guests` is true (`403 guests_not_allowed` otherwise).
    A guest's `token` is shown only here and to a retry with the same `Idempotency-Key`.

    Args:
        tournament_id (str):
        idempotency_key (str | Unset):
        body (EntrantIn | None):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Joined | Problem]
    """

    kwargs = _get_kwargs(
        tournament_id=tournament_id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tournament_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: EntrantIn | None,
    idempotency_key: str | Unset = UNSET,
) -> Joined | Problem | None:
    """Join a tournament

     Enters a tournament while it is announced or running: an account with its key, or a
    guest with `{"name": ...}` where `guests` is true (`403 guests_not_allowed` otherwise).
    A guest's `token` is shown only here and to a retry with the same `Idempotency-Key`.

    Args:
        tournament_id (str):
        idempotency_key (str | Unset):
        body (EntrantIn | None):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Joined | Problem
    """

    return (
        await asyncio_detailed(
            tournament_id=tournament_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed

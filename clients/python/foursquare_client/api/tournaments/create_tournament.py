from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.tournament_create import TournamentCreate
from ...models.tournament_out import TournamentOut
from ...types import Response


def _get_kwargs(
    *,
    body: TournamentCreate,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/tournaments",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TournamentOut | None:
    if response.status_code == 201:
        response_201 = TournamentOut.from_dict(response.json())

        return response_201

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

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
) -> Response[Problem | TournamentOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: TournamentCreate,
) -> Response[Problem | TournamentOut]:
    """Create a tournament

     An operator's new tournament (`Authorization: Bearer` a key of
    `FOURSQUARE_OPERATOR_KEYS`), `announced` with its deals committed (`commitments`); a
    `starts_at` already past starts it at once (`running`).

    Args:
        body (TournamentCreate): A new tournament (an operator's). A start in the past starts it
            at once.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TournamentOut]
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
    client: AuthenticatedClient,
    body: TournamentCreate,
) -> Problem | TournamentOut | None:
    """Create a tournament

     An operator's new tournament (`Authorization: Bearer` a key of
    `FOURSQUARE_OPERATOR_KEYS`), `announced` with its deals committed (`commitments`); a
    `starts_at` already past starts it at once (`running`).

    Args:
        body (TournamentCreate): A new tournament (an operator's). A start in the past starts it
            at once.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TournamentOut
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TournamentCreate,
) -> Response[Problem | TournamentOut]:
    """Create a tournament

     An operator's new tournament (`Authorization: Bearer` a key of
    `FOURSQUARE_OPERATOR_KEYS`), `announced` with its deals committed (`commitments`); a
    `starts_at` already past starts it at once (`running`).

    Args:
        body (TournamentCreate): A new tournament (an operator's). A start in the past starts it
            at once.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TournamentOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: TournamentCreate,
) -> Problem | TournamentOut | None:
    """Create a tournament

     An operator's new tournament (`Authorization: Bearer` a key of
    `FOURSQUARE_OPERATOR_KEYS`), `announced` with its deals committed (`commitments`); a
    `starts_at` already past starts it at once (`running`).

    Args:
        body (TournamentCreate): A new tournament (an operator's). A start in the past starts it
            at once.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TournamentOut
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    tournament_id: str,
    *,
    last_event_id: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/tournaments/{tournament_id}/events".format(
            tournament_id=quote(str(tournament_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | str]:
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
    last_event_id: None | str | Unset = UNSET,
) -> Response[Problem | str]:
    """Watch a tournament

     A tournament's events from its announcement: `joined`, `left`, `started`,
    `deal_finished` (an entrant's standing, never a card), `standings` (the first ten) after
    each change, `ended`, then `final` (the stream closes) or `cancelled`. With
    `Last-Event-ID` only what came after it is sent.

    Args:
        tournament_id (str):
        last_event_id (None | str | Unset): The `id` of the last event received: the stream sends
            what came after.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        tournament_id=tournament_id,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tournament_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Problem | str | None:
    """Watch a tournament

     A tournament's events from its announcement: `joined`, `left`, `started`,
    `deal_finished` (an entrant's standing, never a card), `standings` (the first ten) after
    each change, `ended`, then `final` (the stream closes) or `cancelled`. With
    `Last-Event-ID` only what came after it is sent.

    Args:
        tournament_id (str):
        last_event_id (None | str | Unset): The `id` of the last event received: the stream sends
            what came after.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        tournament_id=tournament_id,
        client=client,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    tournament_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Response[Problem | str]:
    """Watch a tournament

     A tournament's events from its announcement: `joined`, `left`, `started`,
    `deal_finished` (an entrant's standing, never a card), `standings` (the first ten) after
    each change, `ended`, then `final` (the stream closes) or `cancelled`. With
    `Last-Event-ID` only what came after it is sent.

    Args:
        tournament_id (str):
        last_event_id (None | str | Unset): The `id` of the last event received: the stream sends
            what came after.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        tournament_id=tournament_id,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tournament_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Problem | str | None:
    """Watch a tournament

     A tournament's events from its announcement: `joined`, `left`, `started`,
    `deal_finished` (an entrant's standing, never a card), `standings` (the first ten) after
    each change, `ended`, then `final` (the stream closes) or `cancelled`. With
    `Last-Event-ID` only what came after it is sent.

    Args:
        tournament_id (str):
        last_event_id (None | str | Unset): The `id` of the last event received: the stream sends
            what came after.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            tournament_id=tournament_id,
            client=client,
            last_event_id=last_event_id,
        )
    ).parsed

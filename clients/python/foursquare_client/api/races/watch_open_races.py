from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    last_event_id: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/races/open/events",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

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
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Response[Problem | str]:
    """Watch the open races

     The open races as they change, for a list kept live: first `opened` for each of the
    newest 30 open races (oldest first), then `opened` when a public race is opened,
    `changed` when a racer joins or leaves one, and `closed` when one starts, fills or
    closes (or falls out of the newest 30). Each event's `id` says where the stream stands:
    with `Last-Event-ID` only what changed since is sent. Anyone may watch.

    Args:
        last_event_id (None | str | Unset): The `id` of the last event received: the stream sends
            what changed since.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Problem | str | None:
    """Watch the open races

     The open races as they change, for a list kept live: first `opened` for each of the
    newest 30 open races (oldest first), then `opened` when a public race is opened,
    `changed` when a racer joins or leaves one, and `closed` when one starts, fills or
    closes (or falls out of the newest 30). Each event's `id` says where the stream stands:
    with `Last-Event-ID` only what changed since is sent. Anyone may watch.

    Args:
        last_event_id (None | str | Unset): The `id` of the last event received: the stream sends
            what changed since.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        client=client,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Response[Problem | str]:
    """Watch the open races

     The open races as they change, for a list kept live: first `opened` for each of the
    newest 30 open races (oldest first), then `opened` when a public race is opened,
    `changed` when a racer joins or leaves one, and `closed` when one starts, fills or
    closes (or falls out of the newest 30). Each event's `id` says where the stream stands:
    with `Last-Event-ID` only what changed since is sent. Anyone may watch.

    Args:
        last_event_id (None | str | Unset): The `id` of the last event received: the stream sends
            what changed since.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Problem | str | None:
    """Watch the open races

     The open races as they change, for a list kept live: first `opened` for each of the
    newest 30 open races (oldest first), then `opened` when a public race is opened,
    `changed` when a racer joins or leaves one, and `closed` when one starts, fills or
    closes (or falls out of the newest 30). Each event's `id` says where the stream stands:
    with `Last-Event-ID` only what changed since is sent. Anyone may watch.

    Args:
        last_event_id (None | str | Unset): The `id` of the last event received: the stream sends
            what changed since.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            client=client,
            last_event_id=last_event_id,
        )
    ).parsed

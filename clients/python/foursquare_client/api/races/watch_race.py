from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    race_id: str,
    *,
    last_event_id: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/races/{race_id}/events".format(
            race_id=quote(str(race_id), safe=""),
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
    race_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Response[Problem | str]:
    """Watch a race

     A race's events, from its opening: `joined` and `left` in its lobby, `countdown`,
    `started` when the games are dealt, a racer's `progress` as it places and `finished`
    when its game is over (counts only, never a card), `result` when the race is over, and
    `rematch` when a racer opens the next race; the stream closes after it (or after `closed`,
    when a lobby nobody joined or left for a while is closed). Each event's
    `id` says where the stream stands: with `Last-Event-ID` only what came after it is sent
    (each racer's counts as they are now), then the stream goes on live. Anyone may watch.

    Args:
        race_id (str):
        last_event_id (None | str | Unset): The `id` of the last event received (a browser's
            EventSource sends it when it reconnects): the stream sends what came after it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        race_id=race_id,
        last_event_id=last_event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    race_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Problem | str | None:
    """Watch a race

     A race's events, from its opening: `joined` and `left` in its lobby, `countdown`,
    `started` when the games are dealt, a racer's `progress` as it places and `finished`
    when its game is over (counts only, never a card), `result` when the race is over, and
    `rematch` when a racer opens the next race; the stream closes after it (or after `closed`,
    when a lobby nobody joined or left for a while is closed). Each event's
    `id` says where the stream stands: with `Last-Event-ID` only what came after it is sent
    (each racer's counts as they are now), then the stream goes on live. Anyone may watch.

    Args:
        race_id (str):
        last_event_id (None | str | Unset): The `id` of the last event received (a browser's
            EventSource sends it when it reconnects): the stream sends what came after it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        race_id=race_id,
        client=client,
        last_event_id=last_event_id,
    ).parsed


async def asyncio_detailed(
    race_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Response[Problem | str]:
    """Watch a race

     A race's events, from its opening: `joined` and `left` in its lobby, `countdown`,
    `started` when the games are dealt, a racer's `progress` as it places and `finished`
    when its game is over (counts only, never a card), `result` when the race is over, and
    `rematch` when a racer opens the next race; the stream closes after it (or after `closed`,
    when a lobby nobody joined or left for a while is closed). Each event's
    `id` says where the stream stands: with `Last-Event-ID` only what came after it is sent
    (each racer's counts as they are now), then the stream goes on live. Anyone may watch.

    Args:
        race_id (str):
        last_event_id (None | str | Unset): The `id` of the last event received (a browser's
            EventSource sends it when it reconnects): the stream sends what came after it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        race_id=race_id,
        last_event_id=last_event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    race_id: str,
    *,
    client: AuthenticatedClient | Client,
    last_event_id: None | str | Unset = UNSET,
) -> Problem | str | None:
    """Watch a race

     A race's events, from its opening: `joined` and `left` in its lobby, `countdown`,
    `started` when the games are dealt, a racer's `progress` as it places and `finished`
    when its game is over (counts only, never a card), `result` when the race is over, and
    `rematch` when a racer opens the next race; the stream closes after it (or after `closed`,
    when a lobby nobody joined or left for a while is closed). Each event's
    `id` says where the stream stands: with `Last-Event-ID` only what came after it is sent
    (each racer's counts as they are now), then the stream goes on live. Anyone may watch.

    Args:
        race_id (str):
        last_event_id (None | str | Unset): The `id` of the last event received (a browser's
            EventSource sends it when it reconnects): the stream sends what came after it.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            race_id=race_id,
            client=client,
            last_event_id=last_event_id,
        )
    ).parsed

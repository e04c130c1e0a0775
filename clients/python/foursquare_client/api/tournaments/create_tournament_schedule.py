from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.schedule_in import ScheduleIn
from ...models.schedule_out import ScheduleOut
from ...types import Response


def _get_kwargs(
    *,
    body: ScheduleIn,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/tournament-schedules",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | ScheduleOut | None:
    if response.status_code == 201:
        response_201 = ScheduleOut.from_dict(response.json())

        return response_201

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | ScheduleOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ScheduleIn,
) -> Response[Problem | ScheduleOut]:
    """Schedule recurring tournaments

     From now on a tournament starts at each time of `cron` (UTC), each announced
    `announce_ahead_minutes` before its start (`GET /tournaments` lists it from then on, open
    to entrants). `422` for a cron expression `croniter` refuses (its reason in `errors`) or
    one that fires more often than `duration_minutes` (the tournaments would overlap).

    Args:
        body (ScheduleIn): A recurring tournament: one starts at each time of `cron` (UTC), lasts
            `duration_minutes`, and is announced `announce_ahead_minutes` before its start. Values are
            taken as JSON gives them: `true`, not `"yes"`; `5`, not `"5"`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ScheduleOut]
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
    body: ScheduleIn,
) -> Problem | ScheduleOut | None:
    """Schedule recurring tournaments

     From now on a tournament starts at each time of `cron` (UTC), each announced
    `announce_ahead_minutes` before its start (`GET /tournaments` lists it from then on, open
    to entrants). `422` for a cron expression `croniter` refuses (its reason in `errors`) or
    one that fires more often than `duration_minutes` (the tournaments would overlap).

    Args:
        body (ScheduleIn): A recurring tournament: one starts at each time of `cron` (UTC), lasts
            `duration_minutes`, and is announced `announce_ahead_minutes` before its start. Values are
            taken as JSON gives them: `true`, not `"yes"`; `5`, not `"5"`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ScheduleOut
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ScheduleIn,
) -> Response[Problem | ScheduleOut]:
    """Schedule recurring tournaments

     From now on a tournament starts at each time of `cron` (UTC), each announced
    `announce_ahead_minutes` before its start (`GET /tournaments` lists it from then on, open
    to entrants). `422` for a cron expression `croniter` refuses (its reason in `errors`) or
    one that fires more often than `duration_minutes` (the tournaments would overlap).

    Args:
        body (ScheduleIn): A recurring tournament: one starts at each time of `cron` (UTC), lasts
            `duration_minutes`, and is announced `announce_ahead_minutes` before its start. Values are
            taken as JSON gives them: `true`, not `"yes"`; `5`, not `"5"`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ScheduleOut]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ScheduleIn,
) -> Problem | ScheduleOut | None:
    """Schedule recurring tournaments

     From now on a tournament starts at each time of `cron` (UTC), each announced
    `announce_ahead_minutes` before its start (`GET /tournaments` lists it from then on, open
    to entrants). `422` for a cron expression `croniter` refuses (its reason in `errors`) or
    one that fires more often than `duration_minutes` (the tournaments would overlap).

    Args:
        body (ScheduleIn): A recurring tournament: one starts at each time of `cron` (UTC), lasts
            `duration_minutes`, and is announced `announce_ahead_minutes` before its start. Values are
            taken as JSON gives them: `true`, not `"yes"`; `5`, not `"5"`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ScheduleOut
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

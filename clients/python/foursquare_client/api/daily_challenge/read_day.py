from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.daily_challenge import DailyChallenge
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    day: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/challenges/{day}".format(
            day=quote(str(day), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DailyChallenge | Problem | None:
    if response.status_code == 200:
        response_200 = DailyChallenge.from_dict(response.json())

        return response_200

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[DailyChallenge | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    day: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[DailyChallenge | Problem]:
    """Read one day's daily challenge

     One deal per UTC day, the same for every player, derived from a server secret and the
    date. `deck_commitment` is published from the day's start (every challenge game of the day
    carries it); `reveal` (the deck and the salt) once the day has closed, at `closes_at`:
    `sha256(f"{salt}:{','.join(deck)}")` is then the commitment. Play it with
    `POST /games {"challenge": "daily"}` and a player's key; its board is
    `GET /leaderboard?challenge={date}`. Asked with a player's key, `your_game_id` names their
    game of the day, if they have started it. `day` is `YYYY-MM-DD` (or `today`), from
    2026-01-01 to today: a day still to come is `404 challenge_not_open` (nobody has played it
    and its commitment is not published yet).

    Args:
        day (str): `YYYY-MM-DD` from 2026-01-01, or `today`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DailyChallenge | Problem]
    """

    kwargs = _get_kwargs(
        day=day,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    day: str,
    *,
    client: AuthenticatedClient | Client,
) -> DailyChallenge | Problem | None:
    """Read one day's daily challenge

     One deal per UTC day, the same for every player, derived from a server secret and the
    date. `deck_commitment` is published from the day's start (every challenge game of the day
    carries it); `reveal` (the deck and the salt) once the day has closed, at `closes_at`:
    `sha256(f"{salt}:{','.join(deck)}")` is then the commitment. Play it with
    `POST /games {"challenge": "daily"}` and a player's key; its board is
    `GET /leaderboard?challenge={date}`. Asked with a player's key, `your_game_id` names their
    game of the day, if they have started it. `day` is `YYYY-MM-DD` (or `today`), from
    2026-01-01 to today: a day still to come is `404 challenge_not_open` (nobody has played it
    and its commitment is not published yet).

    Args:
        day (str): `YYYY-MM-DD` from 2026-01-01, or `today`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DailyChallenge | Problem
    """

    return sync_detailed(
        day=day,
        client=client,
    ).parsed


async def asyncio_detailed(
    day: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[DailyChallenge | Problem]:
    """Read one day's daily challenge

     One deal per UTC day, the same for every player, derived from a server secret and the
    date. `deck_commitment` is published from the day's start (every challenge game of the day
    carries it); `reveal` (the deck and the salt) once the day has closed, at `closes_at`:
    `sha256(f"{salt}:{','.join(deck)}")` is then the commitment. Play it with
    `POST /games {"challenge": "daily"}` and a player's key; its board is
    `GET /leaderboard?challenge={date}`. Asked with a player's key, `your_game_id` names their
    game of the day, if they have started it. `day` is `YYYY-MM-DD` (or `today`), from
    2026-01-01 to today: a day still to come is `404 challenge_not_open` (nobody has played it
    and its commitment is not published yet).

    Args:
        day (str): `YYYY-MM-DD` from 2026-01-01, or `today`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DailyChallenge | Problem]
    """

    kwargs = _get_kwargs(
        day=day,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    day: str,
    *,
    client: AuthenticatedClient | Client,
) -> DailyChallenge | Problem | None:
    """Read one day's daily challenge

     One deal per UTC day, the same for every player, derived from a server secret and the
    date. `deck_commitment` is published from the day's start (every challenge game of the day
    carries it); `reveal` (the deck and the salt) once the day has closed, at `closes_at`:
    `sha256(f"{salt}:{','.join(deck)}")` is then the commitment. Play it with
    `POST /games {"challenge": "daily"}` and a player's key; its board is
    `GET /leaderboard?challenge={date}`. Asked with a player's key, `your_game_id` names their
    game of the day, if they have started it. `day` is `YYYY-MM-DD` (or `today`), from
    2026-01-01 to today: a day still to come is `404 challenge_not_open` (nobody has played it
    and its commitment is not published yet).

    Args:
        day (str): `YYYY-MM-DD` from 2026-01-01, or `today`.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DailyChallenge | Problem
    """

    return (
        await asyncio_detailed(
            day=day,
            client=client,
        )
    ).parsed

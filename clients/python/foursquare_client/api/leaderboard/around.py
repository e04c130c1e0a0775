from http import HTTPStatus
from typing import Any, Literal
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.around import Around
from ...models.around_period import AroundPeriod
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    period: AroundPeriod | Unset = "all",
    per_player: Literal["best"] | None | Unset = UNSET,
    include_assisted: bool | Unset = False,
    count: int | Unset = 5,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_period: str | Unset = UNSET
    if not isinstance(period, Unset):
        json_period = period

    params["period"] = json_period

    json_per_player: Literal["best"] | None | Unset
    if isinstance(per_player, Unset):
        json_per_player = UNSET
    else:
        json_per_player = per_player
    params["per_player"] = json_per_player

    params["include_assisted"] = include_assisted

    params["count"] = count

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/leaderboard/around/{game_id}".format(
            game_id=quote(str(game_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Around | Problem | None:
    if response.status_code == 200:
        response_200 = Around.from_dict(response.json())

        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Around | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    period: AroundPeriod | Unset = "all",
    per_player: Literal["best"] | None | Unset = UNSET,
    include_assisted: bool | Unset = False,
    count: int | Unset = 5,
) -> Response[Around | Problem]:
    """A game's place on the leaderboard

     A won game's rank on its board of `period` (all time, or the UTC day or ISO week it
    was won in), with the `count` entries just above and just below it, ranked as
    `GET /leaderboard` ranks them. With `per_player=best` the game must be its player's best
    of that board; without `include_assisted=true`, an assisted game is on no board. The rank
    costs a few counter reads, whatever the board's size.

    Args:
        game_id (str):
        period (AroundPeriod | Unset): `all` (every won game), `day` (won on one UTC calendar day)
            or `week` (won in one ISO week, Monday to Sunday, UTC). Default: 'all'.
        per_player (Literal['best'] | None | Unset): `best`: each player's best game only (a
            player is a name, compared ignoring case and width), ties to the earlier finish.
        include_assisted (bool | Unset): Also list games in which the player asked for hints.
            Default: False.
        count (int | Unset): Entries to show above and below the game. Default: 5.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Around | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        period=period,
        per_player=per_player,
        include_assisted=include_assisted,
        count=count,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    period: AroundPeriod | Unset = "all",
    per_player: Literal["best"] | None | Unset = UNSET,
    include_assisted: bool | Unset = False,
    count: int | Unset = 5,
) -> Around | Problem | None:
    """A game's place on the leaderboard

     A won game's rank on its board of `period` (all time, or the UTC day or ISO week it
    was won in), with the `count` entries just above and just below it, ranked as
    `GET /leaderboard` ranks them. With `per_player=best` the game must be its player's best
    of that board; without `include_assisted=true`, an assisted game is on no board. The rank
    costs a few counter reads, whatever the board's size.

    Args:
        game_id (str):
        period (AroundPeriod | Unset): `all` (every won game), `day` (won on one UTC calendar day)
            or `week` (won in one ISO week, Monday to Sunday, UTC). Default: 'all'.
        per_player (Literal['best'] | None | Unset): `best`: each player's best game only (a
            player is a name, compared ignoring case and width), ties to the earlier finish.
        include_assisted (bool | Unset): Also list games in which the player asked for hints.
            Default: False.
        count (int | Unset): Entries to show above and below the game. Default: 5.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Around | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        period=period,
        per_player=per_player,
        include_assisted=include_assisted,
        count=count,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    period: AroundPeriod | Unset = "all",
    per_player: Literal["best"] | None | Unset = UNSET,
    include_assisted: bool | Unset = False,
    count: int | Unset = 5,
) -> Response[Around | Problem]:
    """A game's place on the leaderboard

     A won game's rank on its board of `period` (all time, or the UTC day or ISO week it
    was won in), with the `count` entries just above and just below it, ranked as
    `GET /leaderboard` ranks them. With `per_player=best` the game must be its player's best
    of that board; without `include_assisted=true`, an assisted game is on no board. The rank
    costs a few counter reads, whatever the board's size.

    Args:
        game_id (str):
        period (AroundPeriod | Unset): `all` (every won game), `day` (won on one UTC calendar day)
            or `week` (won in one ISO week, Monday to Sunday, UTC). Default: 'all'.
        per_player (Literal['best'] | None | Unset): `best`: each player's best game only (a
            player is a name, compared ignoring case and width), ties to the earlier finish.
        include_assisted (bool | Unset): Also list games in which the player asked for hints.
            Default: False.
        count (int | Unset): Entries to show above and below the game. Default: 5.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Around | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        period=period,
        per_player=per_player,
        include_assisted=include_assisted,
        count=count,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    period: AroundPeriod | Unset = "all",
    per_player: Literal["best"] | None | Unset = UNSET,
    include_assisted: bool | Unset = False,
    count: int | Unset = 5,
) -> Around | Problem | None:
    """A game's place on the leaderboard

     A won game's rank on its board of `period` (all time, or the UTC day or ISO week it
    was won in), with the `count` entries just above and just below it, ranked as
    `GET /leaderboard` ranks them. With `per_player=best` the game must be its player's best
    of that board; without `include_assisted=true`, an assisted game is on no board. The rank
    costs a few counter reads, whatever the board's size.

    Args:
        game_id (str):
        period (AroundPeriod | Unset): `all` (every won game), `day` (won on one UTC calendar day)
            or `week` (won in one ISO week, Monday to Sunday, UTC). Default: 'all'.
        per_player (Literal['best'] | None | Unset): `best`: each player's best game only (a
            player is a name, compared ignoring case and width), ties to the earlier finish.
        include_assisted (bool | Unset): Also list games in which the player asked for hints.
            Default: False.
        count (int | Unset): Entries to show above and below the game. Default: 5.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Around | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            period=period,
            per_player=per_player,
            include_assisted=include_assisted,
            count=count,
        )
    ).parsed

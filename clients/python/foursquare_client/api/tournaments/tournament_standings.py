from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.standings import Standings
from ...types import UNSET, Response, Unset


def _get_kwargs(
    tournament_id: str,
    *,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    around: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params["limit"] = limit

    json_around: None | str | Unset
    if isinstance(around, Unset):
        json_around = UNSET
    else:
        json_around = around
    params["around"] = json_around

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/tournaments/{tournament_id}/standings".format(
            tournament_id=quote(str(tournament_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Standings | None:
    if response.status_code == 200:
        response_200 = Standings.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Standings]:
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
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    around: None | str | Unset = UNSET,
) -> Response[Problem | Standings]:
    """Read a tournament's standings

     The standings: score (descending), cards placed, the earlier last finish, then the
    joining order; `provisional` while it runs (every finished deal counts), `final` once
    the fair-play review has had its word (a flagged win scores 0), with each entry's
    `place` and `games`.

    Args:
        tournament_id (str):
        cursor (None | str | Unset): `next` of the previous page.
        limit (int | Unset):  Default: 50.
        around (None | str | Unset): An entrant's name: the page with it in the middle.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Standings]
    """

    kwargs = _get_kwargs(
        tournament_id=tournament_id,
        cursor=cursor,
        limit=limit,
        around=around,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tournament_id: str,
    *,
    client: AuthenticatedClient | Client,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    around: None | str | Unset = UNSET,
) -> Problem | Standings | None:
    """Read a tournament's standings

     The standings: score (descending), cards placed, the earlier last finish, then the
    joining order; `provisional` while it runs (every finished deal counts), `final` once
    the fair-play review has had its word (a flagged win scores 0), with each entry's
    `place` and `games`.

    Args:
        tournament_id (str):
        cursor (None | str | Unset): `next` of the previous page.
        limit (int | Unset):  Default: 50.
        around (None | str | Unset): An entrant's name: the page with it in the middle.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Standings
    """

    return sync_detailed(
        tournament_id=tournament_id,
        client=client,
        cursor=cursor,
        limit=limit,
        around=around,
    ).parsed


async def asyncio_detailed(
    tournament_id: str,
    *,
    client: AuthenticatedClient | Client,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    around: None | str | Unset = UNSET,
) -> Response[Problem | Standings]:
    """Read a tournament's standings

     The standings: score (descending), cards placed, the earlier last finish, then the
    joining order; `provisional` while it runs (every finished deal counts), `final` once
    the fair-play review has had its word (a flagged win scores 0), with each entry's
    `place` and `games`.

    Args:
        tournament_id (str):
        cursor (None | str | Unset): `next` of the previous page.
        limit (int | Unset):  Default: 50.
        around (None | str | Unset): An entrant's name: the page with it in the middle.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Standings]
    """

    kwargs = _get_kwargs(
        tournament_id=tournament_id,
        cursor=cursor,
        limit=limit,
        around=around,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tournament_id: str,
    *,
    client: AuthenticatedClient | Client,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
    around: None | str | Unset = UNSET,
) -> Problem | Standings | None:
    """Read a tournament's standings

     The standings: score (descending), cards placed, the earlier last finish, then the
    joining order; `provisional` while it runs (every finished deal counts), `final` once
    the fair-play review has had its word (a flagged win scores 0), with each entry's
    `place` and `games`.

    Args:
        tournament_id (str):
        cursor (None | str | Unset): `next` of the previous page.
        limit (int | Unset):  Default: 50.
        around (None | str | Unset): An entrant's name: the page with it in the middle.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Standings
    """

    return (
        await asyncio_detailed(
            tournament_id=tournament_id,
            client=client,
            cursor=cursor,
            limit=limit,
            around=around,
        )
    ).parsed

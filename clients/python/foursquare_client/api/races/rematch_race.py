from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.race_out import RaceOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    race_id: str,
    *,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/races/{race_id}/rematch".format(
            race_id=quote(str(race_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | RaceOut | None:
    if response.status_code == 200:
        response_200 = RaceOut.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = cast(Any, None)
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
) -> Response[Any | Problem | RaceOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    race_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[Any | Problem | RaceOut]:
    """Ask for a rematch

     Opens the next race for the same racers, with a new deal, once this one is over (a
    racer's credential): `201` for the racer who opened it, `200` with the same race for
    the others; the old race's `next_race` names it. Its racers are in its lobby, with the
    same credentials. A retry with the same `Idempotency-Key` and credential gets the
    original answer (`201` to its opener) with `Idempotent-Replayed: true`.

    Args:
        race_id (str):
        idempotency_key (None | str | Unset): Any unique string of 1-255 visible ASCII characters
            (a UUID is best) naming this request. A retry with the same key and body returns the
            original response with `Idempotent-Replayed: true` and changes nothing; the same key with
            another body is `422 idempotency_key_reused`; a retry while the first is still running is
            `409 request_in_progress`. Kept 24 hours.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | RaceOut]
    """

    kwargs = _get_kwargs(
        race_id=race_id,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    race_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: None | str | Unset = UNSET,
) -> Any | Problem | RaceOut | None:
    """Ask for a rematch

     Opens the next race for the same racers, with a new deal, once this one is over (a
    racer's credential): `201` for the racer who opened it, `200` with the same race for
    the others; the old race's `next_race` names it. Its racers are in its lobby, with the
    same credentials. A retry with the same `Idempotency-Key` and credential gets the
    original answer (`201` to its opener) with `Idempotent-Replayed: true`.

    Args:
        race_id (str):
        idempotency_key (None | str | Unset): Any unique string of 1-255 visible ASCII characters
            (a UUID is best) naming this request. A retry with the same key and body returns the
            original response with `Idempotent-Replayed: true` and changes nothing; the same key with
            another body is `422 idempotency_key_reused`; a retry while the first is still running is
            `409 request_in_progress`. Kept 24 hours.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | RaceOut
    """

    return sync_detailed(
        race_id=race_id,
        client=client,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    race_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[Any | Problem | RaceOut]:
    """Ask for a rematch

     Opens the next race for the same racers, with a new deal, once this one is over (a
    racer's credential): `201` for the racer who opened it, `200` with the same race for
    the others; the old race's `next_race` names it. Its racers are in its lobby, with the
    same credentials. A retry with the same `Idempotency-Key` and credential gets the
    original answer (`201` to its opener) with `Idempotent-Replayed: true`.

    Args:
        race_id (str):
        idempotency_key (None | str | Unset): Any unique string of 1-255 visible ASCII characters
            (a UUID is best) naming this request. A retry with the same key and body returns the
            original response with `Idempotent-Replayed: true` and changes nothing; the same key with
            another body is `422 idempotency_key_reused`; a retry while the first is still running is
            `409 request_in_progress`. Kept 24 hours.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | RaceOut]
    """

    kwargs = _get_kwargs(
        race_id=race_id,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    race_id: str,
    *,
    client: AuthenticatedClient,
    idempotency_key: None | str | Unset = UNSET,
) -> Any | Problem | RaceOut | None:
    """Ask for a rematch

     Opens the next race for the same racers, with a new deal, once this one is over (a
    racer's credential): `201` for the racer who opened it, `200` with the same race for
    the others; the old race's `next_race` names it. Its racers are in its lobby, with the
    same credentials. A retry with the same `Idempotency-Key` and credential gets the
    original answer (`201` to its opener) with `Idempotent-Replayed: true`.

    Args:
        race_id (str):
        idempotency_key (None | str | Unset): Any unique string of 1-255 visible ASCII characters
            (a UUID is best) naming this request. A retry with the same key and body returns the
            original response with `Idempotent-Replayed: true` and changes nothing; the same key with
            another body is `422 idempotency_key_reused`; a retry while the first is still running is
            `409 request_in_progress`. Kept 24 hours.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | RaceOut
    """

    return (
        await asyncio_detailed(
            race_id=race_id,
            client=client,
            idempotency_key=idempotency_key,
        )
    ).parsed

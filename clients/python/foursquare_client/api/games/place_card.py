from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.placement_created import PlacementCreated
from ...models.placement_in import PlacementIn
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    body: PlacementIn,
    if_match: None | str | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["if-match"] = if_match

    if not isinstance(idempotency_key, Unset):
        headers["idempotency-key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/games/{game_id}/placements".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PlacementCreated | Problem | None:
    if response.status_code == 201:
        response_201 = PlacementCreated.from_dict(response.json())

        return response_201

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

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
) -> Response[PlacementCreated | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: PlacementIn,
    if_match: None | str | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[PlacementCreated | Problem]:
    """Place the current card

     Places the current card at `(row, col)`: on an existing pile that holds fewer than four
    cards, or as a new pile next to one, within a 4 x 4 grid. Answers with the placement (what
    it flipped) and the game after it. Needs the game's token. Send `If-Match` with the ETag
    you last saw to be sure no other placement came first, and an `Idempotency-Key` to retry
    safely.

    Args:
        game_id (str):
        if_match (None | str | Unset): Place only if the game's ETag is still this one (else
            `412`).
        idempotency_key (None | str | Unset): Any unique string of 1-255 visible ASCII characters
            (a UUID is best) naming this request. A retry with the same key and body returns the
            original response with `Idempotent-Replayed: true` and changes nothing; the same key with
            another body is `422 idempotency_key_reused`; a retry while the first is still running is
            `409 request_in_progress`. Kept 24 hours.
        body (PlacementIn): Where to put the current card.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlacementCreated | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        if_match=if_match,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: PlacementIn,
    if_match: None | str | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> PlacementCreated | Problem | None:
    """Place the current card

     Places the current card at `(row, col)`: on an existing pile that holds fewer than four
    cards, or as a new pile next to one, within a 4 x 4 grid. Answers with the placement (what
    it flipped) and the game after it. Needs the game's token. Send `If-Match` with the ETag
    you last saw to be sure no other placement came first, and an `Idempotency-Key` to retry
    safely.

    Args:
        game_id (str):
        if_match (None | str | Unset): Place only if the game's ETag is still this one (else
            `412`).
        idempotency_key (None | str | Unset): Any unique string of 1-255 visible ASCII characters
            (a UUID is best) naming this request. A retry with the same key and body returns the
            original response with `Idempotent-Replayed: true` and changes nothing; the same key with
            another body is `422 idempotency_key_reused`; a retry while the first is still running is
            `409 request_in_progress`. Kept 24 hours.
        body (PlacementIn): Where to put the current card.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlacementCreated | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        body=body,
        if_match=if_match,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: PlacementIn,
    if_match: None | str | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> Response[PlacementCreated | Problem]:
    """Place the current card

     Places the current card at `(row, col)`: on an existing pile that holds fewer than four
    cards, or as a new pile next to one, within a 4 x 4 grid. Answers with the placement (what
    it flipped) and the game after it. Needs the game's token. Send `If-Match` with the ETag
    you last saw to be sure no other placement came first, and an `Idempotency-Key` to retry
    safely.

    Args:
        game_id (str):
        if_match (None | str | Unset): Place only if the game's ETag is still this one (else
            `412`).
        idempotency_key (None | str | Unset): Any unique string of 1-255 visible ASCII characters
            (a UUID is best) naming this request. A retry with the same key and body returns the
            original response with `Idempotent-Replayed: true` and changes nothing; the same key with
            another body is `422 idempotency_key_reused`; a retry while the first is still running is
            `409 request_in_progress`. Kept 24 hours.
        body (PlacementIn): Where to put the current card.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlacementCreated | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        if_match=if_match,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: PlacementIn,
    if_match: None | str | Unset = UNSET,
    idempotency_key: None | str | Unset = UNSET,
) -> PlacementCreated | Problem | None:
    """Place the current card

     Places the current card at `(row, col)`: on an existing pile that holds fewer than four
    cards, or as a new pile next to one, within a 4 x 4 grid. Answers with the placement (what
    it flipped) and the game after it. Needs the game's token. Send `If-Match` with the ETag
    you last saw to be sure no other placement came first, and an `Idempotency-Key` to retry
    safely.

    Args:
        game_id (str):
        if_match (None | str | Unset): Place only if the game's ETag is still this one (else
            `412`).
        idempotency_key (None | str | Unset): Any unique string of 1-255 visible ASCII characters
            (a UUID is best) naming this request. A retry with the same key and body returns the
            original response with `Idempotent-Replayed: true` and changes nothing; the same key with
            another body is `422 idempotency_key_reused`; a retry while the first is still running is
            `409 request_in_progress`. Kept 24 hours.
        body (PlacementIn): Where to put the current card.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlacementCreated | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            body=body,
            if_match=if_match,
            idempotency_key=idempotency_key,
        )
    ).parsed

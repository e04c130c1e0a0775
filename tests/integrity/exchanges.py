"""Recorded HTTP exchanges with real servers, and what every one of them must satisfy."""

from __future__ import annotations

import asyncio
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.integrity.verify import DatabaseReport, StoredPlacement

PROBLEM = "application/problem+json"
# Outcomes an Idempotency-Key keeps and replays; anything else releases the key.
UNSTORED_CODES = frozenset(
    {
        "version_conflict",
        "request_in_progress",
        "database_busy",
        "idempotency_key_reused",
        "game_not_found",
        "missing_token",
        "invalid_token",
        "invalid_request",
        "payload_too_large",
    }
)
TRANSPORT_ERRORS = (httpx.TransportError,)
# Errors HAProxy answers itself (deploy/haproxy.cfg): a replica died mid-request (502), none
# is ready (503), none answered in time (504).
PROXY_CODES = frozenset({"bad_gateway", "service_unavailable", "gateway_timeout"})


@dataclass
class Exchange:
    """One request and what came back (``status`` None: no answer, the connection failed)."""

    kind: str  # create, read, place, retry, ...
    server: str
    method: str
    path: str
    game_id: str | None = None
    key: str | None = None
    request_body: Any = None
    if_match: str | None = None
    status: int | None = None
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    error: str | None = None

    @property
    def replayed(self) -> bool:
        return self.headers.get("idempotent-replayed") == "true"

    @property
    def code(self) -> str | None:
        return self.body.get("code") if isinstance(self.body, dict) else None

    @property
    def label(self) -> str:
        if self.status is None:
            return "no answer"
        return f"{self.status} {self.code}" if self.code else str(self.status)

    @property
    def is_placement(self) -> bool:
        return self.method == "POST" and self.path.endswith("/placements")

    @property
    def stored_outcome(self) -> bool:
        """Whether an ``Idempotency-Key`` keeps this answer (and must replay it)."""
        if self.status is None or self.status >= 500:
            return False
        return self.status < 400 or self.code not in UNSTORED_CODES

    def placement(self) -> StoredPlacement | None:
        if self.status != 201 or not self.is_placement or not isinstance(self.body, dict):
            return None
        placed = self.body["placement"]
        return StoredPlacement(
            placed["number"], placed["row"], placed["col"], placed["card"]["code"]
        )

    def describe(self) -> str:
        return (
            f"{self.kind} {self.method} {self.server}{self.path} key={self.key} "
            f"if-match={self.if_match} body={self.request_body} -> {self.label}"
        )


class Recorder:
    """Async HTTP clients for several servers; every exchange is kept."""

    def __init__(self, base_urls: Sequence[str], *, timeout: float = 30.0) -> None:
        limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
        self.clients = {
            url: httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits)
            for url in base_urls
        }
        self.exchanges: list[Exchange] = []

    @property
    def servers(self) -> list[str]:
        return list(self.clients)

    async def close(self) -> None:
        await asyncio.gather(*(client.aclose() for client in self.clients.values()))

    async def send(
        self,
        kind: str,
        server: str,
        method: str,
        path: str,
        *,
        game_id: str | None = None,
        key: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Exchange:
        headers = dict(headers or {})
        if key is not None:
            headers["Idempotency-Key"] = key
        exchange = Exchange(
            kind=kind,
            server=server,
            method=method,
            path=path,
            game_id=game_id,
            key=key,
            request_body=body,
            if_match=headers.get("If-Match"),
        )
        self.exchanges.append(exchange)
        try:
            response = await self.clients[server].request(method, path, json=body, headers=headers)
        except TRANSPORT_ERRORS as exc:
            exchange.error = type(exc).__name__
            return exchange
        exchange.status = response.status_code
        exchange.headers = {name.lower(): value for name, value in response.headers.items()}
        if response.content:
            try:
                exchange.body = response.json()
            except ValueError:
                exchange.body = response.text
        return exchange


# ----------------------------------------------------------------------------- checks


def check_problems(exchanges: Iterable[Exchange], *, proxy_errors: bool = False) -> None:
    """No 500 ever; every error is problem+json with a code; every 503 says when to retry.
    With ``proxy_errors`` (servers killed behind a proxy), the proxy's own 502/503/504 may
    come too, and must say when to retry; without, none may."""
    for exchange in exchanges:
        if exchange.status is None or exchange.status < 400:
            continue
        assert exchange.status != 500, exchange.describe() + f" {exchange.body}"
        assert exchange.headers.get("content-type", "").startswith(PROBLEM), exchange.describe()
        assert exchange.code, exchange.describe()
        if exchange.code in PROXY_CODES:
            assert proxy_errors, exchange.describe()
            assert int(exchange.headers["retry-after"]) >= 0, exchange.describe()
        elif exchange.status == 503:
            assert exchange.code == "database_busy", exchange.describe()
            assert int(exchange.headers["retry-after"]) >= 0, exchange.describe()
        if exchange.code == "precondition_failed":
            current = exchange.body["current_version"]
            assert exchange.if_match != f'"v{current}"', exchange.describe()
            assert exchange.headers.get("etag") == f'"v{current}"', exchange.describe()


def check_accepted(
    exchanges: Sequence[Exchange], report: DatabaseReport, *, all_acknowledged: bool
) -> int:
    """Every 201 placement (first answer or replay) is stored as it says; no placement is
    acknowledged twice as new. With ``all_acknowledged``, every stored placement was
    acknowledged by exactly one first answer. Returns the number of first answers checked."""
    acknowledged: dict[tuple[str, int], Exchange] = {}
    for exchange in exchanges:
        placement = exchange.placement()
        if placement is None:
            continue
        assert exchange.game_id is not None
        game = report.games[exchange.game_id]
        assert game.placement(placement.number) == placement, (
            f"{exchange.describe()}: answered {placement}, stored "
            f"{game.placement(placement.number)}"
        )
        answered_game = exchange.body["game"]
        assert answered_game["version"] == placement.number + 1, exchange.describe()
        assert exchange.headers["etag"] == f'"v{placement.number + 1}"', exchange.describe()
        if exchange.replayed:
            continue
        slot = (exchange.game_id, placement.number)
        assert slot not in acknowledged, (
            f"placement {slot} acknowledged twice as new: {acknowledged[slot].describe()} and "
            f"{exchange.describe()}"
        )
        acknowledged[slot] = exchange
    if all_acknowledged:
        stored = {
            (game.id, placement.number)
            for game in report.games.values()
            for placement in game.placements
        }
        assert stored == set(acknowledged), (
            f"stored but never acknowledged: {sorted(stored - acknowledged.keys())[:5]}"
        )
    return len(acknowledged)


def _comparable(exchange: Exchange) -> tuple[int | None, str, str | None, str | None]:
    headers = exchange.headers
    body = json.dumps(exchange.body, sort_keys=True)
    return exchange.status, body, headers.get("etag"), headers.get("content-type")


def check_replays(exchanges: Sequence[Exchange]) -> dict[str, int]:
    """Per ``Idempotency-Key``: at most one first answer is kept, and every replay equals it.

    Keys are per scope (``games``, or one game), so they are grouped by game as well."""
    by_key: dict[tuple[str | None, str], list[Exchange]] = defaultdict(list)
    for exchange in exchanges:
        if exchange.key is not None and exchange.status is not None:
            scope = exchange.game_id if exchange.is_placement else "games"
            by_key[(scope, exchange.key)].append(exchange)
    counts: Counter[str] = Counter()
    for (_, key), group in by_key.items():
        originals = [e for e in group if not e.replayed and e.stored_outcome]
        replays = [e for e in group if e.replayed]
        assert len(originals) <= 1, f"key {key} executed twice: " + "; ".join(
            e.describe() for e in originals
        )
        bodies = {json.dumps(e.request_body, sort_keys=True) for e in originals + replays}
        assert len(bodies) <= 1, f"key {key} replayed for another body: {bodies}"
        for replay in replays:
            assert replay.stored_outcome, replay.describe()
            if originals:
                assert _comparable(replay) == _comparable(originals[0]), (
                    f"replay differs from the original:\n  {originals[0].describe()} "
                    f"{originals[0].body}\n  {replay.describe()} {replay.body}"
                )
            else:
                counts["replays of lost answers"] += 1
        counts["keys"] += 1
        counts["replays"] += len(replays)
    return dict(counts)


# ----------------------------------------------------------------------------- figures


def figures(exchanges: Sequence[Exchange]) -> dict[str, Any]:
    """What was sent and what came back, for the report."""
    placements = [e for e in exchanges if e.is_placement]
    outcomes = Counter(e.label for e in exchanges if e.status is None or e.status >= 300)
    return {
        "requests_sent": len(exchanges),
        "placements_sent": len(placements),
        "placements_accepted_first_time": sum(
            1 for e in placements if e.status == 201 and not e.replayed
        ),
        "conflicts_refused": {
            "409 version_conflict": outcomes["409 version_conflict"],
            "412 precondition_failed": outcomes["412 precondition_failed"],
            "409 request_in_progress": outcomes["409 request_in_progress"],
        },
        "replays_served": sum(1 for e in exchanges if e.replayed),
        "not_modified_304": outcomes["304"],
        "errors_by_status": dict(sorted((k, v) for k, v in outcomes.items() if k != "304")),
        "status_500": sum(1 for e in exchanges if e.status == 500),
        "status_503_with_retry_after": sum(
            1 for e in exchanges if e.status == 503 and "retry-after" in e.headers
        ),
        "no_answer": dict(Counter(e.error for e in exchanges if e.status is None)),
    }

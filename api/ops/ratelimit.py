"""Rate limits per client address and per credential, with the `limits` library.

Each limited route names a category (create, place, hint, read). A request is counted against
the category's per-address limit and, when it carries a Bearer credential, against the
category's per-credential limit, keyed by a SHA-256 of the credential (never the secret
itself). The moving-window counters live in the process (``memory``) or, with
``FOURSQUARE_REDIS_URL``, in Redis, shared by every replica.

A refused request is refused by a route dependency, before the route touches the database.
Every answer of a limited route carries the ``RateLimit-Policy`` and ``RateLimit`` fields of
draft-ietf-httpapi-ratelimit-headers-10; a refusal also carries ``Retry-After``.

Failed sign-ins (a wrong recovery code, a passkey answer refused) are limited apart
(:meth:`RateLimiter.sign_in_refusal`, :meth:`RateLimiter.count_failed_sign_in`): only
failures count, per account and per address, on the same counters; while a limit is used up
no attempt is made at all, so guessing costs the guesser time, not the player.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from fastapi import Request, params
from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError

from api.core.context import current_request
from api.ops import metrics
from api.ops.errors import RateLimited, SignInLimited
from api.ops.settings import OpsSettings

log = logging.getLogger("foursquare.ratelimit")

Category = Literal["create", "place", "hint", "read"]
IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

# After Redis fails, the in-process counters stand in for this long before Redis is tried
# again: a dead Redis then costs one failed call per process per interval, not one a request.
REDIS_RETRY_SECONDS = 5.0
# redis-py's timeouts: a Redis that stopped answering must not hold requests for long.
REDIS_TIMEOUT_SECONDS = 0.5


@dataclass(frozen=True)
class Policy:
    """One limit of a category on one dimension (``address`` or ``credential``)."""

    name: str
    item: RateLimitItem

    @property
    def window(self) -> int:
        return int(self.item.get_expiry())


@dataclass(frozen=True)
class Outcome:
    policy: Policy
    allowed: bool
    remaining: int
    reset_seconds: int


def _policies(category: str, dimension: str, limits_text: str) -> tuple[Policy, ...]:
    items = parse_many(limits_text)
    if len(items) == 1:
        return (Policy(f"{category}-{dimension}", items[0]),)
    return tuple(
        Policy(f"{category}-{dimension}-{int(item.get_expiry())}s", item) for item in items
    )


def credential_key(authorization: str | None) -> str | None:
    """The key of a Bearer credential: a SHA-256 of it, so that no secret is ever stored."""
    if not authorization:
        return None
    scheme, _, credential = authorization.partition(" ")
    credential = credential.strip()
    if scheme.lower() != "bearer" or not credential:
        return None
    return hashlib.sha256(credential.encode()).hexdigest()


def _parse_address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def client_address(
    peer: str | None, forwarded_for: Sequence[str], trusted: Sequence[IpNetwork]
) -> str:
    """The client's address: the socket peer, unless the peer is a trusted proxy; then the
    right-most ``X-Forwarded-For`` entry that is not a trusted proxy (entries to its left
    were written by the client and prove nothing). Every entry trusted: the left-most."""
    peer_address = _parse_address(peer) if peer else None
    if peer_address is None:
        return peer or "unknown"
    if not any(peer_address in network for network in trusted):
        return str(peer_address)
    entries = [entry.strip() for value in forwarded_for for entry in value.split(",")]
    entries = [entry for entry in entries if entry]
    if not entries:
        return str(peer_address)
    for entry in reversed(entries):
        address = _parse_address(entry)
        if address is None:
            # Not an address: the proxy passed on something it did not write. Key by the
            # proxy-appended entry text as it is; it cannot be anyone else's.
            return entry[:64]
        if not any(address in network for network in trusted):
            return str(address)
    first = _parse_address(entries[0])
    return str(first) if first is not None else str(peer_address)


class RateLimiter:
    """The limits of one process: policies from the settings, counters in memory or Redis."""

    def __init__(self, settings: OpsSettings) -> None:
        self.trusted = list(settings.trusted_proxies)
        self.prefix = settings.rate_limit_key_prefix
        self.policies: dict[str, dict[str, tuple[Policy, ...]]] = {
            category: {
                "credential": _policies(
                    category, "credential", getattr(settings, f"rate_limit_{category}")
                ),
                "address": _policies(
                    category,
                    "address",
                    getattr(settings, f"rate_limit_{category}_per_address"),
                ),
            }
            for category in ("create", "place", "hint", "read")
        }
        self.sign_in: tuple[tuple[str, tuple[Policy, ...]], ...] = (
            ("account", _policies("sign-in-failures", "account", settings.sign_in_failures)),
            (
                "address",
                _policies("sign-in-failures", "address", settings.sign_in_failures_per_address),
            ),
        )
        self.local = MovingWindowRateLimiter(MemoryStorage())
        self.shared: MovingWindowRateLimiter | None = None
        if settings.redis_url:
            storage = RedisStorage(
                "async+" + settings.redis_url,
                wrap_exceptions=True,
                implementation="redispy",
                key_prefix=self.prefix,
                socket_timeout=REDIS_TIMEOUT_SECONDS,
                socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
            )
            self.shared = MovingWindowRateLimiter(storage)
        self._redis_down_until = 0.0

    async def check(self, category: str, address: str, credential: str | None) -> list[Outcome]:
        """Count one request; the outcome of every policy that applies to it."""
        wanted: list[tuple[Policy, str, str]] = [
            (policy, "address", address) for policy in self.policies[category]["address"]
        ]
        if credential is not None:
            wanted += [
                (policy, "credential", credential)
                for policy in self.policies[category]["credential"]
            ]
        if self.shared is not None and time.monotonic() >= self._redis_down_until:
            try:
                outcomes = await self._count(self.shared, category, wanted)
            except StorageError as error:
                # Fail over, never a 500: each process limits on its own until Redis is back.
                if self._redis_down_until == 0.0:
                    log.warning(
                        "rate limits: Redis unreachable (%s); limiting in this process only",
                        error.storage_error,
                    )
                self._redis_down_until = time.monotonic() + REDIS_RETRY_SECONDS
            else:
                if self._redis_down_until:
                    log.warning("rate limits: Redis reachable again; limits shared again")
                    self._redis_down_until = 0.0
                return outcomes
        return await self._count(self.local, category, wanted)

    async def sign_in_refusal(self, account: str, address: str) -> int | None:
        """Seconds to wait if the failed sign-ins of this account (its name's key) or from
        this address used up a limit, else None. Counts nothing."""
        waits = []
        for limiter, dimension, key, policy in self._sign_in_counters(account, address):
            try:
                if not await limiter.test(policy.item, "sign-in", dimension, key):
                    stats = await limiter.get_window_stats(policy.item, "sign-in", dimension, key)
                    waits.append(max(1, math.ceil(stats.reset_time - time.time())))
            except StorageError:
                self._redis_down_until = time.monotonic() + REDIS_RETRY_SECONDS
        return max(waits) if waits else None

    async def count_failed_sign_in(self, account: str, address: str) -> None:
        for limiter, dimension, key, policy in self._sign_in_counters(account, address):
            try:
                await limiter.hit(policy.item, "sign-in", dimension, key)
            except StorageError:
                self._redis_down_until = time.monotonic() + REDIS_RETRY_SECONDS
                await self.local.hit(policy.item, "sign-in", dimension, key)

    def _sign_in_counters(
        self, account: str, address: str
    ) -> list[tuple[MovingWindowRateLimiter, str, str, Policy]]:
        shared = self.shared is not None and time.monotonic() >= self._redis_down_until
        limiter = self.shared if shared and self.shared is not None else self.local
        keys = {"account": account, "address": address}
        return [
            (limiter, dimension, keys[dimension], policy)
            for dimension, policies in self.sign_in
            for policy in policies
        ]

    async def _count(
        self,
        limiter: MovingWindowRateLimiter,
        category: str,
        wanted: list[tuple[Policy, str, str]],
    ) -> list[Outcome]:
        outcomes = []
        for policy, dimension, key in wanted:
            allowed = await limiter.hit(policy.item, category, dimension, key)
            stats = await limiter.get_window_stats(policy.item, category, dimension, key)
            # The moving window's oldest request leaves it at reset_time, freeing a request.
            reset = min(policy.window, max(0, math.ceil(stats.reset_time - time.time())))
            if not allowed or stats.remaining < 1:
                reset = max(1, reset)
            outcomes.append(Outcome(policy, allowed, max(0, stats.remaining), reset))
        return outcomes


def request_address(request: Request, limiter: RateLimiter) -> str:
    """The address a request is limited by (:func:`client_of`)."""
    return client_of(request, limiter.trusted)[0]


class SignInGuard:
    """The failed sign-ins of one request's account and address: ``await check()`` before the
    attempt (``429 sign_in_limited`` while a limit is used up), ``await failed()`` after a
    refusal. Without rate limits (``FOURSQUARE_RATE_LIMIT_ENABLED=false``) both do nothing."""

    def __init__(self, request: Request, account: str) -> None:
        self.limiter: RateLimiter | None = request.app.state.rate_limiter
        self.account = account
        self.address = "" if self.limiter is None else request_address(request, self.limiter)

    async def check(self) -> None:
        if self.limiter is None:
            return
        wait = await self.limiter.sign_in_refusal(self.account, self.address)
        if wait is not None:
            metrics.rate_limited("sign-in")
            raise SignInLimited(
                "too many failed sign-ins for this account or from this address; try again "
                f"in {wait} seconds",
                retry_after=wait,
            )

    async def failed(self) -> None:
        if self.limiter is not None:
            await self.limiter.count_failed_sign_in(self.account, self.address)


def rate_limit_fields(outcomes: Sequence[Outcome]) -> dict[str, str]:
    """``RateLimit-Policy`` and ``RateLimit`` (draft-ietf-httpapi-ratelimit-headers-10):
    structured-field lists with one item per policy the request was counted against."""
    return {
        "RateLimit-Policy": ", ".join(
            f'"{o.policy.name}";q={o.policy.item.amount};w={o.policy.window}' for o in outcomes
        ),
        "RateLimit": ", ".join(
            f'"{o.policy.name}";r={o.remaining};t={o.reset_seconds}' for o in outcomes
        ),
    }


def client_of(request: Request, trusted: Sequence[IpNetwork]) -> tuple[str, str | None]:
    """Who sent ``request``, as the limits count it: its client address (behind a proxy of
    ``trusted``, from ``X-Forwarded-For``) and the key of its Bearer credential, if any."""
    client = request.scope.get("client")
    address = client_address(
        client[0] if client else None, request.headers.getlist("x-forwarded-for"), trusted
    )
    return address, credential_key(request.headers.get("authorization"))


def rate_limit(category: Category) -> Callable[[Request], Awaitable[None]]:
    """A route dependency counting the request in ``category``; ``429 rate_limited`` when a
    limit is used up. It runs before the route's work, so a refused request changes nothing.
    (A route may also await it itself, after a check that must not cost the client its
    quota: the hints' admission to their workers, api/hints/routes.py.)"""

    async def limited(request: Request) -> None:
        limiter: RateLimiter | None = request.app.state.rate_limiter
        if limiter is None:
            return
        address, credential = client_of(request, limiter.trusted)
        outcomes = await limiter.check(category, address, credential)
        fields = rate_limit_fields(outcomes)
        answering = current_request()
        if answering is not None:
            # For the answer's head, whatever the route returns (routes return ready-made
            # Response objects, whose headers a dependency cannot reach): the edge layer
            # (api.ops.observer) adds them.
            answering.rate_limit = [
                (name.lower().encode(), value.encode()) for name, value in fields.items()
            ]
        refused = [outcome for outcome in outcomes if not outcome.allowed]
        if refused:
            metrics.rate_limited(category)  # one per refused request, by route category
            retry_after = max(outcome.reset_seconds for outcome in refused)
            names = ", ".join(outcome.policy.name for outcome in refused)
            raise RateLimited(
                f"too many requests ({names}); retry after {retry_after} seconds",
                retry_after=retry_after,
                headers=fields,
            )

    return limited


def limited_by(category: Category) -> params.Depends:
    """``dependencies=[limited_by("place")]`` on a route."""
    return params.Depends(rate_limit(category))

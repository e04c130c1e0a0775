"""Rate limits shared by two real ``foursquare serve`` processes on one database, through
Redis (FOURSQUARE_REDIS_URL)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import httpx
import pytest
import redis

from testkit import databases
from testkit.server import Server

REDIS_URL = os.environ.get("FOURSQUARE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
# CI sets FOURSQUARE_TEST_REQUIRE_REDIS (and FOURSQUARE_TEST_REQUIRE_POSTGRES): there a missing
# Redis fails the test instead of skipping it.
REQUIRE_REDIS = databases.REQUIRE_POSTGRES or os.environ.get(
    "FOURSQUARE_TEST_REQUIRE_REDIS", ""
) not in ("", "0", "false")

pytestmark = pytest.mark.slow


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own, deleted afterwards; skips if Redis does not answer."""
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
    except redis.RedisError as error:
        reason = f"Redis does not answer at {REDIS_URL}: {error}"
        if REQUIRE_REDIS:
            pytest.fail(f"FOURSQUARE_TEST_REQUIRE_REDIS is set but {reason}")
        pytest.skip(reason)
    prefix = f"foursquare-test-{uuid.uuid4().hex}"
    try:
        yield prefix
    finally:
        for key in client.scan_iter(match=f"{prefix}:*"):
            client.delete(key)
        client.close()


def _servers(sqlite_url: str, prefix: str) -> list[Server]:
    env = {
        "FOURSQUARE_RATE_LIMIT_ENABLED": "true",
        "FOURSQUARE_REDIS_URL": REDIS_URL,
        "FOURSQUARE_RATE_LIMIT_KEY_PREFIX": prefix,
        "FOURSQUARE_RATE_LIMIT_PLACE": "3/minute",
        "FOURSQUARE_RATE_LIMIT_CREATE_PER_ADDRESS": "3/minute",
    }
    return [Server(sqlite_url, extra_env=env) for _ in range(2)]


def _remaining(response: httpx.Response, policy: str) -> int:
    for item in response.headers["RateLimit"].split(","):
        name, *parameters = item.strip().split(";")
        if name.strip('"') == policy:
            return int(dict(parameter.split("=") for parameter in parameters)["r"])
    raise AssertionError(f"no {policy} in {response.headers['RateLimit']}")


def test_two_servers_share_the_limits_through_redis(sqlite_url: str, redis_prefix: str) -> None:
    servers = _servers(sqlite_url, redis_prefix)
    try:
        for server in servers:
            server.start()
        first, second = (httpx.Client(base_url=server.base_url) for server in servers)
        with first, second:
            created = first.post("/games")
            assert created.status_code == 201
            game_id, token = created.json()["id"], created.json()["token"]
            auth = {"Authorization": f"Bearer {token}"}

            placed = []
            for http in (first, second, first, second):
                game = http.get(f"/games/{game_id}").json()
                target = game["legal_placements"][0]
                placed.append(http.post(f"/games/{game_id}/placements", json=target, headers=auth))
            assert [response.status_code for response in placed] == [201, 201, 201, 429]
            assert [_remaining(response, "place-credential") for response in placed] == [
                2,
                1,
                0,
                0,
            ]
            assert placed[-1].json()["code"] == "rate_limited"
            assert int(placed[-1].headers["Retry-After"]) >= 1
            assert first.get(f"/games/{game_id}").json()["placements_count"] == 3

            # The address limit is shared too, and X-Forwarded-For from a peer that is not a
            # trusted proxy (none is configured) names nobody: every creation is 127.0.0.1's.
            creations = [
                http.post("/games", headers={"X-Forwarded-For": f"198.51.100.{n}"})
                for n, http in enumerate((second, first, second))
            ]
            assert [response.status_code for response in creations] == [201, 201, 429]
            assert "create-address" in creations[-1].json()["detail"]

        keys = redis.Redis.from_url(REDIS_URL).keys(f"{redis_prefix}:*")
        assert keys, "the counters should be in Redis under the test's prefix"
        # Keys name a hash of the credential, never the token itself.
        assert not [key for key in keys if token.encode() in key]
    finally:
        for server in servers:
            server.stop()

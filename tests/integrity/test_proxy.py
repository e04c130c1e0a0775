"""The shipped proxy configuration (deploy/haproxy.cfg) and the compose profile that uses it.

HAProxy runs the very file docker-compose.yml mounts, in front of two real servers on
PostgreSQL: the header limit is the proxy's, its 502 when a replica dies mid-request and 503
when none is ready are problem+json with Retry-After, and it starts sending requests again
once the replicas are back. The replicas believe X-Forwarded-For from the proxy's address only:
a client at another address that forges it is still limited as itself, directly and through
HAProxy, while trusting a whole range lets a client inside it escape. The compose file has no
engine to run it here, so its ``replicas`` profile is checked as data: the services it names,
the folder it mounts, replicas configured alike, and the one address they trust.
"""

from __future__ import annotations

import ipaddress
import os
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import yaml

from testkit.proxy import CONFIG, Proxy
from testkit.server import ROOT, Server
from tests.integrity.conftest import running_proxy
from tests.integrity.exchanges import PROBLEM

pytestmark = pytest.mark.slow


PROXY_ON_POSTGRES = pytest.mark.parametrize(
    ("backend", "route"), [("postgresql", "proxy")], indirect=True
)


def _wait_for_status(url: str, status: int, deadline: float = 30.0) -> httpx.Response:
    end = time.monotonic() + deadline
    while True:
        answer = httpx.get(url, timeout=10)
        if answer.status_code == status or time.monotonic() > end:
            return answer
        time.sleep(0.1)


@PROXY_ON_POSTGRES
def test_the_proxy_answers_its_own_errors_as_problems_and_follows_replicas_down_and_up(
    servers: list[Server], entry: Proxy
) -> None:
    proxy = entry
    # The header limit is the proxy's as much as a replica's: 431, problem+json, from both
    # (tests/integrity/test_proxy_refusals.py has the rest).
    big = {"X-Padding": "a" * 40_000}
    for base_url in (proxy.base_url, servers[0].base_url):
        refused = httpx.get(f"{base_url}/healthz", headers=big)
        assert refused.status_code == 431, refused.text
        assert refused.json()["code"] == "headers_too_large"

    # Both replicas die with a request in hand: 502 (the proxy retries no request a
    # replica received), then 503 until a replica is ready again. Stopped (SIGSTOP) first,
    # a replica's kernel still accepts the connection and the request, which then waits.
    for server in servers:
        os.killpg(server.pid(), signal.SIGSTOP)
    with ThreadPoolExecutor(1) as pool:
        request = pool.submit(httpx.get, f"{proxy.base_url}/healthz", timeout=60)
        time.sleep(0.5)  # the proxy has sent it on (both replicas are still "up" to it)
        for server in servers:
            server.kill()
        failed = request.result()
    assert failed.status_code == 502, failed.text
    assert failed.headers["content-type"].startswith(PROBLEM)
    assert failed.json()["code"] == "bad_gateway"
    assert failed.json()["request_id"] == failed.headers["x-request-id"] != ""
    assert int(failed.headers["retry-after"]) >= 1

    unavailable = _wait_for_status(f"{proxy.base_url}/healthz", 503)
    assert unavailable.status_code == 503, unavailable.text
    assert unavailable.headers["content-type"].startswith(PROBLEM)
    assert unavailable.json()["code"] == "service_unavailable"
    unavailable = httpx.get(
        f"{proxy.base_url}/healthz", headers={"X-Request-ID": "mine-503"}, timeout=10
    )
    assert unavailable.json()["request_id"] == unavailable.headers["x-request-id"] == "mine-503"
    assert int(unavailable.headers["retry-after"]) >= 1

    for index, server in enumerate(servers):
        servers[index] = Server(
            server.database_url, port=server.port, log_path=server.log_path,
            extra_env=server.extra_env,
        )  # fmt: skip
    with ThreadPoolExecutor(len(servers)) as pool:
        list(pool.map(Server.start, servers))
    back = _wait_for_status(f"{proxy.base_url}/readyz", 200)
    assert back.status_code == 200, back.text
    assert back.json()["database"] == "postgresql"


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def test_the_compose_replicas_profile_runs_two_alike_replicas_behind_the_tested_config() -> None:
    services = _compose()["services"]
    profile = {
        name for name, service in services.items() if "replicas" in service.get("profiles", [])
    }
    assert profile == {"migrate", "redis", "api-1", "api-2", "proxy"}
    assert "profiles" not in services["api"] and "profiles" not in services["db"]

    proxy = services["proxy"]
    mounted = [volume.split(":") for volume in proxy["volumes"]]
    # The folder of the tested config (with its error files), where the image reads it.
    assert [((ROOT / host).resolve(), inside) for host, inside, *_ in mounted] == [
        (CONFIG.parent, "/usr/local/etc/haproxy")
    ]
    assert CONFIG.name == "haproxy.cfg"
    config = CONFIG.read_text()
    for variable in ("FOURSQUARE_PROXY_BIND", "FOURSQUARE_REPLICA_1", "FOURSQUARE_REPLICA_2"):
        assert f"${{{variable}" in config and variable in proxy["environment"]

    replicas = [services["api-1"], services["api-2"]]
    assert replicas[0] == replicas[1], "replicas must be configured alike"
    for index, replica in enumerate(replicas, start=1):
        # The image's command listens on FOURSQUARE_PORT, and its health check asks it.
        assert "command" not in replica
        port = replica["environment"]["FOURSQUARE_PORT"]
        assert proxy["environment"][f"FOURSQUARE_REPLICA_{index}"] == f"api-{index}:{port}"
        assert replica["environment"]["FOURSQUARE_MIGRATE_ON_START"] == "false"
        assert replica["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert "ports" not in replica, "replicas are reached through the proxy only"
        # One set of rate-limit counters for both, in the profile's Redis.
        redis_url = urlsplit(replica["environment"]["FOURSQUARE_REDIS_URL"])
        assert (redis_url.scheme, redis_url.hostname, redis_url.port) == ("redis", "redis", 6379)
        assert replica["depends_on"]["redis"]["condition"] == "service_healthy"
    assert "healthcheck" in services["redis"] and "ports" not in services["redis"]
    assert (
        replicas[0]["environment"]["FOURSQUARE_DATABASE_URL"]
        == (services["migrate"]["environment"]["FOURSQUARE_DATABASE_URL"])
    )


def test_the_compose_replicas_trust_the_proxys_own_address_only() -> None:
    compose = _compose()
    services = compose["services"]
    subnets = [
        ipaddress.ip_network(pool["subnet"])
        for pool in compose["networks"]["default"]["ipam"]["config"]
    ]
    proxy_address = ipaddress.ip_address(services["proxy"]["networks"]["default"]["ipv4_address"])
    assert any(proxy_address in subnet for subnet in subnets), "a fixed address on the network"
    for name in ("api-1", "api-2"):
        trusted = services[name]["environment"]["FOURSQUARE_TRUSTED_PROXIES"].split(",")
        # One address, the proxy's: no range another container could send from.
        assert [ipaddress.ip_network(entry) for entry in trusted] == [
            ipaddress.ip_network(proxy_address)
        ]
    # The single service publishes its port and trusts nobody's header.
    assert "FOURSQUARE_TRUSTED_PROXIES" not in services["api"]["environment"]


# The proxy connects to the servers from 127.0.0.1; clients come from other loopback
# addresses (any of 127.0.0.0/8 is this machine), as other machines would.
PROXY_ADDRESS = "127.0.0.1"
CREATIONS = 30  # the per-address quota of game creations in these tests


def _limited_server(database_url: str, trusted: str, log_path: Path) -> Server:
    return Server(
        database_url,
        log_path=log_path,
        extra_env={
            "FOURSQUARE_MIGRATE_ON_START": "false",
            "FOURSQUARE_RATE_LIMIT_ENABLED": "true",
            # Per hour, not per minute: a slow machine cannot let the window move on mid-test.
            "FOURSQUARE_RATE_LIMIT_CREATE_PER_ADDRESS": f"{CREATIONS}/hour",
            "FOURSQUARE_TRUSTED_PROXIES": trusted,
        },
    )


@contextmanager
def _client_at(address: str, base_url: str) -> Iterator[httpx.Client]:
    """An HTTP client whose connections come from ``address``."""
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(base_url=base_url, transport=transport, timeout=30) as client:
        yield client


def _create_forging(client: httpx.Client, count: int) -> list[int]:
    """``count`` game creations, each naming another made-up client in X-Forwarded-For (the
    forged entries on the left, as a client behind a proxy would, and alone)."""
    codes = []
    for n in range(count):
        forged = f"198.51.100.{n % 250}" if n % 2 else f"203.0.113.{n % 250}, 198.51.100.{n % 250}"
        answer = client.post("/games", headers={"X-Forwarded-For": forged})
        assert answer.status_code in (201, 429), answer.text
        codes.append(answer.status_code)
    return codes


def test_a_client_that_is_not_the_proxy_cannot_forge_its_address(
    sqlite_url: str, tmp_path: Path
) -> None:
    # One server trusts the proxy's address only (what compose ships); the other a whole range
    # the client is in (what it shipped before: 10/8, 172.16/12, 192.168/16).
    only_proxy = _limited_server(sqlite_url, PROXY_ADDRESS, tmp_path / "only-proxy.log")
    whole_range = _limited_server(sqlite_url, "127.0.0.0/8", tmp_path / "whole-range.log")
    started = [only_proxy, whole_range]
    try:
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(Server.start, started))
        with _client_at("127.0.0.2", only_proxy.base_url) as client:
            codes = _create_forging(client, CREATIONS + 10)
        assert codes == [201] * CREATIONS + [429] * 10
        with _client_at("127.0.0.2", whole_range.base_url) as client:
            escaped = _create_forging(client, CREATIONS + 10)
        # The risk the docs name: inside a trusted range, the header is believed.
        assert escaped == [201] * (CREATIONS + 10)
    finally:
        for server in started:
            server.stop()


def test_through_the_proxy_each_client_is_limited_at_its_own_address(
    sqlite_url: str, tmp_path: Path
) -> None:
    server = _limited_server(sqlite_url, PROXY_ADDRESS, tmp_path / "server.log")
    server.start()
    try:
        # Both of the proxy's server lines at the one server, so one process counts every
        # request (the replicas of compose count apart, or together through Redis).
        with running_proxy([server, server], tmp_path) as proxy:
            with _client_at("127.0.0.2", proxy.base_url) as forger:
                codes = _create_forging(forger, CREATIONS + 5)
                refused = forger.post("/games", headers={"X-Forwarded-For": "192.0.2.99"})
            assert codes == [201] * CREATIONS + [429] * 5
            assert refused.status_code == 429
            assert "create-address" in refused.json()["detail"]
            # Another client behind the same proxy has its whole quota: what is limited is the
            # client's address that HAProxy appended, not the proxy's own.
            with _client_at("127.0.0.3", proxy.base_url) as other:
                allowed = other.post("/games")
            assert allowed.status_code == 201, allowed.text
    finally:
        server.stop()

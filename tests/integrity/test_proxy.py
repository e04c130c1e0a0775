"""The shipped proxy configuration (deploy/haproxy.cfg) and the compose profile that uses it.

HAProxy runs the very file docker-compose.yml mounts, in front of two real servers on
PostgreSQL: the header limit is the proxy's, its 502 when a replica dies mid-request and 503
when none is ready are problem+json with Retry-After, and it starts sending requests again
once the replicas are back. The compose file has no engine to run it here, so its ``replicas``
profile is checked as data: the services it names, the folder it mounts, and replicas
configured alike.
"""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import yaml

from tests.integrity.exchanges import PROBLEM
from tests.support.proxy import CONFIG, Proxy
from tests.support.server import ROOT, Server

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
    # The header limit is the proxy's (a replica takes headers of any size); HAProxy's
    # parser answers this 400 with its own HTML page.
    big = {"X-Padding": "a" * 20_000}
    assert httpx.get(f"{proxy.base_url}/healthz", headers=big).status_code == 400
    assert httpx.get(f"{servers[0].base_url}/healthz", headers=big).status_code == 200

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
    assert int(failed.headers["retry-after"]) >= 1

    unavailable = _wait_for_status(f"{proxy.base_url}/healthz", 503)
    assert unavailable.status_code == 503, unavailable.text
    assert unavailable.headers["content-type"].startswith(PROBLEM)
    assert unavailable.json()["code"] == "service_unavailable"
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
    assert profile == {"migrate", "api-1", "api-2", "proxy"}
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
    assert (
        replicas[0]["environment"]["FOURSQUARE_DATABASE_URL"]
        == (services["migrate"]["environment"]["FOURSQUARE_DATABASE_URL"])
    )

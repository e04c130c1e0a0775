"""Fixtures of the integrity tests: pairs of real servers on one database, and figures."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from testkit import databases
from testkit.proxy import CONFIG, Proxy, haproxy_binary
from testkit.server import Server
from tests.conftest import needs_postgres
from tests.support import private_postgres

Report = Callable[[str, dict[str, Any]], Path]

# The ways clients reach the servers: each server directly (on both backends), and through
# HAProxy round-robin over the two (on PostgreSQL, the production deployment). Used as
# ``@ROUTES`` on tests taking the ``entry`` fixture.
ROUTES = pytest.mark.parametrize(
    ("backend", "route"),
    [("sqlite", "direct"), ("postgresql", "direct"), ("postgresql", "proxy")],
    indirect=True,
)


@pytest.fixture
def servers(database_url: str, tmp_path: Path) -> Iterator[list[Server]]:
    """Two ``foursquare serve`` processes (different ports) on the test's database, started
    together (the database is already migrated, so neither migrates on start)."""
    started = [
        Server(
            database_url,
            log_path=tmp_path / f"server-{name}.log",
            extra_env={"FOURSQUARE_MIGRATE_ON_START": "false"},
        )
        for name in ("a", "b")
    ]
    try:
        with ThreadPoolExecutor(len(started)) as pool:
            list(pool.map(Server.start, started))
        yield started
    finally:
        for server in started:
            server.stop()


@pytest.fixture
def route(request: pytest.FixtureRequest) -> str:
    """``direct`` or ``proxy`` (see ROUTES)."""
    name: str = getattr(request, "param", "direct")
    return name


@pytest.fixture
def entry(route: str, servers: list[Server], tmp_path: Path) -> Iterator[Proxy | None]:
    """With the ``proxy`` route, HAProxy running deploy/haproxy.cfg over ``servers``."""
    if route == "direct":
        yield None
        return
    with running_proxy(servers, tmp_path) as proxy:
        yield proxy


@contextmanager
def running_proxy(
    servers: list[Server],
    tmp_path: Path,
    config: Path = CONFIG,
    *,
    per_client_limits: bool = False,
) -> Iterator[Proxy]:
    """HAProxy over ``servers`` (with deploy/haproxy.cfg unless told another ``config``, and
    its per-client limits only if told: see :class:`Proxy`); skips without haproxy, or fails
    where PostgreSQL is required (CI installs it: .ci/run)."""
    if haproxy_binary() is None:
        if databases.REQUIRE_POSTGRES:
            pytest.fail("haproxy is not installed (apt-get install -y haproxy)")
        pytest.skip("haproxy is not installed (apt-get install -y haproxy)")
    proxy = Proxy(servers, tmp_path / "haproxy.log", config, per_client_limits=per_client_limits)
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.stop()


def entry_urls(servers: list[Server], proxy: Proxy | None) -> list[str]:
    """The base URLs clients send requests to."""
    return [proxy.base_url] if proxy else [server.base_url for server in servers]


def check_both_replicas_served(proxy: Proxy, at_least: int) -> dict[str, int]:
    """Every replica served at least ``at_least`` requests through the proxy (its log)."""
    served = proxy.requests_by_replica()
    for name in ("replica1", "replica2"):
        assert served[name] >= at_least, f"{name} served {served[name]} requests: {served}"
    return dict(served)


@pytest.fixture
def sqlite_url(_templates: databases.Templates, tmp_path: Path) -> Iterator[str]:
    """A fresh migrated SQLite file, for tests about SQLite alone."""
    with _templates.database("sqlite", tmp_path) as url:
        yield url


@pytest.fixture
def postgres_url(
    _postgres_status: str | None, _templates: databases.Templates, tmp_path: Path
) -> Iterator[str]:
    """A fresh migrated PostgreSQL database, for tests that need its row locks."""
    needs_postgres(_postgres_status)
    with _templates.database("postgresql", tmp_path) as url:
        yield url


@pytest.fixture
def private_postgres_cluster() -> Iterator[private_postgres.PrivateCluster]:
    """A PostgreSQL cluster of the test's own, which it may stop and start (never the shared
    one). Skips when PostgreSQL's binaries are missing, unless PostgreSQL is required."""
    needs_postgres(private_postgres.unavailable_reason())
    with private_postgres.private_cluster() as cluster:
        yield cluster


@pytest.fixture
def report(tmp_path: Path, backend: str, route: str) -> Report:
    """Print a test's figures and write them to ``<tmp_path>/<name>.json``."""

    def write(name: str, data: dict[str, Any]) -> Path:
        data = {"backend": backend, "route": route, **data}
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data, indent=2, sort_keys=True))
        print(
            f"\n{name} [{backend}, {route}] ({path}):\n{json.dumps(data, indent=2, sort_keys=True)}"
        )
        return path

    return write

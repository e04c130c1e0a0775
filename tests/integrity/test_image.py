"""The service's image (Dockerfile), built and run with podman.

The build context holds only what the image needs (.dockerignore); the image holds the
service's locked dependencies and the service, run by a non-root user, and nothing else (no
source tree, no egg-info, no pip, no test or dev tool); on an empty database, SQLite in the
/data volume or PostgreSQL, it migrates and serves; its health check asks the port the server
was told to use (FOURSQUARE_PORT), and fails when nothing answers there; the data outlives the
container; SIGTERM stops it cleanly.

No registry but PyPI and Debian's is reachable here, so python:3.11-slim cannot be pulled:
the image is built on a stand-in base made of Debian 12's own packages (its python3 is 3.11)
with mmdebstrap, through the Dockerfile's PYTHON_IMAGE argument; every other line of the
Dockerfile is the one shipped. Without podman (and runc, mmdebstrap) the tests skip, unless
FOURSQUARE_TEST_REQUIRE_IMAGE is set (.ci/run installs them and sets it).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import ssl
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from packaging.markers import Marker

from testkit import databases
from testkit.processes import free_port
from testkit.server import ROOT
from tests.api.test_locks import read_lock
from tests.conftest import needs_postgres

pytestmark = pytest.mark.slow

REQUIRE_IMAGE = os.environ.get("FOURSQUARE_TEST_REQUIRE_IMAGE", "") not in ("", "0", "false")
BASE = "localhost/foursquare-test-python:3.11"
IMAGE = "localhost/foursquare:test"
USER_ID = "10001"  # the Dockerfile's useradd --uid


def _engine_missing() -> str | None:
    missing = [tool for tool in ("podman", "mmdebstrap") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not installed (apt-get install -y podman runc mmdebstrap)"
    return None


def podman(
    *args: str, check: bool = True, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """podman with the options this kind of machine needs, none of which the image depends on:
    runc where installed (crun refuses hybrid cgroup hierarchies), and resource limits no
    higher than this process's (podman's defaults are higher, which an unprivileged sandbox
    refuses)."""
    runtime = ["--runtime", "runc"] if shutil.which("runc") else []
    result = subprocess.run(
        ["podman", *runtime, *args], capture_output=True, text=True, timeout=timeout
    )
    if check and result.returncode != 0:
        raise AssertionError(f"podman {' '.join(args)}: {result.returncode}\n{result.stderr}")
    return result


def _limits() -> list[str]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return ["--ulimit", f"nofile={soft}:{hard}", "--ulimit", "nproc=4096:4096"]


# The build's RUN steps use the host's network rather than a bridge of their own: a bridge and
# its veth pairs appearing and going make Chromium, in the browser tests that run beside these,
# abort its requests with ERR_NETWORK_CHANGED. The image does not depend on it.
BUILD_NETWORK = ["--network", "host"]


def _build_base() -> None:
    """A stand-in for python:3.11-slim: Debian 12 minbase with python3 (3.11) and venv."""
    if podman("image", "exists", BASE, check=False).returncode == 0:
        return
    debootstrap = subprocess.Popen(
        ["mmdebstrap", "--variant=minbase", "--include=python3,python3-venv", "bookworm", "-"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert debootstrap.stdout is not None
    imported = subprocess.run(
        ["podman", "import", "--change", 'CMD ["python3"]', "-", BASE],
        stdin=debootstrap.stdout,
        capture_output=True,
        text=True,
        timeout=600,
    )
    debootstrap.stdout.close()
    assert debootstrap.wait(timeout=600) == 0, "mmdebstrap failed"
    assert imported.returncode == 0, imported.stderr


def _build_arguments(tmp: Path) -> list[str]:
    """pip inside the build trusts the same certificates as pip here (a proxy's CA, if any):
    mounted for the RUN steps only, not part of the image."""
    cafile = os.environ.get("PIP_CERT") or ssl.get_default_verify_paths().cafile
    assert cafile and Path(cafile).exists(), "no CA bundle for pip inside the build"
    (tmp / "pip.conf").write_text("[global]\ncert = /etc/ssl/certs/build-ca.crt\n")
    return [
        "--format", "docker",  # HEALTHCHECK is a Docker-format field
        *_limits(),
        *BUILD_NETWORK,
        "--volume", f"{tmp / 'pip.conf'}:/etc/pip.conf:ro",
        "--volume", f"{cafile}:/etc/ssl/certs/build-ca.crt:ro",
        "--build-arg", f"PYTHON_IMAGE={BASE}",
    ]  # fmt: skip


@pytest.fixture(scope="module")
def build_arguments(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    reason = _engine_missing()
    if reason:
        if REQUIRE_IMAGE:
            pytest.fail(f"FOURSQUARE_TEST_REQUIRE_IMAGE is set but {reason}")
        pytest.skip(reason)
    _build_base()
    return _build_arguments(tmp_path_factory.mktemp("image"))


@pytest.fixture(scope="module")
def image(build_arguments: list[str]) -> str:
    podman("build", *build_arguments, "--tag", IMAGE, str(ROOT))
    size = int(podman("image", "inspect", "--format", "{{.Size}}", IMAGE).stdout)
    base = int(podman("image", "inspect", "--format", "{{.Size}}", BASE).stdout)
    print(f"\nimage {IMAGE}: {size / 1e6:.0f} MB, of which the base {base / 1e6:.0f} MB")
    return IMAGE


Container = Callable[..., str]


@pytest.fixture
def container(image: str) -> Iterator[Container]:
    """Starts containers of the image (``podman run -d`` with these options); removes them."""
    started: list[str] = []

    def run(*options: str, command: tuple[str, ...] = ()) -> str:
        name = f"foursquare-test-{uuid.uuid4().hex[:12]}"
        podman("run", "--detach", "--name", name, *_limits(), *options, image, *command)
        started.append(name)
        return name

    yield run
    for name in started:
        podman("rm", "--force", "--time", "0", name, check=False)


def _healthy(name: str) -> bool:
    return podman("healthcheck", "run", name, check=False).returncode == 0


def _wait_healthy(name: str, deadline: float = 120.0) -> None:
    end = time.monotonic() + deadline
    while not _healthy(name):
        if time.monotonic() > end:
            logs = podman("logs", name, check=False)
            raise AssertionError(f"{name} never became healthy:\n{logs.stdout}{logs.stderr}")
        time.sleep(0.5)


def _inside(name: str, script: str) -> Any:
    """Runs ``script`` with the image's Python inside the container; its printed JSON."""
    return json.loads(podman("exec", name, "python", "-c", script).stdout)


def test_the_build_context_holds_only_what_the_image_needs(
    build_arguments: list[str], tmp_path: Path
) -> None:
    # The same context, with its .dockerignore, copied whole into a throwaway image and listed.
    assert (ROOT / ".dockerignore").exists()
    listing = f"localhost/foursquare-context:{uuid.uuid4().hex[:8]}"
    (tmp_path / "Containerfile").write_text(f"FROM {BASE}\nCOPY . /context\n")
    podman(
        "build",
        *_limits(),
        *BUILD_NETWORK,
        "--file",
        str(tmp_path / "Containerfile"),
        "--tag",
        listing,
        str(ROOT),
    )
    try:
        found = podman(
            "run",
            "--rm",
            "--network",
            "none",
            *_limits(),
            listing,
            "find",
            "/context",
            "-mindepth",
            "1",
        ).stdout.split()
    finally:
        podman("rmi", "--force", listing, check=False)
    paths = {path.removeprefix("/context/") for path in found}
    top = {path.split("/")[0] for path in paths}
    assert top == {
        "pyproject.toml",
        "README.md",
        "requirements",
        "api",
        "engine",
        "migrations",
        "web",
    }
    assert {p for p in paths if p.startswith("requirements/")} == {
        "requirements/build.txt",
        "requirements/service.txt",
    }
    unwanted = [p for p in paths if "__pycache__" in p or p.endswith((".pyc", ".db", ".egg-info"))]
    assert not unwanted, unwanted


def test_the_image_holds_the_service_and_its_locked_dependencies_only(
    image: str, container: Container
) -> None:
    config = json.loads(podman("image", "inspect", image).stdout)[0]["Config"]
    assert config["User"] == "foursquare"
    assert "/data" in config["Volumes"]
    assert config["Env"].count("FOURSQUARE_PORT=8000") == 1

    name = container("--network", "none", "--entrypoint", "sleep", command=("600",))
    found = _inside(
        name,
        """
import glob, importlib.metadata, importlib.util, json, os
from packaging.markers import default_environment
print(json.dumps({
    "installed": sorted({d.metadata["Name"] for d in importlib.metadata.distributions()}),
    "environment": default_environment(),
    "left": [p for p in ("/src", "/app", "/wheels", "/opt/build", "/root/.cache/pip")
             if os.path.exists(p)],
    "egg_info": glob.glob("/opt/foursquare/**/*.egg-info", recursive=True),
    "pip": importlib.util.find_spec("pip") is not None,
    "source": importlib.util.find_spec("api").origin,
}))
""",
    )
    environment = found["environment"]
    expected = {
        pin.name
        for pin in read_lock("service.txt")
        if not pin.marker or Marker(pin.marker).evaluate(environment)
    }
    installed = {name.lower().replace("_", "-").replace(".", "-") for name in found["installed"]}
    # Exactly the service's lock and the service: no pip, setuptools, pytest, ruff, mypy.
    assert installed == expected | {"foursquare-server"}
    assert found["left"] == [] and found["egg_info"] == [] and found["pip"] is False
    assert found["source"].startswith("/opt/foursquare/lib/"), found["source"]


def test_on_sqlite_it_migrates_serves_as_non_root_and_keeps_its_data_in_the_volume(
    container: Container,
) -> None:
    volume = f"foursquare-test-{uuid.uuid4().hex[:12]}"
    podman("volume", "create", volume)
    try:
        # No network but the container's own loopback: the port is the container's alone,
        # so the health check passing says it asked 9000, not a default.
        options = (
            "--network",
            "none",
            "--env",
            "FOURSQUARE_PORT=9000",
            "--volume",
            f"{volume}:/data",
        )
        first = container(*options)
        _wait_healthy(first)
        created = _inside(
            first,
            """
import json, urllib.request
request = urllib.request.Request("http://127.0.0.1:9000/games", method="POST")
with urllib.request.urlopen(request, timeout=10) as answer:
    game = json.load(answer)
print(json.dumps({"status": answer.status, "id": game["id"]}))
""",
        )
        assert created["status"] == 201  # the empty database was migrated on start
        server_user = podman("exec", first, "grep", "^Uid:", "/proc/1/status").stdout.split()
        assert server_user[1] == USER_ID, server_user  # the server process, not only the image
        files = podman("exec", first, "ls", "/data").stdout.split()
        assert "foursquare.db" in files

        podman("stop", "--time", "40", first)
        exit_code = podman("inspect", "--format", "{{.State.ExitCode}}", first).stdout.strip()
        assert exit_code == "0"  # SIGTERM reached the server (PID 1), which drained and left

        second = container(*options)
        _wait_healthy(second)
        kept = _inside(
            second,
            f"""
import json, urllib.request
with urllib.request.urlopen("http://127.0.0.1:9000/games/{created["id"]}", timeout=10) as answer:
    print(json.dumps({{"status": answer.status, "id": json.load(answer)["id"]}}))
""",
        )
        assert kept == {"status": 200, "id": created["id"]}
    finally:
        podman("volume", "rm", "--force", volume, check=False)


def test_the_health_check_fails_when_nothing_answers_on_the_port(container: Container) -> None:
    idle = container("--network", "none", "--entrypoint", "sleep", command=("600",))
    assert podman("inspect", "--format", "{{.State.Running}}", idle).stdout.strip() == "true"
    assert not _healthy(idle)


@pytest.mark.postgres
def test_on_postgresql_it_migrates_an_empty_database_and_serves(
    container: Container, tmp_path: Path
) -> None:
    needs_postgres(databases.postgres_unavailable_reason())
    name = f"fs_image_{uuid.uuid4().hex[:12]}"
    url = databases.create_postgres_database(name)  # empty: no tables
    try:  # (the container fixture removes the container)
        port = free_port()
        # The host's network, to reach PostgreSQL on 127.0.0.1; the port is a free one.
        server = container(
            "--network", "host",
            "--env", f"FOURSQUARE_PORT={port}",
            "--env", f"FOURSQUARE_DATABASE_URL={url}",
        )  # fmt: skip
        _wait_healthy(server)
        base_url = f"http://127.0.0.1:{port}"
        ready = httpx.get(f"{base_url}/readyz", timeout=10)
        assert ready.status_code == 200 and ready.json()["database"] == "postgresql"
        created = httpx.post(f"{base_url}/games", timeout=10)
        assert created.status_code == 201, created.text
        assert httpx.get(f"{base_url}/games/{created.json()['id']}").status_code == 200
    finally:
        databases.drop_postgres_database(name)

"""The TypeScript client (clients/typescript) as its users build it: installed from its lock
with `npm ci`, compiled with `tsc` (the types generated from the OpenAPI document check every
request and answer of its test and of its README's example), and its test run by node's test
runner against a real `foursquare serve` (on SQLite: the client speaks HTTP only, and the
Python client's test covers both databases).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from testkit.server import running_server

pytestmark = pytest.mark.slow

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "typescript"
REQUIRE_NODE = os.environ.get("FOURSQUARE_TEST_REQUIRE_NODE", "") not in ("", "0", "false")


def npm(*arguments: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        ["npm", *arguments], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"npm {' '.join(arguments)}:\n{done.stdout}{done.stderr}"
    return done.stdout


def test_the_typescript_client_builds_and_plays_against_a_real_server(
    sqlite_url: str, tmp_path: Path
) -> None:
    if shutil.which("npm") is None or shutil.which("node") is None:
        reason = "the TypeScript client's test needs node and npm (.ci/run installs them)"
        if REQUIRE_NODE:
            pytest.fail(f"FOURSQUARE_TEST_REQUIRE_NODE is set but {reason}")
        pytest.skip(reason)
    # A copy without the checkout's node_modules and dist: what the lock installs, built anew.
    client = Path(
        shutil.copytree(
            CLIENT, tmp_path / "client", ignore=shutil.ignore_patterns("node_modules", "dist")
        )
    )
    # The README's example is compiled with the rest, against the package's own source.
    readme = (client / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```ts\n(.*?)```", readme, re.DOTALL)
    assert example, "the client's README lost its example"
    code = example.group(1).replace('from "foursquare-client"', 'from "../src/index.js"')
    assert code != example.group(1)
    (client / "test" / "readme-example.ts").write_text(code, encoding="utf-8")
    npm("ci", "--prefer-offline", "--no-audit", "--no-fund", cwd=client)
    npm("run", "build", cwd=client)
    with running_server(sqlite_url) as server:
        out = npm("test", cwd=client, env={**os.environ, "FOURSQUARE_URL": server.base_url})
    assert "# pass 3" in out and "# fail 0" in out, out

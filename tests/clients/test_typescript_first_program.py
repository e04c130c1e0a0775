"""docs/clients.md's first TypeScript program, done as the doc says from nothing: a project
made by `npm init -y`, the package packed into it from a checkout, the example compiled by the
`tsc` of `tsc --init` and run against a real `foursquare serve`. Without the doc's
`"type": "module"` the example does not compile (TS1309), which the test shows too; and
`npm pack` in the checkout leaves nothing git would list."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from testkit.server import running_server

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "clients.md"
REQUIRE_NODE = os.environ.get("FOURSQUARE_TEST_REQUIRE_NODE", "") not in ("", "0", "false")


def block(marker: str, language: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(rf"<!-- {marker} -->\n```{language}\n(.*?)```", text, re.DOTALL)
    assert found, f"docs/clients.md lost its {marker} block"
    return found.group(1)


def bash(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_first_typescript_program_compiles_and_runs_as_the_doc_says(
    sqlite_url: str, tmp_path: Path
) -> None:
    if shutil.which("npm") is None or shutil.which("node") is None:
        reason = "the TypeScript example's test needs node and npm (.ci/run installs them)"
        if REQUIRE_NODE:
            pytest.fail(f"FOURSQUARE_TEST_REQUIRE_NODE is set but {reason}")
        pytest.skip(reason)
    example = block("typescript-example", "ts")
    readme = (ROOT / "clients" / "typescript" / "README.md").read_text(encoding="utf-8")
    assert f"```ts\n{example}```" in readme, "the client's README and the doc differ"
    # A checkout's client (without its node_modules and dist), as $CHECKOUT.
    checkout = tmp_path / "checkout"
    shutil.copytree(
        ROOT / "clients" / "typescript",
        checkout / "clients" / "typescript",
        ignore=shutil.ignore_patterns("node_modules", "dist", "*.tgz"),
    )
    env = {**os.environ, "CHECKOUT": str(checkout)}
    lines = block("typescript-project", "sh").splitlines()
    run = lines.pop()  # compile and run: once play.ts is there and the service runs
    assert run.startswith("npx tsc && node play.js"), run
    done = bash("\n".join(lines), tmp_path, env)
    assert done.returncode == 0, done.stdout + done.stderr
    app = tmp_path / "my-app"
    assert '"type": "module"' in (app / "package.json").read_text(encoding="utf-8")
    with running_server(sqlite_url) as server:
        code = example.replace('"http://127.0.0.1:8000"', f'"{server.base_url}"')
        assert code != example
        (app / "play.ts").write_text(code, encoding="utf-8")
        done = bash(run, app, env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.startswith("in_progress ["), done.stdout
        # What a default `npm init -y` project (CommonJS) said of it: why the doc sets the type.
        bash("npm pkg delete type", app, env)
        refused = bash("npx tsc", app, env)
    assert refused.returncode != 0
    assert "TS1309" in refused.stdout, refused.stdout


def test_npm_pack_in_the_checkout_leaves_nothing_git_lists() -> None:
    packed = ROOT / "clients" / "typescript" / "foursquare-client-0.1.0.tgz"
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", str(packed)], cwd=ROOT, capture_output=True, timeout=30
    )
    assert ignored.returncode == 0, "git would list the .tgz that npm pack leaves"

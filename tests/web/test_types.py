"""The web client checked against the service's contract, before any browser runs.

Every module of web/static/js starts with `// @ts-check`, and tsc (with the TypeScript of
clients/typescript's lock) checks them all with web/jsconfig.json (strict) against the types
that clients/generate writes from the OpenAPI document (clients/typescript/src/schema.ts).
.ci/run runs the same check; here it is in the quick tier, with the proof that it catches what
it is for: a field of an answer renamed in the document fails it, naming the page that reads
the field. The cheap checks (the pragma, the vendored openapi-fetch, the event streams' types)
need no node.

Without node the tsc tests skip, saying so, unless FOURSQUARE_TEST_REQUIRE_NODE is set (CI).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
MODULES = WEB / "static" / "js"
CLIENT = ROOT / "clients" / "typescript"
DOCUMENT = ROOT / "clients" / "openapi.json"
REQUIRE_NODE = os.environ.get("FOURSQUARE_TEST_REQUIRE_NODE", "") not in ("", "0", "false")
# The streams of events.js's typedefs, by the OpenAPI document's path.
STREAMS = {
    "GameEvents": "/games/{game_id}/events",
    "SiteEvents": "/events",
    "RaceEvents": "/races/{race_id}/events",
    "TournamentEvents": "/tournaments/{tournament_id}/events",
    "OpenRaceEvents": "/races/open/events",
}


def locked_version(package: str) -> str:
    lock = json.loads((CLIENT / "package-lock.json").read_text(encoding="utf-8"))
    version: str = lock["packages"][f"node_modules/{package}"]["version"]
    return version


def run_tsc(tsc: Path, config: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", str(tsc), "-p", str(config)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def tsc() -> Path:
    """The lock's tsc (`npm ci` in clients/typescript first, as clients/generate does, if
    nothing is installed there yet)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        reason = "the web client's type check needs node and npm (.ci/run installs them)"
        if REQUIRE_NODE:
            pytest.fail(f"FOURSQUARE_TEST_REQUIRE_NODE is set but {reason}")
        pytest.skip(reason)
    binary = CLIENT / "node_modules" / "typescript" / "bin" / "tsc"
    if not binary.is_file():
        done = subprocess.run(
            ["npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=CLIENT,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, f"npm ci in {CLIENT}:\n{done.stdout}{done.stderr}"
    return binary


def test_every_module_asks_to_be_checked() -> None:
    """web/jsconfig.json checks every module (checkJs); the pragma says so in the module
    itself, for an editor that opens it without the config."""
    modules = sorted(MODULES.glob("*.js"))
    assert len(modules) > 20
    unchecked = [
        p.name for p in modules if not p.read_text(encoding="utf-8").startswith("// @ts-check\n")
    ]
    assert unchecked == []


def test_the_vendored_openapi_fetch_is_the_locked_one() -> None:
    folder = f"openapi-fetch-{locked_version('openapi-fetch')}"
    assert [p.name for p in (WEB / "vendor").glob("openapi-fetch-*")] == [folder]
    assert {p.name for p in (WEB / "vendor" / folder).iterdir()} == {
        "index.js",
        "index.d.ts",
        "LICENSE",
    }
    api = (MODULES / "api.js").read_text(encoding="utf-8")
    assert f'from "../../vendor/{folder}/index.js"' in api


def test_the_event_streams_types_are_the_documents() -> None:
    """events.js types each stream's events by hand (openapi-typescript leaves out the
    `itemSchema` of a text/event-stream answer): they must name the document's events and
    models, no more and no fewer."""
    source = (MODULES / "events.js").read_text(encoding="utf-8")
    typedefs = {
        name: dict(re.findall(r'(\w+): Schemas\["(\w+)"\]', body))
        for body, name in re.findall(r"@typedef \{\{(.*?)\}\} (\w+Events)\b", source, re.DOTALL)
    }
    document: dict[str, Any] = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    for typedef, path in STREAMS.items():
        answer = document["paths"][path]["get"]["responses"]["200"]["content"]
        events = {
            item["properties"]["event"]["const"]: item["properties"]["data"]["contentSchema"][
                "$ref"
            ].rsplit("/", 1)[1]
            for item in answer["text/event-stream"]["itemSchema"]["oneOf"]
        }
        assert typedefs.get(typedef) == events, f"{typedef} in events.js is not {path}'s events"


def test_the_web_client_type_checks_against_the_contract(tsc: Path) -> None:
    done = run_tsc(tsc, WEB / "jsconfig.json", ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_response_field_renamed_in_the_document_fails_the_check(
    tsc: Path, tmp_path: Path
) -> None:
    """A game's `stock_count` becomes `stock_left` in a copy of the document (in `GameOut` and
    `GameCreated`, the answers that carry a game, as a rename in the service's model would
    do); the copy's types are generated by the same script as the committed ones (`npm run
    generate`), and tsc checks a copy of the web client against them: the play view, which
    shows the stock, fails it, and says where."""
    document: dict[str, Any] = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    for model in ("GameOut", "GameCreated"):
        game = document["components"]["schemas"][model]
        game["properties"] = {
            ("stock_left" if name == "stock_count" else name): field
            for name, field in game["properties"].items()
        }
        game["required"] = ["stock_left" if n == "stock_count" else n for n in game["required"]]
    # The copy keeps the checkout's layout (api.js reaches schema.ts by a relative path).
    (tmp_path / "clients").mkdir()
    (tmp_path / "clients" / "openapi.json").write_text(json.dumps(document), encoding="utf-8")
    client = tmp_path / "clients" / "typescript"
    (client / "src").mkdir(parents=True)
    shutil.copy(CLIENT / "package.json", client / "package.json")
    (client / "node_modules").symlink_to(CLIENT / "node_modules")
    generated = subprocess.run(
        ["npm", "run", "--silent", "generate"],
        cwd=client,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert "stock_left: number;" in (client / "src" / "schema.ts").read_text(encoding="utf-8")
    shutil.copytree(MODULES, tmp_path / "web" / "static" / "js")
    for vendored in (WEB / "vendor").glob("openapi-fetch-*"):
        shutil.copytree(vendored, tmp_path / "web" / "vendor" / vendored.name)
    shutil.copy(WEB / "jsconfig.json", tmp_path / "web" / "jsconfig.json")

    done = run_tsc(tsc, tmp_path / "web" / "jsconfig.json", tmp_path)
    print(done.stdout)  # the failure a renamed field causes, as CI shows it
    assert done.returncode != 0
    errors = [line for line in done.stdout.splitlines() if "error TS" in line]
    assert errors, done.stdout + done.stderr
    assert all("stock_count" in line for line in errors), done.stdout
    assert any(
        line.startswith("web/static/js/play.js(")
        and "Property 'stock_count' does not exist" in line
        for line in errors
    ), done.stdout

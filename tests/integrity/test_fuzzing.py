"""Schemathesis against a real server's /openapi.json, every check, stateful included.

The suite runs a bounded number of examples (20 per operation, 50 for the stateful phase,
which follows only the document's links, under CI's Hypothesis profile; a fifth under
``dev``); the full run is ``FULL_RUN`` below, with the defaults and many more examples.
Failures that are documented, deliberate behaviour are dropped narrowly by
``tests.integrity.fuzz_hooks``; everything else fails the test. The tests at the end pin
the API bugs the fuzzer once found (links naming no operation, links without the token,
whole-number floats refused, player names beyond the schema, a 405 naming too few methods).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from testkit.server import ROOT, Server
from tests.integrity.conftest import Report
from tests.integrity.fuzz_hooks import PLACEMENTS, complete_links
from tests.integrity.verify import verify_database
from tests.support.examples import examples

# Hypothesis's profile scales them (tests/support/examples.py): CI's ``ci`` runs these, a
# contributor's ``dev`` a fifth, over the same operations, checks and links.
MAX_EXAMPLES = int(os.environ.get("FOURSQUARE_FUZZ_MAX_EXAMPLES", examples(20)))
STATEFUL_EXAMPLES = int(os.environ.get("FOURSQUARE_FUZZ_STATEFUL_EXAMPLES", examples(50)))
SEED = os.environ.get("FOURSQUARE_FUZZ_SEED", "20261129")
ST = Path(sys.executable).with_name("st")
# The event streams (GET /events, GET /games/{id}/events) answer for as long as their game
# or the server lasts: a request of them never ends, whatever was generated. They are tested
# in tests/api/test_live_events.py.
STREAMS = "/events$"
PHASE_OUTCOMES = {"✅": "passed", "❌": "failed", "🚫": "errored", "⏭": "skipped"}
FULL_RUN = (
    "SCHEMATHESIS_HOOKS=tests.integrity.fuzz_hooks .venv/bin/st run "
    "http://127.0.0.1:8000/openapi.json --checks all --max-examples 500 --request-timeout 20 "
    f"--exclude-path-regex '{STREAMS}'"
)


def _requests(ndjson: Path) -> Counter[str]:
    """How many requests each phase sent to each operation, by status (from the report)."""
    counts: Counter[str] = Counter()
    phase = "?"

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            request, response = value.get("request"), value.get("response")
            if isinstance(request, dict) and isinstance(response, dict):
                path = re.sub(r"^https?://[^/]+", "", request.get("uri", "")).split("?")[0]
                path = re.sub(r"^/games/[^/]+", "/games/{id}", path)
                counts[f"{phase} {request.get('method')} {path} {response.get('status_code')}"] += 1
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for line in ndjson.read_text().splitlines():
        event = json.loads(line)
        if "PhaseStarted" in event:
            phase = event["PhaseStarted"]["phase"]["name"]
        elif "ScenarioFinished" in event:
            walk(event)
    return counts


@pytest.mark.slow
def test_schemathesis_finds_no_failure_against_a_real_server(
    database_url: str, tmp_path: Path, report: Report
) -> None:
    reports, dropped = tmp_path / "schemathesis", tmp_path / "dropped.jsonl"
    server = Server(database_url, log_path=tmp_path / "server.log")
    server.start()
    try:
        config = tmp_path / "schemathesis.toml"
        config.write_text(
            f"[generation]\nmax-examples = {MAX_EXAMPLES}\n\n"
            # A small budget goes to the documented links, not to inferred ones.
            "[phases.stateful]\ninference.algorithms = []\n\n"
            f"[phases.stateful.generation]\nmax-examples = {STATEFUL_EXAMPLES}\n"
        )
        command = [
            str(ST), "--config-file", str(config), "run", f"{server.base_url}/openapi.json",
            "--checks", "all", "--seed", SEED, "--no-color", "--request-timeout", "20",
            "--report", "ndjson", "--report-dir", str(reports),
            "--exclude-path-regex", STREAMS,
        ]  # fmt: skip
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "SCHEMATHESIS_HOOKS": "tests.integrity.fuzz_hooks",
            "FOURSQUARE_FUZZ_DROP_LOG": str(dropped),
        }
        # From tmp_path, so that schemathesis keeps its .schemathesis/ cache out of the repo.
        run = subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=400
        )
    finally:
        server.stop()
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-6000:]
    stored = verify_database(database_url)  # whatever the fuzzer sent, the rows are whole

    generated = re.search(r"(\d+) generated", output)
    drops = Counter(
        json.loads(line)["reason"] for line in dropped.read_text().splitlines()
    ) if dropped.exists() else Counter()  # fmt: skip
    requests = _requests(next(reports.glob("*.ndjson")))
    report(
        "fuzzing",
        {
            "examples_per_operation": {"default": MAX_EXAMPLES, "stateful": STATEFUL_EXAMPLES},
            "test_cases_generated": int(generated.group(1)) if generated else None,
            "phases": {
                phase: PHASE_OUTCOMES[icon]
                for icon, phase in re.findall(
                    r"([✅❌🚫⏭])\ufe0f?\s+(Examples|Coverage|Fuzzing|Stateful)\b", output
                )
            },
            "failures_dropped_by_hooks": dict(drops),
            "stateful_placements_201": requests[
                f"stateful POST {PLACEMENTS.replace('{game_id}', '{id}')} 201"
            ],
            "requests_by_status": dict(
                sorted(Counter(label.rsplit(" ", 1)[1] for label in requests.elements()).items())
            ),
            "stateful_requests": {
                label.removeprefix("stateful "): count
                for label, count in sorted(requests.items())
                if label.startswith("stateful ")
            },
            "games_verified": len(stored.games),
            "placements_verified": stored.placements,
            "full_run": FULL_RUN,
        },
    )


# ----------------------------------------------------------------------------- fixed bugs


@pytest.fixture
def sqlite_client(sqlite_url: str) -> Iterator[TestClient]:
    app = create_app(Settings(database_url=sqlite_url, migrate_on_start=False))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def _document(client: TestClient) -> dict[str, Any]:
    document: dict[str, Any] = client.get("/openapi.json").json()
    return document


def _validator(document: dict[str, Any], schema: str) -> Any:
    return jsonschema_rs.validator_for(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": f"#/components/schemas/{schema}",
            "components": document["components"],
        }
    )


def test_every_link_of_the_openapi_document_names_an_existing_operation(
    sqlite_client: TestClient,
) -> None:
    document = _document(sqlite_client)
    operation_ids = {
        operation["operationId"]
        for item in document["paths"].values()
        for operation in item.values()
    }
    targets = {
        link["operationId"]
        for item in document["paths"].values()
        for operation in item.values()
        for response in operation["responses"].values()
        for link in response.get("links", {}).values()
    }
    assert targets and targets <= operation_ids, targets - operation_ids


def test_the_placement_link_carries_the_games_token(sqlite_client: TestClient) -> None:
    links = _document(sqlite_client)["paths"]["/games"]["post"]["responses"]["201"]["links"]
    place = next(link for link in links.values() if "place_card" in link["operationId"])
    assert any(
        name.lower().endswith("authorization") and "$response.body#/token" in expression
        for name, expression in place["parameters"].items()
    ), place


def test_a_placement_the_schema_accepts_is_not_refused_as_invalid(
    sqlite_client: TestClient,
) -> None:
    body = {"row": 0.0, "col": 0.0}
    assert _validator(_document(sqlite_client), "PlacementIn").is_valid(body)
    game = sqlite_client.post("/games").json()
    placed = sqlite_client.post(
        f"/games/{game['id']}/placements",
        json=body,
        headers={"Authorization": f"Bearer {game['token']}"},
    )
    assert placed.status_code == 201, placed.json()


@pytest.mark.parametrize("player", ["   ", "a\u0007b", "tab\there"])
def test_a_player_name_the_schema_accepts_is_not_refused(
    sqlite_client: TestClient, player: str
) -> None:
    valid = _validator(_document(sqlite_client), "GameCreate").is_valid({"player": player})
    created = sqlite_client.post("/games", json={"player": player})
    assert valid == (created.status_code == 201), created.json()


def test_a_405_lists_every_method_of_the_resource(sqlite_client: TestClient) -> None:
    game = sqlite_client.post("/games").json()
    refused = sqlite_client.request("OPTIONS", f"/games/{game['id']}/placements")
    assert refused.status_code == 405
    allowed = {method.strip() for method in refused.headers["allow"].split(",")}
    assert allowed == {"GET", "HEAD", "POST"}


def test_the_fuzzing_hooks_make_every_link_usable(sqlite_client: TestClient) -> None:
    """What ``fuzz_hooks`` does to the served document, and that a second pass is a no-op."""
    document = _document(sqlite_client)
    complete_links(document)
    paths = document["paths"]
    operation_ids = {op["operationId"] for item in paths.values() for op in item.values()}
    links = [
        link
        for item in paths.values()
        for op in item.values()
        for response in op["responses"].values()
        for link in response.get("links", {}).values()
    ]
    assert links and all(link["operationId"] in operation_ids for link in links)
    created = paths["/games"]["post"]["responses"]["201"]["links"].values()
    placing = [link for link in created if "place_card" in link["operationId"]]
    assert placing and all(
        any(name.lower().endswith("authorization") for name in link["parameters"])
        for link in placing
    )
    assert complete_links(document) == []

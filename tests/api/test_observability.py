"""Metrics and request logs of real ``foursquare serve`` processes (two workers for the sums)."""

from __future__ import annotations

import json
import logging
import random
import re
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from api.app import create_app
from api.ops.logs import JsonFormatter, TextFormatter, formatter_class
from api.settings import Settings
from testkit.processes import free_port
from testkit.server import Server, running_server

T = TypeVar("T")
DEADLINE = 60.0

pytestmark = pytest.mark.slow


def wait_for(condition: Callable[[], T | None], what: str, deadline: float = DEADLINE) -> T:
    """The first truthy value of ``condition()``, polled until ``deadline`` seconds pass."""
    end = time.monotonic() + deadline
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of a Prometheus exposition, by name and labels."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(
    scraped: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return scraped.get((name, frozenset(labels.items())), 0.0)


def log_lines(path: Path) -> list[dict[str, Any]]:
    lines = []
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def request_line(path: Path, request_id: str) -> dict[str, Any] | None:
    for line in log_lines(path):
        if line.get("logger") == "foursquare.access" and line.get("request_id") == request_id:
            return line
    return None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Two workers on one SQLite file, request lines on, JSON logs (stderr is a file)."""
    directory = tmp_path_factory.mktemp("observed")
    with running_server(
        f"sqlite:///{directory / 'observed.db'}",
        workers=2,
        log_path=directory / "server.log",
        log_level="info",
        access_log=True,
    ) as running:
        yield running


def fresh_client(server: Server) -> httpx.Client:
    # No keep-alive: each request takes a new connection, which either worker may accept.
    return httpx.Client(base_url=server.base_url, limits=httpx.Limits(max_keepalive_connections=0))


def _play_one_game(server: Server, seed: int) -> tuple[int, str]:
    """A whole game of random legal placements, each on a new connection: its placement count
    and how it ended."""
    rng = random.Random(seed)
    placements = 0
    with fresh_client(server) as http:
        created = http.post("/games", json={"player": "metrics"}).json()
        auth = {"Authorization": f"Bearer {created['token']}"}
        game = created
        while game["status"] == "in_progress":
            target = rng.choice(game["legal_placements"])
            answer = http.post(f"/games/{created['id']}/placements", json=target, headers=auth)
            assert answer.status_code == 201, answer.text
            placements += 1
            game = answer.json()["game"]
    return placements, str(game["status"])


def _access_pids(server: Server) -> set[int]:
    lines = log_lines(server.log_path or Path())
    return {line["pid"] for line in lines if line.get("logger") == "foursquare.access"}


def test_metrics_sum_the_requests_and_games_of_both_workers(server: Server) -> None:
    games, placements, results = 0, 0, {"won": 0, "lost": 0}
    with fresh_client(server) as http:
        before = samples(http.get("/metrics").text)
        # Games played four at a time until both workers have answered some of their requests:
        # which worker accepts a connection is the kernel's choice, and one after another they
        # may all go to the same one (an idle worker is woken last-in first-out).
        with ThreadPoolExecutor(max_workers=4) as pool:
            while games < 40 and (games == 0 or len(_access_pids(server)) < 2):
                for count, status in pool.map(
                    lambda seed: _play_one_game(server, seed), range(games, games + 4)
                ):
                    placements += count
                    results[status] += 1
                games += 4
        hinted = http.post("/games").json()
        assert (
            http.get(
                f"/games/{hinted['id']}/hint",
                headers={"Authorization": f"Bearer {hinted['token']}"},
            ).status_code
            == 200
        )
        missing = [http.get(f"/games/{i}").status_code for i in range(5)]
        assert missing == [404] * 5

        def delta(scraped: dict[Any, float], name: str, **labels: str) -> float:
            return value(scraped, name, **labels) - value(before, name, **labels)

        expected = {
            ("foursquare_games_created_total", ()): games + 1,
            ("foursquare_placements_total", ()): placements,
            ("foursquare_games_finished_total", (("result", "won"),)): results["won"],
            ("foursquare_games_finished_total", (("result", "lost"),)): results["lost"],
            ("foursquare_hint_duration_seconds_count", ()): 1,
            (
                "foursquare_http_requests_total",
                (("method", "POST"), ("route", "/games"), ("status", "201")),
            ): games + 1,
            (
                "foursquare_http_requests_total",
                (("method", "POST"), ("route", "/games/{game_id}/placements"), ("status", "201")),
            ): placements,
            (
                "foursquare_http_requests_total",
                (("method", "GET"), ("route", "/games/{game_id}"), ("status", "404")),
            ): 5,
            (
                "foursquare_http_request_duration_seconds_count",
                (("method", "POST"), ("route", "/games/{game_id}/placements")),
            ): placements,
        }
        # Both workers' pools (SQLite: 8 read connections and 1 write connection each).
        pools = {"read": 16.0, "write": 2.0}

        def scrape_matches() -> dict[Any, float] | None:
            scraped = samples(http.get("/metrics").text)
            seen = {key: delta(scraped, key[0], **dict(key[1])) for key in expected}
            sizes = {p: value(scraped, "foursquare_db_pool_size", pool=p) for p in pools}
            return scraped if seen == expected and sizes == pools else None

        scraped = wait_for(scrape_matches, "the metrics of both workers to add up")
    # Raw paths never become labels.
    assert not [key for key in scraped if "/games/0" in str(key) or "/games/1" in str(key)]
    # Both workers answered some of them (so the sums above are over two processes).
    assert len(_access_pids(server)) == 2, "both workers should have answered requests"


def test_request_ids_are_echoed_in_header_problem_and_log_line(server: Server) -> None:
    assert server.log_path is not None
    with fresh_client(server) as http:
        given = http.get("/games/not-a-game", headers={"X-Request-ID": "client-chosen.42"})
        made = http.get("/games/not-a-game")
        insane = http.get("/games/not-a-game", headers={"X-Request-ID": "x" * 200})
    assert given.status_code == made.status_code == insane.status_code == 404
    assert given.headers["x-request-id"] == given.json()["request_id"] == "client-chosen.42"
    made_id = made.headers["x-request-id"]
    assert re.fullmatch(r"[0-9a-f]{32}", made_id)
    assert made.json()["request_id"] == made_id
    assert re.fullmatch(r"[0-9a-f]{32}", insane.headers["x-request-id"])
    log_path = server.log_path
    for request_id in ("client-chosen.42", made_id):

        def logged(rid: str = request_id) -> dict[str, Any] | None:
            return request_line(log_path, rid)

        line = wait_for(logged, "a log line")
        assert line["route"] == "/games/{game_id}"
        assert line["method"] == "GET"
        assert line["status"] == 404
        assert line["duration_ms"] >= 0
        assert "game_id" not in line  # not-a-game is no game id


def test_an_event_stream_is_timed_to_its_headers_and_logged_with_its_life(
    server: Server,
) -> None:
    """A stream's latency in the histogram is the time to its headers, not the minutes it
    stays open (which would swamp every quantile); its request line gives its whole life."""
    held_for = 3.0
    assert server.log_path is not None
    log_path = server.log_path
    with fresh_client(server) as http:
        before = samples(http.get("/metrics").text)
        labels = {"method": "GET", "route": "/events"}
        with http.stream("GET", "/events", headers={"X-Request-ID": "held-stream"}) as stream:
            assert stream.status_code == 200
            opened = time.monotonic()
            time.sleep(held_for)
            lasted = time.monotonic() - opened

        def observed() -> dict[Any, float] | None:
            scraped = samples(http.get("/metrics").text)
            count = "foursquare_http_request_duration_seconds_count"
            done = value(scraped, count, **labels) - value(before, count, **labels) == 1
            return scraped if done else None

        scraped = wait_for(observed, "the stream's duration to be observed")
    total = "foursquare_http_request_duration_seconds_sum"
    timed = value(scraped, total, **labels) - value(before, total, **labels)
    # Its headers come at once; a slow machine still answers well inside the held time.
    assert 0 <= timed < lasted / 2
    line = wait_for(lambda: request_line(log_path, "held-stream"), "the stream's log line")
    assert line["route"] == "/events" and line["status"] == 200
    assert line["duration_ms"] >= held_for * 1000


def test_tokens_and_keys_never_reach_the_log(server: Server) -> None:
    assert server.log_path is not None
    log_path = server.log_path
    with fresh_client(server) as http:
        created = http.post("/games").json()
        token, game_id = created["token"], created["id"]
        key = "idempotency-key-never-logged-5f1e"
        refused = http.post(
            f"/games/{game_id}/placements?token={token}&access_token={token}",
            json=created["legal_placements"][0],
        )
        placed = http.post(
            f"/games/{game_id}/placements",
            json=created["legal_placements"][0],
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key},
        )
        read = http.get(f"/games/{game_id}?token={token}", headers={"X-Request-ID": "last-one"})
    assert refused.status_code in (400, 401, 422)
    assert placed.status_code == 201
    assert read.status_code in (200, 400, 422)
    line = wait_for(lambda: request_line(log_path, placed.headers["x-request-id"]), "line")
    assert line["game_id"] == game_id
    assert line["route"] == "/games/{game_id}/placements"
    wait_for(lambda: request_line(log_path, "last-one"), "the last request's line")
    text = log_path.read_text(errors="replace")
    assert token not in text
    assert key not in text
    assert "?" not in "".join(line.get("route", "") for line in log_lines(log_path))


def test_metrics_off_is_a_404(sqlite_url: str) -> None:
    with running_server(sqlite_url, extra_env={"FOURSQUARE_METRICS": "off"}) as server:
        answer = httpx.get(f"{server.base_url}/metrics")
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"


def test_metrics_on_their_own_port(sqlite_url: str) -> None:
    port = free_port()
    env = {"FOURSQUARE_METRICS_PORT": str(port)}
    with running_server(sqlite_url, extra_env=env) as server:
        assert httpx.get(f"{server.base_url}/metrics").status_code == 404
        assert httpx.post(f"{server.base_url}/games").status_code == 201

        def created() -> bool:
            scraped = samples(httpx.get(f"http://127.0.0.1:{port}/metrics").text)
            return value(scraped, "foursquare_games_created_total") == 1

        wait_for(created, "the game on the metrics port")


def test_a_rate_limiter_counts_its_refusals(sqlite_url: str) -> None:
    settings = Settings(
        database_url=sqlite_url,
        migrate_on_start=False,
        rate_limit_enabled=True,
        rate_limit_read_per_address="2/minute",
    )
    with TestClient(create_app(settings), client=("192.0.2.7", 50000)) as limited:

        def refused() -> float:
            scraped = samples(limited.get("/metrics").text)
            return value(scraped, "foursquare_rate_limited_total", scope="read")

        before = refused()
        statuses = [limited.get("/leaderboard").status_code for _ in range(4)]
        assert statuses == [200, 200, 429, 429]
        assert refused() == before + 2


def test_the_pool_gauges_name_each_pool(client: TestClient, backend: str) -> None:
    names = {"postgresql": ["main"], "sqlite": ["read", "write"]}[backend]

    def sampled() -> bool:
        scraped = samples(client.get("/metrics").text)
        sizes = [value(scraped, "foursquare_db_pool_size", pool=name) for name in names]
        return all(sizes) and all(
            (("foursquare_db_pool_checked_out", frozenset({("pool", name)})) in scraped)
            for name in names
        )

    wait_for(sampled, "the pool gauges")


def test_log_format_auto_is_text_on_a_terminal_and_json_otherwise(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert formatter_class("auto") is TextFormatter
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert formatter_class("auto") is JsonFormatter
    assert formatter_class("text") is TextFormatter


def test_an_unexpected_error_is_a_500_with_its_request_id(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(settings)

    @app.get("/games/{game_id}/explode")
    async def explode(game_id: str) -> None:
        raise RuntimeError("a bug")

    caplog.set_level(logging.INFO, logger="foursquare.access")
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/games/0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80/explode")
    assert answer.status_code == 500
    assert answer.json()["code"] == "internal_error"
    assert answer.json()["request_id"] == answer.headers["x-request-id"]
    [line] = [r for r in caplog.records if r.name == "foursquare.access"]
    fields = line.fields  # type: ignore[attr-defined]
    assert fields["status"] == 500
    assert fields["request_id"] == answer.headers["x-request-id"]
    assert fields["route"] == "/games/{game_id}/explode"
    assert fields["game_id"] == "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80"
    [error] = [r for r in caplog.records if r.name == "foursquare.api"]
    assert error.getMessage() == "unexpected error on /games/{game_id}/explode"


def test_problems_document_their_request_id(client: TestClient) -> None:
    problem = client.get("/openapi.json").json()["components"]["schemas"]["Problem"]
    assert "request_id" in problem["properties"]


@pytest.mark.parametrize("formatter", [JsonFormatter(), TextFormatter()])
def test_exception_messages_are_withheld_from_logs(formatter: logging.Formatter) -> None:
    try:
        raise ValueError(f"input_value={'-'.join(['secret', 'deck', 'AH'])!r}")
    except ValueError:
        record = logging.LogRecord("t", logging.ERROR, __file__, 1, "failed", None, None)
        record.exc_info = sys.exc_info()
    text = formatter.format(record)
    assert "ValueError" in text
    assert "secret-deck" not in text

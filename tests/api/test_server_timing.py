"""Every answer says where its time went: ``Server-Timing`` (pool, turn, db, total), the same
figures in the request's log line and in ``foursquare_http_request_phase_seconds``; a real
``foursquare serve`` on PostgreSQL with one read connection and one write turn, so that a
request held in the database makes the next one wait for the pool or for the turn, which its
figures then say. And the request's edges are one layer of the app's own."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import httpx
import psycopg
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.core.database import psycopg_conninfo
from api.settings import Settings
from testkit import databases
from testkit.server import Server, running_server
from tests.api.test_observability import request_line, samples, value, wait_for
from tests.conftest import needs_postgres

pytestmark = pytest.mark.slow

PHASES = ("pool", "turn", "db", "total")


def timing(response: httpx.Response) -> dict[str, float]:
    """The ``Server-Timing`` field as {name: milliseconds}."""
    parsed = {}
    for item in response.headers["server-timing"].split(","):
        name, *parameters = item.strip().split(";")
        (duration,) = (p.split("=")[1] for p in parameters if p.startswith("dur="))
        parsed[name] = float(duration)
    return parsed


@pytest.fixture(scope="module")
def postgres_url(
    _postgres_status: str | None,
    _templates: databases.Templates,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[str]:
    needs_postgres(_postgres_status)
    with _templates.database("postgresql", tmp_path_factory.mktemp("timed")) as url:
        yield url


@pytest.fixture(scope="module")
def server(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One read connection, one write turn; request lines on, JSON logs (stderr is a file)."""
    log_path = tmp_path_factory.mktemp("timed-log") / "server.log"
    with running_server(
        postgres_url,
        log_path=log_path,
        log_level="info",
        access_log=True,
        extra_env={
            "FOURSQUARE_DB_POOL_SIZE": "1",
            "FOURSQUARE_DB_WRITE_CONCURRENCY": "1",
            "FOURSQUARE_DB_POOL_TIMEOUT": "120",
            "FOURSQUARE_RATE_LIMIT_ENABLED": "false",
            # Nothing in the background that would take the one connection or turn.
            "FOURSQUARE_ANALYSIS_WORKER": "false",
            "FOURSQUARE_RACE_WORKER": "false",
            "FOURSQUARE_TOURNAMENT_WORKER": "false",
            "FOURSQUARE_EXPIRE_EVERY_MINUTES": "0",
        },
    ) as running:
        yield running


def new_game(http: httpx.Client) -> dict[str, Any]:
    created = http.post("/games", json={"player": "timed"})
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    return game


def test_every_answer_says_where_its_time_went_in_header_log_and_metrics(
    server: Server,
) -> None:
    assert server.log_path is not None
    log_path = server.log_path
    with httpx.Client(base_url=server.base_url) as http:
        before = samples(http.get("/metrics").text)
        game = new_game(http)
        auth = {"Authorization": f"Bearer {game['token']}"}
        answers = {
            "read": http.get(f"/games/{game['id']}", headers={"X-Request-ID": "timed-read"}),
            "write": http.post(
                f"/games/{game['id']}/placements",
                json=game["legal_placements"][0],
                headers={**auth, "X-Request-ID": "timed-write"},
            ),
            "healthz": http.get("/healthz", headers={"X-Request-ID": "timed-healthz"}),
            "missing": http.get("/nowhere", headers={"X-Request-ID": "timed-missing"}),
            "not json": http.post(
                "/games",
                content=b"player=x",
                headers={"Content-Type": "text/plain", "X-Request-ID": "timed-415"},
            ),
            "head": http.head(f"/games/{game['id']}", headers={"X-Request-ID": "timed-head"}),
        }
        assert [answer.status_code for answer in answers.values()] == [
            200, 201, 200, 404, 415, 200,
        ]  # fmt: skip
        figures = {what: timing(answer) for what, answer in answers.items()}
        for what, figure in figures.items():
            assert list(figure) == list(PHASES), what
            assert all(ms >= 0 for ms in figure.values()), what
            assert figure["total"] >= figure["pool"] + figure["turn"] + figure["db"] - 0.01, what
        # What touched the database says so, and only a write waits for a turn.
        for what in ("read", "write", "head"):
            assert figures[what]["db"] > 0, what
        assert figures["read"]["turn"] == 0
        for what in ("healthz", "missing", "not json"):
            assert figures[what]["pool"] == figures[what]["db"] == figures[what]["turn"] == 0

        # The same figures in each request's log line (its head had them all: the answer
        # was ready).
        for what, request_id in (("read", "timed-read"), ("write", "timed-write")):

            def logged(rid: str = request_id) -> dict[str, Any] | None:
                return request_line(log_path, rid)

            line = wait_for(logged, "a log line")
            for phase in ("pool", "turn", "db"):
                assert line[f"{phase}_ms"] == pytest.approx(figures[what][phase], abs=0.006)
            assert line["duration_ms"] >= figures[what]["total"] - 0.01
        line = wait_for(lambda: request_line(log_path, "timed-healthz"), "a log line")
        assert line["pool_ms"] == line["turn_ms"] == line["db_ms"] == 0

        # And in the metrics: the phases a request had, observed once each.
        def observed() -> dict[Any, float] | None:
            scraped = samples(http.get("/metrics").text)
            count = "foursquare_http_request_phase_seconds_count"
            wanted = {
                ("db", "GET", "/games/{game_id}"): 1,
                ("pool", "GET", "/games/{game_id}"): 1,
                ("turn", "POST", "/games/{game_id}/placements"): 1,
                ("db", "POST", "/games/{game_id}/placements"): 1,
                ("db", "HEAD", "/games/{game_id}"): 1,
                ("turn", "GET", "/games/{game_id}"): 0,
                ("db", "GET", "/healthz"): 0,
            }
            for (phase, method, route), expected in wanted.items():
                labels = {"phase": phase, "method": method, "route": route}
                if value(scraped, count, **labels) - value(before, count, **labels) != expected:
                    return None
            return scraped

        scraped = wait_for(observed, "the phases to be observed")
    read_db = {"phase": "db", "method": "GET", "route": "/games/{game_id}"}
    total = "foursquare_http_request_phase_seconds_sum"
    observed_db = value(scraped, total, **read_db) - value(before, total, **read_db)
    assert observed_db * 1000 == pytest.approx(figures["read"]["db"], abs=0.001)


class Held:
    """PostgreSQL holding what a request needs (``statement``, in a transaction of its own)
    until :meth:`release`: the request's statement waits on the lock."""

    def __init__(self, url: str, statement: str, *parameters: object) -> None:
        self.connection = psycopg.connect(psycopg_conninfo(url))
        self.connection.execute(statement, parameters or None)
        self.database = self.connection.info.dbname

    def waiting(self) -> bool:
        """Whether another session of the database waits for a lock."""
        with psycopg.connect(self.connection.info.dsn, autocommit=True) as watcher:
            row = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = %s AND wait_event_type = 'Lock'",
                (self.database,),
            ).fetchone()
        return bool(row and row[0])

    def release(self) -> None:
        self.connection.rollback()
        self.connection.close()


def held_then_released(
    held: Held, first: Callable[[], httpx.Response], second: Callable[[], httpx.Response]
) -> tuple[httpx.Response, httpx.Response, float]:
    """``first`` sent and seen waiting on ``held``'s lock, then ``second`` sent; both held a
    while, then released. The answers, and how long ``first`` was seen waiting at least."""
    with ThreadPoolExecutor(2) as pool:
        try:
            waiting: Future[httpx.Response] = pool.submit(first)
            wait_for(held.waiting, "the first request to wait on the lock")
            seen = time.monotonic()
            queued = pool.submit(second)
            # Long enough for the second request to reach the server and wait (for the one
            # connection, or the one turn) behind the first.
            threading.Event().wait(1.5)
        finally:
            released = time.monotonic()
            held.release()
        return waiting.result(timeout=60), queued.result(timeout=60), released - seen


def test_a_read_held_in_the_database_says_db_and_the_next_says_pool(
    server: Server, postgres_url: str
) -> None:
    with httpx.Client(base_url=server.base_url, timeout=60) as setup:
        game = new_game(setup)

    def read() -> httpx.Response:
        with httpx.Client(base_url=server.base_url, timeout=60) as http:
            return http.get(f"/games/{game['id']}")

    held = Held(postgres_url, "LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
    first, second, seen_waiting = held_then_released(held, read, read)
    assert first.status_code == second.status_code == 200
    first_figures, second_figures = timing(first), timing(second)
    # The first read's statement waited on the lock all the while it was seen waiting.
    assert first_figures["db"] >= seen_waiting * 1000 - 1
    assert first_figures["db"] > first_figures["pool"]
    # The second waited for the one connection, which the first held.
    assert second_figures["pool"] > second_figures["db"]
    assert second_figures["turn"] == 0


def test_a_write_held_in_the_database_says_db_and_the_next_says_turn(
    server: Server, postgres_url: str
) -> None:
    with httpx.Client(base_url=server.base_url, timeout=60) as setup:
        game = new_game(setup)

    def place() -> httpx.Response:
        with httpx.Client(base_url=server.base_url, timeout=60) as http:
            return http.post(
                f"/games/{game['id']}/placements",
                json=game["legal_placements"][0],
                headers={"Authorization": f"Bearer {game['token']}"},
            )

    def create() -> httpx.Response:
        with httpx.Client(base_url=server.base_url, timeout=60) as http:
            return http.post("/games", json={"player": "timed"})

    held = Held(postgres_url, "SELECT 1 FROM games WHERE id = %s FOR UPDATE", game["id"])
    first, second, seen_waiting = held_then_released(held, place, create)
    assert (first.status_code, second.status_code) == (201, 201), (first.text, second.text)
    first_figures, second_figures = timing(first), timing(second)
    assert first_figures["db"] >= seen_waiting * 1000 - 1
    # The creation waited for the one write turn, which the placement held.
    assert second_figures["turn"] > second_figures["db"]
    assert second_figures["turn"] > second_figures["pool"]


def test_an_event_stream_says_where_its_opening_went(server: Server) -> None:
    with (
        httpx.Client(base_url=server.base_url, timeout=60) as http,
        http.stream("GET", "/events") as stream,
    ):
        assert stream.status_code == 200
        assert list(timing(stream)) == list(PHASES)


def test_the_header_can_be_turned_off(sqlite_url: str) -> None:
    settings = Settings(database_url=sqlite_url, migrate_on_start=False, server_timing=False)
    with TestClient(create_app(settings)) as http:
        assert "server-timing" not in http.get("/healthz").headers
        assert "server-timing" not in http.post("/games", json={}).headers


def test_cross_origin_clients_may_read_it_and_refusals_carry_cors(sqlite_url: str) -> None:
    origin = "https://play.example"
    settings = Settings(database_url=sqlite_url, migrate_on_start=False, cors_origins=[origin])
    with TestClient(create_app(settings)) as http:
        created = http.post("/games", json={}, headers={"Origin": origin})
        exposed = created.headers["access-control-expose-headers"].lower()
        assert "server-timing" in {name.strip() for name in exposed.split(",")}
        refused = http.post(
            "/games", content=b"x", headers={"Origin": origin, "Content-Type": "text/plain"}
        )
        # (A real server's protocol answers a body declared too large before the app sees
        # it: api/ops/http_limits.py. Another server's is answered by the app.)
        too_large = http.post(
            "/games",
            content=b"{" + b" " * 5000 + b"}",
            headers={"Origin": origin, "Content-Type": "application/json"},
        )
        for answer, status in ((refused, 415), (too_large, 413)):
            assert answer.status_code == status
            assert answer.headers["access-control-allow-origin"] == origin
            assert "server-timing" in answer.headers and "x-request-id" in answer.headers
            assert answer.json()["request_id"] == answer.headers["x-request-id"]


def test_a_request_crosses_one_layer_of_the_apps_own(sqlite_url: str) -> None:
    """The request id, the refusals, HEAD, the rate-limit fields, the timing, the log line
    and the metrics are one ASGI layer; the rest is Starlette's (its error and exception
    layers, the router) and, with origins configured, its CORS layer (Starlette's, whose
    refused preflights api/ops/cors.py words as problems: a subclass, not a layer more)."""
    for cors in ([], ["https://play.example"]):
        settings = Settings(database_url=sqlite_url, migrate_on_start=False, cors_origins=cors)
        app = create_app(settings)
        with TestClient(app):
            layers = []
            layer: Any = app.middleware_stack
            while layer is not None and not hasattr(layer, "routes"):
                layers.append(type(layer).__module__.split(".")[0] + "." + type(layer).__name__)
                layer = getattr(layer, "app", None)
        cors_layers = [name for name in layers if name == "api.ProblemCORSMiddleware"]
        ours = [
            name
            for name in layers
            if not re.match(r"(starlette|fastapi)\.", name) and name not in cors_layers
        ]
        assert ours == ["api.RequestEdge"], layers
        assert layers[0] == "api.RequestEdge", layers
        assert len(cors_layers) == (1 if cors else 0), layers
        assert "starlette.CORSMiddleware" not in layers, layers


def test_both_backends_count_the_pool_and_the_database(client: TestClient) -> None:
    """SQLite's reads run inline and its writes in a thread; PostgreSQL's both on the loop."""
    created = client.post("/games", json={})
    read = client.get(f"/games/{created.json()['id']}")
    for answer in (created, read):
        figures = timing(answer)
        assert figures["db"] > 0 and figures["pool"] > 0
        assert figures["total"] >= figures["pool"] + figures["turn"] + figures["db"] - 0.01
    assert timing(read)["turn"] == 0

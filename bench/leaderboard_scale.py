"""Leaderboard latency against table size: does a page cost the same at 10,000 and at
1,000,000 won games, and as deep down the board as at the top?

    .venv/bin/python bench/leaderboard_scale.py [--backend sqlite|postgresql|both]
        [--sizes 10000,1000000] [--requests 300] [--depth 1000]

For each backend and each size: a new migrated database into which that many won games are
bulk-loaded (``bench.bulk``: real game states, scores 0..24, distinct ``finished_at``; then
ANALYZE, and VACUUM on PostgreSQL), and its own server (``uvicorn --factory
api.app:app_from_environment``). With all of them running, one client walks each board by
following ``next_cursor`` ``--depth`` times (or to its last page) and keeps that cursor, then
times, one request at a time on keep-alive connections:

- ``GET /healthz``, for the fixed cost of an HTTP round trip;
- the first page, ``GET /leaderboard?limit=100``;
- the deep page, re-requested with the saved cursor;

- a won game's rank and neighbours: ``GET /games/{id}`` (which carries its all-time rank) and
  ``GET /leaderboard/around/{id}`` on the all-time, day and week boards, for the first game
  of the deep page, and on the per-player board for a player's best ten pages down it;

for every size in turn, ``--requests`` rounds after a tenth as many unrecorded, so that a
busy neighbour on the machine slows every size and every page alike. Ratios use medians: the
goals are page latency at the largest size <= 1.2 x at the smallest, deep page <= 1.2 x first
page, and rank and around at the largest size <= 2 x at the smallest. The servers run
without their cache of rendered pages (``FOURSQUARE_LEADERBOARD_CACHE_PAGES=0``), so every
request runs the query: this measures the query and the rendering, not the cache. At the
largest size the plan of the leaderboard query (the very statement the service runs for
these two requests, captured from the app) is printed for both pages.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import create_engine, event

from api.app import create_app
from api.settings import Settings
from bench.bulk import BulkLoader
from bench.harness import backends_of, sized_parser
from bench.loadgen import EndpointStats, Recorder, run_async
from bench.results import add_json_option, write_json
from testkit.databases import throwaway_database
from testkit.http import HttpConnection
from testkit.processes import unwind_on_sigterm
from testkit.server import Server, running_server

APP_FACTORY = "api.app:app_from_environment"
LIMIT = 100


@dataclass
class SizeResult:
    size: int
    load_seconds: float
    deep_page: int = 1  # 1-based page number of the deep page
    deep_cursor: str | None = None
    ranked_game: str | None = None  # first game of the deep page: its rank and around
    ranked_rank: int = 0
    best_game: str | None = None  # a player's best, far down the per-player board
    best_rank: int = 0
    walk_seconds: float = 0.0
    recorder: Recorder = field(default_factory=Recorder)
    plans: dict[str, list[str]] = field(default_factory=dict)  # the SQL, then its plan

    def stats(self, label: str) -> EndpointStats:
        return self.recorder.endpoints.get(label, EndpointStats())

    @property
    def healthz(self) -> EndpointStats:
        return self.stats("healthz")

    @property
    def first(self) -> EndpointStats:
        return self.stats("first")

    @property
    def deep(self) -> EndpointStats:
        return self.stats("deep")

    def errors(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for endpoint in self.recorder.endpoints.values():
            for key, count in endpoint.errors().items():
                found[key] = found.get(key, 0) + count
        return found

    def figures(self) -> dict[str, Any]:
        """What ``--json`` reports of the size: its pages, each endpoint, the errors, and
        the query plans (the SQL, then its plan's lines) measured at the largest size."""
        return {
            "size": self.size,
            "load_seconds": self.load_seconds,
            "deep_page": self.deep_page,
            "ranked_rank": self.ranked_rank,
            "best_rank": self.best_rank,
            "endpoints": self.recorder.figures(),
            "errors": self.errors(),
            "plans": self.plans,
        }


FIRST_PAGE = f"/leaderboard?limit={LIMIT}"
BEST_PAGE = f"/leaderboard?limit={LIMIT}&per_player=best"
BEST_DEPTH = 10  # pages of the per-player board to walk for its ranked game
STANDING = ("rank", "around", "around day", "around week", "around best")


def _page_path(cursor: str | None) -> str:
    return FIRST_PAGE if cursor is None else f"{FIRST_PAGE}&cursor={quote(cursor)}"


async def walk(connection: HttpConnection, result: SizeResult, depth: int) -> None:
    """Follow ``next_cursor`` ``depth`` times (or to the last page); keep the last cursor."""
    start = time.perf_counter()
    followed = 0
    page = (await connection.request("GET", FIRST_PAGE)).json()
    while followed < depth and page["next_cursor"] is not None:
        result.deep_cursor = page["next_cursor"]
        followed += 1
        page = (await connection.request("GET", _page_path(result.deep_cursor))).json()
    result.walk_seconds = time.perf_counter() - start
    result.deep_page = followed + 1
    if page["entries"] and page["entries"][0]["rank"] != followed * LIMIT + 1:
        raise AssertionError(f"page {followed + 1} starts at rank {page['entries'][0]['rank']}")
    result.ranked_game = page["entries"][0]["game_id"]
    result.ranked_rank = page["entries"][0]["rank"]
    best = (await connection.request("GET", BEST_PAGE)).json()
    for _ in range(BEST_DEPTH):
        if best["next_cursor"] is None:
            break
        path = f"{BEST_PAGE}&cursor={quote(best['next_cursor'])}"
        best = (await connection.request("GET", path)).json()
    result.best_game = best["entries"][0]["game_id"]
    result.best_rank = best["entries"][0]["rank"]


def standing_paths(result: SizeResult) -> list[tuple[str, str]]:
    """The requests that rank one game: its representation (which carries its all-time
    rank) and its neighbours on each board."""
    around = f"/leaderboard/around/{result.ranked_game}?count=5"
    return [
        ("rank", f"/games/{result.ranked_game}"),
        ("around", around),
        ("around day", f"{around}&period=day"),
        ("around week", f"{around}&period=week"),
        ("around best", f"/leaderboard/around/{result.best_game}?count=5&per_player=best"),
    ]


async def check_standing(connection: HttpConnection, result: SizeResult) -> None:
    """The ranks the walk saw are the ranks these requests give."""
    game = (await connection.request("GET", f"/games/{result.ranked_game}")).json()
    if game["rank"] != result.ranked_rank:
        raise AssertionError(f"rank {game['rank']}, the board says {result.ranked_rank}")
    path = f"/leaderboard/around/{result.best_game}?count=5&per_player=best"
    best = (await connection.request("GET", path)).json()
    if best["rank"] != result.best_rank:
        raise AssertionError(f"best's rank {best['rank']}, the board says {result.best_rank}")


async def measure(servers: list[tuple[SizeResult, Server]], args: argparse.Namespace) -> None:
    """Walk each size's cursors, then time /healthz, the first page and the deep page of
    every size in turn, round after round: a busy neighbour on the machine slows all alike."""
    connections = [HttpConnection(server.host, server.port) for _, server in servers]
    try:
        for (result, _), connection in zip(servers, connections, strict=True):
            await walk(connection, result, args.depth)
            await check_standing(connection, result)
        warmup = max(1, args.requests // 10)
        for round_ in range(warmup + args.requests):
            for (result, _), connection in zip(servers, connections, strict=True):
                if round_ == warmup:
                    result.recorder.start()
                for label, path in (
                    ("healthz", "/healthz"),
                    ("first", FIRST_PAGE),
                    ("deep", _page_path(result.deep_cursor)),
                    *standing_paths(result),
                ):
                    await result.recorder.call(label, connection, "GET", path)
    finally:
        for connection in connections:
            await connection.close()


def _leaderboard_statements(database_url: str, paths: list[str]) -> list[tuple[str, Any]]:
    """The SQL and parameters the service runs on ``scores`` for each of ``paths``, captured
    from the app itself (in this process, through Starlette's test client)."""
    from fastapi.testclient import TestClient  # needs httpx, a test dependency

    app = create_app(Settings(database_url=database_url, migrate_on_start=False))
    captured: list[tuple[str, Any]] = []

    def capture(
        _connection: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any
    ) -> None:
        if "FROM scores" in statement:
            captured.append((statement, parameters))

    statements: list[tuple[str, Any]] = []
    with TestClient(app) as client:
        database = app.state.database
        # PostgreSQL's requests read through an asyncio engine, whose events are its sync_engine's.
        engine = (
            database.read_engine
            if database.async_read_engine is None
            else database.async_read_engine.sync_engine
        )
        event.listen(engine, "before_cursor_execute", capture)
        try:
            for path in paths:
                captured.clear()
                response = client.get(path)
                if response.status_code != 200 or not captured:
                    raise RuntimeError(f"GET {path}: {response.status_code} {response.text}")
                statements.append(captured[-1])
        finally:
            event.remove(engine, "before_cursor_execute", capture)
    return statements


def _psycopg_form(statement: str, parameters: Sequence[Any]) -> tuple[str, dict[str, Any]]:
    """``statement`` as captured from the service's asyncpg engine (``$1``, ``$2``...) in
    the ``%(p1)s`` form psycopg takes: the plans are read through a plain sync engine, and
    the service's own SQL is what must be explained, not a rebuilt copy of it."""
    named = re.sub(r"\$(\d+)", r"%(p\1)s", statement.replace("%", "%%"))
    return named, {f"p{index}": value for index, value in enumerate(parameters, start=1)}


def leaderboard_plans(database_url: str, cursor: str | None) -> dict[str, list[str]]:
    """The SQL and the database's plan for the leaderboard query of the first page and of
    ``cursor``'s page (PostgreSQL: ``EXPLAIN ANALYZE``; SQLite: ``EXPLAIN QUERY PLAN``)."""
    first = f"/leaderboard?limit={LIMIT}"
    deep = first if cursor is None else f"{first}&cursor={quote(cursor)}"
    statements = _leaderboard_statements(database_url, [first, deep])
    engine = create_engine(database_url)
    prefix = (
        "EXPLAIN QUERY PLAN " if engine.dialect.name == "sqlite" else "EXPLAIN (ANALYZE, BUFFERS) "
    )
    plans: dict[str, list[str]] = {}
    try:
        with engine.connect() as connection:
            for name, (statement, parameters) in zip(
                ("first page", "deep page"), statements, strict=True
            ):
                if engine.dialect.name != "sqlite":
                    statement, parameters = _psycopg_form(statement, parameters)
                rows = connection.exec_driver_sql(prefix + statement, parameters).all()
                plans[name] = [" ".join(statement.split())] + [str(row[-1]) for row in rows]
    finally:
        engine.dispose()
    return plans


def _ms(stats: EndpointStats, fraction: float) -> float:
    return stats.millis(fraction)


def print_size(backend: str, result: SizeResult) -> None:
    print(
        f"[{backend}] {result.size} won games: {result.first.count} requests each, "
        "one at a time, interleaved with the other sizes:"
    )
    rows = [
        ("GET /healthz", result.healthz),
        (f"first page (limit {LIMIT})", result.first),
        (f"page {result.deep_page} (after {result.deep_page - 1} cursors)", result.deep),
        (f"rank: GET /games/{{id}}, rank {result.ranked_rank}", result.stats("rank")),
        ("around (all, count 5)", result.stats("around")),
        ("around (day)", result.stats("around day")),
        ("around (week)", result.stats("around week")),
        (f"around (per_player=best, rank {result.best_rank})", result.stats("around best")),
    ]
    for name, stats in rows:
        print(
            f"  {name:<44} p50 {_ms(stats, 0.5):7.2f} ms  p90 {_ms(stats, 0.9):7.2f} ms  "
            f"p99 {_ms(stats, 0.99):7.2f} ms"
        )
    print(
        f"  walking {result.deep_page - 1} cursors took {result.walk_seconds:.2f} s; "
        f"errors: {result.errors() or 'none'}"
    )
    sys.stdout.flush()


def _ratio_line(name: str, numerator: float, denominator: float, goal: float) -> str:
    ratio = numerator / denominator if denominator else float("inf")
    verdict = "met" if ratio <= goal else "MISSED"
    return (
        f"  {name:<46} {numerator:7.2f} / {denominator:7.2f} ms = x{ratio:.2f}   "
        f"goal <= x{goal}  {verdict}"
    )


def print_ratios(backend: str, results: list[SizeResult]) -> None:
    small, large = results[0], results[-1]
    print(f"[{backend}] ratios of median latencies")
    if large is not small:
        print(
            _ratio_line(
                f"first page, {large.size} vs {small.size}",
                _ms(large.first, 0.5),
                _ms(small.first, 0.5),
                1.2,
            )
        )
        print(
            _ratio_line(
                f"deep page, {large.size} vs {small.size}",
                _ms(large.deep, 0.5),
                _ms(small.deep, 0.5),
                1.2,
            )
        )
        for label in STANDING:
            print(
                _ratio_line(
                    f"{label}, {large.size} vs {small.size}",
                    _ms(large.stats(label), 0.5),
                    _ms(small.stats(label), 0.5),
                    2.0,
                )
            )
    for result in results:
        print(
            _ratio_line(
                f"page {result.deep_page} vs first page, {result.size}",
                _ms(result.deep, 0.5),
                _ms(result.first, 0.5),
                1.2,
            )
        )
    sys.stdout.flush()


# Every request must find its page in the database, not in the server's page cache
# (api.leaderboards.cache).
NO_PAGE_CACHE = {"FOURSQUARE_LEADERBOARD_CACHE_PAGES": "0"}


def run_backend(backend: str, args: argparse.Namespace) -> list[SizeResult]:
    """One database and one server per size, all running together while measured."""
    results: list[SizeResult] = []
    with ExitStack() as stack:
        servers: list[tuple[SizeResult, Server]] = []
        urls: list[str] = []
        for size in sorted(args.sizes):
            url = stack.enter_context(throwaway_database(backend, args.postgres_url))
            loader = BulkLoader(url, seed=args.seed)
            try:
                result = SizeResult(size=size, load_seconds=loader.load(size))
            finally:
                loader.close()
            print(f"[{backend}] loaded {size} won games in {result.load_seconds:.1f} s")
            server = running_server(
                url, app_factory=APP_FACTORY, extra_env=NO_PAGE_CACHE, migrate_on_start=False
            )
            servers.append((result, stack.enter_context(server)))
            urls.append(url)
            results.append(result)
        run_async(measure(servers, args))
        for result in results:
            print_size(backend, result)
        print_ratios(backend, results)
        results[-1].plans = leaderboard_plans(urls[-1], results[-1].deep_cursor)
    for name, lines in results[-1].plans.items():
        print(f"[{backend}] plan of the leaderboard query at {results[-1].size}, {name}:")
        print(f"  SQL: {lines[0]}")
        for line in lines[1:]:
            print(f"    {line}")
    sys.stdout.flush()
    return results


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = sized_parser(__doc__, [10_000, 1_000_000])
    parser.add_argument("--requests", type=int, default=300, help="timed requests per page")
    parser.add_argument("--depth", type=int, default=1000, help="cursors to follow")
    parser.add_argument("--seed", type=int, default=0)
    add_json_option(parser)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    unwind_on_sigterm()
    args = parse_args(argv)
    failed = 0
    figures: dict[str, list[dict[str, Any]]] = {}
    for backend in backends_of(args.backend, args.postgres_url):
        results = run_backend(backend, args)
        figures[backend] = [result.figures() for result in results]
        failed += sum(
            n
            for r in results
            for key, n in r.errors().items()
            if key == "connection" or key.startswith("5")
        )
    write_json(args.json, figures)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""CPU instructions per request, counted by callgrind: a cost that the machine's load does not move.

    .venv/bin/python bench/request_cost.py [--backend sqlite|postgresql|both]
        [--kinds healthz,write,create,place,read,read_in_progress,leaderboard,page]
        [--requests 300] [--analysis-worker]

On two shared cores, throughput drifts by a sixth between runs of the same code, more than
most single changes are worth. This counts instructions instead (``valgrind --tool=callgrind``
counts them whatever else the machine does). For each kind of request it runs the bench app
(:func:`bench.app.create_bench_app`: the service plus ``POST /bench/write``) in one process
on a new database, calls it through ASGI directly (no sockets, no HTTP parsing: the same for
every kind), one request at a time, twice under callgrind: once with 100 requests, once
with ``--requests`` more, and prints the difference divided by ``--requests``: the
instructions of one request, start-up and warm-up excluded. Each ratio to the write floor is what
placements/s over the floor's would be if the server did nothing but these requests.

Kinds: ``healthz``, ``write`` (``POST /bench/write``, the floor), ``create``, ``place`` (whole
games: the current card at a random legal placement, a new game after each one ends; game
creations included, as in ``http_load.py``'s place phase), ``read`` (``GET /games/{id}``),
``read_in_progress`` (``GET /games/{id}`` of a game with
``IN_PROGRESS_PLACEMENTS`` cards placed and its legal placements listed: the answer most reads
get, where ``read`` reads the smallest there is),
``leaderboard`` (``GET /leaderboard?limit=100`` from the page cache: the revision read, then
the stored page) and ``page`` (the same with the cache off: the query and 100 entries
rendered); for these two, 1,000 won games are bulk-loaded first (``bench/bulk.py``).
PostgreSQL's own work is in its server process and not counted. The analysis worker is off
unless ``--analysis-worker`` is given: its polling of the job queue would add 1-4 % to whatever
kind is counted, work that no request asks for. ``--no-valgrind`` runs the
requests once without counting (what the test suite does).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from api.core.settings import Settings  # noqa: E402
from api.ops.logs import configure_logging  # noqa: E402
from bench.app import create_bench_app  # noqa: E402
from bench.bulk import BulkLoader  # noqa: E402
from bench.harness import DEFAULT_POSTGRES_ADMIN_URL, backends_of  # noqa: E402
from testkit.databases import throwaway_database  # noqa: E402
from testkit.processes import unwind_on_sigterm  # noqa: E402

KINDS = ("healthz", "write", "create", "place", "read", "read_in_progress", "leaderboard", "page")
IN_PROGRESS_PLACEMENTS = 8  # the game ``read_in_progress`` reads: half of its 16 squares filled
WON_GAMES = 1_000  # bulk-loaded for the leaderboard kinds
WARMUP = 50
Asgi = Callable[..., Awaitable[None]]


async def call(
    app: Asgi,
    method: str,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    *,
    decode: bool = True,
) -> tuple[int, Any]:
    """One request straight through the ASGI interface; its status and its body, decoded
    from JSON unless ``decode`` is false (what the client does is counted too: requests whose
    answer the client does not use leave it as bytes)."""
    raw = json.dumps(body).encode() if body is not None else b""
    path, _, query = path.partition("?")
    header_list = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(raw))]
    header_list += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query.encode(),
        "root_path": "", "headers": header_list, "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80), "state": {},
    }  # fmt: skip
    answer: dict[str, Any] = {"body": b""}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": raw, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await app(scope, receive, send)
    if not decode:
        return answer["status"], answer["body"]
    return answer["status"], json.loads(answer["body"]) if answer["body"] else None


class Client:
    """Requests of each kind, one at a time, checked as they come back."""

    def __init__(self, app: Asgi, seed: int = 1) -> None:
        self.app = app
        self.rng = random.Random(seed)
        self.game: dict[str, Any] | None = None
        self.token = ""
        self.writes = 0

    async def healthz(self) -> None:
        assert (await call(self.app, "GET", "/healthz", decode=False))[0] == 200

    async def write(self) -> None:
        self.writes += 1
        status, _ = await call(self.app, "POST", "/bench/write", {"key": self.writes})
        assert status == 201

    async def create(self) -> None:
        status, game = await call(self.app, "POST", "/games", {"player": "bench"})
        assert status == 201, game
        self.game, self.token = game, game["token"]

    async def place(self) -> None:
        if self.game is None or self.game["status"] != "in_progress":
            await self.create()
        assert self.game is not None
        target = self.rng.choice(self.game["legal_placements"])
        status, placed = await call(
            self.app, "POST", f"/games/{self.game['id']}/placements", target,
            {"Authorization": f"Bearer {self.token}"},
        )  # fmt: skip
        assert status == 201, placed
        self.game = placed["game"]

    async def read(self) -> None:
        if self.game is None:
            await self.place()
        assert self.game is not None
        status, _ = await call(self.app, "GET", f"/games/{self.game['id']}", decode=False)
        assert status == 200

    async def read_in_progress(self) -> None:
        while self.game is None or self.game["placements_count"] < IN_PROGRESS_PLACEMENTS:
            await self.place()
            assert self.game is not None
            if self.game["status"] != "in_progress":
                self.game = None  # it ended early: another one
        status, _ = await call(self.app, "GET", f"/games/{self.game['id']}", decode=False)
        assert status == 200

    async def leaderboard(self) -> None:
        status, page = await call(self.app, "GET", "/leaderboard?limit=100", decode=False)
        assert status == 200 and page.count(b'"game_id"') == 100, page[:200]

    page = leaderboard  # the same request, run with the page cache off


async def run(
    backend: str,
    kind: str,
    requests: int,
    admin_url: str,
    request_log: bool = False,
    analysis_worker: bool = False,
) -> None:
    """Start the app on a new database, send ``WARMUP + requests`` requests of ``kind``."""
    with throwaway_database(backend, admin_url) as url:
        # The races' ticker is off: it polls twice a second, like the analysis worker, and
        # no race is run here (its polls would count in whatever request they fall into).
        settings = Settings(
            database_url=url,
            migrate_on_start=False,
            analysis_worker=analysis_worker,
            race_worker=False,
        )
        if request_log:
            # As the deployed service logs: a JSON line per request, to stderr.
            settings = settings.model_copy(update={"log_format": "json", "log_level": "info"})
            configure_logging(settings)
        if kind in ("leaderboard", "page"):
            loader = BulkLoader(url, seed=1)
            loader.load(WON_GAMES)
            loader.close()
        if kind == "page":
            settings = settings.model_copy(update={"leaderboard_cache_pages": 0})
        app = create_bench_app(settings)
        events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        started = asyncio.Event()

        async def send(message: MutableMapping[str, Any]) -> None:
            if message["type"].startswith("lifespan.startup"):
                assert message["type"] == "lifespan.startup.complete", message
                started.set()

        await events.put({"type": "lifespan.startup"})
        lifespan = asyncio.create_task(app({"type": "lifespan", "state": {}}, events.get, send))
        await started.wait()
        client = Client(app)
        request = getattr(client, kind)
        for _ in range(WARMUP + requests):
            await request()
        await events.put({"type": "lifespan.shutdown"})
        await lifespan


def _instructions(backend: str, kind: str, requests: int, admin_url: str, flags: list[str]) -> int:
    command = [
        "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
        sys.executable, __file__, "--inner", "--backend", backend, "--kinds", kind,
        "--requests", str(requests), "--postgres-url", admin_url, *flags,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=os.environ, check=False)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"callgrind run failed:\n{done.stdout}\n{done.stderr[-3000:]}")
    return int(found.group(1))


def measure(
    backend: str, kind: str, requests: int, admin_url: str, flags: list[str] | None = None
) -> float:
    """Instructions of one request: two runs that differ by ``requests`` requests (``flags``:
    the inner runs' own, such as ``--request-log``)."""
    with ThreadPoolExecutor(2) as runs:  # the two runs side by side: counts do not mind
        base, more = runs.map(
            lambda n: _instructions(backend, kind, n, admin_url, flags or []),
            (50, 50 + requests),
        )
    return (more - base) / requests


def main(argv: list[str] | None = None) -> int:
    unwind_on_sigterm()
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES_ADMIN_URL)
    parser.add_argument("--no-valgrind", action="store_true", help="run once, count nothing")
    parser.add_argument(
        "--request-log", action="store_true", help="log a JSON line per request, as deployed"
    )
    parser.add_argument(
        "--analysis-worker",
        action="store_true",
        help="let the analysis worker poll its queue, as a deployed process does",
    )
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    kinds = args.kinds.split(",")
    unknown = set(kinds) - set(KINDS)
    if unknown:
        parser.error(f"unknown kinds: {', '.join(sorted(unknown))}")
    if args.inner or args.no_valgrind:
        for backend in backends_of(args.backend, args.postgres_url):
            for kind in kinds:
                asyncio.run(
                    run(
                        backend,
                        kind,
                        args.requests,
                        args.postgres_url,
                        args.request_log,
                        args.analysis_worker,
                    )
                )
                if args.no_valgrind:
                    print(f"[{backend}] {kind}: {WARMUP + args.requests} requests answered")
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing to count with (apt install valgrind)")
        return 1
    flags = [
        *(["--request-log"] if args.request_log else []),
        *(["--analysis-worker"] if args.analysis_worker else []),
    ]
    worker = "on" if args.analysis_worker else "off"
    print(
        f"instructions per request (callgrind; {args.requests} requests after {WARMUP};"
        f" analysis worker {worker})"
    )
    # The floors first, and each count printed as soon as it is known (a kind takes minutes).
    kinds.sort(key=KINDS.index)
    for backend in backends_of(args.backend, args.postgres_url):
        counts: dict[str, float] = {}
        for kind in kinds:
            count = counts[kind] = measure(backend, kind, args.requests, args.postgres_url, flags)
            floor = counts.get("write" if kind in ("create", "place") else "healthz")
            ratio = ""
            if floor and kind not in ("write", "healthz"):
                ratio = f"  floor/this {floor / count:6.1%}"
            print(f"[{backend}] {kind:16s} {count:12,.0f}{ratio}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

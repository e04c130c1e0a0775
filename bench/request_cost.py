"""CPU instructions per request, counted by callgrind: a cost that the machine's load does not move.

    .venv/bin/python bench/request_cost.py [--backend sqlite|postgresql|both]
        [--kinds healthz,write,create,place,read,read_in_progress,leaderboard,page]
        [--requests 300] [--profile DIR]

On two shared cores, throughput drifts by a sixth between runs of the same code, more than
most single changes are worth. This counts instructions instead (``valgrind --tool=callgrind``
counts them whatever else the machine does). For each kind of request it runs the bench app
(:func:`bench.app.create_bench_app`: the service plus ``POST /bench/write``) in one process
on a new database, calls it through ASGI directly (no sockets, no HTTP parsing: the same for
every kind), one request at a time, under callgrind: 50 requests to warm up, then a window of
``--requests`` requests, whose instructions divided by their number are one request's.

Only the window is counted, and only what the requests do in it, so that runs of the same
code agree (to some 0.03 %):

- The window is marked in the run itself (:data:`WINDOW_MARKER`), not found as the difference
  of two runs of different lengths: the start-up (imports, the app, the database: billions of
  instructions) differs between runs by more than a few hundred requests cost, and the
  difference of two runs moved ``/healthz`` by 15 %.
- The app's timers are held while the window runs (:func:`timers_held`).
- Every run has the same hash seed (``PYTHONHASHSEED=0``).

Each ratio to the write floor is what placements/s over the floor's would be if the server
did nothing but these requests. ``--profile DIR`` keeps each window's callgrind profile
(``callgrind_annotate DIR/callgrind.sqlite.read.out``).

Kinds: ``healthz``, ``write`` (``POST /bench/write``, the floor), ``create``, ``place`` (whole
games: the current card at a random legal placement, a new game after each one ends; game
creations included, as in ``http_load.py``'s place phase), ``read`` (``GET /games/{id}``),
``read_in_progress`` (``GET /games/{id}`` of a game with
``IN_PROGRESS_PLACEMENTS`` cards placed and its legal placements listed: the answer most reads
get, where ``read`` reads the smallest there is),
``leaderboard`` (``GET /leaderboard?limit=100`` from the page cache: the revision read, then
the stored page) and ``page`` (the same with the cache off: the query and 100 entries
rendered); for these two, 1,000 won games are bulk-loaded first (``bench/bulk.py``).
PostgreSQL's own work is in its server process and not counted. The analysis worker and the
races' ticker are off (they poll by the second, and no request here asks for their work).
``--no-valgrind`` runs the requests once without counting (what the test suite does).
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
import tempfile
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from api.ops.logs import configure_logging  # noqa: E402
from api.settings import Settings  # noqa: E402
from bench.app import create_bench_app  # noqa: E402
from bench.bulk import BulkLoader  # noqa: E402
from bench.harness import DEFAULT_POSTGRES_ADMIN_URL, backends_of  # noqa: E402
from testkit.databases import throwaway_database  # noqa: E402
from testkit.processes import unwind_on_sigterm  # noqa: E402

KINDS = ("healthz", "write", "create", "place", "read", "read_in_progress", "leaderboard", "page")
IN_PROGRESS_PLACEMENTS = 8  # the game ``read_in_progress`` reads: half of its 16 squares filled
WON_GAMES = 1_000  # bulk-loaded for the leaderboard kinds
WARMUP = 50
# The C function behind ``sys.getallocatedblocks()``, which nothing else in the app calls: the
# inner run calls it just before its first counted request and just after its last, and
# callgrind (``--dump-before``) writes the counts so far at each of the two calls.
WINDOW_MARKER = "_Py_GetAllocatedBlocks"
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


@contextmanager
def timers_held() -> Iterator[None]:
    """Stop the event loop's clock: no timer falls due until the block ends.

    The app's timers (the events hub's half-second heartbeat, the pool gauges sampled every
    second) run by the second, not by the request: 240,000 instructions a second for an idle
    bench app under callgrind. Under callgrind a second holds some 50 times fewer requests
    than without it, and fewer still when the machine is busy, so the timers' share of each
    request would be counted 50 times too large and move with the machine's load. No request
    waits on a timer (one that did would hang here, and show it); the timers due meanwhile
    fire once the block ends, outside the count."""
    loop = asyncio.get_running_loop()
    now = loop.time()
    loop.time = lambda: now  # type: ignore[method-assign]
    try:
        yield
    finally:
        del loop.time


async def run(
    backend: str,
    kind: str,
    requests: int,
    admin_url: str,
    request_log: bool = False,
) -> None:
    """Start the app on a new database, send ``WARMUP + requests`` requests of ``kind``."""
    with throwaway_database(backend, admin_url) as url:
        settings = Settings(
            database_url=url,
            migrate_on_start=False,
            analysis_worker=False,
            race_worker=False,
            tournament_worker=False,
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
        for _ in range(WARMUP):
            await request()
        with timers_held():
            sys.getallocatedblocks()  # the window's start (see WINDOW_MARKER)
            for _ in range(requests):
                await request()
            sys.getallocatedblocks()  # and its end
        await events.put({"type": "lifespan.shutdown"})
        await lifespan


def measure(
    backend: str,
    kind: str,
    requests: int,
    admin_url: str,
    flags: list[str] | None = None,
    profile: Path | None = None,
) -> float:
    """Instructions of one request: those of the window of ``requests`` requests, divided by
    their number (``flags``: the inner run's own, such as ``--request-log``). ``profile``: a
    folder to keep the window's callgrind profile in, for ``callgrind_annotate``."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        command = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
            f"--dump-before={WINDOW_MARKER}", "--compress-strings=no",
            sys.executable, __file__, "--inner", "--backend", backend, "--kinds", kind,
            "--requests", str(requests), "--postgres-url", admin_url, *(flags or []),
        ]  # fmt: skip
        # One hash seed for every run: with a random one, each run's dicts collide
        # differently, and their lookups moved /healthz's count by 0.3 % between runs.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"callgrind run failed:\n{done.stdout}\n{done.stderr[-3000:]}")
        # Part 1: the start-up and warm-up, part 2: the window, the last: the shutdown. Any
        # other part would mean that something else called the marker.
        parts = sorted(Path(folder).glob("callgrind.out.*"))
        if [part.name for part in parts] != ["callgrind.out.1", "callgrind.out.2"]:
            raise RuntimeError(f"expected the window's two marks, got {[p.name for p in parts]}")
        window = parts[1]
        found = re.search(r"^summary: (\d+)$", window.read_text(), re.MULTILINE)
        if found is None:
            raise RuntimeError(f"no summary line in {window}")
        if profile is not None:
            profile.mkdir(parents=True, exist_ok=True)
            shutil.copy(window, profile / f"callgrind.{backend}.{kind}.out")
    return int(found.group(1)) / requests


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
        "--profile",
        type=Path,
        metavar="DIR",
        help="keep each window's callgrind profile in DIR (callgrind.BACKEND.KIND.out)",
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
                    )
                )
                if args.no_valgrind:
                    print(f"[{backend}] {kind}: {WARMUP + args.requests} requests answered")
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing to count with (apt install valgrind)")
        return 1
    flags = ["--request-log"] if args.request_log else []
    print(f"instructions per request (callgrind; {args.requests} requests after {WARMUP})")
    # The floors first, and each count printed as soon as it is known (a kind takes minutes).
    kinds.sort(key=KINDS.index)
    for backend in backends_of(args.backend, args.postgres_url):
        counts: dict[str, float] = {}
        for kind in kinds:
            count = counts[kind] = measure(
                backend, kind, args.requests, args.postgres_url, flags, args.profile
            )
            floor = counts.get("write" if kind in ("create", "place") else "healthz")
            ratio = ""
            if floor and kind not in ("write", "healthz"):
                ratio = f"  floor/this {floor / count:6.1%}"
            print(f"[{backend}] {kind:16s} {count:12,.0f}{ratio}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

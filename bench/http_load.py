"""HTTP load: a real uvicorn server, many concurrent clients playing whole games, and each
endpoint measured against two floors taken in the same run with the same client.

    .venv/bin/python bench/http_load.py [--backend sqlite|postgresql|both] [--clients 32]
        [--seconds 20] [--warmup 2] [--games-for-memory 10000] [--workers 1] [--rounds 1]

For each backend: a new database (a temporary SQLite file, or a PostgreSQL database created
and dropped afterwards) with the migrations applied and ``--seed-scores`` won games
bulk-loaded (so leaderboard pages are full), then ``uvicorn --factory
bench.app:create_bench_app`` (the service plus ``POST /bench/write``; log level warning, no
access log) and these phases, each ``--warmup`` seconds unrecorded then ``--seconds``
recorded, every client on its own keep-alive connection:

    healthz      GET /healthz                      floor: what the server can answer at all
    write        POST /bench/write                 floor: one minimal write transaction
    create       POST /games
    place        POST /games/{id}/placements       whole games (those made by `create`)
    read         GET /games/{id}
    leaderboard  GET /leaderboard?limit=100
    play         whole games as a client plays them: create, read, place at one of the
                 legal_placements until the game ends, then sometimes the history
                 (GET /games/{id}/placements) and the leaderboard (limit 20)
    memory       `play` until --games-for-memory games have ended (server RSS is sampled
                 when a tenth of them and when all of them have ended, whichever phase)

Each phase prints, per endpoint: requests, requests/s, p50/p90/p99 latency, errors by status,
and the ratio to its floor (GET to /healthz, POST to /bench/write), with the CPU used by the
server, PostgreSQL and the load client, and on PostgreSQL the sessions the database opened
during the phase's warm-up and while it was recorded (``pg_stat_database.sessions``): a pool
that holds opens none while the load is steady, and each session opened is a backend started
and a connection set up. Then the goals docs/performance.md states. The exit status is 1 if
any response was a 5xx or any connection broke.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bulk import BulkLoader
from bench.harness import DEFAULT_POSTGRES_ADMIN_URL, CpuUse, backends_of, cpu_sample, cpu_use
from bench.loadgen import CLIENT_DESCRIPTION, Recorder, loop_name, run_async
from bench.results import add_json_option, write_json
from testkit.databases import sessions_opened, throwaway_database
from testkit.http import HttpConnection, Response
from testkit.processes import rss_bytes, unwind_on_sigterm
from testkit.server import Server, running_server

APP_FACTORY = "bench.app:create_bench_app"
LOGGED_APP_FACTORY = "bench.app:create_logged_bench_app"

HEALTHZ = "GET /healthz"
WRITE = "POST /bench/write"
CREATE = "POST /games"
READ = "GET /games/{id}"
PLACE = "POST /games/{id}/placements"
HISTORY = "GET /games/{id}/placements"
LEADERBOARD_100 = "GET /leaderboard?limit=100"
LEADERBOARD_20 = "GET /leaderboard?limit=20"

PHASES = ("healthz", "write", "create", "place", "read", "leaderboard", "play")
# After a game, how often a `play` client reads its history, and the leaderboard (always after
# the first game it ends, so that even a short run asks for both).
HISTORY_CHANCE = 0.3
LEADERBOARD_CHANCE = 0.3

Worker = Callable[["Client", Recorder, float], Awaitable[None]]


@dataclass
class Game:
    """What a client knows of one of its games."""

    id: str
    auth: tuple[tuple[str, str], ...]
    legal: list[dict[str, int]]
    status: str


@dataclass
class Client:
    index: int
    http: HttpConnection
    rng: random.Random
    games_ended: int = 0  # by `play`

    def body(self, value: object) -> bytes:
        return json.dumps(value, separators=(",", ":")).encode()


@dataclass
class PhaseResult:
    name: str
    recorder: Recorder
    cpu: CpuUse
    # Sessions the database opened during the warm-up and while recorded (None on SQLite).
    sessions: tuple[int, int] | None = None


@dataclass
class BackendReport:
    backend: str
    rounds: list[dict[str, PhaseResult]] = field(default_factory=lambda: [{}])
    memory: list[tuple[int, int]] = field(default_factory=list)  # (games ended, RSS bytes)
    memory_seconds: float = 0.0
    games_finished: int = 0

    @property
    def phases(self) -> dict[str, PhaseResult]:
        """The phases of the current (or last) round."""
        return self.rounds[-1]

    def errors(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for phases in self.rounds:
            for phase in phases.values():
                for stats in phase.recorder.endpoints.values():
                    total.update(stats.errors())
        return total

    def serious_errors(self) -> int:
        """5xx answers and broken connections: never expected."""
        return sum(
            n for key, n in self.errors().items() if key == "connection" or key.startswith("5")
        )

    def rate(self, phase: str, label: str) -> float:
        result = self.phases.get(phase)
        return result.recorder.rate(label) if result else 0.0

    def figures(self) -> dict[str, Any]:
        """What ``--json`` reports of the backend: each round's phases, the floors, the memory
        samples (games ended, RSS bytes), the games ended and the errors by status."""
        return {
            "rounds": [
                {name: phase.recorder.figures() for name, phase in phases.items()}
                for phases in self.rounds
            ],
            # Each round's phases: [in the warm-up, while recorded] (PostgreSQL only).
            "sessions_opened": [
                {name: list(phase.sessions) for name, phase in phases.items() if phase.sessions}
                for phases in self.rounds
            ],
            "floors": {"read": floor_of(self, HEALTHZ), "write": floor_of(self, WRITE)},
            "memory": self.memory,
            "games_finished": self.games_finished,
            "errors": dict(self.errors()),
            "serious_errors": self.serious_errors(),
        }


class LoadRun:
    """All phases against one running server."""

    def __init__(self, server: Server, args: argparse.Namespace) -> None:
        self.server = server
        self.args = args
        postgres = args.backend_name == "postgresql"
        self.sessions: Callable[[], int] | None = (
            (lambda: sessions_opened(server.database_url, args.postgres_url)) if postgres else None
        )
        self.report = BackendReport(backend=args.backend_name)
        self.clients = [
            Client(i, HttpConnection(server.host, server.port), random.Random(args.seed * 1000 + i))
            for i in range(args.clients)
        ]
        self.fresh_games: list[Game] = []  # made by `create`, played by `place`
        self.game_ids: list[str] = []  # every game made, for `read`
        target: int = args.games_for_memory
        self.memory_marks = sorted({max(1, target // 10), target}) if target > 0 else []
        self.phase_deadline = 0.0

    # ------------------------------------------------------------ driving

    async def run(self) -> BackendReport:
        workers: dict[str, Worker] = {
            "healthz": self.healthz,
            "write": self.write,
            "create": self.create,
            "place": self.place,
            "read": self.read,
            "leaderboard": self.leaderboard,
            "play": self.play,
        }
        try:
            for round_number in range(self.args.rounds):
                if round_number:
                    self.report.rounds.append({})
                    print(f"[{self.report.backend}] round {round_number + 1} of {self.args.rounds}")
                for name in self.args.phases:
                    self.show(await self.phase(name, workers[name], self.args.seconds))
            if self.memory_marks and self.report.games_finished < self.memory_marks[-1]:
                start = time.perf_counter()
                result = await self.phase("memory", self.play, None)
                self.report.memory_seconds = time.perf_counter() - start
                self.show(result)
        finally:
            for client in self.clients:
                await client.http.close()
        return self.report

    async def phase(self, name: str, worker: Worker, seconds: float | None) -> PhaseResult:
        """Run ``worker`` on every client: ``--warmup`` s unrecorded, then ``seconds``
        recorded (None: until the memory target is reached)."""
        recorder = Recorder()
        sessions = [self.sessions()] if self.sessions else []
        start = time.perf_counter()
        warmup = self.args.warmup
        self.phase_deadline = start + warmup + seconds if seconds is not None else float("inf")
        before = cpu_sample(self.server, time.process_time())

        async def begin_recording() -> None:
            nonlocal before
            # Without a warm-up this task (the first gathered) starts the recorder before any
            # client sends: the first request of each client counts too.
            if warmup > 0:
                await asyncio.sleep(warmup)
            if self.sessions:
                # A few milliseconds on the loop while the clients wait for it: read at the
                # very start of the recording, so that no session falls between the counts.
                sessions.append(self.sessions())
            recorder.start()
            before = cpu_sample(self.server, time.process_time())

        await asyncio.gather(
            begin_recording(),
            *(worker(client, recorder, self.phase_deadline) for client in self.clients),
        )
        after = cpu_sample(self.server, time.process_time())
        opened = None
        if self.sessions:
            sessions.append(self.sessions())
            opened = (sessions[1] - sessions[0], sessions[2] - sessions[1])
        result = PhaseResult(name, recorder, cpu_use(before, after), opened)
        self.report.phases[name] = result
        return result

    def running(self, deadline: float) -> bool:
        if self.phase_deadline == float("inf"):
            return self.report.games_finished < self.memory_marks[-1]
        return time.perf_counter() < deadline

    def game_ended(self) -> None:
        self.report.games_finished += 1
        if self.report.games_finished in self.memory_marks:
            rss = rss_bytes(self.server.pids())
            self.report.memory.append((self.report.games_finished, rss))
            print(
                f"[{self.report.backend}] {self.report.games_finished} games ended: "
                f"server RSS {rss / 2**20:.1f} MiB",
                flush=True,
            )

    # ------------------------------------------------------------ workers

    async def healthz(self, client: Client, recorder: Recorder, deadline: float) -> None:
        while self.running(deadline):
            await recorder.call(HEALTHZ, client.http, "GET", "/healthz")

    async def write(self, client: Client, recorder: Recorder, deadline: float) -> None:
        while self.running(deadline):
            body = client.body({"key": client.rng.randrange(1 << 20)})
            await recorder.call(WRITE, client.http, "POST", "/bench/write", body)

    async def new_game(self, client: Client, recorder: Recorder) -> Game | None:
        body = client.body({"player": f"bench-{client.index}"})
        response = await recorder.call(CREATE, client.http, "POST", "/games", body)
        if response is None or response.status != 201:
            return None
        data = response.json()
        game = Game(
            id=data["id"],
            auth=(("Authorization", f"Bearer {data['token']}"),),
            legal=data["legal_placements"],
            status=data["status"],
        )
        self.game_ids.append(game.id)
        return game

    async def create(self, client: Client, recorder: Recorder, deadline: float) -> None:
        while self.running(deadline):
            game = await self.new_game(client, recorder)
            if game is not None:
                self.fresh_games.append(game)

    async def read_game(self, client: Client, recorder: Recorder, game_id: str) -> Response | None:
        path = f"/games/{game_id}"
        return await recorder.call(READ, client.http, "GET", path)

    async def play_to_end(
        self, client: Client, recorder: Recorder, game: Game, deadline: float
    ) -> None:
        """Place the current card at a random legal placement until the game ends."""
        path = f"/games/{game.id}/placements"
        while game.status == "in_progress" and self.running(deadline):
            body = client.body(client.rng.choice(game.legal))
            response = await recorder.call(PLACE, client.http, "POST", path, body, game.auth)
            if response is not None and response.status == 201:
                state = response.json()["game"]
            elif response is not None and response.status == 409:
                reread = await self.read_game(client, recorder, game.id)
                if reread is None or reread.status != 200:
                    return
                state = reread.json()
            else:
                return  # counted as an error; give this game up
            game.legal, game.status = state["legal_placements"], state["status"]
        if game.status != "in_progress":
            self.game_ended()

    async def place(self, client: Client, recorder: Recorder, deadline: float) -> None:
        while self.running(deadline):
            game = self.fresh_games.pop() if self.fresh_games else None
            if game is None:
                game = await self.new_game(client, recorder)
            if game is not None:
                await self.play_to_end(client, recorder, game, deadline)

    async def read(self, client: Client, recorder: Recorder, deadline: float) -> None:
        while self.running(deadline):
            if not self.game_ids:
                await self.new_game(client, recorder)
                continue
            await self.read_game(client, recorder, client.rng.choice(self.game_ids))

    async def leaderboard(self, client: Client, recorder: Recorder, deadline: float) -> None:
        path = "/leaderboard?limit=100"
        while self.running(deadline):
            await recorder.call(LEADERBOARD_100, client.http, "GET", path)

    async def play(self, client: Client, recorder: Recorder, deadline: float) -> None:
        while self.running(deadline):
            game = await self.new_game(client, recorder)
            if game is None or not self.running(deadline):
                continue
            await self.read_game(client, recorder, game.id)
            await self.play_to_end(client, recorder, game, deadline)
            if game.status == "in_progress":
                continue
            client.games_ended += 1
            first = client.games_ended == 1
            if first or client.rng.random() < HISTORY_CHANCE:
                path = f"/games/{game.id}/placements"
                await recorder.call(HISTORY, client.http, "GET", path)
            if first or client.rng.random() < LEADERBOARD_CHANCE:
                await recorder.call(
                    LEADERBOARD_20,
                    client.http,
                    "GET",
                    "/leaderboard?limit=20",
                )

    # ------------------------------------------------------------ output

    def show(self, result: PhaseResult) -> None:
        print_phase(self.report, result)


def floor_of(report: BackendReport, label: str) -> float:
    """The floor rate for an endpoint: /bench/write for writes, /healthz for reads."""
    if label.startswith("POST"):
        return report.rate("write", WRITE)
    return report.rate("healthz", HEALTHZ)


def print_phase(report: BackendReport, result: PhaseResult) -> None:
    recorder = result.recorder
    clients = "" if result.name != "memory" else f", until {report.games_finished} games ended"
    print(
        f"[{report.backend}] phase {result.name}: {recorder.seconds:.1f} s recorded{clients}; "
        f"{result.cpu.describe()}"
    )
    if result.sessions is not None:
        warmup, recorded = result.sessions
        print(
            f"  database sessions opened: {recorded} while recorded, {warmup} in the warm-up "
            "(pg_stat_database.sessions)"
        )
    print(
        f"  {'endpoint':<30} {'requests':>8} {'req/s':>8} {'p50 ms':>8} {'p90 ms':>8} "
        f"{'p99 ms':>8} {'vs floor':>9}  errors"
    )
    for label, stats in recorder.endpoints.items():
        rate = stats.count / recorder.seconds
        floor = floor_of(report, label)
        dedicated = result.name not in ("play", "memory") and len(recorder.endpoints) == 1
        versus = f"{100 * rate / floor:8.1f}%" if dedicated and floor else f"{'-':>9}"
        errors = ", ".join(f"{key}: {n}" for key, n in stats.errors().items()) or "none"
        print(
            f"  {label:<30} {stats.count:>8} {rate:>8.1f} {stats.millis(0.50):>8.2f} "
            f"{stats.millis(0.90):>8.2f} {stats.millis(0.99):>8.2f} {versus}  {errors}"
        )
    sys.stdout.flush()


def _goal_line(name: str, value: str, goal: str, met: bool | None) -> str:
    verdict = "-" if met is None else ("met" if met else "MISSED")
    return f"  {name:<52} {value:>24}   goal {goal:<10} {verdict}"


def print_goals(report: BackendReport, clients: int) -> None:
    """The figures docs/performance.md sets goals for."""
    b = report.backend
    print(f"[{b}] goals (ratios of requests/s measured in dedicated phases)")
    write_floor = report.rate("write", WRITE)
    health_floor = report.rate("healthz", HEALTHZ)
    # docs/performance.md's goals: PostgreSQL's reads against the floors of issue 42 (40 %,
    # 45 %); SQLite's, not lower than where they stood then (62.4 %, 65.5 %).
    postgres = b == "postgresql"
    rows = [
        ("placements/s vs write floor", "place", PLACE, write_floor, 55.0 if postgres else 60.0),
        ("game creations/s vs write floor", "create", CREATE, write_floor, 60.0),
        ("GET /games/{id}/s vs /healthz floor", "read", READ, health_floor,
         40.0 if postgres else 62.4),
        ("GET /leaderboard?limit=100/s vs /healthz floor", "leaderboard", LEADERBOARD_100,
         health_floor, 45.0 if postgres else 65.5),
    ]  # fmt: skip
    for name, phase, label, floor, goal in rows:
        if phase not in report.phases or not floor:
            continue
        if len(report.rounds) > 1:
            # Each round's ratio against the floor of that same round; their median.
            floor_phase = "write" if label.startswith("POST") else "healthz"
            floor_label = WRITE if floor_phase == "write" else HEALTHZ
            percents = [
                100
                * phases[phase].recorder.rate(label)
                / phases[floor_phase].recorder.rate(floor_label)
                for phases in report.rounds
                if phase in phases and floor_phase in phases
            ]
            percent = statistics.median(percents)
            listed = ", ".join(f"{p:.1f}" for p in percents)
            value = f"median {percent:.1f}% of {listed}"
            print(_goal_line(name, value, f">= {goal:g}%", percent >= goal))
            continue
        rate = report.rate(phase, label)
        percent = 100 * rate / floor
        value = f"{rate:.0f} / {floor:.0f} = {percent:.1f}%"
        print(_goal_line(name, value, f">= {goal:g}%", percent >= goal))
    p99s = [
        phases["place"].recorder.endpoints[PLACE].millis(0.99)
        for phases in report.rounds
        if "place" in phases and PLACE in phases["place"].recorder.endpoints
    ]
    if p99s:
        p99 = statistics.median(p99s)
        name = f"placement p99, {clients} concurrent clients"
        met = p99 <= 250 if b == "sqlite" else None
        print(_goal_line(name, f"{p99:.1f} ms", "<= 250 ms" if b == "sqlite" else "(sqlite)", met))
    if len(report.memory) == 2:
        (few, rss_few), (many, rss_many) = report.memory
        growth = 100 * (rss_many - rss_few) / rss_few
        value = f"{rss_few / 2**20:.1f} -> {rss_many / 2**20:.1f} MiB = {growth:+.1f}%"
        print(_goal_line(f"server RSS after {few} -> {many} games", value, "< 10%", growth < 10))
    elif report.memory:
        print(f"  server RSS samples (games ended, MiB): {report.memory}")
    if report.memory_seconds:
        print(f"  (the memory phase played {report.memory_seconds:.0f} s)")
    errors = report.errors()
    listed = ", ".join(f"{key}: {n}" for key, n in sorted(errors.items())) or "none"
    unexpected = sum(n for key, n in errors.items() if key != "409")
    print(_goal_line("errors by status (only 409 expected)", listed, "only 409", unexpected == 0))
    serious = report.serious_errors()
    print(f"[{b}] 5xx responses and broken connections: {serious}")
    print(f"[{b}] games ended: {report.games_finished}")
    sys.stdout.flush()


def run_backend(backend: str, args: argparse.Namespace) -> BackendReport:
    args.backend_name = backend
    with throwaway_database(backend, args.postgres_url) as url:
        if args.seed_scores:
            loader = BulkLoader(url, seed=args.seed)
            seconds = loader.load(args.seed_scores)
            loader.close()
            print(f"[{backend}] bulk-loaded {args.seed_scores} won games in {seconds:.1f} s")
        factory, env = APP_FACTORY, {}
        if args.request_log:
            # The service's request line on: JSON to the server's log file, as deployed.
            factory = LOGGED_APP_FACTORY
            env = {"FOURSQUARE_LOG_LEVEL": "info", "FOURSQUARE_LOG_FORMAT": "json"}
        with running_server(
            url,
            app_factory=factory,
            workers=args.workers,
            extra_env=env,
            migrate_on_start=False,
        ) as server:
            print(
                f"[{backend}] server: uvicorn --factory {factory}, {args.workers} "
                f"worker(s), pid {server.pids()[0]}, RSS {rss_bytes(server.pids()) / 2**20:.1f} MiB"
            )
            report: BackendReport = run_async(LoadRun(server, args).run())
    print_goals(report, args.clients)
    return report


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--clients", type=int, default=32, help="concurrent connections")
    parser.add_argument("--seconds", type=float, default=20.0, help="recorded time per phase")
    parser.add_argument("--warmup", type=float, default=2.0, help="unrecorded time per phase")
    parser.add_argument(
        "--games-for-memory",
        type=int,
        default=10_000,
        help="sample server RSS after a tenth of this many and this many games (0: skip)",
    )
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument(
        "--seed-scores", type=int, default=1_000, help="won games bulk-loaded before start"
    )
    parser.add_argument(
        "--phases",
        type=lambda text: [p for p in text.split(",") if p],
        default=list(PHASES),
        help=f"comma-separated subset of {','.join(PHASES)}",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run the phases this many times in turn; goals use the median of each round's "
        "ratio to the floors of the same round (drift on a shared machine hits both alike)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the clients' choices")
    parser.add_argument(
        "--request-log",
        action="store_true",
        help="log a line per request as the service does (default: warnings only)",
    )
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES_ADMIN_URL)
    add_json_option(parser)
    args = parser.parse_args(argv)
    unknown = set(args.phases) - set(PHASES)
    if unknown:
        parser.error(f"unknown phases: {', '.join(sorted(unknown))}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    unwind_on_sigterm()
    args = parse_args(argv)
    print(
        f"load client: {CLIENT_DESCRIPTION} ({loop_name()}), {args.clients} connections; "
        f"phases of {args.warmup:g} s warm-up + {args.seconds:g} s recorded"
    )
    backends = backends_of(args.backend, args.postgres_url)
    reports = [run_backend(backend, args) for backend in backends]
    write_json(args.json, {report.backend: report.figures() for report in reports})
    return 1 if sum(report.serious_errors() for report in reports) else 0


if __name__ == "__main__":
    raise SystemExit(main())

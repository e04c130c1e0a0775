"""Do hints stall placements? Placement latency with and without clients asking for hints
non-stop, against a real ``foursquare serve``, both measured in the same run.

    .venv/bin/python bench/hint_isolation.py [--checkout PATH] [--backend sqlite|postgresql]
        [--placers 4] [--hinters 4] [--seconds 10] [--warmup 2] [--rounds 2]

The server is ``python -m api.cli serve`` (one uvicorn worker) run from ``--checkout`` (by
default this repository; point it at a worktree of another commit to measure that one, e.g.
``git worktree add /tmp/fs-main main``), on a throwaway database. Each round runs two phases (in
this order in even rounds, the other way round in odd ones), each ``--warmup`` seconds
unrecorded then ``--seconds`` recorded:

    quiet   --placers clients play whole games (create, then place the current card at a
            random legal placement until the game ends); only the placements are timed.
    hints   the same, while --hinters more clients each ask for a hint on their own game
            without pause, then place the card where the hint said (a 503 waits Retry-After).

Prints the placement p50/p99 of each phase over all rounds, the ratio of the p99s (the goal
of issue 15: at most 1.5), the hints answered and refused, and the CPU of the server process
and of its children (the hint workers). Exit status 1 if the goal is missed or a placement
failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import DEFAULT_POSTGRES_ADMIN_URL
from bench.loadgen import Recorder, loop_name, run_async
from bench.results import add_json_option, write_json
from testkit.databases import throwaway_database
from testkit.http import HttpConnection
from testkit.processes import command_line, cpu_seconds, unwind_on_sigterm
from testkit.server import Server

ROOT = Path(__file__).resolve().parent.parent
PLACE = "POST /games/{id}/placements"
HINT = "GET /games/{id}/hint"
GOAL_RATIO = 1.5


def _is_hint_worker(pid: int) -> bool:
    """A process that multiprocessing spawned to run hints (its resource tracker is one too,
    but runs ``resource_tracker``)."""
    return "spawn_main" in " ".join(command_line(pid))


def server_cpu(server: Server) -> tuple[float, float]:
    """CPU seconds of the server's processes (gunicorn's master and its uvicorn worker), and
    of its hint workers."""
    pids = server.pids()
    workers = [pid for pid in pids if _is_hint_worker(pid)]
    return cpu_seconds([pid for pid in pids if pid not in workers]), cpu_seconds(workers)


@dataclass
class Phase:
    placements_ns: list[int] = field(default_factory=list)
    placement_errors: int = 0
    hints: int = 0
    hints_refused: int = 0
    hint_errors: int = 0
    server_cpu: float = 0.0
    worker_cpu: float = 0.0
    seconds: float = 0.0

    def figures(self) -> dict[str, Any]:
        """What ``--json`` reports of the phase (placement latencies in ms)."""
        return {
            "placements": len(self.placements_ns),
            "placement_p50_ms": percentile_ms(self.placements_ns, 0.50),
            "placement_p99_ms": percentile_ms(self.placements_ns, 0.99),
            "placement_errors": self.placement_errors,
            "hints": self.hints,
            "hints_refused": self.hints_refused,
            "hint_errors": self.hint_errors,
            "server_cpu": self.server_cpu,
            "worker_cpu": self.worker_cpu,
            "seconds": self.seconds,
        }


def _body(data: object) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


async def _new_game(http: HttpConnection) -> tuple[str, tuple[tuple[str, str], ...], list[object]]:
    response = await http.request("POST", "/games", _body({"player": "bench"}))
    data = response.json()
    return data["id"], (("Authorization", f"Bearer {data['token']}"),), data["legal_placements"]


async def placer(port: int, recorder: Recorder, stop: asyncio.Event, seed: int) -> None:
    http, rng = HttpConnection("127.0.0.1", port), random.Random(seed)
    while not stop.is_set():
        game_id, auth, legal = await _new_game(http)
        path, status = f"/games/{game_id}/placements", "in_progress"
        while status == "in_progress" and not stop.is_set():
            body = _body(rng.choice(legal))
            response = await recorder.call(PLACE, http, "POST", path, body, auth)
            if response is None or response.status != 201:
                break
            state = response.json()["game"]
            legal, status = state["legal_placements"], state["status"]
    await http.close()


async def hinter(port: int, recorder: Recorder, stop: asyncio.Event) -> None:
    http = HttpConnection("127.0.0.1", port)
    game_id, auth, _ = await _new_game(http)
    while not stop.is_set():
        response = await recorder.call(HINT, http, "GET", f"/games/{game_id}/hint", None, auth)
        if response is not None and response.status == 503:
            await asyncio.sleep(1)  # the Retry-After the service sends
            continue
        if response is None or response.status != 200:
            game_id, auth, _ = await _new_game(http)  # over (409), or broken: a new game
            continue
        placed = await http.request(
            "POST", f"/games/{game_id}/placements", _body(response.json()["placement"]), auth
        )
        if placed.status != 201 or placed.json()["game"]["status"] != "in_progress":
            game_id, auth, _ = await _new_game(http)
    await http.close()


async def run_phase(server: Server, args: argparse.Namespace, hints: bool, seed: int) -> Phase:
    recorder, stop = Recorder(), asyncio.Event()
    tasks = [
        asyncio.create_task(placer(server.port, recorder, stop, seed * 100 + i))
        for i in range(args.placers)
    ]
    if hints:
        tasks += [
            asyncio.create_task(hinter(server.port, recorder, stop)) for _ in range(args.hinters)
        ]
    await asyncio.sleep(args.warmup)
    own_before, workers_before = server_cpu(server)
    begin = time.perf_counter()
    recorder.start()
    await asyncio.sleep(args.seconds)
    recorder.active = False
    own_after, workers_after = server_cpu(server)
    wall = time.perf_counter() - begin
    stop.set()
    await asyncio.gather(*tasks)
    phase = Phase(seconds=wall)
    phase.server_cpu = (own_after - own_before) / wall
    phase.worker_cpu = (workers_after - workers_before) / wall
    placed = recorder.endpoints.get(PLACE)
    if placed is not None:
        phase.placements_ns = placed.latencies_ns
        phase.placement_errors = sum(placed.errors().values())
    asked = recorder.endpoints.get(HINT)
    if asked is not None:
        phase.hints = asked.statuses[200]
        phase.hints_refused = asked.statuses[503]
        phase.hint_errors = asked.count - phase.hints - phase.hints_refused
    return phase


def percentile_ms(values: list[int], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = max(1, min(len(ordered), round(fraction * len(ordered) + 0.5)))
    return ordered[rank - 1] / 1e6


def merge(phases: list[Phase]) -> Phase:
    total = Phase()
    for phase in phases:
        total.placements_ns += phase.placements_ns
        total.placement_errors += phase.placement_errors
        total.hints += phase.hints
        total.hints_refused += phase.hints_refused
        total.hint_errors += phase.hint_errors
        total.server_cpu += phase.server_cpu * phase.seconds
        total.worker_cpu += phase.worker_cpu * phase.seconds
        total.seconds += phase.seconds
    total.server_cpu /= max(total.seconds, 1e-9)
    total.worker_cpu /= max(total.seconds, 1e-9)
    return total


def describe(name: str, phase: Phase) -> str:
    line = (
        f"{name:<6} placements {len(phase.placements_ns):>6} "
        f"({len(phase.placements_ns) / max(phase.seconds, 1e-9):6.0f}/s)  "
        f"p50 {percentile_ms(phase.placements_ns, 0.50):6.2f} ms  "
        f"p99 {percentile_ms(phase.placements_ns, 0.99):6.2f} ms  "
        f"errors {phase.placement_errors}  "
        f"CPU (cores): server {phase.server_cpu:.2f}, its children {phase.worker_cpu:.2f}"
    )
    if phase.hints or phase.hints_refused or phase.hint_errors:
        line += (
            f"\n       hints answered {phase.hints} ({phase.hints / phase.seconds:.1f}/s), "
            f"refused (503) {phase.hints_refused}, other errors {phase.hint_errors}"
        )
    return line


async def measure(server: Server, args: argparse.Namespace) -> tuple[Phase, Phase]:
    """The quiet and the hints phases of every round, each kind merged."""
    quiet: list[Phase] = []
    hinted: list[Phase] = []
    for round_ in range(args.rounds):
        # Odd rounds run the hints phase first, so that neither phase always follows the other.
        for hints in (False, True) if round_ % 2 == 0 else (True, False):
            phase = await run_phase(server, args, hints=hints, seed=round_)
            (hinted if hints else quiet).append(phase)
    return merge(quiet), merge(hinted)


def run(args: argparse.Namespace) -> tuple[Phase, Phase]:
    """Serve ``args.checkout`` on a throwaway database and measure both phases."""
    with throwaway_database(args.backend, args.postgres_url) as url:
        server = Server(url, checkout=args.checkout.resolve(), migrate_on_start=False)
        server.start()
        try:
            return run_async(measure(server, args))
        finally:
            server.stop()


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the code to serve")
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--placers", type=int, default=4, help="clients placing cards")
    parser.add_argument("--hinters", type=int, default=4, help="clients asking for hints")
    parser.add_argument("--seconds", type=float, default=10.0, help="recorded time per phase")
    parser.add_argument("--warmup", type=float, default=2.0, help="unrecorded time per phase")
    parser.add_argument("--rounds", type=int, default=2, help="quiet + hints phase pairs")
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES_ADMIN_URL)
    add_json_option(parser)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    unwind_on_sigterm()
    args = parse_args(argv)
    checkout = args.checkout.resolve()
    commit = subprocess.run(
        ["git", "-C", str(checkout), "log", "-1", "--format=%h %s"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    print(f"checkout {checkout} ({commit[:72]})")
    hint_env = [f"{k}={v}" for k, v in sorted(os.environ.items()) if "_HINT_" in k]
    print(
        f"backend {args.backend}, {args.placers} placing + {args.hinters} hinting clients, "
        f"{args.rounds} x ({args.warmup:g} s warm-up + {args.seconds:g} s) per phase, "
        f"client on {loop_name()}, {os.cpu_count()} CPUs; hint settings: "
        f"{', '.join(hint_env) or 'defaults'}"
    )
    before, during = run(args)
    print(describe("quiet", before))
    print(describe("hints", during))
    p99_quiet = percentile_ms(before.placements_ns, 0.99)
    p99_hints = percentile_ms(during.placements_ns, 0.99)
    ratio = p99_hints / max(p99_quiet, 1e-9)
    met = ratio <= GOAL_RATIO
    print(
        f"placement p99 with hints / without: {p99_hints:.2f} / {p99_quiet:.2f} ms = "
        f"{ratio:.2f} (goal <= {GOAL_RATIO}: {'met' if met else 'MISSED'})"
    )
    write_json(
        args.json,
        {"quiet": before.figures(), "hints": during.figures(), "p99_ratio": ratio, "met": met},
    )
    failed = before.placement_errors + during.placement_errors + during.hint_errors
    return 0 if met and not failed else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""Fair-play reviews against a real server: how soon a win reaches the board, and whether a
burst of reviews slows the placements (issue 50's goals: within 60 s on an idle server; a
burst of 100 wins drains in order, placements slowed by at most 10 %).

    .venv/bin/python bench/fairplay_drain.py [--backend sqlite|postgresql] [--burst 100]
        [--clients 8] [--seconds 20] [--warmup 2] [--json PATH]

A new database (testkit's throwaway), ``foursquare serve`` on it (one worker, the service's
own review runner: its review worker at niceness +15), then:

1. One win: a winning line of the conformance vectors (testkit.games.winning_lines), dealt
   into the database as the tests deal it and played through the API; the time from the
   answer to its last placement until ``fair_play.status`` in ``GET /games/{id}`` is no
   longer ``pending``.
2. ``--burst`` more wins are dealt and played through the API up to their last card. Then the
   placement load of bench/http_load.py's ``place`` phase (its clients, recorder and CPU
   sampling) runs for ``--warmup`` + ``--seconds`` with no review queued ("quiet"); then the
   burst's last placements are sent at once (8 connections) and the same load runs again
   while the reviews drain ("draining"). Printed: the placements' count, rate, p50 and p99 in
   both windows and their ratios, the server's CPU per placement in each window (its serving
   processes only: the review worker, a lower-priority child, is counted apart), how many
   reviews were done by the end of the draining window, the drain time (burst sent to last
   review done) and whether the reviews finished in the order they were queued
   (``fairplay_reviews.reviewed_at`` against ``requested_at``).

On this 2-core shared machine the load client, the server and the review worker share the
cores (with whatever else runs), so the ratio of the two windows measures the machine as much
as the service: niceness gives the placements the CPU first, but only among processes that
compete for it. The server's CPU per placement is the fairer figure of what the reviews cost
the requests. The exit status is 1 if a placement got a 5xx or a connection broke, or if a
review was not done within ``--drain-timeout`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import sys
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psutil
from sqlalchemy import Row, create_engine
from sqlalchemy.orm import Session

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.fairplay import store as fairplay_store
from bench.harness import DEFAULT_POSTGRES_ADMIN_URL, backends_of
from bench.http_load import PLACE, LoadRun, PhaseResult
from bench.loadgen import CLIENT_DESCRIPTION, loop_name, run_async
from bench.results import add_json_option, write_json
from testkit.databases import throwaway_database
from testkit.games import WinningLine, start_game, winning_lines
from testkit.http import HttpConnection
from testkit.processes import cpu_seconds, unwind_on_sigterm
from testkit.server import Server, running_server

BURST_CONNECTIONS = 8


@dataclass
class Prepared:
    """A game dealt from a winning line and played through the API up to its last card."""

    id: str
    token: str
    last: tuple[int, int]


def deal(database_url: str, lines: Sequence[WinningLine], player: str) -> list[Prepared]:
    """Games dealt from ``lines``' decks in the server's database (the API deals at random)."""
    engine = create_engine(database_url)
    try:
        with Session(engine) as session, session.begin():
            created = [start_game(session, player, deck=line.deck) for line in lines]
    finally:
        engine.dispose()
    return [
        Prepared(str(game.id), game.token, line.positions[-1])
        for game, line in zip(created, lines, strict=True)
    ]


def place(client: httpx.Client, game: Prepared, cell: tuple[int, int]) -> dict[str, Any]:
    response = client.post(
        f"/games/{game.id}/placements",
        json={"row": cell[0], "col": cell[1]},
        headers={"Authorization": f"Bearer {game.token}"},
    )
    if response.status_code != 201:
        raise SystemExit(f"placement refused: {response.status_code} {response.text}")
    game_state: dict[str, Any] = response.json()["game"]
    return game_state


def fair_play_status(client: httpx.Client, game_id: str) -> str:
    response = client.get(f"/games/{game_id}")
    response.raise_for_status()
    status: str = response.json()["fair_play"]["status"]
    return status


def one_win(server: Server, line: WinningLine, timeout: float) -> dict[str, Any]:
    """Step 1: seconds from a win's last placement to its review's verdict."""
    (game,) = deal(server.database_url, [line], "drain-single")
    with httpx.Client(base_url=server.base_url, timeout=30) as client:
        for cell in line.positions[:-1]:
            place(client, game, cell)
        state = place(client, game, game.last)
        placed = time.perf_counter()
        assert state["status"] == "won", state["status"]
        status = state["fair_play"]["status"]
        while status == "pending" and time.perf_counter() - placed < timeout:
            time.sleep(0.05)
            status = fair_play_status(client, game.id)
        seconds = time.perf_counter() - placed
    return {"seconds": seconds, "status": status}


def prepare_burst(server: Server, count: int) -> list[Prepared]:
    """``count`` games, each one placement short of its win (lines reused in turn)."""
    lines = winning_lines()
    chosen = [lines[i % len(lines)] for i in range(count)]
    games = deal(server.database_url, chosen, "drain-burst")
    with httpx.Client(base_url=server.base_url, timeout=30) as client:
        for game, line in zip(games, chosen, strict=True):
            for cell in line.positions[:-1]:
                place(client, game, cell)
    return games


async def send_burst(server: Server, games: list[Prepared]) -> int:
    """The burst's last placements, over a few connections at once; the wins among them."""
    queue = list(games)
    won = 0

    async def sender() -> None:
        nonlocal won
        connection = HttpConnection(server.host, server.port)
        try:
            while queue:
                game = queue.pop(0)
                body = json.dumps({"row": game.last[0], "col": game.last[1]}).encode()
                auth = (("Authorization", f"Bearer {game.token}"),)
                path = f"/games/{game.id}/placements"
                response = await connection.request("POST", path, body, auth)
                if response.status == 201 and response.json()["game"]["status"] == "won":
                    won += 1
        finally:
            await connection.close()

    await asyncio.gather(*(sender() for _ in range(BURST_CONNECTIONS)))
    return won


class Background:
    """CPU of the server's processes that run below its own priority (the review worker,
    and the hint workers, idle here) apart from the ones serving requests."""

    def __init__(self, server: Server) -> None:
        self.server = server

    def split(self) -> tuple[float, float]:
        """(serving, lower-priority) CPU seconds so far."""
        own = psutil.Process(self.server.pid()).nice()
        serving: list[int] = []
        background: list[int] = []
        for pid in self.server.pids():
            try:
                lower = psutil.Process(pid).nice() > own
            except psutil.NoSuchProcess:
                continue
            (background if lower else serving).append(pid)
        return cpu_seconds(serving), cpu_seconds(background)


@dataclass
class Window:
    name: str
    result: PhaseResult
    serving_cpu: float
    background_cpu: float

    @property
    def placements(self) -> int:
        stats = self.result.recorder.endpoints.get(PLACE)
        return stats.count if stats else 0

    def figures(self) -> dict[str, Any]:
        recorder = self.result.recorder
        stats = recorder.endpoints.get(PLACE)
        return {
            "placements": self.placements,
            "rate": recorder.rate(PLACE),
            "p50_ms": stats.millis(0.5) if stats else None,
            "p99_ms": stats.millis(0.99) if stats else None,
            "errors": stats.errors() if stats else {},
            "seconds": recorder.seconds,
            "server_cpu_ms_per_placement": 1000 * self.serving_cpu / max(self.placements, 1),
            "review_worker_cores": self.background_cpu / recorder.seconds,
            "cpu": self.result.cpu.describe(),
        }


async def measured(run: LoadRun, name: str, background: Background) -> Window:
    """bench/http_load.py's ``place`` phase; the server's CPU split over its recorded part
    (sampled around the whole phase: the warm-up's share is taken out by rate)."""
    serving0, background0 = background.split()
    started = time.perf_counter()
    result = await run.phase("place", run.place, run.args.seconds)
    elapsed = time.perf_counter() - started
    serving1, background1 = background.split()
    share = result.recorder.seconds / max(elapsed, 1e-9)
    return Window(name, result, (serving1 - serving0) * share, (background1 - background0) * share)


def reviews_of(database_url: str, game_ids: list[str]) -> list[Row[Any]]:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            found = fairplay_store.of_games(connection, [uuid.UUID(g) for g in game_ids])
    finally:
        engine.dispose()
    return list(found.values())


def in_queue_order(reviews: list[Row[Any]]) -> bool:
    """Whether the reviews finished in the order they were queued (ties in requested_at,
    wins queued within one clock tick, may finish either way)."""
    done = sorted(reviews, key=lambda r: (r.reviewed_at or datetime.max, r.requested_at))
    return all(a.requested_at <= b.requested_at for a, b in itertools.pairwise(done))


async def burst_and_load(
    server: Server, args: argparse.Namespace, games: list[Prepared]
) -> dict[str, Any]:
    background = Background(server)
    quiet_run = LoadRun(server, args)
    quiet = await measured(quiet_run, "quiet", background)
    for client in quiet_run.clients:
        await client.http.close()
    sent_at = datetime.now(UTC)
    won = await send_burst(server, games)
    draining_run = LoadRun(server, args)
    draining = await measured(draining_run, "draining", background)
    reviews = reviews_of(server.database_url, [g.id for g in games])
    done_in_window = sum(1 for r in reviews if r.state == "done")
    return {
        "quiet": quiet,
        "draining": draining,
        "sent_at": sent_at,
        "won": won,
        "done_in_window": done_in_window,
    }


def wait_for_drain(database_url: str, game_ids: list[str], timeout: float) -> list[Row[Any]]:
    deadline = time.monotonic() + timeout
    while True:
        reviews = reviews_of(database_url, game_ids)
        if len(reviews) == len(game_ids) and all(r.state == "done" for r in reviews):
            return reviews
        if time.monotonic() > deadline:
            return reviews
        time.sleep(1.0)


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def run_backend(backend: str, args: argparse.Namespace) -> dict[str, Any]:
    args.backend_name = backend
    with (
        throwaway_database(backend, args.postgres_url) as url,
        running_server(url, migrate_on_start=False) as server,
    ):
        print(f"[{backend}] server: foursquare serve, 1 worker, pid {server.pid()}")
        single = one_win(server, winning_lines()[0], args.drain_timeout)
        print(
            f"[{backend}] one win on an idle server: {single['status']} "
            f"{single['seconds']:.1f} s after its last placement (goal <= 60 s)",
            flush=True,
        )
        started = time.perf_counter()
        games = prepare_burst(server, args.burst)
        print(
            f"[{backend}] {len(games)} games played to their last card in "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )
        windows = run_async(burst_and_load(server, args, games))
        ids = [g.id for g in games]
        reviews = wait_for_drain(url, ids, args.drain_timeout)
    quiet: Window = windows["quiet"]
    draining: Window = windows["draining"]
    done = [r for r in reviews if r.state == "done" and r.reviewed_at is not None]
    drained = len(done) == len(ids)
    last = max((aware(r.reviewed_at) for r in done if r.reviewed_at), default=None)
    drain_seconds = (last - windows["sent_at"]).total_seconds() if drained and last else None
    q, d = quiet.figures(), draining.figures()
    report = {
        "single": single,
        "burst": len(ids),
        "burst_won": windows["won"],
        "quiet": q,
        "draining": d,
        "rate_ratio": d["rate"] / q["rate"] if q["rate"] else None,
        "p50_ratio": d["p50_ms"] / q["p50_ms"] if q["p50_ms"] else None,
        "p99_ratio": d["p99_ms"] / q["p99_ms"] if q["p99_ms"] else None,
        "cpu_per_placement_ratio": (
            d["server_cpu_ms_per_placement"] / q["server_cpu_ms_per_placement"]
            if q["server_cpu_ms_per_placement"]
            else None
        ),
        "reviews_done_in_window": windows["done_in_window"],
        "reviews_done": len(done),
        "drain_seconds": drain_seconds,
        "in_order": in_queue_order(done) if drained else None,
        "verdicts": {
            verdict: sum(1 for r in done if r.verdict == verdict)
            for verdict in ("clean", "flagged")
        },
        "serious_errors": sum(
            n
            for window in (q, d)
            for key, n in window["errors"].items()
            if key == "connection" or key.startswith("5")
        ),
    }
    print_report(backend, report, args)
    return report


def print_report(backend: str, report: dict[str, Any], args: argparse.Namespace) -> None:
    b = backend
    print(f"[{b}] placements ({args.clients} clients, {args.seconds:g} s recorded per window):")
    print(
        f"  {'window':<10} {'placements':>10} {'per s':>8} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'server CPU ms/placement':>24} {'review worker cores':>20}"
    )
    for name in ("quiet", "draining"):
        w = report[name]
        print(
            f"  {name:<10} {w['placements']:>10} {w['rate']:>8.1f} {w['p50_ms'] or 0:>8.2f} "
            f"{w['p99_ms'] or 0:>8.2f} {w['server_cpu_ms_per_placement']:>24.2f} "
            f"{w['review_worker_cores']:>20.2f}"
        )
        print(f"    {w['cpu']}")

    def ratio(key: str) -> str:
        value = report[key]
        return "-" if value is None else f"{value:.3f}"

    print(
        f"[{b}] draining / quiet: rate {ratio('rate_ratio')}, p50 {ratio('p50_ratio')}, "
        f"p99 {ratio('p99_ratio')}, server CPU per placement {ratio('cpu_per_placement_ratio')} "
        "(goal: placements slowed by at most 10 %)"
    )
    drain = report["drain_seconds"]
    print(
        f"[{b}] burst of {report['burst']} wins ({report['burst_won']} won): "
        f"{report['reviews_done_in_window']} reviewed by the end of the draining window, "
        f"{report['reviews_done']} in all; "
        + (f"drained in {drain:.1f} s" if drain is not None else "NOT drained")
        + f"; in queue order: {report['in_order']}; verdicts {report['verdicts']}"
    )
    print(f"[{b}] 5xx responses and broken connections: {report['serious_errors']}")
    sys.stdout.flush()


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--burst", type=int, default=100, help="wins sent at once")
    parser.add_argument("--clients", type=int, default=8, help="placement load's connections")
    parser.add_argument("--seconds", type=float, default=20.0, help="recorded time per window")
    parser.add_argument("--warmup", type=float, default=2.0, help="unrecorded time per window")
    parser.add_argument(
        "--drain-timeout",
        type=float,
        default=1800.0,
        help="give up waiting for a review after this many seconds",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the clients' choices")
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES_ADMIN_URL)
    add_json_option(parser)
    args = parser.parse_args(argv)
    # What bench/http_load.py's LoadRun reads beside these: no memory phase.
    args.games_for_memory = 0
    return args


def main(argv: Sequence[str] | None = None) -> int:
    unwind_on_sigterm()
    args = parse_args(argv)
    print(
        f"load client: {CLIENT_DESCRIPTION} ({loop_name()}), {args.clients} connections; "
        f"windows of {args.warmup:g} s warm-up + {args.seconds:g} s recorded"
    )
    reports = {
        backend: run_backend(backend, args)
        for backend in backends_of(args.backend, args.postgres_url)
    }
    write_json(args.json, reports)
    failed = any(
        r["serious_errors"] or r["drain_seconds"] is None or r["single"]["status"] == "pending"
        for r in reports.values()
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

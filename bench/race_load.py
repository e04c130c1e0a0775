"""Races under load: many races of a few racers each, each racer placing at a person's pace,
watched by their racers and by onlookers, on two replicas behind HAProxy.

    .venv/bin/python bench/race_load.py [--races 50] [--racers 4] [--watchers 4]
        [--pace 2] [--countdown 2] [--warm-up 4] [--no-games] [--postgres-url URL]
        [--proxy-config PATH]

A fresh PostgreSQL database (created, migrated, dropped afterwards), two ``foursquare serve``
replicas on it (one worker each) and HAProxy in front, run with ``deploy/haproxy.cfg`` as
shipped (``bench/live.py``; ``--proxy-config`` runs another). Every request goes through the
proxy. Each phase opens its ``--races`` races (``--warm-up`` for the first) at once, each of
``--racers`` guests (one opens it, the others join, the last join starts it), every racer
placing one card at a random legal cell every ``--pace`` seconds from the deal to its game's
end:

    warm-up     placing as fast as answered; nothing measured
    unwatched   races nobody watches: no race stream open at all (each placement still
                notifies both replicas, as any game's does); placement latency
    watched     each racer follows its race on ``GET /races/{id}/events`` from its opening,
                and so do ``--watchers`` onlookers per race: placement latency, and the time
                from each placement's answer (its 201, as its racer's client read it) to each
                other racer's and onlooker's reading of the ``progress`` that counts it
    games       (unless ``--no-games``) as many plain games, no race, at the same pace: the
                placement latency and CPU of a game that is not a race's, for reference

The racers of a race start together (at the race's ``starts_at``, when it is dealt), but each
places its first card at a random moment within its first ``--pace`` seconds, as people do
not all click at once; later placements follow every ``--pace`` seconds (a late answer delays
the next one rather than bunching two).

Everything runs in this one process, on uvloop: the racers' requests and every stream (httpx).
The event loop's own lateness is measured (a timer every 50 ms: how late it fired) and shown
with this process's CPU use and ``/proc/loadavg``, so that a reader can tell a slow server from
a slow load generator; the replicas', PostgreSQL's and the proxy's CPU are shown beside it, and
the replicas' own placement durations (their request duration histogram).

The exit status is 1 if any stream went back (its ids, positions in the race, only move
forward to its ``result``; each racer's ``progress`` counts only grow, then its ``finished``
counts its last placement), or any race could not be played to its end. The goals
(docs/performance.md, "Races") are printed, not enforced.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import psutil
import uvloop
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import DEFAULT_POSTGRES_ADMIN_URL
from bench.live import (
    http_client,
    load_average,
    percentile,
    quiet_collector,
    replicas_behind_proxy,
    sse_events,
    stream_limits,
)
from testkit.databases import postgres_unavailable_reason
from testkit.processes import cpu_seconds, process_tree, unwind_on_sigterm
from testkit.proxy import CONFIG, Proxy
from testkit.server import Server

# The goals of issue 37, point 7 (docs/performance.md, "Races").
GOAL_PROGRESS_P99_S = 0.25
GOAL_PLACEMENT_RATIO = 1.3
DEADLINE_S = 120.0  # for a race to be dealt, and for a stream to read its result
TICK_S = 0.05  # the load generator's lateness probe
PLACEMENT_ROUTE = {"method": "POST", "route": "/games/{game_id}/placements"}


@dataclass
class Racer:
    """A racer as its client played: when each placement's 201 arrived (perf_counter)."""

    race: str
    number: int
    token: str
    acked: dict[int, float] = field(default_factory=dict)
    last: int = 0  # the number of its last placement
    status: str = "waiting"


@dataclass
class Stream:
    """What one reader of a race's stream read: each event's id, name, data and arrival
    (perf_counter). ``racer`` is the reader's own racer number (None: an onlooker)."""

    race: str
    racer: int | None
    events: list[tuple[str, str, dict[str, Any], float]] = field(default_factory=list)
    reconnects: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    done: bool = False


@dataclass
class Phase:
    name: str
    placements_s: list[float] = field(default_factory=list)
    racers: list[Racer] = field(default_factory=list)
    streams: list[Stream] = field(default_factory=list)
    lateness_s: list[float] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)  # who -> cores
    seconds: float = 0.0
    load: str = ""  # /proc/loadavg at its end
    # The replicas' own placement durations (their histogram, from the request's arrival in
    # the app to its response's end): upper bound -> count, and the sum of seconds.
    served: Counter[float] = field(default_factory=Counter)
    served_s: float = 0.0

    def served_within(self, fraction: float) -> str:
        """The histogram's bound under which ``fraction`` of the phase's placements were
        answered by the replicas."""
        total = self.served[float("inf")]
        for bound in sorted(self.served):
            if self.served[bound] >= fraction * total:
                return f"<= {ms(bound)}" if bound != float("inf") else "> 10 s"
        return "?"

    def delivery(self, kind: str, onlookers: bool | None = None) -> list[float]:
        """Seconds from each placement's 201 to each other reader's reading of its ``kind``
        event (``progress`` or ``finished``); ``onlookers``: only theirs, or only racers'."""
        acked = {(r.race, r.number): r.acked for r in self.racers}
        times = []
        for stream in self.streams:
            if onlookers is not None and (stream.racer is None) != onlookers:
                continue
            for _, name, data, read in stream.events:
                if name != kind or data["racer"] == stream.racer:
                    continue
                at = acked[(stream.race, data["racer"])].get(data["placements"])
                if at is not None:
                    times.append(read - at)
        return times


class Run:
    def __init__(self, args: argparse.Namespace, proxy: Proxy, replicas: list[Server]):
        self.args = args
        self.proxy = proxy
        self.replicas = replicas
        self.rng = random.Random(args.seed)
        self.http = http_client(proxy.base_url)
        self.errors: Counter[str] = Counter()
        self.unfinished = 0

    # ------------------------------------------------------------ requests

    async def call(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[httpx.Response, float]:
        """One request, and the seconds it took; a broken connection counts as an error."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        start = time.perf_counter()
        response = await self.http.request(method, path, json=body, headers=headers)
        return response, time.perf_counter() - start

    async def expect(
        self, status: int, method: str, path: str, body: object = None, token: str | None = None
    ) -> dict[str, Any]:
        response, _ = await self.call(method, path, body, token)
        if response.status_code != status:
            self.errors[f"{method} {path.split('/')[1]} {response.status_code}"] += 1
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text}")
        data: dict[str, Any] = response.json()
        return data

    # ------------------------------------------------------------ a race

    async def race(self, phase: Phase, index: int, pace: float, watched: bool) -> None:
        names = [f"{phase.name[:6]}-{index}-{n}" for n in range(1, self.args.racers + 1)]
        body = {"player": names[0], "seats": self.args.racers, "time_limit": 900}
        opened = await self.expect(201, "POST", "/races", body)
        race_id = opened["id"]
        racers = [Racer(race_id, 1, opened["racer_token"])]
        readers = []
        if watched:
            readers = [self.follow(phase, race_id, None) for _ in range(self.args.watchers)]
            readers.append(self.follow(phase, race_id, 1))
        starts_at = opened["starts_at"]
        for number, name in enumerate(names[1:], start=2):
            joined = await self.expect(201, "POST", f"/races/{race_id}/racers", {"player": name})
            racers.append(Racer(race_id, number, joined["racer_token"]))
            if watched:
                readers.append(self.follow(phase, race_id, number))
            starts_at = joined["starts_at"]
        phase.racers.extend(racers)
        tasks = [asyncio.create_task(reader) for reader in readers]
        await asyncio.gather(*(self.play(phase, racer, starts_at, pace) for racer in racers))
        await asyncio.gather(*tasks)

    async def play(self, phase: Phase, racer: Racer, starts_at: str, pace: float) -> None:
        """Wait for the deal, then place every ``pace`` seconds until the game ends."""
        path = f"/races/{racer.race}"
        wait = datetime.fromisoformat(starts_at).timestamp() - time.time()
        await asyncio.sleep(max(0.0, wait))
        deadline = time.monotonic() + DEADLINE_S
        while (race := await self.expect(200, "GET", path, token=racer.token))["your_game"] is None:
            if time.monotonic() > deadline:
                raise RuntimeError(f"race {racer.race} not dealt in {DEADLINE_S:g} s: {race}")
            await asyncio.sleep(0.25)
        game_id = race["your_game"]["id"]
        state = await self.expect(200, "GET", f"/games/{game_id}", token=racer.token)
        await self.place(phase, racer, game_id, state, pace)

    async def player(self, phase: Phase, index: int, pace: float) -> None:
        """A player of a plain game (no race) at the racers' pace."""
        body = {"player": f"{phase.name[:6]}-{index}"}
        created = await self.expect(201, "POST", "/games", body)
        player = Racer("", index, created["token"])
        phase.racers.append(player)
        await self.place(phase, player, created["id"], created, pace)

    async def place(
        self, phase: Phase, racer: Racer, game_id: str, state: dict[str, Any], pace: float
    ) -> None:
        """Place at random legal cells every ``pace`` seconds, the first within ``pace``
        seconds, until the game ends (a late answer delays the next placement rather than
        bunching two)."""
        await asyncio.sleep(self.rng.uniform(0, pace))
        next_at = time.perf_counter()
        while state["status"] == "in_progress":
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            next_at = max(next_at, time.perf_counter()) + pace
            target = self.rng.choice(state["legal_placements"])
            response, seconds = await self.call(
                "POST", f"/games/{game_id}/placements", target, racer.token
            )
            acked = time.perf_counter()
            if response.status_code != 201:
                self.errors[f"placement {response.status_code}"] += 1
                self.unfinished += 1
                return
            answer = response.json()
            number = answer["placement"]["number"]
            racer.acked[number], racer.last = acked, number
            phase.placements_s.append(seconds)
            state = answer["game"]
        racer.status = state["status"]

    async def follow(self, phase: Phase, race_id: str, racer: int | None) -> None:
        """Read a race's events from its first to its ``result``, again from the last one
        read (``Last-Event-ID``) if the stream breaks."""
        stream = Stream(race_id, racer)
        phase.streams.append(stream)
        deadline = time.monotonic() + DEADLINE_S + self.args.pace * 40
        while not stream.done and time.monotonic() < deadline:
            headers = {"Accept": "text/event-stream"}
            if stream.events:
                headers["Last-Event-ID"] = stream.events[-1][0]
            try:
                async with self.http.stream(
                    "GET",
                    f"/races/{race_id}/events",
                    headers=headers,
                    timeout=httpx.Timeout(10.0, read=60.0),
                ) as response:
                    if response.status_code != 200:
                        stream.refusals[str(response.status_code)] += 1
                        await response.aread()
                        await asyncio.sleep(0.5)
                        continue
                    async for event in sse_events(response):
                        read = time.perf_counter()
                        assert event.id is not None
                        stream.events.append((event.id, event.name, json.loads(event.data), read))
                        if event.name == "result":
                            stream.done = True
                            return
            except httpx.HTTPError:
                pass
            stream.reconnects += 1
            await asyncio.sleep(0.2)

    # ------------------------------------------------------------ phases

    async def probe(self, lateness: list[float], stop: asyncio.Event) -> None:
        """How late this process's event loop runs a timer: its own delay, added to every
        figure measured here."""
        while not stop.is_set():
            before = time.perf_counter()
            await asyncio.sleep(TICK_S)
            lateness.append(time.perf_counter() - before - TICK_S)

    def postgres_backends(self) -> list[int]:
        """The PostgreSQL server processes serving this run's database (their process title
        names it: "postgres: USER DATABASE HOST(PORT) STATE")."""
        database = make_url(self.replicas[0].database_url).database
        found = []
        for process in psutil.process_iter(["cmdline"]):
            title = " ".join(process.info["cmdline"] or [])
            if title.startswith("postgres: ") and f" {database} " in title:
                found.append(process.pid)
        return found

    def postgres_cpu(self) -> dict[int, float]:
        """The CPU seconds of each of this run's PostgreSQL server processes (a connection
        the pools close takes its CPU with it: a lower bound)."""
        return {pid: cpu_seconds([pid]) for pid in self.postgres_backends()}

    def cpu_now(self) -> dict[str, float]:
        replicas = [pid for r in self.replicas if r.process for pid in process_tree(r.process.pid)]
        proxy = [self.proxy.process.pid] if self.proxy.process else []
        return {
            "replicas": cpu_seconds(replicas),
            "haproxy": cpu_seconds(proxy),
            "load generator": time.process_time(),
            "wall": time.perf_counter(),
        }

    async def served(self) -> tuple[Counter[float], float]:
        """Both replicas' placement histogram: the cumulative count under each bound, and the
        sum of the seconds."""
        counts: Counter[float] = Counter()
        total = 0.0
        for replica in self.replicas:
            text = (await self.http.get(f"{replica.base_url}/metrics")).text
            for family in text_string_to_metric_families(text):
                if family.name != "foursquare_http_request_duration_seconds":
                    continue
                for sample in family.samples:
                    if any(sample.labels.get(k) != v for k, v in PLACEMENT_ROUTE.items()):
                        continue
                    if sample.name.endswith("_bucket"):
                        counts[float(sample.labels["le"])] += int(sample.value)
                    elif sample.name.endswith("_sum"):
                        total += sample.value
        return counts, total

    async def phase(
        self, name: str, races: int, pace: float, watched: bool, games: bool = False
    ) -> Phase:
        phase = Phase(name)
        stop = asyncio.Event()
        prober = asyncio.create_task(self.probe(phase.lateness_s, stop))
        served_before, served_s_before = await self.served()
        before, postgres_before = self.cpu_now(), self.postgres_cpu()
        players = (
            [self.player(phase, i, pace) for i in range(races * self.args.racers)]
            if games
            else [self.race(phase, i, pace, watched) for i in range(races)]
        )
        results = await asyncio.gather(*players, return_exceptions=True)
        after, postgres_after = self.cpu_now(), self.postgres_cpu()
        served_after, phase.served_s = await self.served()
        phase.served.update(served_after)
        phase.served.subtract(served_before)
        phase.served_s -= served_s_before
        stop.set()
        await prober
        for result in results:
            if isinstance(result, BaseException):
                self.unfinished += 1
                print(f"  ! a race failed: {result!r}", file=sys.stderr)
        phase.seconds = after["wall"] - before["wall"]
        phase.cpu = {
            who: (after[who] - before[who]) / max(phase.seconds, 1e-9)
            for who in after
            if who != "wall"
        }
        postgres = sum(cpu - postgres_before.get(pid, 0.0) for pid, cpu in postgres_after.items())
        phase.cpu["postgres"] = postgres / max(phase.seconds, 1e-9)
        phase.load = load_average()
        what = f"{races * self.args.racers} games" if games else f"{races} races"
        print(f"  {name}: {what} in {phase.seconds:.1f} s, loadavg {phase.load}", flush=True)
        return phase

    async def run(self) -> list[Phase]:
        args = self.args
        try:
            phases = []
            if args.warm_up:
                await self.phase("warm-up", args.warm_up, 0.0, False)
            phases.append(await self.phase("unwatched", args.races, args.pace, False))
            phases.append(await self.phase("watched", args.races, args.pace, True))
            if args.games:
                games = await self.phase("games", args.races, args.pace, False, games=True)
                phases.append(games)
            return phases
        finally:
            await self.http.aclose()


# ---------------------------------------------------------------- the checks and the table


def position(event_id: str) -> tuple[int, list[tuple[int, bool]]]:
    """An event's id as an ordered value: its race's rare events, then each racer's mark."""
    number, *marks = event_id.split(".")
    return int(number), [(int(mark.rstrip("f")), mark.endswith("f")) for mark in marks]


def check(phase: Phase) -> list[str]:
    """What went wrong in what the streams read, one line each (empty: each stream's
    positions moved forward only, to its result, and each racer's progress grew to its last
    placement but one, then its end). A racer's progress is its game's state: a reader is
    sent its latest counts, so two placements read together are one event."""
    racers = {(r.race, r.number): r for r in phase.racers}
    problems = []
    for stream in phase.streams:
        reader = f"racer {stream.racer}" if stream.racer else "an onlooker"
        where = f"race {stream.race}, {reader}"
        ids = [position(event[0]) for event in stream.events]
        if any(a > b for a, b in itertools.pairwise(ids)):
            problems.append(f"{where}: event ids {[event[0] for event in stream.events][:80]}")
            continue
        if not stream.done:
            problems.append(f"{where}: no result after {len(ids)} events")
            continue
        for (race, number), racer in racers.items():
            if race != stream.race:
                continue
            progress = [
                data["placements"]
                for _, name, data, _ in stream.events
                if name == "progress" and data["racer"] == number
            ]
            finished = [
                data["placements"]
                for _, name, data, _ in stream.events
                if name == "finished" and data["racer"] == number
            ]
            growing = progress == sorted(set(progress))
            growing = growing and all(0 < count < racer.last for count in progress)
            if not growing or finished != [racer.last]:
                problems.append(
                    f"{where}: racer {number}'s progress {progress}, finished {finished}; "
                    f"it placed 1..{racer.last}"
                )
    return problems


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def spread(values: list[float]) -> str:
    return " / ".join(ms(percentile(values, f)) for f in (0.5, 0.95, 0.99))


def ok(good: bool) -> str:
    return "met" if good else "NOT met"


def row(name: str, value: str, goal: str = "", verdict: str = "") -> str:
    return f"  {name:<46} {value:>28}  {goal:<14} {verdict}"


def report(
    args: argparse.Namespace, phases: list[Phase], problems: list[str], errors: Counter[str]
) -> None:
    unwatched, watched = phases[:2]
    quiet_p99 = percentile(unwatched.placements_s, 0.99)
    loud_p99 = percentile(watched.placements_s, 0.99)
    ratio = loud_p99 / quiet_p99
    progress = watched.delivery("progress")
    progress_p99 = percentile(progress, 0.99)
    print()
    print(
        f"Races: {args.races} races of {args.racers} racers, each placing a card every "
        f"{args.pace:g} s, {args.watchers} onlookers per race; 2 replicas on PostgreSQL "
        "behind HAProxy"
    )
    print(row("", "p50 / p95 / p99", "goal"))
    named = {"unwatched": "unwatched races (no stream open)", "games": "plain games, no race"}
    for phase in phases:
        words = named.get(phase.name, phase.name)
        print(row(f"placements, {words}: {len(phase.placements_s)}", spread(phase.placements_s)))
        count = phase.served[float("inf")]
        print(
            row(
                "  in the replicas: mean, p50 / p99 bucket",
                f"{ms(phase.served_s / max(count, 1))}, "
                f"{phase.served_within(0.5)} / {phase.served_within(0.99)}",
            )
        )
    print(
        row(
            "  p99 watched / p99 unwatched",
            f"{ratio:.2f} x",
            f"<= {GOAL_PLACEMENT_RATIO:g} x",
            ok(ratio <= GOAL_PLACEMENT_RATIO),
        )
    )
    print(row(f"progress read by the others: {len(progress)}", "from the placement's 201"))
    print(
        row(
            "  by racers and onlookers",
            spread(progress),
            f"p99 <= {ms(GOAL_PROGRESS_P99_S)}",
            ok(progress_p99 <= GOAL_PROGRESS_P99_S),
        )
    )
    print(row("  by the other racers", spread(watched.delivery("progress", onlookers=False))))
    print(row("  by the onlookers", spread(watched.delivery("progress", onlookers=True))))
    print(row("  finished (a racer's end), by the others", spread(watched.delivery("finished"))))
    refusals: Counter[str] = Counter()
    for stream in watched.streams:
        refusals.update(stream.refusals)
    print(row("race streams read to their result", f"{len(watched.streams)}"))
    print(row("  events read", f"{sum(len(s.events) for s in watched.streams)}"))
    print(row("  reconnections (Last-Event-ID)", f"{sum(s.reconnects for s in watched.streams)}"))
    print(row("  refused (status: count)", repr(dict(refusals))))
    print(
        row(
            "  each racer's progress, in order, none missed",
            "yes" if not problems else f"{len(problems)} wrong",
            "all",
            ok(not problems),
        )
    )
    print(row("requests refused (what: count)", repr(dict(errors))))
    for phase in phases:
        cpu = phase.cpu
        print(
            row(
                f"CPU, {phase.name} (cores: replicas/pg/haproxy/this)",
                f"{cpu['replicas']:.2f} / {cpu['postgres']:.2f} / {cpu['haproxy']:.2f}"
                f" / {cpu['load generator']:.2f}",
            )
        )
        each = cpu["replicas"] * phase.seconds / max(1, len(phase.placements_s))
        print(row("  replicas' CPU per placement", ms(each)))
        print(row("  this process's loop late, p50 / p99 / max", lateness(phase.lateness_s)))
        print(row("  /proc/loadavg at its end", phase.load))
    for problem in problems[:20]:
        print(f"  ! {problem}")
    summary = {
        "races": args.races,
        "racers": args.racers,
        "watchers": args.watchers,
        "pace_s": args.pace,
        "unwatched_p99_ms": quiet_p99 * 1000,
        "watched_p99_ms": loud_p99 * 1000,
        "ratio": ratio,
        "progress_p50_ms": percentile(progress, 0.5) * 1000,
        "progress_p95_ms": percentile(progress, 0.95) * 1000,
        "progress_p99_ms": progress_p99 * 1000,
        "progress_events": len(progress),
        "generator_cores": watched.cpu["load generator"],
        "generator_late_p99_ms": percentile(watched.lateness_s, 0.99) * 1000,
        "loadavg": watched.load,
        "problems": len(problems),
    }
    print("summary " + json.dumps(summary))


def lateness(values: list[float]) -> str:
    worst = max(values, default=float("nan"))
    return f"{ms(percentile(values, 0.5))} / {ms(percentile(values, 0.99))} / {ms(worst)}"


# ---------------------------------------------------------------- main


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--races", type=int, default=50, help="races in each measured phase")
    parser.add_argument("--racers", type=int, default=4, help="racers per race (2 to 8)")
    parser.add_argument("--watchers", type=int, default=4, help="onlookers per watched race")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between placements")
    parser.add_argument(
        "--countdown", type=float, default=2.0, help="the replicas' race countdown, seconds"
    )
    parser.add_argument(
        "--warm-up", type=int, default=4, help="races played flat out first, not measured"
    )
    parser.add_argument(
        "--games",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="last, as many plain games (no race) at the same pace, for reference",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES_ADMIN_URL)
    parser.add_argument(
        "--proxy-config", type=Path, default=CONFIG, help="HAProxy's configuration (as shipped)"
    )
    args = parser.parse_args(argv)
    if args.races < 1 or not 2 <= args.racers <= 8 or args.watchers < 0 or args.pace <= 0:
        parser.error("--races at least 1, --racers 2 to 8, --watchers at least 0, --pace > 0")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    unwind_on_sigterm()  # the replicas and the proxy stopped, the database dropped
    reason = postgres_unavailable_reason(args.postgres_url)
    if reason is not None:
        print(f"skipped: {reason}")
        return 2
    env = {
        **stream_limits(args.races * (args.racers + args.watchers)),
        "FOURSQUARE_RACE_COUNTDOWN_SECONDS": f"{args.countdown:g}",
    }
    print(f"loadavg at the start: {load_average()}", flush=True)
    with replicas_behind_proxy(args.postgres_url, env, args.proxy_config) as (proxy, replicas):
        run = Run(args, proxy, replicas)
        quiet_collector()
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            phases = runner.run(run.run())
    problems = check(phases[1])
    report(args, phases, problems, run.errors)
    return 1 if problems or run.unfinished or run.errors else 0


if __name__ == "__main__":
    sys.exit(main())

"""Live events under load: two replicas behind HAProxy, many open event streams, clients
playing games, one replica killed mid-run.

    .venv/bin/python bench/events_load.py [--streams 1000] [--clients 32] [--games 64]
        [--kill-games 32] [--no-kill] [--pace SECONDS] [--postgres-url URL]

A fresh PostgreSQL database (created, migrated, dropped afterwards), two ``foursquare serve``
replicas on it (one worker each) and HAProxy in front, run with ``deploy/haproxy.cfg`` as
shipped. Every request of the run goes through the proxy. Three phases:

    quiet    the clients play ``--games`` whole games (create, then place at a random legal
             placement until the end), nobody watching: placement latency without watchers
    watched  ``--streams`` watchers, an equal share for each client, each following its
             client's current game on ``GET /games/{id}/events`` until its ``end`` and then
             the client's next game; a client places its first card once all its watchers'
             streams are open. ``--games`` more games: placement latency with watchers, the
             delivery latency of every placement to every watcher, the replicas' RSS and
             their ``foursquare_event_streams``
    kill     the same for ``--kill-games`` games, and one replica is killed (SIGKILL to its
             process group) after a quarter of them, then started again: its watchers'
             streams break, and they reconnect through the proxy with ``Last-Event-ID``

Delivery latency is measured from the placement's ``created_at`` (the server's clock, on this
same machine, taken in the placing transaction before its commit: an upper bound of the time
from the commit) to the moment the watcher has read the event; the time from the placing
client's 201 (after the commit, so a lower bound that may even be negative) is shown beside
it. Then each watcher's record of each game it followed is checked against what the client
placed: every placement, once, in order, with the card placed, and the end.

A client whose request fails because a replica died (a 502 or 503 from the proxy, a broken
connection, a 409 "request in progress") sends it again with the same Idempotency-Key, as a
client should: a placement is never applied twice.

By default the clients place as fast as the server answers: a saturated server, whose figures
are reported against the goals it always had. ``--pace 1`` makes each client place one card a
second, as people do: ``--clients 64 --pace 1 --no-kill`` is the paced run of
docs/performance.md, whose delivery goal is tighter (p99 <= 250 ms), since a server that is not
saturated has no queue to blame. A paced client places the first card of each game at a random
moment within its first ``--pace`` seconds (as bench/race_load.py's racers do), then one every
``--pace`` seconds: the clients' games begin together, and people do not all click at once.
Paced, the goals are the tail's: a placement nobody watches at p99 within 5 times its p50, and
one watched at p99 within twice that p99. Each placement's ``Server-Timing`` (where the replica
says its time went: a pooled connection, a write turn, the database, all of it) is gathered
per phase and printed beside the client's own latency, so that a slow placement can be told
from a slow proxy or a late event loop.

The exit status is 1 if any watcher missed, doubled or reordered an event, or any game could
not be played to its end; the goals (docs/performance.md) are printed, not enforced.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import multiprocessing
import random
import statistics
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import uvloop

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import DEFAULT_POSTGRES_ADMIN_URL
from bench.live import (
    http_client,
    percentile,
    quiet_collector,
    replicas_behind_proxy,
    sse_events,
    stream_limits,
)
from testkit.databases import postgres_unavailable_reason
from testkit.processes import cpu_seconds, kill_group, process_tree, rss_bytes, unwind_on_sigterm
from testkit.proxy import Proxy
from testkit.server import Server

# The goals of docs/performance.md ("Live events").
GOAL_DELIVERY_P99_S = 1.0
GOAL_PACED_DELIVERY_P99_S = 0.25
GOAL_PLACEMENT_RATIO = 1.2
# Paced (people's pace): the tail of a placement nobody watches stays near its median, and
# watchers at most double it.
GOAL_PACED_TAIL = 5.0  # unwatched p99 / unwatched p50
GOAL_PACED_RATIO = 2.0  # watched p99 / unwatched p99
GOAL_RSS_PER_1000_MIB = 50.0
# A request that failed because a replica died is sent again for this long.
# (A placement in flight on the replica that died holds its Idempotency-Key for
# --stale-claim-seconds, the replicas' FOURSQUARE_IDEMPOTENCY_STALE_SECONDS: its retries get
# 409 "request in progress" until then.)
RETRY_FOR_S = 150.0
RETRYABLE = {409, 502, 503, 504}


# ---------------------------------------------------------------- what was played and seen


@dataclass
class Played:
    """A game as its client played it: the card of each placement number, and when each 201
    arrived (wall clock)."""

    id: str
    cards: dict[int, str] = field(default_factory=dict)
    acked: dict[int, float] = field(default_factory=dict)
    status: str = "in_progress"


@dataclass
class Seen:
    """One watcher's record of one game: the placements in the order read, and the end."""

    game_id: str
    phase: str
    numbers: list[int] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    received: list[float] = field(default_factory=list)
    created: list[float] = field(default_factory=list)
    resumed: list[bool] = field(default_factory=list)  # read on a stream opened again
    end: dict[str, object] | None = None
    last_id: str | None = None  # the id of the last placement read
    reconnects: int = 0
    dropped: int = 0  # `reconnect` events: the server found this watcher too slow


@dataclass
class Slot:
    """A client's current game, as its watchers wait for it (in the watchers' process)."""

    wanted: int
    game: str | None = None
    phase: str = ""
    connected: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    all_connected: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False

    def publish(self, game: str, phase: str) -> None:
        self.game, self.phase, self.connected = game, phase, 0
        self.all_connected = asyncio.Event()
        if self.wanted == 0:
            self.all_connected.set()
        old, self.changed = self.changed, asyncio.Event()
        old.set()

    def close(self) -> None:
        self.closed = True
        self.changed.set()

    async def next_after(self, last: str | None) -> str | None:
        while not self.closed and self.game == last:
            await self.changed.wait()
        return None if self.closed else self.game

    def one_connected(self) -> None:
        self.connected += 1
        if self.connected >= self.wanted:
            self.all_connected.set()


@dataclass
class Results:
    placement_s: dict[str, list[float]] = field(default_factory=dict)  # phase -> seconds
    # phase -> each placement's Server-Timing (metric -> seconds), "client" its own latency
    timings: dict[str, list[dict[str, float]]] = field(default_factory=dict)
    played: list[Played] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    request_errors: Counter[str] = field(default_factory=Counter)
    stream_refusals: Counter[str] = field(default_factory=Counter)
    late_watchers: int = 0  # a game started before all its watchers' streams opened
    rss_before: int = 0
    rss_with: int = 0
    streams_sampled: int = 0  # watcher streams open when rss_with was taken
    streams_by_replica: list[float] = field(default_factory=list)
    unfinished_games: int = 0
    cpu: dict[str, dict[str, float]] = field(default_factory=dict)  # phase -> who -> seconds

    def delivery(
        self, phase: str, from_ack: bool = False, resumed: bool | None = None
    ) -> list[float]:
        """Seconds from each placement's ``created_at`` (or its client's 201) to each watcher
        having read it, over the games followed in ``phase`` (``resumed``: only the events
        read on a stream opened again, or only those read on the first)."""
        acked = {game.id: game.acked for game in self.played}
        times = []
        for seen in self.seen:
            if seen.phase != phase:
                continue
            for number, received, created, again in zip(
                seen.numbers, seen.received, seen.created, seen.resumed, strict=True
            ):
                if resumed is not None and again != resumed:
                    continue
                if not from_ack:
                    times.append(received - created)
                elif number in acked[seen.game_id]:
                    times.append(received - acked[seen.game_id][number])
        return times


# ---------------------------------------------------------------- the watchers' process
#
# The watchers read in a process of their own, so that reading thousands of events does not
# delay the players' event loop (which would count as placement latency). The players tell it
# each new game ("game", client, id, phase) and hear back once its watchers are all in
# ("ready", id); it reports how many streams are open ("open", n) and, at the end, what every
# watcher read ("done", [Seen]).


class Watchers:
    def __init__(self, base_url: str, share: list[int], inbox: Any, outbox: Any, seed: int):
        self.slots = [Slot(wanted=n) for n in share]
        self.inbox, self.outbox = inbox, outbox
        self.http = http_client(base_url)
        self.rng = random.Random(seed)
        self.seen: list[Seen] = []
        self.refusals: Counter[str] = Counter()
        self.open_now = 0
        self.closing = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()

        def read_inbox() -> None:
            while True:
                message = self.inbox.get()
                loop.call_soon_threadsafe(self.on_message, message)
                if message[0] == "close":
                    return

        threading.Thread(target=read_inbox, daemon=True).start()
        reporter = asyncio.create_task(self.report_open())
        watchers = [
            asyncio.create_task(self.watcher(slot))
            for slot in self.slots
            for _ in range(slot.wanted)
        ]
        await self.closing.wait()
        # Every watcher reads to its game's end; a stuck one is given up after a while.
        done, pending = await asyncio.wait(watchers, timeout=60) if watchers else (set(), set())
        for task in pending:
            task.cancel()
        for task in done:
            task.result()
        reporter.cancel()
        await self.http.aclose()
        # Plain data: the classes of a script's module are not the same in both processes.
        seen = [dataclasses.asdict(record) for record in self.seen]
        self.outbox.put(("done", seen, dict(self.refusals)))

    def on_message(self, message: tuple[Any, ...]) -> None:
        if message[0] == "game":
            _, index, game_id, phase = message
            slot = self.slots[index]
            slot.publish(game_id, phase)
            task = asyncio.create_task(self.tell_ready(slot.all_connected, game_id))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        elif message[0] == "close":
            for slot in self.slots:
                slot.close()
            self.closing.set()

    async def tell_ready(self, connected: asyncio.Event, game_id: str) -> None:
        await connected.wait()
        self.outbox.put(("ready", game_id))

    async def report_open(self) -> None:
        reported = -1
        while True:
            if self.open_now != reported:
                reported = self.open_now
                self.outbox.put(("open", reported))
            await asyncio.sleep(0.1)

    async def watcher(self, slot: Slot) -> None:
        last: str | None = None
        while True:
            game = await slot.next_after(last)
            if game is None:
                return
            last = game
            await self.follow(game, slot.phase, slot)

    async def follow(self, game_id: str, phase: str, slot: Slot) -> None:
        seen = Seen(game_id, phase)
        self.seen.append(seen)
        counted = False
        path = f"/games/{game_id}/events"
        while seen.end is None:
            headers = {"Accept": "text/event-stream"}
            if seen.last_id is not None:
                headers["Last-Event-ID"] = seen.last_id
            try:
                async with self.http.stream(
                    "GET", path, headers=headers, timeout=httpx.Timeout(10.0, read=120.0)
                ) as response:
                    if response.status_code != 200:
                        self.refusals[str(response.status_code)] += 1
                        await response.aread()
                        wait = float(response.headers.get("Retry-After", "1") or 1)
                        await asyncio.sleep(min(wait, 5.0) * (0.5 + self.rng.random()))
                        continue
                    if not counted:
                        counted = True
                        slot.one_connected()
                    self.open_now += 1
                    try:
                        await self.read_stream(response, seen)
                    finally:
                        self.open_now -= 1
            except httpx.HTTPError:
                pass
            if seen.end is None:
                seen.reconnects += 1
                await asyncio.sleep(0.1 + 0.4 * self.rng.random())

    async def read_stream(self, response: httpx.Response, seen: Seen) -> None:
        """Read one stream of a game's events until its end, a ``reconnect`` or a break."""
        async for event in sse_events(response):
            if event.name == "placement":
                received = time.time()
                data = json.loads(event.data)
                seen.numbers.append(data["number"])
                seen.cards.append(data["card"]["code"])
                seen.received.append(received)
                seen.created.append(datetime.fromisoformat(data["created_at"]).timestamp())
                seen.resumed.append(seen.reconnects > 0)
                seen.last_id = event.id
            elif event.name == "end":
                seen.end = json.loads(event.data)
                return
            elif event.name == "reconnect":
                seen.dropped += 1
                return


def watchers_main(base_url: str, share: list[int], inbox: Any, outbox: Any, seed: int) -> None:
    """The watchers' process."""
    unwind_on_sigterm()
    # uvloop (the replicas' own loop): the same client and the same reads, for less CPU than
    # on asyncio's own loop; on a small machine, what this process takes the replicas lack.
    quiet_collector()
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        runner.run(Watchers(base_url, share, inbox, outbox, seed).run())


# ---------------------------------------------------------------- the players


class Run:
    def __init__(self, args: argparse.Namespace, proxy: Proxy, replicas: list[Server]):
        self.args = args
        self.proxy = proxy
        self.replicas = replicas
        self.results = Results()
        self.rng = random.Random(args.seed)
        self.http = http_client(proxy.base_url)
        self.started = 0  # games started in the current phase
        self.phase = ""
        self.open_now = 0  # watcher streams open, as the watchers' process last said
        self.phase_over = False
        self.ready: dict[str, asyncio.Event] = {}
        self.watchers_done = asyncio.Event()
        context = multiprocessing.get_context("spawn")
        self.to_watchers: Any = context.Queue()
        self.from_watchers: Any = context.Queue()
        share = [args.streams // args.clients] * args.clients
        for i in range(args.streams % args.clients):
            share[i] += 1
        self.watcher_process = context.Process(
            target=watchers_main,
            args=(proxy.base_url, share, self.to_watchers, self.from_watchers, args.seed),
            daemon=True,
        )

    # ------------------------------------------------------------ the watchers' news

    def on_message(self, message: tuple[Any, ...]) -> None:
        if message[0] == "ready":
            self.ready.setdefault(message[1], asyncio.Event()).set()
        elif message[0] == "open":
            self.open_now = message[1]
        elif message[0] == "done":
            self.results.seen = [Seen(**record) for record in message[1]]
            self.results.stream_refusals.update(message[2])
            self.watchers_done.set()

    def listen(self) -> None:
        loop = asyncio.get_running_loop()

        def read() -> None:
            while True:
                message = self.from_watchers.get()
                loop.call_soon_threadsafe(self.on_message, message)
                if message[0] == "done":
                    return

        threading.Thread(target=read, daemon=True).start()

    # ------------------------------------------------------------ requests

    async def send(
        self, method: str, path: str, body: object, headers: dict[str, str]
    ) -> tuple[httpx.Response, float]:
        """A write, sent again with the same Idempotency-Key while a replica's death keeps it
        from an answer; returns the answer and the seconds from the first attempt."""
        headers = {**headers, "Idempotency-Key": str(uuid.uuid4())}
        start = time.perf_counter()
        while True:
            try:
                response = await self.http.request(method, path, json=body, headers=headers)
            except httpx.HTTPError as exc:
                self.results.request_errors[type(exc).__name__] += 1
            else:
                if response.status_code not in RETRYABLE:
                    return response, time.perf_counter() - start
                self.results.request_errors[str(response.status_code)] += 1
            if time.perf_counter() - start > RETRY_FOR_S:
                raise RuntimeError(f"{method} {path}: no answer in {RETRY_FOR_S:g} s")
            await asyncio.sleep(0.2 + 0.3 * self.rng.random())

    async def play_one(self, index: int, watched: bool) -> None:
        created, _ = await self.send("POST", "/games", {"player": f"bench-{index}"}, {})
        assert created.status_code == 201, created.text
        data = created.json()
        game = Played(data["id"])
        self.results.played.append(game)
        auth = {"Authorization": f"Bearer {data['token']}"}
        legal = data["legal_placements"]
        if watched:
            ready = self.ready.setdefault(game.id, asyncio.Event())
            self.to_watchers.put(("game", index, game.id, self.phase))
            try:
                await asyncio.wait_for(ready.wait(), timeout=30)
            except TimeoutError:
                self.results.late_watchers += 1
        times = self.results.placement_s.setdefault(self.phase, [])
        path = f"/games/{game.id}/placements"
        next_at = time.perf_counter()
        if self.args.pace:
            next_at += self.rng.uniform(0, self.args.pace)  # the first within the first interval
        while game.status == "in_progress":
            if self.args.pace:
                # One placement every --pace seconds; a late answer delays the next one
                # rather than bunching two together.
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                next_at = max(next_at, time.perf_counter()) + self.args.pace
            target = self.rng.choice(legal)
            response, seconds = await self.send("POST", path, target, auth)
            if response.status_code != 201:
                self.results.unfinished_games += 1
                self.results.request_errors[f"place {response.status_code}"] += 1
                return
            acked = time.time()
            answer = response.json()
            placement, state = answer["placement"], answer["game"]
            game.cards[placement["number"]] = placement["card"]["code"]
            game.acked[placement["number"]] = acked
            times.append(seconds)
            timing = server_timing(response.headers.get("server-timing", ""))
            timing["client"] = seconds
            self.results.timings.setdefault(self.phase, []).append(timing)
            legal, game.status = state["legal_placements"], state["status"]

    async def client(self, index: int, watched: bool, games: int) -> None:
        while self.started < games:
            self.started += 1
            await self.play_one(index, watched)

    # ------------------------------------------------------------ phases

    def cpu_now(self) -> dict[str, float]:
        watchers = self.watcher_process.pid
        replicas = [pid for r in self.replicas if r.process for pid in process_tree(r.process.pid)]
        return {
            "replicas": cpu_seconds(replicas),
            "players": time.process_time(),
            "watchers": cpu_seconds(process_tree(watchers)) if watchers else 0.0,
            "wall": time.perf_counter(),
        }

    async def phase_run(self, name: str, games: int, watched: bool) -> float:
        self.phase, self.started = name, 0
        before = self.cpu_now()
        await asyncio.gather(*(self.client(i, watched, games) for i in range(self.args.clients)))
        after = self.cpu_now()
        self.results.cpu[name] = {who: after[who] - before[who] for who in after}
        seconds = after["wall"] - before["wall"]
        print(f"  {name}: {games} games in {seconds:.1f} s", flush=True)
        return seconds

    def replicas_rss(self) -> int:
        return sum(rss_bytes(process_tree(r.process.pid)) for r in self.replicas if r.process)

    async def sample_while_open(self) -> None:
        """RSS and open streams of both replicas once every watcher's stream is open (between
        games a client's watchers move to its next game: the most open seen, if never all,
        by the end of the phase)."""
        most = 0
        while not self.phase_over:
            open_now = self.open_now
            if open_now > most:
                most = open_now
                self.results.rss_with = self.replicas_rss()
                self.results.streams_sampled = open_now
                self.results.streams_by_replica = [
                    await self.open_streams(r) for r in self.replicas
                ]
            if most >= self.args.streams:
                return
            await asyncio.sleep(0.1)

    async def open_streams(self, replica: Server) -> float:
        """``foursquare_event_streams`` as the replica's /metrics says (NaN if unreadable)."""
        url = f"http://{replica.host}:{replica.port}/metrics"
        try:
            async with httpx.AsyncClient(timeout=10) as direct:
                text = (await direct.get(url)).text
        except httpx.HTTPError:
            return float("nan")
        total, found = 0.0, False
        for line in text.splitlines():
            if line.startswith("foursquare_event_streams") and not line.startswith(
                "foursquare_event_streams_"
            ):
                total += float(line.rsplit(" ", 1)[1])
                found = True
        return total if found else float("nan")

    async def kill_one(self, games: int) -> None:
        """Kill replica 1 mid-game, with most streams open, once a quarter of the kill phase's
        games have started; start it again a few seconds later."""
        deadline = time.monotonic() + 30
        while self.started < max(1, games // 4) or (
            self.open_now < 0.8 * self.args.streams and time.monotonic() < deadline
        ):
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # a few placements into the games
        victim = self.replicas[0]
        assert victim.process is not None
        print(
            f"  kill -9 replica 1 (pid {victim.process.pid}) after {self.started} games, "
            f"{self.open_now} streams open",
            flush=True,
        )
        kill_group(victim.process)
        await asyncio.sleep(self.args.restart_after)
        await asyncio.to_thread(victim.start)
        print("  replica 1 started again", flush=True)

    async def run(self) -> Results:
        args = self.args
        self.listen()
        try:
            await self.phase_run("warm-up", max(1, args.clients // 2), False)
            await self.phase_run("quiet", args.games, False)
            await asyncio.sleep(1)
            self.results.rss_before = self.replicas_rss()
            sampler = asyncio.create_task(self.sample_while_open())
            await self.phase_run("watched", args.games, True)
            self.phase_over = True
            await sampler
            if args.kill_games > 0:
                killer = None
                if not args.no_kill:
                    killer = asyncio.create_task(self.kill_one(args.kill_games))
                await self.phase_run("kill" if killer else "more", args.kill_games, True)
                if killer is not None:
                    await killer
            self.to_watchers.put(("close",))
            await asyncio.wait_for(self.watchers_done.wait(), timeout=120)
        finally:
            await self.http.aclose()
        return self.results


# ---------------------------------------------------------------- the checks and the table


def check(results: Results) -> list[str]:
    """What went wrong in the watchers' records, one line each (empty: every watcher got every
    placement of every game it followed, once, in order, with its card, and the end)."""
    played = {game.id: game for game in results.played}
    problems: list[str] = []
    for seen in results.seen:
        game = played[seen.game_id]
        wanted = list(range(1, len(game.cards) + 1))
        where = f"watcher of {seen.game_id} ({seen.phase})"
        if seen.end is None:
            problems.append(f"{where}: no end after {len(seen.numbers)} placements")
            continue
        if seen.numbers != wanted:
            doubled = sorted(n for n, c in Counter(seen.numbers).items() if c > 1)
            missed = sorted(set(wanted) - set(seen.numbers))
            problems.append(
                f"{where}: placements {seen.numbers[:60]}, wanted 1..{len(wanted)} "
                f"(missed {missed}, doubled {doubled})"
            )
            continue
        if seen.cards != [game.cards[n] for n in wanted]:
            problems.append(f"{where}: cards differ from the ones placed")
        if seen.end.get("status") != game.status or seen.end.get("placements") != len(wanted):
            problems.append(f"{where}: end {seen.end}, the client saw {game.status}")
    return problems


def server_timing(field: str) -> dict[str, float]:
    """A ``Server-Timing`` field's metrics with a duration, in seconds (W3C: ``name;dur=ms``)."""
    metrics = {}
    for metric in field.split(","):
        name, _, params = metric.strip().partition(";")
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "dur" and name:
                metrics[name] = float(value) / 1000
    return metrics


def timing_rows(results: Results) -> None:
    """Where the placements' time went, by the replicas' own account (their Server-Timing):
    p50 / p99 of each metric per phase, and the client's latency less the server's total (the
    proxy, the sockets and the loops' queues before the request was read)."""
    for phase in ("quiet", "watched"):
        timings = results.timings.get(phase, [])
        if not timings or len(timings[0]) < 2:
            continue
        names = [name for name in timings[0] if name != "client"]
        print(row(f"placements' Server-Timing, {phase}", "p50 / p99"))
        for name in names:
            values = [t[name] for t in timings if name in t]
            p50, p99 = percentile(values, 0.5), percentile(values, 0.99)
            print(row(f"  {name}", f"{ms(p50)} / {ms(p99)}"))
        total = next((n for n in ("total", "app") if n in names), None)
        if total is not None:
            outside = [t["client"] - t[total] for t in timings if total in t]
            print(
                row(
                    "  client's latency less the server's",
                    f"{ms(percentile(outside, 0.5))} / {ms(percentile(outside, 0.99))}",
                )
            )


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def ok(good: bool) -> str:
    return "met" if good else "NOT met"


def row(name: str, value: str, goal: str = "", verdict: str = "") -> str:
    return f"  {name:<44} {value:>22}  {goal:<14} {verdict}"


def report(args: argparse.Namespace, results: Results, problems: list[str]) -> None:
    quiet = results.placement_s.get("quiet", [])
    watched = results.placement_s.get("watched", [])
    delivery = results.delivery("watched")
    after_ack = results.delivery("watched", from_ack=True)
    kill_name = "kill" if not args.no_kill else "more"
    kill_delivery = results.delivery(kill_name)
    quiet_p99, watched_p99 = percentile(quiet, 0.99), percentile(watched, 0.99)
    ratio = watched_p99 / quiet_p99 if quiet else float("nan")
    grown = max(0, results.rss_with - results.rss_before)
    per_1000 = grown / max(1, results.streams_sampled) * 1000 / 2**20
    delivery_p99 = percentile(delivery, 0.99)
    delivery_goal = GOAL_PACED_DELIVERY_P99_S if args.pace else GOAL_DELIVERY_P99_S
    seen_events = sum(len(seen.numbers) for seen in results.seen)
    print()
    print(
        f"Live events: {args.streams} streams, {args.clients} clients"
        + (f" placing a card every {args.pace:g} s" if args.pace else " placing flat out")
        + ", 2 replicas on PostgreSQL behind HAProxy"
    )
    print(row("", "measured", "goal"))
    print(row("placements, quiet (no watcher)", f"{len(quiet)}"))
    print(row("  p50 / p99", f"{ms(percentile(quiet, 0.5))} / {ms(quiet_p99)}"))
    print(row("placements, watched", f"{len(watched)}"))
    print(row("  p50 / p99", f"{ms(percentile(watched, 0.5))} / {ms(watched_p99)}"))
    if args.pace:
        tail = quiet_p99 / percentile(quiet, 0.5) if quiet else float("nan")
        print(
            row(
                "  p99 quiet / p50 quiet",
                f"{tail:.2f} x",
                f"<= {GOAL_PACED_TAIL:g} x",
                ok(tail <= GOAL_PACED_TAIL),
            )
        )
        print(
            row(
                "  p99 watched / p99 quiet",
                f"{ratio:.2f} x",
                f"<= {GOAL_PACED_RATIO:g} x",
                ok(ratio <= GOAL_PACED_RATIO),
            )
        )
    else:
        print(
            row(
                "  p99 watched / p99 quiet",
                f"{ratio:.2f} x",
                f"<= {GOAL_PLACEMENT_RATIO:g} x",
                ok(ratio <= GOAL_PLACEMENT_RATIO),
            )
        )
    print(row("events delivered, watched phase", f"{len(delivery)}"))
    print(
        row(
            "  delivery from created_at, p50 / p99",
            f"{ms(percentile(delivery, 0.5))} / {ms(delivery_p99)}",
            f"p99 <= {ms(delivery_goal)}",
            ok(delivery_p99 <= delivery_goal),
        )
    )
    print(
        row(
            "  delivery from the client's 201, p50 / p99",
            f"{ms(percentile(after_ack, 0.5))} / {ms(percentile(after_ack, 0.99))}",
        )
    )
    if kill_delivery:
        print(
            row(
                f"  delivery, {kill_name} phase, p50 / p99 / max",
                f"{ms(percentile(kill_delivery, 0.5))} / {ms(percentile(kill_delivery, 0.99))}"
                f" / {ms(max(kill_delivery))}",
            )
        )
    for resumed, words in ((False, "first"), (True, "resumed")):
        times = results.delivery(kill_name, resumed=resumed)
        if times:
            print(
                row(
                    f"    on a {words} stream ({len(times)}), p99 / max",
                    f"{ms(percentile(times, 0.99))} / {ms(max(times))}",
                )
            )
    streams = ", ".join(f"{n:.0f}" for n in results.streams_by_replica)
    print(row("open streams by replica (their /metrics)", streams or "?"))
    print(row("replicas' RSS before the streams", f"{results.rss_before / 2**20:.1f} MiB"))
    print(
        row(
            f"replicas' RSS with {results.streams_sampled} open",
            f"{results.rss_with / 2**20:.1f} MiB",
        )
    )
    print(
        row(
            "  RSS per 1,000 streams",
            f"{per_1000:.1f} MiB",
            "<= 50 MiB",
            ok(per_1000 <= GOAL_RSS_PER_1000_MIB),
        )
    )
    for phase in ("quiet", "watched"):
        use = results.cpu.get(phase)
        if use:
            wall = max(use["wall"], 1e-9)
            print(
                row(
                    f"CPU, {phase} (cores: replicas/players/watchers)",
                    f"{use['replicas'] / wall:.2f} / {use['players'] / wall:.2f}"
                    f" / {use['watchers'] / wall:.2f}",
                )
            )
    timing_rows(results)
    reconnects = sum(seen.reconnects for seen in results.seen)
    dropped = sum(seen.dropped for seen in results.seen)
    print(row("games followed by a watcher", f"{len(results.seen)}"))
    print(row("  placement events read", f"{seen_events}"))
    print(row("  reconnections (Last-Event-ID)", f"{reconnects}"))
    print(row("  dropped as slow (reconnect event)", f"{dropped}"))
    print(row("  streams refused (status: count)", dict(results.stream_refusals).__repr__()))
    print(
        row(
            "  every event, once, in order",
            "yes" if not problems else f"{len(problems)} wrong",
            "all",
            ok(not problems),
        )
    )
    print(row("requests retried (cause: count)", dict(results.request_errors).__repr__()))
    if results.late_watchers:
        print(row("games begun before all watchers were in", str(results.late_watchers)))
    for problem in problems[:20]:
        print(f"  ! {problem}")
    summary = {
        "quiet_p99_ms": quiet_p99 * 1000,
        "watched_p99_ms": watched_p99 * 1000,
        "ratio": ratio,
        "delivery_p50_ms": percentile(delivery, 0.5) * 1000,
        "delivery_p99_ms": delivery_p99 * 1000,
        "pace_s": args.pace,
        "rss_per_1000_mib": per_1000,
        "events": seen_events,
        "reconnects": reconnects,
        "problems": len(problems),
        "mean_placement_ms": statistics.fmean(watched) * 1000 if watched else None,
    }
    print("summary " + json.dumps(summary))


# ---------------------------------------------------------------- main


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--streams", type=int, default=1000, help="open event streams")
    parser.add_argument("--clients", type=int, default=32, help="clients playing games")
    parser.add_argument("--games", type=int, default=64, help="games in each of quiet, watched")
    parser.add_argument(
        "--kill-games", type=int, default=None, help="games of the kill phase (--games / 2)"
    )
    parser.add_argument("--no-kill", action="store_true", help="kill no replica")
    parser.add_argument("--restart-after", type=float, default=3.0, help="seconds")
    parser.add_argument(
        "--stale-claim-seconds",
        type=float,
        default=60.0,
        help="the replicas' FOURSQUARE_IDEMPOTENCY_STALE_SECONDS (the service's default: 60)",
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="seconds between a client's placements, the first of each game at a random "
        "moment within the first interval (default 0: as fast as answered)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES_ADMIN_URL)
    args = parser.parse_args(argv)
    if args.kill_games is None:
        args.kill_games = max(1, args.games // 2)
    if args.clients < 1 or args.streams < 0 or args.games < 1 or args.pace < 0:
        parser.error("--clients and --games must be at least 1, --streams and --pace at least 0")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    unwind_on_sigterm()  # the replicas and the proxy stopped, the database dropped
    reason = postgres_unavailable_reason(args.postgres_url)
    if reason is not None:
        print(f"skipped: {reason}")
        return 2
    env = {
        **stream_limits(args.streams),
        "FOURSQUARE_IDEMPOTENCY_STALE_SECONDS": str(args.stale_claim_seconds),
    }
    with replicas_behind_proxy(args.postgres_url, env) as (proxy, replicas):
        run = Run(args, proxy, replicas)
        run.watcher_process.start()
        try:
            results = asyncio.run(run.run())
        finally:
            run.watcher_process.join(timeout=30)
            if run.watcher_process.is_alive():
                run.watcher_process.terminate()
    problems = check(results)
    report(args, results, problems)
    return 1 if problems or results.unfinished_games else 0


if __name__ == "__main__":
    sys.exit(main())

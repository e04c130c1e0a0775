"""Tournaments under load (issue 53): their standings beside the leaderboard, and one
tournament played live by hundreds of entrants on two replicas, one of them killed.

    .venv/bin/python bench/tournament_load.py standings [--backend sqlite|postgres|both]
        [--entrants 10000] [--deals 5] [--wins N] [--clients 4] [--seconds 4] [--rounds 3]
        [--leaderboard-page-cache] [--json PATH]
    .venv/bin/python bench/tournament_load.py live [--entrants 500] [--deals 2]
        [--watchers 20] [--pace 1,3] [--minutes M] [--no-kill] [--kill-after 20]
        [--restart-after 3] [--json PATH]

``standings``: for each backend, a new migrated database holding won games (``bench.bulk``:
the leaderboard, ``--wins`` of them but at least one per deal played) and two tournaments,
made by ``POST /tournaments`` on the service, into each of which ``--entrants`` entrants are
bulk-loaded with ``--deals`` finished deals each (:func:`api.tournaments.bulk_entrants`: each
deal won with a third's chance, its score drawn as ``bench.bulk`` draws a win's, a lost deal
scoring 0 after 8 to 35 cards; their finishes fall on whole seconds of one hour, so that some
entrants tie on score, cards and finish, and share a rank). One stays running (provisional
standings); the other is then finished (:func:`api.tournaments.bulk_finish`), its entrants
with their places and games (won games of the leaderboard: only their ids are shown). Then
ANALYZE (and VACUUM on PostgreSQL), and a server (``uvicorn --factory
api.app:app_from_environment``, one process) started on it. One client walks every page of
both standings (``next``), checking their ranks, and as many leaderboard pages
(``next_cursor``), then, round after round, times each kind of request for ``--seconds``
with ``--clients`` keep-alive connections at once, each sending its next request as soon as
the last is answered:

    leaderboard         GET /leaderboard?limit=100, the first page and the walked cursors
    standings           GET /tournaments/{id}/standings?limit=100, the same (provisional)
    standings around    GET /tournaments/{id}/standings?limit=100&around=<name>, entrants
                        spread over the whole standings
    final standings     the finished tournament's pages, each entry with its games
    leaderboard around  GET /leaderboard/around/{game}?count=50 (101 entries), games
                        spread over the whole board: for reference

Requests per second of each, over the rounds, and the ratio of each kind of standings' to
the leaderboard's (goal: at least 0.8, on both databases). The leaderboard's page cache is off
(``FOURSQUARE_LEADERBOARD_CACHE_PAGES=0``), so that both run their query for every request,
unless ``--leaderboard-page-cache``. The client is one process on the same machine as the
server: it shares its cores, and is the same for both.

``live``: a fresh PostgreSQL database, two ``foursquare serve`` replicas on it and HAProxy in
front (``bench/live.py``, ``deploy/haproxy.cfg`` as shipped); every request through the
proxy. An operator announces a tournament for guests starting a few seconds after the joins,
``--entrants`` guests join it, ``--watchers`` clients follow ``GET /tournaments/{id}/events``
in a process of their own, and once it starts every entrant plays its ``--deals`` deals in
turn (``POST /tournaments/{id}/games``, then a random legal placement every ``--pace`` seconds,
drawn anew each time from that range, the first of each deal within its first interval) with
its token. Every write carries an ``Idempotency-Key`` and is sent again with the same key
while a replica's death keeps it from an answer (a 502/503/504 from the proxy, a broken
connection, a 409 while the dead replica's claim holds). Unless ``--no-kill``, replica 1 is
killed (SIGKILL to its process group) once a third of the placements expected are
acknowledged, and started again ``--restart-after`` seconds later; the watchers reconnect with
``Last-Event-ID``. The figures:

- the delay from the 201 of the placement that ended a deal (as its client read it) to each
  watcher's reading of that deal's ``deal_finished``, and of the first ``standings`` event
  after it (goal: p99 <= 250 ms on a quiet machine);
- placements acknowledged (a 201 the client read) and stored (each game's placements read
  back from ``GET /games/{id}/placements`` with the entrant's token once the tournament is
  over): every acknowledged placement stored once, none stored that no client placed;
- each entrant's deals played, score and cards in the standings against its games (a deal
  the tournament's end cut off counts as the service counts it: played, lost, its cards);
- the replicas', PostgreSQL's and HAProxy's CPU per placement, this process's and the
  watchers', how late this process's event loop ran, and /proc/loadavg. The load generator
  (players and watchers) runs on the same 2 cores as the service it measures.

The exit status is 1 if a placement was lost or doubled, a stream went back or missed an
event, or a request failed for good; the goals are printed, not enforced.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import sys
import time
import uuid
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import create_engine, text

from api.tournaments import LoadedEntrant, bulk_entrants, bulk_finish
from bench.bulk import MAX_SCORE, SCORE_WEIGHTS, BulkLoader
from bench.harness import DEFAULT_POSTGRES_ADMIN_URL, backends_of
from bench.loadgen import Recorder, run_async
from bench.results import add_json_option, write_json
from testkit.databases import throwaway_database
from testkit.http import HttpConnection
from testkit.processes import cpu_seconds, unwind_on_sigterm
from testkit.server import Server, running_server

APP_FACTORY = "api.app:app_from_environment"
LIMIT = 100
GOAL_RATIO = 0.8
GOAL_LIVE_P99_S = 0.25
OPERATOR_KEY = "bench:" + "o" * 40
OPERATOR = {"FOURSQUARE_OPERATOR_KEYS": OPERATOR_KEY}
OPERATOR_AUTH = ("Authorization", f"Bearer {OPERATOR_KEY.partition(':')[2]}")
NO_PAGE_CACHE = {"FOURSQUARE_LEADERBOARD_CACHE_PAGES": "0"}
WIN_CHANCE = 1 / 3
PLAYED_FROM = datetime(2026, 11, 30, 18, tzinfo=UTC)  # the entrants' finishes: one hour


def rfc3339(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


# ---------------------------------------------------------------- standings: the load


def entrants_of(
    count: int, deals: int, seed: int, games: Sequence[uuid.UUID] = ()
) -> list[LoadedEntrant]:
    """``count`` entrants who played ``deals`` deals each, as the service would keep them.
    With ``games`` (``deals`` per entrant, in turn), each is given its games and its final
    place, as a finished tournament's entrants are."""
    rng = random.Random(seed)
    found = []
    for number in range(1, count + 1):
        score = cards = 0
        for _ in range(deals):
            if rng.random() < WIN_CHANCE:
                won = rng.choices(range(MAX_SCORE + 1), SCORE_WEIGHTS)[0]
                score += won
                cards += 40 - won  # a win places every card but the stock it keeps
            else:
                cards += rng.randint(8, 35)
        finished_at = PLAYED_FROM + timedelta(seconds=rng.randrange(3600))
        found.append(
            LoadedEntrant(
                number=number,
                name=f"entrant{number:05d}",
                joined_at=PLAYED_FROM - timedelta(minutes=10),
                deals_played=deals,
                score=score,
                cards=cards,
                finished_at=finished_at,
                token_hash=f"{rng.getrandbits(256):064x}",
                games=tuple(games[(number - 1) * deals : number * deals]),
            )
        )
    if games:
        order = sorted(found, key=lambda e: (-e.score, -e.cards, e.finished_at, e.number))
        places = {entrant.number: place for place, entrant in enumerate(order, start=1)}
        found = [replace(entrant, place=places[entrant.number]) for entrant in found]
    return found


def analyze(url: str) -> None:
    """What a live database has from autovacuum or a periodic ANALYZE, over every table."""
    engine = create_engine(url)
    try:
        if engine.dialect.name == "postgresql":
            autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")
            with autocommit.connect() as connection:
                connection.execute(text("VACUUM ANALYZE"))
        else:
            with engine.begin() as connection:
                connection.execute(text("ANALYZE"))
    finally:
        engine.dispose()


async def announce_running(server: Server, name: str, deals: int) -> str:
    """A tournament that started a minute ago and ends tomorrow, as an operator makes one."""
    now = datetime.now(UTC)
    body = {
        "name": name,
        "starts_at": rfc3339(now - timedelta(minutes=1)),
        "ends_at": rfc3339(now + timedelta(days=1)),
        "deals": deals,
        "guests": True,
    }
    connection = HttpConnection(server.host, server.port)
    try:
        response = await connection.request(
            "POST", "/tournaments", json.dumps(body).encode(), [OPERATOR_AUTH]
        )
    finally:
        await connection.close()
    if response.status != 201:
        raise RuntimeError(f"POST /tournaments: {response.status} {response.body!r}")
    created = response.json()
    if created["status"] != "running":
        raise RuntimeError(f"a tournament that started in the past is {created['status']}")
    return str(created["id"])


@dataclass
class Walked:
    """One tournament's standings as walked: every page's cursor, and names spread down it."""

    tournament: str
    status: str  # provisional or final
    cursors: list[str | None] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    ties: int = 0


@dataclass
class Loaded:
    backend: str
    entrants: int
    wins: int
    load_seconds: float
    tournaments: dict[str, Walked] = field(default_factory=dict)  # provisional, final
    board_cursors: list[str | None] = field(default_factory=list)
    games: list[str] = field(default_factory=list)  # for the leaderboard's around
    recorder: Recorder = field(default_factory=Recorder)
    seconds: dict[str, float] = field(default_factory=dict)  # label -> seconds timed

    def rate(self, label: str) -> float:
        stats = self.recorder.endpoints.get(label)
        return stats.count / self.seconds[label] if stats and self.seconds.get(label) else 0.0

    def errors(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for endpoint in self.recorder.endpoints.values():
            for key, count in endpoint.errors().items():
                found[key] = found.get(key, 0) + count
        return found


def standings_path(tournament: str, cursor: str | None, around: str | None = None) -> str:
    path = f"/tournaments/{tournament}/standings?limit={LIMIT}"
    if cursor is not None:
        path += f"&cursor={quote(cursor)}"
    if around is not None:
        path += f"&around={quote(around)}"
    return path


def board_path(cursor: str | None) -> str:
    path = f"/leaderboard?limit={LIMIT}"
    return path if cursor is None else f"{path}&cursor={quote(cursor)}"


async def get(connection: HttpConnection, path: str) -> dict[str, Any]:
    response = await connection.request("GET", path)
    if response.status != 200:
        raise RuntimeError(f"GET {path}: {response.status} {response.body!r}")
    return response.json()


async def walk_standings(connection: HttpConnection, walked: Walked, entrants: int) -> None:
    """Every page of a tournament's standings, their cursors kept; the ranks checked (1 +
    the entries strictly ahead), every entrant met once, and a final page's entries each
    with its games and place."""
    cursor: str | None = None
    seen: list[dict[str, Any]] = []
    while True:
        walked.cursors.append(cursor)
        page = await get(connection, standings_path(walked.tournament, cursor))
        if page["status"] != walked.status or page["total"] != entrants:
            raise AssertionError(f"standings {page['status']}, total {page['total']}")
        seen.extend(page["entries"])
        cursor = page["next"]
        if cursor is None:
            break
    if sorted(entry["number"] for entry in seen) != list(range(1, entrants + 1)):
        raise AssertionError("the standings' pages skipped or repeated an entrant")
    keys = [(-e["score"], -e["cards"], e["finished_at"] or "~") for e in seen]
    first_of_key = 0
    for index, entry in enumerate(seen):
        if index and keys[index] < keys[index - 1]:
            raise AssertionError(f"standings out of order at {index}: {entry}")
        if index and keys[index] != keys[index - 1]:
            first_of_key = index
        if entry["rank"] != first_of_key + 1:  # 1 + the entries strictly ahead
            raise AssertionError(f"rank {entry['rank']} at {index}, not {first_of_key + 1}")
        if walked.status == "final" and (entry["place"] is None or not entry["games"]):
            raise AssertionError(f"a final entry without its place or games: {entry}")
    walked.ties = sum(1 for a, b in itertools.pairwise(keys) if a == b)
    step = max(1, len(seen) // 20)
    walked.names = [entry["name"] for entry in seen[step // 2 :: step]]


async def walk(connection: HttpConnection, loaded: Loaded) -> None:
    """Every page of both tournaments' standings, and as many of the leaderboard's."""
    for walked in loaded.tournaments.values():
        await walk_standings(connection, walked, loaded.entrants)
        print(
            f"[{loaded.backend}] {walked.status} standings walked: {loaded.entrants} entrants "
            f"on {len(walked.cursors)} pages, {walked.ties} sharing the rank before them"
        )
    cursor = None
    for _ in range(len(loaded.tournaments["provisional"].cursors)):
        loaded.board_cursors.append(cursor)
        page = await get(connection, board_path(cursor))
        loaded.games.append(page["entries"][len(page["entries"]) // 2]["game_id"])
        cursor = page["next_cursor"]
        if cursor is None:
            break


async def timed(
    loaded: Loaded, server: Server, label: str, paths: list[str], clients: int, seconds: float
) -> None:
    """``clients`` connections each sending ``paths`` in turn (from a different start) for
    ``seconds``, recorded under ``label``."""
    recorder = loaded.recorder
    stop_at = time.perf_counter() + seconds

    async def client(offset: int) -> None:
        connection = HttpConnection(server.host, server.port)
        try:
            index = offset
            while time.perf_counter() < stop_at:
                await recorder.call(label, connection, "GET", paths[index % len(paths)])
                index += 1
        finally:
            await connection.close()

    started = time.perf_counter()
    await asyncio.gather(*(client(i * len(paths) // clients) for i in range(clients)))
    loaded.seconds[label] = loaded.seconds.get(label, 0.0) + time.perf_counter() - started


STANDINGS_KINDS = (
    "leaderboard",
    "standings",
    "standings around",
    "final standings",
    "leaderboard around",
)
COMPARED = ("standings", "standings around", "final standings")


async def measure(loaded: Loaded, server: Server, args: argparse.Namespace) -> None:
    connection = HttpConnection(server.host, server.port)
    try:
        await walk(connection, loaded)
    finally:
        await connection.close()
    running, final = loaded.tournaments["provisional"], loaded.tournaments["final"]
    paths = {
        "leaderboard": [board_path(cursor) for cursor in loaded.board_cursors],
        "standings": [standings_path(running.tournament, c) for c in running.cursors],
        "standings around": [standings_path(running.tournament, None, n) for n in running.names],
        "final standings": [standings_path(final.tournament, c) for c in final.cursors],
        "leaderboard around": [f"/leaderboard/around/{g}?count=50" for g in loaded.games],
    }
    # A warm-up of each kind, unrecorded: the caches of the database and the process.
    for label in STANDINGS_KINDS:
        await timed(loaded, server, label, paths[label], args.clients, min(1.0, args.seconds))
    loaded.seconds.clear()
    loaded.recorder.start()
    for round_ in range(args.rounds):
        # Alternate the order: a neighbour's burst on the machine falls on every kind alike.
        kinds = STANDINGS_KINDS if round_ % 2 == 0 else tuple(reversed(STANDINGS_KINDS))
        for label in kinds:
            await timed(loaded, server, label, paths[label], args.clients, args.seconds)


def run_standings_backend(backend: str, args: argparse.Namespace) -> Loaded:
    # The final standings' entrants each list their games: the leaderboard's won games, as
    # many as they played (their scores are not the deals': only the ids are shown).
    wins = max(args.wins or args.entrants, args.entrants * args.deals)
    with ExitStack() as stack:
        url = stack.enter_context(throwaway_database(backend, args.postgres_url))
        start = time.perf_counter()
        loader = BulkLoader(url, seed=args.seed)
        try:
            loader.load(wins)
        finally:
            loader.close()
        env = {**OPERATOR, **({} if args.leaderboard_page_cache else NO_PAGE_CACHE)}
        with running_server(
            url, app_factory=APP_FACTORY, extra_env=env, migrate_on_start=False
        ) as server:
            running = run_async(announce_running(server, "bench standings", args.deals))
            final = run_async(announce_running(server, "bench final", args.deals))
        engine = create_engine(url)
        try:
            with engine.begin() as connection:
                bulk_entrants(
                    connection,
                    uuid.UUID(running),
                    entrants_of(args.entrants, args.deals, args.seed),
                )
                bulk_entrants(
                    connection,
                    uuid.UUID(final),
                    entrants_of(args.entrants, args.deals, args.seed + 1, loader.game_ids),
                )
                bulk_finish(connection, uuid.UUID(final), PLAYED_FROM + timedelta(hours=2))
        finally:
            engine.dispose()
        analyze(url)
        loaded = Loaded(backend, args.entrants, wins, load_seconds=time.perf_counter() - start)
        loaded.tournaments = {
            "provisional": Walked(running, "provisional"),
            "final": Walked(final, "final"),
        }
        print(
            f"[{backend}] loaded {wins} won games and two tournaments of {args.entrants} "
            f"entrants with {args.deals} deals each (one running, one finished) in "
            f"{loaded.load_seconds:.1f} s",
            flush=True,
        )
        server = stack.enter_context(
            running_server(url, app_factory=APP_FACTORY, extra_env=env, migrate_on_start=False)
        )
        run_async(measure(loaded, server, args))
    return loaded


def print_standings(loaded: Loaded, args: argparse.Namespace) -> dict[str, Any]:
    backend = loaded.backend
    cache = "on" if args.leaderboard_page_cache else "off"
    print(
        f"[{backend}] {args.clients} connections at once, {args.rounds} rounds of "
        f"{args.seconds:g} s per kind; leaderboard page cache {cache}; the client shares the "
        "machine's cores with the server"
    )
    figures: dict[str, Any] = {"backend": backend, "errors": loaded.errors(), "kinds": {}}
    for label in STANDINGS_KINDS:
        stats = loaded.recorder.endpoints.get(label)
        if stats is None:
            continue
        rate = loaded.rate(label)
        figures["kinds"][label] = {**stats.figures(), "rps": rate}
        print(
            f"  {label:<20} {rate:8.1f} requests/s   p50 {stats.millis(0.5):7.2f} ms  "
            f"p99 {stats.millis(0.99):7.2f} ms  ({stats.count} requests)"
        )
    board = loaded.rate("leaderboard")
    for label in COMPARED:
        ratio = loaded.rate(label) / board if board else float("nan")
        figures[f"{label} ratio"] = ratio
        verdict = "met" if ratio >= GOAL_RATIO else "NOT met"
        print(f"  {label} / leaderboard: {ratio:.2f} x   goal >= {GOAL_RATIO:g} x  {verdict}")
    print(f"  errors: {loaded.errors() or 'none'}", flush=True)
    figures["ratio"] = figures["standings ratio"]
    return figures


def standings_main(args: argparse.Namespace) -> int:
    backend = {"postgres": "postgresql"}.get(args.backend, args.backend)
    figures: dict[str, Any] = {}
    failed = False
    for name in backends_of(backend, args.postgres_url):
        loaded = run_standings_backend(name, args)
        figures[name] = print_standings(loaded, args)
        failed = failed or bool(loaded.errors())
    write_json(args.json, figures)
    return 1 if failed else 0


# ---------------------------------------------------------------- live: the watchers
#
# The watchers read in a process of their own, so that reading their events does not delay
# the players' loop (which would show as placement latency) nor the players theirs. They
# connect before the start; once the players are done, the main process tells them how many
# `deal_finished` events to expect, and each stream reads until it has them all (or gives up
# after a while).

STREAM_READ_S = 60.0
WATCH_AFTER_S = 30.0  # after the players are done, for the last events to arrive


def watchers_main(
    base_url: str, tournament: str, count: int, shared: Any, stop: Any, outbox: Any
) -> None:
    """The watchers' process: ``count`` streams; ``shared``: [streams open, deals expected]."""
    import uvloop  # the replicas' loop: the same reads for less CPU

    from bench.live import quiet_collector

    unwind_on_sigterm()
    quiet_collector()
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        streams = runner.run(watch(base_url, tournament, count, shared, stop))
    outbox.put(streams)


async def watch(
    base_url: str, tournament: str, count: int, shared: Any, stop: Any
) -> list[dict[str, Any]]:
    import httpx

    from bench.live import http_client, sse_events

    http = http_client(base_url)
    records: list[dict[str, Any]] = [
        {"events": [], "reconnects": 0, "refusals": {}, "done": False} for _ in range(count)
    ]

    async def follow(record: dict[str, Any]) -> None:
        counted = False
        while True:
            headers = {"Accept": "text/event-stream"}
            if record["events"]:
                headers["Last-Event-ID"] = record["events"][-1][0]
            try:
                async with http.stream(
                    "GET",
                    f"/tournaments/{tournament}/events",
                    headers=headers,
                    timeout=httpx.Timeout(10.0, read=STREAM_READ_S),
                ) as response:
                    if response.status_code != 200:
                        code = str(response.status_code)
                        record["refusals"][code] = record["refusals"].get(code, 0) + 1
                        await response.aread()
                        await asyncio.sleep(0.5)
                        continue
                    if not counted:
                        counted = True
                        shared[0] += 1
                    async for event in sse_events(response):
                        record["events"].append(
                            (event.id, event.name, json.loads(event.data or "null"), time.time())
                        )
            except httpx.HTTPError:
                pass
            record["reconnects"] += 1
            await asyncio.sleep(0.2)

    def finished(record: dict[str, Any]) -> bool:
        expected = int(shared[1])
        read = sum(1 for event in record["events"] if event[1] == "deal_finished")
        return expected > 0 and read >= expected

    tasks = [asyncio.create_task(follow(record)) for record in records]
    while not stop.is_set() and not all(finished(record) for record in records):
        await asyncio.sleep(0.2)
    for record, task in zip(records, tasks, strict=True):
        record["done"] = finished(record)
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await http.aclose()
    # Reconnections counted by the loop include the cancellation's: not one of the stream's.
    return records


# ---------------------------------------------------------------- live: the players

RETRY_FOR_S = 150.0  # a write cut off by a replica's death is sent again for this long
RETRYABLE = {502, 503, 504}
TICK_S = 0.05
# The players' requests go out through this many clients, each entrant's always through the
# same one: httpcore's pool looks over every connection it holds at each request, and one
# pool for 500 players, with hundreds of requests in flight, spent a quarter of the players'
# CPU on that (py-spy) on the cores the service is measured on.
CLIENTS = 25


@dataclass
class Deal:
    """One deal as its entrant played it: each placement's number, the wall-clock time its
    201 was read, and the server's ``created_at`` of the one that ended the deal."""

    number: int
    game_id: str
    acked: dict[int, float] = field(default_factory=dict)
    status: str = "in_progress"
    score: int | None = None
    ended_created: float | None = None  # the ending placement's created_at (server clock)
    ended_acked: float | None = None  # when its 201 was read


@dataclass
class Entrant:
    name: str
    index: int
    token: str = ""
    number: int = 0
    deals: list[Deal] = field(default_factory=list)
    failure: str = ""
    cut_off: bool = False  # the tournament ended before its deals did


class Live:
    def __init__(self, args: argparse.Namespace, proxy: Any, replicas: list[Server]) -> None:
        from bench.live import http_client

        self.args = args
        self.proxy = proxy
        self.replicas = replicas
        self.rng = random.Random(args.seed)
        self.http = http_client(proxy.base_url)
        self.clients = [http_client(proxy.base_url) for _ in range(CLIENTS)]
        self.retried: dict[str, int] = {}
        self.placement_s: list[float] = []
        self.lateness_s: list[float] = []
        self.entrants: list[Entrant] = []
        self.tournament = ""
        self.killed_at: float | None = None
        self.dead_cpu = 0.0  # the killed replica's CPU seconds, which its death takes along

    async def send(
        self,
        method: str,
        path: str,
        body: object = None,
        token: str | None = None,
        entrant: Entrant | None = None,
    ) -> Any:
        """A request through the proxy with one ``Idempotency-Key`` however often it is
        sent: again while a replica's death keeps it from an answer. An ``entrant``'s goes
        through its own client of :data:`CLIENTS`."""
        import httpx

        http = self.http if entrant is None else self.clients[entrant.index % CLIENTS]

        headers = {"Idempotency-Key": str(uuid.uuid4())}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        start = time.perf_counter()
        while True:
            try:
                response = await http.request(method, path, json=body, headers=headers)
            except httpx.HTTPError as exc:
                cause = type(exc).__name__
            else:
                in_progress = response.status_code == 409 and "request_in_progress" in (
                    response.text
                )
                if response.status_code not in RETRYABLE and not in_progress:
                    return response
                cause = "409 request_in_progress" if in_progress else str(response.status_code)
            self.retried[cause] = self.retried.get(cause, 0) + 1
            if time.perf_counter() - start > RETRY_FOR_S:
                raise RuntimeError(f"{method} {path}: no answer in {RETRY_FOR_S:g} s ({cause})")
            await asyncio.sleep(0.2 + 0.3 * self.rng.random())

    async def expect(
        self,
        status: int,
        method: str,
        path: str,
        body: object = None,
        token: str | None = None,
        entrant: Entrant | None = None,
    ) -> dict[str, Any]:
        response = await self.send(method, path, body, token, entrant)
        if response.status_code != status:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text}")
        data: dict[str, Any] = response.json()
        return data

    async def announce(self, starts_at: datetime, ends_at: datetime) -> None:
        body = {
            "name": "bench live",
            "starts_at": rfc3339(starts_at),
            "ends_at": rfc3339(ends_at),
            "deals": self.args.deals,
            "guests": True,
        }
        created = await self.expect(201, "POST", "/tournaments", body, OPERATOR_AUTH[1][7:])
        self.tournament = created["id"]

    async def join(self, entrant: Entrant, gate: asyncio.Semaphore) -> None:
        async with gate:
            joined = await self.expect(
                201, "POST", f"/tournaments/{self.tournament}/entrants", {"name": entrant.name}
            )
        entrant.token, entrant.number = joined["token"], joined["entry"]["number"]

    async def play(self, entrant: Entrant, starts_at: float) -> None:
        """Every deal in turn, a placement every ``--pace`` seconds (drawn anew each time;
        the first of a deal within its first interval)."""
        low, high = self.args.pace
        await asyncio.sleep(max(0.0, starts_at - time.time()))
        try:
            for _ in range(self.args.deals):
                deal, state = await self.deal(entrant)
                entrant.deals.append(deal)
                next_at = time.perf_counter() + self.rng.uniform(0, high)
                while state["status"] == "in_progress":
                    await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                    next_at = max(next_at, time.perf_counter()) + self.rng.uniform(low, high)
                    target = self.rng.choice(state["legal_placements"])
                    started = time.perf_counter()
                    answer = await self.expect(
                        201,
                        "POST",
                        f"/games/{deal.game_id}/placements",
                        target,
                        entrant.token,
                        entrant,
                    )
                    acked = time.time()
                    self.placement_s.append(time.perf_counter() - started)
                    placement, state = answer["placement"], answer["game"]
                    deal.acked[placement["number"]] = acked
                    if state["status"] != "in_progress":
                        deal.status, deal.score = state["status"], state.get("score")
                        deal.ended_acked = acked
                        created = datetime.fromisoformat(placement["created_at"])
                        deal.ended_created = created.timestamp()
        except RuntimeError as exc:
            # The end refuses what comes after it: the deal in progress ends (lost), counted.
            if "time_up" in str(exc) or "tournament_not_running" in str(exc):
                entrant.cut_off = True
            else:
                entrant.failure = str(exc)

    async def deal(self, entrant: Entrant) -> tuple[Deal, dict[str, Any]]:
        """The entrant's next deal. Dealing takes no ``Idempotency-Key``: a deal whose answer
        the kill cut off is found again as the entrant's ``current_game`` (its retry is
        refused with ``409 deal_in_progress``), as a person's page would on a reload."""
        path = f"/tournaments/{self.tournament}"
        response = await self.send("POST", f"{path}/games", token=entrant.token, entrant=entrant)
        if response.status_code == 201:
            dealt = response.json()
            return Deal(dealt["deal"], dealt["game_id"]), dealt["game"]
        if response.status_code != 409 or "deal_in_progress" not in response.text:
            raise RuntimeError(f"POST {path}/games: {response.status_code} {response.text}")
        self.retried["deal found again"] = self.retried.get("deal found again", 0) + 1
        you = (await self.expect(200, "GET", path, token=entrant.token))["you"]
        game_id = you["current_game"]
        state = await self.expect(200, "GET", f"/games/{game_id}", token=entrant.token)
        return Deal(len(entrant.deals) + 1, game_id), state

    async def until_running(self) -> None:
        """Until the tournament has started: a replica's ticker starts it at its
        ``starts_at`` (within its tick), and deals are refused before."""
        deadline = time.monotonic() + 60
        path = f"/tournaments/{self.tournament}"
        while (await self.expect(200, "GET", path))["status"] != "running":
            if time.monotonic() > deadline:
                raise RuntimeError(f"{path}: not running a minute after its start")
            await asyncio.sleep(0.1)

    async def kill_one(self, after: float) -> None:
        await asyncio.sleep(after)
        victim = self.replicas[0]
        assert victim.process is not None
        placed = len(self.placement_s)
        print(f"  kill -9 replica 1 (pid {victim.process.pid}) after {placed} placements")
        self.killed_at = time.time()
        self.dead_cpu = cpu_seconds(victim.pids())
        victim.kill()
        await asyncio.sleep(self.args.restart_after)
        await asyncio.to_thread(victim.start)
        print("  replica 1 started again", flush=True)

    async def probe(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            before = time.perf_counter()
            await asyncio.sleep(TICK_S)
            self.lateness_s.append(time.perf_counter() - before - TICK_S)

    async def stored(self, entrant: Entrant, deal: Deal) -> list[int]:
        """The placements the service stored of a deal's game, by number."""
        response = await self.send("GET", f"/games/{deal.game_id}/placements", token=entrant.token)
        if response.status_code != 200:
            raise RuntimeError(f"history of {deal.game_id}: {response.status_code}")
        return [placement["number"] for placement in response.json()["placements"]]

    async def standings(self) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = []
        cursor: str | None = None
        while True:
            path = f"/tournaments/{self.tournament}/standings?limit=100"
            if cursor is not None:
                path += f"&cursor={quote(cursor)}"
            page = await self.expect(200, "GET", path)
            entries.extend(page["entries"])
            cursor = page["next"]
            if cursor is None:
                return entries

    async def close(self) -> None:
        for http in [self.http, *self.clients]:
            await http.aclose()


def cpu_now(live: Live, watcher_pid: int | None) -> dict[str, float]:
    from testkit.processes import process_tree

    replicas = [pid for r in live.replicas if r.process for pid in process_tree(r.process.pid)]
    proxy = [live.proxy.process.pid] if live.proxy.process else []
    return {
        "replicas": cpu_seconds(replicas),
        "haproxy": cpu_seconds(proxy),
        "players": time.process_time(),
        "watchers": cpu_seconds(process_tree(watcher_pid)) if watcher_pid else 0.0,
        "wall": time.perf_counter(),
    }


def postgres_cpu(database: str) -> dict[int, float]:
    """The CPU seconds of each PostgreSQL server process serving ``database`` (a connection
    the pools close takes its CPU with it: a lower bound)."""
    import psutil

    found = {}
    for process in psutil.process_iter(["cmdline"]):
        title = " ".join(process.info["cmdline"] or [])
        if title.startswith("postgres: ") and f" {database} " in title:
            found[process.pid] = cpu_seconds([process.pid])
    return found


# ---------------------------------------------------------------- live: the checks


def delays(
    entrants: list[Entrant], streams: list[dict[str, Any]], kind: str, since: str
) -> list[float]:
    """Seconds from each deal's end (``since``: the ending placement's ``created_at`` or its
    201) to each watcher's reading of its ``deal_finished`` (``kind`` "deal_finished") or of
    the first ``standings`` event read after that (``kind`` "standings")."""
    ends = {
        (entrant.name, deal.number): deal.ended_created if since == "created" else deal.ended_acked
        for entrant in entrants
        for deal in entrant.deals
    }
    found = []
    for stream in streams:
        events = stream["events"]
        for index, (_, name, data, read) in enumerate(events):
            if name != "deal_finished":
                continue
            end = ends.get((data["name"], data["deal"]))
            if end is None:
                continue
            if kind == "standings":
                later = next((e for e in events[index:] if e[1] == "standings"), None)
                if later is None:
                    continue
                read = later[3]
            found.append(read - end)
    return found


def check_streams(entrants: list[Entrant], streams: list[dict[str, Any]]) -> list[str]:
    """Each stream's ids only move forward, and it read each ended deal's ``deal_finished``
    once, with the entrant's deals played and score as its client saw them."""
    ended = {
        (entrant.name, deal.number): (deal.number, deal.score or 0)
        for entrant in entrants
        for deal in entrant.deals
        if deal.status != "in_progress"
    }
    totals = {
        entrant.name: list(itertools.accumulate(deal.score or 0 for deal in entrant.deals))
        for entrant in entrants
    }
    problems = []
    for index, stream in enumerate(streams):
        ids = [event[0] for event in stream["events"]]
        numbers = [int(str(i).split(".")[0]) if i else -1 for i in ids]
        if numbers != sorted(numbers) or len(set(ids)) != len(ids):
            problems.append(f"watcher {index}: event ids went back or repeated: {ids[:40]}")
        read = [
            (data["name"], data["deal"])
            for _, name, data, _ in stream["events"]
            if name == "deal_finished"
        ]
        if sorted(read) != sorted(ended):
            missed = len(set(ended) - set(read))
            doubled = len(read) - len(set(read))
            problems.append(f"watcher {index}: {missed} deal ends missed, {doubled} doubled")
        for _, name, data, _ in stream["events"]:
            if name == "deal_finished":
                key = (data["name"], data["deal"])
                scores = totals.get(data["name"], [])
                if key in ended and (
                    data["deals_played"] != data["deal"]
                    or data["score"] != scores[data["deal"] - 1]
                ):
                    problems.append(f"watcher {index}: {data}, its client saw {scores}")
                    break
        if not stream["done"]:
            problems.append(f"watcher {index}: gave up before every deal's end")
    return problems


def check_standings(entrants: list[Entrant], entries: list[dict[str, Any]]) -> list[str]:
    by_name = {entry["name"]: entry for entry in entries}
    problems = []
    for entrant in entrants:
        entry = by_name.get(entrant.name)
        played = [d for d in entrant.deals if d.status != "in_progress" or entrant.cut_off]
        score = sum(deal.score or 0 for deal in played)
        cards = sum(len(deal.acked) for deal in played)
        if entry is None:
            problems.append(f"{entrant.name}: not in the standings")
        elif (entry["deals_played"], entry["score"], entry["cards"]) != (
            len(played),
            score,
            cards,
        ):
            problems.append(
                f"{entrant.name}: standings say {entry['deals_played']} deals, score "
                f"{entry['score']}, {entry['cards']} cards; its client {len(played)}, "
                f"{score}, {cards}"
            )
    return problems


# ---------------------------------------------------------------- live: the run


def live_main(args: argparse.Namespace) -> int:
    import multiprocessing

    import uvloop
    from sqlalchemy.engine import make_url

    from bench.live import load_average, percentile, replicas_behind_proxy, stream_limits
    from testkit.databases import postgres_unavailable_reason

    reason = postgres_unavailable_reason(args.postgres_url)
    if reason is not None:
        print(f"skipped: {reason}")
        return 2
    env = {
        **OPERATOR,
        **stream_limits(args.watchers),
        "FOURSQUARE_IDEMPOTENCY_STALE_SECONDS": f"{args.stale_claim_seconds:g}",
    }
    print(f"loadavg at the start: {load_average()}", flush=True)
    context = multiprocessing.get_context("spawn")
    with replicas_behind_proxy(args.postgres_url, env) as (proxy, replicas):
        live = Live(args, proxy, replicas)
        database = make_url(replicas[0].database_url).database or ""
        shared = context.Array("i", [0, 0])
        stop = context.Event()
        outbox: Any = context.Queue()
        watcher: Any = None
        figures: dict[str, Any] = {}

        async def run() -> list[dict[str, Any]]:
            nonlocal watcher
            high = args.pace[1]
            joins = max(5.0, args.entrants / 40)  # seconds to let them all join
            starts_at = datetime.now(UTC) + timedelta(seconds=joins)
            # Long enough for the slowest entrant's deals: 40 placements each at the slowest.
            length = args.minutes * 60 or args.deals * 40 * high * 1.2 + 30
            ends_at = starts_at + timedelta(seconds=length)
            await live.announce(starts_at, ends_at)
            watcher = context.Process(
                target=watchers_main,
                args=(proxy.base_url, live.tournament, args.watchers, shared, stop, outbox),
                daemon=True,
            )
            watcher.start()
            live.entrants = [Entrant(f"bench{i:04d}", i) for i in range(args.entrants)]
            gate = asyncio.Semaphore(16)
            await asyncio.gather(*(live.join(entrant, gate) for entrant in live.entrants))
            deadline = time.monotonic() + 60
            while shared[0] < args.watchers and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            print(
                f"  {args.entrants} joined, {shared[0]} watchers in; starts at "
                f"{rfc3339(starts_at)}, ends at {rfc3339(ends_at)}",
                flush=True,
            )
            stop_probe = asyncio.Event()
            prober = asyncio.create_task(live.probe(stop_probe))
            wait = max(0.0, starts_at.timestamp() - time.time())
            await asyncio.sleep(wait)
            await live.until_running()
            before, pg_before = cpu_now(live, watcher.pid), postgres_cpu(database)
            killer = None
            if not args.no_kill:
                killer = asyncio.create_task(live.kill_one(args.kill_after))
            start = time.time()
            await asyncio.gather(*(live.play(entrant, start) for entrant in live.entrants))
            after, pg_after = cpu_now(live, watcher.pid), postgres_cpu(database)
            if killer is not None:
                await killer
            stop_probe.set()
            await prober
            seconds = after["wall"] - before["wall"]
            pg = sum(cpu - pg_before.get(pid, 0.0) for pid, cpu in pg_after.items())
            figures["cpu"] = {
                **{w: after[w] - before[w] for w in after if w != "wall"},
                "postgres": pg,
            }
            # The killed replica's CPU up to its death left the sum with it; the restarted
            # one's start-up is in it.
            figures["cpu"]["replicas"] += live.dead_cpu
            figures["seconds"] = seconds
            figures["load"] = load_average()
            print(f"  played in {seconds:.1f} s, loadavg {figures['load']}", flush=True)
            ended = sum(1 for e in live.entrants for d in e.deals if d.status != "in_progress")
            shared[1] = ended
            stored: dict[tuple[str, int], list[int]] = {}
            for entrant in live.entrants:
                for deal in entrant.deals:
                    stored[entrant.name, deal.number] = await live.stored(entrant, deal)
            figures["stored"] = stored
            figures["standings"] = await live.standings()
            await live.close()
            streams: list[dict[str, Any]] = await asyncio.to_thread(
                collect, outbox, stop, WATCH_AFTER_S
            )
            return streams

        try:
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                streams = runner.run(run())
        finally:
            stop.set()
            if watcher is not None:
                watcher.join(timeout=30)
                if watcher.is_alive():
                    watcher.terminate()
    return live_report(args, live, streams, figures, percentile)


def collect(outbox: Any, stop: Any, grace: float) -> list[dict[str, Any]]:
    """The watchers' records: they stop by themselves once every stream read every deal's
    end; after ``grace`` seconds they are told to stop with what they have."""
    import queue

    try:
        streams: list[dict[str, Any]] = outbox.get(timeout=grace)
        return streams
    except queue.Empty:
        stop.set()
        streams = outbox.get(timeout=60)
        return streams


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def live_report(
    args: argparse.Namespace,
    live: Live,
    streams: list[dict[str, Any]],
    figures: dict[str, Any],
    percentile: Any,
) -> int:
    def spread(values: list[float]) -> str:
        return " / ".join(ms(percentile(values, f)) for f in (0.5, 0.95, 0.99))

    def row(name: str, value: str, goal: str = "", verdict: str = "") -> None:
        print(f"  {name:<50} {value:>30}  {goal:<16} {verdict}")

    entrants = live.entrants
    failures = [e for e in entrants if e.failure]
    acked = sum(len(d.acked) for e in entrants for d in e.deals)
    stored = figures["stored"]
    lost = doubled = extra = 0
    for entrant in entrants:
        for deal in entrant.deals:
            numbers = stored[entrant.name, deal.number]
            doubled += len(numbers) - len(set(numbers))
            lost += len(set(deal.acked) - set(numbers))
            extra += len(set(numbers) - set(deal.acked))
    stream_problems = check_streams(entrants, streams)
    standing_problems = check_standings(entrants, figures["standings"])
    finished = delays(entrants, streams, "deal_finished", "created")
    finished_ack = delays(entrants, streams, "deal_finished", "acked")
    standings = delays(entrants, streams, "standings", "created")
    p99 = percentile(finished, 0.99)
    p99_standings = percentile(standings, 0.99)
    cpu, seconds = figures["cpu"], max(figures["seconds"], 1e-9)
    deals = sum(len(e.deals) for e in entrants)
    print()
    print(
        f"Tournament live: {len(entrants)} entrants (guests), {args.deals} deals each, a "
        f"placement every {args.pace[0]:g}-{args.pace[1]:g} s, {args.watchers} watchers; 2 "
        "replicas on PostgreSQL behind HAProxy"
        + ("" if args.no_kill else f", replica 1 killed after {args.kill_after:g} s")
    )
    print(
        "  the load generator (players and watchers) shares the machine's "
        f"{__import__('os').cpu_count()} cores with the replicas, PostgreSQL and HAProxy"
    )
    row("", "p50 / p95 / p99", "goal")
    row(f"placements acknowledged (201): {acked}", spread(live.placement_s))
    row(
        "  stored: lost / doubled / not placed by a client",
        f"{lost} / {doubled} / {extra}",
        "0 / 0 / 0",
        "met" if lost == doubled == extra == 0 else "NOT met",
    )
    row(
        "deals dealt / ended",
        f"{deals} / {sum(1 for e in entrants for d in e.deals if d.status != 'in_progress')}",
    )
    row(
        f"deal_finished read, from the ending placement: {len(finished)}",
        spread(finished),
        "p99 <= 250.0 ms",
        "met" if p99 <= GOAL_LIVE_P99_S else "NOT met",
    )
    row("  (from its created_at); from its 201 as read", spread(finished_ack))
    row(
        f"first standings after it: {len(standings)}",
        spread(standings),
        "p99 <= 250.0 ms",
        "met" if p99_standings <= GOAL_LIVE_P99_S else "NOT met",
    )
    reconnects = sum(s["reconnects"] for s in streams)
    row(
        "streams: events read / reconnections",
        f"{sum(len(s['events']) for s in streams)} / {reconnects}",
    )
    refusals: dict[str, int] = {}
    for stream in streams:
        for code, n in stream["refusals"].items():
            refusals[code] = refusals.get(code, 0) + n
    row("  refused (status: count)", repr(refusals))
    row(
        "  every deal's end once, ids forward",
        "yes" if not stream_problems else f"{len(stream_problems)} wrong",
        "all",
        "met" if not stream_problems else "NOT met",
    )
    row(
        "standings match what the clients played",
        "yes" if not standing_problems else f"{len(standing_problems)} wrong",
    )
    row("requests retried (cause: count)", repr(live.retried))
    row("entrants cut off by the tournament's end", str(sum(e.cut_off for e in entrants)))
    row("entrants who could not play for another cause", str(len(failures)))
    cores = {who: cpu[who] / seconds for who in cpu}
    row(
        "CPU, cores: replicas/pg/haproxy/players/watchers",
        f"{cores['replicas']:.2f} / {cores['postgres']:.2f} / {cores['haproxy']:.2f} / "
        f"{cores['players']:.2f} / {cores['watchers']:.2f}",
    )
    per = (cpu["replicas"] + cpu["postgres"]) / max(1, acked)
    row("  replicas' + PostgreSQL's CPU per placement", ms(per))
    row("  replicas' alone", ms(cpu["replicas"] / max(1, acked)))
    row(
        "players' loop late, p50 / p99 / max",
        " / ".join(
            ms(v)
            for v in (
                percentile(live.lateness_s, 0.5),
                percentile(live.lateness_s, 0.99),
                max(live.lateness_s, default=float("nan")),
            )
        ),
    )
    row("/proc/loadavg at the end of play", figures["load"])
    for problem in (stream_problems + standing_problems)[:20]:
        print(f"  ! {problem}")
    for entrant in failures[:10]:
        print(f"  ! {entrant.name}: {entrant.failure}")
    summary = {
        "entrants": len(entrants),
        "deals": args.deals,
        "watchers": args.watchers,
        "killed": not args.no_kill,
        "acknowledged": acked,
        "lost": lost,
        "doubled": doubled,
        "unplaced": extra,
        "deal_finished_events": len(finished),
        "deal_finished_p50_ms": percentile(finished, 0.5) * 1000,
        "deal_finished_p99_ms": p99 * 1000,
        "standings_p50_ms": percentile(standings, 0.5) * 1000,
        "standings_p99_ms": p99_standings * 1000,
        "cpu_per_placement_ms": per * 1000,
        "stream_problems": len(stream_problems),
        "standing_problems": len(standing_problems),
        "failures": len(failures),
        "cut_off": sum(e.cut_off for e in entrants),
        "loadavg": figures["load"],
    }
    print("summary " + json.dumps(summary))
    write_json(args.json, summary)
    bad = lost or doubled or extra or stream_problems or standing_problems or failures
    return 1 if bad else 0


def pace_range(raw: str) -> tuple[float, float]:
    low, _, high = raw.partition(",")
    bounds = (float(low), float(high or low))
    if not 0 < bounds[0] <= bounds[1]:
        raise argparse.ArgumentTypeError("LOW,HIGH seconds, 0 < LOW <= HIGH")
    return bounds


def add_live_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--entrants", type=int, default=500)
    parser.add_argument("--deals", type=int, default=2, help="deals each entrant plays")
    parser.add_argument("--watchers", type=int, default=20, help="event streams")
    parser.add_argument(
        "--pace", type=pace_range, default=(1.0, 3.0), help="LOW,HIGH seconds between placements"
    )
    parser.add_argument(
        "--minutes",
        type=float,
        default=0.0,
        help="the tournament's length (default: 40 placements a deal at the slowest pace)",
    )
    parser.add_argument("--no-kill", action="store_true", help="kill no replica")
    parser.add_argument(
        "--kill-after", type=float, default=20.0, help="seconds into the play to kill replica 1"
    )
    parser.add_argument("--restart-after", type=float, default=3.0, help="seconds")
    parser.add_argument(
        "--stale-claim-seconds",
        type=float,
        default=10.0,
        help="the replicas' FOURSQUARE_IDEMPOTENCY_STALE_SECONDS: how long a placement cut "
        "off by the kill holds its key before its retry takes it over",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES_ADMIN_URL)
    add_json_option(parser)


# ---------------------------------------------------------------- the options


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parts = parser.add_subparsers(dest="part", required=True)
    standings = parts.add_parser("standings", help="standings against the leaderboard")
    standings.add_argument(
        "--backend", choices=["sqlite", "postgres", "postgresql", "both"], default="both"
    )
    standings.add_argument("--postgres-url", default=DEFAULT_POSTGRES_ADMIN_URL)
    standings.add_argument("--entrants", type=int, default=10_000)
    standings.add_argument("--deals", type=int, default=5, help="finished deals per entrant")
    standings.add_argument(
        "--wins",
        type=int,
        default=0,
        help="won games on the leaderboard (default and least: --entrants x --deals)",
    )
    standings.add_argument("--clients", type=int, default=4, help="connections at once")
    standings.add_argument("--seconds", type=float, default=4.0, help="per kind and round")
    standings.add_argument("--rounds", type=int, default=3)
    standings.add_argument(
        "--leaderboard-page-cache",
        action="store_true",
        help="leave the leaderboard's cache of rendered pages on (default: off)",
    )
    standings.add_argument("--seed", type=int, default=0)
    add_json_option(standings)
    add_live_options(parts.add_parser("live", help="one tournament played live, a replica killed"))
    args = parser.parse_args(argv)
    if args.part == "standings" and (
        args.entrants < 1 or not 1 <= args.deals <= 10 or args.clients < 1 or args.rounds < 1
    ):
        parser.error("--entrants, --clients and --rounds at least 1, --deals 1 to 10")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    unwind_on_sigterm()  # the servers stopped, the databases dropped
    args = parse_args(argv)
    if args.part == "standings":
        return standings_main(args)
    return live_main(args)


if __name__ == "__main__":
    raise SystemExit(main())

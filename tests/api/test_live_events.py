"""Live events through real ``foursquare serve`` processes on one real PostgreSQL database.

Three replicas share the module's database: ``a`` (games are played on it; a two-second
heartbeat), ``b`` (hears of changes by PostgreSQL's notifications only: its heartbeat, which
also re-reads watched games, is ten minutes) and ``d`` (one event per watcher queue, streams
capped at 3 a process and 2 a client address, a one-second heartbeat). A lost notification is
played by writing in a transaction whose publisher tells nobody (:func:`place_unannounced`):
only a heartbeat's re-read finds what it wrote. Streams are read with httpx's async client.
"""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.orm import Session

from api.core.database import create_database
from api.events.announce import PUBLISHER
from api.settings import Settings
from testkit import databases
from testkit.games import place_in, start_game
from testkit.server import Server
from tests.conftest import needs_postgres
from tests.integrity.players import WinningLine, winning_lines

pytestmark = pytest.mark.slow

DEADLINE = 60.0  # seconds any wait for an event may take before the test fails
PLACEMENT_KEYS = {
    "number",
    "row",
    "col",
    "card",
    "flipped",
    "status_after",
    "stock_count",
    "created_at",
}
QUIET = {"FOURSQUARE_EVENTS_HEARTBEAT_SECONDS": "600"}


@pytest.fixture(scope="module")
def database_url(
    _postgres_status: str | None, _templates: databases.Templates, tmp_path_factory: Any
) -> Iterator[str]:
    needs_postgres(_postgres_status)
    with _templates.database("postgresql", tmp_path_factory.mktemp("live")) as url:
        yield url


@pytest.fixture(scope="module")
def replicas(database_url: str, tmp_path_factory: Any) -> Iterator[dict[str, Server]]:
    logs: Path = tmp_path_factory.mktemp("live-logs")
    base = {
        "FOURSQUARE_MIGRATE_ON_START": "false",
        "FOURSQUARE_EVENTS_MAX_STREAMS_PER_CLIENT": "100",
    }
    configs = {
        "a": {"FOURSQUARE_EVENTS_HEARTBEAT_SECONDS": "2"},
        "b": QUIET,
        "d": {
            "FOURSQUARE_EVENTS_HEARTBEAT_SECONDS": "1",
            "FOURSQUARE_EVENTS_QUEUE": "1",
            "FOURSQUARE_EVENTS_MAX_STREAMS": "3",
            "FOURSQUARE_EVENTS_MAX_STREAMS_PER_CLIENT": "2",
            "FOURSQUARE_TRUSTED_PROXIES": "127.0.0.1",
        },
    }
    servers = {
        name: Server(database_url, log_path=logs / f"{name}.log", extra_env={**base, **env})
        for name, env in configs.items()
    }
    try:
        with ThreadPoolExecutor(len(servers)) as pool:
            list(pool.map(Server.start, servers.values()))
        yield servers
    finally:
        for server in servers.values():
            server.stop()


# ---------------------------------------------------------------- reading streams


@dataclass(frozen=True)
class Event:
    event: str
    data: Any
    id: str | None


async def events_of(response: httpx.Response) -> AsyncIterator[Event | None]:
    """The events of an open stream as they come; None for each comment (a heartbeat)."""
    fields: dict[str, str] = {}
    async for line in response.aiter_lines():
        if line.startswith(":"):
            yield None
        elif line == "":
            if "event" in fields:
                yield Event(fields["event"], json.loads(fields["data"]), fields.get("id"))
            fields = {}
        else:
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value


async def read_stream(
    url: str,
    headers: dict[str, str] | None = None,
    until: Callable[[list[Event]], bool] = lambda _: False,
    opened: asyncio.Event | None = None,
) -> list[Event]:
    """A stream's events until the server closes it or ``until`` says enough."""
    got: list[Event] = []
    async with (
        httpx.AsyncClient(timeout=httpx.Timeout(10, read=DEADLINE)) as client,
        client.stream("GET", url, headers=headers) as response,
    ):
        assert response.status_code == 200, await response.aread()
        assert response.headers["content-type"].startswith("text/event-stream")
        assert response.headers["cache-control"] == "no-cache"
        if opened is not None:
            opened.set()
        async for event in events_of(response):
            if event is not None:
                got.append(event)
                if until(got):
                    break
    return got


def ended(events: list[Event]) -> bool:
    return bool(events) and events[-1].event in ("end", "reconnect")


# ---------------------------------------------------------------- playing


@dataclass
class Game:
    id: str
    token: str
    placed: list[dict[str, Any]]  # the placements as their POST answered them

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


async def new_game(client: httpx.AsyncClient, player: str = "watched") -> Game:
    created = await client.post("/games", json={"player": player})
    assert created.status_code == 201, created.text
    body = created.json()
    return Game(body["id"], body["token"], [])


async def place(client: httpx.AsyncClient, game: Game, rng: random.Random) -> dict[str, Any]:
    current = (await client.get(f"/games/{game.id}", headers=game.auth)).json()
    cell = rng.choice(current["legal_placements"])
    answer = await client.post(f"/games/{game.id}/placements", json=cell, headers=game.auth)
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    game.placed.append(body["placement"])
    state: dict[str, Any] = body["game"]
    return state


async def play_out(client: httpx.AsyncClient, game: Game, rng: random.Random) -> dict[str, Any]:
    while True:
        state = await place(client, game, rng)
        if state["status"] != "in_progress":
            return state


def dealt(database_url: str, line: WinningLine, player: str) -> Game:
    """A game of a chosen deck (which the API cannot deal), stored directly."""
    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    try:
        with database.transaction() as session:
            created = start_game(session, player, deck=line.deck)
        return Game(str(created.id), created.token, [])
    finally:
        database.dispose()


class Unannounced:
    """A write session's publisher that tells no replica, as if every notification were lost."""

    def announce(self, session: Session, payload: str) -> None:
        del session, payload


async def place_unannounced(
    client: httpx.AsyncClient, database_url: str, game: Game, positions: list[tuple[int, int]]
) -> dict[str, Any]:
    """``positions`` placed in one transaction that no replica hears of; the game after it."""

    def write() -> None:
        database = create_database(Settings(database_url=database_url, migrate_on_start=False))
        try:
            with database.transaction() as session:
                session.info[PUBLISHER] = Unannounced()
                for position in positions:
                    place_in(session, game.id, game.token, position)
        finally:
            database.dispose()

    await asyncio.to_thread(write)
    game.placed = (await client.get(f"/games/{game.id}/placements")).json()["placements"]
    state: dict[str, Any] = (await client.get(f"/games/{game.id}", headers=game.auth)).json()
    return state


def check_game_events(events: list[Event], game: Game, after: int, state: dict[str, Any]) -> None:
    """Exactly the placements after ``after``, in order, as they were placed, then the end."""
    *placements, end = events
    assert [e.event for e in placements] == ["placement"] * len(placements)
    assert [int(e.id or 0) for e in placements] == list(range(after + 1, len(game.placed) + 1))
    assert [e.data for e in placements] == game.placed[after:]
    assert end.event == "end" and end.id is None
    assert end.data == {
        "game_id": game.id,
        "status": state["status"],
        "score": state["score"],
        "reason": state["end_reason"],
        "placements": len(game.placed),
    }


# ---------------------------------------------------------------- the tests


def test_resuming_at_every_point_of_a_game_yields_exactly_the_missing_events(
    replicas: dict[str, Server],
) -> None:
    a = replicas["a"]

    async def scenario() -> None:
        rng = random.Random(28)
        async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as client:
            game = await new_game(client)
            url = f"{a.base_url}/games/{game.id}/events"
            watchers: list[tuple[int, asyncio.Task[list[Event]]]] = []
            state: dict[str, Any] = {"status": "in_progress"}
            # After each placement, a watcher that had seen some earlier one reconnects: it
            # reads what it missed from the database, then follows the game live.
            while state["status"] == "in_progress":
                seen = rng.randint(0, len(game.placed))
                opened = asyncio.Event()
                task = asyncio.create_task(
                    read_stream(url, {"Last-Event-ID": str(seen)}, ended, opened)
                )
                await asyncio.wait_for(opened.wait(), DEADLINE)
                watchers.append((seen, task))
                state = await place(client, game, rng)
            for seen, task in watchers:
                check_game_events(await asyncio.wait_for(task, DEADLINE), game, seen, state)
            # Once it is over, from every point: its history after it, its end, and closed.
            for seen in range(len(game.placed) + 1):
                events = await read_stream(url, {"Last-Event-ID": str(seen)})
                check_game_events(events, game, seen, state)
            history = (await client.get(f"/games/{game.id}/placements")).json()["placements"]
            assert history == game.placed

    asyncio.run(scenario())


def test_streams_opening_together_share_a_first_read_only_until_the_feed_moves(
    replicas: dict[str, Server],
) -> None:
    """Streams of a game opened together share one first read (EventHub.first_read); once the
    feed has offered a placement, a stream opening then must not reuse that older read (it
    would never get the placement: ``b`` re-reads nothing on its own in the test's time)."""
    b = replicas["b"]

    async def scenario() -> None:
        rng = random.Random(7)
        async with httpx.AsyncClient(base_url=b.base_url, timeout=30) as client:
            game = await new_game(client)
            url = f"{b.base_url}/games/{game.id}/events"
            # One stream stays open throughout, so that the game's feed (and the read its
            # streams shared) outlives the others.
            anchor_saw: list[Event] = []

            def note(got: list[Event]) -> bool:
                anchor_saw[:] = got
                return False

            openings = [asyncio.Event() for _ in range(6)]
            anchor = asyncio.create_task(read_stream(url, until=note, opened=openings[0]))
            together = [
                asyncio.create_task(read_stream(url, until=bool, opened=opened))
                for opened in openings[1:]
            ]
            await asyncio.wait_for(asyncio.gather(*(o.wait() for o in openings)), DEADLINE)
            await place(client, game, rng)
            for task in together:  # the feed has offered placement 1 once these have it
                events = await asyncio.wait_for(task, DEADLINE)
                assert [(e.event, e.id, e.data) for e in events] == [
                    ("placement", "1", game.placed[0])
                ]
            # No other placement comes: only its own read can give this stream placement 1.
            events = await asyncio.wait_for(read_stream(url, until=bool), DEADLINE)
            assert [(e.event, e.id, e.data) for e in events] == [("placement", "1", game.placed[0])]
            assert [e.id for e in anchor_saw] == ["1"] and not anchor.done()
            anchor.cancel()

    asyncio.run(scenario())


def test_events_made_on_one_replica_reach_watchers_on_another(
    replicas: dict[str, Server], database_url: str
) -> None:
    """PostgreSQL's notifications, from ``a`` to ``b``: ``b`` never re-reads on its own in
    the test's time, so only a notification can bring the events."""
    source, target = replicas["a"], replicas["b"]
    line = min(winning_lines(), key=lambda line: line.score)  # the best is the next test's

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=source.base_url, timeout=30) as client:
            game = dealt(database_url, line, "winner")
            site_opened, game_opened = asyncio.Event(), asyncio.Event()
            site = asyncio.create_task(
                read_stream(
                    f"{target.base_url}/events",
                    until=lambda got: any(
                        e.event == "win" and e.data["game_id"] == game.id for e in got
                    ),
                    opened=site_opened,
                )
            )
            watcher = asyncio.create_task(
                read_stream(
                    f"{target.base_url}/games/{game.id}/events", until=ended, opened=game_opened
                )
            )
            await asyncio.wait_for(asyncio.gather(site_opened.wait(), game_opened.wait()), DEADLINE)
            state: dict[str, Any] = {}
            for row, col in line.positions:
                answer = await client.post(
                    f"/games/{game.id}/placements", json={"row": row, "col": col}, headers=game.auth
                )
                assert answer.status_code == 201, answer.text
                game.placed.append(answer.json()["placement"])
                state = answer.json()["game"]
            assert state["status"] == "won"
            check_game_events(await asyncio.wait_for(watcher, DEADLINE), game, 0, state)
            wins = [e for e in await asyncio.wait_for(site, DEADLINE) if e.event == "win"]
            win = [e.data for e in wins if e.data["game_id"] == game.id][-1]
            assert win["player"] == "winner" and win["score"] == line.score
            # The win's news goes out once its fair-play review has put it on the boards,
            # after its last placement's answer (rank null then): its rank is the game's now.
            assert state["rank"] is None
            boarded_game = (await client.get(f"/games/{game.id}")).json()
            assert boarded_game["fair_play"]["status"] == "clean", boarded_game["fair_play"]
            assert win["ranks"]["all_time"] == boarded_game["rank"] is not None
            assert set(win["ranks"]) == {"all_time", "day", "week"}
            assert win["finished_at"].startswith(state["finished_at"][:19])

    asyncio.run(scenario())


def test_a_new_best_is_announced_after_its_win(
    replicas: dict[str, Server], database_url: str
) -> None:
    a, b = replicas["a"], replicas["b"]
    best = max(winning_lines(), key=lambda line: line.score)

    async def scenario() -> None:
        game = dealt(database_url, best, "best-player")
        opened = asyncio.Event()
        site = asyncio.create_task(
            read_stream(
                f"{b.base_url}/events",
                until=lambda got: (
                    any(e.event == "win" and e.data["game_id"] == game.id for e in got)
                    and sum(e.event == "best" and e.data["game_id"] == game.id for e in got) == 3
                ),
                opened=opened,
            )
        )
        await asyncio.wait_for(opened.wait(), DEADLINE)
        async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as client:
            for row, col in best.positions:
                answer = await client.post(
                    f"/games/{game.id}/placements", json={"row": row, "col": col}, headers=game.auth
                )
                assert answer.status_code == 201, answer.text
            board = (await client.get("/leaderboard", params={"limit": 1})).json()["entries"]
        events = [
            e
            for e in await asyncio.wait_for(site, DEADLINE)
            if e.data.get("game_id") == game.id and e.event != "game"  # (its end, for lists)
        ]
        if board[0]["game_id"] != game.id:  # pragma: no cover - a better win was already there
            pytest.skip("another game of the best score was recorded first")
        assert [e.event for e in events] == ["win", "best", "best", "best"]
        assert {e.data["board"] for e in events[1:]} == {"all_time", "day", "week"}
        assert all(
            e.data["score"] == best.score and e.data["player"] == "best-player" for e in events[1:]
        )
        assert events[0].data["ranks"] == {"all_time": 1, "day": 1, "week": 1}
        assert events[0].data["assisted"] is False

    asyncio.run(scenario())


def test_a_challenge_game_is_not_streamed_to_another_player_before_its_day_closes(
    replicas: dict[str, Server],
) -> None:
    a, b = replicas["a"], replicas["b"]

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as client:
            registered = await client.post(
                "/players", json={"name": f"daily-{uuid.uuid4().hex[:8]}"}
            )
            assert registered.status_code == 201, registered.text
            key = {"Authorization": f"Bearer {registered.json()['key']}"}
            opened = asyncio.Event()
            site = asyncio.create_task(
                read_stream(
                    f"{b.base_url}/events",
                    until=lambda got: any(e.event == "challenge" for e in got),
                    opened=opened,
                )
            )
            await asyncio.wait_for(opened.wait(), DEADLINE)
            created = await client.post("/games", json={"challenge": "daily"}, headers=key)
            assert created.status_code == 201, created.text
            game = created.json()
            counts = (await client.get("/challenges/today")).json()
            challenge = [
                e for e in await asyncio.wait_for(site, DEADLINE) if e.event == "challenge"
            ]
            assert challenge[-1].data == {
                "date": counts["date"],
                "played": counts["played"],
                "won": counts["won"],
            }

            other = await client.post("/players", json={"name": f"other-{uuid.uuid4().hex[:8]}"})
            other_key = {"Authorization": f"Bearer {other.json()['key']}"}
            for server in (a, b):
                for headers in ({}, other_key):
                    refused = await client.get(
                        f"{server.base_url}/games/{game['id']}/events", headers=headers
                    )
                    assert refused.status_code == 403, refused.text
                    assert refused.json()["code"] == "challenge_game_private"
            listed = await client.get("/games", params={"status": "in_progress", "limit": 100})
            ids = {g["game_id"] for g in listed.json()["games"]}
            while listed.json()["next_cursor"]:
                listed = await client.get(
                    "/games",
                    params={
                        "status": "in_progress",
                        "limit": 100,
                        "cursor": listed.json()["next_cursor"],
                    },
                )
                ids |= {g["game_id"] for g in listed.json()["games"]}
            assert game["id"] not in ids

            # Its player watches it (their key, or the game's token).
            rng = random.Random(5)
            mine = Game(game["id"], game["token"], [])
            opened = asyncio.Event()
            watcher = asyncio.create_task(
                read_stream(
                    f"{b.base_url}/games/{mine.id}/events",
                    key,
                    until=lambda got: len(got) >= 3,
                    opened=opened,
                )
            )
            await asyncio.wait_for(opened.wait(), DEADLINE)
            for _ in range(3):
                await place(client, mine, rng)
            events = await asyncio.wait_for(watcher, DEADLINE)
            assert [e.data for e in events] == mine.placed

    asyncio.run(scenario())


def test_no_event_carries_a_card_that_was_not_placed_over_many_games(
    replicas: dict[str, Server],
) -> None:
    a, b = replicas["a"], replicas["b"]

    async def one(client: httpx.AsyncClient, seed: int) -> None:
        rng = random.Random(seed)
        game = await new_game(client, f"deck-{seed}")
        opened = asyncio.Event()
        watcher = asyncio.create_task(
            read_stream(f"{b.base_url}/games/{game.id}/events", until=ended, opened=opened)
        )
        await asyncio.wait_for(opened.wait(), DEADLINE)
        state = await play_out(client, game, rng)
        events = await asyncio.wait_for(watcher, DEADLINE)
        deck = state["reveal"]["deck"]
        check_game_events(events, game, 0, state)
        for event in events[:-1]:
            # The card drawn for that placement, and nothing of the stock beyond it.
            assert set(event.data) == PLACEMENT_KEYS
            assert event.data["card"]["code"] == deck[event.data["number"] - 1]
        text = json.dumps([e.data for e in events])
        unplayed = set(deck[len(game.placed) :])
        assert not {code for code in unplayed if f'"{code}"' in text}
        assert game.token not in text

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as client:
            await asyncio.gather(*(one(client, seed) for seed in range(24)))

    asyncio.run(scenario())


def test_a_slow_watcher_is_dropped_with_a_reconnect_and_placements_go_on(
    replicas: dict[str, Server], database_url: str
) -> None:
    """``d`` holds one event per watcher and hears of no placement after the first: at its
    heartbeat it reads all the others at once, and the watcher that cannot take them all is
    told to reconnect with the last id it got; reconnecting, it gets the rest."""
    d, a = replicas["d"], replicas["a"]
    line = min(winning_lines(), key=lambda line: line.score)

    async def scenario() -> None:
        game = dealt(database_url, line, "slow-watched")
        async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as client:
            row, col = line.positions[0]
            answer = await client.post(
                f"/games/{game.id}/placements", json={"row": row, "col": col}, headers=game.auth
            )
            assert answer.status_code == 201, answer.text
            opened = asyncio.Event()
            watcher = asyncio.create_task(
                read_stream(f"{d.base_url}/games/{game.id}/events", until=ended, opened=opened)
            )
            await asyncio.wait_for(opened.wait(), DEADLINE)
            state = await place_unannounced(client, database_url, game, line.positions[1:])
            assert state["status"] == "won"  # placements went on, watchers or not
        events = await asyncio.wait_for(watcher, DEADLINE)
        assert [e.event for e in events] == ["placement", "reconnect"]
        assert events[0].data == game.placed[0] and events[1].data == {"last_event_id": 1}
        rest = await read_stream(f"{d.base_url}/games/{game.id}/events", {"Last-Event-ID": "1"})
        check_game_events(rest, game, 1, state)
        metrics = httpx.get(f"{d.base_url}/metrics", timeout=30).text
        dropped = [
            line
            for line in metrics.splitlines()
            if line.startswith("foursquare_event_watchers_dropped_total ")
        ]
        assert dropped and float(dropped[0].split()[1]) >= 1
        assert 'foursquare_events_sent_total{event="reconnect"}' in metrics

    asyncio.run(scenario())


def test_stream_caps_answer_429_and_503_with_retry_after_and_are_counted(
    replicas: dict[str, Server],
) -> None:
    d, a = replicas["d"], replicas["a"]

    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as client:
            game = await new_game(client)

        async def hold(address: str, stop: asyncio.Event) -> None:
            async with (
                httpx.AsyncClient(timeout=DEADLINE) as client,
                client.stream(
                    "GET",
                    f"{d.base_url}/games/{game.id}/events",
                    headers={"X-Forwarded-For": address},
                ) as response,
            ):
                assert response.status_code == 200
                await stop.wait()

        stop = asyncio.Event()
        held = [asyncio.create_task(hold("10.0.0.1", stop)) for _ in range(2)]

        async def status(address: str) -> httpx.Response:
            async with httpx.AsyncClient(timeout=30) as client:
                return await client.get(
                    f"{d.base_url}/games/{game.id}/events", headers={"X-Forwarded-For": address}
                )

        async def gauge() -> float:
            async with httpx.AsyncClient(timeout=30) as client:
                text = (await client.get(f"{d.base_url}/metrics")).text
            return sum(
                float(line.split()[1])
                for line in text.splitlines()
                if line.startswith("foursquare_event_streams{")
            )

        deadline = asyncio.get_running_loop().time() + DEADLINE
        while await gauge() < 2 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        too_many = await status("10.0.0.1")
        assert too_many.status_code == 429, too_many.text
        assert too_many.json()["code"] == "too_many_event_streams"
        assert int(too_many.headers["retry-after"]) >= 1
        held.append(asyncio.create_task(hold("10.0.0.2", stop)))
        while await gauge() < 3 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        full = await status("10.0.0.3")
        assert full.status_code == 503, full.text
        assert full.json()["code"] == "event_streams_full"
        assert int(full.headers["retry-after"]) >= 1
        assert await gauge() == 3
        stop.set()
        await asyncio.gather(*held)
        while await gauge() > 0 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert await gauge() == 0
        async with httpx.AsyncClient(timeout=30) as client:
            # HEAD answers a stream's headers and never opens it, nor keeps its place.
            for _ in range(4):
                head = await client.head(f"{d.base_url}/games/{game.id}/events")
                assert head.status_code == 200
                assert head.headers["content-type"].startswith("text/event-stream")
            assert await gauge() == 0
            text = (await client.get(f"{d.base_url}/metrics")).text
        assert "foursquare_event_watchers_dropped_total" in text

    asyncio.run(scenario())


def test_games_in_progress_are_listed_newest_move_first_in_pages(
    replicas: dict[str, Server],
) -> None:
    a = replicas["a"]

    async def scenario() -> None:
        rng = random.Random(3)
        async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as client:
            games = [await new_game(client, f"listed-{i}") for i in range(5)]
            for game in games:
                await place(client, game, rng)
            await place(client, games[1], rng)  # the most recent move
            seen: list[dict[str, Any]] = []
            cursor = None
            while True:
                params: dict[str, Any] = {"status": "in_progress", "limit": 2}
                if cursor:
                    params["cursor"] = cursor
                page = (await client.get("/games", params=params)).json()
                assert len(page["games"]) <= 2
                seen += page["games"]
                cursor = page["next_cursor"]
                if cursor is None:
                    break
            ids = [g["game_id"] for g in seen]
            assert len(ids) == len(set(ids))  # no entry twice across pages
            assert ids[0] == games[1].id
            mine = {g["game_id"]: g for g in seen if g["game_id"] in {x.id for x in games}}
            assert set(mine) == {g.id for g in games}
            assert mine[games[1].id]["cards_placed"] == 2
            assert mine[games[1].id]["last_move_at"] == games[1].placed[-1]["created_at"]
            assert mine[games[0].id]["player"] == "listed-0"
            bad_params: list[dict[str, str | int]] = [
                {"status": "won"},
                {},
                {"status": "in_progress", "limit": 0},
            ]
            for bad in bad_params:
                refused = await client.get("/games", params=bad)
                assert refused.status_code == 422, refused.text
            refused = await client.get(
                "/games", params={"status": "in_progress", "cursor": "forged"}
            )
            assert refused.status_code == 422 and refused.json()["code"] == "invalid_cursor"
            unknown = await client.get(f"/games/{uuid.uuid4()}/events")
            assert unknown.status_code == 404
            assert unknown.headers["content-type"].startswith("application/problem+json")
            bad_id = await client.get(
                f"/games/{games[0].id}/events", headers={"Last-Event-ID": "41"}
            )
            assert bad_id.status_code == 422

    asyncio.run(scenario())


def test_a_win_no_notification_brought_is_sent_at_the_next_heartbeat(
    replicas: dict[str, Server], database_url: str
) -> None:
    """A game won in a transaction that notifies nobody: ``a``'s heartbeat (2 s) finds the
    win, and sends it once."""
    a = replicas["a"]
    line = min(winning_lines(), key=lambda line: line.score)

    async def scenario() -> None:
        game = dealt(database_url, line, "unannounced")
        opened = asyncio.Event()
        site = asyncio.create_task(
            read_stream(
                f"{a.base_url}/events",
                until=lambda got: any(e.data.get("game_id") == game.id for e in got),
                opened=opened,
            )
        )
        await asyncio.wait_for(opened.wait(), DEADLINE)
        async with httpx.AsyncClient(base_url=a.base_url, timeout=30) as client:
            state = await place_unannounced(client, database_url, game, line.positions)
        assert state["status"] == "won"
        events = await asyncio.wait_for(site, DEADLINE)
        wins = [e for e in events if e.event == "win" and e.data["game_id"] == game.id]
        assert len(wins) == 1 and wins[0].data["player"] == "unannounced"

    asyncio.run(scenario())


def test_sigterm_ends_every_stream_cleanly(database_url: str, tmp_path: Path) -> None:
    """A replica told to stop ends its streams (the response ends, no error), so that it can
    stop and its clients reconnect elsewhere."""
    server = Server(
        database_url,
        log_path=tmp_path / "stopping.log",
        extra_env={"FOURSQUARE_MIGRATE_ON_START": "false"},
    )
    server.start()
    try:

        async def scenario() -> list[list[Event]]:
            async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
                game = await new_game(client)
            opened = [asyncio.Event(), asyncio.Event()]
            streams = [
                asyncio.create_task(read_stream(f"{server.base_url}/events", opened=opened[0])),
                asyncio.create_task(
                    read_stream(f"{server.base_url}/games/{game.id}/events", opened=opened[1])
                ),
            ]
            await asyncio.wait_for(asyncio.gather(*(o.wait() for o in opened)), DEADLINE)
            await asyncio.to_thread(server.stop)  # SIGTERM, then waits for the exit
            return list(await asyncio.wait_for(asyncio.gather(*streams), DEADLINE))

        assert asyncio.run(scenario()) == [[], []]  # closed cleanly, nothing sent
        assert server.process is not None and server.process.returncode == 0
    finally:
        server.stop()

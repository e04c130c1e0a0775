"""Many concurrent clients playing the same few games on several servers at once.

A client reads a game, picks a placement and sends it in one of several ways: plain, with
``If-Match``, with a fresh ``Idempotency-Key``, with one key sent to two servers at the same
time, or with a key already used for another body. Scripted games (winning lines of the
conformance vectors) are always played with ``If-Match`` and a key per placement number, so
that concurrent clients send the same key and the script can never be applied out of turn.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from api.core.database import create_database
from api.settings import Settings

# The winning lines are testkit's, for the benchmarks to play too (they import no tests).
from testkit.games import WinningLine as WinningLine
from testkit.games import start_game
from testkit.games import winning_lines as winning_lines
from tests.integrity.exchanges import Exchange, Recorder

MODES = ("plain", "if_match", "keyed", "twin", "reuse", "conditional_read")
MODE_WEIGHTS = (3, 3, 2, 2, 0.4, 0.6)


@dataclass
class LiveGame:
    id: str
    token: str
    line: WinningLine | None = None
    finished: bool = False

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    @property
    def path(self) -> str:
        return f"/games/{self.id}"


@dataclass(frozen=True)
class KeyedRequest:
    """A request sent with an ``Idempotency-Key``, to be sent again later, unchanged."""

    game: LiveGame | None  # None: a game creation
    key: str
    body: Any
    headers: dict[str, str]
    twin: bool


@dataclass
class Load:
    recorder: Recorder
    games: list[LiveGame] = field(default_factory=list)
    keyed: dict[tuple[str, str], KeyedRequest] = field(default_factory=dict)
    # Every request sent with each key, reuses included: a reuse claims a key that an earlier
    # answer released, and its claim is the one a crash may leave behind.
    sent: dict[tuple[str, str], list[KeyedRequest]] = field(default_factory=dict)
    generation: int = 0  # bumped at every crash: scripted keys claimed by a dead process
    in_progress: dict[str, int] = field(default_factory=dict)
    held: set[str] = field(default_factory=set)  # scripted games whose last card must wait

    @property
    def open_games(self) -> list[LiveGame]:
        return [game for game in self.games if not game.finished]

    def accepted(self) -> int:
        return sum(1 for e in self.recorder.exchanges if e.is_placement and e.status == 201)

    def remember(self, request: KeyedRequest, *, resend: bool = True) -> None:
        """Note a keyed request as sent (and, unless ``resend`` is False, to be sent again)."""
        scope = request.game.id if request.game else "games"
        if resend:
            self.keyed.setdefault((scope, request.key), request)
        self.sent.setdefault((scope, request.key), []).append(request)


def insert_games(database_url: str, lines: list[WinningLine], player: str) -> list[LiveGame]:
    """Games dealt from chosen decks, through the service layer (the API cannot do that)."""
    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    games = []
    try:
        for line in lines:
            with database.transaction() as session:
                created = start_game(session, player, deck=line.deck)
                session.flush()
                games.append(LiveGame(str(created.id), created.token, line))
    finally:
        database.dispose()
    return games


async def send_twice(load: Load, request: KeyedRequest, kind: str, path: str) -> list[Exchange]:
    """The same request and key, to two servers at the same time (or one, twice)."""
    servers = load.recorder.servers
    targets = random.sample(servers, 2) if len(servers) > 1 else servers * 2
    game_id = request.game.id if request.game else None
    return list(
        await asyncio.gather(
            *(
                load.recorder.send(
                    kind,
                    server,
                    "POST",
                    path,
                    game_id=game_id,
                    key=request.key,
                    body=request.body,
                    headers=request.headers,
                )
                for server in targets
            )
        )
    )


async def create_games(load: Load, count: int, rng: random.Random) -> list[LiveGame]:
    """Create games over HTTP, each with a key sent to both servers at once."""
    created: list[LiveGame] = []
    for i in range(count):
        request = KeyedRequest(None, str(uuid.uuid4()), {"player": f"load-{i}"}, {}, True)
        load.remember(request)
        while True:
            answers = await send_twice(load, request, "create", "/games")
            first = next((a for a in answers if a.status == 201), None)
            if first is not None:
                break
            await asyncio.sleep(0.05 + rng.random() / 10)
        created.append(LiveGame(first.body["id"], first.body["token"]))
    load.games.extend(created)
    return created


async def _place(
    load: Load,
    game: LiveGame,
    server: str,
    body: dict[str, int],
    headers: dict[str, str],
    key: str | None,
    *,
    twin: bool,
) -> list[Exchange]:
    if key is None:
        return [
            await load.recorder.send(
                "place", server, "POST", f"{game.path}/placements",
                game_id=game.id, body=body, headers=headers,
            )
        ]  # fmt: skip
    request = KeyedRequest(game, key, body, headers, twin)
    load.remember(request)
    if twin:
        return await send_twice(load, request, "place", f"{game.path}/placements")
    return [
        await load.recorder.send(
            "place", server, "POST", f"{game.path}/placements",
            game_id=game.id, key=key, body=body, headers=headers,
        )
    ]  # fmt: skip


def _scripted_key(load: Load, game: LiveGame, number: int) -> str:
    base = f"line-{game.id[:8]}-{number}-g{load.generation}"
    return f"{base}-r{load.in_progress.get(base, 0) // 3}"


async def _play_scripted(
    load: Load, game: LiveGame, server: str, view: dict[str, Any], etag: str
) -> None:
    assert game.line is not None
    number = view["placements_count"]
    if game.id in load.held and number == len(game.line.positions) - 1:
        await asyncio.sleep(0.05)  # kept open until the test lets it end
        return
    row, col = game.line.positions[number]
    key = _scripted_key(load, game, number)
    headers = {**game.auth, "If-Match": etag}
    answers = await _place(
        load, game, server, {"row": row, "col": col}, headers, key, twin=number % 3 == 0
    )
    for answer in answers:
        if answer.code == "request_in_progress":
            base = key.rsplit("-r", 1)[0]
            load.in_progress[base] = load.in_progress.get(base, 0) + 1


async def _play_randomly(
    load: Load,
    game: LiveGame,
    server: str,
    view: dict[str, Any],
    etag: str,
    rng: random.Random,
) -> None:
    target = rng.choice(view["legal_placements"])
    body = {"row": target["row"], "col": target["col"]}
    mode = rng.choices(MODES, MODE_WEIGHTS)[0]
    headers = dict(game.auth)
    if mode == "if_match" or (mode in ("keyed", "twin") and rng.random() < 0.5):
        headers["If-Match"] = etag
    if mode == "conditional_read":
        await load.recorder.send(
            "conditional_read", server, "GET", game.path,
            game_id=game.id, headers={"If-None-Match": etag},
        )  # fmt: skip
        return
    if mode == "reuse":
        used = [r for (scope, _), r in load.keyed.items() if scope == game.id]
        others = [t for t in view["legal_placements"] if t != used[-1].body] if used else []
        if used and others:
            # A key already used on this game, with another body: idempotency_key_reused.
            other = rng.choice(others)
            reuse = KeyedRequest(
                game, used[-1].key, {"row": other["row"], "col": other["col"]}, used[-1].headers,
                twin=False,
            )  # fmt: skip
            load.remember(reuse, resend=False)
            await load.recorder.send(
                "reuse", server, "POST", f"{game.path}/placements",
                game_id=game.id, key=reuse.key, body=reuse.body, headers=reuse.headers,
            )  # fmt: skip
            return
        mode = "keyed"
    key = f"k-{uuid.uuid4()}" if mode in ("keyed", "twin") else None
    await _place(load, game, server, body, headers, key, twin=mode == "twin")


async def client(load: Load, rng: random.Random, max_requests: int = 3000) -> None:
    """One client: read a random open game on a random server, place a card; until all end."""
    for _ in range(max_requests):
        games = load.open_games
        if not games:
            return
        game = rng.choice(games)
        server = rng.choice(load.recorder.servers)
        read = await load.recorder.send("read", server, "GET", game.path, game_id=game.id)
        if read.status != 200:  # no answer (a server restarting), or 503: back off
            await asyncio.sleep((0.25 if read.status is None else 0.02) + rng.random() / 10)
            continue
        view = read.body
        if view["status"] != "in_progress":
            game.finished = True
            continue
        if game.line is not None:
            await _play_scripted(load, game, server, view, read.headers["etag"])
        else:
            await _play_randomly(load, game, server, view, read.headers["etag"], rng)
    raise AssertionError(f"a client sent {max_requests} requests and the games did not end")


async def retry_keyed(load: Load, rng: random.Random, concurrency: int = 8) -> None:
    """Send every keyed request again, unchanged (twins to two servers again)."""
    semaphore = asyncio.Semaphore(concurrency)

    async def again(request: KeyedRequest) -> None:
        path = f"{request.game.path}/placements" if request.game else "/games"
        async with semaphore:
            if request.twin:
                await send_twice(load, request, "retry", path)
                return
            await load.recorder.send(
                "retry", rng.choice(load.recorder.servers), "POST", path,
                game_id=request.game.id if request.game else None,
                key=request.key, body=request.body, headers=request.headers,
            )  # fmt: skip

    await asyncio.gather(*(again(request) for request in list(load.keyed.values())))


async def leaderboard_entries(load: Load, limit: int = 7) -> list[dict[str, Any]]:
    """Every entry of the leaderboard, page by page."""
    entries: list[dict[str, Any]] = []
    cursor: str | None = None
    server = load.recorder.servers[0]
    while True:
        query = f"/leaderboard?limit={limit}" + (f"&cursor={cursor}" if cursor else "")
        page = await load.recorder.send("leaderboard", server, "GET", query)
        assert page.status == 200, page.describe()
        entries.extend(page.body["entries"])
        cursor = page.body["next_cursor"]
        if cursor is None:
            return entries

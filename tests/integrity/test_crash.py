"""kill -9 in the middle of the load: nothing half-written, every win on the board once.

Two servers on one database serve 24 clients playing random games and games dealt from the
winning decks of the conformance vectors (whose winning placements they send, with
``If-Match`` and a key per placement). Mid-load the process group of one server, then of the
other, then of both, is SIGKILLed and started again on the same port; the clients carry on
until every game is over. Then the database must hold only whole placements, every won game
exactly once on the leaderboard and in the scores table, and each key claimed by a killed
process must be taken over once it is stale. On PostgreSQL the same runs again with the clients
talking to HAProxy (deploy/haproxy.cfg) in front of the two servers: it must route around the
dead one, and its own errors (502 when a server dies mid-request, 503 while none is up) are
problem+json with Retry-After.
"""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select, update
from sqlalchemy.orm import Session

from api.games.placing import placement_fingerprint
from api.idempotency.service import STALE_CLAIM, fingerprint, key_hash
from api.idempotency.tables import idempotency_keys as keys
from testkit.proxy import Proxy
from testkit.server import Server
from tests.integrity import exchanges as checks
from tests.integrity.conftest import ROUTES, Report, check_both_replicas_served, entry_urls
from tests.integrity.players import (
    KeyedRequest,
    Load,
    client,
    create_games,
    insert_games,
    leaderboard_entries,
    retry_keyed,
    winning_lines,
)
from tests.integrity.verify import verify_database

CLIENTS = 24
RANDOM_GAMES = 3
WINNING_GAMES = 5
# Which servers die together, and after how many more accepted placements.
KILLS = (((0,), 15), ((1,), 15), ((0, 1), 15))

pytestmark = pytest.mark.slow


async def _restart(server: Server) -> Server:
    again = Server(
        server.database_url, port=server.port, log_path=server.log_path, extra_env=server.extra_env
    )
    await asyncio.to_thread(again.start)
    return again


async def _crash_schedule(load: Load, servers: list[Server], kills: list[str]) -> None:
    """Kill and restart servers as planned in KILLS, then let the held game end."""
    try:
        for victims, after in KILLS:
            target = load.accepted() + after
            while load.accepted() < target and len(load.open_games) > 1:
                await asyncio.sleep(0.02)
            for index in victims:
                await asyncio.to_thread(servers[index].kill)
            load.generation += 1
            kills.append(f"{'+'.join('ab'[i] for i in victims)} at {load.accepted()} accepted")
            await asyncio.sleep(0.2)
            # Servers that died together start again together (as a supervisor would restart
            # them), not one after the other.
            restarted = await asyncio.gather(*(_restart(servers[index]) for index in victims))
            for index, server in zip(victims, restarted, strict=True):
                servers[index] = server
    finally:
        load.held.clear()


async def _run(
    load: Load, servers: list[Server], database_url: str, kills: list[str]
) -> tuple[list[tuple[str, str, str]], list[dict[str, Any]]]:
    """The load with its kills, then the take-over of stale claims, then the leaderboard."""
    rng = random.Random(11)
    try:
        await create_games(load, RANDOM_GAMES, rng)
        load.games.extend(insert_games(database_url, winning_lines()[:WINNING_GAMES], "winner"))
        load.held.add(load.games[-1].id)  # so that every kill comes while games are played
        schedule = asyncio.create_task(_crash_schedule(load, servers, kills))
        await asyncio.gather(*(client(load, random.Random(100 + i)) for i in range(CLIENTS)))
        await schedule
        await retry_keyed(load, rng)
        pending = await asyncio.to_thread(_age_pending_claims, database_url)
        await _take_over(load, pending)
        return pending, await leaderboard_entries(load)
    finally:
        await load.recorder.close()


def _age_pending_claims(database_url: str) -> list[tuple[str, str, str]]:
    """Make every claim left by a killed process look older than STALE_CLAIM."""
    engine = create_engine(database_url)
    try:
        with Session(engine) as session, session.begin():
            pending = session.execute(
                select(keys.c.scope, keys.c.key_hash, keys.c.fingerprint).where(
                    keys.c.status_code.is_(None)
                )
            ).all()
            for scope, hashed, _ in pending:
                this = (keys.c.scope == scope, keys.c.key_hash == hashed)
                created_at = session.execute(select(keys.c.created_at).where(*this)).scalar_one()
                session.execute(
                    update(keys)
                    .where(*this)
                    .values(created_at=created_at - STALE_CLAIM - timedelta(seconds=1))
                )
    finally:
        engine.dispose()
    return [(str(scope), str(hashed), str(claimed)) for scope, hashed, claimed in pending]


def _fingerprint(request: KeyedRequest) -> str:
    """The fingerprint the service stores with a claim (api.games.service): a placement's
    holds the digest of the credential that sent it (the game's token here)."""
    if request.game is None:
        return fingerprint("POST", "/games", request.body)
    return placement_fingerprint(request.body["row"], request.body["col"], request.game.token)


async def _take_over(load: Load, pending: list[tuple[str, str, str]]) -> None:
    """Send each request whose claim went stale again (the one that claimed it: a key may
    have been sent with other bodies): it must run now, not wait."""
    for scope, hashed, claimed in pending:
        game_scope = scope.removeprefix("game:")
        request = next(
            (
                r
                for (s, k), sent in load.sent.items()
                if key_hash(k) == hashed and (s == "games" or s.replace("-", "") == game_scope)
                for r in sent
                if _fingerprint(r) == claimed
            ),
            None,
        )
        assert request is not None, f"no request sent with key hash {hashed} matches its claim"
        key = request.key
        path = f"{request.game.path}/placements" if request.game else "/games"
        answer = await load.recorder.send(
            "take_over", load.recorder.servers[0], "POST", path,
            game_id=request.game.id if request.game else None,
            key=key, body=request.body, headers=request.headers,
        )  # fmt: skip
        assert answer.code != "request_in_progress", answer.describe()
        assert not answer.replayed, answer.describe()


@ROUTES
def test_killing_servers_mid_load_loses_nothing_and_doubles_nothing(
    database_url: str, servers: list[Server], entry: Proxy | None, report: Report, tmp_path: Path
) -> None:
    load = Load(checks.Recorder(entry_urls(servers, entry)))
    kills: list[str] = []
    pending, entries = asyncio.run(_run(load, servers, database_url, kills))
    assert len(kills) == len(KILLS)
    served = check_both_replicas_served(entry, at_least=100) if entry else None
    for server in servers:
        server.stop()

    stored = verify_database(database_url)
    exchanges = load.recorder.exchanges
    checks.check_problems(exchanges, proxy_errors=entry is not None)
    acknowledged = checks.check_accepted(exchanges, stored, all_acknowledged=False)
    keys = checks.check_replays(exchanges)

    assert all(game.status != "in_progress" for game in stored.games.values())
    won = {game.id for game in load.games if game.line is not None}
    assert won <= {id_ for id_, game in stored.games.items() if game.status == "won"}
    for game in load.games:
        if game.line is not None:
            assert stored.games[game.id].score == game.line.score, game.id
    scripted = {game.id for game in load.games if game.line is not None}
    illegal = [e for e in exchanges if e.game_id in scripted and e.status == 422 and e.is_placement]
    assert not illegal, f"a winning line was applied out of turn: {illegal[0].describe()}"

    board_ids = [entry["game_id"] for entry in entries]
    assert len(board_ids) == len(set(board_ids)), "a game is twice on the leaderboard"
    assert set(board_ids) == set(stored.scores), "the leaderboard is not the scores table"
    assert [entry["rank"] for entry in entries] == list(range(1, len(entries) + 1))
    assert [entry["score"] for entry in entries] == sorted(stored.scores.values(), reverse=True)
    assert stored.pending_keys == 0, "a stale claim was not taken over"
    report(
        "crash",
        {
            "clients": CLIENTS,
            "kills": kills,
            "requests_by_replica": served,
            **checks.figures(exchanges),
            "games_verified": len(stored.games),
            "games_by_status": stored.by_status,
            "placements_stored": stored.placements,
            "placements_acknowledged_first_time": acknowledged,
            "placements_stored_without_answer": stored.placements - acknowledged,
            "stale_claims_taken_over": len(pending),
            "leaderboard_entries": len(entries),
            "idempotency_keys": keys,
            "logs": str(tmp_path),
        },
    )

"""The app factory. Nothing (settings, engines, sessions) is created at import time."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

from fastapi import FastAPI
from sse_starlette.sse import AppStatus

from api import (
    analysis,
    challenges,
    events,
    fairplay,
    games,
    hints,
    leaderboards,
    players,
    races,
    tournaments,
)
from api.accounts import AccountService
from api.analysis import AnalysisRunner, AnalysisService
from api.challenges import ChallengeService
from api.core import cursors, migrate
from api.core.database import Database, create_database
from api.core.openapi import install_openapi
from api.core.problems import install_error_handlers
from api.core.store import service_secret
from api.events import EventHub, EventService
from api.games import HOOKS, GameHooks, GameService
from api.hints import AdvicePool, HintService
from api.idempotency import SECRET_NAME as REPLAY_SECRET
from api.idempotency import IdempotentRequests, ReplaySeal, purge_periodically
from api.leaderboards import LeaderboardService
from api.ops import files, health, http_limits, metrics
from api.ops.cors import ProblemCORSMiddleware, cors_options
from api.ops.logs import configure_logging
from api.ops.observer import install_edge, observing
from api.ops.ratelimit import RateLimiter
from api.ops.readiness import ReadinessCheck
from api.pages import install_web
from api.players import PlayerService
from api.races import RaceService
from api.settings import Settings
from api.tournaments import TournamentService
from engine.player.advice import Budget

log = logging.getLogger("foursquare.events")

# The summary says what the service is; the description does not say it again, and starts
# with the way back to the game for a reader who came from its page.
DESCRIPTION = """
[Back to the game](/) · [Swagger UI](/docs) · [ReDoc](/redoc)

40 cards (Ace to 10) are drawn one at a time and placed on a floating grid of up to 4 x 4
piles. Playing the uniquely highest or lowest card in a row or column flips the other piles
there. Win with 16 face-up piles; your score is the cards left in the stock. Five face-down
piles, or an empty stock, lose.

1. `POST /games` deals a game and returns its `token`.
2. `POST /games/{id}/placements` with `Authorization: Bearer <token>` and `{"row", "col"}`
   (one of the game's `legal_placements`) places the current card.
3. Repeat until `status` is `won` or `lost`; won games appear on `GET /leaderboard`.

Errors are `application/problem+json` (RFC 9457) with a machine-readable `code`.
"""


def subscribe_features(hooks: GameHooks = HOOKS) -> None:
    """Subscribe the features that keep figures of games to the games' moments (once per
    process: the app and the command-line tools call it). Each names its stage, which orders
    it among the others (:data:`api.games.hooks.STAGES`), whatever the order here."""
    if hooks.wired:
        return
    hooks.wired = True
    for feature in (players, leaderboards, events, fairplay, races, tournaments):
        feature.subscribe(hooks)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app. ``settings`` defaults to the environment (``FOURSQUARE_*``)."""
    settings = settings or Settings()
    subscribe_features()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Process-wide: the event loop and the database threads hand the GIL over sooner
        # (with Python's default of 5 ms, a thread waited that long for the GIL after each
        # database round trip while the loop was busy).
        sys.setswitchinterval(settings.gil_switch_interval_ms / 1000)
        if settings.migrate_on_start:
            migrate.upgrade(settings.database_url)
        database: Database = create_database(settings)
        configured = settings.secret_key.get_secret_value() if settings.secret_key else None
        cursor_secret = await database.read(
            lambda session: service_secret(session, cursors.SECRET_NAME, configured)
        )
        challenge_configured = (
            settings.challenge_secret.get_secret_value() if settings.challenge_secret else None
        )
        challenge_secret = await database.read(
            lambda session: service_secret(session, challenges.SECRET_NAME, challenge_configured)
        )
        replay_configured = (
            settings.replay_secret.get_secret_value() if settings.replay_secret else None
        )
        replay_secret = await database.read(
            lambda session: service_secret(session, REPLAY_SECRET, replay_configured)
        )
        # Every server process claims and computes analyses unless told not to.
        runner = AnalysisRunner(database, settings) if settings.analysis_worker else None
        reviewer = fairplay.FairPlayRunner(database, settings) if settings.fairplay_worker else None
        pool = AdvicePool(settings.hint_workers, settings.hint_queue)
        state = app.state
        state.database = database
        state.cursor_secret = cursor_secret
        state.analysis_runner = runner
        state.readiness = ReadinessCheck(database)
        requests = IdempotentRequests(
            database,
            ReplaySeal(replay_secret),
            timedelta(seconds=settings.idempotency_stale_seconds),
        )
        state.games = GameService(database, requests, challenge_secret)
        state.accounts = AccountService(database, settings.passkey_rp_id, settings.passkey_origins)
        state.players = PlayerService(
            database,
            requests,
            cursor_secret,
            fairplay.is_marked,
            races.race_counts,
            tournaments.tournament_places,
        )
        state.leaderboards = LeaderboardService(
            database, cursor_secret, settings.leaderboard_cache_pages
        )
        state.challenges = ChallengeService(database, challenge_secret, cursor_secret)
        state.analyses = AnalysisService(database, runner.wake if runner else None)
        operators = settings.operator_keys.get_secret_value() if settings.operator_keys else None
        moderators = fairplay.Moderators(operators)
        state.fairplay = fairplay.FairPlayService(database, moderators)
        budget = Budget(placements=settings.hint_placements, milliseconds=settings.hint_max_ms)
        state.hints = HintService(state.games, pool, budget)
        state.rate_limiter = RateLimiter(settings) if settings.rate_limit_enabled else None
        # Never more streams than the open-file limit leaves room for (api/ops/files.py).
        files.raise_open_file_limit()
        capacity = files.stream_capacity(
            settings,
            database,
            configured=settings.events_max_streams,
            reserved=settings.events_reserved_files,
        )
        (log.warning if capacity.limited_by_files else log.info)(capacity.describe())
        metrics.event_streams_limit(capacity.streams)
        http_limits.admit_connections(capacity.connections)
        hub = EventHub(
            database,
            events.FRAMES,
            queue=settings.events_queue,
            max_streams=capacity.streams,
            max_per_client=settings.events_max_streams_per_client,
            heartbeat=settings.events_heartbeat_seconds,
        )
        state.events = EventService(
            database,
            hub,
            state.games,
            cursor_secret,
            untouched_for=timedelta(hours=settings.abandon_after_hours),
            moved_within=timedelta(minutes=settings.live_moved_within_minutes),
        )
        state.races = RaceService(
            database, state.games, state.events, pool, requests, challenge_secret, settings, budget
        )
        state.tournaments = TournamentService(
            database,
            state.games,
            state.events,
            requests,
            challenge_secret,
            cursor_secret,
            moderators,
            settings,
        )
        # The hub's heartbeat also ends every stream when the server is told to stop, so
        # that clients reconnect to another replica.
        live = [asyncio.create_task(hub.heartbeat_loop(lambda: AppStatus.should_exit))]
        # Keys past their window go, with the secrets kept for their replays.
        live.append(asyncio.create_task(purge_periodically(database)))
        if settings.race_worker:
            live.append(asyncio.create_task(state.races.run()))
        if settings.tournament_worker:
            live.append(asyncio.create_task(state.tournaments.run()))
        # Every process's committed changes reach this hub (api.events.fanout).
        disconnect = events.connect(hub, database)
        expiring = (
            asyncio.create_task(
                games.expire_periodically(
                    database,
                    timedelta(minutes=settings.expire_every_minutes),
                    timedelta(hours=settings.abandon_after_hours),
                )
            )
            if settings.expire_every_minutes
            else None
        )
        if runner is not None:
            runner.start()
        if reviewer is not None:
            reviewer.start()
        try:
            async with observing(settings, database):
                yield
        finally:
            if runner is not None:
                await runner.close()  # a job in progress is handed back
            if reviewer is not None:
                await reviewer.close()  # a review in progress is handed back
            if expiring is not None:
                expiring.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await expiring  # a round in progress finishes its batch first
            disconnect()  # this app hears and announces nothing more
            hub.close()
            for task in live:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await hub.drain()
            pool.close()
            await database.close()

    app = FastAPI(
        title="Foursquare Server",
        version="0.1.0",
        summary="A JSON REST API for Foursquare, a one-player card game by Wil Su.",
        description=DESCRIPTION,
        lifespan=lifespan,
        # operationIds are the route functions' names (create_game, place_card, ...), so that
        # clients and OpenAPI links can name them.
        generate_unique_id_function=lambda route: route.name,
        docs_url=None,  # served by install_web, from the package's own files
        redoc_url=None,
        # Starlette's redirect to the other form of a path builds an absolute URL from the
        # request's Host header; a path with a stray slash is a plain 404 instead.
        redirect_slashes=False,
        # FastAPI's OpenTelemetry bridge, off: the service has its own metrics, log line and
        # Server-Timing (api/ops/observer.py), and the bridge's logs would carry exception
        # messages, which never leave the process (api/ops/logs.py). On, it looked for
        # configured providers on every request: some 4 % of a /healthz.
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.settings = settings
    install_error_handlers(app)
    # The app's one middleware, when origins are configured: preflights and every answer
    # (errors and the edge's refusals too) carry the CORS headers.
    cors = cors_options(settings)
    if cors:
        app.add_middleware(ProblemCORSMiddleware, **cors)
    for router in (
        games.router,
        hints.router,
        leaderboards.router,
        players.router,
        players.sign_in_router,
        health.router,
        challenges.router,
        analysis.router,
        fairplay.router,
        events.router,
        races.router,
        races.players_router,
        tournaments.router,
        tournaments.players_router,
    ):
        app.include_router(router)
    install_web(app)
    install_openapi(app)
    events.install_event_schemas(app)
    events.install_event_schemas(app, races.EVENT_MODELS)
    events.install_event_schemas(app, tournaments.EVENT_MODELS)
    # Every request's edges (request id, refusals, HEAD, rate-limit fields, timing, log line,
    # metrics): one layer around the whole app (api/ops/observer.py).
    install_edge(
        app,
        settings,
        refusals=(lambda refusal: ProblemCORSMiddleware(refusal, **cors)) if cors else None,
    )
    return app


def app_from_environment() -> FastAPI:
    """Factory for ``uvicorn --factory api.app:app_from_environment``: the service as
    deployed, logging as its settings say (tests build apps with :func:`create_app`)."""
    settings = Settings()
    configure_logging(settings)
    app = create_app(settings)
    # What the process has made by now (modules, routes, schemas, validators) lives as long
    # as it does: out of the cyclic collector's sight, so that a full collection walks what
    # requests and streams make, not the whole app (with hundreds of event streams open, each
    # full collection held every request and stream up for some 100 ms of CPU). Here, not in
    # create_app: a process that makes many apps (the tests) must not freeze the old ones.
    gc.collect()
    gc.freeze()
    return app

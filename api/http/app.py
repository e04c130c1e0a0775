"""The app factory. Nothing (settings, engines, sessions) is created at import time."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from api.games import cursors, expiry
from api.games.advice_pool import AdvicePool
from api.games.analysis import AnalysisRunner
from api.games.challenges import SECRET_NAME as CHALLENGE_SECRET
from api.games.credentials import service_secret
from api.games.leaderboard import PageCache
from api.http.errors import install_error_handlers
from api.http.middleware import BodySizeLimit, HeadAsGet, JsonBodiesOnly
from api.http.observe import install_observability, observing
from api.http.openapi import install_openapi
from api.http.ratelimit import RateLimiter, RateLimitHeaders
from api.http.routes import analysis, challenges, games, health, leaderboard, players
from api.http.web import install_web
from api.logs import configure_logging
from api.settings import Settings
from api.store import migrate
from api.store.database import Database, create_database

DESCRIPTION = """
Play **Foursquare**, Wil Su's one-player card game, over HTTP.

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


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app. ``settings`` defaults to the environment (``FOURSQUARE_*``)."""
    settings = settings or Settings()

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
        app.state.database = database
        app.state.cursor_secret = await database.read(
            lambda session: service_secret(session, cursors.SECRET_NAME, configured)
        )
        app.state.leaderboard_pages = PageCache(settings.leaderboard_cache_pages)
        challenge_configured = (
            settings.challenge_secret.get_secret_value() if settings.challenge_secret else None
        )
        app.state.challenge_secret = await database.read(
            lambda session: service_secret(session, CHALLENGE_SECRET, challenge_configured)
        )
        app.state.rate_limiter = RateLimiter(settings) if settings.rate_limit_enabled else None
        app.state.advice_pool = AdvicePool(settings.hint_workers, settings.hint_queue)
        expiring = (
            asyncio.create_task(
                expiry.expire_periodically(
                    database,
                    timedelta(minutes=settings.expire_every_minutes),
                    timedelta(hours=settings.abandon_after_hours),
                )
            )
            if settings.expire_every_minutes
            else None
        )
        # Every server process claims and computes analyses unless told not to.
        app.state.analysis_runner = (
            AnalysisRunner(database, settings) if settings.analysis_worker else None
        )
        if app.state.analysis_runner is not None:
            app.state.analysis_runner.start()
        try:
            async with observing(settings, database):
                yield
        finally:
            if app.state.analysis_runner is not None:
                await app.state.analysis_runner.close()  # a job in progress is handed back
            if expiring is not None:
                expiring.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await expiring  # a round in progress finishes its batch first
            app.state.advice_pool.close()
            database.dispose()

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
    )
    app.state.settings = settings
    install_error_handlers(app)
    app.add_middleware(JsonBodiesOnly)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(HeadAsGet)
    app.add_middleware(RateLimitHeaders)
    if settings.cors_origins:
        # Outermost, so that preflights and every answer (errors too) carry the CORS headers.
        # Bearer tokens travel in a header, never a cookie: no credentials mode.
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "HEAD", "POST"],
            allow_headers=[
                "Authorization",
                "Content-Type",
                "If-Match",
                "If-None-Match",
                "Idempotency-Key",
            ],
            expose_headers=[
                "ETag",
                "Location",
                "Retry-After",
                "Idempotent-Replayed",
                "WWW-Authenticate",
                "RateLimit",
                "RateLimit-Policy",
                "X-Request-ID",
            ],
            allow_credentials=False,
            max_age=600,
        )
    app.include_router(games.router)
    app.include_router(leaderboard.router)
    app.include_router(players.router)
    app.include_router(health.router)
    app.include_router(challenges.router)
    app.include_router(analysis.router)
    install_web(app)
    install_openapi(app)
    install_observability(app, settings)
    return app


def app_from_environment() -> FastAPI:
    """Factory for ``uvicorn --factory api.http.app:app_from_environment``: the service as
    deployed, logging as its settings say (tests build apps with :func:`create_app`)."""
    settings = Settings()
    configure_logging(settings)
    return create_app(settings)

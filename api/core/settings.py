"""Configuration, read from ``FOURSQUARE_*`` environment variables (and a ``.env`` file)."""

from __future__ import annotations

from typing import Annotated, Literal

from limits import parse_many
from pydantic import Field, IPvAnyNetwork, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from engine.player import DEFAULT_PLACEMENTS


class Settings(BaseSettings):
    """Every setting of the service. Build one with ``Settings()`` in the app factory."""

    model_config = SettingsConfigDict(env_prefix="FOURSQUARE_", env_file=".env", extra="ignore")

    database_url: str = Field(
        default="sqlite:///./foursquare.db",
        description="SQLAlchemy URL: sqlite:///path.db or postgresql+psycopg://user@host/db",
    )
    secret_key: SecretStr | None = Field(
        default=None,
        description="Signs leaderboard cursors. Unset: a random secret that migration 0006 "
        "stored in the database, shared by every process on it.",
    )
    cors_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Origins whose pages may call the API from a browser (comma-separated, or "
        "'*' for any). Empty by default: the web client is served from the API's own origin.",
    )
    migrate_on_start: bool = Field(
        default=True, description="Apply pending Alembic migrations when the service starts."
    )
    # Eight: one process's reads run on one event loop, and a read holds its connection for
    # its round trip and until the loop comes back to it; connections beyond what the loop
    # keeps busy only move a read's wait from the pool to the loop, and each is a PostgreSQL
    # backend for every worker of every replica (docs/operations.md, "Sizing the pools").
    db_pool_size: int = Field(
        default=8,
        ge=1,
        description="Connections each process keeps for its requests' reads, opened as needed "
        "and never more (no overflow): a read that finds them all busy waits for one.",
    )
    # Four: while a write waits for its round trips and its commit's flush, the loop serves
    # others, and a few at once overlap those waits; more only hold more row locks at once
    # (a win's leaderboard counters) in a process whose loop is already the limit. Each is a
    # connection kept (the writes' pool).
    db_write_concurrency: int = Field(
        default=4,
        ge=1,
        description="PostgreSQL: write transactions one process runs at once (the others "
        "wait their turn on the event loop), and the connections it keeps for them. SQLite "
        "always runs one.",
    )
    db_pool_timeout: float = Field(
        default=10.0, gt=0, description="Seconds to wait for a free connection before a 503."
    )
    sqlite_busy_timeout_ms: int = Field(
        default=5000, ge=0, description="How long SQLite waits for another process's write lock."
    )
    gil_switch_interval_ms: float = Field(
        default=1.0,
        gt=0,
        description="How long a thread may hold Python's GIL while another waits for it "
        "(sys.setswitchinterval, set when the service starts; Python's default is 5 ms).",
    )
    leaderboard_cache_pages: int = Field(
        default=256,
        ge=0,
        description="Rendered leaderboard pages kept per process while the leaderboard does "
        "not change (0: none, every request runs the query).",
    )
    max_body_bytes: int = Field(
        default=4096,
        ge=256,
        description="Larger request bodies get 413 (foursquare serve answers as soon as the "
        "declared or received size passes it, and closes the connection unread).",
    )
    max_header_bytes: int = Field(
        default=32 * 1024,
        ge=1024,
        description="A request whose line and headers exceed this many bytes gets 431 and its "
        "connection is closed (foursquare serve; api/ops/http_limits.py).",
    )
    max_connections_per_client: int = Field(
        default=50,
        ge=1,
        description="Connections one client address (the socket's peer) holds open on one "
        "server process; a connection past it is answered 429 too_many_connections and closed "
        "at once. FOURSQUARE_TRUSTED_PROXIES are exempt (a proxy carries everybody's "
        "connections). The process's own cap on connections, below its open-file limit, is "
        "worked out at start (api/ops/files.py; docs/operations.md).",
    )
    header_timeout_seconds: float = Field(
        default=10.0,
        gt=0,
        description="A connection that has not sent a whole request line and headers this long "
        "after it opened (or after its next request began) is closed (foursquare serve).",
    )
    body_timeout_seconds: float = Field(
        default=10.0,
        gt=0,
        description="A connection whose request body has not all arrived this long after its "
        "head is closed without an answer (foursquare serve; api/ops/http_limits.py).",
    )
    hint_placements: int = Field(
        default=DEFAULT_PLACEMENTS,
        ge=0,
        description="Simulated placements a hint may spend (its effort). The default is the "
        "engine's `engine.player.DEFAULT_PLACEMENTS`, the effort `foursquare simulate` "
        "measures in the README.",
    )
    hint_max_ms: float = Field(
        default=2000, gt=0, description="Wall-clock cap on one hint, in milliseconds."
    )
    abandon_after_hours: float = Field(
        default=168,
        gt=0,
        description="A game in progress untouched (no placement, no hint) this long ends as "
        "lost, abandoned, when `foursquare expire` runs.",
    )
    live_moved_within_minutes: float = Field(
        default=10,
        gt=0,
        description="`GET /games?status=in_progress` (the games being played) lists only games "
        "that moved (a placement, a hint, their start) this recently: a game left alone is "
        "no longer being played, though it may be resumed until `abandon_after_hours`.",
    )
    expire_every_minutes: float = Field(
        default=0,
        ge=0,
        description="Each server process also ends abandoned games this often (0: never; "
        "run `foursquare expire` from cron instead).",
    )
    race_countdown_seconds: float = Field(
        default=5, ge=0, le=60, description="A race's countdown, from its start to its deal."
    )
    race_worker: bool = Field(
        default=True,
        description="This server process looks after the races too (deals, time limits, the "
        "computer's placements); any process may, each step is claimed once.",
    )
    race_computer_seconds: float = Field(
        default=1.5, gt=0, le=60, description="The computer racer's pace: one placement this often."
    )
    hint_workers: int = Field(
        default=1,
        ge=1,
        description="Worker processes computing hints, per server process (hints never run "
        "on the process answering requests, so they cannot slow its placements).",
    )
    hint_queue: int = Field(
        default=4,
        ge=0,
        description="Hints that may wait for a free worker, per server process; beyond "
        "that a hint gets 503 `hints_busy` with Retry-After.",
    )

    rate_limit_enabled: bool = Field(
        default=True, description="Refuse requests over the rate limits below with 429."
    )
    # Each limit is the `limits` library's notation, several joined by ';' ("30/minute;500/hour").
    # The credential limits apply to requests with a Bearer credential (the game's token), one
    # count per credential; the address limits to every request, one count per client address
    # (generous: many players may share one address behind a NAT).
    rate_limit_create: str = Field(
        default="30/minute", description="Game creations per credential."
    )
    rate_limit_create_per_address: str = Field(default="30/minute")
    rate_limit_place: str = Field(default="120/minute", description="Placements per credential.")
    rate_limit_place_per_address: str = Field(default="1200/minute")
    rate_limit_hint: str = Field(default="30/minute", description="Hints per credential.")
    rate_limit_hint_per_address: str = Field(default="120/minute")
    rate_limit_read: str = Field(default="600/minute", description="Reads per credential.")
    rate_limit_read_per_address: str = Field(default="3000/minute")
    passkey_rp_id: str = Field(
        default="localhost",
        description="The WebAuthn relying party id of passkeys: the site's domain name (never "
        "an IP address, which browsers refuse). The embedded default is reached as localhost.",
    )
    passkey_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Origins whose pages may register and use passkeys (comma-separated, e.g. "
        "https://play.example.com). Empty: http://localhost on the port a request reached.",
    )
    sign_in_failures: str = Field(
        default="5/minute;20/hour",
        description="Failed sign-ins (wrong recovery codes, refused passkey answers) per "
        "account; while used up, the account's sign-ins are refused untried.",
    )
    sign_in_failures_per_address: str = Field(
        default="20/minute;100/hour", description="Failed sign-ins per client address."
    )
    rate_limit_key_prefix: str = Field(
        default="foursquare-ratelimit", description="Prefix of the rate-limit keys in Redis."
    )
    redis_url: str | None = Field(
        default=None,
        description="redis://host:port/db: rate-limit counters shared by every replica (live "
        "events travel through the database, not Redis). Unset: each process counts on its own.",
    )
    trusted_proxies: Annotated[list[IPvAnyNetwork], NoDecode] = Field(
        default_factory=list,
        description="Addresses or CIDRs of the reverse proxies whose X-Forwarded-For names the "
        "client (comma-separated). Empty: the socket peer is the client.",
    )

    # Live events (GET /games/{id}/events, GET /events; api/events).
    events_heartbeat_seconds: float = Field(
        default=15.0,
        gt=0,
        description="A comment line (`: ping`) on every idle event stream this often, so that "
        "proxies keep it open; each watched game is also re-read this often, so that a lost "
        "notification delays its events by at most this long.",
    )
    events_queue: int = Field(
        default=64,
        ge=1,
        description="Events one watcher may have waiting to be written; a watcher that falls "
        "further behind gets a `reconnect` event and is closed.",
    )
    events_max_streams: int = Field(
        default=2000,
        ge=1,
        description="Event streams one server process holds open; beyond, 503 with Retry-After. "
        "A process admits fewer if its open-file limit leaves no room for them "
        "(api/ops/files.py; the number in force is logged at start and is the "
        "foursquare_event_streams_limit metric).",
    )
    events_reserved_files: int = Field(
        default=200,
        ge=0,
        description="Open files each server process keeps, beyond those it holds at start and "
        "its database pools at their fullest, for everything but event streams (ordinary "
        "requests' connections, hint and analysis workers' pipes): streams are capped at its "
        "open-file limit less all of these.",
    )
    events_max_streams_per_client: int = Field(
        default=20,
        ge=1,
        description="Event streams one client address (as the rate limits see it) holds open "
        "on one process; beyond, 429 with Retry-After.",
    )

    @field_validator(
        "rate_limit_create",
        "rate_limit_create_per_address",
        "rate_limit_place",
        "rate_limit_place_per_address",
        "rate_limit_hint",
        "rate_limit_hint_per_address",
        "rate_limit_read",
        "rate_limit_read_per_address",
        "sign_in_failures",
        "sign_in_failures_per_address",
    )
    @classmethod
    def _rate_limits(cls, value: str) -> str:
        try:
            parse_many(value)
        except ValueError as error:
            raise ValueError(f"not a rate limit like '30/minute': {value!r}") from error
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, value: str | None) -> str | None:
        if value and not value.startswith(("redis://", "rediss://", "redis+unix://")):
            raise ValueError("must start with redis://, rediss:// or redis+unix://")
        return value or None

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _comma_separated_networks(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    # Observability (api/metrics.py, api/logs.py, api/http/observe.py).
    metrics: bool = Field(
        default=True, description="Serve Prometheus metrics at /metrics (on|off)."
    )
    metrics_port: int | None = Field(
        default=None,
        ge=1,
        le=65535,
        description="Serve /metrics on this port instead of the API's (foursquare serve only; "
        "the API port then answers 404 there).",
    )
    log_format: Literal["auto", "json", "text"] = Field(
        default="auto",
        description="Log lines as JSON, as text, or (auto) text on a terminal and JSON otherwise.",
    )
    log_level: Literal["critical", "error", "warning", "info", "debug"] = Field(
        default="info", description="foursquare serve --log-level overrides it."
    )
    access_log: bool = Field(
        default=True,
        description="One line per request (foursquare serve --no-access-log turns it off).",
    )
    server_timing: bool = Field(
        default=True,
        description="Say in each answer's Server-Timing field where its time went: waiting for "
        "a pooled connection (pool), for a write turn (turn), in the database (db), in all "
        "(total), in milliseconds (on|off; the log line and the metrics have them either way).",
    )
    challenge_secret: SecretStr | None = Field(
        default=None,
        description="The daily challenge's deals are derived from it and the date. Unset: a "
        "random secret that migration 0010 stored in the database, shared by every process "
        "on it. Changing it changes the deal of the day in play: change it between days.",
    )
    replay_secret: SecretStr | None = Field(
        default=None,
        description="Encrypts the secrets (a game's or racer's token, a player's key) kept "
        "for the replays of Idempotency-Key requests. Unset: a random secret that migration "
        "0020 stored in the database, shared by every process on it. Changing it makes the "
        "replays stored before unreadable: their retries are then served as new requests.",
    )

    @field_validator("cors_origins", "passkey_origins", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return [origin.strip() for origin in value.split(",") if origin.strip()]
        return value

    # The fair-play review of won games (api/fairplay, docs/fairplay.md).
    operator_keys: SecretStr | None = Field(
        default=None,
        description="Operator credentials for the moderators' endpoints (/moderation), as "
        "comma-separated `name:key` pairs; the name is stored with each decision. No "
        "default: unset, nobody can moderate (every key gets 403). Keys of at least 32 "
        "characters (e.g. `python3 -c 'import secrets; print(secrets.token_urlsafe(32))'`).",
    )
    fairplay_mark_after: int = Field(
        default=3,
        ge=1,
        description="Flagged wins (not cleared by a moderator) that mark an account: all its "
        "games then leave the public boards until a moderator clears it.",
    )
    fairplay_worker: bool = Field(
        default=True,
        description="Whether this server process computes fair-play reviews (in a worker "
        "process of its own). Off: it only queues them.",
    )
    fairplay_poll_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How often each server process looks for a review to claim (a win on the "
        "same process wakes it at once).",
    )
    fairplay_heartbeat_seconds: float = Field(
        default=5.0, gt=0, description="How often a process computing a review renews its claim."
    )
    fairplay_stale_seconds: float = Field(
        default=30.0,
        gt=0,
        description="A review claim not renewed for this long is taken over by another process "
        "(its process died). Keep it several heartbeats long.",
    )

    @field_validator("operator_keys")
    @classmethod
    def _operator_keys(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return None
        for pair in value.get_secret_value().split(","):
            name, colon, key = pair.strip().partition(":")
            if not colon or not name.strip() or len(key.strip()) < 32 or len(name.strip()) > 32:
                raise ValueError(
                    "FOURSQUARE_OPERATOR_KEYS takes comma-separated name:key pairs, each name "
                    "1-32 characters and each key at least 32"
                )
        return value

    # Game analyses (POST /games/{id}/analysis; api/games/analysis.py).
    analysis_placements: int = Field(
        default=DEFAULT_PLACEMENTS,
        ge=0,
        description="Simulated placements the computer player spends on each placement of a "
        "game under analysis (the hint's default effort).",
    )
    analysis_solver_nodes: int | None = Field(
        default=None,
        ge=1,
        description="Search nodes for the hindsight optimum of an analysed game (unset: the "
        "solver's default).",
    )
    analysis_poll_seconds: float = Field(
        default=2.0,
        gt=0,
        description="How often each server process looks for an analysis to claim (a request "
        "to the same process wakes it at once).",
    )
    analysis_heartbeat_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How often a process computing an analysis renews its claim.",
    )
    idempotency_stale_seconds: float = Field(
        default=60.0,
        gt=0,
        description="An Idempotency-Key claim left unanswered this long (its process died "
        "mid-request) is taken over by the next retry; until then retries get 409 "
        "request_in_progress. Keep it well above the slowest request.",
    )
    analysis_stale_seconds: float = Field(
        default=60.0,
        gt=0,
        description="A claim not renewed for this long is taken over by another process (its "
        "process died). Keep it several heartbeats long.",
    )
    analysis_max_attempts: int = Field(
        default=3,
        ge=1,
        description="Claims an analysis gets before it is marked failed (a job that kills its "
        "process every time is not taken over for ever).",
    )
    analysis_worker: bool = Field(
        default=True,
        description="Whether this server process computes analyses (in a worker process of "
        "its own). Off: it only queues and serves them.",
    )

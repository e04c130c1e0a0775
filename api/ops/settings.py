"""The operations package's settings: the HTTP edge (CORS, request limits, timeouts), the rate
limits, the client's address behind proxies, metrics and logs."""

from __future__ import annotations

from typing import Annotated, Literal

from limits import parse_many
from pydantic import Field, IPvAnyNetwork, field_validator
from pydantic_settings import NoDecode

from api.core.settings import SettingsBase


class OpsSettings(SettingsBase):
    """What :mod:`api.ops` reads. The sign-in failure limits are here, beside the rate limits
    they are counted with (:mod:`api.ops.ratelimit` refuses a sign-in before the route runs)."""

    cors_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Origins whose pages may call the API from a browser (comma-separated, or "
        "'*' for any). Empty by default: the web client is served from the API's own origin.",
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

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _comma_separated_cors_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [origin.strip() for origin in value.split(",") if origin.strip()]
        return value

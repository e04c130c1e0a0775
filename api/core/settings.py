"""Configuration, read from ``FOURSQUARE_*`` environment variables (and a ``.env`` file).

Each feature declares its own settings (``api/<feature>/settings.py``) on
:class:`SettingsBase`, and the operator sees them as one object: :class:`api.settings.Settings`
inherits them all. Here are only the base and what the core itself reads (the database and
its pools, the cursors' secret, the process)."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class SettingsBase(BaseSettings):
    """The base of every settings class: ``FOURSQUARE_*`` variables and ``.env``. The one
    :class:`api.settings.Settings` inherits every feature's; a feature's code takes (and may
    build) its own class alone, which reads the same variables. Validators are found by
    name across the bases, so each has a name of its own (``_<what it checks>``)."""

    model_config = SettingsConfigDict(env_prefix="FOURSQUARE_", env_file=".env", extra="ignore")


class CoreSettings(SettingsBase):
    """What the core reads: the database and its pools, the cursors' secret, migrations on
    start and the process's GIL switch interval (set by the app for the whole process)."""

    database_url: str = Field(
        default="sqlite:///./foursquare.db",
        description="SQLAlchemy URL: sqlite:///path.db or postgresql+psycopg://user@host/db",
    )
    secret_key: SecretStr | None = Field(
        default=None,
        description="Signs leaderboard cursors. Unset: a random secret that migration 0006 "
        "stored in the database, shared by every process on it.",
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

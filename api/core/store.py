"""The core's own SQL: the service-wide secrets and the readiness probe."""

from __future__ import annotations

from typing import cast

from sqlalchemy import Table, select, text

from api.core.database import Executor
from api.core.models import ServiceSecretRow

_secrets = cast(Table, ServiceSecretRow.__table__)


def service_secret(session: Executor, name: str, configured: str | None) -> bytes:
    """A secret every process of the service must share: the setting if given, else the
    random one a migration stored under ``name`` in ``service_secrets`` (``cursor`` by 0006,
    which signs cursors; ``challenge`` by 0010, which the daily deals derive from), so that
    every process and replica on one database agrees without configuration."""
    if configured:
        return configured.encode()
    stored: str | None = session.execute(
        select(_secrets.c.value).where(_secrets.c.name == name)
    ).scalar()
    if stored is None:
        raise RuntimeError(f"no {name} secret: run the migrations (foursquare migrate)")
    return stored.encode()


def ping(session: Executor) -> None:
    session.execute(text("SELECT 1"))

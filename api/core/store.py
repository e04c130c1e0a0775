"""The core's own SQL: the service-wide secrets, the readiness probe, and PostgreSQL
notifications queued in a transaction."""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, event, func, select, text
from sqlalchemy.orm import Session

from api.core.database import Executor
from api.core.models import service_secrets as _secrets


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


# ---------------------------------------------------------------- notifications

_PENDING = "foursquare.notifications"  # the key of a transaction's queue in Session.info


def notify(session: Session, channel: str, payload: str) -> None:
    """PostgreSQL: send ``payload`` on ``channel`` if, and when, ``session``'s transaction
    commits. It waits in the transaction until a statement that carries notifications takes
    it (:func:`carry_notifications`: a placement's own statement, so that its notification
    costs no round trip of its own), or else is sent by one statement just before the
    commit. ``NOTIFY`` is transactional either way: delivered only if the commit is."""
    session.info.setdefault(_PENDING, []).append((channel, payload))


def carry_notifications(session: Session) -> tuple[int, dict[str, str]]:
    """The notifications waiting in ``session``'s transaction, taken by the caller's
    statement: how many, and the parameters of that many :func:`notify_columns`."""
    pending: list[tuple[str, str]] = session.info.pop(_PENDING, None) or []
    parameters: dict[str, str] = {}
    for number, (channel, payload) in enumerate(pending):
        parameters[f"notify_channel_{number}"] = channel
        parameters[f"notify_payload_{number}"] = payload
    return len(pending), parameters


@functools.cache
def notify_columns(count: int) -> tuple[ColumnElement[Any], ...]:
    """``count`` ``pg_notify`` columns, for a statement that carries notifications: each is
    evaluated once per row the statement returns (the carrier returns one row, or none when
    it changed nothing and its transaction is to roll back)."""
    return tuple(
        func.pg_notify(bindparam(f"notify_channel_{n}"), bindparam(f"notify_payload_{n}"))
        for n in range(count)
    )


@event.listens_for(Session, "before_commit")
def _send_pending(session: Session) -> None:
    if _PENDING in session.info:
        count, parameters = carry_notifications(session)
        if count:
            session.connection().execute(_notify_statement(count), parameters)


@event.listens_for(Session, "after_rollback")
def _drop_pending(session: Session) -> None:
    session.info.pop(_PENDING, None)


@functools.cache
def _notify_statement(count: int) -> Select[Any]:
    return select(*notify_columns(count))

"""The service's one MetaData (Alembic's, with its naming convention), the ``UTCDateTime``
type every feature's tables use, and core's own table: the secrets every feature shares.
Every other table is declared by the feature that owns it, in its ``tables`` module."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Column, DateTime, MetaData, String, Table, TypeDecorator
from sqlalchemy.engine import Dialect

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back as an aware UTC datetime.

    PostgreSQL keeps ``timestamptz``; SQLite keeps text without a zone, so the zone is put
    back on reading.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# The one MetaData of the service (Alembic's target): each feature declares its own tables on
# it as SQLAlchemy Core ``Table``s in its ``tables`` module (docs/design.md, "One owner per
# table"); api.tables imports them all.
metadata = MetaData(naming_convention=NAMING_CONVENTION)

# Secrets every process of the service shares, made by migration 0006 (random values), so
# that several processes and replicas agree without configuration. A setting
# (``FOURSQUARE_SECRET_KEY``) takes precedence when given.
service_secrets = Table(
    "service_secrets",
    metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)

"""Every table of the service, on one MetaData: Alembic's target (migrations/env.py) and the
tests that compare the migrated schema with the declarations.

Each feature declares and owns its tables in its own ``tables`` module (docs/design.md, "One
owner per table"); importing their features here is what puts them on the shared MetaData.
"""

# A feature's package imports its store, and the store its ``tables`` module: importing the
# packages (their faces, as anywhere outside a feature) puts every table on the MetaData, and
# tests/api/test_migrations.py fails if one is missing.
from api import (  # noqa: F401
    accounts,
    analysis,
    fairplay,
    games,
    idempotency,
    leaderboards,
    players,
    races,
    tournaments,
)
from api.core.models import metadata

__all__ = ["metadata"]

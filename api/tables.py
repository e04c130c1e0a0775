"""Every table of the service, on one MetaData: Alembic's target (migrations/env.py) and the
tests that compare the migrated schema with the declarations.

Each feature declares and owns its tables in its own ``tables`` module (docs/design.md, "One
owner per table"); importing them here is what puts them on the shared MetaData.
"""

from api.core.models import metadata
from api.games import tables as _games  # noqa: F401

__all__ = ["metadata"]

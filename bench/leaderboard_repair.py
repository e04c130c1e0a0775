"""How long ``foursquare check-leaderboard`` and its ``--repair`` take against the number of
won games, and so how long wins wait while a repair rebuilds the counters.

    .venv/bin/python bench/leaderboard_repair.py [--backend sqlite|postgresql|both]
        [--sizes 100000,1000000]

For each backend and size: a new migrated database into which that many won games are
bulk-loaded (``bench.bulk``, as for ``bench/leaderboard_scale.py``), then, one after the other,
the check, a repair with nothing to repair (the check alone), a repair after one total was
damaged by hand (the check, then the rebuild under the lock that holds wins back), and the
check again, which must find nothing. The rebuild's share, which wins wait for, is the
repair's time less the check's.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import text

from api.core.database import Database, create_database
from api.leaderboards import check as leaderboard
from api.settings import Settings
from bench.bulk import BulkLoader
from bench.harness import backends_of, sized_parser
from testkit.databases import throwaway_database
from testkit.processes import unwind_on_sigterm

DAMAGE = "UPDATE leaderboard_totals SET wins = wins + 1 WHERE score = 20"


def timed(work: Callable[[Database], Any], database: Database) -> tuple[float, Any]:
    start = time.perf_counter()
    result = work(database)
    return time.perf_counter() - start, result


def measure(backend: str, size: int, admin_url: str) -> dict[str, float]:
    """Seconds of each step on a database of ``size`` won games."""
    with throwaway_database(backend, admin_url) as url:
        loader = BulkLoader(url)
        try:
            loader.load(size)
            loader.analyze()
        finally:
            loader.close()
        database = create_database(Settings(database_url=url, migrate_on_start=False))
        try:
            check, drift = timed(leaderboard.counters_drift, database)
            assert drift == [], drift
            idle, drift = timed(leaderboard.repair_counters, database)
            assert drift == [], drift
            with database.transaction() as session:
                session.execute(text(DAMAGE))
            repair, drift = timed(leaderboard.repair_counters, database)
            assert len(drift) == 1, drift
            after, drift = timed(leaderboard.counters_drift, database)
            assert drift == [], drift
        finally:
            database.dispose()
    return {"check": check, "nothing to repair": idle, "repair": repair, "check after": after}


def main(argv: Sequence[str] | None = None) -> int:
    unwind_on_sigterm()
    args = sized_parser(__doc__, [100_000, 1_000_000]).parse_args(argv)
    for backend in backends_of(args.backend, args.postgres_url):
        for size in args.sizes:
            steps = measure(backend, size, args.postgres_url)
            figures = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in steps.items())
            print(
                f"[{backend}] {size} won games: {figures}; the rebuild (wins wait) "
                f"{steps['repair'] - steps['check']:.2f} s",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

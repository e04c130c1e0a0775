"""The ``foursquare`` console command: serve, migrate, prune-keys, expire, check-leaderboard,
openapi, simulate."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used: `foursquare --help` loads none of the service
    from api.core.database import Database
    from api.settings import Settings


def _serve(args: argparse.Namespace) -> int:
    from api.core import migrate
    from api.core.settings import CoreSettings
    from api.ops import server
    from api.ops.metrics_files import serving_metrics
    from api.ops.settings import OpsSettings

    if args.database_url:
        os.environ["FOURSQUARE_DATABASE_URL"] = args.database_url
    # The options reach the workers (which read Settings) through their environment.
    if args.log_level:
        os.environ["FOURSQUARE_LOG_LEVEL"] = args.log_level
    if args.no_access_log:
        os.environ["FOURSQUARE_ACCESS_LOG"] = "false"
    # The core's and the operations' settings only: the features (and prometheus_client,
    # which some import) stay unloaded here, before the metrics directory is in place.
    settings, ops = CoreSettings(), OpsSettings()
    # gunicorn supervising uvicorn workers, so that no worker outlives the command (why:
    # api/http/server.py). The metrics directory the workers share (and the metrics port)
    # must be in place before they start; every worker logs through api.ops.logs; the access
    # logs of gunicorn and uvicorn (whole URLs, query strings included) stay off for good:
    # api.ops.observer writes the request line instead.
    with serving_metrics(ops, args.host):
        if settings.migrate_on_start:
            # Migrate once here, so that several workers do not race to do it (an upgrade
            # loads no feature: migrations/env.py reads the declarations only to compare).
            migrate.upgrade(settings.database_url)
            os.environ["FOURSQUARE_MIGRATE_ON_START"] = "false"
        server.serve(
            host=args.host,
            port=args.port,
            workers=args.workers,
            log_level=ops.log_level,
            app_factory=_app_in_worker,
        )
    return 0


def _app_in_worker() -> Any:
    """The app of one server worker, built after the fork. Imported only there: the metrics
    directory that the workers share must be set before anything imports prometheus_client
    (api.ops.metrics_files), and the app imports it."""
    from api.app import app_from_environment

    return app_from_environment()


def _settings(database_url: str | None, **flags: Any) -> Settings:
    """The environment's settings, with the command's flags that were given over them."""
    from api.settings import Settings

    given = {name: value for name, value in flags.items() if value is not None}
    if database_url:
        given["database_url"] = database_url
    return Settings(**given)


@contextmanager
def _database(settings: Settings) -> Iterator[Database]:
    """The database the settings name, its engines disposed when the command is done."""
    from api.core.database import create_database

    database = create_database(settings)
    try:
        yield database
    finally:
        database.dispose()


def _migrate(args: argparse.Namespace) -> int:
    from api.core import migrate

    url = _settings(args.database_url).database_url
    if args.revision.startswith("-") or args.downgrade:
        migrate.downgrade(url, args.revision if args.revision != "head" else "base")
    else:
        migrate.upgrade(url, args.revision)
    return 0


def _prune_keys(args: argparse.Namespace) -> int:
    from datetime import timedelta

    from api.idempotency import purge

    with _database(_settings(args.database_url)) as database:
        deleted = purge(database, timedelta(hours=args.hours))
    print(f"deleted {deleted} idempotency keys older than {max(args.hours, 24)} hours")
    return 0


def _expire(args: argparse.Namespace) -> int:
    from datetime import timedelta

    from api.app import subscribe_features
    from api.games import expire_untouched

    subscribe_features()  # an abandoned game is a loss in its player's stats
    settings = _settings(args.database_url, abandon_after_hours=args.hours)
    with _database(settings) as database:
        ended = expire_untouched(database, timedelta(hours=settings.abandon_after_hours))
    print(
        f"ended {ended} games in progress untouched for {settings.abandon_after_hours:g} hours "
        "or of a closed daily challenge (abandoned)"
    )
    return 0


def _check_leaderboard(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from api.leaderboards import counters_drift, repair_counters

    check = repair_counters if args.repair else counters_drift
    try:
        with _database(_settings(args.database_url)) as database:
            drift = check(database)
    except SQLAlchemyError as exc:
        # Exit status 2, not 1: a monitor must tell "could not check" from "found drift".
        cause = getattr(exc, "orig", None) or exc  # the driver's message, without the SQL
        print(f"could not check the leaderboard: {exc.__class__.__name__}: {cause}")
        return 2
    if not drift:
        print("the leaderboard's counters, ordinals and players' bests agree with its won games")
        return 0
    for row in drift:
        print(f"{row.table}: {row.key}: stored {row.stored}, counted {row.counted}")
    if args.repair:
        print(
            f"{len(drift)} leaderboard figures differed from a recount of the won games: "
            "all are rebuilt from it"
        )
        return 0
    print(f"{len(drift)} leaderboard figures differ from a recount of the won games")
    return 1


def _openapi(args: argparse.Namespace) -> int:
    """The document the service serves at /openapi.json, for the clients' generators
    (clients/generate): built from the code alone, without a database or a server."""
    import json

    from api.app import create_app

    print(json.dumps(create_app().openapi(), indent=2, ensure_ascii=False))
    return 0


def _simulate(argv: Sequence[str]) -> int:
    from engine.player.simulate import main as simulate

    return simulate(argv)


def _positive_hours(text: str) -> float:
    """An ``--hours`` value: argparse reports a bad one as a usage error, not a traceback."""
    try:
        hours = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not hours > 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return hours


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["simulate"]:
        return _simulate(argv[1:])  # its own options: foursquare simulate --help
    parser = argparse.ArgumentParser(prog="foursquare", description="Foursquare Server")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the HTTP service (applies migrations first)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.add_argument("--database-url", help="overrides FOURSQUARE_DATABASE_URL")
    serve.add_argument(
        "--log-level",
        choices=["critical", "error", "warning", "info", "debug"],
        help="overrides FOURSQUARE_LOG_LEVEL (default info)",
    )
    serve.add_argument(
        "--no-access-log", action="store_true", help="no request lines (FOURSQUARE_ACCESS_LOG)"
    )
    serve.set_defaults(run=_serve)

    migrate = commands.add_parser("migrate", help="apply (or undo) database migrations")
    migrate.add_argument("revision", nargs="?", default="head")
    migrate.add_argument("--downgrade", action="store_true", help="downgrade to REVISION")
    migrate.add_argument("--database-url", help="overrides FOURSQUARE_DATABASE_URL")
    migrate.set_defaults(run=_migrate)

    prune = commands.add_parser("prune-keys", help="delete idempotency keys older than 24 hours")
    prune.add_argument("--hours", type=float, default=24.0, help="at least 24")
    prune.add_argument("--database-url", help="overrides FOURSQUARE_DATABASE_URL")
    prune.set_defaults(run=_prune_keys)

    expire = commands.add_parser(
        "expire", help="end games in progress left untouched too long, as abandoned"
    )
    expire.add_argument(
        "--hours",
        type=_positive_hours,
        help="overrides FOURSQUARE_ABANDON_AFTER_HOURS (default 168)",
    )
    expire.add_argument("--database-url", help="overrides FOURSQUARE_DATABASE_URL")
    expire.set_defaults(run=_expire)

    check = commands.add_parser(
        "check-leaderboard",
        help="recount the won games and report every leaderboard counter that differs "
        "(exit status 1 if any, 2 if the database cannot be read)",
    )
    check.add_argument("--database-url", help="overrides FOURSQUARE_DATABASE_URL")
    check.add_argument(
        "--repair",
        action="store_true",
        help="rebuild what differs from the recount, in one transaction that holds back wins "
        "for the moment it takes (exit status 0 once repaired)",
    )
    check.set_defaults(run=_check_leaderboard)

    openapi = commands.add_parser("openapi", help="print the OpenAPI document (JSON)")
    openapi.set_defaults(run=_openapi)

    commands.add_parser(
        "simulate",
        help="play seeded deals with a computer player and report its strength "
        "(foursquare simulate --help)",
        add_help=False,
    )

    args = parser.parse_args(argv)
    result: int = args.run(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())

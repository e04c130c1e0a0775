"""Fixtures shared by every test folder: databases of both backends, the app, a client."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

# The suite is a load generator on one address (fuzzing, races, whole games by the hundred),
# not a client the rate limits are meant for: they are off in every app and server it builds
# unless a test turns them on (tests/api/test_rate_limits.py, tests/integrity/
# test_rate_limits_shared.py). The defaults stay what production should run.
os.environ.setdefault("FOURSQUARE_RATE_LIMIT_ENABLED", "false")
# The suite's moderator (api/fairplay): many tests win with the computer player's own lines,
# which the fair-play review rightly holds off the boards; a test about the boards has its
# operator clear them, as a moderator would (tests/support/fairplay.py).
os.environ.setdefault("FOURSQUARE_OPERATOR_KEYS", "suite:" + "s" * 40)

warnings.filterwarnings("ignore", message=".*httpx.*starlette.testclient.*")

from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from api.app import create_app, subscribe_features  # noqa: E402
from api.core.database import Database  # noqa: E402
from api.settings import Settings  # noqa: E402
from testkit import databases  # noqa: E402
from testkit.games import start_game  # noqa: E402
from tests.support import examples  # noqa: E402
from tests.support.raw_http import many_files  # noqa: E402, F401  (a fixture, for every test)

# Tests that store games without an app (start_game, place_in) keep the players' stats and the
# boards as the app does.
subscribe_features()
examples.load()  # Hypothesis's profile: HYPOTHESIS_PROFILE, ``dev`` unless CI says ``ci``

BACKENDS = ["sqlite", "postgresql"]


def needs_postgres(status: str | None) -> None:
    """Skip the test if PostgreSQL does not answer (``status`` says why), or fail it if
    FOURSQUARE_TEST_REQUIRE_POSTGRES is set."""
    if status is not None:
        if databases.REQUIRE_POSTGRES:
            pytest.fail(f"FOURSQUARE_TEST_REQUIRE_POSTGRES is set but {status}")
        pytest.skip(status)


@pytest.fixture(scope="session")
def _postgres_status() -> str | None:
    return databases.postgres_unavailable_reason()


@pytest.fixture(scope="session")
def _templates(tmp_path_factory: pytest.TempPathFactory) -> Iterator[databases.Templates]:
    templates = databases.Templates(tmp_path_factory.mktemp("templates"))
    yield templates
    templates.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, _postgres_status: str | None) -> str:
    """Every test that uses a database runs once on SQLite and once on PostgreSQL."""
    name: str = request.param
    if name == "postgresql":
        needs_postgres(_postgres_status)
    return name


@pytest.fixture
def database_url(backend: str, _templates: databases.Templates, tmp_path: Path) -> Iterator[str]:
    """A fresh migrated database of the test's backend, dropped afterwards."""
    with _templates.database(backend, tmp_path) as url:
        yield url


@pytest.fixture
def sqlite_url(_templates: databases.Templates, tmp_path: Path) -> Iterator[str]:
    """A fresh migrated SQLite database, for tests about SQLite itself."""
    with _templates.database("sqlite", tmp_path) as url:
        yield url


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, migrate_on_start=False)


@pytest.fixture
def app(settings: Settings) -> FastAPI:
    return create_app(settings)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture
def database(app: FastAPI, client: TestClient) -> Database:
    """The app's own database handle (available once the client has started the app)."""
    db: Database = app.state.database
    return db


@dataclass(frozen=True)
class CreatedGame:
    id: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


MakeGame = Callable[..., CreatedGame]


@pytest.fixture
def make_game(database: Database) -> MakeGame:
    """Create a game directly through the service layer, optionally from a chosen deck
    (something the public API deliberately cannot do)."""

    def make(deck: list[str] | None = None, player: str = "tester") -> CreatedGame:
        with database.transaction() as session:
            created = start_game(session, player, deck=deck)
            session.flush()
            return CreatedGame(id=str(created.id), token=created.token)

    return make

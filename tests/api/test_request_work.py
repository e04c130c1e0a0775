"""Each request does its work once: a placement reads its game once, checks its token once,
decodes it and plays it once on the engine, takes its snapshot once, writes it in one
transaction and renders its answer once, the placement that ends a game included; a replayed
idempotent placement does none of it.

The work is counted where it can be seen from outside the service's modules: the SQL the
database receives (SQLAlchemy's engine events), the engine's public ``Game`` methods, the
comparison of the bearer token with the hash the database stores, and the response model
(``GameOut``, as the OpenAPI document names it). Nothing here names a function of ``api/``, so
the service can be rearranged freely; a second read, play, snapshot or render makes a count 2.
"""

from __future__ import annotations

import hmac
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.core.database import Database
from api.games.schemas import GameOut
from api.settings import Settings
from engine import Game
from tests.conftest import CreatedGame, MakeGame
from tests.integrity.players import winning_lines
from tests.support.statements import counting


@pytest.fixture
def settings(database_url: str) -> Settings:
    """The app without its analysis runner, fair-play reviews or races ticker, whose
    statements and engine calls would land among a request's (see
    tests/api/test_query_counts.py)."""
    return Settings(
        database_url=database_url,
        migrate_on_start=False,
        analysis_worker=False,
        fairplay_worker=False,
        race_worker=False,
        tournament_worker=False,
    )


def counted(work: Counter[str], name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        work[name] += 1
        return function(*args, **kwargs)

    return call


@dataclass
class Work:
    """What one request did, counted."""

    counts: Counter[str]
    database: Database

    @contextmanager
    def of(self, game: CreatedGame) -> Iterator[Counter[str]]:
        """Count the work done for ``game`` until the block ends: its reads and writes in the
        database, its write transactions, the comparisons of its token with its stored hash,
        the engine's decodes, plays and snapshots (``public_view``), and the game answers
        rendered."""
        stored_hash = self._token_hash(game)
        compare = hmac.compare_digest

        def token_check(a: Any, b: Any) -> bool:
            if stored_hash in (a, b):
                self.counts["token check"] += 1
            return compare(a, b)

        self.counts.clear()
        with pytest.MonkeyPatch.context() as patch, counting(self.database) as statements:
            patch.setattr(hmac, "compare_digest", token_check)
            yield self.counts
        self.counts["read"] = statements.reads_of("games")
        self.counts["store"] = statements.writes_of("games")
        self.counts["write transaction"] = statements.write_transactions
        self.counts += Counter()  # drop the zeros, as the counters below never hold any

    def _token_hash(self, game: CreatedGame) -> str:
        """The hash the database stores for the game's token (read directly, not counted)."""
        with self.database.reading() as connection:
            rows = connection.exec_driver_sql("SELECT id, token_hash FROM games").all()
        (stored,) = [hash_ for id_, hash_ in rows if uuid.UUID(str(id_)) == uuid.UUID(game.id)]
        return str(stored)


@pytest.fixture
def work(database: Database, monkeypatch: pytest.MonkeyPatch) -> Work:
    """Counters of a request's work on a game (:meth:`Work.of`); the engine's and the
    response's are counted for the whole test, and cleared as :meth:`Work.of` starts."""
    counts: Counter[str] = Counter()
    for method, name in [
        ("from_dict", "decode"),
        ("place", "engine play"),
        ("public_view", "snapshot"),
    ]:
        monkeypatch.setattr(Game, method, counted(counts, name, getattr(Game, method)))
    # A class method, so that GameCreated (a GameOut) still validates into itself.
    validate = GameOut.model_validate.__func__  # type: ignore[attr-defined]

    def render(cls: type[GameOut], *args: Any, **kwargs: Any) -> GameOut:
        counts["render"] += 1
        return validate(cls, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(GameOut, "model_validate", classmethod(render))
    return Work(counts, database)


ONCE = {
    "read": 1,
    "token check": 1,
    "decode": 1,
    "engine play": 1,
    "snapshot": 1,
    "store": 1,
    "write transaction": 1,
    "render": 1,
}
# With an Idempotency-Key, the key is claimed first, in a write transaction of its own
# (api/idempotency: the claim is seen by a concurrent retry before the work is done).
ONCE_WITH_A_KEY = {**ONCE, "write transaction": 2}


def place(
    client: TestClient, game: CreatedGame, cell: tuple[int, int], **headers: str
) -> dict[str, Any]:
    response = client.post(
        f"/games/{game.id}/placements",
        json={"row": cell[0], "col": cell[1]},
        headers={**game.auth, **headers},
    )
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_a_placement_does_each_step_once(
    client: TestClient, make_game: MakeGame, work: Work
) -> None:
    game = make_game()
    with work.of(game) as done:
        place(client, game, (0, 0))
    assert dict(done) == ONCE


def test_the_placement_that_wins_a_game_does_each_step_once(
    client: TestClient, make_game: MakeGame, work: Work
) -> None:
    line = winning_lines()[0]
    game = make_game(deck=line.deck)
    for cell in line.positions[:-1]:
        place(client, game, cell)
    with work.of(game) as done:
        answer = place(client, game, line.positions[-1])
    # Ranked once the fair-play review has put it on the boards, outside any request (its
    # runner is off here: tests/api/test_leaderboard_windows.py follows a win to its rank).
    assert answer["game"]["status"] == "won" and answer["game"]["fair_play"]["status"] == "pending"
    assert dict(done) == ONCE


def test_an_idempotent_placement_does_each_step_once_and_its_replay_only_authorizes(
    client: TestClient, make_game: MakeGame, work: Work
) -> None:
    """The claim reads the game and checks the token before the key is looked at (nothing is
    said about a key to another player's token), and the placement is played on that read:
    once each. A replay does that check and nothing else."""
    game = make_game()
    with work.of(game) as done:
        first = place(client, game, (0, 0), **{"Idempotency-Key": "once"})
    assert dict(done) == ONCE_WITH_A_KEY
    with work.of(game) as done:
        assert place(client, game, (0, 0), **{"Idempotency-Key": "once"}) == first
    assert dict(done) == {"read": 1, "token check": 1}

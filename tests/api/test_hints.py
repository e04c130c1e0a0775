"""GET /games/{id}/hint: advice from the public state, and assisted games on the leaderboard."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.settings import Settings
from tests.api.conformance import play_vector, won_vectors
from tests.conftest import CreatedGame, MakeGame
from tests.support.fairplay import boarded


@pytest.fixture
def settings(database_url: str) -> Settings:
    """A small hint budget, so that the tests stay quick."""
    return Settings(database_url=database_url, migrate_on_start=False, hint_placements=300)


def hint(client: TestClient, game: CreatedGame) -> object:
    return client.get(f"/games/{game.id}/hint", headers=game.auth)


def test_a_hint_is_a_legal_placement_with_estimates_for_every_option(
    client: TestClient, make_game: MakeGame
) -> None:
    game = make_game()
    for row, col in [(0, 0), (0, 1), (1, 1)]:
        client.post(
            f"/games/{game.id}/placements", json={"row": row, "col": col}, headers=game.auth
        )
    state = client.get(f"/games/{game.id}").json()
    response = client.get(f"/games/{game.id}/hint", headers=game.auth)
    assert response.status_code == 200
    advice = response.json()
    options = [advice["placement"]] + [option["placement"] for option in advice["alternatives"]]
    assert sorted(options, key=lambda p: (p["row"], p["col"])) == state["legal_placements"]
    for estimate in [advice, *advice["alternatives"]]:
        assert 0 <= estimate["win_probability"] <= 1
        assert 0 <= estimate["expected_score"] <= 24 * estimate["win_probability"] + 1e-9
    assert advice["policy"] == "best"
    assert advice["simulated_placements"] > 0


def test_asking_for_a_hint_marks_the_game_assisted_once(
    client: TestClient, make_game: MakeGame
) -> None:
    game = make_game()
    before = client.get(f"/games/{game.id}").json()
    assert before["assisted"] is False
    first = client.get(f"/games/{game.id}/hint", headers=game.auth)
    assert first.headers["etag"] == f'"v{before["version"] + 1}"'
    after = client.get(f"/games/{game.id}").json()
    assert after["assisted"] is True
    assert after["version"] == before["version"] + 1
    second = client.get(f"/games/{game.id}/hint", headers=game.auth)
    assert second.json() == first.json()  # deterministic for the same state
    assert client.get(f"/games/{game.id}").json()["version"] == after["version"]


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        ({}, 401, "missing_token"),
        ({"Authorization": "Bearer wrong"}, 403, "invalid_token"),
    ],
)
def test_a_hint_needs_the_games_token(
    client: TestClient, make_game: MakeGame, headers: dict[str, str], status: int, code: str
) -> None:
    game = make_game()
    response = client.get(f"/games/{game.id}/hint", headers=headers)
    assert response.status_code == status
    assert response.json()["code"] == code
    assert client.get(f"/games/{game.id}").json()["assisted"] is False


def test_no_hint_for_an_unknown_game(client: TestClient, make_game: MakeGame) -> None:
    game = make_game()
    response = client.get("/games/not-a-game/hint", headers=game.auth)
    assert response.status_code == 404


def test_no_hint_for_a_finished_game(client: TestClient, make_game: MakeGame) -> None:
    vector = won_vectors()[0]
    game = make_game(vector["deck"])
    play_vector(client, game, vector)
    response = client.get(f"/games/{game.id}/hint", headers=game.auth)
    assert response.status_code == 409
    assert response.json()["code"] == "game_over"


def test_assisted_wins_are_left_off_the_leaderboard_unless_asked_for(
    client: TestClient, make_game: MakeGame
) -> None:
    honest_vector, assisted_vector = won_vectors()[:2]
    honest = make_game(honest_vector["deck"], player="honest")
    play_vector(client, honest, honest_vector)
    boarded(client, honest.id)  # the fair-play review's; an assisted win needs none
    assisted = make_game(assisted_vector["deck"], player="helped")
    assert client.get(f"/games/{assisted.id}/hint", headers=assisted.auth).status_code == 200
    for step in assisted_vector["steps"]:
        response = client.post(
            f"/games/{assisted.id}/placements",
            json={"row": step["row"], "col": step["col"]},
            headers=assisted.auth,
        )
        assert response.status_code == 201
    assert response.json()["game"]["status"] == "won"

    default = client.get("/leaderboard").json()["entries"]
    assert [(e["player"], e["assisted"]) for e in default] == [("honest", False)]
    everyone = client.get("/leaderboard", params={"include_assisted": "true"}).json()["entries"]
    assert {(e["player"], e["assisted"]) for e in everyone} == {("honest", False), ("helped", True)}
    assert [e["rank"] for e in everyone] == [1, 2]


def test_a_cursor_belongs_to_its_listing(client: TestClient, make_game: MakeGame) -> None:
    for vector in won_vectors()[:2]:
        game = make_game(vector["deck"])
        play_vector(client, game, vector)
        boarded(client, game.id)
    cursor = client.get("/leaderboard", params={"limit": 1}).json()["next_cursor"]
    assert cursor
    assert client.get("/leaderboard", params={"limit": 1, "cursor": cursor}).status_code == 200
    other = client.get(
        "/leaderboard", params={"limit": 1, "cursor": cursor, "include_assisted": "true"}
    )
    assert other.status_code == 422

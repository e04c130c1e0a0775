"""HTTP for browsers and caches: CORS, HEAD, Cache-Control and ETags, JSON bodies only, no
redirect built from the Host header, and an OpenAPI document that lists only real answers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from tests.api.conformance import lost_vectors, play_vector, won_vectors
from tests.conftest import MakeGame
from tests.support.fairplay import boarded

ALLOWED = "https://play.example"


@pytest.fixture
def cors_client(database_url: str) -> Iterator[TestClient]:
    settings = Settings(database_url=database_url, migrate_on_start=False, cors_origins=[ALLOWED])
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        yield client


def test_cors_origins_are_read_as_a_comma_separated_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FOURSQUARE_CORS_ORIGINS", "https://a.example, https://b.example")
    assert Settings().cors_origins == ["https://a.example", "https://b.example"]
    monkeypatch.setenv("FOURSQUARE_CORS_ORIGINS", "*")
    assert Settings().cors_origins == ["*"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/games"),
        ("GET", "/games/{id}"),
        ("POST", "/games/{id}/placements"),
        ("GET", "/games/{id}/placements"),
        ("GET", "/games/{id}/hint"),
        ("GET", "/leaderboard"),
        ("HEAD", "/games/{id}"),
    ],
)
def test_a_preflight_from_an_allowed_origin_allows_every_route_and_method(
    cors_client: TestClient, make_game: MakeGame, method: str, path: str
) -> None:
    game = make_game()
    answer = cors_client.options(
        path.replace("{id}", game.id),
        headers={
            "Origin": ALLOWED,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "authorization, content-type, if-match, "
            "idempotency-key",
        },
    )
    assert answer.status_code == 200, answer.text
    assert answer.headers["access-control-allow-origin"] == ALLOWED
    assert method in answer.headers["access-control-allow-methods"]
    allowed_headers = answer.headers["access-control-allow-headers"].lower()
    for header in ("authorization", "if-match", "idempotency-key", "content-type"):
        assert header in allowed_headers
    assert "access-control-allow-credentials" not in answer.headers


def test_answers_to_an_allowed_origin_expose_the_headers_clients_need(
    cors_client: TestClient,
) -> None:
    created = cors_client.post("/games", headers={"Origin": ALLOWED})
    assert created.status_code == 201
    assert created.headers["access-control-allow-origin"] == ALLOWED
    exposed = {
        h.strip().lower() for h in created.headers["access-control-expose-headers"].split(",")
    }
    assert {"etag", "location", "retry-after", "idempotent-replayed", "x-request-id"} <= exposed


def test_another_origin_is_refused(cors_client: TestClient, client: TestClient) -> None:
    preflight = cors_client.options(
        "/games",
        headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
    )
    assert preflight.status_code == 400
    assert "access-control-allow-origin" not in preflight.headers
    # With no origins configured (the default) no answer allows any other origin.
    answer = client.post("/games", headers={"Origin": ALLOWED})
    assert "access-control-allow-origin" not in answer.headers


def test_head_answers_wherever_get_does_with_no_body(
    client: TestClient, make_game: MakeGame
) -> None:
    game = make_game()
    for path in (f"/games/{game.id}", f"/games/{game.id}/placements", "/leaderboard", "/healthz"):
        got, head = client.get(path), client.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b""
        assert head.headers.get("etag") == got.headers.get("etag")
        assert head.headers["content-type"] == got.headers["content-type"]
    assert client.head("/games/not-a-game").status_code == 404


def test_a_game_in_progress_or_won_revalidates_and_a_lost_one_is_immutable(
    client: TestClient, make_game: MakeGame
) -> None:
    vector = won_vectors()[0]
    game = make_game(deck=vector["deck"])
    read = client.get(f"/games/{game.id}")
    assert read.headers["cache-control"] == "no-cache"
    not_modified = client.get(f"/games/{game.id}", headers={"If-None-Match": read.headers["etag"]})
    assert not_modified.status_code == 304
    assert not_modified.headers["cache-control"] == "no-cache"
    play_vector(client, game, vector)
    won = client.get(f"/games/{game.id}")
    assert won.json()["status"] == "won"
    # Its fair-play review's word changes without a new version: revalidated, the word in
    # its ETag; and once on the boards its rank moves as better games finish: the rank too.
    assert won.headers["cache-control"] == "no-cache"
    assert won.headers["etag"] == f'"v{won.json()["version"]}.pending"'
    boarded(client, game.id)
    won = client.get(f"/games/{game.id}")
    assert won.headers["cache-control"] == "no-cache"
    assert won.headers["etag"] == f'"v{won.json()["version"]}.r1.clean"'
    lost_vector = lost_vectors(2)[0]
    lost = make_game(deck=lost_vector["deck"])
    play_vector(client, lost, lost_vector)
    final = client.get(f"/games/{lost.id}")
    assert final.json()["status"] == "lost"
    assert final.headers["cache-control"] == "public, max-age=31536000, immutable"


def test_the_history_has_an_etag_that_changes_with_each_placement(
    client: TestClient, make_game: MakeGame
) -> None:
    game = make_game()
    before = client.get(f"/games/{game.id}/placements")
    tag = before.headers["etag"]
    assert (
        client.get(f"/games/{game.id}/placements", headers={"If-None-Match": tag}).status_code
        == 304
    )
    client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=game.auth)
    after = client.get(f"/games/{game.id}/placements", headers={"If-None-Match": tag})
    assert after.status_code == 200 and after.headers["etag"] != tag
    assert len(after.json()["placements"]) == 1


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("text/plain", b'{"row": 0, "col": 0}'),
        ("application/x-www-form-urlencoded", b"row=0&col=0"),
    ],
)
def test_a_body_that_is_not_json_is_415(
    client: TestClient, make_game: MakeGame, content_type: str, body: bytes
) -> None:
    game = make_game()
    for path in ("/games", f"/games/{game.id}/placements"):
        answer = client.post(
            path, content=body, headers={**game.auth, "Content-Type": content_type}
        )
        assert answer.status_code == 415, answer.text
        assert answer.json()["code"] == "unsupported_media_type"
    assert client.get(f"/games/{game.id}").json()["placements_count"] == 0
    assert client.post("/games").status_code == 201  # no body at all is fine


def test_a_trailing_slash_is_404_and_never_a_redirect_to_the_host_header(
    client: TestClient,
) -> None:
    answer = client.get("/leaderboard/", headers={"Host": "evil.example"}, follow_redirects=False)
    assert answer.status_code == 404
    assert "location" not in answer.headers
    assert "evil.example" not in answer.text


def test_the_document_lists_only_answers_that_can_happen(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in client.get("/openapi.json").text
    read = document["paths"]["/games/{game_id}"]["get"]["responses"]
    assert "422" not in read
    place = document["paths"]["/games/{game_id}/placements"]["post"]["responses"]
    assert "WWW-Authenticate" in place["401"]["headers"]
    assert "Retry-After" in place["409"]["headers"] and "Retry-After" in place["503"]["headers"]

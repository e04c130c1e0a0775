"""The OpenAPI document is complete enough to write a client from."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.core.errors import ApiError
from api.games.errors import PlacementRefused

ROUTES = {
    ("post", "/races"): {403, 409, 422, 503},
    ("post", "/races/{race_id}/racers"): {403, 404, 409, 422, 503},
    ("post", "/races/{race_id}/start"): {403, 404, 409, 503},
    ("get", "/races/{race_id}"): {403, 404, 503},
    ("post", "/races/{race_id}/leave"): {403, 404, 409, 503},
    ("post", "/races/{race_id}/rematch"): {403, 404, 409, 503},
    ("get", "/races/{race_id}/events"): {404, 422, 503},
    ("get", "/players/{name}/races"): {404, 503},
    ("post", "/tournaments"): {401, 403, 422, 429, 503},
    ("get", "/tournaments"): {422, 429, 503},
    ("get", "/tournaments/{tournament_id}"): {403, 404, 429, 503},
    ("patch", "/tournaments/{tournament_id}"): {401, 403, 404, 409, 422, 429, 503},
    ("post", "/tournaments/{tournament_id}/cancel"): {401, 403, 404, 409, 429, 503},
    ("post", "/tournaments/{tournament_id}/entrants"): {403, 404, 409, 422, 429, 503},
    ("delete", "/tournaments/{tournament_id}/entrants/me"): {401, 403, 404, 409, 429, 503},
    ("post", "/tournaments/{tournament_id}/games"): {401, 403, 404, 409, 429, 503},
    ("get", "/tournaments/{tournament_id}/standings"): {404, 422, 429, 503},
    ("get", "/tournaments/{tournament_id}/events"): {404, 422, 429, 503},
    ("get", "/players/{name}/tournaments"): {404, 422, 429, 503},
    ("post", "/games"): {401, 403, 409, 413, 422, 503},
    ("get", "/games/{game_id}"): {403, 404, 503},
    ("post", "/games/{game_id}/placements"): {401, 403, 404, 409, 413, 422, 503},
    ("get", "/games/{game_id}/placements"): {403, 404, 503},
    ("get", "/games/{game_id}/hint"): {401, 403, 404, 409, 503},
    ("get", "/leaderboard"): {404, 422, 503},
    ("get", "/readyz"): {503},
    ("post", "/players"): {409, 413, 422, 503},
    ("get", "/players/{name}"): {404, 503},
    ("get", "/players/me"): {401, 403, 503},
    ("post", "/players/{name}/key"): {401, 403, 404, 503},
    ("get", "/players/{name}/credentials"): {401, 403, 404, 503},
    ("post", "/players/{name}/keys"): {401, 403, 404, 413, 422, 503},
    ("delete", "/players/{name}/keys/{key_id}"): {401, 403, 404, 409, 422, 503},
    ("post", "/players/{name}/recovery-codes"): {401, 403, 404, 503},
    ("post", "/players/{name}/passkey-options"): {401, 403, 404, 503},
    ("post", "/players/{name}/passkeys"): {401, 403, 404, 413, 422, 503},
    ("delete", "/players/{name}/passkeys/{passkey_id}"): {401, 403, 404, 422, 503},
    ("post", "/sign-in/recovery-code"): {403, 404, 413, 422, 429, 503},
    ("post", "/sign-in/passkey/options"): {429, 503},
    ("post", "/sign-in/passkey"): {403, 413, 422, 429, 503},
    ("get", "/players/{name}/games"): {404, 422, 503},
    ("get", "/healthz"): set(),
    ("get", "/challenges/today"): {403, 503},
    ("get", "/challenges/{day}"): {403, 404, 422, 503},
    ("post", "/games/{game_id}/analysis"): {404, 409, 503},
    ("get", "/games/{game_id}/analysis"): {404, 409, 503},
    ("get", "/leaderboard/around/{game_id}"): {404, 409, 422, 503},
    ("get", "/games/{game_id}/events"): {403, 404, 422, 429, 503},
    ("get", "/events"): {429, 503},
    ("get", "/games"): {422, 429, 503},
    ("get", "/moderation/queue"): {401, 403, 422, 503},
    ("get", "/moderation/games/{game_id}"): {401, 403, 404, 503},
    ("post", "/moderation/games/{game_id}"): {401, 403, 404, 409, 413, 422, 503},
    ("get", "/moderation/players/{name}"): {401, 403, 404, 503},
    ("post", "/moderation/players/{name}"): {401, 403, 404, 409, 413, 422, 503},
}


@pytest.fixture
def spec(client: TestClient) -> dict[str, Any]:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


def test_every_route_is_documented(spec: dict[str, Any]) -> None:
    operations = {
        (method, path): operation
        for path, item in spec["paths"].items()
        for method, operation in item.items()
    }
    assert set(operations) == set(ROUTES)
    for key, operation in operations.items():
        assert operation.get("summary"), key
        # operationIds are the route functions' names, which the documented links use.
        assert operation["operationId"].replace("_", "").isalpha(), key


def test_every_error_response_is_declared_as_a_problem(spec: dict[str, Any]) -> None:
    for (method, path), statuses in ROUTES.items():
        responses = spec["paths"][path][method]["responses"]
        for status in statuses:
            declared = responses[str(status)]
            assert declared["description"], (path, status)
            schema = declared["content"]["application/problem+json"]["schema"]
            assert schema["$ref"] == "#/components/schemas/Problem", (path, status)


def test_request_and_response_examples_are_given(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    for name in (
        "GameCreate",
        "PlacementIn",
        "GameOut",
        "GameCreated",
        "PlacementOut",
        "Leaderboard",
        "Problem",
        "CardOut",
        "PlayerCreate",
        "PlayerCreated",
        "PlayerOut",
        "PlayerKey",
        "PlayerGames",
        "DailyChallenge",
    ):
        assert schemas[name].get("examples"), name


# Each error code of the player routes is shown with an example problem.
PROBLEM_EXAMPLES = {
    ("post", "/players", "409"): "name_taken",
    ("post", "/players", "422"): "invalid_player_name",
    ("get", "/players/{name}", "404"): "player_not_found",
    ("post", "/players/{name}/key", "401"): "missing_token",
    ("post", "/players/{name}/key", "403"): "invalid_token",
    ("get", "/players/{name}/games", "422"): "invalid_cursor",
    ("delete", "/players/{name}/keys/{key_id}", "404"): "key_not_found",
    ("delete", "/players/{name}/keys/{key_id}", "409"): "last_key",
    ("post", "/sign-in/recovery-code", "403"): "invalid_recovery_code",
    ("post", "/sign-in/recovery-code", "404"): "player_not_found",
    ("post", "/sign-in/recovery-code", "429"): "sign_in_limited",
    ("post", "/sign-in/passkey", "403"): "passkey_refused",
    ("post", "/games", "409"): "name_taken",
    ("post", "/games", "422"): "player_name_mismatch",
    # The daily challenge's.
    ("post", "/games", "401"): "player_key_required",
    ("post", "/games", "409 "): "challenge_already_played",
    ("get", "/games/{game_id}", "403"): "challenge_game_private",
    ("get", "/games/{game_id}/placements", "403"): "challenge_game_private",
    ("post", "/games/{game_id}/placements", "409"): "challenge_closed",
    ("get", "/games/{game_id}/hint", "403"): "challenge_no_hints",
    ("get", "/challenges/{day}", "404"): "challenge_not_open",
    ("get", "/challenges/{day}", "422"): "invalid_challenge_date",
    ("get", "/leaderboard", "404"): "challenge_not_open",
    ("get", "/leaderboard", "422"): "invalid_challenge_date",
    ("post", "/games/{game_id}/analysis", "409"): "game_in_progress",
    ("get", "/games/{game_id}/analysis", "409"): "game_in_progress",
    ("get", "/games/{game_id}/analysis", "404"): "analysis_not_found",
    ("post", "/games/{game_id}/analysis", "409 "): "challenge_day_open",
    ("get", "/games/{game_id}/analysis", "409 "): "challenge_day_open",
}


def test_player_errors_are_documented_with_examples(spec: dict[str, Any]) -> None:
    for (method, path, padded), code in PROBLEM_EXAMPLES.items():
        status = padded.strip()  # (a trailing space keeps a second code of a status apart)
        declared = spec["paths"][path][method]["responses"][status]
        assert f"`{code}`" in declared["description"], (path, status)
        example = declared["content"]["application/problem+json"]["examples"][code]["value"]
        assert example["code"] == code and example["status"] == int(status), (path, status)


def test_docs_pages_are_served(client: TestClient) -> None:
    for path in ("/docs", "/redoc"):
        response = client.get(path)
        assert response.status_code == 200
        assert "text/html" in response.headers["content-type"]


HEADERS = {
    ("post", "/games"): ["idempotency-key"],
    ("get", "/games/{game_id}"): ["if-none-match"],
    ("post", "/games/{game_id}/placements"): ["if-match", "idempotency-key"],
    ("get", "/games/{game_id}/hint"): [],
    ("post", "/players"): ["idempotency-key"],
    ("post", "/players/{name}/key"): ["idempotency-key"],
    ("post", "/races"): ["idempotency-key"],
    ("post", "/races/{race_id}/racers"): ["idempotency-key"],
    ("post", "/races/{race_id}/rematch"): ["idempotency-key"],
    ("post", "/tournaments/{tournament_id}/entrants"): ["idempotency-key"],
}
# Answers carrying a secret shown once, retried with an Idempotency-Key for it: a random UUID,
# unless the fingerprint holds the credential the secret is replayed to.
RETRIED_SECRETS = {
    ("post", "/games"): "201",
    ("post", "/players"): "201",
    ("post", "/players/{name}/key"): "200",
    ("post", "/races"): "201",
    ("post", "/races/{race_id}/racers"): "201",
    ("post", "/races/{race_id}/rematch"): "201",
    ("post", "/tournaments/{tournament_id}/entrants"): "201",
}
AUTHENTICATED = {("post", "/games/{game_id}/placements"), ("get", "/games/{game_id}/hint")}
PLAYER_AUTHENTICATED = {
    ("post", "/players/{name}/key"),
    ("get", "/players/me"),
    ("get", "/players/{name}/credentials"),
    ("post", "/players/{name}/keys"),
    ("delete", "/players/{name}/keys/{key_id}"),
    ("post", "/players/{name}/recovery-codes"),
    ("post", "/players/{name}/passkey-options"),
    ("post", "/players/{name}/passkeys"),
    ("delete", "/players/{name}/passkeys/{passkey_id}"),
}
# A player's key, or none.
# A racer's credential (a guest's racer token or an account's key), or none for a read.
RACER = {
    ("post", "/races/{race_id}/start"),
    ("post", "/races/{race_id}/leave"),
    ("post", "/races/{race_id}/rematch"),
}
# An operator's credential (FOURSQUARE_OPERATOR_KEYS), as the moderators'.
OPERATOR = {
    ("post", "/tournaments"),
    ("patch", "/tournaments/{tournament_id}"),
    ("post", "/tournaments/{tournament_id}/cancel"),
}
# An entrant's credential (a guest's tournament token or an account's key).
ENTRANT = {
    ("delete", "/tournaments/{tournament_id}/entrants/me"),
    ("post", "/tournaments/{tournament_id}/games"),
}
PLAYER_OPTIONAL = {
    ("post", "/tournaments/{tournament_id}/entrants"),
    ("post", "/races"),
    ("post", "/races/{race_id}/racers"),
    ("post", "/games"),
    ("get", "/challenges/today"),
    ("get", "/challenges/{day}"),
}
PRIVATE_WHILE_CHALLENGE_OPEN = {
    ("get", "/games/{game_id}"),
    ("get", "/games/{game_id}/placements"),
    ("get", "/games/{game_id}/events"),
}


def _string_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The string alternative of an optional header's schema."""
    options = schema.get("anyOf", [schema])
    strings: list[dict[str, Any]] = [o for o in options if o.get("type") == "string"]
    assert len(strings) == 1, schema
    return strings[0]


def test_the_headers_each_route_reads_are_documented(spec: dict[str, Any]) -> None:
    for (method, path), names in HEADERS.items():
        parameters = spec["paths"][path][method].get("parameters", [])
        headers = {p["name"]: p for p in parameters if p["in"] == "header"}
        assert sorted(headers) == sorted(names), (method, path)
        for header in headers.values():
            assert header["required"] is False
            _string_schema(header["schema"])
    creation = next(
        p for p in spec["paths"]["/games"]["post"]["parameters"] if p["name"] == "idempotency-key"
    )
    # A creation key is a random UUID: the document says so, and the service holds to it.
    assert creation["schema"]["format"] == "uuid"
    pattern = re.compile(creation["schema"]["pattern"])
    assert pattern.search(str(uuid.uuid4())) and not pattern.search(str(uuid.uuid1()))
    placement = next(
        p
        for p in spec["paths"]["/games/{game_id}/placements"]["post"]["parameters"]
        if p["name"] == "idempotency-key"
    )
    assert _string_schema(placement["schema"]) | {"title": None} == {
        "type": "string",
        "minLength": 1,
        "maxLength": 255,
        "pattern": r"^[\x21-\x7e]+$",
        "title": None,
    }


def test_retried_secrets_document_their_key_replays_and_refusals(spec: dict[str, Any]) -> None:
    for (method, path), status in RETRIED_SECRETS.items():
        operation = spec["paths"][path][method]
        key = next(p for p in operation["parameters"] if p["name"] == "idempotency-key")
        if path != "/races/{race_id}/rematch":  # replayed only to the same racer's credential
            assert key["schema"]["format"] == "uuid", path
        assert "Idempotent-Replayed" in operation["responses"][status]["headers"], path
        codes = json.dumps(operation["responses"])
        for code in ("idempotency_key_reused", "request_in_progress", "invalid_request"):
            assert f"`{code}`" in codes, (path, code)


def test_the_game_token_is_an_http_bearer_security_scheme(spec: dict[str, Any]) -> None:
    schemes = spec["components"]["securitySchemes"]
    assert schemes["GameToken"]["type"] == "http"
    assert schemes["GameToken"]["scheme"] == "bearer"
    assert schemes["PlayerKey"]["type"] == "http"
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            security = operation.get("security")
            if (method, path) in AUTHENTICATED:
                assert security == [{"GameToken": []}], (method, path)
            elif (method, path) in PLAYER_OPTIONAL:  # a key, or none (a guest)
                assert security == [{"PlayerKey": []}, {}], (method, path)
            elif (method, path) in PRIVATE_WHILE_CHALLENGE_OPEN:  # a token, or none
                assert security == [{"GameToken": []}, {}], (method, path)
            elif (method, path) in PLAYER_AUTHENTICATED:
                assert security == [{"PlayerKey": []}], (method, path)
            elif (method, path) in RACER:
                assert security == [{"RacerToken": []}], (method, path)
            elif (method, path) == ("get", "/races/{race_id}"):
                assert security == [{"RacerToken": []}, {}], (method, path)
            elif (method, path) in ENTRANT:
                assert security == [{"EntrantToken": []}], (method, path)
            elif (method, path) == ("get", "/tournaments/{tournament_id}"):
                assert security == [{"EntrantToken": []}, {}], (method, path)
            elif path.startswith("/moderation/") or (method, path) in OPERATOR:
                assert security == [{"OperatorKey": []}], (method, path)
            else:
                assert security is None, (method, path)


def test_the_documents_intro_says_what_it_is_once_and_links_back_to_the_game(
    client: TestClient,
) -> None:
    info = client.get("/openapi.json").json()["info"]
    assert info["summary"] == "A JSON REST API for Foursquare, a one-player card game by Wil Su."
    description = info["description"]
    assert "one-player card game" not in description  # the summary says it
    first_line = description.strip().splitlines()[0]
    assert "[Back to the game](/)" in first_line


def test_every_error_says_what_it_means(spec: dict[str, Any]) -> None:
    # The document describes each error by its class's docstring.
    for error in ApiError.__subclasses__():
        assert error.__doc__ and error.__doc__.strip(), error.__name__
    declared = spec["paths"]["/games/{game_id}/placements"]["post"]["responses"]["422"]
    assert all(f"`{code}`" in declared["description"] for code in PlacementRefused.codes())

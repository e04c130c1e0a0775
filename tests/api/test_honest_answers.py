"""What a refusal says, on a real ``foursquare serve`` over HTTP, on both databases: it echoes
at most 256 characters of any value of the request (a 30,000-character If-Match, a
3,900-character field name, a name, a date); a 405 names every method its path is served
with, HEAD included, and a file that does not exist is 404 whatever the method; every route
that takes a name refuses one outside the rule in one voice, ``invalid_player_name`` with the
rule in words and the same hints."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from api.core.errors import CUT_MARK, MAX_ECHO_CHARS
from testkit.server import running_server

pytestmark = pytest.mark.slow

# Small: the problem's fields, the rule's words and one echo of 256 characters (a few bytes
# each once quoted).
SMALL = 2048


@pytest.fixture
def http(database_url: str) -> Iterator[httpx.Client]:
    with (
        running_server(database_url) as server,
        httpx.Client(base_url=server.base_url, timeout=30) as client,
    ):
        yield client


def problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text[:500]
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    assert body["request_id"] == response.headers["x-request-id"]
    return body


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def test_no_refusal_echoes_more_than_256_characters_of_a_value(http: httpx.Client) -> None:
    game = http.post("/games").json()
    long_tag = '"' + "x" * 30_000 + '"'
    refused = http.post(
        f"/games/{game['id']}/placements",
        json={"row": 0, "col": 0},
        headers={**bearer(game["token"]), "If-Match": long_tag},
    )
    body = problem(refused, 412, "precondition_failed")
    assert len(refused.content) < SMALL, len(refused.content)
    assert long_tag[:MAX_ECHO_CHARS] + CUT_MARK in body["detail"]

    field = "f" * 3_900
    unknown = http.post("/games", json={"player": "ana", field: 1})
    body = problem(unknown, 422, "invalid_request")
    assert len(unknown.content) < SMALL, len(unknown.content)
    assert body["errors"][-1]["loc"] == ["body", "f" * MAX_ECHO_CHARS + CUT_MARK]

    for answer, status, code in (
        (http.post("/players", json={"name": "n" * 3_000}), 422, "invalid_player_name"),
        (http.get("/leaderboard", params={"period": "day", "date": "9" * 3_000}), 422, None),
        (http.get("/challenges/" + "9" * 3_000), 422, "invalid_challenge_date"),
        (http.get("/games/" + "g" * 3_000), 404, "game_not_found"),
        (http.get("/players/" + "p" * 3_000), 404, "player_not_found"),
    ):
        assert answer.status_code == status, answer.text[:300]
        if code is not None:
            problem(answer, status, code)
        assert len(answer.content) < SMALL, (answer.request.url.path[:40], len(answer.content))


# Paths the service serves with GET (and so HEAD) alone, documented or not.
GET_ONLY = ["/", "/docs", "/redoc", "/openapi.json", "/metrics", "/healthz", "/static/app.css"]


def allowed(response: httpx.Response) -> set[str]:
    return {method.strip() for method in response.headers["allow"].split(",")}


def test_a_405_names_every_method_of_its_path(http: httpx.Client) -> None:
    for path in GET_ONLY:
        assert http.get(path).status_code == 200, path
        assert http.head(path).status_code == 200, path
        for method in ("DELETE", "PUT", "POST"):
            refused = http.request(method, path)
            problem(refused, 405, "method_not_allowed")
            assert allowed(refused) == {"GET", "HEAD"}, (method, path)
    game = http.post("/games").json()
    for path, methods in (
        ("/games", {"GET", "HEAD", "POST"}),
        (f"/games/{game['id']}/placements", {"GET", "HEAD", "POST"}),
        (f"/games/{game['id']}", {"GET", "HEAD"}),
    ):
        refused = http.request("PATCH", path)
        problem(refused, 405, "method_not_allowed")
        assert allowed(refused) == methods, path


def test_a_file_that_does_not_exist_is_404_whatever_the_method(http: httpx.Client) -> None:
    for path in ("/static/app.js", "/static/nope/deeper.css", "/vendor/nothing.js"):
        for method in ("GET", "HEAD", "DELETE", "POST", "PUT"):
            missing = http.request(method, path)
            assert missing.status_code == 404, (method, path, missing.status_code)


# Names outside the rule, each with what the refusal must say beyond the rule.
OUTSIDE = [
    ("\uff21\uff2e\uff21", "(write it as 'ANA')"),  # full-width: the hint
    ("an\u200ba", ""),
    ("123", "letter"),
    ("ab", ""),
    ("a b c", ""),
]


@pytest.mark.parametrize(("name", "says"), OUTSIDE)
def test_every_route_that_takes_a_name_refuses_it_in_one_voice(
    http: httpx.Client, name: str, says: str
) -> None:
    account = problem(http.post("/players", json={"name": name}), 422, "invalid_player_name")
    assert "3 to 24 ASCII letters" in account["detail"] and says in account["detail"]
    assert "[" not in account["detail"], account  # the rule in words, no regular expression
    lobby = http.post("/races", json={"player": "opener"}).json()
    key = http.post("/players", json={"name": "zed"}).json()["key"]
    others = {
        "guest's game": http.post("/games", json={"player": name}),
        "keyed game": http.post("/games", json={"player": name}, headers=bearer(key)),
        "race opened": http.post("/races", json={"player": name}),
        "race joined": http.post(f"/races/{lobby['id']}/racers", json={"player": name}),
    }
    for route, answer in others.items():
        refused = problem(answer, 422, "invalid_player_name")
        assert refused["detail"] == account["detail"], route
        assert "errors" not in refused, route


def test_the_document_shows_one_rule_for_every_name(http: httpx.Client) -> None:
    document = http.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    rules = [
        schemas["PlayerCreate"]["properties"]["name"],
        schemas["GameCreate"]["properties"]["player"],
        next(s for s in schemas["RacerIn"]["properties"]["player"]["anyOf"] if "pattern" in s),
        next(s for s in schemas["RaceCreate"]["properties"]["player"]["anyOf"] if "pattern" in s),
    ]
    shapes = {(r["pattern"], r["minLength"], r["maxLength"]) for r in rules}
    assert len(shapes) == 1, shapes
    for path, method in (("/players", "post"), ("/games", "post"), ("/races", "post")):
        declared = document["paths"][path][method]["responses"]["422"]
        assert "`invalid_player_name`" in declared["description"], path
    joined = document["paths"]["/races/{race_id}/racers"]["post"]["responses"]["422"]
    assert "`invalid_player_name`" in joined["description"]

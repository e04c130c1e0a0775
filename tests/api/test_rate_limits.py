"""Rate limits in one process: per address, per credential, the 429 problem, the RateLimit
fields, and which address X-Forwarded-For may name."""

from __future__ import annotations

import ipaddress
import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from api.app import create_app
from api.ops.ratelimit import client_address
from api.settings import Settings

Client = Callable[..., Any]

PROXY = ("10.0.0.9", 40000)
LIMITED_ROUTES = {
    ("/moderation/queue", "get"),
    ("/moderation/games/{game_id}", "get"),
    ("/moderation/games/{game_id}", "post"),
    ("/moderation/players/{name}", "get"),
    ("/moderation/players/{name}", "post"),
    ("/games", "post"),
    ("/games", "get"),
    ("/games/{game_id}/events", "get"),
    ("/events", "get"),
    ("/games/{game_id}", "get"),
    ("/games/{game_id}/placements", "post"),
    ("/games/{game_id}/placements", "get"),
    ("/games/{game_id}/hint", "get"),
    ("/leaderboard", "get"),
    ("/leaderboard/around/{game_id}", "get"),
    ("/players", "post"),
    ("/players/{name}", "get"),
    ("/players/me", "get"),
    ("/players/{name}/key", "post"),
    ("/players/{name}/games", "get"),
    ("/challenges/today", "get"),
    ("/challenges/{day}", "get"),
    ("/games/{game_id}/analysis", "post"),
    ("/games/{game_id}/analysis", "get"),
    ("/races", "post"),
    ("/races/{race_id}/racers", "post"),
    ("/races/{race_id}/leave", "post"),
    ("/races/{race_id}/start", "post"),
    ("/races/{race_id}", "get"),
    ("/races/{race_id}/rematch", "post"),
    ("/races/{race_id}/events", "get"),
    ("/players/{name}/races", "get"),
    ("/players/{name}/credentials", "get"),
    ("/players/{name}/keys", "post"),
    ("/players/{name}/keys/{key_id}", "delete"),
    ("/players/{name}/recovery-codes", "post"),
    ("/players/{name}/passkey-options", "post"),
    ("/players/{name}/passkeys", "post"),
    ("/players/{name}/passkeys/{passkey_id}", "delete"),
    ("/sign-in/recovery-code", "post"),
    ("/sign-in/passkey/options", "post"),
    ("/sign-in/passkey", "post"),
    ("/races/open", "get"),
    ("/races/open/events", "get"),
    ("/tournaments", "post"),
    ("/tournaments", "get"),
    ("/tournaments/{tournament_id}", "get"),
    ("/tournaments/{tournament_id}", "patch"),
    ("/tournaments/{tournament_id}/cancel", "post"),
    ("/tournaments/{tournament_id}/entrants", "post"),
    ("/tournaments/{tournament_id}/entrants/me", "delete"),
    ("/tournaments/{tournament_id}/games", "post"),
    ("/tournaments/{tournament_id}/standings", "get"),
    ("/tournaments/{tournament_id}/events", "get"),
    ("/players/{name}/tournaments", "get"),
    ("/tournament-schedules", "get"),
    ("/tournament-schedules", "post"),
    ("/tournament-schedules/{schedule_id}", "get"),
    ("/tournament-schedules/{schedule_id}", "delete"),
}


@pytest.fixture
def limited_app(sqlite_url: str) -> Callable[..., Any]:
    """An app with rate limits on (the suite turns them off by default) and these settings;
    every limit is generous unless the test names it."""

    def build(**overrides: Any) -> Any:
        options: dict[str, Any] = {
            "database_url": sqlite_url,
            "migrate_on_start": False,
            "rate_limit_enabled": True,
            **{
                f"rate_limit_{category}{suffix}": "1000/minute"
                for category in ("create", "place", "hint", "read")
                for suffix in ("", "_per_address")
            },
        }
        options.update(overrides)
        return create_app(Settings(**options))

    return build


@contextmanager
def client_of(app: Any, peer: tuple[str, int] = ("192.0.2.1", 50000)) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False, client=peer) as test_client:
        yield test_client


def new_game(http: TestClient, **headers: str) -> tuple[str, dict[str, str]]:
    created = http.post("/games", headers=headers)
    assert created.status_code == 201, created.text
    return created.json()["id"], {"Authorization": f"Bearer {created.json()['token']}"}


def place_next(http: TestClient, game_id: str, auth: dict[str, str], **headers: str) -> Any:
    """Place the current card at its first legal placement (read before, with the token)."""
    game = http.get(f"/games/{game_id}").json()
    target = game["legal_placements"][0]
    return http.post(f"/games/{game_id}/placements", json=target, headers={**auth, **headers})


def fields(response: httpx.Response, name: str) -> dict[str, dict[str, int]]:
    """A RateLimit or RateLimit-Policy field as {policy: {parameter: value}}."""
    parsed = {}
    for item in response.headers[name].split(","):
        policy, *parameters = item.strip().split(";")
        parsed[policy.strip('"')] = {
            key: int(value) for key, value in (parameter.split("=") for parameter in parameters)
        }
    return parsed


def test_two_tokens_from_one_address_are_limited_separately(limited_app: Client) -> None:
    app = limited_app(rate_limit_place="3/minute")
    with client_of(app) as http:
        first, first_auth = new_game(http)
        second, second_auth = new_game(http)
        for _ in range(3):
            assert place_next(http, first, first_auth).status_code == 201
        refused = place_next(http, first, first_auth)
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited"
        assert "place-credential" in refused.json()["detail"]
        # The refused placement changed nothing.
        assert http.get(f"/games/{first}").json()["placements_count"] == 3
        for _ in range(3):
            assert place_next(http, second, second_auth).status_code == 201


def test_the_address_limit_counts_every_credential(limited_app: Client) -> None:
    app = limited_app(rate_limit_place_per_address="3/minute")
    with client_of(app) as http:
        first, first_auth = new_game(http)
        second, second_auth = new_game(http)
        assert place_next(http, first, first_auth).status_code == 201
        assert place_next(http, second, second_auth).status_code == 201
        assert place_next(http, first, first_auth).status_code == 201
        refused = place_next(http, second, second_auth)
        assert refused.status_code == 429
        assert "place-address" in refused.json()["detail"]
        assert http.get(f"/games/{second}").json()["placements_count"] == 1
    with client_of(app, ("192.0.2.2", 50000)) as other:
        assert place_next(other, second, second_auth).status_code == 201


def test_a_refusal_is_a_problem_with_retry_after_and_ratelimit_fields(
    limited_app: Client,
) -> None:
    app = limited_app(rate_limit_hint="2/minute")
    with client_of(app) as http:
        game_id, auth = new_game(http)
        assert http.get(f"/games/{game_id}/hint", headers=auth).status_code == 200
        assert http.get(f"/games/{game_id}/hint", headers=auth).status_code == 200
        refused = http.get(f"/games/{game_id}/hint", headers=auth)
    assert refused.status_code == 429
    assert refused.headers["content-type"] == "application/problem+json"
    body = refused.json()
    assert body["type"] == "urn:foursquare:problem:rate_limited"
    assert (body["status"], body["title"]) == (429, "Too many requests")
    assert body["instance"] == f"/games/{game_id}/hint"
    retry_after = int(refused.headers["retry-after"])
    assert 1 <= retry_after <= 60
    assert fields(refused, "RateLimit-Policy")["hint-credential"] == {"q": 2, "w": 60}
    state = fields(refused, "RateLimit")
    assert state["hint-credential"]["r"] == 0
    assert state["hint-credential"]["t"] == retry_after
    assert state["hint-address"]["r"] == 1000 - 3


def test_ratelimit_fields_count_down_on_allowed_answers(limited_app: Client) -> None:
    app = limited_app(rate_limit_read_per_address="4/minute")
    with client_of(app) as http:
        answers = [http.get("/leaderboard") for _ in range(5)]
        health = http.get("/healthz")
    assert [answer.status_code for answer in answers] == [200, 200, 200, 200, 429]
    for answer in answers:
        assert fields(answer, "RateLimit-Policy") == {"read-address": {"q": 4, "w": 60}}
    assert [fields(answer, "RateLimit")["read-address"]["r"] for answer in answers] == [
        3,
        2,
        1,
        0,
        0,
    ]
    assert all(0 <= fields(answer, "RateLimit")["read-address"]["t"] <= 60 for answer in answers)
    # Liveness is never limited, and says nothing about limits.
    assert health.status_code == 200
    assert "ratelimit" not in health.headers


def test_forwarded_for_is_ignored_from_an_untrusted_peer(limited_app: Client) -> None:
    app = limited_app(rate_limit_create_per_address="2/minute")
    with client_of(app, PROXY) as http:
        codes = [
            http.post("/games", headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code
            for n in range(3)
        ]
    assert codes == [201, 201, 429]


def test_forwarded_for_is_honoured_from_a_trusted_proxy(limited_app: Client) -> None:
    app = limited_app(rate_limit_create_per_address="2/minute", trusted_proxies="10.0.0.0/8")
    with client_of(app, PROXY) as http:

        def create(forwarded_for: str) -> int:
            response = http.post("/games", headers={"X-Forwarded-For": forwarded_for})
            status: int = response.status_code
            return status

        assert create("198.51.100.1") == 201
        # The client may write anything to the left; the proxy's own entry is the right-most.
        assert create("203.0.113.50, 198.51.100.1") == 201
        assert create("203.0.113.77, 198.51.100.1") == 429
        # Another client behind the same proxy has its own limit.
        assert create("198.51.100.2") == 201
        # A second trusted hop: the right-most untrusted entry is still the client.
        assert create("198.51.100.2, 10.1.2.3") == 201
        assert create("198.51.100.2, 10.1.2.3") == 429


def test_one_token_from_two_addresses_shares_its_limit(limited_app: Client) -> None:
    app = limited_app(rate_limit_place="3/minute", trusted_proxies="10.0.0.9")
    with client_of(app, PROXY) as http:
        game_id, auth = new_game(http)
        codes = [
            place_next(http, game_id, auth, **{"X-Forwarded-For": f"198.51.100.{n % 2}"})
            for n in range(4)
        ]
    assert [response.status_code for response in codes] == [201, 201, 201, 429]
    assert "place-credential" in codes[-1].json()["detail"]


@pytest.mark.parametrize(
    ("peer", "forwarded_for", "expected"),
    [
        ("192.0.2.1", ["198.51.100.1"], "192.0.2.1"),  # untrusted peer: the header is ignored
        ("10.0.0.9", [], "10.0.0.9"),  # trusted peer, no header: the proxy itself
        ("10.0.0.9", ["1.1.1.1, 198.51.100.1"], "198.51.100.1"),
        ("10.0.0.9", ["198.51.100.1, 10.0.0.2", "10.0.0.3"], "198.51.100.1"),  # two fields
        ("10.0.0.9", ["10.0.0.1, 10.0.0.2"], "10.0.0.1"),  # all trusted: the left-most
        ("::ffff:10.0.0.9", ["2001:db8::1"], "2001:db8::1"),  # IPv4-mapped peer
        ("testclient", ["198.51.100.1"], "testclient"),  # not an address: as it is
    ],
)
def test_client_address(peer: str, forwarded_for: list[str], expected: str) -> None:
    trusted = [ipaddress.ip_network("10.0.0.0/8")]
    assert client_address(peer, forwarded_for, trusted) == expected


def test_limits_can_be_turned_off(limited_app: Client) -> None:
    app = limited_app(rate_limit_enabled=False, rate_limit_create_per_address="1/minute")
    with client_of(app) as http:
        answers = [http.post("/games") for _ in range(3)]
    assert [answer.status_code for answer in answers] == [201, 201, 201]
    assert "ratelimit" not in answers[0].headers


def test_an_unreachable_redis_falls_back_to_limits_in_this_process(
    limited_app: Client, caplog: pytest.LogCaptureFixture
) -> None:
    # Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    app = limited_app(rate_limit_create_per_address="2/minute", redis_url="redis://127.0.0.1:9/0")
    with caplog.at_level(logging.WARNING, "foursquare.ratelimit"), client_of(app) as http:
        codes = [http.post("/games").status_code for _ in range(3)]
    assert codes == [201, 201, 429]
    assert [r.getMessage() for r in caplog.records if "Redis unreachable" in r.getMessage()]


def test_limited_routes_declare_429_in_the_openapi_document(limited_app: Client) -> None:
    with client_of(limited_app()) as http:
        paths = http.get("/openapi.json").json()["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            declared = "429" in operation["responses"]
            assert declared == ((path, method) in LIMITED_ROUTES), (path, method)
            if declared:
                headers = operation["responses"]["429"]["headers"]
                assert {"Retry-After", "RateLimit", "RateLimit-Policy"} <= set(headers)


def test_a_malformed_limit_is_refused_at_start_naming_the_setting() -> None:
    with pytest.raises(ValidationError, match=re.compile("rate_limit_place.*30/minute", re.S)):
        Settings(rate_limit_place="lots")

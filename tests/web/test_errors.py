"""Every API error is shown in words, with what to do next (never an HTTP status, a problem
code or an ETag); a 503 is retried after its Retry-After, and the page says so."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from testkit.server import Server
from tests.web.pages import assert_page_shows, place_button, start_game

pytestmark = [pytest.mark.slow, pytest.mark.provokes_errors]


def problem(status: int, code: str, title: str, detail: str, **extra: object) -> str:
    return json.dumps(
        {
            "type": f"urn:foursquare:problem:{code}",
            "title": title,
            "status": status,
            "detail": detail,
            "code": code,
            **extra,
        }
    )


def test_a_503_is_shown_and_retried_after_its_retry_after(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    created = start_game(desktop, server.base_url, "patient")
    attempts: list[str] = []

    def busy_once(route: Route) -> None:
        attempts.append(route.request.headers.get("idempotency-key", ""))
        if len(attempts) == 1:
            route.fulfill(
                status=503,
                headers={"Retry-After": "1"},
                content_type="application/problem+json",
                body=problem(503, "database_busy", "Database busy", "Try again shortly (test)."),
            )
        else:
            route.fallback()

    desktop.route(re.compile(r".*/games/[^/]+/placements$"), busy_once)
    place_button(desktop, 0, 0).click()
    notice = desktop.get_by_role("alert")
    expect(notice).to_contain_text("The server is busy")
    expect(notice).to_contain_text("Try again in a moment.")
    expect(notice).to_contain_text("Retrying automatically in 1 second")
    # The retry goes through: the notice goes away and the card is placed, once.
    expect(notice).to_be_hidden(timeout=5_000)
    game = api.get(f"/games/{created['id']}").json()
    assert game["placements_count"] == 1
    assert_page_shows(desktop, game)
    assert len(attempts) == 2 and attempts[0] == attempts[1] != ""  # one Idempotency-Key


def test_an_error_is_shown_in_words_without_the_api_s(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    def refuse(route: Route) -> None:
        route.fulfill(
            status=422,
            content_type="application/problem+json",
            body=problem(
                422,
                "a_newer_servers_code",
                "Something this page has no words for",
                "1 field is invalid (test)",
                errors=[{"loc": ["query", "limit"], "message": "too large", "type": "x"}],
            ),
        )

    desktop.route(re.compile(r".*/leaderboard\?.*"), refuse)
    desktop.goto(server.base_url + "/#/leaderboard")
    notice = desktop.get_by_role("alert")
    # A code the page has no words of its own for: the problem's title, and what to do; no
    # status, no code, no field path.
    expect(notice).to_contain_text("Something this page has no words for")
    expect(notice).to_contain_text("Try again")
    for developer_words in ("422", "a_newer", "query.limit", "1 field is invalid"):
        expect(notice).not_to_contain_text(developer_words)
    desktop.unroute(re.compile(r".*/leaderboard\?.*"))
    notice.get_by_role("button", name="Try again").click()
    expect(notice).to_be_hidden()
    entries = api.get("/leaderboard").json()["entries"]
    expect(desktop.locator("#leaderboard-body tr")).to_have_count(len(entries))
    expect(desktop.get_by_text("No game won without hints yet.")).to_be_visible(visible=not entries)


def test_a_saved_game_that_is_gone_is_said_so(desktop: Page, server: Server) -> None:
    desktop.goto(server.base_url + "/#/play")
    saved = json.dumps({"id": "00000000-0000-0000-0000-000000000000", "token": "x", "player": "a"})
    desktop.evaluate("saved => localStorage.setItem('foursquare.game', saved)", saved)
    desktop.reload()
    notice = desktop.get_by_role("alert")
    expect(notice).to_contain_text("This game could not be found")
    expect(notice).not_to_contain_text("404")
    expect(desktop.get_by_role("button", name="Start a game")).to_be_visible()
    assert desktop.evaluate("() => localStorage.getItem('foursquare.game')") is None


def test_a_refused_placement_is_shown_and_the_game_drawn_again(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    created = start_game(desktop, server.base_url, "raced")
    # Another client (the same player elsewhere) places first: the page's If-Match is stale.
    token = created["token"]
    placed = api.post(
        f"/games/{created['id']}/placements",
        json={"row": 0, "col": 0},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert placed.status_code == 201
    place_button(desktop, 0, 0).click()
    # A game changed in another tab: reloaded as it is now, and said so in words (no ETag).
    notice = desktop.get_by_role("alert")
    expect(notice).to_contain_text("This game changed in another tab or window")
    expect(notice).to_contain_text("It has been reloaded here as it is now")
    for developer_words in ("412", "Precondition", "If-Match", "ETag", '"v'):
        expect(notice).not_to_contain_text(developer_words)
    assert_page_shows(desktop, api.get(f"/games/{created['id']}").json())


def test_the_name_rule_is_said_in_words(desktop: Page, server: Server, api: httpx.Client) -> None:
    desktop.goto(server.base_url + "/#/play")
    field = desktop.get_by_label("Your name")
    check = desktop.locator("#player-name-check")
    sent: list[str] = []
    desktop.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    # A name of _, - and digits alone: said as it is typed, and never sent.
    for letterless in ("_-_", "1-2_3"):
        field.fill(letterless)
        expect(check).to_have_text("A name needs at least one letter, A to Z.")
        desktop.get_by_role("button", name="Start a game").click()
        assert field.evaluate("field => field.validity.customError")
    assert sent == []
    # The computer's name, however spelt, and an account's but for _ and -: the server's
    # refusals, in words (no status, no code), beside the field.
    field.fill("C0m-puter")
    expect(check).to_be_hidden()
    desktop.get_by_role("button", name="Start a game").click()
    expect(check).to_contain_text("That name is kept for the site")
    expect(check).to_contain_text("Choose another name")
    for developer_words in ("409", "name_reserved"):
        expect(check).not_to_contain_text(developer_words)
    assert api.post("/players", json={"name": "rule-words"}).status_code == 201
    field.fill("rule_words_")
    expect(check).to_be_hidden()  # the words go when the field changes
    desktop.get_by_role("button", name="Start a game").click()
    expect(check).to_contain_text("That name belongs to a registered player")
    expect(check).to_contain_text("differ only by _ and -")
    assert len(sent) == 2  # the two refused games; nothing else was started

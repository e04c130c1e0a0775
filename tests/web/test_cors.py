"""A page from another origin calls the API with fetch (a preflighted request: it sends the
token, If-Match, and the X-Request-ID and Idempotency-Key the docs invite), allowed or refused
by ``FOURSQUARE_CORS_ORIGINS``; a refused preflight is the service's problem+json; and /docs
places a card through "Authorize" and "Try it out"."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from testkit.processes import free_port
from testkit.server import Server, running_server
from tests.web.conftest import DESKTOP, SERVER_ENV, open_context

pytestmark = pytest.mark.slow

PAGE = b"<!doctype html><title>another origin</title><p>a page of another site</p>"

# What the other site's script does: start a game (with its own request id and an
# Idempotency-Key, as docs/api.md invites), then place its first card with the token and
# If-Match, which makes the browser ask the API first (a CORS preflight), and read the
# headers the API exposes.
PLAY = """async (api) => {
  try {
    const created = await fetch(api + "/games", {
      method: "POST",
      headers: {"Content-Type": "application/json", "X-Request-ID": "from-another-site",
                "Idempotency-Key": crypto.randomUUID()},
      body: "{}"});
    const game = await created.json();
    const placed = await fetch(api + "/games/" + game.id + "/placements", {
      method: "POST",
      headers: {"Content-Type": "application/json", "Authorization": "Bearer " + game.token,
                "If-Match": created.headers.get("ETag")},
      body: JSON.stringify({row: 0, col: 0})});
    return {status: placed.status, etag: placed.headers.get("ETag"),
            request_id: created.headers.get("X-Request-ID"),
            timed: placed.headers.get("Server-Timing") !== null};
  } catch (error) {
    return {error: String(error)};
  }
}"""


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def other_origin() -> Iterator[str]:
    """A second local web server: the origin of another site."""
    site = ThreadingHTTPServer(("127.0.0.1", free_port()), _Page)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{site.server_address[1]}"
    finally:
        site.shutdown()
        site.server_close()


def _play_from(browser: Browser, site: str, api: str) -> dict[str, Any]:
    context = browser.new_context()
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto(site + "/")
        result: dict[str, Any] = page.evaluate(PLAY, api)
        return result
    finally:
        context.close()


def test_a_page_of_an_allowed_origin_plays_and_another_is_refused(
    browser: Browser, sqlite_url: str, other_origin: str
) -> None:
    allowed = {**SERVER_ENV, "FOURSQUARE_CORS_ORIGINS": other_origin}
    with running_server(sqlite_url, extra_env=allowed) as server:
        result = _play_from(browser, other_origin, server.base_url)
        assert result == {
            "status": 201,
            "etag": '"v2"',
            "request_id": "from-another-site",
            "timed": True,
        }, result
    refused = {**SERVER_ENV, "FOURSQUARE_CORS_ORIGINS": "https://somewhere.else"}
    with running_server(sqlite_url, extra_env=refused) as server:
        result = _play_from(browser, other_origin, server.base_url)
        assert "error" in result and "Failed to fetch" in result["error"], result
        # The refused page placed nothing: its game (if its first request got through at all,
        # unread) has no placement.
        board = httpx.get(f"{server.base_url}/leaderboard").json()
        assert board["entries"] == []


def preflight(server: Server, origin: str, method: str, headers: str | None) -> httpx.Response:
    asked = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers is not None:
        asked["Access-Control-Request-Headers"] = headers
    return httpx.options(f"{server.base_url}/games", headers=asked, timeout=30)


def test_cors_refusals_are_the_services_problems(sqlite_url: str) -> None:
    allowed = "https://allowed.example"
    env = {**SERVER_ENV, "FOURSQUARE_CORS_ORIGINS": allowed}
    with running_server(sqlite_url, extra_env=env) as server:
        # What the docs invite a client to send is allowed by default.
        invited = "content-type, authorization, x-request-id, idempotency-key, if-match"
        accepted = preflight(server, allowed, "POST", invited)
        assert accepted.status_code == 200, accepted.text
        assert accepted.headers["access-control-allow-origin"] == allowed
        granted = {
            h.strip().lower() for h in accepted.headers["access-control-allow-headers"].split(",")
        }
        assert {h.strip() for h in invited.split(",")} <= granted
        # Another origin, another method, another header: refused, each in the service's voice.
        for origin, method, headers, refused in (
            ("https://elsewhere.example", "POST", None, "origin"),
            (allowed, "DELETE", None, "method"),
            (allowed, "POST", "x-something-else", "headers"),
        ):
            answer = preflight(server, origin, method, headers)
            assert answer.status_code == 400, answer.text
            assert answer.headers["content-type"] == "application/problem+json", answer.text
            problem = answer.json()
            assert problem["code"] == "cors_refused"
            assert problem["type"] == "urn:foursquare:problem:cors_refused"
            assert problem["request_id"] == answer.headers["x-request-id"]
            assert f"({refused})" in problem["detail"], problem
        # An answer to a page of the allowed origin exposes the timing and the limits' fields.
        read = httpx.get(f"{server.base_url}/leaderboard", headers={"Origin": allowed}, timeout=30)
        exposed = {
            h.strip().lower() for h in read.headers["access-control-expose-headers"].split(",")
        }
        assert {"server-timing", "ratelimit", "ratelimit-policy", "x-request-id"} <= exposed


def test_docs_authorize_and_try_it_out_place_a_card(browser: Browser, server: Server) -> None:
    game = httpx.post(f"{server.base_url}/games").json()
    context, watcher = open_context(browser, server, DESKTOP)
    page = context.new_page()
    page.goto(server.base_url + "/docs")
    page.locator("button.authorize").first.click()
    # The dialog lists each bearer scheme (GameToken, PlayerKey): the game's token goes in its own.
    scheme = page.locator(".auth-container", has_text="GameToken")
    scheme.locator("input").first.fill(game["token"])
    scheme.locator("button.authorize").first.click()
    page.locator(".modal-ux button.btn-done").first.click()
    operation = page.locator("#operations-games-place_card")
    operation.locator(".opblock-summary").first.click()
    operation.get_by_role("button", name="Try it out").click()
    operation.locator('input[placeholder="game_id"]').fill(game["id"])
    operation.locator("textarea.body-param__text").fill('{"row": 0, "col": 0}')
    operation.get_by_role("button", name="Execute").click()
    expect(
        operation.locator(".live-responses-table tbody .response-col_status").first
    ).to_contain_text("201")
    placed = httpx.get(f"{server.base_url}/games/{game['id']}").json()
    assert placed["placements_count"] == 1
    context.close()
    watcher.check()

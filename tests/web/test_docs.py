"""The API documentation pages work offline: every file they load comes from the service."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from testkit.server import Server
from tests.web.conftest import DESKTOP, open_context

pytestmark = pytest.mark.slow

OPERATIONS = [
    "Start a game",
    "Read a game",
    "Place the current card",
    "Read a game's history",
    "Read the leaderboard",
]


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_the_docs_render_with_no_request_off_the_origin(
    browser: Browser, server: Server, path: str
) -> None:
    context, watcher = open_context(browser, server, DESKTOP)
    page = context.new_page()
    loaded: list[str] = []
    page.on("requestfinished", lambda request: loaded.append(request.url))
    response = page.goto(server.base_url + path)
    assert response is not None and response.ok
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    for summary in OPERATIONS:
        expect(page.get_by_text(summary, exact=True).filter(visible=True).first).to_be_visible()
    if path == "/docs":
        # Swagger UI works, not just shows: an operation opens and lists its responses.
        page.get_by_text("Read the leaderboard", exact=True).first.click()
        expect(page.get_by_text("next_cursor").first).to_be_visible()
    icon = page.locator("link[rel='shortcut icon']").get_attribute("href")
    assert icon is not None and page.request.get(server.base_url + icon).ok
    assert any(url.endswith(".js") and "/vendor/" in url for url in loaded)
    context.close()
    watcher.check()

"""Browser tests of the web client: Debian's chromium driven by Playwright, against a real
``foursquare serve`` process on a fresh SQLite database.

Without chromium the tests skip with the reason, unless ``CI`` is set, where they fail: CI
installs chromium (``.ci/run``). Playwright's own browser downloads are never used.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    Request,
    Route,
    sync_playwright,
)

from tests.support.server import Server, running_server

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# Cheap hints: the tests check the page's handling of a hint, not the player's strength.
SERVER_ENV = {"FOURSQUARE_HINT_PLACEMENTS": "200", "FOURSQUARE_HINT_MAX_MS": "500"}


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


# Package scope, not session: Playwright's sync API keeps an event loop running in the main
# thread while it is open, and tests outside tests/web that run after these (any order, e.g.
# `pytest tests/web tests/integrity`) call asyncio.run(), which refuses to run inside it.
@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    path = chromium_path()
    if path is None:
        reason = "chromium is not installed (apt-get install -y chromium)"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {reason}")
        pytest.skip(reason)
    launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
    yield launched
    launched.close()


@pytest.fixture
def server(sqlite_url: str) -> Iterator[Server]:
    with running_server(sqlite_url, extra_env=SERVER_ENV) as running:
        yield running


@pytest.fixture
def api(server: Server) -> Iterator[httpx.Client]:
    """The same server, through its public HTTP API: what the page must agree with."""
    with httpx.Client(base_url=server.base_url, timeout=30) as client:
        yield client


@dataclass
class Watcher:
    """What a page did that it must not: requests off the origin, CSP violations, errors."""

    origin: str
    foreign_requests: list[str] = field(default_factory=list)
    policy_violations: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)

    def on_request(self, request: Request) -> None:
        url = request.url
        if not (
            url.startswith(self.origin + "/") or url.startswith(("data:", "blob:" + self.origin))
        ):
            self.foreign_requests.append(url)

    def on_console(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            self.policy_violations.append(message.text)

    def check(self) -> None:
        assert self.foreign_requests == [], "requests left the origin"
        assert self.policy_violations == [], "the Content-Security-Policy was violated"
        assert self.page_errors == [], "uncaught errors in the page"


def open_context(
    browser: Browser, server: Server, viewport: dict[str, int], **options: Any
) -> tuple[BrowserContext, Watcher]:
    """A browser context (its own storage) whose requests may go to the server only: any
    other is aborted and recorded."""
    context = browser.new_context(viewport=viewport, **options)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    watcher = Watcher(server.base_url)
    context.on("request", watcher.on_request)
    context.on("console", watcher.on_console)
    context.on(
        "page", lambda page: page.on("pageerror", lambda e: watcher.page_errors.append(str(e)))
    )

    def only_the_server(route: Route) -> None:
        if route.request.url.startswith(server.base_url + "/"):
            route.fallback()
        else:
            route.abort()

    context.route("**/*", only_the_server)
    return context, watcher


@pytest.fixture
def desktop(browser: Browser, server: Server) -> Iterator[Page]:
    """A page at 1280 x 800, reduced motion, checked for stray requests and CSP violations."""
    context, watcher = open_context(browser, server, DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    yield page
    context.close()
    watcher.check()


@pytest.fixture
def phone(browser: Browser, server: Server) -> Iterator[Page]:
    """A touch page at 390 x 844."""
    context, watcher = open_context(
        browser, server, PHONE, reduced_motion="reduce", has_touch=True, is_mobile=True
    )
    page = context.new_page()
    yield page
    context.close()
    watcher.check()


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("screenshots")
    print(f"\nweb client screenshots: {folder}")
    return folder

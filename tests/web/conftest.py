"""Browser tests of the web client: Debian's chromium driven by Playwright, against a real
``foursquare serve`` process on a fresh SQLite database.

One server (``site``: its own database, a known challenge secret, cheap hints and analyses)
and one browser serve the whole package in each test process; tests stay apart by using
their own games and players, under names of their own, and compare the page with the API's
answers rather than with counts of a fresh database. Only the tests that need another
server's settings or a database made in the past start their own (CORS, the boards of past
days).

Every page is watched: a request off the origin, a CSP violation, an uncaught error, and (but
in tests marked ``provokes_errors``, which ask the API for refusals on purpose) any console
error, failed request or error answer fail the test.

Without chromium the tests skip with the reason, unless ``CI`` is set, where they fail: CI
installs chromium (``.ci/run``). Playwright's own browser downloads are never used.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
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
    Response,
    Route,
    expect,
    sync_playwright,
)

from engine.solver import solve
from testkit import databases
from testkit.server import Server, running_server
from tests.web.service import challenge_deck

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
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


# Generous deadlines for every wait on the page: the tests run on a slow shared 2-core machine,
# two test processes at once, each with its server and browser.
expect.set_options(timeout=15_000)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "provokes_errors: the test asks for refusals on purpose; its pages' console errors "
        "and error answers are allowed",
    )


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


# Quick analyses (a few seconds a game, found at once): the tests check the page's handling
# of an analysis, not its depth.
ANALYSIS_ENV = {
    "FOURSQUARE_ANALYSIS_PLACEMENTS": "200",
    "FOURSQUARE_ANALYSIS_POLL_SECONDS": "0.2",
    "FOURSQUARE_ANALYSIS_SOLVER_NODES": "20000",
}


@dataclass(frozen=True)
class Site:
    """A server shared by the tests of accounts, the daily challenge and analyses (each
    registers its own names), whose challenge secret is known: the tests can deal a day's
    challenge themselves. ``today`` is the UTC day at the start, and ``line`` a winning line
    of its deal (the hindsight solver's)."""

    server: Server
    secret: str
    today: date
    line: tuple[tuple[int, int], ...]


def winnable_secret(day: date) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A challenge secret whose deal of ``day`` the solver wins quickly, and its line."""
    for number in range(100):
        secret = f"web client tests {number}"
        optimum = solve(challenge_deck(secret, day), nodes=50_000)
        if optimum.score is not None:
            return secret, tuple((p.row, p.col) for p in optimum.line)
    raise AssertionError(f"no winnable daily deal on {day} in 100 secrets")


@pytest.fixture(scope="package")
def site(
    _templates: databases.Templates, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    today = datetime.now(UTC).date()
    secret, line = winnable_secret(today)
    env = {**SERVER_ENV, **ANALYSIS_ENV, "FOURSQUARE_CHALLENGE_SECRET": secret}
    folder = tmp_path_factory.mktemp("site")
    with _templates.database("sqlite", folder) as url, running_server(url, extra_env=env) as s:
        yield Site(s, secret, today, line)


@pytest.fixture(scope="package")
def server(site: Site) -> Server:
    """The package's server (see ``site``)."""
    return site.server


@pytest.fixture
def api(server: Server) -> Iterator[httpx.Client]:
    """The same server, through its public HTTP API: what the page must agree with."""
    with httpx.Client(base_url=server.base_url, timeout=30) as client:
        yield client


@dataclass
class Watcher:
    """What a page did that it must not: requests off the origin, CSP violations, errors;
    and, unless ``errors_allowed``, console errors, failed requests and error answers."""

    origin: str
    errors_allowed: bool = False
    foreign_requests: list[str] = field(default_factory=list)
    policy_violations: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    error_answers: list[str] = field(default_factory=list)

    def on_request(self, request: Request) -> None:
        url = request.url
        if not (
            url.startswith(self.origin + "/") or url.startswith(("data:", "blob:" + self.origin))
        ):
            self.foreign_requests.append(url)

    def on_console(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            self.policy_violations.append(message.text)
        if message.type == "error":
            self.console_errors.append(f"{message.text} ({message.location.get('url')})")

    def on_request_failed(self, request: Request) -> None:
        # Foreign requests are aborted by the route (counted above); a request the browser
        # cancels itself (ERR_ABORTED: the page went away, as a test navigates on while the
        # favicon or a read is still loading) failed nothing a player would see.
        if request.url.startswith(self.origin + "/") and request.failure != "net::ERR_ABORTED":
            self.failed_requests.append(f"{request.method} {request.url}: {request.failure}")

    def on_response(self, response: Response) -> None:
        if response.status >= 400:
            self.error_answers.append(
                f"{response.request.method} {response.url}: {response.status}"
            )

    def check(self) -> None:
        assert self.foreign_requests == [], "requests left the origin"
        assert self.policy_violations == [], "the Content-Security-Policy was violated"
        assert self.page_errors == [], "uncaught errors in the page"
        if not self.errors_allowed:
            assert self.console_errors == [], "errors in the console"
            assert self.failed_requests == [], "requests failed"
            assert self.error_answers == [], "error answers"


def open_context(
    browser: Browser,
    server: Server,
    viewport: dict[str, int],
    errors_allowed: bool = False,
    **options: Any,
) -> tuple[BrowserContext, Watcher]:
    """A browser context (its own storage) whose requests may go to the server only: any
    other is aborted and recorded."""
    context = browser.new_context(viewport=viewport, **options)  # type: ignore[arg-type]
    context.set_default_timeout(15_000)
    watcher = Watcher(server.base_url, errors_allowed)
    context.on("request", watcher.on_request)
    context.on("console", watcher.on_console)
    context.on("requestfailed", watcher.on_request_failed)
    context.on("response", watcher.on_response)
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


def errors_allowed(request: pytest.FixtureRequest) -> bool:
    """Whether the test asks for refusals on purpose (marked ``provokes_errors``)."""
    return request.node.get_closest_marker("provokes_errors") is not None


@pytest.fixture
def desktop(browser: Browser, server: Server, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page at 1280 x 800, reduced motion, watched (see ``Watcher``)."""
    context, watcher = open_context(
        browser, server, DESKTOP, errors_allowed(request), reduced_motion="reduce"
    )
    page = context.new_page()
    yield page
    context.close()
    watcher.check()


@pytest.fixture
def phone(browser: Browser, server: Server, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A touch page at 390 x 844."""
    context, watcher = open_context(
        browser,
        server,
        PHONE,
        errors_allowed(request),
        reduced_motion="reduce",
        has_touch=True,
        is_mobile=True,
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

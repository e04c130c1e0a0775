"""Open races and streaks in the browser (issue 53): the home page lists the open races, empty
at first, and shows a public race the moment a second browser opens it (the open races'
stream, no reload), with its racers joining and leaving the list; one press joins it, as a
guest, into its lobby; a started race leaves the list; a private race never shows. The
player's page shows the daily challenge streaks. Phone, tablet and desktop: the list fits and
is axe-clean. Every page is watched for console errors, failed requests and error answers
(conftest.Watcher)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from testkit import databases
from testkit.server import Server, running_server
from tests.web.conftest import DESKTOP, PHONE, SERVER_ENV, Watcher, open_context
from tests.web.pages import assert_accessible, assert_fits_and_reachable

pytestmark = pytest.mark.slow

SECRET = "web open race tests"
TABLET = {"width": 768, "height": 1024}
SIZES = [(PHONE, "phone"), (TABLET, "tablet"), (DESKTOP, "desktop")]
ENV = {
    **SERVER_ENV,
    "FOURSQUARE_RACE_COUNTDOWN_SECONDS": "2",
    "FOURSQUARE_CHALLENGE_SECRET": SECRET,
}


@pytest.fixture(scope="module")
def open_server(
    _templates: databases.Templates, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    # A server of their own: its list of open races is empty until these tests open one.
    folder = tmp_path_factory.mktemp("open-races")
    with (
        _templates.database("sqlite", folder) as url,
        running_server(url, extra_env=ENV) as server,
    ):
        yield server


@pytest.fixture
def pages(browser: Browser, open_server: Server) -> Iterator[Any]:
    """Makes pages, each in its own browser context (its own storage), all watched."""
    opened: list[tuple[BrowserContext, Watcher]] = []

    def make(viewport: dict[str, int], **options: Any) -> Page:
        context, watcher = open_context(
            browser, open_server, viewport, reduced_motion="reduce", **options
        )
        opened.append((context, watcher))
        return context.new_page()

    yield make
    for context, _ in opened:
        context.close()
    for _, watcher in opened:
        watcher.check()


def open_races_list(page: Page) -> Any:
    return page.get_by_role("region", name="Open races").locator("#home-races-list li")


def test_a_public_race_shows_live_on_the_home_page_and_joins_in_one_press(
    pages: Any, open_server: Server
) -> None:
    base = open_server.base_url
    watcher = pages(DESKTOP)
    watcher.goto(base + "/")
    region = watcher.get_by_role("region", name="Open races")
    expect(region.locator("#home-races-empty")).to_be_visible()
    expect(region.locator("#home-races-empty")).to_contain_text("open a public race")
    for viewport, size in SIZES:
        watcher.set_viewport_size(viewport)
        assert_fits_and_reachable(watcher, f"home page, no open race, {size}")
        assert_accessible(watcher, f"home page, no open race, {size}")
    watcher.set_viewport_size(DESKTOP)

    # A private race, opened through the API: never listed.
    private = httpx.post(f"{base}/races", json={"player": "hidden"})
    assert private.status_code == 201

    # A second browser opens a public race through the races' form.
    opener = pages(PHONE, has_touch=True, is_mobile=True)
    opener.goto(base + "/#/races")
    form = opener.get_by_role("form", name="Open a race")
    form.get_by_label("Name in the race (optional)").fill("Opal")
    form.get_by_label("Public race").check()
    with opener.expect_response(
        lambda r: r.url.endswith("/races") and r.request.method == "POST"
    ) as answer:
        form.get_by_role("button", name="Open a race").click()
    assert answer.value.request.post_data_json["public"] is True
    race_id: str = answer.value.json()["id"]
    expect(opener.get_by_role("heading", level=2)).to_have_text("Race lobby")

    # The first browser sees it come, without a reload: the stream's `opened`.
    rows = open_races_list(watcher)
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Opal · 1 of 4 seats · 5 min")
    expect(region.locator("#home-races-empty")).to_be_hidden()
    assert "hidden" not in (region.text_content() or "")
    for viewport, size in SIZES:
        watcher.set_viewport_size(viewport)
        assert_fits_and_reachable(watcher, f"home page, an open race, {size}")
        assert_accessible(watcher, f"home page, an open race, {size}")

    # Someone joins through the API: `changed`, the list says so.
    joined = httpx.post(f"{base}/races/{race_id}/racers", json={"player": "Jade"})
    assert joined.status_code == 201
    expect(rows.first).to_contain_text("Opal, Jade · 2 of 4 seats")

    # An onlooker at a tablet joins it from the list, in one press, as a guest of a name.
    joiner = pages(TABLET)
    joiner.goto(base + "/")
    joiner.get_by_label("Name (optional)").fill("Juno")
    join = joiner.get_by_role("button", name="Join the race of Opal, Jade · 2 of 4 seats · 5 min")
    with joiner.expect_response(lambda r: r.url.endswith(f"/races/{race_id}/racers")) as entry:
        join.click()
    assert entry.value.status == 201 and entry.value.json()["you"] == 3
    expect(joiner).to_have_url(f"{base}/#/races/{race_id}")
    expect(joiner.get_by_role("heading", level=2)).to_have_text("Race lobby")
    expect(joiner.locator('#race-racers li[data-racer="3"]')).to_contain_text("Juno")
    expect(rows.first).to_contain_text("Opal, Jade, Juno · 3 of 4 seats")

    # Its opener starts it: it leaves the list, which says it is empty again.
    opener.get_by_role("button", name="Start the race").click()
    expect(rows).to_have_count(0)
    expect(region.locator("#home-races-empty")).to_be_visible()


def test_the_players_page_shows_the_daily_challenge_streaks(
    pages: Any, open_server: Server
) -> None:
    base = open_server.base_url
    name = f"Str-{secrets.token_hex(3)}"
    key = httpx.post(f"{base}/players", json={"name": name}).json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    page = pages(PHONE, has_touch=True, is_mobile=True)
    page.goto(f"{base}/#/players/{name}")
    streaks = page.get_by_role("region", name="Daily challenge streaks")
    expect(streaks.locator("#streak-played")).to_have_text("0 days")
    # Today's challenge, played to its end through the API (its first legal cell each time).
    game = httpx.post(f"{base}/games", json={"challenge": "daily"}, headers=auth).json()
    while game["status"] == "in_progress":
        placed = httpx.post(
            f"{base}/games/{game['id']}/placements",
            json=game["legal_placements"][0],
            headers=auth,
        )
        assert placed.status_code == 201, placed.text
        game = placed.json()["game"]
    won = "1 day" if game["status"] == "won" else "0 days"
    page.reload()
    for box, text in (
        ("#streak-played", "1 day"),
        ("#streak-won", won),
        ("#streak-best-played", "1 day"),
        ("#streak-best-won", won),
    ):
        expect(streaks.locator(box)).to_have_text(text)
    for viewport, size in SIZES:
        page.set_viewport_size(viewport)
        assert_fits_and_reachable(page, f"player page with streaks, {size}")
        assert_accessible(page, f"player page with streaks, {size}")

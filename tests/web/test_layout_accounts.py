"""The account, player, daily challenge and analysis views on a phone and on a desktop: no
horizontal scrolling, every control reachable."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.api.conformance import won_vectors
from tests.web.conftest import DESKTOP, PHONE, Site, open_context
from tests.web.pages import assert_fits_and_reachable, play_through_api
from tests.web.service import store_game

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390x844", "1280x800"])
def test_the_new_views_fit_and_every_control_is_reachable(
    browser: Browser, site: Site, viewport: dict[str, int], screenshot_dir: Path
) -> None:
    server = site.server
    size = f"{viewport['width']}x{viewport['height']}"
    name = f"Layout-{viewport['width']}-{'x' * 10}"  # 24 characters, the longest a name gets
    with httpx.Client(base_url=server.base_url, timeout=30) as api:
        key = api.post("/players", json={"name": name}).json()["key"]
        vector = won_vectors()[0]
        game_id, token = store_game(server.database_url, vector["deck"], name[:20])
        play_through_api(api, game_id, token, [(s["row"], s["col"]) for s in vector["steps"]])
    mobile = viewport == PHONE
    context, watcher = open_context(
        browser, server, viewport, reduced_motion="reduce", has_touch=mobile, is_mobile=mobile
    )
    page = context.new_page()
    page.goto(server.base_url + "/#/account")
    assert_fits_and_reachable(page, "account, signed out")
    page.evaluate(
        "([name, key]) => localStorage.setItem('foursquare.account', JSON.stringify({name, key}))",
        [name, key],
    )
    page.reload()
    page.get_by_role("button", name="Show the key").click()
    expect(page.get_by_label("Your key", exact=True)).to_be_visible()
    assert_fits_and_reachable(page, "account, signed in")
    page.screenshot(path=screenshot_dir / f"account-{size}.png", full_page=True)
    page.goto(f"{server.base_url}/#/players/{name}")
    expect(page.locator("#stat-played")).to_have_text("0")
    assert_fits_and_reachable(page, "player")
    page.goto(server.base_url + "/#/daily")
    expect(page.get_by_role("button", name="Play today's challenge")).to_be_enabled()
    assert_fits_and_reachable(page, "daily")
    page.screenshot(path=screenshot_dir / f"daily-{size}.png", full_page=True)
    if not mobile:  # the analysis's table is widest on a phone (and checked there)
        context.close()
        watcher.check()
        return
    page.goto(f"{server.base_url}/#/games/{game_id}")
    page.get_by_role("button", name="Analyse this game").click()
    expect(page.locator("#analysis-summary")).to_contain_text("Analysis done", timeout=120_000)
    page.get_by_role("button", name="Show placement 2 in the replay").click()
    assert_fits_and_reachable(page, "analysis")
    page.screenshot(path=screenshot_dir / f"analysis-{size}.png", full_page=True)
    context.close()
    watcher.check()

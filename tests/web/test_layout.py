"""The page on a phone and on a desktop: no horizontal scrolling, every control reachable
(names on the boards: test_names.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest
from playwright.sync_api import Browser, expect

from testkit.server import Server
from tests.api.conformance import won_vectors
from tests.support.fairplay import boarded
from tests.web.conftest import DESKTOP, PHONE, open_context
from tests.web.pages import (
    assert_fits_and_reachable,
    place_by_click,
    play_through_api,
    resume_in_page,
    start_game,
)
from tests.web.service import store_game

pytestmark = pytest.mark.slow

# Five piles spanning three rows and three columns: the board shows 5 x 5 cells (the piles
# and the new piles around them), the widest it gets. No five placements can lose.
WIDEST = [(0, 0), (0, 1), (0, -1), (1, 0), (-1, 0)]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390x844", "1280x800"])
def test_the_page_fits_and_every_control_is_reachable(
    browser: Browser, server: Server, api: httpx.Client, viewport: dict[str, int]
) -> None:
    # A won game with the longest name there can be, for the leaderboard's rows.
    vector = won_vectors()[1]
    won_id, token = store_game(server.database_url, vector["deck"], "W" * 32)
    play_through_api(api, won_id, token, [(s["row"], s["col"]) for s in vector["steps"]])
    boarded(api, won_id)  # on the boards, with a rank, once its fair-play review is done
    mobile = viewport == PHONE
    context, watcher = open_context(
        browser, server, viewport, reduced_motion="reduce", has_touch=mobile, is_mobile=mobile
    )
    page = context.new_page()
    page.goto(server.base_url + "/")
    assert_fits_and_reachable(page, "start")
    created = start_game(page, server.base_url, "a-name-of-24-characters")
    for row, col in WIDEST:
        if mobile:
            # A tap, as on a phone.
            with page.expect_response(lambda r: r.url.endswith("/placements")):
                page.locator(f'#board .cell[data-row="{row}"][data-col="{col}"] button').tap()
        else:
            place_by_click(page, row, col)
    expect(page.locator("#game")).to_have_attribute("data-version", str(len(WIDEST) + 1))
    expect(page.locator("#board .board-row")).to_have_count(5)
    expect(page.locator("#board .board-row").first.locator(".cell")).to_have_count(5)
    assert_fits_and_reachable(page, "mid-game")
    page.goto(server.base_url + "/#/leaderboard")
    page.locator("#leaderboard-body tr").first.wait_for()
    assert_fits_and_reachable(page, "leaderboard")
    # The board's controls with the date field shown, on a board of a day.
    today = datetime.now(UTC).date()
    page.goto(f"{server.base_url}/#/leaderboard?period=day&date={today}&per_player=best")
    expect(page.get_by_label("Day (UTC)")).to_be_visible()
    page.locator("#leaderboard-body tr").first.wait_for()
    assert_fits_and_reachable(page, "leaderboard of a day")
    page.goto(f"{server.base_url}/#/games/{created['id']}")
    page.get_by_text("Step 5 of 5").wait_for()
    assert_fits_and_reachable(page, "replay")
    # A won game's replay, its place shown: its rank and neighbours (the longest name).
    page.goto(f"{server.base_url}/#/games/{won_id}")
    page.get_by_role("button", name="Show my place").click()
    expect(page.locator("#replay-standing-body tr.mine")).to_have_count(1)
    assert_fits_and_reachable(page, "replay, the game's place")
    # The end of a won game in Play, its place shown.
    vector = won_vectors()[0]
    game_id, token = store_game(server.database_url, vector["deck"], "W" * 32)
    positions = [(s["row"], s["col"]) for s in vector["steps"]]
    play_through_api(api, game_id, token, positions[:-1])
    resume_in_page(page, server.base_url, game_id, token, "W" * 32)
    place_by_click(page, *positions[-1])
    # Its place is shown once the review has ranked it (the page follows the review).
    boarded(api, game_id)
    page.locator("#end-panel").get_by_role("button", name="Show my place").click()
    expect(page.locator("#end-standing-body tr.mine")).to_have_count(1)
    assert_fits_and_reachable(page, "end of a won game, its place")
    context.close()
    watcher.check()

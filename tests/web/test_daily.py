"""The daily challenge in the browser: today's page, playing it with an account (without
hints), its board, one attempt per day, and a closed day's reveal checked in the page."""

from __future__ import annotations

import json
import re
import time
from datetime import timedelta

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from tests.support.fairplay import boarded
from tests.web.conftest import Site
from tests.web.pages import assert_accessible, place_by_click
from tests.web.service import challenge_commitment

pytestmark = pytest.mark.slow


@pytest.mark.provokes_errors  # a second attempt's 409
def test_play_the_daily_challenge_and_see_the_board(
    desktop: Page, site: Site, api: httpx.Client
) -> None:
    page = desktop
    base = site.server.base_url
    today = site.today.isoformat()
    page.goto(base + "/#/daily")
    expect(page.get_by_role("heading", name=f"Today's daily challenge ({today})")).to_be_visible()
    summary = api.get("/challenges/today").json()
    expect(page.locator("#daily-commitment")).to_have_text(summary["deck_commitment"])
    expect(page.locator("#daily-state")).to_contain_text("open until")
    # Without an account the page says one is needed, and does not offer to play.
    play = page.get_by_role("button", name="Play today's challenge")
    expect(play).to_be_disabled()
    expect(page.get_by_text("The daily challenge is for players with an account")).to_be_visible()

    # Sign in with a key made elsewhere (the API), then play.
    key = api.post("/players", json={"name": "Dee"}).json()["key"]
    page.get_by_role("link", name="register a name or use your key").click()
    form = page.get_by_role("form", name="Use an existing key")
    form.get_by_label("Key").fill(key)
    form.get_by_role("button", name="Use this key").click()
    expect(page.get_by_role("status")).to_contain_text("Signed in as Dee")
    page.get_by_role("link", name="Daily challenge").click()
    with page.expect_response(lambda r: r.url.endswith("/games")) as answer:
        play.click()
    assert answer.value.status == 201
    created = answer.value.json()
    assert created["challenge_date"] == today
    assert created["deck_commitment"] == summary["deck_commitment"]
    assert answer.value.request.headers["authorization"] == f"Bearer {key}"
    expect(page).to_have_url(re.compile("#/play$"))
    expect(page.locator("#challenge-badge")).to_have_text(f"daily challenge {today}")
    # No hints in the daily challenge: no button, and the page says why.
    expect(page.get_by_role("button", name="Ask for a hint")).to_be_hidden()
    expect(page.get_by_text("The daily challenge is played without hints.")).to_be_visible()

    # Win it with the solver's line (the tests know the day's deal, the page does not).
    for row, col in site.line:
        place_by_click(page, row, col)
    end = page.get_by_role("region", name="You won!")
    score = 40 - len(site.line)
    expect(end).to_contain_text(f"Score {score}")
    # A reload picks the game up again: the page reads the private game with its token.
    page.reload()
    expect(page.get_by_role("region", name="You won!")).to_be_visible()

    # The day's board lists the win once its fair-play review is done: the solver's line may
    # be held, and then the suite's operator clears it, as a moderator would.
    boarded(api, created["id"], {"Authorization": f"Bearer {key}"}, clear=True)
    # The day's board lists the win.
    page.get_by_role("link", name="The day's board").click()
    expect(page).to_have_url(re.compile(f"#/daily/{today}$"))
    # (The server is shared: other tests may play the day too.)
    board = api.get("/leaderboard", params={"challenge": today}).json()["entries"]
    entry = next(e for e in board if e["game_id"] == created["id"])
    rows = page.locator("#daily-board-body tr")
    expect(rows).to_have_count(len(board))
    mine = page.locator(f'#daily-board-body tr[data-game-id="{created["id"]}"]')
    cells = mine.locator("td")
    expect(cells.nth(0)).to_have_text(str(entry["rank"]))
    expect(cells.nth(1)).to_have_text("Dee")
    expect(cells.nth(1).get_by_role("link", name="Dee")).to_have_attribute("href", "#/players/Dee")
    expect(cells.nth(2)).to_have_text(str(score))
    day = api.get(f"/challenges/{today}").json()
    expect(page.locator("#daily-played")).to_have_text(str(day["played"]))
    expect(page.locator("#daily-won")).to_have_text(str(day["won"]))

    # One attempt a day: the page shows the attempt (its result, its rank on the day's board,
    # its replay) in place of the start button.
    attempt = page.get_by_role("region", name="Your attempt")
    expect(attempt).to_contain_text(
        f"You played this day's challenge: won with a score of {score}, "
        f"rank {entry['rank']} on the day's board."
    )
    expect(page.get_by_role("button", name="Play today's challenge")).to_have_count(0)
    assert_accessible(page, "daily, the attempt shown")
    # The home page says so too, with the way to the attempt.
    page.goto(f"{base}/#/")
    daily = page.get_by_role("region", name="Today's challenge")
    expect(daily).to_contain_text(f"You played it: won with a score of {score}.")
    # The daily page's read of the day is held until the refusal below has been shown: a load
    # that ends after a button's error (and the board read it starts) must not hide it.
    held: list[Route] = []
    page.route("**/challenges/today", lambda route: held.append(route))
    daily.get_by_role("link", name="See your attempt").click()
    expect(attempt).to_be_visible()
    # A second attempt asked all the same (another tab): the API's 409 is said in words, and
    # the page offers to open the game it names.
    page.evaluate("() => import('/static/js/play.js').then((play) => play.startDailyChallenge())")
    notice = page.get_by_role("alert")
    expect(notice).to_contain_text("You have played today's challenge already")
    expect(notice).not_to_contain_text("409")
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the daily page never read the day"
    with page.expect_response(lambda r: "/leaderboard?" in r.url and "challenge=" in r.url):
        for route in held:
            route.continue_()
    page.unroute("**/challenges/today")
    # The board's answer handled (its table no longer busy): the refusal is still shown.
    expect(page.locator("#daily-board-table")).not_to_have_attribute("aria-busy", "true")
    expect(notice).to_be_visible()
    notice.get_by_role("button", name="Open your game").click()
    expect(page).to_have_url(re.compile(f"#/games/{created['id']}$"))
    expect(page.locator("#replay-summary")).to_contain_text(f"the daily challenge of {today}")
    page.go_back()
    attempt.get_by_role("link", name="Replay your game").click()
    expect(page).to_have_url(re.compile(f"#/games/{created['id']}$"))
    # The player's games mark it as the day's challenge game.
    page.goto(f"{base}/#/players/Dee")
    games_row = page.locator(f'#player-games-body tr[data-game-id="{created["id"]}"]')
    expect(games_row).to_contain_text(f"daily challenge {today}")
    page.goto(f"{base}/#/games/{created['id']}")
    # Its analysis waits for the day to close; the page explains the API's 409.
    expect(page.locator("#analysis-status")).to_contain_text("once its day has closed")
    expect(page.get_by_role("button", name="Analyse this game")).to_be_disabled()


@pytest.mark.provokes_errors  # a day to come: 404
def test_a_closed_day_shows_its_reveal_verified_in_the_page(desktop: Page, site: Site) -> None:
    page = desktop
    yesterday = site.today - timedelta(days=1)
    commitment = challenge_commitment(site.secret, yesterday)
    page.goto(site.server.base_url + "/#/daily")
    expect(page.locator("#daily-state")).to_contain_text("open until")
    # A date picker, from the first day to today.
    picker = page.get_by_label("Another day")
    expect(picker).to_have_attribute("type", "date")
    expect(picker).to_have_value(site.today.isoformat())
    expect(picker).to_have_attribute("min", "2026-01-01")
    expect(picker).to_have_attribute("max", site.today.isoformat())
    picker.fill(yesterday.isoformat())
    page.get_by_role("button", name="Show that day").click()
    heading = page.get_by_role("heading", name=f"Daily challenge of {yesterday.isoformat()}")
    expect(heading).to_be_visible()
    expect(page.locator("#daily-state")).to_contain_text("closed at")
    expect(page.locator("#daily-commitment")).to_have_text(commitment)
    expect(page.get_by_role("button", name="Play today's challenge")).to_be_hidden()
    expect(page.get_by_text("No won games this day yet.")).to_be_visible()
    page.get_by_role("button", name="Verify the day's deal").click()
    results = page.locator("#daily-verify-results")
    expect(results).to_contain_text("Verdict: ✓ passed")
    expect(results).to_contain_text("Commitment: ✓ passed")
    expect(results).to_contain_text("Deck: ✓ passed")

    # A reveal that does not match the commitment fails the check.
    def forged(route: Route) -> None:
        body = route.fetch().json()
        body["reveal"]["salt"] = "0" * 32
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(f"{site.server.base_url}/challenges/{yesterday.isoformat()}", forged)
    page.reload()
    expect(page.locator("#daily-state")).to_contain_text("closed at")
    page.get_by_role("button", name="Verify the day's deal").click()
    expect(results).to_contain_text("Verdict: ✗ failed")
    expect(results).to_contain_text("Commitment: ✗ failed")
    page.unroute(f"{site.server.base_url}/challenges/{yesterday.isoformat()}")

    # A day to come is refused by the API, and the page shows the problem.
    page.goto(f"{site.server.base_url}/#/daily/{(site.today + timedelta(days=2)).isoformat()}")
    expect(page.get_by_role("alert")).to_contain_text("That day's challenge has not opened yet")
    expect(page.locator("#daily-commitment")).to_be_hidden()  # (yesterday's, no more)

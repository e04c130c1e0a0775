"""A whole session as a new player has it, in one browser: the rules, an account, a game with
a hint, the daily challenge won, its board and the player's page, the leaderboard, a replay
and its analysis. No console error, no failed request and no error answer anywhere (the
watcher checks all three), and axe-core finds no serious or critical violation on any page."""

from __future__ import annotations

import re
import secrets

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.api.conformance import won_vectors
from tests.web.conftest import DESKTOP, Site, open_context
from tests.web.pages import assert_accessible, place_button, play_through_api
from tests.web.service import store_game

pytestmark = pytest.mark.slow


def test_a_whole_session_is_clean_and_accessible(
    browser: Browser, site: Site, api: httpx.Client
) -> None:
    base = site.server.base_url
    name = f"Sess-{secrets.token_hex(4)}"
    # A finished game nobody analysed yet, on the leaderboard (a guest's).
    vector = won_vectors()[3]
    guest_game, token = store_game(site.server.database_url, vector["deck"], f"guest {name}")
    play_through_api(api, guest_game, token, [(s["row"], s["col"]) for s in vector["steps"]])

    context, watcher = open_context(browser, site.server, DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    analysis_reads: list[str] = []
    page.on(
        "request",
        lambda r: (
            analysis_reads.append(r.url)
            if r.method == "GET" and r.url.endswith("/analysis")
            else None
        ),
    )

    page.goto(base + "/")
    expect(page.get_by_role("button", name="Start a game")).to_be_visible()
    assert_accessible(page, "start")

    page.get_by_role("link", name="Rules").click()
    page.locator("#rules-tries-list button").first.click()
    expect(page.locator("#rules-outcome")).to_contain_text("6♦ went")
    assert_accessible(page, "rules")

    page.get_by_role("link", name=re.compile("^Account")).click()
    assert_accessible(page, "account, signed out")
    form = page.get_by_role("form", name="Register a name")
    form.get_by_label("Name").fill(name)
    form.get_by_role("button", name="Register").click()
    expect(page.get_by_role("status")).to_contain_text(f"Registered as {name}")
    page.get_by_role("button", name="Hide the key").click()
    page.get_by_role("button", name="Show the key").click()
    assert_accessible(page, "account, signed in")

    # A game as the account, with a hint.
    page.get_by_role("link", name="Play", exact=True).click()
    page.get_by_role("button", name="Start a game").click()
    for row, col in [(0, 0), (0, 1), (1, 0)]:
        with page.expect_response(lambda r: r.url.endswith("/placements")):
            place_button(page, row, col).click()
    page.get_by_role("button", name="Ask for a hint").click()
    page.get_by_role("dialog").get_by_role("button", name="Ask for a hint").click()
    expect(page.locator("#hint-text")).to_contain_text("Hint: place the")
    assert_accessible(page, "mid-game, a hint shown")
    page.get_by_role("button", name="New game").click()
    page.get_by_role("dialog").get_by_role("button", name="Leave it").click()

    # The daily challenge, won; its place, its board, the player's page.
    page.get_by_role("link", name="Daily challenge", exact=True).click()
    expect(page.get_by_role("button", name="Play today's challenge")).to_be_enabled()
    assert_accessible(page, "daily")
    page.get_by_role("button", name="Play today's challenge").click()
    for row, col in site.line:
        with page.expect_response(lambda r: r.url.endswith("/placements")):
            place_button(page, row, col).click()
    end = page.get_by_role("region", name="You won!")
    expect(end).to_be_visible()
    assert_accessible(page, "the end of a won game")
    end.get_by_role("button", name="Show my place").click()
    expect(page.locator("#end-standing-body tr.mine")).to_have_count(1)
    assert_accessible(page, "the end of a won game, its place")
    end.get_by_role("link", name="The day's board").click()
    mine = page.locator("#daily-board-body tr", has_text=name)
    expect(mine).to_have_count(1)
    assert_accessible(page, "the day's board")
    mine.get_by_role("link", name=name, exact=True).click()
    expect(page.get_by_role("heading", name=f"Player {name}")).to_be_visible()
    expect(page.locator("#player-games-body tr")).to_have_count(2)
    assert_accessible(page, "player")

    # The leaderboard, a replay and its analysis.
    page.get_by_role("link", name="Leaderboard").click()
    expect(page.locator("#leaderboard-body tr").first).to_be_visible()
    assert_accessible(page, "leaderboard")
    page.goto(f"{base}/#/games/{guest_game}")
    expect(page.locator("#replay-summary")).to_contain_text("won with a score of")
    button = page.get_by_role("button", name="Analyse this game")
    expect(button).to_be_enabled()
    assert analysis_reads == [], "a replay read an analysis nobody asked for"
    assert_accessible(page, "replay")
    page.get_by_role("button", name="Verify the deal").click()
    expect(page.locator("#verify-results")).to_contain_text("Verdict: ✓ passed")
    button.click()
    expect(page.locator("#analysis-summary")).to_contain_text("Analysis done", timeout=120_000)
    page.get_by_role("button", name="Show placement 2 in the replay").click()
    expect(page.locator("#replay-review")).to_contain_text("Review:")
    assert_accessible(page, "analysis")
    # Opened again, the analysis this page asked for is read at once.
    page.reload()
    expect(page.locator("#analysis-summary")).to_contain_text("Analysis done")

    context.close()
    watcher.check()

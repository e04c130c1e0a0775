"""The game screen is a card table: at 1280 x 800, 1366 x 768 and on a 390 x 844 phone the
grid, the card in hand, the counters and the last move's outcome are all inside the viewport
without scrolling, for the widest and the tallest grids a game can reach; the end of a game
(won or lost) shows where the player is looking; each mark on the grid has its own shape."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from testkit.server import Server
from tests.api.conformance import vectors, won_vectors
from tests.web.conftest import DESKTOP, LAPTOP, PHONE, open_context
from tests.web.pages import (
    assert_in_view,
    place_button,
    play_through_api,
    resume_in_page,
    start_game,
)
from tests.web.service import store_game

pytestmark = pytest.mark.slow

SIZES = [DESKTOP, LAPTOP, PHONE]
SIZE_IDS = ["1280x800", "1366x768", "390x844"]

# Five piles in a plus: the grid is drawn 5 x 5 (the piles and the new piles around them),
# the widest and the tallest it is ever drawn. No five placements can lose.
WIDEST = [(0, 0), (0, 1), (0, -1), (1, 0), (-1, 0)]

REVIEW_DEADLINE = 180_000  # ms: a review is seconds of CPU on a shared machine


def lost_vector() -> dict[str, Any]:
    """A game the conformance file loses with more than four piles face down, late."""
    return next(
        v
        for v in vectors()
        if v["final"]["end_reason"] == "too_many_face_down" and len(v["steps"]) >= 12
    )


@pytest.fixture(params=SIZES, ids=SIZE_IDS)
def table(browser: Browser, server: Server, request: pytest.FixtureRequest) -> Iterator[Page]:
    viewport: dict[str, int] = request.param
    mobile = viewport == PHONE
    context, watcher = open_context(
        browser, server, viewport, reduced_motion="reduce", has_touch=mobile, is_mobile=mobile
    )
    page = context.new_page()
    yield page
    context.close()
    watcher.check()


def place(page: Page, row: int, col: int) -> None:
    """Place the current card at (row, col), by a tap on a phone and a click elsewhere."""
    button = place_button(page, row, col)
    with page.expect_response(lambda r: r.url.endswith("/placements")):
        if page.context.pages and page.evaluate("() => navigator.maxTouchPoints > 0"):
            button.tap()
        else:
            button.click()


def assert_no_scrolling(page: Page) -> None:
    scrolled = page.evaluate(
        "() => [window.scrollY, document.documentElement.scrollHeight, window.innerHeight,"
        " document.documentElement.scrollWidth, window.innerWidth]"
    )
    assert scrolled[0] == 0 and scrolled[1] <= scrolled[2], f"the page scrolls: {scrolled}"
    assert scrolled[3] <= scrolled[4], f"the page scrolls sideways: {scrolled}"


def assert_table_in_view(page: Page) -> None:
    """The grid (every cell), the card in hand, both counters and the last move."""
    assert_no_scrolling(page)
    for selector in ("#board", "#board .cell", "#current-card", ".hand .counters > div"):
        assert_in_view(page, selector)
    expect(page.locator("#last-move")).not_to_be_empty()
    assert_in_view(page, "#last-move")


def test_the_table_fits_the_screen_at_its_widest(
    table: Page, server: Server, api: httpx.Client
) -> None:
    page = table
    size = page.viewport_size
    assert size is not None
    start_game(page, server.base_url, f"table-{size['width']}")
    for row, col in WIDEST:
        place(page, row, col)
    expect(page.locator("#game")).to_have_attribute("data-version", str(len(WIDEST) + 1))
    expect(page.locator("#board .board-row")).to_have_count(5)
    expect(page.locator("#board .board-row").first.locator(".cell")).to_have_count(5)
    assert_table_in_view(page)
    # A hint adds its line to the hand: the table makes room, and still fits.
    page.get_by_role("button", name="Ask for a hint").click()
    page.get_by_role("dialog").get_by_role("button", name="Ask for a hint").click()
    expect(page.locator("#hint-text")).to_contain_text("Hint: place the")
    expect(page.locator("#board .cell.hinted")).to_have_count(1)
    assert_table_in_view(page)
    assert_in_view(page, "#hint-text")


def test_the_table_fits_the_screen_at_four_by_four_and_the_win_shows_in_place(
    table: Page, server: Server, api: httpx.Client
) -> None:
    page = table
    vector = won_vectors()[0]
    game_id, token = store_game(server.database_url, vector["deck"], "tall")
    steps = [(s["row"], s["col"]) for s in vector["steps"]]
    play_through_api(api, game_id, token, steps[:-2])
    resume_in_page(page, server.base_url, game_id, token, "tall")
    place(page, *steps[-2])  # the grid spans four rows and four columns
    expect(page.locator("#board .board-row")).to_have_count(4)
    assert_table_in_view(page)

    place(page, *steps[-1])
    end = page.get_by_role("region", name="You won!")
    expect(end).to_contain_text(f"Score {vector['final']['score']}")
    assert_no_scrolling(page)
    for selector in ("#end-panel", "#board", "#board .cell", ".hand .counters > div"):
        assert_in_view(page, selector)
    # Its rank, its place on demand, and what comes next, right there. A win without hints
    # has a rank once the fair-play review has found it clean: seconds of CPU, more on a
    # busy machine (the review's own tests allow as long).
    expect(end.locator("#end-standing-rank")).to_have_text(
        re.compile(r"^Rank \d+ on the board “All time, games played without hints”$"),
        timeout=REVIEW_DEADLINE,
    )
    for control in (
        end.get_by_role("button", name="Show my place"),
        end.get_by_role("button", name="Play again"),
        end.get_by_role("link", name="Analyse this game"),
    ):
        expect(control).to_be_visible()
        assert_in_view(page, f"#{control.get_attribute('id') or 'end-panel'}")
    # Nothing that applied to play is left, greyed or not.
    expect(page.locator("#current-box")).to_be_hidden()
    expect(page.get_by_role("button", name="Ask for a hint")).to_have_count(0)
    expect(page.get_by_role("heading", name="Your card")).to_have_count(0)
    expect(page.locator("#board-help")).to_be_hidden()
    expect(page.get_by_role("link", name="Analyse this game")).to_have_attribute(
        "href", f"#/games/{game_id}?analyse"
    )


def test_a_loss_says_why_where_the_player_looks_and_marks_the_move(
    table: Page, server: Server, api: httpx.Client
) -> None:
    page = table
    vector = lost_vector()
    game_id, token = store_game(server.database_url, vector["deck"], "loser")
    steps = [(s["row"], s["col"]) for s in vector["steps"]]
    play_through_api(api, game_id, token, steps[:-1])
    resume_in_page(page, server.base_url, game_id, token, "loser")
    place(page, *steps[-1])
    end = page.get_by_role("region", name="Game lost")
    face_down = vector["steps"][-1]["face_down_count"]
    expect(end).to_contain_text(f"More than four piles are face down: {face_down} of them")
    expect(end).to_contain_text(re.compile(r"turned \d cards? face down \(marked ↻\)"))
    assert_no_scrolling(page)
    for selector in ("#end-panel", "#board", "#board .cell", "#board .cell.placed"):
        assert_in_view(page, selector)
    row, col = steps[-1]
    placed = page.locator(f'#board .cell.placed[data-row="{row}"][data-col="{col}"]')
    expect(placed.locator(".tag-placed")).to_have_text("▼")
    expect(page.locator("#board .cell.flipped")).to_have_count(len(vector["steps"][-1]["flipped"]))
    for control in ("#play-again-button", "#end-analyse-link"):
        assert_in_view(page, control)
    expect(page.locator("#face-down-count")).to_have_text(f"{face_down} / 4")
    expect(page.get_by_role("button", name="New game")).to_have_count(0)


def test_a_win_is_celebrated_unless_less_motion_is_asked(
    browser: Browser, server: Server, api: httpx.Client
) -> None:
    vector = won_vectors()[1]
    steps = [(s["row"], s["col"]) for s in vector["steps"]]
    animations = {}
    for motion in ("no-preference", "reduce"):
        game_id, token = store_game(server.database_url, vector["deck"], "celebrated")
        play_through_api(api, game_id, token, steps[:-1])
        context, watcher = open_context(browser, server, DESKTOP, reduced_motion=motion)
        page = context.new_page()
        resume_in_page(page, server.base_url, game_id, token, "celebrated")
        place(page, *steps[-1])
        expect(page.locator("#board.celebrate")).to_have_count(1)
        card = page.locator("#board .cell.pile .card").first
        animations[motion] = (
            card.evaluate("card => getComputedStyle(card).animationName"),
            page.locator("#end-title").evaluate("e => getComputedStyle(e).animationName"),
        )
        # Announced where the player looks: the focus is on the result.
        expect(page.locator("#end-title")).to_be_focused()
        context.close()
        watcher.check()
    assert animations == {"no-preference": ("win-wave", "win-pop"), "reduce": ("none", "none")}


def test_each_mark_on_the_grid_has_its_own_shape(
    browser: Browser, server: Server, api: httpx.Client
) -> None:
    # A deal whose second placement flips a pile: a placed card and a flipped pile at once.
    vector = next(v for v in vectors() if v["steps"][1]["flipped"])
    game_id, token = store_game(server.database_url, vector["deck"], "marked")
    context, watcher = open_context(browser, server, DESKTOP, reduced_motion="reduce")
    page = context.new_page()
    resume_in_page(page, server.base_url, game_id, token, "marked")
    for step in vector["steps"][:2]:
        place(page, step["row"], step["col"])
    page.get_by_role("button", name="Ask for a hint").click()
    page.get_by_role("dialog").get_by_role("button", name="Ask for a hint").click()
    expect(page.locator("#board .cell.hinted")).to_have_count(1)
    tags = {
        ".cell.placed": ("tag-placed", "▼"),
        ".cell.flipped": ("tag-flipped", "↻"),
        ".cell.hinted": ("tag-hint", "★"),
        ".cell.pile.legal": ("tag-legal", "+"),
    }
    for cell, (tag, text) in tags.items():
        expect(page.locator(f"#board {cell} .{tag}").first).to_have_text(text)
        expect(page.locator(f"#board {cell} .{tag}").first).to_be_visible()
    # A new pile's cell is dashed with a "+" of its own; the flipped pile is named in words.
    new_cell = page.locator("#board .cell.legal:not(.pile) button.place-new").first
    assert new_cell.evaluate("b => getComputedStyle(b).borderTopStyle") == "dashed"
    assert new_cell.evaluate("b => getComputedStyle(b, '::after').content") == '"+"'
    flipped = page.locator("#board .cell.flipped button.place").first
    expect(flipped).to_have_attribute("aria-label", re.compile(r"just turned face (up|down)"))
    # Positions in words, never the API's coordinates.
    expect(page.locator("#last-move")).not_to_contain_text(re.compile(r"row -?\d|column -?\d"))
    expect(page.locator("#hint-text")).not_to_contain_text(re.compile(r"row -?\d|column -?\d"))
    context.close()
    watcher.check()

"""Playing in the browser: every placement drawn as the API answers it, to the end."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from testkit.server import Server
from tests.api.conformance import vectors, won_vectors
from tests.web.conftest import DESKTOP, PHONE, open_context
from tests.web.pages import (
    assert_page_shows,
    place_by_click,
    place_words,
    play_through_api,
    resume_in_page,
    start_game,
)
from tests.web.service import store_game

pytestmark = pytest.mark.slow


def test_a_whole_game_played_by_clicks_shows_what_the_api_says(
    desktop: Page, server: Server, api: httpx.Client, screenshot_dir: Path
) -> None:
    page = desktop
    created = start_game(page, server.base_url, "clicker")
    expect(page.get_by_role("button", name="Start a game")).to_be_hidden()
    game = api.get(f"/games/{created['id']}").json()
    assert_page_shows(page, game)
    page.screenshot(path=screenshot_dir / "1-start.png")
    rng = random.Random(13)
    moves = 0
    while game["status"] == "in_progress":
        target = rng.choice(game["legal_placements"])
        answer = place_by_click(page, target["row"], target["col"])
        moves += 1
        game = api.get(f"/games/{created['id']}").json()
        assert answer["game"] == game
        assert_page_shows(page, game)
        flipped = page.locator("#board .cell.flipped")
        expect(flipped).to_have_count(len(answer["placement"]["flipped"]))
        if moves == 6:
            page.screenshot(path=screenshot_dir / "2-mid-game.png")
    expect(page.get_by_role("button", name=re.compile("^Place "))).to_have_count(0)
    end = page.get_by_role("region", name=re.compile("^(You won!|Game lost)$"))
    expect(end).to_be_visible()
    if game["status"] == "won":
        expect(end).to_contain_text(f"Score {game['score']}")
    else:
        reason = {"too_many_face_down": "More than four piles", "stock_exhausted": "stock ran out"}
        expect(end).to_contain_text(reason[game["end_reason"]])
    expect(page.locator("#current-card")).to_have_attribute("aria-label", re.compile("^No current"))
    # What applied only to play is gone, not greyed: the card in hand, the hint, "New game".
    expect(page.locator("#current-card")).to_be_hidden()
    expect(page.get_by_role("button", name="Ask for a hint")).to_have_count(0)
    expect(page.get_by_role("button", name="New game")).to_have_count(0)
    expect(page.locator("#board-help")).to_be_hidden()
    expect(end.get_by_role("link", name="Analyse this game")).to_be_visible()
    page.screenshot(path=screenshot_dir / "3-end.png", full_page=True)
    if moves < 6:  # a game lost early still leaves a mid-game picture
        shutil.copy(screenshot_dir / "3-end.png", screenshot_dir / "2-mid-game.png")

    # Start again, under the same name.
    page.get_by_role("button", name="Play again").click()
    expect(page.get_by_role("region", name=re.compile("^(You won!|Game lost)$"))).to_be_hidden()
    expect(page.locator("#game")).to_have_attribute("data-status", "in_progress")
    expect(page.locator("#game-player")).to_have_text("clicker")


def test_a_won_deal_played_by_clicks_ends_on_the_score(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    vector = won_vectors()[0]
    game_id, token = store_game(server.database_url, vector["deck"], "winner")
    resume_in_page(desktop, server.base_url, game_id, token, "winner")
    for step in vector["steps"]:
        answer = place_by_click(desktop, step["row"], step["col"])
        flipped = [{"row": f["row"], "col": f["col"]} for f in answer["placement"]["flipped"]]
        assert flipped == step["flipped"]
        assert_page_shows(desktop, answer["game"])
    end = desktop.get_by_role("region", name="You won!")
    expect(end).to_contain_text(f"Score {vector['final']['score']}")
    assert api.get(f"/games/{game_id}").json()["status"] == "won"


def test_a_reload_mid_game_restores_the_game(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    created = start_game(desktop, server.base_url, "reloader")
    for row, col in [(0, 0), (0, 1), (1, 1)]:
        place_by_click(desktop, row, col)
    before = api.get(f"/games/{created['id']}").json()
    desktop.reload()
    assert_page_shows(desktop, before)
    expect(desktop.locator("#game-player")).to_have_text("reloader")
    # The token came back too: the game goes on.
    answer = place_by_click(desktop, 1, 0)
    assert answer["game"]["placements_count"] == 4
    assert_page_shows(desktop, api.get(f"/games/{created['id']}").json())


def test_cards_are_placed_with_the_keyboard(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    created = start_game(desktop, server.base_url, "keys")
    # After the start the focus is on the grid's only legal cell, (0, 0).
    expect(desktop.locator('#board .cell[data-row="0"][data-col="0"] button')).to_be_focused()
    with desktop.expect_response(lambda r: r.url.endswith("/placements")):
        desktop.keyboard.press("Enter")
    assert_page_shows(desktop, api.get(f"/games/{created['id']}").json())
    # The focus stays on the grid; the arrow keys move it between the legal cells.
    expect(desktop.locator('#board .cell[data-row="0"][data-col="0"] button')).to_be_focused()
    desktop.keyboard.press("ArrowRight")
    expect(desktop.locator('#board .cell[data-row="0"][data-col="1"] button')).to_be_focused()
    with desktop.expect_response(lambda r: r.url.endswith("/placements")):
        desktop.keyboard.press("Space")
    game = api.get(f"/games/{created['id']}").json()
    assert [(p["row"], p["col"]) for p in game["piles"]] == [(0, 0), (0, 1)]
    assert_page_shows(desktop, game)


def test_a_hint_says_first_that_the_game_becomes_assisted(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    created = start_game(desktop, server.base_url, "helped")
    place_by_click(desktop, 0, 0)
    desktop.get_by_role("button", name="Ask for a hint").click()
    dialog = desktop.get_by_role("dialog", name="Ask for a hint?")
    expect(dialog).to_contain_text("assisted")
    expect(dialog).to_contain_text("leaderboard")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert api.get(f"/games/{created['id']}").json()["assisted"] is False

    desktop.get_by_role("button", name="Ask for a hint").click()
    with desktop.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        dialog.get_by_role("button", name="Ask for a hint").click()
    hint = answer.value.json()["placement"]
    row, col = hint["row"], hint["col"]
    piles = api.get(f"/games/{created['id']}").json()["piles"]
    # The cell in words, as the table shows it (no coordinates), and marked on the grid.
    expect(desktop.locator("#hint-text")).to_contain_text(place_words(row, col, piles))
    expect(desktop.locator("#hint-text")).not_to_contain_text("row 0")
    expect(
        desktop.locator(f'#board .cell.hinted[data-row="{row}"][data-col="{col}"]')
    ).to_be_visible()
    expect(desktop.locator("#assisted-badge")).to_be_visible()
    game = api.get(f"/games/{created['id']}").json()
    assert game["assisted"] is True
    assert_page_shows(desktop, game)
    # Once assisted, a hint is given without asking again.
    with desktop.expect_response(lambda r: r.url.endswith("/hint")):
        desktop.get_by_role("button", name="Ask for a hint").click()
    expect(dialog).to_be_hidden()


# The fractions a chance is said in (web/static/js/format.js, written here again from its rule
# so that the test checks it rather than copies it).
SAID = [(1, 20), (1, 10), (1, 5), (1, 4), (1, 3), (2, 5), (1, 2), (3, 5), (2, 3), (3, 4)]
SAID += [(4, 5), (9, 10), (19, 20)]


def chance_words(probability: float) -> str:
    """A chance to win as people say it: almost certain, very unlikely, or the nearest of the
    fractions above (the first of two as near)."""
    if probability >= 0.97:
        return "a win is almost certain"
    if probability < 0.03:
        return "a win is very unlikely"
    n, d = min(SAID, key=lambda said: abs(said[0] / said[1] - probability))
    return "about an even chance to win" if 2 * n == d else f"about {n} in {d} to win"


def test_chance_words_cover_the_edges() -> None:
    assert chance_words(1.0) == chance_words(0.996) == "a win is almost certain"
    assert chance_words(0.0) == chance_words(0.004) == "a win is very unlikely"
    assert chance_words(0.74) == "about 3 in 4 to win"
    assert chance_words(0.5) == "about an even chance to win"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_a_hint_s_chance_is_said_in_words(
    browser: Browser, server: Server, api: httpx.Client, viewport: dict[str, int]
) -> None:
    mobile = viewport == PHONE
    context, watcher = open_context(
        browser, server, viewport, reduced_motion="reduce", has_touch=mobile, is_mobile=mobile
    )
    page = context.new_page()
    said = set()
    # Positions of the conformance games whose chance the hint puts at 0, about 0.95 and 1
    # (with the tests' cheap hints): the ends, where "0 %", "> 99 %" and "100 %" were said.
    for number, placed in ((6, 37), (3, 31), (0, 33)):
        vector = vectors()[number]
        moves = [(step["row"], step["col"]) for step in vector["steps"]]
        game_id, token = store_game(server.database_url, vector["deck"], "chancer")
        play_through_api(api, game_id, token, moves[:placed])
        resume_in_page(page, server.base_url, game_id, token, "chancer")
        expect(page.locator("#game")).to_have_attribute("data-version", str(placed + 1))
        page.get_by_role("button", name="Ask for a hint").click()
        with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
            page.get_by_role("dialog").get_by_role("button", name="Ask for a hint").click()
        words = chance_words(answer.value.json()["win_probability"])
        expect(page.locator("#hint-text")).to_contain_text(f"({words}; expected score ")
        expect(page.locator("#hint-text")).not_to_contain_text("%")
        said.add(words)
    assert len(said) >= 2, said
    context.close()
    watcher.check()


def test_flipped_piles_turn_over_unless_less_motion_is_asked(
    browser: Browser, server: Server
) -> None:
    vector = next(v for v in vectors() if v["steps"][1]["flipped"])
    animations = {}
    for motion in ("no-preference", "reduce"):
        game_id, token = store_game(server.database_url, vector["deck"], "mover")
        context, watcher = open_context(browser, server, DESKTOP, reduced_motion=motion)
        page = context.new_page()
        resume_in_page(page, server.base_url, game_id, token, "mover")
        for step in vector["steps"][:2]:
            place_by_click(page, step["row"], step["col"])
        flipped = page.locator("#board .cell.flipped .card").first
        expect(flipped).to_be_visible()
        animations[motion] = flipped.evaluate("card => getComputedStyle(card).animationName")
        expect(page.locator("#last-move")).to_contain_text(re.compile(r"turns? face (up|down)"))
        context.close()
        watcher.check()
    assert animations == {"no-preference": "turn-over", "reduce": "none"}

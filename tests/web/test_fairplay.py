"""The fair-play review in the browser: a win that followed the computer's choices is
announced as being checked, then as held, on the end panel; the player's page marks the held
games, and says when the account itself is marked. A server of its own (held wins would
show in the other tests' board captions), an account marked after two flagged wins."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from testkit import databases
from testkit.server import Server, running_server
from tests.api.test_fairplay import BEST_DEALS, line
from tests.web.conftest import DESKTOP, SERVER_ENV, open_context
from tests.web.pages import place_by_click, resume_in_page
from tests.web.service import store_game

REVIEW_DEADLINE = 180_000  # ms: a review is seconds of CPU on a shared machine
NAME = "copyist"


@pytest.fixture(scope="module")
def reviewing(
    _templates: databases.Templates, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, str]]:
    env = {**SERVER_ENV, "FOURSQUARE_FAIRPLAY_MARK_AFTER": "2"}
    folder: Path = tmp_path_factory.mktemp("fairplay")
    with _templates.database("sqlite", folder) as url, running_server(url, extra_env=env) as s:
        yield s, url


@pytest.fixture
def page(browser: Browser, reviewing: tuple[Server, str]) -> Iterator[Page]:
    context, watcher = open_context(browser, reviewing[0], DESKTOP, reduced_motion="reduce")
    opened = context.new_page()
    yield opened
    context.close()
    watcher.check()


def win_in_page(page: Page, server: Server, url: str, seed: int) -> str:
    """The computer's line on deal ``seed``, its last card placed in the page by a click."""
    deck, positions = line(seed, "best")
    game_id, token = store_game(url, deck, NAME, account=True)
    with httpx.Client(base_url=server.base_url, timeout=30) as api:
        for row, col in positions[:-1]:
            answer = api.post(
                f"/games/{game_id}/placements",
                json={"row": row, "col": col},
                headers={"Authorization": f"Bearer {token}"},
            )
            assert answer.status_code == 201, answer.text
    resume_in_page(page, server.base_url, game_id, token, NAME)
    assert place_by_click(page, *positions[-1])["game"]["status"] == "won"
    return game_id


def test_the_end_panel_and_the_players_page_say_what_the_review_did(
    page: Page, reviewing: tuple[Server, str]
) -> None:
    server, url = reviewing
    registered = httpx.post(f"{server.base_url}/players", json={"name": NAME}, timeout=30)
    assert registered.status_code == 201

    win_in_page(page, server, url, BEST_DEALS[0])
    verdict = page.locator("#end-fair-play")
    expect(verdict).to_contain_text("Checking this game before it joins the public boards")
    # The page follows the review and says what it found, without a reload.
    expect(verdict).to_contain_text("Held off the public boards", timeout=REVIEW_DEADLINE)
    expect(page.locator("#end-title")).to_have_text("You won!")

    page.goto(f"{server.base_url}/#/players/{NAME}")
    expect(page.locator("#player-games-table")).to_contain_text("held")
    expect(page.locator("#player-marked")).to_be_hidden()
    page.goto(f"{server.base_url}/#/leaderboard")
    expect(page.locator("#leaderboard-held")).to_contain_text("1 win of these days is not listed")

    # A second flagged win marks the account (two, on this server): its page says so.
    win_in_page(page, server, url, BEST_DEALS[1])
    expect(verdict).to_contain_text("Held off the public boards", timeout=REVIEW_DEADLINE)
    page.goto(f"{server.base_url}/#/players/{NAME}")
    expect(page.locator("#player-marked")).to_be_visible()
    expect(page.locator("#player-marked")).to_contain_text("marked by the fair-play review")

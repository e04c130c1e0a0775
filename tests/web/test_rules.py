"""How to play (#/rules): the rulebook's worked example to try, whose every placement gives
what the engine gives; and the first game of a new visitor offers the page, once."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from engine import Position
from testkit.server import Server
from tests.engine.factories import grid_of, worked_example
from tests.web.pages import board_piles, start_game

pytestmark = pytest.mark.slow


def engine_after(position: tuple[int, int]) -> tuple[dict[tuple[int, int], bool], int, str]:
    """The engine's grid (each pile's side) after the 6♦ at ``position`` in the example."""
    game = worked_example()
    result = game.place(position)
    sides = {at: up for at, (_cards, up) in grid_of(game).items()}
    return sides, result.face_down_count, game.status.value


def test_the_worked_example_gives_the_engines_results(desktop: Page, server: Server) -> None:
    page = desktop
    page.goto(server.base_url + "/")
    page.get_by_role("link", name="Rules").click()
    expect(page).to_have_url(re.compile("#/rules$"))
    expect(page.get_by_role("heading", name="How to play")).to_be_visible()
    board = page.locator("#rules-board")
    # The cells offered are the engine's legal placements.
    legal = sorted((p.row, p.col) for p in worked_example().legal_placements())
    offered = sorted(
        tuple(map(int, xy))
        for xy in board.locator("button.place").evaluate_all(
            "buttons => buttons.map(b => [b.closest('.cell').dataset.row,"
            " b.closest('.cell').dataset.col])"
        )
    )
    assert offered == legal
    assert Position(2, 0) not in worked_example().legal_placements()  # the rulebook's illegal
    # Each of the rulebook's placements, and every other legal cell, as the engine plays it.
    suggested = page.locator("#rules-tries-list button")
    expect(suggested).to_have_count(4)
    for position in legal:
        sides, face_down, status = engine_after(position)
        page.locator(
            f'#rules-board .cell[data-row="{position[0]}"][data-col="{position[1]}"] button'
        ).click()
        shown = {
            (p["row"], p["col"]): not p["top"]["back"] for p in board_piles(page, "#rules-board")
        }
        assert shown == sides, position
        expect(page.locator("#rules-face-down")).to_have_text(f"{face_down} / 4")
        outcome = page.locator("#rules-outcome")
        expect(outcome).to_contain_text("6♦ went")
        if status == "lost":
            expect(outcome).to_contain_text("this placement loses the game")
        else:
            expect(outcome).to_contain_text("play goes on")
        page.get_by_role("button", name="Take the 6♦ back and try another cell").click()
    # The rulebook's first placement, by its button: why each pile turned.
    suggested.first.click()
    outcome = page.locator("#rules-outcome")
    expect(outcome).to_contain_text("In its row the 6 is higher than every face-up card")
    expect(outcome).to_contain_text("In its column the 6 is lower than every face-up card (10♣)")
    expect(outcome).to_contain_text("A♣ turns face up")


def test_the_first_game_offers_the_rules_once(desktop: Page, server: Server) -> None:
    page = desktop
    start_game(page, server.base_url, "newcomer")
    offer = page.locator("#rules-offer")
    expect(offer).to_be_visible()
    expect(offer.get_by_role("link", name="Learn the rules in a minute")).to_have_attribute(
        "href", "#/rules"
    )
    # Still offered after a reload of that game; no more once dismissed, nor in later games.
    page.reload()
    expect(offer).to_be_visible()
    offer.get_by_role("button", name="No, thanks").click()
    expect(offer).to_be_hidden()
    page.reload()
    expect(page.locator("#game")).to_be_visible()
    expect(offer).to_be_hidden()

    # Another new visitor reads them from the offer: it is not offered again either.
    page.evaluate("() => localStorage.clear()")
    start_game(page, server.base_url, "reader")
    page.get_by_role("link", name="Learn the rules in a minute").click()
    expect(page.get_by_role("heading", name="How to play")).to_be_visible()
    page.get_by_role("link", name="Play", exact=True).click()
    expect(page.locator("#game")).to_be_visible()
    expect(offer).to_be_hidden()
    # The start form links to the rules too.
    page.get_by_role("button", name="New game").click()
    page.get_by_role("dialog").get_by_role("button", name="Leave it").click()
    expect(page.get_by_role("link", name="How to play, with an example to try")).to_be_visible()

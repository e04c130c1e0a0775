"""The leaderboard's pages, a won game replayed step by step, and its deal verified."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, Route, expect

from testkit.server import Server
from tests.api.conformance import card_json, vectors, won_vectors
from tests.support.fairplay import boarded
from tests.web.pages import END_WORDS, board_piles, card_drawing, play_through_api
from tests.web.service import store_game

pytestmark = pytest.mark.slow


@pytest.fixture
def won_games(server: Server, api: httpx.Client) -> list[tuple[str, dict[str, Any]]]:
    """Three won games, dealt from conformance vectors' decks and played through the API:
    (game id, vector), in the order they finished."""
    games = []
    for number, vector in enumerate(won_vectors()[:3], start=1):
        game_id, token = store_game(server.database_url, vector["deck"], f"winner {number}")
        positions = [(step["row"], step["col"]) for step in vector["steps"]]
        final = play_through_api(api, game_id, token, positions)
        assert final["status"] == "won"
        assert final["score"] == vector["final"]["score"]
        games.append((game_id, vector))
    # On the boards once the fair-play review finds each win clean.
    for game_id, _ in games:
        boarded(api, game_id)
    return games


def shown_rows(page: Page) -> list[list[str]]:
    rows: list[list[str]] = page.locator("#leaderboard-body tr").evaluate_all(
        "rows => rows.map(row => [...row.cells].slice(0, 3).map(cell => cell.textContent))"
    )
    return rows


def api_rows(
    api: httpx.Client, cursor: str | None, limit: int
) -> tuple[list[list[str]], str | None]:
    params: dict[str, str | int] = {"limit": limit, **({"cursor": cursor} if cursor else {})}
    page = api.get("/leaderboard", params=params).json()
    rows = [[str(e["rank"]), e["player"], str(e["score"])] for e in page["entries"]]
    return rows, page["next_cursor"]


def test_a_won_game_is_on_the_leaderboard_replayed_and_its_deal_verified(
    desktop: Page, server: Server, api: httpx.Client, won_games: list[tuple[str, dict[str, Any]]]
) -> None:
    page = desktop
    # The server is shared: two pages of whatever the board holds (three wins at least), the
    # last holding one entry.
    size = len(api.get("/leaderboard", params={"limit": 100}).json()["entries"])
    assert 3 <= size < 100
    limit = size - 1
    page.goto(f"{server.base_url}/#/leaderboard?limit={limit}")
    first_rows, cursor = api_rows(api, None, limit)
    second_rows, last_cursor = api_rows(api, cursor, limit)
    assert len(first_rows) == limit and len(second_rows) == 1 and last_cursor is None
    expect(page.locator("#leaderboard-body tr")).to_have_count(limit)
    assert shown_rows(page) == first_rows
    expect(page.get_by_role("button", name="Previous page")).to_be_disabled()
    page.get_by_role("button", name="Next page").click()
    expect(page.locator("#leaderboard-page")).to_have_text("Page 2")
    expect(page.locator("#leaderboard-body tr")).to_have_count(1)
    assert shown_rows(page) == second_rows
    expect(page.get_by_role("button", name="Next page")).to_be_disabled()
    page.get_by_role("button", name="Previous page").click()
    expect(page.locator("#leaderboard-page")).to_have_text("Page 1")
    assert shown_rows(page) == first_rows
    page.get_by_role("button", name="Next page").click()
    expect(page.locator("#leaderboard-page")).to_have_text("Page 2")

    # Open one of this test's games and step through its history.
    game_id, vector = won_games[-1]
    player = api.get(f"/games/{game_id}").json()["player"]
    rank = str(api.get(f"/games/{game_id}").json()["rank"])
    page.goto(f"{server.base_url}/#/leaderboard?limit=100")
    page.get_by_role("link", name=f"Replay the game of {player}, rank {rank}").click()
    expect(page).to_have_url(re.compile(f"#/games/{game_id}$"))
    expect(page.get_by_role("heading", name=f"Game of {player}")).to_be_visible()
    score = vector["final"]["score"]
    expect(page.locator("#replay-summary")).to_contain_text(f"won with a score of {score}")

    steps = vector["steps"]
    page.get_by_role("button", name="First", exact=True).click()
    expect(page.locator("#replay-step-text")).to_contain_text(f"Step 0 of {len(steps)}")
    assert board_piles(page, "#replay-board") == []
    for number, step in enumerate(steps, start=1):
        page.get_by_role("button", name="Next step").click()
        expect(page.locator("#replay-step-text")).to_contain_text(f"Step {number} of {len(steps)}")
        piles = board_piles(page, "#replay-board")
        placed = [(p["row"], p["col"], p["top"]) for p in piles if p["placed"]]
        card = card_drawing(card_json(vector["deck"][number - 1]))
        assert placed == [(step["row"], step["col"], card)], number
        flipped = [{"row": p["row"], "col": p["col"]} for p in piles if p["flipped"]]
        assert flipped == step["flipped"], number
        assert sum(p["top"]["back"] for p in piles) == step["face_down_count"]
        face_down = f"{step['face_down_count']} / 4"
        expect(page.locator("#replay-face-down")).to_have_text(face_down)
    expect(page.get_by_role("button", name="Next step")).to_be_disabled()
    final = [
        {
            "row": pile["row"],
            "col": pile["col"],
            "cards": len(pile["cards"]),
            "top": card_drawing(card_json(pile["cards"][-1]), pile["face_up"]),
        }
        for pile in vector["final"]["piles"]
    ]
    shown = [
        {k: p[k] for k in ("row", "col", "cards", "top")}
        for p in board_piles(page, "#replay-board")
    ]
    assert shown == final
    expect(page.locator("#replay-stock")).to_have_text(str(score))

    # Verify the deal in the page: every check passes.
    page.get_by_role("button", name="Verify the deal").click()
    results = page.locator("#verify-results li")
    expect(results.first).to_contain_text("Verdict: ✓ passed")
    expect(page.locator("#verify-results li.fail")).to_have_count(0)
    for check in ("Commitment", "Deck", "Cards played", "Rules", "Result"):
        expect(page.locator("#verify-results")).to_contain_text(f"{check}: ✓ passed")


def test_a_lost_game_says_why_in_words_in_its_replay_and_its_verification(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    page = desktop
    for reason in ("too_many_face_down", "stock_exhausted"):
        vector = next(v for v in vectors() if v["final"]["end_reason"] == reason)
        game_id, token = store_game(server.database_url, vector["deck"], f"loser {reason[:5]}")
        positions = [(step["row"], step["col"]) for step in vector["steps"]]
        final = play_through_api(api, game_id, token, positions)
        assert (final["status"], final["end_reason"]) == ("lost", reason)
        page.goto(f"{server.base_url}/#/games/{game_id}")
        expect(page.locator("#replay-summary")).to_contain_text(f"lost ({END_WORDS[reason]});")
        page.get_by_role("button", name="Verify the deal").click()
        expect(page.locator("#verify-results")).to_contain_text(
            f"Result: ✓ passed. Lost ({END_WORDS[reason]}), as the last placement says."
        )
        # Words for people: the API's code is nowhere on the page.
        expect(page.locator("body")).not_to_contain_text(reason)


def test_a_tampered_reveal_fails_the_verification(
    desktop: Page, server: Server, api: httpx.Client, won_games: list[tuple[str, dict[str, Any]]]
) -> None:
    game_id, _vector = won_games[0]
    game = api.get(f"/games/{game_id}").json()
    deck = game["reveal"]["deck"]
    # Another deck than the one committed to: the first two cards swapped.
    forged = {**game, "reveal": {**game["reveal"], "deck": [deck[1], deck[0], *deck[2:]]}}

    def answer_forged(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(forged))

    desktop.route(f"{server.base_url}/games/{game_id}", answer_forged)
    desktop.goto(f"{server.base_url}/#/games/{game_id}")
    desktop.get_by_role("button", name="Verify the deal").click()
    results = desktop.locator("#verify-results")
    expect(results).to_contain_text("Verdict: ✗ failed")
    expect(results).to_contain_text("Commitment: ✗ failed")
    expect(results).to_contain_text("Cards played: ✗ failed")
    expect(results).to_contain_text("Deck: ✓ passed")


def test_the_verify_button_waits_for_the_game_to_be_read(
    desktop: Page, server: Server, won_games: list[tuple[str, dict[str, Any]]]
) -> None:
    # A click while the game was still loading once verified nothing (a TypeError on null).
    game_id, _vector = won_games[0]
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    desktop.route(f"{server.base_url}/games/{game_id}", hold)
    desktop.goto(f"{server.base_url}/#/games/{game_id}")
    expect(desktop.locator("#replay-summary")).to_have_text("Loading…")
    # Not offered at all until the game is read (nor disabled beneath).
    expect(desktop.locator("#verify-button")).to_be_hidden()
    expect(desktop.locator("#verify-button")).to_be_disabled()
    button = desktop.get_by_role("button", name="Verify the deal")
    for _ in range(1200):  # the handler runs while Playwright dispatches events; 60 s at most
        if held:
            break
        desktop.wait_for_timeout(50)
    assert held, "the game's request never reached the route handler"
    held[0].continue_()
    expect(button).to_be_enabled()
    button.click()
    expect(desktop.locator("#verify-results")).to_contain_text("Verdict: ✓ passed")

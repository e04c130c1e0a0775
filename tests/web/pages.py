"""Reading and driving the web client in tests, and games made for them."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from api.core.database import create_database
from api.core.settings import Settings
from api.games import dealing as games

SUITS = {"clubs": "\u2663", "diamonds": "\u2666", "hearts": "\u2665", "spades": "\u2660"}
RED = {"diamonds", "hearts"}

# What the play view shows, read from the document (the same shape as drawing_of(game)).
_READ_PLAY_VIEW = """() => {
  const board = document.getElementById("board");
  const current = document.querySelector("#current-card .card");
  const card = (element) => element && {
    rank: element.querySelector(".rank")?.textContent ?? null,
    suit: element.querySelector(".suit")?.textContent ?? null,
    colour: ["red", "black"].find((colour) => element.classList.contains(colour)) ?? null,
    back: element.classList.contains("face-down"),
  };
  return {
    version: Number(document.getElementById("game").dataset.version),
    status: document.getElementById("game").dataset.status,
    current: card(current),
    stock: document.getElementById("stock-count").textContent,
    face_down: document.getElementById("face-down-count").textContent,
    piles: [...board.querySelectorAll(".cell.pile")].map((cell) => ({
      row: Number(cell.dataset.row),
      col: Number(cell.dataset.col),
      cards: Number(cell.dataset.count),
      top: card(cell.querySelector(".card")),
    })),
    legal: [...board.querySelectorAll("button.place")].map((button) => {
      const cell = button.closest(".cell");
      return [Number(cell.dataset.row), Number(cell.dataset.col)];
    }),
  };
}"""


_READ_BOARD = """(board) => [...board.querySelectorAll(".cell.pile")].map((cell) => {
  const card = cell.querySelector(".card");
  return {
    row: Number(cell.dataset.row),
    col: Number(cell.dataset.col),
    cards: Number(cell.dataset.count),
    top: {
      rank: card.querySelector(".rank")?.textContent ?? null,
      suit: card.querySelector(".suit")?.textContent ?? null,
      colour: ["red", "black"].find((colour) => card.classList.contains(colour)) ?? null,
      back: card.classList.contains("face-down"),
    },
    placed: cell.classList.contains("placed"),
    flipped: cell.classList.contains("flipped"),
  };
})"""


def board_piles(page: Page, selector: str) -> list[dict[str, Any]]:
    """The piles a board shows, sorted, with their placed/flipped marks."""
    piles: list[dict[str, Any]] = page.locator(selector).evaluate(_READ_BOARD)
    return sorted(piles, key=lambda p: (p["row"], p["col"]))


def card_drawing(card: dict[str, Any] | None, face_up: bool = True) -> dict[str, Any] | None:
    """How a card of the API must look: rank and suit symbol in red or black, or a back."""
    if card is None:
        return None
    if not face_up:
        return {"rank": None, "suit": None, "colour": None, "back": True}
    rank = "A" if card["rank"] == 1 else str(card["rank"])
    colour = "red" if card["suit"] in RED else "black"
    return {"rank": rank, "suit": SUITS[card["suit"]], "colour": colour, "back": False}


def drawing_of(game: dict[str, Any]) -> dict[str, Any]:
    """What the play view must show for a game as the API answers it."""
    return {
        "version": game["version"],
        "status": game["status"],
        "current": card_drawing(game["current_card"]),
        "stock": str(game["stock_count"]),
        "face_down": f"{game['face_down_count']} / 4",
        "piles": [
            {
                "row": pile["row"],
                "col": pile["col"],
                "cards": len(pile["cards"]),
                "top": card_drawing(pile["cards"][-1], pile["face_up"]),
            }
            for pile in game["piles"]
        ],
        "legal": [[p["row"], p["col"]] for p in game["legal_placements"]],
    }


def shown_game(page: Page, version: int) -> dict[str, Any]:
    """What the play view shows, once it has drawn the game's ``version``."""
    expect(page.locator("#game")).to_have_attribute("data-version", str(version))
    shown: dict[str, Any] = page.evaluate(_READ_PLAY_VIEW)
    return shown


def assert_page_shows(page: Page, game: dict[str, Any]) -> None:
    """The page draws exactly the game the API answers: grid, current card, counts."""
    shown = shown_game(page, game["version"])
    expected = drawing_of(game)
    shown["piles"].sort(key=lambda p: (p["row"], p["col"]))
    shown["legal"].sort()
    expected["legal"].sort()
    assert shown == expected


def place_button(page: Page, row: int, col: int) -> Any:
    return page.get_by_role("button", name=re.compile(rf"^Place .+ at row {row}, column {col},"))


def place_by_click(page: Page, row: int, col: int) -> dict[str, Any]:
    """Click the cell (row, col); returns the API's answer to the placement it sent."""
    with page.expect_response(
        lambda r: r.url.endswith("/placements") and r.request.method == "POST"
    ) as answer:
        place_button(page, row, col).click()
    body: dict[str, Any] = answer.value.json()
    return body


def start_game(page: Page, base_url: str, player: str) -> dict[str, Any]:
    """Open the page and start a game under ``player``; returns the API's new game."""
    page.goto(base_url + "/")
    page.get_by_label("Your name").fill(player)
    with page.expect_response(
        lambda r: r.url.endswith("/games") and r.request.method == "POST"
    ) as answer:
        page.get_by_role("button", name="Start a game").click()
    created: dict[str, Any] = answer.value.json()
    expect(page.locator("#game")).to_have_attribute("data-version", str(created["version"]))
    return created


def store_game(database_url: str, deck: list[str], player: str) -> tuple[str, str]:
    """A game dealt from ``deck`` (which the public API cannot do), stored directly in the
    server's database; returns its id and token."""
    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    try:
        with database.transaction() as session:
            created = games.start_game(session, player, deck=deck)
            session.flush()
            return str(created.game.id), created.token
    finally:
        database.dispose()


def play_through_api(
    api: httpx.Client, game_id: str, token: str, positions: list[tuple[int, int]]
) -> dict[str, Any]:
    """Place at each position with the game's token; returns the last game."""
    game: dict[str, Any] = {}
    for row, col in positions:
        response = api.post(
            f"/games/{game_id}/placements",
            json={"row": row, "col": col},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 201, response.text
        game = response.json()["game"]
    return game


def resume_in_page(page: Page, base_url: str, game_id: str, token: str, player: str) -> None:
    """Make the page hold a game as if it had started it (its localStorage), then load it."""
    page.goto(base_url + "/")
    saved = json.dumps({"id": game_id, "token": token, "player": player})
    page.evaluate("saved => localStorage.setItem('foursquare.game', saved)", saved)
    page.reload()


# Everything a person can focus and operate.
CONTROLS = "button, a[href], input, select, textarea, [tabindex]:not([tabindex='-1'])"


def assert_fits_and_reachable(page: Page, where: str) -> None:
    """No horizontal scrolling, and every visible control inside the viewport's width, at
    least 24 px square, and operable (not covered)."""
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], f"{where}: horizontal scrolling ({widths})"
    controls = page.locator(CONTROLS).filter(visible=True)
    count = controls.count()
    assert count > 0
    viewport = page.viewport_size
    assert viewport is not None
    for index in range(count):
        control = controls.nth(index)
        control.focus()  # a skip link shows itself when focused
        control.scroll_into_view_if_needed()
        box = control.bounding_box()
        assert box is not None, f"{where}: control {index} has no box"
        name = control.evaluate("e => e.getAttribute('aria-label') || e.textContent || e.id")
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5, (where, name)
        assert box["width"] >= 24 and box["height"] >= 24, (where, name, box)
        if control.is_enabled():
            control.click(trial=True)  # visible, stable, enabled and not covered

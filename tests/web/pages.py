"""Reading and driving the web client in tests, and games made for them."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import httpx
from playwright.sync_api import Page, expect

SUITS = {"clubs": "\u2663", "diamonds": "\u2666", "hearts": "\u2665", "spades": "\u2660"}
RED = {"diamonds", "hearts"}
# Why a game was lost, in the one wording every view shows after "lost" (web/static/js/game.js).
END_WORDS = {
    "too_many_face_down": "more than four piles face down",
    "stock_exhausted": "the stock ran out",
    "abandoned": "the game was left untouched too long",
}

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
    """The button of the grid's cell (row, col) (the API's coordinates, kept in the cell's
    data attributes: the page names cells in words)."""
    return page.locator(f'#board .cell[data-row="{row}"][data-col="{col}"] button.place')


_ORDINALS = ["first", "second", "third", "fourth"]


def _row_words(index: int, count: int) -> str:
    if count == 1:
        return "the row"
    if index == 0:
        return "top row"
    if index == count - 1:
        return "bottom row"
    if count % 2 == 1 and index == (count - 1) // 2:
        return "middle row"
    return f"{_ORDINALS[index]} row"


def _column_words(index: int, count: int) -> str:
    if count == 1:
        return ""
    if index == 0:
        return "far left"
    if index == count - 1:
        return "far right"
    if count % 2 == 1 and index == (count - 1) // 2:
        return "middle"
    if index < count / 2:
        return f"{_ORDINALS[index]} from the left"
    return f"{_ORDINALS[count - 1 - index]} from the right"


def place_words(row: int, col: int, piles: list[dict[str, Any]]) -> str:
    """How the page names the cell (row, col) on a table of ``piles`` (the API's): written
    here from the rules of words.js, so that the tests check them, not copy them."""
    if not piles:
        return "the middle of the table"
    top, bottom = min(p["row"] for p in piles), max(p["row"] for p in piles)
    left, right = min(p["col"] for p in piles), max(p["col"] for p in piles)
    rows, cols = bottom - top + 1, right - left + 1
    if rows == 1 and cols == 1:
        if row != top:
            return "above the first card" if row < top else "below the first card"
        if col != left:
            return "left of the first card" if col < left else "right of the first card"
        return "the first card's place"
    row_text, col_text = _row_words(row - top, rows), _column_words(col - left, cols)

    def joined(first: str) -> str:
        return f"{first}, {col_text}" if col_text else first

    if row < top:
        return joined("above the row" if rows == 1 else "above the top row")
    if row > bottom:
        return joined("below the row" if rows == 1 else "below the bottom row")
    if col < left or col > right:
        end = "left" if col < left else "right"
        return f"at the {end} end of {'the row' if rows == 1 else 'the ' + row_text}"
    if cols == 1:
        return row_text
    return joined(row_text)


def place_by_click(page: Page, row: int, col: int) -> dict[str, Any]:
    """Click the cell (row, col); returns the API's answer to the placement it sent."""
    with page.expect_response(
        lambda r: r.url.endswith("/placements") and r.request.method == "POST"
    ) as answer:
        place_button(page, row, col).click()
    body: dict[str, Any] = answer.value.json()
    return body


def start_game(page: Page, base_url: str, player: str) -> dict[str, Any]:
    """Open the page (loaded anew: the home page), go to the play view and start a game under
    ``player``; returns the API's new game."""
    page.goto(base_url + "/")
    page.goto(base_url + "/#/play")
    page.get_by_label("Your name").fill(player)
    with page.expect_response(
        lambda r: r.url.endswith("/games") and r.request.method == "POST"
    ) as answer:
        page.get_by_role("button", name="Start a game").click()
    created: dict[str, Any] = answer.value.json()
    expect(page.locator("#game")).to_have_attribute("data-version", str(created["version"]))
    return created


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
    page.goto(base_url + "/#/play")
    saved = json.dumps({"id": game_id, "token": token, "player": player})
    page.evaluate("saved => localStorage.setItem('foursquare.game', saved)", saved)
    page.reload()


# Everything a person can focus and operate.
CONTROLS = "button, a[href], input, select, textarea, [tabindex]:not([tabindex='-1'])"


# Each visible control, focused (a skip link shows itself when focused) and scrolled into
# view, measured, and hit-tested at its centre (what a click there would reach: the control
# itself, or what it contains, or the control its label names), in one round trip: a page has
# a hundred controls, and a trip to the browser for each check took seconds a page.
_MEASURE_CONTROLS = """(selector) => {
  const visible = (e) => {
    const style = getComputedStyle(e);
    const box = e.getBoundingClientRect();
    return style.visibility !== "hidden" && box.width > 0 && box.height > 0;
  };
  return [...document.querySelectorAll(selector)].filter(visible).map((e) => {
    e.focus({ preventScroll: true });
    e.scrollIntoView({ block: "nearest", inline: "nearest" });
    const box = e.getBoundingClientRect();
    const enabled = !e.disabled && !e.closest("fieldset:disabled");
    let hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (hit && hit.control) hit = hit.control;
    const reached =
      Boolean(hit) && (hit === e || e.contains(hit) || hit.closest("label")?.control === e);
    const name = e.getAttribute("aria-label") || e.textContent.trim() || e.id || e.tagName;
    return { name, x: box.left, width: box.width, height: box.height, enabled, reached,
             cover: hit ? hit.outerHTML.slice(0, 80) : null };
  });
}"""


def assert_fits_and_reachable(page: Page, where: str) -> None:
    """No horizontal scrolling, and every visible control inside the viewport's width, at
    least 24 px square, and operable (an enabled one is not covered where it is clicked)."""
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], f"{where}: horizontal scrolling ({widths})"
    viewport = page.viewport_size
    assert viewport is not None
    controls: list[dict[str, Any]] = page.evaluate(_MEASURE_CONTROLS, CONTROLS)
    assert controls, f"{where}: no control"
    for control in controls:
        name = control["name"]
        assert control["x"] >= 0, (where, name, control)
        assert control["x"] + control["width"] <= viewport["width"] + 0.5, (where, name, control)
        assert control["width"] >= 24 and control["height"] >= 24, (where, name, control)
        if control["enabled"]:
            assert control["reached"], (where, name, "covered by", control["cover"])


def replayed_piles(placements: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The piles after ``placements`` (the API's history), from their flips."""
    piles: dict[tuple[int, int], dict[str, Any]] = {}
    for placement in placements:
        at = (placement["row"], placement["col"])
        pile = piles.setdefault(at, {"row": at[0], "col": at[1], "cards": []})
        pile["cards"].append(placement["card"])
        pile["face_up"] = True
        for flip in placement["flipped"]:
            piles[(flip["row"], flip["col"])]["face_up"] = flip["face_up"]
    return [piles[at] for at in sorted(piles)]


@cache
def _axe_source() -> str:
    """axe-core, as the ``axe-playwright-python`` package ships it (a test dependency: the
    page never loads it)."""
    return (resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


def assert_accessible(page: Page, where: str) -> None:
    """axe-core finds no serious or critical violation on the page as it is drawn now."""
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(_axe_source())
    results: dict[str, Any] = page.evaluate(
        "() => axe.run(document, {resultTypes: ['violations']})"
    )
    bad = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
    report = [
        f"{v['id']} ({v['impact']}): {v['help']}: "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in bad
    ]
    assert report == [], f"{where}: accessibility violations"


# Every badge of a board (the marks' tags, a pile's height) and every rank and suit of its
# face-up cards' corners, measured in one round trip: pairs that overlap, named.
_BADGES_OVER_CORNERS = """(board) => {
  const shown = (e) => {
    const box = e.getBoundingClientRect();
    return getComputedStyle(e).display !== "none" && box.width > 0 && box.height > 0;
  };
  const name = (e) => {
    const cell = e.closest(".cell");
    return `${e.className} "${e.textContent}" at ${cell?.dataset.row},${cell?.dataset.col}`;
  };
  const badges = [...board.querySelectorAll(".tag, .pile-count")].filter(shown);
  const corners = ".card.face-up .corner .rank, .card.face-up .corner .suit";
  const marks = [...board.querySelectorAll(corners)];
  const over = [];
  for (const badge of badges) {
    const a = badge.getBoundingClientRect();
    for (const mark of marks) {
      const b = mark.getBoundingClientRect();
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
        over.push(`${name(badge)} covers ${name(mark)}`);
      }
    }
  }
  return { badges: badges.length, marks: marks.length, over };
}"""


def assert_badges_clear(page: Page, board: str, where: str) -> int:
    """No badge of the board ``board`` (a selector) covers a card's rank or suit; returns how
    many badges were measured (a test says which it expects)."""
    found: dict[str, Any] = page.locator(board).evaluate(_BADGES_OVER_CORNERS)
    assert found["marks"] > 0, f"{where}: no card's corner on {board}"
    assert found["over"] == [], f"{where}: badges cover cards' ranks or suits"
    count: int = found["badges"]
    return count


def assert_in_view(page: Page, selector: str) -> None:
    """Every element ``selector`` finds is drawn inside the viewport as the page is scrolled
    now: its whole box."""
    viewport = page.viewport_size
    assert viewport is not None
    boxes = page.locator(selector).evaluate_all(
        "elements => elements.map(e => { const b = e.getBoundingClientRect();"
        " return [b.left, b.top, b.right, b.bottom, b.width * b.height]; })"
    )
    assert boxes, f"nothing matches {selector}"
    for left, top, right, bottom, area in boxes:
        assert area > 0, f"{selector} is not drawn"
        assert left >= -0.5 and top >= -0.5, (selector, left, top)
        assert right <= viewport["width"] + 0.5, (selector, right, viewport)
        assert bottom <= viewport["height"] + 0.5, (selector, bottom, viewport)


# Each name's text as it is drawn, "|" where a line ends inside it (its characters' boxes,
# one by one: the line a character is on is the top of its box).
_NAME_LINES = """(names) => names.map((name) => {
  let text = "";
  let top = null;
  const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const box = range.getBoundingClientRect();
      if (top !== null && box.top > top + box.height / 2) text += "|";
      top = top === null ? box.top : Math.max(top, box.top);
      text += node.data[i];
    }
  }
  return text;
})"""


def name_lines(page: Page, selector: str) -> list[str]:
    """The names ``selector`` finds (``.name`` elements), each as drawn: ``hinterdeskto|p``
    for a name broken onto two lines (characters cut off by an ellipsis are on its line)."""
    lines: list[str] = page.locator(selector).evaluate_all(_NAME_LINES)
    return lines


# Every frame for ``ms`` milliseconds: each card of a board while its win wave runs, measured
# against its cell (a card running over its neighbours leaves its cell), and which of its
# animations run at once; and the animations of the card just placed (names, delays, durations).
_WAVE_FRAMES = """([selector, ms]) => new Promise((resolve) => {
  const board = document.querySelector(selector);
  const placed = getComputedStyle(board.querySelector(".cell.placed .card"));
  const found = { frames: 0, waving: 0, outside: [], together: [],
                  placed: [placed.animationName, placed.animationDelay, placed.animationDuration] };
  const end = performance.now() + ms;
  const frame = () => {
    found.frames += 1;
    for (const card of board.querySelectorAll(".cell.pile .card")) {
      const running = card.getAnimations()
        .filter((a) => a.effect.getComputedTiming().progress !== null)
        .map((a) => a.animationName);
      if (!running.includes("win-wave")) continue;
      found.waving += 1;
      if (running.length > 1) found.together.push(running.join(" + "));
      const cell = card.closest(".cell").getBoundingClientRect();
      const box = card.getBoundingClientRect();
      const out = Math.max(cell.top - box.top, box.bottom - cell.bottom,
                           cell.left - box.left, box.right - cell.right);
      if (out > 0.5) found.outside.push(`${card.closest(".cell").dataset.code} by ${out} px`);
    }
    if (performance.now() < end) requestAnimationFrame(frame);
    else resolve(found);
  };
  requestAnimationFrame(frame);
})"""


def wave_frames(page: Page, board: str, ms: int = 4000) -> dict[str, Any]:
    """How the win wave of ``board`` (a selector) ran, frame by frame, for ``ms`` ms."""
    found: dict[str, Any] = page.evaluate(_WAVE_FRAMES, [board, ms])
    return found

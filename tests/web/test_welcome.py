"""A new player's welcome (issue 35), at 1280 x 800, 1366 x 768 and on a 390 x 844 phone:
the cards stay readable under their badges on the table, in a replay and on the rules page;
the home page starts a game in one press and shows today's challenge, the games being played
and today's best; names are checked as they are typed by the API's own rule; the leaderboard
says why it is short; the Live list follows games as they begin and end, without a reload.
Every page is axe-core clean, with no console error (conftest.Watcher)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from testkit.server import Server
from tests.api.conformance import vectors, won_vectors
from tests.support.fairplay import boarded
from tests.web.conftest import DESKTOP, LAPTOP, PHONE, open_context
from tests.web.pages import (
    assert_accessible,
    assert_badges_clear,
    assert_fits_and_reachable,
    place_by_click,
    play_through_api,
    resume_in_page,
)
from tests.web.service import store_game

pytestmark = pytest.mark.slow

SIZES = {"1280x800": DESKTOP, "1366x768": LAPTOP, "390x844": PHONE}


@pytest.fixture(params=list(SIZES))
def page(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Iterator[Page]:
    """A watched page at each of the three sizes (a touch phone at 390 x 844)."""
    viewport = SIZES[request.param]
    mobile = viewport == PHONE
    context, watcher = open_context(
        browser, server, viewport, reduced_motion="reduce", has_touch=mobile, is_mobile=mobile
    )
    yield context.new_page()
    context.close()
    watcher.check()


def play_out_randomly(api: httpx.Client, created: dict[str, Any], seed: int) -> dict[str, Any]:
    """Random legal placements through the API until the game ends (random play loses fast)."""
    rng = random.Random(seed)
    game = created
    auth = {"Authorization": f"Bearer {created['token']}"}
    while game["status"] == "in_progress":
        cell = rng.choice(game["legal_placements"])
        answer = api.post(f"/games/{created['id']}/placements", json=cell, headers=auth)
        assert answer.status_code == 201, answer.text
        game = answer.json()["game"]
    return game


# ---------------------------------------------------------------- 1. cards stay readable


def test_no_badge_covers_a_card_s_rank_or_suit(
    page: Page, server: Server, api: httpx.Client
) -> None:
    # The table mid-game: the card just played, the piles it turned, the hint, the legal
    # placements on piles, the piles' heights.
    vector = next(v for v in vectors() if v["steps"][1]["flipped"])
    game_id, token = store_game(server.database_url, vector["deck"], "readable")
    play_through_api(api, game_id, token, [(s["row"], s["col"]) for s in vector["steps"][:1]])
    resume_in_page(page, server.base_url, game_id, token, "readable")
    place_by_click(page, vector["steps"][1]["row"], vector["steps"][1]["col"])
    page.get_by_role("button", name="Ask for a hint").click()
    page.get_by_role("dialog").get_by_role("button", name="Ask for a hint").click()
    expect(page.locator("#board .cell.hinted")).to_have_count(1)
    for mark in (".tag-placed", ".tag-flipped", ".tag-hint"):
        expect(page.locator(f"#board {mark}").first).to_be_visible()
    assert assert_badges_clear(page, "#board", "mid-game") >= 3

    # A won table: every pile face up, many of them stacked (their heights shown).
    won = won_vectors()[0]
    steps = [(s["row"], s["col"]) for s in won["steps"]]
    game_id, token = store_game(server.database_url, won["deck"], "readable")
    play_through_api(api, game_id, token, steps[:-1])
    resume_in_page(page, server.base_url, game_id, token, "readable")
    place_by_click(page, *steps[-1])
    expect(page.get_by_role("region", name="You won!")).to_be_visible()
    assert assert_badges_clear(page, "#board", "won table") >= 5

    # Its replay, stepped back to a move that turned piles.
    page.goto(f"{server.base_url}/#/games/{game_id}")
    expect(page.locator("#replay-board .cell.pile")).to_have_count(16)
    assert assert_badges_clear(page, "#replay-board", "replay") >= 5
    turning = max(i for i, s in enumerate(won["steps"]) if s["flipped"]) + 1
    page.locator("#replay-range").fill(str(turning))
    expect(page.locator("#replay-board .cell.flipped").first).to_be_visible()
    assert assert_badges_clear(page, "#replay-board", "replay, a move that turned piles") >= 2

    # The rules page's example, after a try.
    page.goto(f"{server.base_url}/#/rules")
    page.locator("#rules-tries-list button").first.click()
    expect(page.locator("#rules-outcome")).to_contain_text("6♦ went")
    assert assert_badges_clear(page, "#rules-board", "rules example") >= 1
    assert_accessible(page, "rules, a try")


def test_the_replay_marks_the_computer_s_choice_once_and_off_the_cards(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    page = desktop
    vector = won_vectors()[2]
    game_id, token = store_game(server.database_url, vector["deck"], "reviewed")
    play_through_api(api, game_id, token, [(s["row"], s["col"]) for s in vector["steps"]])
    page.goto(f"{server.base_url}/#/games/{game_id}?analyse")
    expect(page.locator("#analysis-summary")).to_contain_text("Analysis done", timeout=120_000)
    reviews = api.get(f"/games/{game_id}/analysis").json()["result"]["placements"]
    other = next((r for r in reviews if r["label"] not in ("best",) and not r["forced"]), None)
    if other is None:
        pytest.skip("every placement of this game was the computer's choice")
    page.get_by_role("button", name=f"Show placement {other['number']} in the replay").click()
    best = page.locator("#replay-board .cell.best")
    expect(best).to_have_count(1)
    # One mark, a badge of its own: no second label drawn over the cards above it.
    expect(best.locator(".tag-best")).to_have_count(1)
    assert best.evaluate("cell => getComputedStyle(cell, '::before').content") in ("none", "normal")
    assert_badges_clear(page, "#replay-board", "replay, the computer's choice")


# ---------------------------------------------------------------- 2. and 3. the home page


def test_the_home_page_starts_a_game_in_one_press_and_shows_the_site(
    page: Page, server: Server, api: httpx.Client
) -> None:
    playing = api.post("/games", json={"player": "someone-playing"}).json()
    won = won_vectors()[1]
    winner_id, token = store_game(server.database_url, won["deck"], "best-today")
    play_through_api(api, winner_id, token, [(s["row"], s["col"]) for s in won["steps"]])
    # A win without hints joins today's best once its fair-play review finds it clean.
    boarded(api, winner_id)

    page.goto(server.base_url + "/")
    expect(page).to_have_title("Foursquare: a card game for one")
    home = page.locator("#home-view")
    expect(home.get_by_role("button", name="Start a game")).to_be_visible()
    # Today's challenge, whether this player played it (a guest: how to play it).
    daily = home.get_by_role("region", name="Today's challenge")
    expect(daily).to_contain_text("Register a name to play it")
    expect(daily.get_by_role("link", name="Open today's challenge")).to_have_attribute(
        "href", "#/daily"
    )
    # The games being played, each a link to watch it; a guest's name is no link.
    live = home.get_by_role("region", name="Being played now")
    row = live.locator(f'li[data-game-id="{playing["id"]}"]')
    expect(row.get_by_role("link", name="Watch the game of someone-playing")).to_have_attribute(
        "href", f"#/live/{playing['id']}"
    )
    expect(row.get_by_role("link", name="someone-playing", exact=True)).to_have_count(0)
    # Today's best scores, each a link to its replay.
    best = home.get_by_role("region", name="Best scores today")
    today = api.get("/leaderboard", params={"period": "day", "limit": 5}).json()["entries"]
    assert winner_id in {
        entry["game_id"]
        for entry in api.get("/leaderboard", params={"period": "day", "limit": 100}).json()[
            "entries"
        ]
    }
    expect(best.locator("li a[href^='#/games/']")).to_have_count(len(today))
    links = best.locator("li a[href^='#/games/']").evaluate_all(
        "links => links.map((link) => link.getAttribute('href'))"
    )
    assert links == [f"#/games/{entry['game_id']}" for entry in today]
    # An account's name links to its page; a guest's (best-today's) is no link.
    expect(best.locator("li a[href^='#/players/']")).to_have_count(
        sum(entry["registered"] for entry in today)
    )
    expect(best.get_by_role("link", name="best-today", exact=True)).to_have_count(0)
    # The menu fits one line, at every size.
    tops = page.locator("nav[aria-label=Main] li").evaluate_all(
        "items => items.map((item) => Math.round(item.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, tops
    assert_fits_and_reachable(page, "home")
    assert_accessible(page, "home")

    # A name is checked as it is typed, by the API's own rule: said in words, never sent.
    field = home.get_by_label("Name (optional)")
    field.fill("no way")
    check = page.locator("#home-name-check")
    expect(check).to_have_text("A name may hold only letters A to Z, digits, _ and -: not a space.")
    expect(field).to_have_attribute("aria-invalid", "true")
    assert_accessible(page, "home, a name refused")
    field.fill("ab")
    expect(check).to_have_text("A name has at least 3 characters.")
    field.fill("")
    expect(check).to_be_hidden()

    # One press: a guest's game, at the table.
    with page.expect_response(
        lambda r: r.url.endswith("/games") and r.request.method == "POST"
    ) as answer:
        home.get_by_role("button", name="Start a game").click()
    created = answer.value.json()
    assert answer.value.status == 201 and created["player"] == "anonymous"
    expect(page).to_have_url(f"{server.base_url}/#/play")
    expect(page.locator("#game")).to_have_attribute("data-version", str(created["version"]))
    # Home again: the way back to the game.
    page.get_by_role("link", name="Foursquare", exact=True).click()
    expect(home.get_by_role("link", name="Back to your game")).to_be_visible()


# ---------------------------------------------------------------- 5. why a board is short


@pytest.mark.provokes_errors  # the assisted game is on no default board: the standing's 409
def test_the_leaderboard_says_how_many_wins_with_hints_it_leaves_out(
    page: Page, server: Server, api: httpx.Client
) -> None:
    vector = won_vectors()[3]
    game_id, token = store_game(server.database_url, vector["deck"], "helped-newcomer")
    assert api.get(
        f"/games/{game_id}/hint", headers={"Authorization": f"Bearer {token}"}
    ).is_success
    steps = [(s["row"], s["col"]) for s in vector["steps"]]
    play_through_api(api, game_id, token, steps[:-1])
    resume_in_page(page, server.base_url, game_id, token, "helped-newcomer")
    place_by_click(page, *steps[-1])
    end = page.get_by_role("region", name="You won!")
    expect(end.locator("#end-standing-rank")).to_contain_text(
        "on the board “All time, assisted games included”"
    )
    end.get_by_role("link", name="See the board").click()
    expect(page.locator("#leaderboard-window")).to_have_text("All time, assisted games included")
    expect(page.locator(f'#leaderboard-body tr[data-game-id="{game_id}"]')).to_have_count(1)

    # The default board: how many wins with hints it leaves out, and the switch.
    page.goto(f"{server.base_url}/#/leaderboard")
    expect(page.locator("#leaderboard-window")).to_have_text("All time, games played without hints")
    left_out = api.get("/leaderboard").json()["assisted_left_out"]
    assert left_out >= 1
    note = page.locator("#leaderboard-left-out")
    wins = "1 won game is" if left_out == 1 else f"{left_out} won games are"
    expect(note).to_contain_text(f"{wins} not on this board")
    expect(page.locator(f'#leaderboard-body tr[data-game-id="{game_id}"]')).to_have_count(0)
    entries = api.get("/leaderboard").json()["entries"]
    expect(page.get_by_text("No game won without hints yet.")).to_be_visible(visible=not entries)
    # No box for a game id that belongs to no player.
    expect(page.get_by_label("Game id")).to_have_count(0)
    assert_accessible(page, "leaderboard, wins with hints left out")
    note.get_by_role("button", name="Include assisted games").click()
    expect(page.locator("#include-assisted")).to_be_checked()
    expect(page.locator(f'#leaderboard-body tr[data-game-id="{game_id}"]')).to_have_count(1)
    expect(note).to_be_hidden()


# ---------------------------------------------------------------- 6. live


def test_games_come_and_go_in_live_without_a_reload(
    page: Page, server: Server, api: httpx.Client
) -> None:
    lists: list[str] = []
    page.on(
        "request",
        lambda r: lists.append(r.url) if "/games?status=in_progress" in r.url else None,
    )
    page.goto(f"{server.base_url}/#/live")
    expect(page.locator("#live-table")).not_to_have_attribute("aria-busy", "true")
    page.wait_for_function("() => document.querySelector('#live-body') !== null")
    read = len(lists)
    # A guest's game begins: its row comes by the site's `game` event, not by a re-read.
    created = api.post("/games", json={"player": f"guest-{random.randrange(10**6)}"}).json()
    row = page.locator(f'#live-body tr[data-game-id="{created["id"]}"]')
    expect(row).to_have_count(1)
    assert len(lists) == read, "the list was read again rather than told"
    expect(row.get_by_role("link", name=created["player"], exact=True)).to_have_count(0)
    assert_accessible(page, "live, a new game")
    # It ends: its row goes.
    play_out_randomly(api, created, seed=35)
    expect(row).to_have_count(0)
    # The home page's list follows the same way.
    page.goto(f"{server.base_url}/#/")
    other = api.post("/games", json={"player": "home-guest"}).json()
    item = page.locator(f'#home-live-list li[data-game-id="{other["id"]}"]')
    expect(item).to_have_count(1)
    play_out_randomly(api, other, seed=36)
    expect(item).to_have_count(0)


def test_a_watched_game_s_end_is_announced_as_the_player_s_own(
    page: Page, server: Server, api: httpx.Client
) -> None:
    created = api.post("/games", json={"player": "watched-guest"}).json()
    page.goto(f"{server.base_url}/#/live/{created['id']}")
    expect(page.locator("#live-state")).to_have_attribute("data-state", "live")
    ended = play_out_randomly(api, created, seed=37)
    title = "watched-guest won!" if ended["status"] == "won" else "watched-guest's game is lost"
    panel = page.get_by_role("region", name=title)
    expect(panel).to_be_visible()
    expect(panel.get_by_role("heading", name=title)).to_be_focused()
    expect(panel).to_contain_text(f"after {ended['placements_count']} placements")
    assert_accessible(page, "live, the end announced")

"""Watching games as they are played: the Live page lists a game in progress and follows it
move by move while another client (httpx) plays it, to its announced end; a replay of a game
in progress goes on live; the leaderboard and the daily challenge page show a new game and a
new win without a reload. Every page is watched for console errors, failed requests and error
answers (conftest.Watcher); axe-core checks the new page, which fits a phone."""

from __future__ import annotations

import re
import secrets
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from testkit.server import Server
from tests.api.conformance import won_vectors
from tests.support.fairplay import boarded
from tests.web.conftest import DESKTOP, LAPTOP, PHONE, Site, open_context
from tests.web.pages import (
    assert_accessible,
    assert_fits_and_reachable,
    assert_in_view,
    board_piles,
    card_drawing,
    place_button,
    play_through_api,
    replayed_piles,
    resume_in_page,
    wave_frames,
)
from tests.web.service import store_game

pytestmark = pytest.mark.slow


def expected_board(placements: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """How the board must look after ``placements`` (the API's history): each pile's size and
    top card or back, the card just played marked, and the piles it turned."""
    last = placements[-1]
    turned = {(f["row"], f["col"]) for f in last["flipped"]}
    return [
        {
            "row": pile["row"],
            "col": pile["col"],
            "cards": len(pile["cards"]),
            "top": card_drawing(pile["cards"][-1], pile["face_up"]),
            "placed": (pile["row"], pile["col"]) == (last["row"], last["col"]),
            "flipped": (pile["row"], pile["col"]) in turned,
        }
        for pile in replayed_piles(placements)
    ]


def a_game_in_progress(
    server: Server, api: httpx.Client, vector: dict[str, Any], player: str, placed: int
) -> tuple[str, str, list[tuple[int, int]]]:
    """A game dealt from a won vector's deck, ``placed`` cards in: (id, token, every move)."""
    game_id, token = store_game(server.database_url, vector["deck"], player)
    moves = [(step["row"], step["col"]) for step in vector["steps"]]
    play_through_api(api, game_id, token, moves[:placed])
    return game_id, token, moves


def test_the_live_page_lists_a_game_and_follows_it_to_its_end(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    page = desktop
    vector = won_vectors()[2]
    player = f"Live-{secrets.token_hex(4)}"
    game_id, token, moves = a_game_in_progress(server, api, vector, player, placed=3)
    listed = api.get("/games", params={"status": "in_progress", "limit": 100}).json()
    entry = next(g for g in listed["games"] if g["game_id"] == game_id)

    page.goto(server.base_url + "/")
    page.get_by_role("link", name="Live", exact=True).click()
    expect(page).to_have_title("Live · Foursquare")
    row = page.locator(f'#live-body tr[data-game-id="{game_id}"]')
    expect(row.locator("td").nth(0)).to_have_text(player)
    expect(row.locator("td").nth(1)).to_have_text("3")
    # The last move's time as the site writes every time: ISO, UTC (the local time beside it).
    stamp = entry["last_move_at"].replace("T", " ")[:16]
    expect(row.locator("time")).to_contain_text(f"{stamp} UTC")
    assert_accessible(page, "live, the list")

    row.get_by_role("link", name=f"Watch the game of {player}").click()
    watch = page.locator("#live-watch")
    expect(watch).to_have_attribute("data-placements", "3")
    expect(page.locator("#live-state")).to_have_attribute("data-state", "live")
    expect(page.get_by_role("heading", level=2)).to_have_text(f"Live: the game of {player}")
    history = api.get(f"/games/{game_id}/placements").json()["placements"]
    assert board_piles(page, "#live-board") == expected_board(history)
    assert_accessible(page, "live, a game followed")

    # Another client plays on; each card appears on the page as it is placed.
    auth = {"Authorization": f"Bearer {token}"}
    for number, (row_index, col) in enumerate(moves[3:], start=4):
        answer = api.post(
            f"/games/{game_id}/placements", json={"row": row_index, "col": col}, headers=auth
        )
        assert answer.status_code == 201, answer.text
        history.append(answer.json()["placement"])
        expect(watch).to_have_attribute("data-placements", str(number))
        if number % 5 == 0 or number == len(moves):
            assert board_piles(page, "#live-board") == expected_board(history)
            expect(page.locator("#live-stock")).to_have_text(str(history[-1]["stock_count"]))

    final = answer.json()["game"]
    assert final["status"] == "won"
    expect(watch).to_have_attribute("data-status", "won")
    expect(page.locator("#live-state")).to_have_text(
        f"The game is over: {player} won with a score of {final['score']}."
    )
    expect(page.locator("#live-move")).to_contain_text(f"Card {len(moves)}:")
    assert_accessible(page, "live, a game ended")
    # Its replay, one click away.
    page.get_by_role("link", name="Step through it").click()
    expect(page.locator("#replay-step-text")).to_contain_text(f"Step {len(moves)} of {len(moves)}")


def test_a_replay_of_a_game_in_progress_goes_on_live_to_its_end(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    page = desktop
    vector = won_vectors()[4]
    player = f"Replay-{secrets.token_hex(4)}"
    game_id, token, moves = a_game_in_progress(server, api, vector, player, placed=2)
    page.goto(f"{server.base_url}/#/games/{game_id}")
    expect(page.locator("#replay-step-text")).to_contain_text("Step 2 of 2")
    expect(page.locator("#replay-live")).to_contain_text("Live")
    # The replay at its last step follows each new placement.
    play_through_api(api, game_id, token, moves[2:3])
    expect(page.locator("#replay-step-text")).to_contain_text("Step 3 of 3")
    # Stepped back, it stays where it is, and the steps grow.
    page.get_by_role("button", name="Previous step").click()
    play_through_api(api, game_id, token, moves[3:4])
    expect(page.locator("#replay-step-text")).to_contain_text("Step 2 of 4")
    page.get_by_role("button", name="Last").click()
    final = play_through_api(api, game_id, token, moves[4:])
    assert final["status"] == "won"
    expect(page.locator("#replay-summary")).to_contain_text(f"won with a score of {final['score']}")
    expect(page.locator("#replay-live")).to_contain_text("ended while you watched")
    expect(page.get_by_role("button", name="Verify the deal")).to_be_enabled()


def test_the_leaderboard_shows_a_new_win_without_a_reload(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    page = desktop
    vector = won_vectors()[5]
    player = f"Win-{secrets.token_hex(4)}"
    game_id, token, moves = a_game_in_progress(
        server, api, vector, player, placed=len(vector["steps"]) - 1
    )
    # Today's board, each player's best, a page long enough for every player of this server:
    # the new win belongs on it.
    with page.expect_response(lambda r: r.url.endswith("/events")):
        page.goto(f"{server.base_url}/#/leaderboard?period=day&per_player=best&limit=100")
    page.locator("#leaderboard-table:not([aria-busy])").wait_for()
    expect(page.locator(f'#leaderboard-body tr[data-game-id="{game_id}"]')).to_have_count(0)
    final = play_through_api(api, game_id, token, moves[-1:])
    assert final["status"] == "won"
    # The win's news goes out once its fair-play review finds it clean.
    boarded(api, game_id)
    new_row = page.locator(f'#leaderboard-body tr[data-game-id="{game_id}"]')
    expect(new_row).to_have_class(re.compile(r"\bfresh\b"))
    expect(new_row.locator("td").nth(1)).to_have_text(player)
    expect(new_row.locator("td").nth(2)).to_have_text(str(final["score"]))
    expect(page.locator("#leaderboard-news")).to_contain_text(
        f"New win: {player}, score {final['score']}"
    )
    assert_accessible(page, "leaderboard, a new win")


def test_the_live_page_fits_a_phone(phone: Page, server: Server, api: httpx.Client) -> None:
    page = phone
    vector = won_vectors()[6]
    player = f"Phone-{secrets.token_hex(4)}"
    game_id, _, _ = a_game_in_progress(server, api, vector, player, placed=6)
    page.goto(server.base_url + "/#/live")
    page.locator(f'#live-body tr[data-game-id="{game_id}"]').wait_for()
    assert_fits_and_reachable(page, "live, the list")
    page.get_by_role("link", name=f"Watch the game of {player}").click()
    expect(page.locator("#live-watch")).to_have_attribute("data-placements", "6")
    assert_fits_and_reachable(page, "live, a game followed")
    assert_accessible(page, "live on a phone")


def test_the_daily_challenge_page_counts_a_game_and_its_win_as_they_happen(
    desktop: Page, site: Site, api: httpx.Client
) -> None:
    page = desktop
    name = f"Day-{secrets.token_hex(4)}"
    key = api.post("/players", json={"name": name}).json()["key"]
    with page.expect_response(lambda r: r.url.endswith("/events")):
        page.goto(site.server.base_url + "/#/daily")
    before = api.get("/challenges/today").json()
    expect(page.locator("#daily-played")).to_have_text(str(before["played"]))
    expect(page.locator("#daily-won")).to_have_text(str(before["won"]))
    # Another client starts today's challenge: one more played, on the page as it happens.
    created = api.post(
        "/games", json={"challenge": "daily"}, headers={"Authorization": f"Bearer {key}"}
    )
    assert created.status_code == 201, created.text
    game = created.json()
    expect(page.locator("#daily-played")).to_have_text(str(before["played"] + 1))
    # ... and wins it: one more won, announced, and the win on the day's board.
    final = play_through_api(api, game["id"], game["token"], list(site.line))
    assert final["status"] == "won"
    # The site's winning line is the solver's: the review may hold it, and the suite's
    # operator clears it; the win is news once it is on the boards.
    boarded(api, game["id"], {"Authorization": f"Bearer {key}"}, clear=True)
    expect(page.locator("#daily-won")).to_have_text(str(before["won"] + 1))
    expect(page.locator("#daily-news")).to_contain_text("A new win today")
    mine = page.locator(f'#daily-board-body tr[data-game-id="{game["id"]}"]')
    expect(mine.locator("td").nth(1)).to_have_text(name)


def test_the_live_list_and_the_home_page_count_each_game_s_cards_as_they_are_placed(
    desktop: Page, server: Server, api: httpx.Client
) -> None:
    page = desktop
    vector = won_vectors()[7]
    first, second = (f"Count-{n}-{secrets.token_hex(3)}" for n in (1, 2))
    one, one_token, moves = a_game_in_progress(server, api, vector, first, placed=2)
    two, two_token, _ = a_game_in_progress(server, api, vector, second, placed=2)
    with page.expect_response(lambda r: r.url.endswith("/events")):
        page.goto(server.base_url + "/#/live")
    row_one = page.locator(f'#live-body tr[data-game-id="{one}"]')
    row_two = page.locator(f'#live-body tr[data-game-id="{two}"]')
    expect(row_one.locator("td").nth(1)).to_have_text("2")
    expect(row_two.locator("td").nth(1)).to_have_text("2")
    # The focus in the list: the page does not read the list again meanwhile, so what
    # changes comes from the site's events alone.
    reads: list[str] = []
    page.on("request", lambda r: reads.append(r.url) if "status=in_progress" in r.url else None)
    watch_one = row_one.get_by_role("link", name=f"Watch the game of {first}")
    watch_one.focus()
    # A move of the focused row's game: counted where it is, the focus kept.
    play_through_api(api, one, one_token, moves[2:3])
    expect(row_one.locator("td").nth(1)).to_have_text("3")
    expect(watch_one).to_be_focused()
    # A move of another: counted, and its row first (the latest move first), with its time.
    for placed, move in enumerate(moves[2:4], start=3):
        play_through_api(api, two, two_token, [move])
        expect(row_two.locator("td").nth(1)).to_have_text(str(placed))
    expect(page.locator("#live-body tr").first).to_have_attribute("data-game-id", two)
    listed = api.get("/games", params={"status": "in_progress", "limit": 100}).json()
    entry = next(g for g in listed["games"] if g["game_id"] == two)
    expect(row_two.locator("time")).to_have_attribute(
        "datetime", entry["last_move_at"].replace("+00:00", "Z")
    )
    expect(watch_one).to_be_focused()
    assert reads == [], "the list was read again: the counts did not come from the events"

    # The home page's games being played, counted the same way.
    with page.expect_response(lambda r: r.url.endswith("/events")):
        page.goto(server.base_url + "/#/")
    item = page.locator(f'#home-live-list li[data-game-id="{two}"]')
    expect(item).to_contain_text("4 cards placed")
    play_through_api(api, two, two_token, moves[4:5])
    expect(item).to_contain_text("5 cards placed")
    expect(page.locator("#home-live-list li").first).to_have_attribute("data-game-id", two)


@pytest.mark.parametrize(
    "viewport", [DESKTOP, LAPTOP, PHONE], ids=["1280x800", "1366x768", "390x844"]
)
def test_a_watched_game_s_end_is_announced_beside_its_board_all_in_view(
    browser: Browser, server: Server, api: httpx.Client, viewport: dict[str, int]
) -> None:
    mobile = viewport == PHONE
    context, watcher = open_context(
        browser, server, viewport, reduced_motion="reduce", has_touch=mobile, is_mobile=mobile
    )
    page = context.new_page()
    vector = won_vectors()[8]
    player = f"Ender_{secrets.token_hex(3)}"
    last = len(vector["steps"]) - 1
    game_id, token, moves = a_game_in_progress(server, api, vector, player, placed=last)
    page.goto(f"{server.base_url}/#/live/{game_id}")
    expect(page.locator("#live-state")).to_have_attribute("data-state", "live")
    expect(page.locator("#live-watch")).to_have_attribute("data-placements", str(last))
    assert_in_view(page, "#live-board .cell")
    play_through_api(api, game_id, token, moves[last:])
    expect(page.locator("#live-watch")).to_have_attribute("data-status", "won")
    expect(page.locator("#live-end-title")).to_be_focused()
    expect(page.locator("#live-end-title")).to_have_text(f"{player} won!")
    # The end and the whole finished board, in view at once: nothing pushed below the fold.
    assert_in_view(page, "#live-end")
    assert_in_view(page, "#live-board .cell")
    assert_fits_and_reachable(page, "live, a game ended")
    assert_accessible(page, "live, a game ended")
    context.close()
    watcher.check()


@pytest.mark.parametrize(
    ("where", "viewport"),
    [("live", DESKTOP), ("play", PHONE)],
    ids=["live-1280x800", "play-390x844"],
)
def test_the_win_wave_keeps_each_card_in_its_cell_once_the_last_card_has_landed(
    browser: Browser, server: Server, api: httpx.Client, where: str, viewport: dict[str, int]
) -> None:
    mobile = viewport == PHONE
    context, watcher = open_context(
        browser,
        server,
        viewport,
        reduced_motion="no-preference",
        has_touch=mobile,
        is_mobile=mobile,
    )
    page = context.new_page()
    vector = won_vectors()[9]
    last = len(vector["steps"]) - 1
    game_id, token, moves = a_game_in_progress(server, api, vector, "Waver", placed=last)
    if where == "live":
        page.goto(f"{server.base_url}/#/live/{game_id}")
        expect(page.locator("#live-state")).to_have_attribute("data-state", "live")
        play_through_api(api, game_id, token, moves[last:])
        board = "#live-board"
    else:
        resume_in_page(page, server.base_url, game_id, token, "Waver")
        place_button(page, *moves[last]).tap()
        board = "#board"
    expect(page.locator(f"{board}.celebrate")).to_have_count(1)
    found = wave_frames(page, board)
    assert found["waving"] > 0, found  # the wave ran while it was watched
    assert found["outside"] == [], "a waving card ran over its neighbours"
    assert found["together"] == [], "the wave ran while the last move's cards still moved"
    # The last card still lands (its drop first), and the wave waits for it.
    names, delays, durations = (part.split(", ") for part in found["placed"])
    assert names[0] == "drop-in" and "win-wave" in names, names
    seconds = [float(value.removesuffix("s")) for value in delays + durations]
    drop_ends = seconds[0] + seconds[len(names)]
    assert min(seconds[1 : len(names)]) >= drop_ends, found["placed"]
    context.close()
    watcher.check()

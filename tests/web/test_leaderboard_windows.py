"""The leaderboard's windows (a UTC day's, an ISO week's, each player's best) chosen in the
page, and a won game's rank and place: at the end of a game in Play and in its replay."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from testkit import databases
from testkit.server import Server, running_server
from tests.api.conformance import won_vectors
from tests.support.fairplay import boarded
from tests.web.conftest import DESKTOP, SERVER_ENV, errors_allowed, open_context
from tests.web.pages import place_by_click, play_through_api, resume_in_page
from tests.web.service import store_game, win_at

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class Boards:
    """A server whose database holds wins of last week (made with the service's clock set
    back, before the server started): ``past`` and ``other`` are two days of one ISO week,
    seven or more days ago; and wins of today."""

    server: Server
    today: date
    past: date
    other: date


@pytest.fixture(scope="module")
def boards(
    _templates: databases.Templates, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Boards]:
    today = datetime.now(UTC).date()
    past = today - timedelta(days=7)  # the same weekday last week
    monday = past - timedelta(days=past.weekday())
    other = monday if past != monday else monday + timedelta(days=1)
    vectors = won_vectors()  # scores: [0] 6, [2] 3, [7] 12, [9] 13, [12] 15
    wins = [
        (other, 10, "cy", vectors[9]),
        (past, 9, "ana", vectors[7]),
        (past, 10, "ANA", vectors[0]),  # the same player as "ana"
        (past, 11, "bob", vectors[2]),
    ]
    folder = tmp_path_factory.mktemp("boards")
    with _templates.database("sqlite", folder) as url:
        # In finish order: a win's place among equal scores follows the order it is counted.
        won = [
            win_at(url, vector, player, datetime.combine(day, time(hour), tzinfo=UTC))
            for day, hour, player, vector in sorted(wins, key=lambda w: (w[0], w[1]))
        ]
        for player, vector in (("dee", vectors[12]), ("ana", vectors[2])):
            won.append(win_at(url, vector, player, None))
        with running_server(url, extra_env=SERVER_ENV) as server:
            # The server reviews the wins (queued as they were written) and boards them in
            # the order they finished: the boards are complete once every review is done.
            with httpx.Client(base_url=server.base_url, timeout=30) as client:
                for game_id in won:
                    boarded(client, game_id)
            yield Boards(server, today, past, other)


@pytest.fixture
def page(browser: Browser, boards: Boards, request: pytest.FixtureRequest) -> Iterator[Page]:
    context, watcher = open_context(
        browser, boards.server, DESKTOP, errors_allowed(request), reduced_motion="reduce"
    )
    opened = context.new_page()
    yield opened
    context.close()
    watcher.check()


@pytest.fixture
def api(boards: Boards) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=boards.server.base_url, timeout=30) as client:
        yield client


Row = list[str]


def shown_rows(page: Page, body: str = "#leaderboard-body") -> list[Row]:
    rows: list[Row] = page.locator(f"{body} tr").evaluate_all(
        "rows => rows.map(row => [...row.cells].slice(0, 3)"
        ".map(cell => cell.firstChild.textContent))"
    )
    return rows


def rows_of(entries: list[dict[str, Any]]) -> list[Row]:
    return [[str(e["rank"]), e["player"], str(e["score"])] for e in entries]


def board_of(api: httpx.Client, **params: str) -> dict[str, Any]:
    answer = api.get("/leaderboard", params=params)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def expect_board(page: Page, answer: dict[str, Any]) -> None:
    """The page lists the API's answer, and names its board: its window and whether assisted
    games are on it (the API counts the ones left out when they are not)."""
    entries = answer["entries"]
    expect(page.locator("#leaderboard-body tr")).to_have_count(len(entries))
    expect(page.locator("#leaderboard-table")).not_to_have_attribute("aria-busy", "true")
    assert shown_rows(page) == rows_of(entries)
    window = page.locator("#leaderboard-window")
    assisted = (
        "games played without hints"
        if answer["assisted_left_out"] is not None
        else "assisted games included"
    )
    if answer["period"] == "all":
        expect(window).to_have_text(f"All time, {assisted}")
    elif answer["period"] == "day":
        assert answer["starts_on"] == answer["ends_on"]
        expect(window).to_have_text(f"Day {answer['starts_on']} (UTC), {assisted}")
    else:
        expect(window).to_have_text(
            f"Week {answer['starts_on']} \u2013 {answer['ends_on']} (UTC, Monday to Sunday), "
            f"{assisted}"
        )
    expect(page.locator("#leaderboard-empty")).to_be_visible(visible=not entries)


def test_the_day_week_and_best_boards_are_chosen_and_kept_in_the_url(
    page: Page, boards: Boards, api: httpx.Client
) -> None:
    base = boards.server.base_url
    page.goto(base + "/#/leaderboard")
    everything = board_of(api)
    assert len(everything["entries"]) == 6
    expect_board(page, everything)
    # One page: no pager at all.
    expect(page.locator("#leaderboard-first")).to_be_hidden()
    expect(page.get_by_role("button", name="Next page")).to_have_count(0)

    # A past week: the date field starts a week back, on `past`, whose week holds `other`.
    period = page.get_by_label("Board", exact=True)
    period.select_option(label="Another week…")
    field = page.get_by_label("A day of the week (UTC)")
    expect(field).to_have_value(boards.past.isoformat())
    week = board_of(api, period="week", date=boards.past.isoformat())
    assert [e["player"] for e in week["entries"]] == ["cy", "ana", "ANA", "bob"]
    expect_board(page, week)
    assert week["starts_on"] == min(boards.past, boards.other).isoformat()
    expect(page).to_have_url(re.compile(rf"#/leaderboard\?period=week&date={boards.past}$"))

    # A past day, then each player's best on it: "ana" and "ANA" are one player.
    period.select_option(label="Another day…")
    page.get_by_label("Day (UTC)").fill(boards.past.isoformat())
    day = board_of(api, period="day", date=boards.past.isoformat())
    assert [e["score"] for e in day["entries"]] == [12, 6, 3]
    expect_board(page, day)
    page.get_by_label("Each player's best only").check()
    best = board_of(api, period="day", date=boards.past.isoformat(), per_player="best")
    assert rows_of(best["entries"]) == [["1", "ana", "12"], ["2", "bob", "3"]]
    expect_board(page, best)

    # A reload (or the link shared) shows the same board.
    expect(page).to_have_url(re.compile(r"per_player=best"))
    page.reload()
    expect(page.get_by_label("Board", exact=True)).to_have_value("day")
    expect(page.get_by_label("Day (UTC)")).to_have_value(boards.past.isoformat())
    expect(page.get_by_label("Each player's best only")).to_be_checked()
    expect_board(page, best)

    # Today's and this week's boards, each player's best still.
    period.select_option(label="Today")
    expect(page.get_by_label("Day (UTC)")).to_be_hidden()
    expect_board(page, board_of(api, period="day", per_player="best"))
    period.select_option(label="This week")
    expect_board(page, board_of(api, period="week", per_player="best"))
    page.get_by_label("Each player's best only").uncheck()
    expect_board(page, board_of(api, period="week"))

    # A day to come, and a day that does not exist, are explained in the page for what they
    # are, typed or in a link, and never asked for (an error answer fails the test).
    period.select_option(label="Another day…")
    tomorrow = (boards.today + timedelta(days=1)).isoformat()
    help_text, field = page.locator("#board-date-help"), page.locator("#board-date")
    for asked, reason in [
        (tomorrow, "not after today"),
        ("2026-13-45", "2026-13-45 is not a day of the calendar"),
        ("2026-02-30", "2026-02-30 is not a day of the calendar"),
    ]:
        field.fill(asked)
        expect(help_text).to_contain_text(reason)
        expect(field).to_have_attribute("aria-invalid", "true")
        expect(page.locator("#leaderboard-body tr")).to_have_count(0)  # no other board shown
        page.goto(f"{base}/#/leaderboard?period=week&date={asked}")
        expect(help_text).to_contain_text(reason)
        expect(page.locator("#notice")).to_be_hidden()
    expect(help_text).not_to_contain_text("a day to come")
    # Changed to a day of the calendar, its board comes.
    page.get_by_label("A day of the week (UTC)").fill(boards.past.isoformat())
    expect(help_text).to_be_hidden()
    expect_board(page, week)


def test_a_daily_challenge_day_that_does_not_exist_is_said_so(page: Page, boards: Boards) -> None:
    base = boards.server.base_url
    for day in ("2026-13-45", "2026-02-30"):
        page.goto(f"{base}/#/daily/{day}")
        expect(page.locator("#daily-date-help")).to_have_text(
            f"{day} is not a day of the calendar: pick a day from 2026-01-01 to today."
        )
        expect(page.locator("#daily-content")).to_be_hidden()
        expect(page.locator("#notice")).to_be_hidden()
    page.get_by_role("button", name="Today").click()
    expect(page.locator("#daily-date-text")).to_have_text(boards.today.isoformat())
    expect(page.locator("#daily-date-help")).to_be_hidden()


def test_the_pager_pages_a_chosen_board(page: Page, boards: Boards, api: httpx.Client) -> None:
    base = boards.server.base_url
    page.goto(f"{base}/#/leaderboard?period=week&date={boards.other}&limit=3")
    first = board_of(api, period="week", date=boards.other.isoformat(), limit="3")
    expect_board(page, first)
    page.get_by_role("button", name="Next page").click()
    expect(page.locator("#leaderboard-page")).to_have_text("Page 2")
    second = board_of(api, period="week", date=boards.other.isoformat(), limit="3",
                      cursor=first["next_cursor"])  # fmt: skip
    expect_board(page, second)
    assert second["next_cursor"] is None
    expect(page.get_by_role("button", name="Next page")).to_be_disabled()


def around_rows(api: httpx.Client, game_id: str, **params: str) -> tuple[list[Row], int]:
    answer = api.get(f"/leaderboard/around/{game_id}", params={"count": "5", **params})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    return rows_of(body["entries"]), body["entries"].index(
        next(e for e in body["entries"] if e["game_id"] == game_id)
    )


def expect_place(page: Page, prefix: str, api: httpx.Client, game_id: str, **params: str) -> None:
    """The place panel lists the neighbours the API answers, the game's row marked."""
    rows, mine = around_rows(api, game_id, **params)
    body = f"#{prefix}-body"
    expect(page.locator(f"{body} tr")).to_have_count(len(rows))
    expect(page.locator(f"#{prefix}-table")).not_to_have_attribute("aria-busy", "true")
    assert shown_rows(page, body) == rows
    marked = page.locator(f'{body} tr[aria-current="true"]')
    expect(marked).to_have_count(1)
    expect(marked).to_have_attribute("data-game-id", game_id)
    expect(marked).to_have_class(re.compile(r"\bmine\b"))
    assert page.locator(f"{body} tr").nth(mine).get_attribute("data-game-id") == game_id


def test_a_won_game_shows_its_rank_and_its_place_in_play_and_replay(
    page: Page, boards: Boards, api: httpx.Client
) -> None:
    base = boards.server.base_url
    vector = won_vectors()[1]  # score 6: games above and below it on the all-time board
    game_id, token = store_game(boards.server.database_url, vector["deck"], "finisher")
    positions = [(step["row"], step["col"]) for step in vector["steps"]]
    play_through_api(api, game_id, token, positions[:-1])
    resume_in_page(page, base, game_id, token, "finisher")
    answer = place_by_click(page, *positions[-1])
    end = page.locator("#end-panel")
    expect(end).to_contain_text("You won!")
    # The rank comes once the fair-play review finds the win clean; the page follows it.
    assert answer["game"]["rank"] is None
    rank = boarded(api, game_id)["rank"]
    assert isinstance(rank, int)
    expect(end.locator("#end-standing-rank")).to_have_text(
        f"Rank {rank} on the board \u201cAll time, games played without hints\u201d"
    )

    show = end.get_by_role("button", name="Show my place")
    expect(show).to_have_attribute("aria-expanded", "false")
    show.click()
    expect(end.get_by_role("button", name="Hide my place")).to_have_attribute(
        "aria-expanded", "true"
    )
    expect_place(page, "end-standing", api, game_id, period="all")
    size = api.get(f"/leaderboard/around/{game_id}", params={"period": "all"}).json()["size"]
    assert size > rank  # the vector's score leaves games below it
    expect(page.locator("#end-standing-status")).to_contain_text(
        f"Rank {rank} of {size:,} on the board of all time"
    )
    end.get_by_label("Its week").check()
    expect_place(page, "end-standing", api, game_id, period="week")
    end.get_by_label(re.compile(r"Its day \(\d{4}-\d\d-\d\d\)")).check()
    expect_place(page, "end-standing", api, game_id, period="day")
    link = end.get_by_role("link", name="Open this board")
    won_on = answer["game"]["finished_at"][:10]
    expect(link).to_have_attribute("href", f"#/leaderboard?period=day&date={won_on}")

    # The replay of the game shows the same, keyboard only.
    page.goto(f"{base}/#/games/{game_id}")
    standing = page.locator("#replay-standing")
    expect(standing.locator("#replay-standing-rank")).to_have_text(
        f"Rank {rank} on the board \u201cAll time, games played without hints\u201d"
    )
    standing.get_by_role("button", name="Show my place").focus()
    page.keyboard.press("Enter")
    expect_place(page, "replay-standing", api, game_id, period="all")
    standing.get_by_label("Its week").focus()
    page.keyboard.press("Space")
    expect_place(page, "replay-standing", api, game_id, period="week")


@pytest.mark.provokes_errors  # not on the board without assisted games: 409
def test_an_assisted_won_game_is_placed_among_assisted_games_and_why_is_said(
    page: Page, boards: Boards, api: httpx.Client
) -> None:
    base = boards.server.base_url
    vector = won_vectors()[8]
    game_id, token = store_game(boards.server.database_url, vector["deck"], "helped")
    hint = api.get(f"/games/{game_id}/hint", headers={"Authorization": f"Bearer {token}"})
    assert hint.status_code == 200, hint.text
    positions = [(step["row"], step["col"]) for step in vector["steps"]]
    game = play_through_api(api, game_id, token, positions)
    assert game["assisted"] and game["status"] == "won"
    page.goto(f"{base}/#/games/{game_id}")
    standing = page.locator("#replay-standing")
    # The board named in the leaderboard page's words, and one press away.
    expect(standing.locator("#replay-standing-rank")).to_have_text(
        f"Rank {game['rank']} on the board \u201cAll time, assisted games included\u201d"
    )
    expect(standing.get_by_role("link", name="See the board")).to_have_attribute(
        "href", "#/leaderboard?include_assisted=true"
    )
    standing.get_by_role("button", name="Show my place").click()
    expect(standing.get_by_label("Include assisted games")).to_be_checked()
    expect_place(page, "replay-standing", api, game_id, period="all", include_assisted="true")
    # Without assisted games the API answers 409 not_on_board: the page says why.
    standing.get_by_label("Include assisted games").uncheck()
    refused = api.get(f"/leaderboard/around/{game_id}")
    assert refused.status_code == 409 and refused.json()["code"] == "not_on_board"
    expect(page.locator("#replay-standing-status")).to_contain_text("hints were asked in it")
    expect(page.locator("#replay-standing-body tr")).to_have_count(0)
    expect(page.locator("#notice")).to_be_hidden()


def test_times_are_iso_in_utc_with_the_local_time_beside(
    browser: Browser, boards: Boards, api: httpx.Client
) -> None:
    context, watcher = open_context(
        browser, boards.server, DESKTOP, reduced_motion="reduce", timezone_id="Asia/Tokyo"
    )
    page = context.new_page()
    page.goto(boards.server.base_url + "/#/leaderboard")
    entry = board_of(api)["entries"][0]
    finished = datetime.fromisoformat(entry["finished_at"].replace("Z", "+00:00"))
    tokyo = finished + timedelta(hours=9)  # no daylight saving time in Tokyo
    local = tokyo.strftime("%H:%M" if tokyo.date() == finished.date() else "%Y-%m-%d %H:%M")
    cell = page.locator("#leaderboard-body tr").first.locator("td").nth(3)
    expect(cell).to_have_text(f"{finished:%Y-%m-%d %H:%M} UTC ({local} local)")
    # A guest's name is no link: guests have no page (the daily board links an account's).
    assert entry["registered"] is False
    player = page.locator("#leaderboard-body tr").first.locator("td").nth(1)
    expect(player).to_have_text(entry["player"])
    expect(player.get_by_role("link")).to_have_count(0)
    context.close()
    watcher.check()

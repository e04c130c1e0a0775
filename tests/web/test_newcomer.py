"""What a newcomer ran into (issue 55), each at the size where it was seen: a private game's
replay that offered controls which could not work, games left alone listed as being played,
a win announced on a board it is not on, a phone replay whose controls were below the board,
pages that kept the previous address's state, and the smaller ones (where a field's error is
said, the computer's page and label, "Play again" after a daily challenge, names wrapped
mid-word on a phone)."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from testkit.server import running_server
from tests.api.conformance import won_vectors
from tests.web.conftest import DESKTOP, SERVER_ENV, Site, open_context
from tests.web.pages import assert_in_view, play_through_api, resume_in_page
from tests.web.service import store_game, store_game_at

pytestmark = pytest.mark.slow


def fresh_name(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


@pytest.mark.provokes_errors  # the private game's 403
def test_a_private_daily_game_says_when_it_opens_and_offers_no_dead_controls(
    desktop: Page, site: Site, api: httpx.Client
) -> None:
    page = desktop
    # Somebody else wins today's challenge (through the API, with their key).
    key = api.post("/players", json={"name": fresh_name("daily")}).json()["key"]
    created = api.post(
        "/games", json={"challenge": "daily"}, headers={"Authorization": f"Bearer {key}"}
    ).json()
    play_through_api(api, created["id"], created["token"], list(site.line))

    # A browser without that key opens its replay (a link from the day's board).
    page.goto(site.server.base_url + "/#/daily")
    expect(page.locator("#daily-state")).to_contain_text("open until")
    with page.expect_response(lambda r: r.url.endswith(f"/games/{created['id']}")) as answer:
        page.evaluate("id => { window.location.hash = `#/games/${id}`; }", created["id"])
    assert answer.value.status == 403
    summary = page.locator("#replay-summary")
    closes = (site.today + timedelta(days=1)).isoformat()
    expect(summary).to_contain_text(f"private until its day closes, at {closes} 00:00 UTC")
    expect(summary).to_contain_text("Its replay opens here then.")
    expect(page.get_by_role("heading", name="A private game")).to_be_visible()
    # Nothing that cannot work before then: no steps, no empty commitment, no "Try again".
    for name in ("First", "Next step", "Last", "Verify the deal", "Analyse this game"):
        expect(page.get_by_role("button", name=name)).to_be_hidden()
    expect(page.locator("#replay-commitment")).to_be_hidden()
    expect(page.locator("#replay-board")).to_be_hidden()
    expect(page.get_by_role("button", name="Try again")).to_be_hidden()
    expect(page.locator("#notice")).to_be_hidden()
    page.get_by_role("link", name="today's daily challenge").click()
    expect(page).to_have_url(re.compile("#/daily$"))

    # Its player's own replay (the key in this browser) has them all.
    page.evaluate(
        "key => localStorage.setItem('foursquare.account', JSON.stringify(key))",
        {"name": created["player"], "key": key},
    )
    page.goto(f"{site.server.base_url}/#/games/{created['id']}")
    page.reload()
    expect(summary).to_contain_text("won with a score of")
    expect(page.get_by_role("button", name="Next step")).to_be_visible()
    expect(page.locator("#replay-commitment")).to_have_text(created["deck_commitment"])


def test_a_game_left_alone_is_not_listed_as_being_played(
    desktop: Page, site: Site, api: httpx.Client
) -> None:
    page = desktop
    base = site.server.base_url
    # Left eleven minutes ago with no card placed (a closed tab, "New game" then "Leave it"),
    # beside a game being played now.
    left = fresh_name("left")
    store_game_at(site.server.database_url, left, datetime.now(UTC) - timedelta(minutes=11))
    playing = fresh_name("playing")
    vector = won_vectors()[3]
    game_id, token = store_game(site.server.database_url, vector["deck"], playing)
    first = vector["steps"][0]
    play_through_api(api, game_id, token, [(first["row"], first["col"])])

    page.goto(base + "/")
    home = page.locator("#home-live-list")
    expect(home.get_by_role("link", name=f"Watch the game of {playing}")).to_be_visible()
    expect(home.get_by_role("link", name=f"Watch the game of {left}")).to_have_count(0)
    page.goto(base + "/#/live")
    expect(page.get_by_role("link", name=f"Watch the game of {playing}")).to_be_visible()
    expect(page.get_by_role("link", name=f"Watch the game of {left}")).to_have_count(0)


def test_a_win_with_hints_is_not_announced_on_the_board_without_them(
    desktop: Page, site: Site, api: httpx.Client
) -> None:
    page = desktop
    base = site.server.base_url
    player = fresh_name("assisted")
    vector = won_vectors()[4]
    moves = [(step["row"], step["col"]) for step in vector["steps"]]
    game_id, token = store_game(site.server.database_url, vector["deck"], player)
    play_through_api(api, game_id, token, moves[:-1])
    hint = api.get(f"/games/{game_id}/hint", headers={"Authorization": f"Bearer {token}"})
    assert hint.status_code == 200, hint.text

    with page.expect_response(lambda r: r.url.endswith("/events")):
        page.goto(base + "/#/leaderboard")
    page.locator("#leaderboard-table:not([aria-busy])").wait_for()
    final = play_through_api(api, game_id, token, moves[-1:])
    assert final["status"] == "won" and final["assisted"]
    news = page.locator("#leaderboard-news")
    expect(news).to_have_text(
        f"New win with hints: {player}, score {final['score']}; it is not on this board "
        "(games played without hints), but on the boards with assisted games."
    )
    expect(page.locator(f'#leaderboard-body tr[data-game-id="{game_id}"]')).to_have_count(0)

    # On the board with assisted games, it is announced with its rank there.
    with page.expect_response(lambda r: r.url.endswith("/events")):
        page.goto(base + "/#/leaderboard?include_assisted=true")
    page.locator("#leaderboard-table:not([aria-busy])").wait_for()
    other = fresh_name("helped")
    second, second_token = store_game(site.server.database_url, vector["deck"], other)
    play_through_api(api, second, second_token, moves[:-1])
    api.get(f"/games/{second}/hint", headers={"Authorization": f"Bearer {second_token}"})
    won = play_through_api(api, second, second_token, moves[-1:])
    rank = api.get(f"/games/{second}").json()["rank"]
    expect(news).to_have_text(f"New win: {other}, score {won['score']}, rank {rank} of all time.")


def test_a_phone_replay_keeps_the_board_and_its_steps_in_view(
    phone: Page, site: Site, api: httpx.Client
) -> None:
    page = phone
    vector = won_vectors()[5]
    game_id, token = store_game(site.server.database_url, vector["deck"], fresh_name("steps"))
    moves = [(step["row"], step["col"]) for step in vector["steps"]]
    play_through_api(api, game_id, token, moves)
    page.goto(f"{site.server.base_url}/#/games/{game_id}")
    expect(page.locator("#replay-summary")).to_contain_text("won with a score of")
    page.get_by_role("button", name="First").tap()
    # Scrolled to the step buttons, the whole board is in view with them; and it stays so as
    # the steps are tapped through.
    page.get_by_role("button", name="Next step").scroll_into_view_if_needed()
    for number in range(1, 4):
        assert_in_view(page, "#replay-board, #replay-next, #replay-previous")
        page.get_by_role("button", name="Next step").tap()
        expect(page.locator("#replay-step-text")).to_contain_text(f"Step {number} of")
    assert_in_view(page, "#replay-board, #replay-next, #replay-step-text")


def view_as_drawn(page: Page, view: str) -> dict[str, object]:
    """What a person sees of a view: its text, its date fields' values, and the notice."""
    drawn: dict[str, object] = page.evaluate(
        """(view) => ({
          text: document.getElementById(view).innerText,
          dates: [...document.querySelectorAll(`#${view} input[type=date]`)].map((i) => i.value),
          notice: document.getElementById("notice").hidden
            ? null : document.getElementById("notice").innerText,
        })""",
        view,
    )
    return drawn


@pytest.mark.provokes_errors  # a day to come: 404
def test_pages_are_drawn_from_their_address_alone(desktop: Page, site: Site) -> None:
    page = desktop
    base = site.server.base_url
    yesterday = (site.today - timedelta(days=1)).isoformat()
    to_come = (site.today + timedelta(days=30)).isoformat()
    help_text = page.locator("#daily-date-help")

    def settled_daily(address: str) -> None:
        if "garbage" in address or "13-45" in address:
            expect(help_text).to_be_visible()
        elif to_come in address:
            expect(page.get_by_role("alert")).to_contain_text("has not opened yet")
        else:
            expect(page.locator("#daily-state")).to_contain_text("closed at")
            # Its board read too (it follows the day's page).
            expect(
                page.locator("#daily-board-body tr, #daily-board-empty:visible")
            ).not_to_have_count(0)
            expect(page.locator("#daily-board-table")).not_to_have_attribute("aria-busy", "true")

    pairs = [
        (f"#/daily/{yesterday}", "#/daily/2026-13-45"),
        (f"#/daily/{to_come}", "#/daily/garbage"),
        (f"#/daily/{to_come}", f"#/daily/{yesterday}"),
    ]
    for before, after in pairs:
        page.goto(base + "/" + before)
        settled_daily(before)
        page.evaluate("address => { window.location.hash = address; }", after)
        settled_daily(after)
        navigated = view_as_drawn(page, "daily-view")
        page.reload()
        settled_daily(after)
        assert navigated == view_as_drawn(page, "daily-view"), (before, after)
    # What was seen: the heading and the picker of the day before, its refusal beside this one.
    page.goto(f"{base}/#/daily/{yesterday}")
    expect(page.get_by_role("heading", name=f"Daily challenge of {yesterday}")).to_be_visible()
    page.evaluate("() => { window.location.hash = '#/daily/2026-13-45'; }")
    expect(page.get_by_role("heading", name="Daily challenge", exact=True)).to_be_visible()
    expect(page.get_by_label("Another day")).to_have_value("")

    caption = page.locator("#leaderboard-caption")
    page.goto(f"{base}/#/leaderboard?include_assisted=true")
    expect(caption).to_contain_text("assisted ones included")
    page.evaluate("() => { window.location.hash = '#/leaderboard?period=day&date=2026-13-45'; }")
    expect(page.locator("#board-date-help")).to_be_visible()
    expect(caption).not_to_contain_text("assisted ones included")
    navigated = view_as_drawn(page, "leaderboard-view")
    page.reload()
    expect(page.locator("#board-date-help")).to_be_visible()
    assert navigated == view_as_drawn(page, "leaderboard-view")


@pytest.mark.provokes_errors  # the reserved names' 409s, the computer's page's 404
def test_the_smaller_things_a_newcomer_met(desktop: Page, site: Site, api: httpx.Client) -> None:
    page = desktop
    base = site.server.base_url
    # A reserved name refused by a race is said under its field, as on the home page.
    for address, field, check, button in (
        ("/#/", "home-name", "#home-name-check", "Start a game"),
        ("/#/races", "race-name", "#race-name-check", "Open a race"),
    ):
        page.goto(base + address)
        page.locator(f"#{field}").fill("c0mputer")
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            page.get_by_role("button", name=button, exact=True).click()
        assert answer.value.json()["code"] == "name_reserved"
        expect(page.locator(check)).to_have_text(
            re.compile("^That name is kept for the site. Nobody plays as “computer”")
        )
        expect(page.locator(f"#{field}")).to_have_attribute("aria-invalid", "true")
        expect(page.locator("#notice")).to_be_hidden()

    # The computer's name is nobody's account, and not a guest's either.
    page.goto(base + "/#/players/computer")
    since = page.locator("#player-since")
    expect(since).to_contain_text("The computer is no player with an account")
    expect(since).not_to_contain_text("guest")

    # Read aloud, the computer racer is said once, with its level.
    page.goto(base + "/#/races")
    form = page.get_by_role("form", name="Open a race")
    form.get_by_label("Name in the race (optional)").fill(fresh_name("racer"))
    form.get_by_label("Race the computer").check()
    form.get_by_label("Beginner", exact=True).check()
    form.get_by_role("button", name="Open a race").click()
    computer = page.locator("#race-racers .racer-computer")
    expect(computer).to_contain_text("level beginner")
    # What a screen reader reads: the text outside aria-hidden, joined.
    said = computer.evaluate(
        """(e) => {
          const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
          let text = "";
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            if (!n.parentElement.closest("[aria-hidden=true]")) text += n.data;
          }
          return text.replace(/\\s+/g, " ");
        }"""
    )
    assert said == "The computer, level beginner", said

    # After the daily challenge, the next game is an ordinary one, and the button says so.
    name = fresh_name("again")
    key = api.post("/players", json={"name": name}).json()["key"]
    created = api.post(
        "/games", json={"challenge": "daily"}, headers={"Authorization": f"Bearer {key}"}
    ).json()
    play_through_api(api, created["id"], created["token"], list(site.line))
    resume_in_page(page, base, created["id"], created["token"], name)
    end = page.get_by_role("region", name="You won!")
    expect(end.get_by_role("button", name="Play an ordinary game")).to_be_visible()
    expect(end.get_by_role("button", name="Play again")).to_have_count(0)


def test_a_game_left_alone_leaves_the_home_page_shown_meanwhile(
    browser: Browser, sqlite_url: str
) -> None:
    # A server whose games being played are those moved in the last three seconds.
    env = {**SERVER_ENV, "FOURSQUARE_LIVE_MOVED_WITHIN_MINUTES": "0.05"}
    with running_server(sqlite_url, extra_env=env) as server:
        context, watcher = open_context(browser, server, DESKTOP, reduced_motion="reduce")
        page = context.new_page()
        with page.expect_response(lambda r: r.url.endswith("/events")):
            page.goto(server.base_url + "/")
        with httpx.Client(base_url=server.base_url, timeout=30) as api:
            player = fresh_name("gone")
            api.post("/games", json={"player": player})
        watch = page.locator("#home-live-list").get_by_role(
            "link", name=f"Watch the game of {player}"
        )
        expect(watch).to_be_visible()  # it began: the `game` event lists it at once
        expect(watch).to_have_count(0, timeout=60_000)  # nobody moved it: it goes by itself
        context.close()
        watcher.check()

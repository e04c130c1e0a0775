"""Races in the browser (`#/races`): two browser racers and the computer race one deal from
the lobby (its link copied, joined by the other) through the countdown, each at their own table
beside the others' progress, to the ranking and a rematch that takes both to the next race;
four browser racers see each other's progress move; the lobby, the countdown and the ranking
fit a phone and are axe-clean. Every page is watched for console errors, failed requests and
error answers (conftest.Watcher).

The races run on a server of their own with a short countdown and a fast computer (its
settings, docs/operations.md), so that a race takes seconds; the browser racers play their
first legal cell each time, which ends a game (won or lost) in a few dozen clicks at most."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from testkit import databases
from testkit.server import Server, running_server
from tests.web.conftest import DESKTOP, LAPTOP, PHONE, SERVER_ENV, Watcher, open_context
from tests.web.pages import assert_accessible, assert_fits_and_reachable

pytestmark = pytest.mark.slow

RACE_ENV = {
    **SERVER_ENV,
    # Long enough to be seen (and checked) on the page, short enough not to wait for.
    "FOURSQUARE_RACE_COUNTDOWN_SECONDS": "2",
    "FOURSQUARE_RACE_COMPUTER_SECONDS": "0.1",
}
OUTCOMES = re.compile(r"^(won|lost)$")


@pytest.fixture(scope="module")
def race_server(
    _templates: databases.Templates, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("races")
    with (
        _templates.database("sqlite", folder) as url,
        running_server(url, extra_env=RACE_ENV) as server,
    ):
        yield server


@pytest.fixture
def racers(browser: Browser, race_server: Server) -> Iterator[Any]:
    """Makes racers' pages (each its own browser context: its own storage), all watched."""
    opened: list[tuple[BrowserContext, Watcher]] = []

    def make(viewport: dict[str, int], **options: Any) -> Page:
        context, watcher = open_context(
            browser,
            race_server,
            viewport,
            reduced_motion="reduce",
            permissions=["clipboard-read", "clipboard-write"],
            **options,
        )
        opened.append((context, watcher))
        return context.new_page()

    yield make
    for context, _ in opened:
        context.close()
    for _, watcher in opened:
        watcher.check()


def racer_line(page: Page, number: int) -> Any:
    return page.locator(f'#race-racers li[data-racer="{number}"]')


def open_race(page: Page, base_url: str, name: str, computer: bool) -> str:
    """From the home page's link, open a race as guest ``name``; returns its id."""
    page.goto(base_url + "/")
    page.get_by_role("link", name="open a race").click()
    expect(page).to_have_title("Races · Foursquare")
    form = page.get_by_role("form", name="Open a race")
    form.get_by_label("Name in the race (optional)").fill(name)
    if computer:
        form.get_by_label("Race the computer").check()
    with page.expect_response(
        lambda r: r.url.endswith("/races") and r.request.method == "POST"
    ) as answer:
        form.get_by_role("button", name="Open a race").click()
    race_id: str = answer.value.json()["id"]
    expect(page).to_have_url(f"{base_url}/#/races/{race_id}")
    expect(page.get_by_role("heading", level=2)).to_have_text("Race lobby")
    return race_id


def join_race(page: Page, link: str, name: str) -> int:
    """Open the race's link and join it as guest ``name``; returns the racer's number."""
    page.goto(link)
    form = page.get_by_role("form", name="Join the race")
    form.get_by_label("Name in the race").fill(name)
    with page.expect_response(lambda r: r.url.endswith("/racers")) as answer:
        form.get_by_role("button", name="Join the race").click()
    you: int = answer.value.json()["you"]
    expect(form).to_be_hidden()
    expect(racer_line(page, you)).to_contain_text(name)
    return you


def place_first(page: Page) -> dict[str, Any]:
    """Place the card on the first legal cell of the racer's own table; returns the game."""
    with page.expect_response(
        lambda r: r.url.endswith("/placements") and r.request.method == "POST"
    ) as answer:
        page.locator("#race-board button.place").first.click()
    assert answer.value.status == 201
    game: dict[str, Any] = answer.value.json()["game"]
    expect(page.locator("#race-own")).to_have_attribute("data-version", str(game["version"]))
    return game


def play_out(page: Page) -> dict[str, Any]:
    """Play the racer's game to its end, the first legal cell each time."""
    game: dict[str, Any] = {}
    for _ in range(40):
        if page.locator("#race-own").get_attribute("data-status") != "in_progress":
            break
        game = place_first(page)
    expect(page.locator("#race-own")).to_have_attribute("data-status", OUTCOMES)
    expect(page.locator("#race-own-end")).to_contain_text("Your game is over:")
    return game


def wait_for_table(page: Page) -> None:
    """The countdown is over and the racer's own table is dealt."""
    expect(page.locator("#race-own")).to_have_attribute("data-status", "in_progress")
    expect(page.locator("#race-board button.place").first).to_be_visible()


def test_two_browsers_and_the_computer_race_to_a_ranking_and_a_rematch(
    racers: Any, race_server: Server
) -> None:
    base = race_server.base_url
    ana, bob = f"ana-{secrets.token_hex(3)}", f"bob-{secrets.token_hex(3)}"
    first = racers(DESKTOP)
    second = racers(LAPTOP)

    race_id = open_race(first, base, ana, computer=True)
    # The lobby: its link, copied; the opener and the computer in; Start (two racers are in).
    link = f"{base}/#/races/{race_id}"
    expect(first.get_by_label("Link to this race")).to_have_value(link)
    first.get_by_role("button", name="Copy the link").click()
    expect(first.locator("#race-copy-status")).to_contain_text("The link was copied")
    assert first.evaluate("() => navigator.clipboard.readText()") == link
    expect(racer_line(first, 1)).to_contain_text(ana)
    expect(racer_line(first, 2)).to_contain_text("The computer")
    expect(first.get_by_role("form", name="Join the race")).to_be_hidden()
    assert_accessible(first, "race lobby, the opener")

    # The friend opens the link: no Start button for them; they join under their name, and
    # the opener's lobby shows them as they come (the race's stream).
    second.goto(link)
    expect(second.get_by_role("button", name="Start the race")).to_be_hidden()
    assert_accessible(second, "race lobby, a visitor")
    assert join_race(second, link, bob) == 3
    expect(racer_line(first, 3)).to_contain_text(bob)
    expect(first.locator("#race-racers-heading")).to_have_text("Racers (3 of 4)")

    # The opener starts it: a countdown on both pages, then each racer's own table.
    first.get_by_role("button", name="Start the race").click()
    for page in (first, second):
        expect(page.locator("#race-countdown")).to_be_visible()
        expect(page.locator("#race-state")).to_contain_text("The race starts in")
    for page in (first, second):
        wait_for_table(page)
        expect(page.get_by_role("heading", level=2)).to_have_text("Race")

    # Each sees the others' progress move: the computer's on its own, the friend's as they
    # place.
    expect(racer_line(first, 2)).not_to_have_attribute("data-placements", "0")
    for count in (1, 2, 3):
        place_first(first)
        expect(racer_line(second, 1)).to_have_attribute("data-placements", str(count))
    expect(racer_line(second, 1)).to_contain_text("3 cards placed")
    # The guest racer's credential survives a reload: the same table comes back, playable.
    place_first(second)
    version = second.locator("#race-own").get_attribute("data-version")
    second.reload()
    expect(second.locator("#race-own")).to_have_attribute("data-version", str(version))
    wait_for_table(second)
    expect(racer_line(second, 1)).to_have_attribute("data-placements", "3")
    assert_accessible(second, "race running, the friend's table")

    # Both play to the end; each sees the other's end, and then the ranking.
    second_game = play_out(second)
    expect(racer_line(first, 3)).to_have_attribute("data-state", second_game["status"])
    # Said to screen readers as well, in the race's log.
    expect(first.locator("#race-news")).to_contain_text(f"{bob} finished: {second_game['status']}")
    play_out(first)
    for page in (first, second):
        result = page.get_by_role("region", name=re.compile("won the race|You finished"))
        expect(result).to_be_visible()
    race = httpx.get(f"{base}/races/{race_id}").json()
    assert race["status"] == "finished"
    ranked = [r["name"] if not r["computer"] else "The computer" for r in race["racers"]]
    for page in (first, second):
        rows = page.locator("#race-ranking-body tr")
        expect(rows).to_have_count(3)
        assert [rows.nth(i).locator("td").nth(1).inner_text() for i in range(3)] == ranked
        expect(rows.first.locator("td").first).to_have_text("1st")
        # Each racer's replay, public now that the race is over.
        for i, racer in enumerate(race["racers"]):
            replay = rows.nth(i).get_by_role("link", name=re.compile("^Replay "))
            expect(replay).to_have_attribute("href", f"#/games/{racer['game_id']}")
    mine = next(r for r in race["racers"] if r["name"] == ana)
    places = {1: "You won the race!", 2: "You finished 2nd", 3: "You finished 3rd"}
    expect(first.locator("#race-result-title")).to_have_text(places[mine["rank"]])
    assert_accessible(first, "race result")

    # The friend asks for the rematch and is in its lobby; the opener's button then takes
    # them to the same race, where they start it again.
    with second.expect_response(lambda r: r.url.endswith("/rematch")) as answer:
        second.get_by_role("button", name="Rematch").click()
    assert answer.value.status == 201
    rematch = answer.value.json()["id"]
    expect(second).to_have_url(f"{base}/#/races/{rematch}")
    expect(second.get_by_role("heading", level=2)).to_have_text("Race lobby")
    expect(first.get_by_role("button", name="Go to the rematch")).to_be_visible()
    with first.expect_response(lambda r: r.url.endswith("/rematch")) as answer:
        first.get_by_role("button", name="Go to the rematch").click()
    assert answer.value.status == 200 and answer.value.json()["id"] == rematch
    expect(first).to_have_url(f"{base}/#/races/{rematch}")
    for page in (first, second):
        expect(page.locator("#race-racers li")).to_have_count(3)
    expect(first.get_by_role("button", name="Start the race")).to_be_enabled()
    expect(second.get_by_role("form", name="Join the race")).to_be_hidden()


def test_four_browser_racers_see_each_others_progress(racers: Any, race_server: Server) -> None:
    base = race_server.base_url
    names = [f"r{n}-{secrets.token_hex(3)}" for n in range(1, 5)]
    pages = [racers(DESKTOP) for _ in names]
    race_id = open_race(pages[0], base, names[0], computer=False)
    link = f"{base}/#/races/{race_id}"
    for number, (page, name) in enumerate(zip(pages[1:], names[1:], strict=True), start=2):
        assert join_race(page, link, name) == number
    # The fourth filled the race: it starts by itself, on every page.
    for page in pages:
        wait_for_table(page)
    for page in pages:
        place_first(page)
    place_first(pages[2])
    for page in pages:
        for number in (1, 2, 4):
            expect(racer_line(page, number)).to_have_attribute("data-placements", "1")
        expect(racer_line(page, 3)).to_have_attribute("data-placements", "2")
        expect(page.locator("#race-racers progress")).to_have_count(4)
    bars = (
        pages[0]
        .locator("#race-racers progress")
        .evaluate_all("bars => bars.map((bar) => bar.value)")
    )
    assert bars == [1, 1, 2, 1]


def test_an_account_races_the_computer_on_a_phone_and_its_page_counts_the_race(
    racers: Any, race_server: Server
) -> None:
    base = race_server.base_url
    name = f"Pho-{secrets.token_hex(3)}"
    key = httpx.post(f"{base}/players", json={"name": name}).json()["key"]
    page = racers(PHONE, has_touch=True, is_mobile=True)
    page.goto(base + "/#/races")
    page.evaluate(
        "([name, key]) => localStorage.setItem('foursquare.account', JSON.stringify({name, key}))",
        [name, key],
    )
    page.reload()
    form = page.get_by_role("form", name="Open a race")
    expect(form).to_contain_text(f"Racing as {name}.")
    expect(form.get_by_label("Name in the race (optional)")).to_be_hidden()
    form.get_by_label("Race the computer").check()
    with page.expect_response(lambda r: r.url.endswith("/races")) as answer:
        form.get_by_role("button", name="Open a race").click()
    opened = answer.value.json()
    assert opened["racer_token"] is None and opened["racers"][0]["name"] == name
    expect(page.get_by_role("button", name="Start the race")).to_be_enabled()
    # The menu keeps to one line with its Races link.
    tops = page.locator("nav[aria-label=Main] li").evaluate_all(
        "items => items.map((item) => Math.round(item.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, tops
    expect(page.get_by_role("link", name="Races")).to_have_attribute("aria-current", "page")
    assert_fits_and_reachable(page, "race lobby, phone")
    assert_accessible(page, "race lobby, phone")

    page.get_by_role("button", name="Start the race").click()
    expect(page.locator("#race-countdown")).to_be_visible()
    assert_fits_and_reachable(page, "race countdown, phone")
    assert_accessible(page, "race countdown, phone")
    wait_for_table(page)
    assert_fits_and_reachable(page, "race running, phone")
    play_out(page)
    expect(page.locator("#race-result-title")).to_be_visible()
    expect(page.locator("#race-ranking-body tr")).to_have_count(2)
    assert_fits_and_reachable(page, "race result, phone")
    assert_accessible(page, "race result, phone")

    # The account's page counts the race, and lists it with its place.
    figures = httpx.get(f"{base}/players/{name}/races").json()
    assert figures["races_played"] == 1
    page.locator("#race-ranking-body").get_by_role("link", name=name).click()
    expect(page.locator("#stat-races")).to_have_text("1")
    expect(page.locator("#stat-races-won")).to_have_text(str(figures["races_won"]))
    row = page.locator(f'#player-races-body tr[data-race-id="{opened["id"]}"]')
    expect(row.locator("td").nth(1)).to_have_text("2")
    expect(row.locator("td").nth(2)).to_have_text(f"{figures['races'][0]['rank']} of 2")
    assert_accessible(page, "player page with races, phone")
    row.get_by_role("link").click()
    expect(page.locator("#race-result-title")).to_be_visible()


@pytest.mark.provokes_errors
def test_a_race_refusal_is_said_in_words(desktop: Page, server: Server) -> None:
    page = desktop
    # A race link cut short: no such race.
    page.goto(f"{server.base_url}/#/races/00000000-0000-4000-8000-000000000000")
    notice = page.get_by_role("alert")
    expect(notice).to_contain_text("This race could not be found")
    expect(notice).not_to_contain_text("404")
    expect(notice).not_to_contain_text("race_not_found")
    # Joining under a name already racing in it.
    taken = f"ana-{secrets.token_hex(3)}"
    opened = httpx.post(f"{server.base_url}/races", json={"player": taken}).json()
    page.goto(f"{server.base_url}/#/races/{opened['id']}")
    form = page.get_by_role("form", name="Join the race")
    form.get_by_label("Name in the race").fill(taken)
    form.get_by_role("button", name="Join the race").click()
    expect(notice).to_contain_text("That name is taken in this race")
    expect(notice).not_to_contain_text("409")
    expect(form).to_be_visible()
    assert_accessible(page, "race, a refusal")
